package modforge

import spinal.core._

/** Configuration of the Shoup multiplier. `regs` defaults to the paper's placement. */
case class ShoupConfig(k: Int, regs: ShoupRegs = ShoupRegs())

/** Shoup multiplier: Algorithm 2 in the extra-bit form of Algorithm 3.
  *
  * Ports (besides the common ones): `in_m` = M with 2M < 2^k, `in_r` = floor(2^k B / M).
  * Latency 3 with the default registers.
  */
class Shoup(val cfg: ShoupConfig) extends ModMulComponent(cfg.k) {
  val in_m = in UInt (k bits)
  val in_r = in UInt (k bits)

  val core = new ShoupCore(k, cfg.regs)
  core.io.inValid := in_valid
  core.io.a := in_a
  core.io.b := in_b
  core.io.m := in_m
  core.io.r := in_r
  out_valid := core.io.outValid
  out_t := core.io.t

  def latency: Int = core.latency
}
