package modforge.reduction

import spinal.core._

/** A reduction stage: takes x < q^2 (2k bits; Plantard: its x = A B q' mod 2^2k) with its
  * modulus fields, returns x times the method's factor mod q after `latency` cycles, fully
  * pipelined. One subclass per method; [[ReductionMul]] puts the k x k product in front.
  */
abstract class Reduction(val cfg: ReductionConfig) extends Component {
  val k = cfg.k
  val io = new Bundle {
    val inValid = in Bool ()
    val x = in UInt (2 * k bits)
    val mod = in(RedModulus(cfg))
    val outValid = out Bool ()
    val t = out UInt (cfg.outWidth bits)
  }
  def latency: Int

  /** One conditional subtraction: v - m if v >= m (v < 2m), in k bits. */
  protected def correct(v: UInt, m: UInt): UInt = Mux(v >= m, v - m.resize(v.getWidth), v).resize(k bits)
}
