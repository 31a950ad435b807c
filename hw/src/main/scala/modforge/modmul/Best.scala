package modforge
package modmul

/** The `_fast` configurations: for each paper family and width, the variant the design-space
  * exploration (`make dse`, reports/dse.md) found best in throughput per area 1/(P*A). The table
  * is a decision taken from the report; reports/dse.md checks that each alias is still the best it
  * measured and says so when it is not.
  */
object Best {
  private val table: Map[(String, Int), String] = Map(
    ("barrett", 32) -> "p111111111_t27_mbdhc_drc",
    ("shoup", 32) -> "p111111_t26_mbdbk_drc",
    ("gshoup", 32) -> "p1111111111_t24q25_mbdhc_drc",
    ("barrett", 64) -> "p111111100_t58_mbdhc_drc_fa1",
    ("shoup", 64) -> "p111111_t57_mbdhc_drc",
    ("gshoup", 64) -> "p1111111111_t55q56_mbdks_drc",
    // 128 and 256: the best few of 64 bits carried over (truncation recomputed for k), and at 128 one
    // Karatsuba level on the best (it pays only where there is a full product: BarrettOpt's A'B).
    ("barrett", 128) -> "p111111100_t121_mbdhck1_drc_fa1",
    ("shoup", 128) -> "p111111_t120_mbdhc_drc",
    ("gshoup", 128) -> "p1111111111_t118q119_mbdks_drc",
    ("barrett", 256) -> "p111111100_t248_mbdhc_drc_fa1",
    ("shoup", 256) -> "p111111_t247_mbdhc_drc",
    ("gshoup", 256) -> "p1111111111_t245q246_mbdks_drc"
  )

  def help: String = s"_fast exists for ${table.keys.toSeq.sorted.map { case (f, k) => s"${f}_${k}_fast" }.mkString(", ")}"

  def variant(d: Design): Option[Variant] = table.get((d.family.name, d.k)).map(t => Variant.parse(t).fold(e => sys.error(e), identity))

  /** The widths with a `_fast` configuration. */
  def widths: Seq[Int] = table.keys.map(_._2).toSeq.distinct.sorted

  def names: Seq[String] = table.keys.toSeq.sorted.map { case (f, k) => s"${f}_${k}_fast" }
}
