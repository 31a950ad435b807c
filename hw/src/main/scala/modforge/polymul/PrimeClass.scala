package modforge.polymul

/** The class a streaming engine draws its limb primes from (`_c<class>`; docs/polymul.md, "Prime classes").
  *
  * The classes are those the reduction family is built for (reports/polymul_primes.md counts them per
  * width and n), at h = floor(w/2) high bits, the h of K²RED and Montgomery-Shift (the NTT-reduction
  * paper, Section 2: q = q_h 2^(w-h) + 1):
  *  - `any`: every w-bit prime = 1 mod 2n (the default, the largest of the width);
  *  - `proth`: q = q_h 2^(w-h) + 1, q_h of h bits;
  *  - `proth2l`: q = 2^(w-1) + (2^l1 - 2^l2) 2^(w-h) + 1, 0 <= l2 <= l1 < h - 1 (Proth-2l);
  *  - `proth3l`: q = 2^(w-1) + (2^l1 - 2^l2 + 2^l3) 2^(w-h) + 1, l3 < h - 1 as well (Proth-3l).
  * The l forms are the prime toolkit's (verif/primetools/proth.py, `proth_l_primes`).
  *
  * Why a class is a lever here: the engine's multipliers (Shoup, BarrettOpt) take q as a constant,
  * so synthesis folds the product by q; a class of few set bits (a Proth-l prime has at most four
  * signed digits) leaves fewer partial products. `make dse-polymul` measures what that is worth.
  */
sealed abstract class PrimeClass(val name: String) {
  /** The class's values of exactly w bits that are = 1 mod 2n, the largest first, not yet tested for
    * primality: the candidates [[StreamPrimes]] tests. */
  def candidates(n: Int, w: Int): Iterator[BigInt]
  /** " of class <name>" for the messages that count primes; empty for class any, the default. */
  def ofClass: String = if (this == PrimeClass.AnyPrime) "" else s" of class $name"
}

/** A class given by a form: its w-bit values, the largest first, of which those = 1 mod 2n are candidates. */
sealed abstract class FormClass(name: String) extends PrimeClass(name) {
  def values(w: Int): Iterator[BigInt]
  def candidates(n: Int, w: Int): Iterator[BigInt] = values(w).filter(_ % (2 * n) == 1)
}

object PrimeClass {
  def high(w: Int): Int = w / 2

  case object AnyPrime extends PrimeClass("any") {
    /** Straight down the values = 1 mod 2n (every 2n-th integer), not through all of them. */
    def candidates(n: Int, w: Int): Iterator[BigInt] = {
      val step = BigInt(2 * n)
      val top = ((BigInt(1) << w) - 1) / step * step + 1 // the largest 1 mod 2n below 2^w
      Iterator.iterate(top)(_ - step).takeWhile(_ > (BigInt(1) << (w - 1)))
    }
  }
  case object Proth extends FormClass("proth") {
    def values(w: Int): Iterator[BigInt] = {
      val h = high(w)
      Iterator.iterate((BigInt(1) << h) - 1)(_ - 1).takeWhile(_ >= (BigInt(1) << (h - 1))).map(qh => (qh << (w - h)) + 1)
    }
  }
  /** q = 2^(w-1) + d 2^(w-h) + 1 for the d of the Proth-l form (the toolkit's loops, _proth_l_primes). */
  sealed abstract class ProthL(name: String, three: Boolean) extends FormClass(name) {
    def ds(h: Int): Seq[BigInt] = {
      val top = h - 1
      val d2 = for (l1 <- 0 until top; l2 <- 0 to l1) yield (BigInt(1) << l1) - (BigInt(1) << l2)
      (if (three) for (d <- d2; l3 <- 0 until top) yield d + (BigInt(1) << l3) else d2).distinct
    }
    def values(w: Int): Iterator[BigInt] = {
      val h = high(w)
      ds(h).map(d => (BigInt(1) << (w - 1)) + (d << (w - h)) + 1).sorted(Ordering[BigInt].reverse).iterator
    }
  }
  case object Proth2l extends ProthL("proth2l", false)
  case object Proth3l extends ProthL("proth3l", true)

  val all: Seq[PrimeClass] = Seq(AnyPrime, Proth, Proth2l, Proth3l)
  def parse(s: String): Option[PrimeClass] = all.find(_.name == s)
}
