package modforge.mem

import spinal.core._

/** Words 0..count-1 of a memory whose read data comes the cycle after the address ([[SyncRamIo]])
  * as a valid/ready stream driven from registers, one word a cycle while the consumer is ready,
  * correct under any backpressure.
  *
  * Why registered: the SRAM macro's model (`<macro>.v`) drives dout1 only from DELAY after the
  * falling edge to T_HOLD after the next rising edge (X otherwise), so a port driven through from
  * dout1 is X when a bench samples it at the falling edge, and on silicon it would carry the
  * macro's clock-to-output delay out of the tile. So a read issued in cycle t lands (its word on
  * the memory's output) in t + 1 and is captured at the end of that cycle in a two-word queue
  * whose head is the stream (`outValid`, `outData`).
  *
  * A read is issued when the queue, after this cycle's move, holds at most one word counting the
  * one landing now: so the word a read brings one cycle later always has a place. With the consumer
  * ready the queue holds one word and a read is issued every cycle. The first word comes two cycles
  * after `run` rises; `restart` (the command is accepted) rewinds to word 0.
  */
class ReadAhead(width: Int, count: Int) extends Component {
  val io = new Bundle {
    val restart = in Bool ()
    val run = in Bool ()
    val rdEn = out Bool ()
    val rdIdx = out UInt (log2Up(count) bits)
    val rdData = in UInt (width bits)
    val outValid = out Bool ()
    val outReady = in Bool ()
    val outData = out UInt (width bits)
  }
  val issued = Reg(UInt(log2Up(count + 1) bits)) init (0)
  val landing = RegInit(False)
  val headValid, nextValid = RegInit(False) // the queue: head (the stream) and the word behind it
  val head, next = Reg(UInt(width bits))
  io.outValid := headValid
  io.outData := head
  val pop = headValid && io.outReady
  // Words after this cycle: the queue's, minus the one leaving, plus the one landing.
  val after = headValid.asUInt.resize(2) + nextValid.asUInt + landing.asUInt - pop.asUInt
  io.rdEn := io.run && issued =/= count && after <= 1
  io.rdIdx := issued.resize(log2Up(count))
  landing := io.rdEn
  when(io.rdEn) { issued := issued + 1 }
  when(headValid && !pop) {
    when(!nextValid && landing) { nextValid := True; next := io.rdData }
  } otherwise {
    when(nextValid) {
      headValid := True; head := next
      nextValid := landing
      when(landing) { next := io.rdData }
    } otherwise {
      headValid := landing
      when(landing) { head := io.rdData }
    }
  }
  when(io.restart) { issued := 0; headValid := False; nextValid := False }
}
