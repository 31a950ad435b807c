package modforge.polymul

import modforge.ntt.ModArith
import spinal.core._

/** A radix-2 butterfly's additions mod q of fully reduced residues (the NTT tile's [[ModArith]]),
  * with q a constant. */
case class ModAddSub(w: Int, q: BigInt) {
  private val qU = U(q, w bits)
  def add(a: UInt, b: UInt): UInt = ModArith.add(a, b, qU)
  def sub(a: UInt, b: UInt): UInt = ModArith.sub(a, b, qU)
}
