package modforge.intfft

import modforge.Multiplier
import modforge.arith.ConstMul
import spinal.core._

object DhemBarrett {
  val latency = 3
  /** P1 = floor(2^(m+alpha) / p) = floor(2^(2m+4) / p) (alpha = m + 4): m + 5 bits, not the printed
    * m + 4 (notes, erratum 4: 0x1001000ff0 for p = 0xfff00001; cut to m + 4 bits, (p-1)^2 fails). */
  def p1(p: BigInt): BigInt = (BigInt(1) << (2 * p.bitLength + 4)) / p
}

/** Dhem's generalized Barrett reduction (Cao et al., Algorithm 2 with Eq. 8), beta = -4, alpha = m + 4,
  * for any odd m-bit p (the general group 2^32 - 2^20 + 1). The Python twin: verif/intfft/reducers.py
  * `DhemBarrett`, same widths.
  *
  *   register 1: sigma = ((x >> (m-4)) * P1) >> (m+8)     (m+4) x (m+5)-bit product, top m+1 bits
  *   register 2: y1 = (x - sigma p) mod 2^(m+1)           with beta < -2, alpha > m the quotient error
  *                                                        is at most 1 (the paper's claim), so
  *                                                        x - sigma p < 2p < 2^(m+1): m+1 bits suffice
  *   register 3: y = y1 - p if y1 >= p else y1            the one final subtraction
  *
  * Both products are by constants. A sparse constant (at most 4 signed digits, [[ConstMul.sparse]])
  * is multiplied by shift-adds, otherwise by [[modforge.Multiplier]]: for the general group both
  * are sparse (p = 2^32 - 2^20 + 1, P1 = 2^36 + 2^24 + 2^12 - 2^4), which keeps the reducer out of
  * the FPGA's DSP blocks. Same registers, same latency, same values either way.
  */
class DhemBarrett(g: IntFftParams) extends Reducer(g) {
  import g.{m, p}
  def latency: Int = DhemBarrett.latency
  val P1 = DhemBarrett.p1(p)
  require(P1.bitLength == m + 5, s"Dhem Barrett: P1 = $P1 has ${P1.bitLength} bits, expected m + 5 = ${m + 5}")
  val xh = io.x(2 * m - 1 downto m - 4) // x >> (m + beta), m + 4 bits
  val xhP1 = if (ConstMul.sparse(P1)) ConstMul.full(xh, P1) else Multiplier.full(xh, U(P1, m + 5 bits))
  val sigma = RegNext((xhP1 >> (m + 8)).resize(m + 1 bits))
  val xLow = RegNext(io.x(m downto 0))
  val sigmaP = if (ConstMul.sparse(p)) ConstMul.low(sigma, p, m + 1) else Multiplier.low(sigma, U(p, m bits), m + 1)
  val y1 = RegNext(xLow - sigmaP)
  val pWide = U(p, m + 1 bits)
  io.y := RegNext(Mux(y1 >= pWide, y1 - pWide, y1).resize(m bits))
}
