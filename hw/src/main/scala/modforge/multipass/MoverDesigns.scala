package modforge.multipass

import modforge.Generate
import spinal.core._
import java.io.{File, PrintWriter}

/** Names and generation of the burst mover ([[MoverTop]]), in the registry's multi-pass family ([[MultipassDesigns]]):
  *
  *   `mover_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_k<operands>]`
  *
  * Defaults as [[MoverConfig]]: bus 256, 2 beats, 32-bit slots, lanes = e, 4 outstanding, 2 operands.
  *
  * Usage: `make rtl DESIGN=<name>`, or `./mill -i hw.runMain modforge.multipass.MoverDesigns [--out DIR] NAME...` writes
  * `<out>/<name>/rtl/<name>.v` and the manifest `<name>.json` (the parameters, the layout and the ports).
  */
object MoverDesigns {
  val grammar = "mover_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_k<operands>]"

  def name(c: MoverConfig): String =
    s"mover_${c.n}_x${c.n1}_b${c.busBits}_l${c.burstBeats}_s${c.slotBits}_p${c.wordLanes}_o${c.outstanding}_k${c.operands}"

  def parse(design: String): Either[String, MoverConfig] =
    MultipassNames.parse(design, Seq("mover"), "blspok", "a mover name", grammar) { o =>
      MoverConfig(o.n, o.n1, busBits = o.int("b", 256), burstBeats = o.int("l", 2), slotBits = o.int("s", 32),
        lanes = o.int("p", 0), outstanding = o.int("o", 4), operands = o.int("k", 2))
    }

  def generate(out: String, name: String, c: MoverConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(new MoverTop(c))
    val w = new PrintWriter(new File(dir, s"$name.json"))
    def list(xs: Seq[String]) = xs.map(x => s""""$x"""").mkString("[", ", ", "]")
    w.println(s"""{
  "design": "$name",
  "kind": "multipass_mover",
  "family": "multipass",
  "registry": ${MultipassDesigns.entry(name, c).json},
  "title": "multi-pass engine's AXI4 burst mover: one columns pass as a copy",
${MultipassManifest.layout(c, c.wordLanes)}
  "operands": ${c.operands},
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

  def main(args: Array[String]): Unit = MultipassNames.main(args, "MoverDesigns", grammar, parse)(generate)
}
