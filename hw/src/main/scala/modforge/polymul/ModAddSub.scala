package modforge.polymul

import modforge.ntt.ModArith
import spinal.core._

/** A radix-2 butterfly's additions mod q of fully reduced residues (the NTT tile's [[ModArith]]), with q a
  * constant, or the prime a [[PrimeChoice]] selects (limbs in sequence). */
class ModAddSub(val w: Int, qU: UInt) {
  def add(a: UInt, b: UInt): UInt = ModArith.add(a, b, qU)
  def sub(a: UInt, b: UInt): UInt = ModArith.sub(a, b, qU)
}

object ModAddSub {
  def apply(w: Int, q: BigInt): ModAddSub = new ModAddSub(w, U(q, w bits))
  /** One prime: exactly [[apply(w, q)]]'s literal. */
  def apply(w: Int, primes: PrimeChoice): ModAddSub = new ModAddSub(w, primes.q(w))
}
