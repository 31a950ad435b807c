package modforge.intfft

import modforge.PreconditionError

/** The reducer of an FFT group's butterflies and pointwise products (Cao et al., Section 3.3, Fig. 3). */
sealed abstract class ReducerKind(val name: String)
object ReducerKind {
  /** Dhem's generalized Barrett (Algorithm 2, Eq. 8), beta = -4, alpha = m + 4: any odd p. */
  case object Dhem extends ReducerKind("dhem")
  /** p = 2^(m-1) + 1: low - middle + top, one correction; omega a power of two (shift twiddles). */
  case object Fermat extends ReducerKind("fermat")
  /** p = 2^(2h) - 2^h + 1: the Solinas fold with both +-p corrections. */
  case object Solinas extends ReducerKind("solinas")
  val all: Seq[ReducerKind] = Seq(Dhem, Fermat, Solinas)
}

/** One Integer-FFT parameter group (Cao et al., Table 3): modulus p, k points, principal k-th root
  * omega, digit width b, RAM bus width d (the paper's d = kb/16: a kb/2-bit block is 8 bus words).
  *
  * Construct through [[IntFftParams.make]], which applies the generator's checks (the Scala twin of
  * verif/intfft/params.py's check_group, same conditions and messages) and throws a
  * [[modforge.PreconditionError]] naming the condition and the fix.
  */
case class IntFftParams(name: String, p: BigInt, k: Int, omega: BigInt, b: Int, d: Int, reducer: ReducerKind) {
  /** Bits of p: the FFT word width (33, 32, 65, 64 for the four groups). */
  def m: Int = p.bitLength
  def log2k: Int = Integer.numberOfTrailingZeros(k)
  /** kb/2: bits of one operand block (k/2 digits of b bits). */
  def blockBits: Int = k * b / 2
  /** kb: bits of one block product. */
  def productBits: Int = k * b
  /** kb/d: d-bit words of one block product (16 in the paper's groups). */
  def productWords: Int = productBits / d
  /** d/b: coefficients summed into one d-bit word by the adder tree (4, 4, 8, 8). */
  def treeFanin: Int = d / b
  /** log2(d/b): registered levels of the adder tree (the paper prints "d/b levels"; erratum 7). */
  def treeLevels: Int = Integer.numberOfTrailingZeros(d / b)
  def kInv: BigInt = BigInt(k).modInverse(p)
  def omegaInv: BigInt = omega.modInverse(p)
  /** Fermat groups: omega = 2^u, so omega^e = +-2^s (2 has order 2(m-1) modulo 2^(m-1) + 1). */
  def shiftTwiddles: Boolean = reducer == ReducerKind.Fermat
  /** Bits of a twiddle as the butterfly takes it: {neg, s} for shift twiddles, else the residue. */
  def twiddleBits: Int = if (shiftTwiddles) 1 + shiftBits else m
  def shiftBits: Int = BigInt(m - 2).bitLength max 1

  /** omega^(+-e) (times k^-1 when `scaled`) as a residue. */
  def twiddle(e: Int, inverse: Boolean, scaled: Boolean): BigInt = {
    val w = (if (inverse) omegaInv else omega).modPow(BigInt(e), p)
    if (scaled) w * kInv % p else w
  }

  /** The twiddle as the butterfly's `tw` input: fermat {neg, s} (value (-1)^neg 2^s mod p, s < m-1),
    * else the residue itself. Every power of omega = 2^u, and k^-1 (a power of two mod p, because
    * 2^(2(m-1)) = 1), has this form (verif/intfft/fft.py, `_twiddle`).
    */
  def twiddleCode(value: BigInt): BigInt = if (!shiftTwiddles) value else {
    val half = m - 1
    (0 until 2 * half).find(x => BigInt(2).modPow(BigInt(x), p) == value) match {
      case Some(x) if x >= half => (BigInt(1) << shiftBits) | BigInt(x - half)
      case Some(x)              => BigInt(x)
      case None => throw new PreconditionError(s"FFT group '$name': twiddle $value is not +-2^s mod p; the fermat reducer needs omega a power of two")
    }
  }
}

object IntFftParams {
  private def isPow2(n: Int): Boolean = n >= 1 && (n & (n - 1)) == 0
  private val two = BigInt(2)

  def fermatForm(p: BigInt): Boolean = p > 3 && { val q = p - 1; (q & (q - 1)) == 0 }
  def solinasHalf(p: BigInt): Option[Int] = {
    val h = p.bitLength / 2
    if (h >= 2 && p == (BigInt(1) << 2 * h) - (BigInt(1) << h) + 1) Some(h) else None
  }
  def defaultReducer(p: BigInt): ReducerKind =
    if (fermatForm(p)) ReducerKind.Fermat else if (solinasHalf(p).isDefined) ReducerKind.Solinas else ReducerKind.Dhem

  /** The largest b with (k/2)(2^b - 1)^2 < p (0 when none). */
  def maxExactB(p: BigInt, k: Int): Int = {
    var b = 0
    while (BigInt(k / 2) * ((BigInt(1) << (b + 1)) - 1).pow(2) < p) b += 1
    b
  }

  /** Prime factors of n (trial division, then Pollard's rho): enough for the 33-65-bit p and p - 1 here. */
  def primeFactors(n0: BigInt): Set[BigInt] = {
    var n = n0
    var out = Set[BigInt]()
    var f = BigInt(2)
    while (f < 10000 && f * f <= n) { if (n % f == 0) { out += f; while (n % f == 0) n /= f }; f += 1 }
    def rho(n: BigInt): BigInt = {
      var c = BigInt(1)
      while (true) {
        var x, y = two; var g = BigInt(1)
        while (g == 1) { x = (x * x + c) mod n; y = (y * y + c) mod n; y = (y * y + c) mod n; g = (x - y).abs.gcd(n) }
        if (g != n) return g
        c += 1
      }
      n
    }
    def split(n: BigInt): Unit = if (n > 1) {
      if (n.isProbablePrime(64)) out += n else { val g = rho(n); split(g); split(n / g) }
    }
    split(n)
    out
  }

  def multiplicativeOrder(w: BigInt, p: BigInt): BigInt = {
    if (w.gcd(p) != 1) return 0
    var o = BigInt(1); var x = w mod p
    // Only called on a refusal, for the message: p is at most 65 bits, so use the group order when p is prime.
    if (p.isProbablePrime(64)) {
      var order = p - 1
      for (q <- primeFactors(p - 1)) while (order % q == 0 && w.modPow(order / q, p) == 1) order /= q
      return order
    }
    while (x != 1 && o < 1000000) { x = x * w mod p; o += 1 }
    if (x == 1) o else -1
  }

  /** A principal k-th root for prime p: g^((p-1)/k) for the smallest generator g, else None. */
  def suggestedRoot(p: BigInt, k: Int): Option[BigInt] =
    if (!p.isProbablePrime(64) || (p - 1) % k != 0) None
    else {
      val qs = primeFactors(p - 1)
      Iterator.from(2).map(BigInt(_)).find(g => qs.forall(q => g.modPow((p - 1) / q, p) != 1)).map(g => g.modPow((p - 1) / k, p))
    }

  /** A number as Python's {:g} prints it (256, not 256.0). */
  private def num(x: Double): String = if (x == math.rint(x)) x.toLong.toString else f"$x%.6g"

  /** The checks of verif/intfft/params.py (check_group), same order, same messages. */
  def check(g: IntFftParams): IntFftParams = {
    import g._
    val where = s"FFT group '$name' (p = 0x${p.toString(16)}, k = $k, omega = 0x${omega.toString(16)}, b = $b, d = $d)"
    def refuse(msg: String) = throw new PreconditionError(s"$where: $msg")
    if (p < 3 || p % 2 == 0) refuse("p must be odd and >= 3 (k must be invertible mod p)")
    if (k < 2 || !isPow2(k)) refuse(s"k = $k is not a power of two >= 2; the radix-2 network needs k = 2^n")
    if (b < 1) refuse(s"the digit width b = $b must be >= 1")
    if (d < 1 || (k.toLong * b / 2) % d != 0 || (k.toLong * b) % 2 != 0)
      refuse(s"the bus width d = $d must divide the block width kb/2 = ${num(k * b / 2.0)}; the paper uses d = kb/16 = ${num(k * b / 16.0)}")
    if (d % b != 0 || !isPow2(d / b))
      refuse(s"d/b = ${num(d.toDouble / b)} is not a power of two; the two-by-two adder tree of addition recovery sums d/b coefficients per word: choose d = b * 2^j")
    for (q <- primeFactors(p).toSeq.sorted if (q - 1) % k != 0)
      refuse(s"k = $k does not divide q - 1 for the prime factor q = $q of p: no k-point transform exists modulo p; use a smaller k or another p")
    if (omega.modPow(BigInt(k), p) != 1 || (omega.modPow(BigInt(k / 2), p) - 1).gcd(p) != 1) {
      val fix = suggestedRoot(p, k).map(r => s"use omega = 0x${r.toString(16)}").getOrElse("use an omega with omega^k = 1 and omega^(k/2) - 1 a unit mod p")
      refuse(s"omega = $omega is not a principal $k-th root of unity modulo p (its order is ${multiplicativeOrder(omega, p)}, not k = $k); $fix")
    }
    val bound = BigInt(k / 2) * ((BigInt(1) << b) - 1).pow(2)
    if (bound >= p)
      refuse(s"the exactness bound (k/2)(2^b - 1)^2 = $bound >= p fails: the convolution sums would wrap modulo p; use b <= ${maxExactB(p, k)} (or a larger p)")
    if (reducer == ReducerKind.Fermat && (!fermatForm(p) || omega.bitCount != 1))
      refuse("the fermat reducer needs p = 2^(m-1) + 1 and omega a power of two (shift-only twiddles); use reducer 'dhem'")
    if (reducer == ReducerKind.Solinas && solinasHalf(p).isEmpty)
      refuse("the solinas reducer needs p = 2^(2h) - 2^h + 1; use reducer 'dhem'")
    if (reducer == ReducerKind.Dhem && (p.bitLength < 4))
      refuse("Dhem Barrett with beta = -4 needs p of at least 4 bits (x >> (m-4)); use a larger p")
    g
  }

  /** A checked group; d defaults to kb/16 (8 words per block), the reducer to the form of p. */
  def make(p: BigInt, k: Int, omega: BigInt, b: Int, d: Option[Int] = None, reducer: Option[ReducerKind] = None,
           name: Option[String] = None): IntFftParams = {
    val dd = d.getOrElse {
      if ((k * b) % 16 != 0) throw new PreconditionError(s"FFT group p = 0x${p.toString(16)}, k = $k, b = $b: kb = ${k * b} is not a multiple of 16, " +
        "so the paper's d = kb/16 is not a whole number of bits; pass d explicitly")
      k * b / 16
    }
    check(IntFftParams(name.getOrElse(s"p0x${p.toString(16)}_k${k}_b$b"), p, k, omega, b, dd, reducer.getOrElse(defaultReducer(p))))
  }

  val pF32: BigInt = (BigInt(1) << 32) + 1
  val pG32: BigInt = (BigInt(1) << 32) - (BigInt(1) << 20) + 1
  val pF64: BigInt = (BigInt(1) << 64) + 1
  val pS64: BigInt = (BigInt(1) << 64) - (BigInt(1) << 32) + 1

  /** The four Table 3 groups with the notes' corrected roots (section 2.3; the printed 7 and 17 are
    * not k-th roots, erratum 3), in Table 4 order (the order of the paper's d = 32, 48, 192, 224). */
  lazy val groups: Seq[IntFftParams] = Seq(
    make(pF32, 64, 2, 8, name = Some("fermat32")),
    make(pG32, 64, BigInt("ca125983", 16), 12, name = Some("general32")),
    make(pF64, 128, 2, 24, name = Some("fermat64")),
    make(pS64, 128, BigInt("f80007ff08000001", 16), 28, name = Some("solinas64"))
  )
  def group(name: String): Option[IntFftParams] = groups.find(_.name == name)
}
