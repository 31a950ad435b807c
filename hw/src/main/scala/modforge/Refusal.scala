package modforge

import modforge.modmul.{Best, Designs, Variant}
import modforge.ntt.{NttDesigns, PolymulDesigns}

/** A refused design name as the user reads it, through every entry point (`make rtl`, `make harden`,
  * `precompute()`, the report generators: they all get the generator's message, docs/registry.md):
  * at most a few lines, saying what was wrong, the family's grammar, the nearest valid names and
  * where to read more. The families' parsers say what was wrong (the first clause of their message,
  * up to a `;` outside parentheses); the rest of their message, the long lists, is left to `make help`.
  */
object Refusal {
  def apply(name: String, message: String): String = {
    val what = firstClause(message)
    s"$what\n  valid designs: ${grammar(name)}\n  nearest valid names: ${nearest(name).mkString(", ")}\n  more: make help; docs/registry.md"
  }

  /** The message up to its first `; ` outside parentheses. */
  def firstClause(m: String): String = {
    var depth = 0
    for (i <- 0 until m.length - 1) {
      m(i) match { case '(' => depth += 1; case ')' => depth -= 1; case _ => }
      if (depth == 0 && m(i) == ';' && m(i + 1) == ' ') return m.take(i)
    }
    m
  }

  /** The grammar of the family the name looks like (the generator's own dispatch), or every family's. */
  def grammar(name: String): String = {
    val g = Generate.grammar.toMap
    if (multipass.MultipassDesigns.isMultipass(name)) multipass.MultipassDesigns.grammarOf(name)
    else if (intfft.IntFftDesigns.isIntFft(name)) g("intfft")
    else if (PolymulDesigns.isPolymul(name)) g("polymul")
    else if (NttDesigns.isNtt(name)) g("ntt")
    else if (name.contains("__")) g("variant")
    else if (name.endsWith("_fast")) s"<barrett|shoup|gshoup>_<k>_fast for k in ${Best.widths.mkString(", ")}"
    else if (reduction.ReductionConfig.parse(name).isDefined) g("reduction")
    else if (name.startsWith("mul_")) g("mul")
    else if (Designs.families.exists(f => name.startsWith(f.name + "_"))) g("modmul")
    else "<barrett|shoup|gshoup>_<k>, mont_<k> and the reduction family, mul_<k>, ntt_<N>_<k>_p<P>_<arr>, " +
      "polymul_<n>_<logq>, intfft_<group>_<kind>, mpoly_<n>_x<n1>, <design>__<tokens>"
  }

  /** The registry's listed names closest to `name` (edit distance), three at most; a multi-pass name's from its
    * family's examples (the others' short names are nearer by edit distance, and no help). */
  def nearest(name: String, n: Int = 3): Seq[String] = {
    val all = if (multipass.MultipassDesigns.isMultipass(name)) multipass.MultipassDesigns.examples else (Designs.table.map(_.name) ++ reduction.ReductionDesigns.table ++ NttDesigns.table ++
      PolymulDesigns.names ++ polymul.StreamDesigns.examples ++ multipass.MultipassDesigns.examples ++ intfft.IntFftDesigns.table ++ Best.names).distinct
    // A name of the same kind first (its prefix up to the first '_'), then by edit distance.
    val kind = name.takeWhile(_ != '_')
    all.map(c => (if (c.takeWhile(_ != '_') == kind) 0 else 1, distance(name, c), c)).sortBy(x => x).take(n).map(_._3)
  }

  def distance(a: String, b: String): Int = {
    val d = Array.tabulate(a.length + 1, b.length + 1)((i, j) => if (i == 0) j else if (j == 0) i else 0)
    for (i <- 1 to a.length; j <- 1 to b.length)
      d(i)(j) = Seq(d(i - 1)(j) + 1, d(i)(j - 1) + 1, d(i - 1)(j - 1) + (if (a(i - 1) == b(j - 1)) 0 else 1)).min
    d(a.length)(b.length)
  }
}
