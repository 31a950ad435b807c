package modforge.polymul

import spinal.core._

/** Flow control of the streaming engine: one enable, `tick`, advances every datapath register at
  * once, so a stalled stream freezes the whole pipeline and nothing needs a buffer.
  *
  * A product is `frame` = n/P consecutive ticks of input; the delay lines assume frames are
  * contiguous in ticks, so when the input runs dry after a product, the engine makes up a
  * phantom product of bubbles (ticks without data) to push the real one out, and a real product
  * may only start at a frame boundary. A frame flag per product in flight, pushed when its first
  * beat enters and popped when its first beat reaches the output register `latency` ticks later,
  * says whether a beat leaving is real (`outValid`).
  *
  *  - tick when the output register is free or being read, and either a beat is accepted or a
  *    bubble is due (a phantom product under way, or real beats still inside at a frame boundary);
  *  - `inReady` at a frame boundary, or inside a real product; never inside a phantom one (it
  *    waits at most n/P cycles for that to finish).
  */
class StreamControl(frame: Int, latency: Int) extends Component {
  val io = new Bundle {
    val inValid = in Bool ()
    val inReady = out Bool ()
    val outValid = out Bool ()
    val outReady = in Bool ()
    val tick = out Bool ()
  }
  private val bits = log2Up(frame)
  /** Position of the beat in the input register; after reset the last beat of an empty product. */
  val inPos = Reg(UInt(bits bits)) init (frame - 1)
  val phantom = Reg(Bool()) init (True)
  /** Position of the beat in the output register. */
  val outPos = Reg(UInt(bits bits)) init (Math.floorMod(-1 - latency, frame))
  val outReal = Reg(Bool()) init (False)
  val outValid = Reg(Bool()) init (False)
  /** Real beats accepted and not yet read out. */
  val inflight = Reg(UInt(log2Up(latency + 3) bits)) init (0)
  // Products between the two registers after reset: latency / frame phantom ones.
  private val preloaded = latency / frame
  private val slots = 1 << log2Up(preloaded + 2)
  val flags = Vec.fill(slots)(Reg(Bool()) init (False))
  val wr = Reg(UInt(log2Up(slots) bits)) init (preloaded % slots)
  val rd = Reg(UInt(log2Up(slots) bits)) init (0)

  val frameStart = inPos === frame - 1
  val accept = io.inValid && (frameStart || !phantom)
  val outStall = outValid && !io.outReady
  val bubble = Mux(frameStart, !io.inValid && inflight =/= 0, phantom)
  val tick = !outStall && (accept || bubble)
  io.tick := tick
  io.inReady := !outStall && (frameStart || !phantom)
  io.outValid := outValid

  val read = outValid && io.outReady
  inflight := inflight + U(tick && accept).resized - U(read).resized
  when(tick) {
    inPos := inPos + 1
    when(frameStart) {
      phantom := !accept
      flags(wr) := accept
      wr := wr + 1
    }
    outPos := outPos + 1
    val outStart = outPos === frame - 1
    when(outStart) {
      rd := rd + 1
      outReal := flags(rd)
    }
    outValid := Mux(outStart, flags(rd), outReal)
  } elsewhen (io.outReady) {
    outValid := False
  }
}

object StreamControl {
  /** The reset tree of a streaming top ([[StreamPolymul]], [[StreamNttTop]]): the reset port drives
    * registered copies only (KeepReg), in two levels: `copies` first-level copies, each feeding one
    * second-level copy; only the second level resets anything. Every second-level copy leaves reset
    * at the same edge, two after the port ([[StreamPolymul.resetCycles]]). Returns (first, second). */
  def resetTree(copies: Int): (IndexedSeq[Bool], IndexedSeq[Bool]) = {
    def rawReset = ClockDomain.current.readResetWire // a def: a val would rename the port
    val firstLevel = (0 until copies).map(_ => modforge.KeepReg(rawReset.asUInt)(0))
    val resets = firstLevel.map(r => modforge.KeepReg(r.asUInt)(0))
    (firstLevel, resets)
  }
}
