package modforge.ntt

import modforge.modmul.Precompute
import modforge.{ModMulSim, ModforgeSpinal, TestTier}
import modforge.mem.SramSimModel
import spinal.core._
import spinal.core.sim._

import java.io.File
import org.scalatest.funsuite.AnyFunSuite
import scala.util.Random

/** The tile's controller (Verilator): commands, streams with stalls, the cycle counts it promises,
  * and NTT, INTT and PWMUL results against a direct evaluation of the negacyclic transform here
  * (sum of a_i psi^((2 bitrev(j) + 1) i), O(N^2), no butterflies). Also the reduction
  * arrangements at k = 32 and 64 (ROM of pre-scaled twiddles, PWMUL's two passes), and a tile
  * whose stages overlap (N = 64). SRAM tiles (`_sram`) with ROM and RAM twiddles, P = 1, 2, 4, 8,
  * built on the macros' Verilator stand-in ([[modforge.mem.SkySramModel]]), which poisons a read of
  * a word written in the same cycle and stale read data, so the schedule's and the UNLOAD stream's
  * timing is checked as well as the results.
  */
class NttTileSimSpec extends AnyFunSuite {
  def directNtt(a: Seq[BigInt], c: NttConfig): Seq[BigInt] = (0 until c.n).map { j =>
    val w = c.psi.modPow(2 * NttConfig.bitrev(j, c.logN) + 1, c.q)
    a.zipWithIndex.map { case (x, i) => x * w.modPow(i, c.q) }.sum.mod(c.q)
  }

  // test-long only (TestTier): the paper arrangements, the reductions, the overlapped stages, the SRAM tiles. make
  // test runs these arrangements and the overlapped stages as cocotb tiles at RTL (verif/tests/test_ntt_tile.py,
  // test_ntt_sram.py), one SRAM tile at gate level
  for (c <- TestTier.pick(Nil, Seq(NttConfig(16, 32, 2, MulArrangement.GShoup),
                // Reduction arrangements: pre-scaled ROM twiddles, two-pass PWMUL.
                NttConfig(16, 64, 2, MulArrangement.K2Red),
                // Overlapped stages: a 1-cycle gap after the first NTT stage (before the last INTT
                // one), none between the others, PWMUL's two passes back to back.
                NttConfig(64, 32, 2, MulArrangement.Mont),
                NttConfig(32, 24, 1, MulArrangement.Barrett), NttConfig(16, 32, 4, MulArrangement.ShoupBarrett),
                NttConfig(16, 64, 2, MulArrangement.Mont),
                NttConfig(16, 32, 1, MulArrangement.WlmMixed))) ++ NttTileSimSpec.sramTilesToRun) {
    test(s"${c.name}: LOAD, NTT, INTT, PWMUL, UNLOAD with stalls, results and cycle counts") {
      if (c.n == 64) assert(c.stageGaps(NttOp.Ntt) == Seq(1, 0, 0, 0, 0, 0) && c.stageGaps(NttOp.PwMul) == Seq(0, 0))
      val sim = SimConfig
        .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
        .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
        .workspaceName(c.name)
        .compile(SramSimModel(true) on new NttTile(c))
      sim.doSim(seed = 3) { dut =>
        val rnd = new Random(c.n)
        dut.cmd_valid #= false; dut.load_valid #= false; dut.unload_ready #= false
        dut.clockDomain.forkStimulus(10)
        if (c.twiddles == TwiddleStore.Ram) { dut.tw_valid #= false; NttTileSimSpec.driveModulus(dut) }
        dut.clockDomain.assertReset(); dut.clockDomain.waitSampling(3); dut.clockDomain.deassertReset()

        /** One clock edge, then a moment for registers and logic to settle: inputs driven before
          * it were sampled at the edge; what is read after it is the new cycle's state.
          */
        def tick(): Unit = { dut.clockDomain.waitSampling(); sleep(1) }
        tick()
        if (c.twiddles == TwiddleStore.Ram) {
          // The host's twiddle writes: both tables, index 1..N-1, W as stored and its companion.
          for ((table, inv) <- Seq(c.forward -> false, c.inverse -> true); i <- 1 until c.n) {
            val w = c.stored(table(i))
            dut.tw_valid #= true; dut.tw_inverse #= inv; dut.tw_index #= i; dut.tw_w #= w; dut.tw_r #= c.companion(w)
            tick()
          }
          dut.tw_valid #= false
          tick()
        }

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

object NttTileSimSpec {
  import MulArrangement._
  /** SRAM tiles: N = 16 and 32 (64 with a gap between stages), P = 1, 2, 4, 8, the paper's three
    * arrangements and two reduction ones (two-pass PWMUL, its C on the twiddle input), ROM and RAM. */
  val sramTiles: Seq[NttConfig] = Seq(
    (16, 32, 1, Barrett, TwiddleStore.Rom), (16, 32, 2, Barrett, TwiddleStore.Ram),
    (32, 32, 1, ShoupBarrett, TwiddleStore.Rom), (16, 32, 2, ShoupBarrett, TwiddleStore.Ram),
    (32, 32, 2, GShoup, TwiddleStore.Rom), (32, 24, 1, GShoup, TwiddleStore.Ram),
    (16, 64, 2, K2Red, TwiddleStore.Ram), (64, 32, 2, Mont, TwiddleStore.Rom),
    (16, 32, 4, GShoup, TwiddleStore.Ram), (32, 32, 8, Barrett, TwiddleStore.Rom)
  ).map { case (n, k, p, m, tw) => NttConfig(n, k, p, m, tw, storage = Storage.Sram) }

  /** make test-long only (TestTier; each a Verilator build of 15-25 s): make test runs SRAM tiles under cocotb on
    * the macros' own models (verif/tests/test_ntt_sram.py). */
  def sramTilesToRun: Seq[NttConfig] = TestTier.pick(Nil, sramTiles)

  /** A RAM tile's modulus ports, from its q (what verif/ntt/ntt_host.py modulus_ports computes). */
  def driveModulus(dut: NttTile): Unit = {
    val c = dut.cfg
    val m = dut.mod
    m.q #= c.q
    if (m.barrett_m != null) { val (mp, r, l) = Precompute.barrett(c.k, c.q); m.barrett_m #= mp; m.barrett_r #= r; m.barrett_l #= l }
    if (m.gshoup_m != null) { val (mp, g, l) = Precompute.gshoup(c.k, c.q); m.gshoup_m #= mp; m.gshoup_g #= g; m.gshoup_l #= l }
    c.reductionConstants.foreach { case (mp, cc) => mp.foreach(m.red_mp #= _); m.red_c #= cc }
  }
}
