package modforge.reduction

import spinal.core._

/** Registers of K2RED-Shift (Tosun Section 4). rho_B registers t (line 2), t' (line 4) and b
  * (lines 5-7): 3 cycles. rho_A also registers the shift-adds q_h a_l and q_h t_l apart from the
  * subtractions of lines 2 and 4: 5 cycles, K2RED's placement. */
object K2RedShiftRegs {
  def preset(p: Preset): K2RedRegs = {
    val a = p == Preset.RhoA
    K2RedRegs(line2Product = a, line4Product = a)
  }
}

/** K2RED-Shift, Tosun Alg. 7: [[K2Red]] for Proth-l primes, with q_h a_l and q_h t_l done by
  * barrel shifters on the run-time l1, l2, l3 (4 shifters for Proth-2l, 6 for Proth-3l; the
  * shift by h-1 is wiring). Both products are below q_h 2^w < 2^k, so they are summed mod 2^k.
  */
class K2RedShift(cfg: ReductionConfig, regs: K2RedRegs) extends K2Red(cfg, regs) {
  def this(cfg: ReductionConfig) = this(cfg, K2RedShiftRegs.preset(cfg.preset))
  override def qhTimes(v: UInt, mod: RedModulus): UInt = ProthLShift.times(v, mod, cfg, k)
}
