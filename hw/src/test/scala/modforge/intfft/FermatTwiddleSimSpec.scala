package modforge.intfft

import modforge.{ModMulSim, ModforgeSpinal, TestTier}
import spinal.core.sim._
import org.scalatest.funsuite.AnyFunSuite

import java.io.File
import scala.util.Random

/** The Fermat groups' twiddle product (FermatTwiddle, Verilator), one input a cycle, against BigInt
  * x * (-1)^neg 2^s mod p, each result exactly `latency` cycles later. Every twiddle code {neg, s}
  * (s < m - 1) meets the edge operands 0, 1, 2, 2^(n-1), 2^n - 1 and 2^n = p - 1 (the one x with
  * its top bit set, mapped to -1), and random residues. MODFORGE_SIM_OPS sets the random count
  * (default 2000).
  */
class FermatTwiddleSimSpec extends AnyFunSuite {
  val ops = sys.env.get("MODFORGE_SIM_OPS").map(_.toInt).getOrElse(2000)

  // test-long only (TestTier): fermat64 and fermat32; make test's cocotb block multipliers (fermat32) rotate with it
  for (name <- TestTier.pick(Nil, Seq("fermat64", "fermat32"))) {
    val g = IntFftParams.group(name).get
    test(s"twiddle rotation of $name: every {neg, s} on the edge operands, $ops random, against x tw mod p") {
      val p = g.p
      val n = g.m - 1
      val rnd = new Random(n)
      val codes = for (neg <- Seq(false, true); s <- 0 until n) yield (neg, s)
      val edges = Seq(BigInt(0), BigInt(1), BigInt(2), BigInt(1) << (n - 1), (BigInt(1) << n) - 1, p - 1)
      val inputs = (for ((neg, s) <- codes; x <- edges) yield (x, neg, s)) ++
        Seq.fill(ops)((BigInt(g.m, rnd) % p, rnd.nextBoolean(), rnd.nextInt(n)))
      def code(neg: Boolean, s: Int): BigInt = (if (neg) BigInt(1) << g.shiftBits else BigInt(0)) | s
      def expected(x: BigInt, neg: Boolean, s: Int): BigInt = {
        val v = x * (BigInt(1) << s) % p
        if (neg) (p - v) % p else v
      }
      // The codes are the generator's: twiddleCode of (-1)^neg 2^s is {neg, s}.
      for ((neg, s) <- codes) {
        val v = if (neg) p - (BigInt(1) << s) else BigInt(1) << s
        assert(g.twiddleCode(v) == code(neg, s), s"twiddleCode($v)")
      }
      val sim = SimConfig
        .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
        .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
        .workspaceName(s"intfft_twiddle_$name")
        .compile(new FermatTwiddle(g))
      sim.doSim(seed = 5) { dut =>
        dut.clockDomain.forkStimulus(10)
        val lat = dut.latency
        assert(lat == TwiddleMul.latency(g), "the rotation must keep the butterfly's latency")
        for (((x, neg, s), i) <- (inputs ++ Seq.fill(lat)((BigInt(0), false, 0))).zipWithIndex) {
          dut.io.x #= x
          dut.io.tw #= code(neg, s)
          dut.clockDomain.waitSampling()
          if (i >= lat - 1 && i - lat + 1 < inputs.length) {
            sleep(1)
            val (xi, ni, si) = inputs(i - lat + 1)
            val want = expected(xi, ni, si)
            assert(dut.io.y.toBigInt == want, s"$name: x = $xi, tw = ${if (ni) "-" else ""}2^$si: got ${dut.io.y.toBigInt}, expected $want")
          }
        }
      }
    }
  }
}
