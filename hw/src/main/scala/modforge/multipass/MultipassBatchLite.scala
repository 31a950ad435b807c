package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._
import spinal.lib.bus.amba4.axilite._

/** A batch engine ([[MultipassBatch]]) configured through an AXI4-Lite slave (`_a1`; docs/polymul_multipass.md,
  * "An AXI4-Lite configuration port"), as a host CPU or a SoC interconnect drives an accelerator: the batch's
  * parameters are registers, `start` is a register write, and the engine's status is a register too. `busy`, `done`,
  * `active` and `respError` stay wires as well (`done` as an interrupt line).
  *
  * Registers (32 bits, byte offsets; [[MultipassBatchLite.registers]], the manifest's `config.registers`):
  *
  *  - 0x00 `control` (write): bit 0 starts the batch with the registers below, taken when the engine is not busy
  *    (as `start`); writes while it is busy are ignored;
  *  - 0x04 `status` (read): bit 0 busy, bit 1 done (set by the batch's `done`, cleared by a start), bit 2 an error
  *    response, bits 8-10 `active`;
  *  - 0x08 `count` (read/write): products in the batch;
  *  - 0x0c `limbs` (read/write, `_d1` only): limbs a product;
  *  - 0x10 `const_base` (read/write, `_d1` only): the constants image's byte address (the low 32 bits);
  *  - 0x14 `cycles` (read): cycles from the last start to its done (or to now, while busy).
  */
class MultipassBatchLite(val c: MultipassEngineConfig) extends Component {
  require(c.batch, "_a1: the AXI4-Lite configuration port drives a batch engine (_t1)")
  require(c.mover.addressBits <= 32, s"${c.mover.addressBits}-bit addresses: const_base is one 32-bit register here")
  val io = new Bundle {
    val cfg = slave(AxiLite4(MultipassBatchLite.config))
    val busy = out Bool ()
    val done = out Bool ()
    val active = out Bits (3 bits)
    val respError = out Bool ()
    val mem = master(Axi4(c.batchAxi))
  }
  AxiLite4SpecRenamer(io.cfg)
  Axi4SpecRenamer(io.mem)

  val engine = new MultipassBatch(c)
  io.mem <> engine.io.mem
  io.busy := engine.io.busy
  io.done := engine.io.done
  io.active := engine.io.active
  io.respError := engine.io.respError

  val regs = new AxiLite4SlaveFactory(io.cfg)
  val count = Reg(UInt(c.countBits bits)) init (0)
  regs.readAndWrite(count, 0x08)
  engine.io.count := count
  val control = regs.createAndDriveFlow(Bool(), 0x00)
  val start = control.valid && control.payload
  engine.io.start := start
  val doneSticky = Reg(Bool()) init (False)
  doneSticky setWhen (engine.io.done)
  when(start && !engine.io.busy) { doneSticky := False }
  regs.read(B(0, 21 bits) ## engine.io.active ## B(0, 5 bits) ## engine.io.respError ## doneSticky ## engine.io.busy, 0x04)
  if (c.loaded) {
    val limbs = Reg(UInt(c.limbsBits bits)) init (1)
    val constBase = Reg(UInt(c.mover.addressBits bits)) init (0)
    regs.readAndWrite(limbs, 0x0c)
    regs.readAndWrite(constBase, 0x10)
    engine.io.limbs := limbs
    engine.io.const_base := constBase
  }
  val cycles = Reg(UInt(32 bits)) init (0)
  when(start && !engine.io.busy) { cycles := 0 } elsewhen (engine.io.busy && !engine.io.done) { cycles := cycles + 1 }
  regs.read(cycles, 0x14)

  /** The manifest's `config` member. */
  def json: String = MultipassBatchLite.json(c)
}

object MultipassBatchLite {
  val config: AxiLite4Config = AxiLite4Config(addressWidth = 8, dataWidth = 32)
  /** (name, offset, access, meaning) of each register. */
  def registers(c: MultipassEngineConfig): Seq[(String, Int, String, String)] = Seq(
    ("control", 0x00, "w", "bit 0: start the batch (taken when not busy)"),
    ("status", 0x04, "r", "bit 0 busy, bit 1 done (cleared by a start), bit 2 error response, bits 8-10 active"),
    ("count", 0x08, "rw", s"products in the batch (${c.countBits} bits)")) ++
    (if (c.loaded) Seq(("limbs", 0x0c, "rw", s"limbs a product (${c.limbsBits} bits, 1 to ${c.maxLimbs})"),
      ("const_base", 0x10, "rw", "the constants image's byte address, a multiple of loaded.align_bytes")) else Nil) :+
    ("cycles", 0x14, "r", "cycles from the last start to its done")
  def json(c: MultipassEngineConfig): String =
    s"""
  "config": {"bus": "AXI4-Lite", "prefix": "cfg", "address_bits": ${config.addressWidth}, "data_bits": ${config.dataWidth}, "registers": [
${registers(c).map { case (n, o, a, m) => s"""    {"name": "$n", "offset": $o, "access": "$a", "meaning": "$m"}""" }.mkString(",\n")}
  ]},"""
}
