package modforge.mem

import spinal.core._

/** [[SyncRamIo]] on a SpinalHDL `Mem` with a synchronous read (`readSync`): what Yosys's
  * synth_xilinx / synth_ecp5 map to block RAM (they need the read registered), and flip-flops in
  * the ASIC flow. Same timing as [[SramBank]]: read data in the cycle after the address. A read
  * of the address written in the same cycle gets the old word here (`readFirst`); users must not
  * rely on that, since the SRAM banks leave it undefined.
  */
class MemBank(width: Int, depth: Int) extends SyncRam(width, depth) {
  val mem = Mem(UInt(width bits), depth)
  mem.write(io.wrAddr, io.wrData, io.wrEn)
  io.rdData := mem.readSync(io.rdAddr, io.rdEn, readUnderWrite = readFirst)
}
