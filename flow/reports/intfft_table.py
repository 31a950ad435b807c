#!/usr/bin/env python3
"""The integer-FHE super-size multiplier (Cao et al., issue 11): reports/intfft_table.md (+ .csv),
the paper's Table 6 recomputed from Eq. (12), the same model at our measured clocks, our FPGA and
ASIC figures beside the paper's Table 4, and the GMP software baseline (docs/intfft.md).

    flow/reports/intfft_table.py [--collect-only] [--rerun]

1. Table 6, all 32 hardware cells: N_mult * Eq12(n_x = delta in whole kb/2 blocks, n_y = phi) / f
   with the paper's Table 5 frequencies (verif/intfft/latency.py), beside the printed cells parsed
   from the text (never retyped); the general-modulus rows also with b = 8, d = 32 (the notes).
2. The same model at our clock for each configuration that has a measurement: the tt critical path
   of flow/harden.py (build/<d>/harden/metrics.json critical_path_ns) and the ECP5 median Fmax of
   flow/fpga.py (build/<d>/fpga/ecp5/metrics.json fmax_mhz_median); else "absent" with the command.
   Two cycle counts per multiplication: Eq. (12) (the paper's schedule), and our schoolbook RTL's
   W + L + W Bx By + W = Eq. (12) + 16 Bx (checked by the cocotb benches) for the parallel block
   multiplier, or, for a folded one (no controller built for it), the estimate Bx By II + latency + W
   (one pair per issue interval II, manifest).
3. FPGA: flow/fpga.py xc7 counts (LUT, FF, DSP) of intfft_fermat32_parallel and the folded_p4 of
   all four moduli beside Table 4 (parsed) and the XC7VX980T's capacity (its header; intfft/fpga.py),
   with which fit; ECP5 place and route of the folded ones. ASIC: flow/harden.py area and critical
   path of the butterfly unit (intfft_<group>_butterfly) and of the folded multiplier per modulus.
4. GMP (flow/reports/intfft_baseline.py's build/intfft_baseline/results.json) at the eight CMNT/CNT
   groups, with its CPU, against the modelled hardware times (speedup = software / hardware).

Without --collect-only, the GMP baseline runs when its results are missing, and the flows run for a design only when its result is missing or was made
from other RTL (harden: also other flow code): flow/harden.py, flow/fpga.py <d> xc7|ecp5; RTL is
generated first where missing. --collect-only never runs anything and reports what exists.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from math import ceil
from pathlib import Path

import layout
from harden import flow_sha256, rtl_sha256
from intfft import fpga as paper_fpga
from intfft import latency, paper_tables
from intfft.params import GROUP_BY_P, GROUPS
from intfft.schoolbook import blocks, model_cycles
from layout import BUILD
from reports.common import (csv_text, entry, fmt, fpga_result, generate_rtl, generated_by, harden_result, manifest,
                            md_head, read_json, same_rtl, script, stamp, utc_now, write_md, write_text)

FLOW = Path(__file__).resolve().parents[1]

NAME = "intfft_table"
GROUP_ORDER = ["fermat32", "general32", "fermat64", "solinas64"]
FOLDED = [f"intfft_{g}_folded_p4" for g in GROUP_ORDER]
XC7 = ["intfft_fermat32_parallel"] + FOLDED
ECP5 = FOLDED
# Each folded design's nextpnr settings, as ORFS keeps a configuration per design. All use the
# static placer and router2: after HeAP, router2 stalled with over 10^4 wires overused (router1
# made no headway). Timing-driven or not is per design (ECP5_TIMING_DRIVEN, default not):
# against the 100 MHz constraint, far above what these designs reach, timing-driven router2
# stalled on fermat64, on general32 while its reducers' constant products used DSP blocks, and on
# fermat32 after the two-level operand crossbar (about 2,000 wires overused from iteration 20 to
# 39; not timing-driven it routed in 3 min). One seed of at most TIMEOUT_MIN minutes (then
# recorded as not routed): a seed takes minutes to tens of minutes of WebAssembly nextpnr. The
# seed is set per design (ECP5_SEEDS). fermat64 runs on seed 2: on the XOR-network RTL router2
# after seed 1's placement was still at about 6,400 overused wires at iteration 8 (20 minutes in),
# after seed 2's at about 1,900 at iteration 6. (Before the XOR networks neither seed routed:
# about 13,500 and 10,000.)
ECP5_PLACER, ECP5_ROUTER, TIMEOUT_MIN = "static", "router2", 30
# synth_ecp5 -nowidelut for every folded design (flow/fpga.py --no-widelut): LUT4s only, no
# PFUMX/L6MUX21 wide functions, which tie up to 8 LUT4s of a crossbar mux to one tile. On
# fermat64 (RTL before the XOR-network crossbars, seed 2) router2 fell to about 3,700 overused
# wires by iteration 16 with it, against about 10,000 from iteration 10 without.
ECP5_WIDELUT = False
ECP5_TIMING_DRIVEN = {}  # design -> True for a timing-driven run; none is now
ECP5_SEEDS = {"intfft_fermat64_folded_p4": "2"}  # design -> "s" or "s1,s2": its nextpnr seeds; the others: "1"


def ecp5_seeds(d):
    return ECP5_SEEDS.get(d, "1")


def ecp5_args(d, timing=None):
    """flow/fpga.py's ECP5 options for design d (timing: the --no-timing-driven part, if given)."""
    if timing is None:
        timing = "" if ECP5_TIMING_DRIVEN.get(d, False) else "--no-timing-driven"
    return ["--placer", ECP5_PLACER, "--router", ECP5_ROUTER, *timing.split(), *([] if ECP5_WIDELUT else ["--no-widelut"]),
            "--seeds", ecp5_seeds(d), "--timeout-min", str(TIMEOUT_MIN)]


def ecp5_settings_match(m, d):
    """An ECP5 result counts only if it ran with ecp5_args(d)'s synthesis option, placer, router, timing mode and seeds."""
    return (m.get("placer") == ECP5_PLACER and m.get("router") == ECP5_ROUTER
            and m.get("timing_driven", True) == ECP5_TIMING_DRIVEN.get(d, False)
            and m.get("widelut", True) == ECP5_WIDELUT
            and sorted(map(str, m.get("seeds", {}))) == sorted(ecp5_seeds(d).split(",")))


BUTTERFLY = [f"intfft_{g}_butterfly" for g in GROUP_ORDER]
ASIC = BUTTERFLY + FOLDED
# The fully parallel 2^32+1 network in SKY130: attempted within the issue's budget (an hour, 16 GB);
# the outcome is recorded in ATTEMPT either way, and reported instead of a figure when it fails.
PARALLEL_ASIC = "intfft_fermat32_parallel"
ATTEMPT = layout.design_dir(PARALLEL_ASIC) / "harden_attempt.json"
LIMIT_S, LIMIT_GB = 3600, 16
# Measured configurations the run-time model can use (a clock); the schoolbook designs are used
# when someone has measured them, but this script does not run their flows.
CLOCKED = FOLDED + ["intfft_fermat32_parallel"] + [f"intfft_{g}_schoolbook" for g in GROUP_ORDER]
BASELINE = BUILD / "intfft_baseline" / "results.json"


def secs(x):
    if x is None:
        return "n/a"
    return f"{x:.4g} s" if x >= 1e-3 else f"{x * 1e6:.4g} us"


def rtl_path(d):
    return layout.rtl(d)


def stale_rtl(m, d):
    return not rtl_path(d).exists() or not same_rtl(m, d)


def generate(designs):
    """Every design's Verilog from the generator as it is now, not only the missing ones: a result
    counts only for the RTL it was made from (rtl_sha256), so RTL left in build/ by an older
    generator would be measured again under the old design. Unchanged Verilog keeps its results."""
    print(f"intfft-reports: generating {', '.join(designs)}", flush=True)
    generate_rtl(designs)


def attempt_parallel_asic(rerun):
    """flow/harden.py on the fully parallel network under an hour and 16 GB of address space (a
    process group, killed whole on timeout). Records status, wall time, peak RSS and the last
    LibreLane step reached in ATTEMPT; a finished attempt on the same RTL and flow is not rerun."""
    import resource
    import signal
    import time
    m = harden_result(PARALLEL_ASIC)
    if m and not rerun and not stale_rtl(m, PARALLEL_ASIC) and m.get("flow_sha256") == flow_sha256():
        print(f"intfft-reports: {PARALLEL_ASIC} harden: up to date ({m['date']})", flush=True)
        return None
    a = read_json(ATTEMPT)
    if a and not rerun and a.get("rtl_sha256") == rtl_sha256(PARALLEL_ASIC) and a.get("flow_sha256") == flow_sha256():
        print(f"intfft-reports: {PARALLEL_ASIC} harden: attempted {a['date']} ({a['status']})", flush=True)
        return None if a["status"] == "ok" else a["status"]
    print(f"intfft-reports: {PARALLEL_ASIC}: hardening within {LIMIT_S} s and {LIMIT_GB} GB ...", flush=True)
    limit = LIMIT_GB << 30
    t0 = time.monotonic()
    p = subprocess.Popen([sys.executable, str(FLOW / "harden.py"), PARALLEL_ASIC], start_new_session=True,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
    lines = []

    def pump():
        for line in p.stdout:
            print(line, end="", flush=True)
            lines.append(line)
    import threading
    th = threading.Thread(target=pump, daemon=True)
    th.start()
    try:
        rc = p.wait(timeout=LIMIT_S)
        status = "ok" if rc == 0 else ("out of memory" if any("MemoryError" in l or "bad_alloc" in l or "out of memory" in l.lower()
                                                              for l in lines) else f"failed (exit {rc})")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        status = f"timeout after {LIMIT_S} s"
    th.join(5)
    steps = [re.search(r"running ([\w.]+)", l).group(1) for l in lines if re.search(r"running ([\w.]+)", l)]
    a = {"design": PARALLEL_ASIC, "status": status, "wall_s": round(time.monotonic() - t0),
         "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
         "last_step": steps[-1] if steps else None, "limit_s": LIMIT_S, "limit_gb": LIMIT_GB,
         "rtl_sha256": rtl_sha256(PARALLEL_ASIC), "flow_sha256": flow_sha256(),
         "date": utc_now()}
    ATTEMPT.parent.mkdir(parents=True, exist_ok=True)
    ATTEMPT.write_text(json.dumps(a, indent=1) + "\n")
    return None if status == "ok" else status


def run_flows(rerun):
    failures = {}
    for d in ASIC:
        m = harden_result(d)
        if m and not rerun and not stale_rtl(m, d) and m.get("flow_sha256") == flow_sha256():
            print(f"intfft-reports: {d} harden: up to date ({m['date']})", flush=True)
            continue
        print(f"intfft-reports: {d}: hardening ...", flush=True)
        if subprocess.run([sys.executable, str(FLOW / "harden.py"), d]).returncode:
            failures[(d, "harden")] = "flow/harden.py failed"
    for targets, designs in ((("xc7",), XC7), (("ecp5",), ECP5)):
        for d in designs:
            for t in targets:
                m = fpga_result(d, t)
                if m and not rerun and not stale_rtl(m, d) and (t != "ecp5" or not m.get("fits") or ecp5_settings_match(m, d)):
                    print(f"intfft-reports: {d} {t}: up to date ({m['date']})", flush=True)
                    continue
                print(f"intfft-reports: {d} {t} ...", flush=True)
                extra = ecp5_args(d) if t == "ecp5" else []
                if subprocess.run([sys.executable, str(FLOW / "fpga.py"), d, t, *extra]).returncode:
                    failures[(d, t)] = f"flow/fpga.py {d} {t} failed"
    return failures


# ---- 1. Table 6 ----

def table6_rows():
    cells = latency.table6()
    b8 = {(c.row, c.group): c for c in latency.table6(general_b=8)}
    rows = []
    for c in cells:
        g = GROUP_BY_P[c.p]
        alt = b8[(c.row, c.group)] if g.reducer == "dhem" else None
        rows.append({"row": c.row, "scheme": c.scheme, "group": c.group, "fft_group": g.name, "k": c.k, "b": c.b,
                     "d": c.d, "n_x": c.n_x, "n_y": c.n_y, "n_mult": c.n_mult, "eq12_cycles": float(c.cycles),
                     "paper_mhz": float(c.mhz), "printed": c.printed.text, "printed_s": float(c.printed.seconds),
                     "model_s": c.model_s, "rel": c.rel, "match": c.match,
                     "model_b8_s": alt.model_s if alt else None, "rel_b8": alt.rel if alt else None})
    return rows


# ---- 2. the model at our clocks ----

def clocks():
    """{design: {"asic_mhz", "asic_cp_ns", "ecp5_mhz", "stale"}} for the configurations measured."""
    out = {}
    for d in CLOCKED:
        h, e = harden_result(d), fpga_result(d, "ecp5")
        r = {}
        if h and h.get("critical_path_ns"):
            r["asic_cp_ns"] = h["critical_path_ns"]
            r["asic_mhz"] = 1000 / h["critical_path_ns"]
            r["asic_stale"] = stale_rtl(h, d) or h.get("flow_sha256") != flow_sha256()
        if e and e.get("fits") and e.get("fmax_mhz_median"):
            r["ecp5_mhz"] = e["fmax_mhz_median"]
            r["ecp5_stale"] = stale_rtl(e, d)
        elif e and not stale_rtl(e, d):
            r["ecp5_none"] = "does not fit the LFE5U-85F" if not e.get("fits") else "not routed (see the FPGA section)"
        out[d] = r
    return out


def our_cycles(design, g, n_x, n_y):
    """Cycles per multiplication on our hardware: the schoolbook RTL's count for the parallel block
    multiplier; for a folded one, Bx By II + latency + W (a controller that issues one pair per II)."""
    bx, by = blocks(n_x, g.block_bits), blocks(n_y, g.block_bits)
    if "_folded_" in design:
        m = manifest(design)
        if not m:
            return None
        return bx * by * m["issue_interval"] + m["latency"] + g.words_per_block
    return model_cycles(g, bx, by)


def clocked_rows(t6, clk):
    rows = []
    for c in t6:
        g = GROUPS[c["fft_group"]]
        for d in [x for x in CLOCKED if f"intfft_{g.name}_" in x]:
            m = clk.get(d, {})
            if not m:
                continue
            cyc = our_cycles(d, g, c["n_x"], c["n_y"])
            for tech in ("asic", "ecp5"):
                mhz = m.get(f"{tech}_mhz")
                if not mhz:
                    continue
                rows.append({"row": c["row"], "group": c["group"], "design": d, "tech": tech, "mhz": mhz,
                             "stale": m.get(f"{tech}_stale"), "printed_s": c["printed_s"], "printed": c["printed"],
                             "eq12_s": c["n_mult"] * c["eq12_cycles"] / (mhz * 1e6),
                             "ours_s": c["n_mult"] * cyc / (mhz * 1e6) if cyc else None})
    return rows


# ---- 3. FPGA and ASIC ----

def fpga_rows():
    paper = {u.p: u for u in paper_fpga.utilisation(paper_tables.paper_table4())}
    totals = paper_tables.paper_table4().totals
    rows = []
    for d in XC7:
        g = GROUPS[entry(d)["params"]["group"]]
        u = paper.get(g.p)
        x = fpga_result(d, "xc7")
        r = {"design": d, "group": g.name, "paper_lut": u.used["luts"] if u else None,
             "paper_ff": u.used["registers"] if u else None, "paper_dsp": u.used["dsp"] if u else None,
             "paper_fits": u.fits if u else None}
        if x:
            res = x["resources"]
            r.update(lut=res.get("LUT"), ff=res.get("FF"), dsp=res.get("DSP"), xc7_stale=stale_rtl(x, d),
                     xc7_date=x.get("date"))
            r["fits"] = (r["lut"] or 0) <= totals["luts"] and (r["ff"] or 0) <= totals["registers"] and \
                (r["dsp"] or 0) <= totals["dsp"]
        e = fpga_result(d, "ecp5") if d in ECP5 else None
        if e:
            r["ecp5_fits"] = e["fits"]
            r["ecp5_stale"] = stale_rtl(e, d)
            if e["fits"]:
                u5, seeds = e["utilization"], list(e.get("seeds") or [])
                r.update(ecp5_comb=u5.get("TRELLIS_COMB", {}).get("used"), ecp5_ff=u5.get("TRELLIS_FF", {}).get("used"),
                         ecp5_mult=u5.get("MULT18X18D", {}).get("used"), ecp5_bram=u5.get("DP16KD", {}).get("used"))
                if e.get("routed") is False:
                    run = next(x for x in e["seeds"].values() if x.get("routed") is False)
                    r["ecp5_unrouted"] = (f"not routed in {run['timeout_min']:g} min (router2 iteration "
                                          f"{run['router2_iterations']}: {run['overused_wires']:,} wires overused)")
                else:
                    r["ecp5_fmax_mhz"] = e["fmax_mhz_median"]
                r["ecp5_runs"] = (f"{'' if e.get('widelut', True) else 'synth_ecp5 -nowidelut, '}"
                                  f"{e.get('placer', 'heap')} placer, {e.get('router', 'router1')}, "
                                  f"{'' if e.get('timing_driven', True) else 'not '}timing-driven, "
                                  f"seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}")
            else:
                r["ecp5_overflow"] = e.get("overflow")
        rows.append(r)
    return rows, totals


def asic_rows():
    rows = []
    for d in ASIC:
        m = harden_result(d)
        r = {"design": d, "group": entry(d)["params"]["group"]}
        if m:
            r.update(area_um2=m.get("design__instance__area"), cp_ns=m.get("critical_path_ns"), date=m.get("date"),
                     stale=stale_rtl(m, d) or m.get("flow_sha256") != flow_sha256())
        rows.append(r)
    return rows


# ---- 4. GMP ----

def baseline():
    return read_json(BASELINE)


def baseline_rows(sw, t6, clk):
    if not sw:
        return []
    model = {(c["scheme"], c["group"], c["fft_group"]): c for c in t6}
    rows = []
    for e in sw["groups"]:
        r = {"scheme": e["scheme"], "group": e["group"], "delta": e["delta"], "phi": e["phi"],
             "products": e["products"], "gmp_mul_s": e["mul"]["median_s"], "gmp_barrett_s": e["barrett"]["median_s"],
             "gmp_est_s": e["est_encrypt_s"], "paper_sw_s": e.get("sw_s")}
        c = model.get((e["scheme"], e["group"], "solinas64"))
        if c:
            r["hw_model_solinas_s"] = c["model_s"]
            r["speedup_vs_model"] = e["est_encrypt_s"] / c["model_s"]
        # at our measured clock, the best configuration measured for Solinas
        best = None
        for cr in clocked_rows([c], clk) if c else []:
            if cr["ours_s"] and (best is None or cr["ours_s"] < best["ours_s"]):
                best = cr
        if best:
            r.update(hw_ours_s=best["ours_s"], hw_ours_design=best["design"], hw_ours_tech=best["tech"],
                     speedup_vs_ours=e["est_encrypt_s"] / best["ours_s"])
        rows.append(r)
    return rows


def write(t6, clk, crow, frows, totals, arows, sw, brows, failures, collect_only):
    write_text(f"{NAME}.csv", "".join(csv_text(part) + "\n" for part in (t6, crow, frows, arows, brows) if part), newline="")

    run_cmd = f"`.venv/bin/python {script(__file__)}`"
    L = ["# Integer-FHE super-size multiplier (Cao et al.): Table 6, FPGA, ASIC, GMP", "",
         generated_by(__file__, " --collect-only: no flow was run" if collect_only else "") + "; do not edit. The paper: "
         "Cao et al., `data/papers/cao.toml`; its tables are parsed from the text "
         "(verif/intfft/paper_tables.py), its errata in `docs/errata.md` (Cao et al.). "
         "See docs/intfft.md.", ""]

    s = latency.summary([type("C", (), {"match": r["match"], "rel": r["rel"]}) for r in t6])
    s8 = sum(abs(r["rel_b8"] if r["rel_b8"] is not None else r["rel"]) < 0.01 for r in t6)
    L += ["## Table 6 from Eq. (12) at the paper's frequencies", "",
          "time = N_mult * Eq12(n_x = delta rounded up to whole kb/2-bit blocks, n_y = phi) / f, N_mult = theta^2 "
          "(CMNT) or theta (CNT), f from Table 5, k, b, d from Table 3 (the notes' reconstruction, "
          "verif/intfft/latency.py). The Barrett reduction is not included: the printed times fit the "
          "multiplications alone. Printed: the text's cell, parsed. For the general modulus the last two columns "
          "recompute with b = 8, d = 32, which the Medium and Large cells fit (Table 3's b = 12 does not).", "",
          f"{s['cells']} cells; equal at the printed precision: {s['match_printed']}; within 1%: {s['within_1pct']} "
          f"({s8} with b = 8 for the general rows).", "",
          *md_head("design", "group", "printed", "Eq. 12 model", "rel", "equal", "b = 8 model", "rel (b = 8)")]
    for r in t6:
        L.append(f"| {r['row']} | {r['group']} | {r['printed']} | {r['model_s']:.4g} s | {r['rel']:+.2%} | "
                 f"{'yes' if r['match'] else 'no'} | {fmt(r['model_b8_s'], '.4g', ' s')} | {fmt(r['rel_b8'], '+.2%')} |")
    L += ["", "Our schoolbook controller runs W + L + W Bx By + W = Eq. (12) + 16 Bx clocks per multiplication "
          "(docs/intfft.md): 8 of Eq. (12)'s constant (the text's preparation latency is 16 log2 k + 24, "
          "Eq. (12) counts 16 log2 k + 16), 8 of the final flush, 16 (Bx - 1) of Eq. (12)'s \"- n_x + kb/2\" "
          "term. In these runs Bx = 1 (delta <= kb/2), so the RTL is 16 clocks a multiplication above Eq. (12).", ""]

    L += ["## The model at our measured clocks", "",
          "Each Table 6 cell at our clock: Eq. (12) cycles, and our hardware's cycles: the schoolbook RTL's "
          "Eq. (12) + 16 Bx for the parallel block multiplier; for a folded one (no controller is built for it) "
          "the estimate Bx By II + latency + W, one block pair per issue interval II (manifest). ASIC clock: "
          "1 / tt critical path of flow/harden.py (post-synthesis STA); ECP5: median Fmax of flow/fpga.py.", "",
          *md_head("configuration", "ASIC clock (MHz)", "ECP5 Fmax (MHz)")]
    for d in CLOCKED:
        m = clk.get(d, {})
        a = (f"{m['asic_mhz']:.1f}" + (" (stale)" if m.get("asic_stale") else "")) if "asic_mhz" in m else \
            (f"absent: `make harden DESIGN={d}` or {run_cmd}" if d in ASIC else f"absent: `make harden DESIGN={d}`")
        e = (f"{m['ecp5_mhz']:.1f}" + (" (stale)" if m.get("ecp5_stale") else "")) if "ecp5_mhz" in m else \
            m["ecp5_none"] if "ecp5_none" in m else f"absent: `.venv/bin/python flow/fpga.py {d} ecp5 {' '.join(ecp5_args(d))}`" + (f" or {run_cmd}" if d in ECP5 else "")
        L.append(f"| `{d}` | {a} | {e} |")
    L += [""]
    if crow:
        L += md_head("design", "group", "configuration", "clock", "printed", "Eq. 12 at our clock", "our cycles at our clock")
        for r in crow:
            L.append(f"| {r['row']} | {r['group']} | `{r['design']}` | {r['tech']} {r['mhz']:.1f} MHz"
                     f"{' (stale)' if r['stale'] else ''} | {r['printed']} | {secs(r['eq12_s'])} | {secs(r['ours_s'])} |")
    else:
        L.append("No configuration has a measured clock yet: absent for every cell (the commands above measure them).")
    L += [""]

    L += ["## FPGA: Yosys synth_xilinx counts beside the paper's Table 4 (XC7VX980T)", "",
          f"Device capacity from Table 4's header (checked against Xilinx DS180): {totals['luts']:,} LUT, "
          f"{totals['registers']:,} registers, {totals['dsp']:,} DSP48E1. The paper's row is its multiplier for the "
          "same modulus (fully parallel). Ours: `flow/fpga.py <d> xc7` (no Fmax: no open signoff timing for Xilinx "
          "parts).", "",
          *md_head("design", "LUT", "FF", "DSP", "fits", "paper LUT", "paper FF", "paper DSP", "paper fits")]
    for r in frows:
        if "lut" in r:
            ours = (f"{fmt(r['lut'], ',')} | {fmt(r['ff'], ',')} | {fmt(r['dsp'], ',')} | "
                    f"{'yes' if r['fits'] else 'no'}{' (stale)' if r.get('xc7_stale') else ''}")
        else:
            ours = f"absent: `.venv/bin/python flow/fpga.py {r['design']} xc7` or {run_cmd} |  |  | "
        L.append(f"| `{r['design']}` | {ours} | {fmt(r['paper_lut'], ',')} | {fmt(r['paper_ff'], ',')} | "
                 f"{fmt(r['paper_dsp'], ',')} | {'yes' if r['paper_fits'] else 'no'} |")
    L += ["", "ECP5 (LFE5U-85F): nextpnr place and route out of context, median Fmax of the seeds (flow/fpga.py). "
          f"The runs (`flow/fpga.py <d> ecp5 {' '.join(ecp5_args('<d>', '[--no-timing-driven]')).replace('--seeds 1', '--seeds <s>')}`) use "
          "synth_ecp5 -nowidelut (LUT4s only: wide PFUMX/L6MUX21 functions tie a crossbar mux's LUTs to one tile, "
          "which left router2 with far more wires overused on fermat64), "
          "nextpnr's static placer and router2: after its default placer (HeAP), router2 stalled with over 10^4 wires overused, "
          "and router1 made no headway. Timing-driven or not is set per design (ECP5_TIMING_DRIVEN in flow/reports/intfft_table.py): "
          "against the 100 MHz constraint timing-driven router2 stalled on fermat64, on general32 while its reducers' "
          "products by constants used DSP blocks, and on fermat32 after the two-level operand crossbar, so all run with "
          "--no-timing-driven (nextpnr --no-tmdriv; the Fmax is still measured after routing). "
          + (f"The seed is per design as well (ECP5_SEEDS: {', '.join(f'{d} {s}' for d, s in ECP5_SEEDS.items())}; the others 1). "
             if ECP5_SEEDS else "One seed, 1, for every design (ECP5_SEEDS can set a design's own). ") +
          f"A seed not routed in {TIMEOUT_MIN} minutes is reported with the last router2 iteration "
          "it reached. The last column gives the placer, router, timing mode and seeds.", "",
          *md_head("design", "LUT4", "FF", "MULT18X18D", "DP16KD", "Fmax (MHz)", "nextpnr")]
    for r in frows:
        if r["design"] not in ECP5:
            continue
        if r.get("ecp5_fits") is False:
            L.append(f"| `{r['design']}` | does not fit: {r.get('ecp5_overflow')}{' (stale)' if r.get('ecp5_stale') else ''} |  |  |  |  |  |")
        elif "ecp5_fits" in r:
            L.append(f"| `{r['design']}` | {fmt(r.get('ecp5_comb'), ',')} | {fmt(r.get('ecp5_ff'), ',')} | "
                     f"{fmt(r.get('ecp5_mult'))} | {fmt(r.get('ecp5_bram'))} | "
                     f"{r['ecp5_unrouted'] if 'ecp5_unrouted' in r else fmt(r.get('ecp5_fmax_mhz'), '.1f')}"
                     f"{' (stale)' if r.get('ecp5_stale') else ''} | {r.get('ecp5_runs')} |")
        else:
            L.append(f"| `{r['design']}` | absent: `.venv/bin/python flow/fpga.py {r['design']} ecp5 {' '.join(ecp5_args(r['design']))}` "
                     f"or {run_cmd} |  |  |  |  |  |")
    L += [""]

    L += ["## ASIC (SKY130, flow/harden.py, post-synthesis, tt): the butterfly unit and the folded block multiplier "
          "per modulus", "",
          "The butterfly (`intfft_<group>_butterfly`) is the folded multiplier's unit alone: the twiddle product, "
          "the group's reducer, the add/subtract and the k^-1 scaling multiplier of the last inverse stage.", "",
          *md_head("design", "area (mm2)", "critical path tt (ns)", "clock (MHz)")]
    for r in arows:
        if "cp_ns" in r:
            L.append(f"| `{r['design']}`{' (stale)' if r['stale'] else ''} | {fmt(r['area_um2'] / 1e6 if r['area_um2'] else None, '.3f')} | "
                     f"{fmt(r['cp_ns'], '.3f')} | {fmt(1000 / r['cp_ns'] if r['cp_ns'] else None, '.1f')} |")
        else:
            L.append(f"| `{r['design']}` | absent: `make harden DESIGN={r['design']}` or {run_cmd} |  |  |")
    par = harden_result(PARALLEL_ASIC)
    att = read_json(ATTEMPT)
    L += ["", f"The fully parallel 2^32+1 network (`{PARALLEL_ASIC}`), attempted within {LIMIT_S // 60} min and "
          f"{LIMIT_GB} GB: "]
    if par and par.get("critical_path_ns"):
        L[-1] += (f"{par['design__instance__area'] / 1e6:.3f} mm2, critical path {par['critical_path_ns']:.3f} ns "
                  f"({1000 / par['critical_path_ns']:.1f} MHz) at tt{' (stale)' if stale_rtl(par, PARALLEL_ASIC) else ''}.")
        syn = par.get("steps", {}).get("modforge-synthesis", {})
        if syn:
            L[-1] += f" Synthesis took {syn.get('wall_s')} s and {syn.get('peak_mb'):,} MB"
            L[-1] += (f"; the whole run {att['wall_s']} s, peak RSS {att['peak_rss_mb']:,} MB ({att['date']})."
                      if att and att.get("status") == "ok" else ".")
        # Folded against parallel at the same modulus: area, and area x time per block pair (a pair
        # enters every issue_interval clocks, manifest), both at the measured tt clock.
        fold = f"intfft_{entry(PARALLEL_ASIC)['params']['group']}_folded_p4"
        fm, mp, mf = harden_result(fold), manifest(PARALLEL_ASIC), manifest(fold)
        if fm and fm.get("critical_path_ns") and mp and mf:
            def at(m, man):
                return m["design__instance__area"] / 1e6 * man["issue_interval"] * m["critical_path_ns"] / 1000
            L += ["", f"Folded (`{fold}`) against parallel: {par['design__instance__area'] / fm['design__instance__area']:.1f}x "
                  f"smaller; a block pair every {mf['issue_interval']} clocks against {mp['issue_interval']}, so "
                  f"{mf['issue_interval'] * fm['critical_path_ns'] / (mp['issue_interval'] * par['critical_path_ns']):.1f}x "
                  f"the time per pair; area x time per pair {at(fm, mf):.3f} against {at(par, mp):.3f} mm2 us."]
    elif att:
        L[-1] += (f"not built: {att['status']} ({att['date']}); {att['wall_s']} s, peak RSS {att['peak_rss_mb']:,} MB, "
                  f"last LibreLane step reached: {att['last_step'] or 'none'}.")
    else:
        L[-1] += f"not attempted yet ({run_cmd})."
    L += [""]

    L += ["## Software baseline: GMP", ""]
    if sw:
        e = sw["environment"]
        L += [f"{e.get('gmp')} through gmpy2 {e.get('gmpy2')}, Python {e.get('python')}, on {e.get('cpu_model')} "
              f"({e.get('cpu_count')} cores), load average {e.get('load_average_start')} at the start, "
              f"{e.get('load_average_end')} at the end, {e.get('date')} (build/intfft_baseline/results.json, "
              "flow/reports/intfft_baseline.py). Estimated encryption = N * (one delta x phi product) + one super-size Barrett "
              "(Eqs. 9-11, d = 224). Hardware: the Eq. (12) model of the Solinas row at the paper's frequency, and at "
              "our best measured clock for solinas64. Speedup > 1: the hardware is faster.", "",
              *md_head("scheme", "group", "phi", "N", "GMP product", "GMP Barrett", "GMP est. encryption", "paper's software",
                       "hw model (paper f)", "speedup", "hw at our clock", "speedup")]
        for r in brows:
            ours = (f"{secs(r['hw_ours_s'])} (`{r['hw_ours_design']}`, {r['hw_ours_tech']}) | {r['speedup_vs_ours']:.3g}x"
                    if "hw_ours_s" in r else "absent: no measured clock | n/a")
            L.append(f"| {r['scheme']} | {r['group']} | {r['phi']:,} | {r['products']:,} | {secs(r['gmp_mul_s'])} | "
                     f"{secs(r['gmp_barrett_s'])} | {secs(r['gmp_est_s'])} | {secs(r.get('paper_sw_s'))} | "
                     f"{secs(r.get('hw_model_solinas_s'))} | {fmt(r.get('speedup_vs_model'), '.3g', 'x')} | {ours} |")
    else:
        L.append("absent: no GMP results on this machine; measure them with `.venv/bin/python flow/reports/intfft_baseline.py` "
                 "(build/intfft_baseline/results.json; run it on a quiet machine).")
    L += [""]
    if failures:
        L += ["## Failures", ""] + [f"- `{d}` {t}: {why}" for (d, t), why in failures.items()] + [""]
    L += [stamp()]
    write_md(f"{NAME}.md", L)
    print(f"intfft-reports: wrote reports/{NAME}.md, .csv")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--collect-only", action="store_true", help="never run a flow; report what exists")
    ap.add_argument("--rerun", action="store_true", help="rerun the flows on up-to-date designs")
    ap.add_argument("--no-parallel-asic", dest="parallel_asic", action="store_false",
                    help=f"skip the SKY130 attempt on {PARALLEL_ASIC} (up to {LIMIT_S // 60} min)")
    a = ap.parse_args()
    failures = {}
    if not a.collect_only:
        generate(sorted(set(XC7 + ECP5 + ASIC)))
        failures = run_flows(a.rerun)
        if a.parallel_asic:
            attempt_parallel_asic(a.rerun)
        if a.rerun or not BASELINE.exists():
            print("intfft-reports: GMP baseline (flow/reports/intfft_baseline.py) ...", flush=True)
            if subprocess.run([sys.executable, str(Path(__file__).resolve().with_name("intfft_baseline.py"))]).returncode:
                failures[("gmp", "baseline")] = "flow/reports/intfft_baseline.py failed"
    t6 = table6_rows()
    clk = clocks()
    crow = clocked_rows(t6, clk)
    frows, totals = fpga_rows()
    arows = asic_rows()
    sw = baseline()
    write(t6, clk, crow, frows, totals, arows, sw, baseline_rows(sw, t6, clk), failures, a.collect_only)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
