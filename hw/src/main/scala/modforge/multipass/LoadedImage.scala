package modforge.multipass

import modforge.polymul.ConstForm

/** The constants image of a batch engine whose primes are loaded at run time (`_d1`; docs/polymul_multipass.md,
  * "Primes loaded at run time"), as its manifest states it, and the cycles its loads add.
  *
  * **The image.** For each limb l, at `const_base` + l `limb_image_bytes`: the columns unit's words, then the rows
  * unit's, then the columns_inverse unit's, each unit's image at its `offset_bytes` and padded to whole loader bursts.
  * A word is `word_bytes` bytes, little-endian, its constant in the low `cell_bits` bits; the words are listed in the
  * order they are shifted in (the chain's last cell first, [[modforge.polymul.ConstChain]]), each as its form
  * ([[ConstForm]]: q, a Barrett constant, a power of psi, a twiddle pair), which the host evaluates for its prime q and
  * any primitive 2n-th root of unity psi mod q (`polymul.multipass_loaded`).
  *
  * **The cycles.** A unit's load of w words takes about beats perBeat + 12 cycles (the loader shifts a word a cycle and
  * takes the next beat as the last word of one shifts, [[ConstLoader]]; 12 for the first beat's round trip, the done
  * and the three cycles to the pass's start); a column unit's first middle-twiddle seeds take be (Barrett latency + 2) + 4
  * more ([[MiddleTwiddleStage]]'s start chains). None of it overlaps the unit's own pass, so each item's pass is that
  * much longer. The three units share one loader: in a batch's steady state a unit's load is taken to wait for one
  * other unit's, the longest (measured on `mpoly_1024_x32_b256_l1_s32_p2_mpaper_t1_d1`, docs/polymul_multipass.md,
  * "Primes loaded at run time": the steady state is within 5% of this promise).
  */
case class LoadedImage(top: MultipassBatch) {
  private val c = top.c
  private val m = c.mover
  private val ctx = c.columns.loadedContext
  val units: Seq[String] = Seq("columns", "rows", "columns_inverse")
  private val perBeat = top.loader.perBeat
  def words(u: Int): Int = top.unitForms(u).size
  private def beats(u: Int) = top.loader.beats(u)
  private def bursts(u: Int) = (beats(u) + ConstLoader.burstBeats - 1) / ConstLoader.burstBeats
  /** The middle twiddles' first seeds after a load: the start chains, about be (latency + 2) cycles. */
  private def seeds(u: Int): Int = if (u == 1) 0 else {
    val k = if (u == 0) c.columns else c.columnsInverse
    k.be * (k.barrettLatency + 2) + 4
  }
  /** Cycles each unit's load adds to each of its passes, and the column units' seeds after it. */
  val loadCycles: Seq[Int] = units.indices.map(u => beats(u) * perBeat + 12)
  val seedCycles: Seq[Int] = units.indices.map(seeds)
  /** A limb item's cycles in a batch's steady state (one engine on its port): the slowest unit's pass with its fill,
    * seeds, load and one other unit's load, or the port's beats (the constants' reads add under 1% of them at
    * n = 32768). */
  val steadyCyclesPerItem: Int = {
    val e = m.e
    val passes = units.indices.map { u =>
      c.modelCycles(1)(u) + c.fillCycles(u) + seedCycles(u) + loadCycles(u) + units.indices.filter(_ != u).map(loadCycles).max
    }.max
    Seq(passes, 5 * c.n / e, 4 * c.n / e).max
  }
  /** The first item: the three passes one after another, each with its load and seeds. */
  val firstItemCycles: Int = c.promisedCycles() + loadCycles.sum + seedCycles.sum
  /** Bytes one limb moves over the port: its passes' and its constants. */
  val bytesPerLimb: BigInt = c.bytesPerProduct + top.limbImageBytes

  private def formsJson(fs: Seq[ConstForm]): String = fs.reverse.map(_.json).mkString("[", ", ", "]")

  def json: String = {
    val us = units.indices.map { u =>
      s"""    {"name": "${units(u)}", "offset_bytes": ${top.unitOffsetBytes(u)}, "image_bytes": ${top.unitImageBytes(u)}, "words": ${words(u)}, "load_cycles": ${loadCycles(u)}, "seed_cycles": ${seedCycles(u)},
     "forms": ${formsJson(top.unitForms(u))}}"""
    }
    s"""
  "loaded": {"reference_prime": ${ctx.q}, "reference_psi": ${ctx.psi}, "n": ${c.n}, "limb_bits": ${ctx.w}, "k": ${ctx.k}, "cell_bits": ${ctx.cellBits},
   "word_bytes": ${ctx.wordBytes}, "align_bytes": ${ConstLoader.alignBytes(m.axi)}, "limb_image_bytes": ${top.limbImageBytes}, "max_limbs": ${c.maxLimbs},
   "loader_unit_id": 3, "bytes_per_limb": $bytesPerLimb,
   "units": [
${us.mkString(",\n")}
   ]},"""
  }
}
