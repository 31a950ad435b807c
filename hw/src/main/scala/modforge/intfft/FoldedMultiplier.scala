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
  * [[modforge.ntt.NttSchedule]], in slot Y with the top bank bit flipped): X, Y, and Z (the pointwise products at bit-reversed indices, the
  * inverse transform in place, the z_t, which [[WordSerialRecovery]] reads d/b a clock). No register
  * array: on an FPGA every slot is LUT RAM, where a k-word register array with its write and
  * bit-reversed read muxes was the largest block of the design. The issue order is
  * [[FoldedSchedule]], wired as a ROM indexed by the cycle count. The bank map is linear and every
  * cycle's banks are an XOR permutation of the ports, so the read, write and recovery crossbars are
  * XOR networks (log2(2P) stages of conditional swaps) with small picks, not 2P:1 muxes.
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
  // Slot Y numbers its banks with the top bank bit flipped: value i of y sits in bank bankOf(i) ^ P.
  // The pointwise step reads x_t and y_t for the same P indices t, which then sit in 2P different
  // banks, so one read bus per bank serves both operands (below).
  def slotBank(i: UInt, s: Int): UInt = if (s == Space.SlotY) bankOf(i) ^ U(units, bankBits bits) else bankOf(i)
  def slotBankOf(i: Int, s: Int): Int = if (s == Space.SlotY) ns.bank(i) ^ units else ns.bank(i)
  val slotSpaces = Seq(Space.SlotX, Space.SlotY, Space.SlotZ)
  val slots = slotSpaces.map(s => s -> Seq.tabulate(2 * units)(b => new MemBank(m, depth).setName(s"bank_s${s - Space.SlotX}_b$b"))).toMap
  val dx = digits(digX)
  val dy = digits(digY)

  // ---- Recovery's reads: word i's d/b values z_{i d/b + u} from slot Z, one per bank ----
  val leafIdx = (0 until leafCount).map(u => (rec.io.word ## U(u, log2Up(leafCount) bits)).asUInt.resize(log2k bits))
  for (i <- 0 until g.productWords) {
    val banksOfWord = (0 until leafCount).map(u => ns.bank(i * leafCount + u))
    require(banksOfWord.distinct.length == leafCount, s"folded multiplier: word $i of recovery reads two values from one bank")
    // What the XOR network and the shared address below rely on.
    for (u <- 0 until leafCount) require(ns.bank(i * leafCount + u) == (ns.bank(i * leafCount) ^ u) && ns.addr(i * leafCount + u) == ns.addr(i * leafCount),
      s"folded multiplier: value $u of recovery's word $i is not in bank c ^ $u at the word's address")
  }

  // ---- Reads (issue cycle), operand data one cycle later ----
  // Slot Z's banks also serve recovery: it reads from the handoff on, when no operand reads slot Z
  // (this product's inverse transform is done; the next one reads Z only after writing it, above).
  // Recovery's word i reads the same address, i d/b >> log2(2P), in every bank of slot Z: its d/b
  // indices i d/b + u differ in their lowest log2(d/b) <= log2(2P) bits only. All 2P banks read
  // (at 2^32+1, d/b = 4 of 8 hold a leaf; reading the others is harmless, no operand reads slot Z then).
  val recAddr = addrOf(leafIdx(0))
  val opRead = (for ((s, banks) <- slots.toSeq; (bank, b) <- banks.zipWithIndex) yield {
    val opHits = (0 until 2 * units).map(o => (issue && rdSrc(o) === s && slotBank(rdIdx(o), s) === b, addrOf(rdIdx(o))))
    val recHits = if (s == Space.SlotZ) Seq((rec.io.reading, recAddr)) else Nil
    val hits = opHits ++ recHits
    bank.io.rdEn := hits.map(_._1).reduce(_ || _)
    bank.io.rdAddr := hits.map { case (hit, a) => Mux(hit, a, U(0, log2Up(depth) bits)) }.reduce(_ | _)
    (s, b) -> opHits.map(_._1).reduce(_ || _)
  }).toMap
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
  // An XOR network over 2P words of w bits: stage s exchanges positions v and v ^ 2^s when bit s of
  // c is set, c computed one clock before the words arrive (`cNext`) and registered in one copy per
  // stage and position (FanoutReg): a single register per bit would drive 2P w-bit muxes, an
  // unbuffered net of hundreds of loads on the post-synthesis critical path.
  def xorNetwork(words: Seq[UInt], cNext: UInt): Seq[UInt] = (0 until bankBits).foldLeft(words) { (w, s) =>
    Seq.tabulate(2 * units)(v => Mux(keep(cNext(s)), w(v ^ (1 << s)), w(v)))
  }
  // The operand crossbar: one bus per bank, an XOR network, a small pick per port. In an issue cycle
  // of a banked step port o reads bank C ^ F(o), C = the bank port 0 reads (checked on every step
  // below): in a butterfly step (both sides one slot, NttSchedule.pair as for the writes) F = sigma_r,
  // r named by the one-hot bankOf(x_0) ^ bankOf(y_0) = 2^r; in a pointwise step F(2u) = u (x_t from
  // slot X) and F(2u + 1) = u ^ P (y_t from slot Y, whose banks are numbered ^ P). So the 2P banks
  // read in a cycle are 2P different bank numbers across the slots, and
  //  - bus(b) = the slot of bank b that an operand read (registered read flags; 0 if none, so digit
  //    register steps and recovery's reads of slot Z add nothing);
  //  - n(v) = bus(v ^ C): log2(2P) stages of conditional swaps by C's bits;
  //  - port o picks n(F(o)) among the at most log2(2P) + 1 candidates of F.
  // Before, each side (A ports, B ports) had its own 2P buses and each port a 2P:1 pick over them.
  for ((st, c) <- sched.steps.zipWithIndex; s <- st if Space.banked(s.srcA)) {
    val c0 = slotBankOf(s.units.head.rdA, s.srcA)
    val r = if (s.pw) 0 else FoldedMultiplier.pairBit(ns.bank(s.units.head.rdA), ns.bank(s.units.head.rdB), s"step $c's first butterfly reads")
    for ((op, u) <- s.units.zipWithIndex; ((i, src), h) <- Seq((op.rdA, s.srcA), (op.rdB, s.srcB)).zipWithIndex) {
      val f = if (s.pw) u ^ (h * units) else FoldedMultiplier.sigma(bankBits, r, 2 * u + h)
      require(slotBankOf(i, src) == (c0 ^ f), s"folded multiplier: step $c reads port ${2 * u + h}'s operand from bank ${slotBankOf(i, src)}, not C ^ F = ${c0 ^ f}")
    }
  }
  val bus = (0 until 2 * units).map(b => slotSpaces.map(s => Mux(keep(opRead((s, b))), slots(s)(b).io.rdData, U(0, m bits))).reduce(_ | _))
  val rCNext = Mux(srcA === Space.SlotY, slotBank(rdIdx(0), Space.SlotY), bankOf(rdIdx(0)))
  val rENext = bankOf(rdIdx(0)) ^ bankOf(rdIdx(1))
  val rNet = xorNetwork(bus, rCNext)
  val operand = Vec((0 until 2 * units).map { o =>
    val regRead = RegNext(Mux(rdSrc(o) === Space.DigitsY, regPick(dy, Space.DigitsY, o), regPick(dx, Space.DigitsX, o)))
    val fromRegs = keep(!slotSpaces.map(rdSrc(o) === _).reduce(_ || _))
    val candidates = (0 until bankBits).map(r => (FoldedMultiplier.sigma(bankBits, r, o), !isPw && rENext(r))) :+ (((o / 2) ^ ((o % 2) * units), isPw))
    // Each candidate's select registered on its own (m loads each).
    val picked = candidates.groupBy(_._1).toSeq.sortBy(_._1).map { case (v, cs) => Mux(keep(cs.map(_._2).reduce(_ || _)), rNet(v), U(0, m bits)) }.reduce(_ | _)
    picked | Mux(fromRegs, regRead, U(0, m bits))
  })
  // Recovery's leaf select as an XOR network. Leaf u of word i, z_{i d/b + u}, sits in bank
  // bankOf(i d/b) ^ u: the bank map XORs the index's log2(2P)-bit groups, and u < d/b <= 2P lies in
  // the lowest group, where i d/b has zeros. So the leaves are the banks permuted by c = bankOf(i d/b):
  // log2(2P) stages of conditional swaps, stage s exchanging banks v and v ^ 2^s when bit s of c is
  // set, instead of a 2P:1 mux per leaf bit (every bank's data to every leaf). c's copies are
  // registered beside the banks' synchronous read; the leaves' register follows the network (read
  // latency 2).
  val zPerm = xorNetwork(slotData(Space.SlotZ).toSeq, bankOf(leafIdx(0)))
  rec.io.leaves := Vec((0 until leafCount).map(u => RegNext(zPerm(u))))

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
  // The write network's controls come from the write indices one clock early (registered below).
  val bDstEarly = Delay(dst, sched.writeDelay(false) - 1)
  val bIdxEarly = Delay(wrIdx, sched.writeDelay(false) - 1)
  val bDst = RegNext(bDstEarly)
  val bIdx = RegNext(bIdxEarly)
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
  // The butterfly pick as a bit permutation and an XOR network. Unit u of a butterfly step writes
  // x_u = j_u (output 2u) and y_u = j_u | 2^s (output 2u + 1) (NttSchedule.pair): j_u is the cycle's
  // free bits and u's bits at the unit positions, all positions but r = s mod log2(2P) of the lowest
  // bank group. The bank map is linear (it XORs the index's groups), so output o goes to bank
  // C ^ sigma_r(o), C = bankOf(x_0), where sigma_r puts o's bit 0 at bit r and u's bits, in order, at
  // the others ([[FoldedMultiplier.sigma]], checked on every step below). Bank v thus takes output
  // sigma_r^-1(v ^ C): first q(v) = output sigma_r^-1(v) (r named by the one-hot
  // bankOf(x_0) ^ bankOf(y_0) = 2^r), then log2(2P) stages of conditional swaps by C's bits. Every
  // bank is written in a butterfly write cycle (2P outputs, 2P banks). It replaces a 2P:1 pick per
  // bank, where every butterfly output reached every bank.
  for ((st, c) <- sched.steps.zipWithIndex; s <- st if !s.pw) {
    val x0 = ns.bank(s.units.head.wrA)
    val r = FoldedMultiplier.pairBit(x0, ns.bank(s.units.head.wrB), s"step $c's first butterfly writes")
    for ((op, u) <- s.units.zipWithIndex; (w, h) <- Seq(op.wrA, op.wrB).zipWithIndex)
      require(ns.bank(w) == (x0 ^ FoldedMultiplier.sigma(bankBits, r, 2 * u + h)),
        s"folded multiplier: step $c writes output ${2 * u + h} to bank ${ns.bank(w)}, not C ^ sigma_$r = ${x0 ^ FoldedMultiplier.sigma(bankBits, r, 2 * u + h)}")
  }
  val bOut = (0 until 2 * units).map(o => addrOf(bIdx(o)) @@ bData(o)) // address above data, through the network together
  val wCNext = Mux(bDstEarly === Space.SlotY, slotBank(bIdxEarly(0), Space.SlotY), bankOf(bIdxEarly(0)))
  val wENext = bankOf(bIdxEarly(0)) ^ bankOf(bIdxEarly(1))
  val wQ = (0 until 2 * units).map { v =>
    (0 until bankBits).map(r => Mux(keep(wENext(r)), bOut(FoldedMultiplier.sigmaInverse(bankBits, r, v)), U(0, bOut(0).getWidth bits))).reduce(_ | _)
  }
  val wNet = xorNetwork(wQ, wCNext)
  val bPick = wNet.map(x => (bWrite, x(x.getWidth - 1 downto m), x(m - 1 downto 0)))
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
  /** Where butterfly output o (2u + h: unit u, h = 0 for x_u, 1 for y_u) sits in the bank index
    * relative to C in a step of pair distance 2^s, r = s mod bankBits: h at bit r, u's bits in order
    * at the other bankBits - 1 bits (NttSchedule.unitPositions). */
  def sigma(bankBits: Int, r: Int, o: Int): Int = {
    val others = (0 until bankBits).filter(_ != r)
    others.zipWithIndex.foldLeft((o & 1) << r) { case (acc, (pos, i)) => acc | (((o >> (1 + i)) & 1) << pos) }
  }
  def sigmaInverse(bankBits: Int, r: Int, v: Int): Int = (0 until (1 << bankBits)).find(sigma(bankBits, r, _) == v).get
  /** r of a butterfly step: the bank bit in which its first unit's two banks a and b differ (the
    * pair distance's bit, NttSchedule.pair); refused unless they differ in exactly one bit. */
  def pairBit(a: Int, b: Int, what: String): Int = {
    require(Integer.bitCount(a ^ b) == 1, s"folded multiplier: $what banks $a and $b, not one bank bit apart")
    Integer.numberOfTrailingZeros(a ^ b)
  }

  /** Why P units cannot serve word-serial recovery, if they cannot: it reads a word's d/b values z_t
    * in one clock, from d/b different banks of slot Z, and a slot has 2P banks. */
  def unitsError(g: IntFftParams, units: Int): Option[String] = {
    val leaves = g.d / g.b
    if (leaves <= 2 * units) None
    else Some(s"P = $units gives 2P = ${2 * units} banks, fewer than the d/b = $leaves values addition recovery reads a clock; use P >= ${leaves / 2}")
  }
}
