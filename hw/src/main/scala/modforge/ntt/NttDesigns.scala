package modforge.ntt

import modforge.PreconditionError
import modforge.modmul.Variant

/** NTT tiles in the design registry: `ntt_<N>_<k>_p<P>_<barrett|shoupbarrett|gshoup|mont|wlmm|k2red>[_ram][_sram]`
  * (the last three: the reduction arrangements, [[ReductionArrangement]]; `_sram`: coefficients and RAM
  * twiddles in SKY130 SRAM macros, [[Storage]], docs/sram_tile.md).
  * Without `_ram` the twiddles are a ROM for the default q and psi ([[NttConfig]]); the generator's
  * `--ntt-q` and `--ntt-psi` pick others.
  */
object NttDesigns {
  /** The tiles of reports/ntt_table.md: the paper's three arrangements and the three reduction
    * arrangements side by side with ROM twiddles (q fixed, so the modulus is a constant the synthesis
    * folds into the multipliers) and with RAM twiddles (q on input ports: the multipliers stay
    * general, as in the paper), and one wider tile.
    */
  val table: Seq[String] =
    (for (tw <- Seq("", "_ram"); m <- MulArrangement.all) yield s"ntt_256_64_p2_${m.name}$tw") :+ "ntt_64_128_p1_gshoup"

  /** The table's ROM tiles of the paper's arrangements on the product architecture and synthesis
    * recipe of the `_fast` configuration of their family at k = 64 ([[modforge.modmul.Best]]): the tile
    * variant `<tile>__m<arch>_<synthesis tokens>` (pipeline and truncation stay the tile's own).
    */
  def bestTable: Seq[String] = for {
    (arr, fam) <- Seq("barrett" -> modforge.modmul.Barrett, "shoupbarrett" -> modforge.modmul.ShoupFamily, "gshoup" -> modforge.modmul.GShoupFamily)
    v <- modforge.modmul.Best.variant(modforge.modmul.Design(fam, 64)).toSeq
    toks = v.copy(mask = None, trunc = None).tokens if toks.nonEmpty
  } yield s"ntt_256_64_p2_${arr}__${toks.mkString("_")}"

  def help: String =
    s"valid NTT tiles: ntt_<N>_<k>_p<P>_<arrangement>[_ram][_sram], N a power of two in ${NttConfig.minN}..${NttConfig.maxN}, " +
      s"P in {1, 2, 4} (_sram: N up to ${NttConfig.maxNSram}, P a power of two up to 32, ROM twiddles up to N = ${NttConfig.maxN}; N >= 4P), arrangement in {${MulArrangement.all.map(_.name).mkString(", ")}} (mont: any odd q < 2^k; " +
      s"wlmm, k2red: Proth q = q_h 2^(k-h) + 1 with h = min(17, k/2) and min(26, k/2)); the table tiles are ${table.mkString(" ")}"

  def isNtt(name: String): Boolean = name.startsWith("ntt_")

  /** The one-line grammar (build/designs.json, `make help`). */
  val grammar: String = "ntt_<N>_<k>_p<P>_<barrett|shoupbarrett|gshoup|mont|wlmm|k2red>[_ram][_sram][__<m<arch> and synthesis tokens>]"

  /** A tile or a tile variant `<tile>__<tokens>`: the variant takes the product architecture (m<arch>)
    * and synthesis tokens only (pipeline and truncation stay the tile's own). */
  def parseVariant(n: String, q: Option[BigInt] = None, psi: Option[BigInt] = None): Either[String, (NttConfig, Option[Variant])] = {
    val (b, tokens) = if (n.contains("__")) (n.take(n.indexOf("__")), Some(n.drop(n.indexOf("__") + 2))) else (n, None)
    for {
      v <- tokens.map(t => Variant.parse(t).map(Some(_))).getOrElse(Right(None))
      _ <- if (v.exists(x => x.mask.isDefined || x.trunc.isDefined)) Left(s"$n: an NTT tile variant takes m<arch> and synthesis tokens only") else Right(())
      _ <- v.map(x => modforge.arith.MulArch.parse(x.arch).map(_ => ())).getOrElse(Right(()))
      c <- parse(b, q, psi)
    } yield (c, v)
  }

  def parse(name: String, q: Option[BigInt] = None, psi: Option[BigInt] = None): Either[String, NttConfig] = {
    val Pattern = """ntt_(\d+)_(\d+)_p(\d+)_([a-z0-9]+?)(_ram)?(_sram)?""".r
    name match {
      case Pattern(nStr, kStr, pStr, mulStr, ram, sram) =>
        MulArrangement.all.find(_.name == mulStr) match {
          case None => Left(s"unknown multiplier arrangement '$mulStr' in '$name'; $help")
          case Some(mul) =>
            if (nStr.length > 6 || kStr.length > 6 || pStr.length > 3) Left(s"'$name': a number is out of range; $help")
            else try Right(NttConfig(nStr.toInt, kStr.toInt, pStr.toInt, mul,
              if (ram != null) TwiddleStore.Ram else TwiddleStore.Rom, q, psi,
              if (sram != null) Storage.Sram else Storage.Flops))
            catch { case e: PreconditionError => Left(s"'$name': ${e.getMessage}; $help") }
        }
      case _ => Left(s"unknown NTT tile '$name'; $help")
    }
  }
}
