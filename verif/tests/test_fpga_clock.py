"""flow/fpga.py --clock global: the top it writes around a design must keep every port of the design
and put its clock, and only its clock, behind one DCCA, which is what makes nextpnr route the clock
on the global network out of context. A design without `clk` is refused with the fix.

The design here is a small hand-written counter in SpinalHDL's port style (`input  wire [7:0] x,`),
synthesized with synth_ecp5 through the flow's own Yosys call; no nextpnr run.
"""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "flow"))
pytest.importorskip("pyosys")
import fpga  # noqa: E402
from pdk import FlowError  # noqa: E402

RTL = """// Component : cnt
module cnt (
  input  wire          en,
  input  wire [7:0]    step,
  output wire [15:0]   count,
  input  wire          reset,
  input  wire          clk
);
  reg [15:0] r;
  assign count = r;
  always @(posedge clk or posedge reset) if (reset) r <= 16'd0; else if (en) r <= r + step;
endmodule
"""


def test_global_clock_top_keeps_ports_and_buffers_the_clock(tmp_path):
    rtl = tmp_path / "cnt.v"
    rtl.write_text(RTL)
    top, wrap = fpga.global_clock_top("cnt", rtl, tmp_path)
    assert top == "cnt_ecp5_top"
    stat = tmp_path / "stat.json"
    fpga.yosys([f"read_verilog {rtl}", f"read_verilog {wrap}", f"synth_ecp5 -top {top} -json {tmp_path / 'n.json'}",
                f"tee -q -o {stat} stat -json"], tmp_path / "yosys.log")
    cells = fpga.cell_counts(stat)
    assert cells.get("DCCA") == 1 and cells.get("TRELLIS_FF") == 16
    mod = json.loads((tmp_path / "n.json").read_text())["modules"][top]
    assert {n: (p["direction"], len(p["bits"])) for n, p in mod["ports"].items()} == {
        "en": ("input", 1), "step": ("input", 8), "count": ("output", 16), "reset": ("input", 1), "clk": ("input", 1)}
    # Every flip-flop's clock is the DCCA's output, and the DCCA's input is the port.
    dcca = next(c for c in mod["cells"].values() if c["type"] == "DCCA")
    assert dcca["connections"]["CLKI"] == mod["ports"]["clk"]["bits"]
    ffs = [c for c in mod["cells"].values() if c["type"] == "TRELLIS_FF"]
    assert {tuple(c["connections"]["CLK"]) for c in ffs} == {tuple(dcca["connections"]["CLKO"])}


def test_global_clock_top_refuses_a_design_without_clk(tmp_path):
    rtl = tmp_path / "cnt.v"
    rtl.write_text(RTL.replace("clk", "clock"))
    with pytest.raises(FlowError, match=r"no `clk` input on module cnt.*Fix: use --clock local"):
        fpga.global_clock_top("cnt", rtl, tmp_path)
