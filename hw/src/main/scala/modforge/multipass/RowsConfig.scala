package modforge.multipass

import modforge.PreconditionError
import modforge.polymul.{LoadedContext, PrimeClass, StreamConfig, StreamMul, StreamPrimes}

/** The generation parameters of the `rows` pass in RTL ([[RowsPass]], docs/polymul_multipass.md, "RTL: the
  * rows pass"): one limb of prime q, n1 rows of n2 = n / n1 coefficients in regions x and y of
  * [[MoverConfig]]'s layout, each row's negacyclic product computed by the single-pass streaming engine at
  * n2 with P lanes ([[modforge.polymul.StreamPolymul]]) and written back over x.
  *
  * **The prime.** The engine takes q as its one given limb prime ([[StreamConfig.givenPrimes]], docs/polymul.md,
  * "Your own primes"), so any prime q = 1 mod 2n (the whole product's n, which makes it 1 mod 2 n2 as the engine
  * needs) of at most w bits will do: a `prime` given here is checked as the engine checks its own primes, at n
  * ([[modforge.polymul.StreamPrimes.userPrimes]]). 0 takes the default: the first class (in [[PrimeClass.all]]'s
  * order) whose largest w-bit prime = 1 mod 2 n2 also serves n, as before the engine took given primes (the
  * Proth-form classes are = 1 mod 2^(w - w/2) by construction, so for w >= 2 log2(2n) they do), else the
  * largest w-bit prime = 1 mod 2n.
  *
  * @param n           coefficients of a region (the ring degree)
  * @param n1          rows (n2 = n / n1 coefficients a row: the engine's n)
  * @param lanes       P, the engine's lanes: one coefficient of each operand per lane and cycle
  * @param limbBits    w, the limb width (0: with a `prime` its bits, else slot bits - 2, at least 17, at most 62)
  * @param prime       q (at most w bits, at least 17), or 0 for the default above
  * @param mul         the engine's multipliers ([[StreamMul]]: `fast`, the default, or `paper`, whose behavioural
  *                    products simulate about 20 times faster under Icarus)
  * @param runtimeBase an input `base` (bytes) added to every region base ([[MultipassBatch]]), as [[ColumnsConfig]]'s
  * @param sequence    limbs in sequence: the primes of the limbs the pass serves one pass after another (`prime` 0 or the
  *                    first), its `limb` input saying which; empty: the one prime q
  * @param loaded      the prime's constants are loaded at run time before each pass (`_d1`,
  *                    [[modforge.polymul.ConstChain]]): q is then the reference the generator computes them for
  * @param streamed    the column passes are streamed (`_c1`, [[StreamedColumnsPass]]): this pass applies the middle
  *                    twiddles, X = C g^((2 k1 + 1 - n1) j2) and Y likewise before each row's product and the inverse
  *                    after it ([[RowTwiddleStage]]); P = 1
  * The bus, burst, slot and outstanding parameters are [[MoverConfig]]'s.
  */
case class RowsConfig(n: Int, n1: Int, busBits: Int = 256, burstBeats: Int = 2, slotBits: Int = 32, lanes: Int = 1,
                      outstanding: Int = 4, limbBits: Int = 0, prime: BigInt = 0, mul: StreamMul = StreamMul.Fast, limb: Int = 0,
                      runtimeBase: Boolean = false, sequence: Seq[BigInt] = Nil, loaded: Boolean = false,
                      streamed: Boolean = false) {
  require(!loaded || sequence.isEmpty, "loaded constants take one prime at a time, not limbs in sequence")
  require(!streamed || lanes == 1, s"lanes = $lanes: the streamed column mode (_c1) runs the rows pass at P = 1")
  require(sequence.isEmpty || prime == 0 || prime == sequence.head, "limbs in sequence give their primes in `sequence`")
  /** The reader's and writer's view: words of a whole beat (e slots), both operands. */
  val mover: MoverConfig = MoverConfig(n, n1, busBits, burstBeats, slotBits, lanes = 0, outstanding = outstanding, operands = 2, limb = limb)
  val n2: Int = mover.n2
  val e: Int = mover.e
  val be: Int = mover.be
  val P: Int = lanes

  require(MoverConfig.pow2(P), s"lanes = $P: P is a power of two")
  /** Engine beats per row (the engine's frame): lane j carries coefficients [j frame, (j + 1) frame). */
  val frame: Int = n2 / P
  require(P * be <= n2, s"P = $P lanes of bursts of be = $be coefficients need rows of at least ${P * be}, not n2 = $n2: " +
    s"lane j reads its own segment of n2 / P = $frame coefficients a burst at a time; use fewer lanes, n1 <= ${n / (P * be)}, " +
    "or fewer beats or a narrower bus")
  require(P <= n1, s"P = $P lanes, more than n1 = $n1 rows: a read descriptor walks the P lane segments as its rows")

  /** Bursts per lane segment in a chunk: two when P = 1, so a descriptor carries two bursts and the walk's idle
    * cycle between descriptors stays off the R channel; one otherwise (a descriptor has P bursts already). */
  val chunkBursts: Int = if (P == 1 && frame >= 2 * be) 2 else 1
  /** A chunk: beats and coefficients of one lane segment; a group: the chunk of every lane of x and then y. */
  val chunkBeats: Int = chunkBursts * burstBeats
  val chunkCoeffs: Int = chunkBeats * e
  val groupBeats: Int = 2 * P * chunkBeats
  val groupsPerRow: Int = frame / chunkCoeffs
  val groups: Int = n1 * groupsPerRow
  val chunkBytes: BigInt = BigInt(chunkBeats) * mover.beatBytes
  val laneStrideBytes: BigInt = BigInt(frame) * mover.slotBytes

  /** The engine: the streaming engine at n2, P lanes, one limb of w bits, its prime q as chosen above; the
    * prime's class name, or `given`. */
  val (engine: StreamConfig, primeClass: String) = {
    val prime = if (sequence.nonEmpty) sequence.head else this.prime
    val w = if (limbBits != 0) limbBits else if (prime != 0) (prime +: sequence).map(_.bitLength).max else math.min(62, math.max(17, slotBits - 2))
    require(w <= slotBits, s"a $w-bit limb does not fit a $slotBits-bit slot: use slots of at least ${1 << log2(w)} bits")
    require(w >= 17 && w <= StreamConfig.maxLimbBits, s"w = $w: the engine takes one limb of 17 to ${StreamConfig.maxLimbBits} bits here " +
      "(its log q = w - 1 is at least 16)")
    def serves(q: BigInt) = (q - 1) % (2 * n) == 0
    def fail(e: String) = throw new IllegalArgumentException(s"requirement failed: $e")
    val (q, cls) =
      if (prime != 0) {
        try StreamPrimes.userPrimes(n, prime.bitLength - 1, w, Seq(prime)) catch {
          case e: PreconditionError => fail(s"${e.getMessage} (the rows pass serves a product of n = $n)")
        }
        require(prime.bitLength >= 17, s"q = $prime has ${prime.bitLength} bits: the engine takes a prime of at least 17 bits here " +
          "(its log q = bits - 1 is at least 16)")
        (prime, "given")
      } else {
        def top(cls: PrimeClass, at: Int) = try StreamPrimes.select(at, w - 1, w, cls).headOption catch { case _: PreconditionError => None }
        PrimeClass.all.flatMap(c => top(c, n2).filter(serves).map(_ -> c.name)).headOption
          .orElse(top(PrimeClass.AnyPrime, n).map(_ -> PrimeClass.AnyPrime.name))
          .getOrElse(fail(s"no $w-bit prime is 1 mod 2n = ${2 * n}: use a wider limb (_w<w>) or give a prime (_q<prime>)"))
      }
    val cfg = StreamConfig.check(n2, q.bitLength - 1, Some(P), Some(w), mul, primes = Seq(q))
      .fold(e => fail(s"the streaming engine at n2 = $n2 with P = $P and $w-bit limbs refuses q = $q: $e"), identity)
    // With limbs in sequence the engine's pipelines hold every prime's tables ([[StreamConfig.sequence]]).
    (if (sequence.size > 1) cfg.copy(sequence = sequence.size) else if (loaded) cfg.copy(loaded = true) else cfg, cls)
  }
  val q: BigInt = engine.primes.head
  val w: Int = engine.limbBits
  /** The primes the pass serves: q alone, or with limbs in sequence (`sequence`) each limb's, one pass after another,
    * through the one engine ([[modforge.polymul.PrimeChoice]]); each checked as the engine checks its own. */
  val qs: Seq[BigInt] = if (sequence.isEmpty) Seq(q) else sequence
  for ((p, l) <- qs.zipWithIndex.drop(1)) {
    try StreamPrimes.userPrimes(n, p.bitLength - 1, w, Seq(p)) catch {
      case e: PreconditionError => throw new IllegalArgumentException(s"requirement failed: limb $l: ${e.getMessage} (the rows pass serves a product of n = $n)")
    }
    require(p.bitLength <= w, s"limb $l: q = $p has ${p.bitLength} bits, more than w = $w")
  }
  /** Each prime's psi of order 2n (the model's, [[modforge.ntt.NttConfig.findPsi]]): the middle twiddles' root. */
  val psis: Seq[BigInt] = qs.map(p => modforge.ntt.NttConfig.findPsi(n, p))
  /** The reference of the loaded constants (null unless `loaded`): q, the product's psi (order 2n), w. */
  val loadedContext: LoadedContext = if (loaded) LoadedContext(n, q, modforge.ntt.NttConfig.findPsi(n, q), w) else null
  private def log2(x: Int) = 32 - Integer.numberOfLeadingZeros(x - 1)
}
