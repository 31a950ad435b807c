package modforge.multipass

import spinal.core._
import spinal.lib._

/** The address walk of a block: takes a [[BlockDescriptor]] and issues its bursts in the schedule's order,
  * row by row and, within a row segment, left to right (multipass_schedule.Layout.row_bursts). Shared by
  * the reader and the writer, so both walk one definition of a block.
  *
  * Every output is a register: `bursts.valid` is `busy`, the address is a running sum (one adder for the
  * next burst, one for the next row; no multiplier), and `cmd.ready` is `!busy`. A descriptor thus costs
  * one idle cycle on each side of its bursts, which a burst of two or more beats hides on the data channel.
  */
class BlockBursts(c: MoverConfig) extends Component {
  val io = new Bundle {
    val cmd = slave Stream (BlockDescriptor(c))
    val bursts = master Stream (BurstCmd(c))
    val busy = out Bool ()
  }
  private val burstShift = log2Up(c.burstBeats)

  val busy = Reg(Bool()) init (False)
  val rowAddr = Reg(UInt(c.addressBits bits))   // the current row segment's first byte
  val addr = Reg(UInt(c.addressBits bits))      // the current burst's first byte
  val stride = Reg(UInt(c.addressBits bits))
  val rowsLeft = Reg(UInt(c.rowsBits bits))     // rows after the current one
  val rowBursts = Reg(UInt(c.rowBeatsBits bits))
  val burstsLeft = Reg(UInt(c.rowBeatsBits bits)) // bursts of the row after the current one

  io.cmd.ready := !busy
  io.busy := busy
  io.bursts.valid := busy
  io.bursts.addr := addr
  val lastInRow = burstsLeft === 0
  val lastRow = rowsLeft === 0
  io.bursts.last := lastInRow && lastRow

  when(io.cmd.fire) {
    val d = io.cmd.payload
    val first = d.baseBytes + d.colOffsetBytes
    val perRow = (d.rowBeats >> burstShift).resize(c.rowBeatsBits)
    busy := d.rows =/= 0 && perRow =/= 0
    rowAddr := first
    addr := first
    stride := d.rowStrideBytes
    rowsLeft := d.rows - 1
    rowBursts := perRow
    burstsLeft := perRow - 1
  }
  when(io.bursts.fire) {
    when(lastInRow) {
      busy := !lastRow
      rowsLeft := rowsLeft - 1
      rowAddr := rowAddr + stride
      addr := rowAddr + stride
      burstsLeft := rowBursts - 1
    } otherwise {
      addr := addr + c.burstBytes
      burstsLeft := burstsLeft - 1
    }
  }

  // A descriptor the walk cannot honour: a burst off its own size's alignment could cross a 4 KB page, and
  // a segment that is not whole bursts would be cut short. Simulation only; the generators' fixed
  // descriptors are checked at elaboration (MoverConfig).
  private val alignBits = log2Up(c.burstBytes)
  when(io.cmd.fire) {
    val d = io.cmd.payload
    val offPage = (d.baseBytes | d.colOffsetBytes | d.rowStrideBytes).resize(alignBits) =/= 0
    val partBurst = if (burstShift == 0) False else d.rowBeats.resize(burstShift) =/= 0
    assert(!offPage, "BlockBursts: a descriptor address or stride is not a multiple of the burst's bytes", FAILURE)
    assert(!partBurst && d.rowBeats =/= 0 && d.rows =/= 0,
      "BlockBursts: rowBeats is not a positive multiple of burstBeats, or rows is 0", FAILURE)
  }
}
