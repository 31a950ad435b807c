package modforge.polymul

import modforge.{Generate, RegistryEntry}
import modforge.ntt.PolymulDesigns
import spinal.core._
import java.io.{File, PrintWriter}

/** Names of the streaming RNS engine (docs/polymul.md, "The streaming engine"):
  *
  *   `polymul_<n>_<logq>_s<P>[_w<w>]`   P lanes, w-bit limbs (default: [[StreamConfig.defaultLimbBits]])
  *   `polymul_<n>_<logq>[_w<w>]`        for (n, logq) outside the SSA paper's Table I: the engine at P = 4
  *   options `_m<fast|paper>` (multipliers), `_r<sram|ff>` (delay lines), `_c<any|proth|proth2l|proth3l>`
  *   (the primes' class, [[PrimeClass]]) or `_q<hash>` (the user's own primes, given beside the name:
  *   `Generate --primes q0,q1,...`, `make rtl PRIMES=q0,q1,...`; the hash is [[StreamPrimes.hash]])
  *
  * n a power of two from 16 to 32768, log q from 16 to 1024. The paper's Table I names without
  * options stay the SRAM NTT tile ([[PolymulDesigns]]).
  */
object StreamDesigns {
  private val Pattern = """polymul_(\d{1,6})_(\d{1,5})((?:_[a-z][a-z0-9]{1,7})*)""".r
  private val Opt = """_([a-z])([a-z0-9]{1,7})""".r

  /** One line (`make help`, refusals): the details are in docs/polymul.md. */
  val grammar: String = s"polymul_<n>_<logq>_s<P>[_w<w>][_m<${StreamMul.all.map(_.name).mkString("|")}>][_r<${LineStore.all.map(_.name).mkString("|")}>][_c<class>|_q<hash>], " +
    s"n = 2^${log2(StreamConfig.minN)}..2^${log2(StreamConfig.maxN)}, log q ${StreamConfig.minLogq}..${StreamConfig.maxLogq}"
  private def log2(x: Int) = 31 - Integer.numberOfLeadingZeros(x)

  /** Names a refusal offers as the nearest (Refusal.nearest): the goal sets' engines at their defaults. */
  val examples: Seq[String] = Seq("polymul_1024_19_s4", "polymul_2048_33_s4", "polymul_4096_62_s2_w32", "polymul_16_20_s1")

  def name(c: StreamConfig): String = s"polymul_${c.n}_${c.logq}_s${c.lanes}_w${c.limbBits}" + (if (c.mul == StreamMul.Fast) "" else s"_m${c.mul.name}") +
    (if (c.store == LineStore.Auto) "" else s"_r${c.store.name}") + (if (c.primeClass == PrimeClass.AnyPrime) "" else s"_c${c.primeClass.name}") +
    (if (c.givenPrimes.isEmpty) "" else s"_q${StreamPrimes.hash(c.givenPrimes)}")

  /** Some(config or error) for a streaming name; None for a name that is the paper's tile. `primes`: the
    * user's own (`--primes`, make's PRIMES=), which a name of them carries as `_q<hash>`; with primes every
    * `polymul_` name is a streaming one. */
  def parse(design: String, primes: Seq[BigInt] = Nil): Option[Either[String, StreamConfig]] = design match {
    case Pattern(nS, lS, opts) =>
      val tokens = Opt.findAllMatchIn(opts).map(m => m.group(1) -> m.group(2)).toSeq
      val named = Seq("m", "r", "c", "q") // options whose value is a word
      val ints = tokens.collect { case (k, v) if !named.contains(k) && v.forall(_.isDigit) => k -> v.toInt }.toMap
      val keys = tokens.map(_._1)
      val (n, logq) = (nS.toInt, lS.toInt)
      val stream = keys.exists(k => Seq("s", "w", "m", "r", "c", "q").contains(k)) || !PolymulDesigns.paperSets.contains(n -> logq) ||
        primes.nonEmpty
      val hash = tokens.collectFirst { case ("q", v) => v }
      val list = primes.mkString(",")
      // The name of these primes: the name as given, its _q<hash> set to theirs.
      def withHash(h: String) = s"polymul_${n}_$logq" + tokens.filter(_._1 != "q").map { case (k, v) => s"_$k$v" }.mkString + s"_q$h"
      val mul = tokens.collectFirst { case ("m", v) => StreamMul.parse(v) }
      val store = tokens.collectFirst { case ("r", v) => LineStore.parse(v) }
      val cls = tokens.collectFirst { case ("c", v) => PrimeClass.parse(v) }
      if (!stream) None
      else if (keys.contains("p")) Some(Left(s"'$design': _p<P> (the SRAM tile's lanes) and _s<P> (the streaming engine's) together: keep one"))
      else if (keys.distinct.size != keys.size || keys.exists(k => !Seq("s", "w", "m", "r", "c", "q").contains(k)) ||
        tokens.exists { case (k, v) => !named.contains(k) && !v.forall(_.isDigit) })
        Some(Left(s"'$design': options are _s<P>, _w<w>, _m<${StreamMul.all.map(_.name).mkString("|")}>, _r<${LineStore.all.map(_.name).mkString("|")}>, " +
          s"_c<${PrimeClass.all.map(_.name).mkString("|")}> and _q<hash>, each at most once; $grammar"))
      else if (hash.exists(h => !h.matches("[0-9a-f]{7}")))
        Some(Left(s"'$design': _q takes the hash of your primes, 7 hex digits (the first of sha256 of the primes in decimal joined by ','), " +
          s"not '${hash.get}'; $grammar"))
      else if (hash.isDefined && primes.isEmpty)
        Some(Left(s"'$design': _q${hash.get} names a design of your own primes, and none were given: pass the primes whose hash is ${hash.get} " +
          s"(make rtl PRIMES=q0,q1,..., Generate --primes q0,q1,...: the first 7 hex digits of sha256 of the primes in decimal, in their order, " +
          s"joined by ','); $grammar"))
      else if (mul.contains(None)) Some(Left(s"'$design': the multipliers are _m${StreamMul.all.map(_.name).mkString(" or _m")}; $grammar"))
      else if (store.contains(None)) Some(Left(s"'$design': the delay lines are _r${LineStore.all.map(_.name).mkString(" or _r")}; $grammar"))
      else if (cls.contains(None)) Some(Left(s"'$design': the prime classes are _c${PrimeClass.all.map(_.name).mkString(" or _c")}; $grammar"))
      else StreamConfig.check(n, logq, ints.get("s"), ints.get("w"), mul.flatten.getOrElse(StreamMul.Fast), store.flatten.getOrElse(LineStore.Auto),
        cls.flatten.getOrElse(PrimeClass.AnyPrime), primes) match {
        case Left(e) => Some(Left(s"'$design': $e; $grammar"))
        case Right(c) if primes.nonEmpty && !hash.contains(StreamPrimes.hash(primes)) =>
          val right = StreamPrimes.hash(primes)
          Some(Left(hash match {
            case None => s"'$design': PRIMES=$list given, but the name has no _q<hash>: the design of these primes is ${withHash(right)} " +
              s"(_q$right: the first 7 hex digits of sha256 of '$list'); $grammar"
            case Some(h) => s"'$design': _q$h is not the hash of PRIMES=$list: the design of these primes is ${withHash(right)} " +
              s"(_q$right: the first 7 hex digits of sha256 of '$list'), or pass the primes whose hash is $h; $grammar"
          }))
        case r => Some(r)
      }
    case _ => None
  }

  def entry(name: String, c: StreamConfig): RegistryEntry =
    RegistryEntry(name, "polymul", "polynomial multiplier, streaming RNS NTT engine",
      Seq[(String, Any)]("n" -> c.n, "logq" -> c.logq, "arch" -> "stream", "lanes" -> c.lanes, "limb_bits" -> c.limbBits,
        "limbs" -> c.limbs, "mul" -> c.mul.name, "store" -> c.store.name, "prime_class" -> c.primeClassName, "primes" -> c.primes, "psi" -> c.psis),
      name, Some("polymul_stream_bench"), gls = true, "polymul_stream", Some("polymul.stream"))

  def generate(out: String, name: String, c: StreamConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(new StreamPolymul(c))
    writeManifest(new File(dir, s"$name.json"), name, c, Some(top))
    println(f"rtl: $name%-20s L = ${c.limbs} limbs of ${c.limbBits} bits, ${c.frame} cycles a product, latency ${c.latency} -> ${dir.getPath}/$name.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  /** The delay lines per limb and their storage, the macros' areas from their Liberty ([[mem.SkyMacro]]). */
  def storageJson(c: StreamConfig): String = {
    val groups = c.lineGroups.map { case (pipe, d, w) =>
      val m = c.lineInMacros(d)
      val g = DelayLine.grid(w, d)
      s"""{"pipeline": "$pipe", "depth": $d, "width": $w, "kind": "${if (m) "sram" else "flip-flops"}"""" +
        (if (m) s""", "macro": "${g.sky.name}", "macros": ${g.count}, "macro_area_um2": ${f"${g.areaUm2}%.3f"}}""" else "}")
    }
    val macros = c.macroLines.map { case (_, d, w) => DelayLine.grid(w, d) }
    s"""{"store": "${c.store.name}", "limbs": ${c.limbs}, "delay_line_bits": ${c.delayBits * c.limbs}, "flip_flop_line_bits": ${c.flopLineBits * c.limbs},
    "macro_count": ${macros.map(_.count).sum * c.limbs}, "macro_area_um2": ${f"${macros.map(_.areaUm2).sum * c.limbs}%.3f"},
    "macro_models": [${macros.map(_.sky.name).distinct.map("\"" + _ + "\"").mkString(", ")}],
    "twiddle_constants": ${c.twiddleWords * c.limbs},
    "lines_per_limb": [
      ${groups.mkString(",\n      ")}
    ]}"""
  }

  /** The macros as the flow reads them (flow/harden.py, flow/configs.py: the NTT tile's `sram` member), null without. */
  /** The manifest's `sram` member: the macros of `copies` engines of configuration c ("null" without macros). */
  def sramJson(c: StreamConfig, copies: Int = 1): String = {
    val macros = c.macroLines.map { case (_, d, w) => DelayLine.grid(w, d) }
    val k = c.limbs * copies
    if (macros.isEmpty) "null"
    else s"""{"macro_models": [${macros.map(_.sky.name).distinct.map("\"" + _ + "\"").mkString(", ")}], "macro_count": ${macros.map(_.count).sum * k}, "macro_area_um2": ${f"${macros.map(_.areaUm2).sum * k}%.3f"}}"""
  }

  /** The manifest alone, without elaborating (`Generate --manifest-only`): `<out>/<name>/plan/<name>.json`,
    * for sets whose Verilog would be too large to write (storage, cycles and ports are the
    * configuration's; no "rtl"). */
  def plan(out: String, name: String, c: StreamConfig): Unit = {
    val dir = new File(s"$out/$name/plan")
    dir.mkdirs()
    writeManifest(new File(dir, s"$name.json"), name, c, None)
    println(f"plan: $name%-20s L = ${c.limbs} limbs of ${c.limbBits} bits, ${c.frame} cycles a product -> ${dir.getPath}/$name.json (no RTL)")
  }

  /** The ports, as the top declares them (the plan has no top to read them from). */
  private def ports(c: StreamConfig): String = {
    val w = c.limbs * c.lanes * c.limbBits
    Seq(("in_valid", "in", 1), ("in_ready", "out", 1), ("in_a", "in", w), ("in_b", "in", w), ("out_valid", "out", 1),
      ("out_ready", "in", 1), ("out_c", "out", w), ("reset", "in", 1), ("clk", "in", 1))
      .map { case (n, d, b) => s"""    {"name": "$n", "dir": "$d", "width": $b}""" }.mkString(",\n")
  }

  def writeManifest(f: File, name: String, c: StreamConfig, top: Option[StreamPolymul]): Unit = {
    def strs(xs: Seq[BigInt]) = xs.map(x => "\"" + x + "\"").mkString("[", ", ", "]")
    val w = new PrintWriter(f)
    w.println(s"""{
  "design": "$name",
  "kind": "polymul_stream",
  "family": "polymul",
  "title": "polynomial multiplier, streaming RNS NTT engine",
  "registry": ${entry(name, c).json},
  "n": ${c.n},
  "logq": ${c.logq},
  "lanes": ${c.lanes},
  "limb_bits": ${c.limbBits},
  "limbs": ${c.limbs},
  "prime_class": "${c.primeClassName}",
  "primes": ${strs(c.primes)},
  "psi": ${strs(c.psis)},
  "Q": "${c.bigQ}",
  "Q_bits": ${c.bigQ.bitLength},
  "layout": "beat t of a product carries coefficient j*n/P + t of limb l (its residue mod q_l) in bits [(l*P + j)*w, (l*P + j + 1)*w) of in_a, in_b and out_c",
  "cycles_per_product": ${c.frame},
  "latency_cycles": ${c.latency},
  "reset_cycles": ${StreamPolymul.resetCycles},
  "storage": ${storageJson(c)},
  "sram": ${sramJson(c)},
  "k": ${c.limbBits},
  "latency": ${c.latency},
  "synthesis": ${c.mul.synthJson},
  "multipliers": {"config": "${c.mul.name}", "twiddle": "shoup_${c.shoupK}${c.mul.tokens(c.shoupK, "shoup")}", "twiddle_latency": ${c.shoupLatency}, "twiddle_per_limb": ${c.shoupPerLimb},
                  "pointwise": "barrett_${c.limbBits}${c.mul.tokens(c.limbBits, "barrett")}", "pointwise_latency": ${c.barrettLatency}, "pointwise_per_limb": ${c.lanes}},
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${top.map(Generate.portsJson).getOrElse(ports(c))}
  ]
}""")
    w.close()
  }
}
