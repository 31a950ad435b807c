package modforge.multipass

import modforge.Generate
import modforge.polymul.StreamMul
import spinal.core._
import java.io.{File, PrintWriter}

/** Names and generation of the one-limb multi-pass engine ([[MultipassEngine]]), outside the registry for now:
  *
  *   `mpoly_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>][_q<prime>][_m<fast|paper>][_h<halves>]`
  *
  * The options are the passes' ([[ColumnsDesigns]], [[RowsDesigns]]), with their defaults: bus 256, 2 beats,
  * 32-bit slots, P = 1, 4 outstanding, w = slot bits - 2 (with `_q`: the prime's bits, at least 17), the largest
  * w-bit prime = 1 mod 2n (the column passes' default, given to the rows pass), fast multipliers, `_h2`.
  *
  * Usage: `./mill -i hw.runMain modforge.multipass.MultipassEngineDesigns [--out DIR] NAME...` writes
  * `<out>/<name>/rtl/<name>.v` and the manifest `<name>.json` (the parameters, the passes, the layout, the ports).
  */
object MultipassEngineDesigns {
  private val Pattern = """mpoly_(\d{1,6})_x(\d{1,6})((?:_[a-z][a-z0-9]{1,20})*)""".r
  private val Opt = """_([a-z])([a-z0-9]{1,20})""".r
  val grammar = "mpoly_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>]" +
    "[_q<prime>][_m<fast|paper>][_h<halves>]"

  def name(c: MultipassEngineConfig): String =
    s"mpoly_${c.n}_x${c.n1}_b${c.busBits}_l${c.burstBeats}_s${c.slotBits}_p${c.P}_o${c.outstanding}_w${c.w}_q${c.q}" +
      (if (c.mul == StreamMul.Fast) "" else s"_m${c.mul.name}") + (if (c.halves == 2) "" else s"_h${c.halves}")

  def parse(design: String): Either[String, MultipassEngineConfig] = design match {
    case Pattern(nS, n1S, opts) =>
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
        try Right(MultipassEngineConfig(nS.toInt, n1S.toInt, busBits = int("b", 256), burstBeats = int("l", 2),
          slotBits = int("s", 32), lanes = int("p", 1), outstanding = int("o", 4), limbBits = int("w", 0),
          prime = o.get("q").map(BigInt(_)).getOrElse(BigInt(0)), mul = mul.flatten.getOrElse(StreamMul.Fast), halves = int("h", 2)))
        catch { case e: IllegalArgumentException => Left(s"'$design': ${e.getMessage.stripPrefix("requirement failed: ")}") }
      }
    case _ => Left(s"'$design' is not a multi-pass engine name; $grammar")
  }

  def generate(out: String, name: String, c: MultipassEngineConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(new MultipassEngine(c))
    val m = c.mover
    val fc = c.columns
    val ic = c.columnsInverse
    val w = new PrintWriter(new File(dir, s"$name.json"))
    w.println(s"""{
  "design": "$name",
  "kind": "multipass_engine",
  "title": "multi-pass negacyclic polynomial multiplier, one limb: columns, rows, columns_inverse behind one AXI4 master",
  "n": ${c.n},
  "n1": ${c.n1},
  "n2": ${m.n2},
  "bus_bits": ${m.busBits},
  "burst_beats": ${m.burstBeats},
  "slot_bits": ${m.slotBits},
  "e": ${m.e},
  "be": ${m.be},
  "lanes": ${c.P},
  "outstanding": ${m.outstanding},
  "address_bits": ${m.addressBits},
  "region_bytes": ${m.regionBytes},
  "footprint_bytes": ${m.footprintBytes},
  "region_bases": {${MoverConfig.Regions.map(r => s""""$r": ${m.regionBase(r)}""").mkString(", ")}},
  "limb_bits": ${c.w},
  "prime": ${c.q},
  "psi": ${fc.psi},
  "r1": ${fc.r1},
  "mul": "${c.mul.name}",
  "halves": ${c.halves},
  "columns": {"ntt_lanes": ${fc.nttLanes}, "row_lanes": ${fc.R}, "ntt_latency_cycles": ${fc.shape.latency}, "twiddle_phases": ${fc.phases}, "blocks": ${fc.blocks}},
  "columns_inverse": {"ntt_lanes": ${ic.nttLanes}, "row_lanes": ${ic.R}, "ntt_latency_cycles": ${ic.shape.latency}, "twiddle_phases": ${ic.phases}, "blocks": ${ic.blocks}},
  "rows": {"engine": "${c.rows.engine.name}", "engine_latency_cycles": ${c.rows.engine.latency}, "groups": ${c.rows.groups}},
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${Generate.portsJson(top)}
  ]
}""")
    w.close()
    println(f"rtl: $name%-48s q = ${c.q}, columns NTT latency ${fc.shape.latency}, rows engine ${c.rows.engine.name} " +
      f"(latency ${c.rows.engine.latency}), columns_inverse NTT latency ${ic.shape.latency} -> ${dir.getPath}/$name.v " +
      f"(${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  def main(args: Array[String]): Unit = {
    var out = "build"
    var names = Vector[String]()
    var it = args.toList
    while (it.nonEmpty) it match {
      case "--out" :: dir :: rest => out = dir; it = rest
      case flag :: _ if flag.startsWith("--") => System.err.println(s"error: unknown option $flag; usage: MultipassEngineDesigns [--out DIR] NAME..."); sys.exit(2)
      case n :: rest => names :+= n; it = rest
      case Nil =>
    }
    if (names.isEmpty) { System.err.println(s"error: no design given; $grammar"); sys.exit(2) }
    val configs = names.map(n => n -> parse(n).fold(e => { System.err.println(s"error: $e"); sys.exit(2) }, identity))
    for ((n, c) <- configs) generate(out, n, c)
  }
}
