package modforge.reduction

import org.scalatest.funsuite.AnyFunSuite
import scala.util.Random

/** The elaboration-time constants of the reduction family ([[ReductionPrecompute]]) against plain
  * BigInt arithmetic: each method's factor F written out from its definition (2^-k, 2^-2(k-h)),
  * q q' = -1 mod 2^k, (B F^-1) F = B, C F^2 = 1, and the modulus classes.
  */
class ReductionPrecomputeSpec extends AnyFunSuite {
  val rnd = new Random(5)
  def inv2pow(x: Int, q: BigInt): BigInt = BigInt(2).pow(x).modInverse(q)
  val cases: Seq[(ReductionConfig, BigInt)] = Seq(
    ReductionConfig(Method.Mont, 32) -> BigInt("4294966657"),
    ReductionConfig(Method.Mont, 64) -> BigInt(193),
    ReductionConfig(Method.WlmMixed, 64, h = 17) -> BigInt("18440410886733561857"),
    ReductionConfig(Method.WlmMixed, 32, h = 16) -> BigInt("4293918721"),
    ReductionConfig(Method.K2Red, 64, h = 26) -> BigInt("18446742974197923841"),
    ReductionConfig(Method.K2Red, 16, h = 8) -> BigInt(15361))

  test("factor shifts: Montgomery and WLM-Mixed 2^-k, K2RED 2^-2(k-h), WLM 2^-w ceil(k/w)") {
    assert(ReductionPrecompute.factorShift(ReductionConfig(Method.Mont, 48)) == 48)
    assert(ReductionPrecompute.factorShift(ReductionConfig(Method.WlmMixed, 64, h = 17)) == 64)
    assert(ReductionPrecompute.factorShift(ReductionConfig(Method.K2Red, 64, h = 26)) == 76)
    assert(ReductionPrecompute.factorShift(ReductionConfig(Method.Wlm, 64, w = 17)) == 68)
  }
  for ((cfg, q) <- cases) test(s"${cfg.name} q = $q: q', pre-scaled B, C = F^-2 against BigInt") {
    assert(q.isProbablePrime(64) && ReductionPrecompute.classError(cfg, q).isEmpty)
    val f = inv2pow(if (cfg.method == Method.K2Red) 2 * (cfg.k - cfg.h) else cfg.k, q) // F, from the definition
    if (cfg.method == Method.Mont) {
      val mp = ReductionPrecompute.montQPrime(cfg.k, q)
      assert(mp >= 0 && mp < (BigInt(1) << cfg.k) && (q * mp + 1) % (BigInt(1) << cfg.k) == 0)
    }
    assert(ReductionPrecompute.factorInverse(cfg, q) * f % q == 1)
    val c = ReductionPrecompute.pointwiseConstant(cfg, q)
    assert(c >= 0 && c < q && c * f % q * f % q == 1)
    for (_ <- 0 until 200) {
      val a = BigInt(q.bitLength + 8, rnd) % q
      val b = BigInt(q.bitLength + 8, rnd) % q
      val s = ReductionPrecompute.scale(cfg, b, q)
      assert(s >= 0 && s < q && a * s % q * f % q == a * b % q, s"Red(a * scaled b) != a b for a = $a, b = $b")
      assert((a * b % q * f % q) * c % q * f % q == a * b % q) // the two-pass PWMUL
    }
  }
  test("modulus classes: Montgomery any odd q < 2^k; WLM-Mixed and K2RED Proth q = q_h 2^(k-h) + 1") {
    val mont = ReductionConfig(Method.Mont, 32)
    assert(ReductionPrecompute.classError(mont, BigInt(97)).isEmpty)
    assert(ReductionPrecompute.classError(mont, BigInt(96)).get.contains("odd"))
    assert(ReductionPrecompute.classError(mont, BigInt(1) << 32 | 1).get.contains("q < 2^32"))
    val k2 = ReductionConfig(Method.K2Red, 64, h = 26)
    assert(ReductionPrecompute.classError(k2, (BigInt(5) << 38) + 1).isEmpty)
    assert(ReductionPrecompute.classError(k2, (BigInt(5) << 37) + 1).get.contains("q = 1 mod 2^38"))
    assert(ReductionPrecompute.classError(ReductionConfig(Method.WlmMixed, 32, h = 16), BigInt(193)).get.contains("Proth"))
  }
}
