package modforge

import modforge.modmul.{Best, Designs, Variant}
import modforge.ntt.{NttConfig, NttDesigns, NttOp, NttTile, PolymulDesigns, TwiddleStore}
import spinal.core._
import java.io.{File, PrintWriter}

/** The SpinalHDL settings every generated design uses: synchronous active-high `reset`, `clk`. */
object ModforgeSpinal {
  def config(targetDirectory: String): SpinalConfig = SpinalConfig(
    targetDirectory = targetDirectory,
    defaultConfigForClockDomains = ClockDomainConfig(resetKind = SYNC, resetActiveLevel = HIGH),
    // A fixed header: no date and no git hash, so regenerating an unchanged design gives an
    // identical file whatever the commit (the flows rerun a design when its RTL hash changes).
    headerWithDate = false,
    headerWithRepoHash = false
  )
}

/** Writes `<out>/<design>/rtl/<design>.v` and a manifest `<design>.json` (ports, widths, latency).
  *
  * Usage: Generate [--out DIR] [--ntt-q Q] [--ntt-psi PSI] DESIGN... | --table | --reduction-table | --ntt-table | --best | --list
  * `--table` generates the 12 designs of the paper's Table 1 and writes the index `<out>/designs.json`;
  * `--reduction-table` the reduction family's table designs (reports/reduction_table.md);
  * `--ntt-table` the NTT tiles of reports/ntt_table.md; `--best` the `_fast` configurations ([[Best]]);
  * `--polymul` the polymul_<n>_<logq> tiles of the SSA paper's Table I sets ([[ntt.PolymulDesigns]]). Options apply to the designs named after
  * them, so one call can write several variants: `--out DIR`, `--ntt-q`/`--ntt-psi` (the modulus
  * and root of the NTT tiles; `--ntt-q default` restores [[NttConfig]]'s defaults), and `--primes q0,q1,...`
  * (a streaming polymul engine's own limb primes, its name's `_q<hash>`, [[polymul.StreamPrimes.userPrimes]], or a
  * multi-limb multi-pass engine's, `mpoly_<n>_x<n1>_k<limbs>..._q<hash>`, [[multipass.MultipassLimbsDesigns]];
  * `--primes default` drops them).
  */
object Generate {
  def main(args: Array[String]): Unit = {
    var out = "build"
    var names = Vector[(String, String, Option[BigInt], Option[BigInt])]() // (design, out, q, psi)
    var givenPrimes = Map[Int, Seq[BigInt]]() // names' index -> the --primes before it
    var primes = Seq.empty[BigInt]
    var table = false
    var manifestOnly = false
    var q, psi: Option[BigInt] = None
    def number(flag: String, v: String): Option[BigInt] = if (v == "default") None else try Some(BigInt(v)) catch {
      case _: NumberFormatException => System.err.println(s"error: $flag needs an integer, got '$v'"); sys.exit(2)
    }
    def primeList(v: String): Seq[BigInt] = if (v == "default" || v.isEmpty) Nil else v.split(",", -1).toSeq.map(x => try BigInt(x.trim) catch {
      case _: NumberFormatException => System.err.println(s"error: --primes (PRIMES=) needs primes in decimal separated by commas, q0,q1,..., got '$v'"); sys.exit(2)
    })
    val usage = "usage: Generate [--out DIR] [--ntt-q Q] [--ntt-psi PSI] [--primes Q0,Q1,...] [--manifest-only] DESIGN... | --table | --reduction-table | --ntt-table | --best | --polymul | --index | --list | --serve"
    var it = args.toList
    while (it.nonEmpty) {
      it match {
        case "--out" :: dir :: rest => out = dir; it = rest
        case "--table" :: rest      => names ++= Designs.table.map(d => (d.name, out, q, psi)); table = true; it = rest
        case "--reduction-table" :: rest => names ++= reduction.ReductionDesigns.table.map(d => (d, out, q, psi)); table = true; it = rest
        case "--ntt-table" :: rest  => names ++= (NttDesigns.table ++ NttDesigns.bestTable).map(d => (d, out, q, psi)); table = true; it = rest
        case "--best" :: rest       => names ++= Best.names.map(d => (d, out, q, psi)); table = true; it = rest
        case "--manifest-only" :: rest => manifestOnly = true; it = rest
        case "--polymul" :: rest    => names ++= PolymulDesigns.names.map(d => (d, out, q, psi)); table = true; it = rest
        case "--ntt-q" :: v :: rest   => q = number("--ntt-q", v); it = rest
        case "--ntt-psi" :: v :: rest => psi = number("--ntt-psi", v); it = rest
        case "--primes" :: v :: rest  => primes = primeList(v); it = rest
        case "--serve" :: _ =>
          // One name per input line, one answer per output line ("@@" + the entry or {"error": ...}): a
          // long-lived JVM for verif/registry.py, which asks for names one at a time in a test session.
          val in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in))
          Iterator.continually(in.readLine()).takeWhile(_ != null).foreach { n =>
            println("@@" + RegistryEntry.describe(n).fold(e => s"""{"error": ${RegistryEntry.str(e)}}""", _.json))
            System.out.flush()
          }
          return
        case "--index" :: rest      => new File(out).mkdirs(); writeIndex(new File(out, "designs.json")); it = rest; if (rest.isEmpty) return
        case "--list" :: rest       => (Designs.table.map(_.name) ++ reduction.ReductionDesigns.table ++ NttDesigns.table ++ Best.names ++ PolymulDesigns.names).foreach(println); return
        case flag :: _ if flag.startsWith("--") =>
          System.err.println(s"error: unknown option $flag; $usage"); sys.exit(2)
        case n :: rest => if (primes.nonEmpty) givenPrimes += names.size -> primes; names :+= ((n, out, q, psi)); it = rest
        case Nil       =>
      }
    }
    if (names.isEmpty) { System.err.println("error: no design given\n  Fix: name one (make rtl DESIGN=<name>); make help lists every family's grammar; docs/registry.md"); sys.exit(2) }
    def fail(msg: String) = { System.err.println(s"error: $msg"); sys.exit(2) }
    // --ntt-q / --ntt-psi (make's NTT_Q / NTT_PSI) choose an NTT tile's modulus and root: refused elsewhere, not ignored.
    for ((n, _, nq, npsi) <- names if (nq.isDefined || npsi.isDefined) && !NttDesigns.isNtt(n))
      fail(s"$n: NTT_Q / NTT_PSI (--ntt-q / --ntt-psi) apply to NTT tiles (ntt_...) only; $n is not one. Fix: leave them unset")
    // --primes (make's PRIMES=) are a streaming polymul engine's limbs: refused elsewhere, not ignored.
    val primesOf = names.zipWithIndex.map { case (j, i) => j._1 -> givenPrimes.getOrElse(i, Nil) }.toMap
    // A multi-pass name's refusal is its parser's (MultipassDesigns.parse: a multi-limb engine takes them).
    for ((n, ps) <- primesOf if ps.nonEmpty && !PolymulDesigns.isPolymul(n) && !multipass.MultipassDesigns.isMultipass(n))
      fail(s"$n: PRIMES (--primes) gives a streaming polymul engine's or a multi-limb multi-pass engine's limb primes " +
        s"(polymul_<n>_<logq>_s<P>..._q<hash>, mpoly_<n>_x<n1>_k<limbs>..._q<hash>); $n is not one. Fix: leave it unset")
    val (passNames, nonPassNames) = names.partition(j => multipass.MultipassDesigns.isMultipass(j._1))
    val (fftNames, nonFftNames) = nonPassNames.partition(j => intfft.IntFftDesigns.isIntFft(j._1))
    val (polyNames, otherNames) = nonFftNames.partition(j => PolymulDesigns.isPolymul(j._1))
    val (nttNames, mulNames) = otherNames.partition(j => NttDesigns.isNtt(j._1))
    // --ntt-q / --ntt-psi do not apply: a polymul design's q is its parameter set's.
    val (streamNames, tileNames) = polyNames.partition(j => polymul.StreamDesigns.parse(j._1, primesOf(j._1)).isDefined)
    val streams = streamNames.map { case (n, o, _, _) => (n, polymul.StreamDesigns.parse(n, primesOf(n)).get.fold(e => fail(Refusal(n, e)), identity), o) }
    val polys = tileNames.map { case (n, o, _, _) => (n, PolymulDesigns.parse(n).fold(e => fail(Refusal(n, e)), identity), o) }
    // Every name is checked before anything is written.
    // A tile variant `<tile>__<tokens>` takes the product architecture (m<arch>) and synthesis tokens.
    val tiles = nttNames.map { case (n, o, nq, npsi) =>
      val (c, v) = NttDesigns.parseVariant(n, nq, npsi).fold(e => fail(Refusal(n, e)), identity)
      (c, o, v)
    }
    val designs = mulNames.map { case (n, o, _, _) => (Registry.parse(n).fold(e => fail(Refusal(n, e)), identity), o) }
    val ffts = fftNames.map { case (n, o, _, _) => (intfft.IntFftDesigns.parseAny(n).fold(e => fail(Refusal(n, e)), identity), o) }
    val passes = passNames.map { case (n, o, _, _) => (n, multipass.MultipassDesigns.parse(n, primesOf(n)).fold(e => fail(Refusal(n, e)), identity), o) }
    if (manifestOnly && (polys.nonEmpty || tiles.nonEmpty || designs.nonEmpty || ffts.nonEmpty || passes.nonEmpty))
      fail("--manifest-only applies to the streaming polymul engines (polymul_<n>_<logq>_s<P>...) only: nothing was written")
    if (table) { new File(out).mkdirs(); writeIndex(new File(out, "designs.json")) }
    for ((c, o, v) <- tiles) generateTile(o, c, v)
    for ((n, c, o) <- polys) generateTile(o, c, None, Some(n))
    for ((n, c, o) <- streams) if (manifestOnly) polymul.StreamDesigns.plan(o, n, c) else polymul.StreamDesigns.generate(o, n, c)
    for ((d, o) <- ffts) intfft.IntFftDesigns.generate(o, d)
    for ((n, c, o) <- passes) multipass.MultipassDesigns.generate(o, n, c)
    for ((d, out) <- designs) {
      val t0 = System.nanoTime()
      val (dir, top) = elaborate(out, d.name)(d.build())
      writeManifest(new File(dir, s"${d.name}.json"), d, top)
      println(f"rtl: ${d.name}%-20s latency ${top.latency} -> ${dir.getPath}/${d.name}.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
    }
  }

  /** Elaborates `build` into `<out>/<name>/rtl/<name>.v`, its top module named after the design;
    * returns the folder and the top (for the manifest). */
  def elaborate[T <: Component](out: String, name: String)(build: => T): (File, T) = {
    val dir = new File(s"$out/$name/rtl")
    dir.mkdirs()
    val report = ModforgeSpinal.config(dir.getPath).generateVerilog {
      val c = build
      c.setDefinitionName(name)
      c
    }
    (dir, report.toplevel)
  }

  /** `alias`: the design's own name where it is not the tile's registry name (polymul_<n>_<logq>). */
  def generateTile(out: String, c: NttConfig, v: Option[Variant] = None, alias: Option[String] = None): Unit = {
    val t0 = System.nanoTime()
    val name = alias.getOrElse(c.name + v.map("__" + _.tokens.mkString("_")).getOrElse(""))
    val arch = v.map(x => arith.MulArch.parse(x.arch).toOption.get).getOrElse(arith.MulArch())
    val (dir, top) = elaborate(out, name)(arith.MulArchScope(arch) on new NttTile(c))
    writeTileManifest(new File(dir, s"$name.json"), c, top, name, v, alias.isDefined)
    println(f"rtl: ${name}%-12s q = ${c.q}, psi = ${c.psi}, NTT ${c.cycles(NttOp.Ntt)} cycles -> ${dir.getPath}/$name.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  def portsJson(top: Component): String = top.getAllIo.toSeq.map { p =>
    val dir = if (p.isInput) "in" else "out"
    s"""    {"name": "${p.getName()}", "dir": "$dir", "width": ${p.getBitsWidth}}"""
  }.mkString(",\n")

  /** The tile's manifest: everything a test bench or report needs, including the cycle counts it
    * promises (checked by verif/tests/test_ntt_tile.py against its own formula and the simulation).
    */
  def writeTileManifest(f: File, c: NttConfig, top: NttTile, name: String, v: Option[Variant], polymul: Boolean = false): Unit = {
    val w = new PrintWriter(f)
    def perOp(value: NttOp => Int) = NttOp.all.map(o => s""""${o.name}": ${value(o)}""").mkString(", ")
    w.println(s"""{
  "design": "$name",
  "kind": "ntt",${v.map(x => s"""\n  "base": "${c.name}",\n  "arch": "${x.arch}",\n  "synthesis": ${x.synthJson},""").getOrElse("")}${if (polymul) s"""\n  "base": "${c.name}",\n  "polymul": {"n": ${c.n}, "logq": ${c.k}},""" else ""}
  "family": "ntt",
  "title": "NTT tile, ${c.mul.title}",
  "registry": ${RegistryEntry.tileEntry(name, c, v, polymul).json},
  "n": ${c.n},
  "k": ${c.k},
  "p": ${c.p},
  "arrangement": "${c.mul.name}",
  "twiddles": "${c.twiddles.name}",
  "storage": "${c.storage.name}",
  "sram": ${sramJson(c)},
  "q": "${c.q}",
  "psi": "${c.psi}",
  "twiddle_rom_sha256": ${if (c.twiddles == TwiddleStore.Rom) "\"" + c.twiddleSha256 + "\"" else "null"},
  "reduction": ${c.mul.reduction(c.k).map(r => s"""{"design": "${r.name}", "h": ${r.h}, "factor_shift": ${reduction.ReductionPrecompute.factorShift(r)}, "pwmul_passes": ${c.mul.pwPasses}}""").getOrElse("null")},
  "latency": ${top.latency},
  "drain_cycles": ${c.drainCycles},
  "cycles": {${perOp(c.cycles)}},
  "utilization": {${NttOp.all.map(o => f""""${o.name}": ${c.utilization(o)}%.4f""").mkString(", ")}},
  "ops": {${perOp(_.code)}},
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${portsJson(top)}
  ]
}""")
    w.close()
  }

  /** An `_sram` tile's macros (null for flip-flop storage): per bank role the macro, the grid of one
    * bank (columns x rows = count) and the banks; totals; areas from the macros' Liberty `area`
    * ([[mem.SkyMacro]]), macros only (no logic). */
  private def um2(a: Double): String = f"$a%.3f"
  def sramJson(c: NttConfig): String = if (c.sramBanks.isEmpty) "null" else {
    val groups = c.sramBanks.map { g =>
      s"""      {"role": "${g.role}", "banks": ${g.banks}, "width": ${g.grid.width}, "depth": ${g.grid.depth}, "macro": "${g.grid.sky.name}", """ +
        s""""columns": ${g.grid.columns}, "rows": ${g.grid.rows}, "macros_per_bank": ${g.grid.count}, "macros": ${g.macros}, "area_um2": ${um2(g.areaUm2)}}"""
    }
    val models = c.sramBanks.map(_.grid.sky.name).distinct.map("\"" + _ + "\"").mkString(", ")
    s"""{
    "macro_models": [$models],
    "banks": [
${groups.mkString(",\n")}
    ],
    "macro_count": ${c.sramBanks.map(_.macros).sum},
    "macro_area_um2": ${um2(c.sramBanks.map(_.areaUm2).sum)}
  }"""
  }

  /** `<out>/designs.json`: the registry as the Python side and the Makefile read it. */
  /** Every family's one-line name grammar, defined beside its parser (`make help` prints them). */
  def grammar: Seq[(String, String)] = Seq(
    "modmul" -> Designs.grammar, "variant" -> Variant.grammar, "fast" -> ("<barrett|shoup|gshoup>_<k>_fast; " + modforge.modmul.Best.help),
    "mul" -> s"mul_<k>, ${Designs.minProductK} <= k <= ${Designs.maxK}", "reduction" -> s"${reduction.ReductionConfig.grammar}, ${Designs.minK} <= k <= ${Designs.maxK}",
    "ntt" -> NttDesigns.grammar, "polymul" -> (PolymulDesigns.grammar + "; " + polymul.StreamDesigns.grammar), "intfft" -> intfft.IntFftDesigns.grammar,
    "multipass" -> multipass.MultipassDesigns.grammar)

  def writeIndex(f: File): Unit = {
    // Written beside and renamed into place: make test reads the index in its layout chain while a
    // second generator run writes it again (Makefile, `test`), and a reader must never see half of it.
    val tmp = new File(f.getPath + ".tmp")
    val w = new PrintWriter(tmp)
    def list(xs: Seq[Any]) = xs.map(x => s""""$x"""").mkString("[", ", ", "]")
    w.println(s"""{
  "families": ${list(Designs.families.map(_.name))},
  "min_k": ${Designs.minK},
  "max_k": ${Designs.maxK},
  "table_widths": ${Designs.tableWidths.mkString("[", ", ", "]")},
  "table": ${list(Designs.table.map(_.name))},
  "ntt_table": ${list(NttDesigns.table)},
  "ntt_best": ${list(NttDesigns.bestTable)},
  "reduction_table": ${list(reduction.ReductionDesigns.table)},
  "best": ${list(Best.names)},
  "polymul": ${list(PolymulDesigns.names)},
  "intfft_table": ${list(intfft.IntFftDesigns.table)},
  "grammar": {${grammar.map { case (f, g) => s"${RegistryEntry.str(f)}: ${RegistryEntry.str(g)}" }.mkString(", ")}},
  "titles": {${(Designs.families.map(f => f.name -> f.title) ++ reduction.Method.all.map(m => m.name -> m.title)).map { case (f, t) => s"${RegistryEntry.str(f)}: ${RegistryEntry.str(t)}" }.mkString(", ")}}
}""")
    w.close()
    java.nio.file.Files.move(tmp.toPath, f.toPath, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                             java.nio.file.StandardCopyOption.ATOMIC_MOVE)
  }

  def writeManifest(f: File, d: ModMulDesign, top: ModMulComponent): Unit = {
    val w = new PrintWriter(f)
    w.println(s"""{
  "design": "${d.name}",
  "family": "${d.familyName}",
  "title": "${d.title}",
  "registry": ${RegistryEntry.of(d).json},
  "k": ${d.k}${d.manifestExtra},
  "latency": ${top.latency},
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${portsJson(top)}
  ]
}""")
    w.close()
  }
}
