package modforge
package modmul

import org.scalatest.funsuite.AnyFunSuite

/** 2000 operations each (Verilator): GShoup at k = 32 in make test; every family at k = 32 and 256 in
  * make test-long (MODFORGE_SIM_WIDTHS=32,256: the 256-bit Verilator builds took about a minute of
  * make test). Barrett and Shoup at 32 went to test-long on 2026-11-29 (67 s of a cold make test,
  * docs/testing.md "Tiers"): make test checks all three at 32 and 64 bits under cocotb (test_rtl.py). */
class ModMulSimSpec extends AnyFunSuite {
  val ops = sys.env.get("MODFORGE_SIM_OPS").map(_.toInt).getOrElse(2000)
  val widths = sys.env.get("MODFORGE_SIM_WIDTHS").map(_.split(",").toSeq.map(_.trim.toInt)).getOrElse(Seq(32))
  val (quick, rest) = Designs.families.partition(_ == GShoupFamily)
  for (f <- TestTier.pick(quick, rest); k <- widths) {
    test(s"${f.name}_$k: $ops random operations against a*b % m") {
      ModMulSim.run(Design(f, k), ops)
    }
  }
}

/** The registry's names, ranges and errors. */
class DesignsSpec extends AnyFunSuite {
  test("table designs parse back to themselves") {
    for (d <- Designs.table) assert(Designs.parse(d.name) == Right(d))
    assert(Designs.table.size == 12)
  }
  test("unknown names and widths out of range list the valid choices") {
    for (bad <- Seq("montgomery_32", "gshoup_15", "gshoup_513", "gshoup", "GSHOUP_32")) {
      val err = Designs.parse(bad)
      assert(err.isLeft && err.left.toOption.get.contains("valid designs"), s"$bad: $err")
    }
  }
  test("bare products go down to 8 bits, the modular multipliers stay at 16 (make test's layout design is mul_8)") {
    assert(modforge.Registry.parse("mul_8").map(_.name) == Right("mul_8"))
    for (bad <- Seq("mul_7", "mul_513", "barrett_8", "gshoup_8")) assert(modforge.Registry.parse(bad).isLeft, bad)
    assert(modforge.Registry.parse("mul_7").left.toOption.get.contains("out of range 8..512"))
  }
  test("precomputation rejects broken preconditions") {
    intercept[PreconditionError](Barrett.inputs(32, 1, 2, BigInt(1) << 20))
    intercept[PreconditionError](GShoupFamily.inputs(32, 1, 2, BigInt(1) << 31))
    intercept[PreconditionError](ShoupFamily.inputs(32, 7, 2, 7))
  }
}
