package modforge.polymul

import modforge.{ModMulSim, ModforgeSpinal}
import org.scalatest.funsuite.AnyFunSuite
import spinal.core._
import spinal.core.sim._

import java.io.File
import scala.util.Random

/** [[ModAddSub]]'s add and sub, combinational, for a constant q or one on a port. */
class ModAddSubTop(w: Int, q: Option[BigInt]) extends Component {
  val io = new Bundle {
    val a, b = in UInt (w bits)
    val qIn = in UInt (w bits)
    val sum, diff = out UInt (w bits)
  }
  val arith = q.map(ModAddSub(w, _)).getOrElse(new ModAddSub(w, () => io.qIn))
  io.sum := arith.add(io.a, io.b)
  io.diff := arith.sub(io.a, io.b)
}

/** [[ModAddSub]] against BigInt arithmetic, (a + b) mod q and (a - b) mod q: every pair a, b < q for every
  * q from 2 to 2^w - 1 at w = 5 (q on the port, so one build covers them), and at w = 25 and 32 the largest primes of
  * the engines' classes and 2^w - 1 as constants and on the port, with the edge operands (0, 1, q - 2, q - 1, q / 2)
  * paired with each other and with random ones (make test-long). One Verilator build a case, five in all.
  */
class ModAddSubSpec extends AnyFunSuite {
  private def build(w: Int, q: Option[BigInt], name: String) =
    SimConfig
      .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
      .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
      .workspaceName(name)
      .compile(new ModAddSubTop(w, q))

  private def check(dut: ModAddSubTop, q: BigInt, a: BigInt, b: BigInt): Unit = {
    dut.io.qIn #= q; dut.io.a #= a; dut.io.b #= b
    sleep(1)
    assert(dut.io.sum.toBigInt == (a + b).mod(q), s"q = $q: $a + $b")
    assert(dut.io.diff.toBigInt == (a - b).mod(q), s"q = $q: $a - $b")
  }

  test("w = 5: every q from 2 to 31 on the port, every a, b < q") {
    build(5, None, "mod_add_sub_5").doSim { dut =>
      for (q <- 2 until 32; a <- 0 until q; b <- 0 until q) check(dut, q, a, b)
    }
  }

  // make test: the exhaustive w = 5 build; make test-long (TestTier) adds the engines' widths
  for (w <- modforge.TestTier.pick(Nil, Seq(25, 32))) {
    test(s"w = $w: primes and 2^w - 1, as constants and on the port, edge and random operands") {
      val qs = Seq(StreamPrimes.select(16384, w - 1, w).head, StreamPrimes.select(1024, w - 1, w).last, (BigInt(1) << w) - 1)
      val rnd = new Random(w)
      def operands(q: BigInt) = {
        val edges = Seq(BigInt(0), BigInt(1), q - 2, q - 1, q / 2)
        edges.flatMap(a => edges.map(b => (a, b))) ++
          Seq.fill(2000)((BigInt(w, rnd).mod(q), BigInt(w, rnd).mod(q))) ++
          edges.flatMap(a => Seq.fill(20)((a, BigInt(w, rnd).mod(q))).flatMap { case (x, y) => Seq((x, y), (y, x)) })
      }
      build(w, None, s"mod_add_sub_${w}_port").doSim { dut =>
        for (q <- qs; (a, b) <- operands(q)) check(dut, q, a, b)
      }
      build(w, Some(qs.head), s"mod_add_sub_${w}_const").doSim { dut =>
        for ((a, b) <- operands(qs.head)) check(dut, qs.head, a, b)
      }
    }
  }
}
