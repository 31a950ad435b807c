"""The layout stage (flow/pnr.py, flow/eda.py, flow/gds_fix.py, flow/reports/pnr_table.py).

Unit checks always run: the tool lookup's order and refusals, the GDS boundary fix, the target
clock, the post-route critical path per corner, the report's signoff columns. One real layout runs
where OpenROAD, Magic, Netgen and KLayout are found: `mul_8` (about 320 cells) from RTL through
synthesis and the Classic flow to a GDS, which must be DRC-, LVS- and antenna-clean, and whose routed netlist
must pass its bench (verif/bench/product_bench.py). Without the
tools that test is skipped, saying which are missing and how to get them.
"""
import json
import os
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

import eda
import gds_fix
import pnr
from pdk import CORNERS

ROOT = Path(__file__).resolve().parents[2]

LAYOUT_DESIGN = "mul_8"  # the smallest registry design: its flow takes under 5 minutes (docs/flow.md)


# ---- the tool lookup ----

def _exe(path: Path, text: str) -> Path:
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(0o755)
    return path


def test_lookup_env_first_then_path_then_default(tmp_path, monkeypatch):
    named = _exe(tmp_path / "my-openroad", "echo named\n")
    on_path = tmp_path / "bin"
    on_path.mkdir()
    _exe(on_path / "openroad", "echo path\n")
    monkeypatch.setenv("PATH", f"{on_path}:/usr/bin:/bin")
    monkeypatch.setenv("OPENROAD_EXE", str(named))
    assert eda.find_layout_tools().found["openroad"] == named
    monkeypatch.delenv("OPENROAD_EXE")
    assert eda.find_layout_tools().found["openroad"] == on_path / "openroad"


def test_lookup_named_but_absent_is_missing_with_a_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENROAD_EXE", str(tmp_path / "nothing"))
    t = eda.find_layout_tools()
    assert not t.complete and "openroad" in t.missing and "$OPENROAD_EXE" in t.missing["openroad"]
    assert "OpenROAD" in t.how_to_get()


def test_lookup_passes_over_an_old_magic(tmp_path, monkeypatch):
    old = _exe(tmp_path / "magic", "echo 8.3.105\n")
    monkeypatch.setenv("MAGIC_EXE", str(old))
    t = eda.find_layout_tools()
    assert "magic" not in t.found and "too old" in t.missing["magic"]
    new = _exe(tmp_path / "magic2", "echo 8.3.623\n")
    monkeypatch.setenv("MAGIC_EXE", str(new))
    assert eda.find_layout_tools().found["magic"] == new


def test_layout_env_links_tools_and_openroads_sta(tmp_path):
    ordir = tmp_path / "or"
    ordir.mkdir()
    openroad = _exe(ordir / "openroad-x", "true\n")
    _exe(ordir / "sta", "true\n")
    t = eda.LayoutTools(found={"openroad": openroad})
    env = eda.layout_env(t, sys.executable, tmp_path / "shim")
    first = env["PATH"].split(os.pathsep)[0]
    assert first == str(tmp_path / "shim")
    assert (tmp_path / "shim" / "openroad").resolve() == openroad.resolve()
    assert (tmp_path / "shim" / "sta").resolve() == (ordir / "sta").resolve()  # not Debian's 2019 sta
    assert str(eda.YOSYS_LAUNCHER_DIR) in env["PATH"].split(os.pathsep)


def test_yosys_launcher_runs_commands_and_refuses_tcl(tmp_path):
    launcher = ROOT / "flow" / "bin" / "yosys"
    env = {**os.environ, "MODFORGE_PYTHON": sys.executable}
    v = tmp_path / "m.v"
    v.write_text("module m(input a, output y); assign y = ~a; endmodule\n")
    out = tmp_path / "bb.v"
    p = subprocess.run([str(launcher), "-p", f"read_verilog {v}; blackbox; write_verilog -blackboxes {out}"],
                       env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "module m" in out.read_text() and "assign" not in out.read_text()
    script = tmp_path / "s.py"
    script.write_text("import sys\nprint('args', sys.argv[1:])\n")
    p = subprocess.run([str(launcher), "-y", str(script), "-Q", "--", "--x", "1"], env=env, capture_output=True, text=True)
    assert p.returncode == 0 and "args ['--x', '1']" in p.stdout
    p = subprocess.run([str(launcher), "-c", "x.tcl"], env=env, capture_output=True, text=True)
    assert p.returncode == 2 and "unsupported" in p.stderr


# ---- the GDS boundary fix ----

def _rec(rtype, dtype, body=b""):
    return struct.pack(">HBB", len(body) + 4, rtype, dtype) + body


def _gds(points):
    xy = struct.pack(f">{len(points)}i", *points)
    return (_rec(0x06, 0x06, b"cell") + _rec(0x08, 0x00) + _rec(0x0D, 0x02, b"\0\x01") + _rec(0x10, 0x03, xy)
            + _rec(0x11, 0x00) + _rec(0x04, 0x00))


def test_gds_fix_closes_an_open_boundary_only():
    open_box = _gds([0, -85, 5520, -85, 5520, 85, 0, 85, 0, 0])  # the PDK subset's decap_12 boundary
    fixed, fixes = gds_fix.close_boundaries(open_box)
    assert fixes == [{"cell": "cell", "offset": len(_rec(0x06, 0x06, b"cell")) + 4 + 6, "points": 5}]
    xy = fixed[fixed.index(struct.pack(">BB", 0x10, 0x03)) + 2:]
    pts = struct.unpack(">12i", xy[:48])
    assert pts[:2] == pts[-2:] == (0, -85)
    closed = _gds([0, 0, 10, 0, 10, 10, 0, 0])
    assert gds_fix.close_boundaries(closed) == (closed, [])


# ---- the figures ----

def test_target_clock_is_the_slow_corner_rounded_up():
    m = {"critical_path_ns__corner": {CORNERS[0]: 6.52, pnr.LAYOUT["clock"]["corner"]: 13.2001}}
    assert pnr.target_period_ns(m) == 13.3
    m["critical_path_ns__corner"][pnr.LAYOUT["clock"]["corner"]] = 13.2
    assert pnr.target_period_ns(m) == 13.2


def test_corner_figures_take_the_worst_rc_corner():
    final = {f"timing__setup__ws__corner:{rc}_{CORNERS[0]}": ws for rc, ws in (("nom", 6.0), ("max", 5.5), ("min", 6.2))}
    final.update({f"timing__hold__ws__corner:nom_{CORNERS[0]}": 0.3})
    c = pnr.corner_figures(final, 13.3)
    final[f"timing__setup_r2r__ws__corner:max_{CORNERS[0]}"] = 6.5
    c = pnr.corner_figures(final, 13.3)
    assert c[CORNERS[0]] == {"setup_ws_ns": 5.5, "hold_ws_ns": 0.3, "critical_path_ns": 7.8, "critical_path_r2r_ns": 6.8}
    assert CORNERS[1] not in c  # absent, not invented


HALF_CYCLE_REPORT = """Startpoint: bank.macro (rising edge-triggered flip-flop clocked by clk)
Endpoint: units_0.carry_reg (rising edge-triggered flip-flop clocked by clk)
          0.000000    0.000000   clock clk (rise edge)
          9.000000    9.000000   data arrival time
         15.400000   15.400000   clock clk (fall edge)
          0.500000   slack (MET)

Startpoint: in_b[3] (input port clocked by clk)
Endpoint: q_reg (rising edge-triggered flip-flop clocked by clk)
          0.000000    0.000000   clock clk (fall edge)
         30.800000   30.800000   clock clk (rise edge)
         -0.200000   slack (VIOLATED)

Startpoint: a_reg (rising edge-triggered flip-flop clocked by clk)
Endpoint: b_reg (rising edge-triggered flip-flop clocked by clk)
          0.000000    0.000000   clock clk (rise edge)
         30.800000   30.800000   clock clk (rise edge)
         -1.000000   slack (VIOLATED)
"""


def test_half_cycle_paths_need_twice_their_slack():
    import sta
    h = sta.half_cycle_worst(HALF_CYCLE_REPORT)
    assert h == {"ws_ns": -0.2, "ws_r2r_ns": 0.5, "full_ws_ns": -1.0, "full_ws_r2r_ns": -1.0, "paths": 2}
    corner = CORNERS[1]
    final = {f"timing__setup__ws__corner:nom_{corner}": -1.0, f"timing__setup_r2r__ws__corner:nom_{corner}": -1.0}
    c = pnr.corner_figures(final, 30.8, {corner: h})[corner]
    # like edges: 30.8 + 1.0; the input's half-cycle path: 30.8 + 2 x 0.2 = 31.2 < 31.8; r2r: the
    # macro's half-cycle path 30.8 - 2 x 0.5 = 29.8 against the like-edge r2r 31.8
    assert c["critical_path_ns"] == 31.8 and c["critical_path_r2r_ns"] == 31.8
    # the worst path a half-cycle one (the SRAM tile, 2026-11-28): period - slack would count its half
    # period twice; its need is period - 2 slack, and the like-edge paths' own worst decides the rest
    tile = {"ws_ns": 5.05, "ws_r2r_ns": 5.05, "full_ws_ns": 20.74, "full_ws_r2r_ns": 20.74, "paths": 160}
    final = {f"timing__setup__ws__corner:nom_{corner}": 5.05, f"timing__setup_r2r__ws__corner:nom_{corner}": 5.05}
    c = pnr.corner_figures(final, 30.8, {corner: tile})[corner]
    assert c["critical_path_ns"] == 20.7 and c["critical_path_r2r_ns"] == 20.7
    tile.update(ws_ns=-2.82, ws_r2r_ns=-2.82)
    c = pnr.corner_figures({**final, f"timing__setup__ws__corner:nom_{corner}": -2.82}, 30.8, {corner: tile})[corner]
    assert c["critical_path_ns"] == 36.44


def test_report_sums_drc_and_absent_stays_absent():
    from reports import pnr_table
    assert pnr_table.drc_total({"route__drc_errors": 0, "magic__drc_error__count": 2, "klayout__drc_error__count": 1}) == 3
    assert pnr_table.drc_total({"route__drc_errors": 0, "magic__drc_error__count": None,
                                "klayout__drc_error__count": 0}) is None


def test_runtime_model_recovers_its_laws_and_says_where_a_limit_stops():
    """The two laws (detailed routing, the other steps) come back from runs made with them; a design with macros
    is not fitted; the step a 2.5 h limit stops in follows from the laws and the share before routing."""
    from reports import pnr_runtime, pnr_table
    routing = lambda c: 300 + 5e-6 * c ** 2.0
    other = lambda c: 170 + 1.3e-3 * c ** 1.4
    steps = lambda c: {"a": {"wall_s": 0.25 * other(c)}, pnr_table.ROUTING_STEP: {"wall_s": routing(c)},
                       "b": {"wall_s": 0.75 * other(c)}}
    runs = [{"design": f"d{c}", "_m": {"steps": steps(c)}, "synth_cells": c, "runtime_s": routing(c) + other(c),
             "detailed_routing_s": routing(c)} for c in (1200, 6000, 8000, 11000, 12500, 29000, 42000)]
    # a design with macros: its die, not its cells, sets its time; listed, not fitted
    runs.append({"design": "tile", "_m": {"macro_count": 4, "steps": {}}, "synth_cells": 2000, "runtime_s": 9000,
                 "detailed_routing_s": 8000})
    model = pnr_table.fit_runtime(runs)
    assert [r["design"] for r in model["runs"]] == [r["design"] for r in runs[:-1]]
    assert model["routing"]["b"] == 2.0 and abs(model["routing"]["t0"] - 300) < 1e-3
    assert model["other"]["b"] == 1.4 and abs(model["other"]["t0"] - 170) < 1e-3
    assert model["flow_rms_rel"] < 1e-9 and abs(model["pre_share"] - 0.25) < 1e-12
    assert abs(model["flow"](model["budget_cells"]) - pnr_table.BUDGET_H * 3600) < 1
    budget = 9000
    assert pnr_runtime.stop_step(8000, 6000, 0.5, budget) is None
    assert pnr_runtime.stop_step(11000, 6000, 0.5, budget) == "the checks after detailed routing"  # routing ends at 8500
    assert pnr_runtime.stop_step(12000, 7000, 0.5, budget) == "detailed routing"  # it starts at 2500, ends at 9500
    assert pnr_runtime.stop_step(40000, 10000, 0.5, budget) == "before detailed routing"  # it starts at 15000
    assert pnr_runtime.fit([(1000, 10)]) is None  # one cell count: no fit


def test_a_stopped_run_is_checked_against_the_model_at_its_own_limit():
    """A run its time limit stopped is classed by the step it was in and compared with where the model says a run of
    that limit stops: a stop before routing where the model expects routing is reported as a disagreement."""
    from reports import pnr_runtime, pnr_table
    assert pnr_runtime.stopped_class("OpenROAD.DetailedRouting", {"openroad-cts": {}}) == "detailed routing"
    assert pnr_runtime.stopped_class("OpenROAD.ResizerTimingPostCTS", {"openroad-cts": {}}) == "before detailed routing"
    assert (pnr_runtime.stopped_class("Magic.DRC", {"openroad-detailedrouting": {}})
            == "the checks after detailed routing")
    model = {"pre_share": 0.5}
    # flow 40000 s, routing 30000 s: the other steps 10000, half before routing; a 9000 s limit stops in routing
    a = {"step": "OpenROAD.DetailedRouting", "limit_s": 9000, "steps_finished": {"openroad-cts": {}},
         "load_1m": {"mean": 2.1, "max": 3.0}}
    assert "model says detailed routing: agrees; load 2.1 mean" in pnr_table.stop_agreement(model, 40000, 30000, a)
    a["step"] = "OpenROAD.ResizerTimingPostCTS"
    assert "**does not agree** (before detailed routing)" in pnr_table.stop_agreement(model, 40000, 30000, a)
    assert pnr_table.stop_agreement(model, 40000, 30000, None) == ""


# ---- one real layout ----

def _tools_or_skip():
    t = eda.find_layout_tools()
    if not t.complete:
        pytest.skip("layout tools missing, so no place and route here: " + t.how_to_get().replace("\n", " "))
    return t


def test_layout_of_a_small_design_is_clean():
    """mul_8 from its RTL (make test generates it) through synthesis and the Classic flow to a GDS."""
    _tools_or_skip()
    import layout
    if not layout.manifest(LAYOUT_DESIGN).exists():
        pytest.skip(f"{LAYOUT_DESIGN}'s RTL is not generated (make test generates it)")
    t0 = time.monotonic()
    subprocess.run([sys.executable, str(ROOT / "flow" / "harden.py"), LAYOUT_DESIGN], check=True)
    subprocess.run([sys.executable, str(ROOT / "flow" / "pnr.py"), LAYOUT_DESIGN, "--tools", "on"], check=True)
    wall = time.monotonic() - t0
    m = json.loads((layout.design_dir(LAYOUT_DESIGN) / "pnr" / "metrics.json").read_text())
    assert m["signoff"] == {k: 0 for k in pnr.LAYOUT["signoff"]}, m["signoff"]
    assert m["signoff_clean"]
    gds = layout.design_dir(LAYOUT_DESIGN) / "pnr" / m["views"]["gds"]
    assert gds.stat().st_size > 100_000
    for corner in CORNERS:
        cp = m["corners"][corner]["critical_path_ns"]
        assert 0 < cp < 3 * m["post_synthesis"]["critical_path_ns__corner"][corner]
        assert m["corners"][corner]["hold_ws_ns"] >= 0
    assert m["cells"] >= m["post_synthesis"]["cells"]  # buffers, taps and the clock tree come on top
    # The routed netlist still computes a*b (what layout changed: buffers, resizing, the clock tree, diodes):
    # its bench (product_bench) at gate level, without every pair (tests/test_product.py runs those at RTL).
    from runner import run_gls
    run_gls(LAYOUT_DESIGN, ops=300, routed=True, extra_env={"MODFORGE_PRODUCT_ALL": "0"})
    # make test runs this beside two other chains: the time is reported, not asserted (alone: reports/pnr.md)
    print(f"{LAYOUT_DESIGN}: synthesis and layout in {wall:.0f} s (the layout alone {m['runtime_s']:.0f} s)")


def _layout_metrics() -> dict:
    """A finished layout's metrics.json as flow/pnr.py writes it: clean, 5.0 / 6.0 / 7.0 ns post-route."""
    return {"signoff": {k: 0 for k in pnr.LAYOUT["signoff"]}, "signoff_clean": True, "cells": 100,
            "stdcell_area_um2": 900.0, "die_area_um2": 3000.0,
            "core_area_um2": 2500.0, "utilization": 0.36, "clock_period_ns": 13.3, "wns_ns": -0.4,
            "corners": {c: {"critical_path_ns": 5.0 + i, "setup_ws_ns": 1.0, "hold_ws_ns": 0.2} for i, c in enumerate(CORNERS)},
            "macros_as_abstracts": False, "runtime_s": 250.0, "peak_mem_gb": 0.6, "tools": {"OpenROAD": "dcf36133a369"},
            "post_synthesis": {"cells": 90, "area_um2": 800.0, "critical_path_ns__corner": {c: 4.0 for c in CORNERS}},
            "steps": {},
            "librelane_metrics": {**{f"timing__setup__ws__corner:nom_{c}": 13.3 - (5.0 + i) for i, c in enumerate(CORNERS)},
                                  **{f"timing__setup_r2r__ws__corner:nom_{c}": 13.3 - (4.0 + i) for i, c in enumerate(CORNERS)}}}


def test_scale_takes_the_largest_engine_laid_out_and_the_winners_cells(tmp_path, monkeypatch):
    """Issue 42, item 7: the largest finished engine layout (a stopped one is not laid out); the (1024, 19) winner's
    cells from its synthesis record where at hand, else its standard cells' area (macros out) at that engine's area
    per cell, named an estimate; the model's flow time for them."""
    import layout
    import registry
    from reports import pnr_table
    monkeypatch.setattr(layout, "BUILD", tmp_path / "build")
    monkeypatch.setattr(pnr_table, "REPORTS", tmp_path)
    (tmp_path / "polymul_best.csv").write_text(
        "n,logq,design,area_mm2,macro_mm2\n1024,19,polymul_w,3.0,1.0\n2048,33,polymul_x,9.0,0.0\n")
    rows = [{"design": "polymul_a", "status": "signoff clean", "synth_cells": "1000", "synth_area_um2": "10000"},
            {"design": "mpoly_b", "status": "stopped in OpenROAD.DetailedRouting", "synth_cells": "90000"},
            {"design": "gshoup_256", "status": "signoff clean", "synth_cells": "500000", "synth_area_um2": "1"},
            {"design": "polymul_c", "status": "signoff clean", "synth_cells": "2000", "synth_area_um2": "40000"}]
    family = {"polymul_a": "polymul", "mpoly_b": "multipass", "gshoup_256": "gshoup", "polymul_c": "polymul"}
    monkeypatch.setattr(registry, "describe_many", lambda names: {n: {"family": family[n]} for n in names})
    model = {"flow": lambda c: 2 * c, "routing": {"t0": 0.0, "a": 1.0, "b": 1.0}}
    sc = pnr_table.scale(rows, model)
    assert sc["largest"]["design"] == "polymul_c" and sc["winner"] == "polymul_w"
    assert sc["winner_cells"] == 2e6 / 20 and sc["winner_cells_from"].startswith("estimated: 2.00 mm")
    assert sc["winner_flow_s"] == 2e5
    (tmp_path / "synth").mkdir()
    (tmp_path / "synth" / "polymul_w.json").write_text(json.dumps({"metrics": {"design__instance__count": 1234}}))
    sc = pnr_table.scale(rows, model)
    assert sc["winner_cells"] == 1234 and sc["winner_cells_from"] == "reports/synth/polymul_w.json"
    assert pnr_table.scale(rows[1:3], model) is None and pnr_table.scale(rows, None) is None


def test_report_rows_of_a_layout_and_of_a_stopped_one(tmp_path, monkeypatch):
    import layout
    from reports import pnr_table
    monkeypatch.setattr(layout, "BUILD", tmp_path)
    monkeypatch.setattr(pnr_table, "REPORTS", tmp_path / "reports")  # nothing kept, nothing carried over
    done = tmp_path / "a_32" / "pnr"
    done.mkdir(parents=True)
    m = _layout_metrics()
    (done / "metrics.json").write_text(json.dumps(m))
    stopped = tmp_path / "b_256" / "pnr_attempts"
    stopped.mkdir(parents=True)
    (stopped / "20261128T100000.json").write_text(json.dumps(
        {"step": "OpenROAD.DetailedRouting", "runtime_s": 9000.0, "limit_s": 9000.0, "synth_cells": 500000,
         "peak_mem_gb": 7.5, "openroad_commit": "dcf36133", "clock_period_ns": 80.0}))
    assert pnr_table.designs_with_results() == ["a_32", "b_256"]
    assert pnr_table.layout_status("a_32") == "signoff clean"
    assert pnr_table.layout_status("b_256") == "stopped in OpenROAD.DetailedRouting after 9000 s"
    assert pnr_table.layout_status("c_64") == "no layout run"
    assert pnr_table.post_route("a_32") == (5.0, 900.0) and pnr_table.post_route("b_256") is None
    r = pnr_table.row("a_32")
    assert (r["drc_violations"], r["lvs_errors"], r["antenna_violations"], r["cp_ss_ns"]) == (0, 0, 0, 6.0)
    assert r["cp_r2r_ss_ns"] == 5.0
    m["signoff"]["magic__drc_error__count"], m["signoff_clean"] = 3, False
    (done / "metrics.json").write_text(json.dumps(m))
    r = pnr_table.row("a_32")
    assert r["status"] == "NOT clean" and r["drc_violations"] == 3
    assert pnr_table.row("b_256")["status"].startswith("stopped in OpenROAD.DetailedRouting")
    # a hold violation at one corner is named in the status (LibreLane's hold checker ends the run with it)
    m["signoff"]["magic__drc_error__count"], m["signoff_clean"] = 0, True
    m["hold_wns_ns"], m["corners"][CORNERS[1]]["hold_ws_ns"] = -0.689, -0.689
    (done / "metrics.json").write_text(json.dumps(m))
    assert pnr_table.layout_status("a_32") == f"signoff clean; hold violated by 0.689 ns at {CORNERS[1]}"
    # where LibreLane's register-to-register hold metrics are kept, the status says which kind of path fails
    m["librelane_metrics"] = {f"timing__hold_r2r__ws__corner:nom_{c}": 0.2 + i for i, c in enumerate(CORNERS)}
    m["librelane_metrics"][f"timing__hold_r2r__ws__corner:max_{CORNERS[2]}"] = 0.109
    (done / "metrics.json").write_text(json.dumps(m))
    assert pnr_table.layout_status("a_32") == (f"signoff clean; hold violated by 0.689 ns at {CORNERS[1]} on paths from "
                                               "or to ports only; register to register at least +0.109 ns at every corner")
    m["librelane_metrics"][f"timing__hold_r2r__ws__corner:min_{CORNERS[1]}"] = -0.25
    (done / "metrics.json").write_text(json.dumps(m))
    assert pnr_table.layout_status("a_32").endswith("(register to register too: -0.250 ns)")


def test_a_run_beside_other_work_does_not_replace_a_kept_run_alone(tmp_path, monkeypatch):
    """make test lays out mul_8 beside two other chains: that run (load above the cores) must not replace the kept
    layout run alone of the same RTL, clock and settings, nor overwrite its kept record; a quiet rerun does."""
    import layout
    from reports import pnr_table
    monkeypatch.setattr(layout, "BUILD", tmp_path)
    monkeypatch.setattr(pnr_table, "REPORTS", tmp_path / "reports")
    (tmp_path / "reports" / "pnr").mkdir(parents=True)
    alone = {**_layout_metrics(), "rtl_sha256": "r", "settings": {"DRT_THREADS": 2}, "runtime_s": 419.0,
             "load_1m": {"mean": 2.3, "max": 2.9, "cores": 2}}
    busy = {**alone, "runtime_s": 504.0, "load_1m": {"mean": 3.9, "max": 4.9, "cores": 2}}
    (tmp_path / "reports" / "pnr" / "m_16.json").write_text(json.dumps(alone))
    (tmp_path / "m_16" / "pnr").mkdir(parents=True)
    (tmp_path / "m_16" / "pnr" / "metrics.json").write_text(json.dumps(busy))
    assert pnr_table.result("m_16")["runtime_s"] == 419.0
    busy["rtl_sha256"] = "other"  # other RTL: the new run is the design's layout, whatever the load
    (tmp_path / "m_16" / "pnr" / "metrics.json").write_text(json.dumps(busy))
    assert pnr_table.result("m_16")["runtime_s"] == 504.0
    quiet = {**alone, "runtime_s": 430.0}
    (tmp_path / "m_16" / "pnr" / "metrics.json").write_text(json.dumps(quiet))
    assert pnr_table.result("m_16")["runtime_s"] == 430.0
    # both shared the cores: the kept one stays where it shared them less (2026-11-30: a test's layout at load 4.96
    # replaced mul_8's kept run at 3.15), and gives way to a run that shared them less
    shared = {**alone, "runtime_s": 189.0, "load_1m": {"mean": 3.15, "max": 3.6, "cores": 2}}
    (tmp_path / "reports" / "pnr" / "m_16.json").write_text(json.dumps(shared))
    (tmp_path / "m_16" / "pnr" / "metrics.json").write_text(json.dumps({**shared, "runtime_s": 285.0, "load_1m": {"mean": 4.96, "max": 5.9, "cores": 2}}))
    assert pnr_table.result("m_16")["runtime_s"] == 189.0
    (tmp_path / "m_16" / "pnr" / "metrics.json").write_text(json.dumps({**shared, "runtime_s": 170.0, "load_1m": {"mean": 2.9, "max": 3.2, "cores": 2}}))
    assert pnr_table.result("m_16")["runtime_s"] == 170.0


def test_report_never_drops_an_earlier_layout(tmp_path, monkeypatch):
    """build/ is not committed and a layout takes hours: the report keeps a finished layout's metrics in
    reports/pnr/<d>.json and reads them back on a clone without build/; a row of reports/pnr.csv that has neither
    is carried over as it stands, and named."""
    import sys
    import layout
    from reports import common, pnr_table
    build, reports = tmp_path / "build", tmp_path / "reports"
    monkeypatch.setattr(layout, "BUILD", build)
    monkeypatch.setattr(pnr_table, "REPORTS", reports)
    monkeypatch.setattr(common, "REPORTS", reports)
    monkeypatch.setattr(sys, "argv", ["pnr_table.py"])
    (build / "a_32" / "pnr").mkdir(parents=True)
    (build / "a_32" / "pnr" / "metrics.json").write_text(json.dumps(_layout_metrics()))
    reports.mkdir()
    old = ("design,status,cells,die_area_um2,core_area_um2,utilization,clock_period_ns,cp_tt_ns,cp_ss_ns,cp_ff_ns,"
           "cp_r2r_tt_ns,cp_r2r_ss_ns,cp_r2r_ff_ns,wns_ns,drc_violations,lvs_errors,antenna_violations,"
           "macros_as_abstracts,runtime_s,peak_mem_gb,openroad_commit,synth_cells,synth_area_um2,synth_cp_tt_ns,"
           "synth_cp_ss_ns,synth_cp_ff_ns\n"
           "old_16,signoff clean,1931,38880.8,32453.6,0.527604,13.3,6.9521,13.7395,4.4725,6.9521,13.7395,4.4725,"
           "-0.4395,0,0,0,False,519,0.57,dcf36133,1246,12000.5,6.522,13.299,4.08\n")
    (reports / "pnr.csv").write_text(old)
    # the report the same run wrote: its steps and checks one by one are carried over with the row
    (reports / "pnr.md").write_text("# Layout\n\n## Signoff checks, one by one\n\n| design | route__drc_errors |\n|---|---|\n"
                                    "| old_16 | 0 |\n\n## Where the time goes\n\n| step | old_16 |\n|---|---|\n"
                                    f"| {pnr_table.ROUTING_STEP} | 281.4 s, 583 MB |\n\n## Runtime model\n")

    def table():
        import csv
        with (reports / "pnr.csv").open() as f:
            return {r["design"]: r for r in csv.DictReader(f)}

    pnr_table.main()
    first = table()
    assert sorted(first) == ["a_32", "old_16"]
    assert (reports / "pnr" / "a_32.json").exists()
    assert old.splitlines()[1] + ",281.4,,," == ",".join(first["old_16"].values())  # carried over as it stood (last_sta_* empty)
    md = (reports / "pnr.md").read_text()
    assert "| old_16 * | 0 | n/a |" in md and "| openroad-detailedrouting | 281.4 s, 583 MB |" in md
    assert "Carried over from reports/pnr.csv as it stood: old_16" in (reports / "pnr.md").read_text()
    assert pnr_table.layout_status("old_16") == "signoff clean"
    # a fresh clone: no build/ at all; the kept json gives a_32's row, the same as from build/
    import shutil
    shutil.rmtree(build)
    pnr_table.main()
    assert table() == first
    assert pnr_table.layout_status("a_32") == "signoff clean" and pnr_table.post_route("a_32") == (5.0, 900.0)
    # the carried row's post-route figures: its tt critical path, and utilization x core area for its cells
    tt, area = pnr_table.post_route("old_16")
    assert tt == 6.9521 and abs(area - 0.527604 * 32453.6) < 1e-6


def test_efficiency_with_width_after_layout(tmp_path, monkeypatch):
    """reports/pnr.md's loss from 32 bits, post-synthesis and post-route, against k^2 / (P * A) by hand; names of
    other families (and names the registry refuses) are left out."""
    import layout
    from reports import pnr_table
    monkeypatch.setattr(layout, "BUILD", tmp_path)
    monkeypatch.setattr(pnr_table, "REPORTS", tmp_path / "reports")
    figures = {"barrett_32": (8.0, 100_000.0, 10.0, 150_000.0), "barrett_64": (12.0, 400_000.0, 16.0, 620_000.0),
               "mul_16": (6.0, 10_000.0, 7.0, 17_000.0), "a_32": (5.0, 800.0, 5.0, 900.0)}
    for d, (syn_cp, syn_a, cp, a) in figures.items():
        m = _layout_metrics()
        m["corners"][CORNERS[0]]["critical_path_ns"], m["stdcell_area_um2"] = cp, a
        m["post_synthesis"].update(area_um2=syn_a, critical_path_ns__corner={c: syn_cp for c in CORNERS})
        (tmp_path / d / "pnr").mkdir(parents=True)
        (tmp_path / d / "pnr" / "metrics.json").write_text(json.dumps(m))
    # a stopped layout: its efficiency at the last timing it reached (the attempt's mid_timing), beside the synthesis
    # it laid out (build/<d>/harden/metrics.json of the attempt's date and cells)
    (tmp_path / "barrett_128" / "harden").mkdir(parents=True)
    (tmp_path / "barrett_128" / "harden" / "metrics.json").write_text(json.dumps(
        {"design__instance__count": 150_000, "design__instance__area": 1_500_000.0, "date": "2026-11-30 17:00 UTC",
         "critical_path_ns__corner": {c: 18.0 for c in CORNERS}}))
    (tmp_path / "barrett_128" / "pnr_attempts").mkdir()
    (tmp_path / "barrett_128" / "pnr_attempts" / "20261130T200000.json").write_text(json.dumps(
        {"design": "barrett_128", "step": "OpenROAD.DetailedRouting", "runtime_s": 9000.0, "limit_s": 9000.0,
         "clock_period_ns": 36.0, "synth_cells": 150_000, "synth_date": "2026-11-30 17:00 UTC",
         "mid_timing": {"after": "global routing and antenna repair", "global_routes": True, "cp_tt_ns": 24.0,
                        "stdcell_area_um2": 2_000_000.0, "cells": 190_000, "step": "43-openroad-stamidpnr-3"}}))
    rows = [pnr_table.row(d) for d in pnr_table.designs_with_results()]
    got = {(g, k): (syn, route, ls, lr, stage) for g, k, d, syn, route, ls, lr, stage in pnr_table.width_loss(rows)}
    assert set(got) == {("barrett_<k>", 32), ("barrett_<k>", 64), ("barrett_<k>", 128)}
    eff = lambda k, p, a: k * k / (p * a)
    syn64, route64 = eff(64, 12.0, 400_000.0), eff(64, 16.0, 620_000.0)
    assert got[("barrett_<k>", 64)][:4] == pytest.approx((syn64, route64, eff(32, 8.0, 100_000.0) / syn64,
                                                          eff(32, 10.0, 150_000.0) / route64))
    assert got[("barrett_<k>", 64)][4] == "route"
    assert got[("barrett_<k>", 32)][2:] == (1.0, 1.0, "route")
    syn128, mid128 = eff(128, 18.0, 1_500_000.0), eff(128, 24.0, 2_000_000.0)
    assert got[("barrett_<k>", 128)] == pytest.approx((syn128, mid128, eff(32, 8.0, 100_000.0) / syn128,
                                                       eff(32, 10.0, 150_000.0) / mid128,
                                                       "after global routing and antenna repair, estimated wires"))
    md = "\n".join(pnr_table.markdown(rows, None))
    assert "## Efficiency with width, after layout" in md and "| `barrett_<k>` | 64 | barrett_64 | route |" in md
    assert "| `barrett_<k>` | 128 | barrett_128 | after global routing and antenna repair, estimated wires |" in md


def test_mid_timing_is_the_last_finished_sta_before_routing(tmp_path):
    """pnr.py's figure of a stopped run: LibreLane's last OpenROAD.STAMidPNR with a state_out.json (a started one
    has none yet), its tt slack read against the clock, named by the OpenROAD step before it; a record's time bounds
    it (a run folder newer than an attempt is not that attempt's)."""
    import os
    import pnr
    run = tmp_path / "run"
    def sta(name, ws_tt, area, done=True):
        (run / name).mkdir(parents=True)
        if done:
            (run / name / "state_out.json").write_text(json.dumps({"metrics": {
                f"timing__setup__ws__corner:nom_{CORNERS[0]}": ws_tt, f"timing__setup__ws__corner:nom_{CORNERS[1]}": -99.0,
                "design__instance__area__stdcell": area, "design__instance__count__stdcell": 7}}))
    run.mkdir()
    assert pnr.mid_timing(run, 10.0) is None
    for d in ("24-openroad-globalplacementskipio", "28-openroad-globalplacement", "29-odb-writeverilogheader"):
        (run / d).mkdir(parents=True)
    sta("31-openroad-stamidpnr", 3.0, 100.0)
    (run / "35-openroad-cts").mkdir()
    sta("36-openroad-stamidpnr-1", 2.5, 120.0, done=False)
    got = pnr.mid_timing(run, 10.0)
    assert got == {"after": "global placement", "global_routes": False, "cp_tt_ns": 7.0, "stdcell_area_um2": 100.0,
                   "cells": 7, "step": "31-openroad-stamidpnr"}
    stamp = (run / "31-openroad-stamidpnr" / "state_out.json").stat().st_mtime
    sta("43-openroad-stamidpnr-3", 1.0, 130.0)
    (run / "39-openroad-globalrouting").mkdir()
    (run / "42-openroad-repairantennas").mkdir()
    os.utime(run / "43-openroad-stamidpnr-3" / "state_out.json", (stamp + 100, stamp + 100))
    got = pnr.mid_timing(run, 10.0)
    assert (got["after"], got["global_routes"], got["cp_tt_ns"]) == ("global routing and antenna repair", True, 9.0)
    assert pnr.mid_timing(run, 10.0, before=stamp + 50)["step"] == "31-openroad-stamidpnr"


def test_a_run_that_shared_the_cores_is_listed_not_fitted():
    """flow/pnr.py samples the load while a layout runs; a run whose mean load is above the cores (plus half a
    core) shared them with other work, so its time says nothing of the design alone."""
    from reports import pnr_table
    base = {"synth_cells": 1000, "runtime_s": 400.0, "detailed_routing_s": 250.0}
    run = lambda load: {**base, "_m": {"macro_count": 0, "load_1m": load}}
    assert pnr_table.fitted(run({"mean": 1.9, "max": 2.4, "samples": 12, "cores": 2}))
    assert pnr_table.fitted(run(None))  # recorded before the load was: taken as run alone
    assert not pnr_table.fitted(run({"mean": 2.6, "max": 3.1, "samples": 12, "cores": 2}))
    assert pnr_table.load_text(None) == "not recorded"


def test_post_route_area_of_a_carried_row_is_its_utilization_read_back():
    """A row carried over from reports/pnr.csv has no cell area, so post_route reads utilization x core area
    back: in every layout whose metrics are kept (reports/pnr/<d>.json), without macros, that product is the
    standard-cell area as routed, to the rounding of the figures (LibreLane gives the areas to 0.5 um2 at most: 108,857 um2 for barrett_32_fast; the utilization to 6 digits)."""
    from reports import pnr_table
    kept = sorted((ROOT / "reports" / "pnr").glob("*.json"))
    checked = 0
    for f in kept:
        m = json.loads(f.read_text())
        if m.get("macros_as_abstracts") or not m.get("stdcell_area_um2"):
            continue
        assert abs(m["utilization"] * m["core_area_um2"] - m["stdcell_area_um2"]) <= 0.5 + 1e-6 * m["core_area_um2"], f.name
        checked += 1
    if not checked:
        pytest.skip("no kept layout without macros in reports/pnr/ (make harden DESIGN=mul_16)")
    assert pnr_table.post_route("no_such_design_32") is None


# LibreLane's end of a run whose checkers deferred an error (every step ran; exit status 2)
DEFERRED_LOG = """[00:32:54] [V] Running 'Misc.ReportManufacturability' at            step.py:1138
[00:32:55] [E] The following error was encountered while running __main__.py:189
               the flow:                                                        
               One or more deferred errors were encountered:                    
               Hold violations found in the following corners:                  
               * max_ss_100C_1v60                                               
               * nom_ss_100C_1v60                                               
[00:32:55] [E] LibreLane will now quit.                          __main__.py:190
"""


def test_deferred_errors_are_read_from_the_log(tmp_path):
    log = tmp_path / "pnr.log"
    log.write_text("an earlier run\n" + DEFERRED_LOG)
    assert pnr.deferred_errors(log) == ["Hold violations found in the following corners: max_ss_100C_1v60, nom_ss_100C_1v60"]
    log.write_text("[00:10:00] [I] Saving views\n")
    assert pnr.deferred_errors(log) == []
    assert pnr.deferred_errors(tmp_path / "absent.log") == []


def test_resume_refuses_without_a_stopped_layout(tmp_path, monkeypatch):
    """--resume needs a recorded attempt and its run folder; the refusal names the fix (a new layout)."""
    import layout
    monkeypatch.setattr(pnr, "last_attempt", lambda d: (None, None))
    monkeypatch.setattr(pnr, "current_synthesis", lambda d: {"date": "x", "design__instance__count": 1})
    monkeypatch.setattr(pnr, "find_layout_tools", lambda: type("T", (), {"complete": True, "found": {}})())
    monkeypatch.setattr(pnr, "pnr_config", lambda *a, **k: {"x": 1})
    monkeypatch.setattr(layout, "BUILD", tmp_path)
    d = "mul_16"
    layout.manifest(d).parent.mkdir(parents=True)
    layout.manifest(d).write_text("{}")
    with pytest.raises(pnr.FlowError, match=r"cannot resume the layout: no stopped layout is recorded(.|\n)*Fix: make harden DESIGN=mul_16"):
        pnr.pnr(d, period_ns=10.0, resume="")


def test_resume_of_a_run_killed_without_record(tmp_path, monkeypatch):
    """A run killed without a record (the machine stopped it): resumed only from a named step, on the same
    configuration, and only while the netlist is older than the run folder."""
    import layout
    monkeypatch.setattr(pnr, "last_attempt", lambda d: (None, None))
    monkeypatch.setattr(pnr, "current_synthesis", lambda d: {"date": "x", "design__instance__count": 1})
    monkeypatch.setattr(pnr, "find_layout_tools", lambda: type("T", (), {"complete": True, "found": {}})())
    monkeypatch.setattr(pnr, "pnr_config", lambda *a, **k: {"x": 1})
    monkeypatch.setattr(layout, "BUILD", tmp_path)

    class Started(Exception):
        pass

    def started(design, cfg, pdk_root, log, env, step, timeout_s=None):
        raise Started(step)
    monkeypatch.setattr(pnr, "resume_librelane", started)
    monkeypatch.setattr(pnr, "find_pdk", lambda: type("P", (), {"root": tmp_path})())
    d = "mul_16"
    layout.manifest(d).parent.mkdir(parents=True)
    layout.manifest(d).write_text("{}")
    ll = layout.librelane_dir(d)
    first = ll / "runs" / pnr.RUN_TAG / "01-verilator-lint"
    first.mkdir(parents=True)
    (ll / "config.pnr.json").write_text(json.dumps({"x": 1}, indent=2) + "\n")
    layout.netlist(d).parent.mkdir(parents=True, exist_ok=True)
    layout.netlist(d).write_text("module mul_16; endmodule\n")
    os.utime(layout.netlist(d), (first.stat().st_mtime - 60,) * 2)
    with pytest.raises(pnr.FlowError, match=r"no stopped layout is recorded.*PNR_RESUME=<LibreLane step id>"):
        pnr.pnr(d, period_ns=10.0, resume="")
    with pytest.raises(Started, match="OpenROAD.DetailedRouting"):
        pnr.pnr(d, period_ns=10.0, resume="OpenROAD.DetailedRouting")
    os.utime(layout.netlist(d), (first.stat().st_mtime + 60,) * 2)
    with pytest.raises(pnr.FlowError, match="the netlist was synthesized again since"):
        pnr.pnr(d, period_ns=10.0, resume="OpenROAD.DetailedRouting")


def test_cli_refuses_a_design_without_rtl_naming_the_fix():
    p = subprocess.run([sys.executable, str(ROOT / "flow" / "pnr.py"), "no_such_design"], capture_output=True, text=True)
    if not eda.find_layout_tools().complete:
        assert p.returncode == 1 and "Layout tools missing" in p.stderr
        return
    assert p.returncode == 1 and "Fix: make harden DESIGN=no_such_design" in p.stderr and "Traceback" not in p.stderr


def test_cli_auto_without_tools_says_what_it_skipped(monkeypatch, tmp_path):
    env = {**os.environ, "OPENROAD_EXE": str(tmp_path / "absent")}
    p = subprocess.run([sys.executable, str(ROOT / "flow" / "pnr.py"), "mul_16", "--tools", "auto"], capture_output=True,
                       text=True, env=env)
    assert p.returncode == 0 and "layout skipped" in p.stdout and "OPENROAD_EXE" in p.stdout
    p = subprocess.run([sys.executable, str(ROOT / "flow" / "pnr.py"), "mul_16"], capture_output=True, text=True, env=env)
    assert p.returncode == 1 and "Layout tools missing" in p.stderr


def test_layout_picture_draws_the_metals_only(tmp_path):
    """flow/layout_picture.py: a GDS with a met1 box gives a PNG; one with no metal layer gives none."""
    db = pytest.importorskip("klayout.db")
    import layout_picture

    def gds(layer, name):
        ly = db.Layout()
        top = ly.create_cell("top")
        top.shapes(ly.layer(layer, 20)).insert(db.Box(0, 0, 10000, 5000))
        path = tmp_path / name
        ly.write(str(path))
        return path
    out = tmp_path / "m.png"
    assert layout_picture.draw(gds(68, "met1.gds"), out) and out.stat().st_size > 0
    assert not layout_picture.draw(gds(66, "poly.gds"), tmp_path / "p.png") and not (tmp_path / "p.png").exists()


def test_the_sampler_sees_a_running_step_s_memory():
    """A stopped step's memory is in no step record: LoadSampler samples the resident memory of the flow's processes
    (tree_rss_mb), so a child holding 200 MB shows."""
    import subprocess
    import sys
    import pnr
    child = subprocess.Popen([sys.executable, "-c", "import sys, time; x = bytearray(200 * 2**20); x[::4096] = b'1' * len(x[::4096]); "
                              "print(1, flush=True); time.sleep(30)"], stdout=subprocess.PIPE)
    try:
        child.stdout.readline()
        got = pnr.tree_rss_mb(os.getpid())
        assert got >= 200, got
        sampler = pnr.LoadSampler(every_s=0.05).start()
        import time
        time.sleep(0.3)
        sampler.stop()
        assert sampler.figures()["rss_max_mb"] >= 200
    finally:
        child.kill()
        child.wait()
    assert pnr.tree_rss_mb(os.getpid()) < 200


def test_a_stopped_row_without_its_attempt_record_keeps_the_models_check(tmp_path, monkeypatch):
    """On a machine whose build/ lacks a stopped layout's attempt record, the report rebuilds what the model's check
    needs from itself: step and limit from the csv status, the load from its pnr.md row, and whether the step comes
    after detailed routing from the Classic flow's step order."""
    from reports import pnr_table
    monkeypatch.setattr(pnr_table, "REPORTS", tmp_path)
    (tmp_path / "pnr.md").write_text(
        "| a_64 | 39,218 | 2.8 h | 2.0 h | no | x | stopped in OpenROAD.DetailedRouting after 9600 s (limit 9600 s); "
        "at its limit the model says y: agrees; load 2.1 mean, 3.5 max |\n")
    a = pnr_table.carried_attempt("stopped in OpenROAD.DetailedRouting after 9600 s (limit 9600 s)", "a_64")
    assert (a["step"], a["limit_s"], a["load_1m"]) == ("OpenROAD.DetailedRouting", 9600.0, {"mean": 2.1, "max": 3.5})
    b = pnr_table.carried_attempt("stopped in Magic.DRC after 9000 s (limit 9000 s)", "b_64")
    assert "load_1m" not in b and pnr_table.pnr_runtime.stopped_class(b["step"], b["steps_finished"]) == \
        "the checks after detailed routing"
    c = pnr_table.carried_attempt("stopped in OpenROAD.CTS after 9000 s (limit 9000 s)", "c_64")
    assert pnr_table.pnr_runtime.stopped_class(c["step"], c["steps_finished"]) == "before detailed routing"
    assert pnr_table.carried_attempt("signoff clean", "a_64") is None
    model = {"pre_share": 0.5}
    assert pnr_table.stop_agreement(model, 12000.0, 8000.0, a).endswith("agrees; load 2.1 mean, 3.5 max")
