package modforge.multipass

import modforge.polymul.{ConstForm, PrimeChoice, StreamPolymul}
import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** The `rows` pass of the multi-pass engine for one limb (docs/polymul_multipass.md, "RTL: the rows pass"):
  * for each row k1 of the n1 x n2 matrices X (region x) and Y (region y), Z[k1] = X[k1] Y[k1] mod
  * (y^n2 + 1) mod q, written back over row k1 of x. The product is the single-pass streaming engine's
  * ([[StreamPolymul]] at n = n2, P lanes, the one limb q: [[RowsConfig]]), instantiated, not copied.
  *
  * **Reads.** One [[BlockReader]] on the AXI4 read channels, reading x and y interleaved chunk by chunk, so
  * both operands arrive together and a few chunks, not a row, are buffered: for chunk k of row k1, a
  * descriptor of x (rows = the P lane segments of the row, stride n2 / P slots, `chunkBeats` beats each),
  * then the same of y. [[RowPairBuffer]] turns each group of 2 P chunks into `chunkCoeffs` engine beats.
  * The reads run ahead of the engine by the pair buffer's second group and the reader's outstanding bursts,
  * across row boundaries, so row k1 + 1's reads overlap the engine's work on row k1.
  *
  * **Writes.** [[RowOutBuffer]] gathers each group of the engine's results into lane chunks; once a group is
  * whole, its write descriptor (the same shape over x) goes to one [[BlockWriter]], which writes while the
  * engine computes the next rows. The engine's `out_ready` is the output buffer's room: when the writes
  * stall, the engine stalls (its whole pipeline holds), and the reads stop when the pair buffer is full.
  *
  * **In place, without a hazard.** A write of row k1 is issued only once its group of results exists, and
  * the engine's first result of a row leaves `latency` > n2 / P ticks after the row's first beat went in, so
  * after every beat of the row went in, hence after every read of row k1 returned its data (R). So a row's
  * write never overtakes its own read. The reads in flight at that time belong to rows k1 + 1 and later,
  * whose addresses a write of row k1 never touches; region y is only read.
  *
  * `start` (one cycle, while not `busy`) runs the pass; `done` pulses when the last write is acknowledged.
  * Ports: `mem_*` is an AXI4 master with the specification's signal names, as [[MoverTop]]'s.
  */
class RowsPass(val c: RowsConfig) extends Component {
  val m: MoverConfig = c.mover
  require(c.engine.latency >= c.frame, s"the engine's latency ${c.engine.latency} is under a row's ${c.frame} beats: a row's " +
    "results could leave before its last beat went in, and its write overtake its read")
  val io = new Bundle {
    val start = in Bool ()
    val busy = out Bool ()
    val done = out Bool ()
    val respError = out Bool ()
    /** With `runtimeBase`: added to every region base; held from `start` to `done`. */
    val base = c.runtimeBase generate (in UInt (m.addressBits bits))
    /** Limbs in sequence ([[RowsConfig.sequence]]): the limb of the pass, held from `start` to `done`. */
    val limb = (c.qs.size > 1) generate (in UInt (PrimeChoice.selBits(c.qs.size) bits))
    /** With `loaded` (`_d1`): the engine's constants, a word a cycle into its chain ([[modforge.polymul.ConstChain]]),
      * only while no pass runs ([[ConstLoader]]). */
    val load = c.loaded generate slave(Flow(Bits(c.loadedContext.cellBits bits)))
    val mem = master(Axi4(m.axi))
  }
  Axi4SpecRenamer(io.mem)

  val reader = new BlockReader(m)
  val writer = new BlockWriter(m)
  BlockPort.connect(io.mem, reader, writer)
  io.respError := reader.io.respError || writer.io.respError

  val pairs = new RowPairBuffer(c)
  pairs.io.beats << reader.io.words
  val engine = new StreamPolymul(c.engine, if (c.qs.size > 1) c.qs else Nil, c.loadedContext)
  if (c.qs.size > 1) engine.io.sel := io.limb
  if (c.loaded) engine.io.load << io.load
  /** The loaded constants' forms, in chain order (empty unless `loaded`). */
  def loadedForms: Seq[ConstForm] =
    engine.loadedForms ++ (if (c.streamed) twiddles.twIn.loadedForms ++ twiddles.twOut.loadedForms else Nil)
  if (!c.streamed) {
    engine.io.in_valid := pairs.io.pairs.valid
    pairs.io.pairs.ready := engine.io.in_ready
    engine.io.in_a := pairs.io.pairs.a
    engine.io.in_b := pairs.io.pairs.b
  }
  val results = new RowOutBuffer(c)
  if (!c.streamed) results.io.results.payload := engine.io.out_c
  writer.io.words << results.io.beats

  /** Streamed columns (`_c1`): the middle twiddles around the engine ([[RowTwiddleStage]]), X and Y before it, Z's
    * inverse after it. The engine then takes its beats from `twIn`'s FIFO (a register's valid, as the pair buffer's)
    * and gives its results to `twOut`. */
  class StreamedTwiddles extends Area {
    val twIn = new RowTwiddleStage(c.n, c.n1, c.n2, c.w, c.mul, c.qs, c.psis, inverse = false, operands = 2, c.loadedContext)
    val twOut = new RowTwiddleStage(c.n, c.n1, c.n2, c.w, c.mul, c.qs, c.psis, inverse = true, operands = 1, c.loadedContext)
    // Loaded constants (_d1): the chain runs on from the engine's last cell through twIn's and twOut's.
    if (c.loaded) {
      twIn.io.load.valid := io.load.valid
      twIn.io.load.payload := engine.io.load_out
      twOut.io.load.valid := io.load.valid
      twOut.io.load.payload := twIn.io.loadOut
    }
    /** A pass starts (assigned below, once `busy` exists). */
    val start = Bool()
    val resultValid = Bool()
    for (t <- Seq(twIn, twOut)) {
      t.io.start := start
      if (c.qs.size > 1) t.io.limb := io.limb
    }
    twIn.io.input.valid := pairs.io.pairs.valid
    pairs.io.pairs.ready := twIn.io.input.ready
    twIn.io.input.payload(0) := pairs.io.pairs.a
    twIn.io.input.payload(1) := pairs.io.pairs.b
    engine.io.in_valid := twIn.io.output.valid
    twIn.io.output.ready := engine.io.in_ready
    engine.io.in_a := twIn.io.output.payload(0)
    engine.io.in_b := twIn.io.output.payload(1)
    twOut.io.input.valid := resultValid
    twOut.io.input.payload(0) := engine.io.out_c
    results.io.results.valid := twOut.io.output.valid
    results.io.results.payload := twOut.io.output.payload(0)
    twOut.io.output.ready := results.io.results.ready
  }
  val twiddles = c.streamed generate new StreamedTwiddles
  /** The engine's input: its beats' valid and their fire (a Scala choice: the corner-turn mode's hardware is as before). */
  private def fedValid: Bool = if (c.streamed) twiddles.twIn.io.output.valid else pairs.io.pairs.valid
  private def fedFire: Bool = if (c.streamed) twiddles.twIn.io.output.fire else pairs.io.pairs.fire
  private def resultReady: Bool = if (c.streamed) twiddles.twOut.io.input.ready else results.io.results.ready

  // Rows fed to the engine this pass, and the next beat's place in its row.
  val inBeat = Reg(UInt(WrapCounter.bits(c.frame) bits)) init (0)
  val rowsFed = Reg(UInt(log2Up(c.n1 + 1) bits)) init (0)
  when(fedFire) {
    WrapCounter.step(inBeat, c.frame)
    when(inBeat === c.frame - 1) { rowsFed := rowsFed + 1 }
  }
  /** A row boundary with the next row's first beat not here yet, rows in flight and more to come. The engine
    * would start a phantom product of n2 / P empty beats to keep its frames contiguous (StreamControl), and the
    * late row would wait for it to pass; holding `out_ready` low stalls the whole engine instead (a stalled
    * output freezes its pipeline), for just as long as the row is late. Only while a result is presented does
    * the hold stop the engine; otherwise the phantom goes ahead, as it must when the pipeline has no real beat
    * to hold. `pairs.valid` is a register, so no ready-to-ready loop: the hold ends the cycle the row arrives. */
  val holdOut = inBeat === 0 && rowsFed =/= 0 && rowsFed =/= c.n1 && !fedValid
  engine.io.out_ready := resultReady && !holdOut
  // the beat held is not taken (it is presented again)
  if (c.streamed) twiddles.resultValid := engine.io.out_valid && !holdOut
  else results.io.results.valid := engine.io.out_valid && !holdOut
  val busy = Reg(Bool()) init (False)
  if (c.streamed) twiddles.start := io.start && !busy
  val done = Reg(Bool()) init (False)
  io.busy := busy
  io.done := done

  /** Walks the groups (row, chunk) in order and, per group, the operands `regions`, handing each one's
    * descriptor to `cmd` while `allow`. */
  class Sequencer(regions: Seq[String], cmd: Stream[BlockDescriptor], allow: Bool) extends Area {
    val pending = Reg(Bool()) init (False)
    val rowBase = Reg(UInt(m.addressBits bits)) init (0) // row k1's first byte within its region
    val chunk = Reg(UInt(WrapCounter.bits(c.groupsPerRow) bits)) init (0)
    val row = Reg(UInt(WrapCounter.bits(c.n1) bits)) init (0)
    val operand = Reg(UInt(1 bits)) init (0)
    private def base(r: String) = if (c.runtimeBase) U(m.regionBase(r), m.addressBits bits) + io.base
      else U(m.regionBase(r), m.addressBits bits)
    cmd.valid := pending && allow
    cmd.baseBytes := (if (regions.size == 1) base(regions.head) else Mux(operand === 0, base(regions(0)), base(regions(1)))) + rowBase
    cmd.rowStrideBytes := U(c.laneStrideBytes, m.addressBits bits)
    cmd.rows := U(c.P, m.rowsBits bits)
    cmd.rowBeats := U(c.chunkBeats, m.rowBeatsBits bits)
    cmd.colOffsetBytes := (chunk << log2Up(c.chunkBytes)).resize(m.addressBits) // chunk k starts k chunks into its lane segment
    val lastOperand = if (regions.size == 1) True else operand === regions.size - 1
    when(cmd.fire) {
      if (regions.size > 1) operand := operand + 1
      when(lastOperand) {
        WrapCounter.step(chunk, c.groupsPerRow)
        when(chunk === c.groupsPerRow - 1) {
          WrapCounter.step(row, c.n1)
          rowBase := rowBase + U(m.rowStrideBytes, m.addressBits bits)
          when(row === c.n1 - 1) { pending := False }
        }
      }
    }
    def begin(): Unit = { pending := True; rowBase := 0; chunk := 0; row := 0; operand := 0 }
  }
  val reads = new Sequencer(Seq("x", "y"), reader.io.cmd, True)
  // A group's write goes out once the engine has delivered the whole group (see the class comment).
  val owed = Reg(UInt(log2Up(c.groups + 1) bits)) init (0)
  val writes = new Sequencer(Seq("x"), writer.io.cmd, owed =/= 0)
  owed := owed + U(results.io.groupReady).resized - U(writer.io.cmd.fire).resized

  val acked = Reg(UInt(log2Up(c.groups + 1) bits)) init (0)
  done := False
  when(io.start && !busy) {
    busy := True
    acked := 0
    rowsFed := 0
    reads.begin()
    writes.begin()
  }
  when(writer.io.blockDone) {
    acked := acked + 1
    when(acked === c.groups - 1) { busy := False; done := True }
  }
}
