package modforge.multipass

import modforge.FanoutFifo
import modforge.polymul.{ConstForm, StreamNttTop}
import spinal.core._
import spinal.lib._

/** A column pass without corner turns (`_c1`, docs/polymul_multipass.md, "Streamed column passes"), for one limb or
  * limbs in sequence: [[ColumnsConfig.streamed]].
  *
  * **Why.** The corner-turn pass ([[ColumnsPass]]) reads a block row by row, turns it into columns for an NTT that
  * takes one column a frame, and turns the results back into rows: four buffers of n1 be words a pass, 37% of
  * `mpoly_8192_x32_b256_l1_s32_p1_w31_t1`'s 7.68 mm² (`flow/area_blocks.py`, "Where the area goes"). Here the NTT
  * itself takes the block as memory gives it: a row of be adjacent columns is be consecutive ticks, and the NTT runs
  * the be column transforms interleaved point by point ([[modforge.polymul.NttShape.interleave]]: its delay lines are
  * be times longer, (n1 - 1) be words a pipeline, plain shift registers on the gated clock). Its output leaves in its
  * own order, row rev(t) at group tick t (the forward transform's bit-reversed k1), and each row is written where it
  * belongs: the bit reversal is in the write addresses, not in a buffer. The inverse reads its rows at rev(t) and
  * writes natural ones. The middle twiddles, a function of (k1, j2), are applied by the rows pass instead
  * ([[RowTwiddleStage]]), where a row is one k1 in natural j2 order.
  *
  *  - `columns`: per block, per row t: a's row t, then b's (one burst each) -> a beat FIFO per operand -> the
  *    forward NTT (n1 points, root r1, a pipeline per operand in lockstep, one word of each a tick) -> a beat per
  *    operand -> x's row rev(t), then y's.
  *  - `columns_inverse`: per block, per row t: x's row rev(t) -> the inverse NTT (n1^-1 included) -> c's row t.
  *
  * The bursts are the schedule's in stream mode (verif/polymul/multipass_schedule.py, `columns="stream"`); a
  * descriptor is one row of one operand. The NTT has no flow control of its own: its StreamControl stops it when a
  * beat FIFO is empty or a result has no room, and makes up bubbles to drain the last block.
  *
  * With `loaded` (`_d1`) the NTT's constants are loaded at run time, as in the corner-turn pass; `reseed` is unused.
  */
class StreamedColumnsPass(c: ColumnsConfig) extends ColumnsUnit(c) {
  require(c.streamed)
  private val O = c.operands
  private val e = c.e
  private val w = c.w
  private val BB = m.burstBeats
  /** Beats a FIFO holds: this row's and the next one's, so the reader runs a row ahead of the NTT. */
  private val fifoBeats = 2 * BB + 2

  val reader = new BlockReader(m)
  val writer = new BlockWriter(m)
  BlockPort.connect(io.mem, reader, writer)
  io.respError := reader.io.respError || writer.io.respError

  val ntt = new StreamNttTop(c.shape, c.qs, c.r1s, c.inverse, c.loadedContext, O)
  if (c.qs.size > 1) ntt.io.sel := io.limb
  // Loaded constants (_d1): the NTT's alone; `reseed` has nothing to seed here (the middle twiddles are the rows pass's).
  if (c.loaded) ntt.io.load << io.load
  def loadedForms: Seq[ConstForm] = ntt.loadedForms

  /** Operand `sel`'s element of `xs` (one per operand; a single operand needs no select). */
  private def ofOperand[T <: Data](xs: Seq[T], sel: UInt): T = if (xs.size == 1) xs.head else Vec(xs)(sel)

  // ---- Reader beats to the operands' FIFOs: rows alternate operands, BB beats a row ----
  // The beat FIFOs are flip-flops read through copies of their pointer (FanoutFifo): a StreamFifo's one address
  // register into every bit was the first synthesis's critical path (7.55 ns at tt, icols' result FIFO, against 6.6 ns
  // for the corner-turn engine: mpoly_16384_x64_b256_l1_s32_p1_w31_c1_t1, 2026-12-01).
  val inFifos = Seq.fill(O)(new FanoutFifo(e * w, fifoBeats))
  val inBeat = Reg(UInt(WrapCounter.bits(BB) bits)) init (0)
  val inOp = Reg(UInt(1 bits)) init (0)
  private val beatResidues = Cat((0 until e).map(i => reader.io.words.fragment(i * m.slotBits, w bits))) // slot 0 low
  for ((f, o) <- inFifos.zipWithIndex) {
    f.io.push.valid := reader.io.words.valid && (if (O == 1) True else inOp === o)
    f.io.push.payload := beatResidues
  }
  reader.io.words.ready := ofOperand(inFifos.map(_.io.push.ready), inOp)
  when(reader.io.words.fire) {
    WrapCounter.step(inBeat, BB)
    if (O > 1) when(inBeat === BB - 1) { inOp := inOp + 1 }
  }

  // ---- The FIFOs' heads to the NTT, a word of each operand a tick, in the beat's slot order ----
  val inSlot = Reg(UInt(WrapCounter.bits(e) bits)) init (0)
  ntt.io.in_valid := inFifos.map(_.io.pop.valid).reduce(_ && _)
  ntt.io.in_x := Cat(inFifos.map(f => f.io.pop.payload.subdivideIn(w bits)(inSlot))).asUInt // Cat of a Seq: operand 0 in the low bits
  private val inFire = ntt.io.in_valid && ntt.io.in_ready
  for (f <- inFifos) f.io.pop.ready := inFire && inSlot === e - 1
  when(inFire) { WrapCounter.step(inSlot, e) }

  // ---- The NTT's words to a beat per operand, and the beats to the operands' FIFOs ----
  val outFifos = Seq.fill(O)(new FanoutFifo(m.wordBits, fifoBeats))
  val outSlot = Reg(UInt(WrapCounter.bits(e) bits)) init (0)
  val packed = Vec.fill(O, e - 1)(Reg(UInt(w bits)))
  private val lastSlot = outSlot === e - 1
  private val room = outFifos.map(_.io.push.ready).reduce(_ && _)
  ntt.io.out_ready := !lastSlot || room
  private val outFire = ntt.io.out_valid && ntt.io.out_ready
  for (o <- 0 until O) {
    val y = ntt.io.out_y(o * w, w bits)
    for (i <- 0 until e - 1) when(outFire && outSlot === i) { packed(o)(i) := y }
    outFifos(o).io.push.valid := outFire && lastSlot
    outFifos(o).io.push.payload := Cat((packed(o) :+ y).map(_.resize(m.slotBits))) // slot 0 in the low bits
  }
  when(outFire) { WrapCounter.step(outSlot, e) }

  // ---- The operands' beats to the writer: rows alternate operands, BB beats a row ----
  val outBeat = Reg(UInt(WrapCounter.bits(BB) bits)) init (0)
  val outOp = Reg(UInt(1 bits)) init (0)
  writer.io.words.valid := ofOperand(outFifos.map(_.io.pop.valid), outOp)
  writer.io.words.payload := ofOperand(outFifos.map(_.io.pop.payload), outOp)
  for ((f, o) <- outFifos.zipWithIndex) f.io.pop.ready := writer.io.words.ready && (if (O == 1) True else outOp === o)
  when(writer.io.words.fire) {
    WrapCounter.step(outBeat, BB)
    if (O > 1) when(outBeat === BB - 1) { outOp := outOp + 1 }
  }

  // ---- The rows' descriptors: per block, per row t, per operand, one burst at row t or rev(t) ----
  private val rowBits = log2Up(c.n1)
  private def rev(t: UInt): UInt = if (rowBits == 0) t else t.asBools.reverse.asBits().asUInt
  /** Walks (block, t, operand) in order and hands each one's descriptor to `cmd`; `reversed`: row rev(t). */
  class Sequencer(regions: Seq[String], cmd: Stream[BlockDescriptor], reversed: Boolean) extends Area {
    val pending = Reg(Bool()) init (False)
    val block = Reg(UInt(WrapCounter.bits(c.blocks) bits)) init (0)
    val t = Reg(UInt(WrapCounter.bits(c.n1) bits)) init (0)
    val operand = Reg(UInt(1 bits)) init (0)
    private def base(r: String) = if (c.runtimeBase) U(m.regionBase(r), m.addressBits bits) + io.base
      else U(m.regionBase(r), m.addressBits bits)
    private val row = if (c.n1 == 1) U(0, 1 bits) else if (reversed) rev(t.resize(rowBits)) else t.resize(rowBits)
    private val rowOffset = (row * U(m.rowStrideBytes, m.addressBits bits)).resize(m.addressBits)
    cmd.valid := pending
    cmd.baseBytes := ofOperand(regions.map(base), operand) + rowOffset
    cmd.rowStrideBytes := U(m.rowStrideBytes, m.addressBits bits)
    cmd.rows := U(1, m.rowsBits bits)
    cmd.rowBeats := U(BB, m.rowBeatsBits bits)
    cmd.colOffsetBytes := (block << log2Up(m.burstBytes)).resize(m.addressBits) // block k: columns [k be, (k + 1) be)
    val lastOperand = if (regions.size == 1) True else operand === regions.size - 1
    when(cmd.fire) {
      if (regions.size > 1) operand := operand + 1
      when(lastOperand) {
        WrapCounter.step(t, c.n1)
        when(t === c.n1 - 1) {
          WrapCounter.step(block, c.blocks)
          when(block === c.blocks - 1) { pending := False }
        }
      }
    }
    def begin(): Unit = { pending := True; block := 0; t := 0; operand := 0 }
  }
  val reads = new Sequencer(if (c.inverse) Seq("x") else Seq("a", "b"), reader.io.cmd, reversed = c.inverse)
  val writes = new Sequencer(if (c.inverse) Seq("c") else Seq("x", "y"), writer.io.cmd, reversed = !c.inverse)

  private val descriptors = c.blocks * c.n1 * O
  val busy = Reg(Bool()) init (False)
  val done = Reg(Bool()) init (False)
  io.busy := busy
  io.done := done
  val acked = Reg(UInt(log2Up(descriptors + 1) bits)) init (0)
  done := False
  when(io.start && !busy) {
    busy := True
    acked := 0
    reads.begin()
    writes.begin()
  }
  when(writer.io.blockDone) {
    acked := acked + 1
    when(acked === descriptors - 1) { busy := False; done := True }
  }
}
