package modforge
package modmul

/** Host-side precomputation of each algorithm's modulus-dependent inputs (BigInt).
  *
  * The Python twin, `verif/modmul/precompute.py`, is what users call; this one serves the
  * generator (constants computed at elaboration) and the SpinalSim tests. Both are checked
  * against plain a*b % m, never against each other.
  */
object Precompute {
  private def two(n: Int): BigInt = BigInt(1) << n
  private def isPow2(m: BigInt): Boolean = m > 0 && (m & (m - 1)) == 0

  def check(design: String, ok: Boolean, what: => String): Unit =
    if (!ok) throw new PreconditionError(s"$design: $what")

  def operands(design: String, a: BigInt, b: BigInt, m: BigInt): Unit =
    check(design, a >= 0 && b >= 0 && a < m && b < m, s"operands must satisfy 0 <= a, b < m (a=$a, b=$b, m=$m)")

  /** Algorithm 1: l = k - bitlen(M), M' = M << l, r = floor(4^k / M'). */
  def barrett(k: Int, m: BigInt): (BigInt, BigInt, Int) = {
    val d = s"barrett_$k"
    check(d, m >= 3 && m < two(k), s"modulus must satisfy 3 <= m < 2^$k (got $m)")
    check(d, !isPow2(m), s"modulus $m is a power of two: r = 4^k/M' would need k+2 bits; reduce with a bit mask instead")
    val l = k - m.bitLength
    val mp = m << l
    (mp, two(2 * k) / mp, l)
  }

  /** Algorithm 2/3: r = floor(2^k B / M), with 2M < 2^k. */
  def shoupR(k: Int, b: BigInt, m: BigInt): BigInt = (b << k) / m

  def shoupModulus(k: Int, m: BigInt): Unit =
    check(s"shoup_$k", m >= 2 && 2 * m < two(k), s"modulus must satisfy 2 <= m and 2m < 2^$k (got $m)")

  /** Algorithm 4: l = k - 1 - bitlen(M), M' = M << l, g = floor(2^(2k-2) / M'). */
  def gshoup(k: Int, m: BigInt): (BigInt, BigInt, Int) = {
    val d = s"gshoup_$k"
    check(d, m >= 3 && 2 * m < two(k), s"modulus must satisfy 3 <= m and 2m < 2^$k (got $m)")
    check(d, !isPow2(m), s"modulus $m is a power of two: g = 2^k would need k+1 bits; reduce with a bit mask instead")
    val l = k - 1 - m.bitLength
    val mp = m << l
    (mp, two(2 * k - 2) / mp, l)
  }
}
