package modforge.polymul

import modforge.{ModMulSim, ModforgeSpinal}
import modforge.mem.SramSimModel
import spinal.core._
import spinal.core.sim._

import java.io.File
import org.scalatest.funsuite.AnyFunSuite
import scala.util.Random

/** One limb engine serving several primes one after another (the multi-pass rows engine's limbs in sequence,
  * [[PrimeChoice]]), its twiddle tables split in two factors ([[NttShape.splitTable]]: `tableWords` set low, so
  * that pipelines of 32 to 512 points split as the rows engine's of 512 do with 5 or more primes), under Verilator.
  * For each prime in turn (the select changed only while the engine is empty): products back to back at one per n/P
  * cycles with the promised latency (which counts the split stages' second multipliers), then random stalls on both
  * streams; every product against a schoolbook negacyclic product mod that prime (O(n^2), no NTT). Edge operands:
  * all q - 1, zero, x^(n-1).
  *
  * make test-long (MODFORGE_POLYMUL_LONG=1) only, as [[StreamPolymulSimSpec]]'s engines: n = 32 (factor tables read
  * directly), 64 at P = 2 (a lane's block index above the lane's), 512 (its 256- and 128-block stages split, factor
  * tables of 16 entries read through their index copies). MODFORGE_STREAM_SIM=<workspace> runs one in either tier.
  */
class StreamSequenceSimSpec extends AnyFunSuite {
  private val long = sys.env.get("MODFORGE_POLYMUL_LONG").contains("1")
  private val only = sys.env.get("MODFORGE_STREAM_SIM")

  def schoolbook(a: Seq[BigInt], b: Seq[BigInt], q: BigInt): Seq[BigInt] = Schoolbook.negacyclic(a, b, q)

  // (n, P, w, primes, tableWords)
  for ((n, p, w, count, words) <- Seq((32, 1, 21, 3, 4), (64, 2, 21, 2, 4), (512, 1, 21, 3, 1024))) {
    val qs = PrimeClass.AnyPrime.candidates(n, w).filter(_.isProbablePrime(64)).take(count).toSeq
    val c = StreamConfig(n, qs.head.bitLength - 1, p, w, StreamMul.Paper, givenPrimes = Seq(qs.head), sequence = count, tableWords = words)
    val ws = s"seq_${n}_s${p}_w${w}_k${count}_tw$words"
    if (only.fold(long)(_ == ws)) test(s"$ws: ${c.shape.splitStages} split stages a pipeline, ${count} primes in turn, " +
      s"back to back at ${c.frame} cycles a product, latency ${c.latency}, then stalls") {
      assert(c.shape.splitStages >= 1, "the case splits no table")
      val sim = SimConfig
        .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
        .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
        .workspaceName(ws)
        .compile(SramSimModel(true) on new StreamPolymul(c, qs))
      sim.doSim(seed = 3) { dut =>
        val rnd = new Random(n * 7 + p)
        val mask = (BigInt(1) << w) - 1
        dut.io.in_valid #= false; dut.io.out_ready #= false; dut.io.in_a #= 0; dut.io.in_b #= 0; dut.io.sel #= 0
        dut.clockDomain.forkStimulus(10)
        dut.clockDomain.assertReset(); dut.clockDomain.waitSampling(3); dut.clockDomain.deassertReset(); sleep(1)

        /** Streams the products (a, b) mod q with stall probabilities; checks each against the schoolbook and
          * returns the cycles at which each product's first beat was accepted and its first result beat read. */
        def run(q: BigInt, ops: Seq[(Seq[BigInt], Seq[BigInt])], inStall: Double, outStall: Double): (Seq[Int], Seq[Int]) = {
          val F = c.frame
          var beatIn, beatOut, cycle = 0
          val acceptAt, readAt = scala.collection.mutable.ArrayBuffer[Int]()
          val got = Array.fill(ops.size, n)(BigInt(-1))
          def pack(x: Seq[BigInt], t: Int): BigInt = (0 until p).map(j => x(j * F + t) << (j * w)).sum
          while (beatOut < ops.size * F) {
            assert(cycle < 200 * F * ops.size + 10 * c.latency, "no progress")
            val iv = beatIn < ops.size * F && rnd.nextDouble() >= inStall
            dut.io.in_valid #= iv
            if (iv) {
              val (k, t) = (beatIn / F, beatIn % F)
              dut.io.in_a #= pack(ops(k)._1, t); dut.io.in_b #= pack(ops(k)._2, t)
            }
            dut.io.out_ready #= rnd.nextDouble() >= outStall
            sleep(1)
            val inMoves = iv && dut.io.in_ready.toBoolean
            val outMoves = dut.io.out_valid.toBoolean && dut.io.out_ready.toBoolean
            val data = dut.io.out_c.toBigInt
            dut.clockDomain.waitSampling(); sleep(1)
            cycle += 1
            if (inMoves) { if (beatIn % F == 0) acceptAt += cycle; beatIn += 1 }
            if (outMoves) {
              val (k, t) = (beatOut / F, beatOut % F)
              if (t == 0) readAt += cycle
              for (j <- 0 until p) got(k)(j * F + t) = (data >> (j * w)) & mask
              beatOut += 1
            }
          }
          dut.io.in_valid #= false; dut.io.out_ready #= false
          for (k <- ops.indices) {
            val want = schoolbook(ops(k)._1, ops(k)._2, q)
            val bad = (0 until n).filter(i => got(k)(i) != want(i))
            if (bad.nonEmpty) fail(s"q = $q, product $k: ${bad.size} of $n coefficients wrong, first at ${bad.head}: ${got(k)(bad.head)}, want ${want(bad.head)}")
          }
          (acceptAt.toSeq, readAt.toSeq)
        }
        // Prime by prime, and back to the second: a table read at a stale select would show here.
        for (l <- (0 until count) :+ 1) {
          val q = qs(l)
          dut.io.sel #= l
          dut.clockDomain.waitSampling(4) // the select's two levels of copies (PrimeChoice) settle while the engine is empty
          def random() = Seq.fill(n)(BigInt(q.bitLength + 8, rnd).mod(q))
          val top = Seq.tabulate(n)(i => if (i == n - 1) BigInt(1) else BigInt(0))
          val edges = Seq((Seq.fill(n)(q - 1), Seq.fill(n)(q - 1)), (Seq.fill(n)(BigInt(0)), random()), (top, top))
          val back = edges ++ Seq.fill(2)((random(), random()))
          val (acc, rd) = run(q, back, 0.0, 0.0)
          assert(acc.sliding(2).forall(x => x(1) - x(0) == c.frame), s"q = $q: accepted at $acc, not one product every ${c.frame} cycles")
          assert(acc.zip(rd).forall { case (a, r) => r - a == c.latency + 1 }, s"q = $q: accepted at $acc, first beat read at $rd: latency ${c.latency} promised")
          run(q, Seq.fill(3)((random(), random())), 0.3, 0.3)
        }
      }
    }
  }
}
