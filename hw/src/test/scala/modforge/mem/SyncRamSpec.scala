package modforge.mem

import modforge.{ModMulSim, ModforgeSpinal, TestTier}
import org.scalatest.funsuite.AnyFunSuite
import spinal.core._
import spinal.core.sim._

import java.io.File
import scala.util.Random

/** The [[SyncRamIo]] memories against a reference: random writes and reads, never a read of the
  * address written in the same cycle (undefined on the macros), every read's data checked in the
  * next cycle. SramBank on the macros' Verilator stand-in (grids of 1x1 up to 3 columns x 4 rows,
  * both macros), MemBank; then the stand-in's poisoning of a same-cycle read-during-write. Also
  * the macro choice and grids of plain Scala.
  */
class SyncRamSpec extends AnyFunSuite {
  def sim[T <: Component](name: String, dut: => T) = SimConfig
    .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
    .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
    .workspaceName(name)
    .compile(SramSimModel(true) on dut)

  test("macro choice: the 256-deep macro up to 256 words, the 512-deep one from 512; grids") {
    assert(SkyMacro.choose(4) == SkyMacro.sram256 && SkyMacro.choose(256) == SkyMacro.sram256)
    assert(SkyMacro.choose(512) == SkyMacro.sram512 && SkyMacro.choose(65536) == SkyMacro.sram512)
    val g = SramGrid(64, 8192)
    assert(g.columns == 2 && g.rows == 16 && g.count == 32 && g.sky == SkyMacro.sram512)
    assert(SramGrid(512, 4).count == 16 && SramGrid(33, 256).columns == 2)
  }

  // test-long only (TestTier; each a Verilator build of about 30 s): make test runs both memories inside its cocotb
  // NTT tiles (flip-flop and SRAM storage)
  for ((width, depth, kind) <- TestTier.pick(Nil, Seq((32, 16, "sram"), (64, 64, "syncmem"), (96, 2048, "sram"),
                                                      (64, 256, "sram"), (40, 1024, "sram"), (17, 512, "sram")))) {
    test(s"$kind $width x $depth: random writes and reads against a reference") {
      val compiled = sim(s"syncram_${kind}_${width}x$depth",
        if (kind == "sram") new SramBank(width, depth) else new MemBank(width, depth))
      compiled.doSim(seed = 5) { dut =>
        val rnd = new Random(width * depth)
        val ref = Array.fill(depth)(BigInt(-1))
        dut.clockDomain.forkStimulus(10)
        dut.io.wrEn #= false; dut.io.rdEn #= false
        dut.clockDomain.waitSampling(2)
        var checked = 0
        val recent = scala.collection.mutable.ArrayBuffer[Int]()
        for (cycle <- 0 until 3000) {
          val wr = rnd.nextDouble() < 0.6
          val wa = rnd.nextInt(depth)
          val wd = BigInt(width, rnd)
          // Reads mostly of words written before (every row of deep banks), sometimes anywhere.
          val x = if (recent.nonEmpty && rnd.nextDouble() < 0.7) recent(rnd.nextInt(recent.size)) else rnd.nextInt(depth)
          val ra = if (x == wa && wr) (x + 1) % depth else x
          val rd = rnd.nextDouble() < 0.7 && !(wr && ra == wa)
          dut.io.wrEn #= wr; dut.io.wrAddr #= wa; dut.io.wrData #= wd
          dut.io.rdEn #= rd; dut.io.rdAddr #= ra
          // After the edge that registers the read, its data is on rdData: the word as written
          // by the cycles before (this cycle's write is not at the read's address).
          dut.clockDomain.waitSampling(); sleep(1)
          if (rd && ref(ra) >= 0) { assert(dut.io.rdData.toBigInt == ref(ra), s"cycle $cycle"); checked += 1 }
          if (wr) { ref(wa) = wd; recent += wa }
        }
        assert(checked > 1000)
      }
    }
  }

  test("the macro stand-in poisons a read of the word written in the same cycle, and stale data") {
    sim("syncram_poison", new SramBank(32, 16)).doSim(seed = 1) { dut =>
      dut.clockDomain.forkStimulus(10)
      def cycle(wr: Boolean, wa: Int, wd: Long, rd: Boolean, ra: Int): BigInt = {
        dut.io.wrEn #= wr; dut.io.wrAddr #= wa; dut.io.wrData #= wd; dut.io.rdEn #= rd; dut.io.rdAddr #= ra
        dut.clockDomain.waitSampling(); sleep(1); dut.io.rdData.toBigInt
      }
      // cycle(...) returns the data of the read it presents (valid after the edge).
      cycle(true, 3, 0x1234, false, 0)
      assert(cycle(false, 0, 0, true, 3) == 0x1234)
      val same = cycle(true, 3, 0x5678, true, 3) // read and write of one word in one cycle: poisoned
      assert(same != 0x1234 && same != 0x5678)
      val stale = cycle(false, 0, 0, false, 0) // no read: the macro's dout1 is X
      assert(stale != 0x1234 && stale != 0x5678)
      assert(cycle(false, 0, 0, true, 3) == 0x5678)
    }
  }
}
