#!/usr/bin/env python3
"""Polynomial multiplication at FHE sizes: reports/polymul_table.md (+ .csv, polymul_table.png), the
SRAM-backed NTT tile against the SSA polynomial-multiplier paper (Millar et al., Tables I, II, IV) and
against NTL and FLINT on this machine (docs/polymul.md).

    flow/reports/polymul_table.py [--collect-only] [--rerun]

For every Table I set (parsed from the paper's text, verif/ntt/millar_tables.py):
  * our cycles per polynomial product (NTT(a), NTT(b), PWMUL, INTT; plus 2 LOAD and 1 UNLOAD
    streams) at P = 1 and P = 2, from the tile's cycle formula (verif/bench/ntt_bench.py
    expected_cycles, which the cocotb benches check against the simulation; where a design is
    generated, also checked against its manifest), beside the ideal (3 (N/2) log2 N + N) / P;
  * the paper's HLS latency (Table II) and place-and-route figures (Table IV).
For the sets in ASIC_SETS: flow/harden.py on `polymul_<n>_<logq>` (P = 2) and on the largest P whose
macros plus standard cells fit AREA_BUDGET_UM2 (a search: P from the largest whose macros alone fit,
halving until the measured total fits), then the time per product at the STA clock (period = tt
critical path) and the speedups over the software baseline of build/sw_baseline/results.json
(`make sw-baseline`). Anything not measured is reported as absent, with the command that measures it.

--collect-only never runs the flow. A tile design without build/<d>/harden/metrics.json there keeps
its row of the ASIC block of the reports/polymul_table.csv it replaces (read before it is
overwritten): the figures and their measurement date as they were, a `source` column saying so, the
markdown marking the row, the speedups recomputed against today's software baseline, and the
largest-P search choosing among such rows as among measured ones. The FPGA figures are not carried:
the CSV does not hold them, and the markdown's cells are rounded and undated, no data to carry.
"""
import argparse
import csv
import json
import subprocess
import sys
import textwrap
from pathlib import Path

from layout import BUILD
from ntt import millar_tables as mt
from reports import common
from reports.common import (csv_text, date_span, fmt, fpga_result, generate_rtl, generated_by, harden_result,
                            manifest, md_head, pyplot, save_figure, stamp, up_to_date, write_md, write_text)
from reports.polymul_best import AREA_BUDGET_UM2, best_section

FLOW = Path(__file__).resolve().parents[1]

ASIC_SETS = [(1024, 19), (2048, 33), (4096, 62), (8192, 123)]
P_VALUES = (1, 2, 4, 8, 16, 32)
SW_RESULTS = BUILD / "sw_baseline" / "results.json"
NAME = "polymul_table"
PREVIOUS = f"reports/{NAME}.csv"  # where --collect-only carries absent ASIC results from, as messages name it


def _bool(text):
    if text not in ("True", "False"):
        raise ValueError(f"not True or False: {text!r}")
    return text == "True"


# The ASIC block's columns that asic_row writes from a harden result, with their types: what a carried
# row keeps. The software figures and speedups are not carried: they are recomputed against today's
# baseline. None stands for an empty field where metrics.json may lack the figure.
CARRIED_COLUMNS = {"design": str, "n": int, "logq": int, "p": int, "stdcell_um2": float, "macro_um2": float,
                   "macros": int, "critical_path_ns": float, "critical_path_ss_ns": float, "cycles": int,
                   "cycles_with_streams": int, "us_per_product": float, "us_compute_only": float, "date": str,
                   "stale": _bool}
MAY_BE_EMPTY = {"macros", "critical_path_ss_ns"}


def design(n, logq, p=2):
    return mt.set_name(n, logq) + ("" if p == 2 else f"_p{p}")


def formula_cycles(n, p):
    """(product cycles, stream cycles) of the BarrettOpt SRAM tile, from the bench's formula."""
    from ntt_bench import INTT, LOAD, NTT, PWMUL, UNLOAD, expected_cycles
    c = {op: expected_cycles(op, n, p, "barrett", "sram") for op in (NTT, INTT, PWMUL, LOAD, UNLOAD)}
    return 2 * c[NTT] + c[PWMUL] + c[INTT], 2 * c[LOAD] + c[UNLOAD]


def manifest_cycles(m):
    c = m["cycles"]
    return 2 * c["NTT"] + c["PWMUL"] + c["INTT"], 2 * c["LOAD"] + c["UNLOAD"]


def ideal_cycles(n, p):
    """The issue's ideal: (3 (N/2) log2 N + N) / P butterfly-cycles (three transforms, one pointwise pass)."""
    return (3 * (n // 2) * (n.bit_length() - 1) + n) / p


def generate(designs):
    todo = [d for d in designs if not manifest(d)]
    if todo:
        print(f"polymul-reports: generating {len(todo)} designs", flush=True)
        generate_rtl(todo)


def harden(d, rerun=False):
    m = harden_result(d)
    if m and not rerun and up_to_date(m, d):
        print(f"polymul-reports: {d}: up to date ({m['date']})", flush=True)
        return m
    print(f"polymul-reports: {d}: hardening ...", flush=True)
    p = subprocess.run([sys.executable, str(FLOW / "harden.py"), d])
    return harden_result(d) if p.returncode == 0 else None


def total_area(m):
    return m["design__instance__area"] + m.get("macro_area_um2", 0.0)


def row_area(r):
    """Standard cells plus macros of an ASIC row (a carried one: no metrics.json to read it from)."""
    return r["stdcell_um2"] + (r["macro_um2"] or 0.0)


def current_result(d):
    m = harden_result(d)
    return m if m and up_to_date(m, d) else None


def largest_p(n, logq, collect_only, rerun, carried=None):
    """The largest P whose tile (standard cells + macros, measured) fits AREA_BUDGET_UM2, the designs
    tried on the way (P whose macros alone exceed the budget are not synthesized) and those of them
    whose figures are rows carried from the previous CSV (carried: {design: row}, --collect-only),
    which are chosen among by the same rule. Without a result, collect-only passes a design by."""
    names = [design(n, logq, p) for p in P_VALUES if n >= 4 * p]
    if not collect_only:
        generate(names)
    tried, from_csv = [], []
    for d in reversed(names):
        c = carried_for(d, carried or {})
        if c:
            tried.append(d)
            from_csv.append(d)
            if row_area(c) <= AREA_BUDGET_UM2:
                return d, tried, from_csv
            continue
        mf = manifest(d)
        if not mf or mf["sram"]["macro_area_um2"] > AREA_BUDGET_UM2:
            continue
        m = (current_result(d) or harden_result(d)) if collect_only else harden(d, rerun)
        if not m and collect_only:
            continue  # not synthesized: not "tried"
        tried.append(d)
        if m and total_area(m) <= AREA_BUDGET_UM2:
            return d, tried, from_csv
    return None, tried, from_csv


def sw_results():
    """build/sw_baseline/results.json (flow/reports/sw_baseline.py) with its sets keyed by (n, log q)."""
    if not SW_RESULTS.exists():
        return None
    j = json.loads(SW_RESULTS.read_text())
    j["by_set"] = {(r["n"], r["logq"]): r for r in j["sets"]}
    return j


def fresh_source(d):
    return f"build/{d}/harden/metrics.json"


def asic_row(d, sw, n, logq):
    mf, m = manifest(d), harden_result(d)
    if not mf or not m:
        return None
    prod, streams = manifest_cycles(mf)
    cp = m["critical_path_ns"]
    us = (prod + streams) * cp / 1000
    r = {"design": d, "n": n, "logq": logq, "p": mf["p"], "stdcell_um2": m["design__instance__area"],
         "macro_um2": m.get("macro_area_um2"), "macros": m.get("macro_count"), "critical_path_ns": cp,
         "critical_path_ss_ns": m["critical_path_ns__corner"].get("ss_100C_1v60"),
         "cycles": prod, "cycles_with_streams": prod + streams, "us_per_product": us,
         "us_compute_only": prod * cp / 1000, "date": m["date"],
         "stale": not up_to_date(m, d), "source": fresh_source(d)}
    return with_speedups(r, sw)


def with_speedups(r, sw):
    """r with this machine's NTL and FLINT times at its set and the speedups over them, where
    build/sw_baseline/results.json has the set."""
    s = (sw or {}).get("by_set", {}).get((r["n"], r["logq"]))
    if s:
        r["ntl_us"] = s["ntl_median_s"] * 1e6
        r["flint_us"] = s["flint_median_s"] * 1e6
        r["speedup_ntl"] = r["ntl_us"] / r["us_per_product"]
        r["speedup_flint"] = r["flint_us"] / r["us_per_product"]
    return r


# ---- carried rows (--collect-only without a harden result) ----

def _bad_previous(why):
    """The error of an unreadable previous CSV, in lines of at most 100 characters (the CLI's rule)."""
    return SystemExit("\n".join([
        *textwrap.wrap(f"polymul-reports: error: {PREVIOUS}: {why}", 100, subsequent_indent="  "),
        "  its ASIC rows cannot be carried over; nothing was written.",
        f"Fix: restore it (git checkout {PREVIOUS}), or measure the designs:",
        "  flow/reports/polymul_table.py (without --collect-only)."]))


def _field(column, text):
    if text == "" and column in MAY_BE_EMPTY:
        return None
    return CARRIED_COLUMNS[column](text)


def previous_asic_rows(path=None):
    """{design: row} of the ASIC block (the one whose header starts with "design,") of the CSV this run
    is about to replace, reports/polymul_table.csv unless path; {} with a note if there is none.
    SystemExit naming the file, the line and the fix if it cannot be read."""
    path = path or common.REPORTS / f"{NAME}.csv"
    if not path.exists():
        print(f"polymul-reports: note: no {PREVIOUS} to carry ASIC results from;\n"
              "  designs without a harden result are reported as absent", file=sys.stderr)
        return {}
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise _bad_previous(f"unreadable ({e})")
    start = next((i for i, line in enumerate(lines) if line.startswith("design,")), None)
    if start is None and lines and lines[0].startswith("n,logq,"):
        # write() leaves the ASIC block out when no design had a result: nothing to carry
        print(f"polymul-reports: note: {PREVIOUS} has no ASIC block: nothing to carry", file=sys.stderr)
        return {}
    if start is None:
        raise _bad_previous('neither the cycles block ("n,logq,...") nor the ASIC block ("design,...")')
    reader = csv.DictReader(lines[start:])
    lacking = [c for c in CARRIED_COLUMNS if c not in (reader.fieldnames or [])]
    if lacking:
        raise _bad_previous(f"the ASIC block (line {start + 1}) lacks the columns {', '.join(lacking)}")
    rows = {}
    for raw in reader:
        try:
            rows[raw["design"]] = {c: _field(c, raw[c]) for c in CARRIED_COLUMNS}
        except (TypeError, ValueError) as e:  # TypeError: a short line's field is None
            raise _bad_previous(f"line {start + reader.line_num}: {e}")
    return rows


def carried_for(d, carried):
    """d's row carried from the previous CSV, only when build/ has no harden result of d."""
    c = carried.get(d) if d in carried and harden_result(d) is None else None
    # A carried row is a result the report holds: the shrink guard's "no result for" leaves d out.
    return common.looked_up(d, c) if c else None


def carried_row(c, sw):
    """An ASIC row from a carried one: its figures and measurement date as they were, its source."""
    if not c:
        return None
    return with_speedups({**c, "source": f"carried from {PREVIOUS} (measured {c['date']})"}, sw)


def is_carried(r):
    return r["source"] != fresh_source(r["design"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--collect-only", action="store_true", help="never run the flow; report what exists")
    ap.add_argument("--rerun", action="store_true", help="rerun the flow on up-to-date designs")
    a = ap.parse_args()

    sets = mt.paper_table1()
    t2 = {(r.n, r.logq): r for r in mt.paper_table2()}
    t4 = {(r.n, r.logq): r for r in mt.paper_table4()}
    device = mt.paper_device()
    params = {(s.n, s.logq): s for s in mt.paper_sets()}
    sw = sw_results()
    # Read before write() replaces the file: the only copy of results measured elsewhere.
    carried = previous_asic_rows() if a.collect_only else {}

    built = [(s.n, s.logq) for s in sets if s.logq <= 512]
    if not a.collect_only:
        generate([design(n, l) for n, l in built])

    # 1. cycles for every set
    rows = []
    for s in sets:
        key = (s.n, s.logq)
        r = {"n": s.n, "logq": s.logq, "security": s.security, "design": design(*key) if s.logq <= 512 else None,
             "q": str(params[key].q), "built": s.logq <= 512}
        for p in (1, 2):
            prod, streams = formula_cycles(s.n, p)
            r[f"cycles_p{p}"] = prod
            r[f"cycles_streams_p{p}"] = prod + streams
            r[f"ideal_p{p}"] = ideal_cycles(s.n, p)
            r[f"over_ideal_p{p}"] = prod / ideal_cycles(s.n, p)
        mf = manifest(design(*key)) if r["built"] else None
        if mf:
            got = manifest_cycles(mf)[0]
            if got != r["cycles_p2"]:
                raise SystemExit(f"polymul-reports: {design(*key)}: manifest promises {got} cycles per product, "
                                 f"the formula {r['cycles_p2']}: fix the tile or verif/bench/ntt_bench.py")
        if key in t2:
            r.update(paper_hls_latency=t2[key].latency, paper_hls_us=t2[key].fpga_us, paper_ntl_us=t2[key].ntl_us,
                     paper_hls_speedup=t2[key].speedup)
        if key in t4:
            x = t4[key]
            counts = mt.resource_counts(x, device)
            r.update(paper_fmax_mhz=x.fmax_mhz, paper_pr_latency=x.latency, paper_pr_us=x.fpga_us,
                     paper_pr_speedup=x.speedup, **{f"paper_{k}": v[0] for k, v in counts.items()})
        if sw and key in sw["by_set"]:
            e = sw["by_set"][key]
            r.update(ntl_us=e["ntl_median_s"] * 1e6, flint_us=e["flint_median_s"] * 1e6)
        rows.append(r)

    # 2. ASIC: P = 2 and the largest P that fits the budget
    asic, search = [], {}
    for n, logq in ASIC_SETS:
        d2 = design(n, logq)
        if not a.collect_only:
            harden(d2, a.rerun)
        r2 = asic_row(d2, sw, n, logq) or carried_row(carried_for(d2, carried), sw)
        if r2:
            asic.append(r2)
        best, tried, from_csv = largest_p(n, logq, a.collect_only, a.rerun, carried)
        search[(n, logq)] = (best, tried, from_csv)
        if best and best != d2:
            rb = asic_row(best, sw, n, logq) or carried_row(carried_for(best, carried), sw)
            if rb:
                asic.append(rb)

    # 3. FPGA: UltraScale+ counts (the paper's family) and ECP5 place and route, Table IV's sets
    fpga = []
    for n, logq in ASIC_SETS:
        d = design(n, logq)
        if not a.collect_only:
            run_fpga(d)
        x, e = fpga_result(d, "xcup"), fpga_result(d, "ecp5")
        mf = manifest(d)
        if not (x or e) or not mf:
            continue
        r = {"design": d, "n": n, "logq": logq, **({f"xcup_{k.lower().replace('/', '_')}": v for k, v in x["resources"].items()} if x else {})}
        if e:
            r["ecp5_fits"] = e["fits"]
            r["ecp5_overflow"] = e.get("overflow")
            if e["fits"]:
                u = e["utilization"]
                r.update(ecp5_comb=u.get("TRELLIS_COMB", {}).get("used"), ecp5_ff=u.get("TRELLIS_FF", {}).get("used"),
                         ecp5_bram=u.get("DP16KD", {}).get("used"), ecp5_mult=u.get("MULT18X18D", {}).get("used"),
                         ecp5_fmax_mhz=e["fmax_mhz_median"])
                prod, streams = manifest_cycles(mf)
                r["ecp5_us_per_product"] = (prod + streams) / e["fmax_mhz_median"]
                sws = (sw or {}).get("by_set", {}).get((n, logq))
                if sws:
                    r["ecp5_speedup_ntl"] = sws["ntl_median_s"] * 1e6 / r["ecp5_us_per_product"]
                    r["ecp5_speedup_flint"] = sws["flint_median_s"] * 1e6 / r["ecp5_us_per_product"]
        fpga.append(r)

    # the streaming engines' winners at (1024, 19) and (2048, 33) on the same two targets (their
    # section is polymul_best.py's, later in make reports)
    if not a.collect_only:
        from reports import polymul_best, polymul_best_fpga
        polymul_best_fpga.run(polymul_best.collect()["sets"])

    write(rows, asic, search, sw, device, fpga)


def run_fpga(d):
    """fpga.py on the design for xcup and ecp5, unless a result of the current RTL exists."""
    common.run_fpga(d, ("xcup", "ecp5"), "polymul-reports")


def write(rows, asic, search, sw, device, fpga=()):
    keys = list(dict.fromkeys(k for r in rows for k in r))
    write_text(f"{NAME}.csv", csv_text([{**r, "asic": ""} for r in rows], keys + ["asic"])
               + ("\n" + csv_text(asic) if asic else ""), newline="")

    # The report opens with the streaming engine's best design per set (flow/reports/polymul_best.py),
    # which reads the tile's figures from the CSV written just above.
    L = [f"# Polynomial multiplication at FHE sizes: the streaming engine and the SRAM-backed NTT tile against the SSA paper and the libraries", "",
         f"{generated_by(__file__)}; do not edit.", "",
         *best_section(),
         "## The SRAM-backed NTT tile", "",
         "The paper: Millar et al., SSA "
         "polynomial multiplier in HLS (`data/papers/millar.toml`); its Tables I, II, III and IV are "
         "parsed from the text (verif/ntt/millar_tables.py). Our design for a set is `polymul_<n>_<logq>`: the NTT "
         "tile with coefficients and twiddles in OpenRAM SKY130 SRAM macros, RAM twiddles, BarrettOpt units of k = log q "
         "bits, P = 2 butterfly units (`_p<P>` for others); q is the largest prime q = 1 (mod 2n) below 2^logq. A product "
         "is NTT(a), NTT(b), PWMUL, INTT; the streams (LOAD a, LOAD b, UNLOAD c: 3N + 5 cycles) are counted in the times "
         "below, since the software times include reading and writing the coefficients too.", ""]

    L += ["## Cycles per polynomial product, every Table I set", "",
          "Ours from the tile's cycle formula (checked in simulation by `make test`'s SRAM tiles, and against each "
          "generated design's manifest); the ideal is (3 (N/2) log2 N + N) / P. The paper's latency is its HLS "
          "estimate (Table II) and its place-and-route run (Table IV, 256-bit-security sets).", "",
          *md_head("n", "log q", "design", "ours P = 1", "ours P = 2", "P = 2 / ideal", "+ streams (P = 2)",
                   "paper HLS latency (Table II)", "paper P&R latency (Table IV)", "paper fmax (MHz)", "paper P&R (us)")]
    for r in rows:
        name = f"`{r['design']}`" if r["built"] else "not built: log q > 512 (the generators' largest k)"
        L.append(f"| {r['n']} | {r['logq']} | {name} | {r['cycles_p1']:,} | {r['cycles_p2']:,} | {r['over_ideal_p2']:.3f}x | "
                 f"{r['cycles_streams_p2']:,} | {fmt(r.get('paper_hls_latency'), ',')} | {fmt(r.get('paper_pr_latency'), ',')} | "
                 f"{fmt(r.get('paper_fmax_mhz'))} | {fmt(r.get('paper_pr_us'))} |")
    worst = max(r["over_ideal_p2"] for r in rows if r["n"] >= 1024)
    L += ["", f"Largest ratio to the ideal at N >= 1024: {worst:.3f}x at P = 2 "
          f"(target at most 1.1x: {'met' if worst <= 1.1 else 'missed'}).", ""]

    L += ["## ASIC (SKY130, post-synthesis, tt)", "",
          "Standard cells from our synthesis; the macros (OpenRAM, black boxes in synthesis) counted apart, with "
          "their Liberty area. STA times the paths into and out of the macros; the macros have a tt Liberty view only, "
          "so the ss and ff corners time them with it too (the standard cells take their own corner). Time per product "
          "at the STA clock (period = tt critical path), streams included. "
          f"Budget for the largest P: {AREA_BUDGET_UM2 / 1e6:.0f} mm2 of standard cells plus macros.", "",
          *md_head("design", "P", "standard cells (mm2)", "macros", "macro area (mm2)", "total (mm2)", "critical path tt (ns)",
                   "cycles + streams", "us per product", "NTL (us)", "FLINT (us)", "speedup over NTL", "over FLINT")]
    for r in asic:
        stale = (" (a)" if r["stale"] else "") + (" (c)" if is_carried(r) else "")
        L.append(f"| `{r['design']}`{stale} | {r['p']} | {r['stdcell_um2'] / 1e6:.3f} | {fmt(r['macros'])} | "
                 f"{r['macro_um2'] / 1e6:.3f} | {(r['stdcell_um2'] + r['macro_um2']) / 1e6:.3f} | {r['critical_path_ns']:.3f} | "
                 f"{r['cycles_with_streams']:,} | {r['us_per_product']:.1f} | {fmt(r.get('ntl_us'), ',.0f')} | "
                 f"{fmt(r.get('flint_us'), ',.0f')} | {fmt(r.get('speedup_ntl'), '.1f', 'x')} | {fmt(r.get('speedup_flint'), '.1f', 'x')} |")
    measured = {(r["n"], r["logq"]) for r in asic}
    for n, logq in ASIC_SETS:
        if (n, logq) not in measured:
            L.append(f"| `{design(n, logq)}` | 2 | absent: not hardened yet (`make harden DESIGN={design(n, logq)}`) |  |  |  |  |  |  |  |  |  |  |")
    if any(r["stale"] for r in asic):
        L.append("\n(a) result of older RTL or flow code; rerun `make reports`.")
    L += carried_note(asic)
    L += [""]
    for (n, logq), (best, tried, from_csv) in search.items():
        smallest = manifest(design(n, logq, 1))
        why = (f"none: at P = 1 the macros alone take {smallest['sram']['macro_area_um2'] / 1e6:.1f} mm2"
               if smallest and smallest["sram"]["macro_area_um2"] > AREA_BUDGET_UM2
               else "none among the measured and carried results" if from_csv else "none measured")
        L.append(f"- ({n}, {logq}): largest P within {AREA_BUDGET_UM2 / 1e6:.0f} mm2: "
                 + (f"`{best}`" if best else why) + search_trail(tried, from_csv))
    if any(from_csv for _, _, from_csv in search.values()):
        L += ["", f"In the search, (c) marks a carried row, chosen among as a measured result is. {PREVIOUS} keeps "
              "each set's P = 2 row and its chosen one only, so a larger P measured and rejected when those rows "
              "were measured is not listed."]
    L += [""]

    L += ["## Speedups against the paper's", ""]
    if sw:
        e = sw["environment"]
        L.append(f"Software measured on this machine: {e.get('cpu_model')} ({e.get('cpu_count')} cores), NTL "
                 f"{e.get('ntl_version')}, FLINT {e.get('flint_version')}, GMP {e.get('gmp_version')}, {e.get('cxx')}, "
                 f"{e.get('flags')}; medians of up to {sw.get('reps')} timed products after a warm-up; load average "
                 f"{e.get('load_average_start')} at the start, {e.get('load_average_end')} at the end; {e.get('date')} "
                 "(build/sw_baseline/results.json, `make sw-baseline`). The paper's NTL 11.3.2 ran on an AMD A10-7850K "
                 "at 3.7 GHz.")
    else:
        L.append("No software baseline has run on this machine: `make sw-baseline` (results in build/sw_baseline/results.json).")
    L += [""]
    for n, logq in ((1024, 19), (4096, 62)):
        paper = next((r for r in rows if (r["n"], r["logq"]) == (n, logq)), {})
        ours = [r for r in asic if (r["n"], r["logq"]) == (n, logq)]
        for r in ours:
            if "speedup_ntl" in r:
                short = (f" ({paper['paper_pr_speedup'] / r['speedup_ntl']:.0f}x short of it)"
                         if paper.get("paper_pr_speedup") else "")
                mark = " (c)" if is_carried(r) else ""
                L.append(f"- ({n}, {logq}), `{r['design']}`{mark} (P = {r['p']}): {r['speedup_ntl']:.1f}x over NTL and "
                         f"{r['speedup_flint']:.1f}x over FLINT on this machine, against the paper's "
                         f"{fmt(paper.get('paper_pr_speedup'))}x over NTL (Table IV){short}: ours runs at "
                         f"{1000 / r['critical_path_ns']:.0f} MHz (STA, no parasitics) against its "
                         f"{fmt(paper.get('paper_fmax_mhz'))} MHz, takes {r['cycles_with_streams']:,} cycles against its "
                         f"{fmt(paper.get('paper_pr_latency'), ',')}, and this machine's NTL takes {r['ntl_us']:,.0f} us "
                         f"against the paper's {fmt(paper.get('paper_ntl_us'), ',')} us.")
    L += ["", "The three factors multiply: the clock (the paper's place-and-route fmax over our STA clock), the cycles "
          "(ours include the LOAD and UNLOAD streams and the pipeline drains; P = 2 as the paper), and the CPU (the "
          "paper's NTL time over this machine's). Our clock is set by the paper-faithful BarrettOpt units with their "
          "4-stage pipeline and by the SRAM access paths, not by a deeper pipeline (`make dse` finds faster "
          "multipliers; the polymul designs keep the paper's).", ""]

    L += ["## FPGA", "",
          "Ours: the same Verilog, each SRAM macro read from the FPGA flow's synthesizable model of it (flow/fpga.py; "
          "Yosys maps it to block RAM). UltraScale+ counts from `synth_xilinx -family xcup` (no Fmax: no open signoff "
          f"timing for Xilinx parts), beside the paper's Table IV percentages as counts of its part ({device.part}: "
          f"{device.bram18:,} BRAM18, {device.dsp:,} DSP, {device.ff:,} FF, {device.lut:,} LUT; a printed whole percentage "
          "allows about +-0.5% of the total). The paper's design is HLS with two butterflies per cycle; ours is P = 2.", "",
          *md_head("n", "log q", "BRAM18 paper", "ours", "DSP paper", "ours", "FF paper", "ours", "LUT paper", "ours")]
    by_set = {(r["n"], r["logq"]): r for r in fpga}
    for r in rows:
        if "paper_bram18" not in r:
            continue
        o = by_set.get((r["n"], r["logq"]), {})
        L.append(f"| {r['n']} | {r['logq']} | {r['paper_bram18']:,} | {fmt(o.get('xcup_bram18'), ',')} | {r['paper_dsp']:,} | "
                 f"{fmt(o.get('xcup_dsp'), ',')} | {r['paper_ff']:,} | {fmt(o.get('xcup_ff'), ',')} | {r['paper_lut']:,} | "
                 f"{fmt(o.get('xcup_lut'), ',')} |")
    if not any(k.startswith("xcup_") for r in fpga for k in r):
        L += ["", "Ours absent: no build/<d>/fpga/xcup/metrics.json here (`make fpga DESIGN=<d> TARGET=xcup` "
              "measures one; `make reports` all)."]
    L += ["", "ECP5 (LFE5U-85F, CABGA381): nextpnr place and route out of context, median Fmax of 3 seeds; time per "
          "product (streams included) and speedups at that Fmax.", "",
          *md_head("design", "LUT4", "FF", "DP16KD", "MULT18X18D", "Fmax (MHz)", "us per product", "over NTL", "over FLINT")]
    for r in fpga:
        if r.get("ecp5_fits") is False:
            L.append(f"| `{r['design']}` | does not fit: {r['ecp5_overflow']} |  |  |  |  |  |  |  |")
        elif "ecp5_fits" in r:
            L.append(f"| `{r['design']}` | {fmt(r.get('ecp5_comb'), ',')} | {fmt(r.get('ecp5_ff'), ',')} | {fmt(r.get('ecp5_bram'))} | "
                     f"{fmt(r.get('ecp5_mult'))} | {fmt(r.get('ecp5_fmax_mhz'), '.1f')} | {fmt(r.get('ecp5_us_per_product'), ',.1f')} | "
                     f"{fmt(r.get('ecp5_speedup_ntl'), '.1f', 'x')} | {fmt(r.get('ecp5_speedup_flint'), '.1f', 'x')} |")
    if not any("ecp5_fits" in r for r in fpga):
        L.append("| absent: `make reports` runs flow/fpga.py on these designs |  |  |  |  |  |  |  |  |")
    L += [""]

    L += [stamp()]
    write_md(f"{NAME}.md", L)
    plot(rows, asic)
    print(f"polymul-reports: wrote reports/{NAME}.md, .csv, .png")


def carried_note(asic):
    """The footnote of the carried rows (marked (c)), or nothing."""
    dates = sorted({r["date"] for r in asic if is_carried(r)})
    if not dates:
        return []
    when = dates[0] if len(dates) == 1 else date_span(dates)
    return [f"\n(c) measured {when}, carried over from the {PREVIOUS} this report replaced "
            "(build/<d>/harden/metrics.json is absent here; speedups against today's software baseline); "
            "`flow/reports/polymul_table.py --rerun` re-measures."]


def search_trail(tried, from_csv):
    """What the largest-P search went through: synthesized here and carried (c)."""
    if not tried:
        return ""
    names = [f"{d} (c)" if d in from_csv else d for d in tried]
    return f" ({'tried' if from_csv else 'synthesized'} on the way: {', '.join(names)})"


def plot(rows, asic):
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.5))
    lab = [f"{r['n']}/{r['logq']}" for r in rows]
    x = range(len(rows))
    for key, name, mk in (("paper_pr_us", "paper, FPGA P&R (Table IV)", "s"), ("ntl_us", "NTL, this machine", "o"),
                          ("flint_us", "FLINT, this machine", "^")):
        pts = [(i, r[key]) for i, r in enumerate(rows) if r.get(key)]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=mk, linestyle="", label=name)
    idx = {(r["n"], r["logq"]): i for i, r in enumerate(rows)}
    for p, mk in ((2, "D"),):
        pts = [(idx[(r["n"], r["logq"])], r["us_per_product"]) for r in asic if r["p"] == p]
        if pts:
            ax.plot([q[0] for q in pts], [q[1] for q in pts], marker=mk, linestyle="", label=f"ours, SKY130 tt, P = {p}")
    pts = [(idx[(r["n"], r["logq"])], r["us_per_product"]) for r in asic if r["p"] != 2]
    if pts:
        ax.plot([q[0] for q in pts], [q[1] for q in pts], marker="*", linestyle="", label="ours, largest P within 25 mm2")
    ax.set_yscale("log")
    ax.set_xticks(list(x), lab, rotation=60, fontsize=8)
    ax.set_xlabel("Table I set (n / log q)")
    ax.set_ylabel("us per polynomial product")
    ax.grid(alpha=.3)
    ax.legend(fontsize=8)
    save_figure(fig, f"{NAME}.png", 120)


if __name__ == "__main__":
    sys.exit(main())
