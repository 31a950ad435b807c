package modforge.multipass

import modforge.polymul.StreamMul

/** The generation parameters of the one-limb multi-pass engine ([[MultipassEngine]], docs/polymul_multipass.md,
  * "RTL: the engine, one limb"): the three passes' configurations, built from one set of options so that they
  * share the bus, the layout and the prime.
  *
  * The prime is the column passes' ([[ColumnsConfig]]: `prime`, or the largest w-bit prime = 1 mod 2n), handed
  * to the rows pass as its given prime ([[RowsConfig]]), so the three passes compute mod the same q. The region
  * bases are [[MoverConfig.regionBase]]: the schedule's `Layout` for limb `limb` (0 alone; [[MultipassLimbs]] numbers
  * its engines), fixed at generation.
  *
  * The options are the passes' own (the bus, burst, slot and outstanding options are [[MoverConfig]]'s, `lanes`
  * the model's P for all three passes, `halves` the column passes' corner turns).
  *
  * `batch` (`_t1`): the passes overlap on the products of a batch ([[MultipassBatch]]): product j's regions lie
  * `productStrideBytes` = `productLimbs` limbs' five regions after product j - 1's, and each pass unit takes the
  * product's offset as its run-time base.
  *
  * `sequence` (limbs in sequence, the name's `_r<rounds>`, docs/polymul_multipass.md, "Limbs in sequence"): the engine
  * serves S = `sequence.size` limbs, `limb` .. `limb` + S - 1 of a product, one after another through the same passes:
  * a batch of `count` products is count S items, item (j, s) limb `limb` + s of product j, its regions s limbs' five
  * after limb `limb`'s. Each pass unit steps from limb to limb as it steps from item to item, and every constant that
  * depends on the prime is chosen by the unit's limb ([[modforge.polymul.PrimeChoice]]).
  *
  * `loaded` (the name's `_d1`, docs/polymul_multipass.md, "Primes loaded at run time"): a batch engine whose primes are
  * run-time inputs. Every constant that depends on the prime is a loaded cell ([[modforge.polymul.ConstChain]]), and
  * each pass unit loads its limb's constants from external memory before each pass ([[ConstLoader]]). A product has a
  * run-time number of limbs `limbs` (1 to [[maxLimbs]]), each limb's five regions after the one before: a batch of
  * `count` products is count x limbs items, limb after limb, as with limbs in sequence. `prime` is only the reference
  * the generator computes the constants' forms for.
  *
  * `lite` (`_a1`): the batch's parameters and its start are registers behind an AXI4-Lite slave ([[MultipassBatchLite]]).
  */
case class MultipassEngineConfig(n: Int, n1: Int, busBits: Int = 256, burstBeats: Int = 2, slotBits: Int = 32,
                                 lanes: Int = 1, outstanding: Int = 4, limbBits: Int = 0, prime: BigInt = 0,
                                 mul: StreamMul = StreamMul.Fast, halves: Int = 2, limb: Int = 0, batch: Boolean = false,
                                 productLimbs: Int = 1, sequence: Seq[BigInt] = Nil, loaded: Boolean = false,
                                 lite: Boolean = false, streamed: Boolean = false) {
  require(!lite || batch, "_a1: the AXI4-Lite configuration port drives a batch engine (_t1)")
  require(!loaded || batch, "_d1: primes loaded at run time run in a batch engine (_t1): its units load a limb's constants before each pass")
  require(!loaded || sequence.isEmpty, "primes loaded at run time and limbs in sequence (_r) are two ways to serve several limbs: keep one")
  require(sequence.isEmpty || batch, "limbs in sequence run in a batch engine (_t1): its units step from limb to limb")
  require(sequence.size != 1, "one limb in sequence is the one-limb engine: give its prime as `prime`")
  require(limb + sequence.size <= math.max(productLimbs, 1) || sequence.isEmpty,
    s"limbs $limb to ${limb + sequence.size - 1} in sequence, but a product has $productLimbs")
  val columns: ColumnsConfig = ColumnsConfig(n, n1, inverse = false, busBits, burstBeats, slotBits, lanes, outstanding,
    limbBits, prime, mul, halves, limb, runtimeBase = batch, sequence = sequence, loaded = loaded, streamed = streamed)
  val q: BigInt = columns.q
  val w: Int = columns.w
  val columnsInverse: ColumnsConfig = columns.copy(inverse = true, prime = if (sequence.isEmpty) q else 0, limbBits = w)
  val rows: RowsConfig = RowsConfig(n, n1, busBits, burstBeats, slotBits, lanes, outstanding, limbBits = w, prime = q, mul = mul,
    limb = limb, runtimeBase = batch, sequence = sequence, loaded = loaded, streamed = streamed)
  require(columnsInverse.q == q && rows.q == q, s"the passes' primes differ: ${columns.q}, ${rows.q}, ${columnsInverse.q}")
  /** The limbs this engine serves: its one, or with limbs in sequence S of them, limb `limb` + s at step s. */
  val qs: Seq[BigInt] = columns.qs
  val S: Int = qs.size
  require(columnsInverse.qs == qs && rows.qs == qs, "the passes' limbs in sequence differ")
  require(columns.mover.axi == rows.mover.axi && columns.mover.axi == columnsInverse.mover.axi, "the passes' AXI4 ports differ")
  /** The layout and the port: the same for the three passes (only their word lanes differ). */
  val mover: MoverConfig = rows.mover
  val P: Int = lanes

  /** The schedule model's cycles per pass for `limbs` such engines on one port (polymul.multipass_schedule.costs,
    * limb_mode side): max(the lanes' n / P, the port's beats of every limb: columns 2n / e (a and b in, x and y out),
    * rows 2n / e (x and y in), columns_inverse n / e). */
  def modelCycles(limbs: Int = 1): Seq[Int] = {
    val e = mover.e
    Seq(2 * n / e, 2 * n / e, n / e).map(beats => math.max(n / P, limbs * beats))
  }
  /** The pass boundaries' fill: each column pass's corner turn (2 n1 be / R) and NTT latency, the rows engine's
    * latency (docs/polymul_multipass.md, "Measured cycles"). */
  def fillCycles: Seq[Int] =
    if (streamed) Seq(columns.shape.latency, rows.engine.latency + 2 * rowTwiddleCycles, columnsInverse.shape.latency)
    else Seq(
      2 * n1 * mover.be / columns.R + columns.shape.latency,
      rows.engine.latency,
      2 * n1 * mover.be / columnsInverse.R + columnsInverse.shape.latency)
  /** Streamed (`_c1`): what a middle-twiddle stage adds to the rows pass's fill: row 0's seeds, then its BarrettOpt
    * and FIFO ([[RowTwiddleStage]]). */
  def rowTwiddleCycles: Int = if (!streamed) 0 else RowTwiddleStage.fillCycles(mul.barrettLatency(w))
  /** The manifest's promise: a product's cycles from start to done without pauses, the model's plus the fills. */
  def promisedCycles(limbs: Int = 1): Int = modelCycles(limbs).sum + fillCycles.sum
  /** Bytes one limb's product moves over the port: columns reads a, b and writes x, y (4n slots), rows reads x, y and
    * writes x (3n), columns_inverse reads x and writes c (2n) (polymul.multipass_schedule.costs: bytes_moved). */
  def bytesPerProduct: BigInt = BigInt(9) * n * mover.slotBytes

  // ---- A batch (`batch`): the passes overlap on consecutive products ----
  /** Bytes from one product's regions to the next's: the five regions of every limb. */
  def productStrideBytes: BigInt = mover.footprintBytes * productLimbs
  /** Bits of the batch's product count (`count`): up to 65535 products; the host keeps their regions within the address. */
  val countBits: Int = 16
  /** With `loaded`: bits of the run-time limb count (`limbs`), and its largest value. */
  val limbsBits: Int = 7
  val maxLimbs: Int = (1 << limbsBits) - 1
  /** The port of a batch engine: the passes' bus with two ID bits above theirs, the pass unit (0 columns, 1 rows,
    * 2 columns_inverse), for SpinalHDL's arbiters to route R and B back. */
  def batchAxi = mover.axi.copy(idWidth = mover.axi.idWidth + 2)
  /** W beats routed after their AW: the write arbiter's queue of granted AWs, every unit's bursts in flight. */
  val batchRouteDepth: Int = 3 * outstanding
  /** Cycles between products in a batch's steady state, `limbs` engines on one port: the slowest pass with its fill (the
    * three run at once, each on its own product), or the port, which carries every pass's beats of every limb: reads
    * 5n / e a limb (a, b; x, y; x), writes 4n / e (x, y; x; c), one beat a cycle each. */
  def batchCycles(limbs: Int = 1): Int = {
    val e = mover.e
    val passes = modelCycles(1).zip(fillCycles).map { case (m, f) => m + f }.max
    Seq(passes, limbs * 5 * n / e, limbs * 4 * n / e).max
  }
  /** A batch of `count` products: the first takes the three passes' promise, each later one `batchCycles`. With limbs
    * in sequence each product is S items, each item a limb's three passes: S `batchCycles` a product. */
  def batchPromise(count: Int, limbs: Int = 1): Int = if (count == 0) 0 else promisedCycles(limbs) + (count * S - 1) * batchCycles(limbs)
  /** A product's cycles in a batch's steady state: S items, one limb each. */
  def productCycles(limbs: Int = 1): Int = S * batchCycles(limbs)
}
