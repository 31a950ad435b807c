#!/usr/bin/env python3
"""Harden one generated design in SKY130 through LibreLane.

    flow/harden.py DESIGN [--no-booth] [--target-ps 250] [--if-stale]

Reads build/<d>/rtl/<d>.{v,json} (`make rtl DESIGN=<d>`), writes the LibreLane configuration
build/<d>/librelane/config.json (flow/configs.py) and runs LibreLane on it, with the PDK of
PDK_ROOT (never edited; its open_pdks 1.0.530 configuration is LibreLane's as is):
  * where `openroad` is on PATH: LibreLane's Classic flow, to GDS;
  * elsewhere (our machines): the steps that can run, `Modforge.Synthesis` (pyosys) and
    `Modforge.STA` (OpenSTA at tt, ss and ff), from flow/librelane_plugin_modforge.
The run folder is build/<d>/librelane/runs/latest. The results are collected into
build/<d>/harden/: metrics.json, summary.md, the netlist <d>.nl.v and the STA reports. That
folder is replaced only when the run succeeded, so a failed run leaves the last good result.
What did not run is reported as skipped, never estimated. --if-stale (`make gls`) runs only when
that folder is missing or was made from other RTL (its metrics.json's rtl_sha256).

LibreLane runs in a process group of its own: on SIGINT (Ctrl-C) or SIGTERM the whole group, its
synthesis and STA processes with it, is stopped, and nothing half-written is left in harden/.
The build folder is $MODFORGE_BUILD (the Makefile's), default build/.
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import layout
from configs import config, write
from eda import find_layout_tools
from pdk import CORNERS, PDK, ROOT, SCL, FlowError, find_pdk, shown
from sta import sta_binary

FLOW = Path(__file__).resolve().parent
VENV_BIN = Path(sys.executable).parent
NEEDS_OPENROAD = ("floorplan", "placement", "clock tree synthesis", "routing", "parasitic extraction",
                  "DRC", "LVS", "GDS")


# ---- children in process groups of their own, stopped with us (also used by flow/fpga.py) ----
# Children start with start_new_session=True: each is the leader of a process group holding it and
# everything it starts (LibreLane: pyosys, yosys-abc, sta), and a terminal's Ctrl-C reaches only us.
# On SIGINT or SIGTERM we stop those groups ourselves.

GRACE_S = 5  # seconds a stopped group has between SIGTERM and SIGKILL
_STOPPED = set()  # the process groups sent SIGTERM by _on_signal


class Interrupted(Exception):
    """SIGINT or SIGTERM arrived; every child's process group was sent SIGTERM."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


def child_groups() -> set:
    """The process groups of this process's children that are not its own (from /proc)."""
    me, mine, groups = os.getpid(), os.getpgrp(), set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # state ppid pgrp ...
        except (OSError, IndexError):
            continue
        if int(fields[1]) == me and int(fields[2]) != mine:
            groups.add(int(fields[2]))
    return groups


def _signal_groups(groups, sig) -> set:
    """sig to each group; the groups that still exist."""
    alive = set()
    for g in groups:
        try:
            os.killpg(g, sig)
            alive.add(g)
        except (ProcessLookupError, PermissionError):
            pass
    return alive


def _on_signal(signum, frame):
    # Signals only (no waiting here: the interrupted code may hold a Popen's lock); the groups
    # get SIGKILL after GRACE_S unless stop_children() has seen them go.
    groups = child_groups()
    _STOPPED.update(groups)
    _signal_groups(groups, signal.SIGTERM)
    t = threading.Timer(GRACE_S, _signal_groups, (groups, signal.SIGKILL))
    t.daemon = True
    t.start()
    if not getattr(_on_signal, "raised", False):
        _on_signal.raised = True
        raise Interrupted(signum)


def stop_on_signals():
    """SIGINT and SIGTERM stop every child's group and raise Interrupted (the command lines call it)."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _on_signal)


def stop_children():
    """After Interrupted: waits up to GRACE_S for the stopped groups to go, then SIGKILLs the rest."""
    deadline = time.monotonic() + GRACE_S
    groups = _STOPPED | child_groups()
    while (groups := _signal_groups(groups, 0)) and time.monotonic() < deadline:
        time.sleep(0.05)
    _signal_groups(groups, signal.SIGKILL)


def exit_interrupted(tool: str, what: str, stopped: str, folder: Path, e: "Interrupted"):
    """The end of a run stopped by a signal: its children stopped, the earlier result in `folder` kept."""
    stop_children()
    print(f"{tool}: {what}: stopped by {e}: {stopped} were stopped; {shown(folder)}/ is as it was", file=sys.stderr)
    sys.exit(128 + e.signum)


def stop_group(p: subprocess.Popen):
    """p's group: SIGTERM, then SIGKILL after GRACE_S (or once p is gone); p waited for."""
    _signal_groups({p.pid}, signal.SIGTERM)
    try:
        p.wait(GRACE_S)
    except subprocess.TimeoutExpired:
        pass
    _signal_groups({p.pid}, signal.SIGKILL)
    p.wait()


def replace_dir(work: Path, out: Path):
    """work renamed to out, the old out removed; SIGINT and SIGTERM wait until it is done, so out
    is always either the old result or the new one, whole."""
    old = out.with_name(out.name + ".old")
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        shutil.rmtree(old, ignore_errors=True)
        if out.exists():
            out.rename(old)
        work.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def rtl_sha256(design: str) -> str:
    """Hash of the RTL a result was produced from: `make reports` reruns a design when it changes."""
    return hashlib.sha256(layout.rtl(design).read_bytes()).hexdigest()


def flow_sha256() -> str:
    """Hash of what turns RTL into figures: a result from other flow code is out of date."""
    h = hashlib.sha256()
    files = [FLOW / n for n in ("harden.py", "synth.py", "sta.py", "configs.py", "pdk.py")]
    files += sorted((FLOW / "librelane_plugin_modforge").glob("*.py"))
    files += sorted((ROOT / "pdk_config").glob("*.json"))  # the PDK settings: corners, don't-use lists, macros
    for f in files:
        h.update(f.read_bytes())
    return h.hexdigest()


def librelane_binary() -> str:
    exe = VENV_BIN / "librelane"
    if not exe.exists():
        raise FlowError("LibreLane is not installed in this Python environment. Fix: make setup")
    return str(exe)


def preflight(design: str):
    """Everything that can be checked before a long step starts."""
    manifest = layout.manifest(design)
    if not manifest.exists():
        raise FlowError(f"{shown(manifest)} is missing.\nFix: make rtl DESIGN={design}")
    librelane_binary()
    try:  # our own steps run first, always: check their tools
        import pyosys  # noqa: F401
    except ImportError:
        raise FlowError("pyosys (Yosys) is not installed in this Python environment. Fix: make setup")
    sta_binary()
    return json.loads(manifest.read_text()), find_pdk()


def tool_versions():
    from importlib.metadata import version
    return {"LibreLane": version("librelane"), "pyosys": version("pyosys"),
            "OpenSTA": subprocess.run([sta_binary(), "-version"], text=True, capture_output=True).stdout.strip()}


def layout_skip_reason(tools) -> str:
    """Why the layout stage (flow/pnr.py) does not run: the tools missing, one line."""
    return "needs " + ", ".join(tools.missing) + " (not found: " + "; ".join(tools.missing.values()) + \
        "; docs/toolchain.md, \"Layout tools\")"


def seconds(hms: str) -> float:
    h, m, s = hms.strip().split(":")
    return round(int(h) * 3600 + int(m) * 60 + float(s), 1)


def step_stats(run: Path) -> dict:
    """Wall time and peak memory of each step, from LibreLane's runtime.txt and process stats."""
    steps = {}
    for d in sorted((p for p in run.iterdir() if p.is_dir() and re.match(r"\d+-", p.name)),
                    key=lambda p: int(p.name.split("-")[0])):
        peak = 0.0
        for f in d.glob("*.process_stats.json"):
            rss = json.loads(f.read_text())["peak_resources"]["memory_rss"]
            num, unit = re.match(r"([\d.]+)\s*(\w+)", rss).groups()
            peak = max(peak, float(num) * {"B": 2**-20, "KiB": 2**-10, "MiB": 1, "GiB": 1024}.get(unit, 1))
        rt = d / "runtime.txt"
        steps[d.name.split("-", 1)[1]] = {"wall_s": seconds(rt.read_text()) if rt.exists() else None,
                                          "peak_mb": round(peak)}
    return steps


class TimeLimit(RuntimeError):
    """LibreLane ran past its time limit and was stopped; `step` was running."""

    def __init__(self, design: str, step: str, elapsed_s: float, limit_s: float):
        self.step, self.elapsed_s, self.limit_s = step, elapsed_s, limit_s
        super().__init__(f"{design}: stopped after {elapsed_s:.0f} s (limit {limit_s:.0f} s) in {step}")


def run_librelane(design: str, cfg: Path, pdk_root: Path, log: Path, env: dict = None, tag: str = "latest",
                  prefix: str = "harden", timeout_s: float = None):
    """Runs LibreLane on cfg (its flow is the configuration's `meta.flow`), printing a progress line
    per step; returns the run folder runs/<tag>. With timeout_s, a run still going then is stopped
    (its process group) and TimeLimit names the step it was in."""
    t0 = time.monotonic()
    cmd = [librelane_binary(), "--manual-pdk", "--pdk-root", str(pdk_root), "-p", PDK,
           "--run-tag", tag, "--overwrite", "--condensed", "--hide-progress-bar"]
    current_step, timer = "start-up", None
    with open(log, "w") as f:
        p = subprocess.Popen(cmd + [str(cfg)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True, env=env)  # its own process group: see child_groups
        if timeout_s:
            timer = threading.Timer(timeout_s, _signal_groups, ({p.pid}, signal.SIGTERM))
            timer.daemon = True
            timer.start()
        try:
            for line in p.stdout:
                f.write(line)
                step = re.search(r"Running '([\w.]+)'", line)
                if step:
                    current_step = step.group(1)
                    print(f"[{prefix} {design} {time.monotonic() - t0:6.1f} s] running {current_step}", flush=True)
            rc = p.wait()
        except BaseException:  # Interrupted among them: LibreLane and its steps go too
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
        errors = [l.strip() for l in log.read_text().splitlines() if "ERROR" in l or "[E]" in l][:5]
        raise RuntimeError(f"{design}: LibreLane failed (exit {rc}) in {current_step}; see {log}\n" + "\n".join(errors))
    return cfg.parent / "runs" / tag


def harden(design: str, booth: bool = None, target_ps: int = None) -> dict:
    """`booth`/`target_ps` override the design's own synthesis options (its manifest's `synthesis`
    member, written for variants; the defaults of flow/synth.py SynthOptions otherwise)."""
    from synth import SynthOptions
    manifest, pdk = preflight(design)
    synth = dict(manifest.get("synthesis") or {})
    if booth is not None:
        synth["booth"] = booth
    if target_ps is not None:
        synth["target_ps"] = target_ps
    try:
        opts = SynthOptions.from_dict(synth)
    except (ValueError, TypeError) as e:
        raise FlowError(f"{design}: synthesis options {synth} of its manifest: {e}. Fix: make rtl DESIGN={design}")
    t0 = time.monotonic()
    ll = layout.librelane_dir(design)
    cfg = ll / "config.json"
    sram = manifest.get("sram") or {}
    # Our steps read MODFORGE_MACRO_LIBS only (flow/configs.py macros_config); the layout's MACROS are
    # flow/pnr.py's.
    c = config(design, f"dir::../rtl/{design}.v", synth=synth, macros=sram.get("macro_models", []), pdk=pdk,
               with_macros=False)
    write(cfg, c)
    # this stage is synthesis and STA; the layout (flow/pnr.py) starts from its netlist
    print(f"[harden {design}   0.0 s] LibreLane flow {' -> '.join(c['meta']['flow'])}"
          f" on {cfg} (log: {ll / 'librelane.log'}); PDK {pdk.root}", flush=True)
    run = run_librelane(design, cfg, pdk.root, ll / "librelane.log")

    final = json.loads((run / "final" / "metrics.json").read_text())
    period = c["CLOCK_PERIOD"]
    cp = {}
    for key, ns in final.items():
        # Modforge.STA's critical path, not period - worst slack: a path launched at the falling edge
        # (an OpenRAM macro's read data) has half the period (flow/sta.py)
        m = re.fullmatch(r"modforge__critical_path_ns__corner:(.+)", key)
        if m:
            corner = next((x for x in CORNERS if x in m.group(1)), m.group(1))
            cp[corner] = round(float(ns), 4)
    tt = next(iter(cp.values())) if CORNERS[0] not in cp else cp[CORNERS[0]]
    paths = next(run.glob("*-modforge-sta/worst_paths.json"), None)
    worst = json.loads(paths.read_text()).get(CORNERS[0], {}) if paths else {}

    work = layout.design_dir(design) / "harden.partial"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        netlist = next((run / "final" / "nl").glob("*.nl.v"))
        shutil.copy(netlist, work / f"{design}.nl.v")
        for rpt in run.glob("*-modforge-sta/sta_*.log"):
            shutil.copy(rpt, work / rpt.name)
        tools = find_layout_tools()
        skipped = {} if tools.complete else {s: layout_skip_reason(tools) for s in NEEDS_OPENROAD}
        metrics = {
            "design": design,
            "rtl_sha256": rtl_sha256(design),
            "flow_sha256": flow_sha256(),
            "k": manifest["k"],
            "latency": manifest["latency"],
            "flow": "LibreLane " + " -> ".join(c["meta"]["flow"]),
            "design__instance__count": final["design__instance__count"],
            "design__instance__area": final["design__instance__area"],
            "critical_path_ns": tt,
            # SRAM tiles: the macros apart from the standard cells (areas from their Liberty, via the manifest)
            **({"macro_count": sram["macro_count"], "macro_area_um2": sram["macro_area_um2"],
                "macro_models": sram["macro_models"]} if sram else {}),
            "critical_path_ns__corner": cp,
            "critical_path_endpoints": {"start": worst.get("start"), "end": worst.get("end"), "edges": worst.get("edges")},
            "clock_period_ns": period,
            "synthesis": {"booth": opts.booth, "abc_target_ps": opts.target_ps, "liberty_corner": CORNERS[0],
                          **{k: v for k, v in opts.to_dict().items() if k not in ("booth", "target_ps")}},
            "steps": step_stats(run),
            "skipped": skipped,
            # where the layout of this netlist lands when it runs (make harden; flow/pnr.py)
            "layout": None if skipped else f"build/{design}/pnr/ (flow/pnr.py)",
            "post_synthesis_without_parasitics": True,
            "librelane_metrics": final,
            "run_folder": str(run.relative_to(ROOT) if run.is_relative_to(ROOT) else run),
            "tools": tool_versions(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "wall_s": round(time.monotonic() - t0, 1),
        }
        (work / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
        (work / "summary.md").write_text(summary(metrics))
        replace_dir(work, layout.harden_dir(design))
    finally:
        shutil.rmtree(work, ignore_errors=True)  # gone once published; half-written after an error
    out = layout.harden_dir(design)
    say = f"[harden {design} {metrics['wall_s']:6.1f} s]"
    print(f"{say} critical path " + ", ".join(f"{k} {v:.3f} ns" for k, v in cp.items()) +
          f"; {metrics['design__instance__area']:.0f} um2, {metrics['design__instance__count']} cells")
    if skipped:
        print(f"{say} skipped: {', '.join(skipped)}: {next(iter(skipped.values()))}")
    print(f"{say} done: {out}/metrics.json, {out}/summary.md; run folder {run}")
    return metrics


def current(design: str):
    """build/<d>/harden/metrics.json if it and the netlist were made from the design's current RTL, else None."""
    try:
        m = json.loads(layout.metrics(design).read_text())
    except (OSError, ValueError):
        return None
    ok = layout.rtl(design).exists() and layout.netlist(design).exists() and m.get("rtl_sha256") == rtl_sha256(design)
    return m if ok else None


def edge_note(m: dict) -> str:
    """' (half a cycle: launched at the falling edge)' where the worst path has half the period (flow/sta.py)."""
    e = m["critical_path_endpoints"].get("edges") or "rise -> rise"
    return "" if e.split(" -> ")[0] == e.split(" -> ")[1] else f" ({e}: half a cycle, the critical path is twice its delay)"


def summary(m: dict) -> str:
    rows = "\n".join(f"| {c} | {v:.3f} |" for c, v in m["critical_path_ns__corner"].items())
    steps = "\n".join(f"| {s} | {v['wall_s']} | {v['peak_mb']} |" for s, v in m["steps"].items())
    kind = ("Post-synthesis figures without wire parasitics (the sky130 Liberty has no wire-load model), as "
            "the paper's Table 1 is post-synthesis. Ideal clock, zero I/O delay." if m["post_synthesis_without_parasitics"]
            else "Post-layout figures from LibreLane's Classic flow.")
    skipped = (f"Skipped: {', '.join(m['skipped'])}: {next(iter(m['skipped'].values()))}." if m["skipped"]
               else f"Layout of this netlist: {m.get('layout') or 'build/<d>/pnr/'} (`make harden`).")
    macro_rows = (f"\n| SRAM macros | {m['macro_count']} ({', '.join(m['macro_models'])}) |"
                  f"\n| SRAM macro area | {m['macro_area_um2']:.0f} um2 (timed with their tt Liberty at every corner) |"
                  if m.get("macro_count") else "")
    return f"""# {m['design']}: SKY130 ({SCL})

{kind} Flow: {m['flow']}.

| metric | value |
|---|---|
| critical path, {CORNERS[0]} | {m['critical_path_ns']:.3f} ns |
| standard-cell area | {m['design__instance__area']:.0f} um2 |{macro_rows}
| cells | {m['design__instance__count']} |
| latency | {m['latency']} cycles |
| worst path | {m['critical_path_endpoints']['start']} -> {m['critical_path_endpoints']['end']}{edge_note(m)} |

| corner | critical path (ns) |
|---|---|
{rows}

| LibreLane step | wall time (s) | peak memory (MB) |
|---|---|---|
{steps}

{skipped}

Tools: {', '.join(f'{k} {v}' for k, v in m['tools'].items())}. Date: {m['date']}. Run time: {m['wall_s']} s.
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("design")
    ap.add_argument("--no-booth", action="store_true", help="plain multipliers instead of Booth")
    ap.add_argument("--target-ps", type=int, default=None, help="ABC delay target (default 250, the paper's clock)")
    ap.add_argument("--if-stale", action="store_true",
                    help="only if build/<d>/harden/ is missing or was made from other RTL (make gls)")
    a = ap.parse_args()
    stop_on_signals()
    try:
        if a.if_stale and (m := current(a.design)):
            print(f"harden: {a.design}: the netlist is up to date with the RTL (hardened {m['date']}): "
                  f"build/{a.design}/harden/{a.design}.nl.v")
            return
        harden(a.design, booth=False if a.no_booth else None, target_ps=a.target_ps)
    except (FlowError, RuntimeError) as e:
        sys.exit(f"harden: error: {e}")
    except Interrupted as e:
        exit_interrupted("harden", a.design, "LibreLane and its steps", layout.harden_dir(a.design), e)


if __name__ == "__main__":
    main()
