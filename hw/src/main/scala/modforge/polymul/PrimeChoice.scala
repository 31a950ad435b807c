package modforge.polymul

import spinal.core._

/** Which of a pipeline's primes the data in it belongs to: the multi-pass engine's limbs in sequence (`_r<rounds>`,
  * docs/polymul_multipass.md, "Limbs in sequence"), where one engine serves several limbs one after another. Every
  * constant that depends on the prime (q itself, the twiddles and their Shoup companions, N^-1, the Barrett
  * constants) is then a table with one entry a prime, read at `sel`.
  *
  * **Why a register may steer it.** The engine changes `sel` only between passes, when the pipeline holds no beat of
  * the pass before (a pass ends when its last write is acknowledged), so no beat ever meets another prime's
  * constants. With one prime there is no `sel` (null) and every constant is the literal it always was: the
  * generated Verilog of every one-prime design is unchanged.
  *
  * @param primes the primes, in the order `sel` numbers them
  * @param sel    the prime of the data, log2Up(primes) bits; null with one prime
  */
case class PrimeChoice(primes: Seq[BigInt], sel: UInt) {
  require(primes.nonEmpty, "a pipeline serves at least one prime")
  require((primes.size == 1) == (sel == null), s"${primes.size} primes: a select exactly when there are two or more")
  val count: Int = primes.size
  val single: Boolean = count == 1
  /** Bits of `sel`. */
  val bits: Int = PrimeChoice.selBits(count)

  /** values(sel) as a `width`-bit signal: the literal with one prime. */
  def pick(values: Seq[BigInt], width: Int): UInt = {
    require(values.size == count, s"${values.size} values for $count primes")
    if (single) U(values.head, width bits) else Vec(values.map(v => U(v, width bits)))(sel)
  }
  /** q(sel). */
  def q(width: Int): UInt = pick(primes, width)
}

object PrimeChoice {
  /** The one-prime choice: no select, every constant a literal. */
  def one(q: BigInt): PrimeChoice = PrimeChoice(Seq(q), null)
  def selBits(count: Int): Int = math.max(1, log2Up(count))
}
