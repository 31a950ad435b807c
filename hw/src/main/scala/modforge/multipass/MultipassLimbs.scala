package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** The multi-pass negacyclic polynomial multiplier with L limbs side by side (docs/polymul_multipass.md, "RTL: limbs
  * side by side"): c_l = a_l b_l mod (x^n + 1, q_l) for every limb l at once, over external memory.
  *
  * L one-limb engines ([[MultipassEngine]]) run together, engine l on limb l's regions. Their AXI4 masters share
  * the port through SpinalHDL's own arbiters (`Axi4ReadOnlyArbiter`, `Axi4WriteOnlyArbiter`: round-robin on AR and
  * AW, the limb in the upper ID bits so that R and B find their engine, W routed in AW order). Each engine keeps
  * its own pass boundaries (its next pass starts after its own last B); the limbs are independent, so nothing
  * orders one engine's bursts against another's.
  *
  * With a port per limb (`ports` = L) the engines' masters are the ports `mems_<l>`, nothing shared.
  *
  * With `_t1` every engine is a [[MultipassBatch]] over the same batch (`count`), limb l's regions of product j at
  * (j L + l) x five regions: the engines' `active` replace `pass`. With `_r<rounds>` there are ceil(L / rounds)
  * engines, each running its `rounds` limbs one after another (limbs in sequence): `active`, `mems` and the arbiters'
  * inputs count engines, not limbs.
  *
  * `start` (taken while not `busy`) starts every engine; `done` pulses one cycle once the last of them is done.
  * `busy` is high from the start until `done` (and while any engine is busy after reset, or the reset tree,
  * [[UnitResets]], holds a part in reset). `pass` is each engine's
  * active pass (0 idle, 1 columns, 2 rows, 3 columns_inverse).
  */
class MultipassLimbs(val c: MultipassLimbsConfig) extends Component {
  val io = new Bundle {
    val start = in Bool ()
    /** With `_t1`: the products in the batch, taken with `start` by every engine. */
    val count = c.batch generate (in UInt (c.engines.head.countBits bits))
    val busy = out Bool ()
    val done = out Bool ()
    val pass = (!c.batch) generate (out Vec (UInt(2 bits), c.engineCount))
    /** With `_t1`: each engine's units in a pass ([[MultipassBatch]]'s `active`). */
    val active = c.batch generate (out Vec (Bits(3 bits), c.engineCount))
    val respError = out Bool ()
    /** One port shared by the limbs, or one per limb (`mems_<l>`). */
    val mem = (c.ports == 1) generate master(Axi4(c.axi))
    val mems = (c.ports > 1) generate Vec(master(Axi4(c.engineAxi)), c.engineCount)
  }
  if (c.ports == 1) Axi4SpecRenamer(io.mem) else io.mems.foreach(Axi4SpecRenamer(_))

  /** What the top needs of an engine, whichever kind. */
  private case class EnginePorts(start: Bool, busy: Bool, done: Bool, respError: Bool, mem: Axi4, pass: Option[UInt], active: Option[Bits])
  private val ports: Seq[EnginePorts] =
    if (c.batch) c.engines.zipWithIndex.map { case (e, l) =>
      val b = new MultipassBatch(e)
      b.setName(s"engines_$l")
      b.io.count := io.count
      EnginePorts(b.io.start, b.io.busy, b.io.done, b.io.respError, b.io.mem, None, Some(b.io.active))
    }
    else c.engines.zipWithIndex.map { case (e, l) =>
      val x = new MultipassEngine(e)
      x.setName(s"engines_$l")
      EnginePorts(x.io.start, x.io.busy, x.io.done, x.io.respError, x.io.mem, Some(x.io.pass), None)
    }
  /** The reset tree ([[UnitResets]]): copy 0 the shared port's arbiters, 1 the registers below; each engine has its own
    * tree from the port's reset. */
  val resets = new UnitResets(2)
  val shared = (c.ports == 1) generate new ClockingArea(resets.domain(0)) {
    val reads = Axi4ReadOnlyArbiter(c.axi, c.engineCount)
    val writes = Axi4WriteOnlyArbiter(c.axi, c.engineCount, c.routeDepth)
    for ((e, l) <- ports.zipWithIndex) {
      reads.io.inputs(l) << e.mem.toReadOnly()
      writes.io.inputs(l) << e.mem.toWriteOnly()
    }
    io.mem.ar << reads.io.output.ar
    reads.io.output.r << io.mem.r
    io.mem.aw << writes.io.output.aw
    io.mem.w << writes.io.output.w
    writes.io.output.b << io.mem.b
  }
  if (c.ports > 1) for ((e, l) <- ports.zipWithIndex) io.mems(l) <> e.mem

  val top = new ClockingArea(resets.domain(1)) {
    /** Engines that have finished this product (or batch); `done` once all have. */
    val finished = Reg(Bits(c.engineCount bits)) init (0)
    val running = Reg(Bool()) init (False)
    val done = Reg(Bool()) init (False)
    val anyBusy = ports.map(_.busy).reduce(_ || _)
    io.busy := resets.resetting || running || anyBusy
    io.done := done
    io.respError := ports.map(_.respError).reduce(_ || _)
    done := False
    for ((e, l) <- ports.zipWithIndex) {
      e.start := io.start && !io.busy
      e.pass.foreach(io.pass(l) := _)
      e.active.foreach(io.active(l) := _)
      when(e.done) { finished(l) := True }
    }
    when(io.start && !io.busy) { running := True; finished := 0 }
    when(running && finished.andR) { running := False; done := True; finished := 0 }
  }
}
