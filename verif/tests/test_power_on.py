"""power_on.keep_bits: the paths of every one-bit keep register, from the generator's Verilog (the bench gives them 1
before the first edge under Verilator). A made-up file in the generator's style: a child module instantiated twice, a
wider keep register left alone, a module no one instantiates left out."""
import pytest

from power_on import keep_bits

VERILOG = """\
module top (
  input  wire clk
);
  Child a (
    .clk (clk)
  );
  Child b (
    .clk (clk)
  );
  modforge_keep_reg #(
    .W (1)
  ) keepReg (
    .clk (clk      ), //i
    .d   (keepReg_d), //i
    .q   (keepReg_q)  //o
  );
  modforge_keep_reg #(
    .W (4)
  ) keepReg_1 (
    .clk (clk        ), //i
    .d   (keepReg_1_d), //i
    .q   (keepReg_1_q)  //o
  );
  always @(posedge clk) begin
    if(reset) begin
      x <= 1'b0;
    end
  end
endmodule

module Child (
  input  wire clk
);
  modforge_keep_reg #(
    .W (1)
  ) keepReg_7 (
    .clk (clk), //i
    .d   (d  ), //i
    .q   (q  )  //o
  );
endmodule

module Unused (
  input  wire clk
);
  modforge_keep_reg #(
    .W (1)
  ) keepReg (
    .clk (clk), //i
    .d   (d  ), //i
    .q   (q  )  //o
  );
endmodule

module modforge_keep_reg #(parameter W = 1) (input wire clk, input wire [W-1:0] d, output reg [W-1:0] q);
  (* keep *) always @(posedge clk) q <= d;
endmodule
"""


def test_keep_bits(tmp_path):
    v = tmp_path / "top.v"
    v.write_text(VERILOG)
    assert sorted(keep_bits(v, "top")) == [("a", "keepReg_7"), ("b", "keepReg_7"), ("keepReg",)]


def test_keep_bits_names_a_missing_top(tmp_path):
    v = tmp_path / "top.v"
    v.write_text(VERILOG)
    with pytest.raises(ValueError, match="module other is not in"):
        keep_bits(v, "other")
