package modforge.multipass

import modforge.polymul.{ConstForm, PrimeChoice}
import spinal.core._
import spinal.lib._
import spinal.lib.bus.amba4.axi._

/** A column pass as the engines see it (docs/polymul_multipass.md, "RTL: the column passes"): its ports, whichever
  * datapath is behind them. [[ColumnsUnit.apply]] builds the corner-turn pass ([[ColumnsPass]]) or, with
  * [[ColumnsConfig.streamed]] (`_c1`), the streamed one ([[StreamedColumnsPass]]).
  *
  * `start` (one cycle, while not `busy`) runs the pass; `done` pulses when its last write is acknowledged.
  * Ports: `mem_*` is an AXI4 master with the specification's names, as [[MoverTop]]'s.
  */
abstract class ColumnsUnit(val c: ColumnsConfig) extends Component {
  val m: MoverConfig = c.mover
  val io = new Bundle {
    val start = in Bool ()
    val busy = out Bool ()
    val done = out Bool ()
    val respError = out Bool ()
    /** With `runtimeBase`: added to every region base; held from `start` to `done`. */
    val base = c.runtimeBase generate (in UInt (m.addressBits bits))
    /** Limbs in sequence ([[ColumnsConfig.sequence]]): the limb of the pass, held from `start` to `done`; passes take
      * the limbs in order, limb 0 after the last. */
    val limb = (c.qs.size > 1) generate (in UInt (PrimeChoice.selBits(c.qs.size) bits))
    /** With `loaded` (`_d1`): the pass's constants, a word a cycle into its chain (the NTT's cells, then the middle
      * twiddles', [[modforge.polymul.ConstChain]]), only while no pass runs ([[ConstLoader]]); then `reseed` (a
      * cycle) makes the middle twiddles compute block 0's seeds from them, while `busy`. */
    val load = c.loaded generate slave(Flow(Bits(c.loadedContext.cellBits bits)))
    val reseed = c.loaded generate (in Bool ())
    val mem = master(Axi4(m.axi))
  }
  Axi4SpecRenamer(io.mem)

  /** The loaded constants' forms, in chain order (empty unless `loaded`). */
  def loadedForms: Seq[ConstForm]
}

object ColumnsUnit {
  /** The pass `c` asks for: streamed (`_c1`) or with corner turns. */
  def apply(c: ColumnsConfig): ColumnsUnit = if (c.streamed) new StreamedColumnsPass(c) else new ColumnsPass(c)
}
