package modforge
package modmul

import spinal.core._

/** A named configuration of a registry design (docs/modmul.md, "Design-space exploration"):
  *
  *   `<base>__<token>[_<token>]*`   e.g. `barrett_64__p111101_d5000_drc`
  *
  * `<base>` is any multiplier of the registry (`barrett_64`, `mont_32`, ...); the ports, the
  * precomputation and the modulus class are the base's, so a variant is driven exactly like it.
  * Tokens, each at most once:
  *  - `p<bits>`  pipeline registers (paper families): bit i of the family's mask order
  *               ([[BarrettOptRegs.names]], [[ShoupRegs.names]], [[GShoupRegs.names]]), missing
  *               bits 0. `p1111` is BarrettOpt's default, `p111` Shoup's, `p111111` GShoup's.
  *  - `t<c>`     truncated quotient product, c dropped columns (barrett, shoup); gshoup: `t<cR>q<cQ>`.
  *  - `m<arch>`  the products' architecture, [[arith.MulArch]]'s token (e.g. `mbdks`).
  *  - synthesis options (flow only, the RTL is the base's): `drc` (dont_use drc_exclude.cells only),
  *    `d<ps>` (ABC delay target), `fa1`/`fa2` (adders onto sky130 fa/ha cells), `at`
  *    (`synth -arith_tree`), `nb` (no `synth -booth`), `ns` (no ABC sizing). The manifest's
  *    `synthesis` member carries them to `make harden`.
  *
  * `<family>_<k>_fast` (paper families) is the configuration the design-space exploration found
  * best ([[Best]]): an alias of one variant, named in its manifest.
  */
case class Variant(mask: Option[Seq[Boolean]] = None, trunc: Option[(Int, Int)] = None, arch: String = "",
                   synth: Seq[(String, String)] = Nil) {
  def tokens: Seq[String] =
    mask.map(m => "p" + m.map(b => if (b) "1" else "0").mkString).toSeq ++
      trunc.map { case (a, b) => if (b < 0) s"t$a" else s"t${a}q$b" }.toSeq ++
      (if (arch.nonEmpty) Seq("m" + arch) else Nil) ++ synth.map { case (k, v) => Variant.synthToken(k, v) }.filter(_.nonEmpty)

  /** The flow options as JSON members (flow/synth.py SynthOptions). */
  def synthJson: String = synth.map { case (k, v) => s""""$k": $v""" }.mkString("{", ", ", "}")
}

object Variant {
  val grammar: String = "<base>__<token>[_<token>]* with tokens p<0|1 bits>, t<c> (gshoup: t<cR>q<cQ>), " +
    "m<arch>, drc, d<ps>, fa1, fa2, at, nb, ns (docs/modmul.md, \"Design-space exploration\")"

  private def synthToken(k: String, v: String): String = (k, v) match {
    case ("dont_use", _) => "drc"
    case ("target_ps", ps) => s"d$ps"
    case ("script_target", _) => ""
    case ("adder_cells", n) => s"fa${n.replace("\"", "")}"
    case ("arith_tree", _) => "at"
    case ("booth", _) => "nb"
    case ("sizing", _) => "ns"
  }

  def parse(s: String): Either[String, Variant] = {
    if (s.isEmpty) return Left(s"no token after '__'; $grammar")
    var v = Variant()
    val P = """p([01]+)""".r; val T = """t(\d+)""".r; val TQ = """t(\d+)q(\d+)""".r
    val M = """m([a-z0-9]+)""".r; val D = """d(\d+)""".r; val FA = """fa([12])""".r
    val seen = scala.collection.mutable.Set[String]()
    for (tok <- s.split("_", -1).toSeq) {
      val key = if (tok.startsWith("fa") || tok == "drc" || tok == "at" || tok == "nb" || tok == "ns") tok.take(2) else tok.take(1)
      if (tok.nonEmpty && !seen.add(key)) return Left(s"token '$tok' repeats a setting in '__$s'; $grammar")
      tok match {
        case P(bits) => v = v.copy(mask = Some(bits.map(_ == '1')))
        case TQ(a, b) => v = v.copy(trunc = Some((a.toInt, b.toInt)))
        case T(a) => v = v.copy(trunc = Some((a.toInt, -1)))
        case "drc" => v = v.copy(synth = v.synth :+ ("dont_use" -> "\"drc\""))
        case D(ps) => v = v.copy(synth = v.synth :+ ("target_ps" -> ps) :+ ("script_target" -> "true"))
        case FA(n) => v = v.copy(synth = v.synth :+ ("adder_cells" -> s""""$n""""))
        case "at" => v = v.copy(synth = v.synth :+ ("arith_tree" -> "true"))
        case "nb" => v = v.copy(synth = v.synth :+ ("booth" -> "false"))
        case "ns" => v = v.copy(synth = v.synth :+ ("sizing" -> "false"))
        case M(a) => arith.MulArch.parse(a) match {
          case Left(e) => return Left(e)
          case Right(_) => v = v.copy(arch = a)
        }
        case _ => return Left(s"unknown token '$tok' in '__$s'; $grammar")
      }
    }
    if (v.tokens.isEmpty) Left(s"no token after '__'; $grammar") else Right(v)
  }
}

/** A registry design built with a [[Variant]]. The name is `<base>__<tokens>`, or the `_fast` alias. */
case class VariantDesign(base: ModMulDesign, v: Variant, alias: Option[String] = None) extends ModMulDesign {
  def name: String = alias.getOrElse(base.name + "__" + v.tokens.mkString("_"))
  def k: Int = base.k
  def familyName: String = base.familyName
  def title: String = base.title
  val arch: arith.MulArch = arith.MulArch.parse(v.arch).fold(e => throw new IllegalArgumentException(e), identity)

  /** Checks what the base and the tokens allow; Left(message) names the problem. */
  def check(): Either[String, VariantDesign] = {
    def fail(m: String) = Left(s"$name: $m; ${Variant.grammar}")
    val maskLen = names.size
    if (v.mask.isDefined && maskLen == 0) return fail("pipeline masks (p...) apply to barrett, shoup and gshoup only")
    if (v.mask.exists(_.size > maskLen)) return fail(s"the pipeline mask has ${v.mask.get.size} bits; ${base.familyName} has $maskLen: ${names.mkString(", ")}")
    if (v.trunc.isDefined && (maskLen == 0 || base.isInstanceOf[ProductDesign])) return fail("truncation (t...) applies to barrett, shoup and gshoup only")
    base match {
      case Design(GShoupFamily, _) if v.trunc.exists(_._2 < 0) => return fail("gshoup truncates two products: t<cR>q<cQ>")
      case Design(_, _) if v.trunc.exists(_._2 >= 0) && base.familyName != "gshoup" => return fail("t<c>q<c> is gshoup's; use t<c>")
      case _ =>
    }
    try { build0(dryRun = true); Right(this) } catch { case e: IllegalArgumentException => fail(e.getMessage.stripPrefix("requirement failed: ")) }
  }

  def names: Seq[String] = base match {
    case _: ProductDesign => Seq("mid")
    case Design(Barrett, _) => BarrettOptRegs.names
    case Design(ShoupFamily, _) => ShoupRegs.names
    case Design(GShoupFamily, _) => GShoupRegs.names
    case _ => Nil
  }

  private def build0(dryRun: Boolean): Any = {
    val m = v.mask
    val (c1, c2) = v.trunc.getOrElse((0, 0))
    val usesMid = m.exists(bits => names.zip(bits).exists { case (n, b) => b && n.contains("mid") })
    require(!usesMid || !arch.isYosys, "registers inside products (mid*) need an explicit multiplier architecture (m<arch>)")
    base match {
      case Design(Barrett, k) =>
        val c = BarrettOptConfig(k, m.map(BarrettOptRegs.fromMask).getOrElse(BarrettOptRegs()), c1)
        if (dryRun) c else new BarrettOpt(c)
      case Design(ShoupFamily, k) =>
        val c = ShoupConfig(k, m.map(ShoupRegs.fromMask).getOrElse(ShoupRegs()), c1)
        if (dryRun) c else new Shoup(c)
      case Design(GShoupFamily, k) =>
        val c = GShoupConfig(k, m.map(GShoupRegs.fromMask).getOrElse(GShoupRegs()), c1, math.max(c2, 0))
        if (dryRun) c else new GShoup(c)
      case p: ProductDesign => val c = p.copy(mid = m.exists(_.headOption.contains(true))); if (dryRun) c else c.build()
      case other => if (dryRun) other else other.build()
    }
  }

  def build(): ModMulComponent = arith.MulArchScope(arch) on build0(dryRun = false).asInstanceOf[ModMulComponent]

  override def manifestExtra: String = {
    val pipe = if (names.isEmpty) "" else {
      val bits = v.mask.getOrElse(Nil).padTo(names.size, false)
      val regs = v.mask.map(_ => names.zip(bits).collect { case (n, true) => s""""$n"""" }).getOrElse(Seq(""""default""""))
      s""",\n  "pipeline": [${regs.mkString(", ")}]"""
    }
    base.manifestExtra + alias.map(_ => s""",\n  "alias_of": "${base.name}__${v.tokens.mkString("_")}"""").getOrElse("") +
      s""",\n  "base": "${base.name}",\n  "variant": "${v.tokens.mkString("_")}",\n  "arch": "${v.arch}"""" +
      pipe + s""",\n  "synthesis": ${v.synthJson}"""
  }
}
