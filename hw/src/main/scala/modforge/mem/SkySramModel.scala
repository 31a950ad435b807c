package modforge.mem

import spinal.core._

/** A synthesizable stand-in of one OpenRAM macro for Verilator (SpinalSim), with the macro's
  * pins and timing as its behavioural model `<macro>.v` has them:
  *  - every input is registered at the rising clock edge (`always @(posedge clk0)`: csb0_reg,
  *    addr0_reg, ...); the model writes `mem` at the following falling edge and reads `mem` into
  *    `dout1` at that same falling edge (`#DELAY` later), so read data is valid in the cycle
  *    after its address, and a write is seen by every read presented in a later cycle;
  *  - `dout1` goes to X `T_HOLD` after every rising edge of clk1, read or not: data is valid for
  *    one cycle only;
  *  - a read and a write of one address presented in the same cycle race at that falling edge
  *    (which always block runs first is up to the simulator): old or new data.
  * Here the write lands at the rising edge that registers it and the read takes the array before
  * it, and both cases without a defined result are poisoned (the data comes out inverted): a
  * stale `dout1` (no read in the previous cycle) and a read of the address written in the same
  * cycle. A design that relies on either fails in SpinalSim as it would on silicon.
  * Port 0 reads are not modelled (the banks only write through port 0): `dout0` is zero.
  */
class SkySramModel(val m: SkyMacro) extends Component {
  val io = SkySramIo(m)
  noIoPrefix()
  val mem = Mem(Bits(m.width bits), m.depth)
  val write = !io.csb0 && !io.web0
  mem.write(io.addr0, io.din0, write, mask = io.wmask0)
  val read = !io.csb1
  val data = mem.readSync(io.addr1, read)
  val fresh = RegNext(read) init (False)
  val collided = RegNext(read && write && io.addr0 === io.addr1) init (False)
  io.dout1 := Mux(fresh && !collided, data, ~data)
  io.dout0 := 0
}
