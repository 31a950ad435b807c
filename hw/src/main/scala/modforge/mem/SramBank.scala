package modforge.mem

import spinal.core._

/** A `width` x `depth` [[SyncRamIo]] memory built of OpenRAM SKY130 macros ([[SramGrid]]): the
  * macro that minimises area for the depth ([[SkyMacro.choose]]), ceil(width/32) columns side by
  * side times ceil(depth/macro depth) rows.
  *
  * Every macro writes through port 0 (web0 = 0, all byte-mask bits set) and reads through port 1,
  * so a bank does one write and one read per cycle. The write address's high bits select the row
  * whose csb0 goes low; the read address's high bits the row whose csb1 goes low, and, registered,
  * which row's dout1 the read data comes from in the next cycle (the macro registers its inputs at
  * the rising edge and drives dout1 after the falling edge, `<macro>.v`). Unselected rows keep
  * their chip selects high: they neither read nor write, and the model's same-address WARNING
  * can only come from a real collision in the selected row.
  *
  * [[SramSimModel]] swaps each black box for [[SkySramModel]] (Verilator).
  */
class SramBank(width: Int, depth: Int, val sky: SkyMacro) extends SyncRam(width, depth) {
  def this(width: Int, depth: Int) = this(width, depth, SkyMacro.choose(depth))
  val grid = SramGrid(width, depth, sky)
  import grid.{columns, rows}
  private val w = SkyMacro.wordBits
  private val lowBits = sky.addrBits
  private val rowBits = log2Up(rows)
  private val model = SramSimModel.get

  /** The row an address falls in (always 0 with one row) and its address inside the macro. */
  private def row(a: UInt): UInt = if (rows == 1) U(0, 1 bits) else (a >> lowBits).resize(rowBits)
  private def low(a: UInt): UInt = a.resize(lowBits)

  val wrRow = row(io.wrAddr)
  val rdRow = row(io.rdAddr)
  val wrWord = io.wrData.resize(columns * w).asBits
  val dataRow = RegNext(rdRow) // the row whose dout1 holds this cycle's read data

  val macros = for (r <- 0 until rows) yield for (c <- 0 until columns) yield {
    val inst: Component = if (model) new SkySramModel(sky) else new SkySram(sky)
    inst.setName(s"macro_r${r}_c$c")
    val pins: SkySramIo = inst match { case b: SkySram => b.io; case m: SkySramModel => m.io }
    pins.clk1 := ClockDomain.current.readClockWire
    if (model) pins.clk0 := ClockDomain.current.readClockWire
    pins.csb0 := !(io.wrEn && wrRow === r)
    pins.web0 := False
    pins.wmask0.setAll()
    pins.addr0 := low(io.wrAddr)
    pins.din0 := wrWord(c * w, w bits)
    pins.csb1 := !(io.rdEn && rdRow === r)
    pins.addr1 := low(io.rdAddr)
    pins
  }
  // Cat of a Seq puts its first element at the LSB: column 0 holds bits 31..0.
  val rowData = Vec(macros.map(cols => Cat(cols.map(_.dout1)).asUInt.resize(width)))
  io.rdData := (if (rows == 1) rowData(0) else rowData(dataRow))
}
