package modforge.intfft

import spinal.core._

object SolinasReducer { val latency = 2 }

/** The Solinas reduction for p = 2^(2h) - 2^h + 1 (Cao et al., Fig. 3(iii); h = 32: 2^64 - 2^32 + 1).
  * x = 2^(3h) a + 2^(2h) b + 2^h c + d with h-bit a, b, c, d; 2^(3h) = -1 and 2^(2h) = 2^h - 1 mod p:
  *
  *   register 1: upper = (b + c) << h        2h+1 bits, unsigned
  *               lower = d - a - b           h+2 bits, signed, in (-2^(h+1), 2^h)
  *   register 2: r = upper + lower           in (-2^h, 2p), NOT the printed (p, 2p) (notes, erratum 5:
  *                                           x = 5 * 2^(3h) gives r = -5)
  *               y = r + p if r < 0, r - p if r >= p, r otherwise   (the 3:1 select, both corrections)
  */
class SolinasReducer(g: IntFftParams) extends Reducer(g) {
  import g.p
  val h: Int = IntFftParams.solinasHalf(p).getOrElse(throw new IllegalArgumentException(s"SolinasReducer: p = $p is not 2^(2h) - 2^h + 1"))
  def latency: Int = SolinasReducer.latency
  val d = io.x(h - 1 downto 0)
  val c = io.x(2 * h - 1 downto h)
  val b = io.x(3 * h - 1 downto 2 * h)
  val a = io.x(4 * h - 1 downto 3 * h)
  val upper = RegNext((b.resize(h + 1 bits) + c) << h) // 2h + 1 bits
  val lower = RegNext(d.resize(h + 2 bits).asSInt - a.resize(h + 2 bits).asSInt - b.resize(h + 2 bits).asSInt)
  val rw = 2 * h + 3 // r in (-2^h, 2p), 2p < 2^(2h+1)
  val r = upper.resize(rw bits).asSInt + lower.resize(rw bits)
  val pS = S(p, rw bits)
  io.y := RegNext(Mux(r.msb, r + pS, Mux(r >= pS, r - pS, r)).asUInt.resize(2 * h bits))
}
