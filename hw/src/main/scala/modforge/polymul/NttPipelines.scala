package modforge.polymul

import spinal.core._
import spinal.lib.Delay
/** One delay line: its depth, its width, and whether it is in macros. */
case class LineUse(depth: Int, width: Int, macros: Boolean)

/** The engine's free clock domain and its tick, for the delay lines in macros ([[DelayLine]]). */
case class EngineClock(free: ClockDomain, tick: Bool)

/** The builder of the streaming NTT pipelines for one prime q (root psi, a primitive 2n-th root of
  * unity mod q): the one place where forward and inverse pipelines are built, used by [[LimbEngine]]
  * (two forward pipelines, the inverse) and by [[StreamNtt]] (one of them). Not a component: the
  * hardware goes into the component that calls it, on its clock domain (gated by the tick).
  *
  * Lane j carries positions j n/P + t at beat t. A stage whose span is n/P or more pairs two
  * lanes of the same beat (a "lane-pair" stage: no storage, its twiddle a constant per lane pair);
  * a stage whose span d is smaller is a single-path delay-feedback (SDF) stage in every lane, its
  * delay line d words long and its twiddles a table indexed by the block. Outputs keep the input's
  * positions, so the forward pipeline's bit-reversed result feeds the pointwise product and the
  * inverse directly (Longa and Naehrig's loops, [[StreamTwiddles]]).
  *
  * An offset o is the number of ticks a point of the pipeline is behind the caller's input register
  * (offset 0): the position counters ([[Phase]]) that select the SDF halves and the table entries
  * are set from it.
  *
  * @param free        the free clock domain (with the component's reset), for the macro lines' rings
  * @param tick        the caller's tick (its clock runs in ticks only), for the macro lines
  * @param resetSource a first-level reset copy on the free clock, the source of the position counters' own copies
  */
class NttPipelines(val shape: NttShape, val primes: PrimeChoice, psis: Seq[BigInt], free: ClockDomain, tick: Bool, resetSource: Bool) {
  /** One prime, as every pipeline but the multi-pass engine's limbs in sequence ([[PrimeChoice]]). */
  def this(shape: NttShape, q: BigInt, psi: BigInt, free: ClockDomain, tick: Bool, resetSource: Bool) =
    this(shape, PrimeChoice.one(q), Seq(psi), free, tick, resetSource)
  require(psis.size == primes.count, s"${psis.size} roots for ${primes.count} primes")
  require(shape.primes == primes.count, s"the shape says ${shape.primes} primes in sequence, the choice has ${primes.count}: " +
    "its tables' split (NttShape.splitTable) and latency follow the shape")
  val q: BigInt = primes.primes.head
  val w: Int = shape.limbBits
  val P: Int = shape.lanes
  val F: Int = shape.frame
  /** Transforms interleaved ([[NttShape.interleave]]) and the ticks of a group of frames: the position counters count
    * T, an SDF stage of span d has a delay line of d I words, and its tables keep their F / 2d entries. */
  val I: Int = shape.interleave
  val T: Int = shape.ticks
  /** Each prime's twiddles; `tw` the first's (the only one's). */
  val tws: Seq[StreamTwiddles] = primes.primes.zip(psis).map { case (p, r) => StreamTwiddles(shape.n, p, r) }
  val tw: StreamTwiddles = tws.head
  val mul = new TwiddleMul(w, primes, shape.mul)
  val arith = ModAddSub(w, primes)
  val Lm: Int = mul.latency
  require(Lm == shape.shoupLatency)

  private def log2(x: Int) = Integer.numberOfTrailingZeros(x)
  private val ticks = EngineClock(free, tick)
  /** The delay lines built, for the manifest. */
  val lines = scala.collection.mutable.ArrayBuffer[LineUse]()

  // The second level of the reset tree (StreamPolymul has the first): one copy of resetSource
  // per Phase.perResetCopy position counters, on the free clock like every copy, so that all of
  // them leave reset at the same edge as the control and the limb's own domain.
  private var phaseResets = 0
  private var phaseResetCopy: Bool = null
  private def phaseReset(): Bool = {
    if (phaseResets % Phase.perResetCopy == 0)
      phaseResetCopy = new ClockingArea(free) { val r = modforge.KeepReg(resetSource.asUInt)(0) }.r
    phaseResets += 1
    phaseResetCopy
  }

  /** x * table(block) in the second half of each block of 2d positions (`all`: in both halves,
    * `upper` the first half's factor), x itself otherwise; latency 1 + Lm. `o`: x's offset. */
  def sdfMul(x: UInt, o: Int, d: Int, table: Seq[Seq[BigInt]], upper: Option[Seq[BigInt]], scale: Int = 1): UInt = {
    if (shape.splitTable(table.head.size)) return sdfMulSplit(x, o, d, table, upper)
    val pos = Phase(T, o, phaseReset())
    val second = pos(log2(d))
    def block(p: UInt) = (p >> (log2(d) + 1)).resize(math.max(1, log2(T) - log2(d) - 1))
    // table(l): prime l's table (one prime: the table itself). Loaded at run time (`scale`: the NTT size whose
    // inverse the inverse's last stage folds in), every table is read through index copies.
    val (t, tr) =
      if (primes.loaded) {
        require(o >= 1 || table.head.size == 1, s"a $d-span stage's table read at offset $o: its index copies need offset >= 1")
        mul.lookupLoaded(table.head, scale, block(Phase(T, o - 1, phaseReset())))
      } else if (table.head.size < TwiddleMul.copiedFrom) mul.lookupOf(table, block(pos))
      else {
        require(o >= 1, s"a $d-span stage's table read at offset $o: its index copies need offset >= 1")
        mul.lookupCopiedOf(table, block(Phase(T, o - 1, phaseReset())))
      }
    val (tSel, trSel) = upper match {
      case Some(u) if primes.loaded => val (w0, r0) = mul.pairOf(u, scale); (Mux(second, t, w0), Mux(second, tr, r0))
      case Some(u) if primes.single => (Mux(second, t, U(u.head, mul.k bits)), Mux(second, tr, U(mul.companion(u.head), mul.k bits)))
      case Some(u) => (Mux(second, t, primes.pick(u, mul.k)), Mux(second, tr, primes.pick(u.indices.map(l => mul.companionOf(l, u(l))), mul.k)))
      case None => (t, tr)
    }
    val x1 = RegNext(x)
    // One twiddle register per multiplier (KeepReg): the a and b pipelines' tables are the same.
    val p = mul(x1, modforge.KeepReg(tSel), modforge.KeepReg(trSel))
    // The select's last register is this lane's own (KeepReg): Yosys merged the identical selects of
    // every lane and both pipelines into one flip-flop with about 160 loads, 8.9 ns of the 10.2 ns
    // path of polymul_1024_19_s4. Without reset (a reset would load the limb's reset copy), it may be
    // wrong for one tick after reset, on empty beats.
    if (upper.isDefined) p else Mux(modforge.KeepReg(Delay(RegNext(second), Lm - 1).asUInt)(0), p, Delay(x1, Lm))
  }

  /** [[sdfMul]] with the twiddle in two factors ([[NttShape.splitTable]]): block i = i_hi 2^m + i_lo (m = b / 2 of
    * its b bits) takes psi^e(i) = A[i_hi] B[i_lo] ([[NttPipelines.splitTables]]), so x goes through two Shoup
    * multipliers, A's (its table read at x's offset) and then B's (read Lm ticks later, when x A arrives). Latency
    * 1 + 2 Lm, the second half's bypass delayed to match. The inverse's last stage (N^-1 in both halves, `upper`) has
    * one block and is never split. */
  private def sdfMulSplit(x: UInt, o: Int, d: Int, table: Seq[Seq[BigInt]], upper: Option[Seq[BigInt]]): UInt = {
    require(upper.isEmpty, "a stage with N^-1 in both halves has one block: not split")
    val b = log2(table.head.size)
    val m = b / 2
    val (as, bs) = NttPipelines.splitTables(table, primes.primes, m)
    def block(p: UInt) = (p >> (log2(d) + 1)).resize(b)
    /** (W, W') of table t at the block of the beat at offset `at`, its index from `part` of the block. */
    def read(t: Seq[Seq[BigInt]], at: Int, part: UInt => UInt): (UInt, UInt) =
      if (primes.loaded) {
        require(at >= 1, s"a $d-span stage's table read at offset $at: its index copies need offset >= 1")
        mul.lookupLoaded(t.head, 1, part(block(Phase(T, at - 1, phaseReset()))))
      } else if (t.head.size < TwiddleMul.copiedFrom) mul.lookupOf(t, part(block(Phase(T, at, phaseReset()))))
      else {
        require(at >= 1, s"a $d-span stage's table read at offset $at: its index copies need offset >= 1")
        mul.lookupCopiedOf(t, part(block(Phase(T, at - 1, phaseReset()))))
      }
    val (ta, tra) = read(as, o, i => (i >> m).resize(math.max(1, b - m)))
    val (tb, trb) = read(bs, o + Lm, i => i.resize(math.max(1, m)))
    val second = Phase(T, o, phaseReset())(log2(d))
    val x1 = RegNext(x)
    // One twiddle register per multiplier (KeepReg), as in sdfMul.
    val pa = mul(x1, modforge.KeepReg(ta), modforge.KeepReg(tra))
    val pb = mul(pa, modforge.KeepReg(tb), modforge.KeepReg(trb))
    Mux(modforge.KeepReg(Delay(RegNext(second), 2 * Lm - 1).asUInt)(0), pb, Delay(x1, 2 * Lm))
  }

  /** Ticks a stage of `d` span adds for its twiddle's second factor ([[NttShape.splitTable]]). */
  private def splitExtra(d: Int): Int = if (shape.splitTable(F / (2 * d))) Lm else 0

  /** The SDF butterflies with delay d of a group of lanes that step together (one delay line for
    * all, [[DelayLine]]): positions t and t + d of each block of 2d meet here; the first half waits
    * in the delay line, the second half leaves at once as `upper(u, v)` while `lower(u, v)` goes
    * into the delay line and leaves d cycles later. Latency d + 1. */
  def sdfButterflies(xs: Seq[UInt], o: Int, d: Int, upper: (UInt, UInt) => UInt, lower: (UInt, UInt) => UInt): Seq[UInt] = {
    // Each lane's own copy of the half-block select, registered from the position one tick ahead
    // (KeepReg: one shared select drove 2 P w multiplexers); it may be wrong for one tick after reset, on empty beats.
    val ahead = Phase(T, o - 1, phaseReset())(log2(d))
    val dlIn = Seq.fill(xs.size)(UInt(w bits))
    val line = DelayLine(Cat(dlIn).asUInt, d, shape.store, ticks)
    lines += LineUse(d, xs.size * w, DelayLine.useMacros(shape.store, d))
    xs.zip(dlIn).zipWithIndex.map { case ((x, in), i) =>
      val second = modforge.KeepReg(ahead.asUInt)(0)
      val u = line(i * w, w bits)
      in := Mux(second, lower(u, x), x)
      RegNext(Mux(second, upper(u, x), u))
    }
  }

  /** Forward pipelines in lockstep, one per operand (their delay lines shared), natural order in,
    * bit-reversed order out: stage s pairs positions j and j + n/2^(s+1), CT: (u + W v, u - W v).
    * `o0`: the operands' offset. Returns the results and their offset, o0 + [[NttShape.latency]]. */
  def forward(ops: Seq[Seq[UInt]], o0: Int = 0): (Seq[Seq[UInt]], Int) = {
    var x = ops
    var o = o0
    for (s <- 0 until shape.logN) {
      val span = shape.n >> (s + 1)
      if (shape.spatial(span)) {
        val g = span / F
        x = x.map { lanes =>
          val y = Array.fill[UInt](P)(null)
          for (j <- 0 until P if (j / g) % 2 == 0) {
            val v = mul.constOf(lanes(j + g), tws.map(_.fwd(s, j / (2 * g))))
            val u = Delay(lanes(j), Lm)
            y(j) = RegNext(arith.add(u, v)); y(j + g) = RegNext(arith.sub(u, v))
          }
          y.toSeq
        }
        o += Lm + 1
      } else {
        val d = span * I // interleaved: the pair's points are span I ticks apart
        val blocks = F / (2 * span)
        val m = x.map(lanes => (0 until P).map(j => sdfMul(lanes(j), o, d, tws.map(t => (0 until blocks).map(i => t.fwd(s, j * blocks + i))), None)))
        x = sdfButterflies(m.flatten, o + 1 + Lm + splitExtra(span), d, arith.add, arith.sub).grouped(P).toSeq
        o += 1 + Lm + splitExtra(span) + d + 1
      }
    }
    (x, o)
  }

  /** The inverse pipeline, bit-reversed order in, natural order out: stage r pairs positions j and
    * j + 2^r, GS: (u + v, (u - v) W), N^-1 on the last. `o0`: the operand's offset. Returns the
    * result and its offset, o0 + [[NttShape.latency]]. */
  def inverse(operand: Seq[UInt], o0: Int): (Seq[UInt], Int) = {
    var x = operand
    var o = o0
    for (r <- 0 until shape.logN) {
      val span = 1 << r
      val last = r == shape.logN - 1
      if (shape.spatial(span)) {
        val g = span / F
        val y = Array.fill[UInt](P)(null)
        for (j <- 0 until P if (j / g) % 2 == 0) {
          val sum = RegNext(arith.add(x(j), x(j + g)))
          val diff = RegNext(arith.sub(x(j), x(j + g)))
          y(j) = if (last) mul.constOf(sum, tws.map(_.nInv), shape.n) else Delay(sum, Lm)
          y(j + g) = mul.constOf(diff, tws.map(_.inv(r, j / (2 * g))), if (last) shape.n else 1)
        }
        x = y.toSeq; o += 1 + Lm
      } else {
        val d = span * I // interleaved: the pair's points are span I ticks apart
        val bs = sdfButterflies(x, o, d, arith.add, arith.sub)
        x = (0 until P).map { j =>
          val blocks = F / (2 * span)
          sdfMul(bs(j), o + d + 1, d, tws.map(t => (0 until blocks).map(i => t.inv(r, j * blocks + i))), if (last) Some(tws.map(_.nInv)) else None,
            if (last) shape.n else 1)
        }
        o += d + 1 + 1 + Lm + splitExtra(span)
      }
    }
    (x, o)
  }
}

object NttPipelines {
  /** A stage's tables in two factors ([[NttShape.splitTable]]): for each prime q_l, its table t (2^b entries) as
    * A[h] = t(h 2^m) and B[j] = t(j) / t(0) mod q_l (j < 2^m), so that t(i) = A[i >> m] B[i mod 2^m] mod q_l.
    *
    * Why it holds: block i of forward stage s (lane j) has exponent rev(2^s + j blocks + i) (Longa and Naehrig,
    * Algorithm 1, line 5; the inverse's, Algorithm 2, line 6, likewise), and the bit reversal of a sum of numbers with
    * disjoint bits is the sum of their reversals, so e(i) = e(0) + f(i_hi) + g(i_lo) with f(0) = g(0) = 0. Checked
    * here entry by entry: a table without that form is refused, not split. */
  def splitTables(tables: Seq[Seq[BigInt]], qs: Seq[BigInt], m: Int): (Seq[Seq[BigInt]], Seq[Seq[BigInt]]) = {
    require(tables.size == qs.size, s"${tables.size} tables for ${qs.size} primes")
    val parts = tables.zip(qs).map { case (t, q) =>
      require(t.size >= 2 && (t.size & (t.size - 1)) == 0 && (1 << m) < t.size, s"a table of ${t.size} entries split at $m bits")
      val a = (0 until t.size >> m).map(h => t(h << m))
      val inv0 = t.head.modInverse(q)
      val b = (0 until 1 << m).map(j => t(j) * inv0 % q)
      for (i <- t.indices) require(a(i >> m) * b(i & ((1 << m) - 1)) % q == t(i),
        s"entry $i of a twiddle table mod $q is not A[${i >> m}] B[${i & ((1 << m) - 1)}]: the table cannot be split")
      (a, b)
    }
    (parts.map(_._1), parts.map(_._2))
  }
}
