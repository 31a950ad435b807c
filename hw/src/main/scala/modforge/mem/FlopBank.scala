package modforge.mem

import modforge.{FanoutMux, FanoutReg}
import spinal.core._

/** [[SyncRamIo]] in flip-flops whose address, enable and data nets each drive at most [[FanoutReg.maxFanout]] sinks,
  * for the ASIC flow's post-synthesis timing. Same interface and timing as [[MemBank]] and [[SramBank]]: read data in
  * the cycle after the address; a write presented in cycle w is seen by every read presented in cycle w + 1 or later.
  *
  * **Why.** A `Mem` in flip-flops ([[MemBank]]) reads through a multiplexer tree whose select lines are the read
  * address register's outputs: at depth 256 and 30 bits the low bit selects 3,840 multiplexer inputs. Post-synthesis
  * STA buffers no register output (flow/synth.py's `buffer -N 16` runs inside ABC, where flip-flop outputs are
  * inputs), so that one net was 33.8 of `mpoly_1024_x32_b64_l2_s32_p1`'s 40.2 ns critical path
  * (docs/polymul_multipass.md, "The first synthesis"). Here the read address is registered as copies
  * ([[FanoutReg]]), one per group of the tree's multiplexers at each level, and the write (enable, address and data)
  * is registered as copies per group of 64 words. A layout flow's resizer would buffer the nets instead; copying
  * the registers is what a designer does in the RTL, and costs about 5% more flip-flops than the words.
  *
  * The write takes one cycle more inside the bank (its copies, then the words), which the interface allows: a read
  * presented in cycle w + 1 registers its address at the end of w + 1 and reads the words in w + 2, after the write
  * landed at the end of w + 1. A read of the address written in the same cycle gets the old word.
  */
class FlopBank(width: Int, depth: Int) extends SyncRam(width, depth) {
  private val ab = io.addrBits
  val words = Vec.fill(depth)(Reg(UInt(width bits)))

  // ---- Write: per group of G words, registered copies of the enable, the address and the data ----
  private val G = FanoutReg.maxFanout
  private val groups = (depth + G - 1) / G
  private def copies(v: Bits, n: Int): Seq[Bits] = {
    val bits = v.asBools.map(b => FanoutReg(b, n))
    (0 until n).map(c => Vec(bits.map(_(c))).asBits) // bit 0 first: Vec's asBits puts element 0 lowest
  }
  private val wrEnC = FanoutReg(io.wrEn, groups)
  private val wrAddrC = copies(io.wrAddr.asBits, groups)
  private val wrDataC = copies(io.wrData.asBits, groups)
  for (i <- 0 until depth) {
    val g = i / G
    when(wrEnC(g) && wrAddrC(g).asUInt === i) { words(i) := wrDataC(g).asUInt }
  }

  // ---- Read: a multiplexer tree, level k selected by copies of the registered address bit k ----
  // The address register is the tree's copies: its next value is this cycle's read address.
  io.rdData := FanoutMux(words.toSeq, io.rdAddr)
}
