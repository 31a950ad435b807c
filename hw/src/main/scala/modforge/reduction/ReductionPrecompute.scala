package modforge.reduction

/** Constants of the reduction family computed at elaboration: the Scala twin of the scaling in
  * verif/reduction/precompute.py, for designs that hold them as logic (the NTT tile's ROM).
  *
  * Each method's reduction returns its input times F = 2^-x mod q ([[factorShift]]). A constant
  * operand B stored pre-scaled as B F^-1 = B 2^x mod q makes the product exact:
  * Red(A (B F^-1)) = A B. A product of two unscaled values leaves F; a second reduction by
  * C = F^-2 removes it: Red(Red(A B) C) = A B F F^-2 F = A B ([[pointwiseConstant]]).
  */
object ReductionPrecompute {
  /** x of F = 2^-x: k for Montgomery, WLM-Mixed and Montgomery-Shift, w ceil(k/w) for WLM,
    * 2(k - h) for K2RED and K2RED-Shift, 0 for classical Barrett (exact). Plantard's factor is
    * -2^-2k, not a power of two: not covered here. */
  def factorShift(cfg: ReductionConfig): Int = cfg.method match {
    case Method.Mont | Method.WlmMixed | Method.MontShift => cfg.k
    case Method.Wlm => cfg.w * ((cfg.k + cfg.w - 1) / cfg.w)
    case Method.K2Red | Method.K2RedShift => 2 * (cfg.k - cfg.h)
    case Method.BarrettClassic => 0
    case Method.Plantard => throw new IllegalArgumentException("Plantard's factor -2^-2k is not a power of two")
  }

  /** F^-1 = 2^x mod q. */
  def factorInverse(cfg: ReductionConfig, q: BigInt): BigInt = BigInt(2).modPow(factorShift(cfg), q)

  /** A constant operand pre-scaled for the method: b F^-1 mod q. */
  def scale(cfg: ReductionConfig, b: BigInt, q: BigInt): BigInt = b * factorInverse(cfg, q) mod q

  /** C = F^-2 mod q: Red(Red(a b) C) = a b. */
  def pointwiseConstant(cfg: ReductionConfig, q: BigInt): BigInt = factorInverse(cfg, q).pow(2) mod q

  /** Montgomery's q' = -q^-1 mod 2^k (q odd). */
  def montQPrime(k: Int, q: BigInt): BigInt = {
    val r = BigInt(1) << k
    (r - q.modInverse(r)) mod r
  }

  /** None if q is in the method's modulus class at width k, else the broken condition (the rules
    * of verif/reduction/precompute.py check_modulus). Montgomery: any odd q < 2^k. WLM:
    * q = 1 mod 2^w. WLM-Mixed and K2RED: Proth q = q_h 2^(k-h) + 1 with q_h < 2^h. */
  def classError(cfg: ReductionConfig, q: BigInt): Option[String] = cfg.method match {
    case Method.Mont =>
      if (q >= 3 && q.testBit(0) && q < (BigInt(1) << cfg.k)) None
      else Some(s"Montgomery needs an odd q with 3 <= q < 2^${cfg.k}")
    case Method.Wlm | Method.WlmMixed | Method.K2Red =>
      val w = cfg.omega
      if (q > (BigInt(1) << w) && q < (BigInt(1) << cfg.k) && (q - 1) % (BigInt(1) << w) == 0) None
      else if (cfg.method == Method.Wlm) Some(s"WLM needs q = 1 mod 2^$w and 2^$w < q < 2^${cfg.k}")
      else Some(s"${cfg.method.title} needs a Proth prime q = q_h * 2^$w + 1 with 1 <= q_h < 2^${cfg.h} " +
        s"(log q_h = ${cfg.h}, k = ${cfg.k}), i.e. q = 1 mod 2^$w and q < 2^${cfg.k}")
    case m => Some(s"${m.name}: modulus class not covered by ReductionPrecompute")
  }
}
