#!/usr/bin/env python3
"""The reduction family (Tosun et al.) beside BarrettOpt, Shoup and GShoup in SKY130: area,
critical path and throughput per area, ranked per width.

    flow/reports/reduction_table.py [--collect-only] [--rerun] [--widths 32,64,128,256] [DESIGN...]

Default designs: build/designs.json's "reduction_table" and the "table" designs (barrett, shoup,
gshoup) at the widths given (default 32, 64, 128, 256; a 256-bit design takes 2-15 minutes to harden).
Like flow/reports/asic_table.py it runs flow/harden.py for each design unless a result exists for the current
RTL and flow code (--rerun forces it, --collect-only never runs it); a failing design is reported
and the others go on. Writes:
  reports/reduction_table.{md,csv,json}  one row per design, ranked per width by 1/(P*A), verdict
  reports/reduction_table.png            1/(P*A) per design, one panel per width
Usable-prime counts come from the prime toolkit (verif/primetools/proth.py) where an exact count is
within reach, and otherwise from the prime number theorem, labelled as estimates. They are cached
in build/reduction_reports/prime_counts.json (keyed by the toolkit's source hash).
"""
import hashlib
import json
import math
import sys
import time

from layout import BUILD
from pdk import CORNERS, ROOT
from reports import tosun_tables
from reports.common import (INDEX, arguments, entry, fmt, generated_by, harden_result, index, manifest,
                            manifest_path, md_head, provenance, pyplot, ratio, read_json, run_designs, save_figure,
                            utc_now, write_csv, write_json, write_md)

DEFAULT_WIDTHS = (32, 64, 128, 256)
SECONDS_PER_256 = 15 * 60  # the lead's estimate of one 256-bit design's hardening on our machines
PHI = (1 + 5 ** 0.5) / 2
GLSVLSI = ("barrett", "shoup", "gshoup")          # the GShoup paper's three families
DSP_PROTH = ("wlmm", "k2red")                      # multiplier-based reductions for Proth primes
SHIFT_ADD = ("monts", "k2reds")                    # multiplier-free, Proth-2l/3l primes
SHORT = {"barrett": "BarrettOpt", "shoup": "Shoup", "gshoup": "GShoup", "mont": "Montgomery",
         "cbarrett": "classical Barrett", "plantard": "Plantard", "wlm": "WLM", "wlmm": "WLM-Mixed",
         "k2red": "K2RED", "monts": "Montgomery-Shift", "k2reds": "K2RED-Shift"}
PROTH = ROOT / "verif" / "primetools" / "proth.py"
CACHE = BUILD / "reduction_reports" / "prime_counts.json"
EXACT_CANDIDATES_MAX = 1 << 26  # q_h candidates an exact Proth count may test (64/26: 2^25, the C counter)


def parameters(mf):
    f = mf["family"]
    if f == "wlm":
        return f"w = {mf['w']} (q_h: {mf['k'] - mf['w']} bits)"
    if f == "wlmm":
        return f"log q_h = {mf['h']}, omega = {mf['omega']}, tile {mf['tile'][0]}x{mf['tile'][1]}"
    if f == "k2red":
        return f"log q_h = {mf['h']}, omega = {mf['omega']}" + (", lazy: no final correction" if mf.get("lazy") else "")
    if f in SHIFT_ADD:
        return f"log q_h = {mf['h']}, Proth-{mf['proth']}, pipeline {'rho_A' if mf['preset'] == 'ra' else 'rho_B'}"
    if f in ("shoup", "gshoup"):
        return "b's companion r precomputed" + (" (Shoup mode; also a full multiplier)" if f == "gshoup" else "")
    return "-"


def modulus_class(mf):
    k, f = mf["k"], mf["family"]
    return {
        "mont": f"any odd q < 2^{k}",
        "cbarrett": f"2^{k - 1} < q < 2^{k}",
        "plantard": f"odd q < 2^{k}/phi",
        "wlm": f"q = 1 mod 2^{mf.get('w')}",
        "wlmm": f"Proth: q = q_h 2^{k - (mf.get('h') or 0)} + 1",
        "k2red": f"Proth: q = q_h 2^{k - (mf.get('h') or 0)} + 1",
        "monts": f"Proth-{mf.get('proth')}, log q_h = {mf.get('h')}",
        "k2reds": f"Proth-{mf.get('proth')}, log q_h = {mf.get('h')}",
        "barrett": f"any non-power-of-two m < 2^{k}",
        "shoup": f"m < 2^{k - 1}",
        "gshoup": f"non-power-of-two m < 2^{k - 1}",
    }[f]


def pi_estimate(x):
    """Prime number theorem: about x / ln x primes below x."""
    return x / math.log(x)


def _proth_hash():
    return hashlib.sha256(PROTH.read_bytes()).hexdigest()[:16] if PROTH.exists() else None


def _load_cache():
    try:
        c = json.loads(CACHE.read_text())
        return c if c.get("proth_sha") == _proth_hash() else {"proth_sha": _proth_hash()}
    except (OSError, ValueError):
        return {"proth_sha": _proth_hash()}


def _toolkit():
    from primetools import proth  # the prime toolkit
    return proth


def usable_primes(mf, cache):
    """(number, how) of the primes a design accepts at its k. `how` is 'exact (...)' for a count
    by the prime toolkit and 'estimate (...)' for the prime number theorem."""
    k, f, h = mf["k"], mf["family"], mf.get("h")
    if f in ("mont", "barrett"):
        return pi_estimate(2.0 ** k), "estimate: 2^k/(k ln 2) primes below 2^k"
    if f == "cbarrett":
        return pi_estimate(2.0 ** k) - pi_estimate(2.0 ** (k - 1)), "estimate: x/ln x over (2^(k-1), 2^k)"
    if f == "plantard":
        return pi_estimate(2.0 ** k / PHI), "estimate: x/ln x below 2^k/phi"
    if f in ("shoup", "gshoup"):
        return pi_estimate(2.0 ** (k - 1)), "estimate: x/ln x below 2^(k-1)"
    if f == "wlm":
        w = mf["w"]
        return 2.0 ** k / (2.0 ** (w - 1) * k * math.log(2)), \
            f"estimate: x/(phi(2^w) ln x) primes q = 1 mod 2^{w} below 2^k"
    key = f"{f}:{k}:{h}:{mf.get('proth', '')}"
    if key in cache:
        return cache[key]["n"], cache[key]["how"]
    t0 = time.monotonic()
    try:
        proth = _toolkit()
        if f in SHIFT_ADD:
            n = len(proth.proth_l_primes(k, h, mf["proth"]))
            how = f"exact: proth_l_primes({k}, {h}, '{mf['proth']}')"
        else:
            if 1 << (h - 1) > EXACT_CANDIDATES_MAX or (k > 64 and 1 << (h - 1) > proth.PYTHON_COUNT_LIMIT):
                return 2.0 ** h / (k * math.log(2)), (f"estimate: 2^h/(k ln 2) Proth primes with q_h of exactly h bits "
                                                      f"(an exact count would test 2^{h - 1} q_h)")
            n = proth.count_proth_primes(k, h)
            how = f"exact: count_proth_primes({k}, {h}), q_h of exactly {h} bits"
    except Exception as e:  # toolkit missing or failing: say so, never invent a number
        return None, f"n/a: prime toolkit (verif/primetools/proth.py) unavailable or failed: {type(e).__name__}: {e}"
    cache[key] = {"n": n, "how": how, "seconds": round(time.monotonic() - t0, 1)}
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    CACHE.write_text(json.dumps(cache, indent=1) + "\n")
    return n, how


def modulus_of(design):
    """(modulus class, usable primes as the table writes them, how they were counted) of a design
    with RTL, from the same prime-count cache as the table (flow/dse.py's reduction sweep uses it)."""
    mf = manifest(design, required=True)
    n, how = shown_primes(mf, _load_cache())
    return modulus_class(mf), count_text(n, how), how


def shown_primes(mf, cache):
    """usable_primes as the table shows it: an estimate to three significant digits."""
    n, how = usable_primes(mf, cache)
    if n is not None and how.startswith("estimate"):
        n = float(f"{n:.3g}")
    return n, how


def count_text(n, how):
    if n is None:
        return "n/a"
    if how.startswith("exact"):
        return f"{n:,}"
    mant, exp = f"{n:.1e}".split("e")
    return f"~{mant}e{int(exp)}"


def row(d, cache, failures):
    mf, m = manifest(d, required=True), harden_result(d)
    n, how = shown_primes(mf, cache)  # an estimate: three significant digits
    r = {"design": d, "family": mf["family"], "method": mf.get("title", SHORT[mf["family"]]), "k": mf["k"],
         "parameters": parameters(mf), "modulus_class": modulus_class(mf), "usable_primes": n,
         "usable_primes_text": count_text(n, how), "usable_primes_how": how, "latency": mf["latency"],
         "lazy": bool(mf.get("lazy")), "area_um2": None, "critical_path_ns": None, "cells": None,
         "throughput_per_area": None, "atp_mm2_ns": None, "rank": None,
         "status": failures.get(d, "ok" if m else "not run")}
    if m:
        a, p = m["design__instance__area"], m["critical_path_ns"]
        r.update(area_um2=a, critical_path_ns=p, cells=m["design__instance__count"],
                 critical_path_ss_ns=m.get("critical_path_ns__corner", {}).get(CORNERS[1]),
                 # 1/(P A) in ops/(ns um2) is about 1e-6; x 1e6 gives Gops/(s mm2): one result per cycle.
                 throughput_per_area=1e6 / (p * a), atp_mm2_ns=a * p / 1e6,
                 worst_path=f"{m['critical_path_endpoints']['start']} -> {m['critical_path_endpoints']['end']}",
                 date=m["date"], wall_s=m.get("wall_s"), tools=m["tools"], flow=m["flow"])
        if d in failures:
            r["status"] = f"{failures[d]} (last good result shown)"
    return r


def rank(rows):
    for k in sorted({r["k"] for r in rows}):
        done = sorted((r for r in rows if r["k"] == k and r["throughput_per_area"]), key=lambda r: -r["throughput_per_area"])
        for i, r in enumerate(done, 1):
            r["rank"] = i


def times(v):
    if v is None:
        return "n/a"
    return f"{v:.2f}x" if v >= 1 else f"{v:.2f}x (that is, {1 / v:.2f}x lower)"


def verdict(rows):
    out = []
    for k in sorted({r["k"] for r in rows}):
        g = {r["design"]: r for r in rows if r["k"] == k and r["throughput_per_area"]}
        if not g:
            out.append(f"- **{k} bits**: no results yet.")
            continue
        by = sorted(g.values(), key=lambda r: -r["throughput_per_area"])
        fam = {}
        for r in by:  # best design of each family (lazy variants aside)
            if not r["lazy"]:
                fam.setdefault(r["family"], r)
        top = next(r for r in by if not r["lazy"])
        base = [f"{times(ratio(top['throughput_per_area'], fam[f]['throughput_per_area']))} {SHORT[f]}'s"
                for f in GLSVLSI if f in fam and fam[f] is not top]
        s = (f"- **{k} bits**: {SHORT[top['family']]} (`{top['design']}`, {top['modulus_class']}) has the highest "
             f"throughput per area, {top['throughput_per_area']:.3g} Gops/(s mm2)"
             + (f": {', '.join(base)}" if base else "") + ".")
        general = [r for r in by if r["family"] in ("mont", "cbarrett", "plantard", "barrett") and not r["lazy"]]
        if general and general[0] is not top:
            gb = general[0]
            s += (f" Among the methods for moduli of no special form and without a precomputed operand (Montgomery, "
                  f"classical Barrett, Plantard, BarrettOpt), the best is {SHORT[gb['family']]} "
                  f"(`{gb['design']}`), {times(ratio(gb['throughput_per_area'], fam.get('barrett', {}).get('throughput_per_area')))} "
                  f"BarrettOpt's.")
        sa = [fam[f] for f in SHIFT_ADD if f in fam]
        dp = [fam[f] for f in DSP_PROTH if f in fam]
        if sa and dp:
            bs = max(sa, key=lambda r: r["throughput_per_area"])
            bd = max(dp, key=lambda r: r["throughput_per_area"])
            s += (f" Shift-add: the best, `{bs['design']}` ({bs['usable_primes_text']} usable "
                  f"prime{'' if bs['usable_primes'] == 1 else 's'}), reaches "
                  f"{times(ratio(bs['throughput_per_area'], bd['throughput_per_area']))} the throughput per area of the best "
                  f"multiplier-based Proth reduction, `{bd['design']}` ({bd['usable_primes_text']} primes)")
            if "mont" in fam:
                s += f", and {times(ratio(bs['throughput_per_area'], fam['mont']['throughput_per_area']))} Montgomery's"
            s += "."
        lz = [r for r in by if r["lazy"]]
        for r in lz:
            full = g.get(r["design"].replace("_lazy", ""))
            if full:
                s += (f" Dropping K2RED's final correction (`{r['design']}`, output unreduced) changes its throughput per "
                      f"area by {times(ratio(r['throughput_per_area'], full['throughput_per_area']))}.")
        s += " Ranking: " + ", ".join(f"{i}. `{r['design']}`" for i, r in enumerate(by, 1)) + "."
        out.append(s)
    return out


def product_share(rows):
    """The smallest design per width (little more than the product) against BarrettOpt's area."""
    out = []
    for k in sorted({r["k"] for r in rows}):
        rs = [r for r in rows if r["k"] == k and r["area_um2"]]
        b = next((r for r in rs if r["family"] == "barrett"), None)
        if rs and b:
            s = min(rs, key=lambda r: r["area_um2"])
            out.append(f"`{s['design']}` {s['area_um2'] / b['area_um2']:.0%} at {k} bits")
    return ("; the smallest design at each width, the product plus the cheapest reduction, has this share of "
            "BarrettOpt's area: " + ", ".join(out)) if out else ""


def paper_comparison(rows):
    """Our ASIC area-time ratios beside the paper's FPGA ATP ratios (its Table 3 and its text's claim)."""
    paper = tosun_tables.parse()
    c = tosun_tables.claim()
    g = {r["design"]: r for r in rows if r["atp_mm2_ns"]}
    lines = md_head("k", "ratio", "ours: SKY130 A x P", "paper: U280 ATP (Table 3, computed)", "paper's text")
    found, said = False, []
    for k in (64, 32):
        mf = {r["family"]: r for r in rows if r["k"] == k and not r["lazy"]}
        wlmm, wlm, k2 = mf.get("wlmm"), mf.get("wlm"), mf.get("k2red")
        if not wlmm:
            continue
        for other, label in ((wlm, "WLM / WLM-Mixed"), (k2, "K2RED / WLM-Mixed")):
            if not other:
                continue
            ours = ratio(g.get(other["design"], {}).get("atp_mm2_ns"), g.get(wlmm["design"], {}).get("atp_mm2_ns"))
            po = tosun_tables.match(paper, manifest(other["design"], required=True))
            pw = tosun_tables.match(paper, manifest(wlmm["design"], required=True))
            pr = ratio(po["atp"], pw["atp"]) if po and pw else None
            text = ""
            if c and k == 64:
                text = f"{c[0] if other['family'] == 'wlm' else c[1]:.2f}x lower for WLM-Mixed"
            lines.append(f"| {k} | {label} (`{other['design']}` / `{wlmm['design']}`) | {fmt(ours, '.2f')} | "
                         f"{fmt(pr, '.2f')} | {text} |")
            found = True
            if ours and pr:
                def word(v):
                    return (f"WLM-Mixed {v:.2f}x lower" if v > 1.05 else f"WLM-Mixed {1 / v:.2f}x higher" if v < 0.95
                            else "equal within 5%")
                said.append(f"{k} bits, against {label.split(' /')[0]}: SKY130 {word(ours)}, U280 {word(pr)}")
    if said:
        lines += ["", "Area-time product of WLM-Mixed: " + "; ".join(said) + "."]
    return lines if found else []


def write(rows, widths, failures, asked_widths):
    keys = ["design", "family", "method", "k", "parameters", "modulus_class", "usable_primes", "usable_primes_how",
            "area_um2", "critical_path_ns", "critical_path_ss_ns", "latency", "cells", "throughput_per_area",
            "atp_mm2_ns", "rank", "lazy", "worst_path", "status", "date", "wall_s"]
    clean = [{k: r.get(k) for k in keys} for r in rows]
    write_json("reduction_table.json", clean)
    write_csv("reduction_table.csv", clean, keys)

    dated = [r for r in rows if r.get("date")]
    L = ["# The reduction family in SKY130: area, critical path and throughput per area", "",
         f"{generated_by(__file__)} from `build/<design>/harden/metrics.json` and the "
         "designs' manifests; do not edit. The reduction methods of Tosun et al. (*Optimized FPGA Architecture for "
         "Modular Reduction in NTT*, `data/papers/tosun.toml`, with the fixes of "
         "`docs/errata.md` (Tosun et al.)) beside the GShoup paper's BarrettOpt, Shoup and GShoup "
         "(`asic_table.md`). Every design is a complete, fully pipelined k-bit modular multiplier: the k x k product "
         "A*B, then the reduction; out_t = a*b mod q. Where a method leaves a factor (2^-x for the Montgomery-type "
         "ones, -2^-2k for Plantard) the host passes a pre-scaled B, as an NTT stores pre-scaled twiddles; Shoup "
         "and GShoup's Shoup mode take b's precomputed companion.", "",
         "Same flow and conditions as `asic_table.md`: post-synthesis (Yosys/ABC, Booth multipliers, delay-driven "
         "mapping), no wire parasitics, ideal clock, inputs driven by a sky130_fd_sc_hd__buf_2; P is the critical "
         "path at tt_025C_1v80 (the smallest clock period that meets setup), A the standard-cell area. Every design "
         "delivers one result per clock, so throughput per area is 1/(P*A): shown in Gops/(s mm2) "
         "(= 10^6 / (P[ns] A[um2])). Area-time product A*P in mm2 ns (lower is better).", "",
         "Usable primes: the primes each design accepts at its k. Exact counts come from the prime toolkit "
         "(verif/primetools/proth.py; for K2RED and WLM-Mixed, Proth primes with q_h of exactly log q_h bits, the "
         "paper's Table 3 count: the designs also accept shorter q_h, roughly as many again). `~` marks an estimate "
         "from the prime number theorem (column `usable_primes_how` of the CSV says which formula).", ""]
    for k in widths:
        rs = sorted((r for r in rows if r["k"] == k), key=lambda r: (r["rank"] is None, r["rank"] or 0, r["design"]))
        if not rs:
            continue
        L += [f"## {k} bits", "",
              *md_head("rank", "design", "method", "parameters", "modulus class", "usable primes", "area (um2)",
                       "critical path (ns, tt)", "latency", "cells", "1/(P*A), Gops/(s mm2)", "A*P (mm2 ns)", "status")]
        for r in rs:
            L.append(f"| {fmt(r['rank'])} | `{r['design']}` | {r['method']} | {r['parameters']} | {r['modulus_class']} | "
                     f"{r['usable_primes_text']} | {fmt(r['area_um2'], ',.0f')} | {fmt(r['critical_path_ns'], '.3f')} | "
                     f"{r['latency']} | {fmt(r['cells'], ',')} | {fmt(r['throughput_per_area'], '.3g')} | "
                     f"{fmt(r['atp_mm2_ns'], '.3f')} | {r['status']} |")
        L.append("")
    L += ["## Verdict (computed from the figures above)", ""] + verdict(rows) + [""]
    L += ["What the ranking leaves out: the Proth and Proth-l designs accept far fewer moduli than Montgomery, "
          "Barrett or Plantard (column \"usable primes\"); Shoup and GShoup's Shoup mode need a precomputed "
          "companion of the fixed operand; the lazy K2RED returns an unreduced, signed k+2-bit value. Every design "
          "includes the k x k product, which dilutes the differences between reductions" + product_share(rows) + ".", ""]
    comp = paper_comparison(rows)
    if comp:
        L += ["## Against the paper's FPGA claim", "",
              "The paper (Section 5.3) finds WLM-Mixed's standalone ATP lower than WLM's and K2RED's at 64 bits on an "
              "AMD Alveo U280. Its ATP is (LUT + FF/2 + 100 DSP) / f and weighs a DSP48E2 as 100 LUTs; on an ASIC "
              "every multiplier is logic, so the multiplier-count argument behind WLM-Mixed changes weight. Ratios "
              "above 1 favour WLM-Mixed. Our designs include the k x k product, the paper's are reductions alone.", ""]
        L += comp + ["", "The FPGA comparison of the same designs (ECP5, xc7) is in `fpga_table.md`.", ""]
    missing = [w for w in asked_widths if not any(r["k"] == w and r["area_um2"] for r in rows)]
    if 256 not in widths:
        d256 = []
        j = read_json(INDEX)
        if j is not None:
            d256 = [d for d in j.get("reduction_table", []) + j.get("table", []) if manifest_k(d) == 256]
        have = [d for d in d256 if harden_result(d)]
        slow = max((r["k"] for r in rows if r.get("wall_s")), default=None)
        took = (f"; here the {slow}-bit designs took up to "
                f"{max(r['wall_s'] for r in rows if r['k'] == slow and r.get('wall_s')) / 60:.1f} min") if slow else ""
        L += ["## 256 bits", "",
              f"Not in this table: its default widths leave out the {len(d256)} designs at k = 256, about "
              f"{SECONDS_PER_256 // 60} minutes each on our 2-core machines (estimate{took}), about "
              f"{len(d256) * SECONDS_PER_256 / 3600:.1f} hours in all. "
              + (f"{len(have)} of them have a result in build/ from a separate run ({', '.join(f'`{d}`' for d in have)}); "
                 if have else "None of them has a result in build/. ")
              + "`flow/reports/reduction_table.py --widths 32,64,128,256` adds the width (hardening what is missing).", ""]
    elif missing:
        L += [f"Widths asked for but without results: {', '.join(map(str, missing))}.", ""]
    if failures:
        L += ["## Failed runs", ""] + [f"- {d}: {why}" for d, why in failures.items()] + [""]
    if dated:
        L += [f"{provenance(dated, 'Runs')}, {sum(r['wall_s'] or 0 for r in dated) / 60:.1f} "
              f"min of flow in all; table written {utc_now()}. "
              "Each design's run time is in `wall_s` of reduction_table.json."]
    write_md("reduction_table.md", L)


def manifest_k(d):
    try:
        return manifest(d, required=True)["k"]
    except OSError:
        return entry(d)["params"]["k"]


def plot(rows, widths):
    plt = pyplot()
    ws = [k for k in widths if any(r["k"] == k and r["throughput_per_area"] for r in rows)]
    if not ws:
        return False
    colour = {**{f: "tab:gray" for f in GLSVLSI}, **{f: "tab:blue" for f in ("mont", "cbarrett", "plantard")},
              **{f: "tab:orange" for f in ("wlm",) + DSP_PROTH}, **{f: "tab:green" for f in SHIFT_ADD}}
    fig, axes = plt.subplots(1, len(ws), figsize=(5.2 * len(ws), 5.5), squeeze=False)
    for ax, k in zip(axes[0], ws):
        rs = sorted((r for r in rows if r["k"] == k and r["throughput_per_area"]), key=lambda r: r["throughput_per_area"])
        ax.barh([r["design"] for r in rs], [r["throughput_per_area"] for r in rs],
                color=[colour[r["family"]] for r in rs], hatch=["//" if r["lazy"] else None for r in rs])
        ax.set_title(f"k = {k}")
        ax.set_xlabel("1/(P A)  [Gops/(s mm2)]")
        ax.tick_params(axis="y", labelsize=8)
        ax.grid(axis="x", alpha=.3)
    from matplotlib.patches import Patch
    fig.legend(handles=[Patch(color="tab:gray", label="BarrettOpt / Shoup / GShoup"),
                        Patch(color="tab:blue", label="Montgomery / classical Barrett / Plantard"),
                        Patch(color="tab:orange", label="WLM / WLM-Mixed / K2RED (NTT-friendly, Proth)"),
                        Patch(color="tab:green", label="shift-add (Proth-l)"),
                        Patch(facecolor="white", edgecolor="black", hatch="//", label="lazy (unreduced output)")],
               loc="lower center", ncol=5, fontsize=8)
    fig.suptitle("Throughput per area in SKY130 (tt, post-synthesis), one result per clock")
    save_figure(fig, "reduction_table.png", 110, rect=(0, 0.05, 1, 1))
    return True


def main():
    ap = arguments(__doc__, "reduction-reports", "rerun every design")
    ap.add_argument("--widths", default=",".join(map(str, DEFAULT_WIDTHS)),
                    help="widths of the default designs (default 32,64,128,256)")
    a = ap.parse_args()
    widths = sorted({int(w) for w in a.widths.split(",")})
    idx = index("reduction-reports")
    if "reduction_table" not in idx:
        sys.exit("reduction-reports: error: build/designs.json has no reduction_table. Fix: make rtl-all")
    designs = a.designs or [d for d in idx["reduction_table"] + idx["table"] if manifest_k(d) in widths]
    missing = [d for d in designs if not manifest_path(d).exists()]
    if missing:
        sys.exit(f"reduction-reports: error: no RTL for {' '.join(missing)}. Fix: make rtl-all")
    if a.designs:
        widths = sorted({manifest_k(d) for d in designs})
    failures = {} if a.collect_only else run_designs(designs, a.rerun)
    cache = _load_cache()
    t0 = time.monotonic()
    rows = [row(d, cache, failures) for d in designs]
    rank(rows)
    write(rows, widths, failures, widths)
    png = plot(rows, widths)
    done = sum(1 for r in rows if r["area_um2"])
    print(f"reduction-reports: wrote reports/reduction_table.md (.csv, .json){', reduction_table.png' if png else ''}; "
          f"{done}/{len(rows)} designs with results, {len(failures)} failed (prime counts {time.monotonic() - t0:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
