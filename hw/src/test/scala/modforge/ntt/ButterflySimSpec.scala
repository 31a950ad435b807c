package modforge.ntt

import modforge.TestTier
import modforge.modmul.Precompute
import modforge.{ModMulSim, ModforgeSpinal}
import modforge.TestTier
import modforge.modmul.Precompute
import spinal.core._
import spinal.core.sim._

import java.io.File
import org.scalatest.funsuite.AnyFunSuite
import scala.util.Random

/** One butterfly unit per arrangement (Verilator): CT, GS and PW operations in a random mix,
  * back to back, checked against BigInt arithmetic mod q exactly `latency` cycles later.
  * Reduction arrangements (k = 32 and 64): the twiddle goes in pre-scaled (W 2^x mod q) and CT/GS
  * must come out exact; PW gives X Y F and PWC X W F, F = 2^-x written out here per method
  * (2^-k for Montgomery and WLM-Mixed, 2^-2(k-h) for K2RED).
  */
class ButterflySimSpec extends AnyFunSuite {
  val ops = sys.env.get("MODFORGE_SIM_OPS").map(_.toInt).getOrElse(2000)

  // test-long only (TestTier; each case a Verilator build of 30-40 s, docs/testing.md "Tiers"): every arrangement at
  // 32, and 64 (reductions) or 128. make test runs every arrangement's butterfly inside its cocotb NTT tiles
  // (verif/tests/test_ntt_tile.py)
  for (mul <- MulArrangement.all; k <- TestTier.pick(Nil, Seq(32) ++ (if (mul.reduction(k = 32).isDefined) Seq(64) else Seq(128)))) {
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
        val red = mul match { case r: ReductionArrangement => Some(r); case _ => None }
        val qs = red match {
          case None => Seq(NttConfig.defaultQ(64, top + 1), NttConfig.defaultQ(8, top / 2 + 1), BigInt(97))
          case Some(MulArrangement.Mont) => Seq(NttConfig.defaultQ(64, k, mul), NttConfig.defaultQ(8, top / 2 + 1), BigInt(97))
          case Some(r) => // the largest Proth prime of the class and the smallest
            val w = k - r.h(k)
            Seq(NttConfig.defaultQ(64, k, mul), Iterator.from(1).map(qh => (BigInt(qh) << w) + 1).find(_.isProbablePrime(64)).get)
        }
        // F = 2^-x, from each method's definition; the twiddle input carries W / F = W 2^x.
        val fShift = red.map(r => if (r == MulArrangement.K2Red) 2 * (k - r.h(k)) else k).getOrElse(0)
        def f(q: BigInt) = BigInt(2).pow(fShift).modInverse(q)
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
          if (m.red_mp != null) m.red_mp #= (BigInt(1) << k) - q.modInverse(BigInt(1) << k) // q' = -q^-1 mod 2^k
          if (m.red_c != null) m.red_c #= BigInt(rnd.nextInt(1 << 30)) // PWMUL's C comes on w here: ignored
        }
        def companion(w: BigInt) = mul match {
          case MulArrangement.Barrett      => BigInt(rnd.nextInt(1 << 30)) // ignored: garbage
          case MulArrangement.ShoupBarrett => (w << k) / q
          case MulArrangement.GShoup       => (w << k) / Precompute.gshoup(k, q)._1
          case _                           => BigInt(rnd.nextInt(1 << 30)) // ignored: garbage
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
          val op = rnd.nextInt(if (red.isDefined) 4 else 3)
          val wIn = if (red.isDefined) w * BigInt(2).pow(fShift) % q else w // stored twiddle W / F
          dut.io.x #= x; dut.io.y #= y; dut.io.w #= wIn; dut.io.wr #= companion(w)
          val fq = if (red.isDefined) f(q) else BigInt(1)
          val (x2, y2, what) = op match {
            case 0 => dut.io.op #= BflyOp.ct; ((x + w * y) % q, ((x - w * y) % q + q) % q, s"CT($x, $y, $w) mod $q")
            case 1 => dut.io.op #= BflyOp.gs; ((x + y) * inv2(q) % q, ((x - y) * w % q + q) % q, s"GS($x, $y, $w) mod $q")
            case 2 => dut.io.op #= BflyOp.pw; (x * y % q * fq % q, BigInt(-1), s"PW($x, $y) mod $q")
            case _ => dut.io.op #= BflyOp.pwc; (x * wIn % q * fq % q, x * wIn % q * fq % q, s"PWC($x, $wIn) mod $q")
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
