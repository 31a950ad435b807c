package modforge.polymul

import modforge.arith.{Adders, PrefixAdder}
import spinal.core._

/** A radix-2 butterfly's additions mod q of fully reduced residues (a, b < q < 2^w), with q a constant, or the prime
  * a [[PrimeChoice]] selects (limbs in sequence, or loaded at run time): then each addition reads its own q (its own
  * multiplexer and copy of the select), so that no one signal drives every butterfly.
  *
  * **Both candidates side by side.** The NTT tile's form ([[modforge.ntt.ModArith]]: s = a + b, then s >= q, then
  * s - q, then the select) is three carry chains in series. In the streaming NTT's SDF butterfly it is the path from
  * the delay line to the next word of the line, and it was the multi-pass engines' worst path once the twiddle
  * multipliers had their own registers: 5.87 ns at tt in mpoly_16384_x64_b256_l1_s32_p1_w25_c1_t1_d1
  * (cols.ntt.streamNtt_2, the adder, the comparison with q, the subtraction, the select), against the 4.7 ns of the
  * 32-bit multipliers (reports/dse.md). Here each candidate is one carry-save level and one prefix adder
  * ([[Adders]], Han-Carlson), computed side by side, and the carry out of the candidate that subtracts q (or of
  * a - b) selects:
  *  - a + b mod q: s = a + b, and t = a + b + ~q + 1 = a + b - q + 2^(w+1) (a, b, ~q in w + 1 bits, summed carry-save;
  *    the + 1 is the free low bit of the shifted carries). Bit w + 1 of t is set exactly when a + b >= q, and then
  *    t's low w bits are a + b - q;
  *  - a - b mod q: d = a + ~b + 1 = a - b + 2^(w+1), whose bit w + 1 is set exactly when a >= b, and
  *    e = a + ~b + q + 1 = a - b + q + 2^(w+1), whose low w bits are a - b + q when a < b.
  */
class ModAddSub(val w: Int, q: () => UInt) {
  def add(a: UInt, b: UInt): UInt = ModAddSub.add(a, b, q())
  def sub(a: UInt, b: UInt): UInt = ModAddSub.sub(a, b, q())
}

object ModAddSub {
  /** q a constant: one literal, made here, that every addition reads. */
  def apply(w: Int, q: BigInt): ModAddSub = { val qU = U(q, w bits); new ModAddSub(w, () => qU) }
  /** One prime: exactly [[apply(w, q)]]. */
  def apply(w: Int, primes: PrimeChoice): ModAddSub =
    if (primes.literal) apply(w, primes.primes.head) else new ModAddSub(w, () => primes.q(w, ConstChain.addUses))

  private val Kind = PrefixAdder.HanCarlson

  /** x + y + z + 1 in w + 3 bits, x, y, z of w + 1 bits: one carry-save level (full adders bit by bit), then one
    * prefix adder of the sums and the carries shifted up, whose empty low bit takes the + 1. */
  private def sum3PlusOne(x: UInt, y: UInt, z: UInt): UInt = {
    val n = x.getWidth
    val s = x ^ y ^ z
    val c = (x & y) | (x & z) | (y & z)
    Adders.add(s.resize(n + 1), (c ## True).asUInt, Kind)
  }

  /** (a + b) mod q, a, b < q < 2^w. */
  def add(a: UInt, b: UInt, q: UInt): UInt = {
    val w = a.getWidth
    val s = Adders.add(a, b, Kind)                                             // a + b, w + 1 bits
    val t = sum3PlusOne(a.resize(w + 1), b.resize(w + 1), ~q.resize(w + 1))   // a + b - q + 2^(w+1)
    Mux(t(w + 1), t(w - 1 downto 0), s(w - 1 downto 0))
  }

  /** (a - b) mod q, a, b < q < 2^w. */
  def sub(a: UInt, b: UInt, q: UInt): UInt = {
    val w = a.getWidth
    val nb = ~b.resize(w + 1)
    val d = sum3PlusOne(a.resize(w + 1), nb, U(0, w + 1 bits))                // a - b + 2^(w+1)
    val e = sum3PlusOne(a.resize(w + 1), nb, q.resize(w + 1))                 // a - b + q + 2^(w+1)
    Mux(d(w + 1), d(w - 1 downto 0), e(w - 1 downto 0))
  }
}
