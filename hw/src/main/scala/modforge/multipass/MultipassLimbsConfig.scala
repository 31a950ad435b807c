package modforge.multipass

import modforge.polymul.{PrimeClass, StreamMul, StreamPrimes}

/** The generation parameters of the multi-pass engine with L limbs side by side ([[MultipassLimbs]],
  * docs/polymul_multipass.md, "RTL: limbs side by side"): L one-limb engines ([[MultipassEngineConfig]]), engine l
  * on limb l's five regions (the schedule's `Layout`, limb after limb) with prime q_l, sharing one AXI4 port.
  *
  * The port: one AXI4 port shared by the L engines through arbiters (`ports` = 1), or one port per limb (`ports` = L:
  * the engines' own masters, for a memory with as many channels, as an HBM stack has; each port's traffic is its
  * limb's alone).
  *
  * The primes: `primes` as given (the user's own, `PRIMES=`, the name's `_q<hash>`: one a limb, limb l's q_l, each
  * checked by [[StreamPrimes.userPrimes]] as the streaming engine checks its own, prime, 1 mod 2n, not repeated, and
  * here at most w bits, w = `limbBits` or the widest prime's bits, at least 17, at most 62 and the slot's), or the L
  * largest w-bit primes = 1 mod 2n (w = slot bits - 2 unless `limbBits`), the one-limb engine's default prime and the
  * next L - 1 below it. The other options are the one-limb engine's, the same for every limb.
  *
  * `batch` (`_t1`): every engine is a [[MultipassBatch]]; product j's regions (five a limb, limb l's at l x five
  * regions) lie `productStrideBytes` after product j - 1's.
  *
  * `rounds` (`_r<rounds>`, with `_t1`; docs/polymul_multipass.md, "Limbs in sequence"): ceil(L / rounds) engines, each
  * running `rounds` consecutive limbs one after another ([[MultipassEngineConfig.sequence]]), so that the area grows
  * with the engines, not with L. The memory layout, the primes and the port's use are those of the limbs side by
  * side; a product takes `rounds` items' cycles.
  */
case class MultipassLimbsConfig(n: Int, n1: Int, limbs: Int, busBits: Int = 256, burstBeats: Int = 2, slotBits: Int = 32,
                                lanes: Int = 1, outstanding: Int = 4, limbBits: Int = 0, primes: Seq[BigInt] = Nil,
                                mul: StreamMul = StreamMul.Fast, halves: Int = 2, ports: Int = 1, batch: Boolean = false,
                                rounds: Int = 1, streamed: Boolean = false) {
  require(limbs >= 2 && limbs <= 64, s"limbs = $limbs: side by side takes 2 to 64 limbs (one limb: the one-limb engine, no _k)")
  require(rounds >= 1 && rounds <= limbs, s"_r$rounds: each engine runs 1 to $limbs limbs (_k$limbs) in sequence")
  require(rounds == 1 || batch, s"_r$rounds: limbs in sequence run in a batch engine, whose units step from limb to limb: add _t1")
  /** Engines side by side: each runs `rounds` limbs in sequence (the last fewer, when `rounds` does not divide L). */
  val engineCount: Int = (limbs + rounds - 1) / rounds
  require(ports == 1 || ports == engineCount, s"ports = $ports: the engines share one AXI4 port (1) or have one each ($engineCount)")
  require(primes.isEmpty || primes.size == limbs, s"PRIMES gives ${primes.size} prime${if (primes.size == 1) "" else "s"} for " +
    s"the $limbs limbs of _k$limbs: give one prime a limb (PRIMES=${if (limbs <= 3) (0 until limbs).map("q" + _).mkString(",") else s"q0,...,q${limbs - 1}"}), " +
    (if (primes.size >= 2) s"or name ${primes.size} limbs (_k${primes.size})" else "or the one-limb engine (no _k) with _q<prime>"))

  /** Given primes: true when the limbs' primes are the user's own (`primes`), the manifest's `"prime_class": "given"`. */
  val givenPrimes: Boolean = primes.nonEmpty
  /** The given primes' limb width: `limbBits`, or the widest prime's bits (at least 17), as the one-limb engine's `_q`. */
  private val givenBits: Int = if (limbBits != 0) limbBits else if (primes.isEmpty) 0 else math.max(17, primes.map(_.bitLength).max)
  if (givenPrimes) {
    val widest = math.min(62, slotBits)
    for ((q, l) <- primes.zipWithIndex) {
      require(q.bitLength <= widest, s"limb $l: q = $q has ${q.bitLength} bits, wider than the widest limb here ($widest bits: " +
        s"at most 62, and a $slotBits-bit slot): give primes of at most $widest bits" + (if (widest < 62) " or wider slots (_s64)" else ""))
      require(q.bitLength <= givenBits, s"limb $l: q = $q has ${q.bitLength} bits, wider than the $givenBits-bit limb (_w$givenBits): " +
        s"use _w${q.bitLength} or no _w (the widest prime's bits), or a prime of at most $givenBits bits")
    }
    // Prime, 1 mod 2n, no repeat: the streaming engine's own checks and refusals (a PreconditionError, an
    // IllegalArgumentException, so a refusal of the name). log q 0: no product to reach, the limbs' count is _k's.
    StreamPrimes.userPrimes(n, 0, givenBits, primes)
  }

  /** The limbs' primes: given, or the `limbs` largest w-bit primes = 1 mod 2n. */
  val limbPrimes: Seq[BigInt] = if (primes.nonEmpty) primes else {
    val w = if (limbBits != 0) limbBits else math.min(62, math.max(17, slotBits - 2))
    val qs = PrimeClass.AnyPrime.candidates(n, w).filter(_.isProbablePrime(64)).take(limbs).toSeq
    require(qs.size == limbs, s"only ${qs.size} $w-bit primes are 1 mod 2n = ${2 * n}, not $limbs: use wider limbs (_w) or fewer")
    qs
  }
  /** Engine e's limbs: e rounds .. (e + 1) rounds - 1 (the limbs side by side: e alone). */
  val engineLimbs: Seq[Seq[Int]] = (0 until engineCount).map(e => (e * rounds until math.min(limbs, (e + 1) * rounds)).toSeq)
  /** The widest limb prime's bits, so that engines of limbs in sequence (w the widest of their own) agree. */
  private val limbW: Int = if (givenPrimes) givenBits else if (rounds > 1 && limbBits == 0) math.max(17, limbPrimes.map(_.bitLength).max) else limbBits
  val engines: Seq[MultipassEngineConfig] = engineLimbs.map { ls =>
    val qs = ls.map(limbPrimes)
    MultipassEngineConfig(n, n1, busBits, burstBeats, slotBits, lanes, outstanding, limbW, if (qs.size == 1) qs.head else 0, mul,
      halves, limb = ls.head, batch = batch, productLimbs = limbs, sequence = if (qs.size == 1) Nil else qs, streamed = streamed)
  }
  /** Limb l's engine and its step in that engine's sequence. */
  def engineOf(l: Int): (Int, Int) = (l / rounds, l % rounds)
  /** Limb l's region base (bytes): its engine's first limb's, and its step's limbs' footprints after it. */
  def regionBase(l: Int, region: String): BigInt = {
    val (e, s) = engineOf(l)
    engines(e).mover.regionBase(region) + engines(e).mover.footprintBytes * s
  }
  /** Each limb's psi (its engine's columns' root for it). */
  def limbPsis: Seq[BigInt] = limbPrimes.indices.map { l => val (e, s) = engineOf(l); engines(e).columns.psis(s) }
  /** Limbs a port carries: all of them on a shared port, an engine's with a port each. */
  val limbsPerPort: Int = if (ports == 1) limbs else rounds
  /** Engines sharing a port. */
  val enginesPerPort: Int = engineCount / ports
  val mover: MoverConfig = engines.head.mover
  val w: Int = engines.head.w
  require(engines.forall(_.w == w), s"the limbs' widths differ: ${engines.map(_.w).mkString(", ")}; give limbBits (_w)")
  val P: Int = lanes
  /** The port: the engines' bus with ID bits for the arbiters' routing (the engine's one ID bit, then the limb);
    * with a port per limb, each engine's own bus. */
  val limbIdBits: Int = if (ports == 1) spinal.core.log2Up(engineCount) else 0
  val addressBits: Int = spinal.core.log2Up(mover.footprintBytes * limbs) max mover.addressBits
  require(addressBits == mover.addressBits, s"the $limbs limbs' regions take ${mover.footprintBytes * limbs} bytes, more than " +
    s"the ${mover.addressBits}-bit address")
  /** An engine's own port: the passes' bus, or with `batch` that bus with the unit's two ID bits ([[MultipassBatch]]). */
  def engineAxi = if (batch) engines.head.batchAxi else mover.axi
  def axi = engineAxi.copy(idWidth = engineAxi.idWidth + limbIdBits)
  /** W beats routed after their AW: the write arbiter's queue of granted AWs, enough for every engine's bursts in flight. */
  val routeDepth: Int = engineCount * outstanding * (if (batch) 3 else 1) // a batch engine has three units' bursts in flight
}
