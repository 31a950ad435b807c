package modforge
package modmul

import spinal.core._

/** Pipeline registers of BarrettOpt. Defaults: the paper's Section 4.2 positions, "at line 3,
  * at line 4 before shifting, and at lines 8 and 11 in Algorithm 1".
  *
  * Beyond the paper (docs/modmul.md, "Pipeline registers"), all off by default:
  *  - `mid3`, `mid4`, `mid6`: inside the products of lines 3 (A'B), 4 (x'r) and 6 (qM'), after the
  *    compressor tree (the two rows, before the final adder). They need an explicit multiplier
  *    architecture ([[arith.MulArch]]): Yosys's `*` has no inside.
  *  - `line7`: after r2 = qM' (line 6), before the subtraction of line 8.
  *  - `line9`: between the two conditional subtractions of lines 9 and 10.
  * [[PipelineMask]] names a set of them in a design name.
  */
case class BarrettOptRegs(line3: Boolean = true, line4: Boolean = true, line8: Boolean = true, line11: Boolean = true,
                          mid3: Boolean = false, mid4: Boolean = false, mid6: Boolean = false,
                          line7: Boolean = false, line9: Boolean = false) {
  def boundaries: Seq[Boundary] = Seq(line3, line4, line8, line11).map(Boundary)
  def all: Seq[Boolean] = Seq(line3, line4, line8, line11, mid3, mid4, mid6, line7, line9)
  def latency: Int = all.count(identity)
}

object BarrettOptRegs {
  /** The order of the bits of a pipeline mask (`p<bits>` in a design name). */
  val names: Seq[String] = Seq("line3", "line4", "line8", "line11", "mid3", "mid4", "mid6", "line7", "line9")
  def fromMask(b: Seq[Boolean]): BarrettOptRegs = {
    val x = b.padTo(names.size, false)
    BarrettOptRegs(x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7), x(8))
  }
}

/** `truncate` = c low columns of the quotient product x'r dropped ([[Multiplier.highTruncated]]);
  * 0, the default, is the paper's exact product.
  */
case class BarrettOptConfig(k: Int, regs: BarrettOptRegs = BarrettOptRegs(), truncate: Int = 0) {
  Truncation.check("truncate", truncate, k + 1)
  /** Conditional subtractions at lines 9-10 and after: 2, more for large truncations. */
  def corrections: Int = Truncation.barrettCorrections(k, truncate)
}

/** Optimized Barrett multiplier, Algorithm 1.
  *
  * Ports (besides the common ones): `in_m` = M' = M << l (2^(k-1) <= M' < 2^k),
  * `in_r` = floor(4^k / M') (k+1 bits), `in_l` = l = k - bitlen(M). Latency 4 by default.
  *
  * Erratum: the paper does lines 5-8 in k+1 bits, but the quotient q can be two short, so
  * t = x - qM' < 3M' which reaches 2^(k+1) when M' is close to 2^k (first failure at k = 8:
  * A=228, B=229, M=235 gives 0 instead of 42). r1, r2 and t are k+2 bits here; the
  * golden-model tests show the printed width failing (verif/tests/test_models.py).
  *
  * Truncated x'r (cfg.truncate = c > 0): q = floor((x'r - D) / 2^(k+1)) with 0 <= D <= Dmax(c).
  * With x' = (x - e_x)/2^(k-1), e_x = x mod 2^(k-1), and r = 4^k/M' - e_r (0 <= e_r < 1):
  * M' x' r / 2^(k+1) = x - e_x - M' x' e_r / 2^(k+1), and q > (x'r - D)/2^(k+1) - 1, so
  *   t = x - qM' < M' (e_x/M' + x' e_r/2^(k+1) + D/2^(k+1) + 1).
  * e_x/M' < 2^(k-1)/M' = 1/(2u) and x'/2^(k+1) < M'^2/4^k = u^2 (x < M'^2), u = M'/2^k in [1/2, 1);
  * 1/(2u) + u^2 < 3/2 on that interval, so t < (5/2 + Dmax(c)/2^(k+1)) M'. c = 0 gives the
  * paper's two corrections (t < 3M'); they stay two while Dmax(c) <= 2^k (c <= 27 at k = 32);
  * in general cfg.corrections = ceil(5/2 + Dmax(c)/2^(k+1)) - 1 and t has
  * k + ceil(log2(corrections + 1)) bits ([[Truncation]]).
  */
class BarrettOpt(val cfg: BarrettOptConfig) extends ModMulComponent(cfg.k) {
  val in_m = in UInt (k bits)
  val in_r = in UInt (k + 1 bits)
  val in_l = in UInt (lBits bits)

  val Seq(at3, at4, at8, at11) = cfg.regs.boundaries
  val Seq(mid3, mid4, mid6, at7, at9) = Seq(cfg.regs.mid3, cfg.regs.mid4, cfg.regs.mid6, cfg.regs.line7, cfg.regs.line9).map(Boundary)
  def latency: Int = cfg.regs.latency
  val w = Truncation.barrettSubBits(k, cfg.truncate) // width of r1, r2 and t: k+2 (see the erratum above)

  // Lines 1-3: A' = A << l, x = A' B; x' = x >> (k-1) is wiring.
  val aShifted = in_a |<< in_l
  val x = at3(Multiplier.full(aShifted, in_b, mid3))
  val m_s1 = at3(mid3(in_m))
  val r_s1 = at3(mid3(in_r))
  val l_s1 = at3(mid3(in_l))
  val v_s1 = at3.valid(mid3.valid(in_valid))

  // Line 4: x' r, registered before the shift by k+1.
  val xq = (x >> (k - 1)).resize(k + 1 bits)
  // Truncated: only the high part floor(x'r / 2^(k+1)) is built and registered.
  val xr = at4(if (cfg.truncate == 0) Multiplier.full(xq, r_s1, mid4) else Multiplier.highTruncated(xq, r_s1, k + 1, cfg.truncate, mid4))
  val r1_s2 = at4(mid4(x.resize(w bits))) // line 5: r1 = x mod 2^(k+2)
  val m_s2 = at4(mid4(m_s1))
  val l_s2 = at4(mid4(l_s1))
  val v_s2 = at4.valid(mid4.valid(v_s1))

  // Lines 4 (shift), 6 and 8: q = x'r >> (k+1), r2 = q M' mod 2^(k+2), t = r1 - r2.
  // The critical stage of Barrett (paper Section 4.2).
  val q = (if (cfg.truncate == 0) xr >> (k + 1) else xr).resize(k + 1 bits)
  val r2 = at7(Multiplier.low(q, m_s2, w, mid6))
  def side[T <: Data](x: T): T = at7(mid6(x)) // what rides beside r2
  val t8 = at8(side(r1_s2) - r2)
  val m_s3 = at8(side(m_s2))
  val l_s3 = at8(side(l_s2))
  val v_s3 = at8.valid(at7.valid(mid6.valid(v_s2)))

  // Lines 9-11: two conditional subtractions of M' (more if truncated), then t >> l.
  val t9 = at9(Mux(t8 >= m_s3, t8 - m_s3, t8))
  val m_s4 = at9(m_s3)
  val t10 = Mux(t9 >= m_s4, t9 - m_s4, t9)
  out_t := at11((extra(t10, cfg.corrections - 2) >> at9(l_s3)).resize(k bits))

  private def extra(t: UInt, n: Int): UInt = if (n == 0) t else extra(Mux(t >= m_s4, t - m_s4, t), n - 1)
  out_valid := at11.valid(at9.valid(v_s3))
}
