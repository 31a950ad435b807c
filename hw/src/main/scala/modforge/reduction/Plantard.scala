package modforge.reduction

import modforge.{Boundary, Multiplier}
import spinal.core._

/** Registers of Plantard after its first product: line 2 (c) and line 3 (c = q -> 0). */
case class PlantardRegs(line2: Boolean = true, line3: Boolean = true) {
  def boundaries: Seq[Boundary] = Seq(line2, line3).map(Boundary)
}

/** Plantard reduction, Tosun Alg. 5, from x = A (B q') mod 2^2k (line 1, with the constant
  * operand pre-multiplied by the host as the paper suggests for twiddles):
  * c' = x >> k, c = ((c' + 1) q) >> k, and c = q gives 0. The result is A B (-2^-2k) mod q,
  * correct for odd q < 2^k/phi (Plantard's bound, which the paper omits; the model tests find
  * failures above it).
  */
class Plantard(cfg: ReductionConfig, regs: PlantardRegs = PlantardRegs()) extends Reduction(cfg) {
  val Seq(at2, at3) = regs.boundaries
  def latency: Int = regs.boundaries.map(_.cycles).sum

  // Line 2: c = ((c' + 1) q) >> k; c <= q < 2^k.
  val c1 = (io.x >> k).resize(k + 1 bits) + 1
  val c2 = at2((Multiplier.full(c1, io.mod.m) >> k).resize(k bits))
  val mod2 = at2(io.mod)
  val v2 = at2.valid(io.inValid)

  // Line 3.
  io.t := at3(Mux(c2 === mod2.m, U(0, k bits), c2))
  io.outValid := at3.valid(v2)
}
