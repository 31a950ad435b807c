package modforge
package modmul

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

/** A design of the paper's three families: `<family>_<k>`. */
case class Design(family: Family, k: Int) extends ModMulDesign {
  def name: String = s"${family.name}_$k"
  def familyName: String = family.name
  def title: String = family.title
  def build(): ModMulComponent = family.build(k)
}

/** The design registry: every name `make rtl DESIGN=...` accepts. */
object Designs {
  val minK = 16
  val maxK = 512
  /** The bare products (`mul_<k>`) go down to 8 bits: `mul_8` is make test's layout design, the smallest whose
    * Classic flow still runs every check; its layout took 186 s beside another layout on 2026-11-30 against
    * mul_16's 419 s alone, over issue 42's 5 minutes (docs/flow.md, "The layout in make test"). */
  val minProductK = 8
  val families: Seq[Family] = Seq(Barrett, ShoupFamily, GShoupFamily)
  /** Widths of the paper's Table 1. */
  val tableWidths: Seq[Int] = Seq(32, 64, 128, 256)
  val table: Seq[Design] = for (f <- families; k <- tableWidths) yield Design(f, k)

  /** The one-line grammar (build/designs.json, `make help`). */
  def grammar: String = s"<${families.map(_.name).mkString("|")}>_<k>, $minK <= k <= $maxK"

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
