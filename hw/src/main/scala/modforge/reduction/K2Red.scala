package modforge.reduction

import modforge.{Boundary, Multiplier}
import spinal.core._

/** Registers of K2RED (Tosun Section 4): the product q_h a_l and the sum t of line 2, the
  * product q_h t_l and the sum t' of line 4, and b (lines 5-7). Five, as in the paper. */
case class K2RedRegs(line2Product: Boolean = true, line2Sum: Boolean = true, line4Product: Boolean = true,
                     line4Sum: Boolean = true, out: Boolean = true) {
  def boundaries: Seq[Boundary] = Seq(line2Product, line2Sum, line4Product, line4Sum, out).map(Boundary)
}

/** The signed tail shared by K2RED and K2RED-Shift, from line 2's t = q_h a_l - a_h:
  * line 3 splits t (arithmetic shift), line 4 forms t' = q_h t_l - t_h, lines 5-7 correct
  * t' (-2^h < t' < 2q) into [0, q) unless the design is lazy. `qhTimes` multiplies by q_h (a
  * multiplier, or shifts), `regs` = (line 4's product, line 4's sum, out).
  */
object K2RedTail {
  def apply(cfg: ReductionConfig, t: SInt, mod: RedModulus, valid: Bool, qhTimes: (UInt, RedModulus) => UInt,
            regs: Seq[Boundary], red: Reduction): Unit = {
    val io = red.io
    val k = cfg.k
    val Seq(atP, atS, atOut) = regs
    val omega = cfg.omega
    val tl = t(omega - 1 downto 0).asUInt
    val th = t >> omega                                           // line 3, 2h+1 bits signed
    val p2 = atP(qhTimes(tl, mod).resize(k bits)); val thR = atP(th); val modP = atP(mod); val vP = atP.valid(valid)
    val tp = atS(p2.resize(k + 2 bits).asSInt - thR.resize(k + 2 bits)) // line 4, -2^h < t' < 2q
    val modS = atS(modP); val vS = atS.valid(vP)
    val q = modS.m.resize(k + 2 bits).asSInt
    val fixed = if (cfg.lazyOut) tp.asUInt
      else Mux(tp >= q, tp - q, Mux(tp.msb, tp + q, tp)).asUInt.resize(k bits) // lines 5-7
    io.t := atOut(fixed)
    io.outValid := atOut.valid(vS)
  }
}

/** K2RED, Tosun Alg. 3, for Proth q = q_h 2^w + 1 (w = k - h >= k/2): q_h = -2^-w mod q, so
  * t = q_h a_l - a_h = -2^-w x and t' = q_h t_l - t_h = 2^-2w x (mod q). `lazyOut` skips lines 5-7
  * as the paper's 64-bit datapath (Fig. 2) does: out_t is t' itself, signed, in k+2 bits.
  */
class K2Red(cfg: ReductionConfig, regs: K2RedRegs = K2RedRegs()) extends Reduction(cfg) {
  /** q_h v: a multiplier here; barrel shifters in [[K2RedShift]]. */
  val Seq(atP1, atS1, atP2, atS2, atOut) = regs.boundaries
  def latency: Int = regs.boundaries.map(_.cycles).sum
  val omega = cfg.omega
  val wt = 2 * k - omega + 1 // t of line 2: -2^(2k-w) < t < 2^k

  def qhTimes(v: UInt, mod: RedModulus): UInt = Multiplier.full(mod.m(k - 1 downto omega), v)
  // Lines 1-2.
  val al = io.x(omega - 1 downto 0)
  val p1 = atP1(qhTimes(al, io.mod).resize(k bits)); val ah = atP1(io.x >> omega)
  val mod1 = atP1(io.mod); val v1 = atP1.valid(io.inValid)
  val t = atS1(p1.resize(wt bits).asSInt - ah.resize(wt bits).asSInt)
  val mod2 = atS1(mod1); val v2 = atS1.valid(v1)
  K2RedTail(cfg, t, mod2, v2, qhTimes, Seq(atP2, atS2, atOut), this)
}
