package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** A unit's AXI4 master driven by its [[BlockReader]] (AR, R) and [[BlockWriter]] (AW, W, B): the hookup the mover,
  * the rows pass and the column passes share. */
object BlockPort {
  /** Connects `mem` to the reader and the writer. */
  def connect(mem: Axi4, reader: BlockReader, writer: BlockWriter): Unit = {
    mem.ar << reader.io.ar
    reader.io.r << mem.r
    mem.aw << writer.io.aw
    mem.w << writer.io.w
    writer.io.b << mem.b
  }
}
