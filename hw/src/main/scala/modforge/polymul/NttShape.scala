package modforge.polymul

import spinal.core._
import spinal.lib.Delay
/** The shape of one streaming NTT pipeline: n points, `lanes` P words a beat, `limbBits` w-bit
  * residues, the multipliers and where the delay lines live. A [[StreamConfig]] has one (`shape`) for
  * its n; a [[StreamNtt]] (the multi-pass engine's column transforms, docs/polymul_ntt_units.md)
  * takes one for its n1.
  *
  * @param primes     the primes the pipeline serves one after another ([[PrimeChoice]]: the multi-pass engine's
  *                   limbs in sequence); 1 for every other pipeline
  * @param tableWords the most twiddle-table words a pipeline's SDF stages may hold over every code of the select
  *                   (2^selBits primes x the stages' blocks, per lane) before its largest stages take their twiddles in
  *                   two factors from two small tables ([[splitTable]]); the default [[NttShape.tableWordsMax]]
  * @param loaded     the twiddles are loaded at run time ([[ConstChain]]): one prime's tables, in flip-flops, split
  *                   while a pipeline holds more than `tableWords` ([[NttShape.loadedTableWords]] for the engines)
  */
case class NttShape(n: Int, lanes: Int, limbBits: Int, mul: StreamMul = StreamMul.Fast, store: LineStore = LineStore.Auto,
                    primes: Int = 1, tableWords: Int = NttShape.tableWordsMax, loaded: Boolean = false,
                    interleave: Int = 1) {
  require(interleave >= 1 && (interleave & (interleave - 1)) == 0, s"interleave = $interleave: a power of two is needed")
  require(!loaded || primes == 1, "loaded twiddles are one prime's at a time")
  require(primes >= 1, s"primes = $primes: a pipeline serves at least one prime")
  require(n >= 2 && (n & (n - 1)) == 0, s"NTT of $n points: a power of two from 2 is needed")
  require(lanes >= 1 && (lanes & (lanes - 1)) == 0 && n / lanes >= 2, s"$lanes lanes at n = $n: a power of two with n/P >= 2 is needed")
  val logN: Int = Integer.numberOfTrailingZeros(n)
  val logP: Int = Integer.numberOfTrailingZeros(lanes)
  /** Beats per frame of n points. */
  val frame: Int = n / lanes
  /** Ticks of a group of `interleave` frames, point by point: what the flow control counts as one frame. */
  val ticks: Int = frame * interleave
  /** The Shoup multiplier (twiddle products) is one bit wider than a limb: Algorithm 3 wants 2q < 2^k. */
  val shoupK: Int = limbBits + 1
  val shoupLatency: Int = mul.shoupLatency(shoupK)

  /** Stages whose pairs lie in different lanes of one beat (spans of n/P and more): no delay line. */
  def spatial(span: Int): Boolean = span >= frame

  /** Cycles from a beat in the pipeline's input register to its result in the output register, while
    * the pipeline advances every cycle, forward or inverse alike. The delay lines of one pipeline sum to
    * n/P - 1; an SDF stage adds a twiddle register, the multiplier and the butterfly's output register; a
    * lane-pair stage the multiplier and the butterfly's output register. */
  def latency: Int = (logN - logP) * (shoupLatency + 2) + logP * (shoupLatency + 1) + (frame - 1) * interleave + splitStages * shoupLatency

  /** Whether an SDF stage whose table has `blocks` entries a prime (F / 2d for span d) takes its twiddle in two
    * factors ([[NttPipelines]]' `sdfMulSplit`): x psi^e(i) = (x A[i_hi]) B[i_lo], one more Shoup multiplier and its
    * latency, and tables of 2^(b - m) + 2^m entries a prime (b = log2(blocks), m = b / 2) in place of `blocks`.
    * The largest stages split first, while the pipeline's tables hold more than `tableWords` words over the select's
    * codes, and only where the factors are fewer entries (8 blocks and more).
    *
    * Why: with limbs in sequence a table holds every prime's entries, read at (select, block). At n2 = 512 the rows
    * engine's tables hold 511 entries a prime: with 15 primes `mpoly_32768_x64_k15_..._r15`'s Verilog was 229 MB
    * (7.7 MB for one limb). The largest sequence design synthesized, `mpoly_16384_x64_k8_..._r8`, holds 2,040 words a
    * pipeline (44 MB of Verilog, 12 GB and an hour of synthesis). Never with one prime, nor within the budget: every
    * one-prime pipeline, and every sequence design within it, is as before. */
  def splitTable(blocks: Int): Boolean = splitBlocks.contains(blocks)

  private def splitWords(blocks: Int): Int = { val b = Integer.numberOfTrailingZeros(blocks); (1 << (b - b / 2)) + (1 << (b / 2)) }
  /** The blocks (entries a prime, per lane) of the split stages. */
  lazy val splitBlocks: Set[Int] =
    if (primes == 1 && !loaded) Set.empty
    else {
      val codes = if (loaded) 1 else 1 << PrimeChoice.selBits(primes)
      val stages = (0 until logN).map(1 << _).filter(_ < frame).map(d => frame / (2 * d)).sorted.reverse // largest first
      def words(split: Set[Int]) = codes * stages.map(b => if (split(b)) splitWords(b) else b).sum
      stages.filter(b => splitWords(b) < b).foldLeft(Set.empty[Int])((s, b) => if (words(s) > tableWords) s + b else s)
    }

  /** SDF stages of one pipeline (forward or inverse: the same spans) whose twiddle is split. */
  def splitStages: Int = (0 until logN).map(1 << _).filter(_ < frame).count(d => splitTable(frame / (2 * d)))

  /** Depths of the forward pipeline's delay lines, stage by stage (n/2^(s+1) below n/P), and the inverse's (2^r below n/P). */
  def forwardLines: Seq[Int] = (0 until logN).map(s => n >> (s + 1)).filter(_ < frame).map(_ * interleave)
  def inverseLines: Seq[Int] = (0 until logN).map(1 << _).filter(_ < frame).map(_ * interleave)

  /** Shoup multipliers of one pipeline: one per lane in an SDF stage (two in a split one), one per lane pair in a lane-pair
    * stage (without the inverse's N^-1 on a lane-pair last stage, [[StreamConfig.shoupPerLimb]]). */
  def shoupPerPipeline: Int = (logN - logP) * lanes + logP * lanes / 2 + splitStages * lanes
}

object NttShape {
  /** [[NttShape.tableWords]]'s default: about the tables a pipeline of the largest sequence design synthesized whole
    * on this machine holds, `mpoly_16384_x64_k8_b256_l1_s32_p1_w31_t1_r8`'s 2,040 words. */
  val tableWordsMax = 2048
  /** [[NttShape.tableWords]] of the pipelines whose twiddles are loaded at run time ([[ConstChain]]): a table entry is
    * then 2 (w + 1) flip-flops and its multiplexers, so the largest stages take their twiddles in two factors (one
    * more Shoup multiplier) until a pipeline holds at most this many. At n2 = 512 (P = 1) that splits the 256- and
    * 128-block stages: 183 words in place of 511. */
  val loadedTableWords = 256
}
