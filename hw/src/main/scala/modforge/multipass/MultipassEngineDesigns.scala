package modforge.multipass

import modforge.Generate
import modforge.polymul.StreamMul
import spinal.core._
import java.io.{File, PrintWriter}

/** Names and generation of the one-limb multi-pass engine ([[MultipassEngine]]), in the registry's multi-pass family ([[MultipassDesigns]]):
  *
  *   `mpoly_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>][_q<prime>][_m<fast|paper>][_h<halves>]`
  *
  * The options are the passes' ([[ColumnsDesigns]], [[RowsDesigns]]), with their defaults: bus 256, 2 beats,
  * 32-bit slots, P = 1, 4 outstanding, w = slot bits - 2 (with `_q`: the prime's bits, at least 17), the largest
  * w-bit prime = 1 mod 2n (the column passes' default, given to the rows pass), fast multipliers, `_h2`.
  *
  * `_t1` runs a batch with the passes overlapped ([[MultipassBatch]]: a `count` input, products `productStrideBytes`
  * apart); `_t0`, the default, one product at a time ([[MultipassEngine]]).
  *
  * Usage: `make rtl DESIGN=<name>`, or `./mill -i hw.runMain modforge.multipass.MultipassEngineDesigns [--out DIR] NAME...` writes
  * `<out>/<name>/rtl/<name>.v` and the manifest `<name>.json` (the parameters, the passes, the layout, the ports).
  */
object MultipassEngineDesigns {
  val grammar = "mpoly_<n>_x<n1>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>]" +
    "[_q<prime>][_m<fast|paper>][_h<1|2>][_c1][_t1 batch][_d1 loaded primes][_a1 AXI4-Lite]"

  def name(c: MultipassEngineConfig): String =
    s"mpoly_${c.n}_x${c.n1}_b${c.busBits}_l${c.burstBeats}_s${c.slotBits}_p${c.P}_o${c.outstanding}_w${c.w}_q${c.q}" +
      (if (c.mul == StreamMul.Fast) "" else s"_m${c.mul.name}") + (if (c.halves == 2) "" else s"_h${c.halves}") + (if (c.streamed) "_c1" else "") + (if (c.batch) "_t1" else "") + (if (c.loaded) "_d1" else "") + (if (c.lite) "_a1" else "")

  def parse(design: String): Either[String, MultipassEngineConfig] =
    MultipassNames.parse(design, Seq("mpoly"), "blspowqmhctda", "a multi-pass engine name", grammar) { o =>
      require(Set(0, 1).contains(o.int("c", 0)), s"_c${o.int("c", 0)}: _c1 streams the column passes (no corner turns; the rows pass applies the middle twiddles), _c0 (the default) corner-turns each block")
      require(Set(0, 1).contains(o.int("t", 0)), s"_t${o.int("t", 0)}: _t1 runs a batch with the passes overlapped, _t0 (the default) one product at a time")
      require(Set(0, 1).contains(o.int("d", 0)), s"_d${o.int("d", 0)}: _d1 loads the primes at run time, _d0 (the default) fixes the prime at generation")
      require(Set(0, 1).contains(o.int("a", 0)), s"_a${o.int("a", 0)}: _a1 adds an AXI4-Lite configuration port, _a0 (the default) has plain inputs")
      MultipassEngineConfig(o.n, o.n1, busBits = o.int("b", 256), burstBeats = o.int("l", 2),
        slotBits = o.int("s", 32), lanes = o.int("p", 1), outstanding = o.int("o", 4), limbBits = o.int("w", 0),
        prime = o.prime, mul = o.mul, halves = o.int("h", 2), batch = o.int("t", 0) == 1, loaded = o.int("d", 0) == 1, lite = o.int("a", 0) == 1,
        streamed = o.int("c", 0) == 1)
    }

  def generate(out: String, name: String, c: MultipassEngineConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(if (c.lite) new MultipassBatchLite(c) else if (c.batch) new MultipassBatch(c) else new MultipassEngine(c))
    val batchTop: MultipassBatch = top match { case l: MultipassBatchLite => l.engine; case b: MultipassBatch => b; case _ => null }
    val m = c.mover
    val fc = c.columns
    val ic = c.columnsInverse
    // Primes loaded at run time: the image's layout and forms, and the cycles its loads add (a limb an item).
    val li = if (c.loaded) LoadedImage(batchTop) else null
    val steady = if (li != null) li.steadyCyclesPerItem else c.batchCycles()
    val bytes = if (li != null) li.bytesPerLimb else c.bytesPerProduct * 1
    val w = new PrintWriter(new File(dir, s"$name.json"))
    w.println(s"""{
  "design": "$name",
  "kind": "${if (c.batch) "multipass_batch" else "multipass_engine"}",
  "family": "multipass",
  "registry": ${MultipassDesigns.entry(name, c).json},
  "title": "multi-pass negacyclic polynomial multiplier, one limb: columns, rows, columns_inverse behind one AXI4 master${if (c.batch) ", a batch with the passes overlapped" else ""}",
${MultipassManifest.layout(m, c.P)}
  "region_bases": {${MoverConfig.Regions.map(r => s""""$r": ${m.regionBase(r)}""").mkString(", ")}},
  "k": ${c.w},
  "latency": ${if (li != null) li.firstItemCycles else c.promisedCycles()},
  "model_cycles": ${c.modelCycles().mkString("[", ", ", "]")},
  "fill_cycles": ${c.fillCycles.mkString("[", ", ", "]")},
  "cycles_per_product": ${if (c.batch) steady else c.promisedCycles()},${MultipassManifest.batch(c, steady)}
  "bytes_per_product_per_port": $bytes,
  "bytes_per_cycle_per_port": ${"%.3f".format(bytes.toDouble / (if (c.batch) steady else c.promisedCycles()))},${if (li != null) li.json else ""}${if (c.lite) MultipassBatchLite.json(c) else ""}
  "limb_bits": ${c.w},
  "prime": ${c.q},
  "psi": ${fc.psi},
  "r1": ${fc.r1},
  "mul": "${c.mul.name}",
  "halves": ${c.halves},
  "column_mode": "${if (c.streamed) "stream" else "turn"}",
  "columns": {"ntt_lanes": ${fc.nttLanes}, "row_lanes": ${fc.R}, "ntt_latency_cycles": ${fc.shape.latency}, "twiddle_phases": ${fc.phases}, "blocks": ${fc.blocks}},
  "columns_inverse": {"ntt_lanes": ${ic.nttLanes}, "row_lanes": ${ic.R}, "ntt_latency_cycles": ${ic.shape.latency}, "twiddle_phases": ${ic.phases}, "blocks": ${ic.blocks}},
  "rows": {"engine": "${c.rows.engine.name}", "engine_latency_cycles": ${c.rows.engine.latency}, "groups": ${c.rows.groups}},${MultipassManifest.sram(c.rows.engine)}
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

  def main(args: Array[String]): Unit = MultipassNames.main(args, "MultipassEngineDesigns", grammar, parse)(generate)
}
