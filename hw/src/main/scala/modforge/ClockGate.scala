package modforge

import spinal.core._

/** An integrated clock gate: `gclk` is `clk` in the cycles whose `gate` was 1 at the rising edge
  * (a latch transparent while `clk` is low holds `gate`, then AND), so the registers on `gclk`
  * advance only in those cycles.
  *
  * Why a gate and not a load enable: a stall that holds a whole datapath (the streaming polymul's
  * [[polymul.StreamControl]] tick) would otherwise drive the enable pin of every flip-flop, 50,000
  * and more in a 1024-point engine; a post-synthesis STA, which buffers no such net, read it as
  * 2,584 ns (polymul_1024_19_s4, 2026-11-25). One gate drives one net, the clock's, which a layout
  * flow's clock-tree synthesis buffers, and which this flow's STA takes as ideal like every clock.
  * The flip-flops lose their enable multiplexers too.
  *
  * Synthesis (Yosys defines SYNTHESIS) maps it onto the library's gate, sky130_fd_sc_hd__dlclkp_4
  * (a Liberty `clock_gating_integrated_cell`, so OpenSTA checks `gate` against the clock); RTL
  * simulators run the latch-and-AND model, which is the cell's function.
  */
class ClockGate extends BlackBox {
  setDefinitionName("modforge_clock_gate")
  val io = new Bundle {
    val clk = in Bool ()
    val gate = in Bool ()
    val gclk = out Bool ()
  }
  noIoPrefix()
  setInlineVerilog(
    """module modforge_clock_gate (input wire clk, input wire gate, output wire gclk);
      |`ifdef SYNTHESIS
      |  sky130_fd_sc_hd__dlclkp_4 icg (.CLK(clk), .GATE(gate), .GCLK(gclk));
      |`else
      |  reg enable;
      |  /* verilator lint_off LATCH */
      |  always @(clk or gate) if (!clk) enable = gate;
      |  /* verilator lint_on LATCH */
      |  assign gclk = clk & enable;
      |`endif
      |endmodule
      |""".stripMargin)
}

object ClockGate {
  /** The current clock domain with its clock gated by `gate` (same reset and configuration). */
  def domain(gate: Bool): ClockDomain = {
    val g = new ClockGate
    g.io.clk := ClockDomain.current.readClockWire
    g.io.gate := gate
    val gated = ClockDomain.current.copy(clock = g.io.gclk)
    // Same clock, edges removed: registers of either domain read each other's as any synchronous pair.
    gated.setSynchronousWith(ClockDomain.current)
    gated
  }
}
