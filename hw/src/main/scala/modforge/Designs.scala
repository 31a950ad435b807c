package modforge

/** One family of modular multipliers: how to build it at width k and how to drive it. */
sealed abstract class Family(val name: String, val title: String) {
  def build(k: Int): ModMulComponent

  /** Input-port values (every input but clk, reset, in_valid) for a*b mod m.
    * `shoupMode` selects GShoup's Shoup path; other families ignore it.
    */
  def inputs(k: Int, a: BigInt, b: BigInt, m: BigInt, shoupMode: Boolean = false): Map[String, BigInt]
}

object Barrett extends Family("barrett", "BarrettOpt (Algorithm 1)") {
  def build(k: Int) = new BarrettOpt(BarrettOptConfig(k))
  def inputs(k: Int, a: BigInt, b: BigInt, m: BigInt, shoupMode: Boolean) = {
    val (mp, r, l) = Precompute.barrett(k, m)
    Precompute.operands(s"${name}_$k", a, b, m)
    Map("in_a" -> a, "in_b" -> b, "in_m" -> mp, "in_r" -> r, "in_l" -> BigInt(l))
  }
}

object ShoupFamily extends Family("shoup", "Shoup (Algorithms 2-3)") {
  def build(k: Int) = new Shoup(ShoupConfig(k))
  def inputs(k: Int, a: BigInt, b: BigInt, m: BigInt, shoupMode: Boolean) = {
    Precompute.shoupModulus(k, m)
    Precompute.operands(s"${name}_$k", a, b, m)
    Map("in_a" -> a, "in_b" -> b, "in_m" -> m, "in_r" -> Precompute.shoupR(k, b, m))
  }
}

object GShoupFamily extends Family("gshoup", "GShoup (Algorithm 4)") {
  def build(k: Int) = new GShoup(GShoupConfig(k))
  def inputs(k: Int, a: BigInt, b: BigInt, m: BigInt, shoupMode: Boolean) = {
    val (mp, g, l) = Precompute.gshoup(k, m)
    Precompute.operands(s"${name}_$k", a, b, m)
    val r = if (shoupMode) Precompute.shoupR(k, b, mp) else BigInt(0)
    Map("in_a" -> a, "in_b" -> b, "in_m" -> mp, "in_l" -> BigInt(l), "in_g" -> g, "in_r" -> r,
      "in_mode" -> BigInt(if (shoupMode) 1 else 0))
  }
}

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

/** A design of the paper's three families: `<family>_<k>`. */
case class Design(family: Family, k: Int) extends ModMulDesign {
  def name: String = s"${family.name}_$k"
  def familyName: String = family.name
  def title: String = family.title
  def build(): ModMulComponent = family.build(k)
}

/** A design of the reduction family (README, "Reduction family"). */
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
      if (k < Designs.minK || k > Designs.maxK) Left(s"width k = $k in '$name' is out of range ${Designs.minK}..${Designs.maxK}")
      else Right(ProductDesign(k.toInt))
    } else reduction.ReductionConfig.parse(name) match {
      case Some(r) => r.map(ReductionDesign)
      case None => Designs.parse(name).left.map(_ + s"; reduction family: ${reduction.ReductionConfig.grammar}; bare products: mul_<k>; variants: ${Variant.grammar}")
    }
}

/** The design registry: every name `make rtl DESIGN=...` accepts. */
object Designs {
  val minK = 16
  val maxK = 512
  val families: Seq[Family] = Seq(Barrett, ShoupFamily, GShoupFamily)
  /** Widths of the paper's Table 1. */
  val tableWidths: Seq[Int] = Seq(32, 64, 128, 256)
  val table: Seq[Design] = for (f <- families; k <- tableWidths) yield Design(f, k)

  def help: String =
    s"valid designs: <family>_<k> with family in {${families.map(_.name).mkString(", ")}} and " +
      s"$minK <= k <= $maxK; the table designs are ${table.map(_.name).mkString(" ")}"

  def parse(name: String): Either[String, Design] = {
    val Pattern = """([a-z]+)_(\d+)""".r
    name match {
      case Pattern(fam, kStr) =>
        families.find(_.name == fam) match {
          case None => Left(s"unknown design family '$fam' in '$name'; $help")
          case Some(f) =>
            val k = BigInt(kStr)
            if (k < minK || k > maxK) Left(s"width k = $kStr in '$name' is out of range $minK..$maxK; $help")
            else Right(Design(f, k.toInt))
        }
      case _ => Left(s"unknown design '$name'; $help")
    }
  }
}
