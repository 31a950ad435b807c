package modforge

import org.scalatest.funsuite.AnyFunSuite
import spinal.core._
import spinal.core.sim._

import java.io.File
import scala.collection.mutable
import scala.util.Random

/** [[FanoutFifo]] against a queue: random pushes and pops (each side idle at random), every popped word checked in
  * order, `push.ready` exactly when there is room and `pop.valid` exactly when a word is held. Depths 1, 3 (not a
  * power of two: the pointers wrap at 3, the multiplexer's fourth input is never chosen) and 4; 70-bit words, so that
  * the read pointer's bits are held in more than one copy (FanoutReg.maxFanout).
  */
class FanoutFifoSpec extends AnyFunSuite {
  // test-long only (TestTier; each depth a Verilator build of about 25 s), where its users, the multi-pass
  // engines, are simulated
  for (depth <- TestTier.pick(Nil, Seq(1, 3, 4))) {
    test(s"depth $depth: words out in order, ready and valid as the queue says") {
      val width = 70
      val compiled = SimConfig
        .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
        .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
        .workspaceName(s"fanout_fifo_$depth")
        .compile(new FanoutFifo(width, depth))
      compiled.doSim(seed = depth) { dut =>
        val rnd = new Random(depth)
        val ref = mutable.Queue[BigInt]()
        dut.clockDomain.forkStimulus(10)
        dut.io.push.valid #= false; dut.io.pop.ready #= false
        dut.clockDomain.waitSampling(2)
        var popped = 0
        for (cycle <- 0 until 4000) {
          // Bursts of pushing and of popping, so that the FIFO runs both full and empty.
          val phase = (cycle / 200) % 3
          val push = rnd.nextDouble() < Seq(0.8, 0.5, 0.2)(phase)
          val pop = rnd.nextDouble() < Seq(0.2, 0.5, 0.8)(phase)
          val word = BigInt(width, rnd)
          dut.io.push.valid #= push; dut.io.push.payload #= word; dut.io.pop.ready #= pop
          sleep(1)
          assert(dut.io.push.ready.toBoolean == (ref.size < depth), s"cycle $cycle: ready with ${ref.size} of $depth held")
          assert(dut.io.pop.valid.toBoolean == ref.nonEmpty, s"cycle $cycle: valid with ${ref.size} held")
          assert(dut.io.occupancy.toInt == ref.size, s"cycle $cycle: occupancy")
          if (pop && ref.nonEmpty) {
            val want = ref.dequeue()
            assert(dut.io.pop.payload.toBigInt == want, s"cycle $cycle: word $popped out of order")
            popped += 1
          }
          if (push && dut.io.push.ready.toBoolean) ref.enqueue(word)
          dut.clockDomain.waitSampling()
        }
        // A full FIFO takes no word in the cycle it gives one (ready is room), so depth 1 moves at most a word
        // every other cycle: 760 of 4000 here.
        assert(popped > 600, s"only $popped words popped")
      }
    }
  }
}
