package modforge

import spinal.core._

/** A one-bit register with a synchronous active-high reset to 0 that synthesis keeps as its own
  * flip-flop: `(* keep *)` on its always block puts the attribute on the cell Yosys builds from
  * it, so `opt_merge` does not fold copies with the same input back into one (an attribute on a
  * Verilog `reg` stays on the wire and does not stop that). Verilator and Icarus ignore the attribute.
  */
class KeepDff extends BlackBox {
  setDefinitionName("modforge_keep_dff")
  val io = new Bundle {
    val clk = in Bool ()
    val reset = in Bool ()
    val d = in Bool ()
    val q = out Bool ()
  }
  noIoPrefix()
  // The enclosing domain's clock and reset, the reset presented active high as the module expects.
  mapCurrentClockDomain(clock = io.clk, reset = io.reset, resetActiveLevel = HIGH)
  setInlineVerilog(
    """module modforge_keep_dff (input wire clk, input wire reset, input wire d, output reg q);
      |  (* keep *) always @(posedge clk) if (reset) q <= 1'b0; else q <= d;
      |endmodule
      |""".stripMargin)
}

/** Copies of a control register that selects the next value of a wide register (a load enable,
  * a shift enable), each copy driving at most `maxFanout` bits.
  *
  * Why: one flip-flop whose output selects thousands of multiplexers is the critical path of a
  * post-synthesis STA, which buffers no register output (flow/synth.py's `buffer -N 16` runs inside
  * ABC, where flip-flop outputs are inputs): 43 ns of output transition at intfft_fermat64_folded_p4,
  * whose recovery buffer is 16 words of 200 bits. A layout flow's repair step would buffer the net;
  * duplicating the register is what a designer does in the RTL, and costs a few flip-flops.
  */
object FanoutReg {
  val maxFanout = 64

  /** Number of copies for `bits` sinks. */
  def copies(bits: Int): Int = (bits + maxFanout - 1) / maxFanout

  /** `n` registered copies of `d` (reset to 0), each a separate flip-flop after synthesis. */
  def apply(d: Bool, n: Int): IndexedSeq[Bool] = (0 until n).map { _ =>
    val r = new KeepDff
    r.io.d := d
    r.io.q
  }
}
