package modforge.intfft

import spinal.core._

/** How the transforms are built: the paper's fully parallel network, or P butterfly units over banked memory. */
sealed abstract class FftOrganisation(val name: String)
object FftOrganisation {
  case object Parallel extends FftOrganisation("parallel")
  case class Folded(units: Int) extends FftOrganisation(s"folded_p$units")
}

/** The Integer-FFT block multiplier (Cao et al., Algorithm 1): two kb/2-bit blocks in, their kb-bit
  * product out as kb/d words of d bits, LSB first, one word a clock (docs/intfft.md, "Hardware").
  *
  * Ports (plain wires, `clk` and synchronous active-high `reset` from the clock domain):
  *  - `in_valid`, `in_ready`, `in_x`, `in_y`: a pair of blocks enters when both valid and ready are
  *    high at a rising edge; x = sum_{t<k/2} x_t 2^(tb) (the digits x_t are the b-bit fields of `in_x`);
  *  - `out_valid`, `out_last`, `out_word`: the product's words, `latency` cycles after the pair
  *    entered, `out_last` with the last (word kb/d - 1). Products leave in order.
  * `in_ready` falls for `issueInterval - 1` cycles after each accepted pair. Data registers have no
  * reset; `out_word` is meaningful only while `out_valid` is high.
  */
abstract class BlockMultiplier(val g: IntFftParams) extends Component {
  val in_valid = in Bool ()
  val in_ready = out Bool ()
  val in_x = in UInt (g.blockBits bits)
  val in_y = in UInt (g.blockBits bits)
  val out_valid = out Bool ()
  val out_last = out Bool ()
  val out_word = out UInt (g.d bits)

  /** Cycles from the accepting edge's cycle to the first `out_valid`. */
  def latency: Int
  /** Cycles between two accepted pairs when they come back to back. */
  def issueInterval: Int
  def organisation: FftOrganisation

  /** Step 1 of Algorithm 1: the k/2 b-bit digits of a block, zero-padded to k (acyclic product),
    * each widened to m bits. The printed Eq. (3) is garbled (notes, erratum 1). */
  def digits(block: UInt): Vec[UInt] =
    Vec((0 until g.k).map(t => if (t < g.k / 2) block(t * g.b + g.b - 1 downto t * g.b).resize(g.m bits) else U(0, g.m bits)))

  /** The input gate: high except for the interval - 1 cycles after an accepted pair. */
  def issueGate(interval: Int): Bool = {
    val wait = Reg(UInt(log2Up(interval + 1) bits)) init (0)
    when(in_valid && in_ready) { wait := interval - 1 } elsewhen (wait =/= 0) { wait := wait - 1 }
    wait === 0
  }
}
