// FPGA model of the SKY130 integrated clock gate sky130_fd_sc_hd__dlclkp_4 for ECP5 (flow/fpga.py;
// read only when the design instantiates the cell).
//
// Why: modforge.ClockGate (hw/.../ClockGate.scala) instantiates this ASIC cell under `ifdef SYNTHESIS,
// and Yosys defines SYNTHESIS, so without a model synth_ecp5 meets an unknown cell. The generated
// Verilog stays as the ASIC flow has it; only the cell is replaced, with the same ports.
//
// The cell: GCLK = CLK in the cycles whose GATE, held by a latch transparent while CLK is low, was 1
// at the rising edge; glitch-free. ECP5's clock enable buffer is DCCA (CLKI, CE, CLKO; Yosys
// techlibs/ecp5/cells_bb.v, a black box there), which drives a primary clock. Neither Yosys nor
// nextpnr says when DCCA samples CE: nextpnr-ecp5 (ecp5/arch.cc) times CLKI -> CLKO as a zero-delay
// arc and leaves CE untimed. So CE comes from a register on the falling edge of CLK: it changes only
// while CLK is low and holds through the rising edge, which is glitch-free whether DCCA gates
// combinationally (an AND) or samples CE before the rising edge (as Xilinx's BUFGCE does), and the
// path from GATE is timed (half a cycle, rise to fall). Only `enable` -> CE, one net, is untimed.
// A negative-level latch is the cell's own structure, but synth_ecp5 maps a latch to a LUT that feeds
// itself (Yosys techlibs/lattice/latches_map.v): a combinational loop, untimed and not glitch-free.
// The difference from the cell: GATE must settle by the falling edge instead of the rising one, and
// nextpnr checks that (the path into `enable`).
//
// ECP5_IS_GLOBAL on the output: nextpnr-ecp5 routes a DCCA's output onto a primary clock itself
// (ecp5/globals.cc, route_globals), and the routers must then leave that net alone (is_global). Out of
// context (as flow/fpga.py runs) promote_globals sets is_global without the net attribute that it
// sets in context, and Arch::route resets is_global from that attribute just before routing
// (ecp5/arch.cc, assignArchInfo in ecp5/pack.cc): the router then takes on the half-routed global and
// fails (nextpnr 0.11.1: router1 traps without a message in the WebAssembly build; router2 "Failed to
// route arc 0.0 of net"). With the attribute set here, the net stays global.
module sky130_fd_sc_hd__dlclkp_4 (input CLK, input GATE, (* ECP5_IS_GLOBAL = 1 *) output GCLK);
  reg enable = 1'b0;
  always @(negedge CLK) enable <= GATE;
  DCCA icg (.CLKI(CLK), .CE(enable), .CLKO(GCLK));
endmodule
