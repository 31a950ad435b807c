package modforge.ntt

import modforge.PreconditionError

/** Polynomial multipliers at FHE sizes: `polymul_<n>_<logq>[_p<P>]`, one per parameter set of the
  * SSA polynomial-multiplier paper's Table I (Millar et al., ../shared/papers/ssa-hls-polymul-millar.txt;
  * docs/polymul.md).
  *
  * Each is the SRAM-backed NTT tile with RAM twiddles on BarrettOpt units,
  * `ntt_<n>_<logq>_p<P>_barrett_ram_sram`: coefficients and twiddles in OpenRAM macros (a ROM of
  * 2N constant words would be the biggest part of the tile from N = 1024 on, and is refused above
  * N = 4096), q on input ports, and BarrettOpt because its tile has the best area-time product of
  * the paper's three arrangements with RAM twiddles (reports/ntt_table.md) and takes any q < 2^k, so
  * k = log q. P = 2 by default: the paper runs two butterflies per cycle.
  *
  * q is the largest prime q = 1 (mod 2n) below 2^logq ([[NttConfig.primeBelow]]) and psi the first
  * primitive 2n-th root of unity g^((q-1)/2n), g = 2, 3, ... ([[NttConfig.findPsi]]); the manifest
  * records both (the RAM tile takes any q < 2^k at run time; these are the ones the tests and reports
  * use). verif/tests/test_polymul.py checks the list against the paper's Table I and q, psi against
  * an independent Python search (verif/ntt/millar_tables.py).
  */
object PolymulDesigns {
  /** Table I of the paper: (n, log q), in its order. */
  val paperSets: Seq[(Int, Int)] = Seq(
    1024 -> 19, 1024 -> 22, 1024 -> 31, 2048 -> 33, 2048 -> 42, 2048 -> 58,
    4096 -> 62, 4096 -> 80, 4096 -> 113, 8192 -> 123, 8192 -> 157, 8192 -> 223,
    16384 -> 243, 16384 -> 310, 16384 -> 443, 32768 -> 481, 32768 -> 616, 32768 -> 886)

  val defaultP = 2

  def name(n: Int, logq: Int): String = s"polymul_${n}_$logq"

  /** Why a set is not built (None: it is). */
  def notBuilt(n: Int, logq: Int): Option[String] =
    if (logq > modforge.modmul.Designs.maxK) Some(s"log q = $logq exceeds the generators' largest coefficient width " +
      s"k = ${modforge.modmul.Designs.maxK} (a k-bit multiplier per butterfly; a wider q would be split into RNS limbs, " +
      "which the paper does not do either: its largest sets use one wide q)")
    else None

  /** The names of the sets that are built, at the default P. */
  def names: Seq[String] = paperSets.collect { case (n, l) if notBuilt(n, l).isEmpty => name(n, l) }

  def isPolymul(design: String): Boolean = design.startsWith("polymul_")

  /** The one-line grammar (build/designs.json, `make help`). */
  val grammar: String = "polymul_<n>_<logq>[_p<P>], (n, logq) a set of the SSA paper's Table I"

  def help: String = s"polymul designs: polymul_<n>_<logq>[_p<P>] for the paper's Table I sets " +
    s"(${paperSets.filter { case (n, l) => notBuilt(n, l).isEmpty }.map { case (n, l) => s"$n/$l" }.mkString(", ")}; " +
    s"not built: ${paperSets.filter { case (n, l) => notBuilt(n, l).nonEmpty }.map { case (n, l) => s"$n/$l" }.mkString(", ")}, " +
    s"log q above k = ${modforge.modmul.Designs.maxK}), P a power of two from 1 to 32 (default $defaultP)"

  /** The tile of a `polymul_` name (its own name stays the design's: the generator writes it under
    * that name, with `base` = the tile's registry name in the manifest). */
  def parse(design: String): Either[String, NttConfig] = {
    val Pattern = """polymul_(\d+)_(\d+)(?:_p(\d+))?""".r
    design match {
      case Pattern(nStr, lStr, pStr) if nStr.length <= 6 && lStr.length <= 4 && (pStr == null || pStr.length <= 3) =>
        val (n, logq) = (nStr.toInt, lStr.toInt)
        val p = Option(pStr).map(_.toInt).getOrElse(defaultP)
        if (!paperSets.contains(n -> logq)) Left(s"'$design': ($n, $logq) is not a parameter set of the paper's Table I; $help")
        else notBuilt(n, logq) match {
          case Some(why) => Left(s"'$design' is not built: $why")
          case None =>
            try {
              val q = NttConfig.primeBelow(n, logq)
              Right(NttConfig(n, logq, p, MulArrangement.Barrett, TwiddleStore.Ram, Some(q), None, Storage.Sram))
            } catch { case e: PreconditionError => Left(s"'$design': ${e.getMessage}; $help") }
        }
      case _ => Left(s"unknown polymul design '$design'; $help")
    }
  }
}
