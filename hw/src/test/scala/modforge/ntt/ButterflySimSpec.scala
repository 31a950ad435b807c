package modforge.ntt

import modforge.{ModMulSim, ModforgeSpinal, Precompute}
import spinal.core._
import spinal.core.sim._

import java.io.File
import org.scalatest.funsuite.AnyFunSuite
import scala.util.Random

/** One butterfly unit per arrangement (Verilator): CT, GS and PW operations in a random mix,
  * back to back, checked against BigInt arithmetic mod q exactly `latency` cycles later.
  */
class ButterflySimSpec extends AnyFunSuite {
  val ops = sys.env.get("MODFORGE_SIM_OPS").map(_.toInt).getOrElse(2000)

  for (mul <- MulArrangement.all; k <- Seq(32, 128)) {
    test(s"butterfly ${mul.name} k=$k: $ops CT/GS/PW operations against BigInt mod q") {
      val sim = SimConfig
        .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
        .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
        .workspaceName(s"butterfly_${mul.name}_$k")
        .compile(new Butterfly(k, mul))
      sim.doSim(seed = 7) { dut =>
        val rnd = new Random(k)
        // NTT-friendly primes near the top of the arrangement's range and far below it.
        val top = mul.qBound(k).bitLength - 1
        val qs = Seq(NttConfig.defaultQ(64, top + 1), NttConfig.defaultQ(8, top / 2 + 1), BigInt(97))
        val inv2 = qs.map(q => q -> BigInt(2).modInverse(q)).toMap
        val expected = scala.collection.mutable.Queue[(Long, BigInt, BigInt, String)]()
        var cycle = 0L
        var q = qs.head
        var driven: (BigInt, BigInt, String) = null // the operation on the inputs now
        def driveModulus(): Unit = {
          val m = dut.io.mod
          m.q #= q
          if (m.barrett_m != null) { val (mp, r, l) = Precompute.barrett(k, q); m.barrett_m #= mp; m.barrett_r #= r; m.barrett_l #= l }
          if (m.gshoup_m != null) { val (mp, g, l) = Precompute.gshoup(k, q); m.gshoup_m #= mp; m.gshoup_g #= g; m.gshoup_l #= l }
        }
        def companion(w: BigInt) = mul match {
          case MulArrangement.Barrett      => BigInt(rnd.nextInt(1 << 30)) // ignored: garbage
          case MulArrangement.ShoupBarrett => (w << k) / q
          case MulArrangement.GShoup       => (w << k) / Precompute.gshoup(k, q)._1
        }
        dut.clockDomain.onSamplings {
          cycle += 1
          if (dut.io.outValid.toBoolean) {
            assert(expected.nonEmpty, s"outValid with nothing in flight at cycle $cycle")
            val (due, x2, y2, what) = expected.dequeue()
            assert(cycle == due, s"$what: result at cycle $cycle, due at $due")
            assert(dut.io.x2.toBigInt == x2, s"$what: x2 = ${dut.io.x2.toBigInt}, expected $x2")
            if (y2 >= 0) assert(dut.io.y2.toBigInt == y2, s"$what: y2 = ${dut.io.y2.toBigInt}, expected $y2")
          }
          if (dut.io.inValid.toBoolean) expected.enqueue((cycle + dut.latency, driven._1, driven._2, driven._3))
        }
        dut.io.inValid #= false
        driveModulus()
        dut.clockDomain.forkStimulus(10)
        dut.clockDomain.assertReset(); dut.clockDomain.waitSampling(3); dut.clockDomain.deassertReset()
        for (i <- 0 until ops) {
          if (i % 500 == 0) { // a new modulus: let the pipeline empty first
            dut.io.inValid #= false; dut.clockDomain.waitSampling(dut.latency + 2)
            q = qs((i / 500) % qs.size); driveModulus()
          }
          def operand = rnd.nextInt(5) match {
            case 0 => Seq(BigInt(0), BigInt(1), q - 1, q / 2)(rnd.nextInt(4))
            case _ => BigInt(q.bitLength + 8, rnd) % q
          }
          val (x, y, w) = (operand, operand, operand)
          val op = rnd.nextInt(3)
          dut.io.x #= x; dut.io.y #= y; dut.io.w #= w; dut.io.wr #= companion(w)
          val (x2, y2, what) = op match {
            case 0 => dut.io.op #= BflyOp.ct; ((x + w * y) % q, ((x - w * y) % q + q) % q, s"CT($x, $y, $w) mod $q")
            case 1 => dut.io.op #= BflyOp.gs; ((x + y) * inv2(q) % q, ((x - y) * w % q + q) % q, s"GS($x, $y, $w) mod $q")
            case _ => dut.io.op #= BflyOp.pw; (x * y % q, BigInt(-1), s"PW($x, $y) mod $q")
          }
          dut.io.inValid #= true
          driven = (x2, y2, what)
          dut.clockDomain.waitSampling()
          if (rnd.nextInt(4) == 0) { dut.io.inValid #= false; dut.clockDomain.waitSampling() }
        }
        dut.io.inValid #= false
        dut.clockDomain.waitSampling(dut.latency + 2)
        assert(expected.isEmpty, s"${expected.size} results missing")
      }
    }
  }
}
