package modforge.multipass

import modforge.FanoutMux
import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** The batch's write port shared by its pass units: SpinalHDL's `Axi4WriteOnlyArbiter` (round-robin on AW, the input's
  * index above its ID so that B routes back, W routed in AW order through a queue of granted AWs), except that the W
  * multiplexer's select is a register held in copies ([[modforge.FanoutMux]]).
  *
  * Why: in SpinalHDL's arbiter the W select is the route queue's output, one set of flip-flops that picks every bit of
  * the bus-wide W payload, and this flow's STA buffers no register output. `mpoly_4096_x16_b256_l1_s32_p1_w29_t1`'s
  * worst path (6.625 ns at tt) was 5.31 ns on one flip-flop's output, then a mux4 into `mem_wdata`. Traced later in the
  * netlist, that path's flip-flop was [[WriteAfterData]]'s FIFO pointer, which had the same shape; with this arbiter,
  * that FIFO's copies and the reset tree ([[UnitResets]]) the design reached 6.136 ns (docs/polymul_multipass.md,
  * "The write port's select, and the reset tree").
  *
  * The W source `cur` is loaded from the route queue when no burst is in flight or the one in flight ends, so bursts
  * of one input or of several follow each other without a gap; a W beat leaves one cycle after its AW at the earliest
  * (SpinalHDL's may leave with it). The order of W bursts is the order of their AWs, as AXI4 requires.
  */
case class WriteArbiter(outputConfig: Axi4Config, inputsCount: Int, routeBufferSize: Int) extends Component {
  require(inputsCount >= 2, "a write arbiter of two inputs or more")
  val inputConfig: Axi4Config = outputConfig.copy(idWidth = outputConfig.idWidth - log2Up(inputsCount))
  val io = new Bundle {
    val inputs = Vec(slave(Axi4WriteOnly(inputConfig)), inputsCount)
    val output = master(Axi4WriteOnly(outputConfig))
  }

  // AW: round-robin; the chosen input above the input's own ID
  val cmdArbiter = StreamArbiterFactory().roundRobin.build(Axi4Aw(inputConfig), inputsCount)
  (cmdArbiter.io.inputs, io.inputs.map(_.writeCmd)).zipped.foreach(_ << _)
  val (cmdOutputFork, cmdRouteFork) = StreamFork2(cmdArbiter.io.output)
  io.output.writeCmd << cmdOutputFork
  io.output.writeCmd.id.removeAssignments()
  io.output.writeCmd.id := (cmdArbiter.io.chosen @@ cmdOutputFork.id)

  // W: the granted inputs in AW order; the one in flight in `cur`, whose next value feeds the copies of the select
  val route = cmdRouteFork.translateWith(cmdArbiter.io.chosen).queueLowLatency(routeBufferSize, latency = 0)
  val curValid = Reg(Bool()) init (False)
  val curNext = UInt(log2Up(inputsCount) bits)
  val cur = RegNext(curNext) init (0)
  val burstEnds = io.output.writeData.fire && io.output.writeData.last
  val load = !curValid || burstEnds
  route.ready := load
  curNext := cur
  when(load) {
    curValid := route.valid
    when(route.valid) { curNext := route.payload }
  }
  val data = FanoutMux(io.inputs.map(_.writeData.payload.asBits.asUInt).toSeq, curNext)
  io.output.writeData.valid := curValid && Vec(io.inputs.map(_.writeData.valid))(cur)
  io.output.writeData.payload.assignFromBits(data.asBits)
  for ((input, i) <- io.inputs.zipWithIndex)
    input.writeData.ready := curValid && cur === i && io.output.writeData.ready

  // B: back to the input named by the ID's top bits
  val rspIndex = io.output.writeRsp.id(outputConfig.idWidth - 1 downto outputConfig.idWidth - log2Up(inputsCount))
  for ((input, i) <- io.inputs.zipWithIndex) {
    input.writeRsp.valid := io.output.writeRsp.valid && rspIndex === i
    input.writeRsp.payload.assignSomeByName(io.output.writeRsp.payload)
    input.writeRsp.id.removeAssignments()
    input.writeRsp.id := io.output.writeRsp.id.resized
  }
  io.output.writeRsp.ready := Vec(io.inputs.map(_.writeRsp.ready))(rspIndex) // as SpinalHDL's: a case, whose default holds while B's ID is unknown
}
