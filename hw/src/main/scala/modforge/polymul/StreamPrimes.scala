package modforge.polymul

import modforge.PreconditionError

/** The RNS limbs of a streaming polymul: L primes q_i = 1 (mod 2n) of exactly w bits
  * (2^(w-1) < q_i < 2^w), the largest first, as few as make Q = prod q_i >= 2^logq.
  *
  * Why exactly w bits: a limb's residues fill its w-bit datapath, and each prime above 2^(w-1)
  * contributes more than w-1 bits to Q, so L <= ceil(logq / (w-1)). Why 1 mod 2n: Z_q then has
  * the primitive 2n-th root psi the negacyclic NTT needs (docs/polymul.md, "RNS").
  */
object StreamPrimes {
  private def candidates(n: Int, w: Int, cls: PrimeClass): Iterator[BigInt] =
    cls.candidates(n, w).filter(_.isProbablePrime(64))

  /** The primes, or a [[PreconditionError]] that says how many exist and the largest n they serve. */
  def select(n: Int, logq: Int, w: Int, cls: PrimeClass = PrimeClass.AnyPrime): Seq[BigInt] = {
    val need = BigInt(1) << logq
    val it = candidates(n, w, cls)
    var got = Vector.empty[BigInt]
    while (got.product < need && it.hasNext) got :+= it.next()
    if (got.product >= need) got
    else {
      val l = (logq + w - 2) / (w - 1)
      val of = cls.ofClass
      // No prime at all: say so plainly (a product of none has no bits to report).
      val have = got.size match {
        case 0 => s"no prime q = 1 mod ${2 * n}$of has"
        case 1 => s"only 1 prime q = 1 mod ${2 * n}$of has"
        case k => s"only $k primes q = 1 mod ${2 * n}$of have"
      }
      val product = if (got.isEmpty) "" else s"their product has ${got.product.bitLength - 1}+ bits, "
      val other = if (cls == PrimeClass.AnyPrime) "" else s", or another class (_c<${PrimeClass.all.map(_.name).mkString("|")}>; " +
        s"class any has ${candidates(n, w, PrimeClass.AnyPrime).take(l).size} of the $l)"
      throw new PreconditionError(s"limb width w = $w: $have exactly $w bits (${product}" +
        s"log q = $logq needs about $l such primes, and ${largestN(w, l, cls)}): use a wider limb " +
        s"(_w<w> up to ${StreamConfig.maxLimbBits}, or no _w for the default)$other")
    }
  }

  /** How many w-bit primes = 1 mod 2n exist, counted up to `cap`. */
  def count(n: Int, w: Int, cap: Int = 1 << 20, cls: PrimeClass = PrimeClass.AnyPrime): Int = candidates(n, w, cls).take(cap).size

  /** The largest power-of-two n for which at least `l` w-bit primes = 1 mod 2n exist. */
  def largestN(w: Int, l: Int, cls: PrimeClass = PrimeClass.AnyPrime): String = {
    val ns = Iterator.iterate(StreamConfig.maxN)(_ / 2).takeWhile(_ >= 2).find(n => candidates(n, w, cls).take(l).size >= l)
    ns.map(n => s"$l such primes of $w bits exist up to n = $n").getOrElse(s"not even n = 2 has $l primes${cls.ofClass} of $w bits")
  }
}
