package modforge

import spinal.core._

/** A register of `width` bits that synthesis keeps as its own flip-flops
  * (`(* keep *)` on its always block, as [[KeepDff]]): identical registers are not merged into one.
  *
  * Why: a twiddle register that feeds a multiplier's partial products has one load per product row;
  * when Yosys merges the identical twiddle registers of several multipliers (the two forward NTT
  * pipelines of the streaming polymul read the same tables), one flip-flop drives hundreds of
  * loads, which a post-synthesis STA reads as a 5 ns output transition (it buffers no register
  * output; see [[FanoutReg]]). One copy per multiplier is what a designer does in the RTL.
  * The enable is the enclosing clock domain's (none: always loads).
  */
class KeepReg(width: Int) extends BlackBox {
  addGeneric("W", width)
  setDefinitionName("modforge_keep_reg")
  val io = new Bundle {
    val clk = in Bool ()
    val d = in UInt (width bits)
    val q = out UInt (width bits)
  }
  noIoPrefix()
  require(ClockDomain.current.clockEnable == null, "KeepReg: a clock domain with an enable; gate its clock instead (ClockGate)")
  mapCurrentClockDomain(clock = io.clk)
  setInlineVerilog(
    """module modforge_keep_reg #(parameter W = 1) (input wire clk, input wire [W-1:0] d, output reg [W-1:0] q);
      |  (* keep *) always @(posedge clk) q <= d;
      |endmodule
      |""".stripMargin)
}

object KeepReg {
  def apply(d: UInt): UInt = {
    val r = new KeepReg(d.getWidth)
    r.io.d := d
    r.io.q
  }
}
