package modforge

import spinal.core._

/** The one place every integer multiplication of every design comes from.
  *
  * Today it emits the Verilog `*` operator and leaves the architecture to synthesis
  * (the ASIC flow maps it to Booth-encoded multipliers, the FPGA flows to DSP blocks).
  * Changing the architecture for all designs at once (e.g. a hand-built Karatsuba or
  * truncated multiplier) means changing these two functions only.
  */
object Multiplier {

  /** Full product: width a.getWidth + b.getWidth. */
  def full(a: UInt, b: UInt): UInt = a * b

  /** The low `bits` bits of the product (a*b mod 2^bits). Only those bits are used, so synthesis
    * removes the logic that feeds the upper half alone.
    */
  def low(a: UInt, b: UInt, bits: Int): UInt = full(a, b).resize(bits bits)
}
