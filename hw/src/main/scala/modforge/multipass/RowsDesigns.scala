package modforge.multipass

import modforge.Generate
import modforge.polymul.StreamMul
import spinal.core._
import java.io.{File, PrintWriter}

/** Names and generation of the `rows` pass ([[RowsPass]]), outside the registry for now (the multi-pass engine
  * will bring the registry name, issue 40):
  *
  *   `rows_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>][_q<prime>][_m<fast|paper>]`
  *
  * Defaults as [[RowsConfig]]: bus 256, 2 beats, 32-bit slots, P = 1, 4 outstanding, w = slot bits - 2 (with
  * `_q`: the prime's bits), the first prime class whose engine prime serves n, and the engine's fast multipliers.
  * `_q<prime>` takes any prime = 1 mod 2n of at most w bits (and at least 17), the engine's given limb prime. `_p` here is the engine's
  * lanes P; `_m` its multipliers, as the streaming engine's names take them.
  *
  * Usage: `./mill -i hw.runMain modforge.multipass.RowsDesigns [--out DIR] NAME...` writes
  * `<out>/<name>/rtl/<name>.v` and the manifest `<name>.json` (the parameters, the engine, the layout, the ports).
  */
object RowsDesigns {
  private val Pattern = """rows_(\d{1,6})_x(\d{1,6})((?:_[a-z][a-z0-9]{1,20})*)""".r
  private val Opt = """_([a-z])([a-z0-9]{1,20})""".r
  val grammar = "rows_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>][_q<prime>][_m<fast|paper>]"

  def name(c: RowsConfig): String =
    s"rows_${c.n}_x${c.n1}_b${c.mover.busBits}_l${c.mover.burstBeats}_s${c.mover.slotBits}_p${c.P}_o${c.mover.outstanding}_q${c.q}" +
      (if (c.mul == StreamMul.Fast) "" else s"_m${c.mul.name}")

  def parse(design: String): Either[String, RowsConfig] = design match {
    case Pattern(nS, n1S, opts) =>
      val tokens = Opt.findAllMatchIn(opts).map(m => m.group(1) -> m.group(2)).toSeq
      val keys = tokens.map(_._1)
      val mul = tokens.collectFirst { case ("m", v) => StreamMul.parse(v) }
      if (keys.distinct.size != keys.size || keys.exists(k => !"blspowqm".contains(k)))
        Left(s"'$design': options are _b, _l, _s, _p, _o, _w, _q and _m, each at most once; $grammar")
      else if (mul.contains(None)) Left(s"'$design': the multipliers are _m${StreamMul.all.map(_.name).mkString(" or _m")}; $grammar")
      else if (tokens.exists { case (k, v) => k != "m" && (!v.forall(_.isDigit) || (k != "q" && v.length > 6)) })
        Left(s"'$design': _b, _l, _s, _p, _o and _w take numbers up to 6 digits, _q a prime; $grammar")
      else {
        val o = tokens.toMap
        def int(k: String, d: Int) = o.get(k).map(_.toInt).getOrElse(d)
        try Right(RowsConfig(nS.toInt, n1S.toInt, busBits = int("b", 256), burstBeats = int("l", 2), slotBits = int("s", 32),
          lanes = int("p", 1), outstanding = int("o", 4), limbBits = int("w", 0), prime = o.get("q").map(BigInt(_)).getOrElse(BigInt(0)),
          mul = mul.flatten.getOrElse(StreamMul.Fast)))
        catch { case e: IllegalArgumentException => Left(s"'$design': ${e.getMessage.stripPrefix("requirement failed: ")}") }
      }
    case _ => Left(s"'$design' is not a rows-pass name; $grammar")
  }

  def generate(out: String, name: String, c: RowsConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(new RowsPass(c))
    val m = c.mover
    val e = c.engine
    val w = new PrintWriter(new File(dir, s"$name.json"))
    w.println(s"""{
  "design": "$name",
  "kind": "multipass_rows",
  "title": "multi-pass engine's rows pass: each row's negacyclic n2-point product by the streaming engine, over x",
  "n": ${c.n},
  "n1": ${c.n1},
  "n2": ${c.n2},
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
  "limb_bits": ${c.w},
  "prime": ${c.q},
  "prime_class": "${c.primeClass}",
  "engine": "${e.name}",
  "engine_mul": "${e.mul.name}",
  "engine_psi": ${e.psis.head},
  "engine_frame": ${e.frame},
  "engine_latency_cycles": ${e.latency},
  "engine_reset_cycles": ${modforge.polymul.StreamPolymul.resetCycles},
  "chunk_bursts": ${c.chunkBursts},
  "chunk_beats": ${c.chunkBeats},
  "chunk_coeffs": ${c.chunkCoeffs},
  "groups_per_row": ${c.groupsPerRow},
  "groups": ${c.groups},
  "lane_stride_bytes": ${c.laneStrideBytes},
  "buffer_beats": ${4 * c.P * c.chunkBeats + 2 * c.P * c.chunkBeats},
  "reads": ["x", "y"],
  "writes": ["x"],
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${Generate.portsJson(top)}
  ]
}""")
    w.close()
    println(f"rtl: $name%-44s q = ${c.q} (${c.primeClass}), engine ${e.name}, latency ${e.latency}; ${c.groupsPerRow} groups a row " +
      f"of ${c.chunkCoeffs} beats -> ${dir.getPath}/$name.v (${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }

  def main(args: Array[String]): Unit = {
    var out = "build"
    var names = Vector[String]()
    var it = args.toList
    while (it.nonEmpty) it match {
      case "--out" :: dir :: rest => out = dir; it = rest
      case flag :: _ if flag.startsWith("--") => System.err.println(s"error: unknown option $flag; usage: RowsDesigns [--out DIR] NAME..."); sys.exit(2)
      case n :: rest => names :+= n; it = rest
      case Nil =>
    }
    if (names.isEmpty) { System.err.println(s"error: no design given; $grammar"); sys.exit(2) }
    // Every name is checked before anything is written.
    val configs = names.map(n => n -> parse(n).fold(e => { System.err.println(s"error: $e"); sys.exit(2) }, identity))
    for ((n, c) <- configs) generate(out, n, c)
  }
}
