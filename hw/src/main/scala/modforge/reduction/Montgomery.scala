package modforge.reduction

import modforge.{Boundary, Multiplier}
import spinal.core._

/** Registers of naive Montgomery: after line 1 (t), line 2 (b) and line 3 (the correction). */
case class MontgomeryRegs(line1: Boolean = true, line2: Boolean = true, line3: Boolean = true) {
  def boundaries: Seq[Boundary] = Seq(line1, line2, line3).map(Boundary)
}

/** Naive Montgomery reduction, Tosun Alg. 1: x 2^-k mod q for any odd q < 2^k.
  *
  * x + t q = 0 mod 2^k, so (x + t q) >> k = x_h + (t q)_h + [x_l != 0]: the low halves are never
  * added (the carry trick of Alg. 6 line 4). b < 2q < 2^(k+1).
  */
class Montgomery(cfg: ReductionConfig, regs: MontgomeryRegs = MontgomeryRegs()) extends Reduction(cfg) {
  val Seq(at1, at2, at3) = regs.boundaries
  def latency: Int = regs.boundaries.map(_.cycles).sum

  // Line 1: t = (x mod 2^k) q' mod 2^k, a low-half product.
  val xl = io.x(k - 1 downto 0)
  val t1 = at1(Multiplier.low(xl, io.mod.mp, k))
  val xh1 = at1(io.x(2 * k - 1 downto k))
  val c1 = at1(xl =/= 0)
  val mod1 = at1(io.mod)
  val v1 = at1.valid(io.inValid)

  // Line 2: b = (x + t q) >> k.
  val tqh = (Multiplier.full(t1, mod1.m) >> k).resize(k + 1 bits)
  val b2 = at2(xh1.resize(k + 1 bits) + tqh + c1.asUInt.resize(k + 1 bits))
  val mod2 = at2(mod1)
  val v2 = at2.valid(v1)

  // Line 3: one correction.
  io.t := at3(correct(b2, mod2.m))
  io.outValid := at3.valid(v2)
}
