package modforge.arith

import modforge.{ModMulSim, ModforgeSpinal}
import org.scalatest.funsuite.AnyFunSuite
import spinal.core._
import spinal.core.sim._

import java.io.File
import scala.util.Random

/** x * c and (x * c) mod 2^bits for fixed constants, one output each. */
class ConstMulDut(val w: Int, val consts: Seq[BigInt], val lowBits: Int) extends Component {
  val x = in(UInt(w bits))
  val full = consts.map(c => out(ConstMul.full(x, c)))
  val low = consts.map(c => out(ConstMul.low(x, c, lowBits)))
}

/** ConstMul against BigInt x * c: the NAF digits (plain Scala) and the shift-add hardware
  * (Verilator) for the integer-FFT constants, constants with runs of ones (negative digits), a
  * constant wider than the low result, 1 and a power of two.
  */
class ConstMulSpec extends AnyFunSuite {
  val consts = Seq(BigInt("fff00001", 16), BigInt("1001000ff0", 16), BigInt("ffffffff00000001", 16), BigInt(1),
    BigInt(1) << 20, BigInt("b7", 16), BigInt("5555", 16), BigInt("7fffffffff", 16))

  test("NAF: the digits sum to c, no two adjacent are non-zero, never more digits than ones") {
    val rnd = new Random(5)
    for (c <- consts ++ Seq.fill(2000)(BigInt(1 + rnd.nextInt(70), rnd))) {
      val d = ConstMul.naf(c)
      assert(d.map { case (i, s) => BigInt(s) << i }.sum == c, s"c = $c: $d")
      assert(d.sliding(2).forall { case Seq((i, _), (j, _)) => j >= i + 2; case _ => true }, s"c = $c: adjacent digits $d")
      assert(d.size <= c.bitCount, s"c = $c: ${d.size} digits, ${c.bitCount} ones")
    }
    assert(ConstMul.weight(BigInt("fff00001", 16)) == 3 && ConstMul.weight(BigInt("1001000ff0", 16)) == 4)
    assert(!ConstMul.sparse(BigInt("5555", 16)) && ConstMul.sparse(BigInt("1001000ff0", 16)) && !ConstMul.sparse(0))
  }

  test("shift-add hardware: x * c and (x * c) mod 2^45 for edge and random 40-bit x") {
    val w = 40
    val lowBits = 45
    val sim = SimConfig
      .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
      .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
      .workspaceName("arith_constmul")
      .compile(new ConstMulDut(w, consts, lowBits))
    val rnd = new Random(7)
    val max = (BigInt(1) << w) - 1
    val xs = Seq(BigInt(0), BigInt(1), max, max - 1, BigInt(1) << (w - 1)) ++ Seq.fill(2000)(BigInt(w, rnd))
    sim.doSim(seed = 3) { dut =>
      for (x <- xs) {
        dut.x #= x
        sleep(1)
        for ((c, i) <- consts.zipWithIndex) {
          assert(dut.full(i).toBigInt == x * c, s"x = $x, c = $c: full got ${dut.full(i).toBigInt}, want ${x * c}")
          val want = x * c % (BigInt(1) << lowBits)
          assert(dut.low(i).toBigInt == want, s"x = $x, c = $c: low got ${dut.low(i).toBigInt}, want $want")
        }
      }
    }
  }
}
