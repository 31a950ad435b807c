package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** Loads the pass units' constants from external memory before each of their passes (the multi-pass engine with its
  * primes loaded at run time, `_d1`; docs/polymul_multipass.md, "Primes loaded at run time").
  *
  * Unit u asks with `req(u)` (held until `done(u)`) and the byte address of its image, `addr(u)`: `unitWords(u)`
  * words of `wordBytes` bytes, each a cell in its low bits ([[modforge.polymul.ConstChain]]), in the order they are
  * shifted in. The loader reads the image in INCR bursts of up to [[ConstLoader.burstBeats]] full-width beats (the
  * image is aligned to that many beats, so no burst crosses 4 KB), at most [[ConstLoader.inFlight]] in flight, and
  * shifts the words into the unit's chain a word a cycle (`load(u)`), the padding at the image's end left out;
  * `done(u)` pulses once the last word is in. One unit at a time, the highest-numbered first (columns_inverse, then
  * rows, then columns: the unit downstream holds the earlier item, which the units before it wait for).
  *
  * **Why a word a cycle, without a buffer.** The images are small (a few hundred words a unit at n = 32768) and each is
  * loaded once a pass, so a load is about 1% of a pass at n = 32768: not worth a buffer of beats. R is taken in the
  * cycle the previous beat's last word shifts (`rready` low for perBeat - 1 cycles of each beat): the ID is the
  * loader's own, so only its own bursts wait.
  */
class ConstLoader(axi: Axi4Config, cellBits: Int, wordBytes: Int, unitWords: Seq[Int]) extends Component {
  val units: Int = unitWords.size
  private val beatBytes = axi.dataWidth / 8
  require(beatBytes >= wordBytes, s"a ${axi.dataWidth}-bit bus carries no $wordBytes-byte constant word: use a wider bus")
  require(cellBits <= 8 * wordBytes)
  val perBeat: Int = beatBytes / wordBytes
  /** Beats of unit u's image. */
  def beats(u: Int): Int = scala.math.max(1, (unitWords(u) + perBeat - 1) / perBeat)
  val io = new Bundle {
    val req = in Vec (Bool(), units)
    val addr = in Vec (UInt(axi.addressWidth bits), units)
    val done = out Vec (Bool(), units)
    val load = Vec(master(Flow(Bits(cellBits bits))), units)
    /** Sticky: a read beat came back with RRESP other than OKAY. */
    val respError = out Bool ()
    val mem = master(Axi4ReadOnly(axi))
  }

  private val maxBeats = (0 until units).map(beats).max
  val active = Reg(Bool()) init (False)
  val unit = Reg(UInt(log2Up(scala.math.max(2, units)) bits)) init (0)
  val nextAddr = Reg(UInt(axi.addressWidth bits)) init (0)
  val beatsLeft = Reg(UInt(log2Up(maxBeats + 1) bits)) init (0)        // beats not yet asked for
  val arValid = Reg(Bool()) init (False)
  val inFlight = Reg(UInt(2 bits)) init (0)                            // bursts asked for, their last beat not in
  val wordsLeft = Reg(UInt(log2Up(unitWords.max + 1) bits)) init (0)   // words still to shift
  val hold = Reg(Bits(axi.dataWidth bits))
  val holdLeft = Reg(UInt(log2Up(perBeat + 1) bits)) init (0)          // words of `hold` still to shift
  val doneReg = Reg(Bool()) init (False)

  private val lenMax = U(ConstLoader.burstBeats, beatsLeft.getWidth + 1 bits)
  private val thisBurst = Mux(beatsLeft.resize(beatsLeft.getWidth + 1) > lenMax, lenMax, beatsLeft.resize(beatsLeft.getWidth + 1))
  io.mem.ar.valid := arValid
  io.mem.ar.addr := nextAddr
  io.mem.ar.id := 0
  io.mem.ar.len := (thisBurst - 1).resized
  io.mem.ar.setFullSize()
  io.mem.ar.setBurstINCR()
  io.mem.ar.setCache(B"0011")
  io.mem.ar.setProt(B"000")
  // Up to ConstLoader.inFlight bursts asked for at once: the next one's latency passes while this one's beats shift.
  val rLast = io.mem.r.fire && io.mem.r.last
  inFlight := inFlight + U(io.mem.ar.fire).resized - U(rLast).resized
  val arNext = beatsLeft - thisBurst.resize(beatsLeft.getWidth)
  when(io.mem.ar.fire) {
    beatsLeft := arNext
    nextAddr := nextAddr + (thisBurst.resize(axi.addressWidth) << log2Up(beatBytes)).resized
    // Another burst at once if the image has more beats and fewer than the limit will be in flight.
    arValid := arNext =/= 0 && (inFlight - U(rLast).resized) < ConstLoader.inFlight - 1
  }
  when(!arValid && active && beatsLeft =/= 0 && inFlight < ConstLoader.inFlight && !io.mem.ar.fire) { arValid := True }

  // A beat's words shift a word a cycle; the next beat is taken in the cycle its last word shifts (no bubble).
  val shifting = holdLeft =/= 0
  val emit = shifting && wordsLeft =/= 0
  io.mem.r.ready := active && holdLeft <= 1
  when(shifting) {
    holdLeft := holdLeft - 1
    hold := (hold >> (8 * wordBytes)).resized
  }
  when(io.mem.r.fire) {
    hold := io.mem.r.data
    holdLeft := perBeat
  }
  when(emit) { wordsLeft := wordsLeft - 1 }
  for (u <- 0 until units) {
    io.load(u).valid := emit && unit === u
    io.load(u).payload := hold(0, cellBits bits)
  }

  // Finished: every beat in and shifted (the padding words of the last beat shift nowhere).
  doneReg := False
  when(active && !arValid && inFlight === 0 && beatsLeft === 0 && holdLeft === 0) {
    active := False
    doneReg := True
  }
  for (u <- 0 until units) io.done(u) := doneReg && unit === u

  // The highest-numbered unit first: the later pass of an earlier item, which the units before it wait for.
  val pick = OHMasking.last(io.req.asBits)
  when(!active && !doneReg && io.req.orR) {
    val u = OHToUInt(pick)
    active := True
    unit := u.resized
    nextAddr := io.addr(u)
    beatsLeft := Vec((0 until units).map(i => U(beats(i), beatsLeft.getWidth bits)))(u)
    wordsLeft := Vec((0 until units).map(i => U(unitWords(i), wordsLeft.getWidth bits)))(u)
    arValid := True
  }

  val respError = Reg(Bool()) init (False)
  respError setWhen (io.mem.r.fire && io.mem.r.resp =/= Axi4.resp.OKAY)
  io.respError := respError
}

object ConstLoader {
  /** Beats of the loader's longest burst; each unit's image is aligned to this many beats (16 beats of up to 1,024
    * bits divide 4 KB, so no burst crosses a 4 KB boundary). */
  val burstBeats = 16
  /** Bursts the loader has in flight at most. */
  val inFlight = 2
  /** Bytes a unit's image is aligned to and padded to: a whole burst. */
  def alignBytes(axi: Axi4Config): Int = burstBeats * axi.dataWidth / 8
}
