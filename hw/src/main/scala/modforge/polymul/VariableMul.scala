package modforge.polymul

import modforge.modmul.{BarrettOpt, Precompute}
import spinal.core._

/** a b mod q with both operands variable: BarrettOpt (Algorithm 1) with each prime's precomputation constants, picked
  * by a [[PrimeChoice]] (one prime, limbs in sequence, or loaded at run time). The one place that wires them: the
  * streaming engine's pointwise product ([[LimbEngine]]) and the multi-pass engine's middle twiddles
  * ([[modforge.multipass.MiddleTwiddleStage]], [[modforge.multipass.RowTwiddleStage]]) use it. Returns the multiplier
  * (its `out_t`, `out_valid`, `latency`).
  */
object VariableMul {
  def apply(mul: StreamMul, w: Int, choice: PrimeChoice, a: UInt, b: UInt, valid: Bool): BarrettOpt = {
    val m = mul.barrett(w)
    val cs = choice.primes.map(p => Precompute.barrett(w, p))
    m.in_valid := valid; m.in_a := a; m.in_b := b
    m.in_m := choice.pick(cs.map(_._1), w, ConstKind.Barrett(0)); m.in_r := choice.pick(cs.map(_._2), w + 1, ConstKind.Barrett(1))
    m.in_l := choice.pick(cs.map(c => BigInt(c._3)), m.in_l.getWidth, ConstKind.Barrett(2))
    m
  }
}
