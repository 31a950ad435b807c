package modforge.intfft

import modforge.Multiplier
import spinal.core._

/** The product x * twiddle before reduction (2m bits), the multiplier of a butterfly.
  *
  * Fermat groups (omega = 2, p = 2^(m-1) + 1): every twiddle, k^-1 included, is (-1)^neg 2^s mod p
  * with s < m - 1 (the `tw` code {neg, s}, [[IntFftParams.twiddleCode]]), so the product is a shift:
  * x 2^s, or (p - x) 2^s for a negative twiddle (Cao et al., Section 3.3: "multiplier-free
  * butterflies"). Both are below p 2^(m-2) < p^2, the fermat reducer's input range.
  * Other groups: a full m x m product ([[modforge.Multiplier]], shared with every other family).
  */
object TwiddleMul {
  def product(g: IntFftParams, x: UInt, tw: UInt): UInt =
    if (g.shiftTwiddles) {
      val neg = tw.msb
      val s = tw(g.shiftBits - 1 downto 0)
      val v = Mux(neg, U(g.p, g.m bits) - x, x)
      v.resize(2 * g.m bits) |<< s
    } else Multiplier.full(x, tw).resize(2 * g.m bits)
}
