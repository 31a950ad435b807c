#!/usr/bin/env python3
"""Layout of one hardened design: LibreLane's Classic flow from its post-synthesis netlist to a GDS.

    flow/pnr.py DESIGN [--period-ns T] [--set VAR=JSON ...]

`make harden` runs it after synthesis and STA wherever OpenROAD, Magic, Netgen and KLayout are
found (flow/eda.py). It needs build/<d>/harden/ made from the current RTL (flow/harden.py).

The flow is LibreLane's Classic, unchanged but for one step: `Yosys.Synthesis` is substituted by
`Modforge.Netlist`, which hands on the netlist of build/<d>/harden/, so the netlist placed is the
one whose post-synthesis figures the reports give. Then floorplan (pdk_config/layout.json), power
grid, placement, the resizer (repair_design, repair_timing), CTS, global and detailed routing,
antenna repair, RC extraction, STA at every corner of the PDK, GDS (Magic and KLayout), DRC (Magic
and KLayout), LVS (Netgen), antenna check. The target clock is the post-synthesis critical path at
ss, rounded up (pdk_config/layout.json `clock`), or --period-ns; the post-route critical path at
each corner is the period minus that corner's worst setup slack, over all paths and over
register-to-register ones. LibreLane's checkers stay as they are, and `signoff_clean` says whether
all of pdk_config/layout.json's `signoff` metrics are 0.

Results go to build/<d>/pnr/: metrics.json, summary.md, <d>.gds, <d>.png (a KLayout rendering),
the routed netlist <d>.pnl.v with its SDF per corner and SPEF; replaced only when the run
finished, so a failed run leaves the last good result. The run folder is
build/<d>/librelane/runs/pnr. Each step's wall time and peak memory are in metrics.json.

--resume (make harden PNR_RESUME=1) continues a layout that its time limit stopped: LibreLane's
own resumption (`--from` the step the last attempt of build/<d>/pnr_attempts/ was in, on the same
run folder, from the state the last finished step left). It refuses where the configuration or the
post-synthesis netlist has changed since. The result's runtime_s is then the sum of the steps'
times (the stopped step's lost part not counted) and metrics.json's `resumed` says so.
"""
import argparse
import datetime
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from importlib.metadata import version
from pathlib import Path

import layout
from eda import find_layout_tools, layout_env, openroad_commit
from pdk import CORNERS, PDK, ROOT, FlowError, find_pdk, shown

LAYOUT = json.loads((ROOT / "pdk_config" / "layout.json").read_text())
RUN_TAG = "pnr"


def target_period_ns(synth_metrics: dict) -> float:
    """The target clock of the layout run from the post-synthesis critical path (pdk_config/layout.json `clock`)."""
    c = LAYOUT["clock"]
    cp = synth_metrics["critical_path_ns__corner"][c["corner"]]
    step = c["round_up_ns"]
    return round(math.ceil(cp / step - 1e-9) * step, 4)


def pnr_config(design: str, manifest: dict, pdk, period_ns: float, extra: dict = None, tools=None,
               synth: dict = None) -> dict:
    """The Classic configuration of one design (written to build/<d>/librelane/config.pnr.json);
    `synth` is its post-synthesis metrics.json (current_synthesis), which sizes a die with macros."""
    sram = manifest.get("sram") or {}
    c = {
        "DESIGN_NAME": design,
        "VERILOG_FILES": [f"dir::../rtl/{design}.v"],  # Yosys.JsonHeader and the linter read the RTL
        "CLOCK_PORT": "clk",
        "CLOCK_PERIOD": period_ns,
        "MODFORGE_NETLIST": f"dir::../harden/{design}.nl.v",
        "MODFORGE_SYNTH_METRICS": "dir::../harden/metrics.json",
        **{k: v for k, v in LAYOUT["librelane"].items()},
        **(extra or {}),
        "meta": {"version": 2, "flow": "Classic", "substituting_steps": {"Yosys.Synthesis": "Modforge.Netlist"}},
    }
    gds, fixes = pdk.layout_cell_gds(layout.BUILD / "pdk_layout")
    if fixes:  # a copy with its open boundaries closed (flow/pdk.py layout_cell_gds)
        c["CELL_GDS"] = [str(gds)]
    if sram.get("macro_models"):
        c.update(macro_floorplan(design, sram["macro_models"], pdk, tools, synth["design__instance__area"]))
    return c


def macro_floorplan(design: str, names, pdk, tools, stdcell_area_um2: float) -> dict:
    """MACROS with each instance placed (flow/macro_place.py), the die that holds them, their power
    hookup and halos (pdk_config/layout.json `macro`), and their views for the layout: a black-box
    header for the lint (flow/macro_blackbox.py) and, where the PDK has no GDS, the LEF abstract's
    (flow/macro_abstract.py), which both GDS writers merge (KLAYOUT_CONFLICT_RESOLUTION below)."""
    from configs import macros_config
    from macro_abstract import abstract_gds
    from macro_blackbox import blackbox_header
    from macro_place import floorplan, lef_size_um, netlist_instances
    from pdk import sram_views
    mc = LAYOUT["macro"]
    out = layout.BUILD / "pdk_layout"
    m = macros_config(pdk, names, with_macros=True)["MACROS"]
    views = {n: sram_views(pdk, n) for n in m}
    insts = netlist_instances(layout.netlist(design), list(m))
    if not insts:
        raise FlowError(f"{design}: its manifest names macros {sorted(m)}, but its netlist instantiates none")
    fp = floorplan(insts, {n: lef_size_um(v.lef, n) for n, v in views.items()}, stdcell_area_um2,
                   LAYOUT["librelane"]["FP_CORE_UTIL"] / 100, mc["halo_um"], mc["edge_um"], growth=mc["growth"])
    for name, macro in m.items():
        v = views[name]
        macro["vh"] = [str(blackbox_header(v.verilog, name, out))]
        if not v.gds:  # the PDK subset: place from the LEF, stream out its abstract (flow/macro_abstract.py)
            macro["gds"] = [str(abstract_gds(pdk, name, v.lef, out, tools.found["magic"]))]
        macro["instances"] = {i: {"location": list(fp["places"][i][:2]), "orientation": fp["places"][i][2]}
                              for i, n in insts if n == name}
    side = fp["side_um"]
    c = {"MACROS": m, "FP_SIZING": "absolute", "DIE_AREA": [0, 0, side, side],
         "PDN_MACRO_CONNECTIONS": [f"{re.escape(i)} {mc['power'][0]} {mc['power'][1]} {mc['pins'][0]} {mc['pins'][1]}"
                                   for i, _ in insts],
         "FP_MACRO_HORIZONTAL_HALO": mc["halo_um"] / 2, "FP_MACRO_VERTICAL_HALO": mc["halo_um"] / 2,
         "PDN_HORIZONTAL_HALO": mc["halo_um"] / 2, "PDN_VERTICAL_HALO": mc["halo_um"] / 2}
    # The OpenRAM LEFs have no FOREIGN statement, so KLayout's stream-out builds each macro as a real
    # cell from its LEF, clears it, and with LibreLane's default (RenameCell) merges the macro's GDS
    # under another name: the macro came out empty (1,138 XOR differences against Magic's GDS, all
    # on the macros' pins, ntt_16_32_p1_gshoup_sram on 2026-11-28). AddToCell fills the cleared cell.
    c["KLAYOUT_CONFLICT_RESOLUTION"] = "AddToCell"
    return c


def current_synthesis(design: str) -> dict:
    """build/<d>/harden/metrics.json if it was made from the current RTL; FlowError otherwise."""
    from harden import rtl_sha256
    f = layout.metrics(design)
    if not f.exists():
        raise FlowError(f"{shown(f)} is missing: layout starts from the post-synthesis netlist.\n"
                        f"Fix: make harden DESIGN={design}")
    m = json.loads(f.read_text())
    if m.get("rtl_sha256") != rtl_sha256(design):
        raise FlowError(f"{shown(f)} was made from other RTL than {shown(layout.rtl(design))}.\n"
                        f"Fix: make harden DESIGN={design}")
    return m


def current_layout(design: str):
    """build/<d>/pnr/metrics.json if it was made from the design's current RTL, else None."""
    from harden import rtl_sha256
    f = layout.design_dir(design) / "pnr" / "metrics.json"
    try:
        m = json.loads(f.read_text())
    except (OSError, ValueError):
        return None
    return m if layout.rtl(design).exists() and m.get("rtl_sha256") == rtl_sha256(design) else None


def _float(v):
    return None if v is None else float(v)


def corner_figures(final: dict, period_ns: float, half_cycle: dict = None) -> dict:
    """Per PDK corner (tt, ss, ff): worst setup and hold slack over the RC corners, and the critical
    path: the smallest period that meets setup. A path between like edges needs period - slack; a
    path from one edge to the other (an OpenRAM macro's read data, launched at the falling edge:
    flow/sta.py) has half the period and needs period - 2 slack. LibreLane's worst-slack metrics
    do not tell the kinds apart: where STAPostPNR's reports list half-cycle paths (`half_cycle`,
    from half_cycle_slacks), each kind's worst slack comes from the reports and the larger need
    wins; otherwise every path is taken to have the whole period."""
    out = {}
    for corner in CORNERS:
        setup = [float(v) for k, v in final.items() if k.startswith("timing__setup__ws__corner:") and k.endswith(corner)]
        hold = [float(v) for k, v in final.items() if k.startswith("timing__hold__ws__corner:") and k.endswith(corner)]
        r2r = [float(v) for k, v in final.items() if k.startswith("timing__setup_r2r__ws__corner:") and k.endswith(corner)]
        half = (half_cycle or {}).get(corner) or {}
        if not setup:
            continue
        ws = min(setup)
        cp = period_ns - ws
        cp_r2r = period_ns - min(r2r) if r2r else None
        if half.get("ws_ns") is not None:
            full = half.get("full_ws_ns")
            cp = max(period_ns - (ws if full is None else full), period_ns - 2 * half["ws_ns"])
            if cp_r2r is not None and half.get("ws_r2r_ns") is not None:
                full_r2r = half.get("full_ws_r2r_ns")
                cp_r2r = max(period_ns - (min(r2r) if full_r2r is None else full_r2r), period_ns - 2 * half["ws_r2r_ns"])
        out[corner] = {"setup_ws_ns": round(ws, 4), "hold_ws_ns": round(min(hold), 4) if hold else None,
                       "critical_path_ns": round(cp, 4),
                       # register to register only: no port, so none of the SDC's I/O delay in it
                       "critical_path_r2r_ns": round(cp_r2r, 4) if cp_r2r is not None else None}
        if half.get("paths"):
            out[corner]["half_cycle_ws_ns"] = half["ws_ns"]
    return out


# What LibreLane's Classic flow runs before each of its mid-flow STAs (OpenROAD.STAMidPNR), in its order: the
# OpenROAD step a timing figure of a stopped run comes after. Before global routing, wires are estimated from the
# placement; from it on, from the global routes.
MID_STA_AFTER = {"openroad-globalplacement": "global placement", "openroad-repairdesignpostgpl": "the resizer's design repair",
                 "openroad-cts": "clock tree synthesis", "openroad-resizertimingpostcts": "the post-CTS timing repair",
                 "openroad-globalrouting": "global routing", "openroad-repairantennas": "global routing and antenna repair"}


def mid_timing(run: Path, period_ns: float, before: float = None):
    """The last timing a layout reached before detailed routing: LibreLane's last finished OpenROAD.STAMidPNR of the
    run folder (one whose state_out.json exists, written no later than `before`, a time stamp, where given).

    That STA runs at the nominal tt corner only (its state's other corners are carried over from the pre-layout STA,
    so they are not read), with wires estimated from the placement or, after global routing, from the global routes,
    and the clock tree propagated once built. Every path is taken to have the whole period (as corner_figures does
    without half-cycle reports). {"after": the OpenROAD step it follows, as MID_STA_AFTER names it,
    "global_routes": whether its wires are the global routes, "cp_tt_ns": the period minus its worst setup slack,
    "stdcell_area_um2", "cells" (standard cells then: buffers, clock tree and taps included), "step": its folder},
    or None where the run has none."""
    steps = sorted((int(x.name.split("-", 1)[0]), x.name.split("-", 1)[1], x) for x in run.iterdir()
                   if x.is_dir() and x.name.split("-", 1)[0].isdigit() and "-" in x.name)  # (number, step, folder)
    done = [(n, x) for n, name, x in steps if name.startswith("openroad-stamidpnr") and (x / "state_out.json").exists()
            and (before is None or (x / "state_out.json").stat().st_mtime <= before)]
    if not done:
        return None
    n, found = done[-1]
    m = json.loads((found / "state_out.json").read_text())["metrics"]
    ws = m.get(f"timing__setup__ws__corner:nom_{CORNERS[0]}")
    if ws is None:
        return None
    prior = [name for k, name, _ in steps if k < n and name in MID_STA_AFTER]
    after = max(prior, key=list(MID_STA_AFTER).index) if prior else None
    return {"after": MID_STA_AFTER.get(after, "the floorplan"), "global_routes": after in ("openroad-globalrouting", "openroad-repairantennas"),
            "cp_tt_ns": round(period_ns - float(ws), 4), "stdcell_area_um2": m.get("design__instance__area__stdcell"),
            "cells": m.get("design__instance__count__stdcell"), "step": found.name}


def half_cycle_slacks(run: Path) -> dict:
    """Per PDK corner, over the RC corners' STAPostPNR setup reports (max.rpt, sta.half_cycle_worst):
    the worst slack of the paths from one clock edge to the other and of those between like edges;
    {} for a corner whose reports list no path of the first kind."""
    from sta import half_cycle_worst
    step = next(iter(sorted(run.glob("*-openroad-stapostpnr"))), None)
    out = {}

    def worst(found, key):
        return min((h[key] for h in found if h[key] is not None), default=None)
    for corner in CORNERS:
        found = [half_cycle_worst(f.read_text(errors="replace")) for f in sorted(step.glob(f"*_{corner}/max.rpt"))] if step else []
        found = [h for h in found if h["paths"]]
        if found:
            out[corner] = {k: worst(found, k) for k in ("ws_ns", "ws_r2r_ns", "full_ws_ns", "full_ws_r2r_ns")}
            out[corner]["paths"] = sum(h["paths"] for h in found)
    return out


def peak_gb(steps: dict) -> float:
    """The largest peak memory of the steps (harden.step_stats), GB."""
    return round(max((s["peak_mb"] for s in steps.values()), default=0) / 1024, 2)


def picture(run: Path, out: Path) -> bool:
    """The final GDS drawn by flow/layout_picture.py (metals only); LibreLane's KLayout.Render picture,
    shrunk, where that cannot draw; False where neither is there."""
    import layout_picture
    gds = next(iter(sorted((run / "final" / "gds").glob("*.gds"))), None)
    if gds and layout_picture.draw(gds, out):
        return True
    src = next(iter(sorted(run.glob("*-klayout-render/*.png"))), None)
    if src is None:
        return False
    from PIL import Image
    with Image.open(src) as im:
        im.thumbnail((layout_picture.PICTURE_PX, layout_picture.PICTURE_PX))
        im.convert("RGB").quantize(64).save(out, optimize=True)
    return True


def tree_rss_mb(root_pid: int) -> float:
    """Resident memory of root_pid's descendants (not itself), MB, from /proc: the step LibreLane is running, with its
    tools. A stopped step's own peak is in no step record (harden.step_stats reads finished steps), so the sampler
    takes this beside the load."""
    children = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            pages = int((d / "statm").read_text().split()[1])
        except (OSError, ValueError, IndexError):
            continue  # a process that ended while read
        children.setdefault(ppid, []).append((int(d.name), pages))
    total, todo = 0, [root_pid]
    while todo:
        for pid, pages in children.get(todo.pop(), []):
            total += pages
            todo.append(pid)
    return total * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


class LoadSampler:
    """The machine's 1-minute load average, sampled every `every_s` seconds while a layout runs: its time is a
    measurement (reports/pnr.md fits the runtime model to it), and a run that shared the cores with other work
    (a test suite, a second layout) must say so. `figures()`: mean and max over the samples, with the core count;
    LibreLane's steps use up to 2 threads (DRT_THREADS), so a mean well above that means the run shared its cores."""

    def __init__(self, every_s: float = 30.0):
        self.samples, self.rss_mb, self._stop = [], [], threading.Event()
        self._thread = threading.Thread(target=self._run, args=(every_s,), daemon=True)

    def _run(self, every_s):
        while not self._stop.is_set():
            self.samples.append(os.getloadavg()[0])
            self.rss_mb.append(tree_rss_mb(os.getpid()))
            self._stop.wait(every_s)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()

    def figures(self) -> dict:
        s = self.samples or [os.getloadavg()[0]]
        return {"mean": round(sum(s) / len(s), 2), "max": round(max(s), 2), "samples": len(s), "cores": os.cpu_count(),
                # the largest resident memory of the flow's processes at a sample (the step then running included)
                "rss_max_mb": round(max(self.rss_mb, default=0))}


def record_attempt(design: str, e, period: float, synth: dict, tools, extra: dict, load: dict = None):
    """build/<d>/pnr_attempts/<date>.json: a layout stopped by its time limit, the step it was in,
    the steps finished before it with their time and memory (reports/pnr.csv gives its row)."""
    from harden import step_stats
    run = layout.librelane_dir(design) / "runs" / RUN_TAG
    steps = step_stats(run) if run.exists() else {}
    date = datetime.datetime.now(datetime.timezone.utc)
    rec = {"design": design, "step": e.step, "runtime_s": round(e.elapsed_s, 1), "limit_s": e.limit_s,
           "clock_period_ns": period, "synth_cells": synth["design__instance__count"],
           "synth_date": synth.get("date"),
           "settings": {**LAYOUT["librelane"], **(extra or {})},
           # the finished steps' peak, or the sampled memory where larger (the stopped step's own, which no
           # step record has: barrett_256's repair_design held 9.5 GB when its record said 4.0, 2026-11-30)
           "peak_mem_gb": max(peak_gb(steps), round((load or {}).get("rss_max_mb", 0) / 1024, 2)),
           "steps_finished": steps, "mid_timing": mid_timing(run, period) if run.exists() else None,
           "openroad_commit": openroad_commit(tools.found["openroad"])[:8],
           "load_1m": load, "date": date.strftime("%Y-%m-%d %H:%M UTC")}
    out = layout.design_dir(design) / "pnr_attempts" / f"{date.strftime('%Y%m%dT%H%M%S')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rec, indent=2) + "\n")
    print(f"[pnr {design}] {e}; recorded in {shown(out)}", file=sys.stderr)


def deferred_errors(log: Path) -> list:
    """The checkers' errors LibreLane defers to the end of a run ("One or more deferred errors were
    encountered:", e.g. hold violations at a corner), from the log's last run: every step ran, and the
    flow's exit status is 2. Empty where the log has none."""
    text = log.read_text(errors="replace") if log.exists() else ""
    at = text.rfind("One or more deferred errors were encountered:")
    if at < 0:
        return []
    out = []
    for line in text[at:].splitlines()[1:]:
        if "LibreLane will now quit" in line or re.match(r"\[\d\d:\d\d:\d\d\]", line):
            break
        line = line.strip()
        if line.startswith("*") and out:  # a corner of the error above: "...corners: a, b"
            out[-1] += (" " if out[-1].endswith(":") else ", ") + line.lstrip("* ").strip()
        elif line:
            out.append(line)
    return out


def last_attempt(design: str):
    """(path, record) of the newest build/<d>/pnr_attempts/*.json, or (None, None)."""
    files = sorted((layout.design_dir(design) / "pnr_attempts").glob("*.json"))
    return (files[-1], json.loads(files[-1].read_text())) if files else (None, None)


def first_step_time(run: Path) -> float:
    """When the run folder's first step started (its folder's mtime), or 0."""
    firsts = sorted(d for d in run.glob("*-*") if re.match(r"0*1-", d.name))
    return firsts[0].stat().st_mtime if firsts else 0.0


def resume_librelane(design: str, cfg: Path, pdk_root: Path, log: Path, env: dict, step: str,
                     timeout_s: float = None) -> Path:
    """harden.run_librelane on the existing run folder, from `step` (LibreLane `--from`, no
    `--overwrite`): the steps before it are kept, and the newest state_out.json is the state it
    starts from. A step folder left without state_out.json by the stopped run is removed first.
    (run_librelane itself cannot take the arguments: harden.py is in the flow hash of every
    synthesis, and an edit there would date them all.)"""
    from harden import TimeLimit, _signal_groups, librelane_binary, stop_group
    run = cfg.parent / "runs" / RUN_TAG
    for d in run.iterdir():
        if d.is_dir() and re.match(r"\d+-", d.name) and not (d / "state_out.json").exists():
            shutil.rmtree(d)
    shutil.rmtree(run / "final", ignore_errors=True)
    cmd = [librelane_binary(), "--manual-pdk", "--pdk-root", str(pdk_root), "-p", PDK,
           "--run-tag", RUN_TAG, "--from", step, "--condensed", "--hide-progress-bar", str(cfg)]
    t0, current_step, timer = time.monotonic(), step, None
    with open(log, "a") as f:
        f.write(f"\n--- resumed from {step}: {' '.join(cmd)}\n")
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True, env=env)
        if timeout_s:
            timer = threading.Timer(timeout_s, _signal_groups, ({p.pid}, signal.SIGTERM))
            timer.daemon = True
            timer.start()
        try:
            for line in p.stdout:
                f.write(line)
                m = re.search(r"Running '([\w.]+)'", line)
                if m:
                    current_step = m.group(1)
                    print(f"[pnr {design} {time.monotonic() - t0:6.1f} s] running {current_step} (resumed)", flush=True)
            rc = p.wait()
        except BaseException:
            stop_group(p)
            raise
        finally:
            if timer:
                timer.cancel()
    elapsed = time.monotonic() - t0
    if timeout_s and elapsed >= timeout_s:
        stop_group(p)
        raise TimeLimit(design, current_step, elapsed, timeout_s)
    if rc != 0:
        errors = [l.strip() for l in log.read_text().splitlines() if "ERROR" in l or "[E]" in l][-5:]
        raise RuntimeError(f"{design}: LibreLane failed (exit {rc}) in {current_step}; see {log}\n" + "\n".join(errors))
    return run


def pnr(design: str, period_ns: float = None, extra: dict = None, timeout_min: float = None,
        resume: str = None) -> dict:
    """resume: None for a new layout; "" to continue the stopped one from the step it was in; a step id
    to continue from that step."""
    from harden import TimeLimit, replace_dir, run_librelane, step_stats
    if not layout.manifest(design).exists():
        raise FlowError(f"{shown(layout.manifest(design))} is missing.\nFix: make harden DESIGN={design} "
                        "(it generates the RTL, synthesizes it, then lays it out)")
    manifest = json.loads(layout.manifest(design).read_text())
    synth = current_synthesis(design)
    tools = find_layout_tools()
    if not tools.complete:
        raise FlowError(tools.how_to_get())
    pdk = find_pdk()
    period = period_ns or target_period_ns(synth)
    ll = layout.librelane_dir(design)
    cfg = ll / "config.pnr.json"
    text = json.dumps(pnr_config(design, manifest, pdk, period, extra, tools, synth), indent=2) + "\n"
    resumed = None
    if resume is not None:
        path, att = last_attempt(design)
        run_dir = ll / "runs" / RUN_TAG
        if att is not None and run_dir.is_dir() and first_step_time(run_dir) > path.stat().st_mtime:
            att = None  # the record is of an earlier run: this run folder was started after it
        why = (("no stopped layout is recorded in build/<d>/pnr_attempts/ (a run killed without one, e.g. by the "
                "machine, is resumed only from a step named: PNR_RESUME=<LibreLane step id>)")
               if att is None and not resume else
               f"its run folder {shown(run_dir)} is gone" if not run_dir.is_dir() else
               f"{shown(cfg)} would differ from the stopped run's (other settings, clock or netlist)"
               if not cfg.exists() or cfg.read_text() != text else
               "the netlist was synthesized again since" if (
                   att.get("synth_date", synth.get("date")) != synth.get("date") if att is not None
                   else layout.netlist(design).stat().st_mtime > first_step_time(run_dir)) else None)
        if why:
            raise FlowError(f"{design}: cannot resume the layout: {why}.\nFix: make harden DESIGN={design} "
                            "(without PNR_RESUME: a new layout)")
        resumed = {"from_step": resume or att["step"], "attempt": shown(path) if att else None,
                   "attempt_runtime_s": att["runtime_s"] if att else None}
    else:
        cfg.write_text(text)
    env = layout_env(tools, sys.executable, layout.BUILD / "eda_bin")
    t0 = time.monotonic()
    print(f"[pnr {design}   0.0 s] LibreLane Classic (Modforge.Netlist for Yosys.Synthesis) on {shown(cfg)}, "
          f"target clock {period} ns ({'given' if period_ns else 'post-synthesis ' + LAYOUT['clock']['corner'] + ' critical path, rounded up'}); "
          f"log: {shown(ll / 'pnr.log')}", flush=True)
    sampler = LoadSampler().start()
    try:
        if resumed:
            run = resume_librelane(design, cfg, pdk.root, ll / "pnr.log", env, resumed["from_step"],
                                   timeout_s=timeout_min * 60 if timeout_min else None)
        else:
            run = run_librelane(design, cfg, pdk.root, ll / "pnr.log", env=env, tag=RUN_TAG, prefix="pnr",
                                timeout_s=timeout_min * 60 if timeout_min else None)
    except TimeLimit as e:
        sampler.stop()
        record_attempt(design, e, period, synth, tools, extra, sampler.figures())
        raise
    except RuntimeError:
        # Every step ran and the final views were saved, but a checker's error was deferred to the end
        # (LibreLane exits 2): the results are collected with the errors named (`flow_errors`).
        run = ll / "runs" / RUN_TAG
        flow_errors = deferred_errors(ll / "pnr.log")
        if not flow_errors or not (run / "final" / "metrics.json").exists():
            raise
        print(f"[pnr {design}] LibreLane ran every step but ended with deferred errors: {'; '.join(flow_errors)}. "
              "The results are collected with them (metrics.json flow_errors).", flush=True)
    else:
        flow_errors = []
    finally:
        sampler.stop()
    final = json.loads((run / "final" / "metrics.json").read_text())
    wall = round(time.monotonic() - t0, 1)
    routed_state = next(run.glob("*-openroad-detailedrouting/state_out.json"), None)
    routed = json.loads(routed_state.read_text())["metrics"] if routed_state else {}

    signoff = {k: _float(final.get(k)) for k in LAYOUT["signoff"]}
    half = half_cycle_slacks(run)
    corners = corner_figures(final, period, half)
    work = layout.design_dir(design) / "pnr.partial"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        views = {}
        for sub, pattern, name in (("gds", "*.gds", f"{design}.gds"), ("pnl", "*.pnl.v", f"{design}.pnl.v"),
                                   ("nl", "*.nl.v", f"{design}.routed.nl.v")):
            f = next((run / "final" / sub).glob(pattern), None)
            if f:
                shutil.copy(f, work / name)
                views[sub] = name
        for sdf in (run / "final" / "sdf").glob("*/*.sdf"):  # one folder per corner
            (work / "sdf").mkdir(exist_ok=True)
            shutil.copy(sdf, work / "sdf" / f"{sdf.parent.name}.sdf")
        for spef in (run / "final" / "spef").glob("*/*.spef"):
            (work / "spef").mkdir(exist_ok=True)
            shutil.copy(spef, work / "spef" / f"{spef.parent.name}.spef")
        pic = f"{design}.png" if picture(run, work / f"{design}.png") else None
        steps = step_stats(run)
        macros = (manifest.get("sram") or {}).get("macro_models", [])
        from pdk import sram_views
        abstracts = bool(macros) and not all(sram_views(pdk, m).gds for m in macros)
        metrics = {
            "design": design,
            "rtl_sha256": synth["rtl_sha256"],
            "flow": "LibreLane Classic, Yosys.Synthesis -> Modforge.Netlist",
            "clock_period_ns": period,
            "clock_period_from": "given (--period-ns)" if period_ns else f"post-synthesis {LAYOUT['clock']['corner']} critical path, rounded up",
            "settings": {**LAYOUT["librelane"], **(extra or {})},
            # cells, area and utilization as routed, before fill and decap cells fill the rows (the final
            # figures count those too: utilization 0.95 for any design)
            "cells": int(routed.get("design__instance__count__stdcell") or 0),
            "stdcell_area_um2": _float(routed.get("design__instance__area__stdcell")),
            "macro_count": int(routed.get("design__instance__count__macros") or 0),
            "macro_area_um2": _float(routed.get("design__instance__area__macros")),
            "die_area_um2": _float(final.get("design__die__area")),
            "core_area_um2": _float(final.get("design__core__area")),
            "utilization": _float(routed.get("design__instance__utilization")),
            "corners": corners,
            # the timing before detailed routing (after global routing), beside the routed one: how far a stopped
            # run's last figure is from where routing ends (reports/pnr.md, "Efficiency with width")
            "mid_timing": mid_timing(run, period),
            "half_cycle": half,
            "wns_ns": round(min((c["setup_ws_ns"] for c in corners.values()), default=float("nan")), 4),
            "hold_wns_ns": min((c["hold_ws_ns"] for c in corners.values() if c["hold_ws_ns"] is not None), default=None),
            "signoff": signoff,
            "signoff_clean": all(v == 0 for v in signoff.values()),
            "flow_errors": flow_errors,
            "macros_as_abstracts": abstracts,
            "post_synthesis": {"cells": synth["design__instance__count"], "area_um2": synth["design__instance__area"],
                               "critical_path_ns__corner": synth["critical_path_ns__corner"]},
            "views": views,
            "picture": pic,
            "steps": steps,
            "peak_mem_gb": peak_gb(steps),
            # resumed: the steps' own times (each step ran once to its end; the stopped one's lost
            # part is in `resumed`)
            "runtime_s": round(sum(v["wall_s"] or 0 for v in steps.values()), 1) if resumed else wall,
            "resumed": {**resumed, "resume_wall_s": wall} if resumed else None,
            "load_1m": sampler.figures(),  # the machine's load while it ran (LoadSampler)
            "librelane_metrics": final,
            "run_folder": shown(run),
            "tools": {"LibreLane": version("librelane"),
                      "OpenROAD": openroad_commit(tools.found["openroad"]),
                      "Magic": _version([str(tools.found["magic"]), "--version"]),
                      "Netgen": _netgen_version(tools.found["netgen"]),
                      "KLayout": _version([str(tools.found["klayout"]), "-v"])},
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        }
        (work / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
        (work / "summary.md").write_text(summary(metrics))
        replace_dir(work, layout.design_dir(design) / "pnr")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    cp = ", ".join(f"{k} {v['critical_path_ns']:.3f} ns" for k, v in corners.items())
    bad = {k: v for k, v in signoff.items() if v != 0}
    print(f"[pnr {design} {wall:6.1f} s] post-route critical path {cp}; "
          + ("signoff clean: 0 DRC (router, Magic, KLayout), 0 LVS, 0 antenna" if not bad else f"NOT clean: {bad}"))
    print(f"[pnr {design} {wall:6.1f} s] done: {shown(layout.design_dir(design) / 'pnr' / 'metrics.json')}, GDS "
          f"{shown(layout.design_dir(design) / 'pnr' / views.get('gds', '?'))}")
    return metrics


def _version(cmd) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    m = re.search(r"\d+\.\d+(\.\d+)?", out)
    return m.group(0) if m else out.strip()[:40]


def _netgen_version(exe: Path) -> str:
    try:
        out = subprocess.run([str(exe), "-batch"], input="quit\n", capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    m = re.search(r"Netgen (\d+\.\d+\.\d+)", out)
    return m.group(1) if m else "?"


def summary(m: dict) -> str:
    rows = "\n".join(f"| {c} | {v['critical_path_ns']:.3f} | {m['post_synthesis']['critical_path_ns__corner'].get(c, float('nan')):.3f} "
                     f"| {v['setup_ws_ns']:.3f} | {v['hold_ws_ns'] if v['hold_ws_ns'] is not None else 'absent'} |"
                     for c, v in m["corners"].items())
    steps = "\n".join(f"| {s} | {v['wall_s']} | {v['peak_mb']} |" for s, v in m["steps"].items())
    sign = "\n".join(f"| {LAYOUT['signoff'][k]} (`{k}`) | {'absent' if v is None else int(v)} |" for k, v in m["signoff"].items())
    pic = f"\n![{m['design']}]({m['picture']})\n" if m.get("picture") else ""
    return f"""# {m['design']}: layout (LibreLane Classic)

Target clock {m['clock_period_ns']} ns ({m['clock_period_from']}). Signoff {'clean' if m['signoff_clean'] else '**NOT clean**'}.
{'Macros placed from their LEF abstracts (no GDS in this PDK): DRC and LVS treat them as abstracts.' if m['macros_as_abstracts'] else ''}
| | post-route | post-synthesis |
|---|---|---|
| cells | {m['cells']} | {m['post_synthesis']['cells']} |
| standard-cell area (um2) | {m['stdcell_area_um2']} | {m['post_synthesis']['area_um2']} |
| die / core area (um2) | {m['die_area_um2']} / {m['core_area_um2']} | |
| utilization | {m['utilization']} | |

| corner | critical path post-route (ns) | post-synthesis (ns) | setup WNS (ns) | hold WNS (ns) |
|---|---|---|---|---|
{rows}

| check | violations |
|---|---|
{sign}
{pic}
| LibreLane step | wall time (s) | peak memory (MB) |
|---|---|---|
{steps}

Tools: {', '.join(f'{k} {v}' for k, v in m['tools'].items())}. Date: {m['date']}. Run time: {m['runtime_s']} s, peak memory {m['peak_mem_gb']} GB.
"""


def main():
    from harden import Interrupted, TimeLimit, exit_interrupted, layout_skip_reason, stop_on_signals
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("design")
    ap.add_argument("--tools", choices=("on", "auto"), default="on",
                    help="auto: where OpenROAD, Magic, Netgen or KLayout is missing, say what is skipped and exit 0 "
                         "(make harden); on: that is an error (default)")
    ap.add_argument("--period-ns", type=float, default=None,
                    help="target clock (default: the post-synthesis critical path at pdk_config/layout.json's clock "
                         "corner, ss, rounded up)")
    ap.add_argument("--time-limit-min", type=float, default=None,
                    help="stop the flow after this many minutes and record the step it was in (build/<d>/pnr_attempts/)")
    ap.add_argument("--if-stale", action="store_true",
                    help="only if build/<d>/pnr/ is missing or was made from other RTL (make test-long)")
    ap.add_argument("--resume", nargs="?", const="", default=None, metavar="STEP",
                    help="continue the layout the time limit stopped, from the step it was in, or from STEP (a LibreLane "
                         "step id, e.g. Checker.SetupViolations) on the same run folder (same settings)")
    ap.add_argument("--set", action="append", default=[], metavar="VAR=JSON",
                    help="a LibreLane variable for this run, e.g. --set FP_CORE_UTIL=35 (recorded in metrics.json)")
    a = ap.parse_args()
    extra = {}
    for s in a.set:
        k, sep, v = s.partition("=")
        if not sep or not k:
            ap.error(f"--set {s!r}: use VAR=JSON, e.g. --set FP_CORE_UTIL=35")
        try:
            extra[k] = json.loads(v)
        except json.JSONDecodeError:
            extra[k] = v
    tools = find_layout_tools()
    if not tools.complete and a.tools == "auto":
        print(f"[pnr {a.design}] layout skipped (floorplan, placement, CTS, routing, RC extraction, post-route STA, "
              f"GDS, DRC, LVS, antenna): {layout_skip_reason(tools)}\n" + tools.how_to_get())
        return
    if a.if_stale and (old := current_layout(a.design)):
        print(f"[pnr {a.design}] the layout is up to date with the RTL ({old['date']}): build/{a.design}/pnr/")
        return
    stop_on_signals()
    try:
        m = pnr(a.design, a.period_ns, extra, a.time_limit_min, a.resume)
        synth_s = json.loads(layout.metrics(a.design).read_text()).get("wall_s") or 0
        print(f"[pnr {a.design}] make harden took {synth_s + m['runtime_s']:.0f} s: synthesis and STA "
              f"{synth_s:.0f} s, layout to GDS {m['runtime_s']:.0f} s")
    except TimeLimit as e:
        sys.exit(f"pnr: {e} (recorded in build/{a.design}/pnr_attempts/; build/{a.design}/pnr/ is as it was)")
    except (FlowError, RuntimeError) as e:
        sys.exit(f"pnr: error: {e}")
    except Interrupted as e:
        exit_interrupted("pnr", a.design, "LibreLane and its steps", layout.design_dir(a.design) / "pnr", e)


if __name__ == "__main__":
    main()
