package modforge.arith

import spinal.core._
import scala.collection.mutable.ArrayBuffer

/** Two-operand adders built as parallel-prefix carry networks (generate/propagate pairs,
  * (g, p) o (g', p') = (g | p g', p p')). The networks are [[Adders.prefix]], written once over
  * any associative operator so that their structure is checked in plain Scala.
  *
  * Structures for n positions (L = ceil(log2 n)):
  *  - Ripple: n - 1 serial nodes, depth n - 1.
  *  - Brent-Kung: up-sweep and down-sweep trees, depth 2L - 1, fewer than 2n nodes, fan-out 2.
  *  - Kogge-Stone: every position at every level (distance 1, 2, 4, ...), depth L, fan-out 2.
  *  - Sklansky: divide and conquer, depth L, n/2 nodes per level, fan-out up to n/2.
  *  - Han-Carlson: Kogge-Stone on the odd positions, one more level for the even ones: depth L + 1.
  */
object Adders {

  /** Inclusive prefixes ys(i) = xs(i) o xs(i-1) o ... o xs(0) through the network of `kind`;
    * `op(hi, lo)` combines the higher range with the adjacent lower one (associative).
    */
  def prefix[T](xs: IndexedSeq[T], kind: PrefixAdder)(op: (T, T) => T): IndexedSeq[T] = {
    val n = xs.size
    val y = ArrayBuffer(xs: _*)
    def node(i: Int, j: Int): Unit = y(i) = op(y(i), y(j))
    // Within a level every node reads a position the level does not write (checked by the
    // descending loops / disjoint index classes), so a level is one rank of parallel nodes.
    def pow2s(limit: Int): Seq[Int] = Iterator.iterate(1)(_ * 2).takeWhile(_ < limit).toSeq
    kind match {
      case PrefixAdder.Ripple =>
        for (i <- 1 until n) node(i, i - 1)
      case PrefixAdder.KoggeStone =>
        for (d <- pow2s(n); i <- (n - 1) to d by -1) node(i, i - d)
      case PrefixAdder.Sklansky =>
        for (d <- pow2s(n); i <- 0 until n if (i / d) % 2 == 1) node(i, (i / d) * d - 1)
      case PrefixAdder.BrentKung =>
        val ds = pow2s(n)
        for (d <- ds; i <- (2 * d - 1) until n by 2 * d) node(i, i - d)
        for (d <- ds.reverse; i <- (3 * d - 1) until n by 2 * d) node(i, i - d)
      case PrefixAdder.HanCarlson =>
        for (i <- 1 until n by 2) node(i, i - 1)
        for (d <- pow2s(n).drop(1); i <- (n - 1) to (d + 1) by -1 if i % 2 == 1) node(i, i - d)
        for (i <- 2 until n by 2) node(i, i - 1)
    }
    y.toIndexedSeq
  }

  private def gp(hi: (Bool, Bool), lo: (Bool, Bool)): (Bool, Bool) = (hi._1 | (hi._2 & lo._1), hi._2 & lo._2)

  /** a + b in n + 1 bits, n = the wider operand's width (the other is zero-extended). */
  def add(a: UInt, b: UInt, kind: PrefixAdder): UInt = build(a, b, kind, carryOut = true)

  /** (a + b) mod 2^n in n bits, n = the wider operand's width: no carry out is built. */
  def addMod(a: UInt, b: UInt, kind: PrefixAdder): UInt = build(a, b, kind, carryOut = false)

  private def build(a: UInt, b: UInt, kind: PrefixAdder, carryOut: Boolean): UInt = {
    val n = a.getWidth max b.getWidth
    require(n >= 1, "Adders: operands of width 0")
    val (x, y) = (a.resize(n bits), b.resize(n bits))
    val g = (0 until n).map(i => x(i) & y(i))
    val p = (0 until n).map(i => x(i) ^ y(i))
    // Carries c(i) out of position i: the generate of the prefix i..0. Position n-1's only when
    // the carry out is wanted.
    val m = if (carryOut) n else n - 1
    val c = prefix((0 until m).map(i => (g(i), p(i))), kind)(gp).map(_._1)
    val bits = (0 until n).map(i => if (i == 0) p(0) else p(i) ^ c(i - 1)) ++ (if (carryOut) Seq(c(n - 1)) else Nil)
    Cat(bits).asUInt // Cat of a Seq: the first element is the LSB
  }
}
