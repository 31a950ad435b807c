package modforge.multipass

import modforge.Generate
import modforge.polymul.{StreamMul, StreamPrimes}
import spinal.core._
import java.io.{File, PrintWriter}

/** Names and generation of the multi-pass engine with limbs side by side ([[MultipassLimbs]]), in the registry's
  * multi-pass family ([[MultipassDesigns]]): the one-limb engine's name with `_k<limbs>`, 2 or more,
  *
  *   `mpoly_<n>_x<n1>_k<limbs>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>][_q<hash>][_m<fast|paper>][_h<halves>][_y<ports>]`
  *
  * `_y<limbs>` gives each limb its own AXI4 port (`mems_<l>`), `_y1` (the default) one port shared through arbiters.
  * The limbs' primes are the `limbs` largest w-bit primes = 1 mod 2n (w = slot bits - 2 unless `_w`), or the user's
  * own, given beside the name (`make rtl PRIMES=q0,q1,...`, `Generate --primes q0,q1,...`), one a limb in their order,
  * which the name carries as `_q<hash>`, [[StreamPrimes.hash]] of them, as the streaming engine's names do
  * ([[modforge.polymul.StreamDesigns]]; in the one-limb engine's name `_q` is the prime itself). Without `_w` the limb
  * width of given primes is the widest prime's bits (at least 17). The other options and defaults are the one-limb
  * engine's ([[MultipassEngineDesigns]]).
  *
  * Usage: `make rtl DESIGN=<name> [PRIMES=q0,q1,...]` writes `<out>/<name>/rtl/<name>.v` and the manifest `<name>.json`
  * (the parameters, the limbs' primes, roots and region bases, the passes, the ports; with given primes
  * `"prime_class": "given"`).
  */
object MultipassLimbsDesigns {
  val grammar = "mpoly_<n>_x<n1>_k<limbs>[_b<bus bits>][_l<burst beats>][_s<slot bits>][_p<lanes>][_o<outstanding>][_w<w>]" +
    "[_q<hash of PRIMES>][_m<fast|paper>][_h<1|2>][_c1][_y<ports>][_t1][_r<rounds>]"

  /** A multi-limb name: an `mpoly_` name with a `_k` option. */
  def isLimbs(name: String): Boolean = name.startsWith("mpoly_") && """_k\d""".r.findFirstIn(name).isDefined

  /** `primes`: the user's own limb primes (`--primes`, make's PRIMES=), which the name carries as `_q<hash>`; a name
    * with `_q` and no primes, without `_q` or with another hash than theirs is refused, naming the right name. */
  def parse(design: String, primes: Seq[BigInt] = Nil): Either[String, MultipassLimbsConfig] =
    MultipassNames.parse(design, Seq("mpoly"), "kblspowqmhcytr", "a multi-limb multi-pass engine name", grammar, hashQ = true) { o =>
      require(Set(0, 1).contains(o.int("c", 0)), s"_c${o.int("c", 0)}: _c1 streams the column passes (no corner turns; the rows pass applies the middle twiddles), _c0 (the default) corner-turns each block")
      require(Set(0, 1).contains(o.int("t", 0)), s"_t${o.int("t", 0)}: _t1 runs a batch with the passes overlapped, _t0 (the default) one product at a time")
      val hash = o.opts.get("q")
      val list = primes.mkString(",")
      val how = "the first 7 hex digits of sha256 of the primes in decimal, in their order, joined by ','"
      require(hash.isEmpty || primes.nonEmpty, s"_q${hash.getOrElse("")} names a design of your own limb primes, and none were " +
        s"given: pass the primes whose hash is ${hash.getOrElse("")} (make rtl PRIMES=q0,q1,..., Generate --primes q0,q1,...: $how)")
      val c = MultipassLimbsConfig(o.n, o.n1, limbs = o.int("k", 1), busBits = o.int("b", 256), burstBeats = o.int("l", 2),
        slotBits = o.int("s", 32), lanes = o.int("p", 1), outstanding = o.int("o", 4), limbBits = o.int("w", 0),
        primes = primes, mul = o.mul, halves = o.int("h", 2), ports = o.int("y", 1),
        batch = o.int("t", 0) == 1, rounds = o.int("r", 1), streamed = o.int("c", 0) == 1)
      val right = if (primes.isEmpty) "" else StreamPrimes.hash(primes)
      // The name of these primes: the name as given, its _q<hash> set to theirs (appended when it has none).
      val named = hash.fold(s"${design}_q$right")(h => design.replaceFirst(s"_q$h(?=_|$$)", s"_q$right"))
      require(primes.isEmpty || hash.contains(right), hash match {
        case None => s"PRIMES=$list given, but the name has no _q<hash>: the design of these primes is $named " +
          s"(_q$right: the first 7 hex digits of sha256 of '$list')"
        case Some(h) => s"_q$h is not the hash of PRIMES=$list: the design of these primes is $named " +
          s"(_q$right: the first 7 hex digits of sha256 of '$list'), or pass the primes whose hash is $h"
      })
      c
    }

  def generate(out: String, name: String, c: MultipassLimbsConfig): Unit = {
    val t0 = System.nanoTime()
    val (dir, top) = Generate.elaborate(out, name)(new MultipassLimbs(c))
    val m = c.mover
    val e0 = c.engines.head
    val fc = e0.columns
    val ic = e0.columnsInverse
    def nums(xs: Seq[Any]) = xs.mkString("[", ", ", "]")
    val bases = (0 until c.limbs).map(l => MoverConfig.Regions.map(r => s""""$r": ${c.regionBase(l, r)}""").mkString("{", ", ", "}"))
    // Given primes (PRIMES=, _q<hash>) say so; drawn ones (the largest w-bit primes) leave the manifest as it was.
    // A batch's steady state (the engines on one port share its beats; with limbs in sequence, `rounds` items a
    // product), or one product's promise.
    val k = c.enginesPerPort
    val cycles = if (c.batch) e0.productCycles(k) else e0.promisedCycles(k)
    val primeClass = if (c.givenPrimes) "\n  \"prime_class\": \"given\"," else ""
    val sequence = if (c.rounds == 1) "" else s"""
  "rounds": ${c.rounds},
  "engines": ${c.engineCount},
  "engine_limbs": ${c.engineLimbs.map(_.mkString("[", ", ", "]")).mkString("[", ", ", "]")},"""
    val w = new PrintWriter(new File(dir, s"$name.json"))
    w.println(s"""{
  "design": "$name",
  "kind": "${if (c.batch) "multipass_batch" else "multipass_limbs"}",
  "family": "multipass",
  "registry": ${MultipassDesigns.entry(name, c).json},
  "title": "multi-pass negacyclic polynomial multiplier, ${c.limbs} limbs ${if (c.rounds > 1) s"in ${c.engineCount} engines of ${c.rounds} in sequence" else "side by side"} behind one AXI4 master",
${MultipassManifest.layout(m, c.P, c.limbs)}
  "limbs": ${c.limbs},$sequence
  "axi_ports": ${c.ports},
  "id_bits": ${c.axi.idWidth},
  "region_bases": ${bases.mkString("[", ", ", "]")},
  "k": ${c.w},
  "latency": ${if (c.batch) e0.batchPromise(1, k) else e0.promisedCycles(k)},
  "model_cycles": ${e0.modelCycles(k).mkString("[", ", ", "]")},
  "fill_cycles": ${e0.fillCycles.mkString("[", ", ", "]")},
  "cycles_per_product": ${cycles},${MultipassManifest.batch(e0, cycles)}
  "bytes_per_product_per_port": ${e0.bytesPerProduct * c.limbsPerPort},
  "bytes_per_cycle_per_port": ${"%.3f".format((e0.bytesPerProduct * c.limbsPerPort).toDouble / cycles)},
  "limb_bits": ${c.w},
  "primes": ${nums(c.limbPrimes)},$primeClass
  "psis": ${nums(c.limbPsis)},
  "mul": "${c.mul.name}",
  "halves": ${c.halves},
  "column_mode": "${if (c.streamed) "stream" else "turn"}",
  "columns": {"ntt_lanes": ${fc.nttLanes}, "row_lanes": ${fc.R}, "ntt_latency_cycles": ${fc.shape.latency}, "twiddle_phases": ${fc.phases}, "blocks": ${fc.blocks}},
  "columns_inverse": {"ntt_lanes": ${ic.nttLanes}, "row_lanes": ${ic.R}, "ntt_latency_cycles": ${ic.shape.latency}, "twiddle_phases": ${ic.phases}, "blocks": ${ic.blocks}},
  "rows": {"engine_latency_cycles": ${e0.rows.engine.latency}, "groups": ${e0.rows.groups}},${MultipassManifest.sram(e0.rows.engine, c.engines.size)}
  "generator": "SpinalHDL ${Spinal.version}",
  "ports": [
${Generate.portsJson(top)}
  ]
}""")
    w.close()
    println(f"rtl: $name%-48s ${c.limbs} limbs${if (c.rounds > 1) s" (${c.engineCount} engines, ${c.rounds} in sequence)" else ""}, q = ${c.limbPrimes.mkString(", ")} -> ${dir.getPath}/$name.v " +
      f"(${(System.nanoTime() - t0) / 1e9}%.1f s)")
  }
}
