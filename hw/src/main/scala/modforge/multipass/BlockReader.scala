package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** Reads blocks from external memory: for each [[BlockDescriptor]] it issues the block's bursts on AR
  * (INCR, full-width beats, AxLEN = burstBeats - 1, ID 0 so the data returns in order) and streams the
  * coefficients out in the order they sit in the bursts: `words` carries `wordLanes` slots a word, the
  * slot at the lowest address in the lowest bits (AXI4 byte lanes are little-endian, as the model's
  * `Memory.to_bytes()`), and `last` on the block's final word.
  *
  * **Outstanding bursts and credits.** Up to `outstanding` bursts are in flight, and the reader holds a
  * buffer of `outstanding * burstBeats` beats. It issues a burst only when its beats have room there, so R
  * is never stalled by a slow consumer: what is in flight has a place to land, and the memory's latency
  * is hidden as long as the consumer keeps up. The count `freeBeats` is that room: a burst reserves its
  * beats when issued, a beat returns its place when it leaves the buffer.
  *
  * AR and `words` are driven from registers (the AR command through a pipeline register, the words from
  * the buffer); no input ready reaches an output valid combinationally.
  */
class BlockReader(c: MoverConfig) extends Component {
  val io = new Bundle {
    val cmd = slave Stream (BlockDescriptor(c))
    val ar = master Stream (Axi4Ar(c.axi))
    val r = slave Stream (Axi4R(c.axi))
    val words = master Stream (Fragment(Bits(c.wordBits bits)))
    /** No block under way, nothing in flight, nothing buffered. */
    val idle = out Bool ()
    /** Sticky: a read beat came back with RRESP other than OKAY. */
    val respError = out Bool ()
  }

  val walk = new BlockBursts(c)
  walk.io.cmd << io.cmd

  private val capacityBeats = c.outstanding * c.burstBeats
  val freeBeats = Reg(UInt(log2Up(capacityBeats + 1) bits)) init (capacityBeats)
  val canIssue = freeBeats >= c.burstBeats
  // Per burst in flight: is it the block's last? Pushed when issued, popped by its RLAST (in order: one ID).
  val tags = StreamFifo(Bool(), c.outstanding + 1, latency = 1)

  val arCmd = Stream(Axi4Ar(c.axi))
  val issue = walk.io.bursts.valid && canIssue && tags.io.push.ready
  arCmd.valid := issue
  tags.io.push.valid := walk.io.bursts.valid && canIssue && arCmd.ready
  tags.io.push.payload := walk.io.bursts.last
  walk.io.bursts.ready := canIssue && tags.io.push.ready && arCmd.ready
  arCmd.addr := walk.io.bursts.addr
  arCmd.id := 0
  arCmd.len := c.burstBeats - 1
  arCmd.setFullSize()
  arCmd.setBurstINCR()
  arCmd.setCache(B"0011")
  arCmd.setProt(B"000")
  val arPipe = arCmd.m2sPipe()
  io.ar << arPipe

  case class Beat() extends Bundle {
    val data = Bits(c.busBits bits)
    val last = Bool() // the block's last beat
  }
  val beats = StreamFifo(Beat(), capacityBeats)
  beats.io.push.valid := io.r.valid
  beats.io.push.data := io.r.data
  beats.io.push.last := io.r.last && tags.io.pop.payload
  io.r.ready := beats.io.push.ready // always true: every beat in flight has its place reserved
  tags.io.pop.ready := io.r.fire && io.r.last

  // A beat is e slots, cut into wordsPerBeat words, lowest addresses first.
  val beat = beats.io.pop
  if (c.wordsPerBeat == 1) {
    io.words.valid := beat.valid
    io.words.fragment := beat.data
    io.words.last := beat.last
    beat.ready := io.words.ready
  } else {
    val piece = Reg(UInt(log2Up(c.wordsPerBeat) bits)) init (0)
    val lastPiece = piece === c.wordsPerBeat - 1
    io.words.valid := beat.valid
    io.words.fragment := beat.data.subdivideIn(c.wordsPerBeat slices)(piece)
    io.words.last := beat.last && lastPiece
    beat.ready := io.words.ready && lastPiece
    when(io.words.fire) { piece := piece + 1 }
  }

  private val w = freeBeats.getWidth
  freeBeats := freeBeats - Mux(arCmd.fire, U(c.burstBeats, w bits), U(0, w bits)) + U(beat.fire).resize(w)

  val respError = Reg(Bool()) init (False)
  respError setWhen (io.r.fire && io.r.resp =/= Axi4.resp.OKAY)
  io.respError := respError
  io.idle := !walk.io.busy && !arPipe.valid && freeBeats === capacityBeats

  // The protocol's promise the credits rest on: a beat never arrives without its burst's tag. And the
  // credits' own promise: a beat that arrives has its room, so R waits on nothing but the buffer's reset.
  assert(!(io.r.valid && !tags.io.pop.valid), "BlockReader: an R beat with no burst in flight", FAILURE)
  assert(!(io.r.valid && !beats.io.push.ready), "BlockReader: an R beat with no room reserved for it", FAILURE)
}
