package modforge.intfft

import modforge.ntt.NttSchedule

/** Where an operand comes from or a result goes (the folded multiplier's storage). */
object Space {
  val DigitsX = 0 // the digit registers of the x block (forward stage 0 reads them, bit-reversed)
  val DigitsY = 1
  val SlotX = 3   // 2P banks of k/(2P) words ([[modforge.mem.MemBank]]): X
  val SlotY = 4   // 2P banks: Y
  val SlotZ = 5   // 2P banks: the pointwise products, bit-reversed, then the inverse transform in place, z_t
  val bits = 3
  def banked(s: Int): Boolean = s == SlotX || s == SlotY || s == SlotZ
}

/** One unit's work in one issue cycle: read operands rdA, rdB, write results to wrA, wrB, twiddle omega^(+-e). */
case class UnitOp(rdA: Int, rdB: Int, wrA: Int, wrB: Int, e: Int)
/** One issue cycle: P butterflies (or, `pw`, P pointwise products) with their sources and destination. */
case class Step(pw: Boolean, inverse: Boolean, scaled: Boolean, srcA: Int, srcB: Int, dst: Int, units: Seq[UnitOp])

/** The issue order of the folded block multiplier (plain Scala, wired as a ROM by [[FoldedMultiplier]]).
  *
  * Jobs, in order: the forward transforms of x and y stage by stage (X s, Y s, X s+1, ...), the k
  * pointwise products, the inverse transform. Each butterfly stage s takes k/(2P) issue cycles, P
  * butterflies a cycle, on the pairs of [[modforge.ntt.NttSchedule]] with pair distance 2^s (the NTT
  * tile's conflict-free bank map: the 2P operands of a cycle sit in 2P different banks); the pointwise
  * job k/P cycles. The transform is verif/intfft/fft.py's DIT network (the same butterflies as the
  * parallel network, in another order, as fft.py's ("folded", P)): stage 0 reads its input
  * bit-reversed. The forward transform's first stage reads the digit registers at index bitrev(i)
  * (registers: any index in any cycle). For the inverse one the pointwise unit writes Z_t to slot Z
  * at bitrev(t), so inverse stage 0 reads slot Z in natural order like every other banked stage; the
  * inverse transform runs in place in slot Z, and addition recovery reads the z_t there
  * ([[FoldedMultiplier]], d/b consecutive indices a clock: d/b different banks when d/b <= 2P).
  *
  * Placement: each job starts as early as every operand it reads has been written (an operand read in
  * cycle r sees the writes of cycles before r; a result issued in cycle t is written in cycle
  * t + 1 + L, L the unit's latency, the 1 being the synchronous read). `handoff` is the cycle in
  * which slot Z holds every z_t. [[check]] verifies the placement cycle by cycle: every read after the
  * write it needs, writes to a location in job order, at most one read and one write per bank a cycle.
  */
case class FoldedSchedule(g: IntFftParams, units: Int) {
  import g.{k, log2k}
  require(units >= 1 && (units & (units - 1)) == 0 && 4 * units <= k,
    s"folded FFT: P = $units butterfly units must be a power of two with 4P <= k = $k")
  val ns = NttSchedule(log2k, units)
  val bflyLatency: Int = Butterfly.latency(g)
  val pwLatency: Int = PointwiseUnit.latency(g)
  def writeDelay(pw: Boolean): Int = 1 + (if (pw) pwLatency else bflyLatency)
  def bitrev(i: Int): Int = ParallelFft.bitrev(i, log2k)

  private def stage(s: Int, inverse: Boolean, src: Int, dst: Int): Seq[Step] = {
    val scaled = inverse && s == log2k - 1
    val rd = (i: Int) => if (Space.banked(src)) i else bitrev(i)
    (0 until ns.cyclesPerStage).map { c =>
      Step(pw = false, inverse, scaled, src, src, dst, (0 until units).map { u =>
        val (x, y) = ns.pair(s, c, u)
        UnitOp(rd(x), rd(y), x, y, (x & ((1 << s) - 1)) * (k >> (s + 1)))
      })
    }
  }
  private def pointwise: Seq[Step] = (0 until ns.cyclesPerPwMul).map { c =>
    Step(pw = true, inverse = false, scaled = false, Space.SlotX, Space.SlotY, Space.SlotZ,
      (0 until units).map { u => val t = ns.pwIndex(c, u); UnitOp(t, t, bitrev(t), bitrev(t), 0) })
  }

  val jobs: Seq[Seq[Step]] =
    (0 until log2k).flatMap(s => Seq(
      stage(s, inverse = false, if (s == 0) Space.DigitsX else Space.SlotX, Space.SlotX),
      stage(s, inverse = false, if (s == 0) Space.DigitsY else Space.SlotY, Space.SlotY))) ++
      Seq(pointwise) ++
      (0 until log2k).map(s => stage(s, inverse = true, Space.SlotZ, Space.SlotZ))

  private def reads(st: Step): Seq[(Int, Int)] = st.units.flatMap(u => Seq((st.srcA, u.rdA), (st.srcB, u.rdB))).distinct
  private def writes(st: Step): Seq[(Int, Int)] = st.units.flatMap(u => if (st.pw) Seq((st.dst, u.wrA)) else Seq((st.dst, u.wrA), (st.dst, u.wrB)))

  /** Issue cycle of each job's first step, and the handoff cycle. */
  val (starts: Seq[Int], handoff: Int) = {
    val ready = scala.collection.mutable.Map[(Int, Int), Int]().withDefaultValue(0)
    var end = 0
    var last = 0
    val out = jobs.map { job =>
      val start = (Seq(end) ++ job.zipWithIndex.flatMap { case (st, c) => reads(st).map(l => ready(l) - c) }).max
      for ((st, c) <- job.zipWithIndex; l <- writes(st)) {
        val w = start + c + writeDelay(st.pw)
        ready(l) = w + 1
        last = math.max(last, w + 1)
      }
      end = start + job.length
      start
    }
    (out, last)
  }
  /** The issue ROM: one entry per cycle from 0 to the last issue, None where nothing issues. */
  val steps: IndexedSeq[Option[Step]] = {
    val a = Array.fill[Option[Step]](starts.last + jobs.last.length)(None)
    for ((job, s) <- jobs.zip(starts); (st, c) <- job.zipWithIndex) a(s + c) = Some(st)
    a.toIndexedSeq
  }
  def issueCycles: Int = jobs.map(_.length).sum
  /** The first cycle (counted from issue cycle 0) in which a result is written to slot Z: it must
    * hold the previous product's z_t until addition recovery has read them. */
  val firstZWrite: Int = (for ((so, t) <- steps.zipWithIndex; st <- so.toSeq if st.dst == Space.SlotZ) yield t + writeDelay(st.pw)).min

  /** The indices operand port o (2u: unit u's rdA, 2u + 1: its rdB) ever reads from the register
    * space `space` (DigitsX or DigitsY). The schedule is fixed at elaboration, so the multiplier
    * muxes each port over these k/(2P) indices only, not over all k: each register then feeds one
    * port instead of 2P (the wider muxes were most of the folded designs' FPGA LUTs). */
  def portReads(o: Int, space: Int): Seq[Int] =
    steps.flatten.flatMap { st =>
      val u = st.units(o / 2)
      val (src, i) = if (o % 2 == 0) (st.srcA, u.rdA) else (st.srcB, u.rdB)
      if (src == space) Seq(i) else Nil
    }.distinct.sorted

  /** The cycle-by-cycle check of the placement (see the class comment); throws on a violation. */
  def check(): Unit = {
    val lastWrite = scala.collection.mutable.Map[(Int, Int), Int]()
    val events = for ((so, t) <- steps.zipWithIndex; st <- so.toSeq) yield (t, st)
    // Writes in job order per location, and every read after the write it needs.
    val bankReads = scala.collection.mutable.Map[(Int, Int, Int), Int]().withDefaultValue(0)
    val bankWrites = scala.collection.mutable.Map[(Int, Int, Int), Int]().withDefaultValue(0)
    for ((t, st) <- events) {
      for (l <- reads(st)) {
        // A bank location is read only after this product wrote it (the digit registers are loaded at accept).
        require(!Space.banked(l._1) || lastWrite.contains(l), s"folded schedule: read of $l in cycle $t before any write to it")
        lastWrite.get(l).foreach(w => require(t > w, s"folded schedule: read of $l in cycle $t before its write in cycle $w"))
        if (Space.banked(l._1)) bankReads((t, l._1, ns.bank(l._2))) += 1
      }
      for (l <- writes(st)) {
        val w = t + writeDelay(st.pw)
        lastWrite.get(l).foreach(p => require(w > p, s"folded schedule: writes to $l out of order ($p, then $w)"))
        lastWrite(l) = w
        if (Space.banked(l._1)) bankWrites((w, l._1, ns.bank(l._2))) += 1
      }
    }
    require(bankReads.values.forall(_ <= 1), "folded schedule: two reads of one bank in a cycle")
    require(bankWrites.values.forall(_ <= 1), "folded schedule: two writes to one bank in a cycle")
    require(handoff > lastWrite.filter(_._1._1 == Space.SlotZ).values.max, "folded schedule: handoff before the last z_t is written")
    // Every z_t is written to slot Z.
    require((0 until k).forall(i => lastWrite.contains((Space.SlotZ, i))))
  }
  check()
}
