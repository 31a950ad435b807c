package modforge.ntt

import org.scalatest.funsuite.AnyFunSuite

/** The generator's parameter checks: each bad parameter is refused with a message naming it. */
class NttConfigSpec extends AnyFunSuite {
  def refused(name: String, q: Option[BigInt] = None, psi: Option[BigInt] = None)(words: String*): Unit = {
    val r = NttDesigns.parse(name, q, psi)
    assert(r.isLeft, s"$name was accepted")
    for (w <- words) assert(r.left.toOption.get.contains(w), s"$name: '${r.left.toOption.get}' does not say '$w'")
  }
  test("N not a power of two, P not 1/2/4, N too small for P") {
    refused("ntt_48_32_p1_gshoup")("N = 48", "power of two")
    refused("ntt_16_32_p3_gshoup")("P = 3")
    refused("ntt_8_32_p4_gshoup")("at least 4P")
  }
  test("q not 1 mod 2N, q not prime, k too small for q") {
    refused("ntt_16_32_p1_gshoup", q = Some(BigInt(113)))("not 1 mod 2N = 32")
    refused("ntt_16_32_p1_gshoup", q = Some(BigInt(33 * 97)))("not prime")
    // 4294966657 = 1 mod 32, 32 bits: Barrett takes it at k = 32, Shoup and GShoup need k = 33.
    assert(NttDesigns.parse("ntt_16_32_p1_barrett", q = Some(BigInt("4294966657"))).isRight)
    refused("ntt_16_32_p1_gshoup", q = Some(BigInt("4294966657")))("k = 32 is too small", "k >= 33")
    refused("ntt_16_32_p1_shoupbarrett", q = Some(BigInt("4294966657")))("k = 32 is too small")
  }
  test("psi not a primitive 2N-th root of unity") {
    val c = NttDesigns.parse("ntt_16_32_p1_gshoup").toOption.get
    refused("ntt_16_32_p1_gshoup", psi = Some(c.psi * c.psi % c.q))("not a primitive 2N-th root")
    refused("ntt_16_32_p1_gshoup", psi = Some(BigInt(1)))("not a primitive 2N-th root")
  }
  test("unknown names and arrangements list the valid choices") {
    refused("ntt_16_32_p1_montgomery")("unknown multiplier arrangement", "shoupbarrett")
    refused("ntt_16_32_gshoup")("unknown NTT tile", "valid NTT tiles")
  }
  test("default q and psi: the largest q = 1 mod 2N below 2^(k-1), psi^N = -1, SEAL's root powers") {
    val c = NttConfig(1024, 64, 2, MulArrangement.GShoup)
    assert(c.q < (BigInt(1) << 63) && c.q.isProbablePrime(64) && (c.q - 1) % 2048 == 0)
    assert(((c.q + 2048) until (BigInt(1) << 63) by 2048).forall(!_.isProbablePrime(64)))
    // SEAL's published N = 4 example (native/tests/seal/util/ntt.cpp), q = 0xffffffffffc0001.
    val seal = NttConfig(4, 61, 1, MulArrangement.GShoup, qOpt = Some(BigInt("1152921504606584833")),
      psiOpt = Some(BigInt("178930308976060547")))
    assert(seal.forward.drop(1) == Seq("288794978602139552", "178930308976060547", "748001537669050592").map(BigInt(_)))
  }
  test("reduction arrangements: default q in the class, twiddles pre-scaled, two-pass PWMUL, foreign q refused") {
    import modforge.reduction.ReductionPrecompute
    for (m <- MulArrangement.reductions; (n, k) <- Seq((16, 32), (256, 64), (8, 16))) {
      val c = NttConfig(n, k, 1, m)
      assert(c.q < (BigInt(1) << k) && c.q.isProbablePrime(64) && (c.q - 1) % (2 * n) == 0 && m.inClass(k, c.q))
      // The largest such prime: nothing above it in the class.
      val w = k - m.h(k)
      val above = if (m == MulArrangement.Mont) ((c.q + 2 * n) until (BigInt(1) << k) by 2 * n)
        else ((c.q + (BigInt(1) << w)) until (BigInt(1) << k) by (BigInt(1) << w)).filter(q => (q - 1) % (2 * n) == 0)
      assert(above.forall(!_.isProbablePrime(64)), s"${c.name}: a larger prime in the class")
      val f = BigInt(2).pow(if (m == MulArrangement.K2Red) 2 * w else k).modInverse(c.q)
      for (wt <- c.forward ++ c.inverse) assert(c.stored(wt) * f % c.q == wt)
      // Two passes of N/P = n cycles, the second right after the first once n >= L + 2, then L + 1 and done.
      val l = c.butterflyLatency
      assert(c.cycles(NttOp.PwMul) == 2 * n + math.max(0, l + 2 - n) + l + 2)
      val (mp, cc) = c.reductionConstants.get
      assert(mp.isDefined == (m == MulArrangement.Mont) && cc * f % c.q * f % c.q == 1)
    }
    assert(MulArrangement.WlmMixed.h(64) == 17 && MulArrangement.WlmMixed.h(32) == 16)
    assert(MulArrangement.K2Red.h(64) == 26 && MulArrangement.K2Red.h(32) == 16)
    // 4294966657 = 1 mod 32, 32 bits, odd: Montgomery takes it at k = 32; the Proth arrangements refuse it.
    assert(NttDesigns.parse("ntt_16_32_p1_mont", q = Some(BigInt("4294966657"))).isRight)
    refused("ntt_16_32_p1_wlmm", q = Some(BigInt("4294966657")))("outside the wlmm arrangement's modulus class", "Proth", "q = 1 mod 2^16")
    refused("ntt_16_32_p1_k2red_ram", q = Some(BigInt(193)))("outside the k2red arrangement's modulus class", "Proth")
    refused("ntt_16_32_p1_mont", q = Some(BigInt("4294967681")))("k = 32 is too small") // prime, 1 mod 32, 33 bits
  }
  test("SRAM storage: _sram names, larger N and P, ROM twiddles refused above N = 4096 naming the _ram tile, cycles") {
    val c = NttDesigns.parse("ntt_32768_64_p2_barrett_ram_sram").toOption.get
    assert(c.storage == Storage.Sram && c.twiddles == TwiddleStore.Ram && c.name == "ntt_32768_64_p2_barrett_ram_sram")
    assert(NttDesigns.parse("ntt_16_32_p1_gshoup_sram").toOption.get.name == "ntt_16_32_p1_gshoup_sram")
    assert(NttDesigns.parse("ntt_128_512_p32_gshoup_ram_sram").isRight)
    refused("ntt_32768_64_p2_barrett_sram")("ROM twiddles", "ntt_32768_64_p2_barrett_ram_sram")
    refused("ntt_65536_64_p2_barrett_ram_sram")("N = 65536", "4..32768")
    refused("ntt_64_64_p64_barrett_ram_sram")("P = 64", "1 to 32")
    refused("ntt_64_64_p32_barrett_ram_sram")("at least 4P = 128")
    refused("ntt_64_64_p24_barrett_ram_sram")("P = 24")
    refused("ntt_16_1024_p1_barrett_sram")("k = 1024")
    // Flip-flop tiles keep their limits, and say where the larger sizes are.
    refused("ntt_8192_64_p2_barrett_ram")("N = 8192", "4..4096", "_sram")
    refused("ntt_64_64_p8_barrett")("P = 8", "1, 2 or 4", "_sram")
    refused("ntt_16_32_p1_gshoup_sram_ram")("unknown")
    // The synchronous read replaces the operand register: only UNLOAD changes (N + 3).
    for (name <- Seq("ntt_16_32_p1_gshoup", "ntt_64_32_p2_mont_ram", "ntt_256_64_p2_k2red")) {
      val f = NttDesigns.parse(name).toOption.get
      val r = NttDesigns.parse(name + "_sram").toOption.get
      for (op <- NttOp.all) assert(r.cycles(op) == f.cycles(op) + (if (op == NttOp.Unload) 2 else 0), s"$name ${op.name}")
      assert(f.sramBanks.isEmpty && r.sramBanks.head.banks == 4 * r.p)
    }
    // The grid of the largest tile tried: 8 coefficient banks of 8192 x 64 (2 x 16 macros of 512 words),
    // 2 twiddle copies of 65536 x 64 (2 x 128); Barrett has no companions.
    val g = c.sramBanks
    assert(g.map(_.role) == Seq("coefficients", "twiddles"))
    assert(g.map(x => (x.banks, x.grid.columns, x.grid.rows, x.macros)) == Seq((8, 2, 16, 256), (2, 2, 128, 512)))
  }
}
