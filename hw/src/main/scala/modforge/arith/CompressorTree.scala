package modforge.arith

import spinal.core._
import scala.collection.mutable.ArrayBuffer

/** Full adder cell: SUM = A ^ B ^ CIN, COUT = majority. Module `mf_fa`, pins named as the Liberty
  * cell `sky130_fd_sc_hd__fa_*` (A, B, CIN, COUT, SUM), so a flow can map it 1:1 or flatten it.
  */
class FullAdder extends Component {
  val A, B, CIN = in Bool ()
  val SUM, COUT = out Bool ()
  SUM := A ^ B ^ CIN
  COUT := (A & B) | (A & CIN) | (B & CIN)
  setDefinitionName("mf_fa")
}

/** Half adder cell: SUM = A ^ B, COUT = A & B. Module `mf_ha`, pins as `sky130_fd_sc_hd__ha_*`. */
class HalfAdder extends Component {
  val A, B = in Bool ()
  val SUM, COUT = out Bool ()
  SUM := A ^ B
  COUT := A & B
  setDefinitionName("mf_ha")
}

/** Carry-save reduction of columns of bits (column x has weight 2^x) to at most two bits per column,
  * with [[FullAdder]] and [[HalfAdder]] instances. Arithmetic is modulo 2^n (n = number of columns):
  * a carry out of the top column is dropped, so the caller makes sure that is what it means (the
  * products are < 2^n, or the result is wanted mod 2^n).
  *
  * The instances are created in the current component (the caller's), named by SpinalHDL
  * (fullAdder, fullAdder_1, ...); their definitions are deduplicated to one `mf_fa` / `mf_ha`.
  */
object CompressorTree {

  /** The tree's input bits, read as bits of `tree_in` vectors (see [[Stage]]: a partial-product
    * bit used twice, e.g. a Booth sign, would otherwise be a signal driving adder inputs).
    */
  private def entry(cols: IndexedSeq[Seq[Bool]]): IndexedSeq[Seq[Bool]] = {
    val index = vectors("tree_in", cols.flatten)
    cols.map(_.map(index.get))
  }

  /** Each bit assigned to a bit of a `name` vector (at most 1024 bits each: SpinalHDL refuses
    * signals wider than 4096 bits by default); bit -> that vector bit.
    */
  private def vectors(name: String, bits: Seq[Bool]): java.util.IdentityHashMap[Bool, Bool] = {
    val index = new java.util.IdentityHashMap[Bool, Bool]()
    for (chunk <- bits.grouped(1024)) {
      val v = Bits(chunk.size bits).setWeakName(name)
      for ((o, i) <- chunk.zipWithIndex) { v(i) := o; index.put(o, v(i)) }
    }
    index
  }

  /** One stage of a tree: its adders, and at the end the next stage's columns.
    *
    * The adders' outputs are assigned to `tree_stage` vectors and the next stage reads them as
    * bits of those. Not for looks: SpinalHDL's Verilog emitter checks every sub-component input
    * driven straight by a signal against every statement of the parent (quadratic: hours for the
    * ~65k adders of a 256-bit tree); an input driven by a bit select of a vector is not checked.
    */
  private final class Stage(n: Int) {
    val next: IndexedSeq[ArrayBuffer[Bool]] = IndexedSeq.fill(n)(ArrayBuffer[Bool]())
    private val outs = ArrayBuffer[Bool]()
    /** A full adder on three bits of column x: sum to column x, carry to x + 1 (dropped at the top). */
    def fa(x: Int, a: Bool, b: Bool, c: Bool): Unit = {
      val cell = new FullAdder
      cell.A := a; cell.B := b; cell.CIN := c
      put(x, cell.SUM, cell.COUT)
    }
    def ha(x: Int, a: Bool, b: Bool): Unit = {
      val cell = new HalfAdder
      cell.A := a; cell.B := b
      put(x, cell.SUM, cell.COUT)
    }
    private def put(x: Int, s: Bool, c: Bool): Unit = {
      outs += s; next(x) += s
      if (x + 1 < n) { outs += c; next(x + 1) += c }
    }
    def end(): IndexedSeq[Seq[Bool]] = {
      val index = vectors("tree_stage", outs.toSeq)
      next.map(_.map(b => Option(index.get(b)).getOrElse(b)).toSeq)
    }
  }

  /** Dadda's heights d_1 = 2, d_{j+1} = floor(3 d_j / 2): 2, 3, 4, 6, 9, 13, 19, 28, ... */
  def daddaHeights(upTo: Int): Seq[Int] = Iterator.iterate(2)(d => d * 3 / 2).takeWhile(_ < upTo).toSeq

  def reduce(cols: IndexedSeq[Seq[Bool]], tree: Tree): IndexedSeq[Seq[Bool]] =
    if (!cols.exists(_.size > 2)) cols
    else tree match {
      case Tree.Wallace => wallace(entry(cols))
      case Tree.Dadda   => dadda(entry(cols))
    }

  /** Wallace (greedy): every stage puts full adders on the triples and a half adder on a remaining
    * pair of every column of height >= 3, until every column has at most two bits.
    */
  def wallace(in: IndexedSeq[Seq[Bool]]): IndexedSeq[Seq[Bool]] = {
    var cols = in
    while (cols.exists(_.size > 2)) {
      val st = new Stage(cols.size)
      for ((bits, x) <- cols.zipWithIndex) {
        if (bits.size <= 2) st.next(x) ++= bits
        else {
          val triples = bits.size / 3
          for (t <- 0 until triples) st.fa(x, bits(3 * t), bits(3 * t + 1), bits(3 * t + 2))
          val rest = bits.drop(3 * triples)
          if (rest.size == 2) st.ha(x, rest(0), rest(1)) else st.next(x) ++= rest
        }
      }
      cols = st.end()
    }
    cols
  }

  /** Dadda: stage targets are the Dadda heights below the tallest column, largest first. In a stage
    * with target d, column x (its own h bits plus the carries the stage sends it from column x-1)
    * gets just enough adders to end at d: full adders while it is 2 or more over, a half adder
    * when 1 over. Adders only take the column's own bits, never the stage's incoming carries.
    */
  def dadda(in: IndexedSeq[Seq[Bool]]): IndexedSeq[Seq[Bool]] = {
    var cols = in
    while (cols.exists(_.size > 2)) {
      val d = daddaHeights(cols.map(_.size).max).last
      val st = new Stage(cols.size)
      var carriesIn = 0
      for ((bits, x) <- cols.zipWithIndex) {
        var p = 0 // bits of column x taken so far
        var over = bits.size + carriesIn - d
        var carriesOut = 0
        while (over >= 2 && bits.size - p >= 3) {
          st.fa(x, bits(p), bits(p + 1), bits(p + 2)); p += 3; over -= 2; carriesOut += 1
        }
        if (over == 1 && bits.size - p >= 2) {
          st.ha(x, bits(p), bits(p + 1)); p += 2; over -= 1; carriesOut += 1
        }
        st.next(x) ++= bits.drop(p)
        carriesIn = carriesOut
      }
      cols = st.end()
    }
    cols
  }

  /** Columns plus a constant: the constant's binary digits (mod 2^n) are folded into the columns
    * without any adder, by x + 2^c = ~x 2^c + x 2^(c+1) (x + 1 = 2x + not x) for a bit x of
    * column c: the constant bit becomes the inversion of one bit of the column, that bit moves
    * one column up. Only a column with no bit of its own keeps a constant True.
    */
  def withConstant(in: IndexedSeq[Seq[Bool]], constant: BigInt): IndexedSeq[Seq[Bool]] = {
    val n = in.size
    val k = ((constant % (BigInt(1) << n)) + (BigInt(1) << n)) % (BigInt(1) << n)
    val cols = in.map(c => ArrayBuffer[Bool]() ++= c)
    for (x <- 0 until n if k.testBit(x)) {
      if (cols(x).isEmpty) cols(x) += True
      else {
        val b = cols(x).remove(0) // a bit of the column's own, not one moved up here
        cols(x) += !b
        if (x + 1 < n) cols(x + 1) += b
      }
    }
    cols.map(_.toSeq)
  }
}
