package modforge

import modforge.modmul.Barrett
import modforge.modmul.Design
import spinal.core._
import spinal.core.sim._
import spinal.lib.sim.ScoreboardInOrder

import java.io.File
import scala.util.Random

/** SpinalSim (Verilator) driver for any registry design: a random stream of operations with
  * idle gaps, checked in order against BigInt a*b % m, and each result exactly `latency` cycles
  * after its operation.
  */
object ModMulSim {
  /** build/ at the repository root, wherever the test runs from (Mill runs it in a sandbox). */
  lazy val buildDir: File = sys.env.get("MODFORGE_BUILD").map(new File(_)).getOrElse {
    var d = new File(".").getAbsoluteFile
    while (d != null && !new File(d, "build.sc").exists()) d = d.getParentFile
    require(d != null, "cannot find the repository root (build.sc); set MODFORGE_BUILD")
    new File(d, "build")
  }

  /** Test moduli for a design: primes just below the top of its range, primes of a random
    * size, small and composite odd moduli, the largest modulus, and 2^j + 1.
    */
  def moduli(d: Design, rnd: Random, n: Int): Seq[BigInt] = {
    val topBits = if (d.family == Barrett) d.k else d.k - 1 // m < 2^topBits
    val top = BigInt(1) << topBits
    def primeBelowTop: BigInt = {
      val p = (top - BigInt(topBits min 20, rnd) - 1).bigInteger.nextProbablePrime()
      if (BigInt(p) < top) BigInt(p) else primeBelowTop
    }
    def ok(m: BigInt) = m >= 3 && m < top && m.bitCount > 1
    val gens: Seq[() => BigInt] = Seq(
      () => primeBelowTop,
      () => BigInt.probablePrime(3 + rnd.nextInt(topBits - 3), rnd),
      () => BigInt(3 + rnd.nextInt(253)),
      () => { val f = BigInt(3 + 2 * rnd.nextInt(500)); f * (BigInt(topBits, rnd) / f) }, // composite
      () => top - 1,
      () => (BigInt(1) << (2 + rnd.nextInt(topBits - 2))) + 1
    )
    Iterator.continually(gens(rnd.nextInt(gens.size))()).filter(ok).take(n).toSeq
  }

  /** The smallest odd factor below 1000 of a composite m, if any. */
  def smallFactor(m: BigInt): Option[BigInt] =
    (3 until 1000 by 2).map(BigInt(_)).find(f => f < m && m % f == 0)

  /** `variant`: a (name, builder) of a non-registry configuration of d's family (e.g. a truncated
    * one), driven like d; by default d itself.
    */
  def run(d: Design, ops: Int, seed: Long = 1, variant: Option[(String, () => ModMulComponent)] = None): Unit = {
    val (simName, build) = variant.getOrElse((d.name, () => d.family.build(d.k)))
    val sim = SimConfig
      .withConfig(ModforgeSpinal.config(new File(buildDir, "simWorkspace/rtl").getPath))
      .workspacePath(new File(buildDir, "simWorkspace").getPath)
      .workspaceName(simName)
      .compile { val c = build(); c.setDefinitionName(simName); c }

    sim.doSim(seed = seed.toInt) { dut =>
      val rnd = new Random(seed)
      val ms = moduli(d, rnd, 64)
      val sb = ScoreboardInOrder[BigInt]()
      val entered = scala.collection.mutable.Queue[Long]()
      var cycle = 0L
      val inputs = dut.getAllIo.toSeq.filter(p => p.isInput && !Set("clk", "reset", "in_valid")(p.getName()))
        .map(p => p.getName() -> p.asInstanceOf[BaseType]).toMap

      def drive(port: String, v: BigInt): Unit = inputs(port) match {
        case b: Bool => b #= v != 0
        case u: UInt => u #= v
        case other => sys.error(s"unexpected port type ${other.getClass}")
      }

      dut.clockDomain.onSamplings {
        cycle += 1
        if (dut.in_valid.toBoolean) entered.enqueue(cycle)
        if (dut.out_valid.toBoolean) {
          assert(entered.nonEmpty, s"$simName: out_valid without an operation in flight (cycle $cycle)")
          val latency = cycle - entered.dequeue()
          assert(latency == dut.latency, s"$simName: result after $latency cycles, expected ${dut.latency}")
          sb.pushDut(dut.out_t.toBigInt)
        }
      }

      dut.in_valid #= false
      inputs.keys.foreach(drive(_, 0))
      dut.clockDomain.forkStimulus(10)
      dut.clockDomain.assertReset()
      dut.clockDomain.waitSampling(3)
      dut.clockDomain.deassertReset()

      var m = ms.head
      for (_ <- 0 until ops) {
        while (rnd.nextInt(4) == 0) { // idle cycles, with garbage on the data inputs
          dut.in_valid #= false
          inputs.foreach { case (n, p) => drive(n, BigInt(p.getBitsWidth, rnd)) }
          dut.clockDomain.waitSampling()
        }
        if (rnd.nextBoolean()) m = ms(rnd.nextInt(ms.size))
        def operand = rnd.nextInt(4) match {
          case 0 => Seq(BigInt(0), BigInt(1), m - 1)(rnd.nextInt(3))
          case _ => BigInt(m.bitLength + 8, rnd) % m
        }
        // A quarter of the time on composite moduli, a*b = 0 mod m with a, b != 0: the
        // uncorrected t is then an exact multiple of m, on the `>=` thresholds of the corrections.
        val (a, b) = smallFactor(m).filter(_ => rnd.nextInt(4) == 0) match {
          case Some(f) => ((f * (1 + rnd.nextInt(1 << 20))) % m, (m / f * (1 + rnd.nextInt(1 << 20))) % m)
          case None    => (operand, operand)
        }
        d.family.inputs(d.k, a, b, m, shoupMode = rnd.nextBoolean()).foreach { case (n, v) => drive(n, v) }
        dut.in_valid #= true
        sb.pushRef(a * b % m)
        dut.clockDomain.waitSampling()
      }
      dut.in_valid #= false
      dut.clockDomain.waitSampling(dut.latency + 2)
      assert(sb.ref.isEmpty && sb.dut.isEmpty, s"$simName: ${sb.ref.size} results missing")
      assert(sb.matches == ops, s"$simName: ${sb.matches} of $ops results checked")
      println(s"[SpinalSim] $simName: $ops operations match a*b % m (latency ${dut.latency})")
    }
  }
}
