package modforge.intfft

import modforge.PreconditionError
import spinal.core._
import java.io.{File, PrintWriter}

/** One block multiplier of the registry: a Table 3 group and an organisation. */
case class IntFftDesign(g: IntFftParams, org: FftOrganisation) {
  def name: String = s"intfft_${g.name}_${org.name}"
  def build(): BlockMultiplier = org match {
    case FftOrganisation.Parallel  => new ParallelMultiplier(g)
    case FftOrganisation.Folded(p) => new FoldedMultiplier(g, p)
  }
}

/** One butterfly unit of a group alone (the folded multiplier's unit, with the k^-1 scaling
  * multiplier of the last inverse stage), so that its area and critical path can be measured. */
case class ButterflyDesign(g: IntFftParams) {
  def name: String = s"intfft_${g.name}_butterfly"
}

/** The block-schoolbook controller of a group around its parallel block multiplier (part B). */
case class SchoolbookDesign(g: IntFftParams) {
  def name: String = s"intfft_${g.name}_schoolbook"
}

/** The super-size Barrett reduction mod A0 around the group's schoolbook controller (part C). */
case class BarrettDesign(g: IntFftParams) {
  def name: String = s"intfft_${g.name}_barrett"
}

/** The Integer-FFT block multipliers in the design registry (docs/intfft.md, "Hardware"):
  * `intfft_<group>_parallel` (the paper's fully parallel network) and `intfft_<group>_folded_p<P>`
  * (P butterfly units over banked memory), group in fermat32, general32, fermat64, solinas64
  * ([[IntFftParams.groups]], Table 3 with the corrected roots).
  */
object IntFftDesigns {
  def isIntFft(name: String): Boolean = name.startsWith("intfft_")

  /** The one-line grammar (build/designs.json, `make help`). */
  val grammar: String = "intfft_<fermat32|general32|fermat64|solinas64>_<parallel|folded_p<P>|butterfly|schoolbook|barrett>"

  def help: String =
    s"valid Integer-FFT designs: intfft_<group>_parallel or intfft_<group>_folded_p<P> (block multipliers), intfft_<group>_butterfly (one butterfly unit), intfft_<group>_schoolbook (the controller), intfft_<group>_barrett (the super-size Barrett reduction mod A0), group in {${IntFftParams.groups.map(_.name).mkString(", ")}}, " +
      "P a power of two with 4P <= k (k = 64 for the 32-bit groups, 128 for the 64-bit ones)"

  /** The designs the tests and `make rtl-all`-style lists use. */
  val table: Seq[String] = IntFftParams.groups.flatMap(g => Seq(s"intfft_${g.name}_parallel", s"intfft_${g.name}_folded_p4"))

  def parse(name: String): Either[String, IntFftDesign] = parseAny(name).flatMap {
    case d: IntFftDesign => Right(d)
    case d => Left(s"'$name' is not a block multiplier; $help")
  }

  /** A block multiplier ([[IntFftDesign]]) or a schoolbook controller ([[SchoolbookDesign]]). */
  def parseAny(name: String): Either[String, Product] = {
    val Pattern = """intfft_([a-z0-9]+)_(parallel|folded_p(\d{1,4}))""".r
    val School = """intfft_([a-z0-9]+)_schoolbook""".r
    val Barrett = """intfft_([a-z0-9]+)_barrett""".r
    val Bfly = """intfft_([a-z0-9]+)_butterfly""".r
    name match {
      case Bfly(group) => IntFftParams.group(group).map(ButterflyDesign).toRight(s"unknown FFT group '$group' in '$name'; $help")
      case Barrett(group) => IntFftParams.group(group).map(BarrettDesign).toRight(s"unknown FFT group '$group' in '$name'; $help")
      case School(group) => IntFftParams.group(group).map(SchoolbookDesign).toRight(s"unknown FFT group '$group' in '$name'; $help")
      case Pattern(group, _, pStr) =>
        IntFftParams.group(group) match {
          case None => Left(s"unknown FFT group '$group' in '$name'; $help")
          case Some(g) =>
            if (pStr == null) Right(IntFftDesign(g, FftOrganisation.Parallel))
            else {
              val p = pStr.toInt
              if (p < 1 || (p & (p - 1)) != 0 || 4 * p > g.k) Left(s"'$name': P = $p butterfly units must be a power of two with 4P <= k = ${g.k}; $help")
              // Word-serial recovery reads d/b values a clock from the 2P banks of slot Z (FoldedMultiplier).
              else FoldedMultiplier.unitsError(g, p) match {
                case Some(e) => Left(s"'$name': $e")
                case None => Right(IntFftDesign(g, FftOrganisation.Folded(p)))
              }
            }
        }
      case _ => Left(s"unknown Integer-FFT multiplier '$name'; $help")
    }
  }

  /** The manifest lines every Integer-FFT design has: its group's parameters (Table 3). */
  private def groupJson(g: IntFftParams): String =
    s"""  "group": "${g.name}",\n  "p": "${g.p}",\n  "m": ${g.m},\n  "k": ${g.k},\n  "omega": "${g.omega}",\n""" +
      s"""  "b": ${g.b},\n  "d": ${g.d},\n  "reducer": "${g.reducer.name}","""

  def generate(out: String, d: Product): Unit = d match {
    case b: IntFftDesign => generate(out, b)
    case s: SchoolbookDesign => generateSchoolbook(out, s)
    case b: BarrettDesign => generateBarrett(out, b)
    case b: ButterflyDesign => generateButterfly(out, b)
  }

  /** The design a generated name is (for its manifest's registry member). */
  private def registryDesign(name: String): Product = parseAny(name).fold(e => sys.error(e), identity)

  /** A JSON string value. */
  private def q(s: String): String = "\"" + s + "\""

  /** Writes `<dir>/<name>.json`: what every Integer-FFT manifest holds (name, kind, title, the
    * group's parameters, the generator, the ports), with the kind's own `fields` (JSON values as text) between. */
  private def writeJson(dir: File, name: String, kind: String, title: String, g: IntFftParams,
                        fields: Seq[(String, Any)], top: Component): Unit = {
    val body = fields.map { case (k, v) => s"""  "$k": $v,\n""" }.mkString
    val w = new PrintWriter(new File(dir, s"$name.json"))
    w.println(s"""{
  "design": "$name",
  "kind": "$kind",
  "family": "intfft",
  "title": "$title",
  "registry": ${modforge.RegistryEntry.intfftEntry(name, registryDesign(name)).json},
${groupJson(g)}
$body  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${modforge.Generate.portsJson(top)}
  ]
}""")
    w.close()
  }

  def generateButterfly(out: String, d: ButterflyDesign): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = modforge.Generate.elaborate(out, d.name)(new Butterfly(d.g, scalable = true))
    writeJson(dir, d.name, "intfft_butterfly", "Integer-FFT butterfly unit (Cao et al., Fig. 2(ii)) with the k^-1 scaling multiplier",
      d.g, Seq("latency" -> top.latency), top)
    println(f"rtl: ${d.name}%-28s latency ${top.latency} -> ${dir.getPath}/${d.name}.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  /** The fields of the controller-driven designs (schoolbook, Barrett): the block and RAM geometry. */
  private def controllerFields(g: IntFftParams, sb: SchoolbookController, addrBits: Int, blockCountBits: Int): Seq[(String, Any)] = Seq(
    "block_bits" -> g.blockBits,
    "words_per_block" -> sb.W,
    "addr_bits" -> addrBits,
    "block_count_bits" -> blockCountBits,
    "read_latency" -> 1,
    "paper_latency" -> SchoolbookController.paperLatency(g),
    "multiplier_latency" -> sb.mul.latency,
    "latency_pad" -> sb.pad)

  def generateBarrett(out: String, d: BarrettDesign): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = modforge.Generate.elaborate(out, d.name)(new SuperBarrett(d.g))
    writeJson(dir, d.name, "intfft_barrett", "Integer-FFT super-size multiplier: super-size Barrett reduction mod A0 (Cao et al., Eqs. 9-11)",
      d.g, controllerFields(d.g, top.sb, top.addrBits, top.blockBits) ++ Seq(
        "cycles" -> q("pass1 + 1 + pass2 + sub_words + 1, passN = W + L + W Bx By + W"),
        "write_buses" -> 2), top)
    println(f"rtl: ${d.name}%-28s -> ${dir.getPath}/${d.name}.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  def generateSchoolbook(out: String, d: SchoolbookDesign): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = modforge.Generate.elaborate(out, d.name)(new SchoolbookController(d.g))
    writeJson(dir, d.name, "intfft_schoolbook", "Integer-FFT super-size multiplier: block-schoolbook controller (Cao et al., Steps 1-3.3)",
      d.g, controllerFields(d.g, top, top.addrBits, top.blockBits) ++ Seq(
        "first_write_cycle" -> top.t0,
        "cycles" -> q("W + L + W Bx By + W")), top)
    println(f"rtl: ${d.name}%-28s first write at clock ${top.t0}, pad ${top.pad} -> ${dir.getPath}/${d.name}.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  /** Writes `<out>/<design>/rtl/<design>.v` and its manifest. */
  def generate(out: String, d: IntFftDesign): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = modforge.Generate.elaborate(out, d.name)(d.build())
    writeManifest(dir, d, top)
    println(f"rtl: ${d.name}%-28s latency ${top.latency}, a pair every ${top.issueInterval} cycles -> ${dir.getPath}/${d.name}.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  def writeManifest(dir: File, d: IntFftDesign, top: BlockMultiplier): Unit = {
    val g = d.g
    val (units, folded) = d.org match {
      case FftOrganisation.Folded(p) =>
        val s = top.asInstanceOf[FoldedMultiplier].sched
        (p, Seq("issue_cycles" -> s.issueCycles, "schedule_cycles" -> s.steps.length, "handoff_cycle" -> s.handoff,
          "first_z_write_cycle" -> s.firstZWrite))
      case FftOrganisation.Parallel => (g.k / 2, Nil)
    }
    writeJson(dir, d.name, "intfft", s"Integer-FFT block multiplier (Cao et al.), ${d.org.name}", g, Seq(
      "organisation" -> q(d.org match { case FftOrganisation.Parallel => "parallel"; case _ => "folded" }),
      "butterfly_units" -> units,
      "block_bits" -> g.blockBits,
      "product_words" -> g.productWords,
      "butterfly_latency" -> Butterfly.latency(g),
      "pointwise_latency" -> PointwiseUnit.latency(g),
      "recovery_latency" -> (top match { case f: FoldedMultiplier => f.rec.latency; case _ => AdditionRecovery.latency(g) }),
      "latency" -> top.latency,
      "issue_interval" -> top.issueInterval) ++ folded, top)
  }
}
