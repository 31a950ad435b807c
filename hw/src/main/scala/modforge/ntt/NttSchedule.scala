package modforge.ntt

/** Which coefficients the P butterfly units touch in each cycle, where they are stored, and when
  * the next stage may start.
  *
  * Storage: 2P banks per polynomial slot. Coefficient i lives in bank(i), the XOR of the
  * log2(2P)-bit digits of i, at address i >> log2(2P). Two indices that differ in a set of bit
  * positions whose residues mod log2(2P) are all different land in different banks.
  *
  * Butterflies of the stage with pair distance 2^b (bit b of the index tells X from Y): in each
  * cycle the P units take the P pairs j0 + span(S(b)), where S(b) holds log2(P) bit positions
  * other than b whose residues, with b's, cover 0..log2(2P)-1. So the 2P coefficients of a cycle
  * sit in 2P different banks: every unit reads two and writes two each cycle, with no conflict.
  * The cycle counter fills the other bit positions, F(b), in ascending order.
  *
  * Pointwise products: P indices a cycle, the span of bit positions 0..log2(P)-1 (different banks).
  *
  * Overlap of stages. An operand read in cycle t of a stage (a stage issues in T = N/(2P)
  * consecutive cycles) is written back at t + L + 1 ([[writeDelay]], L = butterfly latency) and can
  * be read from t + L + 2 on. The next stage starts [[stageGap]] idle cycles after the last issue
  * cycle of a stage: the least that makes every read of it come after the write of the value it
  * needs. With the ascending order above, the coefficients that cycle c' of the next stage reads
  * were all issued by the stage before in cycles at most c' + [[lag]](b) (b the larger of the two
  * stages' pair-distance exponents, the same for NTT and INTT), so the gap is
  * max(0, lag(b) + L + 2 - T): none once T >= lag(b) + L + 2, i.e. for N = 256, P = 2 (T = 64,
  * largest lag 33) up to L = 29; L + 1 at most (the full drain) when T is small.
  * A cycle's reads come from one issue cycle, its writes from one other: the 2P banks' single read
  * and write ports suffice whatever the gaps.
  *
  * Everything here is plain Scala: the tile wires it, NttScheduleSpec checks it exhaustively
  * (cover, banks, and a cycle-by-cycle model of whole commands for RAW, WAR and port conflicts).
  */
case class NttSchedule(logN: Int, p: Int) {
  val bankBits: Int = Integer.numberOfTrailingZeros(2 * p)
  val unitBits: Int = bankBits - 1
  require(logN >= bankBits + 1, s"N = ${1 << logN} is too small for P = $p")
  val n: Int = 1 << logN

  def bank(i: Int): Int = (0 until logN by bankBits).foldLeft(0)((acc, s) => acc ^ ((i >> s) & (2 * p - 1)))
  def addr(i: Int): Int = i >> bankBits

  /** S(b): one position per residue mod bankBits other than b's: the positions 0..bankBits-1 but b mod bankBits. */
  def unitPositions(b: Int): Seq[Int] = (0 until bankBits).filter(_ != b % bankBits)
  def freePositions(b: Int): Seq[Int] = (0 until logN).filterNot(x => x == b || unitPositions(b).contains(x))

  val pwUnitPositions: Seq[Int] = 0 until unitBits
  val pwFreePositions: Seq[Int] = unitBits until logN

  /** Puts the bits of `v`, lowest first, at `positions`. */
  def deposit(v: Int, positions: Seq[Int]): Int =
    positions.zipWithIndex.foldLeft(0) { case (acc, (pos, i)) => acc | (((v >> i) & 1) << pos) }

  /** Butterfly (X index, Y index) of unit u in cycle c of the stage with pair distance 2^b. */
  def pair(b: Int, c: Int, u: Int): (Int, Int) = {
    val j = deposit(c, freePositions(b)) | deposit(u, unitPositions(b))
    (j, j | (1 << b))
  }
  /** Twiddle index m + g: m = N / 2^(b+1) groups in the stage, g = j >> (b+1) the group of j. */
  def twiddleIndex(b: Int, j: Int): Int = (n >> (b + 1)) | (j >> (b + 1))

  def pwIndex(c: Int, u: Int): Int = deposit(c, pwFreePositions) | deposit(u, pwUnitPositions)

  def cyclesPerStage: Int = n / (2 * p)
  def cyclesPerPwMul: Int = n / p

  // ---- Stage order and overlap ----

  /** Pair-distance exponents of the stages in order: N/2 down to 1 (NTT), 1 up to N/2 (INTT). */
  def stages(inverse: Boolean): Seq[Int] = if (inverse) 0 until logN else (logN - 1) to 0 by -1

  /** Cycles from issue to write-back: register 0, then the butterfly's L. A value written in
    * cycle w is read (asynchronously) from cycle w + 1 on. */
  def writeDelay(latency: Int): Int = latency + 1

  /** The lag of the transition between the stages at pair distances 2^b and 2^(b-1), either way
    * (NTT b then b - 1, INTT b - 1 then b), b in 1..logN-1: the largest c - c' over the cycles c of
    * the first stage that issued a coefficient read in cycle c' of the second. In the first stage
    * the position the second one pairs on sits at counter bit b - bankBits (the bankBits - 1 unit
    * positions are below it), so half of its results come 2^(b - bankBits) cycles late, plus one
    * for the unit positions changing with b's residue; P = 1 has no unit positions.
    * `NttScheduleSpec` checks this form against [[lagByEnumeration]] for every supported N and P.
    */
  def lag(b: Int): Int = {
    require(b >= 1 && b < logN, s"no stage transition at b = $b")
    if (p == 1) 1 << (b - 1)
    else if (b > bankBits) (1 << (b - bankBits)) + 1
    else if (b == bankBits) 1
    else 0
  }

  /** [[lag]] of the transition from the stage at 2^from to the one at 2^to, by enumeration. */
  def lagByEnumeration(from: Int, to: Int): Int = {
    val issued = new Array[Int](n) // the cycle of stage `from` that reads and writes index i
    for (c <- 0 until cyclesPerStage; u <- 0 until p) { val (x, y) = pair(from, c, u); issued(x) = c; issued(y) = c }
    (0 until cyclesPerStage).map { c =>
      (0 until p).flatMap { u => val (x, y) = pair(to, c, u); Seq(issued(x), issued(y)) }.max - c
    }.max
  }

  /** Idle cycles between the stages at 2^b and 2^(b-1) (either order): the next stage's cycle c'
    * is read at T + gap + c', the value it needs written at c' + lag + L + 1 at the latest. */
  def stageGap(b: Int, latency: Int): Int = math.max(0, lag(b) + writeDelay(latency) + 1 - cyclesPerStage)
  /** Idle cycles after the stage at 2^b, the `inverse` transform's next stage following. */
  def gapAfter(b: Int, inverse: Boolean, latency: Int): Int =
    if (inverse) { if (b == logN - 1) 0 else stageGap(b + 1, latency) } else { if (b == 0) 0 else stageGap(b, latency) }
  /** Idle cycles between PWMUL's passes (the reduction arrangements' two): same order, lag 0. */
  def passGap(latency: Int): Int = math.max(0, writeDelay(latency) + 1 - cyclesPerPwMul)

  /** Cycles from a command's acceptance to its `done` (no stalls): the issue cycles and the gaps,
    * L + 1 for the last results to be written ([[writeDelay]]), and one for `done` (registered). */
  def transformCycles(latency: Int): Int =
    logN * cyclesPerStage + (1 until logN).map(stageGap(_, latency)).sum + writeDelay(latency) + 1
  def pwMulCycles(latency: Int, passes: Int): Int =
    passes * cyclesPerPwMul + (passes - 1) * passGap(latency) + writeDelay(latency) + 1
}
