package modforge.intfft

import spinal.core._

object ParallelFft {
  def bitrev(i: Int, bits: Int): Int = (0 until bits).foldLeft(0)((acc, b) => acc | (((i >> b) & 1) << (bits - 1 - b)))
  def latency(g: IntFftParams): Int = g.log2k * Butterfly.latency(g)
}

/** The paper's fully parallel, fully pipelined radix-2 transform (Cao et al., Section 3.2, Fig. 2(i)):
  * log2 k stages of k/2 unified butterflies, one k-point transform a cycle. Decimation in time as in
  * verif/intfft/fft.py: the input taken in bit-reversed order (wiring), stage s (half-span h = 2^s)
  * pairs (start + j, start + j + h) with the constant twiddle omega^(+-j k/(2h)); the inverse
  * transform's last stage carries k^-1 (tw_up = k^-1, tw_down = k^-1 omega^-j), so no extra stage.
  * Natural order out. Latency log2 k butterflies.
  */
class ParallelFft(val g: IntFftParams, val inverse: Boolean) extends Component {
  import g.{k, log2k}
  val io = new Bundle {
    val x = in Vec (UInt(g.m bits), k)
    val y = out Vec (UInt(g.m bits), k)
  }
  def latency: Int = ParallelFft.latency(g)
  private val codes = scala.collection.mutable.Map[BigInt, BigInt]()
  private def code(v: BigInt): UInt = U(codes.getOrElseUpdate(v, g.twiddleCode(v)), g.twiddleBits bits)

  var v: IndexedSeq[UInt] = (0 until k).map(i => io.x(ParallelFft.bitrev(i, log2k)))
  for (s <- 0 until log2k) {
    val h = 1 << s
    val scaled = inverse && s == log2k - 1
    val next = Array.fill[UInt](k)(null)
    for (start <- 0 until k by 2 * h; j <- 0 until h) {
      val bf = new Butterfly(g, scalable = scaled).setName(s"bf_s${s}_${start + j}")
      bf.io.xUp := v(start + j)
      bf.io.xDown := v(start + j + h)
      bf.io.twDown := code(g.twiddle(j * (k >> (s + 1)), inverse, scaled))
      if (scaled) { bf.io.twUp := code(g.kInv); bf.io.scaled := True }
      next(start + j) = bf.io.up
      next(start + j + h) = bf.io.down
    }
    v = next.toIndexedSeq
  }
  for (i <- 0 until k) io.y(i) := v(i)
}
