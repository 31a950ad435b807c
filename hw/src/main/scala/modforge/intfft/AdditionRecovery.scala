package modforge.intfft

import modforge.FanoutReg
import spinal.core._

object AdditionRecovery {
  /** Bits of an adder-tree word z'_i = sum_{u < d/b} z_{i d/b + u} 2^(ub) with z_t < 2^m
    * (verif/intfft/recovery.py `widths`: ZP_BITS), and of the carry (CARRY_BITS). */
  def zpBits(g: IntFftParams): Int = (((BigInt(1) << g.m) - 1) * (((BigInt(1) << g.d) - 1) / ((BigInt(1) << g.b) - 1))).bitLength
  def carryBits(g: IntFftParams): Int = {
    val zpMax = ((BigInt(1) << g.m) - 1) * (((BigInt(1) << g.d) - 1) / ((BigInt(1) << g.b) - 1))
    ((zpMax + (BigInt(1) << (g.m - g.b + 2))) >> g.d).bitLength
  }
  /** Cycles from `inValid` to the first word: the tree's levels, the load of the chain, its output register. */
  def latency(g: IntFftParams): Int = g.treeLevels + 2
}

/** Addition recovery (Cao et al., Eq. 7, Fig. 4; verif/intfft/recovery.py): the k IFFT outputs z_t
  * (each < p) of one block product become its kb-bit product as kb/d words of d bits, LSB first,
  * one word per clock.
  *
  *  - Fig. 4(i), the two-by-two adder tree, registered at every level: level l + 1 adds adjacent
  *    entries, e_{l+1,i} = e_{l,2i} + (e_{l,2i+1} << (b 2^l)); log2(d/b) levels (the paper prints
  *    "d/b levels", notes erratum 7), giving z'_i aligned at bit i d.
  *  - Fig. 4(ii), the registered carry chain: s_i = z'_i + c_{i-1}, word i = s_i mod 2^d (registered,
  *    leaves on clock i), c_i = s_i >> d, c_{-1} = 0.
  *
  * A new `inValid` may come every kb/d cycles (the chain is busy that long); one arriving earlier
  * would cut the previous product short, so the block multipliers gate their input (`in_ready`).
  *
  * `wordsPerClock` = 2 chains two d-bit adders per clock (words 2c and 2c + 1 on `outWords` in
  * clock c, kb/(2d) clocks a product): what the block-schoolbook controller needs to take one block
  * product every kb/(2d) = 8 clocks, the paper's rate (Step 1 reads a block in 8 bus clocks), at
  * the price of a carry path through two adders.
  */
class AdditionRecovery(val g: IntFftParams, val wordsPerClock: Int = 1) extends Component {
  require(wordsPerClock == 1 || wordsPerClock == 2, s"addition recovery: wordsPerClock = $wordsPerClock, 1 or 2")
  val words = g.productWords
  val clocks = words / wordsPerClock
  val io = new Bundle {
    val inValid = in Bool ()
    val z = in Vec (UInt(g.m bits), g.k)
    val outValid = out Bool ()
    val outLast = out Bool ()
    val outWords = out Vec (UInt(g.d bits), wordsPerClock)
  }
  def latency: Int = AdditionRecovery.latency(g)

  // The tree: the widths grow by one bit per level on top of the shift.
  var lvl: Seq[UInt] = io.z.toSeq
  var width = g.b
  var valid = io.inValid
  var validIn = io.inValid // the valid bit one level before the last, input of the load's copies
  while (width < g.d) {
    val prev = lvl
    val w = prev.head.getWidth + width + 1
    lvl = (0 until prev.length / 2).map(i => RegNext(prev(2 * i).resize(w bits) + (prev(2 * i + 1).resize(w bits) |<< width)))
    validIn = valid
    valid = RegNext(valid) init (False)
    width *= 2
  }
  require(lvl.length == words, s"adder tree: ${lvl.length} words, expected kb/d = $words")
  val zpBits = AdditionRecovery.zpBits(g)
  val carryBits = AdditionRecovery.carryBits(g)

  // The chain: the tree's words are loaded at once, then shifted out one per clock.
  val buf = Reg(Vec(UInt(zpBits bits), words))
  val carry = Reg(UInt(carryBits bits))
  val running = RegInit(False)
  val count = Reg(UInt(log2Up(clocks) bits)) init (0)
  // s_i = z'_i + c_{i-1}: one or two links of the chain this clock.
  val sums = (0 until wordsPerClock).scanLeft((null: UInt, carry.resize(carryBits bits))) { case ((_, c), i) =>
    val s = buf(i).resize(zpBits + 1 bits) + c
    (s, (s >> g.d).resize(carryBits bits))
  }.tail
  for (i <- 0 until wordsPerClock) io.outWords(i) := RegNext(sums(i)._1(g.d - 1 downto 0))
  io.outValid := RegNext(running) init (False)
  io.outLast := RegNext(running && count === clocks - 1) init (False)
  when(running) {
    carry := sums.last._2
    count := count + 1
    when(count === clocks - 1) { running := False }
  }
  when(valid) {
    carry := 0
    count := 0
    running := True
  }
  // The buffer, words x zpBits flip-flops, loads on `valid` and shifts on `running`: each of the two
  // selects is duplicated per (word, 64-bit slice) (modforge.FanoutReg), a copy of `valid` fed from the
  // tree's previous level and a copy of `running` fed from its next value, so that they equal the
  // single registers above on every clock.
  val slices = FanoutReg.copies(zpBits)
  val runningNext = valid || (running && count =/= clocks - 1)
  // Without a tree level (d = b) `valid` is the input itself, a wire: nothing to copy.
  val loadCopies = if (width > g.b) FanoutReg(validIn, words * slices) else IndexedSeq.fill(words * slices)(valid)
  val shiftCopies = FanoutReg(runningNext, words * slices)
  for (i <- 0 until words; c <- 0 until slices) {
    val lo = c * FanoutReg.maxFanout
    val hi = (lo + FanoutReg.maxFanout).min(zpBits) - 1
    val load = loadCopies(i * slices + c)
    val shift = shiftCopies(i * slices + c)
    // The shift, then the load, which wins (a new product restarts the chain), as in the single-select form.
    if (i < words - wordsPerClock) when(shift) { buf(i)(hi downto lo) := buf(i + wordsPerClock)(hi downto lo) }
    when(load) { buf(i)(hi downto lo) := lvl(i).resize(zpBits bits)(hi downto lo) }
  }
}
