package modforge.polymul

import modforge.ntt.ModArith
import spinal.core._

/** A radix-2 butterfly's additions mod q of fully reduced residues (the NTT tile's [[ModArith]]), with q a
  * constant, or the prime a [[PrimeChoice]] selects (limbs in sequence): then each addition reads its own q (its own
  * multiplexer and copy of the select), so that no one signal drives every butterfly. */
class ModAddSub(val w: Int, q: () => UInt) {
  def add(a: UInt, b: UInt): UInt = ModArith.add(a, b, q())
  def sub(a: UInt, b: UInt): UInt = ModArith.sub(a, b, q())
}

object ModAddSub {
  /** q a constant: one literal, made here, that every addition reads. */
  def apply(w: Int, q: BigInt): ModAddSub = { val qU = U(q, w bits); new ModAddSub(w, () => qU) }
  /** One prime: exactly [[apply(w, q)]]. */
  def apply(w: Int, primes: PrimeChoice): ModAddSub =
    if (primes.literal) apply(w, primes.primes.head) else new ModAddSub(w, () => primes.q(w, ConstChain.addUses))
}
