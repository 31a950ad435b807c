package modforge.intfft

import modforge.ntt.ModArith
import spinal.core._
import spinal.lib.Delay

object Butterfly {
  /** Registers from (xUp, xDown) to (up, down): the twiddle product's, the add/subtract. */
  def latency(g: IntFftParams): Int = TwiddleMul.latency(g) + 1
}

/** The unified Cooley-Tukey butterfly of the FFT and the inverse FFT (Cao et al., Fig. 2(ii);
  * verif/intfft/fft.py, `transform`):
  *
  *   t      = x_down * tw_down mod p   ([[TwiddleMul]]: a product and the group's reducer, or
  *            the Fermat groups' rotation)
  *   u      = x_up, or x_up * tw_up mod p when `scaled` (the last inverse stage, tw_up = k^-1 and
  *            tw_down = k^-1 omega^-j: the paper's hat-omega^-1, so the IFFT's k^-1 costs no stage)
  *   up     = u + t mod p,   down = u - t mod p
  *
  * Operands and results are fully reduced (< p). `scalable` = false leaves out the x_up multiplier
  * (the parallel network's stages other than the last inverse one never scale).
  * Fully pipelined: [[Butterfly.latency]] cycles, one butterfly a cycle.
  */
class Butterfly(val g: IntFftParams, val scalable: Boolean) extends Component {
  val io = new Bundle {
    val xUp, xDown = in UInt (g.m bits)
    val twDown = in UInt (g.twiddleBits bits)
    val twUp = scalable generate (in UInt (g.twiddleBits bits))
    val scaled = scalable generate (in Bool ())
    val up, down = out UInt (g.m bits)
  }
  val mulLatency: Int = TwiddleMul.latency(g)
  def latency: Int = Butterfly.latency(g)
  val pConst = U(g.p, g.m bits)

  val t = TwiddleMul.reduced(g, io.xDown, io.twDown, Some("redDown"))
  val plainUp = Delay(io.xUp, mulLatency)
  val u = if (scalable) {
    val tUp = TwiddleMul.reduced(g, io.xUp, io.twUp)
    Mux(Delay(io.scaled, mulLatency), tUp, plainUp)
  } else plainUp
  io.up := RegNext(ModArith.add(u, t, pConst))
  io.down := RegNext(ModArith.sub(u, t, pConst))
}
