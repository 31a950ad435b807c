package modforge.polymul

import spinal.core._

/** The position within its product (0 .. n/P - 1) of the beat at a point of the pipeline `offset`
  * cycles behind the input register. All the engine's registers advance together
  * ([[StreamControl]]: one enable), so the position is a counter that starts where the input
  * register's would have been `offset` steps earlier: after reset the input register holds the
  * last beat (position n/P - 1) of an empty product.
  */
object Phase {
  def apply(frame: Int, offset: Int): UInt = {
    val bits = log2Up(frame)
    val start = Math.floorMod(-1 - offset, frame)
    val pos = Reg(UInt(bits bits)) init (start)
    pos := pos + 1 // frame is a power of two: the counter wraps at n/P
    pos
  }
}
