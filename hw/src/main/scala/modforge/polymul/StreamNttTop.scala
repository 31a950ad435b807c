package modforge.polymul

import spinal.core._
import spinal.lib.Delay
/** A [[StreamNtt]] with valid/ready streams, in the arrangement [[StreamPolymul]] gives its limbs:
  * the reset tree ([[StreamControl.resetTree]]), one [[StreamControl]] whose tick gates the unit's
  * clock (`modforge.ClockGate`), and an input register. A top for tests (no registry name yet).
  *
  * Ports (synchronous active-high `reset`; `in_ready` and `out_valid` stay 0 until two edges after it,
  * [[StreamPolymul.resetCycles]]):
  *  - `in_valid`, `in_ready`, `in_x` (P w bits): beat t of a frame carries point j n/P + t in bits [j w, (j + 1) w);
  *  - `out_valid`, `out_ready`, `out_y` (P w bits): beat t of the transform, same layout (forward:
  *    y(rev(k)) at position rev(k); inverse: natural order).
  * A frame is n/P beats in and n/P out; frames follow each other back to back (one every n/P cycles),
  * the first beat of a frame's result presented `latency` edges after the edge that accepted its first
  * beat, as [[StreamPolymul]] does with its latency.
  */
class StreamNttTop(val shape: NttShape, val primes: Seq[BigInt], val psis: Seq[BigInt], val inverse: Boolean,
                   val loaded: LoadedContext = null, val operands: Int = 1) extends Component {
  def this(shape: NttShape, q: BigInt, psi: BigInt, inverse: Boolean) = this(shape, Seq(q), Seq(psi), inverse)
  val q: BigInt = primes.head
  val psi: BigInt = psis.head
  /** `operands` forward pipelines in lockstep ([[StreamNtt]]): operand o's lanes above the ones before it. */
  private val width = shape.lanes * shape.limbBits * operands
  val io = new Bundle {
    val in_valid = in Bool ()
    val in_ready = out Bool ()
    val in_x = in UInt (width bits)
    val out_valid = out Bool ()
    val out_ready = in Bool ()
    val out_y = out UInt (width bits)
    /** With several primes ([[PrimeChoice]]): the prime of every frame in the unit, changed only while it holds none. */
    val sel = (primes.size > 1) generate (in UInt (PrimeChoice.selBits(primes.size) bits))
    /** With `loaded`: the unit's constants, a word a cycle into its chain ([[ConstChain]]) while it holds no frame;
      * `load_out` its last cell. */
    val load = (loaded != null) generate spinal.lib.slave(spinal.lib.Flow(Bits(loaded.cellBits bits)))
    val load_out = (loaded != null) generate (out Bits (loaded.cellBits bits))
  }
  noIoPrefix()

  // Copies: 0 the control, 1 the clock gate, 2 the unit (StreamPolymul: one per limb).
  private def rawReset = ClockDomain.current.readResetWire // a def: a val would rename the port
  private val (firstLevel, resets) = StreamControl.resetTree(3)
  private val resetting = rawReset || firstLevel(0) || resets(0)
  val control = new ClockingArea(ClockDomain.current.copy(reset = resets(0))) {
    val ctrl = new StreamControl(shape.ticks, shape.latency)
  }
  val ctrl = control.ctrl
  ctrl.io.inValid := io.in_valid
  ctrl.io.outReady := io.out_ready
  io.in_ready := ctrl.io.inReady && !resetting
  io.out_valid := ctrl.io.outValid && !resetting

  private val tick = ctrl.io.tick || resets(1)
  private val free = ClockDomain.current
  val datapath = new ClockingArea(modforge.ClockGate.domain(tick)) {
    val x = RegNext(io.in_x)
    val unit = new ClockingArea(ClockDomain.current.copy(reset = resets(2))) {
      val ntt = new StreamNtt(shape, primes, psis, inverse, free.copy(reset = resets(2)), loaded, operands)
    }.ntt
    if (primes.size > 1) unit.io.sel := io.sel
    if (loaded != null) { unit.io.load << io.load; io.load_out := unit.io.loadOut }
    unit.io.tick := tick
    unit.io.resetSource := firstLevel(2)
    for (j <- 0 until shape.lanes * operands) unit.io.x(j) := x(j * shape.limbBits, shape.limbBits bits)
    io.out_y := Cat(unit.io.y).asUInt // Cat of a Seq: its first element in the low bits
  }

  def latency: Int = shape.latency
  /** The loaded constants' forms, in chain order (empty unless `loaded`). */
  val loadedForms: Seq[ConstForm] = if (loaded != null) datapath.unit.chain.forms else Nil
}
