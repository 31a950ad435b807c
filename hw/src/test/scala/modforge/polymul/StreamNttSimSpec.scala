package modforge.polymul

import modforge.{ModMulSim, ModforgeSpinal, TestTier}
import modforge.mem.SramSimModel
import modforge.ntt.NttConfig
import spinal.core._
import spinal.core.sim._

import java.io.File
import org.scalatest.funsuite.AnyFunSuite
import scala.util.Random

/** One unit's streams, as [[StreamNttTop]]'s ports. */
class NttStreams(width: Int) extends Bundle {
  val in_valid = in Bool ()
  val in_ready = out Bool ()
  val in_x = in UInt (width bits)
  val out_valid = out Bool ()
  val out_ready = in Bool ()
  val out_y = out UInt (width bits)
}

/** A forward and an inverse [[StreamNttTop]] side by side, one Verilator build for both. */
class StreamNttPair(val shape: NttShape, val q: BigInt, val psi: BigInt) extends Component {
  val io = new Bundle {
    val f, i = new NttStreams(shape.lanes * shape.limbBits)
  }
  for ((s, inverse) <- Seq((io.f, false), (io.i, true))) {
    val u = new StreamNttTop(shape, q, psi, inverse)
    u.io.in_valid := s.in_valid; s.in_ready := u.io.in_ready; u.io.in_x := s.in_x
    s.out_valid := u.io.out_valid; u.io.out_ready := s.out_ready; s.out_y := u.io.out_y
  }
}

/** The column passes' NTT units ([[StreamNtt]], docs/polymul_ntt_units.md) under Verilator: the
  * forward unit against the direct evaluation y(rev(k)) = sum_j x_j psi^((2k + 1) j) mod q (BigInt
  * powers, no butterflies), the inverse against its own definition x_j = n^-1 sum_k y(rev(k))
  * psi^(-(2k + 1) j), and inverse(forward(x)) = x on the same frames. Random and edge frames (all
  * q - 1, zero, one, one-hot, x^(n-1)), back to back with the promised cycle counts (a frame every n/P
  * cycles, the first result beat read `latency` + 1 edges after the first beat was accepted), then gaps
  * between frames (the unit drains by itself) and random stalls on both streams.
  *
  * make test: n = 16 at P = 2 (SDF stages and a lane-pair stage); make test-long (TestTier) adds n = 64
  * at P = 1 (SDF stages only, the copied table index of a 32-entry table), 16 at P = 1, 64 at P = 2, and
  * 256 at P = 1 and 2. The paper's multipliers, as StreamPolymulSimSpec (the fast ones' product trees cost
  * Verilator minutes; the pipelines around them are the same code).
  */
class StreamNttSimSpec extends AnyFunSuite {
  // (since 2026-11-29 test-long only: make test runs these units inside the streaming engines' cocotb benches)
  // (n, P, w, I): I > 1 interleaves I transforms point by point (NttShape.interleave, the streamed column passes).
  private val cases: Seq[(Int, Int, Int, Int)] = TestTier.pick(Nil,
    Seq((16, 2, 21, 1), (64, 1, 21, 1), (16, 1, 17, 1), (64, 2, 31, 1), (256, 1, 21, 1), (256, 2, 21, 1),
      (16, 1, 17, 4), (32, 1, 21, 8), (16, 2, 21, 2)))

  /** The largest w-bit prime = 1 mod 2n, and a primitive 2n-th root of unity that is not findPsi's
    * (its cube: an odd power of a primitive 2n-th root is one). */
  def primeAndRoot(n: Int, w: Int): (BigInt, BigInt) = {
    val q = StreamPrimes.select(n, w - 1, w).head
    val psi = NttConfig.findPsi(n, q).modPow(3, q)
    assert(psi.modPow(n, q) == q - 1)
    (q, psi)
  }

  def rev(x: Int, bits: Int): Int = if (bits == 0) 0 else Integer.reverse(x) >>> (32 - bits)

  /** Position p of the forward unit's output holds A(rev(p)), A_k = sum_j x_j psi^((2k + 1) j). */
  def forwardDirect(x: Seq[BigInt], q: BigInt, psi: BigInt): Seq[BigInt] = {
    val n = x.size
    val bits = Integer.numberOfTrailingZeros(n)
    val pw = (0 until 2 * n).map(e => psi.modPow(e, q)) // psi^(2n) = 1: exponents mod 2n
    val a = (0 until n).map(k => (0 until n).map(j => x(j) * pw(((2 * k + 1) * j) % (2 * n))).sum.mod(q))
    (0 until n).map(p => a(rev(p, bits)))
  }

  /** x_j = n^-1 sum_k A_k psi^(-(2k + 1) j), A_k at position rev(k) of y. */
  def inverseDirect(y: Seq[BigInt], q: BigInt, psi: BigInt): Seq[BigInt] = {
    val n = y.size
    val bits = Integer.numberOfTrailingZeros(n)
    val pinv = psi.modInverse(q)
    val pw = (0 until 2 * n).map(e => pinv.modPow(e, q))
    val nInv = BigInt(n).modInverse(q)
    (0 until n).map(j => ((0 until n).map(k => y(rev(k, bits)) * pw(((2 * k + 1) * j) % (2 * n))).sum * nInv).mod(q))
  }

  test("the oracles: forward of a one-hot is the powers of psi; inverse undoes forward") {
    val (q, psi) = primeAndRoot(16, 21)
    val e3 = Seq.tabulate(16)(j => if (j == 3) BigInt(1) else BigInt(0))
    val y = forwardDirect(e3, q, psi)
    for (p <- 0 until 16) assert(y(p) == psi.modPow((2 * rev(p, 4) + 1) * 3, q))
    val rnd = new Random(1)
    val x = Seq.fill(16)(BigInt(q.bitLength, rnd).mod(q))
    assert(inverseDirect(forwardDirect(x, q, psi), q, psi) == x)
  }

  /** I transforms of n points as one stream group of n I values in the streams' layout: lane j's tick t carries point
    * j n/P + t / I of transform t mod I, at j (n/P) I + t. */
  def interleave(xs: Seq[Seq[BigInt]], p: Int): Seq[BigInt] = {
    val (i, n) = (xs.size, xs.head.size)
    val f = n / p
    Seq.tabulate(n * i) { pos => val (j, t) = (pos / (f * i), pos % (f * i)); xs(t % i)(j * f + t / i) }
  }
  def deinterleave(g: Seq[BigInt], i: Int, p: Int): Seq[Seq[BigInt]] = {
    val n = g.size / i
    val f = n / p
    Seq.tabulate(i, n)((c, pt) => g((pt / f) * f * i + (pt % f) * i + c))
  }

  for ((n, p, w, il) <- cases) {
    val shape = NttShape(n, p, w, StreamMul.Paper, interleave = il)
    val (q, psi) = primeAndRoot(n, w)
    val F = shape.ticks
    val N = n * il // values of one stream group: il transforms
    val ilName = if (il > 1) s"_i$il" else ""
    test(s"ntt_${n}_s${p}_w$w$ilName (q = $q): forward and inverse, ${F} cycles a frame, latency ${shape.latency}, back to back, gaps and stalls") {
      val sim = SimConfig
        .withConfig(ModforgeSpinal.config(new File(ModMulSim.buildDir, "simWorkspace/rtl").getPath))
        .workspacePath(new File(ModMulSim.buildDir, "simWorkspace").getPath)
        .workspaceName(s"stream_ntt_${n}_s${p}_w$w$ilName")
        .compile(SramSimModel(true) on new StreamNttPair(shape, q, psi))
      sim.doSim(seed = 7) { dut =>
        val rnd = new Random(n * 10 + p)
        val mask = (BigInt(1) << w) - 1
        def random() = Seq.fill(n)(BigInt(q.bitLength + 8, rnd).mod(q))
        def hot(i: Int) = Seq.tabulate(n)(j => if (j == i) BigInt(1) else BigInt(0))
        val edges = Seq(Seq.fill(n)(q - 1), Seq.fill(n)(BigInt(0)), hot(0), hot(1 + rnd.nextInt(n - 1)), hot(n - 1),
          Seq.tabulate(n)(j => if (j % 2 == 0) q - 1 else BigInt(0)))

        val (f, i) = (dut.io.f, dut.io.i)
        for (s <- Seq(f, i)) { s.in_valid #= false; s.out_ready #= false; s.in_x #= 0 }
        dut.clockDomain.forkStimulus(10)
        dut.clockDomain.assertReset(); dut.clockDomain.waitSampling(3); dut.clockDomain.deassertReset(); sleep(1)

        /** Streams `frames` through one unit with stall probabilities, `gap` idle cycles (in_valid 0)
          * before each frame; returns the results and the cycles at which each frame's first beat was
          * accepted and its first result beat read. */
        def run(u: NttStreams, frames: Seq[Seq[BigInt]], inStall: Double, outStall: Double, gap: () => Int): (Seq[Seq[BigInt]], Seq[Int], Seq[Int]) = {
          val count = frames.size
          var beatIn, beatOut, cycle = 0
          var idle = gap()
          val acceptAt, readAt = scala.collection.mutable.ArrayBuffer[Int]()
          val got = Array.fill(count, N)(BigInt(-1))
          while (beatOut < count * F) {
            assert(cycle < 200 * F * count + 10 * shape.latency + 1000, "no progress")
            val iv = beatIn < count * F && idle == 0 && rnd.nextDouble() >= inStall
            if (idle > 0) idle -= 1
            u.in_valid #= iv
            if (iv) {
              val (k, t) = (beatIn / F, beatIn % F)
              u.in_x #= (0 until p).map(j => frames(k)(j * F + t) << (j * w)).sum
            }
            u.out_ready #= rnd.nextDouble() >= outStall
            sleep(1) // the inputs settle; a beat moves at the next edge if valid and ready now
            val inMoves = iv && u.in_ready.toBoolean
            val outMoves = u.out_valid.toBoolean && u.out_ready.toBoolean
            val data = u.out_y.toBigInt
            dut.clockDomain.waitSampling(); sleep(1)
            cycle += 1
            if (inMoves) {
              if (beatIn % F == 0) acceptAt += cycle
              beatIn += 1
              if (beatIn % F == 0) idle = gap()
            }
            if (outMoves) {
              val (k, t) = (beatOut / F, beatOut % F)
              if (t == 0) readAt += cycle
              for (j <- 0 until p) got(k)(j * F + t) = (data >> (j * w)) & mask
              beatOut += 1
            }
          }
          u.in_valid #= false; u.out_ready #= false
          (got.map(_.toSeq).toSeq, acceptAt.toSeq, readAt.toSeq)
        }
        def checkSchedule(what: String, acc: Seq[Int], rd: Seq[Int]): Unit = {
          assert(acc.sliding(2).forall(x => x(1) - x(0) == F), s"$what: accepted at $acc, not one frame every $F cycles")
          assert(acc.zip(rd).forall { case (a, r) => r - a == shape.latency + 1 }, s"$what: accepted at $acc, first beat read at $rd: latency ${shape.latency} promised")
        }
        def check(what: String, got: Seq[Seq[BigInt]], want: Seq[Seq[BigInt]]): Unit =
          for (k <- want.indices) {
            val bad = (0 until N).filter(i => got(k)(i) != want(k)(i))
            if (bad.nonEmpty) fail(s"$what, group $k: ${bad.size} of $N values wrong, first at stream position ${bad.head}: ${got(k)(bad.head)}, want ${want(k)(bad.head)}")
          }
        // A group of il transforms; the oracles apply to each transform of a group alone.
        def groups(k: Int, make: () => Seq[BigInt]) = Seq.fill(k)(interleave(Seq.fill(il)(make()), p))
        def each(gs: Seq[Seq[BigInt]], f: Seq[BigInt] => Seq[BigInt]) = gs.map(g => interleave(deinterleave(g, il, p).map(f), p))
        // Group i: edge frame i, then the next edges round the list (I = 1: the edge frames themselves).
        val edgeGroups = edges.indices.map(i => interleave(Seq.tabulate(il)(c => edges((i + c) % edges.size)), p))

        // Forward: the edge frames and random ones back to back, then with gaps and stalls.
        val xs1 = edgeGroups ++ groups(3, random)
        val (y1, acc1, rd1) = run(f, xs1, 0.0, 0.0, () => 0)
        checkSchedule("forward", acc1, rd1)
        check("forward back to back", y1, each(xs1, forwardDirect(_, q, psi)))
        val xs2 = groups(5, random) :+ interleave(Seq.fill(il)(Seq.fill(n)(q - 1)), p)
        val (y2, _, _) = run(f, xs2, 0.3, 0.3, () => if (rnd.nextBoolean()) rnd.nextInt(2 * F + 3) else 0)
        check("forward with gaps and stalls", y2, each(xs2, forwardDirect(_, q, psi)))

        // Inverse: its own definition on random and edge spectra, back to back; then the forward's
        // results back through it with gaps and stalls: inverse(forward(x)) = x.
        val ys3 = edgeGroups ++ groups(3, random)
        val (x3, acc3, rd3) = run(i, ys3, 0.0, 0.0, () => 0)
        checkSchedule("inverse", acc3, rd3)
        check("inverse back to back", x3, each(ys3, inverseDirect(_, q, psi)))
        val (x4, _, _) = run(i, y1 ++ y2, 0.3, 0.3, () => if (rnd.nextBoolean()) rnd.nextInt(2 * F + 3) else 0)
        check("inverse(forward(x)) with gaps and stalls", x4, xs1 ++ xs2)
      }
    }
  }
}
