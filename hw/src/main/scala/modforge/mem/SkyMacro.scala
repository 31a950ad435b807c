package modforge.mem

/** An OpenRAM SKY130 SRAM macro of the PDK subset ($PDK_ROOT/sky130A/libs.ref/sky130_sram_macros/,
  * /work/shared/pdk/README.md): dual access, port 0 read/write with a byte mask, port 1 read-only,
  * one clock per port, 32-bit words.
  *
  * `areaUm2` is the Liberty `area` attribute of `<name>_TT_1p8V_25C.lib` (verif/tests/test_ntt_sram.py
  * parses the Liberty files and checks these numbers against it).
  */
case class SkyMacro(name: String, depth: Int, areaUm2: Double) {
  val width: Int = SkyMacro.wordBits
  val addrBits: Int = Integer.numberOfTrailingZeros(depth)
  /** Byte-mask bits of port 0 (one per 8 data bits). */
  val maskBits: Int = width / 8
}

object SkyMacro {
  val wordBits = 32
  val sram256 = SkyMacro("sky130_sram_1kbyte_1rw1r_32x256_8", 256, 190712.55)
  val sram512 = SkyMacro("sky130_sram_2kbyte_1rw1r_32x512_8", 512, 284538.474)
  /** The 32-bit macros a bank is built from (the 8x1024 one is left out: a 32-bit slice of it costs four). */
  val all: Seq[SkyMacro] = Seq(sram256, sram512)

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
