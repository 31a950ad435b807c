package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** Writes blocks to external memory: for each [[BlockDescriptor]] it issues the block's bursts on AW
  * (INCR, full-width beats, AxLEN = burstBeats - 1, ID 0), packs the incoming coefficient `words` into
  * beats (the first word in the lowest bits, as [[BlockReader]] unpacks them) and sends them on W with
  * full WSTRB and WLAST on every burstBeats-th beat, and counts the B responses.
  *
  * `blockDone` pulses when the last burst of a block is acknowledged: only then has the block landed in
  * memory (AXI4 makes a write visible at its B, not at its W), and a pass may not read what the previous
  * pass wrote before that (docs/polymul_multipass.md, "Cycles of a pass").
  *
  * At most `outstanding` bursts are issued and not yet acknowledged. AW does not wait for W data, nor W
  * for AW (AXI4 lets the slave wait for either, so the master may do neither). AW and W leave through
  * pipeline registers; B is always accepted (each response has its burst's tag waiting).
  */
class BlockWriter(c: MoverConfig) extends Component {
  val io = new Bundle {
    val cmd = slave Stream (BlockDescriptor(c))
    val words = slave Stream (Bits(c.wordBits bits))
    val aw = master Stream (Axi4Aw(c.axi))
    val w = master Stream (Axi4W(c.axi))
    val b = slave Stream (Axi4B(c.axi))
    /** One cycle per block, in order: the block's last write is acknowledged. */
    val blockDone = out Bool ()
    /** No block under way and every burst issued acknowledged. */
    val idle = out Bool ()
    /** Sticky: a write came back with BRESP other than OKAY. */
    val respError = out Bool ()
  }

  val walk = new BlockBursts(c)
  walk.io.cmd << io.cmd

  // Per burst unacknowledged: is it the block's last? Its depth is the limit on outstanding writes.
  val tags = StreamFifo(Bool(), c.outstanding, latency = 1)
  val awCmd = Stream(Axi4Aw(c.axi))
  awCmd.valid := walk.io.bursts.valid && tags.io.push.ready
  tags.io.push.valid := walk.io.bursts.valid && awCmd.ready
  tags.io.push.payload := walk.io.bursts.last
  walk.io.bursts.ready := tags.io.push.ready && awCmd.ready
  awCmd.addr := walk.io.bursts.addr
  awCmd.id := 0
  awCmd.len := c.burstBeats - 1
  awCmd.setFullSize()
  awCmd.setBurstINCR()
  awCmd.setCache(B"0011")
  awCmd.setProt(B"000")
  val awPipe = awCmd.m2sPipe()
  io.aw << awPipe

  io.b.ready := True
  tags.io.pop.ready := io.b.valid
  io.blockDone := RegNext(io.b.valid && tags.io.pop.payload) init (False)
  val respError = Reg(Bool()) init (False)
  respError setWhen (io.b.fire && io.b.resp =/= Axi4.resp.OKAY)
  io.respError := respError
  io.idle := !walk.io.busy && !awPipe.valid && !tags.io.pop.valid
  assert(!(io.b.valid && !tags.io.pop.valid), "BlockWriter: a B response with no burst outstanding", FAILURE)

  // Words into beats: wordsPerBeat words a beat, the first in the lowest bits.
  val beat = Stream(Bits(c.busBits bits))
  if (c.wordsPerBeat == 1) {
    beat << io.words
  } else {
    val held = Vec(Reg(Bits(c.wordBits bits)), c.wordsPerBeat - 1)
    val piece = Reg(UInt(log2Up(c.wordsPerBeat) bits)) init (0)
    val lastPiece = piece === c.wordsPerBeat - 1
    beat.valid := io.words.valid && lastPiece
    beat.payload := io.words.payload ## held.asBits
    io.words.ready := !lastPiece || beat.ready
    when(io.words.fire) {
      for (k <- 0 until c.wordsPerBeat - 1) when(piece === k) { held(k) := io.words.payload }
      piece := piece + 1
    }
  }

  val wCmd = Stream(Axi4W(c.axi))
  val beatInBurst = Reg(UInt((log2Up(c.burstBeats) max 1) bits)) init (0)
  wCmd.arbitrationFrom(beat)
  wCmd.data := beat.payload
  wCmd.strb.setAll()
  wCmd.last := (if (c.burstBeats == 1) True else beatInBurst === c.burstBeats - 1)
  when(wCmd.fire) { beatInBurst := (if (c.burstBeats == 1) U(0) else beatInBurst + 1) }
  io.w << wCmd.m2sPipe()
}
