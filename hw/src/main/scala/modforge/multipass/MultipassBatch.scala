package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._
import modforge.polymul.ConstForm

/** The one-limb multi-pass engine over a batch of products, its three passes overlapped (docs/polymul_multipass.md,
  * "RTL: a batch, the passes overlapped"): for j = 0 .. count - 1, c_j = a_j b_j mod (x^n + 1, q), product j's
  * five regions `productStrideBytes` after product j - 1's ([[MultipassEngineConfig]]).
  *
  * **Why.** [[MultipassEngine]] runs one pass at a time, so two of its three pass units are idle at any moment: a
  * product takes the three passes' cycles, about 3 n / P. Here the units work on consecutive products at once, as
  * the stages of a pipeline: `columns` on product j + 2 while `rows` is on j + 1 and `columns_inverse` on j. In a
  * batch's steady state a product takes the slowest pass's cycles, about n / P, from the same units.
  *
  * **Order, and why it is safe.** Each unit takes its products in order, one at a time, each with the product's
  * offset as its run-time `base`. A unit starts product j only once the unit before it is done with j: its
  * `done` pulses when its last write of j is acknowledged (B), the model's pass boundary. Different products use
  * different regions, so the units never touch one another's data. Nothing else orders them: `columns` may run
  * ahead of `rows` by any number of products.
  *
  * **The port.** The three units' AXI4 masters share it through arbiters: SpinalHDL's `Axi4ReadOnlyArbiter`, and
  * [[WriteArbiter]], SpinalHDL's `Axi4WriteOnlyArbiter` with its W select held in copies (round-robin on AR and AW, the
  * unit in the two ID bits above the passes' own, W routed in AW order), as [[MultipassLimbs]] shares it among limbs. Each unit's AW waits until its burst's W beats are
  * buffered ([[WriteAfterData]]), so that a burst granted before its data cannot block the other units' writes.
  *
  * `start` (taken while not `busy`) takes `count` and runs the batch; `done` pulses one cycle when the last
  * product's last write of `columns_inverse` is acknowledged (at once for `count` = 0). `busy` is high from the
  * start until `done`, and after reset while the column passes compute their middle twiddles' first seeds (and while
  * the reset tree, [[UnitResets]], holds any part in reset).
  * `active` has a bit per unit (0 columns, 1 rows, 2 columns_inverse): the unit is in a pass.
  *
  * **Primes loaded at run time** (`_d1`, [[MultipassEngineConfig.loaded]]). `start` also takes `limbs` (L, 1 to
  * [[MultipassEngineConfig.maxLimbs]]) and `const_base`: a product is L limbs, limb l of product j at (j L + l)
  * footprints, and a batch count L items. Before each pass a unit loads its item's limb's constants, the image at
  * `const_base` + l [[limbImageBytes]] + the unit's [[unitOffsetBytes]], through [[ConstLoader]] (a fourth reader on
  * the port, ID unit 3), and the column units then compute their first middle-twiddle seeds. The unit is active
  * (`active`) from the load's request to its pass's last acknowledged write.
  */
class MultipassBatch(val c: MultipassEngineConfig) extends Component {
  require(c.batch, "MultipassBatch takes a batch configuration (batch = true)")
  val m: MoverConfig = c.mover
  val io = new Bundle {
    val start = in Bool ()
    val count = in UInt (c.countBits bits)
    val busy = out Bool ()
    val done = out Bool ()
    val active = out Bits (3 bits)
    val respError = out Bool ()
    /** With `loaded`: limbs a product (taken with `start`), and the byte address of limb 0's constants image. */
    val limbs = c.loaded generate (in UInt (c.limbsBits bits))
    val const_base = c.loaded generate (in UInt (c.mover.addressBits bits))
    val mem = master(Axi4(c.batchAxi))
  }
  Axi4SpecRenamer(io.mem)

  /** The reset tree ([[UnitResets]]): copies 0-2 the pass units, 3 the port's arbiters and holds, 4 the schedule. */
  val resets = new UnitResets(5)
  val cols = resets.domain(0) on ColumnsUnit(c.columns)
  val rows = resets.domain(1) on new RowsPass(c.rows)
  val icols = resets.domain(2) on ColumnsUnit(c.columnsInverse)
  private case class PassPorts(start: Bool, busy: Bool, done: Bool, base: UInt, mem: Axi4, limb: UInt)
  private val units = Seq(
    PassPorts(cols.io.start, cols.io.busy, cols.io.done, cols.io.base, cols.io.mem, cols.io.limb),
    PassPorts(rows.io.start, rows.io.busy, rows.io.done, rows.io.base, rows.io.mem, rows.io.limb),
    PassPorts(icols.io.start, icols.io.busy, icols.io.done, icols.io.base, icols.io.mem, icols.io.limb))

  // ---- The port: the three units behind SpinalHDL's arbiters ----
  // ---- Loaded constants (`_d1`): each unit's chain, its image's layout, the loader ----
  /** Each unit's loaded constants in chain order (columns, rows, columns_inverse); empty unless `loaded`. */
  val unitForms: Seq[Seq[ConstForm]] = if (c.loaded) Seq(cols.loadedForms, rows.loadedForms, icols.loadedForms) else Nil
  private val ctx = if (c.loaded) c.columns.loadedContext else null
  /** Bytes of each unit's image: its words, padded to the loader's bursts ([[ConstLoader.alignBytes]]). */
  val unitImageBytes: Seq[Int] = unitForms.map { f =>
    val a = ConstLoader.alignBytes(m.axi)
    scala.math.max(1, (f.size * ctx.wordBytes + a - 1) / a) * a
  }
  val unitOffsetBytes: Seq[Int] = unitImageBytes.scanLeft(0)(_ + _).take(unitImageBytes.size)
  /** Bytes of one limb's image: the three units' after one another. */
  val limbImageBytes: Int = unitImageBytes.sum
  val loader = c.loaded generate (resets.domain(3) on new ConstLoader(m.axi, ctx.cellBits, ctx.wordBytes, unitForms.map(_.size)))
  if (c.loaded) {
    cols.io.load << loader.io.load(0)
    rows.io.load << loader.io.load(1)
    icols.io.load << loader.io.load(2)
  }

  val reads = resets.domain(3) on Axi4ReadOnlyArbiter(c.batchAxi, if (c.loaded) 4 else 3)
  val writes = resets.domain(3) on WriteArbiter(c.batchAxi, 3, c.batchRouteDepth)
  /** Each unit's AW waits for its burst's W beats (measured: without, a batch of four took 1.34 times its promise). */
  val held = units.map(_ => resets.domain(3) on new WriteAfterData(m.axi, m.burstBeats, c.outstanding))
  for (((u, h), i) <- units.zip(held).zipWithIndex) {
    reads.io.inputs(i) << u.mem.toReadOnly()
    h.io.input << u.mem.toWriteOnly()
    writes.io.inputs(i) << h.io.output
  }
  if (c.loaded) reads.io.inputs(3) << loader.io.mem
  io.mem.ar << reads.io.output.ar
  reads.io.output.r << io.mem.r
  io.mem.aw << writes.io.output.aw
  io.mem.w << writes.io.output.w
  writes.io.output.b << io.mem.b

  // ---- The schedule: per unit, items started and finished; a unit's next item once the unit before is done with it ----
  val schedule = new ClockingArea(resets.domain(4)) {
    // An item is a product, or with limbs in sequence one limb of a product (count S items a batch, limb after limb).
    private val S = c.S
    private val cb = c.countBits + (if (c.loaded) c.limbsBits else log2Up(S))
    val total = Reg(UInt(cb bits)) init (0)
    val running = Reg(Bool()) init (False)
    val done = Reg(Bool()) init (False)
    val started = Vec.fill(3)(Reg(UInt(cb bits)) init (0))
    val finished = Vec.fill(3)(Reg(UInt(cb bits)) init (0))
    /** The unit has taken its start and not yet signalled done. */
    val inPass = Vec.fill(3)(Reg(Bool()) init (False))
    /** The unit's product offset: started x stride, held through its pass (a running sum, no multiplier). */
    val base = Vec.fill(3)(Reg(UInt(m.addressBits bits)) init (0))
    private val stride = U(c.productStrideBytes, m.addressBits bits)
    /** Limbs in sequence: the unit's limb (its item's), and the steps of its offset: a limb's five regions to the next
      * limb, the product stride less S - 1 of them from the last limb back to the next product's first. */
    val limb = (S > 1) generate Vec.fill(3)(Reg(UInt(log2Up(S) bits)) init (0))
    private def limbStride = U(m.footprintBytes, m.addressBits bits)
    private def wrapStride = U(c.productStrideBytes - m.footprintBytes * (S - 1), m.addressBits bits)

    /** Loaded constants: the cycle after a start, while `total` is multiplied (below). */
    val pending = c.loaded generate (Reg(Bool()) init (False))
    io.busy := resets.resetting || (if (c.loaded) pending || running else running) || units.map(_.busy).reduce(_ || _)
    io.done := done
    io.active := inPass.asBits
    private def passErrors = cols.io.respError || rows.io.respError || icols.io.respError
    io.respError := (if (c.loaded) passErrors || loader.io.respError else passErrors)
    done := False

    for ((u, i) <- units.zipWithIndex if !c.loaded) {
      val ready = if (i == 0) started(0) =/= total else started(i) =/= finished(i - 1)
      u.start := running && ready && !inPass(i)
      u.base := base(i)
      when(u.start && !u.busy) { inPass(i) := True; started(i) := started(i) + 1 }
      if (S == 1) when(u.done) { inPass(i) := False; finished(i) := finished(i) + 1; base(i) := base(i) + stride }
      else {
        u.limb := limb(i)
        val lastLimb = limb(i) === S - 1
        when(u.done) {
          inPass(i) := False; finished(i) := finished(i) + 1
          base(i) := base(i) + Mux(lastLimb, wrapStride, limbStride)
          limb(i) := Mux(lastLimb, U(0), limb(i) + 1)
        }
      }
    }
    // Loaded constants: a unit's item is its load (phase 1), three cycles for the column units' seeds to start
    // (phase 2: the reseed lands, then `busy` shows it), and its pass (phase 3, started once the unit is not busy).
    val loading = c.loaded generate new Area {
      val limbs = Reg(UInt(c.limbsBits bits)) init (1)
      val limbOf = Vec.fill(3)(Reg(UInt(c.limbsBits bits)) init (0))
      /** The unit's limb times the limb image's bytes (a running sum). */
      val imageOf = Vec.fill(3)(Reg(UInt(m.addressBits bits)) init (0))
      val phase = Vec.fill(3)(Reg(UInt(2 bits)) init (0))
      val settle = Vec.fill(3)(Reg(UInt(2 bits)) init (0))
      for ((u, i) <- units.zipWithIndex) {
        val ready = if (i == 0) started(0) =/= total else started(i) =/= finished(i - 1)
        loader.io.req(i) := phase(i) === 1
        loader.io.addr(i) := io.const_base + imageOf(i) + U(unitOffsetBytes(i), m.addressBits bits)
        u.start := phase(i) === 2 && settle(i) === 0
        u.base := base(i)
        when(running && ready && phase(i) === 0) { phase(i) := 1; inPass(i) := True; started(i) := started(i) + 1 }
        when(loader.io.done(i)) { phase(i) := 2; settle(i) := 3 }
        when(phase(i) === 2 && settle(i) =/= 0) { settle(i) := settle(i) - 1 }
        when(u.start && !u.busy) { phase(i) := 3 }
        val lastLimb = limbOf(i) === limbs - 1
        when(u.done) {
          phase(i) := 0; inPass(i) := False; finished(i) := finished(i) + 1
          base(i) := base(i) + stride // a limb's five regions: the next item's
          limbOf(i) := Mux(lastLimb, U(0), limbOf(i) + 1)
          imageOf(i) := Mux(lastLimb, U(0), imageOf(i) + U(limbImageBytes, m.addressBits bits))
        }
      }
      cols.io.reseed := RegNext(loader.io.done(0)) init (False)
      icols.io.reseed := RegNext(loader.io.done(2)) init (False)
      when(io.start && !io.busy) {
        limbs := io.limbs
        for (i <- 0 until 3) { limbOf(i) := 0; imageOf(i) := 0 }
      }
    }
    when(running && finished(2) === total) { running := False; done := True }
    private def clearUnits(): Unit = for (i <- 0 until 3) { started(i) := 0; finished(i) := 0; base(i) := 0 }
    // The units' limbs are 0 at a start: a batch is whole products, so each unit ends one on its last limb.
    if (c.loaded) {
      // count x limbs items, multiplied from registers a cycle after the start: straight from the ports, the product
      // was the worst path of mpoly_16384_x64_b256_l1_s32_p1_w25_c1_t1_d1 (5.75 ns at tt, io_limbs into `total`).
      val counted = Reg(UInt(c.countBits bits)) init (0)
      when(io.start && !io.busy) { counted := io.count; pending := True; clearUnits() }
      when(pending) { pending := False; running := True; total := (counted * loading.limbs).resize(cb) }
    } else when(io.start && !io.busy) {
      running := True
      total := (if (S == 1) io.count else (io.count * U(S, log2Up(S + 1) bits)).resize(cb))
      clearUnits()
    }
  }
}
