package modforge.polymul

import spinal.core._
import spinal.lib.Delay
/** The shape of one streaming NTT pipeline: n points, `lanes` P words a beat, `limbBits` w-bit
  * residues, the multipliers and where the delay lines live. A [[StreamConfig]] has one (`shape`) for
  * its n; a [[StreamNtt]] (the multi-pass engine's column transforms, docs/polymul_ntt_units.md)
  * takes one for its n1.
  */
case class NttShape(n: Int, lanes: Int, limbBits: Int, mul: StreamMul = StreamMul.Fast, store: LineStore = LineStore.Auto) {
  require(n >= 2 && (n & (n - 1)) == 0, s"NTT of $n points: a power of two from 2 is needed")
  require(lanes >= 1 && (lanes & (lanes - 1)) == 0 && n / lanes >= 2, s"$lanes lanes at n = $n: a power of two with n/P >= 2 is needed")
  val logN: Int = Integer.numberOfTrailingZeros(n)
  val logP: Int = Integer.numberOfTrailingZeros(lanes)
  /** Beats per frame of n points. */
  val frame: Int = n / lanes
  /** The Shoup multiplier (twiddle products) is one bit wider than a limb: Algorithm 3 wants 2q < 2^k. */
  val shoupK: Int = limbBits + 1
  val shoupLatency: Int = mul.shoupLatency(shoupK)

  /** Stages whose pairs lie in different lanes of one beat (spans of n/P and more): no delay line. */
  def spatial(span: Int): Boolean = span >= frame

  /** Cycles from a beat in the pipeline's input register to its result in the output register, while
    * the pipeline advances every cycle, forward or inverse alike. The delay lines of one pipeline sum to
    * n/P - 1; an SDF stage adds a twiddle register, the multiplier and the butterfly's output register; a
    * lane-pair stage the multiplier and the butterfly's output register. */
  def latency: Int = (logN - logP) * (shoupLatency + 2) + logP * (shoupLatency + 1) + frame - 1

  /** Depths of the forward pipeline's delay lines, stage by stage (n/2^(s+1) below n/P), and the inverse's (2^r below n/P). */
  def forwardLines: Seq[Int] = (0 until logN).map(s => n >> (s + 1)).filter(_ < frame)
  def inverseLines: Seq[Int] = (0 until logN).map(1 << _).filter(_ < frame)

  /** Shoup multipliers of one pipeline: one per lane in an SDF stage, one per lane pair in a lane-pair
    * stage (without the inverse's N^-1 on a lane-pair last stage, [[StreamConfig.shoupPerLimb]]). */
  def shoupPerPipeline: Int = (logN - logP) * lanes + logP * lanes / 2
}
