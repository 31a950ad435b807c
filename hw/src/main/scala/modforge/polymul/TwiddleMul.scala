package modforge.polymul

import modforge.modmul.Precompute
import spinal.core._

/** A product x W mod q with W a known twiddle: Shoup's multiplier (Algorithm 3) with the
  * companion W' = floor(W 2^k / q) computed here, k = w + 1 (Algorithm 3 wants 2q < 2^k).
  * Both come from the generator, so synthesis sees constants (lane-pair stages) or a ROM
  * (delay-line stages) and never a precomputation port.
  */
class TwiddleMul(val w: Int, val q: BigInt, mul: StreamMul) {
  val k: Int = w + 1
  require(2 * q < (BigInt(1) << k) && q < (BigInt(1) << w), s"q = $q does not fit a $w-bit limb")
  def companion(t: BigInt): BigInt = Precompute.shoupR(k, t, q)
  val latency: Int = mul.shoupLatency(k)

  /** x W with (W, W') given as signals of k bits; latency [[latency]], result < q. */
  def apply(x: UInt, tw: UInt, twr: UInt): UInt = {
    val m = mul.shoup(k)
    m.in_valid := True
    m.in_a := x.resize(k)
    m.in_b := tw
    m.in_r := twr
    m.in_m := U(q, k bits)
    m.out_t.resize(w)
  }

  def const(x: UInt, t: BigInt): UInt = apply(x, U(t, k bits), U(companion(t), k bits))

  /** (W, W') = table(idx) as k-bit signals (constants when the table has one entry). */
  def lookup(table: Seq[BigInt], idx: UInt): (UInt, UInt) = {
    if (table.size == 1) (U(table.head, k bits), U(companion(table.head), k bits))
    else {
      val t = Vec(table.map(v => U(v, k bits)))
      val r = Vec(table.map(v => U(companion(v), k bits)))
      (t(idx.resize(log2Up(table.size))), r(idx.resize(log2Up(table.size))))
    }
  }
}
