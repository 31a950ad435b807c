package modforge.ntt

/** Which coefficients the P butterfly units touch in each cycle, and where they are stored.
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
  * Everything here is plain Scala: the tile wires it, NttScheduleSpec checks it exhaustively.
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
}
