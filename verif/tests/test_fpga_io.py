"""flow/fpga.py --io pins: the top it writes must keep every narrow port of the design on a pin of
its own, feed the inputs wider than 64 bits from one shift register (io_sin, io_shift) bit for bit,
and leave the clock a pin, so that nextpnr promotes it to the global network. A design without `clk`,
or with more narrow ports than the wrapper has pins, is refused with the fix.

The design here is a small hand-written one in SpinalHDL's port style (`input  wire [99:0] x,`),
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

RTL = """// Component : acc
module acc (
  input  wire          en,
  input  wire [99:0]   x,
  input  wire [7:0]    step,
  input  wire [69:0]   y,
  output wire [15:0]   count,
  input  wire          reset,
  input  wire          clk
);
  reg [15:0] r;
  assign count = r;
  always @(posedge clk or posedge reset) if (reset) r <= 16'd0; else if (en) r <= r + step + x[99:84] + y[15:0];
endmodule
"""


def wrap(tmp_path, rtl_text=RTL):
    rtl = tmp_path / "acc.v"
    rtl.write_text(rtl_text)
    return rtl, fpga.io_pins_top("acc", rtl, tmp_path)


def test_io_pins_top_keeps_narrow_ports_and_chains_wide_inputs(tmp_path):
    rtl, (top, wrapper, chain) = wrap(tmp_path)
    assert (top, chain) == ("acc_ecp5_io", 170)
    stat, net = tmp_path / "stat.json", tmp_path / "n.json"
    fpga.yosys([f"read_verilog {rtl}", f"read_verilog {wrapper}", f"synth_ecp5 -top {top} -json {net}",
                f"tee -q -o {stat} stat -json"], tmp_path / "yosys.log")
    mod = json.loads(net.read_text())["modules"][top]
    assert {n: (p["direction"], len(p["bits"])) for n, p in mod["ports"].items()} == {
        "en": ("input", 1), "step": ("input", 8), "count": ("output", 16), "reset": ("input", 1),
        "clk": ("input", 1), "io_sin": ("input", 1), "io_shift": ("input", 1)}
    # The accumulator's 16 flip-flops, plus the chain up to the highest bit it reads (y[15] is
    # chain[115]; every bit below shifts into it); all clocked by the clk pin.
    assert fpga.cell_counts(stat).get("TRELLIS_FF") == 16 + 116
    ffs = [c for c in mod["cells"].values() if c["type"] == "TRELLIS_FF"]
    assert {tuple(c["connections"]["CLK"]) for c in ffs} == {tuple(mod["ports"]["clk"]["bits"])}
    # Bit for bit: x is chain[99:0], y chain[169:100], in port order.
    text = wrapper.read_text()
    assert ".x(io_chain[99:0])" in text and ".y(io_chain[169:100])" in text


def test_io_pins_top_refuses_without_clk_or_with_too_many_pins(tmp_path):
    with pytest.raises(FlowError, match=r"no `clk` input on module acc.*Fix: use --io ooc"):
        wrap(tmp_path, RTL.replace("clk", "clock"))
    many = RTL.replace("  input  wire [7:0]    step,", "".join(f"  input  wire [63:0]   n{i},\n" for i in range(3)) + "  input  wire [7:0]    step,")
    with pytest.raises(FlowError, match=r"needs 2\d\d pins; the wrapper has 190\. Fix: use --io ooc"):
        wrap(tmp_path, many)
