package modforge.multipass

import modforge.polymul.StreamControl
import spinal.core._

/** The reset tree of a multi-pass top ([[MultipassEngine]], [[MultipassBatch]], [[MultipassLimbs]]): the reset port
  * drives registered copies only, in two levels ([[StreamControl.resetTree]], as the streaming engine's), one
  * second-level copy per part of the top (a pass unit, the port's arbiters, the top's own schedule), each part on
  * its own domain ([[domain]]). Every copy leaves reset at the same edge, two after the port.
  *
  * Why: without it the port drove every synchronous reset of the top directly, 262 loads in
  * `mpoly_4096_x16_b256_l1_s32_p1_w29_t1`, 3.78 ns on the port's own net (this flow's STA buffers nothing) and the
  * design's worst path, 6.83 ns to `rows.results`, once its write data path was cut (2026-11-30).
  *
  * `resetting` is high from the port's reset until the copies release theirs: the top's `busy` includes it, so that a
  * `start` is never taken while a part is still in reset.
  */
class UnitResets(parts: Int) extends Area {
  private val (first, second) = StreamControl.resetTree(parts)
  private def rawReset = ClockDomain.current.readResetWire // a def: a val would rename the port
  val resetting: Bool = rawReset || first(0) || second(0)
  /** Part i's clock domain: the current one with copy i as its reset. */
  def domain(i: Int): ClockDomain = ClockDomain.current.copy(reset = second(i))
}
