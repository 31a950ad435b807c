package modforge.multipass

import modforge.polymul.{PrimeClass, StreamConfig, StreamMul}

/** The generation parameters of the `rows` pass in RTL ([[RowsPass]], docs/polymul_multipass.md, "RTL: the
  * rows pass"): one limb of prime q, n1 rows of n2 = n / n1 coefficients in regions x and y of
  * [[MoverConfig]]'s layout, each row's negacyclic product computed by the single-pass streaming engine at
  * n2 with P lanes ([[modforge.polymul.StreamPolymul]]) and written back over x.
  *
  * **The prime.** The streaming engine does not take an explicit prime: [[StreamConfig]] draws its limbs
  * from (n, log q, w, class), the largest w-bit primes = 1 mod 2n of the class ([[modforge.polymul.StreamPrimes]]).
  * With log q = w - 1 it takes one limb, so at n2 and width w it accepts exactly one prime per class
  * ([[RowsConfig.enginePrimes]]). The rows pass needs q = 1 mod 2n (the whole product's n), which the
  * largest prime = 1 mod 2 n2 rarely is; the Proth-form classes are = 1 mod 2^(w - w/2) by construction,
  * so for w >= 2 log2(2n) they are. A `prime` given here must be one of those the engine accepts; 0 takes
  * the first class (in [[PrimeClass.all]]'s order) whose prime serves n.
  *
  * @param n           coefficients of a region (the ring degree)
  * @param n1          rows (n2 = n / n1 coefficients a row: the engine's n)
  * @param lanes       P, the engine's lanes: one coefficient of each operand per lane and cycle
  * @param limbBits    w, the limb width (0: slot bits - 2, at least 17, at most 62); with a `prime`, its bits
  * @param prime       q, or 0 for the default above
  * @param mul         the engine's multipliers ([[StreamMul]]: `fast`, the default, or `paper`, whose behavioural
  *                    products simulate about 20 times faster under Icarus)
  * The bus, burst, slot and outstanding parameters are [[MoverConfig]]'s.
  */
case class RowsConfig(n: Int, n1: Int, busBits: Int = 256, burstBeats: Int = 2, slotBits: Int = 32, lanes: Int = 1,
                      outstanding: Int = 4, limbBits: Int = 0, prime: BigInt = 0, mul: StreamMul = StreamMul.Fast) {
  /** The reader's and writer's view: words of a whole beat (e slots), both operands. */
  val mover: MoverConfig = MoverConfig(n, n1, busBits, burstBeats, slotBits, lanes = 0, outstanding = outstanding, operands = 2)
  val n2: Int = mover.n2
  val e: Int = mover.e
  val be: Int = mover.be
  val P: Int = lanes
  private def pow2(x: Int) = x > 0 && (x & (x - 1)) == 0

  require(pow2(P), s"lanes = $P: P is a power of two")
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

  /** The engine: the streaming engine at n2, P lanes, one limb of exactly w bits, q as chosen above. */
  val (engine: StreamConfig, primeClass: PrimeClass) = {
    val w = if (prime != 0) prime.bitLength else if (limbBits != 0) limbBits else math.min(62, math.max(17, slotBits - 2))
    require(limbBits == 0 || limbBits == w, s"limbBits = $limbBits but q = $prime has ${prime.bitLength} bits: give one of them")
    require(w <= slotBits, s"a $w-bit limb does not fit a $slotBits-bit slot: use slots of at least ${1 << log2(w)} bits")
    require(w >= 17 && w <= StreamConfig.maxLimbBits, s"w = $w: the engine takes one limb of 17 to ${StreamConfig.maxLimbBits} bits here " +
      "(its log q = w - 1 is at least 16)")
    val offers = RowsConfig.enginePrimes(n2, w, P, mul)
    require(offers.nonEmpty, s"the streaming engine at n2 = $n2 with P = $P takes no $w-bit prime: " +
      StreamConfig.check(n2, w - 1, Some(P), Some(w)).left.getOrElse(""))
    def serves(q: BigInt) = (q - 1) % (2 * n) == 0
    def listing = offers.map { case (cls, s) => s"${cls.name} ${s.primes.head}${if (serves(s.primes.head)) "" else s" (not 1 mod ${2 * n})"}" }.mkString(", ")
    val pick = if (prime != 0) offers.find(_._2.primes.head == prime) else offers.find(o => serves(o._2.primes.head))
    require(pick.isDefined, (if (prime != 0) s"q = $prime is not a prime the streaming engine takes at n2 = $n2 with $w-bit limbs" +
      s" (it takes the largest $w-bit prime = 1 mod ${2 * n2} of a class)" else s"no prime the streaming engine takes at n2 = $n2 " +
      s"with $w-bit limbs is 1 mod 2n = ${2 * n}") + s": it takes $listing; give one that is 1 mod ${2 * n} (_q<prime>), or another width (_w<w>)")
    require(prime == 0 || serves(prime), s"q = $prime is not 1 mod 2n = ${2 * n}: the rows pass serves a product of n = $n; it takes $listing")
    (pick.get._2, pick.get._1)
  }
  val q: BigInt = engine.primes.head
  val w: Int = engine.limbBits
  private def log2(x: Int) = 32 - Integer.numberOfLeadingZeros(x - 1)
}

object RowsConfig {
  import spinal.core._
  /** Width of a counter over x positions (x a power of two): at least one bit. */
  def bits(x: Int): Int = log2Up(x) max 1
  /** Advances such a counter, wrapping after x - 1 (x = 1: it stays 0). */
  def step(r: UInt, x: Int): Unit = if (x == 1) r := 0 else r := r + 1

  /** The primes the streaming engine takes at n2 with P lanes and one w-bit limb: per class, its largest w-bit
    * prime = 1 mod 2 n2 (classes without one are left out), with the engine's configuration. */
  def enginePrimes(n2: Int, w: Int, lanes: Int, mul: StreamMul = StreamMul.Fast): Seq[(PrimeClass, StreamConfig)] =
    PrimeClass.all.flatMap(cls => StreamConfig.check(n2, w - 1, Some(lanes), Some(w), mul, cls = cls).toOption.map(cls -> _))
}
