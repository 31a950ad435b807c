package modforge.multipass

import modforge.ntt.NttConfig
import modforge.polymul.{LineStore, LoadedContext, NttShape, PrimeClass, StreamMul}

/** The generation parameters of the two column passes in RTL ([[ColumnsPass]], docs/polymul_multipass.md,
  * "RTL: the column passes"), for one limb of a fixed prime q, as a plain case class.
  *
  *  - `columns` (`inverse` = false): each column block (n1 rows x be columns, be = coefficients per burst) of a
  *    and of b through the negacyclic n1-point NTT with root r1 = psi^n2, times the middle twiddle
  *    psi^((2 k1 + 1 - n1) j2), to x and y;
  *  - `columns_inverse` (`inverse` = true): each column block of x times psi^(-(2 k1 + 1 - n1) j2), through the
  *    inverse n1-point NTT (n1^-1 included), to c.
  *
  * psi is the model's (`MultipassParams.psis`: [[NttConfig.findPsi]], the smallest primitive 2n-th root).
  *
  * **Lanes.** `lanes` is the model's P: coefficients of each operand per cycle. `columns` has two operands and
  * one forward [[modforge.polymul.StreamNtt]] of 2P lanes, which takes a's block and then b's (the schedule
  * reads them in that order); `columns_inverse` has one operand and an inverse unit of P lanes. Either way
  * the pass streams n / P cycles' worth, the model's `stream_cycles`. The row side (the mover's words, the
  * middle twiddles) moves R = min(e, NTT lanes) coefficients a cycle: as fast as the NTT, or the bus if that
  * is slower.
  *
  * @param n           coefficients of a region (the ring degree)
  * @param n1          rows: the column transform's size (n2 = n / n1 columns)
  * @param inverse     false: the `columns` pass; true: `columns_inverse`
  * @param busBits     the AXI4 data width ([[MoverConfig]])
  * @param burstBeats  beats of every burst ([[MoverConfig]])
  * @param slotBits    bits a coefficient takes in memory ([[MoverConfig]])
  * @param lanes       P, coefficients of each operand per cycle (the model's lanes)
  * @param outstanding read bursts in flight and write bursts unacknowledged ([[MoverConfig]])
  * @param limbBits    w, the residues' width (0: slot bits - 2, from 17 to 62; with a `prime`, at least its bits)
  * @param prime       q, a prime = 1 mod 2n of at most w bits; 0: the largest w-bit one
  * @param mul         the multipliers: the NTT's Shoup and the Barrett of the middle twiddles ([[StreamMul]]:
  *                    `fast`, the default, or `paper`, whose behavioural products simulate far faster)
  * @param halves      2: each corner-turn buffer is double-buffered (the next block fills while this one is
  *                    transformed or written); 1: one block at a time
  * @param runtimeBase an input `base` (bytes) added to every region base, so that one pass unit serves the products of
  *                    a batch one after another ([[MultipassBatch]]); false: the bases are the layout's alone
  * @param sequence    limbs in sequence: the primes of the limbs this pass serves one pass after another (`prime` 0),
  *                    its `limb` input saying which; empty: the one prime q
  * @param loaded      the prime's constants are loaded at run time before each pass (`_d1`,
  *                    [[modforge.polymul.ConstChain]]): q is then the reference the generator computes them for
  * @param streamed    `_c1`: no corner turn ([[StreamedColumnsPass]]). The block's rows go through an NTT that runs
  *                    its be columns interleaved ([[NttShape.interleave]]) as they come from memory, one pipeline
  *                    per operand, and leave in its bit-reversed row order, written row by row where they belong;
  *                    the middle twiddles are the rows pass's ([[RowTwiddleStage]]). P = 1.
  */
case class ColumnsConfig(n: Int, n1: Int, inverse: Boolean = false, busBits: Int = 256, burstBeats: Int = 2,
                         slotBits: Int = 32, lanes: Int = 1, outstanding: Int = 4, limbBits: Int = 0,
                         prime: BigInt = 0, mul: StreamMul = StreamMul.Fast, halves: Int = 2, limb: Int = 0,
                         runtimeBase: Boolean = false, sequence: Seq[BigInt] = Nil, loaded: Boolean = false,
                         streamed: Boolean = false) {
  require(!streamed || lanes == 1, s"lanes = $lanes: the streamed column passes (_c1) take one coefficient of each operand a cycle (P = 1)")
  require(!loaded || sequence.isEmpty, "loaded constants take one prime at a time, not limbs in sequence")
  private def log2(x: Int) = Integer.numberOfTrailingZeros(x)

  val operands: Int = if (inverse) 1 else 2
  val P: Int = lanes
  require(MoverConfig.pow2(P), s"lanes = $P: P is a power of two")
  require(halves == 1 || halves == 2, s"halves = $halves: a corner-turn buffer holds one block (1) or two (2)")
  /** The NTT unit's lanes: `columns` runs a's block and b's through one unit, so 2P; `columns_inverse` P. Streamed:
    * one lane, with a pipeline per operand in lockstep. */
  val nttLanes: Int = if (streamed) 1 else P * operands
  private val e0 = MoverConfig(n, n1, busBits, burstBeats, slotBits, 0, outstanding, operands).e
  /** R: coefficients a cycle on the row side (the mover's words, the middle twiddles, the buffers' row ports).
    * Streamed: whole beats, which the pass splits into the NTT's words itself. */
  val R: Int = if (streamed) e0 else math.min(e0, nttLanes)
  /** The reader's and writer's view: words of R slots. */
  val mover: MoverConfig = MoverConfig(n, n1, busBits, burstBeats, slotBits, R, outstanding, operands, limb = limb)
  val n2: Int = mover.n2
  val e: Int = mover.e
  val be: Int = mover.be
  val blocks: Int = mover.blocks
  require(be >= 2, s"a burst of $be coefficient: the column passes want at least 2 (a longer burst or a wider bus)")
  /** Row-side words per row of a block. */
  val rowWords: Int = be / R
  require(n1 >= 2 * nttLanes, s"n1 = $n1 rows for an NTT of $nttLanes lanes: a frame needs n1 / lanes >= 2; use n1 >= " +
    s"${2 * nttLanes} or fewer lanes")
  /** The NTT's frame: beats per column. */
  val frame: Int = n1 / nttLanes

  require(sequence.isEmpty || prime == 0, "limbs in sequence give their primes in `sequence`, not `prime`")
  /** w and q (with limbs in sequence: the first limb's prime, and w the widest one's bits unless `limbBits`). */
  val (w: Int, q: BigInt) = {
    val prime = if (sequence.nonEmpty) sequence.head else this.prime
    val w0 = if (limbBits != 0) limbBits else if (prime != 0) math.max(17, (prime +: sequence).map(_.bitLength).max) else math.min(62, math.max(17, slotBits - 2))
    require(w0 >= 17 && w0 <= 62, s"w = $w0: the limb is 17 to 62 bits here")
    require(w0 <= slotBits, s"a $w0-bit limb does not fit a $slotBits-bit slot: use slots of at least ${1 << (32 - Integer.numberOfLeadingZeros(w0 - 1))} bits")
    if (prime != 0) {
      require(prime.isProbablePrime(64), s"q = $prime is not prime")
      require((prime - 1) % (2 * n) == 0, s"q = $prime is not 1 mod 2n = ${2 * n}: Z_q has no primitive ${2 * n}-th root of unity")
      require(prime.bitLength <= w0, s"q = $prime has ${prime.bitLength} bits, more than w = $w0 (_w)")
      (w0, prime)
    } else {
      val qs = PrimeClass.AnyPrime.candidates(n, w0).find(_.isProbablePrime(64))
      require(qs.isDefined, s"no $w0-bit prime is 1 mod 2n = ${2 * n}: use another width (_w) or give q (_q)")
      (w0, qs.get)
    }
  }
  /** The primes the pass serves: q alone, or with limbs in sequence (`sequence`, the multi-pass engine's `_r<rounds>`)
    * each limb's, one pass after another, the pass's `limb` input choosing ([[modforge.polymul.PrimeChoice]]). */
  val qs: Seq[BigInt] = if (sequence.isEmpty) Seq(q) else sequence
  for ((p, l) <- sequence.zipWithIndex.drop(1)) {
    require(p.isProbablePrime(64), s"limb $l: q = $p is not prime")
    require((p - 1) % (2 * n) == 0, s"limb $l: q = $p is not 1 mod 2n = ${2 * n}: Z_q has no primitive ${2 * n}-th root of unity")
    require(p.bitLength <= w, s"limb $l: q = $p has ${p.bitLength} bits, more than w = $w (_w)")
  }
  require(qs.distinct.size == qs.size, s"the limbs in sequence repeat a prime: ${qs.mkString(", ")}")
  /** psi, the model's: the smallest primitive 2n-th root of unity mod q. */
  val psi: BigInt = NttConfig.findPsi(n, q)
  /** Each prime's psi (the model's, as `psi`) and the columns' root r1 = psi^n2. */
  val psis: Seq[BigInt] = qs.map(p => NttConfig.findPsi(n, p))
  val r1s: Seq[BigInt] = qs.zip(psis).map { case (p, r) => r.modPow(n / n1, p) }
  /** The columns' root r1 = psi^n2, a primitive 2 n1-th root: the NTT unit's psi. */
  val r1: BigInt = psi.modPow(n2, q)
  /** The NTT unit: n1 points, the unit's lanes, w bits. */
  val shape: NttShape =
    if (loaded && streamed) NttShape(n1, 1, w, mul, LineStore.Flops, tableWords = NttShape.loadedTableWords, loaded = true, interleave = be)
    else if (loaded) NttShape(n1, nttLanes, w, mul, tableWords = NttShape.loadedTableWords, loaded = true)
    else if (streamed) NttShape(n1, 1, w, mul, LineStore.Flops, primes = qs.size, interleave = be)
    else NttShape(n1, nttLanes, w, mul, primes = qs.size)
  /** The reference of the loaded constants (null unless `loaded`): q, psi (order 2n), w. */
  val loadedContext: LoadedContext = if (loaded) LoadedContext(n, q, psi, w) else null
  val barrettLatency: Int = mul.barrettLatency(w)

  /** The middle twiddles run down the columns ([[MiddleTwiddleStage]]): row k1 of a block is row k1 - d times a
    * per-column ratio. A row takes be / R cycles and the product's loop `twiddleLoop` (the twiddle register, then
    * the Barrett), so d rows are in flight: d = ceil(loop / (be / R)), 1 when a row of the block lasts as long. */
  val twiddleLoop: Int = barrettLatency + MiddleTwiddleStage.stageCycles
  val phases: Int = (twiddleLoop + rowWords - 1) / rowWords
  require(phases < n1, s"the middle twiddles' chains need $phases rows in flight (the Barrett's $barrettLatency cycles and the twiddle register over rows of " +
    s"$rowWords words), not fewer than n1 = $n1: use longer bursts or fewer lanes")

  /** g = psi (forward) or psi^-1 (inverse), and its powers mod q with exponents taken mod 2n. */
  val g: BigInt = if (inverse) psi.modInverse(q) else psi
  private def gp(x: BigInt): BigInt = g.modPow(((x % (2 * n)) + 2 * n) % (2 * n), q)
  /** Row k (< d)'s ratio along a row, g^(2k + 1 - n1): the model's rho_k; k = 0 is its rho_0. */
  def rowRatio(k: Int): BigInt = gp(2 * k + 1 - n1)
  /** The column ratios' ratio g^(2d) (d = 1: the model's g^2). */
  val ratioStep: BigInt = gp(2 * phases)
  /** Block to block: row k (< d)'s seeds times g^((2k + 1 - n1) be) (k = 0: the model's g^((1 - n1) be)) and the
    * column ratios times g^(2 d be) (d = 1: the model's g^(2 be)). */
  def seedStep(k: Int): BigInt = gp(BigInt(2 * k + 1 - n1) * be)
  val ratioBlockStep: BigInt = gp(BigInt(2) * phases * be)

  /** The same constants of the limb in sequence l (l = 0: those above). */
  private def gpOf(l: Int, x: BigInt): BigInt = {
    val gl = if (inverse) psis(l).modInverse(qs(l)) else psis(l)
    gl.modPow(((x % (2 * n)) + 2 * n) % (2 * n), qs(l))
  }
  def rowRatioOf(l: Int, k: Int): BigInt = gpOf(l, 2 * k + 1 - n1)
  def ratioStepOf(l: Int): BigInt = gpOf(l, 2 * phases)
  def seedStepOf(l: Int, k: Int): BigInt = gpOf(l, BigInt(2 * k + 1 - n1) * be)
  def ratioBlockStepOf(l: Int): BigInt = gpOf(l, BigInt(2) * phases * be)

  /** Words of w bits in the two corner-turn buffers (in and out), and the twiddle generator's state (streamed: none;
    * the NTT's delay lines hold (n1 - 1) be words per operand instead, [[NttShape.forwardLines]]). */
  val bufferWords: Int = if (streamed) 0 else 2 * halves * n1 * be
  val twiddleStateWords: Int = if (streamed) 0 else (phases + 2) * be
}
