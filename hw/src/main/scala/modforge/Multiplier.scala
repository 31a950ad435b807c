package modforge

import modforge.arith.{ExplicitMultiplier, MulArch, MulArchScope}
import spinal.core._
import scala.collection.mutable.ArrayBuffer

/** The one place every integer multiplication of every design comes from.
  *
  * `full` and `low` emit the Verilog `*` operator and leave the architecture to synthesis
  * (the ASIC flow maps it to Booth-encoded multipliers, the FPGA flows to DSP blocks).
  * Changing the architecture for all designs at once (e.g. a hand-built Karatsuba or
  * truncated multiplier) means changing these two functions only. `highTruncated` is the
  * column-truncated array of the quotient estimates, used only by configurations that ask
  * for it (`truncate` > 0, see [[Truncation]]).
  *
  * Each also has an `arch` overload taking a [[modforge.arith.MulArch]] (partial products, tree,
  * prefix adder, Karatsuba levels) and an optional `mid` register after the compressor tree. The
  * default `MulArch()` (Verilog `*`) is exactly the plain function above, so existing designs keep
  * their Verilog; any other architecture is built by [[modforge.arith.ExplicitMultiplier]].
  */
object Multiplier {

  /** Full product: width a.getWidth + b.getWidth. */
  def full(a: UInt, b: UInt): UInt = { val arch = MulArchScope.get; if (arch == MulArch()) a * b else full(a, b, arch) }

  /** a * b by the scope's architecture ([[modforge.arith.MulArchScope]]), `mid` after its tree. */
  def full(a: UInt, b: UInt, mid: Boundary): UInt = full(a, b, MulArchScope.get, mid)
  def low(a: UInt, b: UInt, bits: Int, mid: Boundary): UInt = low(a, b, bits, MulArchScope.get, mid)
  def highTruncated(a: UInt, b: UInt, shift: Int, dropCols: Int, mid: Boundary): UInt =
    if (!mid.enabled) highTruncated(a, b, shift, dropCols) else highTruncated(a, b, shift, dropCols, MulArchScope.get, mid)

  /** The low `bits` bits of the product (a*b mod 2^bits). Only those bits are used, so synthesis
    * removes the logic that feeds the upper half alone.
    */
  def low(a: UInt, b: UInt, bits: Int): UInt = { val arch = MulArchScope.get; if (arch.isYosys) (a * b).resize(bits bits) else low(a, b, bits, arch) }

  /** Column-truncated high part: floor(T / 2^shift), T = sum of a_i b_j 2^(i+j) over the
    * partial products with i + j >= dropCols. Width a.getWidth + b.getWidth - shift.
    *
    * Built explicitly, so that the low columns are never generated: the AND partial products
    * of columns dropCols and up, a carry-save (Wallace) reduction of those columns with full
    * and half adders, and one carry-propagate adder of the two remaining rows. No `*` operator
    * (so no Booth recoding: see docs/modmul.md, "Truncated quotient products", before comparing with `full`).
    * dropCols = 0 builds the same array untruncated, which is exact.
    *
    * Error bound. Let D = ab - T, the value of the dropped partial products. Column s holds at
    * most s + 1 of them, so 0 <= D <= Dmax(c) = sum_{s<c} (s+1) 2^s = (c-1) 2^c + 1
    * ([[Truncation.droppedMax]]). With H = floor(ab / 2^shift) and ab = H 2^shift + rho,
    * 0 <= rho < 2^shift: T = H 2^shift + rho - D >= H 2^shift - D, so
    * H - E(c, shift) <= floor(T / 2^shift) <= H with E(c, s) = ceil(Dmax(c) / 2^s)
    * ([[Truncation.error]]). E = 1 while (c-1) 2^c < 2^s. The designs use the sharper
    * real-valued bound, D < Dmax(c) + 1 merged with their own floors (see [[Truncation]]).
    * T is a multiple of 2^c below 2^(wa+wb), so the array's columns c .. wa+wb-1 hold it
    * exactly: no carry leaves the top column.
    */
  def highTruncated(a: UInt, b: UInt, shift: Int, dropCols: Int): UInt = {
    val arch = MulArchScope.get // an explicit scope architecture builds it with its tree and adder
    if (!arch.isYosys) return ExplicitMultiplier.highTruncated(a, b, shift, dropCols, arch)
    val wa = a.getWidth
    val wb = b.getWidth
    val top = wa + wb
    require(dropCols >= 0 && dropCols <= shift && shift < top, s"highTruncated: need 0 <= dropCols ($dropCols) <= shift ($shift) < ${top}")
    val n = top - dropCols // columns dropCols .. top-1, index col - dropCols
    var cols: IndexedSeq[ArrayBuffer[Bool]] = IndexedSeq.fill(n)(ArrayBuffer[Bool]())
    for (j <- 0 until wb; i <- 0 until wa if i + j >= dropCols) cols(i + j - dropCols) += (a(i) & b(j))
    // Wallace reduction: in every column of height >= 3, full adders on triples and a half adder
    // on a remaining pair; until every column has at most two bits.
    while (cols.exists(_.size > 2)) {
      val next = IndexedSeq.fill(n)(ArrayBuffer[Bool]())
      def carry(x: Int, c: Bool): Unit = if (x + 1 < n) next(x + 1) += c // top carry is always 0 (T < 2^top)
      for (x <- 0 until n) {
        val bits = cols(x)
        if (bits.size <= 2) next(x) ++= bits
        else {
          var p = 0
          while (bits.size - p >= 3) {
            val (u, v, w) = (bits(p), bits(p + 1), bits(p + 2))
            next(x) += u ^ v ^ w
            carry(x, (u & v) | (u & w) | (v & w))
            p += 3
          }
          if (bits.size - p == 2) {
            next(x) += bits(p) ^ bits(p + 1)
            carry(x, bits(p) & bits(p + 1))
          } else if (bits.size - p == 1) next(x) += bits(p)
        }
      }
      cols = next
    }
    def row(r: Int): UInt = {
      val u = UInt(n bits)
      for (x <- 0 until n) u(x) := (if (cols(x).size > r) cols(x)(r) else False)
      u
    }
    val sum = row(0) + row(1) // n bits: T / 2^dropCols < 2^n
    (sum >> (shift - dropCols)).resize(top - shift bits)
  }

  private def yosysMid(what: String, arch: MulArch, mid: Boundary): Unit =
    require(!mid.enabled, s"Multiplier.$what: a mid register needs explicit partial products (arch '${arch.token}' is Verilog *, " +
      "which has no compressor tree to register after); choose e.g. MulArch.parse(\"bdks\") or put a Boundary around the product")

  /** a * b (width wa + wb) by `arch`; `mid` registers the compressor tree's two rows (latency 1).
    * The default architecture is `full(a, b)`; `*` with Karatsuba levels ("yk1") splits into three `*`.
    */
  def full(a: UInt, b: UInt, arch: MulArch, mid: Boundary = Boundary(false)): UInt =
    if (arch.isYosys) {
      yosysMid("full", arch, mid)
      if (arch.karatsuba == 0) a * b else ExplicitMultiplier.full(a, b, arch)
    } else ExplicitMultiplier.full(a, b, arch, mid)

  /** a * b mod 2^bits by `arch` (Karatsuba levels do not apply: the flat array of the low columns). */
  def low(a: UInt, b: UInt, bits: Int, arch: MulArch, mid: Boundary = Boundary(false)): UInt =
    if (arch.isYosys) { yosysMid("low", arch, mid); (a * b).resize(bits bits) }
    else ExplicitMultiplier.low(a, b, bits, arch, mid)

  /** [[highTruncated]] by `arch`'s tree and adder; AND partial products whenever dropCols > 0
    * (see [[modforge.arith.ExplicitMultiplier.highTruncated]]). The default architecture is the
    * function above (its own Wallace array and `+`).
    */
  def highTruncated(a: UInt, b: UInt, shift: Int, dropCols: Int, arch: MulArch, mid: Boundary = Boundary(false)): UInt =
    if (arch.isYosys) { yosysMid("highTruncated", arch, mid); highTruncated(a, b, shift, dropCols) }
    else ExplicitMultiplier.highTruncated(a, b, shift, dropCols, arch, mid)
}
