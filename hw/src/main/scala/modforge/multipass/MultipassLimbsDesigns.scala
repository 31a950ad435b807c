package modforge.multipass

import modforge.Generate
import modforge.polymul.StreamMul
import spinal.core._
import java.io.{File, PrintWriter}

/** Names and generation of the multi-pass engine with limbs side by side ([[MultipassLimbs]]), in the registry's
  * multi-pass family ([[MultipassDesigns]]): the one-limb engine's name with `_k<limbs>`, 2 or more,
  *
  *   `mpoly_<n>_x<n1>_k<limbs>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>][_m<fast|paper>][_h<halves>]`
  *
  * `_y<limbs>` gives each limb its own AXI4 port (`mems_<l>`), `_y1` (the default) one port shared through arbiters.
  * The limbs' primes are the `limbs` largest w-bit primes = 1 mod 2n (w = slot bits - 2 unless `_w`); the other
  * options and defaults are the one-limb engine's ([[MultipassEngineDesigns]]).
  *
  * Usage: `make rtl DESIGN=<name>` writes `<out>/<name>/rtl/<name>.v` and the manifest `<name>.json` (the parameters,
  * the limbs' primes, roots and region bases, the passes, the ports).
  */
object MultipassLimbsDesigns {
  val grammar = "mpoly_<n>_x<n1>_k<limbs>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>]" +
    "[_m<fast|paper>][_h<halves>][_y<ports: 1 or limbs>]"

  /** A multi-limb name: an `mpoly_` name with a `_k` option. */
  def isLimbs(name: String): Boolean = name.startsWith("mpoly_") && """_k\d""".r.findFirstIn(name).isDefined

  def parse(design: String): Either[String, MultipassLimbsConfig] =
    MultipassNames.parse(design, Seq("mpoly"), "kblspowmhy", "a multi-limb multi-pass engine name", grammar) { o =>
      MultipassLimbsConfig(o.n, o.n1, limbs = o.int("k", 1), busBits = o.int("b", 256), burstBeats = o.int("l", 2),
        slotBits = o.int("s", 32), lanes = o.int("p", 1), outstanding = o.int("o", 4), limbBits = o.int("w", 0),
        mul = o.mul, halves = o.int("h", 2), ports = o.int("y", 1))
    }

  def generate(out: String, name: String, c: MultipassLimbsConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(new MultipassLimbs(c))
    val m = c.mover
    val e0 = c.engines.head
    val fc = e0.columns
    val ic = e0.columnsInverse
    def nums(xs: Seq[Any]) = xs.mkString("[", ", ", "]")
    val bases = c.engines.map(e => MoverConfig.Regions.map(r => s""""$r": ${e.mover.regionBase(r)}""").mkString("{", ", ", "}"))
    val w = new PrintWriter(new File(dir, s"$name.json"))
    w.println(s"""{
  "design": "$name",
  "kind": "multipass_limbs",
  "family": "multipass",
  "registry": ${MultipassDesigns.entry(name, c).json},
  "title": "multi-pass negacyclic polynomial multiplier, ${c.limbs} limbs side by side behind one AXI4 master",
${MultipassManifest.layout(m, c.P, c.limbs)}
  "limbs": ${c.limbs},
  "axi_ports": ${c.ports},
  "id_bits": ${c.axi.idWidth},
  "region_bases": ${bases.mkString("[", ", ", "]")},
  "k": ${c.w},
  "latency": ${e0.promisedCycles(c.limbs / c.ports)},
  "model_cycles": ${e0.modelCycles(c.limbs / c.ports).mkString("[", ", ", "]")},
  "fill_cycles": ${e0.fillCycles.mkString("[", ", ", "]")},
  "cycles_per_product": ${e0.promisedCycles(c.limbs / c.ports)},
  "bytes_per_product_per_port": ${e0.bytesPerProduct * (c.limbs / c.ports)},
  "bytes_per_cycle_per_port": ${"%.3f".format((e0.bytesPerProduct * (c.limbs / c.ports)).toDouble / e0.promisedCycles((c.limbs / c.ports)))},
  "limb_bits": ${c.w},
  "primes": ${nums(c.engines.map(_.q))},
  "psis": ${nums(c.engines.map(_.columns.psi))},
  "mul": "${c.mul.name}",
  "halves": ${c.halves},
  "columns": {"ntt_lanes": ${fc.nttLanes}, "row_lanes": ${fc.R}, "ntt_latency_cycles": ${fc.shape.latency}, "twiddle_phases": ${fc.phases}, "blocks": ${fc.blocks}},
  "columns_inverse": {"ntt_lanes": ${ic.nttLanes}, "row_lanes": ${ic.R}, "ntt_latency_cycles": ${ic.shape.latency}, "twiddle_phases": ${ic.phases}, "blocks": ${ic.blocks}},
  "rows": {"engine_latency_cycles": ${e0.rows.engine.latency}, "groups": ${e0.rows.groups}},
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${Generate.portsJson(top)}
  ]
}""")
    w.close()
    println(f"rtl: $name%-48s ${c.limbs} limbs, q = ${c.engines.map(_.q).mkString(", ")} -> ${dir.getPath}/$name.v " +
      f"(${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }
}
