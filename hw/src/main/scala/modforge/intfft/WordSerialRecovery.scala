package modforge.intfft

import spinal.core._

/** Addition recovery one word at a time (Cao et al., Eq. 7, Fig. 4, with the adder tree folded over
  * the kb/d words), for the folded block multiplier.
  *
  * [[AdditionRecovery]] builds Fig. 4(i) for all kb/d words at once and loads all kb/d outputs z'_i
  * into a chain buffer of kb/d x (d + m) bits; its carry chain then uses one z'_i a clock, so the
  * whole tree works one clock per product. The folded multiplier takes a new
  * pair only every `issueInterval` (hundreds of) clocks, so here one tree of d/b leaves serves every
  * word: in clock H + i (H: the `inValid` clock) it reads the d/b values z_{i d/b + u}, u < d/b, from
  * `z` (a kb/d-way mux per leaf, registered), adds them two by two in log2(d/b) registered levels,
  *
  *   z'_i = sum_{u < d/b} z_{i d/b + u} 2^(ub)        (the same z'_i as Fig. 4(i)),
  *
  * and the registered d-bit chain of Fig. 4(ii) takes it the clock after: s_i = z'_i + c_{i-1},
  * word i = s_i mod 2^d, c_i = s_i >> d, c_{-1} = 0. The words leave one a clock, LSB first, with the
  * same latency as [[AdditionRecovery]] (the mux register stands where that tree's first level
  * stands, the chain's output register where its buffer load stands) and the same widths
  * ([[AdditionRecovery.zpBits]], [[AdditionRecovery.carryBits]]).
  *
  * `z` is read in clocks H .. H + kb/d - 1 only ([[readCycles]]): the caller must hold it that long
  * ([[FoldedMultiplier]] checks that the next product's first write to R comes later). A new `inValid`
  * may come every kb/d clocks.
  */
class WordSerialRecovery(val g: IntFftParams) extends Component {
  val words = g.productWords
  val leaves = g.d / g.b
  require(words >= 2 && g.k == words * leaves, s"word-serial recovery: k = ${g.k} is not kb/d = $words words of d/b = $leaves values")
  val io = new Bundle {
    val inValid = in Bool ()
    val z = in Vec (UInt(g.m bits), g.k)
    val outValid = out Bool ()
    val outLast = out Bool ()
    val outWords = out Vec (UInt(g.d bits), 1)
  }
  def latency: Int = AdditionRecovery.latency(g)
  def readCycles: Int = words

  // The read counter: word 0 in the inValid clock, words 1 .. kb/d - 1 in the clocks after.
  val busy = RegInit(False)
  val next = Reg(UInt(log2Up(words) bits)) init (0)
  val word = Mux(busy, next, U(0, log2Up(words) bits))
  when(busy) { next := next + 1; when(next === words - 1) { busy := False } }
  when(io.inValid) { busy := True; next := 1 }
  val reading = io.inValid || busy

  // Leaf u of word i is z_{i d/b + u}: a kb/d-way mux, registered (the tree's level 0).
  var lvl: Seq[UInt] = (0 until leaves).map(u => RegNext(Vec((0 until words).map(i => io.z(i * leaves + u)))(word)))
  var valid = RegNext(reading) init (False)
  var first = RegNext(io.inValid) init (False)
  var last = RegNext(busy && next === words - 1) init (False)
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
  io.outWords(0) := RegNext(s(g.d - 1 downto 0))
  io.outValid := RegNext(valid) init (False)
  io.outLast := RegNext(valid && last) init (False)
}
