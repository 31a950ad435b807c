package modforge.arith

import modforge.Boundary
import spinal.core._
import scala.collection.mutable.ArrayBuffer

/** Multipliers built bit by bit from a [[MulArch]]: partial products ([[PartialProductColumns]]),
  * a carry-save tree ([[CompressorTree]]), optionally the `mid` pipeline register on the tree's two
  * rows, and a prefix adder ([[Adders]]). Reached through [[modforge.Multiplier]]'s `arch`
  * overloads, which keep `*` for the default architecture. All operands unsigned, widths >= 1.
  *
  * `mid`: with `Boundary(true)` the two rows leaving the compressor tree are registered (latency
  * 1): the partial products and the tree in the cycle before, the carry-propagate adder in the
  * cycle after. With Karatsuba, every leaf sub-product's rows (so the half-sum pre-adders are
  * before the register, the leaves' adders and the combinations after it).
  *
  * Netlist: the full and half adders are `mf_fa` / `mf_ha` instances ([[CompressorTree]]), the
  * partial products, Booth selectors and prefix networks plain logic.
  */
object ExplicitMultiplier {

  /** a * b, width wa + wb. `arch.karatsuba` levels of Karatsuba splitting: a = a1 2^h + a0,
    * b = b1 2^h + b0 with h = ceil(max(wa, wb) / 2); z0 = a0 b0, z2 = a1 b1, z1 = (a0 + a1)(b0 + b1)
    * built with the same architecture (one level less), and
    * ab = z2 2^2h + z0 + (z1 - z0 - z2) 2^h, exact for any widths: z0 < 2^2h, so z2 2^2h + z0 is a
    * concatenation; the rest is one carry-save sum mod 2^(wa+wb) (z1 shifted, z0 and z2 shifted and
    * negated as inverted bits plus a constant) and one prefix adder. A level whose split leaves an
    * operand without a high half (wa <= h or wb <= h, very unequal widths) builds flat.
    * With `Yosys` the sub-products are `*` and the combination `+`/`-` (then mid must be off).
    */
  def full(a: UInt, b: UInt, arch: MulArch, mid: Boundary = Boundary(false)): UInt = {
    checkWidths("full", a, b)
    require(!(arch.isYosys && mid.enabled), yosysMid)
    karatsuba(a, b, arch, mid, arch.karatsuba)
  }

  /** a * b mod 2^bits, in `bits` bits, only the columns < bits generated (partial products,
    * tree and adder); And or Booth4 alike (Booth's constants and sign bits are mod 2^bits too).
    * bits >= wa + wb is the full product, zero-extended. No Karatsuba (arch.karatsuba is ignored).
    */
  def low(a: UInt, b: UInt, bits: Int, arch: MulArch, mid: Boundary = Boundary(false)): UInt = {
    checkWidths("low", a, b)
    require(!arch.isYosys, "ExplicitMultiplier.low: arch.pp = Yosys, use Multiplier.low (Verilog *)")
    require(bits >= 1, s"low: bits = $bits must be >= 1")
    val top = a.getWidth + b.getWidth
    if (bits >= top) flat(a, b, arch, mid).resize(bits bits)
    else sumColumns(ppColumns(a, b, bits, arch.pp), arch, mid)
  }

  /** Column-truncated high part: floor(T / 2^shift), T = sum of a_i b_j 2^(i+j) over i + j >= dropCols,
    * width wa + wb - shift: the same definition, and bit for bit the same result, as
    * [[modforge.Multiplier.highTruncated]] (its scaladoc has the error bound), with this
    * architecture's tree and adder.
    *
    * Always AND partial products when dropCols > 0, whatever arch.pp says: the bound
    * 0 <= ab - T <= Dmax(c) ([[modforge.modmul.Truncation]]) that the designs' correction counts rest on
    * holds because the dropped bits are non-negative partial products a_i b_j. Booth rows are
    * signed, and their low columns also carry the two's-complement +1 bits and the sign-extension
    * constants: dropping Booth columns drops a value of either sign and a different size, so the
    * designs' proofs would not apply. dropCols = 0 is the exact product: Booth4 is used if asked.
    * No Karatsuba (arch.karatsuba is ignored).
    */
  def highTruncated(a: UInt, b: UInt, shift: Int, dropCols: Int, arch: MulArch, mid: Boundary = Boundary(false)): UInt = {
    checkWidths("highTruncated", a, b)
    require(!arch.isYosys, "ExplicitMultiplier.highTruncated: arch.pp = Yosys, use Multiplier.highTruncated")
    val top = a.getWidth + b.getWidth
    require(dropCols >= 0 && dropCols <= shift && shift < top, s"highTruncated: need 0 <= dropCols ($dropCols) <= shift ($shift) < $top")
    val sum =
      if (dropCols == 0) flat(a, b, arch, mid)
      else sumColumns(PartialProductColumns.and(a, b, dropCols, top), arch, mid) // T / 2^dropCols < 2^(top - dropCols)
    (sum >> (shift - dropCols)).resize(top - shift bits)
  }

  /** The sum of the columns mod 2^n (n = cols.size): tree, `mid` on the two rows, prefix adder.
    * Columns below the first one holding two bits need no adder; they pass straight through.
    */
  def sumColumns(cols: IndexedSeq[Seq[Bool]], arch: MulArch, mid: Boundary): UInt = {
    val n = cols.size
    require(n >= 1, "sumColumns: no columns")
    val reduced0 = CompressorTree.reduce(cols, arch.tree)
    val reduced = if (!mid.enabled) reduced0 else {
      val bits = reduced0.flatten
      if (bits.isEmpty) reduced0 else {
        val r = mid(Cat(bits)).setWeakName("mul_rows")
        val it = Iterator.from(0)
        reduced0.map(_.map(_ => r(it.next())))
      }
    }
    val lo = reduced.indexWhere(_.size == 2)
    def bit(x: Int, row: Int): Bool = if (reduced(x).size > row) reduced(x)(row) else False
    val straight = (0 until (if (lo < 0) n else lo)).map(bit(_, 0))
    val added =
      if (lo < 0) Nil
      else {
        def row(r: Int) = Cat((lo until n).map(bit(_, r))).asUInt
        val s = Adders.addMod(row(0), row(1), arch.adder)
        (0 until n - lo).map(s(_))
      }
    Cat(straight ++ added).asUInt // Cat of a Seq: the first element is the LSB
  }

  private val yosysMid = "ExplicitMultiplier: mid register with arch.pp = Yosys: Verilog * has no compressor tree to register after"

  private def checkWidths(what: String, a: UInt, b: UInt): Unit =
    require(a.getWidth >= 1 && b.getWidth >= 1, s"$what: operand widths ${a.getWidth} x ${b.getWidth}, need >= 1")

  private def ppColumns(a: UInt, b: UInt, n: Int, pp: PartialProducts): IndexedSeq[Seq[Bool]] = pp match {
    case PartialProducts.And    => PartialProductColumns.and(a, b, 0, n)
    case PartialProducts.Booth4 => PartialProductColumns.booth4(a, b, n)
    case PartialProducts.Yosys  => sys.error("no explicit partial products for Yosys")
  }

  /** One product without Karatsuba: partial products of all wa + wb columns, tree, adder. */
  private def flat(a: UInt, b: UInt, arch: MulArch, mid: Boundary): UInt =
    if (arch.isYosys) a * b
    else sumColumns(ppColumns(a, b, a.getWidth + b.getWidth, arch.pp), arch, mid)

  private def karatsuba(a: UInt, b: UInt, arch: MulArch, mid: Boundary, levels: Int): UInt = {
    val (wa, wb) = (a.getWidth, b.getWidth)
    val w = wa + wb
    val h = ((wa max wb) + 1) / 2
    if (levels == 0 || wa <= h || wb <= h) return flat(a, b, arch, mid)
    val (a0, a1, b0, b1) = (a(h - 1 downto 0), a(wa - 1 downto h), b(h - 1 downto 0), b(wb - 1 downto h))
    def sum(x: UInt, y: UInt): UInt = if (arch.isYosys) x.resize(h bits) +^ y.resize(h bits) else Adders.add(x, y, arch.adder)
    val z0 = karatsuba(a0, b0, arch, mid, levels - 1)          // 2h bits
    val z2 = karatsuba(a1, b1, arch, mid, levels - 1)          // w - 2h bits
    val z1 = karatsuba(sum(a0, a1), sum(b0, b1), arch, mid, levels - 1) // 2h + 2 bits
    val hiLo = (z2 ## z0).asUInt                               // z2 2^2h + z0, w bits
    if (arch.isYosys) {
      val m = z1 - z0.resize(z1.getWidth bits) - z2.resize(z1.getWidth bits) // a1 b0 + a0 b1 >= 0
      return (hiLo + (m.resize(w bits) << h).resize(w bits)).resize(w bits)
    }
    val cols = IndexedSeq.fill(w)(ArrayBuffer[Bool]())
    var constant = BigInt(0)
    def add(v: UInt, s: Int): Unit = for (k <- 0 until v.getWidth if s + k < w) cols(s + k) += v(k)
    // -(v 2^s) = sum_k (not v_k) 2^(s+k) - (2^wv - 1) 2^s, mod 2^w.
    def sub(v: UInt, s: Int): Unit = {
      for (k <- 0 until v.getWidth if s + k < w) cols(s + k) += !v(k)
      constant -= ((BigInt(1) << v.getWidth) - 1) << s
    }
    add(hiLo, 0); add(z1, h); sub(z0, h); sub(z2, h)
    sumColumns(CompressorTree.withConstant(cols.map(_.toSeq), constant), arch, Boundary(false))
  }
}
