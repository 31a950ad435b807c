package modforge.intfft

import spinal.core._

object SuperBarrett {
  /** Clocks from the accepted command to `done` (the cycle count the bench checks):
    * pass 1 + 1 (the controller takes its next command in the clock of its `done`) + pass 2 +
    * sub words + 1 (the subtractor's read latency). verif/intfft/barrett.py counts pass 1 + pass 2 +
    * sub words, so the hardware is that plus 2.
    */
  def cycles(g: IntFftParams, bx1: Int, by1: Int, bx2: Int, by2: Int, subWords: Int): Int =
    SchoolbookController.cycles(g, bx1, by1) + 1 + SchoolbookController.cycles(g, bx2, by2) + subWords + 1
}

/** The super-size Barrett reduction mod A0 (Cao et al., Section 4, Eqs. 9-11, Fig. 6(iii); notes
  * section 2.2 J; model verif/intfft/barrett.py): the same block-schoolbook multiplier
  * ([[SchoolbookController]]) run twice, then the d-bit serial subtract-and-select.
  *
  * A0 lives in the RAM, so everything that depends on it is precomputed by whoever stores it (here
  * the bench, verif/bench/intfft_barrett_bench.py `barrett_command`, which refuses an A0 for which
  * Eq. (10) gives no beta) and given with the command as word addresses and block counts:
  *  - Step 2, pass 1: q = x[phi+gamma-1 : phi+beta] * A01. x is read from word (phi+beta)/d of its
  *    region (`cmd_x_hi_base`; Eq. (10) makes phi + beta a multiple of d so the shift is free),
  *    Bx1 blocks, times A01 = floor(2^(phi+alpha)/A0) (By1 blocks, precomputed), into `cmd_q_base`.
  *  - Step 3, pass 2: r = q[alpha+gamma-beta : alpha-beta] * A0, q read from word (alpha-beta)/d
  *    (`cmd_q_hi_base`, Eq. (11)), Bx2 blocks, times A0 (By2 blocks), into `cmd_r_base`.
  *  - Step 4: for u < `cmd_sub_words` = ceil((phi+1)/d): x[u], r[u], A0[u] on read buses 1-3 in
  *    clock u, and in clock u + 1 y1[u] = x[u] - r[u] - b1 on the write bus and
  *    y2[u] = y1[u] - A0[u] - b2 on the second write bus (Fig. 6(iii)'s extra bus), the top word cut
  *    to `cmd_top_bits` = phi + 1 - d (sub_words - 1) bits (x - sigma A0 is in [0, 2 A0), so phi + 1
  *    bits of it suffice). The borrow out of y2's top word is the select: `y_is_y1` high means
  *    y = y1 (y2 < 0), low means y = y2.
  *  - `cmd_mul_only`: pass 1 only (a plain multiplication x * A01 -> q), done after it; the CMNT
  *    bench uses it for Eq. (1)'s products on the same hardware.
  * The A0 region must hold `cmd_sub_words` words (zero above A0): the subtractor reads that far.
  *
  * Cycles from the accepted command to `done`: [[SuperBarrett.cycles]].
  */
class SuperBarrett(val g: IntFftParams, val addrBits: Int = 24, val blockBits: Int = 16) extends Component {
  import g.d

  val cmd_valid = in Bool ()
  val cmd_ready = out Bool ()
  val cmd_mul_only = in Bool ()
  val cmd_x_base, cmd_x_hi_base, cmd_a01_base, cmd_a0_base = in UInt (addrBits bits)
  val cmd_q_base, cmd_q_hi_base, cmd_r_base, cmd_y1_base, cmd_y2_base = in UInt (addrBits bits)
  val cmd_bx1, cmd_by1, cmd_bx2, cmd_by2 = in UInt (blockBits bits) // at least 1 each
  val cmd_sub_words = in UInt (addrBits bits)                        // at least 1
  val cmd_top_bits = in UInt (log2Up(d + 1) bits)                    // 1 .. d
  val rd1_en, rd2_en, rd3_en = out Bool ()
  val rd1_addr, rd2_addr, rd3_addr = out UInt (addrBits bits)
  val rd1_data, rd2_data, rd3_data = in UInt (d bits)
  val wr_en, wr2_en = out Bool ()
  val wr_addr, wr2_addr = out UInt (addrBits bits)
  val wr_data, wr2_data = out UInt (d bits)
  val busy = out Bool ()
  val done = out Bool ()
  val y_is_y1 = out Bool ()

  val sb = new SchoolbookController(g, addrBits, blockBits)

  object St extends SpinalEnum { val idle, pass1, pass2, sub = newElement() }
  val st = RegInit(St.idle)
  val mulOnly = Reg(Bool())
  val xBase, a0Base, qHiBase, rBase, y1Base, y2Base = Reg(UInt(addrBits bits))
  val bx2, by2 = Reg(UInt(blockBits bits))
  val subWords = Reg(UInt(addrBits bits))
  val topBits = Reg(UInt(log2Up(d + 1) bits))

  cmd_ready := st === St.idle
  busy := st =/= St.idle
  val start = cmd_valid && cmd_ready

  // Pass 1 is handed to the controller in the same clock as our command (its first read is the
  // next clock); pass 2 in the clock of pass 1's `done`, the first clock the controller is ready.
  val pass2Go = st === St.pass1 && sb.done && !mulOnly
  sb.cmd_valid := start || pass2Go
  sb.cmd_x_base := Mux(start, cmd_x_hi_base, qHiBase)
  sb.cmd_y_base := Mux(start, cmd_a01_base, a0Base)
  sb.cmd_z_base := Mux(start, cmd_q_base, rBase)
  sb.cmd_bx := Mux(start, cmd_bx1, bx2)
  sb.cmd_by := Mux(start, cmd_by1, by2)

  when(start) {
    st := St.pass1
    mulOnly := cmd_mul_only
    xBase := cmd_x_base; a0Base := cmd_a0_base; qHiBase := cmd_q_hi_base; rBase := cmd_r_base
    y1Base := cmd_y1_base; y2Base := cmd_y2_base; bx2 := cmd_bx2; by2 := cmd_by2
    subWords := cmd_sub_words; topBits := cmd_top_bits
  }
  when(st === St.pass1 && sb.done) { st := Mux(mulOnly, St.idle, St.pass2) }

  // ---- Step 4: the d-bit serial subtract-and-select ----
  // Word u is read in clock S + u (S: the clock of pass 2's `done`; its last write landed in S - 1)
  // and computed and written in clock S + u + 1; `done` follows the last write.
  val subStart = st === St.pass2 && sb.done
  val u = Reg(UInt(addrBits bits)) init (0) // the next word to read in state sub
  when(subStart) { st := St.sub; u := 1 }
  val reading = subStart || (st === St.sub && u < subWords)
  when(st === St.sub && u < subWords) { u := u + 1 }
  val ru = Mux(subStart, U(0, addrBits bits), u)
  val subWriting = RegNext(reading) init (False)
  val wu = RegNext(ru)
  val lastWord = wu === subWords - 1
  // The top word keeps phi + 1 - d (sub_words - 1) bits (Step 4 works mod 2^(phi+1)).
  val topMask = ((U(1, d + 1 bits) |<< topBits) - 1).resize(d bits)
  val mask = Mux(lastWord, topMask, U((BigInt(1) << d) - 1, d bits))
  val b1, b2 = Reg(Bool()) init (False)
  val s1 = (rd1_data & mask).resize(d + 1 bits) - (rd2_data & mask).resize(d + 1 bits) - b1.asUInt.resize(d + 1 bits)
  val w1 = s1(d - 1 downto 0) & mask
  val s2 = w1.resize(d + 1 bits) - (rd3_data & mask).resize(d + 1 bits) - b2.asUInt.resize(d + 1 bits)
  val w2 = s2(d - 1 downto 0) & mask
  when(subWriting) { b1 := s1(d); b2 := s2(d) } // |a - b - borrow| < 2^d, so bit d is the borrow
  when(start) { b1 := False; b2 := False }
  val flag = Reg(Bool()) init (False)
  when(subWriting && lastWord) { flag := s2(d); st := St.idle } // y2 = y1 - A0 < 0: select y1
  y_is_y1 := flag

  // ---- the buses: the controller's, or the subtractor's ----
  val subPhase = reading
  rd1_en := Mux(subPhase, True, sb.rd1_en); rd1_addr := Mux(subPhase, xBase + ru, sb.rd1_addr)
  rd2_en := Mux(subPhase, True, sb.rd2_en); rd2_addr := Mux(subPhase, rBase + ru, sb.rd2_addr)
  rd3_en := Mux(subPhase, True, sb.rd3_en); rd3_addr := Mux(subPhase, a0Base + ru, sb.rd3_addr)
  sb.rd1_data := rd1_data; sb.rd2_data := rd2_data; sb.rd3_data := rd3_data
  wr_en := Mux(subWriting, True, sb.wr_en)
  wr_addr := Mux(subWriting, y1Base + wu, sb.wr_addr)
  wr_data := Mux(subWriting, w1, sb.wr_data)
  wr2_en := subWriting; wr2_addr := y2Base + wu; wr2_data := w2
  // One clock, the clock after the last write (as the controller's `done`).
  done := (RegNext(subWriting && lastWord) init (False)) | (st === St.pass1 && sb.done && mulOnly)
}
