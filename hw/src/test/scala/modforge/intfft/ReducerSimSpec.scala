package modforge.intfft

import modforge.{ModMulSim, ModforgeSpinal, TestTier}
import spinal.core._
import spinal.core.sim._
import org.scalatest.funsuite.AnyFunSuite

import java.io.File
import scala.util.Random

/** The three reducers at the paper's widths (Verilator), one input a cycle, against BigInt x mod p,
  * each result exactly `latency` cycles later: the range ends, the inputs that reach each
  * correction (Solinas: r < 0 needs the +p path, r >= p the -p path; notes erratum 5), then random
  * inputs over the reducer's input range. MODFORGE_SIM_OPS sets the random count (default 2000).
  */
class ReducerSimSpec extends AnyFunSuite {
  val ops = sys.env.get("MODFORGE_SIM_OPS").map(_.toInt).getOrElse(2000)

  /** r of the Solinas fold, from its definition (2^(3h) = -1, 2^(2h) = 2^h - 1), to count the corrections. */
  def solinasR(x: BigInt, h: Int): BigInt = {
    val mask = (BigInt(1) << h) - 1
    val (d, c, b, a) = (x & mask, (x >> h) & mask, (x >> 2 * h) & mask, x >> 3 * h)
    ((b + c) << h) - a - b + d
  }

  // make test: the general reducer (FermatTwiddleSimSpec and the intfft benches run the Fermat arithmetic, and
  // make test's intfft cocotb benches the Solinas one, intfft_solinas64_folded_p4); test-long (TestTier) adds the
  // Solinas reducer and both Fermat primes
  // (since 2026-11-29 all in test-long: make test's cocotb block multipliers reduce with the Fermat and Solinas ones)
  for (name <- TestTier.pick(Nil, Seq("general32", "solinas64", "fermat32", "fermat64"))) {
    val g = IntFftParams.group(name).get
    test(s"${g.reducer.name} reducer of $name: edge and $ops random inputs against x mod p") {
      val p = g.p
      val inMax = if (g.reducer == ReducerKind.Fermat) p * p else BigInt(1) << (2 * g.m)
      val rnd = new Random(g.m)
      val edges = Seq(BigInt(0), BigInt(1), p - 1, p, p + 1, (p - 1) * (p - 1), inMax - 1, inMax - p, 2 * p - 1) ++
        (if (g.reducer == ReducerKind.Solinas) {
          val h = g.m / 2
          // 5 * 2^(3h): r = -5 (the printed range misses it); a = b = mask, c = d = 0: r = -2^h + 1 ... both ends.
          Seq(BigInt(5) << (3 * h), ((BigInt(1) << h) - 1) << (3 * h), (((BigInt(1) << h) - 1) << (3 * h)) | (((BigInt(1) << h) - 1) << (2 * h)),
            ((BigInt(1) << (2 * h)) - 1) << (2 * h), (BigInt(1) << (4 * h)) - (BigInt(1) << (2 * h)))
        } else Nil) ++
        (if (g.reducer == ReducerKind.Fermat) Seq(p << (g.m - 2), (p - 1) << (g.m - 2), BigInt(1) << (2 * g.m - 2)) else Nil)
      val randoms = Seq.fill(ops) {
        rnd.nextInt(4) match {
          case 0 => BigInt(2 * g.m, rnd) % inMax
          case 1 => (BigInt(g.m, rnd) % p) * (BigInt(g.m, rnd) % p) // a product of residues
          case 2 => (BigInt(g.m, rnd) % p) << rnd.nextInt(g.m - 1)  // a shifted twiddle product
          case _ => // word-structured: random h-bit words, some all-zero or all-one
            val h = g.m / 2
            (0 until 4).map(i => (rnd.nextInt(3) match { case 0 => BigInt(0); case 1 => (BigInt(1) << h) - 1; case _ => BigInt(h, rnd) }) << (i * h)).sum % inMax
        }
      }
      val inputs = (edges ++ randoms).filter(x => x >= 0 && x < inMax)
      if (g.reducer == ReducerKind.Solinas) {
        val rs = inputs.map(solinasR(_, g.m / 2))
        assert(rs.exists(_ < 0) && rs.exists(_ >= p), "the inputs must reach both corrections")
      }
      val sim = SimConfig
        .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
        .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
        .workspaceName(s"intfft_reducer_$name")
        .compile(Reducer(g))
      sim.doSim(seed = 3) { dut =>
        dut.clockDomain.forkStimulus(10)
        val lat = dut.latency
        // x driven before sampling edge i leaves after edge i + lat - 1.
        for ((x, i) <- (inputs ++ Seq.fill(lat)(BigInt(0))).zipWithIndex) {
          dut.io.x #= x
          dut.clockDomain.waitSampling()
          if (i >= lat - 1 && i - lat + 1 < inputs.length) {
            sleep(1)
            val xin = inputs(i - lat + 1)
            assert(dut.io.y.toBigInt == xin % p, s"$name: x = $xin: got ${dut.io.y.toBigInt}, expected ${xin % p}")
          }
        }
      }
    }
  }
}
