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
}

object TwiddleMul {
  /** Tables of this many entries and more read copies of their index ([[TwiddleMul.lookupCopied]]). */
  val copiedFrom = 16

  /** Output bits per index copy for a table of `entries` words: about 32 loads per copy. */
  def sliceBits(entries: Int): Int = math.max(1, 1536 / entries)
}
