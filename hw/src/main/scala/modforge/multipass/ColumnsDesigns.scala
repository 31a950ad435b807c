package modforge.multipass

import modforge.Generate
import modforge.polymul.StreamMul
import spinal.core._
import java.io.{File, PrintWriter}

/** Names and generation of the column passes ([[ColumnsPass]]), outside the registry for now (the multi-pass engine
  * will bring the registry name, issue 40):
  *
  *   `cols_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>][_q<prime>][_m<fast|paper>][_h<halves>]`
  *
  * for the `columns` pass, `icols_...` for `columns_inverse`. Defaults as [[ColumnsConfig]]: bus 256, 2 beats,
  * 32-bit slots, P = 1, 4 outstanding, w = slot bits - 2, the largest w-bit prime = 1 mod 2n, the fast
  * multipliers, double-buffered (`_h2`). `_p` is the model's P (each operand's coefficients a cycle).
  *
  * Usage: `./mill -i hw.runMain modforge.multipass.ColumnsDesigns [--out DIR] NAME...` writes
  * `<out>/<name>/rtl/<name>.v` and the manifest `<name>.json` (the parameters, the NTT unit, the storage, the ports).
  */
object ColumnsDesigns {
  private val Pattern = """(i?cols)_(\d{1,6})_x(\d{1,6})((?:_[a-z][a-z0-9]{1,20})*)""".r
  private val Opt = """_([a-z])([a-z0-9]{1,20})""".r
  val grammar = "<cols|icols>_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>]" +
    "[_q<prime>][_m<fast|paper>][_h<halves>]"

  def name(c: ColumnsConfig): String =
    s"${if (c.inverse) "icols" else "cols"}_${c.n}_x${c.n1}_b${c.busBits}_l${c.burstBeats}_s${c.slotBits}_p${c.P}_o${c.outstanding}" +
      s"_w${c.w}_q${c.q}" + (if (c.mul == StreamMul.Fast) "" else s"_m${c.mul.name}") + (if (c.halves == 2) "" else s"_h${c.halves}")

  def parse(design: String): Either[String, ColumnsConfig] = design match {
    case Pattern(kind, nS, n1S, opts) =>
      val tokens = Opt.findAllMatchIn(opts).map(m => m.group(1) -> m.group(2)).toSeq
      val keys = tokens.map(_._1)
      val mul = tokens.collectFirst { case ("m", v) => StreamMul.parse(v) }
      if (keys.distinct.size != keys.size || keys.exists(k => !"blspowqmh".contains(k)))
        Left(s"'$design': options are _b, _l, _s, _p, _o, _w, _q, _m and _h, each at most once; $grammar")
      else if (mul.contains(None)) Left(s"'$design': the multipliers are _m${StreamMul.all.map(_.name).mkString(" or _m")}; $grammar")
      else if (tokens.exists { case (k, v) => k != "m" && (!v.forall(_.isDigit) || (k != "q" && v.length > 6)) })
        Left(s"'$design': _b, _l, _s, _p, _o, _w and _h take numbers up to 6 digits, _q a prime; $grammar")
      else {
        val o = tokens.toMap
        def int(k: String, d: Int) = o.get(k).map(_.toInt).getOrElse(d)
        try Right(ColumnsConfig(nS.toInt, n1S.toInt, inverse = kind == "icols", busBits = int("b", 256), burstBeats = int("l", 2),
          slotBits = int("s", 32), lanes = int("p", 1), outstanding = int("o", 4), limbBits = int("w", 0),
          prime = o.get("q").map(BigInt(_)).getOrElse(BigInt(0)), mul = mul.flatten.getOrElse(StreamMul.Fast), halves = int("h", 2)))
        catch { case e: IllegalArgumentException => Left(s"'$design': ${e.getMessage.stripPrefix("requirement failed: ")}") }
      }
    case _ => Left(s"'$design' is not a column-pass name; $grammar")
  }

  def generate(out: String, name: String, c: ColumnsConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(new ColumnsPass(c))
    val m = c.mover
    val w = new PrintWriter(new File(dir, s"$name.json"))
    def list(xs: Seq[String]) = xs.map(x => s""""$x"""").mkString("[", ", ", "]")
    w.println(s"""{
  "design": "$name",
  "kind": "multipass_columns",
  "pass": "${if (c.inverse) "columns_inverse" else "columns"}",
  "title": "multi-pass engine's ${if (c.inverse) "columns_inverse pass: inverse middle twiddles, inverse n1-point NTTs, x to c" else "columns pass: n1-point NTTs and middle twiddles, a and b to x and y"}",
  "n": ${c.n},
  "n1": ${c.n1},
  "n2": ${c.n2},
  "bus_bits": ${m.busBits},
  "burst_beats": ${m.burstBeats},
  "slot_bits": ${m.slotBits},
  "e": ${m.e},
  "be": ${m.be},
  "lanes": ${c.P},
  "ntt_lanes": ${c.nttLanes},
  "row_lanes": ${c.R},
  "outstanding": ${m.outstanding},
  "address_bits": ${m.addressBits},
  "region_bytes": ${m.regionBytes},
  "footprint_bytes": ${m.footprintBytes},
  "blocks": ${c.blocks},
  "operands": ${c.operands},
  "limb_bits": ${c.w},
  "prime": ${c.q},
  "psi": ${c.psi},
  "r1": ${c.r1},
  "mul": "${c.mul.name}",
  "ntt_frame": ${c.frame},
  "ntt_latency_cycles": ${c.shape.latency},
  "barrett_latency_cycles": ${c.barrettLatency},
  "twiddle_phases": ${c.phases},
  "halves": ${c.halves},
  "buffer_words": ${c.bufferWords},
  "twiddle_state_words": ${c.twiddleStateWords},
  "reads": ${list(if (c.inverse) Seq("x") else Seq("a", "b"))},
  "writes": ${list(if (c.inverse) Seq("c") else Seq("x", "y"))},
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${Generate.portsJson(top)}
  ]
}""")
    w.close()
    println(f"rtl: $name%-48s q = ${c.q}, NTT ${c.n1} points x ${c.nttLanes} lanes (latency ${c.shape.latency}), R = ${c.R}, " +
      f"d = ${c.phases}, ${c.bufferWords} buffer words -> ${dir.getPath}/$name.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  def main(args: Array[String]): Unit = {
    var out = "build"
    var names = Vector[String]()
    var it = args.toList
    while (it.nonEmpty) it match {
      case "--out" :: dir :: rest => out = dir; it = rest
      case flag :: _ if flag.startsWith("--") => System.err.println(s"error: unknown option $flag; usage: ColumnsDesigns [--out DIR] NAME..."); sys.exit(2)
      case n :: rest => names :+= n; it = rest
      case Nil =>
    }
    if (names.isEmpty) { System.err.println(s"error: no design given; $grammar"); sys.exit(2) }
    // Every name is checked before anything is written.
    val configs = names.map(n => n -> parse(n).fold(e => { System.err.println(s"error: $e"); sys.exit(2) }, identity))
    for ((n, c) <- configs) generate(out, n, c)
  }
}
