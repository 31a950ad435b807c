package modforge.polymul

import spinal.core._
import spinal.lib._

import scala.collection.mutable

/** What a loaded constant is, whatever the prime (docs/polymul_multipass.md, "Primes loaded at run time"): the host
  * computes each from its prime q and a primitive 2n-th root of unity psi mod q (n the product's degree), in the
  * manifest's order (`loaded.units`), and the engine loads them before each pass. Each form's JSON is what the
  * manifest lists and what `polymul.multipass_loaded` evaluates. */
sealed trait ConstForm { def json: String }

object ConstForm {
  /** q itself. */
  case object Modulus extends ConstForm { def json = """["q"]""" }
  /** BarrettOpt's constant `part` for a w-bit limb (Algorithm 1, [[modforge.modmul.Precompute.barrett]]): 0 M' = q 2^l, 1 r =
    * floor(4^w / M'), 2 l = w - bitlen(q). */
  case class Barrett(part: Int) extends ConstForm {
    require(part >= 0 && part <= 2)
    def json = s"""["barrett", $part]"""
  }
  /** psi^e s^-1 mod q (s an NTT's size whose inverse rides on it, 1 for none). */
  case class Power(e: Int, s: Int) extends ConstForm { def json = s"""["pow", $e, $s]""" }
  /** A twiddle and its Shoup companion in one word (Algorithm 3, [[TwiddleMul]]): W 2^k + W', W = psi^e s^-1 mod q,
    * W' = floor(W 2^k / q), k = w + 1. */
  case class Pair(e: Int, s: Int) extends ConstForm { def json = s"""["pair", $e, $s]""" }
}

/** What a constant is, as its user asks for it: the prime, a Barrett constant, or a twiddle (a power of the root, with
  * the inverse of an NTT size `s` folded in or not) whose exponent [[LoadedContext]] finds. */
sealed trait ConstKind
object ConstKind {
  case object Modulus extends ConstKind
  case class Barrett(part: Int) extends ConstKind
  case class Twiddle(s: Int = 1) extends ConstKind
}

/** The reference of a design whose primes are loaded at run time: the prime q and root psi (a primitive 2n-th root
  * of unity mod q) it is generated with, and the limb width w. Every twiddle the generator computes for q is a power
  * of psi (the column NTT's root psi^n2, the rows engine's primitive 2 n2-th root and the middle twiddles' psi^+-1
  * all lie in the cyclic group psi generates), so each is written as psi^e s^-1 ([[ConstForm.Power]]) with e found
  * here (a table of the 2n powers). Because every exponent is relative to the one psi, the host may take any primitive
  * 2n-th root of its own prime: the NTTs it makes are those of consistent roots, and the product is the same.
  *
  * @param n   the product's degree (psi's order is 2n)
  * @param q   the reference prime
  * @param psi a primitive 2n-th root of unity mod q
  * @param w   the limb width: q < 2^w, a cell holds 2 (w + 1) bits
  */
case class LoadedContext(n: Int, q: BigInt, psi: BigInt, w: Int) {
  require(psi.modPow(n, q) == q - 1, s"psi = $psi is not a primitive ${2 * n}-th root of unity mod $q")
  val k: Int = w + 1
  /** Bits of a cell: a twiddle and its companion ([[ConstForm.Pair]]); every other constant fits in it. */
  val cellBits: Int = 2 * k
  /** Bytes of an image word: a cell in the low bits of 8 bytes (16 when a cell is wider than 64 bits). */
  val wordBytes: Int = if (cellBits <= 64) 8 else 16

  private lazy val logs: Map[BigInt, Int] = {
    val b = Map.newBuilder[BigInt, Int]
    var x = BigInt(1)
    for (e <- 0 until 2 * n) { b += x -> e; x = x * psi % q }
    b.result()
  }
  /** e with psi^e s^-1 = v mod q. */
  def exponent(v: BigInt, s: Int): Int = logs.getOrElse(v * s % q,
    throw new IllegalStateException(s"the constant $v (times $s) is not a power of psi = $psi mod $q: a loaded design cannot make it from another prime"))

  /** The form of a constant of value `v` for the reference prime. */
  def form(kind: ConstKind, v: BigInt): ConstForm = kind match {
    case ConstKind.Modulus => require(v == q, s"the modulus constant is $v, not q = $q"); ConstForm.Modulus
    case ConstKind.Barrett(p) => ConstForm.Barrett(p)
    case ConstKind.Twiddle(s) => ConstForm.Power(exponent(v, s), s)
  }
}

/** The loaded constants of one component: cells of [[LoadedContext.cellBits]] bits in one shift chain, loaded through
  * `load` (a word a cycle into the first cell, every cell taking its neighbour's) and continued through the
  * component's `loadOut` (the last cell) into the next component's chain.
  *
  * **Why a chain.** The cells' load path is then a wire from one flip-flop to the next: no address decoder, no write
  * data bus with a load on every cell. The cells' clock is gated by `load.valid` ([[modforge.ClockGate]], on the free
  * clock `free`: the datapath's clock is gated by its tick), so they have no enable multiplexer either. The constants
  * are steady while a pass runs: the engine loads them between passes ([[modforge.multipass.ConstLoader]]).
  *
  * **Sharing and copies.** A constant asked for again reads the same cell (the a and b pipelines' tables, q), until
  * it has `uses` readers; then a new cell holds it (a cell read by a multiplier's operand drives about w loads a bit,
  * and this flow's STA buffers no register output, [[modforge.FanoutReg]]).
  *
  * The forms, in chain order, are [[forms]]; the host's image lists them last cell first (the first word shifted in
  * goes furthest).
  */
class ConstChain(val ctx: LoadedContext, free: ClockDomain, load: Flow[Bits]) extends Area {
  private val cellDomain: ClockDomain =
    if (free == null) modforge.ClockGate.domain(load.valid)
    else new ClockingArea(free) { val d = modforge.ClockGate.domain(load.valid) }.d
  cellDomain.setSynchronousWith(ClockDomain.current)
  private val cells = mutable.ArrayBuffer[(Bits, ConstForm)]()
  private val memo = mutable.HashMap[Any, (Bits, Int)]()
  private val tables = mutable.HashMap[Seq[ConstForm], Seq[Bits]]()

  private def newCell(form: ConstForm): Bits = {
    val width = ctx.cellBits
    val r = new ClockingArea(cellDomain) { val r = Reg(Bits(width bits)) }.r
    r.setName(s"loaded_${cells.size}")
    cells += r -> form
    r
  }
  private def shared(key: Any, uses: Int)(make: => Bits): Bits = memo.get(key) match {
    case Some((c, u)) if u < uses => memo(key) = (c, u + 1); c
    case _ => val c = make; memo(key) = (c, 1); c
  }

  /** A constant of `width` bits: `v` for the reference prime, of the given kind. */
  def scalar(kind: ConstKind, v: BigInt, width: Int, uses: Int): UInt = {
    require(width <= ctx.cellBits, s"a $width-bit constant in a ${ctx.cellBits}-bit cell")
    val f = ctx.form(kind, v)
    shared(("scalar", f), uses)(newCell(f))(0, width bits).asUInt
  }

  /** A twiddle and its companion (W, W'), k bits each: W = `v` for the reference prime. */
  def pair(v: BigInt, s: Int, uses: Int): (UInt, UInt) = {
    val c = shared(("pair", ctx.exponent(v, s), s), uses)(newCell(ConstForm.Pair(ctx.exponent(v, s), s)))
    (c(ctx.k, ctx.k bits).asUInt, c(0, ctx.k bits).asUInt)
  }

  /** A table's cells, (W, W') of each entry as [[ConstForm.Pair]] (W in the high k bits): one set however often asked. */
  def table(values: Seq[BigInt], s: Int): Seq[Bits] = {
    val forms = values.map(v => ConstForm.Pair(ctx.exponent(v, s), s))
    tables.getOrElseUpdate(forms, forms.map(newCell))
  }

  /** The cells' forms, first cell first. */
  def forms: Seq[ConstForm] = cells.map(_._2).toSeq

  /** Wires the chain: `load.payload` into the first cell, each cell into the next, the last to `out` (`load.payload`
    * itself when there is no cell). Call once, after every constant is made. */
  def finish(out: Bits): Unit = {
    var prev: Bits = load.payload
    for ((c, _) <- cells) { c := prev; prev = c }
    out := prev
  }
}

object ConstChain {
  /** Readers of one cell of a scalar that feeds adders ([[ModAddSub]]'s q), before a new cell holds it. */
  val addUses = 8
  /** Readers of one cell of a twiddle pair copied into each multiplier's register ([[TwiddleMul.constOf]]). */
  val pairUses = 8
}
