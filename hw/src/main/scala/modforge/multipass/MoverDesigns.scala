package modforge.multipass

import modforge.Generate
import spinal.core._
import java.io.{File, PrintWriter}

/** Names and generation of the burst mover ([[MoverTop]]), outside the registry for now (the multi-pass
  * engine will bring the registry name, issue 40):
  *
  *   `mover_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_k<operands>]`
  *
  * Defaults as [[MoverConfig]]: bus 256, 2 beats, 32-bit slots, lanes = e, 4 outstanding, 2 operands.
  *
  * Usage: `./mill -i hw.runMain modforge.multipass.MoverDesigns [--out DIR] NAME...` writes
  * `<out>/<name>/rtl/<name>.v` and the manifest `<name>.json` (the parameters, the layout and the ports).
  */
object MoverDesigns {
  private val Pattern = """mover_(\d{1,6})_x(\d{1,6})((?:_[a-z]\d{1,5})*)""".r
  private val Opt = """_([a-z])(\d{1,5})""".r
  val grammar = "mover_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_k<operands>]"

  def name(c: MoverConfig): String =
    s"mover_${c.n}_x${c.n1}_b${c.busBits}_l${c.burstBeats}_s${c.slotBits}_p${c.wordLanes}_o${c.outstanding}_k${c.operands}"

  def parse(design: String): Either[String, MoverConfig] = design match {
    case Pattern(nS, n1S, opts) =>
      val tokens = Opt.findAllMatchIn(opts).map(m => m.group(1) -> m.group(2).toInt).toSeq
      val keys = tokens.map(_._1)
      if (keys.distinct.size != keys.size || keys.exists(k => !"blspok".contains(k)))
        Left(s"'$design': options are _b, _l, _s, _p, _o and _k, each at most once; $grammar")
      else {
        val o = tokens.toMap
        try Right(MoverConfig(nS.toInt, n1S.toInt, busBits = o.getOrElse("b", 256), burstBeats = o.getOrElse("l", 2),
          slotBits = o.getOrElse("s", 32), lanes = o.getOrElse("p", 0), outstanding = o.getOrElse("o", 4),
          operands = o.getOrElse("k", 2)))
        catch { case e: IllegalArgumentException => Left(s"'$design': ${e.getMessage.stripPrefix("requirement failed: ")}") }
      }
    case _ => Left(s"'$design' is not a mover name; $grammar")
  }

  def generate(out: String, name: String, c: MoverConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(new MoverTop(c))
    val w = new PrintWriter(new File(dir, s"$name.json"))
    def list(xs: Seq[String]) = xs.map(x => s""""$x"""").mkString("[", ", ", "]")
    w.println(s"""{
  "design": "$name",
  "kind": "multipass_mover",
  "title": "multi-pass engine's AXI4 burst mover: one columns pass as a copy",
  "n": ${c.n},
  "n1": ${c.n1},
  "n2": ${c.n2},
  "bus_bits": ${c.busBits},
  "burst_beats": ${c.burstBeats},
  "slot_bits": ${c.slotBits},
  "e": ${c.e},
  "be": ${c.be},
  "lanes": ${c.wordLanes},
  "outstanding": ${c.outstanding},
  "operands": ${c.operands},
  "address_bits": ${c.addressBits},
  "region_bytes": ${c.regionBytes},
  "footprint_bytes": ${c.footprintBytes},
  "blocks": ${c.blocks},
  "reads": ${list(c.reads)},
  "writes": ${list(c.writes)},
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${Generate.portsJson(top)}
  ]
}""")
    w.close()
    println(f"rtl: $name%-40s e = ${c.e}, be = ${c.be}, ${c.blocks} blocks of ${c.n1} rows -> ${dir.getPath}/$name.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  def main(args: Array[String]): Unit = {
    var out = "build"
    var names = Vector[(String, String)]()
    var it = args.toList
    while (it.nonEmpty) it match {
      case "--out" :: dir :: rest => out = dir; it = rest
      case flag :: _ if flag.startsWith("--") => System.err.println(s"error: unknown option $flag; usage: MoverDesigns [--out DIR] NAME..."); sys.exit(2)
      case n :: rest => names :+= (n -> out); it = rest
      case Nil =>
    }
    if (names.isEmpty) { System.err.println(s"error: no design given; $grammar"); sys.exit(2) }
    // Every name is checked before anything is written.
    val configs = names.map { case (n, o) => (n, o, parse(n).fold(e => { System.err.println(s"error: $e"); sys.exit(2) }, identity)) }
    for ((n, o, c) <- configs) generate(o, n, c)
  }
}
