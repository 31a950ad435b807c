package modforge.mem

import spinal.core._

/** Whether [[SramBank]]s build on [[SkySramModel]] (a SpinalHDL `Mem` of the macro's timing) instead
  * of the [[SkySram]] black box. Set it around the elaboration of a design simulated with Verilator:
  * `SramSimModel(true) on new NttTile(c)`. Default false: the generated Verilog instantiates the
  * macros, and cocotb (Icarus) simulates them with their behavioural model `<macro>.v`.
  */
object SramSimModel extends ScopeProperty[Boolean] {
  override def default: Boolean = false
}
