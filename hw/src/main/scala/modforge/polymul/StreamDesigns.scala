package modforge.polymul

import modforge.{Generate, RegistryEntry}
import modforge.ntt.PolymulDesigns
import spinal.core._
import java.io.{File, PrintWriter}

/** Names of the streaming RNS engine (docs/polymul.md, "The streaming engine"):
  *
  *   `polymul_<n>_<logq>_s<P>[_w<w>]`   P lanes, w-bit limbs (default: [[StreamConfig.defaultLimbBits]])
  *   `polymul_<n>_<logq>[_w<w>]`        for (n, logq) outside the SSA paper's Table I: the engine at P = 4
  *
  * n a power of two from 16 to 32768, log q from 16 to 1024. The paper's Table I names without
  * options stay the SRAM NTT tile ([[PolymulDesigns]]).
  */
object StreamDesigns {
  private val Pattern = """polymul_(\d{1,6})_(\d{1,5})((?:_[a-z]\d{1,6})*)""".r
  private val Opt = """_([a-z])(\d{1,6})""".r

  val grammar: String = s"polymul_<n>_<logq>_s<P>[_w<w>] (streaming RNS engine: n a power of two from ${StreamConfig.minN} to " +
    s"${StreamConfig.maxN}, log q ${StreamConfig.minLogq}..${StreamConfig.maxLogq}, P lanes, w-bit limbs ${StreamConfig.minLimbBits}..${StreamConfig.maxLimbBits})"

  def name(c: StreamConfig): String = s"polymul_${c.n}_${c.logq}_s${c.lanes}_w${c.limbBits}"

  /** Some(config or error) for a streaming name; None for a name that is the paper's tile. */
  def parse(design: String): Option[Either[String, StreamConfig]] = design match {
    case Pattern(nS, lS, opts) =>
      val tokens = Opt.findAllMatchIn(opts).map(m => m.group(1) -> m.group(2).toInt).toSeq
      val keys = tokens.map(_._1)
      val (n, logq) = (nS.toInt, lS.toInt)
      val stream = keys.contains("s") || keys.contains("w") || !PolymulDesigns.paperSets.contains(n -> logq)
      if (!stream) None
      else if (keys.contains("p")) Some(Left(s"'$design': _p<P> is the SRAM tile's option and _s<P> the streaming engine's; use one"))
      else if (keys.distinct.size != keys.size || keys.exists(k => k != "s" && k != "w"))
        Some(Left(s"'$design': options are _s<P> and _w<w>, each at most once; $grammar"))
      else Some(StreamConfig.check(n, logq, tokens.toMap.get("s"), tokens.toMap.get("w")).left.map(e => s"'$design': $e; $grammar"))
    case _ => None
  }

  def entry(name: String, c: StreamConfig): RegistryEntry =
    RegistryEntry(name, "polymul", "polynomial multiplier, streaming RNS NTT engine",
      Seq[(String, Any)]("n" -> c.n, "logq" -> c.logq, "arch" -> "stream", "lanes" -> c.lanes, "limb_bits" -> c.limbBits,
        "limbs" -> c.limbs, "primes" -> c.primes, "psi" -> c.psis),
      name, Some("polymul_stream_bench"), gls = true, "polymul_stream", Some("polymul.stream"))

  def generate(out: String, name: String, c: StreamConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(new StreamPolymul(c))
    writeManifest(new File(dir, s"$name.json"), name, c, top)
    println(f"rtl: $name%-20s L = ${c.limbs} limbs of ${c.limbBits} bits, ${c.frame} cycles a product, latency ${c.latency} -> ${dir.getPath}/$name.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  def writeManifest(f: File, name: String, c: StreamConfig, top: StreamPolymul): Unit = {
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
  "primes": ${strs(c.primes)},
  "psi": ${strs(c.psis)},
  "Q": "${c.bigQ}",
  "Q_bits": ${c.bigQ.bitLength},
  "layout": "beat t of a product carries coefficient j*n/P + t of limb l (its residue mod q_l) in bits [(l*P + j)*w, (l*P + j + 1)*w) of in_a, in_b and out_c",
  "cycles_per_product": ${c.frame},
  "latency_cycles": ${c.latency},
  "storage": {"kind": "flip-flops", "delay_line_bits": ${c.delayBits * c.limbs}, "twiddle_constants": ${c.twiddleWords * c.limbs}},
  "multipliers": {"twiddle": "shoup_${c.shoupK}", "twiddle_latency": ${c.shoupLatency}, "twiddle_per_limb": ${c.shoupPerLimb},
                  "pointwise": "barrett_${c.limbBits}", "pointwise_latency": ${c.barrettLatency}, "pointwise_per_limb": ${c.lanes}},
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${Generate.portsJson(top)}
  ]
}""")
    w.close()
  }
}
