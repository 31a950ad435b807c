package modforge.ntt

import modforge.modmul.{Designs, Precompute}
import modforge.PreconditionError
import modforge.reduction.{Method, ReductionConfig, ReductionPrecompute}

/** How a tile's butterfly units multiply: the paper's three options (Section 5, Figure 3), and
  * the reduction family's arrangements ([[ReductionArrangement]]). */
sealed abstract class MulArrangement(val name: String, val title: String) {
  /** Cycles of the unit's modular multiplication (the longer path where there are two units). */
  def mulLatency: Int
  /** Whether twiddles carry a precomputed Shoup companion W' (Barrett needs none). */
  def hasCompanion: Boolean
  /** Bits of headroom the multipliers need above q: 0 for Barrett (q < 2^k), 1 for Shoup and GShoup (2q < 2^k). */
  def headroomBits: Int
  /** Bound on q at width k: q < 2^(k - headroomBits). */
  def qBound(k: Int): BigInt = BigInt(1) << (k - headroomBits)
  /** The reduction-family multiplier of the units at width k (None: the paper's three arrangements). */
  def reduction(k: Int): Option[ReductionConfig] = None
  /** None if the multiplier takes q at width k, else the broken condition (beyond q < qBound). */
  def classError(k: Int, q: BigInt): Option[String] = None
  /** Whether q is in the arrangement's modulus class at width k. */
  def inClass(k: Int, q: BigInt): Boolean = q < qBound(k) && classError(k, q).isEmpty
  /** Passes of PWMUL over the slot: 2 where the product leaves a factor F (X Y F, then times F^-2). */
  def pwPasses: Int = 1
  /** The twiddle as stored: W, or W F^-1 mod q for the reduction arrangements (exact W Y). */
  def stored(k: Int, w: BigInt, q: BigInt): BigInt = w
}

/** One reduction-family multiplier ([[modforge.reduction.ReductionMul]]: k x k product, then the
  * method's reduction) per unit for every product. It returns A B F mod q with F = 2^-x, so the
  * twiddles are stored pre-scaled (W F^-1 = W 2^x mod q) and PWMUL takes two passes: X Y F, then
  * times C = F^-2 (docs/ntt.md, "Reduction arrangements (mont, wlmm, k2red)").
  */
sealed abstract class ReductionArrangement(name: String, title: String, val method: Method) extends MulArrangement(name, title) {
  val hasCompanion = false
  val headroomBits = 0 // the reductions and ModArith (k+1-bit sums) take any q < 2^k
  /** log q_h of the Proth-type methods at width k (0: not used). */
  def h(k: Int): Int = 0
  def config(k: Int): ReductionConfig = ReductionConfig(method, k, h = h(k))
  override def reduction(k: Int): Option[ReductionConfig] = Some(config(k))
  override def classError(k: Int, q: BigInt): Option[String] = ReductionPrecompute.classError(config(k), q)
  override def pwPasses: Int = 2
  override def stored(k: Int, w: BigInt, q: BigInt): BigInt = ReductionPrecompute.scale(config(k), w, q)
  /** x of F = 2^-x. */
  def factorShift(k: Int): Int = ReductionPrecompute.factorShift(config(k))
}
object MulArrangement {
  /** 1. BarrettOpt for both twiddle and pointwise products. */
  case object Barrett extends MulArrangement("barrett", "BarrettOpt only") {
    val mulLatency = 4; val hasCompanion = false; val headroomBits = 0
  }
  /** 2. A Shoup unit for the twiddles beside a BarrettOpt unit for the pointwise products. */
  case object ShoupBarrett extends MulArrangement("shoupbarrett", "Shoup (twiddles) + BarrettOpt (pointwise)") {
    val mulLatency = 4; val hasCompanion = true; val headroomBits = 1 // Shoup's 3 cycles are padded to Barrett's 4
  }
  /** 3. GShoup alone: Shoup path for the twiddles, full path for the pointwise products. */
  case object GShoup extends MulArrangement("gshoup", "GShoup only") {
    val mulLatency = 6; val hasCompanion = true; val headroomBits = 1
  }
  /** Montgomery (Tosun Alg. 1), any odd q < 2^k, F = 2^-k; product register + 3 stages. */
  case object Mont extends ReductionArrangement("mont", "Montgomery (Tosun Alg. 1)", Method.Mont) {
    val mulLatency = 4
  }
  /** WLM-Mixed (Tosun Alg. 8, fixed), Proth q with log q_h = min(17, k/2) (GB of the 26x17 tile), F = 2^-k. */
  case object WlmMixed extends ReductionArrangement("wlmm", "WLM-Mixed (Tosun Alg. 8)", Method.WlmMixed) {
    val mulLatency = 6
    override def h(k: Int): Int = math.min(17, k / 2)
  }
  /** K2RED (Tosun Alg. 3), Proth q with log q_h = min(26, k/2) (the paper's 26 at k = 64), F = 2^-2(k-h). */
  case object K2Red extends ReductionArrangement("k2red", "K2RED (Tosun Alg. 3)", Method.K2Red) {
    val mulLatency = 6
    override def h(k: Int): Int = math.min(26, k / 2)
  }
  /** The paper's three arrangements (Section 5, Figure 3). */
  val seed: Seq[MulArrangement] = Seq(Barrett, ShoupBarrett, GShoup)
  val reductions: Seq[ReductionArrangement] = Seq(Mont, WlmMixed, K2Red)
  val all: Seq[MulArrangement] = seed ++ reductions
}

/** Where the twiddles live: a ROM computed at elaboration from (q, psi), or a RAM the host loads
  * (with the modulus on input ports, so q can change at run time).
  */
sealed abstract class TwiddleStore(val name: String)
object TwiddleStore {
  case object Rom extends TwiddleStore("rom")
  case object Ram extends TwiddleStore("ram")
}

/** An NTT tile: ring Z_q[x]/(x^N + 1), P butterfly units of width k (docs/ntt.md).
  * `q` and `psi` default to the largest prime q = 1 mod 2N that every seed arrangement accepts at k
  * (q < 2^(k-1)), for a reduction arrangement the largest in its class ([[NttConfig.defaultQ]]),
  * and to its smallest primitive 2N-th root of unity.
  */
case class NttConfig(n: Int, k: Int, p: Int, mul: MulArrangement, twiddles: TwiddleStore = TwiddleStore.Rom,
                     qOpt: Option[BigInt] = None, psiOpt: Option[BigInt] = None, storage: Storage = Storage.Flops) {
  import NttConfig._
  private val sram = storage == Storage.Sram
  private val topN = if (sram) maxNSram else maxN
  check(n >= minN && n <= topN && (n & (n - 1)) == 0, s"N = $n must be a power of two in $minN..$topN" +
    (if (!sram && n > maxN && n <= maxNSram && (n & (n - 1)) == 0) s" (up to $maxNSram with SRAM storage: the _sram tile)" else ""))
  if (sram) check(Seq(1, 2, 4, 8, 16, 32).contains(p), s"P = $p butterfly units is not supported: P must be a power of two from 1 to 32")
  else check(Seq(1, 2, 4).contains(p), s"P = $p butterfly units is not supported: P must be 1, 2 or 4" +
    (if (Seq(8, 16, 32).contains(p)) " (up to 32 with SRAM storage: the _sram tile)" else ""))
  check(n >= 4 * p, s"N = $n is too small for P = $p units: N must be at least 4P = ${4 * p}")
  // A ROM tile's twiddles are constant logic (2N words of k bits, P read muxes): beyond the flip-flop
  // tiles' largest N that logic is the tile's biggest part, so large SRAM tiles take the twiddles in SRAM.
  check(!(sram && twiddles == TwiddleStore.Rom && n > maxN), s"N = $n with ROM twiddles and SRAM storage: the ROM is " +
    s"constant logic and limited to N <= $maxN; use the RAM-twiddle tile (ntt_${n}_${k}_p${p}_${mul.name}_ram_sram), " +
    "whose twiddles the host writes into SRAM")
  check(k >= Designs.minK && k <= Designs.maxK, s"k = $k is out of range ${Designs.minK}..${Designs.maxK}")

  val logN: Int = Integer.numberOfTrailingZeros(n)
  val q: BigInt = qOpt.getOrElse(defaultQ(n, k, mul))
  check(q >= 3 && q.isProbablePrime(64), s"q = $q is not prime")
  check((q - 1) % (2 * n) == 0, s"q = $q is not 1 mod 2N = ${2 * n}: Z_q has no primitive 2N-th root of unity; pick q = 1 mod ${2 * n}")
  check(q < mul.qBound(k), s"k = $k is too small for q = $q (${q.bitLength} bits): the ${mul.name} arrangement needs " +
    s"q < 2^${k - mul.headroomBits}, so k >= ${q.bitLength + mul.headroomBits}")
  mul.classError(k, q).foreach(why => check(false, s"q = $q is outside the ${mul.name} arrangement's modulus class at k = $k: $why"))
  val psi: BigInt = psiOpt.getOrElse(findPsi(n, q))
  check(psi > 0 && psi < q && psi.modPow(n, q) == q - 1,
    s"psi = $psi is not a primitive 2N-th root of unity mod q = $q (psi^N must be q-1 = -1 mod q)")

  def name: String = s"ntt_${n}_${k}_p${p}_${mul.name}" + (if (twiddles == TwiddleStore.Ram) "_ram" else "") +
    (if (sram) "_sram" else "")

  /** Cycles of one butterfly unit: operand register, multiplier, result register. */
  def butterflyLatency: Int = mul.mulLatency + 2
  /** The bank schedule: which butterflies each cycle, and the gaps between stages. */
  def schedule: NttSchedule = NttSchedule(logN, p)
  /** Cycles after a command's last issue cycle until its last results are written: L + 1 (also the
    * longest gap between two stages: with it any stage order is safe). */
  def drainCycles: Int = butterflyLatency + 1
  /** Idle cycles after each stage of the transform before the next starts ([[NttSchedule.stageGap]],
    * 0 once N/(2P) >= lag + L + 2; the last stage's entry is its final drain, not counted here: 0). */
  def stageGaps(op: NttOp): Seq[Int] = op match {
    case NttOp.Ntt | NttOp.Intt =>
      val inverse = op == NttOp.Intt
      schedule.stages(inverse).map(b => schedule.gapAfter(b, inverse, butterflyLatency))
    case NttOp.PwMul => Seq.fill(mul.pwPasses - 1)(schedule.passGap(butterflyLatency)) :+ 0
    case _ => Nil
  }
  /** Cycles from a command's cmd_valid&cmd_ready to its `done` pulse, without stream stalls:
    * the issue cycles, the gaps between stages (or PWMUL passes), L + 1 for the last results, one for `done`. */
  def cycles(op: NttOp): Int = op match {
    case NttOp.Ntt | NttOp.Intt => schedule.transformCycles(butterflyLatency)
    case NttOp.PwMul            => schedule.pwMulCycles(butterflyLatency, mul.pwPasses)
    case NttOp.Load             => n + 1
    case NttOp.Unload           => n + 1 + unloadReadLatency
  }
  /** Extra cycles of UNLOAD on SRAM: the data comes the cycle after its address and is registered
    * before it leaves the tile ([[modforge.mem.ReadAhead]]), so the first beat is two cycles later;
    * then one a cycle. */
  def unloadReadLatency: Int = if (sram) 2 else 0
  /** Cycles in which the units take operands: (N/2) log2(N) / P for NTT and INTT, N/P per PWMUL
    * pass, none for LOAD and UNLOAD (the streams). */
  def butterflyCycles(op: NttOp): Int = op match {
    case NttOp.Ntt | NttOp.Intt => logN * n / (2 * p)
    case NttOp.PwMul            => mul.pwPasses * n / p
    case NttOp.Load | NttOp.Unload => 0
  }
  /** Butterfly utilization of a command: [[butterflyCycles]] / [[cycles]] (0 for LOAD, UNLOAD). */
  def utilization(op: NttOp): Double = butterflyCycles(op).toDouble / cycles(op)

  /** The SRAM banks of an `_sram` tile and their macro grids (empty for flip-flop storage):
    * the coefficients (2 slots x 2P banks of N/(2P) words of k bits) and, for RAM twiddles, one
    * copy of the 2N-word twiddle table (forward and inverse) per unit, and of its companions where
    * the arrangement has them: P reads a cycle from one-read-port macros. */
  def sramBanks: Seq[SramBankGroup] = if (!sram) Nil else {
    val coeff = SramBankGroup("coefficients", 2 * 2 * p, modforge.mem.SramGrid(k, bankDepth))
    val tw = if (twiddles == TwiddleStore.Ram) {
      val g = modforge.mem.SramGrid(k, 2 * n)
      SramBankGroup("twiddles", p, g) +: (if (mul.hasCompanion) Seq(SramBankGroup("twiddle_companions", p, g)) else Nil)
    } else Nil
    coeff +: tw
  }

  /** log2 of the number of coefficient banks per polynomial slot (2P banks). */
  def bankBits: Int = Integer.numberOfTrailingZeros(2 * p)
  def bankDepth: Int = n / (2 * p)

  /** The twiddle tables, index i in 1..N-1 (entry 0 unused): forward W_i = psi^bitrev(i), SEAL's root
    * powers, and inverse W_i^-1 / 2, which folds N^-1 into the log2(N) Gentleman-Sande stages.
    */
  lazy val forward: IndexedSeq[BigInt] = (0 until n).map(i => psi.modPow(bitrev(i, logN), q))
  lazy val inverse: IndexedSeq[BigInt] = forward.map(w => (w.modInverse(q) * BigInt(2).modInverse(q)) % q)
  /** A twiddle as the tile stores it: W, or W F^-1 mod q for the reduction arrangements. */
  def stored(w: BigInt): BigInt = mul.stored(k, w, q)
  /** The constants of a reduction arrangement: Montgomery's q' (else None), and C = F^-2 mod q. */
  def reductionConstants: Option[(Option[BigInt], BigInt)] = mul.reduction(k).map { r =>
    (if (r.method == Method.Mont) Some(ReductionPrecompute.montQPrime(k, q)) else None, ReductionPrecompute.pointwiseConstant(r, q))
  }
  /** SHA-256 of the ROM's content as text, one line "table index W companion" per entry, W as stored
    * (table f or i, index 1..N-1): the manifest records it, and test_ntt_tile.py recomputes it from
    * (q, psi) with verif/ntt/ntt_host.py, so a wrong ROM cannot pass unnoticed even before simulation.
    */
  def twiddleSha256: String = {
    val text = (for ((t, table) <- Seq("f" -> forward, "i" -> inverse); i <- 1 until n)
      yield s"$t $i ${stored(table(i))} ${companion(stored(table(i)))}\n").mkString
    java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes("UTF-8")).map("%02x".format(_)).mkString
  }

  /** The Shoup companion of a twiddle for this arrangement's multiplier. */
  def companion(w: BigInt): BigInt = mul match {
    case MulArrangement.Barrett      => BigInt(0)
    case MulArrangement.ShoupBarrett => Precompute.shoupR(k, w, q)
    case MulArrangement.GShoup       => Precompute.shoupR(k, w, Precompute.gshoup(k, q)._1)
    case _: ReductionArrangement     => BigInt(0)
  }
}

/** `banks` SRAM banks of one role in an `_sram` tile, each a [[modforge.mem.SramGrid]] of macros. */
case class SramBankGroup(role: String, banks: Int, grid: modforge.mem.SramGrid) {
  def macros: Int = banks * grid.count
  def areaUm2: Double = banks * grid.areaUm2
}

object NttConfig {
  val minN = 4
  val maxN = 4096
  /** The largest N of SRAM tiles (storage = sram). */
  val maxNSram = 32768

  def check(ok: Boolean, what: => String): Unit = if (!ok) throw new PreconditionError(s"NTT tile: $what")

  def bitrev(x: Int, bits: Int): Int = (0 until bits).foldLeft(0)((acc, i) => (acc << 1) | ((x >> i) & 1))

  /** The default modulus of an arrangement: for the seed three the largest prime q < 2^(k-1) with
    * q = 1 mod 2N ([[defaultQ(n:Int,k:Int)*]]); Montgomery: the largest below 2^k; WLM-Mixed and K2RED:
    * the largest Proth prime q = q_h 2^(k-h) + 1 (q_h < 2^h) with q = 1 mod 2N.
    */
  def defaultQ(n: Int, k: Int, mul: MulArrangement): BigInt = mul match {
    case r: ReductionArrangement if r.method != Method.Mont =>
      val w = k - r.h(k)
      val step = BigInt(2 * n)
      Iterator.iterate((BigInt(1) << r.h(k)) - 1)(_ - 1).takeWhile(_ >= 1).map(qh => (qh << w) + 1)
        .find(q => (q - 1) % step == 0 && q.isProbablePrime(64))
        .getOrElse(throw new PreconditionError(s"NTT tile: no Proth prime q = q_h 2^$w + 1 < 2^$k with q = 1 mod ${2 * n}"))
    case r: ReductionArrangement => primeBelow(n, k)
    case _ => defaultQ(n, k)
  }

  /** The largest prime q < 2^(k-1) with q = 1 mod 2N (accepted by all three seed arrangements). */
  def defaultQ(n: Int, k: Int): BigInt = primeBelow(n, k - 1)

  /** The largest prime q < 2^bits with q = 1 mod 2N. */
  def primeBelow(n: Int, bits: Int): BigInt = {
    val step = BigInt(2 * n)
    var q = ((BigInt(1) << bits) - 1) / step * step + 1
    while (q > step && !q.isProbablePrime(64)) q -= step
    check(q > step, s"no prime q = 1 mod ${2 * n} below 2^$bits")
    q
  }

  /** The smallest primitive 2N-th root of unity: the first g^((q-1)/2N) with psi^N = -1
    * (the same search as verif/ntt/ntt.py find_psi).
    */
  def findPsi(n: Int, q: BigInt): BigInt = {
    val e = (q - 1) / (2 * n)
    Iterator.iterate(BigInt(2))(_ + 1).takeWhile(_ < q).map(_.modPow(e, q)).find(_.modPow(n, q) == q - 1)
      .getOrElse(throw new PreconditionError(s"NTT tile: no primitive 2N-th root of unity mod $q"))
  }
}

/** Commands of the tile (`cmd_op`). */
sealed abstract class NttOp(val code: Int, val name: String)
object NttOp {
  case object Load extends NttOp(0, "LOAD")
  case object Unload extends NttOp(1, "UNLOAD")
  case object Ntt extends NttOp(2, "NTT")
  case object Intt extends NttOp(3, "INTT")
  case object PwMul extends NttOp(4, "PWMUL")
  val all: Seq[NttOp] = Seq(Load, Unload, Ntt, Intt, PwMul)
}
