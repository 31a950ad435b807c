package modforge.intfft

import spinal.core._
import spinal.lib.Delay

/** The block multiplier on the paper's fully parallel network (Cao et al., Section 3.2, Fig. 2):
  * two forward transforms side by side, k pointwise units, one inverse transform, addition recovery.
  * Every stage is fully pipelined; the input gate spaces pairs kb/d cycles apart only because
  * addition recovery's carry chain emits one d-bit word a clock (the paper feeds its blocks over
  * d-bit buses, kb/(2d) = 8 words each, and writes the MSB half to its register array).
  *
  * Latency: 1 (input registers) + 2 log2 k butterflies + the pointwise unit + recovery.
  * Huge at k = 64 and 128 (3 k/2 log2 k butterflies); the notes (section 2.7) call the 64-bit
  * versions impractical, as the paper does its own.
  */
class ParallelMultiplier(g: IntFftParams, val wordsPerClock: Int = 1) extends BlockMultiplier(g) {
  def organisation: FftOrganisation = FftOrganisation.Parallel
  def issueInterval: Int = g.productWords / wordsPerClock
  /** With `wordsPerClock` = 2 (the schoolbook controller's), word 2c + 1 of clock c (word 2c on `out_word`). */
  val out_word1 = (wordsPerClock == 2) generate (out UInt (g.d bits))
  in_ready := issueGate(issueInterval)
  val accept = in_valid && in_ready

  val xReg = RegNext(in_x)
  val yReg = RegNext(in_y)
  val valid0 = RegNext(accept) init (False)
  val fx = new ParallelFft(g, inverse = false)
  val fy = new ParallelFft(g, inverse = false)
  fx.io.x := digits(xReg)
  fy.io.x := digits(yReg)
  val pw = for (t <- 0 until g.k) yield {
    val u = new PointwiseUnit(g).setName(s"pw_$t")
    u.io.a := fx.io.y(t); u.io.b := fy.io.y(t)
    u
  }
  val inv = new ParallelFft(g, inverse = true)
  for (t <- 0 until g.k) inv.io.x(t) := pw(t).io.y
  val rec = new AdditionRecovery(g, wordsPerClock)
  val coreLatency: Int = fx.latency + pw.head.latency + inv.latency
  rec.io.inValid := Delay(valid0, coreLatency, init = False)
  rec.io.z := inv.io.y
  out_valid := rec.io.outValid
  out_last := rec.io.outLast
  out_word := rec.io.outWords(0)
  if (wordsPerClock == 2) out_word1 := rec.io.outWords(1)
  def latency: Int = 1 + coreLatency + rec.latency
}
