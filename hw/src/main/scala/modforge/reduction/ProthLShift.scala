package modforge.reduction

import spinal.core._

/** Multiplication by q_h = 2^(h-1) + 2^l1 - 2^l2 [+ 2^l3] of a Proth-l prime (Tosun Section 3.1)
  * with run-time barrel shifters: the shift by h-1 is wiring, l1, l2, l3 come from ports.
  * `terms` gives the shifted copies (positive, negative) so a pipeline preset can register them
  * before the addition (rho_A); `sum` adds them, modulo 2^width (callers pick a width the true
  * value fits, or the one they need modulo).
  */
object ProthLShift {
  case class Terms(pos: Seq[UInt], neg: UInt)

  /** v << l1, v << l3 (positive) and v << l2 (negative), each in `width` bits. */
  def terms(v: UInt, mod: RedModulus, cfg: ReductionConfig, width: Int): Terms = {
    def sh(l: UInt) = (v << l).resize(width bits)
    Terms(Seq(sh(mod.l1)) ++ (if (cfg.proth3l) Seq(sh(mod.l3)) else Nil), sh(mod.l2))
  }

  def sum(t: Terms, width: Int): UInt = t.pos.map(_.resize(width bits)).reduce(_ + _) - t.neg.resize(width bits)

  /** q_h v modulo 2^width. */
  def times(v: UInt, mod: RedModulus, cfg: ReductionConfig, width: Int): UInt =
    (v << (cfg.h - 1)).resize(width bits) + sum(terms(v, mod, cfg, width), width)
}
