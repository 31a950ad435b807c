package modforge.multipass

import modforge.Generate
import modforge.polymul.StreamMul
import spinal.core._
import java.io.{File, PrintWriter}

/** Names and generation of the `rows` pass ([[RowsPass]]), in the registry's multi-pass family ([[MultipassDesigns]]):
  *
  *   `rows_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>][_q<prime>][_m<fast|paper>]`
  *
  * Defaults as [[RowsConfig]]: bus 256, 2 beats, 32-bit slots, P = 1, 4 outstanding, w = slot bits - 2 (with
  * `_q`: the prime's bits), the first prime class whose engine prime serves n, and the engine's fast multipliers.
  * `_q<prime>` takes any prime = 1 mod 2n of at most w bits (and at least 17), the engine's given limb prime. `_p` here is the engine's
  * lanes P; `_m` its multipliers, as the streaming engine's names take them.
  *
  * Usage: `make rtl DESIGN=<name>`, or `./mill -i hw.runMain modforge.multipass.RowsDesigns [--out DIR] NAME...` writes
  * `<out>/<name>/rtl/<name>.v` and the manifest `<name>.json` (the parameters, the engine, the layout, the ports).
  */
object RowsDesigns {
  val grammar = "rows_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>][_q<prime>][_m<fast|paper>]"

  def name(c: RowsConfig): String =
    s"rows_${c.n}_x${c.n1}_b${c.mover.busBits}_l${c.mover.burstBeats}_s${c.mover.slotBits}_p${c.P}_o${c.mover.outstanding}_q${c.q}" +
      (if (c.mul == StreamMul.Fast) "" else s"_m${c.mul.name}")

  def parse(design: String): Either[String, RowsConfig] =
    MultipassNames.parse(design, Seq("rows"), "blspowqm", "a rows-pass name", grammar) { o =>
      RowsConfig(o.n, o.n1, busBits = o.int("b", 256), burstBeats = o.int("l", 2), slotBits = o.int("s", 32),
        lanes = o.int("p", 1), outstanding = o.int("o", 4), limbBits = o.int("w", 0), prime = o.prime, mul = o.mul)
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
  "family": "multipass",
  "registry": ${MultipassDesigns.entry(name, c).json},
  "title": "multi-pass engine's rows pass: each row's negacyclic n2-point product by the streaming engine, over x",
${MultipassManifest.layout(m, c.P)}
  "limb_bits": ${c.w},
  "prime": ${c.q},
  "prime_class": "${c.primeClass}",
  "engine": "${e.name}",
  "engine_mul": "${e.mul.name}",
  "engine_psi": ${e.psis.head},
  "engine_frame": ${e.frame},
  "engine_latency_cycles": ${e.latency},${MultipassManifest.sram(e)}
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

  def main(args: Array[String]): Unit = MultipassNames.main(args, "RowsDesigns", grammar, parse)(generate)
}
