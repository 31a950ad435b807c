package modforge.ntt

import spinal.core._; import modforge.mem.{ReadAhead, SramBank} // SRAM storage (cfg.storage)
import spinal.lib.Delay

/** The tile's controller states. */
object NttState extends SpinalEnum(binarySequential) {
  val idle, load, unload, issue, drain = newElement() // drain: a gap between stages, or the wait before done
}

/** An NTT tile over Z_q[x]/(x^N + 1): two polynomial slots, P butterfly units, one command at a time.
  *
  * Commands (`cmd_op`; the full interface and the orderings: docs/ntt.md, "Ports", "Commands, orderings and domains"):
  *  - 0 LOAD slot: N coefficients in on `load_*` (valid/ready), storage index 0..N-1;
  *  - 1 UNLOAD slot: N coefficients out on `unload_*` (valid/ready), storage index 0..N-1;
  *  - 2 NTT slot: in place, natural order in, bit-reversed order out (SEAL's ntt_negacyclic_harvey);
  *  - 3 INTT slot: in place, bit-reversed in, natural out, N^-1 included;
  *  - 4 PWMUL slot: slot[i] = slot[i] * other[i] mod q, other = the other slot.
  * `done` pulses for one cycle when a command is complete; the next one may fire in that cycle.
  * Other codes finish at once with `done` and `bad_cmd`.
  *
  * Cycles from command to done ([[NttConfig.cycles]]): the issue cycles (N/(2P) per stage, N/P per
  * PWMUL pass), the gaps between stages, L + 1 for the last results to be written and one for `done`,
  * where L is the butterfly latency; LOAD/UNLOAD N + 1 plus stalls. A stage starts as soon as every
  * coefficient it reads has been written by the one before ([[NttSchedule.stageGap]]: no gap at all
  * for N/(2P) >= lag + L + 2, e.g. N = 256, P = 2; at most L + 1 for small N); [[NttSchedule]] keeps
  * all 2P accesses of a cycle in different banks.
  *
  * Reduction arrangements ([[ReductionArrangement]]): the twiddles are stored as W F^-1 mod q, and
  * PWMUL runs two passes of N/P cycles: X Y F into the slot, then that times C = F^-2 (`mod.red_c`,
  * fed on the units' twiddle input); the second pass follows the first without a gap once
  * N/P >= L + 2.
  */
class NttTile(val cfg: NttConfig) extends Component {
  import cfg.{k, logN, n, p}
  val sched = NttSchedule(logN, p)
  val banks = 2 * p
  val depth = cfg.bankDepth
  val addrBits = log2Up(depth)
  val ram = cfg.twiddles == TwiddleStore.Ram; val sram = cfg.storage == Storage.Sram // _sram: banks of SRAM macros

  val cmd_valid = in Bool ()
  val cmd_ready = out Bool ()
  val cmd_op = in UInt (3 bits)
  val cmd_slot = in UInt (1 bits)
  val done = out Bool ()
  val bad_cmd = out Bool ()
  val busy = out Bool ()
  val load_valid = in Bool ()
  val load_ready = out Bool ()
  val load_data = in UInt (k bits)
  val unload_valid = out Bool ()
  val unload_ready = in Bool ()
  val unload_data = out UInt (k bits)
  // RAM tile only: twiddle writes (index 1..N-1; inverse = 1 for INTT's table) and the modulus.
  val tw_valid = ram generate (in Bool ())
  val tw_inverse = ram generate (in Bool ())
  val tw_index = ram generate (in UInt (logN bits))
  val tw_w = ram generate (in UInt (k bits))
  val tw_r = ram generate (in UInt (k bits))
  val mod = ModulusBundle(k, cfg.mul)
  if (ram) mod.asInput() else mod.assignConstants(cfg.q)

  def latency: Int = cfg.butterflyLatency

  // ---- Index arithmetic (NttSchedule, in hardware) ----
  def bankOf(i: UInt): UInt =
    (0 until logN by sched.bankBits).map(s => i(math.min(s + sched.bankBits, logN) - 1 downto s).resize(sched.bankBits))
      .reduce(_ ^ _)
  def addrOf(i: UInt): UInt = (i >> sched.bankBits).resize(addrBits)
  def deposit(v: UInt, positions: Seq[Int]): UInt =
    Vec((0 until logN).map { pos => val i = positions.indexOf(pos); if (i >= 0) v(i) else False }).asBits.asUInt
  def constant(x: Int): UInt = U(x, logN bits)

  // ---- Controller ----
  val state = RegInit(NttState.idle)
  val op = Reg(UInt(3 bits)) init (0)
  val slot = Reg(UInt(1 bits)) init (0)
  val bpos = Reg(UInt(log2Up(logN) bits)) init (0) // the stage's pair distance is 2^bpos
  val cnt = Reg(UInt(logN bits)) init (0)
  /** The value of `f` for this stage (bpos). */
  def perStage(f: Int => UInt): UInt = Vec((0 until logN).map(f))(bpos.resize(log2Up(logN)))
  val drainCnt = Reg(UInt(log2Up(cfg.drainCycles) bits)) init (0)
  val drainEnd = Reg(UInt(log2Up(cfg.drainCycles) bits)) init (0) // the wait ends when drainCnt reaches it
  val finalDrain = Reg(Bool()) init (False) // the wait before `done` (else a gap between stages or passes)
  val finish = False
  val bad = False
  val isPw = op === NttOp.PwMul.code
  val isIntt = op === NttOp.Intt.code
  // Reduction arrangements: PWMUL's second pass (times C = F^-2) is running.
  val twoPass = cfg.mul.pwPasses == 2
  val pass2: Bool = if (twoPass) RegInit(False) else False

  cmd_ready := state === NttState.idle
  busy := state =/= NttState.idle
  load_ready := state === NttState.load
  if (!sram) unload_valid := state === NttState.unload // SRAM: the ReadAhead stream's valid (below)
  done := RegNext(finish) init (False)
  bad_cmd := RegNext(bad) init (False)

  // The gap after the stage at bpos (NttSchedule.gapAfter), as the drain's last count, and whether it is 0.
  def waitEnd(g: Int): UInt = U(math.max(g - 1, 0), drainCnt.getWidth bits)
  val gapEnd = Mux(isIntt, perStage(b => waitEnd(sched.gapAfter(b, inverse = true, latency))),
    perStage(b => waitEnd(sched.gapAfter(b, inverse = false, latency))))
  val noGap = Mux(isIntt, perStage(b => U(if (sched.gapAfter(b, inverse = true, latency) == 0) 1 else 0, 1 bits)),
    perStage(b => U(if (sched.gapAfter(b, inverse = false, latency) == 0) 1 else 0, 1 bits))) === 1
  val passGap = sched.passGap(latency)
  val unloader = sram generate new ReadAhead(k, n); val unloadStep = if (sram) unload_valid && unload_ready else unload_ready // a beat moves
  val issuing = state === NttState.issue
  switch(state) {
    is(NttState.idle) {
      when(cmd_valid) {
        op := cmd_op; slot := cmd_slot; cnt := 0; drainCnt := 0
        if (twoPass) pass2 := False
        bpos := Mux(cmd_op === NttOp.Intt.code, U(0, bpos.getWidth bits), U(logN - 1, bpos.getWidth bits))
        switch(cmd_op) {
          is(NttOp.Load.code) { state := NttState.load }
          is(NttOp.Unload.code) { state := NttState.unload }
          is(NttOp.Ntt.code, NttOp.Intt.code, NttOp.PwMul.code) { state := NttState.issue }
          default { finish := True; bad := True }
        }
      }
    }
    is(NttState.load) { when(load_valid) { cnt := cnt + 1; when(cnt === n - 1) { finish := True; state := NttState.idle } } }
    is(NttState.unload) { when(unloadStep) { cnt := cnt + 1; when(cnt === n - 1) { finish := True; state := NttState.idle } } }
    is(NttState.issue) {
      cnt := cnt + 1
      when(cnt === Mux(isPw, U(sched.cyclesPerPwMul - 1, logN bits), U(sched.cyclesPerStage - 1, logN bits))) {
        // The last issue cycle of a stage or pass: the next one starts after its gap (maybe at once),
        // or, after the last, the final drain.
        cnt := 0; drainCnt := 0
        val lastPass = Mux(isPw, if (twoPass) pass2 else True, Mux(isIntt, bpos === logN - 1, bpos === 0))
        when(lastPass) {
          drainEnd := U(cfg.drainCycles - 1, drainCnt.getWidth bits); finalDrain := True; state := NttState.drain
        } otherwise {
          when(isPw) { if (twoPass) pass2 := True } otherwise { bpos := Mux(isIntt, bpos + 1, bpos - 1) }
          val atOnce = Mux(isPw, Bool(passGap == 0), noGap)
          drainEnd := Mux(isPw, waitEnd(passGap), gapEnd); finalDrain := False
          when(!atOnce) { state := NttState.drain }
        }
      }
    }
    is(NttState.drain) {
      drainCnt := drainCnt + 1
      when(drainCnt === drainEnd) {
        when(finalDrain) { finish := True; state := NttState.idle } otherwise { state := NttState.issue }
      }
    }
  }

  // ---- This cycle's accesses: operand o = 2u (X of unit u) and 2u + 1 (Y) ----
  // Butterfly stages: X = j_u, Y = j_u + 2^b, both in this slot. Pointwise: X = i_u in this slot,
  // Y = i_u in the other. LOAD/UNLOAD: operand 0 only, index cnt.
  val idx = Vec(UInt(logN bits), 2 * p)
  val sto = Vec(UInt(1 bits), 2 * p)
  val active = Vec(Bool(), 2 * p)
  val writes = Vec(Bool(), 2 * p)
  val twIdx = Vec(UInt(logN bits), p)
  for (u <- 0 until p) {
    val xj = perStage(b => deposit(cnt, sched.freePositions(b)) | constant(sched.deposit(u, sched.unitPositions(b))))
    val yj = perStage(b => xj | constant(1 << b))
    val pwI = deposit(cnt, sched.pwFreePositions) | constant(sched.deposit(u, sched.pwUnitPositions))
    twIdx(u) := perStage(b => constant(n >> (b + 1)) | (xj >> (b + 1)).resize(logN))
    idx(2 * u) := Mux(isPw, pwI, xj)
    idx(2 * u + 1) := Mux(isPw, pwI, yj)
    sto(2 * u) := slot
    sto(2 * u + 1) := Mux(isPw, ~slot, slot)
    active(2 * u) := issuing
    active(2 * u + 1) := issuing
    writes(2 * u) := True
    writes(2 * u + 1) := !isPw
  }
  if (!sram) when(state === NttState.load || state === NttState.unload) { idx(0) := cnt; active(0) := True } else when(state === NttState.unload) { idx(0) := unloader.io.rdIdx; active(0) := unloader.io.rdEn }

  // ---- Coefficient storage: 2 slots x 2P banks of N/(2P) words (flip-flops in our flow) ----
  val mem = !sram generate Seq.tabulate(2, banks)((_, _) => Mem(UInt(k bits), depth)); val sramBanks = sram generate Seq.tabulate(2, banks)((s, b) => new SramBank(k, depth).setName(s"bank_s${s}_b$b"))
  def hit(o: Int, s: Int, b: Int, i: Vec[UInt], st: Vec[UInt], on: Vec[Bool]): Bool =
    on(o) && st(o) === s && bankOf(i(o)) === b
  val readData = Vec(UInt(k bits), 2 * p)
  for (o <- 0 until 2 * p) readData(o) := 0
  for (s <- 0 until 2; b <- 0 until banks) {
    val hits = (0 until 2 * p).map(o => hit(o, s, b, idx, sto, active))
    val addr = (0 until 2 * p).map(o => Mux(hits(o), addrOf(idx(o)), U(0, addrBits bits))).reduce(_ | _)
    val data = if (!sram) mem(s)(b).readAsync(addr, readUnderWrite = writeFirst) else sramRead(s, b, hits, addr)
    for (o <- 0 until 2 * p) when(if (!sram) hits(o) else sramHit(o, s, b)) { readData(o) := data }
  }
  // (Up to here every line keeps its number from before the SRAM option: SpinalHDL names `when`
  // conditions after their line, and the flip-flop tiles' Verilog stays byte-identical.)
  if (!sram) unload_data := readData(0)
  else {
    // UNLOAD on SRAM: operand 0's port reads ahead of the stream (ReadAhead: the words leave from
    // registers, the first two cycles after the command starts, then one a cycle).
    unloader.io.restart := state === NttState.idle
    unloader.io.run := state === NttState.unload
    unloader.io.rdData := readData(0)
    unloader.io.outReady := unload_ready
    unload_valid := unloader.io.outValid
    unload_data := unloader.io.outData
  }

  // ---- SRAM reads: the data comes in the cycle after the address (the macro registers its inputs) ----
  // So readData(o) is operand o's word one cycle after its issue: the bank's output steered by the
  // operand's slot and bank, registered at the issue.
  lazy val rdBank = Vec(idx.map(i => RegNext(bankOf(i))))
  lazy val rdSlot = Vec(sto.map(st => RegNext(st)))
  lazy val rdOn = Vec(active.map(a => RegNext(a) init (False)))
  def sramHit(o: Int, s: Int, b: Int): Bool = rdOn(o) && rdSlot(o) === s && rdBank(o) === b
  def sramRead(s: Int, b: Int, hits: Seq[Bool], addr: UInt): UInt = {
    val bank = sramBanks(s)(b).io
    bank.rdEn := hits.reduce(_ || _)
    bank.rdAddr := addr
    bank.rdData
  }

  // ---- Twiddles: P reads a cycle, from the forward or the inverse table ----
  val twW = Vec(UInt(k bits), p)
  val twR = Vec(UInt(k bits), p)
  if (ram && sram) {
    // One copy of each table per unit (P reads a cycle, one read port per macro); the host's writes
    // go to every copy. The data comes the cycle after the address, as the coefficients'. The host
    // writes only between commands, so no read meets a write of its address.
    val wAddr = (tw_inverse ## tw_index).asUInt
    def table(name: String, data: UInt): Seq[UInt] = for (u <- 0 until p) yield {
      val t = new SramBank(k, 2 * n).setName(s"${name}_u$u").io
      t.wrEn := tw_valid; t.wrAddr := wAddr; t.wrData := data
      t.rdEn := issuing; t.rdAddr := (isIntt ## twIdx(u)).asUInt
      t.rdData
    }
    val tabW = table("twiddle", tw_w)
    val tabR = if (cfg.mul.hasCompanion) table("companion", tw_r) else Seq.fill(p)(U(0, k bits))
    for (u <- 0 until p) { twW(u) := tabW(u); twR(u) := tabR(u) }
  } else if (ram) {
    val memW, memR = Mem(UInt(k bits), 2 * n)
    val wAddr = (tw_inverse ## tw_index).asUInt
    memW.write(wAddr, tw_w, tw_valid)
    memR.write(wAddr, tw_r, tw_valid)
    for (u <- 0 until p) {
      twW(u) := memW.readAsync((isIntt ## twIdx(u)).asUInt, readUnderWrite = writeFirst)
      twR(u) := (if (cfg.mul.hasCompanion) memR.readAsync((isIntt ## twIdx(u)).asUInt, readUnderWrite = writeFirst) else U(0, k bits))
    }
  } else {
    // Constants computed at elaboration from (q, psi): logic, no $readmem, no initial block.
    val table = (cfg.forward ++ cfg.inverse).map(cfg.stored)
    val romW = Vec(table.map(w => U(w, k bits)))
    val romR = Vec(table.map(w => U(cfg.companion(w), k bits)))
    for (u <- 0 until p) {
      twW(u) := romW((isIntt ## twIdx(u)).asUInt)
      twR(u) := (if (cfg.mul.hasCompanion) romR((isIntt ## twIdx(u)).asUInt) else U(0, k bits))
    }
  }

  // ---- Register 0 (operands and twiddles read), the butterflies, write-back ----
  val op0 = RegNext(Mux(isPw, Mux(pass2, BflyOp.pwc(), BflyOp.pw()), Mux(isIntt, BflyOp.gs(), BflyOp.ct())))
  val valid0 = RegNext(issuing) init (False)
  val units = for (u <- 0 until p) yield {
    val bf = new Butterfly(k, cfg.mul)
    bf.io.inValid := valid0
    bf.io.op := op0
    if (!sram) {
      bf.io.x := RegNext(readData(2 * u))
      bf.io.y := RegNext(readData(2 * u + 1))
      bf.io.w := RegNext(if (twoPass) Mux(pass2, mod.red_c, twW(u)) else twW(u))
      bf.io.wr := RegNext(twR(u))
    } else {
      // The SRAM read is register 0 of the operands and RAM twiddles; ROM twiddles keep theirs.
      val w = if (ram) twW(u) else RegNext(twW(u))
      bf.io.x := readData(2 * u)
      bf.io.y := readData(2 * u + 1)
      bf.io.w := (if (twoPass) Mux(RegNext(pass2), mod.red_c, w) else w)
      bf.io.wr := (if (ram) twR(u) else RegNext(twR(u)))
    }
    bf.io.mod := mod
    bf
  }
  require(units.head.latency == cfg.butterflyLatency)
  val wbDelay = 1 + cfg.butterflyLatency
  val wIdx = Vec(idx.map(i => Delay(i, wbDelay)))
  val wSto = Vec(sto.map(s => Delay(s, wbDelay)))
  val wOn = Vec(writes.map(w => Delay(w && issuing, wbDelay, init = False)))
  val wData = Vec(units.flatMap(bf => Seq(bf.io.x2, bf.io.y2)))
  val loading = state === NttState.load && load_valid
  for (s <- 0 until 2; b <- 0 until banks) {
    val hits = (0 until 2 * p).map(o => hit(o, s, b, wIdx, wSto, wOn))
    val loadHit = loading && slot === s && bankOf(cnt) === b
    val addr = ((0 until 2 * p).map(o => Mux(hits(o), addrOf(wIdx(o)), U(0, addrBits bits))) :+
      Mux(loadHit, addrOf(cnt), U(0, addrBits bits))).reduce(_ | _)
    val data = ((0 until 2 * p).map(o => Mux(hits(o), wData(o), U(0, k bits))) :+
      Mux(loadHit, load_data, U(0, k bits))).reduce(_ | _)
    if (!sram) mem(s)(b).write(addr, data, hits.reduce(_ || _) || loadHit)
    else {
      val bank = sramBanks(s)(b).io
      bank.wrEn := hits.reduce(_ || _) || loadHit; bank.wrAddr := addr; bank.wrData := data
    }
  }
}
