package modforge.intfft

import spinal.core._

object FermatTwiddle {
  /** Registers from (x, tw) to y: the rotation, the subtraction, the correction. Equal to
    * 1 + [[FermatReducer.latency]], the product-then-reduce path it replaces, so a butterfly's
    * latency is the same for every group. */
  val latency = 3
}

/** x * tw mod p for a Fermat group (p = 2^n + 1, n = m - 1; omega = 2), fully reduced, where the
  * twiddle is the code {neg, s}: tw = (-1)^neg 2^s, s < n ([[IntFftParams.twiddleCode]]).
  *
  * The multiplier-free butterfly of Cao et al., Section 3.3, computed as a negacyclic rotation
  * instead of a shift into 2m bits and the fermat reduction of Fig. 3(ii). With 2^n = -1 mod p and
  * x < 2^n, x 2^s = H 2^n + L, L = (x << s) mod 2^n, H = x >> (n - s), is L - H mod p; and
  * rotl_n(x, s) holds L in its bits s.. and H in its bits ..s-1, so one n-bit rotation gives both.
  *
  *   register 1: R = rotl_n(x', s), neg' ; x' = x, or 1 with neg' = !neg when x = 2^n (= -1 mod p)
  *   register 2: d = L - H (H - L when neg'),  L = R & ~mask(s), H = R & mask(s),  d in (-2^n, 2^n)
  *   register 3: y = d + p if d < 0 else d   (in [0, p): d >= 0 is below 2^n < p; d < 0 gives d + p >= 2)
  *
  * Against the shift-and-reduce path: an n-bit rotator instead of a 2m-bit shifter, no p - x
  * subtractor before it and no three-operand fold after it (checked against BigInt x tw mod p in
  * ReducerSimSpec, every s and both signs). A constant twiddle (the parallel network) makes the
  * rotation and masks wiring.
  */
class FermatTwiddle(g: IntFftParams) extends Component {
  import g.{m, p}
  require(g.shiftTwiddles, s"FermatTwiddle: FFT group '${g.name}' does not use shift twiddles")
  val n = m - 1
  val io = new Bundle {
    val x = in UInt (m bits)
    val tw = in UInt (g.twiddleBits bits)
    val y = out UInt (m bits)
  }
  def latency: Int = FermatTwiddle.latency

  // Register 1. x < p, so x = 2^n only with its low n bits zero: x' = 1 there, and the sign flips.
  val top = io.x(n)
  val s = io.tw(g.shiftBits - 1 downto 0)
  val r = RegNext((io.x(n - 1 downto 0) | top.asUInt.resize(n bits)).rotateLeft(s))
  val sR = RegNext(s)
  val negR = RegNext(io.tw.msb ^ top)

  // Register 2: the low s bits of R are H (wrapped round by 2^n = -1), the rest L. Cat is LSB
  // first: mask bit i = (i < s).
  val mask = Cat((0 until n).map(i => U(i, g.shiftBits + 1 bits) < sR.resize(g.shiftBits + 1 bits))).asUInt
  val hi = r & mask
  val lo = r & ~mask
  val (a, b) = (Mux(negR, hi, lo), Mux(negR, lo, hi))
  val d = RegNext(a.resize(n + 1 bits).asSInt - b.resize(n + 1 bits).asSInt)

  // Register 3: one correction into [0, p).
  io.y := RegNext(Mux(d.msb, d.resize(m + 1 bits) + S(p, m + 1 bits), d.resize(m + 1 bits)).asUInt.resize(m bits))
}
