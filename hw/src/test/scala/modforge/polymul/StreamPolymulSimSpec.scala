package modforge.polymul

import modforge.{ModMulSim, ModforgeSpinal}
import modforge.mem.SramSimModel
import spinal.core._
import spinal.core.sim._

import java.io.File
import org.scalatest.funsuite.AnyFunSuite
import scala.util.Random

/** The streaming engine's schedule and flow control (Verilator): products back to back at one per
  * n/P cycles with the manifest's latency, then random stalls on both streams and the drain after
  * the input runs dry; every product against a schoolbook negacyclic product mod each q_i here
  * (O(n^2), no NTT). The cocotb bench (verif/bench/polymul_stream_bench.py) covers edge polynomials,
  * reset in the middle and the host's CRT.
  */
class StreamPolymulSimSpec extends AnyFunSuite {
  def schoolbook(a: Seq[BigInt], b: Seq[BigInt], q: BigInt): Seq[BigInt] = Schoolbook.negacyclic(a, b, q)

  // The paper's multipliers: the fast ones' explicit product trees take Verilator minutes to compile,
  // and the schedule around them is the same code (the cocotb bench runs one engine with them).
  // MODFORGE_POLYMUL_LONG=1 (make test-long) only: two limbs at P = 4, 256-word delay lines in SKY130
  // macros (SkySramModel: a stale or racing read is poison), P = 1, P = n/2 and P = 2. make test runs
  // none since 2026-11-29 (the P = 4 build was 53 s of a cold make test, docs/testing.md "Tiers"): its
  // cocotb bench, test_polymul_stream.py, runs engines back to back with their latency, and with 30%
  // stalls on both streams, against the same kind of oracle.
  private val long = sys.env.get("MODFORGE_POLYMUL_LONG").contains("1")
  // MODFORGE_STREAM_SIM=<name>: that configuration only, in either tier (fault injection runs, docs/polymul.md).
  private val only = sys.env.get("MODFORGE_STREAM_SIM")
  for ((n, logq, p, w, mul) <- Seq((32, 40, 4, 21, StreamMul.Paper), (512, 20, 1, 21, StreamMul.Paper), (16, 20, 1, 21, StreamMul.Paper),
                                   (16, 20, 8, 21, StreamMul.Paper), (64, 30, 2, 31, StreamMul.Paper))
       if only.fold(long)(_ == StreamConfig(n, logq, p, w, mul).name)) {
    val c = StreamConfig(n, logq, p, w, mul)
    test(s"${c.name}: back to back at ${c.frame} cycles a product, latency ${c.latency}, then stalls and drain") {
      val sim = SimConfig
        .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
        .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
        .workspaceName(c.name)
        .compile(SramSimModel(true) on new StreamPolymul(c))
      sim.doSim(seed = 5) { dut =>
        val rnd = new Random(n + p)
        val products = if (n >= 512) 4 else 6
        val as = Seq.fill(products)(c.primes.map(q => Seq.fill(n)(BigInt(q.bitLength, rnd).mod(q))))
        val bs = Seq.fill(products)(c.primes.map(q => Seq.fill(n)(BigInt(q.bitLength, rnd).mod(q))))
        def pack(x: Seq[Seq[BigInt]], t: Int): BigInt =
          (for (l <- 0 until c.limbs; j <- 0 until p) yield x(l)(j * c.frame + t) << ((l * p + j) * w)).sum
        val mask = (BigInt(1) << w) - 1
        dut.io.in_valid #= false; dut.io.out_ready #= false; dut.io.in_a #= 0; dut.io.in_b #= 0
        dut.clockDomain.forkStimulus(10)
        dut.clockDomain.assertReset(); dut.clockDomain.waitSampling(3); dut.clockDomain.deassertReset(); sleep(1)

        /** Runs `count` products from `first` with stall probabilities; returns the cycles at which
          * each product's first beat was accepted and its first result beat was read. */
        def run(first: Int, count: Int, inStall: Double, outStall: Double): (Seq[Int], Seq[Int]) = {
          var beatIn, beatOut, cycle = 0
          val acceptAt, readAt = scala.collection.mutable.ArrayBuffer[Int]()
          val got = Array.fill(count, c.limbs, n)(BigInt(-1))
          while (beatOut < count * c.frame) {
            assert(cycle < 200 * c.frame * count + 10 * c.latency, "no progress")
            val iv = beatIn < count * c.frame && rnd.nextDouble() >= inStall
            dut.io.in_valid #= iv
            if (iv) {
              val (k, t) = (first + beatIn / c.frame, beatIn % c.frame)
              dut.io.in_a #= pack(as(k), t); dut.io.in_b #= pack(bs(k), t)
            }
            dut.io.out_ready #= rnd.nextDouble() >= outStall
            sleep(1) // the inputs settle; a beat moves at the next edge if valid and ready now
            val inMoves = iv && dut.io.in_ready.toBoolean
            val outMoves = dut.io.out_valid.toBoolean && dut.io.out_ready.toBoolean
            val data = dut.io.out_c.toBigInt
            dut.clockDomain.waitSampling(); sleep(1)
            cycle += 1
            if (inMoves) { if (beatIn % c.frame == 0) acceptAt += cycle; beatIn += 1 }
            if (outMoves) {
              val (k, t) = (beatOut / c.frame, beatOut % c.frame)
              if (t == 0) readAt += cycle
              for (l <- 0 until c.limbs; j <- 0 until p) got(k)(l)(j * c.frame + t) = (data >> ((l * p + j) * w)) & mask
              beatOut += 1
            }
          }
          for (k <- 0 until count; l <- 0 until c.limbs)
            assert(got(k)(l).toSeq == schoolbook(as(first + k)(l), bs(first + k)(l), c.primes(l)), s"product ${first + k}, limb $l")
          (acceptAt.toSeq, readAt.toSeq)
        }
        val (acc, rd) = run(0, if (n >= 512) 2 else 3, 0.0, 0.0)
        assert(acc.sliding(2).forall(x => x(1) - x(0) == c.frame), s"accepted at $acc: not one product every ${c.frame} cycles")
        // Accepted at edge a, in the output register after edge a + latency, read at the edge after.
        assert(acc.zip(rd).forall { case (a, r) => r - a == c.latency + 1 }, s"accepted at $acc, first beat read at $rd: latency ${c.latency} promised")
        run(acc.size, products - acc.size, 0.3, 0.3)
      }
    }
  }
}
