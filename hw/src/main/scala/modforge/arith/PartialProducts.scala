package modforge.arith

import spinal.core._
import scala.collection.mutable.ArrayBuffer

/** Partial products of unsigned a * b as columns of bits (column x has weight 2^x), the input of
  * [[CompressorTree]]. (The configuration enumeration is [[PartialProducts]], in MulArch.scala.)
  */
object PartialProductColumns {

  /** AND array, columns lo until hi: column x - lo holds every a_i b_j with i + j = x. Their sum
    * is exactly sum_{lo <= i+j < hi} a_i b_j 2^(i+j-lo).
    */
  def and(a: UInt, b: UInt, lo: Int, hi: Int): IndexedSeq[Seq[Bool]] = {
    require(0 <= lo && lo <= hi, s"and: need 0 <= lo ($lo) <= hi ($hi)")
    val cols = IndexedSeq.fill(hi - lo)(ArrayBuffer[Bool]())
    for (j <- 0 until b.getWidth; i <- 0 until a.getWidth if i + j >= lo && i + j < hi) cols(i + j - lo) += (a(i) & b(j))
    cols.map(_.toSeq)
  }

  /** Radix-4 Booth partial products of unsigned a, b (any widths >= 1), columns 0 until n: their
    * sum is a*b mod 2^n (n = wa + wb gives the product itself).
    *
    * The narrower operand y (width wy) is recoded into m = floor(wy/2) + 1 digits
    * d_i = -2 y_{2i+1} + y_{2i} + y_{2i-1} in {-2..2} (y_{-1} = 0, and the extra digit makes
    * y_{2m-1} = 0, so the recoding of the unsigned y is exact and the top digit is >= 0).
    * The other operand x (width wx) gives the row V_i = d_i x: the wx + 1 bits q = X xor neg of
    * X = |d_i| x (selected by one/two), the +neg of the two's complement in column 2i, and a sign
    * bit s = neg of weight 2^(2i+wx+1): V_i = q + neg - s 2^(wx+1) exactly (also for the "-0"
    * digit, neg with X = 0). Sign extension by the constant trick: -s 2^w = (not s) 2^w - 2^w, so
    * each negative-capable row gets (not s) in column 2i+wx+1 and the constant -2^(2i+wx+1); the
    * constants are summed mod 2^n and folded into the columns ([[CompressorTree.withConstant]]).
    * Digits whose recoding bits are beyond y are simplified at elaboration (no negative top row).
    *
    * Not for column-truncated products: the low rows' sign constants and +neg bits belong to the
    * low columns, so dropping columns of a Booth array does not drop a bounded non-negative value
    * (see [[ExplicitMultiplier.highTruncated]]).
    */
  def booth4(a: UInt, b: UInt, n: Int): IndexedSeq[Seq[Bool]] = {
    require(a.getWidth >= 1 && b.getWidth >= 1 && n >= 0, s"booth4: widths ${a.getWidth} x ${b.getWidth}, $n columns")
    val (x, y) = if (b.getWidth <= a.getWidth) (a, b) else (b, a)
    val (wx, wy) = (x.getWidth, y.getWidth)
    def yb(j: Int): Lit = if (j >= 0 && j < wy) Sig(y(j)) else Zero
    def xb(j: Int): Lit = if (j >= 0 && j < wx) Sig(x(j)) else Zero
    val cols = IndexedSeq.fill(n)(ArrayBuffer[Bool]())
    var constant = BigInt(0)
    def put(col: Int, l: Lit): Unit = if (col < n) l match {
      case Zero => ()
      case One => constant += BigInt(1) << col
      case Sig(s) => cols(col) += s
    }
    val m = wy / 2 + 1
    for (i <- 0 until m if 2 * i < n) {
      val (y2, y1, y0) = (yb(2 * i + 1), yb(2 * i), yb(2 * i - 1))
      val neg = y2
      val one = y1 ^ y0
      val two = (y2 & !y1 & !y0) | (!y2 & y1 & y0)
      val nd = neg.named(s"booth_neg$i"); val on = one.named(s"booth_one$i"); val tw = two.named(s"booth_two$i")
      for (k <- 0 to wx) put(2 * i + k, ((on & xb(k)) | (tw & xb(k - 1))) ^ nd)
      put(2 * i, nd)
      if (nd != Zero) {
        put(2 * i + wx + 1, !nd)
        constant -= BigInt(1) << (2 * i + wx + 1)
      }
    }
    CompressorTree.withConstant(cols.map(_.toSeq), constant)
  }

  /** A bit known at elaboration (Zero, One) or a signal: the Booth selectors of digits whose
    * recoding bits lie beyond the operand fold to constants instead of becoming logic.
    */
  private sealed trait Lit {
    def &(o: Lit): Lit = (this, o) match {
      case (Zero, _) | (_, Zero) => Zero
      case (One, q) => q
      case (q, One) => q
      case (Sig(p), Sig(q)) => Sig(p & q)
    }
    def |(o: Lit): Lit = (this, o) match {
      case (One, _) | (_, One) => One
      case (Zero, q) => q
      case (q, Zero) => q
      case (Sig(p), Sig(q)) => Sig(p | q)
    }
    def ^(o: Lit): Lit = (this, o) match {
      case (Zero, q) => q
      case (q, Zero) => q
      case (One, q) => !q
      case (q, One) => !q
      case (Sig(p), Sig(q)) => Sig(p ^ q)
    }
    def unary_! : Lit = this match {
      case Zero => One
      case One => Zero
      case Sig(p) => Sig(!p)
    }
    /** A signal is given a name (shared selector wires read better in the Verilog); constants stay. */
    def named(n: String): Lit = this match {
      case Sig(p) => val w = Bool(); w := p; Sig(w.setWeakName(n))
      case c => c
    }
  }
  private case object Zero extends Lit
  private case object One extends Lit
  private case class Sig(b: Bool) extends Lit
}
