package modforge.intfft

import modforge.{ModMulSim, ModforgeSpinal, TestTier}
import spinal.core._
import spinal.core.sim._
import spinal.lib.Delay
import org.scalatest.funsuite.AnyFunSuite

import java.io.File
import scala.util.Random

/** The two addition recoveries (Verilator): the paper's whole tree ([[AdditionRecovery]], the parallel
  * multiplier's) and the word-serial one ([[WordSerialRecovery]], the folded multiplier's, its reads
  * served 2 clocks late as the folded multiplier's banks serve them), against
  * BigInt sum_t z_t 2^(tb) mod 2^(kb), with z_t over the whole m-bit range, not only the values a
  * product gives (z_t < p): all zero, all 2^m - 1 (the widths' bound: the largest z'_i and carry),
  * all p - 1, one maximal z_t at either end, alternating, then random vectors, inValid every kb/d
  * clocks back to back. Each product's words must leave one a clock, LSB first, the first exactly
  * `latency` clocks after inValid, outLast with the last. z is held until the next inValid (the
  * word-serial recovery reads it for kb/d clocks). MODFORGE_SIM_OPS / 100 random vectors (default 20).
  */
/** The word-serial recovery with its reads served from a k-word input, `readLatency` clocks late
  * (the folded multiplier's 2: the banks' synchronous read, then a register after the bank select). */
class SerialRecoveryBench(g: IntFftParams, readLatency: Int) extends Component {
  val rec = new WordSerialRecovery(g, readLatency)
  val io = new Bundle {
    val inValid = in Bool ()
    val z = in Vec (UInt(g.m bits), g.k)
    val outValid = out Bool ()
    val outLast = out Bool ()
    val outWord = out UInt (g.d bits)
  }
  def latency: Int = rec.latency
  rec.io.inValid := io.inValid
  rec.io.leaves := Vec((0 until rec.leafCount).map { u =>
    val pick = Vec((0 until rec.words).map(i => io.z(i * rec.leafCount + u)))(rec.io.word)
    Delay(pick, readLatency)
  })
  io.outValid := rec.io.outValid
  io.outLast := rec.io.outLast
  io.outWord := rec.io.outWord
}

class RecoverySimSpec extends AnyFunSuite {
  val ops = sys.env.get("MODFORGE_SIM_OPS").map(_.toInt / 100).getOrElse(20).max(4)

  def vectors(g: IntFftParams, rnd: Random): Seq[Seq[BigInt]] = {
    val top = (BigInt(1) << g.m) - 1
    def one(t: Int) = Seq.tabulate(g.k)(i => if (i == t) top else BigInt(0))
    Seq(Seq.fill(g.k)(BigInt(0)), Seq.fill(g.k)(top), Seq.fill(g.k)(g.p - 1), one(0), one(g.k - 1),
      Seq.tabulate(g.k)(i => if (i % 2 == 0) top else BigInt(0))) ++
      Seq.fill(ops)(Seq.fill(g.k)(rnd.nextInt(3) match { case 0 => top; case _ => BigInt(g.m, rnd) }))
  }

  // test-long only (TestTier): all four; make test's cocotb block multipliers recover their sums with it
  for ((name, serial) <- TestTier.pick(Nil, Seq(("fermat64", true), ("fermat32", false), ("fermat32", true), ("fermat64", false)))) {
    val g = IntFftParams.group(name).get
    val kind = if (serial) "word-serial" else "whole-tree"
    test(s"$kind addition recovery of $name: edge and random z against sum z_t 2^(tb)") {
      val sim = SimConfig
        .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
        .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
        .workspaceName(s"intfft_recovery_${name}_${if (serial) "serial" else "tree"}")
        .compile(if (serial) new SerialRecoveryBench(g, readLatency = 2) else new AdditionRecovery(g))
      val words = g.productWords
      val zs = vectors(g, new Random(g.m))
      sim.doSim(seed = 5) { dut =>
        val (inValid, z, outValid, outLast, outWord, lat) = dut match {
          case r: SerialRecoveryBench => (r.io.inValid, r.io.z, r.io.outValid, r.io.outLast, r.io.outWord, r.latency)
          case r: AdditionRecovery => (r.io.inValid, r.io.z, r.io.outValid, r.io.outLast, r.io.outWords(0), r.latency)
        }
        dut.clockDomain.forkStimulus(10)
        inValid #= false
        dut.clockDomain.assertReset(); dut.clockDomain.waitSampling(3); dut.clockDomain.deassertReset()
        val got = scala.collection.mutable.ArrayBuffer[(Int, Seq[BigInt])]()
        var current: Option[(Int, scala.collection.mutable.ArrayBuffer[BigInt])] = None
        val total = zs.length * words + lat + words + 4
        for (c <- 0 until total) {
          val n = c / words
          if (c % words == 0 && n < zs.length) {
            for ((v, t) <- zs(n).zipWithIndex) z(t) #= v
            inValid #= true
          } else inValid #= false
          dut.clockDomain.waitSampling()
          sleep(1)
          // Outputs seen after sampling edge c were registered on it: cycle c + 1 of the bench.
          if (outValid.toBoolean) {
            val cur = current.getOrElse { val fresh = (c + 1, scala.collection.mutable.ArrayBuffer[BigInt]()); current = Some(fresh); fresh }
            cur._2 += outWord.toBigInt
            if (outLast.toBoolean) { got += ((cur._1, cur._2.toSeq)); current = None }
          } else assert(current.isEmpty, s"$name $kind: outValid fell inside a product, clock ${c + 1}")
        }
        assert(got.length == zs.length, s"$name $kind: ${got.length} products out of ${zs.length}")
        for (((first, ws), n) <- got.zipWithIndex) {
          val expect = zs(n).zipWithIndex.map { case (v, t) => v << (t * g.b) }.sum & ((BigInt(1) << (g.k * g.b)) - 1)
          val value = ws.zipWithIndex.map { case (w, i) => w << (i * g.d) }.sum
          assert(ws.length == words, s"$name $kind, vector $n: ${ws.length} words, expected kb/d = $words")
          assert(value == expect, s"$name $kind, vector $n: got ${value.toString(16)}, expected ${expect.toString(16)}")
          assert(first - n * words == lat, s"$name $kind, vector $n: first word ${first - n * words} clocks after inValid, latency is $lat")
        }
      }
    }
  }
}
