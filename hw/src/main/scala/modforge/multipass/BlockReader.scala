package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._
import modforge.FanoutFifo

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
  * AR and `words` are driven from registers (the AR command and the words each through a pipeline register);
  * no input ready reaches an output valid combinationally. The buffer is read through copies of its pointer
  * ([[modforge.FanoutFifo]]), and the words' register (`wordsStage`) cuts that read and the word's slice from
  * whatever the consumer does with the word: the buffer's read was the reader's 7.0-7.55 ns path in
  * `mpoly_8192_x32_b256_l1_s32_p1_w31_t1` (`flow/sta_blocks.py`), against 5.8-6.8 ns for the arithmetic.
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
  // Flip-flops read through copies of the read pointer (FanoutFifo): a StreamFifo's one address register into
  // every bit of its beats was this reader's critical path.
  val beats = new FanoutFifo(c.busBits + 1, capacityBeats)
  beats.io.push.valid := io.r.valid
  beats.io.push.payload := (io.r.last && tags.io.pop.payload) ## io.r.data
  io.r.ready := beats.io.push.ready // always true: every beat in flight has its place reserved
  tags.io.pop.ready := io.r.fire && io.r.last

  // A beat is e slots, cut into wordsPerBeat words, lowest addresses first.
  val beat = beats.io.pop.translateWith {
    val b = Beat()
    b.data := beats.io.pop.payload(c.busBits - 1 downto 0)
    b.last := beats.io.pop.payload.msb
    b
  }
  val words = Stream(Fragment(Bits(c.wordBits bits)))
  if (c.wordsPerBeat == 1) {
    words.valid := beat.valid
    words.fragment := beat.data
    words.last := beat.last
    beat.ready := words.ready
  } else {
    val piece = Reg(UInt(log2Up(c.wordsPerBeat) bits)) init (0)
    val lastPiece = piece === c.wordsPerBeat - 1
    words.valid := beat.valid
    words.fragment := beat.data.subdivideIn(c.wordsPerBeat slices)(piece)
    words.last := beat.last && lastPiece
    beat.ready := words.ready && lastPiece
    when(words.fire) { piece := piece + 1 }
  }
  val wordsStage = words.m2sPipe()
  io.words << wordsStage

  private val w = freeBeats.getWidth
  freeBeats := freeBeats - Mux(arCmd.fire, U(c.burstBeats, w bits), U(0, w bits)) + U(beat.fire).resize(w)

  val respError = Reg(Bool()) init (False)
  respError setWhen (io.r.fire && io.r.resp =/= Axi4.resp.OKAY)
  io.respError := respError
  io.idle := !walk.io.busy && !arPipe.valid && freeBeats === capacityBeats && !wordsStage.valid

  // The protocol's promise the credits rest on: a beat never arrives without its burst's tag. And the
  // credits' own promise: a beat that arrives has its room, so R waits on nothing but the buffer's reset.
  assert(!(io.r.valid && !tags.io.pop.valid), "BlockReader: an R beat with no burst in flight", FAILURE)
  assert(!(io.r.valid && !beats.io.push.ready), "BlockReader: an R beat with no room reserved for it", FAILURE)
}
