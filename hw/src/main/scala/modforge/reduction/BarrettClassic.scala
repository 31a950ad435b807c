package modforge.reduction

import modforge.{Boundary, Multiplier}
import spinal.core._

/** Registers of classical Barrett: line 1 before its shift (x q'), line 2 (b), line 3. */
case class BarrettClassicRegs(line1: Boolean = true, line2: Boolean = true, line3: Boolean = true) {
  def boundaries: Seq[Boundary] = Seq(line1, line2, line3).map(Boundary)
}

/** The NTT-reduction paper's Barrett, Tosun Alg. 4: t = (x q') >> 2k with q' = floor(4^k/q),
  * b = x - t q, one correction. For exactly k-bit q (2^(k-1) < q < 2^k), so q' has k+1 bits.
  * t > x/q - 2 (q' > 4^k/q - 1 and x < 4^k), so b < 2q: only the low k+1 bits of x and t q are
  * needed (the paper's note on line 2). Unlike BarrettOpt (Algorithm 1 of the GShoup paper) it
  * does not align the modulus, and its first product is 2k x (k+1) bits.
  */
class BarrettClassic(cfg: ReductionConfig, regs: BarrettClassicRegs = BarrettClassicRegs()) extends Reduction(cfg) {
  val Seq(at1, at2, at3) = regs.boundaries
  def latency: Int = regs.boundaries.map(_.cycles).sum

  // Line 1: x q', registered before the shift by 2k.
  val xr1 = at1(Multiplier.full(io.x, io.mod.r))
  val xl1 = at1(io.x(k downto 0))
  val mod1 = at1(io.mod)
  val v1 = at1.valid(io.inValid)

  // Line 2: b = x - t q in k+1 bits (t < q < 2^k).
  val t = (xr1 >> (2 * k)).resize(k bits)
  val b2 = at2(xl1 - Multiplier.low(t, mod1.m, k + 1))
  val mod2 = at2(mod1)
  val v2 = at2.valid(v1)

  // Line 3.
  io.t := at3(correct(b2, mod2.m))
  io.outValid := at3.valid(v2)
}
