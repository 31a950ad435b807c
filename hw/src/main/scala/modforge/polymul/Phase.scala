package modforge.polymul

import spinal.core._

/** The position within its product (0 .. n/P - 1) of the beat at a point of the pipeline `offset`
  * cycles behind the input register. All the engine's registers advance together
  * ([[StreamControl]]'s tick gates their one clock), so the position is a counter that starts where the input
  * register's would have been `offset` steps earlier: after reset the input register holds the
  * last beat (position n/P - 1) of an empty product.
  *
  * `reset` is the counter's own copy of the limb's reset ([[LimbEngine]]'s reset tree), not the
  * clock domain's: one reset copy driving every counter of a limb (about 900 flip-flops at
  * polymul_1024_19_s4) was that design's 11.78 ns critical path.
  */
object Phase {
  /** Counters per reset copy: a counter of up to 15 bits puts a load on the copy per bit. */
  val perResetCopy = 4

  def apply(frame: Int, offset: Int, reset: Bool): UInt = {
    val bits = log2Up(frame)
    val start = Math.floorMod(-1 - offset, frame)
    val pos = Reg(UInt(bits bits))
    // frame is a power of two: the counter wraps at n/P
    pos := Mux(reset, U(start, bits bits), pos + 1)
    pos
  }
}
