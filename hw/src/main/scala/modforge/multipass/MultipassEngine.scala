package modforge.multipass

import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** The multi-pass negacyclic polynomial multiplier for one limb (docs/polymul_multipass.md, "RTL: the engine,
  * one limb"): c = a b mod (x^n + 1, q) over external memory, the schedule's three passes chained behind one
  * AXI4 master:
  *
  *  1. `columns` ([[ColumnsPass]]): a, b -> x, y;
  *  2. `rows` ([[RowsPass]]): x, y -> x (in place);
  *  3. `columns_inverse` ([[ColumnsPass]], inverse): x -> c.
  *
  * The pass units are instantiated as they are, each with its own reader and writer. **The port is a mux by the
  * active pass:** only one pass runs at a time, so the active pass's AR, AW and W drive the port and its R and B
  * come back to it; the idle passes see no valid and no ready. A pass starts only after the previous pass's
  * `done`, which pulses when that pass's last write is acknowledged (B), the model's pass boundary: nothing of
  * the next pass (not even an AR) leaves before then, and no response of one pass can reach another.
  *
  * `start` (taken while not `busy`) runs the three passes; `done` pulses one cycle when the last write of
  * `columns_inverse` is acknowledged. `busy` is high from the start until `done`, and after reset while the
  * column passes compute their middle twiddles' first seeds (and while the reset tree, [[UnitResets]], holds any unit in
  * reset). `pass` is the active pass (0 idle, 1 columns,
  * 2 rows, 3 columns_inverse). The region bases are the schedule's `Layout` for limb 0 ([[MoverConfig]]).
  */
class MultipassEngine(val c: MultipassEngineConfig) extends Component {
  val m: MoverConfig = c.mover
  val io = new Bundle {
    val start = in Bool ()
    val busy = out Bool ()
    val done = out Bool ()
    val pass = out UInt (2 bits)
    val respError = out Bool ()
    val mem = master(Axi4(m.axi))
  }
  Axi4SpecRenamer(io.mem)

  /** The reset tree ([[UnitResets]]): a copy per pass unit; the few registers below keep the port's reset. */
  val resets = new UnitResets(3)
  val cols = resets.domain(0) on ColumnsUnit(c.columns)
  val rows = resets.domain(1) on new RowsPass(c.rows)
  val icols = resets.domain(2) on ColumnsUnit(c.columnsInverse)
  private val units = Seq(cols.io, rows.io, icols.io).map(u => (u.start, u.busy, u.done, u.mem))

  /** 0 idle, then 1 + the pass's index. `launched`: the active pass has taken its start. */
  val pass = Reg(UInt(2 bits)) init (0)
  val launched = Reg(Bool()) init (False)
  val done = Reg(Bool()) init (False)
  io.pass := pass
  io.done := done
  io.busy := resets.resetting || pass =/= 0 || units.map(_._2).reduce(_ || _)
  io.respError := cols.io.respError || rows.io.respError || icols.io.respError

  done := False
  when(io.start && !io.busy) { pass := 1; launched := False }
  for (((start, busy, passDone, _), i) <- units.zipWithIndex) {
    val active = pass === i + 1
    start := active && !launched
    when(start && !busy) { launched := True }
    when(active && passDone) {
      launched := False
      if (i == units.size - 1) { pass := 0; done := True } else pass := i + 2
    }
  }

  // ---- The port: a mux by the active pass ----
  io.mem.ar.valid := False
  io.mem.aw.valid := False
  io.mem.w.valid := False
  io.mem.ar.payload := cols.io.mem.ar.payload
  io.mem.aw.payload := cols.io.mem.aw.payload
  io.mem.w.payload := cols.io.mem.w.payload
  io.mem.r.ready := False
  io.mem.b.ready := False
  for (((_, _, _, u), i) <- units.zipWithIndex) {
    val active = pass === i + 1
    u.ar.ready := io.mem.ar.ready && active
    u.aw.ready := io.mem.aw.ready && active
    u.w.ready := io.mem.w.ready && active
    u.r.valid := io.mem.r.valid && active
    u.r.payload := io.mem.r.payload
    u.b.valid := io.mem.b.valid && active
    u.b.payload := io.mem.b.payload
    when(active) {
      io.mem.ar.valid := u.ar.valid
      io.mem.ar.payload := u.ar.payload
      io.mem.aw.valid := u.aw.valid
      io.mem.aw.payload := u.aw.payload
      io.mem.w.valid := u.w.valid
      io.mem.w.payload := u.w.payload
      io.mem.r.ready := u.r.ready
      io.mem.b.ready := u.b.ready
    }
  }
}
