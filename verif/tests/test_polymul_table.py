"""reports/polymul_table.md and .csv under --collect-only (flow/reports/polymul_table.py) on a temporary
build/ and reports/: a made-up previous CSV, one made-up harden result, a made-up software baseline;
no flow, no generator (subprocess is refused), a few seconds.

What they pin: a tile design without build/<d>/harden/metrics.json keeps its row of the previous CSV's
ASIC block, with its measurement date and a `source` saying it was carried, the markdown marking it,
and its speedups recomputed against today's baseline; the largest-P search chooses among carried rows
by the same area rule; a present harden result wins over the carried row; a broken previous CSV stops
the run with the file, the line and the fix, before anything is written; a missing one carries
nothing; a run without --collect-only never carries.
"""
import csv
import hashlib
import io
import json
import sys

import pytest

import layout
from harden import flow_sha256
from ntt_bench import INTT, LOAD, NTT, PWMUL, UNLOAD, expected_cycles
from reports import common
from reports import polymul_table as pt

CARRIED = "carried from reports/polymul_table.csv (measured {})"
# The fields the carried rows must keep as they were (the speedups are recomputed).
KEPT = ("p", "stdcell_um2", "macro_um2", "critical_path_ns", "us_per_product", "date")

PREVIOUS = """n,logq,design,asic
1024,19,polymul_1024_19,

design,n,logq,p,stdcell_um2,macro_um2,macros,critical_path_ns,critical_path_ss_ns,cycles,cycles_with_streams,us_per_product,us_compute_only,date,stale,ntl_us,flint_us,speedup_ntl,speedup_flint
polymul_1024_19,1024,19,2,111111.0,3800000.0,16,9.9,19.0,8224,11301,111.9,81.4,2026-11-01 10:00 UTC,False,200.0,50.0,1.8,0.4
polymul_4096_62,4096,62,2,1000000.0,27000000.0,96,15.0,29.5,38944,51237,768.6,584.2,2026-11-23 18:19 UTC,False,1200.0,1200.0,1.6,1.6
polymul_4096_62_p1,4096,62,1,500000.0,18000000.0,64,12.0,,77856,90149,1081.8,934.3,2026-11-23 18:20 UTC,False,1200.0,1200.0,1.1,1.1
"""

SW = {"environment": {"cpu_model": "test CPU", "date": "2026-11-25"}, "reps": 7,
      "sets": [{"n": 1024, "logq": 19, "ntl_median_s": 200e-6, "flint_median_s": 50e-6},
               {"n": 4096, "logq": 62, "ntl_median_s": 1500e-6, "flint_median_s": 1400e-6}]}


def add_tile(d, n, p, std_um2, macro_um2, cp_ns, date):
    """build/<d>/rtl/ (manifest with the bench's cycles) and build/<d>/harden/metrics.json, as the
    generator and flow/harden.py write the fields the report reads."""
    layout.rtl_dir(d).mkdir(parents=True)
    layout.rtl(d).write_text(f"module {d}(); endmodule\n")
    cycles = {k: expected_cycles(op, n, p, "barrett", "sram")
              for k, op in (("NTT", NTT), ("INTT", INTT), ("PWMUL", PWMUL), ("LOAD", LOAD), ("UNLOAD", UNLOAD))}
    layout.manifest(d).write_text(json.dumps({"design": d, "p": p, "cycles": cycles,
                                              "sram": {"macro_count": 16, "macro_area_um2": macro_um2}}))
    layout.harden_dir(d).mkdir(parents=True)
    layout.metrics(d).write_text(json.dumps({
        "design": d, "rtl_sha256": hashlib.sha256(layout.rtl(d).read_bytes()).hexdigest(), "flow_sha256": flow_sha256(),
        "design__instance__area": std_um2, "macro_area_um2": macro_um2, "macro_count": 16, "critical_path_ns": cp_ns,
        "critical_path_ns__corner": {"ss_100C_1v60": 2 * cp_ns}, "date": date}))


@pytest.fixture
def tree(tmp_path, monkeypatch):
    build, reports = tmp_path / "build", tmp_path / "reports"
    (build / "sw_baseline").mkdir(parents=True)
    reports.mkdir()
    monkeypatch.setattr(layout, "BUILD", build)
    monkeypatch.setattr(common, "REPORTS", reports)
    monkeypatch.setattr(common, "LOOKED_UP", {})
    monkeypatch.setattr(common, "PARTIAL", False)
    (build / "sw_baseline" / "results.json").write_text(json.dumps(SW))
    monkeypatch.setattr(pt, "SW_RESULTS", build / "sw_baseline" / "results.json")

    def no_flow(*a, **k):
        raise AssertionError(f"the report started a process: {a}")
    monkeypatch.setattr(pt.subprocess, "run", no_flow)  # harden.py, fpga.py and the generator (common's too)
    (reports / "polymul_table.csv").write_text(PREVIOUS)
    # (1024, 19) measured here, with figures other than its row in the previous CSV
    add_tile("polymul_1024_19", 1024, 2, 172641.8, 3802008.2, 9.4247, "2026-11-25 20:04 UTC")
    return build, reports


def run(monkeypatch, *args):
    monkeypatch.setattr(sys, "argv", ["polymul_table.py", *args])
    pt.main()


def asic_rows(reports):
    """The ASIC block of the written CSV, {design: row}."""
    text = (reports / "polymul_table.csv").read_text()
    return {r["design"]: r for r in csv.DictReader(io.StringIO(text[text.index("\ndesign,") + 1:]))}


def test_absent_result_is_carried_with_its_date_and_source(tree, monkeypatch):
    build, reports = tree
    old = asic_rows(reports)
    run(monkeypatch, "--collect-only")
    rows = asic_rows(reports)
    for d in ("polymul_4096_62", "polymul_4096_62_p1"):
        r = rows[d]
        assert r["source"] == CARRIED.format(old[d]["date"])
        assert {k: r[k] for k in KEPT} == {k: old[d][k] for k in KEPT}
        # speedups against today's baseline, not the previous CSV's
        assert float(r["ntl_us"]) == pytest.approx(1500.0)
        assert float(r["speedup_ntl"]) == pytest.approx(1500.0 / float(old[d]["us_per_product"]))
    assert rows["polymul_4096_62_p1"]["critical_path_ss_ns"] == ""  # empty stays empty
    md = (reports / "polymul_table.md").read_text()
    assert "| `polymul_4096_62_p1` (c) | 1 |" in md and "| `polymul_4096_62` (c) | 2 |" in md
    assert ("(c) measured 2026-11-23 18:19 UTC to 2026-11-23 18:20 UTC, carried over from the "
            "reports/polymul_table.csv") in md
    assert "`flow/reports/polymul_table.py --rerun` re-measures" in md
    # the search: P = 2 (28 mm2) over the budget, P = 1 (18.5 mm2) within, both carried
    assert ("- (4096, 62): largest P within 25 mm2: `polymul_4096_62_p1` "
            "(tried on the way: polymul_4096_62 (c), polymul_4096_62_p1 (c))") in md


def test_present_result_wins_over_the_carried_row(tree, monkeypatch):
    build, reports = tree
    run(monkeypatch, "--collect-only")
    r = asic_rows(reports)["polymul_1024_19"]
    assert r["source"] == "build/polymul_1024_19/harden/metrics.json"
    assert (r["date"], r["stdcell_um2"], r["critical_path_ns"]) == ("2026-11-25 20:04 UTC", "172641.8", "9.4247")
    md = (reports / "polymul_table.md").read_text()
    assert "| `polymul_1024_19` | 2 |" in md
    assert "- (1024, 19): largest P within 25 mm2: `polymul_1024_19` (synthesized on the way: polymul_1024_19)" in md


def test_run_without_collect_only_never_carries(tree, monkeypatch):
    build, reports = tree
    for f in ("generate", "run_fpga"):
        monkeypatch.setattr(pt, f, lambda *a, **k: None)
    monkeypatch.setattr(pt, "harden", lambda d, rerun=False: common.harden_result(d))  # no flow: what exists
    monkeypatch.setattr(common, "PARTIAL", True)  # the previous CSV's carried rows are gone: it shrinks
    run(monkeypatch)
    rows = asic_rows(reports)
    assert list(rows) == ["polymul_1024_19"] and rows["polymul_1024_19"]["source"].startswith("build/")
    md = (reports / "polymul_table.md").read_text()
    assert "(c)" not in md and "absent: not hardened yet (`make harden DESIGN=polymul_4096_62`)" in md


@pytest.mark.parametrize("breakage, why", [
    (lambda t: t.replace("18000000.0", "18 mm2"), "line 7: could not convert string to float: '18 mm2'"),
    (lambda t: t.replace(",2026-11-23 18:19 UTC,False,1200.0,1200.0,1.6,1.6", ""), "line 6:"),
    (lambda t: t.replace("stdcell_um2", "cells"), "the ASIC block (line 4) lacks the columns stdcell_um2"),
    (lambda t: "<html>not a CSV</html>\n", "neither the cycles block"),
])
def test_broken_previous_csv_stops_with_the_fix_before_writing(tree, monkeypatch, breakage, why):
    build, reports = tree
    broken = breakage(PREVIOUS)
    (reports / "polymul_table.csv").write_text(broken)
    with pytest.raises(SystemExit) as e:
        run(monkeypatch, "--collect-only")
    msg = str(e.value)
    words = " ".join(msg.split())  # the message is wrapped at 100 characters
    assert msg.startswith("polymul-reports: error: reports/polymul_table.csv") and why in words, msg
    assert "Fix: restore it (git checkout reports/polymul_table.csv)" in words, msg
    assert all(len(line) <= 100 for line in msg.splitlines()), msg
    assert (reports / "polymul_table.csv").read_text() == broken
    assert not (reports / "polymul_table.md").exists()


def test_missing_previous_csv_carries_nothing(tree, monkeypatch, capsys):
    build, reports = tree
    (reports / "polymul_table.csv").unlink()
    run(monkeypatch, "--collect-only")
    assert "no reports/polymul_table.csv to carry ASIC results from" in capsys.readouterr().err
    assert list(asic_rows(reports)) == ["polymul_1024_19"]
    assert "(c)" not in (reports / "polymul_table.md").read_text()
