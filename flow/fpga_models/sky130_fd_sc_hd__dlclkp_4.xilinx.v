// FPGA model of the SKY130 integrated clock gate sky130_fd_sc_hd__dlclkp_4 for the Xilinx targets
// (flow/fpga.py, xc7 and xcup; read only when the design instantiates the cell).
//
// Why: modforge.ClockGate (hw/.../ClockGate.scala) instantiates this ASIC cell under `ifdef SYNTHESIS,
// and Yosys defines SYNTHESIS, so without a model synth_xilinx meets an unknown cell. The generated
// Verilog stays as the ASIC flow has it; only the cell is replaced, with the same ports.
//
// The cell: GCLK = CLK in the cycles whose GATE, held by a latch transparent while CLK is low, was 1
// at the rising edge; glitch-free. BUFGCE with its default CE_TYPE = "SYNC" is that function on the
// global clock network: CE is sampled before the rising edge of I (it must meet a setup time, as
// GATE does on the cell), a CE change while I is high takes effect only after I falls, and a
// disabled output stays low (UG572 / UG472, BUFGCE; UG974 / UG953: CE_TYPE "SYNC" = glitch-free).
// So no latch in front of CE. Ports as in Yosys's techlibs/xilinx/cells_xtra.v: BUFGCE(O, CE, I).
module sky130_fd_sc_hd__dlclkp_4 (input CLK, input GATE, output GCLK);
  BUFGCE icg (.I(CLK), .CE(GATE), .O(GCLK));
endmodule
