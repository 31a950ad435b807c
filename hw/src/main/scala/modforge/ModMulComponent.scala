package modforge

import modforge.modmul.Designs

import spinal.core._

/** The port convention shared by every modular multiplier (docs/modmul.md, "Interface").
  *
  * `clk` and `reset` (synchronous, active high) come from the clock domain; each design adds its
  * modulus and precomputed fields (`in_m`, `in_l`, `in_r`, `in_g`, `in_mode`). Results leave
  * `latency` cycles after they enter, in order.
  */
abstract class ModMulComponent(val k: Int) extends Component {
  require(k >= minWidth && k <= Designs.maxK, s"k = $k is out of range $minWidth..${Designs.maxK}")

  /** The narrowest k of this component's family: the registry's, but the bare product's is lower. */
  protected def minWidth: Int = Designs.minK

  val in_valid = in Bool ()
  val in_a = in UInt (k bits)
  val in_b = in UInt (bWidth bits)
  val out_valid = out Bool ()
  val out_t = out UInt (outWidth bits)

  /** Width of in_b: k, except where a design takes a precomputed constant (Plantard: 2k). */
  def bWidth: Int = k
  /** Width of out_t: k, except the lazy K2RED's signed k+2. */
  def outWidth: Int = k

  /** Cycles from an operation's `in_valid` to its `out_valid`. */
  def latency: Int

  /** Width of the shift amount l (l < k). */
  def lBits: Int = log2Up(k)
}
