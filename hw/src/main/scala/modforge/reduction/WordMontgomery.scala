package modforge.reduction

import modforge.{Boundary, Multiplier}
import spinal.core._

/** Registers of word-level Montgomery, per iteration after the product q_h t' and after the sum
  * (the paper's "FFs on the partial products, on the sum t"), and after the correction. */
case class WordMontgomeryRegs(product: Boolean = true, sum: Boolean = true, out: Boolean = true)

/** WLM (Tosun Alg. 2) and WLM-Mixed (Alg. 8), both fixed: q = q_h 2^w + 1, and each iteration
  * (w_i, delta_i) of [[ReductionConfig.schedule]] does
  *   t' = -t_l mod 2^w_i,  c = t'[w_i-1] | t[w_i-1],  t = t_h + ((q_h t') << delta_i) + c
  * which is (t + t' q) / 2^w_i exactly (q = 1 mod 2^w_i for w_i <= w). The paper prints q_h t_l,
  * which is wrong for every input (test_reduction_models keeps a counterexample). After all
  * iterations t < 2q: one correction. The widths follow the bounds of [[ReductionConfig.wlmBounds]].
  */
class WordMontgomery(cfg: ReductionConfig, regs: WordMontgomeryRegs = WordMontgomeryRegs()) extends Reduction(cfg) {
  val (atP, atS, atOut) = (Boundary(regs.product), Boundary(regs.sum), Boundary(regs.out))
  def latency: Int = cfg.schedule.size * (atP.cycles + atS.cycles) + atOut.cycles
  val omega = cfg.omega
  val bounds = cfg.wlmBounds

  var t: UInt = io.x
  var mod: RedModulus = io.mod
  var valid: Bool = io.inValid
  for (((wi, di), i) <- cfg.schedule.zipWithIndex) {
    val qh = mod.m(k - 1 downto omega)
    val tl = t(wi - 1 downto 0)
    val tn = U(0, wi bits) - tl                                  // line 4/6: -t_l mod 2^w_i
    val c = tn.msb | tl.msb                                      // line 5/7: [t_l != 0]
    val p = (Multiplier.full(qh, tn) << di).resize(k bits)       // q_h t' << delta_i < 2^k
    val th = t >> wi
    val pR = atP(p).setName(s"p$i"); val thR = atP(th); val cR = atP(c)
    mod = atP(mod); valid = atP.valid(valid)
    val w = bounds(i + 1).bitLength
    t = atS(thR.resize(w bits) + pR.resize(w bits) + cR.asUInt.resize(w bits)).setName(s"t${i + 1}")
    mod = atS(mod); valid = atS.valid(valid)
  }
  io.t := atOut(correct(t, mod.m))
  io.outValid := atOut.valid(valid)
}
