package modforge.intfft

import spinal.core._
import spinal.lib.Delay

object SchoolbookController {
  /** The paper's pipeline depths (Eq. 12's derivation): N_F = N_PW = N_AR = 8. */
  val nF = 8; val nPW = 8; val nAR = 8
  /** L = 2 N_F log2 k + N_PW + N_AR: the pair's last read word to its first written word, less the
    * 8 write clocks the model counts after it (verif/intfft/schoolbook.py `pipeline_latency`). */
  def paperLatency(g: IntFftParams): Int = 2 * nF * g.log2k + nPW + nAR
  /** The controller's cycle count (schoolbook.py `model_cycles`): W + L + W Bx By + W, W = kb/(2d). */
  def cycles(g: IntFftParams, bx: Int, by: Int): Int = {
    val w = g.productWords / 2
    w + paperLatency(g) + w * bx * by + w
  }
}

/** The block-schoolbook controller of the super-size multiplier (Cao et al., Section 3.1 Steps 1-3.3,
  * Fig. 5; the notes' section 2.2 H; the cycle-accurate model verif/intfft/schoolbook.py): x (Bx
  * blocks of kb/2 bits) times y (By blocks) from an external RAM of d-bit words, the product written
  * back, on three read buses and one write bus.
  *
  * Block pair n = i By + j (Step 3.3's order), W = kb/(2d) = 8:
  *  - Step 1: x_i and y_j on read buses 1 and 2, word u in clock W n + u (data in the next clock);
  *    the pair enters the parallel block multiplier ([[ParallelMultiplier]], recovery two words a
  *    clock, so one pair every W clocks) in clock W n + W.
  *  - Step 2: z_ij = x_i y_j. The multiplier's latency is padded to the paper's (N_F = N_PW = N_AR = 8,
  *    [[SchoolbookController.paperLatency]]), so the cycle count is Eq. (12)'s schedule, not one
  *    shortened by our shallower pipeline.
  *  - Step 3.2: word u of block pair n is written in clock W + L + W n + u to position i + j:
  *    LSB(z_ij)[u] + MSB(z_i,j-1)[u] (j > 0, the register array of Fig. 5) + z_{i+j}[u] (i > 0,
  *    read bus 3 one clock before; Step 3.1 as printed reads it only when j > 0 too, but Step 3.2's
  *    j = 0 case needs it: notes erratum 8) + a serial carry (< 3) across a row's words.
  *  - At j = By - 1 position i + By - 1 holds only the previous row's top block; it is kept in
  *    registers (the pending block: MSB(z_{i-1,By-1}) plus that row's final carry, added word by
  *    word as it is used), so every block pair costs W write clocks. After the last row the pending
  *    block is flushed (W clocks).
  * Cycles from the command to `done`: W + L + W Bx By + W = Eq. (12) + 16 Bx (the notes: 8 cycles of
  * Eq. (12)'s constant, 8 of the flush, 16 (Bx - 1) of its "- n_x + kb/2" term).
  *
  * RAM timing: a read address presented in clock t is answered on `rdN_data` in clock t + 1; a write
  * presented in clock t is seen by reads presented after t. The read-back of a word always comes at
  * least W - 1 clocks after its write.
  */
class SchoolbookController(val g: IntFftParams, val addrBits: Int = 24, val blockBits: Int = 16) extends Component {
  import g.d
  val W: Int = g.productWords / 2
  require(W >= 2 && (W & (W - 1)) == 0, s"schoolbook controller: W = kb/(2d) = $W words per block must be a power of two >= 2")
  val wBits: Int = log2Up(W)

  val cmd_valid = in Bool ()
  val cmd_ready = out Bool ()
  val cmd_x_base, cmd_y_base, cmd_z_base = in UInt (addrBits bits)
  val cmd_bx, cmd_by = in UInt (blockBits bits) // at least 1 each
  val rd1_en, rd2_en, rd3_en = out Bool ()
  val rd1_addr, rd2_addr, rd3_addr = out UInt (addrBits bits)
  val rd1_data, rd2_data, rd3_data = in UInt (d bits)
  val wr_en = out Bool ()
  val wr_addr = out UInt (addrBits bits)
  val wr_data = out UInt (d bits)
  val busy = out Bool ()
  val done = out Bool ()

  val mul = new ParallelMultiplier(g, wordsPerClock = 2)
  val pad: Int = SchoolbookController.paperLatency(g) - W - mul.latency
  require(pad >= 0, s"schoolbook controller: the block multiplier's latency ${mul.latency} exceeds the paper's L - W = ${SchoolbookController.paperLatency(g) - W}")
  /** Clock of the first write (and of the first read-back + 1), from the first read. */
  val t0: Int = W + SchoolbookController.paperLatency(g)

  // ---- Command ----
  val xBase, yBase, zBase = Reg(UInt(addrBits bits))
  val bx, by = Reg(UInt(blockBits bits))
  val running = RegInit(False)
  cmd_ready := !running
  busy := running
  val start = cmd_valid && cmd_ready
  val cyc = Reg(UInt(log2Up(t0 + 1) bits)) init (0) // clocks since the first read, saturating at t0
  when(running && cyc =/= t0) { cyc := cyc + 1 }
  when(start) {
    xBase := cmd_x_base; yBase := cmd_y_base; zBase := cmd_z_base; bx := cmd_bx; by := cmd_by
    running := True; cyc := 0
  }

  /** Counters over (i, j, u) in Step 3.3's order; `last` on the last word of the last pair. */
  case class Walk() {
    val i, j = Reg(UInt(blockBits bits)) init (0)
    val u = Reg(UInt(wBits bits)) init (0)
    val active = RegInit(False)
    val lastPair = i === bx - 1 && j === by - 1
    val last = active && lastPair && u === W - 1
    def begin(): Unit = { i := 0; j := 0; u := 0; active := True }
    def step(): Unit = when(active) {
      u := u + 1
      when(u === W - 1) {
        j := j + 1
        when(j === by - 1) { j := 0; i := i + 1 }
        when(lastPair) { active := False }
      }
    }
  }

  // ---- Step 1: reads on buses 1 and 2, the pair into the multiplier ----
  val rd = Walk()
  rd.step()
  when(start) { rd.begin() }
  rd1_en := rd.active; rd1_addr := xBase + (rd.i << wBits).resize(addrBits) + rd.u
  rd2_en := rd.active; rd2_addr := yBase + (rd.j << wBits).resize(addrBits) + rd.u
  val dataValid = RegNext(rd.active) init (False)
  val dataU = RegNext(rd.u)
  val xWords, yWords = Reg(Vec(UInt(d bits), W - 1))
  when(dataValid && dataU =/= W - 1) { xWords(dataU.resize(log2Up(W - 1) max 1)) := rd1_data; yWords(dataU.resize(log2Up(W - 1) max 1)) := rd2_data }
  mul.in_valid := dataValid && dataU === W - 1
  mul.in_x := (rd1_data ## xWords.reverse.map(_.asBits).reduce(_ ## _)).asUInt
  mul.in_y := (rd2_data ## yWords.reverse.map(_.asBits).reduce(_ ## _)).asUInt

  // ---- Step 2's output, padded to the paper's latency; the 2W words of a pair in a buffer ----
  val outValid = Delay(mul.out_valid, pad, init = False)
  val outLast = Delay(mul.out_last, pad, init = False)
  val outW0 = Delay(mul.out_word, pad)
  val outW1 = Delay(mul.out_word1, pad)
  val inBuf = Reg(Vec(UInt(d bits), 2 * W))
  val inCount = Reg(UInt(wBits bits)) init (0)
  when(outValid) {
    inBuf((inCount ## U(0, 1 bits)).asUInt) := outW0
    inBuf((inCount ## U(1, 1 bits)).asUInt) := outW1
    inCount := inCount + 1
  }
  // At a pair's last clock: LSB for its W write clocks, its MSB becomes the register array's
  // current entry, the previous entry (MSB(z_i,j-1)) the one the writes add.
  val lsb, msbCur, msbPrev = Reg(Vec(UInt(d bits), W))
  when(outLast) {
    for (u <- 0 until W) lsb(u) := inBuf(u)
    for (u <- 0 until W - 2) msbCur(u) := inBuf(W + u)
    msbCur(W - 2) := outW0; msbCur(W - 1) := outW1
    msbPrev := msbCur
  }

  // ---- Step 3: read-back on bus 3 one clock before each write, the writes, the flush ----
  val pre = Walk()
  val preFlush = RegInit(False)
  val preFlushU = Reg(UInt(wBits bits)) init (0)
  pre.step()
  when(running && cyc === t0 - 2) { pre.begin() } // active from t0 - 1: read-back of write clock t0
  when(pre.last) { preFlush := True; preFlushU := 0 }
  when(preFlush) { preFlushU := preFlushU + 1; when(preFlushU === W - 1) { preFlush := False } }
  val posPre = pre.i.resize(addrBits) + pre.j.resize(addrBits)
  rd3_en := pre.active && pre.i =/= 0 && pre.j =/= by - 1
  rd3_addr := zBase + (posPre << wBits).resize(addrBits) + pre.u

  val writing = RegNext(pre.active) init (False)
  val flushing = RegNext(preFlush) init (False)
  val wi = RegNext(pre.i); val wj = RegNext(pre.j); val wu = RegNext(pre.u); val fu = RegNext(preFlushU)
  val rowEnd = writing && wj === by - 1
  val carry = Reg(UInt(2 bits)) init (0)
  val pendRaw = Reg(Vec(UInt(d bits), W))
  val pendCarry = Reg(UInt(2 bits)) init (0)
  val pu = Mux(flushing, fu, wu)
  val pendSum = pendRaw(pu).resize(d + 1 bits) + pendCarry
  val pendWord = pendSum(d - 1 downto 0)
  val carryIn = Mux(wj === 0 && wu === 0, U(0, 2 bits), carry)
  val held = Mux(wj =/= 0, msbPrev(wu), U(0, d bits))
  val back = Mux(wi =/= 0, Mux(wj === by - 1, pendWord, rd3_data), U(0, d bits))
  val acc = lsb(wu).resize(d + 2 bits) + held + back + carryIn
  wr_en := writing || flushing
  wr_addr := Mux(flushing, zBase + ((bx.resize(addrBits) - 1 + by.resize(addrBits)) << wBits).resize(addrBits) + fu,
    zBase + ((wi.resize(addrBits) + wj.resize(addrBits)) << wBits).resize(addrBits) + wu)
  wr_data := Mux(flushing, pendWord, acc(d - 1 downto 0))
  when(writing) { carry := acc(d + 1 downto d) }
  // The pending block's own carry runs while it is added (row i + 1's last pair, or the flush).
  when((writing && wi =/= 0 && wj === by - 1) || flushing) { pendCarry := pendSum(d downto d).resize(2 bits) }
  // The end of a row: its top block (MSB(z_i,By-1), the current register entry) and final carry
  // become the pending block.
  when(rowEnd && wu === W - 1) {
    pendRaw := msbCur
    pendCarry := acc(d + 1 downto d)
  }
  // done in the clock after the last write: cycles = last write clock + 1 (schoolbook.py Product.cycles).
  val lastWrite = flushing && fu === W - 1
  done := RegNext(lastWrite) init (False)
  when(lastWrite) { running := False }
}
