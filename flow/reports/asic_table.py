#!/usr/bin/env python3
"""The paper's Table 1 and Figures 2-3 in SKY130, from the flow's own results.

    flow/reports/asic_table.py [--collect-only] [--rerun] [DESIGN...]

For each table design (default: all 12 of build/designs.json) it runs flow/harden.py unless a
result exists for the current RTL and flow code (--rerun forces it; --collect-only never runs). A failing design
is reported and skipped, and its last good result (if any) is used. Then it writes:
  reports/asic_table.{md,csv,json}  our figures beside the paper's, with ratios
  reports/efficiency.png            S^2/(P*A) per design vs k (Figure 2's analogue)
  reports/polymul_efficiency.png    the polynomial-product scenario of Figure 3
  reports/flow_benchmark.md         wall time and peak memory of each flow step
  reports/designs/<d>.md            each design's one-page summary
The paper's figures are read from data/papers/gshoup.toml (its Table 1, written from the paper's text
by scripts/paper_data.py), not retyped.
"""
import math
import os
import shutil
import sys
from pathlib import Path

import layout
import papers  # verif/papers: the papers' figures, data/papers/
from pdk import CORNERS
from reports import synth_kept
from reports.common import (best_designs, efficiency, entries, entry, REPORTS, cli, fmt, generated_by, harden_result, manifest, md_head,
                            pyplot, ratio, run_designs, save_figure, tools_text, write_csv, write_json,
                            write_md, write_text)

PAPER = papers.data_path("gshoup")
PAPER_NAMES = {"Shoup": "shoup", "Barrett optimized": "barrett", "This work": "gshoup"}
TITLES = {"barrett": "BarrettOpt", "shoup": "Shoup", "gshoup": "GShoup"}
POLY_N = 4096  # polynomial size of the Figure 3 model (FHE-typical); see polymul_model()


KEPT_NOTES = {}  # design -> how its kept synthesis is described (synth_kept.note), for the designs read from reports/synth/


def synth_result(d: str):
    """d's post-synthesis metrics: build/'s (kept in reports/synth/<d>.json as well when made from its current RTL, so
    that a clone without the syntheses regenerates the same table), else the kept one, else None.
    flow/reports/synth_kept.py says when a kept record is used."""
    synth_kept.keep(d)
    m = harden_result(d)
    if m:
        return m  # build/'s, as before (run_designs reruns one of older RTL unless --collect-only)
    got = synth_kept.result(d)
    if got is None:
        return None
    _, m, note = got
    if note:
        KEPT_NOTES[d] = note
    return m


def paper_table1(path: Path = PAPER) -> dict:
    """{(family, k): (critical path ns, area um2)}: the paper's Table 1 from the committed data
    (data/papers/gshoup.toml, written from its text by scripts/paper_data.py); {} if the data is missing."""
    if not path.exists():
        return {}
    rows = {}
    for r in map(papers.values, papers.table("gshoup", "Table 1", path)):
        rows[(PAPER_NAMES[r["Design"]], r["Size"])] = (r["Critical path"], r["Area"])
    return rows


def polymul_model(k, r):
    """Figure 3's scenario, one polynomial product of size N = POLY_N: N + N log2 N products
    with fixed operands (twiddles: Shoup-able) and N general products (pointwise).
    Every unit is fully pipelined, so each product costs one clock period of the unit doing it,
    and the products run one after another:
      Barrett only:     time = (2N + N log N) * P_barrett,            area = A_barrett
      Shoup + Barrett:  time = (N + N log N) * P_shoup + N * P_barrett, area = A_shoup + A_barrett
      GShoup:           time = (2N + N log N) * P_gshoup,             area = A_gshoup
    Efficiency is S^2 / (time per product * area), the standalone formula with the average time
    per product in place of P."""
    n, lg = POLY_N, math.log2(POLY_N)
    fixed, general = n + n * lg, n
    b, s, g = r.get(("barrett", k)), r.get(("shoup", k)), r.get(("gshoup", k))
    out = {}
    if b:
        out["Barrett only"] = ((fixed + general) * b[0], b[1])
    if b and s:
        out["Shoup + Barrett"] = (fixed * s[0] + general * b[0], s[1] + b[1])
    if g:
        out["GShoup"] = ((fixed + general) * g[0], g[1])
    return {name: k * k * (fixed + general) / (t * a) for name, (t, a) in out.items()}


def write_tables(designs, failures, paper):
    ours = {}
    es = entries(designs)
    for d in designs:
        m = synth_result(d)
        if m:
            ours[(es[d]["family"], es[d]["params"]["k"])] = (m["critical_path_ns"], m["design__instance__area"], m)
    widths = sorted({k for _, k in ours} | {k for _, k in paper})
    rows = []
    for fam in ("shoup", "barrett", "gshoup"):
        for k in widths:
            o, p = ours.get((fam, k)), paper.get((fam, k))
            if not o and not p:
                continue
            m = o[2] if o else {}
            rows.append({
                "design": f"{fam}_{k}", "family": TITLES[fam], "k": k,
                "critical_path_ns": o[0] if o else None,
                "critical_path_ss_ns": m.get("critical_path_ns__corner", {}).get(CORNERS[1]),
                "critical_path_ff_ns": m.get("critical_path_ns__corner", {}).get(CORNERS[2]),
                "area_um2": o[1] if o else None,
                "cells": m.get("design__instance__count"),
                "latency": m.get("latency"),
                "worst_path": f"{m['critical_path_endpoints']['start']} -> {m['critical_path_endpoints']['end']}" if m else None,
                "efficiency": efficiency(k, o[0], o[1]) if o else None,
                "paper_critical_path_ns": p[0] if p else None,
                "paper_area_um2": p[1] if p else None,
                "paper_efficiency": efficiency(k, *p) if p else None,
                "status": "ok" if o and f"{fam}_{k}" not in failures else failures.get(f"{fam}_{k}", "not run"),
                "date": m.get("date"), "wall_s": m.get("wall_s"),
            })
    write_json("asic_table.json", rows)
    write_csv("asic_table.csv", rows, list(rows[0]))
    return rows, ours


def comparison(ours, paper, widths):
    """Ratios that carry across technologies, ours beside the paper's.
    `ours` and `paper` map (family, k) to (critical path ns, area um2)."""
    DELAY, AREA = 0, 1

    def get(src, fam, k, i):
        return src[(fam, k)][i] if (fam, k) in src else None

    def shoup_plus_barrett(src, k):
        s, b = get(src, "shoup", k, AREA), get(src, "barrett", k, AREA)
        return ratio(s + b if s and b else None, get(src, "gshoup", k, AREA))

    lines = md_head("k", "GShoup/Shoup delay", "GShoup/Barrett delay", "GShoup/Shoup area", "GShoup/Barrett area",
                    "(Shoup+Barrett)/GShoup area")
    summary = {}
    for k in widths:
        cells = []
        for den, i in (("shoup", DELAY), ("barrett", DELAY), ("shoup", AREA), ("barrett", AREA)):
            a, b = (ratio(get(src, "gshoup", k, i), get(src, den, k, i)) for src in (ours, paper))
            summary.setdefault(("gshoup", den, i), []).append(a)
            cells.append(f"{fmt(a, '.2f')} ({fmt(b, '.2f')})")
        summary.setdefault("sb", []).append(shoup_plus_barrett(ours, k))
        cells.append(f"{fmt(shoup_plus_barrett(ours, k), '.2f')} ({fmt(shoup_plus_barrett(paper, k), '.2f')})")
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    growth = ["| design | " + " | ".join(f"{a}->{b}" for a, b in zip(widths, widths[1:])) + " |",
              "|---|" + "---|" * (len(widths) - 1)]
    for fam in ("shoup", "barrett", "gshoup"):
        g = [" ".join((fmt(ratio(get(ours, fam, b, AREA), get(ours, fam, a, AREA)), ".2f"),
                       f"({fmt(ratio(get(paper, fam, b, AREA), get(paper, fam, a, AREA)), '.2f')})"))
             for a, b in zip(widths, widths[1:])]
        growth.append(f"| {TITLES[fam]} | " + " | ".join(g) + " |")
    return lines, growth, summary


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def claims_paragraph(summary):
    """What the measurements say about the paper's claims, whatever it is."""
    gs_d, gb_d = mean(summary[("gshoup", "shoup", 0)]), mean(summary[("gshoup", "barrett", 0)])
    gb_a, sb = mean(summary[("gshoup", "barrett", 1)]), mean(summary["sb"])
    if None in (gs_d, gb_d, gb_a, sb):
        return "Not every design has a result yet, so the paper's claims are not compared."
    def faster(x):
        return f"{(1 - x) * 100:.0f}% faster than" if x < 1 else f"{(x - 1) * 100:.0f}% slower than"
    return (
        f"Averaged over the widths measured, GShoup is {faster(gb_d)} BarrettOpt (paper: about 20% faster) "
        f"and {faster(gs_d)} Shoup (paper: about 8% slower). Its area is {abs(gb_a - 1) * 100:.0f}% "
        f"{'larger' if gb_a >= 1 else 'smaller'} than BarrettOpt's (paper: about 30% larger), and a Shoup plus a BarrettOpt unit take {sb:.2f} times GShoup's "
        f"area (paper: about 1.5). The paper's figures are TSMC 22 nm ULL at the worst corner with "
        f"Synopsys Design Compiler; ours are SKY130 at the typical corner with Yosys/ABC, so only the "
        f"ratios carry across technologies."
    )


def kept_sentence() -> str:
    """Which designs' figures come from reports/synth/ (this build folder has not synthesized them)."""
    if not KEPT_NOTES:
        return ", kept in `reports/synth/<design>.json` as well"
    return ("; where this build folder has no synthesis of a design, from the one kept in "
            "`reports/synth/<design>.json` (" + "; ".join(f"`{d}`: {n}" for d, n in sorted(KEPT_NOTES.items())) + ")")


def write_markdown(rows, ours, paper, failures, lines, growth, summary):
    table = md_head("design", "size", "critical path, ns (tt)", "area, um2", "cells", "latency", "paper: critical path, ns",
                    "paper: area, um2", "status")
    for r in rows:
        table.append(f"| {r['family']} | {r['k']} | {fmt(r['critical_path_ns'], '.3f')} | {fmt(r['area_um2'], ',.0f')} | "
                     f"{fmt(r['cells'], ',')} | {fmt(r['latency'], 'd')} | {fmt(r['paper_critical_path_ns'], '.2f')} | "
                     f"{fmt(r['paper_area_um2'], ',.0f')} | {r['status']} |")
    corners = md_head("design", "size", "tt_025C_1v80", "ss_100C_1v60", "ff_n40C_1v95", "worst path (tt)")
    for r in rows:
        if r["critical_path_ns"] is not None:
            corners.append(f"| {r['family']} | {r['k']} | {r['critical_path_ns']:.3f} | {fmt(r['critical_path_ss_ns'], '.3f')} | "
                           f"{fmt(r['critical_path_ff_ns'], '.3f')} | `{r['worst_path']}` |")
    best, after = best_section(ours), post_route_section(rows)  # first: they read the `_fast` designs (kept_sentence)
    metas = [m for m in (synth_result(r["design"]) for r in rows) if m]
    tools = metas[0]["tools"] if metas else {}
    dates = sorted(m["date"] for m in metas)
    text = f"""# Table 1 in SKY130: critical path and area of the modular multipliers

{generated_by(__file__)} from `build/<design>/harden/metrics.json`{kept_sentence()}.
Post-synthesis figures without wire parasitics (the sky130 Liberty has no wire-load model): the
paper's Table 1 is post-synthesis too. Ideal clock, zero I/O delay, inputs driven by a
sky130_fd_sc_hd__buf_2 (about a register output), clock constrained to 0.25 ns as in the paper,
so the critical path is the smallest period that meets setup. Area is the standard-cell
area. Tools: {tools_text(tools)}. Runs dated {dates[0] if dates else 'n/a'} to
{dates[-1] if dates else 'n/a'}; each design's run time is in `reports/designs/<design>.md`.
Paper columns: TSMC 22 nm ULL, worst corner (0.81 V, 125 C), Synopsys DC.

{chr(10).join(table)}

## Ratios that carry across technologies (ours, paper's in brackets)

{chr(10).join(lines)}

Area growth per doubling of k:

{chr(10).join(growth)}

## What the measurements say

{claims_paragraph(summary)}

## Critical path at each corner

{chr(10).join(corners)}

## Efficiency

`efficiency.png` plots S^2/(P*A) against k for the three designs, ours and the paper's Table 1
(the analogue of Figure 2). `polymul_efficiency.png` is Figure 3's scenario; its model is in
`flow/reports/asic_table.py` (`polymul_model`): N = {POLY_N}, N + N log2 N fixed-operand products and N general
ones per polynomial product, run one after another on fully pipelined units (one product per clock
period of the unit), by BarrettOpt alone, by Shoup plus BarrettOpt, or by GShoup alone.
`ntt_table.md` measures the same comparison in hardware, on NTT tiles with each arrangement.
"""
    text += best + after
    if failures:
        text += "\n## Failed runs\n\n" + "\n".join(f"- {d}: {why}" for d, why in failures.items()) + "\n"
    write_text("asic_table.md", text)


def post_route_section(rows) -> str:
    """Table 1's designs and the `_fast` winners after layout (flow/pnr.py, `make harden` where
    OpenROAD is found): post-route critical path and area beside the post-synthesis ones, and the
    efficiency loss from 32 bits to each wider k, post-synthesis and post-route (the goal: at most 1.5x
    from 32 to 256 bits)."""
    from reports.pnr_table import layout_status, post_route
    designs = [r["design"] for r in rows if r["critical_path_ns"] is not None]
    best = set(best_designs().values())
    designs += sorted(best, key=lambda d: (entry(d)["params"]["k"], d))
    table = md_head("design", "k", "critical path tt, ns: synthesis -> route", "area um2: synthesis -> route",
                    "S^2/(P*A): synthesis -> route", "layout")
    eff = {}
    for d in designs:
        m = best_result(d) if d in best else synth_result(d)
        if not m:
            continue
        k = entry(d)["params"]["k"]
        pr = post_route(d)
        e_syn = efficiency(k, m["critical_path_ns"], m["design__instance__area"])
        e_pr = efficiency(k, *pr) if pr else None
        eff[d] = (k, e_syn, e_pr)
        table.append(f"| `{d}` | {k} | {m['critical_path_ns']:.3f} -> {fmt(pr and pr[0], '.3f')} | "
                     f"{m['design__instance__area']:,.0f} -> {fmt(pr and pr[1], ',.0f')} | {e_syn:.4f} -> {fmt(e_pr, '.4f')} | "
                     f"{layout_status(d)} |")
    loss = md_head("designs", "k", "loss vs 32 bits, post-synthesis", "loss vs 32 bits, post-route")
    groups = {}
    for d, (k, es, ep) in eff.items():
        groups.setdefault(f"{entry(d)['family']}_<k>" + ("_fast" if d in best else ""), {})[k] = (es, ep)
    for name, group in sorted(groups.items()):
        if 32 not in group:
            continue
        s32, p32 = group[32]
        for k in sorted(group):
            if k != 32:
                es, ep = group[k]
                loss.append(f"| `{name}` | {k} | {s32 / es:.2f}x | {fmt(p32 / ep if ep and p32 else None, '.2f', 'x')} |")
    return f"""
## After layout (LibreLane's Classic flow, reports/pnr.md)

Post-route figures where `make harden` ran the layout (OpenROAD found): the critical path at tt is the
target clock minus the worst tt setup slack with extracted parasitics and the clock tree; the area is
the standard cells as routed (the resizer's buffers and resizing, the clock tree, taps and diodes
included). "absent" (n/a) where no layout finished; the last column says why.

{chr(10).join(table)}

Efficiency loss from 32 bits, S^2/(P*A) at 32 bits over S^2/(P*A) at k (the goal: at most 1.5x at 256):

{chr(10).join(loss)}
"""


def best_result(d: str):
    """A `_fast` design's result, or else its variant's (`alias_of` in its manifest: the same
    design under its variant name, as `make dse` measured it)."""
    m = synth_result(d)
    if m:
        return m
    alias = (manifest(d) or {}).get("alias_of")
    return synth_result(alias) if alias else None


def best_section(ours) -> str:
    rows = md_head("family", "k", "design (variant)", "critical path, ns", "area, um2", "latency", "1/(P*A) vs paper-faithful",
                   "S^2/(P*A) vs paper-faithful")
    for (fam, k), d in sorted(best_designs().items(), key=lambda x: (x[0][1], x[0][0])):
        m, o = best_result(d), ours.get((fam, k))
        if not m or not o:
            rows.append(f"| {TITLES[fam]} | {k} | `{d}` | not measured | | | | |")
            continue
        alias = (manifest(d) or {}).get("alias_of", d)
        r = (o[0] * o[1]) / (m["critical_path_ns"] * m["design__instance__area"])
        rows.append(f"| {TITLES[fam]} | {k} | `{d}` (`{alias}`) | {m['critical_path_ns']:.3f} | {m['design__instance__area']:,.0f} | "
                    f"{m['latency']} | **{r:.2f}x** | {r:.2f}x |")
    return f"""
## modforge best

The configurations the design-space exploration found best (`make dse`, reports/dse.md), one flag
away from the paper-faithful ones above: `<family>_<k>_fast`, an alias of the variant in brackets
(docs/modmul.md, "Design-space exploration"). Same flow; the ratios are throughput per area 1/(P*A) (and
the paper's efficiency, the same ratio at equal k) against the paper-faithful design of the table.

{chr(10).join(rows)}
"""


def write_plots(ours, paper, widths):
    plt = pyplot()
    marks = {"barrett": "s", "shoup": "^", "gshoup": "o"}
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, src, title in ((axes[0], ours, "SKY130 (this repository)"), (axes[1], paper, "TSMC 22 nm (paper, Table 1)")):
        for fam in ("barrett", "shoup", "gshoup"):
            ks = [k for k in widths if (fam, k) in src]
            ax.plot(ks, [efficiency(k, src[(fam, k)][0], src[(fam, k)][1]) for k in ks], marker=marks[fam], label=TITLES[fam])
            if src is ours:  # the `_fast` configurations beside the paper-faithful ones
                best = {k: best_result(d) for (f, k), d in best_designs().items() if f == fam and best_result(d)}
                kb = sorted(best)
                if kb:
                    ax.plot(kb, [efficiency(k, best[k]["critical_path_ns"], best[k]["design__instance__area"]) for k in kb],
                            marker=marks[fam], linestyle="--", label=f"{TITLES[fam]} modforge best")
        ax.set_xscale("log", base=2); ax.set_xticks(widths, [str(w) for w in widths])
        ax.set_xlabel("multiplier size k (bits)"); ax.set_ylabel("S^2 / (P A)  [bit^2 / (ns um^2)]")
        ax.set_title(title); ax.grid(alpha=.3)
        if ax.get_legend_handles_labels()[0]:  # an axis without data (no paper figures) has no legend: matplotlib would warn
            ax.legend()
    fig.suptitle("Efficiency of the standalone multipliers (Figure 2 analogue)")
    save_figure(fig, "efficiency.png", 120)

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, src, title in ((axes[0], ours, "SKY130 (this repository)"), (axes[1], paper, "TSMC 22 nm (paper, Table 1)")):
        series = {}
        for k in widths:
            for name, e in polymul_model(k, src).items():
                series.setdefault(name, []).append((k, e))
        for (name, pts), mk in zip(series.items(), ("s", "D", "o")):
            ax.plot([k for k, _ in pts], [e for _, e in pts], marker=mk, label=name)
        ax.set_xscale("log", base=2); ax.set_xticks(widths, [str(w) for w in widths])
        ax.set_xlabel("multiplier size k (bits)"); ax.set_ylabel("S^2 / (avg. time per product x area)")
        ax.set_title(title); ax.grid(alpha=.3)
        if ax.get_legend_handles_labels()[0]:  # an axis without data (no paper figures) has no legend: matplotlib would warn
            ax.legend()
    fig.suptitle(f"Polynomial product, N = {POLY_N} (Figure 3 analogue)")
    save_figure(fig, "polymul_efficiency.png", 120)


def write_benchmark(designs):
    lines = ["# Flow benchmark: wall time and peak memory per step", "",
             "Generated by `make bench-flow` / `make reports` from each design's last run (`build/<d>/harden/metrics.json`).",
             "Targets (issue 3): `make harden DESIGN=gshoup_128` within 15 minutes, the 12-design table within 2 hours, "
             "no design above 8 GB.", "",
             *md_head("design", "step", "wall time (s)", "peak memory (MB)", "date")]
    total = 0.0
    for d in designs:
        m = synth_result(d)
        if not m:
            lines.append(f"| {d} | (no result) | n/a | n/a | n/a |")
            continue
        total += m["wall_s"]
        for step, v in m["steps"].items():
            lines.append(f"| {d} | {step} | {v['wall_s']} | {v['peak_mb']} | {m['date']} |")
        lines.append(f"| {d} | **whole run** | **{m['wall_s']}** | **{max(v['peak_mb'] for v in m['steps'].values())}** | |")
    mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    lines += ["", f"Sum of the designs' run times: {total / 60:.1f} min.",
              f"Machine: {os.cpu_count()} cores, {mem_gib:.0f} GiB."]
    write_md("flow_benchmark.md", lines)


def main():
    a, designs = cli(__doc__, "reports", "table", "rerun every design (make bench-flow)")
    failures = {} if a.collect_only else run_designs(designs + sorted(best_designs().values()), a.rerun)
    paper = paper_table1()
    if not paper:
        print(f"reports: warning: {PAPER} not found; the paper's columns are n/a")
    rows, ours = write_tables(designs, failures, paper)
    ours2 = {key: v[:2] for key, v in ours.items()}
    widths = sorted({k for _, k in ours2} | {k for _, k in paper})
    lines, growth, summary = comparison(ours2, paper, widths)
    write_markdown(rows, ours, paper, failures, lines, growth, summary)
    write_plots(ours2, paper, widths)
    write_benchmark(designs)
    (REPORTS / "designs").mkdir(exist_ok=True)
    for d in designs:
        if harden_result(d):
            shutil.copy(layout.harden_dir(d) / "summary.md", REPORTS / "designs" / f"{d}.md")
    print(f"reports: wrote reports/asic_table.md (.csv, .json), efficiency.png, polymul_efficiency.png, "
          f"flow_benchmark.md, designs/*.md; {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
