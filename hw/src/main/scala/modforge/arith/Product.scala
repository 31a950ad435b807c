package modforge.arith

import modforge.{Boundary, ModMulComponent}
import modforge.modmul.Designs
import spinal.core._

/** A bare registered k x k product, `mul_<k>` in the registry: the yardstick for the products
  * themselves against peer generators (vlsiffra, flow/vlsiffra.py). Inputs are registered, then
  * the product by the scope's architecture ([[MulArchScope]], variant token m<arch>), then the
  * 2k-bit output register: latency 2, or 3 with `mid` (variant `p1`: the register after the
  * compressor tree). Ports: in_valid, in_a, in_b (k bits), out_valid, out_t = a*b (2k bits).
  * Not a modular multiplier: no modulus, no precomputation.
  */
class Product(k: Int, mid: Boolean = false) extends ModMulComponent(k) {
  override def outWidth: Int = 2 * k
  override protected def minWidth: Int = Designs.minProductK
  private val m = Boundary(mid)
  def latency: Int = 2 + m.cycles
  val a = RegNext(in_a)
  val b = RegNext(in_b)
  val v = RegNext(in_valid) init (False)
  out_t := RegNext(modforge.Multiplier.full(a, b, m))
  out_valid := RegNext(m.valid(v)) init (False)
}
