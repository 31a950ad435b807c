package modforge.polymul

import spinal.core._
import spinal.lib.Delay
/** One negacyclic NTT of n points mod q, forward or inverse, streaming P lanes: the pipeline
  * [[LimbEngine]] builds, on its own ([[NttPipelines]]; docs/polymul_ntt_units.md). The multi-pass
  * engine's column transforms (n = n1, root r1 = psi^n2; docs/polymul_multipass.md).
  *
  *  - forward: x in natural order, y(rev(k)) = sum_j x_j psi^((2k + 1) j) mod q (rev the log2(n)-bit reversal);
  *  - inverse: y in that order, x_j = n^-1 sum_k y(rev(k)) psi^(-(2k + 1) j) mod q in natural order
  *    (n^-1 on the last stage's multiplications).
  *
  * Position p = j n/P + t of a frame is lane j at beat t, in and out; a frame is n/P consecutive ticks,
  * frames back to back. Residues < q in and out. Like [[LimbEngine]] it has no flow control: its clock
  * is gated by a [[StreamControl]]'s tick ([[StreamNttTop]]), and its output register holds beat t of a
  * frame [[NttShape.latency]] ticks after beat t was in the input register (`io.x`, offset 0).
  *
  * @param primes q, or with the multi-pass engine's limbs in sequence each limb's prime, `sel` choosing ([[PrimeChoice]])
  * @param psis  for each prime any primitive 2n-th root of unity mod it
  * @param free the free clock domain, for the delay lines in macros ([[DelayLine]])
  * @param operands forward only: pipelines in lockstep, one per operand, their delay lines shared ([[NttPipelines]]'s
  *                 `forward`); `x` and `y` carry operand o's lanes at o P + j. The streamed `columns` pass (a and b).
  */
class StreamNtt(val shape: NttShape, val primes: Seq[BigInt], val psis: Seq[BigInt], val inverse: Boolean, free: ClockDomain,
                loaded: LoadedContext = null, operands: Int = 1) extends Component {
  require(operands == 1 || !inverse, "operands in lockstep: forward pipelines only")
  require(loaded == null || (primes.size == 1 && shape.loaded), "loaded constants: one prime, the shape's loaded tables")
  /** One prime (every use but the multi-pass engine's limbs in sequence). */
  def this(shape: NttShape, q: BigInt, psi: BigInt, inverse: Boolean, free: ClockDomain) = this(shape, Seq(q), Seq(psi), inverse, free)
  val q: BigInt = primes.head
  val psi: BigInt = psis.head
  val io = new Bundle {
    val x = in Vec (UInt(shape.limbBits bits), shape.lanes * operands)
    val y = out Vec (UInt(shape.limbBits bits), shape.lanes * operands)
    /** The tick (the clock runs in ticks only), for the delay lines in macros. */
    val tick = in Bool ()
    /** A first-level reset copy (on the free clock), the source of the position counters' own copies. */
    val resetSource = in Bool ()
    /** With several primes: the prime of the frames in the pipeline ([[PrimeChoice]]), steady while any is. */
    val sel = (primes.size > 1) generate (in UInt (PrimeChoice.selBits(primes.size) bits))
    /** Constants loaded at run time ([[ConstChain]]): a word a cycle into this unit's chain, and its last cell on. */
    val load = (loaded != null) generate spinal.lib.slave(spinal.lib.Flow(Bits(loaded.cellBits bits)))
    val loadOut = (loaded != null) generate (out Bits (loaded.cellBits bits))
  }
  /** The loaded constants' chain (null: literals). */
  val chain: ConstChain = if (loaded != null) new ConstChain(loaded, free, io.load) else null
  // Two levels of the select's copies, on the free clock (PrimeChoice): the caller changes it between passes.
  val pipes = new NttPipelines(shape, if (primes.size > 1) PrimeChoice(primes, io.sel, copies = 2, domain = free)
    else if (chain != null) PrimeChoice.loaded(primes.head, chain) else PrimeChoice.one(primes.head),
    psis, free, io.tick, io.resetSource)
  val (result, latency) =
    if (inverse) pipes.inverse(io.x.toList, 0)
    else pipes.forward(io.x.toList.grouped(shape.lanes).toSeq) match { case (ys, o) => (ys.flatten, o) }
  require(latency == shape.latency, s"StreamNtt latency $latency, NttShape says ${shape.latency}")
  io.y := Vec(result)
  if (chain != null) chain.finish(io.loadOut)
}
