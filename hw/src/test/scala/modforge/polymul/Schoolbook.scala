package modforge.polymul

/** The streaming engines' oracle: the negacyclic product a b mod (x^n + 1, q) by the schoolbook rule, O(n^2) BigInt
  * products and no NTT, so that it shares nothing with the engines it checks. */
object Schoolbook {
  def negacyclic(a: Seq[BigInt], b: Seq[BigInt], q: BigInt): Seq[BigInt] = {
    val n = a.size
    val c = Array.fill(n)(BigInt(0))
    for (i <- 0 until n; j <- 0 until n) {
      val k = i + j
      if (k < n) c(k) += a(i) * b(j) else c(k - n) -= a(i) * b(j)
    }
    c.map(_.mod(q)).toSeq
  }
}
