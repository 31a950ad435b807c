package modforge.mem

import spinal.core._

/** The pins of an OpenRAM SKY130 macro ([[SkyMacro]]), named exactly as in its behavioural model
  * `<macro>.v` (power pins left out: `USE_POWER_PINS` is not defined). Active-low chip selects
  * (`csb0`, `csb1`) and write enable (`web0`); port 0 reads or writes, port 1 only reads.
  */
case class SkySramIo(m: SkyMacro) extends Bundle {
  val clk0 = in Bool ()
  val csb0 = in Bool ()
  val web0 = in Bool ()
  val wmask0 = in Bits (m.maskBits bits)
  val addr0 = in UInt (m.addrBits bits)
  val din0 = in Bits (m.width bits)
  val dout0 = out Bits (m.width bits)
  val clk1 = in Bool ()
  val csb1 = in Bool ()
  val addr1 = in UInt (m.addrBits bits)
  val dout1 = out Bits (m.width bits)
}
