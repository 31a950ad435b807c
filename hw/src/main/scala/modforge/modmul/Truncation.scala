package modforge
package modmul

/** How many corrections a truncated quotient product costs (docs/modmul.md, "Truncated quotient products").
  *
  * c = the number of dropped low columns of a quotient product ([[Multiplier.highTruncated]]).
  * The dropped value is D <= Dmax(c) = (c-1) 2^c + 1. Each family's proof (in its scaladoc) gives
  * a strict bound t < X M on the value before the conditional subtractions, X = num / den a
  * rational function of Dmax; the design then needs ceil(X) - 1 conditional subtractions, and t
  * needs room for (N+1) M. The Python twin is verif/modmul/models.py (barrett_bound, ...).
  *
  *  - BarrettOpt, c = truncate columns of x'r:  X = 5/2 + Dmax(c) / 2^(k+1)
  *  - Shoup,      c = truncate columns of A r:  X = 3/2 + Dmax(c) / 2^k
  *  - GShoup, cR = truncateR columns of B g, cQ = truncateQ of the core's A' r:
  *                                              X = 5/2 + Dmax(cR) / 2^(k-1) + Dmax(cQ) / 2^k
  * c = 0 gives the untruncated designs' 2, 1 and 2 corrections. The count is unchanged while the
  * added term stays <= 1/2: Barrett Dmax(c) <= 2^k, Shoup Dmax(c) <= 2^(k-1), GShoup
  * 2 Dmax(cR) + Dmax(cQ) <= 2^(k-1) (at k = 32: c <= 27, c <= 26, e.g. cR = 24 with cQ = 25).
  */
object Truncation {
  def droppedMax(c: Int): BigInt = if (c == 0) BigInt(0) else BigInt(c - 1) * (BigInt(1) << c) + 1

  /** E(c, s) = ceil(Dmax(c) / 2^s): the truncated floor(ab / 2^s) is at most E below the exact one. */
  def error(c: Int, shift: Int): BigInt = ceilDiv(droppedMax(c), BigInt(1) << shift)

  private def ceilDiv(n: BigInt, d: BigInt): BigInt = (n + d - 1) / d
  private def corrections(num: BigInt, den: BigInt): Int = (ceilDiv(num, den) - 1).toInt
  private def clog2(n: Int): Int = BigInt(n - 1).bitLength
  private def two(n: Int): BigInt = BigInt(1) << n

  def barrettCorrections(k: Int, c: Int): Int = corrections(5 * two(k) + droppedMax(c), two(k + 1))
  /** Width of BarrettOpt's r1, r2, t: (N+1) M' < (N+1) 2^k. k+2 untruncated. */
  def barrettSubBits(k: Int, c: Int): Int = k + clog2(barrettCorrections(k, c) + 1)

  def shoupCorrections(k: Int, c: Int): Int = corrections(3 * two(k - 1) + droppedMax(c), two(k))

  /** GShoup: (the core's line 6, Algorithm 4 line 4). One in the core, the rest at line 4. */
  def gshoupCorrections(k: Int, cR: Int, cQ: Int): (Int, Int) =
    (1, corrections(5 * two(k - 1) + 2 * droppedMax(cR) + droppedMax(cQ), two(k)) - 1)

  /** Shoup core widths (subtractor, output) for `core` + `after` corrections with M < 2^(k-1):
    * t < (core + after + 1) M before line 6, < (after + 1) M after it. (k+1, k) untruncated.
    */
  def shoupCoreBits(k: Int, core: Int, after: Int): (Int, Int) =
    (math.max(k + 1, k - 1 + clog2(core + after + 1)), math.max(k, k - 1 + clog2(after + 1)))

  def check(name: String, c: Int, shift: Int): Unit =
    require(c >= 0 && c <= shift, s"$name = $c dropped columns: must be in 0..$shift")
}
