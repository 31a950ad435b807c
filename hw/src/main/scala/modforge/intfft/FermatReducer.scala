package modforge.intfft

import spinal.core._

object FermatReducer { val latency = 2 }

/** The special-modulus reduction for p = 2^(m-1) + 1 (Cao et al., Fig. 3(ii); 2^32 + 1 and 2^64 + 1):
  * 2^(m-1) = -1 and 2^(2m-2) = 1 mod p, so no multiplier.
  *
  *   register 1: y1 = x[m-2:0] + x[2m-1:2m-2] - x[2m-3:m-1]   signed, in [-(2^(m-1)-1), 2^(m-1)+2]
  *   register 2: y = y1 + p if y1 < 0 else y1
  *
  * One correction is enough for x < p^2 (every product of two residues and every shifted twiddle
  * product, verif/intfft/reducers.py `FermatReducer`, IN_MAX = p^2): for 2m-bit x above p^2 the
  * output could be p or p + 1.
  */
class FermatReducer(g: IntFftParams) extends Reducer(g) {
  import g.{m, p}
  require(IntFftParams.fermatForm(p), s"FermatReducer: p = $p is not 2^(m-1) + 1")
  def latency: Int = FermatReducer.latency
  val w = m + 1
  val lo = io.x(m - 2 downto 0).resize(w bits).asSInt
  val mid = io.x(2 * m - 3 downto m - 1).resize(w bits).asSInt
  val top = io.x(2 * m - 1 downto 2 * m - 2).resize(w bits).asSInt
  val y1 = RegNext(lo + top - mid)
  io.y := RegNext(Mux(y1.msb, y1 + S(p, w bits), y1).asUInt.resize(m bits))
}
