package modforge.ntt

import modforge.{ModMulSim, ModforgeSpinal}
import spinal.core._
import spinal.core.sim._

import java.io.File
import org.scalatest.funsuite.AnyFunSuite
import scala.util.Random

/** The tile's controller (Verilator): commands, streams with stalls, the cycle counts it promises,
  * and NTT, INTT and PWMUL results against a direct evaluation of the negacyclic transform here
  * (sum of a_i psi^((2 bitrev(j) + 1) i), O(N^2), no butterflies). Also the reduction
  * arrangements at k = 32 and 64 (ROM of pre-scaled twiddles, PWMUL's two passes), and a tile
  * whose stages overlap (N = 64).
  */
class NttTileSimSpec extends AnyFunSuite {
  def directNtt(a: Seq[BigInt], c: NttConfig): Seq[BigInt] = (0 until c.n).map { j =>
    val w = c.psi.modPow(2 * NttConfig.bitrev(j, c.logN) + 1, c.q)
    a.zipWithIndex.map { case (x, i) => x * w.modPow(i, c.q) }.sum.mod(c.q)
  }

  for (c <- Seq(NttConfig(16, 32, 2, MulArrangement.GShoup), NttConfig(32, 24, 1, MulArrangement.Barrett),
                NttConfig(16, 32, 4, MulArrangement.ShoupBarrett),
                // Reduction arrangements: pre-scaled ROM twiddles, two-pass PWMUL.
                NttConfig(16, 64, 2, MulArrangement.Mont), NttConfig(16, 32, 1, MulArrangement.WlmMixed),
                NttConfig(16, 64, 2, MulArrangement.K2Red),
                // Overlapped stages: a 1-cycle gap after the first NTT stage (before the last INTT
                // one), none between the others, PWMUL's two passes back to back.
                NttConfig(64, 32, 2, MulArrangement.Mont))) {
    test(s"${c.name}: LOAD, NTT, INTT, PWMUL, UNLOAD with stalls, results and cycle counts") {
      if (c.n == 64) assert(c.stageGaps(NttOp.Ntt) == Seq(1, 0, 0, 0, 0, 0) && c.stageGaps(NttOp.PwMul) == Seq(0, 0))
      val sim = SimConfig
        .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
        .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
        .workspaceName(c.name)
        .compile(new NttTile(c))
      sim.doSim(seed = 3) { dut =>
        val rnd = new Random(c.n)
        dut.cmd_valid #= false; dut.load_valid #= false; dut.unload_ready #= false
        dut.clockDomain.forkStimulus(10)
        dut.clockDomain.assertReset(); dut.clockDomain.waitSampling(3); dut.clockDomain.deassertReset()

        /** One clock edge, then a moment for registers and logic to settle: inputs driven before
          * it were sampled at the edge; what is read after it is the new cycle's state.
          */
        def tick(): Unit = { dut.clockDomain.waitSampling(); sleep(1) }
        tick()

        /** Runs one command; returns (cycles from acceptance to done, stalled beats, unloaded data). */
        def command(op: NttOp, slot: Int, data: Seq[BigInt] = Nil, stall: Double = 0.3): (Int, Int, Seq[BigInt]) = {
          dut.cmd_valid #= true; dut.cmd_op #= op.code; dut.cmd_slot #= slot
          while (!dut.cmd_ready.toBoolean) tick()
          tick() // the command fires at this edge
          dut.cmd_valid #= false
          var stalls, next = 0
          var cycles = 1
          val out = scala.collection.mutable.ArrayBuffer[BigInt]()
          while (!dut.done.toBoolean) {
            assert(cycles < 100 * c.cycles(op), s"${op.name}: no done")
            val stallNow = rnd.nextDouble() < stall
            val (ready, valid) = (dut.load_ready.toBoolean, dut.unload_valid.toBoolean)
            dut.load_valid #= ready && !stallNow
            if (next < data.size) dut.load_data #= data(next)
            dut.unload_ready #= valid && !stallNow
            if ((ready || valid) && stallNow) stalls += 1
            if (ready && !stallNow) next += 1
            if (valid && !stallNow) out += dut.unload_data.toBigInt
            tick()
            cycles += 1
          }
          dut.load_valid #= false; dut.unload_ready #= false
          assert(op != NttOp.Load || next == data.size, s"LOAD took $next coefficients")
          (cycles, stalls, out.toSeq)
        }
        def check(op: NttOp, r: (Int, Int, Seq[BigInt])): Unit =
          assert(r._1 == c.cycles(op) + r._2, s"${op.name}: ${r._1} cycles with ${r._2} stalls, promised ${c.cycles(op)}")

        val a = Seq.fill(c.n)(BigInt(c.q.bitLength + 8, rnd).mod(c.q))
        val b = Seq.fill(c.n)(BigInt(c.q.bitLength + 8, rnd).mod(c.q))
        check(NttOp.Load, command(NttOp.Load, 0, a))
        check(NttOp.Load, command(NttOp.Load, 1, b))
        check(NttOp.Ntt, command(NttOp.Ntt, 0))
        val u = command(NttOp.Unload, 0); check(NttOp.Unload, u)
        val ntta = directNtt(a, c)
        assert(u._3 == ntta, "NTT(a) differs from the direct evaluation")
        check(NttOp.Ntt, command(NttOp.Ntt, 1))
        check(NttOp.PwMul, command(NttOp.PwMul, 1))
        val v = command(NttOp.Unload, 1)
        assert(v._3 == ntta.zip(directNtt(b, c)).map { case (x, y) => x * y % c.q }, "PWMUL differs")
        check(NttOp.Intt, command(NttOp.Intt, 0))
        assert(command(NttOp.Unload, 0)._3 == a, "INTT(NTT(a)) is not a")
      }
    }
  }
}
