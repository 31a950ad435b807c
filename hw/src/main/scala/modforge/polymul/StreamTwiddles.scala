package modforge.polymul

/** The twiddles of one limb's negacyclic NTTs with psi merged in (Longa and Naehrig's loops,
  * "Speeding up the NTT", Algorithms 1 and 2): no weighting pass and no bit reversal. The forward
  * transform (Cooley-Tukey) takes natural order to bit-reversed order; the inverse
  * (Gentleman-Sande) takes it back, and N^-1 rides on its last stage's multiplications.
  *
  * Stage s of the forward transform pairs positions j and j + n/2^(s+1) inside block i
  * (2^s blocks of n/2^s positions) with twiddle psi^rev(2^s + i) (Algorithm 1, line 5);
  * stage r of the inverse pairs j and j + 2^r inside block i (h = n/2^(r+1) blocks) with
  * psi^-rev(h + i) (Algorithm 2, line 6). rev is the log2(n)-bit reversal.
  */
case class StreamTwiddles(n: Int, q: BigInt, psi: BigInt) {
  val logN: Int = Integer.numberOfTrailingZeros(n)
  require(psi.modPow(n, q) == q - 1, s"psi = $psi is not a primitive 2n-th root of unity mod $q")
  private val psiInv = psi.modInverse(q)
  val nInv: BigInt = BigInt(n).modInverse(q)

  def rev(x: Int): Int = Integer.reverse(x) >>> (32 - logN)

  /** Forward stage s, block i < 2^s. */
  def fwd(s: Int, i: Int): BigInt = { require(i < (1 << s)); psi.modPow(rev((1 << s) + i), q) }

  /** Inverse stage r, block i < n/2^(r+1); N^-1 folded in at the last stage (`last`). */
  def inv(r: Int, i: Int): BigInt = {
    val h = n >> (r + 1)
    require(i < h)
    val w = psiInv.modPow(rev(h + i), q)
    if (r == logN - 1) w * nInv % q else w
  }
}
