package modforge.ntt

import modforge.modmul.{GShoup, GShoupConfig}
import modforge.modmul.{BarrettOpt, BarrettOptConfig, Shoup, ShoupConfig}
import modforge._
import modforge.reduction.ReductionMul
import spinal.core._
import spinal.lib.Delay

/** What a butterfly unit does with its operands (X, Y) and twiddle W. */
object BflyOp extends SpinalEnum(binarySequential) {
  /** Cooley-Tukey, forward NTT: (X + W Y, X - W Y). */
  val ct = newElement()
  /** Gentleman-Sande, inverse NTT: ((X + Y)/2, (X - Y) W); W carries the other 1/2, so log2(N) stages give N^-1. */
  val gs = newElement()
  /** Pointwise product: X Y in the first output, through the multiplier's full path. */
  val pw = newElement()
  /** X W, W from the twiddle input, in both outputs: the second pass of a reduction arrangement's
    * PWMUL, with W = C = F^-2 mod q. */
  val pwc = newElement()
}

/** One butterfly unit: one modular multiplier (two for the Shoup + Barrett arrangement; for a
  * reduction arrangement a [[modforge.reduction.ReductionMul]], whose A B F comes out exact for
  * twiddles stored as W F^-1, and as X Y F for PW, which the tile's second pass `pwc` fixes).
  *
  * Pipeline: register 1 holds the multiplier's operands (after the Gentleman-Sande pre-addition),
  * then the multiplier's own registers, then register 2 holds the results, so the latency is the
  * multiplier's plus 2 ([[NttConfig.butterflyLatency]]). Twiddle products take the Shoup path with
  * the precomputed companion `wr` (ignored by Barrett); pointwise products the full path.
  * All operands and results are fully reduced (< q).
  */
class Butterfly(val k: Int, val mul: MulArrangement) extends Component {
  val io = new Bundle {
    val inValid = in Bool ()
    val op = in(BflyOp())
    val x, y, w, wr = in UInt (k bits)
    val mod = in(ModulusBundle(k, mul))
    val outValid = out Bool ()
    val x2, y2 = out UInt (k bits)
  }
  val mulLatency: Int = mul.mulLatency
  def latency: Int = mulLatency + 2
  val q = io.mod.q

  // Register 1: operands of the product. CT: W*Y. GS: W*(X - Y), and (X + Y)/2 rides beside.
  // PW: X*Y on the full path. PWC: X*W.
  val isTwiddle = io.op =/= BflyOp.pw
  val sum = ModArith.half(ModArith.add(io.x, io.y, q), q)
  val diff = ModArith.sub(io.x, io.y, q)
  val mulA = RegNext(Mux(io.op === BflyOp.ct, io.y, Mux(io.op === BflyOp.gs, diff, io.x)))
  val mulB = RegNext(Mux(isTwiddle, io.w, io.y))
  val mulR = RegNext(io.wr)
  val twiddle = RegNext(isTwiddle)
  val carry = RegNext(Mux(io.op === BflyOp.gs, sum, io.x))
  val op1 = RegNext(io.op)
  val valid1 = RegNext(io.inValid) init (False)

  val product: UInt = mul match {
    case MulArrangement.Barrett =>
      val m = new BarrettOpt(BarrettOptConfig(k))
      driveBarrett(m, valid1)
      m.out_t
    case MulArrangement.ShoupBarrett =>
      val s = new Shoup(ShoupConfig(k))
      s.in_valid := valid1 && twiddle; s.in_a := mulA; s.in_b := mulB; s.in_m := q; s.in_r := mulR
      val b = new BarrettOpt(BarrettOptConfig(k))
      driveBarrett(b, valid1 && !twiddle)
      require(b.latency >= s.latency && b.latency == mulLatency)
      // Shoup's result waits for Barrett's latency, so both paths leave in the same cycle.
      Mux(Delay(twiddle, b.latency), Delay(s.out_t, b.latency - s.latency), b.out_t)
    case MulArrangement.GShoup =>
      val g = new GShoup(GShoupConfig(k))
      g.in_valid := valid1; g.in_a := mulA; g.in_b := mulB; g.in_r := mulR; g.in_mode := twiddle
      g.in_m := io.mod.gshoup_m; g.in_g := io.mod.gshoup_g; g.in_l := io.mod.gshoup_l
      require(g.latency == mulLatency)
      g.out_t
    case r: ReductionArrangement =>
      val m = new ReductionMul(r.config(k))
      m.in_valid := valid1; m.in_a := mulA; m.in_b := mulB; m.in_m := q
      if (m.in_mp != null) m.in_mp := io.mod.red_mp
      require(m.latency == mulLatency, s"${r.name}: ReductionMul latency ${m.latency}, arrangement says $mulLatency")
      m.out_t
  }

  private def driveBarrett(m: BarrettOpt, v: Bool): Unit = {
    m.in_valid := v; m.in_a := mulA; m.in_b := mulB
    m.in_m := io.mod.barrett_m; m.in_r := io.mod.barrett_r; m.in_l := io.mod.barrett_l
    require(m.latency == mulLatency || mul == MulArrangement.ShoupBarrett)
  }

  // Register 2: CT: (X + P, X - P). GS: ((X + Y)/2, P). PW, PWC: (P, P).
  val carryM = Delay(carry, mulLatency)
  val opM = Delay(op1, mulLatency)
  io.x2 := RegNext(Mux(opM === BflyOp.ct, ModArith.add(carryM, product, q), Mux(opM === BflyOp.gs, carryM, product)))
  io.y2 := RegNext(Mux(opM === BflyOp.ct, ModArith.sub(carryM, product, q), product))
  io.outValid := RegNext(Delay(valid1, mulLatency, init = False)) init (False)
}
