package modforge
package modmul

import spinal.core._

/** Pipeline registers of the Shoup core. Defaults: the paper's Section 4.2 positions for Shoup,
  * "lines 1, 2, 3 and 6 in Algorithm 3". Lines 1 and 2 are independent products computed side by
  * side, so their registers form one boundary.
  */
case class ShoupRegs(lines1and2: Boolean = true, line3: Boolean = true, line6: Boolean = true,
                     mid12: Boolean = false, mid3: Boolean = false, line5: Boolean = false) {
  def boundaries: Seq[Boundary] = Seq(lines1and2, line3, line6).map(Boundary)
  def all: Seq[Boolean] = Seq(lines1and2, line3, line6, mid12, mid3, line5)
  def latency: Int = all.count(identity)
}

/** Beyond the paper (docs/modmul.md, "Pipeline registers"), all off by default: `mid12` inside both
  * products of lines 1-2 and `mid3` inside line 3's, after the compressor tree (they need an
  * explicit [[arith.MulArch]]); `line5` between the subtraction (lines 4-5) and line 6.
  */
object ShoupRegs {
  val names: Seq[String] = Seq("lines1and2", "line3", "line6", "mid12", "mid3", "line5")
  def fromMask(b: Seq[Boolean]): ShoupRegs = {
    val x = b.padTo(names.size, false)
    ShoupRegs(x(0), x(1), x(2), x(3), x(4), x(5))
  }
}

/** Algorithm 3 ("Shoup modified"): t = A*B mod M up to one extra M, given r ~ floor(2^k B / M).
  *
  * With the exact Shoup r = floor(2^k B/M) the result is fully reduced (t < M). With GShoup's
  * r = floor(g B / 2^(k-2)) the quotient may be one short (the paper's Proposition), so t < 2M and
  * the caller reduces once more (Algorithm 4 line 4). Before line 6, t < 3M < 2^(k+1) because
  * 2M < 2^k: this is why r1, r2 and the subtraction carry one extra bit (k+1 bits).
  *
  * All operands are k bits wide. `m` is also returned, delayed to the output, as the caller needs it.
  *
  * Truncated A r (`truncate` = c > 0, [[Multiplier.highTruncated]]): q = floor((A r - D) / 2^k),
  * 0 <= D <= Dmax(c). If r = 2^k B/M - d (d real, d < 1 for Shoup's r) and A < 2^(k-1), then
  * q > AB/M - A d/2^k - D/2^k - 1, so t = AB - qM < (d/2 + Dmax(c)/2^k + 1) M: for Shoup's r
  * t < (3/2 + Dmax(c)/2^k) M, still one correction while Dmax(c) <= 2^(k-1) (c <= 26 at k = 32).
  * The caller gives the number of conditional subtractions at line 6 (`corrections`), the
  * width of r1, r2 and t (`subBits`) and of the output (`outBits`): [[Truncation]].
  */
class ShoupCore(k: Int, regs: ShoupRegs = ShoupRegs(), truncate: Int = 0, corrections: Int = 1,
                subBits: Int = -1, outBits: Int = -1) extends Component {
  val w = if (subBits < 0) k + 1 else subBits
  val wOut = if (outBits < 0) k else outBits
  Truncation.check("truncate", truncate, k)
  val io = new Bundle {
    val inValid = in Bool ()
    val a, b, m, r = in UInt (k bits)
    val outValid = out Bool ()
    val t = out UInt (wOut bits)
    val mOut = out UInt (k bits)
  }
  val Seq(at12, at3, at6) = regs.boundaries
  val Seq(mid12, mid3, at5) = Seq(regs.mid12, regs.mid3, regs.line5).map(Boundary)
  def latency: Int = regs.latency

  // Lines 1-2: q = (A r) >> k and r1 = A B mod 2^(k+1), side by side.
  val q = at12((if (truncate == 0) Multiplier.full(io.a, io.r, mid12) >> k else Multiplier.highTruncated(io.a, io.r, k, truncate, mid12)).resize(k bits))
  val r1_s1 = at12(Multiplier.low(io.a, io.b, w, mid12))
  val m_s1 = at12(mid12(io.m))
  val v_s1 = at12.valid(mid12.valid(io.inValid))

  // Line 3: r2 = q M mod 2^(k+1). The critical stage of GShoup (paper Section 4.2).
  val r2 = at3(Multiplier.low(q, m_s1, w, mid3))
  val r1_s2 = at3(mid3(r1_s1))
  val m_s2 = at3(mid3(m_s1))
  val v_s2 = at3.valid(mid3.valid(v_s1))

  // Lines 4-5: t = r1 - r2 in k+1 bits; the wrap-around of the (k+1)-bit subtractor is line 4.
  val t5 = at5(r1_s2 - r2)
  val m_s3 = at5(m_s2)
  // Line 6: one conditional subtraction (`corrections` of them).
  val t6 = csub(t5, corrections)
  io.t := at6(t6.resize(wOut bits))

  private def csub(t: UInt, n: Int): UInt = {
    val s = Mux(t >= m_s3, t - m_s3, t)
    if (n == 1) s else csub(s, n - 1)
  }
  io.mOut := at6(m_s3)
  io.outValid := at6.valid(at5.valid(v_s2))
}
