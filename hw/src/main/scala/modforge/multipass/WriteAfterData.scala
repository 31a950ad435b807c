package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._
import modforge.FanoutFifo

/** A write master's AW held back until its burst's W beats are buffered, for masters that share a port through
  * `Axi4WriteOnlyArbiter` ([[MultipassBatch]]).
  *
  * **Why.** The arbiter routes W in AW order: once it grants a master's AW, the port's W carries that master's beats
  * and no other's until the burst's WLAST. [[BlockWriter]] issues AW without waiting for its data (AXI4 allows it),
  * so a granted burst whose data comes late blocks every other master's ready W beats behind it. Here W goes
  * through a FIFO of `bursts` bursts ([[FanoutFifo]]), and an AW leaves only when a whole burst of beats not yet claimed by an
  * earlier AW is in the FIFO: a granted burst's beats then follow it one a cycle.
  *
  * The input's W may run ahead of its AW (the FIFO takes it); the output's W never leads its AW by more than the
  * FIFO holds. Both orders are AXI4's.
  */
class WriteAfterData(axi: Axi4Config, burstBeats: Int, bursts: Int) extends Component {
  val io = new Bundle {
    val input = slave(Axi4WriteOnly(axi))
    val output = master(Axi4WriteOnly(axi))
  }
  // Flip-flops read through copies of the read pointer (FanoutFifo), as BlockReader's beats: with SpinalHDL's
  // StreamFifo one pointer register selected all 256 data bits of the rows unit's beats, 5.32 ns on its output and
  // 6.77 ns to mem_wdata, the worst path of mpoly_4096_x16_b256_l1_s32_p1_w29_t1 but the reset's (sta_probe, 2026-11-30).
  private val wBits = Axi4W(axi).getBitsWidth
  val data = new FanoutFifo(wBits, burstBeats * bursts)
  data.io.push.translateFrom(io.input.w)(_ := _.asBits)
  io.output.w.translateFrom(data.io.pop)((w, b) => w.assignFromBits(b))

  /** Whole bursts in the FIFO not yet claimed by an AW. */
  val ready = Reg(UInt(log2Up(bursts + 1) bits)) init (0)
  val landed = io.input.w.fire && io.input.w.last
  io.output.aw << io.input.aw.continueWhen(ready =/= 0)
  ready := ready + U(landed).resized - U(io.output.aw.fire).resized

  io.input.b << io.output.b
}
