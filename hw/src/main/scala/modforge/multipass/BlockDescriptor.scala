package modforge.multipass

import spinal.core._

/** One block of a pass, as the mover walks it: `rows` row segments of `rowBeats` beats each, the first at
  * byte `baseBytes + colOffsetBytes`, the next `rowStrideBytes` further on. A column block of the `columns`
  * pass is rows = n1, rowBeats = burstBeats, stride n2 slots; a row of the `rows` pass is rows = 1, rowBeats
  * = n2 / e. A segment is cut into bursts of the mover's fixed `burstBeats`, so rowBeats is a multiple of
  * it, and every address a multiple of the burst's bytes (then no burst crosses 4 KB; [[BlockBursts]]
  * asserts both in simulation). */
case class BlockDescriptor(c: MoverConfig) extends Bundle {
  val baseBytes = UInt(c.addressBits bits)
  val rowStrideBytes = UInt(c.addressBits bits)
  val rows = UInt(c.rowsBits bits)
  val rowBeats = UInt(c.rowBeatsBits bits)
  val colOffsetBytes = UInt(c.addressBits bits)
}

/** One burst the walker issues: its byte address, and whether it is the block's last. */
case class BurstCmd(c: MoverConfig) extends Bundle {
  val addr = UInt(c.addressBits bits)
  val last = Bool()
}
