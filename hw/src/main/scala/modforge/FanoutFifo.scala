package modforge

import spinal.core._
import spinal.lib._

/** A FIFO of `depth` words of `width` bits in flip-flops whose head is read through a [[FanoutMux]]: the read pointer
  * is held in registered copies, each driving at most [[FanoutReg.maxFanout]] multiplexer inputs.
  *
  * Why: SpinalHDL's `StreamFifo` reads its memory synchronously, from one address register; synthesis maps a small
  * memory to flip-flops and that register then selects every bit of every word, unbuffered after synthesis. In the
  * multi-pass readers (4 beats of 256 bits) that was the critical path of `mpoly_8192_x32_b256_l1_s32_p1_w31_t1`
  * once its twiddle multiplexers were registered: 7.37 ns from the pointer to the read data, against 5.8 ns for the
  * arithmetic (`flow/sta_blocks.py`, docs/polymul_multipass.md, "What sets the clock").
  *
  * `pop` is valid whenever the FIFO holds a word, its payload the oldest word (combinationally from registers:
  * the copies of the pointer, then log2(depth) multiplexer levels). `push.ready` is room; `occupancy` the words held.
  */
class FanoutFifo(width: Int, depth: Int) extends Component {
  require(depth >= 1, s"a FIFO of $depth words")
  val io = new Bundle {
    val push = slave Stream (Bits(width bits))
    val pop = master Stream (Bits(width bits))
    val occupancy = out UInt (log2Up(depth + 1) bits)
  }
  private val ptrBits = log2Up(depth) max 1
  private def next(p: UInt): UInt = if (depth == 1) U(0, ptrBits bits) else Mux(p === depth - 1, U(0, ptrBits bits), p + 1)

  val words = Vec.fill(depth)(Reg(Bits(width bits)))
  val wPtr = Reg(UInt(ptrBits bits)) init (0)
  val rPtr = Reg(UInt(ptrBits bits)) init (0)
  val count = Reg(UInt(log2Up(depth + 1) bits)) init (0)

  io.push.ready := count =/= depth
  when(io.push.fire) {
    for ((w, i) <- words.zipWithIndex) when(wPtr === i) { w := io.push.payload }
    wPtr := next(wPtr)
  }
  // The pointer's next value, so that the multiplexer's select copies hold what rPtr holds (FanoutMux).
  val rPtrNext = Mux(io.pop.fire, next(rPtr), rPtr)
  rPtr := rPtrNext
  count := count + U(io.push.fire).resized - U(io.pop.fire).resized
  io.occupancy := count

  io.pop.valid := count =/= 0
  io.pop.payload := (if (depth == 1) words(0) else FanoutMux(words.toSeq.map(_.asUInt), rPtrNext).asBits)
}
