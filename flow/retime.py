#!/usr/bin/env python3
"""Re-time hardened netlists with the current STA (flow/sta.py), without synthesizing them again.

    flow/retime.py <design> [<design> ...] | --all [--macros-only]

A change of the flow's timing (flow/sta.py, flow/harden.py's use of it) changes the flow hash, so
every result would look out of date and `make dse` would synthesize it again, although synthesis
did not change. This runs only the STA step, OpenSTA at each corner as Modforge.STA does, on the
netlist that `flow/harden.py` kept (build/<d>/harden/<d>.nl.v), with the tt Liberty of the macros
its metrics name (`macro_models`: the views flow/configs.py gives synthesis and STA), and rewrites
build/<d>/harden/metrics.json, summary.md and the sta_<corner>.log files. The metrics keep what
synthesis's own STA said under "retimed" (its critical path and flow hash; a second re-time keeps
the first one's), with the date, so a changed figure can be traced.

A design is refused (and left as it was) when its netlist is missing or was made from other RTL
(rtl_sha256): harden it again (`flow/harden.py <design>`). Nothing is half-written: a corner that
fails leaves the design's earlier files.

The first use: OpenRAM macros drive their read data after the falling edge, so paths from it have
half the period; the STA took period - worst slack, a whole period, until 2026-11-26 (flow/sta.py).
"""
import argparse
import datetime
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import layout
from harden import current, flow_sha256, summary
from pdk import CORNERS, FlowError, find_pdk, shown, sram_views
from sta import DRIVE_CELL, TCL, parse_sta, sta_binary


def retime(design: str, pdk, log=print) -> dict:
    m = current(design)
    if m is None:
        raise FlowError(f"{design}: no netlist of its current RTL in {shown(layout.harden_dir(design))}. "
                        f"Fix: flow/harden.py {design}")
    netlist = layout.netlist(design)
    period = float(m.get("clock_period_ns") or 0.25)
    libs = [sram_views(pdk, x).lib_tt for x in m.get("macro_models") or []]  # as configs.macros_config
    cp, paths = {}, {}
    with tempfile.TemporaryDirectory(prefix=f"retime-{design}-") as tmp:
        tmp = Path(tmp)
        for corner in CORNERS:
            tcl, rpt = tmp / f"sta_{corner}.tcl", tmp / f"sta_{corner}.log"
            tcl.write_text("".join(f"read_liberty {x}\n" for x in libs) +
                           TCL.format(lib=pdk.liberty(corner), netlist=netlist, top=design, period_ns=period,
                                      drive_cell=DRIVE_CELL))
            with rpt.open("w") as f:
                p = subprocess.run([sta_binary(), "-no_splash", "-exit", str(tcl)], stdout=f, stderr=subprocess.STDOUT)
            t = parse_sta(design, corner, p.returncode, rpt, period)
            cp[corner], paths[corner] = t["critical_path_ns"], t
        old = {k: m.get(k) for k in ("critical_path_ns", "critical_path_ns__corner", "critical_path_endpoints",
                                     "flow_sha256")}
        tt = paths[CORNERS[0]]
        m.update({
            "critical_path_ns": cp[CORNERS[0]],
            "critical_path_ns__corner": cp,
            "critical_path_endpoints": {"start": tt["startpoint"], "end": tt["endpoint"], "edges": tt["edges"]},
            "flow_sha256": flow_sha256(),
            "retimed": {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                        "by": "flow/retime.py (STA only, the kept netlist)",
                        "before": (m.get("retimed") or {}).get("before") or old},
        })
        out = layout.harden_dir(design)
        for corner in CORNERS:  # the logs first: metrics.json last, so a stop leaves the old figures
            shutil.copy(tmp / f"sta_{corner}.log", out / f"sta_{corner}.log")
        for name, text in (("summary.md", summary(m)), ("metrics.json", json.dumps(m, indent=2) + "\n")):
            part = out / (name + ".partial")
            part.write_text(text)
            part.replace(out / name)
    was = old["critical_path_ns"]
    log(f"retime {design}: {CORNERS[0]} critical path {was:.3f} -> {cp[CORNERS[0]]:.3f} ns "
        f"({tt['edges']}: {tt['startpoint']} -> {tt['endpoint']})" +
        ("" if abs(was - cp[CORNERS[0]]) < 5e-4 else "  CHANGED"), flush=True)
    return m


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("designs", nargs="*")
    ap.add_argument("--all", action="store_true", help="every design with build/<d>/harden/metrics.json")
    ap.add_argument("--macros-only", action="store_true", help="with --all: only designs with SRAM macros")
    a = ap.parse_args(argv)
    designs = list(a.designs)
    if a.all:
        for f in sorted(layout.BUILD.glob("*/harden/metrics.json")):
            if not a.macros_only or json.loads(f.read_text()).get("macro_count"):
                designs.append(f.parent.parent.name)
    if not designs:
        ap.error("name a design, or --all")
    try:
        pdk = find_pdk()
        sta_binary()
    except FlowError as e:
        sys.exit(f"retime: error: {e}")
    failed = []
    for i, d in enumerate(designs, 1):
        print(f"[retime {i}/{len(designs)}] {d}", flush=True)
        try:
            retime(d, pdk)
        except (FlowError, RuntimeError) as e:
            failed.append(d)
            print(f"retime: error: {e}", file=sys.stderr, flush=True)
    if failed:
        sys.exit(f"retime: {len(failed)} of {len(designs)} not re-timed (left as they were): {', '.join(failed)}")


if __name__ == "__main__":
    main()
