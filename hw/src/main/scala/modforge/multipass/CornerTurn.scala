package modforge.multipass

import modforge.mem.{SyncRam, SyncRamKind}
import spinal.core._

/** The corner-turn buffer of a column pass ([[ColumnsPass]]): `halves` blocks of n1 rows x be columns of w-bit
  * residues, with a row port (R consecutive columns of one row a cycle: the mover's side) and a column port (one
  * beat of an NTT frame a cycle: the NTT's lanes, one column). `rowsIn`: the row port writes and the column port
  * reads (the buffer before the NTT); otherwise the column port writes and the row port reads (after it).
  *
  * **The column port's rows.** Beat t of column c's frame carries position p = j F + t in lane j (F = n1 / L,
  * L the NTT's lanes). Position p is row p of the block (`nttRev` = false), or row rev(p), the log2(n1)-bit
  * reversal (`nttRev` = true): the forward NTT's output is bit-reversed, and the inverse NTT's input must be. So
  * the buffer's addressing, not a reorder stage, undoes or makes the bit reversal.
  *
  * **Banks.** L x R memories ([[modforge.mem.SyncRamIo]] in flip-flops, [[modforge.mem.FlopBank]]: one write and one read a cycle, read data the next
  * cycle; [[modforge.mem.MemBank]]), bank (b, i) holding columns = i mod R of the rows whose bank index is b:
  *  - natural rows: b = row / F (the high bits), so the L lanes of a beat, rows j F + t, hit L banks;
  *  - bit-reversed rows: row rev(j F + t) = rev(t) L + rev(j), so b = row mod L (the low bits) and lane j hits
  *    bank rev(j) (log2 L bits reversed).
  * Either way the R columns of a row segment lie in the R banks of one b, and a beat of the NTT in the L banks of
  * one column i. Within a bank, a word's address is (half, row within the bank, column / R): every access of a
  * cycle uses one address in all banks, and only the write enables differ. Every bank does at most one write and
  * one read a cycle, whatever the two ports do.
  */
class CornerTurn(c: ColumnsConfig, rowsIn: Boolean, nttRev: Boolean) extends Component {
  private val L = c.nttLanes
  private val F = c.frame
  private val R = c.R
  private val logL = log2Up(L)
  private val logF = log2Up(F)
  private val logW = log2Up(c.rowWords)
  private val depth = c.halves * F * c.rowWords

  val io = new Bundle {
    val rowEn = in Bool ()
    val rowHalf = in UInt (1 bits)
    val row = in UInt (log2Up(c.n1) bits)
    val rowWord = in UInt (WrapCounter.bits(c.rowWords) bits)
    val rowData = in Vec (UInt(c.w bits), R)
    /** Read data of the row port, the cycle after `rowEn`. */
    val rowQ = out Vec (UInt(c.w bits), R)
    val colEn = in Bool ()
    val colHalf = in UInt (1 bits)
    val beat = in UInt (WrapCounter.bits(F) bits)
    val col = in UInt (log2Up(c.be) bits)
    val colData = in Vec (UInt(c.w bits), L)
    /** Read data of the column port, the cycle after `colEn`. */
    val colQ = out Vec (UInt(c.w bits), L)
  }

  private def rev(x: Int, b: Int): Int = (0 until b).foldLeft(0)((a, i) => (a << 1) | ((x >> i) & 1))
  /** Bank index and row within the bank of a row-port row. */
  private def rowBank(r: UInt): (UInt, UInt) =
    if (!nttRev) ((r >> logF).resize(WrapCounter.bits(L)), r.resize(logF))
    else (r.resize(WrapCounter.bits(L)), (r >> logL).resize(logF))
  /** Address within a bank: (half, row within the bank, word). */
  private def address(half: UInt, ri: UInt, word: UInt): UInt = {
    val parts = Seq((half, if (c.halves == 2) 1 else 0), (ri, logF), (word, logW)).filter(_._2 > 0)
    if (parts.isEmpty) U(0, 1 bits) else parts.map { case (v, b) => v.resize(b).asBits }.reduce(_ ## _).asUInt
  }

  val banks: Seq[Seq[SyncRam]] = Seq.tabulate(L, R)((b, i) => {
    val m = SyncRamKind.build(SyncRamKind.Flops, c.w, depth)
    m.setName(s"bank_${b}_$i")
    m
  })

  // The row port.
  val (rb, rri) = rowBank(io.row)
  val rowAddr = address(io.rowHalf, rri, io.rowWord).resize(log2Up(depth) max 1)
  // The column port: lane j <-> bank sigma(j), the row within the bank the beat (or its reversal), column i = col mod R.
  val cri = if (logF == 0) U(0, 1 bits) else if (nttRev) io.beat.resize(logF).reversed else io.beat.resize(logF)
  val colI = if (R == 1) U(0, 1 bits) else io.col.resize(log2Up(R))
  val colWord = (io.col >> log2Up(R)).resize(logW max 1)
  val colAddr = address(io.colHalf, cri, colWord).resize(log2Up(depth) max 1)
  private def sigma(j: Int): Int = if (nttRev) rev(j, logL) else j

  for (j <- 0 until L; i <- 0 until R) {
    val m = banks(sigma(j))(i).io
    val rowHit = (if (L == 1) True else rb === sigma(j))
    val colHit = (if (R == 1) True else colI === i)
    if (rowsIn) {
      m.wrEn := io.rowEn && rowHit
      m.wrAddr := rowAddr
      m.wrData := io.rowData(i)
      m.rdEn := io.colEn
      m.rdAddr := colAddr
    } else {
      m.wrEn := io.colEn && colHit
      m.wrAddr := colAddr
      m.wrData := io.colData(j)
      m.rdEn := io.rowEn
      m.rdAddr := rowAddr
    }
  }
  // Read data: the bank index (row port) or the column (column port) of last cycle's access selects.
  val rbLast = RegNext(rb)
  val colILast = RegNext(colI)
  for (i <- 0 until R) io.rowQ(i) := (if (L == 1) banks(0)(i).io.rdData else Vec(banks.map(_(i).io.rdData))(rbLast))
  for (j <- 0 until L) io.colQ(j) := (if (R == 1) banks(sigma(j))(0).io.rdData else Vec(banks(sigma(j)).map(_.io.rdData))(colILast))
}
