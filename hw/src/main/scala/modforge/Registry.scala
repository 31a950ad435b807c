package modforge

import modforge.modmul.Family
import modforge.modmul.{Best, Designs, Variant, VariantDesign}

/** Any modular multiplier of the registry: what the generator needs to build it and describe it. */
trait ModMulDesign {
  def name: String
  def k: Int
  def familyName: String
  def title: String
  def build(): ModMulComponent
  /** Extra manifest fields (JSON members, each line starting with a comma), "" if none. */
  def manifestExtra: String = ""
}

/** A design of the reduction family (docs/reduction.md). */
case class ReductionDesign(cfg: reduction.ReductionConfig) extends ModMulDesign {
  def name: String = cfg.name
  def k: Int = cfg.k
  def familyName: String = cfg.method.name
  def title: String = cfg.method.title
  def build(): ModMulComponent = new reduction.ReductionMul(cfg)
  override def manifestExtra: String = {
    def opt(n: String, v: Int) = if (v > 0) s""",\n  "$n": $v""" else ""
    opt("w", cfg.w) + opt("h", cfg.h) + opt("omega", if (cfg.w > 0 || cfg.h > 0) cfg.omega else 0) +
      (cfg.method match {
        case reduction.Method.WlmMixed => s""",\n  "tile": [${cfg.tile._1}, ${cfg.tile._2}]"""
        case reduction.Method.MontShift | reduction.Method.K2RedShift =>
          s""",\n  "proth": "${if (cfg.proth3l) "3l" else "2l"}",\n  "preset": "${cfg.preset.name}""""
        case _ => ""
      }) + s""",\n  "lazy": ${cfg.lazyOut}"""
  }
}

/** A bare registered k x k product ([[arith.Product]]), `mul_<k>`: the products' yardstick. */
case class ProductDesign(k: Int, mid: Boolean = false) extends ModMulDesign {
  def name: String = s"mul_$k"
  def familyName: String = "mul"
  def title: String = "k x k product (registered in and out)"
  def build(): ModMulComponent = new arith.Product(k, mid)
}

/** Every multiplier name `make rtl DESIGN=...` accepts: the paper's families and the reduction family. */
object Registry {
  def parse(name: String): Either[String, ModMulDesign] = {
    val Fast = """([a-z]+_\d+)_fast""".r
    name match {
      case Fast(base) => Designs.parse(base).flatMap { d =>
        Best.variant(d).toRight(s"'$name': no _fast configuration for ${d.name}; ${Best.help}")
          .flatMap(v => VariantDesign(d, v, alias = Some(name)).check())
      }
      case _ if name.contains("__") =>
        val (b, rest) = name.splitAt(name.indexOf("__"))
        for { base <- parseBase(b); v <- Variant.parse(rest.drop(2)); d <- VariantDesign(base, v).check() } yield d
      case _ => parseBase(name)
    }
  }

  private def parseBase(name: String): Either[String, ModMulDesign] =
    if (name.matches("mul_\\d+")) {
      val k = BigInt(name.drop(4))
      if (k < Designs.minProductK || k > Designs.maxK) Left(s"width k = $k in '$name' is out of range ${Designs.minProductK}..${Designs.maxK}")
      else Right(ProductDesign(k.toInt))
    } else reduction.ReductionConfig.parse(name) match {
      case Some(r) => r.map(ReductionDesign)
      case None => Designs.parse(name).left.map(_ + s"; reduction family: ${reduction.ReductionConfig.grammar}; bare products: mul_<k>; variants: ${Variant.grammar}")
    }
}
