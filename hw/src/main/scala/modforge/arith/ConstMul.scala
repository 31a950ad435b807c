package modforge.arith

import spinal.core._

/** A product by a constant as shift-adds over the constant's non-adjacent form (NAF: signed digits
  * in {-1, 0, 1}, no two adjacent non-zero, the fewest non-zero digits of any signed-binary form).
  *
  * Why: synthesis maps a `*` by a constant like any product (on an FPGA, to DSP blocks), although a
  * sparse constant needs only a few adders: the integer-FFT general prime p = 2^32 - 2^20 + 1 has 3
  * digits and its Dhem-Barrett constant P1 = 2^36 + 2^24 + 2^12 - 2^4 has 4, so both products of
  * that reducer become 2 and 3 adders instead of DSP blocks (reports/intfft_table.md has the counts).
  *
  * The sum is taken modulo 2^bits, so negative digits are plain subtractions and the result is exact
  * whenever the true product is below 2^bits (`full`).
  */
object ConstMul {
  /** Signed digits of c >= 0, lowest first: (position, +1 or -1). */
  def naf(c: BigInt): List[(Int, Int)] = {
    require(c >= 0, s"ConstMul: constant $c is negative")
    var n = c
    var i = 0
    val out = List.newBuilder[(Int, Int)]
    while (n != 0) {
      if (n.testBit(0)) {
        val d = if (n.testBit(1)) -1 else 1 // n mod 4 = 3 gives -1 (and a carry), 1 gives +1
        out += ((i, d))
        n -= d
      }
      n >>= 1
      i += 1
    }
    out.result()
  }

  /** Number of non-zero signed digits: weight - 1 adders. */
  def weight(c: BigInt): Int = naf(c).size

  /** Sparse enough that `weight - 1` adders replace the multiplier (a rule of the generator, not of
    * the arithmetic): at most `maxTerms` signed digits. */
  def sparse(c: BigInt, maxTerms: Int = 4): Boolean = c > 0 && weight(c) <= maxTerms

  /** (x * c) mod 2^bits. */
  def low(x: UInt, c: BigInt, bits: Int): UInt = {
    val terms = naf(c).filter(_._1 < bits)
    def shifted(s: Int): UInt = x.resize(bits bits) |<< s
    val pos = terms.filter(_._2 > 0).map(t => shifted(t._1))
    val neg = terms.filter(_._2 < 0).map(t => shifted(t._1))
    val sum = if (pos.isEmpty) U(0, bits bits) else pos.reduce(_ + _)
    neg.foldLeft(sum)(_ - _)
  }

  /** x * c, exact: x.getWidth + c.bitLength bits. */
  def full(x: UInt, c: BigInt): UInt = low(x, c, x.getWidth + c.bitLength)
}
