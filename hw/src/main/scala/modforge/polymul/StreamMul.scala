package modforge.polymul

import modforge.arith.MulArchScope
import modforge.modmul._

/** The modular multipliers of a streaming engine: Shoup (Algorithm 3) for twiddle products and
  * BarrettOpt (Algorithm 1) for the pointwise product.
  *
  *  - `fast` (default): the configurations `make dse` found best at 32 bits (reports/dse.md; [[Best]]):
  *    Shoup `p111111_t<c>_mbdbk`, BarrettOpt `p111111111_t<c>_mbdhc`, synthesized with `drc`, the
  *    truncation recomputed for the limb's k as the most columns that keep the corrections of the
  *    exact product (26 and 27 at k = 32, as in Best);
  *  - `paper`: the paper's registers (Shoup 3, BarrettOpt 4), exact products, Yosys's multipliers.
  */
sealed abstract class StreamMul(val name: String) {
  def shoupVariant(k: Int): Option[Variant]
  def barrettVariant(k: Int): Option[Variant]
  /** The flow's synthesis options (manifest `synthesis`, flow/synth.py SynthOptions). */
  def synthJson: String

  private def design[T](base: Design, v: Option[Variant]) = v.map(VariantDesign(base, _)) 

  def shoup(k: Int): Shoup = design(Design(ShoupFamily, k), shoupVariant(k))
    .map(_.build().asInstanceOf[Shoup]).getOrElse(new Shoup(ShoupConfig(k)))
  def barrett(k: Int): BarrettOpt = design(Design(Barrett, k), barrettVariant(k))
    .map(_.build().asInstanceOf[BarrettOpt]).getOrElse(new BarrettOpt(BarrettOptConfig(k)))

  def shoupLatency(k: Int): Int = shoupVariant(k).flatMap(_.mask).map(m => ShoupRegs.fromMask(m).latency).getOrElse(ShoupRegs().latency)
  def barrettLatency(k: Int): Int = barrettVariant(k).flatMap(_.mask).map(m => BarrettOptRegs.fromMask(m).latency).getOrElse(BarrettOptRegs().latency)
  def tokens(k: Int, family: String): String =
    (if (family == "shoup") shoupVariant(k) else barrettVariant(k)).map("__" + _.tokens.mkString("_")).getOrElse("")
}

object StreamMul {
  case object Fast extends StreamMul("fast") {
    private def maxTrunc(k: Int, corr: (Int, Int) => Int): Int = (0 to k - 2).takeWhile(c => corr(k, c) == corr(k, 0)).last
    def shoupVariant(k: Int): Option[Variant] =
      Some(Variant(Some(Seq.fill(6)(true)), Some((maxTrunc(k, Truncation.shoupCorrections), -1)), "bdbk", Seq("dont_use" -> "\"drc\"")))
    def barrettVariant(k: Int): Option[Variant] =
      Some(Variant(Some(Seq.fill(9)(true)), Some((maxTrunc(k, Truncation.barrettCorrections), -1)), "bdhc", Seq("dont_use" -> "\"drc\"")))
    def synthJson: String = """{"dont_use": "drc"}"""
  }
  case object Paper extends StreamMul("paper") {
    def shoupVariant(k: Int): Option[Variant] = None
    def barrettVariant(k: Int): Option[Variant] = None
    def synthJson: String = "{}"
  }
  val all: Seq[StreamMul] = Seq(Fast, Paper)
  def parse(s: String): Option[StreamMul] = all.find(_.name == s)
}
