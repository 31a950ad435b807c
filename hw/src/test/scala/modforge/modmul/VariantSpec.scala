package modforge
package modmul

import org.scalatest.funsuite.AnyFunSuite

/** Variants (`<base>__<tokens>`, Variant.scala): the grammar, its errors, and SpinalSim of
  * variants whose pipeline registers sit inside explicit products (`mid*`), at k = 32 against
  * BigInt a*b % m (ModMulSim: every result exactly `latency` cycles after its operation).
  */
class VariantSpec extends AnyFunSuite {
  val ops = sys.env.get("MODFORGE_SIM_OPS").map(_.toInt).getOrElse(1500)

  test("names round-trip and carry their latency") {
    for ((n, lat) <- Seq("barrett_32__p111100010_drc" -> 5, "barrett_32__p111111110_mbdks" -> 8, "shoup_64__p111111_mbdbk" -> 6,
      "gshoup_32__p1111111111_mbdks" -> 10, "gshoup_32__t24q25" -> 6, "mont_32__mbdks_drc" -> 4, "barrett_32__d5000_drc" -> 4)) {
      val d = Registry.parse(n).fold(e => fail(e), identity)
      assert(d.name == n)
      // Into build/ (ModMulSim.buildDir, wherever the test runs from), not the working directory:
      // the Verilog is a by-product of reading the latency.
      val dir = new java.io.File(ModMulSim.buildDir, "variant_spec").getPath
      assert(spinal.core.SpinalConfig(targetDirectory = dir).generateVerilog(d.build()).toplevel.latency == lat, n)
    }
  }

  test("bad variants are refused with the reason") {
    def err(n: String) = Registry.parse(n).left.getOrElse(fail(s"$n was accepted"))
    assert(err("barrett_32__zz").contains("unknown token 'zz'"))
    assert(err("barrett_32__p1111000000000").contains("has 9"))
    assert(err("barrett_32__p111101").contains("explicit multiplier architecture"))
    assert(err("gshoup_32__t24").contains("t<cR>q<cQ>"))
    assert(err("barrett_32__t24q3").contains("gshoup's"))
    assert(err("mont_32__p11").contains("barrett, shoup and gshoup only"))
    assert(err("barrett_32__mzzzz").contains("grammar"))
    assert(err("barrett_32__drc_drc").contains("repeats"))
    assert(err("barrett_32__").contains("no token"))
    assert(err("barrett_32__t40").contains("truncate"))
  }

  // make test: one (each is a Verilator build; the GShoup one took 53 s, docs/testing.md "Tiers"); make
  // test-long (MODFORGE_SIM_OPS set): all four. The `_fast` configurations also run the cocotb bench at RTL
  // (32 bits) in make test, shoup_32_fast at gate level.
  // (since 2026-11-29 all four in test-long: the one in make test was a 1.9 min build of a cold make test; make
  // test's cocotb benches run the _fast configurations, variants of the same generator, at 32 bits)
  for ((f, n) <- (if (TestTier.long) Seq(Barrett -> "barrett_32__p111111110_mbdks") else Nil) ++
    (if (TestTier.long) Seq(GShoupFamily -> "gshoup_32__p1111111111_mbdhc", ShoupFamily -> "shoup_32__p111111_madbk",
      Barrett -> "barrett_32__p111100100_t27_mbwsk") else Nil)) {
    test(s"$n: $ops random operations against a*b % m") {
      val d = Registry.parse(n).fold(e => fail(e), identity)
      // Verilator escapes "__" in names (its make file would be V<name with ___05F>.mk): simulate as "_v_"
      ModMulSim.run(Design(f, 32), ops, variant = Some((n.replace("__", "_v_"), () => d.build())))
    }
  }
}
