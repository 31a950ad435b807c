package modforge.multipass

import modforge.FanoutMux
import spinal.core._
import spinal.lib._

/** The streaming engine's result beats -> bus beats for the rows pass's writes: the inverse of
  * [[RowPairBuffer]]'s reordering, for one operand. Engine beat t of a row carries coefficient j frame + t in
  * lane j; a group's `chunkCoeffs` beats hold chunk k of every lane segment. Each lane packs e consecutive
  * results into a beat (the first in the lowest slot, zero-extended from w to the slot's bits); when the group
  * is whole, the writer takes lane 0's chunk, then lane 1's, ..., as the write descriptor walks them (rows = P
  * lane segments, stride frame slots).
  *
  * Storage: P memories (lanes) of two groups' chunks each (double buffering), 2 P chunkBeats beats, and e - 1
  * held slots per lane. `groupReady` pulses when a group is whole, for the pass to issue its write.
  *
  * The beats leave through a register slice (valid, payload and ready), read through copies of the read
  * position ([[modforge.FanoutMux]]): the read position into every memory and the writer's ready back into it
  * were 6.5-7.04 ns of `mpoly_8192_x32_b256_l1_s32_p1_w31_t1` (`flow/sta_blocks.py`), once its twiddle
  * multiplexers and readers' buffers no longer set the clock.
  */
class RowOutBuffer(c: RowsConfig) extends Component {
  val io = new Bundle {
    val results = slave Stream (UInt(c.P * c.w bits))
    val beats = master Stream (Bits(c.mover.busBits bits))
    val groupReady = out Bool ()
  }
  private val s = c.mover.slotBits
  private val cb = c.chunkBeats
  private val cbBits = log2Up(cb)
  private val addrBits = cbBits + 1
  private def at(slot: UInt, within: UInt): UInt =
    if (cbBits == 0) slot.resize(addrBits) else (slot ## within.resize(cbBits)).asUInt

  // Registers, not a `Mem`: the read side selects with copies of its position registers (FanoutMux).
  val mems = Seq.fill(c.P)(Vec.fill(2 * cb)(Reg(Bits(c.mover.busBits bits))))
  val full = Vec.fill(2)(Reg(Bool()) init (False))

  // Results in: lane j's slot goes to position (t mod e) of beat t / e of memory j.
  val wSlot = Reg(UInt(1 bits)) init (0)
  val wBeat = Reg(UInt(WrapCounter.bits(c.chunkCoeffs) bits)) init (0)
  private val eBits = log2Up(c.e)
  private val piece = if (c.e == 1) U(0, 1 bits) else wBeat.resize(eBits)
  private val lastPiece = if (c.e == 1) True else piece === c.e - 1
  io.results.ready := !full(wSlot)
  private val lanes = io.results.payload.subdivideIn(c.P slices).map(_.resize(s).asBits)
  for (j <- 0 until c.P) {
    val held = if (c.e == 1) Nil else Seq.fill(c.e - 1)(Reg(Bits(s bits)))
    val beat = Cat(held :+ lanes(j)) // the held slots (earlier, lower) and this one on top
    val wAddr = at(wSlot, wBeat >> eBits)
    for ((r, i) <- mems(j).zipWithIndex) when(io.results.fire && lastPiece && wAddr === i) { r := beat }
    for ((h, k) <- held.zipWithIndex) when(io.results.fire && piece === k) { h := lanes(j) }
  }
  val groupReady = Reg(Bool()) init (False)
  groupReady := False
  io.groupReady := groupReady
  when(io.results.fire) {
    WrapCounter.step(wBeat, c.chunkCoeffs)
    when(wBeat === c.chunkCoeffs - 1) { full(wSlot) := True; wSlot := wSlot + 1; groupReady := True }
  }

  // Beats out: lane j's chunk, beat i, is beat j cb + i of the group: entry (rSlot, rBeat) of the tree below.
  val rSlot = Reg(UInt(1 bits)) init (0)
  val rBeat = Reg(UInt(WrapCounter.bits(c.P * cb) bits)) init (0)
  val leaving = Stream(Bits(c.mover.busBits bits))
  private val groupBeats = c.P * cb
  private val rEnd = rBeat === groupBeats - 1
  private val rSlotNext = rSlot + U(leaving.fire && rEnd)
  private val rBeatNext = if (groupBeats == 1) U(0, rBeat.getWidth bits) else rBeat + U(leaving.fire).resized
  rSlot := rSlotNext
  rBeat := rBeatNext
  private val selNext =
    if (groupBeats == 1) rSlotNext else (rSlotNext ## rBeatNext.resize(log2Up(groupBeats))).asUInt
  private val entries = for (slot <- 0 until 2; j <- 0 until c.P; i <- 0 until cb) yield mems(j)(slot * cb + i).asUInt
  leaving.valid := full(rSlot)
  leaving.payload := FanoutMux(entries, selNext).asBits
  when(leaving.fire && rEnd) { full(rSlot) := False }
  io.beats << leaving.s2mPipe().m2sPipe()
}
