#!/usr/bin/env python3
"""The multi-pass engine at the SSA paper's Table I sets (docs/polymul_multipass.md, "At the Table I sets"):
reports/polymul_multipass.md and .csv.

    flow/reports/polymul_multipass.py

For every multi-pass engine synthesized in the build folder (a manifest `build/<d>/rtl/<d>.json` of kind
`multipass_engine`, `multipass_batch` or `multipass_limbs`, with `build/<d>/harden/metrics.json` made from that RTL),
or whose synthesis is kept in reports/synth/<d>.json (flow/reports/synth_kept.py: every synthesis this script reads
from build/ is kept there, so a fresh clone regenerates the rows; a kept row says so in `synthesized`), and every
Table I set of the same n, one row:

- **Limbs:** L = the number of the design's w-bit primes = 1 mod 2n that make Q >= 2^logq (the single-pass engine's
  rule, `polymul.multipass.stream_primes`).
- **Limbs in sequence** (`_r<rounds>`): L_d is the design's limbs, all of which its engines run, `rounds` each, one
  after another; its `cycles_per_product` is those items' (docs/polymul_multipass.md, "RTL: limbs in sequence").
- **Area, hierarchical:** ceil(L / L_d) copies of the synthesized design (L_d its own limbs), each with its own AXI4
  port (the `_k<L>_y<L>` organisation, whose engines share nothing), standard cells plus macros. The copies' glue (a
  start fan-out and an AND of the done flags) is not synthesized; the copies' primes differ from the synthesized one's,
  which changes the constant multipliers a little. Both are said in the row (`hierarchical`).
- **Time per product,** the issue's figure: max(cycles / f_clk, bytes / B), for B = 256 GB/s (one HBM2 stack) and
  25.6 GB/s (one DDR4-3200 channel). cycles: the manifest's `cycles_per_product` (a batch design, `_t1`: its steady
  state; otherwise one product's promise), f_clk from the tt critical path, post-synthesis. bytes: 9 n L' s / 8, the
  passes' traffic (s the slot bits), L' = copies x L_d the limbs the copies run (L or more: a design has no run-time
  limb count, so a set of fewer limbs than the copies hold still runs them all). The bandwidth needed is bytes x f_clk / cycles.
- **Products at once:** where a product's copies take at most half of 25 mm2, floor(25 / their area) groups of them
  run that many products of a batch at once, each copy with its own port (the figure of merit is products per second
  within 25 mm2); the time per product is then the engine's cycles / f_clk over the groups, or the bytes of one product
  over B if larger (all groups share the memory's B), and the bandwidth needed grows with the groups.
- **Primes loaded at run time** (`_d1`, manifest `loaded`): one synthesis serves every set of its n. Copies: as many
  as fit 25 mm2 (at most L), a port each. Either a product's limbs are split over them, ceil(L / copies) each, one
  after another, or, where it is faster (L not a multiple of the copies), each copy runs whole products, all L limbs,
  so the copies run that many products at once and a product costs L / copies limb items. cycles = a copy's limbs
  times the steady cycles of a limb (`steady_cycles_per_item`, its constants' loads included); bytes = L x
  `bytes_per_limb` (the passes' traffic and the limb's constants image).
- **Against the CPU:** the strongest tfhe-ntt figure measured for the set (data/baselines/cpu_strongest.json, with the
  CPU and its vector extensions), over the time per product at 256 GB/s.
- **Per mm2:** products per second at 256 GB/s over the copies' area (the brief's per-area figure; no GPU figure
  is measured on our machines to set beside it).
- **The limit:** area (over 25 mm2), bandwidth (bytes / B above cycles / f_clk), the engine's AXI port (its beats
  above the passes' own cycles: a wider bus would help) or the engine's cycles at its clock. A set short of its goal
  says by how much, and what the goal takes in the two measured levers: the copies (or groups of copies running
  products at once) that would have to fit 25 mm2, so the area each may take against its measured area, or the tt
  clock against the measured one and its worst path.

It runs nothing: a set with no synthesized design of its n is listed as absent. Numbers come from the files named;
none is estimated beyond the hierarchical count.
"""
import math
import sys

from reports import polymul_inputs as pi, synth_kept
from reports.common import fmt, manifests, generated_by, md_head, stamp, write_csv, write_md

from polymul.multipass import MultipassError, stream_primes
from polymul.multipass_loaded import loaded_primes

NAME = "polymul_multipass"
KINDS = ("multipass_engine", "multipass_batch", "multipass_limbs")
AREA_BUDGET_MM2 = 25.0
MEMORIES = {"hbm2_256": 256e9, "ddr4_25_6": 25.6e9}
GOALS = {1024: 3.0, 2048: 1.5, 4096: 1.5}   # the issue's ratios; 3x at every n >= 8192
CSV_FIELDS = ["n", "logq", "design", "kind", "limbs", "copies", "products_at_once", "hierarchical", "area_mm2", "clock_mhz", "cycles_per_product",
              "engine_us", "bytes_per_product", "time_us_hbm2_256", "time_us_ddr4_25_6", "bandwidth_needed_gbs",
              "tfhe_ntt_us", "tfhe_ntt_cpu", "tfhe_ntt_extensions", "ratio_vs_tfhe_ntt", "goal", "fits_25mm2", "limit",
              "misses", "synthesized", "products_per_s_per_mm2", "ratio_in_sequence_25mm2"]


def designs() -> list:
    """(design, manifest) of every multi-pass engine generated in the build folder, and of every one whose
    synthesis is kept in reports/synth/ (flow/reports/synth_kept.py) that the build folder has not generated."""
    here = [(d, m) for d, m in manifests() if m.get("kind") in KINDS]
    names = {d for d, _ in here}
    return sorted(here + [(d, rec["manifest"]) for d in synth_kept.kept_designs() if d not in names
                          for rec in [synth_kept.kept(d)] if rec["manifest"].get("kind") in KINDS])


def in_sequence(copy_mm2: float, ld: int, L: int, engine_us: float, nbytes: int, cpu_us):
    """A set over the budget, were the side-by-side design's limbs run in sequence through the copies that fit
    25 mm2, estimated from its area (the `_r<rounds>` designs, built, are synthesized rows of their own; their
    tables of constants make an engine larger than the one-limb engine this counts). copies = floor(25 / one copy's area); each round runs
    copies x ld limbs, so a product takes ceil(L / (copies ld)) rounds of the engine's cycles, and the
    port still moves the same bytes: time = max(rounds x engine_us, bytes / 256 GB/s). None where one
    copy alone is over the budget."""
    copies = math.floor(AREA_BUDGET_MM2 / copy_mm2)
    if copies < 1:
        return None
    rounds = math.ceil(L / (copies * ld))
    t = max(rounds * engine_us, nbytes / MEMORIES["hbm2_256"] * 1e6)
    return {"copies": copies, "rounds": rounds, "time_us": t, "ratio": cpu_us / t if cpu_us else None}


def measured_fields(area: float, f_mhz: float, cycles: int, engine_us: float, nbytes: int, times: dict, base: dict,
                    ratio, goal: float, limit: str, misses: list, r: dict, kept_note) -> dict:
    """The columns every row has, from the area, clock, cycles, bytes and the baseline."""
    return {
        "area_mm2": round(area, 3), "clock_mhz": round(f_mhz, 2), "cycles_per_product": cycles,
        "engine_us": round(engine_us, 3), "bytes_per_product": nbytes,
        "time_us_hbm2_256": round(times["hbm2_256"], 3), "time_us_ddr4_25_6": round(times["ddr4_25_6"], 3),
        "bandwidth_needed_gbs": round(nbytes / engine_us / 1e3, 2),
        "tfhe_ntt_us": base["tfhe_ntt_us"], "tfhe_ntt_cpu": base["tfhe_ntt_cpu"],
        "tfhe_ntt_extensions": base["tfhe_ntt_extensions"],
        "ratio_vs_tfhe_ntt": round(ratio, 4) if ratio else None, "goal": goal,
        "fits_25mm2": area <= AREA_BUDGET_MM2, "limit": limit, "misses": "; ".join(misses) or "none",
        "synthesized": f"{r.get('date')}, {r['design__instance__count']:,} cells, tt {r['critical_path_ns']:.2f} ns"
                       + (f"; {kept_note}" if kept_note else ""),
        # the brief's per-area figure: products per second at 256 GB/s over the copies' area
        "products_per_s_per_mm2": round(1e6 / times["hbm2_256"] / area, 1),
    }


def what_it_takes(short: float, units: int, unit_mm2: float, unit_name: str, r: dict) -> str:
    """How far a set's miss is, in the two measured levers: the products per second scale with the units (copies, or
    groups of copies, each running its own products) that fit 25 mm2 and with the clock. `short` = goal / ratio."""
    need = math.ceil(units * short - 1e-9)
    ends = r.get("critical_path_endpoints") or {}
    start = ends.get("start") or ""
    block = start.rsplit(".", 1)[0] if "." in start else start
    return (f"it takes {short:.2f}x the products per second: {need} {unit_name} in 25 mm2 where {units} fit (each at most "
            f"{AREA_BUDGET_MM2 / need:.2f} mm2, measured {unit_mm2:.2f}), or a tt clock of {r['critical_path_ns'] / short:.2f} ns "
            f"(measured {r['critical_path_ns']:.2f} ns" + (f", its worst path in {block}" if block else "") + ")")


def area_and_clock(r: dict):
    """(mm2, MHz) of a synthesis: its standard cells and macros, and its tt critical path."""
    return (r["design__instance__area"] + float(r.get("macro_area_um2") or 0.0)) / 1e6, 1000.0 / r["critical_path_ns"]


def sets_of(d: str, m: dict, sets: list, out: list):
    """The sets of the design's n, each with its limbs L (`stream_primes` at the design's limb width, or for a design
    whose primes are loaded at run time `loaded_primes`, which counts narrower primes too); a set with too few such
    primes gets its row saying so, in `out`."""
    for n, logq in sets:
        if n != m["n"]:
            continue
        try:
            # A run-time-primes design (`_d1`) takes primes of 17 to limb_bits bits; the others fix w-bit ones.
            chain = loaded_primes if "loaded" in m else stream_primes
            L = len(chain(n, logq, m["limb_bits"]))
        except MultipassError as e:
            out.append({"n": n, "logq": logq, "design": d, "limit": f"no limbs: {e}"})
            continue
        yield n, logq, L


def loaded_rows(d: str, m: dict, sets: list, store, r: dict, kept_note: str) -> list:
    """A design whose primes are loaded at run time (`_d1`, manifest `loaded`): any L limbs run one after another, so
    one synthesis serves every set of its n. Copies: as many as fit 25 mm2 (at most L), each with its own port and
    ceil(L / copies) of the limbs; cycles = ceil(L / copies) x the steady cycles of a limb item (its loads included);
    bytes = L x the bytes a limb moves (its passes' and its constants image)."""
    area_mm2, f_mhz = area_and_clock(r)
    item = m["batch"]["steady_cycles_per_item"]
    per_limb = m["loaded"]["bytes_per_limb"]
    e = m["e"]
    port_beats = max(5 * m["n"] // e, 4 * m["n"] // e)
    out = []
    for n, logq, L in sets_of(d, m, sets, out):
        copies = max(1, min(L, math.floor(AREA_BUDGET_MM2 / area_mm2)))
        # Two arrangements of the copies (the issue's "side by side, one after another, or mixed"): a product's limbs
        # split over them, ceil(L / copies) each (the shorter latency), or each copy running whole products, all L
        # limbs, `copies` products at once: L / copies items a product, no rounding up (the figure of merit is
        # products per second within 25 mm2). Whole products where they are faster.
        split = math.ceil(L / copies)
        at_once = copies if L * item < split * item * copies else 1
        per = L if at_once > 1 else split
        cycles = per * item
        engine_us = cycles / f_mhz / at_once
        nbytes = L * per_limb
        times = {k: max(engine_us, nbytes / b * 1e6) for k, b in MEMORIES.items()}
        base = pi.baselines(store, n, logq)
        ratio = base["tfhe_ntt_us"] / times["hbm2_256"] if base["tfhe_ntt_us"] else None
        area = copies * area_mm2
        goal = GOALS.get(n, 3.0)
        limit = ("area" if area > AREA_BUDGET_MM2 else
                 "bandwidth" if nbytes / MEMORIES["hbm2_256"] * 1e6 > engine_us else
                 "the engine's AXI port (bus width)" if item == port_beats else "cycles at the clock (lanes)"
                 + (f", {at_once} products at once in 25 mm2" if at_once > 1 else ""))
        misses = []
        if area > AREA_BUDGET_MM2:
            misses.append(f"area {area:.1f} mm2 is {area / AREA_BUDGET_MM2:.2f}x the budget")
        if ratio is not None and ratio < goal:
            misses.append(f"{ratio:.2f}x is {goal / ratio:.2f}x short of {goal}x: "
                          + what_it_takes(goal / ratio, copies, area_mm2, "copies", r))
        out.append({
            "n": n, "logq": logq, "design": d, "kind": "batch, primes loaded at run time", "limbs": L, "copies": copies,
            "hierarchical": (f"{copies} products at once, each on a copy of the synthesized design, a port each, its {L} limbs in "
                             f"sequence (primes loaded at run time; {split} limbs a copy were a product's limbs split over the "
                             f"copies); glue not synthesized" if at_once > 1 else
                             f"{copies} copies of the synthesized design, a port each, {per} limb{'s' if per > 1 else ''} each in sequence (primes "
                             f"loaded at run time); glue not synthesized" if copies > 1 else
                             f"no: the design as synthesized, its {L} limbs' primes loaded at run time, one after another"),
            **measured_fields(area, f_mhz, cycles, engine_us, nbytes, times, base, ratio, goal, limit, misses, r, kept_note),
            "ratio_in_sequence_25mm2": None, "products_at_once": at_once,
        })
    return out


def rows_of(d: str, m: dict, sets: list, store) -> list:
    got = synth_kept.result(d)  # build/'s synthesis of its RTL, else the one kept in reports/synth/
    if got is None:
        return []
    _, r, kept_note = got
    if "loaded" in m:
        return loaded_rows(d, m, sets, store, r, kept_note)
    area_mm2, f_mhz = area_and_clock(r)
    cycles = m["cycles_per_product"]
    ld = m.get("limbs", 1)
    out = []
    for n, logq, L in sets_of(d, m, sets, out):
        copies = math.ceil(L / ld)
        # Products at once: where one product's copies fit 25 mm2 more than once, each further group of copies runs
        # another product of the batch (products per second within 25 mm2, the issue's figure of merit; each group a
        # port of its own per copy, as the copies of one product have).
        groups = max(1, math.floor(AREA_BUDGET_MM2 / (copies * area_mm2))) if copies * area_mm2 <= AREA_BUDGET_MM2 else 1
        engine_us = cycles / f_mhz / groups
        # The limbs the hardware runs: every limb of every copy (a design of more limbs than the set needs, e.g.
        # one engine of 29 limbs in sequence serving the n = 32768 sets, runs all of them: no run-time limb count).
        nbytes = 9 * n * copies * ld * m["slot_bits"] // 8
        times = {k: max(engine_us, nbytes / b * 1e6) for k, b in MEMORIES.items()}
        base = pi.baselines(store, n, logq)
        ratio = base["tfhe_ntt_us"] / times["hbm2_256"] if base["tfhe_ntt_us"] else None
        area = copies * groups * area_mm2
        goal = GOALS.get(n, 3.0)
        # The passes' own cycles (lanes and fills); above them, the cycles are the engine's AXI port's beats.
        # (With limbs in sequence a product is `rounds` items, each the passes' cycles.)
        passes = (max(a + b for a, b in zip(m["model_cycles"], m["fill_cycles"])) if m.get("batch") else sum(
            a + b for a, b in zip(m["model_cycles"], m["fill_cycles"]))) * m.get("rounds", 1)
        limit = ("area" if area > AREA_BUDGET_MM2 else
                 "bandwidth" if nbytes / MEMORIES["hbm2_256"] * 1e6 > engine_us else
                 "the engine's AXI port (bus width)" if cycles > passes else
                 "cycles at the clock (lanes)" + (f", {groups} products at once in 25 mm2" if groups > 1 else ""))
        misses, seq = [], None
        rounds = m.get("rounds", 1)
        if area > AREA_BUDGET_MM2:
            misses.append(f"area {area:.1f} mm2 is {area / AREA_BUDGET_MM2:.2f}x the budget")
            if rounds == 1:  # a side-by-side design: what its limbs in sequence would give, from its own area
                seq = in_sequence(area_mm2, ld, L, engine_us, nbytes, base["tfhe_ntt_us"])
            if seq and seq["ratio"]:
                misses.append(f"with its limbs in sequence (estimated from this design's area; the _r<rounds> designs "
                              f"are rows of their own) {seq['copies']} copies fit 25 mm2, {seq['rounds']} rounds a "
                              f"product: {seq['ratio']:.2f}x")
        if ratio is not None and ratio < goal and area <= AREA_BUDGET_MM2:
            unit = "copies" if copies == 1 else f"groups of {copies} copies"
            misses.append(f"{ratio:.2f}x is {goal / ratio:.2f}x short of {goal}x: "
                          + what_it_takes(goal / ratio, groups, copies * area_mm2, unit, r))
        elif ratio is not None and ratio < goal:
            misses.append(f"{ratio:.2f}x is {goal / ratio:.2f}x short of {goal}x")
        total = copies * groups
        seq_words = (f"its limbs in sequence, {rounds} through each of its {m['engines']} engine"
                     f"{'s' if m['engines'] > 1 else ''}") if rounds > 1 else ""
        if copies > 1:
            how = (f"{copies} copies of the synthesized {ld}-limb design" + (f" ({seq_words})" if seq_words else "")
                   + ", a port each; glue not synthesized; the copies' primes differ")
        else:
            how = "the design as synthesized" + (f", {seq_words}" if seq_words else "")
        if groups > 1:
            how = f"{groups} products at once, each on {how}" + ("" if copies > 1 else ", a port each; glue not synthesized")
        elif copies == 1:
            how = "no: " + how
        out.append({
            "n": n, "logq": logq, "design": d, "kind": m["kind"].removeprefix("multipass_") + (", limbs in sequence" if rounds > 1 else ""), "limbs": L, "copies": total,
            "products_at_once": groups, "hierarchical": how,
            **measured_fields(area, f_mhz, cycles, engine_us, nbytes, times, base, ratio, goal, limit, misses, r, kept_note),
            "ratio_in_sequence_25mm2": round(seq["ratio"], 4) if seq and seq["ratio"] else None,
        })
    return out


def main():
    sets = sorted(pi.paper_sets())
    if not sets:
        sys.exit(f"{NAME}: the paper's Table I could not be read (data/papers/millar.toml); reports/{NAME}.md is left as it is")
    store = pi.cpu_store()
    found = designs()
    rows = sorted((row for d, m in found for row in rows_of(d, m, sets, store)),
                  key=lambda r: (r["n"], r["logq"], r["design"]))
    stale = [d for d, _ in found if synth_kept.stale(d)]
    newly = [d for d, _ in found if synth_kept.keep(d)]
    lines = ["# The multi-pass engine at the Table I sets", "",
             "One row per synthesized multi-pass design and Table I set of its n. Area: the design's post-synthesis "
             "standard cells (and macros) times the copies the set's limbs need, each copy with its own AXI4 port "
             "(hierarchical: the glue between copies is not synthesized). Time per product: max(cycles / f_clk, "
             "bytes / B), f_clk from the post-synthesis tt critical path, bytes = 9 n L' s / 8 (L' the limbs the copies run, L or more). The ratio is the "
             "strongest tfhe-ntt figure measured for the set over the time at 256 GB/s. "
             "docs/polymul_multipass.md, \"At the Table I sets\", explains the columns.", ""]
    lines += md_head("n", "log q", "design", "limbs", "copies", "area (mm2)", "clock (MHz)", "cycles", "us (engine)",
                     "us at 256 GB/s", "us at 25.6 GB/s", "GB/s needed", "products/s per mm2", "tfhe-ntt (us)", "CPU", "vs tfhe-ntt", "goal",
                     "<= 25 mm2", "limit", "misses by")
    for r in rows:
        if "area_mm2" not in r:
            lines.append(f"| {r['n']} | {r['logq']} | `{r['design']}` | | | | | | | | | | | | | | | | {r['limit']} |")
            continue
        ratio = r["ratio_vs_tfhe_ntt"]
        lines.append(
            f"| {r['n']} | {r['logq']} | `{r['design']}` | {r['limbs']} | {r['copies']} | {fmt(r['area_mm2'], '.3f')} | "
            f"{fmt(r['clock_mhz'], '.1f')} | {r['cycles_per_product']:,} | {fmt(r['engine_us'], '.2f')} | "
            f"{fmt(r['time_us_hbm2_256'], '.2f')} | {fmt(r['time_us_ddr4_25_6'], '.2f')} | {fmt(r['bandwidth_needed_gbs'], '.1f')} | "
            f"{fmt(r['products_per_s_per_mm2'], ',.0f')} | "
            f"{fmt(r['tfhe_ntt_us'], '.3f')} | {r['tfhe_ntt_extensions'] or 'absent'} | "
            f"{'absent' if ratio is None else format(ratio, '.3f') + 'x'} | {r['goal']}x | {'yes' if r['fits_25mm2'] else 'no'} | "
            f"{r['limit']} | {r['misses']} |")
    have = {r["n"] for r in rows}
    absent = [f"({n}, {q})" for n, q in sets if n not in have]
    if absent:
        lines += ["", f"No synthesized multi-pass design of their n: {', '.join(absent)}."]
    if stale:
        lines += ["", f"Synthesized from older RTL, left out: {', '.join(f'`{d}`' for d in stale)} (`make harden DESIGN=<d> PNR=off`)."]
    lines += ["", f"{generated_by(__file__)}; CPU figures from data/baselines/cpu_strongest.json. {stamp()}"]
    write_md(f"{NAME}.md", lines)
    write_csv(f"{NAME}.csv", [r for r in rows if "area_mm2" in r], CSV_FIELDS)
    print(f"{NAME}: {len(rows)} rows -> reports/{NAME}.md, .csv"
          + (f"; kept {', '.join(newly)} in reports/synth/" if newly else ""))


if __name__ == "__main__":
    main()
