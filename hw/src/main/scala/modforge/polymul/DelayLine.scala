package modforge.polymul

import modforge.mem.{SramBank, SramGrid}
import spinal.core._
import spinal.lib.Delay

/** How the engine stores its delay lines: flip-flops only (`_rff`), or SKY130 macros for lines of
  * [[DelayLine.macroDepth]] words and more (`_rsram`, the default). */
sealed abstract class LineStore(val name: String)
object LineStore {
  case object Auto extends LineStore("sram")
  case object Flops extends LineStore("ff")
  val all: Seq[LineStore] = Seq(Auto, Flops)
  def parse(s: String): Option[LineStore] = all.find(_.name == s)
}

/** `x` delayed by `d` ticks of the engine (the enclosing clock domain, gated by the tick): what a
  * shift register of d words on that clock gives, in flip-flops or in a ring of d words in
  * SKY130 macros (one 1rw1r macro column is exactly one such FIFO).
  *
  * The ring: at a tick, word (tick mod d) is written and word (tick + 2) mod d is read, the one
  * written d - 2 ticks before, so a read never meets the write of its cycle (d >= 3). The macro
  * presents read data for one cycle only (its model drives X after the next edge, `<macro>.v`),
  * so the bank runs on the free clock (`clock.free`, with `clock.tick` as its write and read enable) and
  * a register keeps the word until the next tick. That tick registers the word (the line's output
  * register, on the engine's clock), and it leaves the line at the tick after: d ticks after it entered.
  *
  * Why the output register: the macro drives dout1 after the falling edge (its Liberty, `falling_edge`
  * on clk1), so whatever follows dout1 before a register has half a cycle. Used directly, the word went
  * through the SDF butterfly's modular add/sub into the next line's din0: 5.13 ns in half a cycle, a
  * 10.47 ns clock for polymul_4096_62_s1_w32 (flow/sta.py). Registered, dout1 meets two multiplexers
  * before a register, and the butterfly has the whole cycle.
  */
object DelayLine {
  /** Macros from this depth on: a 256-word macro column (190,713 um2 for 32 x 256 bits, 23 um2 a
    * bit) undercuts a flip-flop with its enable multiplexer (about 31 um2 in sky130_fd_sc_hd) once
    * its words are used, and shorter lines would leave most of the words empty. */
  val macroDepth = 256

  /** Bits of a macro line's word per copy of its read-landed register: a copy drives the word's
    * output multiplexers and its hold register's enables, two loads a bit. */
  val sliceBits = 16

  def useMacros(store: LineStore, d: Int): Boolean = store == LineStore.Auto && d >= macroDepth

  def grid(width: Int, d: Int): SramGrid = SramGrid(width, d)

  def apply(x: UInt, d: Int, store: LineStore, clock: => EngineClock): UInt =
    if (!useMacros(store, d)) Delay(x, d)
    else {
      require(d >= 3, s"a delay line in macros reads 2 words ahead of its write: depth $d < 3")
      val tick = clock.tick
      val wptr = Reg(UInt(log2Up(d) bits)) init (0)
      wptr := wptr + 1 // d is a power of two: the ring wraps by itself
      val ring = new ClockingArea(clock.free) {
        val bank = new SramBank(x.getWidth, d)
        bank.io.wrEn := tick
        bank.io.wrAddr := wptr
        bank.io.wrData := x
        bank.io.rdEn := tick
        bank.io.rdAddr := wptr + 2 // read a tick ahead: the output register below takes one
        // "Read in the last cycle": one copy (KeepReg) per DelayLine.sliceBits bits of the word. One
        // register for the line, which Yosys merged across a limb's lines, selected and enabled
        // every bit of them: 7.3 ns on its output, the 12.9 ns path of polymul_2048_33_s2. After
        // reset it holds the tick of the cycle before, like the merged register after its first edge.
        val out = Cat((0 until x.getWidth by sliceBits).map { lo =>
          val n = math.min(sliceBits, x.getWidth - lo)
          val landed = modforge.KeepReg(tick.asUInt)(0)
          val word = bank.io.rdData(lo, n bits)
          Mux(landed, word, RegNextWhen(word, landed))
        }).asUInt // Cat of a Seq: its first element in the low bits
      }
      RegNext(ring.out) // on the engine's clock: it moves at ticks only
    }
}
