package modforge.polymul

import modforge.PreconditionError

/** The RNS limbs of a streaming polymul: L primes q_i = 1 (mod 2n) of exactly w bits
  * (2^(w-1) < q_i < 2^w), the largest first, as few as make Q = prod q_i >= 2^logq.
  *
  * Why exactly w bits: a limb's residues fill its w-bit datapath, and each prime above 2^(w-1)
  * contributes more than w-1 bits to Q, so L <= ceil(logq / (w-1)). Why 1 mod 2n: Z_q then has
  * the primitive 2n-th root psi the negacyclic NTT needs (docs/polymul.md, "RNS").
  *
  * Or the user's own primes ([[userPrimes]], docs/polymul.md, "Your own primes"): any distinct primes
  * q = 1 mod 2n of at most w bits whose product reaches 2^logq, as an FHE library's modulus chain
  * fixes them. A prime narrower than w is fine: BarrettOpt normalises its modulus (M' = q << l,
  * l = w - bitlen(q), [[modforge.modmul.Precompute.barrett]]), Shoup's k = w + 1 wants 2q < 2^(w+1),
  * and the butterflies' additions need q < 2^w only.
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

  /** The user's primes, in their order, or a [[PreconditionError]] naming the first problem and its fix:
    * not prime, not 1 mod 2n, wider than the limb, repeated, or too few for Q >= 2^logq. */
  def userPrimes(n: Int, logq: Int, w: Int, primes: Seq[BigInt]): Seq[BigInt] = {
    val twoN = 2 * n
    def example: String = candidates(n, w, PrimeClass.AnyPrime).take(1).toSeq.headOption
      .map(q => s"e.g. $q, the largest of $w bits").getOrElse(s"none has exactly $w bits: a wider limb has more")
    if (primes.isEmpty) throw new PreconditionError(s"no primes given: give at least one prime q = 1 mod $twoN ($example)")
    for ((q, l) <- primes.zipWithIndex) {
      val limb = if (primes.size > 1) s"limb $l: " else ""
      if (q < 2 || !q.isProbablePrime(64)) {
        val factor = if (q < 2) None else Iterator.iterate(BigInt(2))(_ + 1).takeWhile(f => f * f <= q && f < 1000000).find(q % _ == 0)
        throw new PreconditionError(s"${limb}q = $q is not prime${factor.map(f => s" ($f divides it)").getOrElse("")}: " +
          s"give primes q = 1 mod $twoN of at most $w bits ($example)")
      }
      if (q.bitLength > StreamConfig.maxLimbBits)
        throw new PreconditionError(s"${limb}q = $q has ${q.bitLength} bits, wider than the widest limb (${StreamConfig.maxLimbBits} bits): " +
          s"split the modulus into primes of at most ${StreamConfig.maxLimbBits} bits")
      if (q % twoN != 1) {
        val serves = if (q == 2) "it serves no n" else s"it serves n up to ${largestServed(q)}"
        throw new PreconditionError(s"${limb}q = $q is not 1 mod 2n = $twoN (it is ${q % twoN}), so Z_q has no primitive $twoN-th root of unity " +
          s"($serves): give primes q = 1 mod $twoN ($example), or a smaller n")
      }
      if (q.bitLength > w)
        throw new PreconditionError(s"${limb}q = $q has ${q.bitLength} bits, wider than the $w-bit limb: use _w${q.bitLength} " +
          s"(or wider, up to ${StreamConfig.maxLimbBits}), or no _w (the widest prime's bits), or a prime of at most $w bits")
    }
    primes.diff(primes.distinct).headOption.foreach { dup =>
      throw new PreconditionError(s"q = $dup is given twice: the RNS limbs need distinct (coprime) primes: drop the repeat " +
        s"or add another prime q = 1 mod $twoN")
    }
    val bigQ = primes.product
    if (bigQ.bitLength <= logq) {
      val fewer = if (bigQ.bitLength - 1 >= StreamConfig.minLogq) s", or log q up to ${bigQ.bitLength - 1} (polymul_${n}_${bigQ.bitLength - 1}_...)" else ""
      throw new PreconditionError(s"too few primes: the product of the ${primes.size} given has ${bigQ.bitLength} bits, below 2^$logq " +
        s"(log q = $logq needs Q >= 2^$logq): add primes q = 1 mod $twoN$fewer")
    }
    primes
  }

  /** The largest power-of-two n a prime q serves (q = 1 mod 2n): half the largest power of two dividing q - 1. */
  def largestServed(q: BigInt): BigInt = BigInt(1) << math.max(0, (q - 1).lowestSetBit - 1)

  /** The `_q<hash>` of a design of given primes: the first 7 hex digits of sha256 of the primes in
    * decimal, in their order, joined by ",". */
  def hash(primes: Seq[BigInt]): String = {
    val d = java.security.MessageDigest.getInstance("SHA-256").digest(primes.mkString(",").getBytes("UTF-8"))
    d.map(b => f"${b & 0xff}%02x").mkString.take(7)
  }

  /** How many w-bit primes = 1 mod 2n exist, counted up to `cap`. */
  def count(n: Int, w: Int, cap: Int = 1 << 20, cls: PrimeClass = PrimeClass.AnyPrime): Int = candidates(n, w, cls).take(cap).size

  /** The largest power-of-two n for which at least `l` w-bit primes = 1 mod 2n exist. */
  def largestN(w: Int, l: Int, cls: PrimeClass = PrimeClass.AnyPrime): String = {
    val ns = Iterator.iterate(StreamConfig.maxN)(_ / 2).takeWhile(_ >= 2).find(n => candidates(n, w, cls).take(l).size >= l)
    ns.map(n => s"$l such primes of $w bits exist up to n = $n").getOrElse(s"not even n = 2 has $l primes${cls.ofClass} of $w bits")
  }
}
