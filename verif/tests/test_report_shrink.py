"""Nothing committed shrinks silently (issue 30, B): a report generator that finds fewer results
than the report it would replace refuses, naming the designs without a result and the fix, and
leaves the file as it was; with --partial it writes the partial table with a note naming them.
A complete run writes exactly what it wrote without the guard.

The guard lives in flow/reports/common.py (write_text, so every generator has it). These tests
run asic_table's writers (Table 1, flow_benchmark.md) on a temporary build/ and reports/ with a
made-up result set: no flow runs.
"""
import json
import sys
from pathlib import Path

import pytest

import layout
from reports import asic_table, common

WIDTH = {f"{f}_{k}": k for f in ("barrett", "shoup", "gshoup") for k in (32, 64, 128, 256)}
DESIGNS = list(WIDTH)


def metrics(d: str) -> dict:
    k = WIDTH[d]
    return {"design": d, "critical_path_ns": 5 + k / 100, "design__instance__area": 1000.0 * k,
            "design__instance__count": 80 * k, "latency": 4,
            "critical_path_ns__corner": {"tt_025C_1v80": 5 + k / 100, "ss_100C_1v60": 9.0, "ff_n40C_1v95": 3.0},
            "critical_path_endpoints": {"start": "a_reg", "end": "b_reg"},
            "steps": {"modforge-synthesis": {"wall_s": 3.0, "peak_mb": 90}, "modforge-sta": {"wall_s": 1.0, "peak_mb": 40}},
            "tools": {"LibreLane": "3.0.17"}, "flow": "LibreLane test", "date": "2026-11-25 12:00 UTC", "wall_s": 4.0}


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A build/ with every table design's result and an empty reports/; returns (build, reports)."""
    build, reports = tmp_path / "build", tmp_path / "reports"
    monkeypatch.setattr(layout, "BUILD", build)
    for d in DESIGNS:
        layout.harden_dir(d).mkdir(parents=True)
        layout.metrics(d).write_text(json.dumps(metrics(d)))
    monkeypatch.setattr(common, "BUILD", build)
    monkeypatch.setattr(common, "REPORTS", reports)
    monkeypatch.setattr(common, "INDEX", build / "designs.json")  # none: no `_fast` rows (common.best_designs)
    monkeypatch.setattr(common, "LOOKED_UP", {})
    monkeypatch.setattr(common, "PARTIAL", False)
    return build, reports


def write_reports(designs):
    """What asic_table.main writes as tables, without the paper (a clone without ../shared/papers)."""
    common.LOOKED_UP.clear()
    rows, ours = asic_table.write_tables(designs, {}, {})
    ours2 = {key: v[:2] for key, v in ours.items()}
    widths = sorted({k for _, k in ours2})
    lines, growth, summary = asic_table.comparison(ours2, {}, widths)
    asic_table.write_markdown(rows, ours, {}, {}, lines, growth, summary)
    asic_table.write_benchmark(designs)


def snapshot(reports: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(reports.iterdir())}


def test_complete_run_is_unchanged_by_the_guard(tree, monkeypatch):
    """Two complete runs: the second finds as many results and writes the same bytes; and the
    same bytes as writing without the guard."""
    build, reports = tree
    write_reports(DESIGNS)
    first = snapshot(reports)
    assert set(first) == {"asic_table.json", "asic_table.csv", "asic_table.md", "flow_benchmark.md"}
    write_reports(DESIGNS)
    assert snapshot(reports) == first
    monkeypatch.setattr(common, "shrink_guard", lambda name, text: text)
    write_reports(DESIGNS)
    assert snapshot(reports) == first
    assert not list(reports.glob(".*tmp*")), "no temporary file is left behind"


def test_fewer_results_are_refused_naming_them(tree, capsys):
    """The case of issue 30: a clone with 4 of the 12 results overwrote the committed 12-row table."""
    build, reports = tree
    write_reports(DESIGNS)
    before = snapshot(reports)
    gone = [d for d in DESIGNS if not d.endswith("_32")]
    for d in gone:
        layout.metrics(d).unlink()
    with pytest.raises(SystemExit) as e:
        write_reports(DESIGNS)
    msg = str(e.value)
    for d in gone:
        assert d in msg, f"the refusal names {d}"
    assert "make reports" in msg and "--partial" in msg
    assert all(len(line) <= 100 for line in msg.splitlines()), msg
    assert snapshot(reports) == before, "a refused run leaves every report as it was"


def test_fewer_designs_named_are_refused(tree):
    """Naming fewer designs on the command line shrinks the table too: the rows that are gone are named."""
    build, reports = tree
    write_reports(DESIGNS)
    before = snapshot(reports)
    with pytest.raises(SystemExit) as e:
        write_reports(["gshoup_32"])
    assert "barrett_64" in str(e.value)
    assert snapshot(reports) == before


def test_partial_writes_the_table_with_the_missing_rows_named(tree, monkeypatch):
    build, reports = tree
    write_reports(DESIGNS)
    for d in ("barrett_256", "gshoup_128"):
        layout.metrics(d).unlink()
    monkeypatch.setattr(common, "PARTIAL", True)
    write_reports(DESIGNS)
    md = (reports / "asic_table.md").read_text()
    assert "Partial report" in md and "barrett_256" in md and "gshoup_128" in md
    bench = (reports / "flow_benchmark.md").read_text()
    assert "Partial report" in bench and "barrett_256" in bench
    rows = json.loads((reports / "asic_table.json").read_text())
    assert sum(r["critical_path_ns"] is not None for r in rows) == 10


def test_more_results_are_written(tree):
    build, reports = tree
    write_reports(DESIGNS[:4])
    write_reports(DESIGNS)
    assert "Partial" not in (reports / "asic_table.md").read_text()
    assert len(json.loads((reports / "asic_table.json").read_text())) == 12


def test_partial_flag_is_taken_off_the_command_line(monkeypatch):
    """Every generator accepts --partial, whatever its own parser: common takes it off sys.argv."""
    monkeypatch.setattr(sys, "argv", ["flow/reports/fpga_table.py", "--collect-only", "--partial"])
    assert common._take_partial_flag() is True
    assert sys.argv == ["flow/reports/fpga_table.py", "--collect-only"]
    assert common._take_partial_flag() is False


@pytest.mark.parametrize("name, full, partial", [
    ("t.md", "| a | b |\n|---|---|\n| x_32 | 1.5 |\n| x_64 | 2.5 |\n", "| a | b |\n|---|---|\n| x_32 | 1.5 |\n| x_64 | n/a |\n"),
    ("t.csv", "design,cp\nx_32,1.5\nx_64,2.5\n", "design,cp\nx_32,1.5\nx_64,\n"),
    ("t.json", '[{"design": "x_32", "cp": 1.5}, {"design": "x_64", "cp": 2.5}]', '[{"design": "x_32", "cp": 1.5}]'),
])
def test_result_count(name, full, partial):
    assert common.result_count(name, partial) < common.result_count(name, full)
