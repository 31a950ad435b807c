package modforge.multipass

import modforge.RegistryEntry

/** The multi-pass family in the registry (docs/registry.md, docs/polymul_multipass.md): the engine (`mpoly_`), its
  * passes (`cols_`, `rows_`, `icols_`) and the burst mover (`mover_`), each defined by its own `*Designs` object
  * over [[MultipassNames]]. `Generate`, `RegistryEntry.describe` and `Refusal` ask this object, so a multi-pass
  * name works with `make rtl`, `make harden` and the registry like any other. */
object MultipassDesigns {
  val prefixes: Seq[String] = Seq("mpoly_", "cols_", "icols_", "rows_", "mover_")
  def isMultipass(name: String): Boolean = prefixes.exists(name.startsWith)

  val grammar: String = Seq(MultipassEngineDesigns.grammar, MultipassLimbsDesigns.grammar, ColumnsDesigns.grammar, RowsDesigns.grammar, MoverDesigns.grammar).mkString("; ")

  /** The grammar of the kind `name` starts as (a refusal's "valid designs" line). */
  def grammarOf(name: String): String =
    if (MultipassLimbsDesigns.isLimbs(name)) MultipassLimbsDesigns.grammar
    else if (name.startsWith("mpoly_")) MultipassEngineDesigns.grammar
    else if (name.startsWith("cols_") || name.startsWith("icols_")) ColumnsDesigns.grammar
    else if (name.startsWith("rows_")) RowsDesigns.grammar
    else MoverDesigns.grammar

  /** Names for the nearest-name list of a refusal (the benches' designs, docs/polymul_multipass.md). */
  val examples: Seq[String] = Seq("mpoly_1024_x64_b128_l2_s32_p2_q8380417_mpaper", "cols_1024_x32_b64_l4_s32_p1_mpaper",
    "icols_1024_x32_b64_l4_s32_p1_mpaper", "rows_1024_x64_b128_l2_s32_p2_o4_q8380417_mpaper", "mover_1024_x32_b64_l2_s32_o4_k2")

  /** A parsed name: one of the four configurations. `primes`: the user's limb primes (`--primes`, PRIMES=), for a
    * multi-limb engine's `_q<hash>` name only; any other multi-pass name given primes is refused. */
  def parse(name: String, primes: Seq[BigInt] = Nil): Either[String, Product] =
    if (MultipassLimbsDesigns.isLimbs(name)) MultipassLimbsDesigns.parse(name, primes)
    else if (primes.nonEmpty) Left(s"'$name': PRIMES=${primes.mkString(",")} gives the limb primes of a multi-limb engine " +
      s"(mpoly_<n>_x<n1>_k<limbs>..._q<hash>), and $name has no _k: " +
      (if (name.startsWith("mpoly_")) "the one-limb engine takes its prime in its name (_q<prime>), " else "") + "leave PRIMES unset" +
      s"; ${grammarOf(name)}")
    else if (name.startsWith("mpoly_")) MultipassEngineDesigns.parse(name)
    else if (name.startsWith("cols_") || name.startsWith("icols_")) ColumnsDesigns.parse(name)
    else if (name.startsWith("rows_")) RowsDesigns.parse(name)
    else if (name.startsWith("mover_")) MoverDesigns.parse(name)
    else Left(s"'$name' is not a multi-pass name; $grammar")

  def generate(out: String, name: String, c: Product): Unit = c match {
    case e: MultipassEngineConfig => MultipassEngineDesigns.generate(out, name, e)
    case l: MultipassLimbsConfig => MultipassLimbsDesigns.generate(out, name, l)
    case k: ColumnsConfig => ColumnsDesigns.generate(out, name, k)
    case r: RowsConfig => RowsDesigns.generate(out, name, r)
    case m: MoverConfig => MoverDesigns.generate(out, name, m)
  }

  private def port(m: MoverConfig): Seq[(String, Any)] = Seq("n" -> m.n, "n1" -> m.n1, "n2" -> m.n2, "bus_bits" -> m.busBits,
    "burst_beats" -> m.burstBeats, "slot_bits" -> m.slotBits, "outstanding" -> m.outstanding)

  /** The registry entry: the kind, the port and layout parameters, the prime and multipliers where there are some;
    * the bench that drives it (no gate-level bench yet), the model `polymul.multipass`. */
  def entry(name: String, c: Product): RegistryEntry = {
    val (kind, title, bench, ps) = c match {
      case l: MultipassLimbsConfig => (if (l.batch) "batch_limbs" else "limbs", s"multi-pass negacyclic polynomial multiplier, ${l.limbs} limbs " +
        (if (l.rounds > 1) s"in ${l.engineCount} engines of ${l.rounds} in sequence, " else "side by side, ") +
        (if (l.batch) "a batch with the passes overlapped, " else "") + "AXI4 master", if (l.batch) "multipass_batch_bench" else "multipass_engine_bench", port(l.mover) ++ Seq("limbs" -> l.limbs) ++
          (if (l.rounds > 1) Seq("rounds" -> l.rounds, "engines" -> l.engineCount) else Nil) ++ Seq("axi_ports" -> l.ports, "lanes" -> l.P, "limb_bits" -> l.w,
          "primes" -> l.limbPrimes) ++ (if (l.givenPrimes) Seq("prime_class" -> "given") else Nil) ++
          Seq("psi" -> l.limbPsis, "mul" -> l.mul.name, "halves" -> l.halves))
      case e: MultipassEngineConfig => (if (e.batch) "batch" else "engine", "multi-pass negacyclic polynomial multiplier, " +
        (if (e.loaded) "any limbs, their primes loaded at run time, " else "one limb, ") +
        (if (e.batch) "a batch with the passes overlapped, " else "") + "AXI4 master" + (if (e.lite) ", AXI4-Lite configuration" else ""),
        if (e.batch) "multipass_batch_bench" else "multipass_engine_bench", port(e.mover) ++ Seq("lanes" -> e.P, "limb_bits" -> e.w) ++
          (if (e.loaded) Seq("prime_class" -> "loaded at run time", "reference_prime" -> e.q) else Seq("prime" -> e.q, "psi" -> e.columns.psi)) ++
          Seq("mul" -> e.mul.name, "halves" -> e.halves) ++ (if (e.lite) Seq("config" -> "AXI4-Lite") else Nil))
      case k: ColumnsConfig => (if (k.inverse) "columns_inverse" else "columns",
        s"multi-pass ${if (k.inverse) "columns_inverse" else "columns"} pass, AXI4 master", "multipass_columns_bench",
        port(k.mover) ++ Seq("lanes" -> k.P, "limb_bits" -> k.w, "prime" -> k.q, "psi" -> k.psi, "mul" -> k.mul.name, "halves" -> k.halves))
      case r: RowsConfig => ("rows", "multi-pass rows pass, AXI4 master", "multipass_rows_bench",
        port(r.mover) ++ Seq("lanes" -> r.P, "limb_bits" -> r.w, "prime" -> r.q, "mul" -> r.mul.name))
      case m: MoverConfig => ("mover", "multi-pass AXI4 burst mover", "multipass_mover_bench",
        port(m) ++ Seq("lanes" -> m.wordLanes, "operands" -> m.operands))
    }
    // Gate level (make gls, verif/tests/test_gls.py): the one-limb engine's bench, run on a synthesized n = 1024
    // engine (docs/polymul_multipass.md, "Gate level"); the other kinds' benches have not been run on a netlist.
    val gls = c match { case e: MultipassEngineConfig => !e.batch; case _ => false }
    RegistryEntry(name, "multipass", title, Seq[(String, Any)]("kind" -> kind) ++ ps, name, Some(bench), gls = gls,
      "none", Some("polymul.multipass"))
  }
}
