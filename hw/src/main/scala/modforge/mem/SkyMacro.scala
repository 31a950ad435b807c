package modforge.mem

/** An OpenRAM SKY130 SRAM macro of the PDK subset ($PDK_ROOT/sky130A/libs.ref/sky130_sram_macros/,
  * /work/shared/pdk/README.md): dual access, port 0 read/write with a byte mask, port 1 read-only,
  * one clock per port, 32-bit words.
  *
  * The catalogue is pdk_config/sram_macros.json (pdk_config/README.md), which the flow reads too.
  * `areaUm2` is its `area_um2`: the Liberty `area` attribute of `<name>_TT_1p8V_25C.lib`
  * (verif/tests/test_ntt_sram.py parses the Liberty files and checks the catalogue against them).
  */
case class SkyMacro(name: String, depth: Int, areaUm2: Double) {
  val width: Int = SkyMacro.wordBits
  val addrBits: Int = Integer.numberOfTrailingZeros(depth)
  /** Byte-mask bits of port 0 (one per 8 data bits). */
  val maskBits: Int = width / 8
}

object SkyMacro {
  /** pdk_config/sram_macros.json, read from the classpath: build.sc's `hw.resources` puts the
    * repository's pdk_config/ there, so any working directory (Mill, ScalaTest, scripts/scala_tests.py) finds it. */
  private val catalogue: ujson.Value = {
    val path = "/pdk_config/sram_macros.json"
    val in = getClass.getResourceAsStream(path)
    require(in != null, s"$path is not on the classpath (build.sc's hw.resources adds the repository's pdk_config/)")
    try ujson.read(in.readAllBytes()) finally in.close()
  }
  /** Word width of every macro of the catalogue (`word_bits`). */
  val wordBits: Int = catalogue("word_bits").num.toInt
  /** The 32-bit macros a bank is built from, in the catalogue's order (the 8x1024 one is left out
    * of it: a 32-bit slice of it costs four). */
  val all: Seq[SkyMacro] = catalogue("macros").arr.toSeq.map { m =>
    val sky = SkyMacro(m("name").str, m("depth").num.toInt, m("area_um2").num)
    require(sky.depth > 0 && Integer.bitCount(sky.depth) == 1, s"pdk_config/sram_macros.json: ${sky.name}: depth ${sky.depth} is not a power of two")
    sky
  }
  require(all.nonEmpty, "pdk_config/sram_macros.json lists no macro")

  /** The catalogue's macro of a depth. */
  def ofDepth(depth: Int): SkyMacro =
    all.find(_.depth == depth).getOrElse(throw new NoSuchElementException(s"pdk_config/sram_macros.json has no $depth-deep macro"))
  def sram256: SkyMacro = ofDepth(256)
  def sram512: SkyMacro = ofDepth(512)

  /** The macro that makes a `depth`-deep column smallest: ceil(depth / macro depth) copies of it.
    * A 512-deep macro has 1.49 times the area of a 256-deep one, so the 256-deep macro wins only
    * where it needs one macro (depth <= 256: 190,713 um2 against 284,538); from depth 512 on the
    * 512-deep macro wins (two 256-deep macros are 381,425 um2). Ties go to the shallower macro.
    */
  def choose(depth: Int): SkyMacro = all.minBy(m => (ceilDiv(depth, m.depth) * m.areaUm2, m.depth))

  def ceilDiv(a: Int, b: Int): Int = (a + b - 1) / b
}

/** The grid of macros a `width`-bit, `depth`-deep bank is made of: ceil(width/32) columns side by
  * side (the word split in 32-bit slices), times ceil(depth/macro depth) rows (the address's high
  * bits pick the row). Plain Scala: the tile's manifest reports it without elaborating anything.
  */
case class SramGrid(width: Int, depth: Int, sky: SkyMacro) {
  require(width >= 1 && depth >= 1, s"SRAM bank $width x $depth")
  val columns: Int = SkyMacro.ceilDiv(width, SkyMacro.wordBits)
  val rows: Int = SkyMacro.ceilDiv(depth, sky.depth)
  def count: Int = columns * rows
  def areaUm2: Double = count * sky.areaUm2
}

object SramGrid {
  def apply(width: Int, depth: Int): SramGrid = SramGrid(width, depth, SkyMacro.choose(depth))
}
