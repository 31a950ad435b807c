package modforge.polymul

import spinal.core._
import spinal.lib.slave

/** The streaming RNS polymul engine, the top of a `polymul_<n>_<logq>_s<P>[_w<w>]` design
  * (docs/polymul.md, "The streaming engine"): L [[LimbEngine]]s side by side under one
  * [[StreamControl]].
  *
  * Ports (valid/ready streams, synchronous active-high `reset`):
  *  - `in_valid`, `in_ready`, `in_a`, `in_b`: one beat of both operands; beat t of a product carries
  *    coefficient j n/P + t of limb l (its residue mod q_l, < q_l) in bits [(l P + j) w, (l P + j + 1) w);
  *  - `out_valid`, `out_ready`, `out_c`: one beat of the product mod (x^n + 1, q_l), same layout.
  * A product is n/P beats in and n/P beats out, in order; products follow each other back to back.
  */
class StreamPolymul(val cfg: StreamConfig, val sequence: Seq[BigInt] = Nil, val loaded: LoadedContext = null) extends Component {
  require(sequence.isEmpty || cfg.limbs == 1, s"limbs in sequence run through one limb engine, not ${cfg.limbs}")
  require(loaded == null || cfg.limbs == 1, s"constants loaded at run time serve one limb engine, not ${cfg.limbs}")
  private val width = cfg.limbs * cfg.lanes * cfg.limbBits
  val io = new Bundle {
    val in_valid = in Bool ()
    val in_ready = out Bool ()
    val in_a = in UInt (width bits)
    val in_b = in UInt (width bits)
    val out_valid = out Bool ()
    val out_ready = in Bool ()
    val out_c = out UInt (width bits)
    /** With limbs in sequence (`sequence`, the multi-pass engine's rows pass): which prime the products in the
      * engine are of ([[PrimeChoice]]); the caller changes it only while the engine holds none of another. */
    val sel = (sequence.size > 1) generate (in UInt (PrimeChoice.selBits(sequence.size) bits))
    /** With `loaded` (the multi-pass rows engine of `_d1`): the limb engine's constants, a word a cycle into its chain
      * ([[ConstChain]]), while it holds no product; `load_out` its last cell. */
    val load = (loaded != null) generate slave(spinal.lib.Flow(Bits(loaded.cellBits bits)))
    val load_out = (loaded != null) generate (out Bits (loaded.cellBits bits))
  }
  noIoPrefix()

  // The reset port drives registered copies only, in two levels (KeepReg): the first, one for the
  // control, one for the clock gate and one per limb, each feeds the second, and only the second
  // resets anything. One level, driving every synchronous-reset flip-flop and the clock gate, was the
  // 23.0 ns critical path of polymul_2048_33_s2 (10.0 ns on the port's own net); a limb's single
  // copy driving all its position counters, the 11.78 ns path of polymul_1024_19_s4. Every second-
  // level copy leaves reset at the same edge, two after the port; the streams are held off until then.
  private def rawReset = ClockDomain.current.readResetWire // a def: a val would rename the port
  private val (firstLevel, resets) = StreamControl.resetTree(2 + cfg.limbs)
  require(StreamPolymul.resetCycles == 2, "the manifest's reset_cycles is the tree's depth")
  private val resetting = rawReset || firstLevel(0) || resets(0)
  val control = new ClockingArea(ClockDomain.current.copy(reset = resets(0))) {
    val ctrl = new StreamControl(cfg.frame, cfg.latency)
  }
  val ctrl = control.ctrl
  ctrl.io.inValid := io.in_valid
  ctrl.io.outReady := io.out_ready
  io.in_ready := ctrl.io.inReady && !resetting
  io.out_valid := ctrl.io.outValid && !resetting

  // The datapath's clock runs in the ticks only (ClockGate: one gate, not an enable on every
  // flip-flop), and during reset, so its position counters restart whatever the streams do. The
  // delay lines' macro banks run on the free clock (DelayLine) and need the tick itself.
  private val tick = ctrl.io.tick || resets(1)
  private val free = ClockDomain.current
  val datapath = new ClockingArea(modforge.ClockGate.domain(tick)) {
    val a = RegNext(io.in_a)
    val b = RegNext(io.in_b)
    private def slice(x: UInt, l: Int, j: Int) = x((l * cfg.lanes + j) * cfg.limbBits, cfg.limbBits bits)
    val limbs = (0 until cfg.limbs).map { l =>
      val limbReset = resets(2 + l)
      val e = new ClockingArea(ClockDomain.current.copy(reset = limbReset)) {
        val engine = new LimbEngine(cfg, l, free.copy(reset = limbReset), sequence, loaded)
      }.engine
      if (sequence.size > 1) e.io.sel := io.sel
      if (loaded != null) { e.io.load << io.load; io.load_out := e.io.loadOut }
      e.io.tick := tick
      e.io.resetSource := firstLevel(2 + l)
      for (j <- 0 until cfg.lanes) { e.io.a(j) := slice(a, l, j); e.io.b(j) := slice(b, l, j) }
      e.setName(s"limb$l")
    }
    io.out_c := Cat(limbs.flatMap(e => e.io.c)).asUInt // Cat of a Seq: its first element in the low bits
  }

  def latency: Int = cfg.latency
  /** The loaded constants' forms, in chain order (empty unless `loaded`). */
  val loadedForms: Seq[ConstForm] = if (loaded != null) datapath.limbs.head.chain.forms else Nil
}

object StreamPolymul {
  /** `in_ready` stays 0 until this many rising edges have sampled `reset` at 0 (the reset tree's
    * two levels); the manifest's `reset_cycles`. */
  val resetCycles = 2
}
