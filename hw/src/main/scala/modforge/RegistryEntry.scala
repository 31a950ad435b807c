package modforge

import modforge.modmul.{Design, Designs, Variant, VariantDesign}
import modforge.ntt.{NttConfig, NttDesigns, PolymulDesigns}

/** What a design name means, for the tools around the generator (docs/registry.md): the family,
  * the title, the parameters, the design it shares its interface with (`base`), the cocotb bench that
  * drives it (and whether that bench runs at gate level), its precomputation kind and the golden model
  * that checks it. Every manifest carries it as its `registry` member and `Generate --serve` prints
  * it for any name, so Python never takes a name apart: it asks the generator (verif/registry.py).
  *
  * `params` values: Int, Boolean, String, BigInt (written as a string), or a Seq of them.
  */
case class RegistryEntry(design: String, family: String, title: String, params: Seq[(String, Any)],
                         base: String, bench: Option[String], gls: Boolean, precompute: String, model: Option[String]) {
  def json: String = {
    def v(x: Any): String = x match {
      case s: String => RegistryEntry.str(s)
      case b: BigInt => RegistryEntry.str(b.toString)
      case s: Seq[_] => s.map(v).mkString("[", ", ", "]")
      case o: Option[_] => o.map(v).getOrElse("null")
      case other => other.toString
    }
    val p = params.map { case (k, x) => s"${RegistryEntry.str(k)}: ${v(x)}" }.mkString("{", ", ", "}")
    Seq("design" -> v(design), "family" -> v(family), "title" -> v(title), "params" -> p, "base" -> v(base),
      "bench" -> v(bench), "gls" -> v(gls), "precompute" -> v(precompute), "model" -> v(model))
      .map { case (k, x) => s""""$k": $x""" }.mkString("{", ", ", "}")
  }
}

object RegistryEntry {
  def str(s: String): String = s.flatMap {
    case '"' => "\\\""; case '\\' => "\\\\"; case '\n' => "\\n"; case '\t' => "\\t"
    case c if c < ' ' => f"\\u${c.toInt}%04x"; case c => c.toString
  }.mkString("\"", "", "\"")

  /** The entry of any name the generator accepts, or the generator's own error for it. The families
    * are told apart exactly as [[Generate]] tells them apart. */
  def describe(name: String): Either[String, RegistryEntry] = describeRaw(name).left.map(Refusal(name, _))

  /** [[describe]] with the family parser's own message (its first clause says what was wrong). */
  def describeRaw(name: String): Either[String, RegistryEntry] =
    if (multipass.MultipassDesigns.isMultipass(name)) multipass.MultipassDesigns.parse(name).map(multipass.MultipassDesigns.entry(name, _))
    else if (intfft.IntFftDesigns.isIntFft(name)) intfft.IntFftDesigns.parseAny(name).map(intfftEntry(name, _))
    else if (PolymulDesigns.isPolymul(name)) polymul.StreamDesigns.parse(name) match {
      case Some(r) => r.map(polymul.StreamDesigns.entry(name, _))
      case None => PolymulDesigns.parse(name).map(c => tileEntry(name, c, None, polymul = true))
    }
    else if (NttDesigns.isNtt(name)) NttDesigns.parseVariant(name).map { case (c, v) => tileEntry(name, c, v, polymul = false) }
    else Registry.parse(name).map(of)

  /** The entry of a multiplier of the registry (the paper's three, the reduction family, mul_<k>, variants). */
  def of(d: ModMulDesign): RegistryEntry = d match {
    case v: VariantDesign =>
      val b = of(v.base)
      b.copy(design = v.name, params = b.params ++ Seq("variant" -> v.v.tokens, "arch" -> v.v.arch) ++
        v.alias.map(_ => "alias_of" -> s"${v.base.name}__${v.v.tokens.mkString("_")}").toSeq, base = v.base.name)
    case Design(f, k) =>
      RegistryEntry(d.name, f.name, f.title, Seq("k" -> k), d.name, Some("modmul_bench"), gls = true, f.name, Some("modmul.models"))
    case r: ReductionDesign =>
      val c = r.cfg
      val shift = c.method == reduction.Method.MontShift || c.method == reduction.Method.K2RedShift
      val ps = Seq[(String, Any)]("k" -> c.k) ++
        (if (c.method == reduction.Method.Wlm) Seq("w" -> c.w) else Nil) ++
        (if (c.h > 0) Seq("h" -> c.h) else Nil) ++
        (if (c.method == reduction.Method.WlmMixed) Seq("tile" -> Seq(c.tile._1, c.tile._2)) else Nil) ++
        (if (shift) Seq("proth" -> (if (c.proth3l) "3l" else "2l"), "preset" -> c.preset.name) else Nil) ++
        (if (c.method == reduction.Method.K2Red) Seq("lazy" -> c.lazyOut) else Nil)
      RegistryEntry(d.name, d.familyName, d.title, ps, d.name, Some("modmul_bench"), gls = true, "reduction", Some("reduction.models"))
    case p: ProductDesign =>
      RegistryEntry(d.name, "mul", d.title, Seq("k" -> p.k), d.name, Some("product_bench"), gls = true, "none", None)
    case other =>
      RegistryEntry(d.name, d.familyName, d.title, Seq("k" -> d.k), d.name, None, gls = false, "none", None)
  }

  /** An NTT tile, a tile variant or a `polymul_` tile (its `base` is the tile's registry name). */
  def tileEntry(name: String, c: NttConfig, v: Option[Variant], polymul: Boolean): RegistryEntry = {
    val ps = Seq[(String, Any)]("n" -> c.n, "k" -> c.k, "p" -> c.p, "arrangement" -> c.mul.name,
      "twiddles" -> c.twiddles.name, "storage" -> c.storage.name, "q" -> c.q, "psi" -> c.psi) ++
      (if (polymul) Seq("logq" -> c.k) else Nil) ++ v.map(x => Seq("variant" -> x.tokens, "arch" -> x.arch)).getOrElse(Nil)
    RegistryEntry(name, if (polymul) "polymul" else "ntt", if (polymul) s"polynomial multiplier, NTT tile, ${c.mul.title}" else s"NTT tile, ${c.mul.title}",
      ps, c.name, Some("ntt_bench"), gls = true, "ntt_host", Some("ntt.ntt"))
  }

  /** An Integer-FFT design: block multipliers, the butterfly unit, the schoolbook controller, the super-size Barrett. */
  def intfftEntry(name: String, d: Product): RegistryEntry = {
    import intfft._
    val (g, kind, bench, extra) = d match {
      case b: IntFftDesign => (b.g, b.org match {
        case FftOrganisation.Parallel => "parallel"; case _: FftOrganisation.Folded => "folded" },
        Some("intfft_bench"), b.org match { case FftOrganisation.Folded(u) => Seq("units" -> u); case _ => Nil })
      case b: ButterflyDesign => (b.g, "butterfly", None, Nil)
      case s: SchoolbookDesign => (s.g, "schoolbook", Some("intfft_schoolbook_bench"), Nil)
      case b: BarrettDesign => (b.g, "barrett", Some("intfft_barrett_bench"), Nil)
    }
    RegistryEntry(name, "intfft", s"Integer-FFT $kind (Cao et al.), group ${g.name}",
      Seq[(String, Any)]("group" -> g.name, "kind" -> kind, "k" -> g.k) ++ extra, name, bench, gls = false, "intfft", Some("intfft"))
  }
}
