package modforge.polymul

import spinal.core._

/** Which of a pipeline's primes the data in it belongs to: the multi-pass engine's limbs in sequence (`_r<rounds>`,
  * docs/polymul_multipass.md, "RTL: limbs in sequence"), where one engine serves several limbs one after another. Every
  * constant that depends on the prime (q itself, the twiddles and their Shoup companions, N^-1, the Barrett
  * constants) is then a table with one entry a prime, read at `sel`.
  *
  * **Why a register may steer it.** The engine changes `sel` only between passes, when the pipeline holds no beat of
  * the pass before (a pass ends when its last write is acknowledged), so no beat ever meets another prime's
  * constants. With one prime there is no `sel` (null) and every constant is the literal it always was: the
  * generated Verilog of every one-prime design is unchanged.
  *
  * **Copies of the select** (`copies`). Read straight from the unit's limb register, `sel` drove every table of the
  * rows engine: `mpoly_8192_x32_k2_b256_l1_s32_p1_w31_t1_r2`'s critical path was that one register into a twiddle
  * register, 14.33 ns at tt against the one-limb engine's 6.63 (this flow's STA buffers no register output,
  * [[modforge.FanoutReg]]). With `copies` = 1, each slice of each table reads its own registered copy of `sel` (one
  * cycle late); with 2, a copy of a copy, each first-level copy serving [[PrimeChoice.perTrunk]] slices (two cycles
  * late). A slice has [[PrimeChoice.sliceBits]] output bits, so that a copy drives about 64 multiplexer inputs. The
  * copies run on `domain` (the engine's free clock where the datapath's clock is gated by the tick, so that they follow
  * `sel` whether or not the pipeline advances), else the current one. A caller uses copies only where `sel` is steady
  * that many cycles before the first beat that reads it (one more where a constant picked from it is registered,
  * [[TwiddleMul.constOf]]; the multi-pass passes change it at a pass's start, many cycles before their first beat:
  * the reads' round trip and the buffers' fill come first).
  *
  * @param primes the primes, in the order `sel` numbers them
  * @param sel    the prime of the data, log2Up(primes) bits; null with one prime
  * @param copies 0: `sel` read directly; 1 or 2: the levels of registered copies between it and each table
  * @param domain the copies' clock domain (null: the current one)
  * @param chain  primes loaded at run time ([[ConstChain]]): one prime, the reference, and every constant a loaded
  *               cell of the chain instead of a literal (null: literals or tables, as above)
  */
case class PrimeChoice(primes: Seq[BigInt], sel: UInt, copies: Int = 0, domain: ClockDomain = null, chain: ConstChain = null) {
  require(primes.nonEmpty, "a pipeline serves at least one prime")
  require((primes.size == 1) == (sel == null), s"${primes.size} primes: a select exactly when there are two or more")
  require(copies >= 0 && copies <= 2, s"copies = $copies: 0, 1 or 2 levels of registered copies")
  val count: Int = primes.size
  val single: Boolean = count == 1
  require(chain == null || single, "loaded constants serve one prime at a time")
  /** The constants are loaded at run time ([[ConstChain]]). */
  val loaded: Boolean = chain != null
  /** The constants are literals: one prime, not loaded. */
  val literal: Boolean = single && !loaded
  /** Bits of `sel`. */
  val bits: Int = PrimeChoice.selBits(count)

  private def reg(x: UInt): UInt =
    if (domain == null) modforge.KeepReg(x) else new ClockingArea(domain) { val r = modforge.KeepReg(x) }.r
  private var trunk: UInt = null
  private var trunkUses = 0
  /** The select one slice of one table reads: `sel`, its own copy, or a copy of a shared first-level copy. */
  def selCopy(): UInt = copies match {
    case 0 => sel
    case 1 => reg(sel)
    case _ =>
      if (trunk == null || trunkUses == PrimeChoice.perTrunk) { trunk = reg(sel); trunkUses = 0 }
      trunkUses += 1
      reg(trunk)
  }

  /** values(sel) as a `width`-bit signal: the literal with one prime; loaded, a cell of the chain holding a
    * constant of `kind` (read by at most `uses` callers). */
  def pick(values: Seq[BigInt], width: Int, kind: ConstKind = ConstKind.Twiddle(), uses: Int = 1): UInt = {
    require(values.size == count, s"${values.size} values for $count primes")
    if (loaded) chain.scalar(kind, values.head, width, uses)
    else if (single) U(values.head, width bits) else PrimeChoice.sliced(values, width, count, () => selCopy())
  }
  /** q(sel); loaded, a cell read by at most `uses` callers. */
  def q(width: Int, uses: Int = 1): UInt = pick(primes, width, ConstKind.Modulus, uses)
}

object PrimeChoice {
  /** The one-prime choice: no select, every constant a literal. */
  def one(q: BigInt): PrimeChoice = PrimeChoice(Seq(q), null)
  /** One prime, its constants loaded at run time through `chain` (null: [[one]]). */
  def loaded(q: BigInt, chain: ConstChain): PrimeChoice = PrimeChoice(Seq(q), null, chain = chain)
  def selBits(count: Int): Int = math.max(1, log2Up(count))
  /** First-level copies each serve this many slices (2 levels). */
  val perTrunk: Int = 32
  /** Output bits per slice of a table of `entries` words: a select bit drives about entries / 2 multiplexers per
    * output bit, so about 64 loads a copy. */
  def sliceBits(entries: Int): Int = math.max(1, 128 / math.max(2, entries))

  /** words(index) as `width` bits, cut into slices of [[sliceBits]] bits, each indexed by its own `index()`. */
  def sliced(words: Seq[BigInt], width: Int, entries: Int, index: () => UInt): UInt = {
    val sb = sliceBits(entries)
    val slices = (0 until width by sb).map { lo =>
      val n = math.min(sb, width - lo)
      Vec(words.map(v => U((v >> lo) & ((BigInt(1) << n) - 1), n bits)))(index())
    }
    Cat(slices).asUInt // Cat of a Seq: its first element in the low bits
  }
}
