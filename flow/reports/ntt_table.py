#!/usr/bin/env python3
"""The NTT tiles in SKY130: reports/ntt_table.md (and .csv), the hardware version of the paper's Figure 3,
with the reduction arrangements (Montgomery, WLM-Mixed, K2RED of the NTT-reduction paper) beside them.

    flow/reports/ntt_table.py [--collect-only] [--rerun] [--best-only] [DESIGN...]

For each tile of build/designs.json's "ntt_table" (`make rtl-all`), runs flow/harden.py unless a
result exists for the current RTL and flow code, then tabulates area, critical path (tt), the
tile's cycle counts (from its manifest, which the cocotb and SpinalSim tests check against the
simulation) and the time and area-time product per NTT and per polynomial product at the STA
clock (clock period = critical path). A polynomial product is NTT(a), NTT(b), PWMUL, INTT on
the tile; loading a and b and unloading the result add 3(N + 1) cycles, shown separately.
"""
import json
import sys

from pdk import ROOT
from reports.common import (entries, entry, INDEX, cli, fmt, generated_by, harden_result, manifest, manifest_path, md_head,
                            provenance, read_json, run_designs, script, up_to_date, utc_now, write_csv, write_md)

TITLES = {"barrett": "BarrettOpt only", "shoupbarrett": "Shoup + BarrettOpt", "gshoup": "GShoup only",
          "mont": "Montgomery", "wlmm": "WLM-Mixed (Proth q)", "k2red": "K2RED (Proth q)"}
SEED = ("barrett", "shoupbarrett", "gshoup")
# The reduction family (Tosun et al.): pre-scaled twiddles, no companion, two-pass PWMUL.
REDUCTIONS = ("mont", "wlmm", "k2red")


def flop_area(m):
    """Area of the flip-flops, from the synthesis step's cell statistics (storage dominates it)."""
    stat = next((ROOT / m["run_folder"]).glob("*-modforge-synthesis/stat.json"), None)
    if not stat:
        return None
    return json.loads(stat.read_text())["design"].get("sequential_area")


def row(d):
    mf, m = manifest(d, required=True), harden_result(d)
    c = mf["cycles"]
    polymul = 2 * c["NTT"] + c["PWMUL"] + c["INTT"]
    streams = 2 * c["LOAD"] + c["UNLOAD"]
    r = {"design": d, "arrangement": mf["arrangement"], "twiddles": mf["twiddles"], "n": mf["n"], "k": mf["k"],
         "p": mf["p"], "q_bits": int(mf["q"]).bit_length(), "latency": mf["latency"],
         "cycles_ntt": c["NTT"], "cycles_pwmul": c["PWMUL"], "cycles_polymul": polymul, "cycles_streams": streams,
         "ideal_ntt": mf["n"] // 2 * (mf["n"].bit_length() - 1) // mf["p"],
         # Bits held: two coefficient slots; twiddles: forward and inverse tables, W and (Shoup paths) W'.
         "coeff_bits": 2 * mf["n"] * mf["k"],
         "twiddle_bits": 2 * mf["n"] * mf["k"] * (1 if mf["arrangement"] in ("barrett",) + REDUCTIONS else 2)}
    if m:
        cp = m["critical_path_ns"]
        r.update(area_um2=m["design__instance__area"], cells=m["design__instance__count"], critical_path_ns=cp,
                 critical_path_ss_ns=m["critical_path_ns__corner"].get("ss_100C_1v60"),
                 worst_path=f"{m['critical_path_endpoints']['start']} -> {m['critical_path_endpoints']['end']}",
                 us_ntt=c["NTT"] * cp / 1000, us_polymul=polymul * cp / 1000,
                 us_polymul_streams=(polymul + streams) * cp / 1000, date=m["date"], tools=m["tools"], flow=m["flow"])
        r["at_mm2_us"] = r["area_um2"] / 1e6 * r["us_polymul"]
        # A result of older RTL or flow (--collect-only keeps it): marked, not mixed in silently.
        r["stale"] = not up_to_date(m, d)
        seq = flop_area(m)
        r["flop_share"] = seq / r["area_um2"] if seq else None
    return r


def best_section(rows):
    """The tiles on the `_fast` configurations' products (`<tile>__<tokens>`) against their base tiles."""
    by = {r["design"]: r for r in rows}
    out = []
    for r in rows:
        e = entry(r["design"])
        if "variant" not in e["params"]:
            continue
        b = by.get(e["base"])
        if not out:
            out = ["## Tiles on the best products", "",
                   "The paper's arrangements with the product architecture and synthesis recipe of their family's `_fast`",
                   "configuration at k = 64 (reports/dse.md); the tile's own registers are unchanged. Area-time product per",
                   "polynomial product (mm2 us), against the same tile on Verilog `*` and the paper's recipe:", "",
                   *md_head("tile", "area (um2)", "critical path (ns)", "mm2 us per product", "base tile", "ratio (base / best)")]
        ok = b and r.get("at_mm2_us") and b.get("at_mm2_us")
        rat = f"{b['at_mm2_us'] / r['at_mm2_us']:.2f}x" if ok else "n/a"
        out.append(f"| {r['design']} | {fmt(r.get('area_um2'), ',.0f')} | {fmt(r.get('critical_path_ns'), '.3f')} | "
                   f"{fmt(r.get('at_mm2_us'), '.2f')} | {fmt(b.get('at_mm2_us') if b else None, '.2f')} | "
                   f"{rat} |")
    return out + [""] if out else []


def pct(a, b):
    return f"{100 * (a / b - 1):+.0f}%"


def paragraph(rows, mults):
    """What the three arrangements at the same (N, k, P) say about the paper's claim, from the figures."""
    out = []
    for tw in ("rom", "ram"):
        g = {r["arrangement"]: r for r in rows if r["twiddles"] == tw and r["n"] == 256 and "area_um2" in r
             and r["arrangement"] in SEED and "__" not in r["design"]}
        if len(g) < 3:
            continue
        b, s, gs = g["barrett"], g["shoupbarrett"], g["gshoup"]
        kind = ("ROM twiddles: q is fixed, so the synthesis folds the modulus into the multipliers" if tw == "rom"
                else "RAM twiddles and q on input ports: general multipliers, the paper's setting")
        out.append(
            f"- {kind}. GShoup's tile is {pct(gs['area_um2'], b['area_um2'])} in area against Barrett only and "
            f"{pct(gs['area_um2'], s['area_um2'])} against Shoup + Barrett; its critical path is "
            f"{pct(gs['critical_path_ns'], b['critical_path_ns'])} and {pct(gs['critical_path_ns'], s['critical_path_ns'])}, "
            f"and it needs {pct(gs['cycles_polymul'], b['cycles_polymul'])} cycles per product (a deeper pipeline drains "
            f"{gs['latency'] + 1} instead of {b['latency'] + 1} cycles per stage). Time per polynomial product: "
            f"{pct(gs['us_polymul'], b['us_polymul'])} and {pct(gs['us_polymul'], s['us_polymul'])}; area-time "
            f"product: {pct(gs['at_mm2_us'], b['at_mm2_us'])} and {pct(gs['at_mm2_us'], s['at_mm2_us'])}. "
            f"Best area-time product: {TITLES[min(g.values(), key=lambda r: r['at_mm2_us'])['arrangement']]}."
            + (f" The twiddle RAM is part of it: Barrett stores W only ({b['twiddle_bits']:,} bits of flip-flops), the "
               f"Shoup paths W and W' ({gs['twiddle_bits']:,} bits), a cost the paper's multiplier-only model does not count."
               if tw == "ram" else ""))
    verdicts, support, against = [], set(), set()
    for tw in ("rom", "ram"):
        g = {r["arrangement"]: r for r in rows if r["twiddles"] == tw and r["n"] == 256 and "area_um2" in r
             and r["arrangement"] in SEED and "__" not in r["design"]}
        if len(g) == 3:
            for a in ("barrett", "shoupbarrett"):
                (support if g["gshoup"]["at_mm2_us"] < g[a]["at_mm2_us"] else against).add(TITLES[a])
            verdicts.append(f"{tw.upper()} twiddles: " + ", ".join(
                f"{'better' if g['gshoup']['at_mm2_us'] < g[a]['at_mm2_us'] else 'worse'} than {TITLES[a]}"
                for a in ("barrett", "shoupbarrett")))
    if verdicts:
        mixed = support & against
        out.append("- GShoup's area-time product per polynomial product, " + "; ".join(verdicts) + ". "
                   + (f"The measurements support the paper's claim against {', '.join(sorted(support - mixed))}"
                      if support - mixed else "The measurements do not support the paper's claim")
                   + (f" and not against {', '.join(sorted(against - mixed))}" if against - mixed else "")
                   + (f" (mixed: {', '.join(sorted(mixed))})" if mixed else "")
                   + ". Besides its multipliers a tile pays for the coefficient storage, and the Shoup paths for a "
                   "companion W' with every twiddle, which a count of multipliers leaves out.")
    if mults:
        k = 64
        a = {f: mults.get(f"{f}_{k}") for f in ("barrett", "shoup", "gshoup")}
        if all(a.values()):
            out.append(
                f"- The multipliers alone (reports/asic_table.md, k = {k}): GShoup {a['gshoup']:,.0f} um2 against "
                f"BarrettOpt {a['barrett']:,.0f} and Shoup + BarrettOpt {a['shoup'] + a['barrett']:,.0f}. In the tiles these "
                f"differences are diluted by what all arrangements share: the 2 x N x k bits of coefficient storage "
                f"(flip-flops here, no SRAM compiler), the twiddle tables, the banks' multiplexers and the adders.")
    return out


def reduction_paragraph(rows):
    """The reduction arrangements against the paper's three at the same (N, k, P), from the figures."""
    out, verdicts = [], []
    for tw in ("rom", "ram"):
        g = {r["arrangement"]: r for r in rows if r["twiddles"] == tw and r["n"] == 256 and "area_um2" in r}
        reds = [a for a in REDUCTIONS if a in g]
        seeds = [a for a in SEED if a in g]
        if not reds or not seeds:
            continue
        best_seed = min((g[a] for a in seeds), key=lambda r: r["at_mm2_us"])
        base = g.get("barrett", best_seed)
        parts = []
        for a in reds:
            r = g[a]
            parts.append(
                f"{TITLES[a]} (q of {r['q_bits']} bits) {r['area_um2'] / 1e6:.2f} mm2 ({pct(r['area_um2'], base['area_um2'])} against "
                f"{TITLES[base['arrangement']]}), critical path {r['critical_path_ns']:.2f} ns "
                f"({pct(r['critical_path_ns'], base['critical_path_ns'])}), {r['cycles_polymul']} cycles per product "
                f"({pct(r['cycles_polymul'], base['cycles_polymul'])}, of which PWMUL {r['cycles_pwmul']} against "
                f"{base['cycles_pwmul']}), area-time {r['at_mm2_us']:.2f} mm2 us "
                f"({pct(r['at_mm2_us'], best_seed['at_mm2_us'])} against the best of the paper's three, "
                f"{TITLES[best_seed['arrangement']]})")
        best = min(g.values(), key=lambda r: r["at_mm2_us"])
        kind = "ROM twiddles (q fixed)" if tw == "rom" else "RAM twiddles (q, q' and C on input ports)"
        out.append(f"- Reduction arrangements, {kind}: " + "; ".join(parts) + ". Best area-time product of all "
                   f"{len(g)} tiles: {TITLES[best['arrangement']]}.")
        better = [TITLES[a] for a in reds if g[a]["at_mm2_us"] < best_seed["at_mm2_us"]]
        verdicts.append(f"{tw.upper()}: " + (", ".join(better) + " better than the paper's best"
                                              if better else "none better than the paper's best"))
    if verdicts:
        out.append("- Area-time per polynomial product of the reduction arrangements against the best of "
                   "BarrettOpt, Shoup + BarrettOpt and GShoup: " + "; ".join(verdicts) + ". Their twiddles are stored "
                   "pre-scaled (W 2^x mod q, no Shoup companion, so half the twiddle bits of the Shoup paths), and "
                   "their PWMUL takes a second pass by C = F^-2 (N/P + L + 1 more cycles); WLM-Mixed and K2RED "
                   "also restrict q to Proth primes q_h 2^(k-h) + 1.")
    return out


def write(rows, failures, mults):
    keys = ["design", "arrangement", "twiddles", "n", "k", "p", "q_bits", "area_um2", "cells", "critical_path_ns",
            "critical_path_ss_ns", "latency", "cycles_ntt", "cycles_pwmul", "cycles_polymul", "cycles_streams", "coeff_bits", "twiddle_bits",
            "us_ntt", "us_polymul", "us_polymul_streams", "at_mm2_us", "flop_share", "worst_path", "date"]
    write_csv("ntt_table.csv", rows, keys, extrasaction="ignore")
    lines = ["# NTT tiles in SKY130: the paper's Figure 3 in hardware", "",
             f"{generated_by(__file__)} from `build/<d>/harden/metrics.json` and the tiles' "
             "manifests; do not edit. Area and critical path: post-synthesis, no wire parasitics, typical corner "
             "(tt_025C_1v80), inputs driven by buf_2 (docs/flow.md, \"Hardening (SKY130 with LibreLane)\"). "
             "Cycles: the tile's promised counts, "
             "checked in simulation by `make test`. Twiddle bits: forward and inverse tables of N entries, W and, for "
             "the Shoup paths, W' (ROM: constant logic; RAM: flip-flops); the coefficients take 2 x N x k bits of "
             "flip-flops in every tile. Times are at the STA clock (period = critical path). A polynomial "
             "product is NTT(a), NTT(b), PWMUL, INTT; the load and unload streams (3(N+1) cycles) are in the "
             "last time column only. Area-time product: area x time per polynomial product.", "",
             *md_head("tile", "multipliers", "twiddles (bits)", "N", "k", "P", "area (um2)", "critical path (ns)",
                      "NTT cycles (ideal)", "PWMUL cycles", "product cycles", "us per NTT", "us per product", "with streams",
                      "AT (mm2 us)", "flip-flop area")]
    for r in rows:
        lines.append(
            f"| {r['design']} | {TITLES[r['arrangement']]} | {r['twiddles']} ({r['twiddle_bits']:,}) | {r['n']} | {r['k']} | {r['p']} | "
            f"{fmt(r.get('area_um2'), ',.0f')}{' (a)' if r.get('stale') else ''} | {fmt(r.get('critical_path_ns'), '.3f')} | "
            f"{r['cycles_ntt']} ({r['ideal_ntt']}, {r['ideal_ntt'] / r['cycles_ntt']:.1%}) | {r['cycles_pwmul']} | {r['cycles_polymul']} | "
            f"{fmt(r.get('us_ntt'), '.2f')} | {fmt(r.get('us_polymul'), '.2f')} | {fmt(r.get('us_polymul_streams'), '.2f')} | "
            f"{fmt(r.get('at_mm2_us'), '.2f')} | {fmt(r.get('flop_share'), '.0%')} |")
    if any(r.get("stale") for r in rows):
        lines += ["", "(a) Area and critical path of an earlier RTL or flow (`--collect-only` reports what exists; its date is "
                  "in the worst-paths list): the tile before the stage overlap, whose controller differs; cycles and "
                  "times use today's counts. `make reports` measures it again."]
    lines += ["", "NTT cycles (from each tile's manifest, checked in simulation): the ideal (N/2) log2(N) / P in brackets; "
              "a stage starts as soon as everything it reads has been written, so the stages overlap and only the "
              "gaps max(0, lag + L + 2 - N/(2P)) remain, plus L + 2 cycles at the end (L the butterfly latency; "
              "docs/ntt.md, \"Architecture and cycle counts\"). Butterfly utilization = ideal / NTT cycles. "
              "PWMUL cycles = N/P + L + 2; the "
              "reduction arrangements (Montgomery, WLM-Mixed, K2RED), whose product of two data values leaves the "
              "factor F = 2^-x, add a second pass by C = F^-2 that follows the first without a gap when N/P >= L + 2.", "",
              *best_section(rows),
              "## What the measurements say about the paper's claim", ""]
    para = paragraph(rows, mults) + reduction_paragraph(rows)
    lines += para or ["Not enough results to compare the three arrangements (see the failures below)."]
    lines += ["", "The paper's claim (Section 5, Figure 3): for polynomial multiplication one GShoup unit is more "
              "efficient than Barrett alone or Shoup plus Barrett, because it serves both the twiddle and the "
              "pointwise products at close to Shoup's speed. The tiles test it where the paper's model counts "
              "multipliers only.", "", "## Worst paths", ""]
    lines += [f"- {r['design']}: {r.get('worst_path', 'n/a')}" + (f" ({r['date']})" if r.get("date") else "") for r in rows]
    if failures:
        lines += ["", "## Failures", ""] + [f"- {d}: {why}" for d, why in failures.items()]
    dated = [r for r in rows if r.get("date")]
    if dated:
        lines += ["", f"{provenance(dated)}; table written {utc_now()}."]
    write_md("ntt_table.md", lines)


def write_best(rows, failures):
    """reports/ntt_best.md: the tiles on the best products beside their base tiles, on their own
    (`--best-only` measures just these six tiles; the full table has the same section)."""
    dated = [r for r in rows if r.get("date")]
    lines = ["# NTT tiles on the best products", "",
             f"Generated by `{script(__file__)} --best-only` (and `make reports`, whose reports/ntt_table.md has the same "
             "section) from `build/<d>/harden/metrics.json` and the tiles' manifests; do not edit. Same flow and conventions "
             "as reports/ntt_table.md: post-synthesis, tt, time per polynomial product at the STA clock.", "",
             *best_section(rows),
             "Butterfly utilization of the transforms (ideal (N/2) log2(N) / P over the NTT cycles the manifest promises, "
             "checked in simulation by `make test`):", "",
             *md_head("tile", "NTT cycles", "ideal", "utilization", "product cycles")]
    lines += [f"| {r['design']} | {r['cycles_ntt']} | {r['ideal_ntt']} | {r['ideal_ntt'] / r['cycles_ntt']:.1%} | "
              f"{r['cycles_polymul']} |" for r in rows]
    if failures:
        lines += ["", "## Failures", ""] + [f"- {d}: {why}" for d, why in failures.items()]
    if dated:
        lines += ["", f"{provenance(dated)}."]
    write_md("ntt_best.md", lines)


def main():
    best_only = "--best-only" in sys.argv
    if best_only:
        sys.argv.remove("--best-only")
    a, designs = cli(__doc__, "ntt-reports", "ntt_table", "rerun every tile")
    if best_only:
        best = read_json(INDEX).get("ntt_best", [])
        designs = [d for b, e in entries(best).items() for d in (e["base"], b)]
        failures = {} if a.collect_only else run_designs(designs, a.rerun)
        write_best([row(d) for d in designs], failures)
        print(f"ntt-reports: wrote reports/ntt_best.md; {len(failures)} failed")
        return 1 if failures else 0
    # The tiles on the `_fast` configurations' products (docs/modmul.md, "Design-space exploration").
    if not a.designs:
        designs = designs + read_json(INDEX).get("ntt_best", [])
    missing = [d for d in designs if not manifest_path(d).exists()]
    if missing:
        sys.exit(f"ntt-reports: error: no RTL for {' '.join(missing)}. Fix: make rtl-all")
    failures = {} if a.collect_only else run_designs(designs, a.rerun)
    rows = [row(d) for d in designs]
    mults = {}
    for f in ("barrett", "shoup", "gshoup"):
        m = harden_result(f"{f}_64")
        if m:
            mults[f"{f}_64"] = m["design__instance__area"]
    write(rows, failures, mults)
    print(f"ntt-reports: wrote reports/ntt_table.md (.csv); {len(rows)} tiles, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
