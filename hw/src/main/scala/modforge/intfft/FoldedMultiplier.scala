package modforge.intfft

import modforge.FanoutReg
import modforge.mem.MemBank
import spinal.core._
import spinal.lib.Delay

/** The block multiplier with a folded transform: P unified butterflies and P pointwise units over
  * banked memory, one block pair at a time (start on an accepted pair, the product's words on
  * `out_*`; the next pair may enter at the handoff to addition recovery, so recovery of one product
  * overlaps the transforms of the next).
  *
  * Storage: the digit registers of x and y (the forward stage 0 reads them bit-reversed), and three
  * slots of 2P [[modforge.mem.MemBank]]s of k/(2P) words (synchronous read, the NTT tile's bank map
  * [[modforge.ntt.NttSchedule]]): X, Y, and Z (the pointwise products at bit-reversed indices, the
  * inverse transform in place, the z_t, which [[WordSerialRecovery]] reads d/b a clock). No register
  * array: on an FPGA every slot is LUT RAM, where a k-word register array with its write and
  * bit-reversed read muxes was the largest block of the design. The issue order is
  * [[FoldedSchedule]], wired as a ROM indexed by the cycle count.
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
  // Word-serial recovery: one tree of d/b leaves for every word. Word i's d/b values z_{i d/b + u} sit
  // in d/b different banks of slot Z when d/b <= 2P (they differ in the low bank bits only).
  val leafCount = g.d / g.b
  FoldedMultiplier.unitsError(g, units).foreach(e => throw new IllegalArgumentException(s"folded multiplier: $e"))
  // Read latency 2: the banks' synchronous read, then a register after the bank select.
  val rec = new WordSerialRecovery(g, readLatency = 2)
  // Recovery reads slot Z in clocks handoff .. handoff + kb/d - 1. The next pair, accepted in the
  // handoff clock at the earliest, writes slot Z first at the end of clock handoff + 1 + firstZWrite:
  // after the last read when firstZWrite >= kb/d = 16. The forward transforms come first: their
  // 2 log2(k) k/(2P) >= 4 log2(k) >= 24 issue cycles (4P <= k, k >= 64) already exceed it.
  require(sched.firstZWrite >= rec.readCycles, s"folded multiplier: the next pair writes slot Z ${sched.firstZWrite} cycles after its issue starts, before addition recovery has read the ${rec.readCycles} words of the last product")
  def issueInterval: Int = handoff + 1
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
  val slotSpaces = Seq(Space.SlotX, Space.SlotY, Space.SlotZ)
  val slots = slotSpaces.map(s => s -> Seq.tabulate(2 * units)(b => new MemBank(m, depth).setName(s"bank_s${s - Space.SlotX}_b$b"))).toMap
  val dx = digits(digX)
  val dy = digits(digY)

  // ---- Recovery's reads: word i's d/b values z_{i d/b + u} from slot Z, one per bank ----
  val leafIdx = (0 until leafCount).map(u => (rec.io.word ## U(u, log2Up(leafCount) bits)).asUInt.resize(log2k bits))
  for (i <- 0 until g.productWords) {
    val banksOfWord = (0 until leafCount).map(u => ns.bank(i * leafCount + u))
    require(banksOfWord.distinct.length == leafCount, s"folded multiplier: word $i of recovery reads two values from one bank")
  }

  // ---- Reads (issue cycle), operand data one cycle later ----
  // Slot Z's banks also serve recovery: it reads from the handoff on, when no operand reads slot Z
  // (this product's inverse transform is done; the next one reads Z only after writing it, above).
  for ((s, banks) <- slots; (bank, b) <- banks.zipWithIndex) {
    val opHits = (0 until 2 * units).map(o => (issue && rdSrc(o) === s && bankOf(rdIdx(o)) === b, addrOf(rdIdx(o))))
    val recHits = if (s == Space.SlotZ) leafIdx.map(i => (rec.io.reading && bankOf(i) === b, addrOf(i))) else Nil
    val hits = opHits ++ recHits
    bank.io.rdEn := hits.map(_._1).reduce(_ || _)
    bank.io.rdAddr := hits.map { case (hit, a) => Mux(hit, a, U(0, log2Up(depth) bits)) }.reduce(_ | _)
  }
  // A port's register read muxes over the indices the schedule has it read (FoldedSchedule.portReads),
  // k/(2P) per space, not all k: otherwise every digit register fans out to all 2P ports.
  def regPick(words: Vec[UInt], space: Int, o: Int): UInt = sched.portReads(o, space) match {
    case Seq() => U(0, m bits)
    case Seq(i) => words(i)
    case is => rdIdx(o).muxListDc(is.map(i => i -> words(i)))
  }
  def slotData(s: Int): Vec[UInt] = Vec(slots(s).map(_.io.rdData))
  // The operand selects are registered in the issue cycle, each bit its own flip-flop
  // (modforge.FanoutReg): one register driving all of a wide mux's bits was the critical path of
  // post-synthesis STA, which buffers no register output.
  def keep(d: Bool): Bool = FanoutReg(d, 1).head
  // The operand crossbar in two levels. In an issue cycle every A port (2u) reads slot srcA and every
  // B port (2u + 1) slot srcB (the schedule's steps), so the slot is chosen once per bank and side:
  // 2 x 2P buses, bus(side)(b) = bank b of that side's slot (0 when the side reads the digit
  // registers). Each port then picks its bank among its side's 2P buses. A bank's data goes to two
  // slot muxes and a bus to P ports; picking slot and bank at every port took each bank's data to
  // all 2P ports (3 x 2P x 2P m-bit wires), the bulk of the folded 2^64+1 multiplier's routing on
  // the ECP5.
  val bus = Seq(srcA, srcB).map(src => Vec((0 until 2 * units).map { b =>
    slotSpaces.map(s => Mux(keep(src === s), slots(s)(b).io.rdData, U(0, m bits))).reduce(_ | _)
  }))
  val operand = Vec((0 until 2 * units).map { o =>
    val regRead = RegNext(Mux(rdSrc(o) === Space.DigitsY, regPick(dy, Space.DigitsY, o), regPick(dx, Space.DigitsX, o)))
    val fromRegs = keep(!slotSpaces.map(rdSrc(o) === _).reduce(_ || _))
    val bankR = Vec(bankOf(rdIdx(o)).asBools.map(keep)).asBits.asUInt
    bus(o % 2)(bankR) | Mux(fromRegs, regRead, U(0, m bits))
  })
  rec.io.leaves := Vec(leafIdx.map(i => RegNext(slotData(Space.SlotZ)(RegNext(bankOf(i))))))

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
  // One write crossbar for the three slots. The butterfly results of a cycle all come from one
  // step, so they go to one slot (bDst); the pointwise results go to slot Z (Z_t at bitrev(t)). So
  // bank b of every slot takes the same pick among the 2P butterfly outputs, enabled for the slot
  // bDst names, and slot Z's bank b also the pick among the P pointwise units, which never meets a
  // butterfly write to that bank in one cycle (FoldedSchedule.check: one write per bank a cycle).
  private def pick(hits: Seq[(Bool, UInt, UInt)]): (Bool, UInt, UInt) = (hits.map(_._1).reduce(_ || _),
    hits.map { case (hit, a, _) => Mux(hit, a, U(0, log2Up(depth) bits)) }.reduce(_ | _),
    hits.map { case (hit, _, d) => Mux(hit, d, U(0, m bits)) }.reduce(_ | _))
  val bPick = (0 until 2 * units).map(b => pick((0 until 2 * units).map(o => (bWrite && bankOf(bIdx(o)) === b, addrOf(bIdx(o)), bData(o)))))
  val pPick = (0 until 2 * units).map(b => pick((0 until units).map(u => (pWrite && bankOf(pIdx(u)) === b, addrOf(pIdx(u)), pwu(u).io.y))))
  for ((s, banks) <- slots; (bank, b) <- banks.zipWithIndex) {
    val (bAny, bAddr, bDat) = bPick(b)
    val bOn = bAny && bDst === s
    if (s == Space.SlotZ) {
      val (pAny, pAddr, pDat) = pPick(b)
      bank.io.wrEn := bOn || pAny
      bank.io.wrAddr := Mux(pAny, pAddr, bAddr)
      bank.io.wrData := Mux(pAny, pDat, bDat)
    } else {
      bank.io.wrEn := bOn
      bank.io.wrAddr := bAddr
      bank.io.wrData := bDat
    }
  }

  // ---- Word-serial recovery reads slot Z from the handoff on ----
  rec.io.inValid := atHandoff
  out_valid := rec.io.outValid
  out_last := rec.io.outLast
  out_word := rec.io.outWord
}

object FoldedMultiplier {
  /** Why P units cannot serve word-serial recovery, if they cannot: it reads a word's d/b values z_t
    * in one clock, from d/b different banks of slot Z, and a slot has 2P banks. */
  def unitsError(g: IntFftParams, units: Int): Option[String] = {
    val leaves = g.d / g.b
    if (leaves <= 2 * units) None
    else Some(s"P = $units gives 2P = ${2 * units} banks, fewer than the d/b = $leaves values addition recovery reads a clock; use P >= ${leaves / 2}")
  }
}
