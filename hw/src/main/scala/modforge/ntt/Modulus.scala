package modforge.ntt

import modforge.modmul.Precompute
import modforge.modmul.Precompute
import modforge.reduction.{Method, ReductionPrecompute}
import spinal.core._

/** The modulus as the tile's multipliers and adders see it: q, plus the values each multiplier
  * precomputes from it (Algorithm 1: M', r, l; Algorithm 4: M', g, l). The Shoup unit takes q itself.
  * The reduction arrangements: Montgomery's q' = -q^-1 mod 2^k (`red_mp`), and for all of them
  * C = F^-2 mod q (`red_c`), the constant of PWMUL's second pass ([[ReductionArrangement]]).
  * In the ROM tile these are constants (`assignConstants`); in the RAM tile they are input ports
  * the host drives from verif/modmul/precompute.py, held while a command runs.
  */
case class ModulusBundle(k: Int, mul: MulArrangement) extends Bundle {
  private val lBits = log2Up(k)
  private val barrett = mul == MulArrangement.Barrett || mul == MulArrangement.ShoupBarrett
  private val gshoup = mul == MulArrangement.GShoup
  val q = UInt(k bits)
  val barrett_m = barrett generate UInt(k bits)
  val barrett_r = barrett generate UInt(k + 1 bits)
  val barrett_l = barrett generate UInt(lBits bits)
  val gshoup_m = gshoup generate UInt(k bits)
  val gshoup_g = gshoup generate UInt(k bits)
  val gshoup_l = gshoup generate UInt(lBits bits)
  private val red = mul.reduction(k)
  val red_mp = red.exists(_.method == Method.Mont) generate UInt(k bits)
  val red_c = red.isDefined generate UInt(k bits)

  def assignConstants(modulus: BigInt): Unit = {
    q := U(modulus, k bits)
    if (barrett) {
      val (mp, r, l) = Precompute.barrett(k, modulus)
      barrett_m := U(mp, k bits); barrett_r := U(r, k + 1 bits); barrett_l := U(l, lBits bits)
    }
    if (gshoup) {
      val (mp, g, l) = Precompute.gshoup(k, modulus)
      gshoup_m := U(mp, k bits); gshoup_g := U(g, k bits); gshoup_l := U(l, lBits bits)
    }
    red.foreach { r =>
      if (red_mp != null) red_mp := U(ReductionPrecompute.montQPrime(k, modulus), k bits)
      red_c := U(ReductionPrecompute.pointwiseConstant(r, modulus), k bits)
    }
  }
}

/** Additions mod q of fully reduced operands (a, b < q < 2^k), in k+1 bits. */
object ModArith {
  def add(a: UInt, b: UInt, q: UInt): UInt = {
    val s = a.resize(a.getWidth + 1) + b
    Mux(s >= q, s - q, s).resize(a.getWidth)
  }
  def sub(a: UInt, b: UInt, q: UInt): UInt = {
    val d = a.resize(a.getWidth + 1) - b // wraps when a < b; adding q brings it back to 0..q-1
    Mux(a < b, d + q, d).resize(a.getWidth)
  }
  /** a / 2 mod q for odd q: a/2 when a is even, (a + q)/2 when it is odd. */
  def half(a: UInt, q: UInt): UInt = {
    val odd = a.resize(a.getWidth + 1) + q
    Mux(a.lsb, odd >> 1, a >> 1).resize(a.getWidth)
  }
}
