package modforge.reduction

import modforge.{Boundary, ModMulComponent, Multiplier}
import spinal.core._

/** A complete k-bit modular multiplier of the reduction family: x = A B (the k x k product from
  * [[Multiplier]]; Plantard: A (B q') mod 2^2k, k x 2k), registered, then the method's
  * [[Reduction]]. Ports: the common ones, `in_m` = q, and per method `in_mp` (Montgomery),
  * `in_r` (classical Barrett), `in_l1`, `in_l2`, `in_l3` (shift methods). The host pre-scales B
  * so that out_t = A B mod q (docs/reduction.md, "Ports and the pre-scaled operand").
  */
class ReductionMul(val cfg: ReductionConfig) extends ModMulComponent(cfg.k) {
  override def bWidth: Int = cfg.bWidth
  override def outWidth: Int = cfg.outWidth
  import Method._

  val in_m = in UInt (k bits)
  val in_mp = (cfg.method == Mont) generate (in UInt (k bits))
  val in_r = (cfg.method == BarrettClassic) generate (in UInt (k + 1 bits))
  private val shift = cfg.method == MontShift || cfg.method == K2RedShift
  val in_l1 = shift generate (in UInt (cfg.lBits bits))
  val in_l2 = shift generate (in UInt (cfg.lBits bits))
  val in_l3 = (shift && cfg.proth3l) generate (in UInt (cfg.lBits bits))

  val atProduct = Boundary(cfg.product)
  val red: Reduction = cfg.method match {
    case Mont => new Montgomery(cfg)
    case BarrettClassic => new BarrettClassic(cfg)
    case Plantard => new Plantard(cfg)
    case Wlm | WlmMixed => new WordMontgomery(cfg)
    case K2Red => new K2Red(cfg)
    case MontShift => new MontgomeryShift(cfg)
    case K2RedShift => new K2RedShift(cfg)
  }
  def latency: Int = atProduct.cycles + red.latency

  val mod = RedModulus(cfg)
  mod.m := in_m
  if (mod.mp != null) mod.mp := in_mp
  if (mod.r != null) mod.r := in_r
  if (mod.l1 != null) { mod.l1 := in_l1; mod.l2 := in_l2 }
  if (mod.l3 != null) mod.l3 := in_l3

  // The product stage: x < q^2 (Plantard: the low 2k bits of A (B q')).
  val x = if (cfg.method == Plantard) Multiplier.low(in_a, in_b, 2 * k) else Multiplier.full(in_a, in_b)
  red.io.x := atProduct(x)
  red.io.mod := atProduct(mod)
  red.io.inValid := atProduct.valid(in_valid)
  out_t := red.io.t
  out_valid := red.io.outValid
}
