package modforge.ntt

/** Where a tile keeps its coefficients (and RAM twiddles): `Flops` (SpinalHDL `Mem`s read
  * asynchronously, flip-flops after synthesis; the default) or `Sram` (OpenRAM SKY130 macros,
  * [[modforge.mem.SramBank]], read synchronously; name suffix `_sram`). docs/sram_tile.md.
  */
sealed abstract class Storage(val name: String)
object Storage {
  case object Flops extends Storage("flops")
  case object Sram extends Storage("sram")
}
