package modforge.mem

import spinal.core._

/** One OpenRAM SKY130 macro as a black box: the generated Verilog instantiates `<macro name>` with
  * `VERBOSE = 0` and synthesis reads the macro as a black box (its Liberty and LEF describe it).
  *
  * `VERBOSE = 0` silences the model's `$display` on every access; the model still prints a
  * WARNING when a cycle reads and writes one address (see [[SramBank]]: the tile never does).
  * Both ports are clocked by the current clock domain's clock.
  *
  * Simulators: Icarus (cocotb) runs the macro's own `<macro>.v`. Verilator (SpinalSim) cannot run
  * its `#` delays, so [[SramBank]] puts [[SkySramModel]] in its place when [[SramSimModel]] is set.
  */
class SkySram(val m: SkyMacro) extends BlackBox {
  addGeneric("VERBOSE", 0)
  val io = SkySramIo(m)
  noIoPrefix()
  setDefinitionName(m.name)
  // Port 0 on the current clock domain; SramBank drives clk1 from the same clock.
  mapCurrentClockDomain(io.clk0)
}
