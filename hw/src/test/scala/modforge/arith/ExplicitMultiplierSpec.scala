package modforge.arith

import modforge.{Boundary, ModMulSim, ModforgeSpinal, Multiplier, TestTier}
import org.scalatest.funsuite.AnyFunSuite
import spinal.core._
import spinal.core.sim._

import java.io.File
import scala.io.Source
import scala.util.Random

/** One product of a test component, and its plain-Scala model. */
sealed trait Op {
  def width(wa: Int, wb: Int): Int
  def model(a: BigInt, b: BigInt, wa: Int, wb: Int): BigInt
  def build(a: UInt, b: UInt): UInt
}
object Op {
  /** floor(T / 2^shift), T = sum of a_i b_j 2^(i+j) over i + j >= c, from the bits. */
  def truncatedHigh(a: BigInt, b: BigInt, wa: Int, wb: Int, shift: Int, c: Int): BigInt = {
    var t = BigInt(0)
    for (i <- 0 until wa if a.testBit(i); j <- 0 until wb if b.testBit(j) && i + j >= c) t += BigInt(1) << (i + j)
    t >> shift
  }
}
case class Full(arch: MulArch, mid: Boolean = false) extends Op {
  def width(wa: Int, wb: Int) = wa + wb
  def model(a: BigInt, b: BigInt, wa: Int, wb: Int) = a * b
  def build(a: UInt, b: UInt) = Multiplier.full(a, b, arch, Boundary(mid))
}
case class Low(bits: Int, arch: MulArch, mid: Boolean = false) extends Op {
  def width(wa: Int, wb: Int) = bits
  def model(a: BigInt, b: BigInt, wa: Int, wb: Int) = a * b % (BigInt(1) << bits)
  def build(a: UInt, b: UInt) = Multiplier.low(a, b, bits, arch, Boundary(mid))
}
case class High(shift: Int, drop: Int, arch: MulArch, mid: Boolean = false) extends Op {
  def width(wa: Int, wb: Int) = wa + wb - shift
  def model(a: BigInt, b: BigInt, wa: Int, wb: Int) = Op.truncatedHigh(a, b, wa, wb, shift, drop)
  def build(a: UInt, b: UInt) = Multiplier.highTruncated(a, b, shift, drop, arch, Boundary(mid))
}
/** The existing (pre-arch) column-truncated build, for the bit-exact comparison. */
case class OldHigh(shift: Int, drop: Int) extends Op {
  def width(wa: Int, wb: Int) = wa + wb - shift
  def model(a: BigInt, b: BigInt, wa: Int, wb: Int) = Op.truncatedHigh(a, b, wa, wb, shift, drop)
  def build(a: UInt, b: UInt) = Multiplier.highTruncated(a, b, shift, drop)
}

/** Groups of products: group g has inputs a<g> (wa bits), b<g> (wb bits) and one output per op. */
case class Group(wa: Int, wb: Int, ops: Seq[Op])

class ProductsDut(val groups: Seq[Group]) extends Component {
  val as = groups.zipWithIndex.map { case (g, i) => in(UInt(g.wa bits)).setName(s"a$i") }
  val bs = groups.zipWithIndex.map { case (g, i) => in(UInt(g.wb bits)).setName(s"b$i") }
  val outs = groups.zipWithIndex.map { case (g, i) =>
    g.ops.zipWithIndex.map { case (op, k) =>
      val o = out(UInt(op.width(g.wa, g.wb) bits)).setName(s"o${i}_$k")
      o := op.build(as(i), bs(i))
      o
    }
  }
}

/** The explicit multiplier architectures (Verilator): every partial-product x tree x adder
  * combination against BigInt a*b, a*b mod 2^bits and the truncated-high definition, Karatsuba,
  * the mid register's latency; plus plain-Scala checks of the tokens and the prefix networks, and
  * of the generated Verilog's mf_fa / mf_ha modules.
  */
class ExplicitMultiplierSpec extends AnyFunSuite {
  val rnd = new Random(11)
  val randomOps = sys.env.get("MODFORGE_SIM_OPS").map(_.toInt).getOrElse(1000)

  def edges(w: Int): Seq[BigInt] = {
    val max = (BigInt(1) << w) - 1
    (Seq(BigInt(0), BigInt(1), max, max - 1) ++ (0 until w).flatMap(k => Seq(BigInt(1) << k, max ^ (BigInt(1) << k)))).distinct.filter(_ >= 0)
  }
  /** All pairs when small, else edge x edge pairs and random ones. */
  def vectors(wa: Int, wb: Int): IndexedSeq[(BigInt, BigInt)] =
    if (wa + wb <= 12) for (a <- 0 until 1 << wa; b <- 0 until 1 << wb) yield (BigInt(a), BigInt(b))
    else (for (a <- edges(wa); b <- edges(wb)) yield (a, b)).toIndexedSeq ++
      IndexedSeq.fill(randomOps)((BigInt(wa, rnd), BigInt(wb, rnd)))

  def compile(name: String, groups: Seq[Group]): SimCompiled[ProductsDut] =
    SimConfig
      .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
      .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
      .workspaceName(name)
      // One C++ file: with SpinalSim's default (--output-split 5000) g++ re-parses the model's header
      // (a member per signal) in every one of ~100 files: 3 to 4 times slower here.
      .addSimulatorFlag("--output-split 0")
      .compile { val c = new ProductsDut(groups); c.setDefinitionName(name); c }

  def describe(g: Group, op: Op): String = s"${g.wa}x${g.wb} $op"

  val archs = MulArch.explicitFlat
  def arch(t: String): MulArch = MulArch.parse(t).fold(e => sys.error(e), identity)

  val pairs = for (pp <- Seq(PartialProducts.And, PartialProducts.Booth4); t <- Tree.all) yield (pp, t)
  /** Five architectures in which every adder appears once and every pp x tree pair at least
    * once; `rot` shifts the pairing, so two sizes see different combinations.
    */
  def cover(rot: Int): Seq[MulArch] =
    PrefixAdder.all.zipWithIndex.map { case (ad, i) => val (pp, t) = pairs((i + rot) % 4); MulArch(pp, t, ad) }

  /** Full products by `as`; low, truncated high (dropped columns: AND partial products) and, with
    * Booth, untruncated high by those of `as` that `partial` selects; the default (`*`) and the
    * existing truncated build alongside.
    */
  def products(wa: Int, wb: Int, as: Seq[MulArch], partial: Int => Boolean = _ => true): Group = {
    val top = wa + wb
    val (shift, drop) = (top / 2, top / 2 - 3 max 1)
    val perArch = as.zipWithIndex.flatMap { case (ar, i) => Full(ar) +: (if (!partial(i)) Nil else
      Seq(High(shift, drop, ar), Low(top / 2 + 1, ar)) ++ (if (ar.pp == PartialProducts.Booth4) Seq(High(shift + 1, 0, ar)) else Nil)) }
    Group(wa, wb, Seq(Full(MulArch()), Low(top / 2 + 1, MulArch()), OldHigh(shift, drop), High(shift, drop, MulArch())) ++ perArch)
  }

  /** Small and odd widths, checked exhaustively: the four pp x tree pairs, adders rotating with `rot`. */
  def small(wa: Int, wb: Int, rot: Int): Group = {
    val top = wa + wb
    val low = Seq(Low(1, _: MulArch), Low(top - 1 max 1, _: MulArch), Low(top + 2, _: MulArch))
    val high = if (top >= 2) Seq(High(top - 1, top - 1, _: MulArch), High(top / 2, 0, _: MulArch)) else Nil
    val as = pairs.zipWithIndex.map { case ((pp, t), j) => MulArch(pp, t, PrefixAdder.all((rot + j) % 5)) }
    Group(wa, wb, as.flatMap(ar => (Seq(Full(_: MulArch)) ++ low ++ high).map(_(ar))))
  }

  // All products of the spec in one component, so that Verilator compiles once (its C++ build is
  // most of the run time: about 10 ms per full adder). Each test checks its own groups.
  // make test: the small widths (every pp x tree pair, every adder), Karatsuba at 33x31 and 21x18, the mid register;
  // the _fast designs' cocotb benches run the explicit trees at 32 bits. test-long (TestTier) adds every pp x tree x
  // adder at 7x9, 16x16 and 17x13 and Karatsuba at 64x64 (the 7x9 matrix alone was 3.7 min of a cold make test,
  // 2026-11-29, docs/testing.md "Tiers")
  val matrixGroups = TestTier.pick(Nil, Seq(products(7, 9, archs, i => i % 4 == 0),
    products(16, 16, cover(0), Set(0, 3)), products(17, 13, cover(1), Set(1, 4))))
  val smallGroups = Seq((1, 1), (1, 5), (3, 2), (2, 6), (5, 5), (6, 3), (4, 7)).zipWithIndex.map { case ((wa, wb), i) => small(wa, wb, i) }
  val karatsubaGroups = {
    // test-long only (TestTier, since 2026-11-29: the build of the small widths with Karatsuba was 2.3 min of a
    // cold make test)
    TestTier.pick(Nil, Seq(Group(64, 64, Seq(Full(arch("bdksk1")), Full(arch("yk1")), Full(arch("yk2")))),
      Group(33, 31, Seq(Full(arch("adrck1")), Full(arch("awhck2")), Full(arch("yk1")), Full(arch("yk2")),
        Low(20, arch("bdksk2")), High(58, 50, arch("awbkk1")))),
      Group(21, 18, Seq(Full(arch("bwskk3")), Full(arch("yk3"))))))
  }
  val midGroups = Seq(Group(17, 13, Seq(Full(arch("bdks"), true), Low(17, arch("awrc"), true),
    High(15, 12, arch("adsk"), true), High(15, 0, arch("bwhc"), true), Full(arch("awbkk1"), true))))
  val parts = Seq(matrixGroups, smallGroups, karatsubaGroups, midGroups)
  val groups = parts.flatten
  val Seq(matrixRange, smallRange, karatsubaRange, midRange) =
    parts.scanLeft(0)(_ + _.size).sliding(2).map { case Seq(i, j) => i until j }.toSeq
  lazy val compiled: SimCompiled[ProductsDut] = {
    val c = compile("arith_products", groups)
    println(s"[arith] ${c.dut.children.count(_.isInstanceOf[FullAdder])} full adders, ${c.dut.children.count(_.isInstanceOf[HalfAdder])} half adders")
    c
  }

  /** Combinational products of groups `which`: every group's vectors (shorter lists cycled). */
  def runComb(which: Range): Int = {
    val vs = which.map(i => vectors(groups(i).wa, groups(i).wb))
    val n = vs.map(_.size).max
    var checks = 0
    compiled.doSim(s"groups_${which.start}_${which.end}", seed = 3) { dut =>
      for (t <- 0 until n) {
        for ((i, v) <- which.zip(vs)) { dut.as(i) #= v(t % v.size)._1; dut.bs(i) #= v(t % v.size)._2 }
        sleep(1)
        for ((i, v) <- which.zip(vs)) {
          val (a, b) = v(t % v.size)
          val g = groups(i)
          for ((op, k) <- g.ops.zipWithIndex) {
            val got = dut.outs(i)(k).toBigInt
            val want = op.model(a, b, g.wa, g.wb)
            assert(got == want, s"${describe(g, op)}: a = $a, b = $b: got $got, want $want")
            checks += 1
          }
        }
      }
    }
    println(s"[SpinalSim] groups $which: $n vectors, $checks products checked")
    checks
  }

  if (TestTier.long) test("every pp x tree x adder (20) at 7x9; 16x16 and 17x13 with all pp x tree pairs and adders; full, low, truncated high") {
    runComb(matrixRange)
  }

  test("small and odd widths, exhaustive: 1x1, 1x5, 3x2, 2x6, 5x5, 6x3, 4x7") {
    runComb(smallRange)
  }

  if (TestTier.long) test("Karatsuba: 1 level at 64x64 and 1, 2 at 33x31 explicit; 1, 2 over `*`; 3 levels at 21x18; low/high ignore it") {
    runComb(karatsubaRange)
  }

  test("mid register: latency exactly 1 (full, low, high, Karatsuba)") {
    val which = midRange
    val vs = which.map(i => rnd.shuffle(vectors(groups(i).wa, groups(i).wb)).take(600))
    compiled.doSim("mid", seed = 5) { dut =>
      val cd = dut.clockDomain
      cd.fallingEdge(); sleep(1) // no reset: the mid registers have none
      var prev: Option[Seq[(BigInt, BigInt)]] = None
      def check(when: String, v: Seq[(BigInt, BigInt)]): Unit =
        for ((i, (a, b)) <- which.zip(v); (op, k) <- groups(i).ops.zipWithIndex) {
          val got = dut.outs(i)(k).toBigInt
          assert(got == op.model(a, b, groups(i).wa, groups(i).wb), s"${describe(groups(i), op)} $when: a = $a, b = $b: got $got")
        }
      for (t <- 0 until vs.map(_.size).max) {
        val v = vs.map(x => x(t % x.size))
        for ((i, ab) <- which.zip(v)) { dut.as(i) #= ab._1; dut.bs(i) #= ab._2 }
        sleep(1)
        prev.foreach(check("(new inputs, no clock edge yet: still the previous result)", _))
        cd.risingEdge(); sleep(1)
        check("(one clock edge after its inputs)", v)
        cd.fallingEdge(); sleep(1)
        prev = Some(v)
      }
    }
  }

  test("tokens: canonical round trip, examples, errors name the grammar") {
    val all = MulArch() +: (MulArch.explicitFlat ++ (1 to MulArch.maxKaratsuba).flatMap(l => (MulArch() +: MulArch.explicitFlat).map(_.copy(karatsuba = l))))
    assert(all.map(_.token).distinct.size == all.size)
    for (a <- all) {
      assert(a.token.matches("[a-z0-9]*"), a.token)
      assert(MulArch.parse(a.token) == Right(a), a.token)
    }
    assert(MulArch().token == "")
    assert(MulArch.parse("bdks") == Right(MulArch(PartialProducts.Booth4, Tree.Dadda, PrefixAdder.KoggeStone)))
    assert(MulArch.parse("awbk") == Right(MulArch(PartialProducts.And, Tree.Wallace, PrefixAdder.BrentKung)))
    assert(MulArch.parse("bdksk2") == Right(MulArch(PartialProducts.Booth4, karatsuba = 2)))
    assert(MulArch.parse("yk1") == Right(MulArch(karatsuba = 1)))
    for (bad <- Seq("y", "bdk", "bdksk", "bdksk0", "bdksk01", "bdksk4", "BDKS", "bdks_k1", "xdks", "bxks", "bdxx", "adrck", "yk"))
      MulArch.parse(bad) match {
        case Left(e) => assert(e.contains("grammar") && e.contains("pp tree adder") && e.contains(bad), e)
        case Right(a) => fail(s"'$bad' parsed as $a")
      }
    intercept[IllegalArgumentException](MulArch(tree = Tree.Wallace)) // Yosys with a tree
    intercept[IllegalArgumentException](MulArch(PartialProducts.And, karatsuba = 4))
  }

  test("prefix networks: every output the prefix of all lower positions; depth and node counts") {
    // A node's value is the range [lo, hi] it covers, with the level it is ready at.
    case class R(lo: Int, hi: Int, depth: Int)
    for (kind <- PrefixAdder.all; n <- 1 to 70) {
      var nodes = 0
      val ys = Adders.prefix((0 until n).map(i => R(i, i, 0)), kind) { (h, l) =>
        assert(l.hi + 1 == h.lo, s"$kind n = $n: combines non-adjacent $h and $l")
        nodes += 1
        R(l.lo, h.hi, (h.depth max l.depth) + 1)
      }
      for (i <- 0 until n) assert(ys(i).lo == 0 && ys(i).hi == i, s"$kind n = $n: position $i covers ${ys(i)}")
      val depth = ys.map(_.depth).max
      val lg = if (n == 1) 0 else 32 - Integer.numberOfLeadingZeros(n - 1)
      kind match {
        case PrefixAdder.Ripple => assert(depth == n - 1 && nodes == n - 1)
        case PrefixAdder.KoggeStone => assert(depth == lg && nodes == (0 until lg).map(l => n - (1 << l)).sum)
        case PrefixAdder.Sklansky => assert(depth == lg)
        case PrefixAdder.BrentKung => assert(depth <= (2 * lg - 1 max 0) && nodes <= 2 * n, s"BK n = $n: depth $depth, $nodes nodes")
        case PrefixAdder.HanCarlson => assert(depth <= lg + 1 && (n < 2 || depth >= lg), s"HC n = $n: depth $depth")
      }
    }
  }

  /** Verilog of a component with products by `arch` (and Multiplier's defaults when arch is None). */
  def verilog(name: String, body: (UInt, UInt) => Seq[UInt], wa: Int = 8, wb: Int = 8): String = {
    val dir = new File(ModMulSim.buildDir, s"arith_rtl")
    ModforgeSpinal.config(dir.getPath).generateVerilog {
      val c = new Component {
        val a = in UInt (wa bits)
        val b = in UInt (wb bits)
        val os = body(a, b).zipWithIndex.map { case (p, i) => val o = out(UInt(p.getWidth bits)).setName(s"o$i"); o := p; o }
      }
      c.setDefinitionName(name)
      c
    }
    val s = Source.fromFile(new File(dir, s"$name.v"))
    try s.mkString.replace(name, "TOP") finally s.close()
  }

  test("Verilog: mf_fa and mf_ha defined once each, Liberty pin names; Dadda's adder counts") {
    val v = verilog("arith_cells", (a, b) => Seq(
      Multiplier.full(a, b, MulArch.parse("bdks").toOption.get), Multiplier.full(a, b, MulArch.parse("awrc").toOption.get)))
    assert("(?m)^module mf_fa \\(".r.findAllIn(v).size == 1 && "(?m)^module mf_ha \\(".r.findAllIn(v).size == 1)
    for (p <- Seq("A", "B", "CIN", "SUM", "COUT")) assert(v.contains(s"  .$p "), s"mf_fa pin $p")
    val fa = v.split("module mf_fa \\(")(1).takeWhile(_ != ';')
    assert(fa.contains("input  wire          A") && fa.contains("input  wire          CIN") && fa.contains("output wire          COUT"), fa)
    // Dadda on an n x n AND array: n^2 - 4n + 3 full adders and n - 1 half adders.
    for (n <- Seq(4, 8, 13)) {
      val d = verilog(s"arith_dadda$n", (a, b) => Seq(Multiplier.full(a, b, MulArch(PartialProducts.And, Tree.Dadda))), n, n)
      assert("(?m)^  mf_fa ".r.findAllIn(d).size == n * n - 4 * n + 3, s"Dadda $n x $n full adders")
      assert("(?m)^  mf_ha ".r.findAllIn(d).size == n - 1, s"Dadda $n x $n half adders")
    }
  }

  test("the default architecture is today's Verilog byte for byte; a mid register needs explicit partial products") {
    val plain = verilog("arith_default", (a, b) => Seq(Multiplier.full(a, b), Multiplier.low(a, b, 9), Multiplier.highTruncated(a, b, 8, 5)), 8, 7)
    val arch = verilog("arith_default", (a, b) => Seq(Multiplier.full(a, b, MulArch()), Multiplier.low(a, b, 9, MulArch()),
      Multiplier.highTruncated(a, b, 8, 5, MulArch())), 8, 7)
    assert(plain == arch)
    assert(plain.contains(" * ") && !plain.contains("mf_fa"))
    val e = intercept[IllegalArgumentException](verilog("arith_bad", (a, b) => Seq(Multiplier.full(a, b, MulArch(), Boundary(true)))))
    assert(e.getMessage.contains("mid register needs explicit partial products"), e.getMessage)
  }
}
