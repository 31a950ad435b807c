package modforge.multipass

import modforge.FanoutMux
import spinal.core._
import spinal.lib._

/** One beat of both operands for the streaming engine: lane j of `a` (and `b`) in bits [j w, (j + 1) w), the
  * engine's port layout (docs/polymul.md, `in_a`, `in_b`, one limb). */
case class EnginePair(c: RowsConfig) extends Bundle {
  val a = UInt(c.P * c.w bits)
  val b = UInt(c.P * c.w bits)
}

/** Bus beats of the rows pass's reads -> the streaming engine's beats, pairing x with y.
  *
  * The engine wants, at beat t of a row, coefficient j frame + t of each operand in lane j (frame = n2 / P):
  * every lane advances through its own segment of the row. [[RowsPass]] therefore reads a row in groups: for
  * chunk k, the k-th chunk (`chunkBeats` beats, `chunkCoeffs` coefficients) of each of the P lane segments of
  * x, then the same of y, one read descriptor per operand (rows = P lane segments, stride frame slots). A
  * group's 2 P chunks arrive here one beat a cycle, in that order, and leave as `chunkCoeffs` engine beats.
  *
  * Storage: 2 P memories (operand, lane) of two groups' chunks each (double buffering: the next group lands
  * while the engine reads this one), 4 P chunkBeats beats in all, not a row. Each beat is written whole into
  * one memory; each engine beat reads one slot of every memory at one address (asynchronous reads).
  */
class RowPairBuffer(c: RowsConfig) extends Component {
  val io = new Bundle {
    val beats = slave Stream (Fragment(Bits(c.mover.busBits bits)))
    val pairs = master Stream (EnginePair(c))
  }
  private val cb = c.chunkBeats
  private val cbBits = log2Up(cb)
  private val addrBits = cbBits + 1
  private def at(slot: UInt, within: UInt): UInt =
    if (cbBits == 0) slot.resize(addrBits) else (slot ## within.resize(cbBits)).asUInt

  // Memory m = operand * P + lane; beat b of a group goes to memory b / cb, row b % cb of its slot.
  // Registers, not a `Mem`: the read side below selects with copies of its select registers (FanoutMux).
  val mems = Seq.fill(2 * c.P)(Vec.fill(2 * cb)(Reg(Bits(c.mover.busBits bits))))
  val full = Vec.fill(2)(Reg(Bool()) init (False))

  val wSlot = Reg(UInt(1 bits)) init (0)
  val wBeat = Reg(UInt(WrapCounter.bits(c.groupBeats) bits)) init (0)
  io.beats.ready := !full(wSlot)
  private val wMem = wBeat >> cbBits
  private val wAddr = at(wSlot, wBeat)
  for ((m, k) <- mems.zipWithIndex; (r, i) <- m.zipWithIndex)
    when(io.beats.fire && wMem === k && wAddr === i) { r := io.beats.fragment }
  when(io.beats.fire) {
    WrapCounter.step(wBeat, c.groupBeats)
    when(wBeat === c.groupBeats - 1) { full(wSlot) := True; wSlot := wSlot + 1 }
  }
  // The reader marks each descriptor's last beat: here, the last beat of every chunk run (P chunks).
  private val runEnd = if (c.P * cb == 1) True else wBeat.resize(log2Up(c.P * cb)) === c.P * cb - 1
  assert(!(io.beats.fire && io.beats.last =/= runEnd),
    "RowPairBuffer: a descriptor's last beat out of place", FAILURE)

  val rSlot = Reg(UInt(1 bits)) init (0)
  val rBeat = Reg(UInt(WrapCounter.bits(c.chunkCoeffs) bits)) init (0)
  private val eBits = log2Up(c.e)
  private val beatBits = log2Up(c.chunkCoeffs)
  // Their next values, so that the read multiplexers select with registered copies of them (FanoutMux): rSlot
  // alone chose one of two words of every memory, 7.97 ns of `mpoly_8192_x32_b256_l1_s32_p1_w31_t1`'s 12.49 ns path.
  private val rEnd = rBeat === c.chunkCoeffs - 1
  private val rSlotNext = rSlot + U(io.pairs.fire && rEnd)
  private val rBeatNext = if (c.chunkCoeffs == 1) U(0, rBeat.getWidth bits) else rBeat + U(io.pairs.fire).resized
  rSlot := rSlotNext
  rBeat := rBeatNext
  // Entry (slot, row) of a memory, slot s of its word: input (slot, row, s) = (rSlot, rBeat) of the tree.
  private val selNext = if (beatBits == 0) rSlotNext else (rSlotNext ## rBeatNext.resize(beatBits)).asUInt
  private val words = mems.map(m => FanoutMux(m.toSeq.flatMap(_.subdivideIn(c.e slices).map(_.asUInt.resize(c.w))), selNext))
  io.pairs.valid := full(rSlot)
  io.pairs.a := Cat(words.take(c.P)).asUInt    // Cat of a Seq: its first element in the low bits
  io.pairs.b := Cat(words.drop(c.P)).asUInt
  when(io.pairs.fire && rEnd) { full(rSlot) := False }
}
