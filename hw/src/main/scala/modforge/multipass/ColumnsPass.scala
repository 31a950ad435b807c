package modforge.multipass

import modforge.polymul.{ConstForm, PrimeChoice, StreamNttTop}
import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** A column pass of the multi-pass engine for one limb (docs/polymul_multipass.md, "RTL: the column passes"),
  * the `columns` pass or, with [[ColumnsConfig.inverse]], `columns_inverse`, in the schedule's order
  * (verif/polymul/multipass_schedule.py, `schedule(p)`): block by block (be adjacent columns, one burst per row),
  * within a block each operand's n1 rows.
  *
  * `columns`: reader (a's block, then b's) -> corner turn (`inBuf`, rows in, columns out) -> the forward
  * [[StreamNttTop]] (n1 points, root r1, 2P lanes, one column a frame) -> corner turn (`outBuf`, columns in at the
  * NTT's bit-reversed positions, rows out in natural k1) -> the middle twiddles ([[MiddleTwiddleStage]]) -> writer
  * (x's block, then y's).
  *
  * `columns_inverse`: reader (x's block, rows k1) -> the inverse middle twiddles -> `inBuf` (columns out in the
  * bit-reversed order the inverse NTT takes) -> the inverse [[StreamNttTop]] (P lanes, n1^-1 included) ->
  * `outBuf` (natural j1) -> writer (c's block).
  *
  * Each stage hands a block to the next through a buffer half: `halves` = 2 lets the reader fill block i + 1
  * while the NTT takes block i, and the NTT fill one half of `outBuf` while the writer drains the other. The
  * buffers' sync reads go through small FIFOs whose room is counted before a read starts.
  *
  * `start` (one cycle, while not `busy`) runs the pass; `done` pulses when its last write is acknowledged. `busy`
  * is also high for a while after reset, while the middle twiddles' first seeds are computed.
  * Ports: `mem_*` is an AXI4 master with the specification's names, as [[MoverTop]]'s.
  */
class ColumnsPass(c: ColumnsConfig) extends ColumnsUnit(c) {
  private val R = c.R
  private val L = c.nttLanes
  private val F = c.frame
  private val W = c.rowWords

  val reader = new BlockReader(m)
  val writer = new BlockWriter(m)
  BlockPort.connect(io.mem, reader, writer)
  io.respError := reader.io.respError || writer.io.respError

  val inBuf = new CornerTurn(c, rowsIn = true, nttRev = c.inverse)
  val outBuf = new CornerTurn(c, rowsIn = false, nttRev = !c.inverse)
  val ntt = new StreamNttTop(c.shape, c.qs, c.r1s, c.inverse, c.loadedContext)
  val twiddles = new MiddleTwiddleStage(c)
  if (c.qs.size > 1) { ntt.io.sel := io.limb; twiddles.io.limb := io.limb }
  if (c.loaded) {
    ntt.io.load << io.load
    twiddles.io.load.valid := io.load.valid
    twiddles.io.load.payload := ntt.io.load_out
    twiddles.io.reseed := io.reseed
  }
  /** The loaded constants' forms, in chain order (empty unless `loaded`). */
  def loadedForms: Seq[ConstForm] = ntt.loadedForms ++ twiddles.loadedForms
  private def halfFlip(h: UInt): Unit = if (c.halves == 2) h := h + 1 else h := 0

  // ---- Reader words -> residues (the slots' low w bits) ----
  val readWords = Stream(Vec(UInt(c.w bits), R))
  readWords.arbitrationFrom(reader.io.words)
  for (i <- 0 until R) readWords.payload(i) := reader.io.words.fragment(i * m.slotBits, c.w bits).asUInt

  // ---- Fill: a block's rows into a half of inBuf ----
  val fillIn = Stream(Vec(UInt(c.w bits), R))
  val inFull = Vec.fill(2)(Reg(Bool()) init (False))
  val fillHalf = Reg(UInt(1 bits)) init (0)
  val fillRow = Reg(UInt(log2Up(c.n1) bits)) init (0)
  val fillWord = Reg(UInt(WrapCounter.bits(W) bits)) init (0)
  fillIn.ready := !inFull(fillHalf)
  inBuf.io.rowEn := fillIn.fire
  inBuf.io.rowHalf := fillHalf
  inBuf.io.row := fillRow
  inBuf.io.rowWord := fillWord
  inBuf.io.rowData := fillIn.payload
  val fillEnd = fillRow === c.n1 - 1 && fillWord === W - 1
  when(fillIn.fire) {
    WrapCounter.step(fillWord, W)
    when(fillWord === W - 1) { fillRow := fillRow + 1 }
    when(fillEnd) { inFull(fillHalf) := True; halfFlip(fillHalf) }
  }

  /** Issues sync reads of a buffer into a FIFO, a read only when the FIFO has room for it (counted with the
    * read in flight): a stream of the reads' data. */
  class SyncReadStream(width: Int) extends Area {
    val fifo = StreamFifo(Bits(width bits), 4)
    val issue = Bool()
    val inflight = RegNext(issue) init (False)
    val room = fifo.io.availability > U(inflight).resized
    fifo.io.push.valid := inflight
    assert(!(fifo.io.push.valid && !fifo.io.push.ready), "ColumnsPass: a buffer read with no room counted for it", FAILURE)
    def data(q: Bits): Unit = fifo.io.push.payload := q
  }

  // ---- Feed: a full half of inBuf to the NTT, column by column, beat by beat ----
  val feed = new SyncReadStream(L * c.w)
  val feedHalf = Reg(UInt(1 bits)) init (0)
  val feedBeat = Reg(UInt(WrapCounter.bits(F) bits)) init (0)
  val feedCol = Reg(UInt(log2Up(c.be) bits)) init (0)
  feed.issue := inFull(feedHalf) && feed.room
  inBuf.io.colEn := feed.issue
  inBuf.io.colHalf := feedHalf
  inBuf.io.beat := feedBeat
  inBuf.io.col := feedCol
  inBuf.io.colData.foreach(_ := 0)
  feed.data(Cat(inBuf.io.colQ)) // Cat of a Seq: lane 0 in the low bits, as the NTT's in_x
  when(feed.issue) {
    WrapCounter.step(feedBeat, F)
    when(feedBeat === F - 1) {
      feedCol := feedCol + 1
      when(feedCol === c.be - 1) { inFull(feedHalf) := False; halfFlip(feedHalf) }
    }
  }
  ntt.io.in_valid := feed.fifo.io.pop.valid
  ntt.io.in_x := feed.fifo.io.pop.payload.asUInt
  feed.fifo.io.pop.ready := ntt.io.in_ready

  // ---- The NTT's results into a free half of outBuf ----
  val outFull = Vec.fill(2)(Reg(Bool()) init (False))
  val resHalf = Reg(UInt(1 bits)) init (0)
  val resBeat = Reg(UInt(WrapCounter.bits(F) bits)) init (0)
  val resCol = Reg(UInt(log2Up(c.be) bits)) init (0)
  ntt.io.out_ready := !outFull(resHalf)
  val resFire = ntt.io.out_valid && !outFull(resHalf)
  outBuf.io.colEn := resFire
  outBuf.io.colHalf := resHalf
  outBuf.io.beat := resBeat
  outBuf.io.col := resCol
  for (j <- 0 until L) outBuf.io.colData(j) := ntt.io.out_y(j * c.w, c.w bits)
  when(resFire) {
    WrapCounter.step(resBeat, F)
    when(resBeat === F - 1) {
      resCol := resCol + 1
      when(resCol === c.be - 1) { outFull(resHalf) := True; halfFlip(resHalf) }
    }
  }

  // ---- Drain: a full half of outBuf, row by row, R columns a word ----
  val drain = new SyncReadStream(R * c.w)
  val drainHalf = Reg(UInt(1 bits)) init (0)
  val drainRow = Reg(UInt(log2Up(c.n1) bits)) init (0)
  val drainWord = Reg(UInt(WrapCounter.bits(W) bits)) init (0)
  drain.issue := outFull(drainHalf) && drain.room
  outBuf.io.rowEn := drain.issue
  outBuf.io.rowHalf := drainHalf
  outBuf.io.row := drainRow
  outBuf.io.rowWord := drainWord
  outBuf.io.rowData.foreach(_ := 0)
  drain.data(Cat(outBuf.io.rowQ))
  when(drain.issue) {
    WrapCounter.step(drainWord, W)
    when(drainWord === W - 1) {
      drainRow := drainRow + 1
      when(drainRow === c.n1 - 1) { outFull(drainHalf) := False; halfFlip(drainHalf) }
    }
  }
  val drained = Stream(Vec(UInt(c.w bits), R))
  drained.arbitrationFrom(drain.fifo.io.pop)
  for (i <- 0 until R) drained.payload(i) := drain.fifo.io.pop.payload(i * c.w, c.w bits).asUInt

  // ---- Writer words: residues in slots ----
  val writeWords = Stream(Vec(UInt(c.w bits), R))
  writer.io.words.arbitrationFrom(writeWords)
  writer.io.words.payload := Cat(writeWords.payload.map(_.resize(m.slotBits)))

  // ---- The middle twiddles: after the NTT (forward), before it (inverse) ----
  if (c.inverse) {
    twiddles.io.input << readWords
    fillIn << twiddles.io.output
    writeWords << drained
  } else {
    fillIn << readWords
    twiddles.io.input << drained
    writeWords << twiddles.io.output
  }

  // ---- The blocks' descriptors, in the schedule's order ----
  /** Walks (block, operand) in order and hands each pair's descriptor to `cmd` (as [[MoverTop]]'s). */
  class Sequencer(regions: Seq[String], cmd: Stream[BlockDescriptor]) extends Area {
    val pending = Reg(Bool()) init (False)
    val block = Reg(UInt(WrapCounter.bits(c.blocks) bits)) init (0)
    val operand = Reg(UInt(1 bits)) init (0)
    private def base(r: String) = if (c.runtimeBase) U(m.regionBase(r), m.addressBits bits) + io.base
      else U(m.regionBase(r), m.addressBits bits)
    cmd.valid := pending
    cmd.baseBytes := (if (regions.size == 1) base(regions.head) else Mux(operand === 0, base(regions(0)), base(regions(1))))
    cmd.rowStrideBytes := U(m.rowStrideBytes, m.addressBits bits)
    cmd.rows := U(c.n1, m.rowsBits bits)
    cmd.rowBeats := U(m.burstBeats, m.rowBeatsBits bits)
    cmd.colOffsetBytes := (block << log2Up(m.burstBytes)).resize(m.addressBits) // block k: columns [k be, (k + 1) be)
    val lastOperand = if (regions.size == 1) True else operand === regions.size - 1
    when(cmd.fire) {
      if (regions.size > 1) operand := operand + 1
      when(lastOperand) {
        WrapCounter.step(block, c.blocks)
        when(block === c.blocks - 1) { pending := False }
      }
    }
    def begin(): Unit = { pending := True; block := 0; operand := 0 }
  }
  val reads = new Sequencer(if (c.inverse) Seq("x") else Seq("a", "b"), reader.io.cmd)
  val writes = new Sequencer(if (c.inverse) Seq("c") else Seq("x", "y"), writer.io.cmd)

  private val descriptors = c.blocks * c.operands
  val busy = Reg(Bool()) init (False)
  val done = Reg(Bool()) init (False)
  // After reset the middle twiddles' generator computes block 0's seeds (about be (latency + 2) cycles); a pass
  // starts once they are ready. Later passes find them ready: a pass computes the next one's before its last block.
  io.busy := busy || twiddles.io.busy
  io.done := done
  val acked = Reg(UInt(log2Up(descriptors + 1) bits)) init (0)
  done := False
  when(io.start && !io.busy) {
    busy := True
    acked := 0
    reads.begin()
    writes.begin()
  }
  when(writer.io.blockDone) {
    acked := acked + 1
    when(acked === descriptors - 1) { busy := False; done := True }
  }
}
