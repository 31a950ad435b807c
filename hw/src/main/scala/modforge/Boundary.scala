package modforge

import spinal.core._

/** One pipeline boundary of a fully pipelined datapath (no stalls, one operation per cycle).
  *
  * When `enabled`, every value that crosses it goes through a register; when not, it is a wire.
  * Data registers have no reset (they are qualified by the valid bit, and a reset on hundreds of
  * datapath flops would only cost area); the valid bit is reset to 0 by the synchronous reset.
  * The latency of a design is the number of enabled boundaries on its path.
  */
case class Boundary(enabled: Boolean) {
  def apply[T <: Data](x: T): T = if (enabled) RegNext(x) else x
  def valid(v: Bool): Bool = if (enabled) RegNext(v) init (False) else v
  def cycles: Int = if (enabled) 1 else 0
}
