package modforge.ntt

import modforge.TestTier
import org.scalatest.funsuite.AnyFunSuite

/** The bank schedule, exhaustively: every butterfly of every stage exactly once, the 2P accesses
  * of each cycle in 2P different banks, twiddle index m + g as in SEAL's loops. Then whole commands,
  * cycle by cycle ([[NttScheduleSpec.Model]]), with the stages overlapped as the tile does it: no
  * read before the write of the value it needs (RAW), no write over a value not yet read (WAR), no
  * bank with two reads or two writes in a cycle, every result written by `done`, and the cycle
  * counts NttConfig promises. Each gap is also shown to be the least: one cycle less and a read
  * comes too early. No cycle reads a word that it also writes (RDW): the SRAM macros leave such a
  * read undefined (docs/sram_tile.md), so this is what makes the `_sram` tiles correct without a
  * bypass; one cycle less of any gap gives exactly such a read. The SRAM tiles' P = 8, 16, 32 are
  * checked the same way up to N = 1024, their lags up to N = 32768.
  */
class NttScheduleSpec extends AnyFunSuite {
  import NttScheduleSpec._

  val sizes: Seq[(Int, Int)] = (for (p <- Seq(1, 2, 4); logN <- 2 to 12 if (1 << logN) >= 4 * p) yield (logN, p)) ++
    (for (p <- Seq(8, 16, 32); logN <- 2 to 10 if (1 << logN) >= 4 * p) yield (logN, p))

  for ((logN, p) <- sizes if logN <= 10) {
    val n = 1 << logN
    test(s"N = $n, P = $p: stages and pointwise products cover everything once, without bank conflicts") {
      val s = NttSchedule(logN, p)
      for (b <- 0 until logN) {
        val t = 1 << b // SEAL: t = N / 2m, pairs (j, j + t) with j in group g = j / 2t, twiddle index m + g
        val seen = scala.collection.mutable.Set[Int]()
        for (c <- 0 until s.cyclesPerStage) {
          val pairs = (0 until p).map(u => s.pair(b, c, u))
          val touched = pairs.flatMap { case (x, y) => Seq(x, y) }
          assert(touched.map(s.bank).distinct.size == 2 * p, s"stage b=$b cycle $c: bank conflict in $touched")
          for ((x, y) <- pairs) {
            assert((x & t) == 0 && y == x + t, s"($x, $y) is not a pair at distance $t")
            assert(s.twiddleIndex(b, x) == n / (2 * t) + x / (2 * t))
            assert(seen.add(x), s"stage b=$b: pair at $x twice")
          }
        }
        assert(seen.size == n / 2)
      }
      val pw = for (c <- 0 until s.cyclesPerPwMul) yield (0 until p).map(u => s.pwIndex(c, u))
      assert(pw.forall(is => is.map(s.bank).distinct.size == p))
      assert(pw.flatten.sorted == (0 until n))
      assert((0 until n).map(i => (s.bank(i), s.addr(i))).distinct.size == n, "storage map is not one-to-one")
    }
  }

  // make test: N = 8192; test-long (TestTier) also 16384 and 32768 (each P about 1-7 s)
  for (p <- Seq(1, 2, 4, 8, 16, 32); logN <- TestTier.pick(Seq(13), Seq(14, 15))) {
    test(s"N = ${1 << logN}, P = $p (SRAM sizes): the closed-form lag of every stage transition is the enumerated one") {
      val s = NttSchedule(logN, p)
      for (b <- 1 until logN) assert(s.lagByEnumeration(b, b - 1) == s.lag(b) && s.lagByEnumeration(b - 1, b) == s.lag(b), s"b = $b")
    }
  }

  // make test: N up to 1024; test-long (TestTier) also 2048 and 4096 (about a minute of a cold make test, 2026-11-29)
  for ((logN, p) <- sizes if TestTier.long || logN <= 10) {
    val n = 1 << logN
    test(s"N = $n, P = $p: the closed-form lag of every stage transition is the enumerated one, both ways") {
      val s = NttSchedule(logN, p)
      for (b <- 1 until logN) {
        assert(s.lagByEnumeration(b, b - 1) == s.lag(b), s"NTT stage $b -> ${b - 1}")
        assert(s.lagByEnumeration(b - 1, b) == s.lag(b), s"INTT stage ${b - 1} -> $b")
        assert(s.lag(b) < s.cyclesPerStage) // so a gap is never longer than the full drain L + 1
      }
    }
    test(s"N = $n, P = $p, L = 1..12: NTT, INTT and PWMUL (1 and 2 passes) overlapped free of RAW, WAR and port conflicts") {
      val s = NttSchedule(logN, p)
      for (lat <- 1 to 12) {
        for (inverse <- Seq(false, true)) {
          val m = Model.transform(s, inverse, lat)
          assert(m.hazards.isEmpty, s"${if (inverse) "INTT" else "NTT"} L = $lat: ${m.hazards.take(5).mkString("; ")}")
          assert(m.cycles == s.transformCycles(lat))
          assert(m.gaps.forall(_ <= lat + 1))
        }
        for (passes <- Seq(1, 2)) {
          val m = Model.pwMul(s, passes, lat)
          assert(m.hazards.isEmpty, s"PWMUL x$passes L = $lat: ${m.hazards.take(5).mkString("; ")}")
          assert(m.cycles == s.pwMulCycles(lat, passes))
        }
      }
    }
    test(s"N = $n, P = $p, L = 1..12: every gap is the least, one cycle less gives a RAW hazard") {
      val s = NttSchedule(logN, p)
      for (lat <- 1 to 12; inverse <- Seq(false, true); (g, k) <- Model.transform(s, inverse, lat).gaps.zipWithIndex if g > 0) {
        val m = Model.transform(s, inverse, lat, shorten = Some(k))
        assert(m.hazards.exists(_.startsWith("RAW")), s"L = $lat, gap $k ($g cycles) one shorter: no hazard found")
        assert(m.hazards.exists(_.startsWith("RDW")), s"L = $lat, gap $k ($g cycles) one shorter: no same-cycle read of a written word")
      }
      for (lat <- 1 to 12 if s.passGap(lat) > 0)
        assert(Model.pwMul(s, 2, lat, shorten = Some(0)).hazards.exists(_.startsWith("RAW")))
    }
  }

  test("N = 256, P = 2: no gap between stages for L up to 12; cycles and utilization of every arrangement") {
    val s = NttSchedule(8, 2)
    for (lat <- 1 to 12; b <- 1 until 8) assert(s.stageGap(b, lat) == 0)
    assert((1 until 8).map(s.lag) == Seq(0, 1, 3, 5, 9, 17, 33))
    for (mul <- MulArrangement.all) {
      val c = NttConfig(256, 64, 2, mul)
      val l = c.butterflyLatency
      for (op <- Seq(NttOp.Ntt, NttOp.Intt)) {
        assert(c.cycles(op) == 512 + l + 2, s"${c.name} ${op.name}")
        assert(c.utilization(op) >= 0.97, s"${c.name} ${op.name}: ${c.utilization(op)}")
        assert(c.stageGaps(op).forall(_ == 0))
      }
      assert(c.cycles(NttOp.PwMul) == mul.pwPasses * 128 + l + 2)
    }
  }
}

object NttScheduleSpec {
  /** One command on the tile's storage, cycle by cycle, from the schedule alone. Pass k (a stage, or
    * a PWMUL pass) issues in cycles start(k) + c, c < its length, start(0) = 0 and start(k + 1) =
    * start(k) + length + gap(k); an issue reads its operands in its cycle t (slot 0 holds the data,
    * slot 1 PWMUL's other operand) and writes the results at t + L + 1, readable from t + L + 2 on.
    * The command is accepted one cycle before its first issue and `done` comes L + 2 cycles after
    * its last, so `cycles` counts from acceptance to done as NttConfig.cycles does.
    * RDW: a cycle that reads a (slot, index) it also writes. Flip-flop banks read the old word
    * then; SRAM macros race their two ports (`<macro>.v` reads and writes at the same falling edge).
    */
  case class Model(hazards: Seq[String], cycles: Int, gaps: Seq[Int])

  object Model {
    /** (slot, index) read and (slot, index) written by each cycle of each pass. */
    type Pass = IndexedSeq[(Seq[(Int, Int)], Seq[(Int, Int)])]

    def transform(s: NttSchedule, inverse: Boolean, latency: Int, shorten: Option[Int] = None): Model = {
      val stages = s.stages(inverse)
      val passes = stages.map { b =>
        (0 until s.cyclesPerStage).map { c =>
          val is = (0 until s.p).flatMap { u => val (x, y) = s.pair(b, c, u); Seq(0 -> x, 0 -> y) }
          (is, is)
        }
      }
      val gaps = stages.init.map(b => s.gapAfter(b, inverse, latency))
      run(s, passes, gaps, latency, shorten)
    }

    def pwMul(s: NttSchedule, passCount: Int, latency: Int, shorten: Option[Int] = None): Model = {
      val pass = (0 until s.cyclesPerPwMul).map { c =>
        val is = (0 until s.p).map(u => s.pwIndex(c, u))
        (is.flatMap(i => Seq(0 -> i, 1 -> i)), is.map(0 -> _))
      }
      run(s, Seq.fill(passCount)(pass), Seq.fill(passCount - 1)(s.passGap(latency)), latency, shorten)
    }

    /** `shorten`: start the pass after that gap one cycle early (the check must then find a hazard). */
    def run(s: NttSchedule, passes: Seq[Pass], gaps: Seq[Int], latency: Int, shorten: Option[Int]): Model = {
      val wd = s.writeDelay(latency)
      val starts = passes.indices.scanLeft(0) { (t, k) =>
        t + passes(k).size + (if (k < gaps.size) gaps(k) - (if (shorten.contains(k)) 1 else 0) else 0)
      }.init
      val lastIssue = starts.last + passes.last.size - 1
      val doneCycle = lastIssue + wd + 1
      // Which (pass, cycle) issues at each cycle: passes must not overlap in issue.
      val issueAt = Array.fill(lastIssue + 1)((-1, -1))
      val hazards = scala.collection.mutable.ArrayBuffer[String]()
      for (k <- passes.indices; c <- passes(k).indices) {
        val t = starts(k) + c
        if (issueAt(t)._1 >= 0) hazards += s"ISSUE: passes ${issueAt(t)._1} and $k both issue at cycle $t"
        issueAt(t) = (k, c)
      }
      // version(slot)(i): writes so far; readsOf(i): reads of slot 0's current version of i.
      val version = Array.fill(2, s.n)(0)
      val readsOf = Array.fill(s.n)(0)
      for (t <- 0 to lastIssue + wd) {
        if (t <= lastIssue && issueAt(t)._1 >= 0) {
          val (k, c) = issueAt(t)
          val reads = passes(k)(c)._1
          if (reads.map { case (sl, i) => (sl, s.bank(i)) }.distinct.size != reads.size)
            hazards += s"PORT: two reads of one bank at cycle $t (pass $k cycle $c: $reads)"
          for ((sl, i) <- reads) {
            val want = if (sl == 0) k else 0 // every pass writes each slot-0 index once; slot 1 is only read
            if (version(sl)(i) < want) hazards += s"RAW: pass $k reads slot $sl index $i at cycle $t before pass ${want - 1} wrote it"
            else if (version(sl)(i) > want) hazards += s"WAR: pass $k reads slot $sl index $i at cycle $t, already overwritten"
            if (sl == 0) readsOf(i) += 1
          }
        }
        if (t - wd >= 0 && t - wd <= lastIssue && issueAt(t - wd)._1 >= 0) {
          val (k, c) = issueAt(t - wd)
          val writes = passes(k)(c)._2
          if (t <= lastIssue && issueAt(t)._1 >= 0) {
            val reads = passes(issueAt(t)._1)(issueAt(t)._2)._1
            for (w <- writes if reads.contains(w)) hazards += s"RDW: cycle $t reads and writes slot ${w._1} index ${w._2}"
          }
          if (writes.map { case (sl, i) => (sl, s.bank(i)) }.distinct.size != writes.size)
            hazards += s"PORT: two writes to one bank at cycle $t (pass $k cycle $c: $writes)"
          for ((sl, i) <- writes) {
            if (version(sl)(i) != k) hazards += s"WAW: pass $k writes slot $sl index $i at cycle $t over version ${version(sl)(i)}"
            if (readsOf(i) != 1) hazards += s"WAR: pass $k writes index $i at cycle $t, its value read ${readsOf(i)} times"
            version(sl)(i) += 1
            readsOf(i) = 0
          }
        }
      }
      for (i <- 0 until s.n if version(0)(i) != passes.size) hazards += s"COVER: index $i written ${version(0)(i)} times"
      if (version(1).exists(_ != 0)) hazards += "COVER: slot 1 written"
      // The last write lands at lastIssue + wd, readable from doneCycle on: the next command sees it.
      Model(hazards.toSeq, doneCycle + 1, gaps)
    }
  }
}
