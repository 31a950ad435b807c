package modforge.reduction

import modforge.Boundary
import spinal.core._

/** Registers of Montgomery-Shift (Tosun Section 4, with its erratum 5 read as the notes do):
  * rho_B registers t (line 2), t' (line 3), b' (line 5) and b (lines 6-7): 4 cycles. rho_A also
  * registers the barrel shifters' outputs of lines 2 and 3 before their additions: 6 cycles. */
case class MontgomeryShiftRegs(line2Shift: Boolean, line2: Boolean = true, line3Shift: Boolean, line3: Boolean = true,
                               line5: Boolean = true, out: Boolean = true) {
  def boundaries: Seq[Boundary] = Seq(line2Shift, line2, line3Shift, line3, line5, out).map(Boundary)
}
object MontgomeryShiftRegs {
  def preset(p: Preset): MontgomeryShiftRegs =
    MontgomeryShiftRegs(line2Shift = p == Preset.RhoA, line3Shift = p == Preset.RhoA)
}

/** Montgomery-Shift, Tosun Alg. 6 (line 1 fixed: a_l = a mod 2^k): for a Proth-l prime,
  * q' = q_h 2^w - 1 = -q^-1 mod 2^k (2w >= k), so both Montgomery products are shifts:
  *   t  = a_l q' mod 2^k = (a_l << (k-1)) + ((a_l<<l1) - (a_l<<l2) [+ (a_l<<l3)]) << w - a_l
  *   t' = t q            = (t << (k-1))  + ((t<<l1)  - (t<<l2)  [+ (t<<l3)])  << w + t
  * and b' = a_h + t'_h + c with c = t'[k-1] | a_l[k-1] (the carry of a_l + t'_l = 0 mod 2^k).
  * Line 2 works modulo 2^k, so its shifted terms need only h bits; line 3's true value is < 2^2k.
  */
class MontgomeryShift(cfg: ReductionConfig, regs: MontgomeryShiftRegs) extends Reduction(cfg) {
  def this(cfg: ReductionConfig) = this(cfg, MontgomeryShiftRegs.preset(cfg.preset))
  val Seq(atSh2, at2, atSh3, at3, at5, atOut) = regs.boundaries
  def latency: Int = regs.boundaries.map(_.cycles).sum
  val omega = cfg.omega
  val h = cfg.h

  // Line 1.
  val al = io.x(k - 1 downto 0)
  // Line 2: t = a_l q' mod 2^k; the l-terms are needed modulo 2^h only (they sit at 2^w).
  val ts2 = ProthLShift.terms(al, io.mod, cfg, h)
  val ts2R = ProthLShift.Terms(ts2.pos.map(atSh2(_)), atSh2(ts2.neg))
  val al2 = atSh2(al); val ah2 = atSh2(io.x(2 * k - 1 downto k)); val mod2 = atSh2(io.mod); val v2 = atSh2.valid(io.inValid)
  val top2 = (al2.lsb.asUInt << (k - 1)).resize(k bits)
  val t = at2(top2 + (ProthLShift.sum(ts2R, h) << omega).resize(k bits) - al2)
  val alMsb = at2(al2.msb); val ah3 = at2(ah2); val mod3 = at2(mod2); val v3 = at2.valid(v2)

  // Line 3: t' = t q (< 2^2k); only bits 2k-1 .. k-1 are used.
  val w3 = k + h
  val ts3 = ProthLShift.terms(t, mod3, cfg, w3)
  val ts3R = ProthLShift.Terms(ts3.pos.map(atSh3(_)), atSh3(ts3.neg))
  val tS = atSh3(t); val alMsbS = atSh3(alMsb); val ahS = atSh3(ah3); val modS = atSh3(mod3); val vS = atSh3.valid(v3)
  val tq = (tS << (k - 1)).resize(2 * k bits) + (ProthLShift.sum(ts3R, w3) << omega).resize(2 * k bits) + tS.resize(2 * k bits)
  val tqTop = at3(tq(2 * k - 1 downto k - 1))
  val alMsb4 = at3(alMsbS); val ah4 = at3(ahS); val mod4 = at3(modS); val v4 = at3.valid(vS)

  // Lines 4-5: b' = a_h + t'_h + c < 2q.
  val c = tqTop.lsb | alMsb4
  val b = at5(ah4.resize(k + 1 bits) + (tqTop >> 1).resize(k + 1 bits) + c.asUInt.resize(k + 1 bits))
  val mod5 = at5(mod4); val v5 = at5.valid(v4)

  // Lines 6-7.
  io.t := atOut(correct(b, mod5.m))
  io.outValid := atOut.valid(v5)
}
