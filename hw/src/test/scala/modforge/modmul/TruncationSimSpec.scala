package modforge
package modmul

import org.scalatest.funsuite.AnyFunSuite

/** Truncated quotient products (docs/modmul.md, "Truncated quotient products"): each family at k = 32 at
  * a truncation that needs extra corrections and wider t, 2000 random operations each against
  * BigInt a*b % m (Verilator). Not registry designs: the configurations are built here. (The
  * truncations that keep the corrections, Barrett 27, Shoup 26, GShoup (24, 25), differ only in
  * c; the golden-model tests cover every c exhaustively at small k.)
  */
class TruncationSimSpec extends AnyFunSuite {
  val ops = sys.env.get("MODFORGE_SIM_OPS").map(_.toInt).getOrElse(2000)
  val k = 32
  // test-long only (TestTier; since 2026-11-29: the GShoup one was a 1.2 min build of a cold make test); make test
  // checks the truncations' models and correction counts (verif/tests/test_truncation.py, and the test below)
  val variants: Seq[(Family, String, () => ModMulComponent, String)] = TestTier.pick(Nil, Seq(
    (GShoupFamily, s"gshoup_${k}_tr26_26", () => new GShoup(GShoupConfig(k, truncateR = 26, truncateQ = 26)), "1 + 2 corrections, core t in k+1 bits"),
    (Barrett, s"barrett_${k}_tr29", () => new BarrettOpt(BarrettOptConfig(k, truncate = 29)), "4 corrections, t in k+3 bits"),
    (ShoupFamily, s"shoup_${k}_tr28", () => new Shoup(ShoupConfig(k, truncate = 28)), "3 corrections")))
  for ((f, name, build, what) <- variants) {
    test(s"$name ($what): $ops random operations against a*b % m") {
      ModMulSim.run(Design(f, k), ops, variant = Some((name, build)))
    }
  }

  test("correction counts at k = 32 (Truncation, twin of verif/modmul/models.py)") {
    assert(BarrettOptConfig(k).corrections == 2 && BarrettOptConfig(k, truncate = 27).corrections == 2)
    assert(BarrettOptConfig(k, truncate = 28).corrections == 3 && BarrettOptConfig(k, truncate = 29).corrections == 4)
    assert(ShoupConfig(k).corrections == 1 && ShoupConfig(k, truncate = 26).corrections == 1)
    assert(ShoupConfig(k, truncate = 27).corrections == 2 && ShoupConfig(k, truncate = 28).corrections == 3)
    assert(GShoupConfig(k).corrections == ((1, 1)) && GShoupConfig(k, truncateR = 24, truncateQ = 25).corrections == ((1, 1)))
    assert(GShoupConfig(k, truncateR = 26, truncateQ = 26).corrections == ((1, 2)))
    intercept[IllegalArgumentException](BarrettOptConfig(k, truncate = k + 2))
    intercept[IllegalArgumentException](GShoupConfig(k, truncateR = k - 1))
  }
}
