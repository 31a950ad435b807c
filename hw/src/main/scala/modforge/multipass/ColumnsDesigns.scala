package modforge.multipass

import modforge.Generate
import modforge.polymul.StreamMul
import spinal.core._
import java.io.{File, PrintWriter}

/** Names and generation of the column passes ([[ColumnsPass]]), in the registry's multi-pass family ([[MultipassDesigns]]):
  *
  *   `cols_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>][_q<prime>][_m<fast|paper>][_h<halves>]`
  *
  * for the `columns` pass, `icols_...` for `columns_inverse`. Defaults as [[ColumnsConfig]]: bus 256, 2 beats,
  * 32-bit slots, P = 1, 4 outstanding, w = slot bits - 2, the largest w-bit prime = 1 mod 2n, the fast
  * multipliers, double-buffered (`_h2`). `_p` is the model's P (each operand's coefficients a cycle).
  *
  * Usage: `make rtl DESIGN=<name>`, or `./mill -i hw.runMain modforge.multipass.ColumnsDesigns [--out DIR] NAME...` writes
  * `<out>/<name>/rtl/<name>.v` and the manifest `<name>.json` (the parameters, the NTT unit, the storage, the ports).
  */
object ColumnsDesigns {
  val grammar = "<cols|icols>_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>]" +
    "[_q<prime>][_m<fast|paper>][_h<halves>]"

  def name(c: ColumnsConfig): String =
    s"${if (c.inverse) "icols" else "cols"}_${c.n}_x${c.n1}_b${c.busBits}_l${c.burstBeats}_s${c.slotBits}_p${c.P}_o${c.outstanding}" +
      s"_w${c.w}_q${c.q}" + (if (c.mul == StreamMul.Fast) "" else s"_m${c.mul.name}") + (if (c.halves == 2) "" else s"_h${c.halves}")

  def parse(design: String): Either[String, ColumnsConfig] =
    MultipassNames.parse(design, Seq("cols", "icols"), "blspowqmh", "a column-pass name", grammar) { o =>
      ColumnsConfig(o.n, o.n1, inverse = o.prefix == "icols", busBits = o.int("b", 256), burstBeats = o.int("l", 2),
        slotBits = o.int("s", 32), lanes = o.int("p", 1), outstanding = o.int("o", 4), limbBits = o.int("w", 0),
        prime = o.prime, mul = o.mul, halves = o.int("h", 2))
    }

  def generate(out: String, name: String, c: ColumnsConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(ColumnsUnit(c))
    val m = c.mover
    val w = new PrintWriter(new File(dir, s"$name.json"))
    def list(xs: Seq[String]) = xs.map(x => s""""$x"""").mkString("[", ", ", "]")
    w.println(s"""{
  "design": "$name",
  "kind": "multipass_columns",
  "family": "multipass",
  "registry": ${MultipassDesigns.entry(name, c).json},
  "pass": "${if (c.inverse) "columns_inverse" else "columns"}",
  "title": "multi-pass engine's ${if (c.inverse) "columns_inverse pass: inverse middle twiddles, inverse n1-point NTTs, x to c" else "columns pass: n1-point NTTs and middle twiddles, a and b to x and y"}",
${MultipassManifest.layout(m, c.P)}
  "ntt_lanes": ${c.nttLanes},
  "row_lanes": ${c.R},
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

  def main(args: Array[String]): Unit = MultipassNames.main(args, "ColumnsDesigns", grammar, parse)(generate)
}
