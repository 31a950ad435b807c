package modforge

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
case class GShoupRegs(line1: Boolean = true, core: ShoupRegs = ShoupRegs(), line4: Boolean = true, line5: Boolean = true) {
  def latency: Int = Seq(line1, line4, line5).count(identity) + core.latency
}

case class GShoupConfig(k: Int, regs: GShoupRegs = GShoupRegs())

/** Generalized Shoup multiplier, Algorithm 4, on the Algorithm 3 core ([[ShoupCore]]).
  *
  * Ports (besides the common ones): `in_m` = M' = M << l (2^(k-2) <= M' < 2^(k-1)),
  * `in_l` = l = k - 1 - bitlen(M), `in_g` = floor(2^(2k-2) / M'), `in_r` and `in_mode`.
  *  - `in_mode` = 0, full path: r = (B g) >> (k-2) is computed here and `in_r` is ignored.
  *  - `in_mode` = 1, Shoup path: r = `in_r` = floor(2^k B / M') is the caller's precomputed value
  *    (e.g. an NTT twiddle's Shoup companion) and `in_g` is ignored.
  * Both paths share the core's three multipliers and have the same latency (6 by default), so
  * modes can change every cycle. Power-of-two moduli are rejected by precomputation: g would be
  * 2^k, one bit wider than `in_g` (README, "Preconditions").
  */
class GShoup(val cfg: GShoupConfig) extends ModMulComponent(cfg.k) {
  val in_m = in UInt (k bits)
  val in_l = in UInt (lBits bits)
  val in_g = in UInt (k bits)
  val in_r = in UInt (k bits)
  val in_mode = in Bool ()

  val Seq(at1, at4, at5) = Seq(cfg.regs.line1, cfg.regs.line4, cfg.regs.line5).map(Boundary)
  val core = new ShoupCore(k, cfg.regs.core)
  def latency: Int = cfg.regs.latency

  // Line 1: r = (B g) >> (k-2); r < 2^k B / M' < 2^k, so k bits hold it. The mode picks this r
  // or the caller's, ahead of the register, so both modes enter the core in the same cycle.
  val rFull = (Multiplier.full(in_b, in_g) >> (k - 2)).resize(k bits)
  val r = Mux(in_mode, in_r, rFull)
  // Line 2: A' = A << l.
  val aShifted = in_a |<< in_l

  core.io.inValid := at1.valid(in_valid)
  core.io.a := at1(aShifted)
  core.io.b := at1(in_b)
  core.io.m := at1(in_m)
  core.io.r := at1(r)
  // l rides beside the core for line 5.
  val lCore = Delay(at1(in_l), core.latency)

  // Line 4: one more conditional subtraction (q may be one short, so the core's t < 2M').
  val t4 = Mux(core.io.t >= core.io.mOut, core.io.t - core.io.mOut, core.io.t)
  val t4r = at4(t4)
  val l4 = at4(lCore)
  val v4 = at4.valid(core.io.outValid)

  // Line 5: t >> l.
  out_t := at5(t4r >> l4)
  out_valid := at5.valid(v4)
}
