package modforge
package modmul

import spinal.core._

/** Configuration of the Shoup multiplier. `regs` defaults to the paper's placement. `truncate` =
  * c low columns of the quotient product A r dropped (0: exact); see [[ShoupCore]].
  */
case class ShoupConfig(k: Int, regs: ShoupRegs = ShoupRegs(), truncate: Int = 0) {
  Truncation.check("truncate", truncate, k)
  /** Conditional subtractions at line 6: 1, more for large truncations. */
  def corrections: Int = Truncation.shoupCorrections(k, truncate)
}

/** Shoup multiplier: Algorithm 2 in the extra-bit form of Algorithm 3.
  *
  * Ports (besides the common ones): `in_m` = M with 2M < 2^k, `in_r` = floor(2^k B / M).
  * Latency 3 with the default registers.
  */
class Shoup(val cfg: ShoupConfig) extends ModMulComponent(cfg.k) {
  val in_m = in UInt (k bits)
  val in_r = in UInt (k bits)

  val core =
    if (cfg.truncate == 0) new ShoupCore(k, cfg.regs)
    else {
      val (sub, out) = Truncation.shoupCoreBits(k, cfg.corrections, 0)
      new ShoupCore(k, cfg.regs, cfg.truncate, cfg.corrections, sub, out)
    }
  core.io.inValid := in_valid
  core.io.a := in_a
  core.io.b := in_b
  core.io.m := in_m
  core.io.r := in_r
  out_valid := core.io.outValid
  out_t := core.io.t

  def latency: Int = core.latency
}
