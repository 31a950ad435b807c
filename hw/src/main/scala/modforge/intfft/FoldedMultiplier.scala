package modforge.intfft

import modforge.mem.MemBank
import spinal.core._
import spinal.lib.Delay

/** The block multiplier with a folded transform: P unified butterflies and P pointwise units over
  * banked memory, one block pair at a time (start on an accepted pair, the product's words on
  * `out_*`; the next pair may enter at the handoff to addition recovery, so recovery of one product
  * overlaps the transforms of the next).
  *
  * Storage: the digit registers of x and y (the forward stage 0 reads them bit-reversed), two slots of
  * 2P [[modforge.mem.MemBank]]s of k/(2P) words (X, then the inverse transform, and Y; synchronous
  * read, the NTT tile's bank map [[modforge.ntt.NttSchedule]]), and the k-word register array R
  * (pointwise results, read bit-reversed by inverse stage 0; the z_t, read d/b a clock by
  * [[WordSerialRecovery]]). The issue order is [[FoldedSchedule]], wired as a ROM indexed by the cycle count.
  *
  * Issue cycle t: bank read addresses and the register reads (registered) in t, operands and
  * twiddles at the units in t + 1, results written in t + 1 + L (L: [[Butterfly.latency]] or
  * [[PointwiseUnit.latency]]).
  */
class FoldedMultiplier(g: IntFftParams, val units: Int) extends BlockMultiplier(g) {
  import g.{k, log2k, m}
  def organisation: FftOrganisation = FftOrganisation.Folded(units)
  val sched = FoldedSchedule(g, units)
  val ns = sched.ns
  val nSteps: Int = sched.steps.length
  val handoff: Int = sched.handoff
  require(handoff + 1 >= g.productWords, s"folded multiplier: ${handoff + 1} cycles per block are fewer than the kb/d = ${g.productWords} words of addition recovery")
  def issueInterval: Int = handoff + 1
  // Word-serial recovery: one tree of d/b leaves for every word (the next pair comes issueInterval clocks later).
  val rec = new WordSerialRecovery(g)
  // It reads R in the kb/d clocks from the handoff on; the next pair, accepted at the handoff at the
  // earliest, writes R first in its issue cycle firstRWrite, clock handoff + 1 + firstRWrite.
  require(sched.firstRWrite >= rec.readCycles, s"folded multiplier: the next pair writes R ${sched.firstRWrite} cycles after its issue starts, before word-serial recovery has read the ${rec.readCycles} words of the last product")
  def latency: Int = 1 + handoff + rec.latency

  // ---- Controller: the cycle count runs 0 .. handoff after an accepted pair ----
  val running = RegInit(False)
  val cnt = Reg(UInt(log2Up(handoff + 1) bits)) init (0)
  val atHandoff = running && cnt === handoff
  in_ready := !running || atHandoff
  val accept = in_valid && in_ready
  when(running) { cnt := cnt + 1; when(atHandoff) { running := False } }
  when(accept) { running := True; cnt := 0 }
  val digX = Reg(UInt(g.blockBits bits))
  val digY = Reg(UInt(g.blockBits bits))
  when(accept) { digX := in_x; digY := in_y }

  // ---- The issue ROM ----
  val idxBits = log2k
  val eBits = math.max(1, log2k - 1)
  private val unitFields = Seq(idxBits, idxBits, idxBits, idxBits, eBits)
  private val stepFields = Seq(1, 1, 1, 1, Space.bits, Space.bits, Space.bits) ++ Seq.fill(units)(unitFields).flatten
  val romBits: Int = stepFields.sum
  private def pack(values: Seq[Int]): BigInt =
    values.zip(stepFields).foldRight(BigInt(0)) { case ((v, w), acc) => require(v >= 0 && v < (1 << w)); (acc << w) | v }
  private def encode(s: Option[Step]): BigInt = s match {
    case None => 0
    case Some(st) => pack(Seq(1, if (st.pw) 1 else 0, if (st.inverse) 1 else 0, if (st.scaled) 1 else 0, st.srcA, st.srcB, st.dst) ++
      st.units.flatMap(u => Seq(u.rdA, u.rdB, u.wrA, u.wrB, u.e)))
  }
  val rom = Vec(sched.steps.map(s => B(encode(s), romBits bits)))
  val romIdx = cnt.resize(log2Up(nSteps) bits)
  val word = Mux(cnt < nSteps, rom(romIdx), B(0, romBits bits))
  private val offsets = stepFields.scanLeft(0)(_ + _)
  private def field(i: Int): Bits = word(offsets(i) + stepFields(i) - 1 downto offsets(i))
  val issue = running && field(0)(0)
  val isPw = field(1)(0)
  val isInverse = field(2)(0)
  val isScaled = field(3)(0)
  val srcA = field(4).asUInt
  val srcB = field(5).asUInt
  val dst = field(6).asUInt
  def unitField(u: Int, f: Int): UInt = field(7 + 5 * u + f).asUInt
  val rdIdx = Vec((0 until units).flatMap(u => Seq(unitField(u, 0), unitField(u, 1))))
  val rdSrc = Vec((0 until units).flatMap(_ => Seq(srcA, srcB)))
  val wrIdx = Vec((0 until units).flatMap(u => Seq(unitField(u, 2), unitField(u, 3))))

  // ---- Storage ----
  val bankBits = ns.bankBits
  val depth = k / (2 * units)
  def bankOf(i: UInt): UInt =
    (0 until log2k by bankBits).map(s => i(math.min(s + bankBits, log2k) - 1 downto s).resize(bankBits bits)).reduce(_ ^ _)
  def addrOf(i: UInt): UInt = (i >> bankBits).resize(log2Up(depth) bits)
  val slots = Seq(Space.SlotX, Space.SlotY).map(s => s -> Seq.tabulate(2 * units)(b => new MemBank(m, depth).setName(s"bank_s${s - Space.SlotX}_b$b"))).toMap
  val r = Reg(Vec(UInt(m bits), k))
  val dx = digits(digX)
  val dy = digits(digY)

  // ---- Reads (issue cycle), operand data one cycle later ----
  for ((s, banks) <- slots; (bank, b) <- banks.zipWithIndex) {
    val hits = (0 until 2 * units).map(o => issue && rdSrc(o) === s && bankOf(rdIdx(o)) === b)
    bank.io.rdEn := hits.reduce(_ || _)
    bank.io.rdAddr := (0 until 2 * units).map(o => Mux(hits(o), addrOf(rdIdx(o)), U(0, log2Up(depth) bits))).reduce(_ | _)
  }
  // A port's register read muxes over the indices the schedule has it read (FoldedSchedule.portReads),
  // k/(2P) per space, not all k: otherwise every register of R fans out to all 2P ports.
  def regPick(words: Vec[UInt], space: Int, o: Int): UInt = sched.portReads(o, space) match {
    case Seq() => U(0, m bits)
    case Seq(i) => words(i)
    case is => rdIdx(o).muxListDc(is.map(i => i -> words(i)))
  }
  val operand = Vec((0 until 2 * units).map { o =>
    val regRead = RegNext(rdSrc(o).mux(Space.DigitsX -> regPick(dx, Space.DigitsX, o),
      Space.DigitsY -> regPick(dy, Space.DigitsY, o), default -> regPick(r, Space.R, o)))
    val srcR = RegNext(rdSrc(o))
    val bankR = RegNext(bankOf(rdIdx(o)))
    val fromX = Vec(slots(Space.SlotX).map(_.io.rdData))(bankR)
    val fromY = Vec(slots(Space.SlotY).map(_.io.rdData))(bankR)
    srcR.mux(Space.SlotX -> fromX, Space.SlotY -> fromY, default -> regRead)
  })

  // ---- Twiddles: a ROM of omega^(+-e) (k^-1 omega^-e in the last inverse stage), registered ----
  val twTable = Vec(for (inv <- 0 to 1; sc <- 0 to 1; e <- 0 until (1 << eBits)) yield
    U(if (sc == 1 && inv == 0) BigInt(0) else g.twiddleCode(g.twiddle(e, inv == 1, sc == 1)), g.twiddleBits bits))

  // ---- The units ----
  val bfly = for (u <- 0 until units) yield {
    val bf = new Butterfly(g, scalable = true).setName(s"bfly_$u")
    bf.io.xUp := operand(2 * u)
    bf.io.xDown := operand(2 * u + 1)
    bf.io.twDown := RegNext(twTable((isInverse ## isScaled ## unitField(u, 4).resize(eBits bits)).asUInt))
    bf.io.twUp := U(g.twiddleCode(g.kInv), g.twiddleBits bits)
    bf.io.scaled := RegNext(isScaled)
    bf
  }
  val pwu = for (u <- 0 until units) yield {
    val p = new PointwiseUnit(g).setName(s"pw_$u")
    p.io.a := operand(2 * u)
    p.io.b := operand(2 * u + 1)
    p
  }

  // ---- Writes: butterfly results 1 + L_b after issue, pointwise results 1 + L_pw after ----
  val bWrite = Delay(issue && !isPw, sched.writeDelay(false), init = False)
  val bDst = Delay(dst, sched.writeDelay(false))
  val bIdx = Delay(wrIdx, sched.writeDelay(false))
  val bData = Vec(bfly.flatMap(bf => Seq(bf.io.up, bf.io.down)))
  val pWrite = Delay(issue && isPw, sched.writeDelay(true), init = False)
  val pIdx = Delay(Vec((0 until units).map(u => unitField(u, 2))), sched.writeDelay(true))
  for ((s, banks) <- slots; (bank, b) <- banks.zipWithIndex) {
    val hits = (0 until 2 * units).map(o => bWrite && bDst === s && bankOf(bIdx(o)) === b)
    bank.io.wrEn := hits.reduce(_ || _)
    bank.io.wrAddr := (0 until 2 * units).map(o => Mux(hits(o), addrOf(bIdx(o)), U(0, log2Up(depth) bits))).reduce(_ | _)
    bank.io.wrData := (0 until 2 * units).map(o => Mux(hits(o), bData(o), U(0, m bits))).reduce(_ | _)
  }
  // R(i) takes only the outputs that the schedule has write i (FoldedSchedule.bflyWritesR, pwWritesR):
  // one butterfly output and one pointwise unit, instead of all 3P.
  for (i <- 0 until k) {
    val bHits = (0 until 2 * units).filter(o => sched.bflyWritesR(o)(i)).map(o => (bWrite && bDst === Space.R && bIdx(o) === i, bData(o)))
    val pHits = (0 until units).filter(u => sched.pwWritesR(u)(i)).map(u => (pWrite && pIdx(u) === i, pwu(u).io.y))
    val hits = bHits ++ pHits
    when(hits.map(_._1).reduce(_ || _)) {
      r(i) := hits.map { case (hit, data) => Mux(hit, data, U(0, m bits)) }.reduce(_ | _)
    }
  }

  // ---- Word-serial recovery reads R from the handoff on ----
  rec.io.inValid := atHandoff
  rec.io.z := r
  out_valid := rec.io.outValid
  out_last := rec.io.outLast
  out_word := rec.io.outWords(0)
}
