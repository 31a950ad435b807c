package modforge.arith

/** How the partial products of a multiplier are formed. */
sealed abstract class PartialProducts(val token: String, val describe: String)
object PartialProducts {
  /** The Verilog `*` operator: the architecture is left to synthesis (the default). */
  case object Yosys extends PartialProducts("y", "Verilog * (synthesis chooses)")
  /** AND array: a_i b_j in column i + j. */
  case object And extends PartialProducts("a", "AND array")
  /** Radix-4 (modified) Booth recoding of the narrower operand. */
  case object Booth4 extends PartialProducts("b", "radix-4 Booth")
  val all: Seq[PartialProducts] = Seq(Yosys, And, Booth4)
}

/** How the columns of partial-product bits are reduced to two rows ([[CompressorTree]]). */
sealed abstract class Tree(val token: String, val describe: String)
object Tree {
  case object Wallace extends Tree("w", "Wallace (greedy)")
  case object Dadda extends Tree("d", "Dadda")
  val all: Seq[Tree] = Seq(Wallace, Dadda)
}

/** The carry-propagate adder of the two rows ([[Adders]]). */
sealed abstract class PrefixAdder(val token: String, val describe: String)
object PrefixAdder {
  case object Ripple extends PrefixAdder("rc", "ripple carry")
  case object BrentKung extends PrefixAdder("bk", "Brent-Kung")
  case object KoggeStone extends PrefixAdder("ks", "Kogge-Stone")
  case object Sklansky extends PrefixAdder("sk", "Sklansky")
  case object HanCarlson extends PrefixAdder("hc", "Han-Carlson")
  val all: Seq[PrefixAdder] = Seq(Ripple, BrentKung, KoggeStone, Sklansky, HanCarlson)
}

/** A multiplier architecture: a configuration only; the builds are [[ExplicitMultiplier]], reached
  * through the `arch` overloads of [[modforge.Multiplier]].
  *
  *  - `pp`: partial products. `Yosys` (the default) emits `a * b` and leaves everything to synthesis:
  *    byte-identical Verilog to the plain `Multiplier.full/low/highTruncated`. With `Yosys`, `tree`
  *    and `adder` must keep their defaults (they mean nothing there), so every configuration has one
  *    token.
  *  - `tree`: the carry-save reduction of the columns to two rows.
  *  - `adder`: the parallel-prefix adder of those two rows.
  *  - `karatsuba`: levels of Karatsuba splitting (0 to [[MulArch.maxKaratsuba]]), used by full
  *    products only: three sub-products built with the same architecture (with `Yosys`, three `*`
  *    operators). `low` and `highTruncated` build their flat array whatever it says.
  *
  * Token grammar (the architecture's part of a design name; lowercase alphanumeric, no `_`, so it
  * is one field of a `_`-separated name and fits in a Verilog identifier):
  * {{{
  *   token     ::= ""                     the default, MulArch(): Verilog `*`
  *               | "y" karatsuba          Karatsuba over `*` sub-products
  *               | pp tree adder [karatsuba]
  *   pp        ::= "a" (And) | "b" (Booth4)
  *   tree      ::= "w" (Wallace) | "d" (Dadda)
  *   adder     ::= "rc" (Ripple) | "bk" (BrentKung) | "ks" (KoggeStone) | "sk" (Sklansky) | "hc" (HanCarlson)
  *   karatsuba ::= "k" level              level in 1..3
  * }}}
  * Examples: "bdks" = Booth4 + Dadda + KoggeStone, "awbk" = And + Wallace + BrentKung,
  * "bdksk1" = "bdks" with one Karatsuba level, "adrck2", "yk1" = one Karatsuba level over `*`.
  * `MulArch.parse(a.token) == Right(a)` for every architecture, and every token is canonical
  * (the parse of a string s succeeds only if its architecture's token is s).
  */
case class MulArch(pp: PartialProducts = PartialProducts.Yosys, tree: Tree = Tree.Dadda,
                   adder: PrefixAdder = PrefixAdder.KoggeStone, karatsuba: Int = 0) {
  require(karatsuba >= 0 && karatsuba <= MulArch.maxKaratsuba,
    s"MulArch: karatsuba = $karatsuba levels, must be in 0..${MulArch.maxKaratsuba}")
  require(pp != PartialProducts.Yosys || (tree == MulArch.default.tree && adder == MulArch.default.adder),
    s"MulArch: with pp = Yosys (Verilog *) tree and adder are synthesis' choice; leave them at their defaults (got $tree, $adder)")

  def isYosys: Boolean = pp == PartialProducts.Yosys

  /** The canonical name of this architecture ([[MulArch]]'s grammar); "" for the default. */
  def token: String = {
    val k = if (karatsuba > 0) s"k$karatsuba" else ""
    if (isYosys) (if (karatsuba > 0) "y" + k else "") else pp.token + tree.token + adder.token + k
  }

  def describe: String =
    if (isYosys) s"Verilog *${if (karatsuba > 0) s", $karatsuba Karatsuba level(s)" else ""}"
    else s"${pp.describe}, ${tree.describe} tree, ${adder.describe} adder${if (karatsuba > 0) s", $karatsuba Karatsuba level(s)" else ""}"
}

object MulArch {
  val maxKaratsuba = 3
  /** Field defaults written once (MulArch's constructor checks against them). */
  private object default { val tree: Tree = Tree.Dadda; val adder: PrefixAdder = PrefixAdder.KoggeStone }

  val grammar: String =
    "token ::= \"\" | \"y\" karatsuba | pp tree adder [karatsuba]; pp ::= a | b (And, Booth4); " +
      "tree ::= w | d (Wallace, Dadda); adder ::= rc | bk | ks | sk | hc (Ripple, BrentKung, KoggeStone, Sklansky, HanCarlson); " +
      s"karatsuba ::= k1 .. k$maxKaratsuba; e.g. bdks, awbk, bdksk1, yk1, \"\" = Verilog *"

  /** Every architecture with explicit partial products and no Karatsuba (2 x 2 x 5 = 20). */
  val explicitFlat: Seq[MulArch] = for {
    pp <- Seq(PartialProducts.And, PartialProducts.Booth4); t <- Tree.all; ad <- PrefixAdder.all
  } yield MulArch(pp, t, ad)

  def parse(token: String): Either[String, MulArch] = {
    def err(why: String) = Left(s"bad multiplier architecture '$token': $why; grammar: $grammar")
    val Kara = "(.*?)(?:k([0-9]+))?".r
    token match {
      case "" => Right(MulArch())
      case Kara(body, lv) =>
        val levels = Option(lv).map(_.toInt)
        if (levels.exists(l => l < 1 || l > maxKaratsuba) || lv != null && lv.startsWith("0"))
          err(s"Karatsuba level k$lv not in k1..k$maxKaratsuba")
        else if (body == "y")
          levels.map(l => Right(MulArch(karatsuba = l))).getOrElse(err("\"y\" alone is not a token: the default (Verilog *) is the empty token"))
        else if (body.length != 4) err(s"'$body' is not pp tree adder (4 letters)")
        else {
          val pp = Seq(PartialProducts.And, PartialProducts.Booth4).find(_.token == body.take(1))
          val tree = Tree.all.find(_.token == body.slice(1, 2))
          val adder = PrefixAdder.all.find(_.token == body.drop(2))
          (pp, tree, adder) match {
            case (Some(p), Some(t), Some(a)) => Right(MulArch(p, t, a, levels.getOrElse(0)))
            case (None, _, _) => err(s"partial products '${body.take(1)}' not a or b")
            case (_, None, _) => err(s"tree '${body.slice(1, 2)}' not w or d")
            case _ => err(s"adder '${body.drop(2)}' not rc, bk, ks, sk or hc")
          }
        }
    }
  }
}
