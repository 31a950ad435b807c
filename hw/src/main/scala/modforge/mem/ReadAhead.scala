package modforge.mem

import spinal.core._

/** Words 0..count-1 of a memory whose read data comes the cycle after the address ([[SyncRamIo]])
  * as a valid/ready stream, one word a cycle while the consumer is ready, correct under any
  * backpressure.
  *
  * A read issued in cycle t lands (its word on the memory's output) in t + 1 and is valid only
  * then: the SRAM macro's model drives dout1 to X after the next rising edge, read or not. A word
  * not taken in the cycle it lands goes to the skid register. A read is issued when the stream
  * moves a word in this cycle, or holds none (neither landing nor in the skid register): so
  * landing and skid are never both full, one skid register suffices, and after the first word
  * (one cycle after `run` rises) `outValid` stays high until the last word has gone.
  * `restart` (the command is accepted) rewinds to word 0.
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
  val skid = RegInit(False)
  val skidData = Reg(UInt(width bits))
  io.outValid := io.run && (landing || skid)
  io.outData := Mux(skid, skidData, io.rdData)
  val pop = io.outValid && io.outReady
  io.rdEn := io.run && issued =/= count && (pop || !(landing || skid))
  io.rdIdx := issued.resize(log2Up(count))
  landing := io.rdEn
  when(io.rdEn) { issued := issued + 1 }
  when(pop) { skid := False }
  when(landing && !pop) { skid := True; skidData := io.rdData }
  when(io.restart) { issued := 0; skid := False }
}
