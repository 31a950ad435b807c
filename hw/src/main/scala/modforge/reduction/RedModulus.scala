package modforge.reduction

import spinal.core._

/** The modulus fields of a reduction design, travelling down the pipeline with their operation:
  * q (`m`) always; Montgomery's q' = -q^-1 mod 2^k (`mp`); classical Barrett's floor(4^k/q) (`r`);
  * the shift methods' l1, l2 (and l3 for Proth-3l). The host computes them
  * (verif/reduction/precompute.py).
  */
case class RedModulus(cfg: ReductionConfig) extends Bundle {
  import Method._
  val k = cfg.k
  val m = UInt(k bits)
  val mp = (cfg.method == Mont) generate UInt(k bits)
  val r = (cfg.method == BarrettClassic) generate UInt(k + 1 bits)
  private val shift = cfg.method == MontShift || cfg.method == K2RedShift
  val l1, l2 = shift generate UInt(cfg.lBits bits)
  val l3 = (shift && cfg.proth3l) generate UInt(cfg.lBits bits)
}
