"""flow/sta.py: the critical path from one OpenSTA run, with half-cycle paths counted as such.

An OpenRAM macro drives dout1 after the falling edge of clk1 (its Liberty), so a path from it to a
rising-edge register has half the period: it needs a clock of twice its delay, not period - slack.
The oracle is arithmetic on the report's own figures (the data arrival and required times), not
the parser's formula: a parser that takes period - worst slack fails the first test.
"""
import re
import shutil
import subprocess

import pytest

from pdk import find_pdk, sram_views
from sta import DRIVE_CELL, TCL, edge_groups, parse_sta

MACRO = "sky130_sram_1kbyte_1rw1r_32x256_8"

# The SRAM macro's read data through a buffer into a rising-edge flip-flop (fall -> rise, half a
# cycle), and a flip-flop through four buffers into another (rise -> rise, a whole one).
NETLIST = f"""module halfcycle (clk, q, r);
  input clk; output q; output r;
  wire [31:0] d; wire x, y1, y2, y3, y4, s;
  {MACRO} m (.clk0(clk), .csb0(1'b1), .web0(1'b1), .wmask0(4'b0), .addr0(8'b0), .din0(32'b0),
             .clk1(clk), .csb1(1'b0), .addr1(8'b0), .dout1(d));
  sky130_fd_sc_hd__buf_1 b (.A(d[0]), .X(x));
  sky130_fd_sc_hd__dfxtp_1 f (.CLK(clk), .D(x), .Q(q));
  sky130_fd_sc_hd__dfxtp_1 g (.CLK(clk), .D(r), .Q(s));
  sky130_fd_sc_hd__buf_1 c1 (.A(s), .X(y1));
  sky130_fd_sc_hd__buf_1 c2 (.A(y1), .X(y2));
  sky130_fd_sc_hd__buf_1 c3 (.A(y2), .X(y3));
  sky130_fd_sc_hd__buf_1 c4 (.A(y3), .X(y4));
  sky130_fd_sc_hd__dfxtp_1 h (.CLK(clk), .D(y4), .Q(r));
endmodule
"""


def block(launch, capture, slack, start="a", end="b"):
    return (f"modforge-edges {launch} {capture}\nStartpoint: {start}\nEndpoint: {end}\n"
            f"-------\n   {slack:.4f}   slack (VIOLATED)\n\n")


def test_half_cycle_path_needs_twice_its_delay():
    # polymul_4096_62_s1_w32's report at 0.25 ns: rise -> rise -6.9357, fall -> rise -5.1075
    text = (block("rise", "rise", -6.9357, "reg", "m0") + block("fall", "rise", -5.1075, "m3", "m0") +
            "modforge-edges rise fall\nNo paths found.\nmodforge-edges fall fall\nNo paths found.\nwns -6.9357\n")
    g = {(x["launch"], x["capture"]): x for x in edge_groups(text, 0.25)}
    assert set(g) == {("rise", "rise"), ("fall", "rise")}
    assert g[("rise", "rise")]["needs_ns"] == pytest.approx(7.1857)
    # launched at 0.125, required at 0.25: delay 5.2325 in half a period -> 10.465
    assert g[("fall", "rise")]["needs_ns"] == pytest.approx(2 * (5.1075 + 0.125))


def test_whole_cycle_paths_are_period_minus_slack():
    text = block("rise", "rise", -3.0) + "modforge-edges fall rise\nNo paths found.\n"
    (g,) = edge_groups(text, 0.25)
    assert g["needs_ns"] == pytest.approx(3.25)


@pytest.mark.skipif(shutil.which("sta") is None, reason="OpenSTA (`sta`) is not on PATH (apt-get install opensta)")
def test_opensta_half_cycle_path(tmp_path):
    pdk = find_pdk()
    (tmp_path / "h.v").write_text(NETLIST)
    period = 0.25
    tcl = tmp_path / "h.tcl"
    tcl.write_text(f"read_liberty {sram_views(pdk, MACRO).lib_tt}\n" +
                   TCL.format(lib=pdk.liberty("tt_025C_1v80"), netlist=tmp_path / "h.v", top="halfcycle",
                              period_ns=period, drive_cell=DRIVE_CELL))
    rpt = tmp_path / "h.log"
    with rpt.open("w") as f:
        p = subprocess.run(["sta", "-no_splash", "-exit", str(tcl)], stdout=f, stderr=subprocess.STDOUT)
    t = parse_sta("halfcycle", "tt_025C_1v80", p.returncode, rpt, period)
    text = rpt.read_text()
    # The oracle: the fall -> rise block's own arrival and required times. Launched at period/2, the
    # path's delay (arrival - period/2) plus setup (period - required) must fit in half a clock.
    fr = text.split("modforge-edges fall rise")[1].split("modforge-edges")[0]
    times = [float(x) for x in re.findall(r"^\s*(-?[\d.]+)\s+data (?:arrival|required) time", fr, re.M)]
    arrival, required = times[0], times[1]
    delay_and_setup = (arrival - period / 2) + (period - required)
    assert t["edges"] == "fall -> rise" and t["startpoint"] == "m"
    assert t["critical_path_ns"] == pytest.approx(2 * delay_and_setup, abs=2e-4)
    wns = float(re.search(r"^wns (-?[\d.]+)", text, re.M).group(1))
    assert t["critical_path_ns"] > period - wns  # what the flow said before 2026-11-26


def test_retime_refuses_a_design_without_its_netlist(tmp_path, monkeypatch):
    import layout
    import retime
    from pdk import FlowError
    monkeypatch.setattr(layout, "BUILD", tmp_path)
    with pytest.raises(FlowError, match=r"no netlist of its current RTL .*Fix: flow/harden.py polymul_64_30_s2"):
        retime.retime("polymul_64_30_s2", pdk=None)
    assert not any(tmp_path.iterdir())  # nothing written
