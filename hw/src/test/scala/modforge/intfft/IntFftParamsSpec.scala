package modforge.intfft

import modforge.PreconditionError
import org.scalatest.funsuite.AnyFunSuite

/** The generator's parameter checks (the Scala twin of verif/intfft/params.py): the four Table 3
  * groups pass with the corrected roots; each bad parameter is refused with a message naming the
  * condition and the fix. Also the registry's names and the folded schedules' own check. */
class IntFftParamsSpec extends AnyFunSuite {
  def refused(words: String*)(build: => Any): Unit = {
    val e = intercept[PreconditionError](build)
    for (w <- words) assert(e.getMessage.contains(w), s"'${e.getMessage}' does not say '$w'")
  }
  import IntFftParams._

  test("the four Table 3 groups: m, d = kb/16, d/b, reducer, P1 width (erratum 4)") {
    val got = groups.map(g => (g.name, g.m, g.k, g.b, g.d, g.treeFanin, g.reducer.name))
    assert(got == Seq(("fermat32", 33, 64, 8, 32, 4, "fermat"), ("general32", 32, 64, 12, 48, 4, "dhem"),
      ("fermat64", 65, 128, 24, 192, 8, "fermat"), ("solinas64", 64, 128, 28, 224, 8, "solinas")))
    assert(DhemBarrett.p1(pG32) == BigInt("1001000ff0", 16) && DhemBarrett.p1(pG32).bitLength == 32 + 5)
    for (g <- groups) assert(g.omega.modPow(BigInt(g.k), g.p) == 1 && g.omega.modPow(BigInt(g.k / 2), g.p) == g.p - 1)
  }

  test("a twiddle of the wrong order is refused with its order and a root that works (the printed 7 and 17, erratum 3)") {
    refused("omega = 7 is not a principal 128-th root", "its order is 18446744069414584320", "use omega = 0x")(make(pS64, 128, 7, 28))
    refused("omega = 17 is not a principal 64-th root", s"its order is ${(pG32 - 1) / 3}", "use omega = 0x")(make(pG32, 64, 17, 12))
    // omega^2 has order k/2: omega^(k/2) = 1, not -1.
    refused("not a principal 64-th root", "its order is 32")(make(pG32, 64, BigInt("ca125983", 16).pow(2) % pG32, 12))
    // The suggested root passes.
    val fix = suggestedRoot(pS64, 128).get
    assert(make(pS64, 128, fix, 28).omega == fix)
  }

  test("a digit width b above the exactness bound is refused with the largest b that passes (erratum/notes: 13 and 29)") {
    assert(maxExactB(pG32, 64) == 13 && maxExactB(pS64, 128) == 29)
    refused("exactness bound (k/2)(2^b - 1)^2", ">= p fails", "use b <= 13")(make(pG32, 64, BigInt("ca125983", 16), 14, d = Some(56)))
    refused("use b <= 29")(make(pS64, 128, BigInt("f80007ff08000001", 16), 30, d = Some(240)))
    refused("use b <= 13")(make(pF32, 64, 2, 16))
  }

  test("bus width, k, p and reducer refusals") {
    refused("d/b = 10.6667 is not a power of two", "choose d = b * 2^j")(make(pF32, 64, 2, 6, d = Some(64)))
    refused("the bus width d = 24 must divide the block width kb/2 = 256", "d = kb/16 = 32")(make(pF32, 64, 2, 8, d = Some(24)))
    refused("k = 48 is not a power of two")(make(pF32, 48, 2, 8))
    refused("p must be odd")(make(BigInt(1) << 32, 64, 2, 8))
    // 2^32 - 2^20 + 1 has 2^20 | p - 1, but k = 2^21 does not divide it.
    refused("does not divide q - 1 for the prime factor q = 4293918721")(make(pG32, 1 << 21, 2, 1, d = Some(1 << 17)))
    refused("the fermat reducer needs p = 2^(m-1) + 1")(make(pG32, 64, BigInt("ca125983", 16), 12, reducer = Some(ReducerKind.Fermat)))
    refused("the solinas reducer needs")(make(pF32, 64, 2, 8, reducer = Some(ReducerKind.Solinas)))
    // Fermat's 2^32 + 1 = 641 x 6700417 is not prime, but 64 divides both q - 1 (erratum 2 / 12).
    assert(primeFactors(pF32) == Set(BigInt(641), BigInt(6700417)))
    assert(primeFactors(pF64) == Set(BigInt(274177), BigInt("67280421310721")))
  }

  test("fermat twiddles are +-2^s: codes round-trip") {
    for (g <- groups if g.shiftTwiddles; e <- 0 until g.k / 2; inv <- Seq(false, true); sc <- Seq(false, true)) {
      val v = g.twiddle(e, inv, sc)
      val c = g.twiddleCode(v)
      val s = (c & ((BigInt(1) << g.shiftBits) - 1)).toInt
      val neg = c.testBit(g.shiftBits)
      assert(s < g.m - 1)
      assert((if (neg) g.p - BigInt(2).pow(s) else BigInt(2).pow(s)) == v)
    }
  }

  test("registry names: groups, organisations, P") {
    assert(IntFftDesigns.parse("intfft_fermat32_parallel").map(_.name) == Right("intfft_fermat32_parallel"))
    assert(IntFftDesigns.parse("intfft_solinas64_folded_p32").isRight)
    def bad(name: String, words: String*): Unit = {
      val r = IntFftDesigns.parse(name)
      assert(r.isLeft, s"$name accepted")
      for (w <- words) assert(r.left.toOption.get.contains(w), s"'${r.left.toOption.get}' does not say '$w'")
    }
    bad("intfft_fermat16_parallel", "unknown FFT group 'fermat16'", "fermat32, general32, fermat64, solinas64")
    bad("intfft_fermat32_folded_p3", "P = 3", "power of two")
    bad("intfft_fermat32_folded_p32", "4P <= k = 64")
    bad("intfft_fermat64_folded_p2", "d/b = 8 values", "use P >= 4")
    bad("intfft_fermat32_folded_p1", "d/b = 4 values", "use P >= 2")
    bad("intfft_fermat32", "unknown Integer-FFT multiplier")
    // part C: the super-size Barrett design is a registry name, not a block multiplier
    assert(IntFftDesigns.parseAny("intfft_solinas64_barrett").map { case b: BarrettDesign => b.name; case o => o.toString } ==
      Right("intfft_solinas64_barrett"))
    assert(IntFftDesigns.parseAny("intfft_fermat16_barrett").left.toOption.get.contains("unknown FFT group 'fermat16'"))
    bad("intfft_fermat32_barrett", "is not a block multiplier")
  }

  test("folded schedules: every group and P pass the cycle-by-cycle check; issue cycles 3 log2k k/(2P) + k/P") {
    for (g <- groups; p <- Seq(1, 2, 4, 8, 16, 32) if 4 * p <= g.k) {
      val s = FoldedSchedule(g, p) // checks itself
      assert(s.issueCycles == 3 * g.log2k * g.k / (2 * p) + g.k / p)
      assert(s.handoff >= s.steps.length)
    }
  }

  test("folded schedules: each operand port reads k/(2P) of each digit array; slot Z gets every Z_t at bitrev(t) and every z_t") {
    for (g <- groups; p <- Seq(1, 2, 4, 8, 16, 32) if 4 * p <= g.k) {
      val s = FoldedSchedule(g, p)
      val ports = 0 until 2 * p
      for (space <- Seq(Space.DigitsX, Space.DigitsY)) {
        // Forward stage 0 reads every digit index once, k/(2P) per port.
        assert(ports.forall(o => s.portReads(o, space).length == g.k / (2 * p)), s"${g.name} P=$p space $space")
        assert(ports.flatMap(o => s.portReads(o, space)).sorted == (0 until g.k))
      }
      val steps = s.steps.flatten
      val pwWrites = steps.filter(_.pw).flatMap(st => st.units.map(u => (u.rdA, u.wrA)))
      assert(steps.filter(_.pw).forall(_.dst == Space.SlotZ))
      assert(pwWrites.map(_._1).sorted == (0 until g.k) && pwWrites.forall { case (t, w) => w == ParallelFft.bitrev(t, g.log2k) })
      val last = steps.filter(st => st.inverse && st.scaled)
      assert(last.forall(_.dst == Space.SlotZ) && last.flatMap(_.units.flatMap(u => Seq(u.wrA, u.wrB))).sorted == (0 until g.k))
      assert(s.firstZWrite > 0)
    }
  }
}
