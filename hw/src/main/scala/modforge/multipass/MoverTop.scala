package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** The burst mover on its own: one `columns` pass of the multi-pass schedule as a copy. For each column
  * block (be adjacent columns, one burst per row, n1 rows) it reads the block of region a (and of b, with
  * two operands) and writes it to the same offsets of region x (and y): the reads and writes the engine's
  * first pass makes, in the schedule's order (verif/polymul/multipass_schedule.py, `schedule(p)`): block by
  * block, within a block a's rows then b's, within a row left to right.
  *
  * Between the reader and the writer sits whatever computes: here the stream leaves the top (`rdWords`)
  * and comes back (`wrWords`), so a bench can stall either side, and so that the engine later plugs in
  * at the same two streams.
  *
  * `start` (one cycle, while not `busy`) runs the pass; `done` pulses once every write of it is
  * acknowledged, when a following pass may read what it wrote.
  *
  * Ports: `mem_*` is an AXI4 master with the specification's signal names (mem_araddr, mem_arvalid, ...).
  */
class MoverTop(val c: MoverConfig) extends Component {
  val io = new Bundle {
    val start = in Bool ()
    val busy = out Bool ()
    val done = out Bool ()
    val respError = out Bool ()
    val mem = master(Axi4(c.axi))
    val rdWords = master Stream (Fragment(Bits(c.wordBits bits)))
    val wrWords = slave Stream (Bits(c.wordBits bits))
  }
  Axi4SpecRenamer(io.mem)

  val reader = new BlockReader(c)
  val writer = new BlockWriter(c)
  BlockPort.connect(io.mem, reader, writer)
  io.rdWords << reader.io.words
  writer.io.words << io.wrWords
  io.respError := reader.io.respError || writer.io.respError

  private val descriptors = c.blocks * c.operands
  val busy = Reg(Bool()) init (False)
  val done = Reg(Bool()) init (False)
  io.busy := busy
  io.done := done

  /** Walks (block, operand) in the schedule's order and hands each pair's descriptor to `cmd`. */
  class Sequencer(regions: Seq[String], cmd: Stream[BlockDescriptor]) extends Area {
    val pending = Reg(Bool()) init (False)
    val block = Reg(UInt((log2Up(c.blocks) max 1) bits)) init (0)
    val operand = Reg(UInt(1 bits)) init (0)
    cmd.valid := pending
    cmd.baseBytes := (if (regions.size == 1) U(c.regionBase(regions.head), c.addressBits bits)
                      else Mux(operand === 0, U(c.regionBase(regions(0)), c.addressBits bits), U(c.regionBase(regions(1)), c.addressBits bits)))
    cmd.rowStrideBytes := U(c.rowStrideBytes, c.addressBits bits)
    cmd.rows := U(c.n1, c.rowsBits bits)
    cmd.rowBeats := U(c.burstBeats, c.rowBeatsBits bits)
    // Block k starts k bursts into each row: its columns are [k be, (k + 1) be).
    cmd.colOffsetBytes := (block << log2Up(c.burstBytes)).resize(c.addressBits)
    val lastOperand = if (regions.size == 1) True else operand === regions.size - 1
    val lastBlock = block === c.blocks - 1
    when(cmd.fire) {
      if (regions.size > 1) operand := operand + 1
      when(lastOperand) {
        block := block + 1
        when(lastBlock) { pending := False; block := 0 }
      }
    }
    def begin(): Unit = { pending := True; block := 0; operand := 0 }
  }
  val reads = new Sequencer(c.reads, reader.io.cmd)
  val writes = new Sequencer(c.writes, writer.io.cmd)

  // The pass ends at the last block's acknowledgement (blocks complete in order: one ID, in-order B).
  val acked = Reg(UInt(log2Up(descriptors + 1) bits)) init (0)
  done := False
  when(io.start && !busy) {
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
