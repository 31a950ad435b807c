package modforge.polymul

import modforge.ntt.NttConfig
import spinal.core._
import spinal.lib.{Flow, slave}

/** One RNS limb of the streaming engine: two forward NTT pipelines (a and b, in lockstep), the
  * pointwise product and the inverse NTT pipeline, for the prime `cfg.primes(limb)`, P lanes wide.
  * The pipelines are built by [[NttPipelines]], the code [[StreamNtt]] (one transform on its own)
  * uses too; here they are connected: the forward pipelines' bit-reversed results feed the pointwise
  * product, and that the inverse, directly.
  *
  * Every register runs on the enclosing clock domain, the clock gated by [[StreamControl]]'s `tick`:
  * this component has no flow control of its own. Latency [[StreamConfig.latency]] (checked here).
  */
class LimbEngine(cfg: StreamConfig, limb: Int, free: ClockDomain, sequence: Seq[BigInt] = Nil, loaded: LoadedContext = null) extends Component {
  require(loaded == null || (sequence.isEmpty && cfg.shape.loaded), "loaded constants: one prime, the shape's loaded tables")
  val w: Int = cfg.limbBits
  val P: Int = cfg.lanes
  val F: Int = cfg.frame
  /** The primes this engine serves: limb `limb`'s, or with `sequence` (the multi-pass engine's limbs in sequence,
    * [[PrimeChoice]]) those, one after another, `io.sel` choosing. */
  val primes: Seq[BigInt] = if (sequence.isEmpty) Seq(cfg.primes(limb)) else sequence
  private val psis = if (sequence.isEmpty) Seq(cfg.psis(limb)) else sequence.map(p => NttConfig.findPsi(cfg.n, p))
  val io = new Bundle {
    val a, b = in Vec (UInt(w bits), P)
    val c = out Vec (UInt(w bits), P)
    /** The engine's tick (the datapath's clock runs in ticks only), for the delay lines in macros. */
    val tick = in Bool ()
    /** The limb's first-level reset copy (on the free clock), the source of its counters' own copies. */
    val resetSource = in Bool ()
    /** With limbs in sequence: the prime of every beat in the pipelines, changed only while they hold none. */
    val sel = (primes.size > 1) generate (in UInt (PrimeChoice.selBits(primes.size) bits))
    /** Constants loaded at run time ([[ConstChain]]): a word a cycle into this engine's chain, and its last cell on. */
    val load = (loaded != null) generate slave(Flow(Bits(loaded.cellBits bits)))
    val loadOut = (loaded != null) generate (out Bits (loaded.cellBits bits))
  }
  val q: BigInt = primes.head
  /** The loaded constants' chain (null: literals). */
  val chain: ConstChain = if (loaded != null) new ConstChain(loaded, free, io.load) else null
  // Two levels of the select's copies, on the free clock (PrimeChoice): the caller changes it between passes.
  val choice: PrimeChoice = if (primes.size > 1) PrimeChoice(primes, io.sel, copies = 2, domain = free)
    else if (chain != null) PrimeChoice.loaded(primes.head, chain) else PrimeChoice.one(primes.head)
  /** The pipelines' builder, on this component's clock (gated by the tick) and reset tree. */
  val pipes = new NttPipelines(cfg.shape, choice, psis, free, io.tick, io.resetSource)
  val tw: StreamTwiddles = pipes.tw
  val mul: TwiddleMul = pipes.mul
  val Lm: Int = pipes.Lm

  /** A B mod q, both operands variable: BarrettOpt (Algorithm 1) with its precomputation constants (each
    * prime's, chosen, with limbs in sequence). */
  def pointwise(a: UInt, b: UInt): UInt = VariableMul(cfg.mul, w, choice, a, b, True).out_t

  /** The delay lines built, for the manifest. */
  def lines: Seq[LineUse] = pipes.lines.toSeq
  val (Seq(fa, fb), oa) = pipes.forward(Seq(io.a.toList, io.b.toList))
  val prod = fa.zip(fb).map { case (a, b) => pointwise(a, b) }
  val (result, latency) = pipes.inverse(prod, oa + cfg.barrettLatency)
  require(latency == cfg.latency, s"LimbEngine latency $latency, StreamConfig says ${cfg.latency}")
  require(Lm == cfg.shoupLatency)
  io.c := Vec(result)
  if (chain != null) chain.finish(io.loadOut)
}
