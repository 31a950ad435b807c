#!/usr/bin/env python3
"""Layout results: one row per design taken through LibreLane's Classic flow (flow/pnr.py).

    flow/reports/pnr_table.py [--partial] [DESIGN...]

Collects build/<d>/pnr/metrics.json (a finished layout) and, for a design whose layout did not
finish, its last attempt, build/<d>/pnr_attempts/*.json (the step that was running when the time
limit stopped it, with its time and memory). Default designs: every design of the build folder
with either, and every design already in reports/pnr.csv.

A layout takes hours, and build/ is not committed: so a finished layout's metrics.json is kept
beside its picture, as reports/pnr/<d>.json, and read from there where build/ has none (a fresh
clone, another machine). A row of reports/pnr.csv with neither (layouts finished before the json
was kept) is carried over as it stands, and the report names it. So a run of this script never
drops an earlier layout. Never runs the flow itself (make harden DESIGN=<d>, or flow/pnr.py). Writes:
  reports/pnr.csv            one row per design: the columns of PNR_COLUMNS
  reports/pnr.md             the same with the post-synthesis figures beside, the signoff checks one
                             by one, the runtime model (time against cells, fitted to the finished
                             runs) and which designs it predicts to fit in BUDGET_H hours
  reports/pnr/<d>.png        a small rendering of each layout (KLayout, headless)
  reports/pnr/<d>.json       the layout's metrics (build/<d>/pnr/metrics.json), kept
"""
import argparse
import json
import math
import re
import shutil
import sys
from pathlib import Path

import layout
from pdk import CORNERS
from reports import pnr_runtime
from reports.common import REPORTS, fmt, md_head, read_csv, stamp, write_csv, write_md

PNR_COLUMNS = ["design", "status", "cells", "die_area_um2", "core_area_um2", "utilization", "clock_period_ns",
               "cp_tt_ns", "cp_ss_ns", "cp_ff_ns", "cp_r2r_tt_ns", "cp_r2r_ss_ns", "cp_r2r_ff_ns", "wns_ns", "drc_violations", "lvs_errors", "antenna_violations",
               "macros_as_abstracts", "runtime_s", "peak_mem_gb", "openroad_commit",
               "synth_cells", "synth_area_um2", "synth_cp_tt_ns", "synth_cp_ss_ns", "synth_cp_ff_ns", "detailed_routing_s",
               "last_sta_after", "last_sta_cp_tt_ns", "last_sta_area_um2"]
# last_sta_*: the last timing the run reached before detailed routing (flow/pnr.py mid_timing: LibreLane's last
# OpenROAD.STAMidPNR, tt only, wires estimated), the OpenROAD step it followed, and the standard cells' area then. For a
# stopped run, its last figures; for a finished one, those after global routing, to set beside its routed ones.
ROUTING_STEP = "openroad-detailedrouting"
CORNER_COLUMN = {CORNERS[0]: "tt", CORNERS[1]: "ss", CORNERS[2]: "ff"}
BUDGET_H = 2.5  # the issue's limit for one design's flow on this machine


def result(d: str):
    """A finished layout's metrics: build/<d>/pnr/metrics.json, else the copy kept in reports/pnr/<d>.json. A build/
    run that shared the cores (ran_shared) does not replace a kept run of the same RTL, clock and settings that ran
    alone, or shared them less (a lower mean load): its step times are the machine's load, not the flow's (make test
    lays out mul_8 beside two other chains)."""
    got = [json.loads(f.read_text()) for f in (layout.design_dir(d) / "pnr" / "metrics.json", REPORTS / "pnr" / f"{d}.json")
           if f.exists()]
    if len(got) == 2:
        new, kept = got
        same = all(new.get(k) == kept.get(k) for k in ("rtl_sha256", "clock_period_ns", "settings"))
        less = not ran_shared(kept) or kept["load_1m"]["mean"] < new["load_1m"]["mean"]
        if same and ran_shared(new) and less and kept.get("signoff_clean"):
            return {**kept, "_kept_over_build": True}
    return got[0] if got else None


def committed_rows() -> dict:
    """{design: row} of reports/pnr.csv as it stands, typed as row() types them, each marked `_kept`: the
    layouts whose metrics are neither in build/ nor kept in reports/pnr/ (finished before they were kept)."""
    rows = {}
    for r in read_csv(REPORTS / "pnr.csv"):
        t = {}
        for k, v in r.items():
            if k in ("design", "status", "openroad_commit", "last_sta_after"):
                t[k] = v
            elif k == "macros_as_abstracts":  # empty for a stopped layout: not known
                t[k] = None if v in ("", None) else v == "True"
            elif v in ("", None):
                t[k] = None
            else:
                t[k] = float(v) if any(ch in v for ch in ".eE") else int(v)
        t["_kept"] = True
        rows[r["design"]] = t
    # Their signoff checks one by one and their longest steps, from the report the same runs wrote (reports/pnr.md
    # as it stands), so that a rerun here neither drops them nor needs their metrics.
    signoff, steps = report_table("Signoff checks, one by one"), report_table("Where the time goes")
    for d, t in rows.items():
        if d in signoff.get("rows", {}):
            t["_signoff"] = {k: _num(v) for k, v in zip(signoff["head"], signoff["rows"][d])}
        cells = {step: vals[steps["head"].index(d)] for step, vals in steps.get("rows", {}).items() if d in steps["head"]}
        t["_steps"] = {step: {"wall_s": _num(v.split(" s, ")[0]), "peak_mb": _num(v.split(" s, ")[-1].split(" MB")[0])}
                       for step, v in cells.items() if " s, " in v}
        if t.get("detailed_routing_s") is None:  # written before the csv had the column
            t["detailed_routing_s"] = (t["_steps"].get(ROUTING_STEP) or {}).get("wall_s")
        a = carried_attempt(t.get("status") or "", d)
        if a:
            t["_attempt"] = a
    return rows


def stopped_status(step: str, runtime_s: float, limit_s: float) -> str:
    """A stopped layout's status in reports/pnr.csv; STOPPED reads it back (carried_attempt)."""
    return f"stopped in {step} after {runtime_s:.0f} s (limit {limit_s:.0f} s)"


STOPPED = re.compile(r"stopped in (\S+) after (\d+) s \(limit (\d+) s\)")
LOAD = re.compile(r"load ([\d.]+) mean, ([\d.]+) max")


def carried_attempt(status: str, d: str):
    """A stopped layout whose attempt record is not at hand (build/ of another machine), rebuilt from what the report
    kept of it: the step and the limit from its status in reports/pnr.csv, the machine's load while it ran from its
    row in reports/pnr.md as it stands; so the runtime model's check of where it stopped (stop_agreement) survives a
    regeneration without that build/. Whether the step comes after detailed routing follows from the Classic flow's
    step order (the record's finished steps are not kept). None for a row that is not a stopped layout."""
    got = STOPPED.search(status)
    if not got:
        return None
    a = {"step": got.group(1), "runtime_s": float(got.group(2)), "limit_s": float(got.group(3)), "_carried": True,
         "steps_finished": [ROUTING_STEP] if after_routing(got.group(1)) else []}
    f = REPORTS / "pnr.md"
    for line in (f.read_text().splitlines() if f.exists() else []):
        load = LOAD.search(line) if line.startswith(f"| {d} |") else None
        if load:
            a["load_1m"] = {"mean": float(load.group(1)), "max": float(load.group(2))}
    return a


def after_routing(step: str) -> bool:
    """Whether a LibreLane step comes after OpenROAD.DetailedRouting in the Classic flow."""
    from librelane.flows.classic import Classic
    ids = [s.id for s in Classic.Steps]
    return step in ids and ids.index(step) > ids.index("OpenROAD.DetailedRouting")


def _num(v: str):
    try:
        return float(v)
    except ValueError:
        return None


def report_table(title: str) -> dict:
    """The table under reports/pnr.md's "## <title>" as it stands: {head: its column names after the first,
    rows: {first cell: [the other cells]}}; {} where the report or the section is absent. A design marked * there
    (carried over) is read under its name."""
    f = REPORTS / "pnr.md"
    lines = f.read_text().splitlines() if f.exists() else []
    if f"## {title}" not in lines:
        return {}
    body = []
    for l in lines[lines.index(f"## {title}") + 1:]:
        if l.startswith("## "):
            break
        if l.startswith("|"):
            body.append([c.strip().removesuffix(" *") for c in l.strip().strip("|").split("|")])
    if len(body) < 2:
        return {}
    return {"head": body[0][1:], "rows": {r[0]: r[1:] for r in body[2:]}}


def last_attempt(d: str):
    files = sorted((layout.design_dir(d) / "pnr_attempts").glob("*.json"))
    return {**json.loads(files[-1].read_text()), "_file": str(files[-1])} if files else None


def last_sta(d: str, m: dict = None, a: dict = None) -> dict:
    """The last_sta_* columns of a finished layout (its metrics m) or a stopped one (its attempt a): the figures
    pnr.py recorded (mid_timing), else read from the run folder where build/ still has it (runs recorded before
    pnr.py kept them: for a finished run, only its own, whose final metrics are its metrics; for an attempt, only a
    run folder no newer than the attempt's record), else those of
    reports/pnr.csv as it stood for the same run (same runtime_s)."""
    from pnr import mid_timing
    got = (m or a or {}).get("mid_timing")
    run = layout.librelane_dir(d) / "runs" / "pnr"
    folder = layout.ROOT / m["run_folder"] if m is not None and m.get("run_folder") else None
    if got is None and folder and (folder / "final" / "metrics.json").exists() and \
            json.loads((folder / "final" / "metrics.json").read_text()) == m.get("librelane_metrics"):  # that run's folder
        got = mid_timing(folder, m["clock_period_ns"])
    if got is None and a is not None and run.is_dir():
        got = mid_timing(run, a["clock_period_ns"], before=Path(a["_file"]).stat().st_mtime + 60)
    if got is not None:
        return {"last_sta_after": got["after"], "last_sta_cp_tt_ns": got["cp_tt_ns"], "last_sta_area_um2": got["stdcell_area_um2"]}
    old = committed_rows().get(d) or {}
    runtime = (m or a or {}).get("runtime_s")
    if old.get("last_sta_cp_tt_ns") is not None and runtime is not None and old.get("runtime_s") == round(runtime, 1):
        return {k: old.get(k) for k in ("last_sta_after", "last_sta_cp_tt_ns", "last_sta_area_um2")}
    return {}


def clean_status(m: dict) -> str:
    """'signoff clean' or 'NOT clean' (DRC, LVS, antenna), and a hold violation where a corner has one
    (LibreLane's hold checker then ended the run with a deferred error: pnr.py flow_errors)."""
    s = "signoff clean" if m["signoff_clean"] else "NOT clean"
    hold = m.get("hold_wns_ns")
    if hold is not None and hold < 0:
        bad = [c for c, v in m["corners"].items() if (v.get("hold_ws_ns") or 0) < 0]
        s += f"; hold violated by {-hold:.3f} ns at {', '.join(bad)}"
        r2r = hold_r2r_ws_ns(m)
        if r2r is not None:
            # A path that starts or ends at a port is timed against LibreLane's SDC I/O delay (20% of the period)
            # from an ideal external clock, beside a clock tree with its own insertion delay: say which kind fails.
            s += (f" (register to register too: {r2r:.3f} ns)" if r2r < 0 else
                  f" on paths from or to ports only; register to register at least {r2r:+.3f} ns at every corner")
    return s


def hold_r2r_ws_ns(m: dict):
    """The worst register-to-register hold slack over every corner, from LibreLane's own metrics
    (timing__hold_r2r__ws__corner:<rc>_<corner>) kept in metrics.json; None where they are not kept."""
    got = [float(v) for k, v in (m.get("librelane_metrics") or {}).items()
           if k.startswith("timing__hold_r2r__ws__corner:") and v is not None]
    return min(got) if got else None


def layout_status(d: str) -> str:
    """How a design stands in layout, for the tables that set post-route beside post-synthesis:
    'signoff clean', 'NOT clean', 'stopped in <step> after <s> s', or 'no layout run'."""
    m = result(d)
    if m:
        return clean_status(m)
    a = last_attempt(d)
    if a:
        return f"stopped in {a['step']} after {a['runtime_s']:.0f} s"
    kept = committed_rows().get(d)
    return kept["status"] if kept else "no layout run"


def post_route(d: str):
    """(critical path at tt post-route, standard-cell area as routed) of a finished layout, or None.

    A row carried over from reports/pnr.csv (its metrics never kept) has no cell-area column: its area is
    utilization x core area, the quotient LibreLane's design__instance__utilization is, read back. For a
    design without macros the instances are the standard cells (kept layouts agree to the figures' rounding, under 0.5 um2:
    test_pnr.py, test_post_route_area_of_a_carried_row_is_its_utilization_read_back)."""
    m = result(d)
    if m:
        return (m["corners"][CORNERS[0]]["critical_path_ns"], m["stdcell_area_um2"]) if CORNERS[0] in m["corners"] else None
    kept = committed_rows().get(d)
    if (kept and not kept.get("macros_as_abstracts") and kept.get("status", "").startswith("signoff")
            and None not in (kept.get("cp_tt_ns"), kept.get("utilization"), kept.get("core_area_um2"))):
        return kept["cp_tt_ns"], kept["utilization"] * kept["core_area_um2"]
    return None


def designs_with_results() -> list:
    if not layout.BUILD.exists():
        return []
    return sorted(p.name for p in layout.BUILD.iterdir()
                  if (p / "pnr" / "metrics.json").exists() or any((p / "pnr_attempts").glob("*.json")))


def drc_total(signoff: dict):
    vals = [signoff.get(k) for k in ("route__drc_errors", "magic__drc_error__count", "klayout__drc_error__count")]
    return None if any(v is None for v in vals) else int(sum(vals))


def attempt_synthesis(d: str, a: dict) -> dict:
    """The synth_* columns of a stopped run: the synthesis it laid out, build/<d>/harden/metrics.json of the attempt's
    synth_date and cell count, else the one kept in reports/synth/<d>.json (synth_kept) of that cell count; {}
    without either."""
    from reports import synth_kept
    from reports.common import harden_result
    h, rec = harden_result(d) or {}, synth_kept.kept(d) or {}
    if (h.get("date"), h.get("design__instance__count")) != (a.get("synth_date"), a.get("synth_cells")):
        h = rec.get("metrics") or {}
        if h.get("design__instance__count") != a.get("synth_cells"):
            return {}
    cp = h["critical_path_ns__corner"]
    return {"synth_area_um2": h["design__instance__area"],
            **{f"synth_cp_{col}_ns": cp.get(corner) for corner, col in CORNER_COLUMN.items()}}


def row(d: str) -> dict:
    m = result(d)
    if m is None:
        a = last_attempt(d)
        return {"design": d, "status": stopped_status(a["step"], a["runtime_s"], a["limit_s"]),
                "cells": a.get("synth_cells"), "runtime_s": a["runtime_s"], "peak_mem_gb": a.get("peak_mem_gb"),
                "openroad_commit": a.get("openroad_commit"), "clock_period_ns": a.get("clock_period_ns"),
                "synth_cells": a.get("synth_cells"), "_attempt": a, **attempt_synthesis(d, a), **last_sta(d, a=a)}
    s = m["signoff"]
    r = {"design": d, "status": clean_status(m), "cells": m["cells"],
         "die_area_um2": m["die_area_um2"], "core_area_um2": m["core_area_um2"],
         "utilization": m["utilization"], "clock_period_ns": m["clock_period_ns"]}
    from pnr import corner_figures, half_cycle_slacks
    half = m.get("half_cycle")
    if m.get("run_folder") and (layout.ROOT / m["run_folder"]).is_dir():  # the reports as pnr.py reads them now
        half = half_cycle_slacks(layout.ROOT / m["run_folder"])
    corners = corner_figures(m["librelane_metrics"], m["clock_period_ns"], half)  # as pnr.py computes them now
    for corner, col in CORNER_COLUMN.items():
        r[f"cp_{col}_ns"] = (corners.get(corner) or {}).get("critical_path_ns")
        r[f"cp_r2r_{col}_ns"] = (corners.get(corner) or {}).get("critical_path_r2r_ns")
    r.update({"wns_ns": m["wns_ns"], "drc_violations": drc_total(s),
              "lvs_errors": None if s.get("design__lvs_error__count") is None else int(s["design__lvs_error__count"]),
              "antenna_violations": None if s.get("antenna__violating__nets") is None else int(s["antenna__violating__nets"]),
              "macros_as_abstracts": m["macros_as_abstracts"], "runtime_s": m["runtime_s"],
              "peak_mem_gb": m["peak_mem_gb"], "openroad_commit": m["tools"]["OpenROAD"][:8],
              "synth_cells": m["post_synthesis"]["cells"], "synth_area_um2": m["post_synthesis"]["area_um2"],
              "detailed_routing_s": (m["steps"].get(ROUTING_STEP) or {}).get("wall_s")})
    for corner, col in CORNER_COLUMN.items():
        r[f"synth_cp_{col}_ns"] = m["post_synthesis"]["critical_path_ns__corner"].get(corner)
    r.update(last_sta(d, m=m))
    r["_m"] = m
    return r


def ran_shared(m: dict) -> bool:
    """A layout (its metrics) that shared the machine's cores with other work: its mean 1-minute load (flow/pnr.py,
    LoadSampler) above the cores plus half a core (LibreLane's steps use up to 2 threads). Runs recorded before the
    load was (2026-11-29) are taken as run alone."""
    load = m.get("load_1m")
    return bool(load and load["mean"] > load["cores"] + 0.5)


def shared_cores(r: dict) -> bool:
    """A row whose layout shared the cores (ran_shared)."""
    return ran_shared(r.get("_m") or {})


def load_text(load) -> str:
    return f"{load['mean']} / {load['max']}" if load else "not recorded"


def fitted(r: dict) -> bool:
    """A finished run of a design without macros, that had the cores to itself. A design with macros has a die
    their area sets, and routing and the checks grow with the die (ntt_16_32_p1_gshoup_sram: 11,789 cells in
    3,010 s, on 1.72 mm2), so it would bend a fit by cells; such runs, and runs that shared the cores, are
    listed, not fitted."""
    return bool(("_m" in r and not r["_m"].get("macro_count") or r.get("_kept") and not r["macros_as_abstracts"])
                and r.get("synth_cells") and r.get("runtime_s") and not shared_cores(r))


def pre_routing_share(r: dict):
    """Of a finished run's steps other than detailed routing, the share of time before it (None without steps)."""
    steps = (r.get("_m") or {}).get("steps") or {}
    names = list(steps)
    if ROUTING_STEP not in names:
        return None
    i = names.index(ROUTING_STEP)
    pre = sum(steps[s]["wall_s"] or 0 for s in names[:i])
    post = sum(steps[s]["wall_s"] or 0 for s in names[i + 1:])
    return pre / (pre + post) if pre + post else None


def fit_runtime(rows) -> dict:
    """Detailed routing's time and the other steps' time against post-synthesis cells (flow/reports/pnr_runtime.py),
    each fitted over the finished runs of designs without macros whose routing time is known; the flow is their
    sum. None with fewer than 2 cell counts."""
    runs = [r for r in rows if fitted(r) and r.get("detailed_routing_s")]
    routing = pnr_runtime.fit([(r["synth_cells"], r["detailed_routing_s"]) for r in runs])
    other = pnr_runtime.fit([(r["synth_cells"], r["runtime_s"] - r["detailed_routing_s"]) for r in runs])
    if not routing or not other:
        return None
    shares = [(r["design"], pre_routing_share(r)) for r in runs if pre_routing_share(r) is not None]
    flow = lambda c: pnr_runtime.predict(routing, c) + pnr_runtime.predict(other, c)
    rms = math.sqrt(sum((flow(r["synth_cells"]) / r["runtime_s"] - 1) ** 2 for r in runs) / len(runs))
    lo, hi = 1.0, 1e8  # the cells a BUDGET_H flow fits: the sum grows with cells, so bisect
    for _ in range(100):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if flow(mid) <= BUDGET_H * 3600 else (lo, mid)
    return {"routing": routing, "other": other, "flow": flow, "flow_rms_rel": rms, "runs": runs,
            "pre_share": sum(v for _, v in shares) / len(shares) if shares else None,
            "pre_share_from": [d for d, _ in shares], "budget_cells": lo}


ENGINES = ("polymul", "multipass")  # the registry's families of the polynomial-product engines (scale)
MULTIPLIERS = ("barrett", "shoup", "gshoup")  # the paper's families: Table 1 and Figure 2's efficiency with width


def layout_figures(r: dict):
    """(tt critical path, standard-cell area, stage) of a row for the efficiency table: a finished layout's as
    routed (post_route, stage "route"); a stopped one's at the last timing it reached (last_sta_*, stage "after
    <step>, estimated wires"); None for neither."""
    pr = post_route(r["design"]) if not r.get("status", "").startswith("stopped") else None
    if pr:
        return (*pr, "route")
    if r.get("status", "").startswith("stopped") and r.get("last_sta_cp_tt_ns") and r.get("last_sta_area_um2"):
        return r["last_sta_cp_tt_ns"], r["last_sta_area_um2"], f"after {r['last_sta_after']}, estimated wires"
    return None


def width_loss(rows) -> list:
    """Efficiency with width after layout (issue 42, item 4): the paper's S^2/(P*A) of each layout of the paper's
    multipliers, the table designs and the DSE's winners (`_fast`), post-synthesis and after layout
    (layout_figures: a finished layout's tt critical path and cells as routed; a stopped one's at the last timing
    it reached, before detailed routing, the stage named), and the loss from the same group's 32-bit design at each
    wider k. [(group, k, design, synthesis, layout, loss synthesis, loss layout, stage)], the losses None without a
    32-bit layout in the group."""
    import registry
    from reports.common import best_designs, efficiency
    best = set(best_designs().values())
    done = {r["design"]: (r, layout_figures(r)) for r in rows}
    done = {d: (r, pr) for d, (r, pr) in done.items() if pr and r.get("synth_cp_tt_ns") and r.get("synth_area_um2")}
    groups = {}
    for d, e in registry.describe_many(list(done)).items():
        if e.get("family") not in MULTIPLIERS:  # other families, and names the registry refuses
            continue
        r, pr = done[d]
        k = e["params"]["k"]
        group = f"{e['family']}_<k>" + ("_fast" if r["design"] in best else "")
        groups.setdefault(group, {})[k] = (r["design"], efficiency(k, r["synth_cp_tt_ns"], r["synth_area_um2"]),
                                           efficiency(k, pr[0], pr[1]), pr[2])
    out = []
    for group, by_k in sorted(groups.items()):
        base = by_k.get(32)
        base = base if base and base[3] == "route" else None
        for k, (d, syn, route, stage) in sorted(by_k.items()):
            out.append((group, k, d, syn, route, base[1] / syn if base else None, base[2] / route if base else None, stage))
    return out


def mid_versus_route(rows) -> list:
    """[(design, cells as routed, tt critical path before detailed routing, routed, area then, routed)] of the finished
    layouts whose timing before detailed routing is known (last_sta_*, after global routing): how far a stopped run's
    last figure stands from its routed one."""
    out = []
    for r in rows:
        fig = layout_figures(r)
        if fig and fig[2] == "route" and r.get("last_sta_cp_tt_ns") and r.get("last_sta_area_um2"):
            out.append((r["design"], r.get("cells"), r["last_sta_cp_tt_ns"], fig[0], r["last_sta_area_um2"], fig[1]))
    return out


def stop_agreement(model, flow_s: float, routing_s: float, a) -> str:
    """For a run its time limit stopped: where the model says a run of that limit stops, and whether the run agrees
    (pnr_runtime.stopped_class), with the machine's load while it ran (a run that shared its cores stops earlier)."""
    if not a or model.get("pre_share") is None or not a.get("limit_s"):
        return ""
    want = pnr_runtime.stop_step(flow_s, routing_s, model["pre_share"], a["limit_s"]) or "nowhere (it ends)"
    got = pnr_runtime.stopped_class(a["step"], a.get("steps_finished") or {})
    load = a.get("load_1m") or {}
    shared = (f"; load {load['mean']:.1f} mean, {load['max']:.1f} max" if load.get("mean") is not None else "")
    return (f"; at its limit the model says {want}: " + ("agrees" if got == want else f"**does not agree** ({got})")
            + shared)


def predictions(model, rows) -> list:
    """[(design, post-synthesis cells, predicted flow s, predicted detailed routing s, where a BUDGET_H run stops)]
    for the table designs (reports/asic_table.csv) and the engines and SRAM tiles hardened in build/ that have no
    finished layout yet (a stopped one is listed, beside the step it stopped in)."""
    if not model:
        return []
    have = {r["design"] for r in rows if "_m" in r or r.get("_kept") and not r["status"].startswith("stopped")}
    cells = {r["design"]: int(r["cells"]) for r in read_csv(REPORTS / "asic_table.csv") if r.get("cells")}
    for f in sorted(layout.BUILD.glob("*/harden/metrics.json")):
        d = f.parent.parent.name
        try:  # the manifest says what a design is: an engine (family polymul) or a tile with macros
            man = json.loads(layout.manifest(d).read_text())
            if man.get("family") == "polymul" or (man.get("sram") or {}).get("macro_models"):
                cells[d] = int(json.loads(f.read_text())["design__instance__count"])
        except (OSError, ValueError, KeyError):
            pass
    out = []
    for d, c in cells.items():
        if d in have:
            continue
        flow, routing = model["flow"](c), pnr_runtime.predict(model["routing"], c)
        stop = (pnr_runtime.stop_step(flow, routing, model["pre_share"], BUDGET_H * 3600)
                if model["pre_share"] is not None else
                None if flow <= BUDGET_H * 3600 else "unknown (no run with its steps at hand to split the others)")
        out.append((d, c, flow, routing, stop))
    return sorted(out, key=lambda x: x[1])


def engine_cells(d: str):
    """(post-synthesis cells, where from) of a design: build/<d>/harden/metrics.json, else the kept synthesis
    record reports/synth/<d>.json; None where neither is at hand."""
    for f, where in ((layout.BUILD / d / "harden" / "metrics.json", "synthesized in build/"),
                     (REPORTS / "synth" / f"{d}.json", f"reports/synth/{d}.json")):
        try:
            m = json.loads(f.read_text())
            return int(m.get("metrics", m)["design__instance__count"]), where
        except (OSError, ValueError, KeyError):
            continue
    return None


def scale(rows, model) -> dict:
    """Issue 42, item 7: the largest engine laid out (finished, by post-synthesis cells), and the (1024, 19) engine
    winner of reports/polymul_best.csv with the model's prediction for its flow. The winner's cells are its
    synthesis record's where at hand; else its standard-cell area (area_mm2 - macro_mm2) over the µm² per cell of
    the largest engine laid out, named an estimate. None without a finished engine layout or a model."""
    import registry
    done = [r for r in rows if r.get("synth_cells") and not r["status"].startswith("stopped")]
    family = {d: e.get("family") for d, e in registry.describe_many([r["design"] for r in done]).items()}
    engines = [r for r in done if family.get(r["design"]) in ENGINES]
    if not engines or not model:
        return None
    big = max(engines, key=lambda r: int(r["synth_cells"]))
    best = [r for r in read_csv(REPORTS / "polymul_best.csv") if (r["n"], r["logq"]) == ("1024", "19")]
    if not best:
        return {"largest": big}
    w = best[0]
    got = engine_cells(w["design"])
    if got:
        cells, where = got
    else:
        per_cell = float(big["synth_area_um2"]) / int(big["synth_cells"])
        cells = (float(w["area_mm2"]) - float(w["macro_mm2"] or 0)) * 1e6 / per_cell
        where = (f"estimated: {float(w['area_mm2']) - float(w['macro_mm2'] or 0):.2f} mm² of standard cells "
                 f"(reports/polymul_best.csv) at {big['design']}'s {per_cell:.2f} µm² per cell")
    return {"largest": big, "winner": w["design"], "winner_cells": cells, "winner_cells_from": where,
            "winner_flow_s": model["flow"](cells), "winner_routing_s": pnr_runtime.predict(model["routing"], cells)}


def markdown(rows, model) -> list:
    L = ["# Layout: LibreLane's Classic flow to GDS (SKY130, sky130_fd_sc_hd)", "",
         "Generated by `make pnr-report` (flow/reports/pnr_table.py) from `build/<d>/pnr/`; each row from "
         "`make harden DESIGN=<d>` (flow/pnr.py).", "",
         "Post-route critical path at each corner = the target clock minus that corner's worst setup slack "
         "(RC extracted, clock tree propagated), over all paths with LibreLane's SDC margins (20% of the period "
         "at each port, 0.25 ns uncertainty, 5% derate), and over register-to-register paths (r2r); the target clock is the post-synthesis critical path at ss, "
         "rounded up to 0.1 ns (pdk_config/layout.json). Post-synthesis figures (flow/harden.py: ideal clock, no "
         "wires) beside them. DRC = the detailed router's + Magic's + KLayout's violations; LVS = Netgen's errors; "
         "antenna = nets OpenROAD's antenna check flags after repair. docs/flow.md, \"Layout\", says what each "
         "check covers.", ""]
    L += md_head("design", "status", "cells (synth)", "die um2", "util", "clock ns", "cp tt ns (synth)",
                 "cp ss ns (synth)", "cp ff ns (synth)", "r2r tt / ss / ff ns", "DRC", "LVS", "antenna", "runtime s", "peak GB")
    for r in rows:
        # A stopped layout, measured here or carried over from reports/pnr.csv: no die, no post-route figures.
        if ("_m" not in r and not r.get("_kept")) or r.get("die_area_um2") in (None, ""):
            L.append(f"| {r['design']} | {r['status']} | {fmt(r['cells'])} | | | {fmt(r['clock_period_ns'])} | | | | | | | | "
                     f"{r['runtime_s']:.0f} | {fmt(r['peak_mem_gb'])} |")
            continue
        cps = " | ".join(f"{fmt(r[f'cp_{c}_ns'], '.3f')} ({fmt(r[f'synth_cp_{c}_ns'], '.3f')})" for c in ("tt", "ss", "ff"))
        L.append(f"| {r['design']} | {r['status']}{' (macros as abstracts)' if r['macros_as_abstracts'] else ''} | "
                 f"{r['cells']} ({r['synth_cells']}) | {r['die_area_um2']:.0f}{' *' if r.get('_kept') else ''} | {fmt(r['utilization'], '.3f')} | "
                 f"{r['clock_period_ns']} | {cps} | "
                 f"{' / '.join(fmt(r[f'cp_r2r_{c}_ns'], '.3f') for c in ('tt', 'ss', 'ff'))} | {fmt(r['drc_violations'])} | {fmt(r['lvs_errors'])} | "
                 f"{fmt(r['antenna_violations'])} | {r['runtime_s']:.0f} | {r['peak_mem_gb']} |")
    kept = [r["design"] for r in rows if r.get("_kept")]
    if kept:
        L += ["", f"\\* Carried over from reports/pnr.csv as it stood: {', '.join(kept)}. These layouts finished before "
              "their metrics were kept in reports/pnr/<d>.json, and this machine's build/ has none: their rows, their "
              "checks one by one and their eight longest steps are carried over from reports/pnr.csv and pnr.md as they "
              "stood."]
    L += ["", "## Signoff checks, one by one", ""]
    keys = ["route__drc_errors", "magic__drc_error__count", "klayout__drc_error__count", "design__lvs_error__count",
            "antenna__violating__nets"]
    L += md_head("design", *keys)
    signoff = lambda r: r["_m"]["signoff"] if "_m" in r else r.get("_signoff")
    for r in rows:
        if signoff(r):
            L.append(f"| {r['design']}{' *' if r.get('_kept') else ''} | "
                     + " | ".join(fmt(signoff(r).get(k), ".0f") for k in keys) + " |")
    L += ["", "## Where the time goes", ""]
    steps = lambda r: r["_m"]["steps"] if "_m" in r else r.get("_steps")
    done = [r for r in rows if steps(r)]
    if done:
        top = sorted({s for r in done for s in steps(r)},
                     key=lambda s: -max((steps(r).get(s, {}).get("wall_s") or 0) for r in done))[:8]
        L += md_head("step", *(r["design"] for r in done))
        for s in top:
            L.append(f"| {s} | " + " | ".join(
                f"{fmt(steps(r).get(s, {}).get('wall_s'))} s, {fmt(steps(r).get(s, {}).get('peak_mb'), '.0f')} MB"
                for r in done) + " |")
        if any(r.get("_kept") for r in done):
            L += ["", "n/a: a step that was not among the eight longest of a layout marked * (carried over)."]
    L += ["", "## Runtime model", ""]
    if model:
        g, o = model["routing"], model["other"]
        law = lambda m: f"{m['t0']:.0f} + {m['a']:.3g} · cells^{m['b']:.2f} s (rms relative error {100 * m['rms_rel']:.0f}%)"
        L += [f"Fitted to the {len(model['runs'])} finished runs of designs without macros (post-synthesis cells; "
              "a design with macros routes a die their area sets, and is left out; flow/reports/pnr_runtime.py says "
              f"why each law has a constant): detailed routing ≈ {law(g)}; the other steps ≈ {law(o)}; the flow, their "
              f"sum, within {100 * model['flow_rms_rel']:.0f}% rms. At that rate a flow of {BUDGET_H} h fits about "
              f"{model['budget_cells']:,.0f} cells on this 2-core machine."
              + (f" Of the other steps' time, {100 * model['pre_share']:.0f}% comes before detailed routing (runs with "
                 f"their steps at hand: {', '.join(model['pre_share_from'])})." if model["pre_share"] is not None else ""), ""]
        L += md_head("run", "cells (synth)", "flow s", "model s", "detailed routing s", "model s", "load mean / max")
        shared = [r for r in rows if r.get("synth_cells") and r.get("detailed_routing_s") and shared_cores(r)]
        for r in sorted(model["runs"] + shared, key=lambda r: r["synth_cells"]):
            L.append(f"| {r['design']}{' (shared the cores: not fitted)' if r in shared else ''} | {r['synth_cells']:,} | "
                     f"{r['runtime_s']:.0f} | {model['flow'](r['synth_cells']):.0f} | "
                     f"{r['detailed_routing_s']:.0f} | {pnr_runtime.predict(g, r['synth_cells']):.0f} | "
                     f"{load_text((r.get('_m') or {}).get('load_1m'))} |")
        L.append("")
    else:
        L += ["Fewer than two finished runs of different size: no fit yet.", ""]
    pred = predictions(model, rows)
    if pred:
        L += ["What the model predicts for the designs still without a finished layout: the table designs "
              "(post-synthesis cells from reports/asic_table.csv) and the engines and tiles synthesized in build/. "
              "It counts cells only: a die that macros make larger routes longer than its cells say.", ""]
        L += md_head("design", "cells (synth)", "predicted flow", "predicted detailed routing", f"within {BUDGET_H} h",
                     f"a {BUDGET_H} h limit stops it in", "measured")
        status = {r["design"]: r["status"] for r in rows}
        attempt = {r["design"]: r["_attempt"] for r in rows if r.get("_attempt")}
        for d, cells, t, g, stop in pred:
            L.append(f"| {d} | {cells:,} | {t / 3600:.1f} h | {g / 3600:.1f} h | "
                     f"{'yes' if t <= BUDGET_H * 3600 else 'no'} | {stop or ''} | {status.get(d, '')}"
                     f"{stop_agreement(model, t, g, attempt.get(d))} |")
        L.append("")
    sc = scale(rows, model)
    if sc:
        big, mem = sc["largest"], max((r for r in rows if r.get("peak_mem_gb")), key=lambda r: float(r["peak_mem_gb"]))
        L += ["## Scale: the engines", "",
              f"The largest engine laid out is {big['design']}: {int(big['synth_cells']):,} cells after synthesis, "
              f"{float(big['runtime_s']) / 3600:.2f} h, {float(big['peak_mem_gb']):.1f} GB at most; {big['status']}."
              + (f" The (1024, 19) winner of reports/polymul_best.csv, {sc['winner']}, has {sc['winner_cells']:,.0f} cells "
                 f"({sc['winner_cells_from']}): the model predicts {sc['winner_flow_s'] / 3600:,.0f} h for its flow, "
                 f"{sc['winner_routing_s'] / 3600:,.0f} h of it detailed routing, against the {BUDGET_H} h a design gets "
                 f"here: time limits it first. The most memory a layout here took is {float(mem['peak_mem_gb']):.1f} GB "
                 f"({mem['design']}, {int(mem['synth_cells'] or mem['cells']):,} cells, {mem['status']}), of the "
                 "machine's 24 GB." if "winner" in sc else ""), ""]
    loss = width_loss(rows)
    if loss:
        L += ["## Efficiency with width, after layout", "",
              "The paper's S^2/(P*A) (bits^2 / (ns * um2)) of each layout of the paper's multipliers: "
              "post-synthesis (tt critical path, standard-cell area) and after layout. A finished layout gives its "
              "figures as routed (tt critical path as above, the cells as routed: the resizer's buffers, the clock tree, "
              "taps and diodes). A stopped one gives them at the last timing it reached, named: LibreLane's mid-flow STA "
              "(OpenROAD.STAMidPNR, tt), its wires estimated from the placement or the global routes, its cells as they "
              "stood then. The loss is the same group's 32-bit routed efficiency over this one (the goal, issue 42: at "
              "most 1.5x from 32 to 256 bits); n/a without a routed 32-bit layout in the group. Designs marked * in the "
              "first table give their routed area as utilization x core area (docs/flow.md, \"Layout\").", ""]
        L += md_head("group", "k", "design", "stage", "S^2/(P*A) synthesis", "S^2/(P*A) layout", "layout / synthesis",
                     "loss vs 32, synthesis", "loss vs 32, layout")
        for group, k, d, syn, route, ls, lr, stage in loss:
            L.append(f"| `{group}` | {k} | {d} | {stage} | {syn:.4g} | {route:.4g} | {route / syn:.2f} | {fmt(ls, '.2f', 'x')} | "
                     f"{fmt(lr, '.2f', 'x')} |")
        L.append("")
        mid = mid_versus_route(rows)
        if mid:
            L += ["How far the last timing before detailed routing stands from the routed one, where a finished run has "
                  "both (its STAMidPNR after global routing and antenna repair, against the post-route tt critical path "
                  "and cells as routed):", ""]
            L += md_head("design", "cells (routed)", "cp tt ns after global routing", "cp tt ns routed", "ratio",
                         "area um2 after global routing", "area um2 routed", "ratio")
            for d, cells, cp_mid, cp_route, a_mid, a_route in mid:
                L.append(f"| {d} | {fmt(cells)} | {cp_mid:.3f} | {cp_route:.3f} | {cp_route / cp_mid:.3f} | {a_mid:.0f} | "
                         f"{a_route:.0f} | {a_route / a_mid:.3f} |")
            L.append("")
    pics = [r for r in rows if (REPORTS / "pnr" / f"{r['design']}.png").exists()]
    if pics:
        L += ["## Layouts", ""] + [f"![{r['design']}](pnr/{r['design']}.png)" for r in pics] + [""]
    L += [stamp()]
    return L


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("designs", nargs="*")
    ap.add_argument("--partial", action="store_true")
    a = ap.parse_args()
    kept = committed_rows()
    designs = a.designs or sorted(set(designs_with_results()) | set(kept))
    if not designs:
        sys.exit("pnr_table: error: no layout results in build/. Fix: make harden DESIGN=<d> where OpenROAD is "
                 "installed (docs/flow.md, \"Layout\")")
    missing = [d for d in designs if result(d) is None and last_attempt(d) is None and d not in kept]
    if missing:
        sys.exit(f"pnr_table: error: no layout result or attempt for {', '.join(missing)}. Fix: make harden DESIGN=<d>")
    rows = [kept[d] if result(d) is None and last_attempt(d) is None else row(d) for d in designs]
    model = fit_runtime(rows)
    write_csv("pnr.csv", [{k: r.get(k) for k in PNR_COLUMNS} for r in rows], fieldnames=PNR_COLUMNS)
    (REPORTS / "pnr").mkdir(parents=True, exist_ok=True)
    for r in rows:
        src = layout.design_dir(r["design"]) / "pnr"
        if r.get("_m", {}).get("_kept_over_build"):
            continue  # the kept run alone stays kept (result)
        if "_m" in r and r["_m"].get("picture") and (src / r["_m"]["picture"]).exists():
            shutil.copy(src / r["_m"]["picture"], REPORTS / "pnr" / f"{r['design']}.png")
        if (src / "metrics.json").exists():  # kept: a fresh clone regenerates this report without the layout
            shutil.copy(src / "metrics.json", REPORTS / "pnr" / f"{r['design']}.json")
    write_md("pnr.md", markdown(rows, model))
    print(f"pnr_table: wrote reports/pnr.csv, reports/pnr.md ({len(rows)} designs)")


if __name__ == "__main__":
    main()
