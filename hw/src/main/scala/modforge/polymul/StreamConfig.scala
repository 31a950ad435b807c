package modforge.polymul

import modforge.PreconditionError
import modforge.ntt.NttConfig

/** A streaming RNS polymul engine (docs/polymul.md, "The streaming engine"): the negacyclic product
  * in Z_Q[x]/(x^n + 1), Q = prod q_i, each limb through two forward NTT pipelines, a pointwise
  * product and an inverse NTT pipeline, all streaming `lanes` coefficients a cycle.
  *
  * @param lanes    P coefficients of each limb per beat: a product takes n/P beats in and out
  * @param limbBits w, the width of a limb's residues; the drawn primes have exactly w bits ([[StreamPrimes]]),
  *                 given primes at most w
  * @param primeClass the class the primes are drawn from ([[PrimeClass]]; `any` by default)
  * @param givenPrimes the user's own primes (`_q<hash>`, [[StreamPrimes.userPrimes]]) in place of drawn ones;
  *                 empty (the default): drawn from the class
  * @param sequence the primes one limb's pipelines serve one after another (the multi-pass rows engine's limbs in
  *                 sequence, [[PrimeChoice]]), which sets their tables' sizes ([[NttShape.splitTable]]); 1 otherwise
  * @param tableWords [[NttShape.tableWords]] (tests set it low to split the tables of small pipelines)
  * @param loaded   the one limb's constants are loaded at run time (the multi-pass rows engine of `_d1`, [[ConstChain]]):
  *                 its primes are the reference; the shape splits its tables to [[NttShape.loadedTableWords]] words
  */
case class StreamConfig(n: Int, logq: Int, lanes: Int, limbBits: Int, mul: StreamMul = StreamMul.Fast,
                        store: LineStore = LineStore.Auto, primeClass: PrimeClass = PrimeClass.AnyPrime,
                        givenPrimes: Seq[BigInt] = Nil, sequence: Int = 1,
                        tableWords: Int = NttShape.tableWordsMax, loaded: Boolean = false) {
  if (givenPrimes.nonEmpty && primeClass != PrimeClass.AnyPrime)
    throw new PreconditionError(s"_c${primeClass.name} draws the primes from a class and given primes (_q<hash>) are your own: keep one")
  /** The NTT pipelines' shape ([[NttPipelines]]): n points, P lanes, w bits. */
  val shape: NttShape = NttShape(n, lanes, limbBits, mul, store, primes = sequence,
    tableWords = if (loaded) math.min(tableWords, NttShape.loadedTableWords) else tableWords, loaded = loaded)
  val logN: Int = shape.logN
  val logP: Int = shape.logP
  /** Beats per product (one product accepted every `frame` cycles in steady state). */
  val frame: Int = shape.frame
  val primes: Seq[BigInt] =
    if (givenPrimes.isEmpty) StreamPrimes.select(n, logq, limbBits, primeClass) else StreamPrimes.userPrimes(n, logq, limbBits, givenPrimes)
  /** The manifest's and registry's `prime_class`: the class, or `given` for the user's primes. */
  def primeClassName: String = if (givenPrimes.isEmpty) primeClass.name else "given"
  val limbs: Int = primes.size
  val bigQ: BigInt = primes.product
  val psis: Seq[BigInt] = primes.map(q => NttConfig.findPsi(n, q))
  def twiddles(limb: Int): StreamTwiddles = StreamTwiddles(n, primes(limb), psis(limb))

  /** The Shoup multiplier (twiddle products) is one bit wider than a limb: Algorithm 3 wants 2q < 2^k. */
  val shoupK: Int = shape.shoupK
  val shoupLatency: Int = shape.shoupLatency
  val barrettLatency: Int = mul.barrettLatency(limbBits)

  /** Stages whose pairs lie in different lanes of one beat (spans of n/P and more): no delay line. */
  def spatial(span: Int): Boolean = shape.spatial(span)

  /** Cycles from a beat entering the input register to its result in the output register, while the
    * engine advances every cycle ([[StreamControl]]): a forward pipeline ([[NttShape.latency]]), the
    * pointwise product and the inverse pipeline (the same latency). */
  def pipelineLatency: Int = shape.latency
  def latency: Int = 2 * pipelineLatency + barrettLatency

  /** The delay lines of one limb: (pipeline, depth, width in bits). The two forward pipelines
    * share one line per stage (they step together); a line holds every lane's word. */
  def lineGroups: Seq[(String, Int, Int)] =
    shape.forwardLines.map(d => ("forward", d, 2 * lanes * limbBits)) ++ shape.inverseLines.map(d => ("inverse", d, lanes * limbBits))
  def lineInMacros(d: Int): Boolean = DelayLine.useMacros(store, d)
  /** Storage bits in delay lines per limb (three pipelines) and twiddle constants per limb. */
  def delayBits: Int = lineGroups.map { case (_, d, w) => d * w }.sum
  def macroLines: Seq[(String, Int, Int)] = lineGroups.filter(g => lineInMacros(g._2))
  def flopLineBits: Int = lineGroups.filterNot(g => lineInMacros(g._2)).map { case (_, d, w) => d * w }.sum
  def twiddleWords: Int = 2 * (n - 1)
  /** Shoup multipliers per limb: an SDF stage has one per lane, a lane-pair stage one per pair, and
    * N^-1 takes one more per pair on the inverse's last stage when that stage is a lane-pair one. */
  def shoupPerLimb: Int = 3 * shape.shoupPerPipeline + (if (logP > 0) lanes / 2 else 0)
  def name: String = StreamDesigns.name(this)
}

object StreamConfig {
  val minN = 16
  val maxN = 32768
  val minLogq = 16
  val maxLogq = 1024
  val minLimbBits = 16
  val maxLimbBits = 64
  /** Limbs of at most this many bits by default: the product's area grows as w^2, so narrow limbs
    * pay until their count L grows the per-limb overheads; `make dse-polymul` measures the choice. */
  val defaultMaxLimb = 31
  val defaultLanes = 4

  /** The default limb width: L = ceil(logq / (defaultMaxLimb - 1)) limbs of w = ceil(logq / L) + 1 bits,
    * widened while too few primes of that width (and class) exist. */
  def defaultLimbBits(n: Int, logq: Int, cls: PrimeClass = PrimeClass.AnyPrime): Int = {
    val l = (logq + defaultMaxLimb - 2) / (defaultMaxLimb - 1)
    val w0 = math.max(minLimbBits, (logq + l - 1) / l + 1)
    (w0 to maxLimbBits).find(w => try { StreamPrimes.select(n, logq, w, cls); true } catch { case _: PreconditionError => false })
      .getOrElse(throw new PreconditionError(s"no limb width from $w0 to $maxLimbBits bits has enough primes = 1 mod ${2 * n}${cls.ofClass}: " +
        s"use another class (_c<${PrimeClass.all.map(_.name).mkString("|")}>) or a smaller n"))
  }

  private def pow2(x: Int) = x > 0 && (x & (x - 1)) == 0

  /** The configuration, or the first rule it breaks with what is accepted. With given `primes` the
    * default limb width is the widest prime's bits (at least [[minLimbBits]]). */
  def check(n: Int, logq: Int, lanes: Option[Int], limbBits: Option[Int], mul: StreamMul = StreamMul.Fast,
            store: LineStore = LineStore.Auto, cls: PrimeClass = PrimeClass.AnyPrime,
            primes: Seq[BigInt] = Nil): Either[String, StreamConfig] = {
    if (!pow2(n) || n < minN || n > maxN) return Left(s"n = $n: n must be a power of two from $minN to $maxN")
    if (logq < minLogq || logq > maxLogq) return Left(s"log q = $logq: log q must be from $minLogq to $maxLogq")
    val p = lanes.getOrElse(math.min(defaultLanes, n / 2))
    if (!pow2(p) || p > n / 2) return Left(s"_s$p: the lanes P must be a power of two that divides n with n/P >= 2 " +
      s"(1, 2, 4, ..., ${n / 2} for n = $n)")
    limbBits.foreach(w => if (w < minLimbBits || w > maxLimbBits) return Left(s"_w$w: the limb width must be from $minLimbBits to $maxLimbBits bits"))
    def widest = math.min(maxLimbBits, math.max(minLimbBits, primes.map(_.bitLength).max))
    try Right(StreamConfig(n, logq, p, limbBits.getOrElse(if (primes.nonEmpty) widest else defaultLimbBits(n, logq, cls)), mul, store, cls, primes))
    catch { case e: PreconditionError => Left(e.getMessage) }
  }
}
