package modforge
package modmul

import spinal.core._
import spinal.lib.Delay

/** Pipeline registers of GShoup. The paper (Section 4.2) places registers "at lines 4 and 5 in
  * Algorithm 4", plus those of its Shoup core (`core`).
  *
  * `line1` is our reading of the paper, not its text. Without a register after line 1, the first stage chains
  * two k-bit multiplications (B g, then the core's A' r). The paper reports GShoup's critical path
  * "from the pipeline register at line 1 to the pipeline register at line 3 in Algorithm 3", and
  * only 6% slower than Shoup in Table 1. That is only possible with a register between the two products,
  * so the default has one. `GShoupRegs(line1 = false)` gives the literal reading.
  */
case class GShoupRegs(line1: Boolean = true, core: ShoupRegs = ShoupRegs(), line4: Boolean = true, line5: Boolean = true,
                      mid1: Boolean = false) {
  def latency: Int = Seq(line1, line4, line5, mid1).count(identity) + core.latency
}

/** Beyond the paper (docs/modmul.md, "Pipeline registers"): `mid1` inside B g (line 1), after the
  * compressor tree (needs an explicit [[arith.MulArch]]); the core's own in [[ShoupRegs]].
  * Mask order: line1, the core's lines1and2, line3, line6, line4, line5, mid1, the core's mid12, mid3, line5.
  */
object GShoupRegs {
  val names: Seq[String] = Seq("line1", "core.lines1and2", "core.line3", "core.line6", "line4", "line5", "mid1",
    "core.mid12", "core.mid3", "core.line5")
  def fromMask(b: Seq[Boolean]): GShoupRegs = {
    val x = b.padTo(names.size, false)
    GShoupRegs(x(0), ShoupRegs(x(1), x(2), x(3), x(7), x(8), x(9)), x(4), x(5), x(6))
  }
}

/** `truncateR` = low columns dropped of B g (line 1), `truncateQ` of the core's A' r (0: exact). */
case class GShoupConfig(k: Int, regs: GShoupRegs = GShoupRegs(), truncateR: Int = 0, truncateQ: Int = 0) {
  Truncation.check("truncateR", truncateR, k - 2)
  Truncation.check("truncateQ", truncateQ, k)
  /** (the core's line 6, line 4) conditional subtractions: (1, 1), more for large truncations. */
  def corrections: (Int, Int) = Truncation.gshoupCorrections(k, truncateR, truncateQ)
  def truncated: Boolean = truncateR > 0 || truncateQ > 0
}

/** Generalized Shoup multiplier, Algorithm 4, on the Algorithm 3 core ([[ShoupCore]]).
  *
  * Ports (besides the common ones): `in_m` = M' = M << l (2^(k-2) <= M' < 2^(k-1)),
  * `in_l` = l = k - 1 - bitlen(M), `in_g` = floor(2^(2k-2) / M'), `in_r` and `in_mode`.
  *  - `in_mode` = 0, full path: r = (B g) >> (k-2) is computed here and `in_r` is ignored.
  *  - `in_mode` = 1, Shoup path: r = `in_r` = floor(2^k B / M') is the caller's precomputed value
  *    (e.g. an NTT twiddle's Shoup companion) and `in_g` is ignored.
  * Both paths share the core's three multipliers and have the same latency (6 by default), so
  * modes can change every cycle. Power-of-two moduli are rejected by precomputation: g would be
  * 2^k, one bit wider than `in_g` (docs/modmul.md, "Preconditions and precomputation").
  *
  * Truncated products: the paper's Proposition extended. Write g = 2^(2k-2)/M' - e_g (0 <= e_g < 1)
  * and let line 1 drop D_R <= Dmax(cR) (cR = truncateR). Then
  *   r = floor((Bg - D_R)/2^(k-2)) > 2^k B/M' - B e_g/2^(k-2) - D_R/2^(k-2) - 1,
  * and B < 2^(k-1) gives r = 2^k B/M' - d with d < 3 + Dmax(cR)/2^(k-2). The core (A' < 2^(k-1),
  * cQ = truncateQ, see [[ShoupCore]]) then leaves t < (d/2 + Dmax(cQ)/2^k + 1) M', i.e.
  *   t < (5/2 + Dmax(cR)/2^(k-1) + Dmax(cQ)/2^k) M'.
  * Untruncated this is the paper's t < 3M' (Eq. 4 with Shoup's own correction). The corrections
  * stay two (the core's line 6 and line 4) while 2 Dmax(cR) + Dmax(cQ) <= 2^(k-1); otherwise
  * line 4 does the extra ones ([[Truncation.gshoupCorrections]]).
  */
class GShoup(val cfg: GShoupConfig) extends ModMulComponent(cfg.k) {
  val in_m = in UInt (k bits)
  val in_l = in UInt (lBits bits)
  val in_g = in UInt (k bits)
  val in_r = in UInt (k bits)
  val in_mode = in Bool ()

  val Seq(at1, at4, at5, mid1) = Seq(cfg.regs.line1, cfg.regs.line4, cfg.regs.line5, cfg.regs.mid1).map(Boundary)
  val (coreCorr, line4Corr) = cfg.corrections
  val core =
    if (!cfg.truncated) new ShoupCore(k, cfg.regs.core)
    else {
      val (sub, out) = Truncation.shoupCoreBits(k, coreCorr, line4Corr)
      new ShoupCore(k, cfg.regs.core, cfg.truncateQ, coreCorr, sub, out)
    }
  def latency: Int = cfg.regs.latency

  // Line 1: r = (B g) >> (k-2); r < 2^k B / M' < 2^k, so k bits hold it. The mode picks this r
  // or the caller's, ahead of the register, so both modes enter the core in the same cycle.
  val rFull = (if (cfg.truncateR == 0) Multiplier.full(in_b, in_g, mid1) >> (k - 2)
               else Multiplier.highTruncated(in_b, in_g, k - 2, cfg.truncateR, mid1)).resize(k bits)
  val r = Mux(mid1(in_mode), mid1(in_r), rFull)
  // Line 2: A' = A << l.
  val aShifted = in_a |<< in_l

  core.io.inValid := at1.valid(mid1.valid(in_valid))
  core.io.a := at1(mid1(aShifted))
  core.io.b := at1(mid1(in_b))
  core.io.m := at1(mid1(in_m))
  core.io.r := at1(r)
  // l rides beside the core for line 5.
  val lCore = Delay(at1(mid1(in_l)), core.latency)

  // Line 4: one more conditional subtraction (q may be one short, so the core's t < 2M').
  val t4 = csub(core.io.t, line4Corr)
  val t4r = at4(t4)
  val l4 = at4(lCore)
  val v4 = at4.valid(core.io.outValid)

  // Line 5: t >> l.
  out_t := at5(if (cfg.truncated) (t4r >> l4).resize(k bits) else t4r >> l4)
  out_valid := at5.valid(v4)

  private def csub(t: UInt, n: Int): UInt = {
    val s = Mux(t >= core.io.mOut, t - core.io.mOut, t)
    if (n == 1) s else csub(s, n - 1)
  }
}
