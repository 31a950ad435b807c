package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** A write master's AW held back until its burst's W beats are buffered, for masters that share a port through
  * `Axi4WriteOnlyArbiter` ([[MultipassBatch]]).
  *
  * **Why.** The arbiter routes W in AW order: once it grants a master's AW, the port's W carries that master's beats
  * and no other's until the burst's WLAST. [[BlockWriter]] issues AW without waiting for its data (AXI4 allows it),
  * so a granted burst whose data comes late blocks every other master's ready W beats behind it. Here W goes
  * through a FIFO of `bursts` bursts, and an AW leaves only when a whole burst of beats not yet claimed by an
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
  val data = StreamFifo(Axi4W(axi), burstBeats * bursts, latency = 1)
  data.io.push << io.input.w
  io.output.w << data.io.pop

  /** Whole bursts in the FIFO not yet claimed by an AW. */
  val ready = Reg(UInt(log2Up(bursts + 1) bits)) init (0)
  val landed = io.input.w.fire && io.input.w.last
  io.output.aw << io.input.aw.continueWhen(ready =/= 0)
  ready := ready + U(landed).resized - U(io.output.aw.fire).resized

  io.input.b << io.output.b
}
