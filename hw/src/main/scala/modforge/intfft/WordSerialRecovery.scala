package modforge.intfft

import spinal.core._
import spinal.lib.Delay

object WordSerialRecovery {
  /** Cycles from `inValid` to the first word: the read, log2(d/b) tree levels, the chain's output register. */
  def latency(g: IntFftParams, readLatency: Int): Int = readLatency + g.treeLevels + 1
}

/** Addition recovery one word at a time (Cao et al., Eq. 7, Fig. 4, with the adder tree folded over
  * the kb/d words), for the folded block multiplier.
  *
  * [[AdditionRecovery]] builds Fig. 4(i) for all kb/d words at once and loads all kb/d outputs z'_i
  * into a chain buffer of kb/d x (d + m) bits; its carry chain then uses one z'_i a clock, so the
  * whole tree works one clock per product. The folded multiplier takes a new pair only every
  * `issueInterval` (hundreds of) clocks, so here one tree of d/b leaves serves every word:
  *
  *  - in clock H + i (H: the `inValid` clock) it asks for word i (`word`, with `reading` high), and
  *    the caller returns the d/b values z_{i d/b + u}, u < d/b, on `leaves` `readLatency` clocks later
  *    ([[FoldedMultiplier]]: the banks' synchronous read and a register after the bank select);
  *  - log2(d/b) registered levels add them two by two into the same z'_i as Fig. 4(i):
  *      z'_i = sum_{u < d/b} z_{i d/b + u} 2^(ub);
  *  - the registered d-bit chain of Fig. 4(ii) takes it the clock after: s_i = z'_i + c_{i-1},
  *    word i = s_i mod 2^d, c_i = s_i >> d, c_{-1} = 0.
  *
  * The words leave one a clock, LSB first, [[WordSerialRecovery.latency]] clocks after `inValid`, with
  * the widths of [[AdditionRecovery.zpBits]] and [[AdditionRecovery.carryBits]]. The z_t are read in
  * clocks H .. H + kb/d - 1 only ([[readCycles]]); a new `inValid` may come every kb/d clocks.
  */
class WordSerialRecovery(val g: IntFftParams, val readLatency: Int) extends Component {
  val words = g.productWords
  val leafCount = g.d / g.b
  require(words >= 2 && g.k == words * leafCount, s"word-serial recovery: k = ${g.k} is not kb/d = $words words of d/b = $leafCount values")
  require(readLatency >= 1, s"word-serial recovery: readLatency = $readLatency, at least 1 (the leaves are registered inputs)")
  val io = new Bundle {
    val inValid = in Bool ()
    val reading = out Bool ()
    val word = out UInt (log2Up(words) bits)
    val leaves = in Vec (UInt(g.m bits), leafCount)
    val outValid = out Bool ()
    val outLast = out Bool ()
    val outWord = out UInt (g.d bits)
  }
  def latency: Int = WordSerialRecovery.latency(g, readLatency)
  def readCycles: Int = words

  // The read counter: word 0 in the inValid clock, words 1 .. kb/d - 1 in the clocks after.
  val busy = RegInit(False)
  val next = Reg(UInt(log2Up(words) bits)) init (0)
  io.word := Mux(busy, next, U(0, log2Up(words) bits))
  when(busy) { next := next + 1; when(next === words - 1) { busy := False } }
  when(io.inValid) { busy := True; next := 1 }
  io.reading := io.inValid || busy

  // Control travels beside the data: the leaves arrive readLatency clocks after their request.
  var valid = Delay(io.reading, readLatency, init = False)
  var first = Delay(io.inValid, readLatency, init = False)
  var last = Delay(busy && next === words - 1, readLatency, init = False)
  var lvl: Seq[UInt] = io.leaves.toSeq
  // Fig. 4(i) for one word: level l + 1 adds adjacent entries, e_{l+1,i} = e_{l,2i} + (e_{l,2i+1} << (b 2^l)).
  var width = g.b
  while (width < g.d) {
    val prev = lvl
    val w = prev.head.getWidth + width + 1
    lvl = (0 until prev.length / 2).map(i => RegNext(prev(2 * i).resize(w bits) + (prev(2 * i + 1).resize(w bits) |<< width)))
    valid = RegNext(valid) init (False)
    first = RegNext(first) init (False)
    last = RegNext(last) init (False)
    width *= 2
  }
  val zpBits = AdditionRecovery.zpBits(g)
  val carryBits = AdditionRecovery.carryBits(g)
  val zp = lvl.head.resize(zpBits bits) // z'_i < 2^zpBits (AdditionRecovery.zpBits)

  // Fig. 4(ii): the registered chain, one link a clock; the first word of a product starts from c = 0.
  val carry = Reg(UInt(carryBits bits))
  val s = zp.resize(zpBits + 1 bits) + Mux(first, U(0, carryBits bits), carry)
  when(valid) { carry := (s >> g.d).resize(carryBits bits) }
  io.outWord := RegNext(s(g.d - 1 downto 0))
  io.outValid := RegNext(valid) init (False)
  io.outLast := RegNext(valid && last) init (False)
}
