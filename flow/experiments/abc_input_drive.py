#!/usr/bin/env python3
"""Experiment: what limits the best configurations' efficiency at wide k (reports/dse.md).

    flow/experiments/abc_input_drive.py [-j N] DESIGN...      -> reports/abc_input_drive.md

At 256 bits the best configurations' critical path starts with a flip-flop whose output drives a
whole Booth row: e.g. shoup_256__p111111_t247_mbdhc_drc spends 8.2 of its 15.1 ns on the Q pin of
one sky130_fd_sc_hd__dfxtp_1 driving some 260 gates. Our ABC script buffers nets of more than 16
sinks (`buffer -N 16`), but ABC sees flip-flop outputs as primary inputs, which it takes as ideal
drivers (no driving cell is given to it), and `buffer` leaves primary inputs alone unless given
`-p`. A layout flow's resizer would repair such nets after placement; our flow has none.

This script measures the lever without changing the flow (flow/synth.py is part of the flow hash:
editing it would invalidate every result of the exploration): for each design, the same synthesis
as `make harden` (its manifest's options), with two changes to ABC's input: a driving cell for its
primary inputs (Yosys `abc -constr`: `set_driving_cell sky130_fd_sc_hd__buf_2`, the drive OpenSTA
gives our input ports, about a register's; `set_load 0.01` pF) and `buffer -N 16 -p` instead of
`buffer -N 16` in the script; then OpenSTA at tt as the flow does. The figures sit beside the design's own
`make harden` result (build/<d>/harden/metrics.json, which must be up to date). Work goes to
build/<d>/experiments/abc_input_drive/; the report is rewritten from every result there.
"""
import argparse
import datetime
import json
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

FLOW = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(FLOW))
import synth  # noqa: E402
from harden import BUILD, flow_sha256, rtl_sha256  # noqa: E402
from pdk import CORNERS, ROOT, find_pdk  # noqa: E402
sys.path.insert(0, str(ROOT / "verif"))
import registry  # noqa: E402
from sta import DRIVE_CELL, TCL, parse_sta, sta_binary  # noqa: E402

NAME = "abc_input_drive"
FLOW_ABC_SCRIPT, FLOW_RECIPE = synth.ABC_SCRIPT, synth.recipe
CORNER = CORNERS[0]  # tt
REPORT = ROOT / "reports" / f"{NAME}.md"


def patched_script(script: str) -> str:
    if "buffer -N 16\n" not in script:
        raise RuntimeError("flow/synth.py's ABC script has no `buffer -N 16` line: update this experiment")
    return script.replace("buffer -N 16\n", "buffer -N 16 -p\n")


def run(design: str) -> dict:
    t0 = time.monotonic()
    manifest = json.loads((BUILD / design / "rtl" / f"{design}.json").read_text())
    opts = synth.SynthOptions.from_dict(dict(manifest.get("synthesis") or {}))
    if not opts.sizing:
        raise RuntimeError(f"{design}: its recipe has no ABC buffering (ns): nothing to compare")
    out = BUILD / design / "experiments" / NAME
    out.mkdir(parents=True, exist_ok=True)
    # ABC takes primary inputs as ideal drivers: without a driving cell, a 260-sink flop output
    # costs nothing in its timing and `buffer -p` has no reason to split it.
    constr = out / "abc.constr"
    constr.write_text(f"set_driving_cell {DRIVE_CELL}\nset_load 0.01\n")
    # Patched per call from the flow's originals (a worker process runs several designs).
    synth.ABC_SCRIPT = patched_script(FLOW_ABC_SCRIPT)
    synth.recipe = lambda *a, **k: [c + f" -constr {constr}" if c.startswith("abc ") else c for c in FLOW_RECIPE(*a, **k)]
    pdk = find_pdk()
    res = synth.synthesize(design, BUILD / design / "rtl" / f"{design}.v", out, pdk, corner=CORNER, opts=opts)
    tcl, log = out / f"sta_{CORNER}.tcl", out / f"sta_{CORNER}.log"
    tcl.write_text(TCL.format(lib=pdk.liberty(CORNER), netlist=res["netlist"], top=design, period_ns=0.25,
                              drive_cell=DRIVE_CELL))
    p = subprocess.run([sta_binary(), "-no_splash", "-exit", str(tcl)], stdout=open(log, "w"), stderr=subprocess.STDOUT)
    t = parse_sta(design, CORNER, p.returncode, log, 0.25)
    r = {"design": design, "area_um2": res["design__instance__area"], "critical_path_ns": t["critical_path_ns"],
         "start": t["startpoint"], "end": t["endpoint"], "rtl_sha256": rtl_sha256(design), "flow_sha256": flow_sha256(),
         "wall_s": round(time.monotonic() - t0, 1),
         "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    (out / "result.json").write_text(json.dumps(r, indent=1))
    return r


def report():
    rows = []
    for p in sorted(BUILD.glob(f"*/experiments/{NAME}/result.json")):
        r = json.loads(p.read_text())
        d = r["design"]
        base_p = BUILD / d / "harden" / "metrics.json"
        if not base_p.exists():
            continue
        base = json.loads(base_p.read_text())
        if r["rtl_sha256"] != base.get("rtl_sha256") or r["flow_sha256"] != base.get("flow_sha256"):
            continue  # not the same RTL and flow as the design's own result
        rows.append((registry.describe(d)["params"]["k"], d, base, r))
    lines = ["# Experiment: ABC with a driving cell for flip-flop outputs (`abc -constr`, `buffer -N 16 -p`)", "",
             "Generated by `flow/experiments/abc_input_drive.py` (its docstring says why); do not edit. Each design",
             "synthesized twice with its own options: the flow's (from `make harden`), and the same with a driving cell",
             "(sky130_fd_sc_hd__buf_2) for ABC's primary inputs, the flip-flop outputs among them, and `buffer -N 16 -p`,",
             "so that ABC buffers and sizes for the nets flip-flops drive. tt corner, post-synthesis, no parasitics, as",
             "every figure of reports/dse.md. Not part of the flow yet: adopting it changes the flow, so every point of",
             "the exploration would be measured again.", "",
             "| k | design | flow: area (um2) | flow: critical path (ns) | with -p: area (um2) | with -p: critical path (ns) | "
             "1/(P*A) gain | S^2/(P*A) with -p | worst path with -p |",
             "|---|---|---|---|---|---|---|---|---|"]
    for k, d, b, r in sorted(rows):
        a0, p0 = b["design__instance__area"], b["critical_path_ns"]
        a1, p1 = r["area_um2"], r["critical_path_ns"]
        lines.append(f"| {k} | `{d}` | {a0:.0f} | {p0:.3f} | {a1:.0f} | {p1:.3f} | {a0 * p0 / (a1 * p1):.2f}x | "
                     f"{k * k / (a1 * p1):.5f} | {r['start']} -> {r['end']} |")
    if rows:
        lines += ["", f"Runs dated {min(r['date'] for *_, r in rows)} to {max(r['date'] for *_, r in rows)}; "
                  f"flow hash {rows[0][3]['flow_sha256'][:12]}."]
    REPORT.write_text("\n".join(lines) + "\n")
    print(f"{NAME}: wrote {REPORT.relative_to(ROOT)} ({len(rows)} designs)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("designs", nargs="*")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    missing = [d for d in a.designs if not (BUILD / d / "harden" / "metrics.json").exists()]
    if missing:
        sys.exit(f"{NAME}: error: no `make harden` result for {' '.join(missing)}. Fix: make harden DESIGN=<d> first")
    with ProcessPoolExecutor(max_workers=a.jobs) as ex:
        for r in ex.map(run, a.designs):
            print(f"{NAME}: {r['design']}: {r['area_um2']:.0f} um2, {r['critical_path_ns']:.3f} ns ({r['wall_s']} s)", flush=True)
    report()


if __name__ == "__main__":
    main()
