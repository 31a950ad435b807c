"""modforge.FanoutReg (hw/src/main/scala/modforge/FanoutReg.scala): its copies of a control register
must stay separate flip-flops through Yosys, or the fanout they exist to split comes back.

The module's Verilog is read from the Scala source (the inline text SpinalHDL emits), so the test
follows the generator. Two copies with the same input are synthesized with `synth -flatten`; the
same module without the attribute is the control, which Yosys's opt_merge folds into one.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCALA = ROOT / "hw/src/main/scala/modforge/FanoutReg.scala"

pyosys = pytest.importorskip("pyosys")


def keep_dff_verilog():
    text = SCALA.read_text()
    m = re.search(r'setInlineVerilog\(\s*"""(.*?)"""\.stripMargin', text, re.S)
    assert m, f"no setInlineVerilog text in {SCALA}"
    return "\n".join(re.sub(r"^\s*\|", "", l) for l in m.group(1).splitlines())


TOP = """
module top(input clk, input reset, input a, input [127:0] x, input [127:0] y, output [127:0] o);
  wire q0, q1;
  modforge_keep_dff u0(.clk(clk), .reset(reset), .d(a), .q(q0));
  modforge_keep_dff u1(.clk(clk), .reset(reset), .d(a), .q(q1));
  assign o[63:0] = q0 ? x[63:0] : y[63:0];
  assign o[127:64] = q1 ? x[127:64] : y[127:64];
endmodule
"""


def flip_flops(verilog, tmp_path):
    from pyosys import libyosys as ys
    src = tmp_path / "keep.v"
    src.write_text(verilog + TOP)
    d = ys.Design()
    ys.run_pass(f"read_verilog {src}; synth -flatten -top top", d)
    top = d.top_module()
    return sum(1 for c in top.cells_.values() if "DFF" in c.type.str())


def test_copies_stay_separate(tmp_path):
    assert flip_flops(keep_dff_verilog(), tmp_path) == 2


def test_control_without_keep_merges(tmp_path):
    # Shows that the test above can fail: the attribute is what keeps the copies apart.
    assert flip_flops(keep_dff_verilog().replace("(* keep *)", ""), tmp_path) == 1
