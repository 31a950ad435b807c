package modforge.polymul

import modforge.modmul.Precompute
import spinal.core._

/** A product x W mod q with W a known twiddle: Shoup's multiplier (Algorithm 3) with the
  * companion W' = floor(W 2^k / q) computed here, k = w + 1 (Algorithm 3 wants 2q < 2^k).
  * Both come from the generator, so synthesis sees constants (lane-pair stages) or a ROM
  * (delay-line stages) and never a precomputation port.
  *
  * With several primes in sequence ([[PrimeChoice]]), q and each table are read at the choice's select: a
  * constant becomes a table of one entry a prime, a table one a prime after another (the `...Of` methods, which
  * with one prime are exactly the one-prime methods).
  */
class TwiddleMul(val w: Int, val primes: PrimeChoice, mul: StreamMul) {
  def this(w: Int, q: BigInt, mul: StreamMul) = this(w, PrimeChoice.one(q), mul)
  /** The first prime (the only one without limbs in sequence). */
  val q: BigInt = primes.primes.head
  val k: Int = w + 1
  for (p <- primes.primes) require(2 * p < (BigInt(1) << k) && p < (BigInt(1) << w), s"q = $p does not fit a $w-bit limb")
  def companion(t: BigInt): BigInt = Precompute.shoupR(k, t, q)
  /** W' of twiddle t of prime l. */
  def companionOf(l: Int, t: BigInt): BigInt = Precompute.shoupR(k, t, primes.primes(l))
  val latency: Int = mul.shoupLatency(k)

  /** x W with (W, W') given as signals of k bits; latency [[latency]], result < q. */
  def apply(x: UInt, tw: UInt, twr: UInt): UInt = {
    val m = mul.shoup(k)
    m.in_valid := True
    m.in_a := x.resize(k)
    m.in_b := tw
    m.in_r := twr
    m.in_m := primes.q(k)
    m.out_t.resize(w)
  }

  def const(x: UInt, t: BigInt): UInt = apply(x, U(t, k bits), U(companion(t), k bits))

  /** x ts(sel): the twiddle of each prime. With several primes the chosen (W, W') are registered, one register
    * set per multiplier (KeepReg), as [[NttPipelines]]' SDF stages register theirs: picked combinationally, a select
    * copy drove the constant multiplexers and then every partial product of the multiplier's first stage,
    * `mpoly_8192_x32_k4_b256_l1_s32_p1_w31_t1_r4`'s worst path (7.07 ns at tt: 2.42 ns on the copy's output, a
    * column NTT's lane-pair stage, 2026-11-30). The select is steady through a pass, so the register only delays the
    * constant's change by one cycle (the select then needs copies + 1 steady cycles before a beat reads it). */
  def constOf(x: UInt, ts: Seq[BigInt], scale: Int = 1): UInt =
    if (primes.loaded) { val (t, tr) = pairOf(ts, scale); apply(x, modforge.KeepReg(t), modforge.KeepReg(tr)) }
    else if (primes.single) const(x, ts.head)
    else apply(x, modforge.KeepReg(primes.pick(ts, k)), modforge.KeepReg(primes.pick(ts.indices.map(l => companionOf(l, ts(l))), k)))

  /** (W, W') of the twiddle ts(sel) as signals: literals with one prime, a loaded cell (`scale`: an NTT size whose
    * inverse is folded into W, [[ConstForm.Power]]), or each prime's picked. */
  def pairOf(ts: Seq[BigInt], scale: Int = 1): (UInt, UInt) =
    if (primes.loaded) primes.chain.pair(ts.head, scale, ConstChain.pairUses)
    else if (primes.single) (U(ts.head, k bits), U(companion(ts.head), k bits))
    else (primes.pick(ts, k), primes.pick(ts.indices.map(l => companionOf(l, ts(l))), k))

  /** (W, W') = table(idx) with the table's entries loaded at run time ([[ConstChain.table]]), `idxAhead` the index one
    * tick ahead: as [[lookupCopied]], the 2k output bits cut into slices, each reading its own registered copy of the
    * index; a slice has [[PrimeChoice.sliceBits]] bits, so that a copy's bit drives about 64 multiplexer selects (a
    * register file is a multiplexer per bit and entry pair, where a constant table folds into less logic). */
  def lookupLoaded(table: Seq[BigInt], scale: Int, idxAhead: => UInt): (UInt, UInt) = {
    val cells = primes.chain.table(table, scale)
    if (cells.size == 1) return (cells.head(k, k bits).asUInt, cells.head(0, k bits).asUInt)
    val bits = log2Up(cells.size)
    val sb = PrimeChoice.sliceBits(cells.size)
    val ahead = idxAhead.resize(bits)
    val slices = (0 until 2 * k by sb).map { lo =>
      val n = math.min(sb, 2 * k - lo)
      Vec(cells.map(c => c(lo, n bits)))(modforge.KeepReg(ahead))
    }
    val all = Cat(slices).asUInt // Cat of a Seq: its first element in the low bits
    (all(k, k bits), all(0, k bits))
  }

  /** Each prime's table, padded to 2^bits entries, one prime after another, with the select's
    * unused codes reading prime 0's: one table indexed by sel ## idx. */
  private def flat(tables: Seq[Seq[BigInt]], word: (Int, BigInt) => BigInt): (Seq[BigInt], Int) = {
    require(tables.size == primes.count && tables.map(_.size).distinct.size == 1, "one table a prime, all of one size")
    val bits = log2Up(tables.head.size)
    val per = tables.zipWithIndex.map { case (t, l) => t.map(word(l, _)).padTo(1 << bits, word(l, t.last)) }
    (Seq.tabulate(1 << primes.bits)(s => per(if (s < per.size) s else 0)).flatten, bits)
  }

  /** (W, W') = tables(sel)(idx): [[lookup]] over each prime's table. */
  def lookupOf(tables: Seq[Seq[BigInt]], idx: UInt): (UInt, UInt) = {
    require(!primes.loaded, "a loaded table is read through lookupLoaded")
    if (primes.single) lookup(tables.head, idx)
    else if (tables.head.size == 1) (primes.pick(tables.map(_.head), k), primes.pick(tables.zipWithIndex.map { case (t, l) => companionOf(l, t.head) }, k))
    else {
      val (words, bits) = flat(tables, (l, v) => (v << k) | companionOf(l, v))
      val all = PrimeChoice.sliced(words, 2 * k, words.size, () => (primes.selCopy() ## idx.resize(bits)).asUInt)
      (all(k, k bits), all(0, k bits))
    }
  }

  /** (W, W') = table(idx) as k-bit signals (constants when the table has one entry). */
  def lookup(table: Seq[BigInt], idx: UInt): (UInt, UInt) = {
    if (table.size == 1) (U(table.head, k bits), U(companion(table.head), k bits))
    else {
      val t = Vec(table.map(v => U(v, k bits)))
      val r = Vec(table.map(v => U(companion(v), k bits)))
      (t(idx.resize(log2Up(table.size))), r(idx.resize(log2Up(table.size))))
    }
  }

  /** (W, W') = table(idx) where `idxAhead` is the index one tick ahead: the table's 2k output bits
    * are cut into slices, and each slice reads its own registered copy of the index (KeepReg).
    *
    * Why: a table of T entries as logic loads each index bit about 1.4 T / 100 times per output
    * bit; read straight from the position counter, one counter bit drove 716 loads in the
    * 512-entry table of polymul_2048_33_s2 (10.4 ns on the flip-flop's output, the design's 15.2 ns
    * path), since this flow's STA buffers no register output ([[modforge.FanoutReg]]). A slice has
    * [[TwiddleMul.sliceBits]] bits, so a copy drives about 32 loads, and the counter one per copy.
    * The copies are one tick late by construction; whatever they hold after reset is read for
    * the first tick only, by the beat before the first (the caller's offset is at least 1). */
  def lookupCopied(table: Seq[BigInt], idxAhead: UInt): (UInt, UInt) = {
    val bits = log2Up(table.size)
    val words = table.map(v => (v << k) | companion(v)) // W' in the low k bits, W above
    val sb = TwiddleMul.sliceBits(table.size)
    val slices = (0 until 2 * k by sb).map { lo =>
      val n = math.min(sb, 2 * k - lo)
      val rom = Vec(words.map(v => U((v >> lo) & ((BigInt(1) << n) - 1), n bits)))
      rom(modforge.KeepReg(idxAhead.resize(bits)))
    }
    val all = Cat(slices).asUInt // Cat of a Seq: its first element in the low bits
    (all(k, k bits), all(0, k bits))
  }

  /** [[lookupCopied]] over each prime's table: the select joins the index above its bits, and each slice's
    * registered copy holds both (the select is steady through a pass, so its copy one tick late is too). */
  def lookupCopiedOf(tables: Seq[Seq[BigInt]], idxAhead: UInt): (UInt, UInt) = {
    require(!primes.loaded, "a loaded table is read through lookupLoaded")
    if (primes.single) return lookupCopied(tables.head, idxAhead)
    val (words, bits) = flat(tables, (l, v) => (v << k) | companionOf(l, v))
    val ib = bits + primes.bits
    val sb = TwiddleMul.sliceBits(words.size)
    val slices = (0 until 2 * k by sb).map { lo =>
      val n = math.min(sb, 2 * k - lo)
      val rom = Vec(words.map(v => U((v >> lo) & ((BigInt(1) << n) - 1), n bits)))
      rom(modforge.KeepReg((primes.selCopy() ## idxAhead.resize(bits)).asUInt.resize(ib)))
    }
    val all = Cat(slices).asUInt
    (all(k, k bits), all(0, k bits))
  }
}

object TwiddleMul {
  /** Tables of this many entries and more read copies of their index ([[TwiddleMul.lookupCopied]]). */
  val copiedFrom = 16

  /** Output bits per index copy for a table of `entries` words: about 32 loads per copy. */
  def sliceBits(entries: Int): Int = math.max(1, 1536 / entries)
}
