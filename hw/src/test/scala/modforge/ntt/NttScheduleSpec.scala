package modforge.ntt

import org.scalatest.funsuite.AnyFunSuite

/** The bank schedule, exhaustively: every butterfly of every stage exactly once, the 2P accesses
  * of each cycle in 2P different banks, twiddle index m + g as in SEAL's loops.
  */
class NttScheduleSpec extends AnyFunSuite {
  for (p <- Seq(1, 2, 4); logN <- 2 to 10 if (1 << logN) >= 4 * p) {
    val n = 1 << logN
    test(s"N = $n, P = $p: stages and pointwise products cover everything once, without bank conflicts") {
      val s = NttSchedule(logN, p)
      for (b <- 0 until logN) {
        val t = 1 << b // SEAL: t = N / 2m, pairs (j, j + t) with j in group g = j / 2t, twiddle index m + g
        val seen = scala.collection.mutable.Set[Int]()
        for (c <- 0 until s.cyclesPerStage) {
          val pairs = (0 until p).map(u => s.pair(b, c, u))
          val touched = pairs.flatMap { case (x, y) => Seq(x, y) }
          assert(touched.map(s.bank).distinct.size == 2 * p, s"stage b=$b cycle $c: bank conflict in $touched")
          for ((x, y) <- pairs) {
            assert((x & t) == 0 && y == x + t, s"($x, $y) is not a pair at distance $t")
            assert(s.twiddleIndex(b, x) == n / (2 * t) + x / (2 * t))
            assert(seen.add(x), s"stage b=$b: pair at $x twice")
          }
        }
        assert(seen.size == n / 2)
      }
      val pw = for (c <- 0 until s.cyclesPerPwMul) yield (0 until p).map(u => s.pwIndex(c, u))
      assert(pw.forall(is => is.map(s.bank).distinct.size == p))
      assert(pw.flatten.sorted == (0 until n))
      assert((0 until n).map(i => (s.bank(i), s.addr(i))).distinct.size == n, "storage map is not one-to-one")
    }
  }
}
