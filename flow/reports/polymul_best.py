#!/usr/bin/env python3
"""The streaming RNS polymul engine's best design per set, its design-space exploration and the goal
check (docs/polymul_dse.md): reports/polymul_best.csv, reports/polymul_dse.md and
reports/polymul_dse_<n>_<logq>.png.

    flow/reports/polymul_best.py [--offchip-gbps 256]

Reads every stream design in the build folder (`build/<d>/rtl/<d>.json` with "kind":
"polymul_stream") with its `build/<d>/harden/metrics.json`, the strongest software baselines measured
(`data/baselines/cpu_strongest.json`: per set and library the fastest figure any machine measured,
with its CPU and vector extensions; `make sw-baseline` merges into it, flow/reports/cpu_strongest.py),
the SSA paper's Table IV
(`data/papers/millar.toml`), today's best SRAM tile per set (`reports/polymul_table.csv`, written by
flow/reports/polymul_table.py earlier in the same `make reports`) and the exploration's record of the
points it did not run (`build/dse/polymul.json`, flow/dse_polymul.py). It never runs the flow. A
figure that is not measured is shown as absent, never estimated.

The formulas (one place: point() and the goal check below):
  period          = the tt critical path (ns);  clock_mhz = 1000 / period
  throughput      = clock / cycles_per_product  (products per second in steady state)
  us per product  = cycles_per_product * period  (= 1 / throughput)
  latency_us      = (latency_cycles + cycles_per_product) * period: the first input beat accepted to
                    the last output beat read (both streams counted)
  area            = standard cells + macros;  area-time = area (mm2) * us per product
  bandwidth       = (2 operands in + 1 out) * n * L * w bits per product * products per second
"""
import argparse
import json
import math
import sys
from pathlib import Path

import layout
from harden import flow_sha256
from reports import common, cpu_strongest, polymul_arch, polymul_best_fpga, polymul_levers, polymul_limbs
from reports.polymul_inputs import baselines, cpu_store, measured_on, paper_sets, paper_table4  # noqa: F401 (re-exported)
from reports.common import (fmt, generated_by, harden_result, md_head, pyplot, read_json, same_rtl, save_figure, stamp,
                            tools_text, write_csv, write_md)

AREA_BUDGET_UM2 = 25e6  # the issue's "small die": standard cells plus macros
# The issue's goals at its three sets: throughput over tfhe-ntt on one core (x), over the SSA paper's
# placed-and-routed FPGA design (Table IV), and area-time per product against today's best SRAM tile.
GOAL_TFHE = {(1024, 19): 3.0, (2048, 33): 1.0, (4096, 62): 1.0}
GOAL_FPGA = 10.0
GOAL_AREA_TIME = 10.0
GOAL_SETS = tuple(GOAL_TFHE)
LARGE_N = 8192  # "the larger sets": n from 8192 to 32768
# The off-chip memory the larger sets' operands stream from (stated, not measured): one HBM2 stack,
# 1024 data pins at 2.0 Gbit/s each = 256 GB/s (JEDEC JESD235A's top speed). --offchip-gbps changes it.
OFFCHIP_NAME = "one HBM2 stack: 1024 data pins x 2.0 Gbit/s"
OFFCHIP_GBYTES_S = 1024 * 2.0 / 8

CSV_FIELDS = ["n", "logq", "design", "area_mm2", "macro_mm2", "clock_mhz", "cycles_per_product", "throughput_per_s",
              "latency_us", "tfhe_ntt_us", "tfhe_ntt_cpu", "tfhe_ntt_extensions", "flint3_us", "ntl_us", "fpga_paper_us",
              "ratio_vs_tfhe_ntt", "engine", "hierarchical", "time_us_hbm2_256", "bandwidth_needed_gbs", "fits_25mm2",
              "limit", "source", "layout_status", "post_route_cp_tt_ns"]  # the last nine: polymul_engines.ENGINE_FIELDS
NAME = "polymul_best"


# ---------------------------------------------------------------- inputs

def stream_designs() -> list:
    """Every design in the build folder whose manifest is a stream engine's, sorted: generated ones
    (build/<d>/rtl/<d>.json) and planned ones (`Generate --manifest-only`: build/<d>/plan/<d>.json,
    storage and cycles without RTL, for the sets too large to write)."""
    out = {d for pattern in ("*/rtl/*.json", "*/plan/*.json") for d, m in common.manifests(pattern)
           if m.get("kind") == "polymul_stream"}
    return sorted(out)


def stream_manifest(d: str):
    m = read_json(layout.manifest(d))
    return m if m is not None else read_json(layout.BUILD / d / "plan" / f"{d}.json")


def config_key(mf: dict) -> tuple:
    """What makes two names the same circuit: (n, logq, lanes, w, multipliers, storage, primes): a prime
    class (_c) whose largest primes are the default's is the default's circuit."""
    p = mf.get("registry", {}).get("params", {})
    store = p.get("store") or (mf.get("storage") or {}).get("store") or ("sram" if mf.get("sram") else "ff")
    return (mf["n"], mf["logq"], mf["lanes"], mf["limb_bits"], p.get("mul") or (mf.get("multipliers") or {}).get("config"), store,
            tuple(str(q) for q in mf.get("primes", [])))


def macro_estimate_um2(mf: dict) -> float:
    """The macros' area from the manifest (their Liberty areas; known before any synthesis)."""
    return float((mf.get("sram") or {}).get("macro_area_um2") or (mf.get("storage") or {}).get("macro_area_um2") or 0.0)


def io_bits_per_cycle(mf: dict):
    """Bits per cycle through the data ports (in_a + in_b + out_c), from the manifest's ports."""
    w = {p["name"]: p["width"] for p in mf.get("ports", [])}
    return sum(w[k] for k in ("in_a", "in_b", "out_c")) if all(k in w for k in ("in_a", "in_b", "out_c")) else None


def tiles(path=None) -> dict:
    """Today's best SRAM tile per set from reports/polymul_table.csv (its ASIC section): the largest P
    whose standard cells plus macros fit the budget, as polymul_table.py chooses it.
    {(n, logq): {"design", "p", "area_mm2", "us", "area_time", "stale"}}."""
    best = {}
    for r in polymul_arch.table_rows(path).values():
        try:
            total = float(r["stdcell_um2"]) + float(r.get("macro_um2") or 0.0)
            key, pp, us = (int(r["n"]), int(r["logq"])), int(r["p"]), float(r["us_per_product"])
        except (KeyError, ValueError):
            continue
        if total > AREA_BUDGET_UM2 or (key in best and best[key]["p"] >= pp):
            continue
        best[key] = {"design": r["design"], "p": pp, "area_mm2": total / 1e6, "us": us,
                     "area_time": total / 1e6 * us, "stale": r.get("stale") == "True"}
    return best


def dse_record():
    """build/dse/polymul.json (flow/dse_polymul.py): the points it skipped, refused, pruned or saw fail."""
    return read_json(layout.dse_dir() / "polymul.json") or {"points": {}, "log": {}, "runs": []}


# ---------------------------------------------------------------- one point

def point(d: str, mf: dict = None) -> dict:
    """A stream design's figures from its manifest and harden result. status: "measured" (a result of
    its current RTL), "stale" (a result of other RTL: not used), "not hardened"."""
    mf = mf or stream_manifest(d)
    n, logq, P, w, L = mf["n"], mf["logq"], mf["lanes"], mf["limb_bits"], mf["limbs"]
    key = config_key(mf)
    cycles, lat = mf["cycles_per_product"], mf["latency_cycles"]
    st = mf.get("storage") or {}
    r = {"design": d, "n": n, "logq": logq, "lanes": P, "limb_bits": w, "limbs": L, "mul": key[4], "store": key[5],
         "prime_class": mf.get("prime_class", "any"), "primes": [str(q) for q in mf.get("primes", [])],
         "psi": [str(x) for x in mf.get("psi", [])], "cycles_per_product": cycles, "latency_cycles": lat, "delay_line_bits": st.get("delay_line_bits"),
         "flip_flop_line_bits": st.get("flip_flop_line_bits"), "macro_count": st.get("macro_count"),
         "macro_estimate_um2": macro_estimate_um2(mf), "io_bits_per_cycle": io_bits_per_cycle(mf),
         "bits_per_product": 3 * n * L * w, "pretransformed": bool(mf.get("b_pretransformed", False)),
         "status": "not hardened"}
    m = harden_result(d)
    if m and layout.rtl(d).exists() and same_rtl(m, d):
        r["status"] = "measured"
    elif m:
        r["status"] = "stale"
    if r["status"] != "measured":
        return r
    return with_figures(r, m["design__instance__area"], float(m.get("macro_area_um2") or 0.0), m["critical_path_ns"],
                        endpoints=m.get("critical_path_endpoints") or {}, flow_current=m.get("flow_sha256") == flow_sha256(),
                        date=m.get("date"), tools=m.get("tools") or {}, flow=m.get("flow"))


def with_figures(r: dict, std_um2: float, macro_um2: float, period_ns: float, **source) -> dict:
    """A point with a synthesis's figures (the formulas of this module's docstring): its area and tt
    critical path, and `source`, what says where they come from (endpoints, date, tools, ...)."""
    cycles, lat = r["cycles_per_product"], r["latency_cycles"]
    std, mac, period = std_um2, macro_um2, period_ns
    r.update(status="measured", stdcell_um2=std, macro_um2=mac, area_um2=std + mac, area_mm2=(std + mac) / 1e6,
             macro_mm2=mac / 1e6, critical_path_ns=period, clock_mhz=1000.0 / period,
             throughput_per_s=1e9 / (period * cycles), us_per_product=cycles * period / 1000.0,
             latency_us=(lat + cycles) * period / 1000.0, **source)
    r["area_time"] = r["area_mm2"] * r["us_per_product"]
    r["within"] = r["area_um2"] <= AREA_BUDGET_UM2
    r["bandwidth_gbit_s"] = r["bits_per_product"] * r["throughput_per_s"] / 1e9
    return r


def pareto(points: list) -> set:
    """Designs no other measured point beats on both area and us per product."""
    ok = [p for p in points if p["status"] == "measured"]
    return {p["design"] for p in ok
            if not any(q["area_um2"] <= p["area_um2"] and q["us_per_product"] <= p["us_per_product"]
                       and (q["area_um2"] < p["area_um2"] or q["us_per_product"] < p["us_per_product"]) for q in ok)}


def best_of(points: list):
    """The set's best design: the highest throughput among the measured points within the budget,
    the smaller area-time between equals. None if no measured point fits."""
    ok = [p for p in points if p["status"] == "measured" and p["within"]]
    return max(ok, key=lambda p: (p["throughput_per_s"], -p["area_time"])) if ok else None


# ---------------------------------------------------------------- the whole picture

def collect(store_path=None, paper_path=None, tile_path=None) -> dict:
    """Every stream design's point, grouped by set, each set's best, baselines, paper and tile figures."""
    pts = {}
    seen = {}
    for d in stream_designs():
        mf = stream_manifest(d)
        k = config_key(mf)
        p = point(d, mf)
        # Two names of one circuit (the default width spelled out or not): the measured one is kept.
        if k in seen:
            other = seen[k]
            rank = {"measured": 2, "stale": 1, "not hardened": 0}
            if (rank[p["status"]], p.get("date") or "") <= (rank[other["status"]], other.get("date") or ""):
                other.setdefault("aliases", []).append(d)
                continue
            p["aliases"] = other.get("aliases", []) + [other["design"]]
            pts[(other["n"], other["logq"])].remove(other)
        seen[k] = p
        pts.setdefault((p["n"], p["logq"]), []).append(p)
    # An L-limb design too large to synthesize here, counted from its limbs' one-limb syntheses
    # (polymul_limbs: hierarchical, and its row says so).
    limbs = polymul_limbs.one_limb_designs([p for ps in pts.values() for p in ps])
    for ps in pts.values():
        for i, p in enumerate(ps):
            c = polymul_limbs.counted(p, limbs)
            if c:
                ps[i] = with_figures(dict(p), c.pop("stdcell_um2"), c.pop("macro_um2"), c.pop("critical_path_ns"), **c)
    sw, paper, tile = cpu_store(store_path), paper_table4(paper_path), tiles(tile_path)
    table1 = paper_sets(paper_path)
    # The paper's Table I sets only (the goal's three among them): a stream design at another (n, log q)
    # is a test configuration, counted in the report but not tabled.
    other = sorted(d["design"] for key, ps in pts.items() if table1 and key not in table1 and key not in GOAL_SETS for d in ps)
    sets = {}
    for key in sorted((set(pts) & (table1 or set(pts))) | set(GOAL_SETS)):
        ps = sorted(pts.get(key, []), key=lambda p: (p["lanes"], p["limb_bits"], p["mul"], p["store"], p["design"]))
        front = pareto(ps)
        for p in ps:
            p["pareto"] = p["design"] in front
        b = best_of(ps)
        base = baselines(sw, *key, pretransformed=bool(b and b["pretransformed"]))
        sets[key] = {"n": key[0], "logq": key[1], "points": ps, "best": b, "base": base, "paper": paper.get(key),
                     "tile": tile.get(key)}
    return {"sets": sets, "sw": sw, "record": dse_record(), "other": other}


def best_row(s: dict) -> dict:
    """The set's polymul_best.csv row (CSV_FIELDS); absent figures are None (an empty field)."""
    b, base, paper = s["best"], s["base"], s["paper"]
    row = {"n": s["n"], "logq": s["logq"], "design": b["design"] if b else None,
           "tfhe_ntt_us": base["tfhe_ntt_us"], "tfhe_ntt_cpu": base["tfhe_ntt_cpu"],
           "tfhe_ntt_extensions": base["tfhe_ntt_extensions"], "flint3_us": base["flint3_us"], "ntl_us": base["ntl_us"],
           "fpga_paper_us": paper["us"] if paper else None}
    if b:
        row.update({k: b[k] for k in ("area_mm2", "macro_mm2", "clock_mhz", "cycles_per_product", "throughput_per_s", "latency_us")})
    row["ratio_vs_tfhe_ntt"] = base["tfhe_ntt_us"] / b["us_per_product"] if b and base["tfhe_ntt_us"] else None
    return {k: row.get(k) for k in CSV_FIELDS}


def _rounded(row: dict) -> dict:
    digits = {"area_mm2": 4, "macro_mm2": 4, "clock_mhz": 2, "throughput_per_s": 0, "latency_us": 4, "tfhe_ntt_us": 3,
              "flint3_us": 3, "ntl_us": 3, "fpga_paper_us": 3, "ratio_vs_tfhe_ntt": 3, "time_us_hbm2_256": 3,
              "bandwidth_needed_gbs": 2, "post_route_cp_tt_ns": 3}
    out = {}
    for k, v in row.items():
        if isinstance(v, float) and k in digits:
            v = round(v, digits[k])
            v = int(v) if digits[k] == 0 else v
        out[k] = v
    return out


def goal_check(s: dict) -> list:
    """The issue's goal at a set, one dict per goal: {goal, target, value, ok, short_by, detail}.
    value None: a measurement is missing (ok None)."""
    b, base, paper, tile = s["best"], s["base"], s["paper"], s["tile"]
    key = (s["n"], s["logq"])
    out = []

    def add(goal, target, value, detail):
        ok = None if value is None else value >= target
        out.append({"goal": goal, "target": target, "value": value, "ok": ok,
                    "short_by": None if value is None or ok else target / value, "detail": detail})
    us = b["us_per_product"] if b else None
    t = base["tfhe_ntt_us"]
    add(f"throughput >= {GOAL_TFHE.get(key, 1.0):g}x tfhe-ntt ({base['tfhe_ntt_variant']} product, one core)",
        GOAL_TFHE.get(key, 1.0), t / us if t and us else None,
        f"tfhe-ntt {fmt(t, '.3f')} us per product (min; the strongest stored entry: "
        f"{base['measured_on']['tfhe_ntt'] or 'absent'}), ours {fmt(us, '.3f')} us")
    pu = paper["us"] if paper else None
    add(f"throughput >= {GOAL_FPGA:g}x the SSA paper's placed-and-routed FPGA (Table IV)", GOAL_FPGA,
        pu / us if pu and us else None,
        f"paper {fmt(pu, '.2f')} us per product ({paper['latency']:,} cycles at {paper['fmax_mhz']} MHz)" if paper
        else "paper: absent (no Table IV figure for this set)")
    tat = tile["area_time"] if tile else None
    add(f"area-time per product >= {GOAL_AREA_TIME:g}x better than today's best SRAM tile", GOAL_AREA_TIME,
        tat / b["area_time"] if tat and b else None,
        (f"tile `{tile['design']}` (P = {tile['p']}): {tile['area_mm2']:.3f} mm2 x {tile['us']:.2f} us = {tat:.1f} mm2 us"
         + (" (a result of older RTL or flow)" if tile["stale"] else "")) if tile
        else "tile: absent from reports/polymul_table.csv")
    return out


def lane_growth(sets: dict, lanes: int) -> list:
    """Measured pairs P -> 2P of one configuration (the same w, multipliers, storage, class) at any set:
    [(first, second, stdcell ratio)], the evidence of what doubling the lanes costs in standard cells."""
    out = []
    for s in sets.values():
        ok = [p for p in s["points"] if p["status"] == "measured"]
        for a in ok:
            for c in ok:
                if (a["lanes"] == lanes and c["lanes"] == 2 * lanes and a["design"] != c["design"]
                        and (a["limb_bits"], a["mul"], a["store"], a["prime_class"]) ==
                        (c["limb_bits"], c["mul"], c["store"], c["prime_class"])):
                    out.append((a, c, c["stdcell_um2"] / a["stdcell_um2"]))
    return out


def limits(s: dict, sets: dict = None) -> list:
    """What limits the best design, from its measurements: the clock (worst path), the budget (the
    next lane count), the storage (macro share, delay-line bits) and the ports; and what the
    throughput goal would take at this P or at this clock. `sets` (all of them): the measured cost
    of doubling the lanes elsewhere, where the next P is not measured here."""
    b = s["best"]
    if not b:
        return []
    out = []
    e = b.get("endpoints") or {}
    edges = (e.get("edges") or "rise -> rise").split(" -> ")
    out.append(f"clock: {b['clock_mhz']:.0f} MHz, tt critical path {b['critical_path_ns']:.3f} ns from "
               f"`{e.get('start')}` to `{e.get('end')}`"
               + ("" if edges[0] == edges[1] else f" ({' -> '.join(edges)} edge: half a cycle, so twice its delay)"))
    bigger = [p for p in s["points"] if (p["limb_bits"], p["mul"], p["store"], p["prime_class"]) == (b["limb_bits"], b["mul"], b["store"], b["prime_class"])
              and p["lanes"] == 2 * b["lanes"]]
    rec = dse_record()["points"]
    nxt = f"P = {2 * b['lanes']}"
    if bigger and bigger[0]["status"] == "measured":
        q = bigger[0]
        out.append(f"area: {nxt} (`{q['design']}`) measures {q['area_mm2']:.2f} mm2"
                   + (f" > {AREA_BUDGET_UM2 / 1e6:g} mm2" if not q["within"] else f" but runs at {q['clock_mhz']:.0f} MHz"))
    elif bigger and bigger[0]["macro_estimate_um2"] > AREA_BUDGET_UM2:
        out.append(f"area: {nxt} (`{bigger[0]['design']}`): its macros alone take {bigger[0]['macro_estimate_um2'] / 1e6:.2f} mm2")
    elif 2 * b["lanes"] > b["n"] // 2:
        out.append(f"lanes: P = {b['lanes']} is the largest for n = {b['n']}")
    else:
        why = next((v.get("why") for k, v in rec.items() if v.get("set") == f"{b['n']}_{b['logq']}"
                    and v.get("lanes") == 2 * b["lanes"] and v.get("status") in ("skipped", "pruned", "failed")), None)
        if not why and bigger and b.get("stdcell_um2"):
            # what the macros of the next P (its manifest) leave for standard cells, beside this P's measured cells
            q = bigger[0]
            left = AREA_BUDGET_UM2 - q["macro_estimate_um2"]
            why = (f"not synthesized (`{q['design']}`); its macros take {q['macro_estimate_um2'] / 1e6:.2f} mm2 (manifest), "
                   f"leaving {left / 1e6:.2f} mm2 for standard cells, against the {b['stdcell_um2'] / 1e6:.2f} mm2 that "
                   f"P = {b['lanes']} measures ({left / b['stdcell_um2']:.2f}x; every lane has its own multipliers)")
            seen = lane_growth(sets or {}, b["lanes"])
            if seen:
                why += ("; measured elsewhere, P = {} -> {} takes ".format(b["lanes"], 2 * b["lanes"]) +
                        ", ".join(f"{r:.2f}x the standard cells (`{a['design']}` {a['stdcell_um2'] / 1e6:.2f} -> "
                                  f"`{c['design']}` {c['stdcell_um2'] / 1e6:.2f} mm2)" for a, c, r in seen))
                est = [(b["stdcell_um2"] * r + q["macro_estimate_um2"]) / 1e6 for _, _, r in seen]
                why += (f": at that ratio {nxt} would take about {min(est):.2f}" +
                        (f" to {max(est):.2f}" if max(est) - min(est) >= 0.005 else "") + " mm2 in all (an estimate)")
        out.append(f"area: {nxt} of this configuration: " + (why or "not measured"))
    stor = (f"storage: {fmt(b['delay_line_bits'], ',')} delay-line bits, {fmt(b['macro_count'])} macros = "
            f"{b['macro_mm2']:.2f} mm2 ({100 * b['macro_um2'] / b['area_um2']:.0f}% of the area)")
    out.append(stor + (f"; {b['flip_flop_line_bits']:,} bits in flip-flops" if b.get("flip_flop_line_bits") else ""))
    if b["io_bits_per_cycle"]:
        out.append(f"ports: {b['io_bits_per_cycle']} data bits a cycle (in_a + in_b + out_c) = "
                   f"{b['io_bits_per_cycle'] * b['clock_mhz'] / 1e3:.1f} Gbit/s at this clock")
    for g, what in zip(goal_check(s)[:2], ("tfhe-ntt", "FPGA")):
        if g["ok"] is False:
            need = g["short_by"]
            p_up, p2 = 2 ** math.ceil(math.log2(b["lanes"] * need)), 2 * b["lanes"]
            mhz = b["clock_mhz"] * need  # at this P; the next P (if short of p_up) needs half of it
            out.append(f"the {what} goal needs {need:.2f}x the throughput: {mhz:.0f} MHz ({1000 / mhz:.2f} ns) at P = {b['lanes']}, "
                       + (f"{mhz / 2:.0f} MHz ({2000 / mhz:.2f} ns) at P = {p2}, " if p2 < p_up else "")
                       + f"or P = {p_up} at {b['clock_mhz']:.0f} MHz")
    return out


# ---------------------------------------------------------------- writing

def engine_rows(data: dict) -> list:
    """polymul_best.csv's rows: the best engine, single-pass or multi-pass, at every Table I set and goal set
    (flow/reports/polymul_engines.py)."""
    from reports import polymul_engines
    return polymul_engines.best_rows(data, (paper_sets() or set(data["sets"])) | set(GOAL_SETS), data["sw"], best_row)


def best_table_lines(data: dict = None) -> list:
    """The best engine per set as markdown (the table polymul_table.md opens with): polymul_best.csv's rows."""
    data = data or collect()
    L = md_head("n", "log q", "design", "engine", "area (mm2)", "<= 25 mm2", "clock (MHz)", "cycles per product",
                "products/s", "us at 256 GB/s", "GB/s needed", "tfhe-ntt (us)", "tfhe-ntt measured on", "FLINT 3 (us)",
                "NTL (us)", "FPGA paper (us)", "vs tfhe-ntt", "limit", "source")
    for r in engine_rows(data):
        s = data["sets"].get((r["n"], r["logq"]))
        on = (s["base"]["measured_on"]["tfhe_ntt"] if s else None) or (
            f"{r['tfhe_ntt_extensions']}, {r['tfhe_ntt_cpu']}" if r["tfhe_ntt_cpu"] else "n/a")
        pre = " (pre)" if s and s["base"]["tfhe_ntt_variant"] == "pre" and r["engine"] == "single-pass" else ""
        design = f"`{r['design']}`" if r["design"] else "none synthesized"
        L.append(f"| {r['n']} | {r['logq']} | {design} | {r['engine'] or ''} | {fmt(r['area_mm2'], '.3f')} | "
                 f"{'' if r['fits_25mm2'] is None else _yes(r['fits_25mm2'])} | "
                 f"{fmt(r['clock_mhz'], '.1f')} | {fmt(r['cycles_per_product'], ',')} | {fmt(r['throughput_per_s'], ',.0f')} | "
                 f"{fmt(r['time_us_hbm2_256'], '.3f')} | {fmt(r['bandwidth_needed_gbs'], '.1f')} | "
                 f"{fmt(r['tfhe_ntt_us'], '.3f')}{pre} | {on} | {fmt(r['flint3_us'], '.2f')} | {fmt(r['ntl_us'], '.2f')} | "
                 f"{fmt(r['fpga_paper_us'], '.2f')} | {fmt(r['ratio_vs_tfhe_ntt'], '.2f', 'x')} | {r['limit'] or ''} | "
                 f"{r['source'] or ''} |")
    return L


FORMULAS = [
    "period = tt critical path (STA, post-synthesis, no parasitics); clock = 1/period; products/s = clock / "
    "cycles per product (n/P: one product accepted every n/P cycles in steady state); us per product = 1 / products/s; "
    "latency = (latency_cycles + cycles per product) x period, from the first input beat accepted to the last output "
    "beat read; area = standard cells + macros (their Liberty area); area-time = area (mm2) x us per product.",
    "Baselines: each library's minimum us per product on one core, the strongest figure measured for the set on any "
    "of our machines (data/baselines/cpu_strongest.json: `make sw-baseline` replaces an entry only by a faster one; "
    "docs/polymul_baselines.md), with the CPU and vector extensions it was measured on (\"tfhe-ntt measured on\": "
    "the entry vs tfhe-ntt uses), for the same work: the engine transforms both operands, so tfhe-ntt's figure is its full product (a design "
    "taking b already transformed would be compared with tfhe-ntt's pre-transformed product, marked (pre)). "
    "vs tfhe-ntt = tfhe-ntt's us per product / ours. FPGA paper = Table IV latency / fmax (Millar et al., placed "
    "and routed). The best single-pass design of a set: the highest throughput among the measured points within "
    "25 mm2, the smaller area-time between equals. The table of the best engine per set (polymul_best.csv) sets it "
    "beside every synthesized multi-pass design of the set's n (reports/polymul_multipass.md: L copies, time per "
    "product max(cycles / f_clk, bytes / 256 GB/s)) and keeps the one within 25 mm2 with the higher ratio to "
    "tfhe-ntt, else the higher ratio (flow/reports/polymul_engines.py); a single-pass row synthesized on another "
    "machine is kept from the previous csv, its ratio recomputed, and `source` says so.",
]


def best_section(data: dict = None) -> list:
    """The section polymul_table.md opens with: the table, its formulas and where it comes from."""
    data = data or collect()
    return ["## The best engine per set, single-pass or multi-pass (reports/polymul_best.csv)", "",
            "From flow/reports/polymul_best.py (every point, the goal check and the larger sets: reports/polymul_dse.md, "
            "docs/polymul_dse.md). " + " ".join(FORMULAS), "", *best_table_lines(data), ""]


def _yes(x):
    return "yes" if x else "no"


def write_reports(data: dict = None, offchip_gbytes_s: float = OFFCHIP_GBYTES_S, offchip_name: str = OFFCHIP_NAME):
    data = data or collect()
    sets = data["sets"]
    write_csv(f"{NAME}.csv", [_rounded(r) for r in engine_rows(data)], CSV_FIELDS)
    measured = [p for s in sets.values() for p in s["points"] if p["status"] == "measured"]
    L = ["# The streaming RNS polymul engine: design-space exploration and the best design per set", "",
         f"{generated_by(__file__)} and `make dse-polymul` (flow/dse_polymul.py); do not edit. "
         "docs/polymul_dse.md explains the sweep, the columns and the goal.", ""]
    if measured:
        m0 = measured[0]
        L += [f"Flow: {m0['flow']}. Tools: {tools_text(m0['tools'])}. Results dated "
              f"{min(p['date'] for p in measured)} to {max(p['date'] for p in measured)}.", ""]
    L += ["## Formulas", "", *FORMULAS, "",
          "## The best design per set", "", *best_table_lines(data), ""]

    # the goal
    L += ["## The goal at (1024, 19), (2048, 33), (4096, 62)", "",
          "The best design (above) must fit 25 mm2 of standard cells plus macros and reach: throughput >= 3x tfhe-ntt on "
          "one core at (1024, 19) and >= 1x at the other two; >= 10x the SSA paper's placed-and-routed FPGA design; "
          ">= 10x better area-time per product than today's best SRAM tile at the set (reports/polymul_table.csv: the "
          "largest P within 25 mm2).", ""]
    for key in GOAL_SETS:
        s = sets[key]
        b = s["best"]
        L.append(f"### ({key[0]}, {key[1]})" + (f": `{b['design']}`" if b else ""))
        L.append("")
        if not b:
            L += ["No measured design within 25 mm2: every goal is absent. Fix: "
                  f"`make dse-polymul SETS={key[0]}_{key[1]}`.", ""]
            continue
        L.append(f"- {b['area_mm2']:.3f} mm2 ({b['macro_mm2']:.3f} of macros), {b['clock_mhz']:.1f} MHz, "
                 f"{b['throughput_per_s']:,.0f} products/s ({b['us_per_product']:.3f} us each), latency {b['latency_us']:.3f} us, "
                 f"area-time {b['area_time']:.3f} mm2 us" + ("" if b["flow_current"] else " (a result of older flow code: rerun make dse-polymul)"))
        for g in goal_check(s):
            verdict = ("absent" if g["ok"] is None else "**pass**" if g["ok"] else f"**miss** by {g['short_by']:.2f}x")
            L.append(f"- {g['goal']}: {fmt(g['value'], '.2f', 'x')} -> {verdict} ({g['detail']})")
        if any(g["ok"] is False for g in goal_check(s)):
            L.append("- what limits it:")
            L += [f"  - {x}" for x in limits(s, sets)]
        L.append("")

    L += polymul_arch.section(sets, GOAL_SETS, AREA_BUDGET_UM2)
    L += polymul_best_fpga.section(sets)
    L += polymul_levers.section(sets)

    # every point
    L += ["## Every point, per set", "",
          "Pareto: no other measured point of the set has both a smaller or equal area and a smaller or equal us per "
          "product. Status: measured (a result of the design's current RTL), stale (a result of other RTL: not used), "
          "not hardened (generated only: the manifest's storage is known, the rest is absent)."
          + (f" Stream designs at sets outside the paper's Table I, not tabled: {', '.join(data['other'])}."
             if data.get("other") else ""), ""]
    for key, s in sets.items():
        if not s["points"]:
            continue
        L += [f"### ({key[0]}, {key[1]})", ""]
        if any(p["status"] == "measured" for p in s["points"]):
            L += [f"![Pareto plot](polymul_dse_{key[0]}_{key[1]}.png)", ""]
        L += md_head("design", "P", "w", "L", "mul", "store", "class", "area (mm2)", "macros (mm2)", "clock (MHz)", "cycles",
                     "us per product", "products/s", "latency (us)", "area-time (mm2 us)", "<= 25 mm2", "Pareto", "status")
        for p in s["points"]:
            name = f"`{p['design']}`" + (f" (= {', '.join(p['aliases'])})" if p.get("aliases") else "")
            if p["status"] == "measured":
                L.append(f"| {name} | {p['lanes']} | {p['limb_bits']} | {p['limbs']} | {fmt(p['mul'])} | {p['store']} | {p['prime_class']} | "
                         f"{p['area_mm2']:.3f} | {p['macro_mm2']:.3f} | {p['clock_mhz']:.1f} | {p['cycles_per_product']:,} | "
                         f"{p['us_per_product']:.3f} | {p['throughput_per_s']:,.0f} | {p['latency_us']:.3f} | {p['area_time']:.3f} | "
                         f"{_yes(p['within'])} | {_yes(p['pareto'])} | measured{'' if p['flow_current'] else ' (older flow)'} |")
            else:
                L.append(f"| {name} | {p['lanes']} | {p['limb_bits']} | {p['limbs']} | {fmt(p['mul'])} | {p['store']} | {p['prime_class']} | n/a | "
                         f"{p['macro_estimate_um2'] / 1e6:.3f} (manifest) | n/a | {p['cycles_per_product']:,} | n/a | n/a | n/a | n/a | "
                         f"{'no: macros alone' if p['macro_estimate_um2'] > AREA_BUDGET_UM2 else 'n/a'} | n/a | {p['status']} |")
        L.append("")

    # what the exploration did not run
    rec = data["record"]
    done = {p["design"] for s in sets.values() for p in s["points"] if p["status"] == "measured"}
    notrun = [(d, v) for d, v in sorted(rec.get("points", {}).items()) if v.get("status") != "ok" and d not in done]
    L += ["## Points the exploration did not run or saw fail", "",
          "From build/dse/polymul.json (flow/dse_polymul.py): refused by the generator's registry, skipped before "
          "synthesis because the manifest's macros alone exceed 25 mm2, pruned (a smaller P of the same configuration "
          "already measured more than 25 mm2, or the same circuit as another point), or failed (the last lines of the "
          "flow's output; an earlier result stays in build/).", ""]
    if notrun:
        L += md_head("set", "design", "status", "why", "date")
        L += [f"| {v.get('set')} | `{d}` | {v.get('status')} | {str(v.get('why', '')).replace('|', '/')} | {v.get('date', '')} |"
              for d, v in notrun]
    else:
        L.append("None recorded.")
    L.append("")
    L += coverage_lines(sets, rec)

    # larger sets
    L += larger_sets_section(sets, offchip_gbytes_s, offchip_name)

    # baselines
    sw = data["sw"]
    L += ["## Where the baselines come from", ""]
    if sw:
        def load(x):  # /proc/loadavg's three figures: the 1-minute one
            return x[0] if isinstance(x, (list, tuple)) and x else x
        L.append(f"{cpu_strongest.shown()} (flow/reports/cpu_strongest.py): per set and library "
                 "the strongest figure measured on any of our machines, the minimum of the timed products on one pinned "
                 "core (the median beside it). `make sw-baseline` merges each run into it and replaces an entry only by "
                 "a faster one, so a rerun on a core with weaker vector extensions keeps the stronger entry. Each entry "
                 "names the core it was measured on (vector extensions, CPU model, date) and the 1-minute load average "
                 "at the set's start; vs tfhe-ntt uses the tfhe-ntt entry of its row. docs/polymul_baselines.md has the "
                 "method.")
        L.append("")
        L.append("tfhe-ntt: the fastest of the prime sizes the run tried per set (62 bits on prime64's Shoup path, 50 "
                 "on its IFMA path, 31 on prime32; L limbs each, the fewest whose product has log q bits); "
                 "\"sizes\" gives each one's full-product minimum (us, L).")
        L += ["", *md_head("n", "log q", "tfhe-ntt min / median (us)", "L", "tfhe-ntt plan", "sizes", "tfhe-ntt measured on",
                           "load", "FLINT 3", "NTL", "FLINT 2.9", "FLINT 3, NTL, FLINT 2.9 measured on")]
        for key, s in sets.items():
            bb = s["base"]
            sizes = "; ".join(f"{c['prime_bits_max']} bits: {c['full_min_us']:.3f} (L = {c['L']})"
                              for c in bb.get("tfhe_ntt_configs") or []) or "n/a"
            others = "; ".join(dict.fromkeys(bb["measured_on"][k] for k in ("flint3", "ntl", "flint2")
                                             if bb["measured_on"][k])) or "n/a"
            L.append(f"| {key[0]} | {key[1]} | {fmt(bb['tfhe_ntt_us'], '.3f')} / {fmt(bb['tfhe_ntt_median_us'], '.3f')} | "
                     f"{fmt(bb['tfhe_ntt_L'])} | {bb.get('tfhe_ntt_plan') or 'n/a'} | {sizes} | "
                     f"{bb['measured_on']['tfhe_ntt'] or 'n/a'} | {fmt(load(bb['tfhe_ntt_load']), '.2f')} | "
                     f"{fmt(bb['flint3_us'], '.2f')} / {fmt(bb['flint3_median_us'], '.2f')} | "
                     f"{fmt(bb['ntl_us'], '.2f')} / {fmt(bb['ntl_median_us'], '.2f')} | "
                     f"{fmt(bb['flint2_us'], '.2f')} / {fmt(bb['flint2_median_us'], '.2f')} | {others} |")
    else:
        L.append(f"No store of CPU baselines ({cpu_strongest.shown()}): every library figure is "
                 "absent. Fix: `make sw-baseline` (it merges its run into the store), or "
                 "`.venv/bin/python flow/reports/cpu_strongest.py` to seed it from build/sw_baseline/results.json.")
    L += ["", "The SSA paper: Millar et al., Table IV (data/papers/millar.toml; verif/ntt/millar_tables.py).", "", stamp()]
    write_md("polymul_dse.md", L)
    for key, s in sets.items():
        if any(p["status"] == "measured" for p in s["points"]):
            plot(s)
    print(f"polymul-best: wrote reports/{NAME}.csv, reports/polymul_dse.md and its plots", flush=True)


def coverage_lines(sets: dict, rec: dict) -> list:
    """How far `make dse-polymul` went at each goal set, from its record: the steps it finished, or
    that it has not swept the set, so that a best design found by hand is not read as the sweep's."""
    L = ["## How far the exploration went", "",
         "Per goal set, from build/dse/polymul.json: the steps `make dse-polymul` finished there (each keeps its best "
         "point), or that it has not swept the set. A set it has not swept has only the points hardened one at a time "
         "(`flow/harden.py <d>`): its best design is the best measured, not the sweep's; `make dse-polymul SETS=<n>_<logq>` "
         "runs the rest (`PLAN=1` lists the points first).", ""]
    runs = rec.get("runs") or []
    for key in GOAL_SETS:
        tag = f"{key[0]}_{key[1]}"
        steps = (rec.get("log") or {}).get(tag)
        measured = [p["design"] for p in sets.get(key, {}).get("points", []) if p["status"] == "measured"]
        dates = [r["date"] for r in runs if tag in (r.get("sets") or []) and r.get("mode") == "run"]
        if steps:
            L.append(f"- ({key[0]}, {key[1]}): swept ({', '.join(dates) or 'date not recorded'}): "
                     + "; ".join(x.split(": ", 1)[1] for x in steps))
        else:
            L.append(f"- ({key[0]}, {key[1]}): **not swept** by `make dse-polymul`; {len(measured)} point"
                     f"{'' if len(measured) == 1 else 's'} measured by hand"
                     + (f" ({', '.join(f'`{d}`' for d in measured)})" if measured else ""))
    return L + [""]


def _span(lo: float, hi: float, spec: str) -> str:
    """An estimate between two figures ("~a to b"), one figure when they print alike."""
    a, b = format(lo, spec), format(hi, spec)
    return f"~{a}" if a == b else f"~{a} to {b}"


def larger_sets_section(sets: dict, gbytes_s: float, name: str) -> list:
    bw_bits = gbytes_s * 8e9
    L = ["## The larger sets (n = 8192 to 32768)", "",
         f"Every stream design generated at these sets: its on-chip storage from the manifest (macro areas from their "
         f"Liberty), its area and throughput where it is hardened. With the polynomials streamed from an off-chip "
         f"memory of {gbytes_s:g} GB/s ({name}; `--offchip-gbps`), a product moves (2 in + 1 out) x n x L x w bits, "
         "so it takes at least that over the bandwidth; the time per product is the larger of that and the engine's "
         "own. Needed bandwidth = bits per product x the engine's products/s.", ""]
    rows = [p for key, s in sets.items() if key[0] >= LARGE_N for p in s["points"]]
    if not rows:
        return L + ["No stream design generated at these sets. Fix: `./mill -i hw.runMain modforge.Generate --out build "
                    "--manifest-only polymul_8192_123_s4 ...` (manifests only: build/<d>/plan/), then `make reports`.", ""]
    # A design not hardened here (these are too large for this machine's synthesis) has no clock of its own. Its
    # engine time and needed bandwidth are given at the clocks measured for the same generator's engines with macro
    # delay lines (the smaller sets): the same lane, butterfly and delay-line circuits, only more of them. An
    # estimate, marked as one: wider limbs or longer lines may be slower.
    ref = [p for key, s in sets.items() if key[0] < LARGE_N for p in s["points"]
           if p["status"] == "measured" and p.get("macro_um2")]
    lo, hi = (min(ref, key=lambda p: p["clock_mhz"]), max(ref, key=lambda p: p["clock_mhz"])) if ref else (None, None)
    if ref:
        L += [f"Not hardened (n/a area and clock): the engine's products/s and the bandwidth it needs are given at the "
              f"clocks measured for this generator's engines with macro delay lines at the smaller sets, "
              f"{lo['clock_mhz']:.1f} MHz (`{lo['design']}`) to {hi['clock_mhz']:.1f} MHz (`{hi['design']}`): "
              "products/s = clock / cycles per product (n/P, the manifest). An estimate (marked ~), not a measurement "
              "of the design; its area is at least its macros'.", ""]
    L += md_head("design", "L x w", "delay-line bits", "macros", "macro area (mm2)", "storage alone > 25 mm2",
                 "area (mm2)", "cycles per product", "products/s", "bits per product", "needed (Gbit/s)",
                 "us per product, off-chip", "bound")
    for p in rows:
        over = p["macro_estimate_um2"] > AREA_BUDGET_UM2
        t_mem = p["bits_per_product"] / bw_bits * 1e6
        cyc = p["cycles_per_product"]
        if p["status"] == "measured":
            t = max(t_mem, p["us_per_product"])
            bound = "memory" if t_mem > p["us_per_product"] else "engine"
            area, tput, need = f"{p['area_mm2']:.3f}", f"{p['throughput_per_s']:,.0f}", f"{p['bandwidth_gbit_s']:,.1f}"
            t_text = f"{t:.2f}"
        elif ref:
            # products/s at the slowest and the fastest reference clock
            tp_lo, tp_hi = lo["clock_mhz"] * 1e6 / cyc, hi["clock_mhz"] * 1e6 / cyc
            t_lo, t_hi = max(t_mem, 1e6 / tp_hi), max(t_mem, 1e6 / tp_lo)
            area = f">= {p['macro_estimate_um2'] / 1e6:.2f} (macros)"
            tput = _span(tp_lo, tp_hi, ",.0f")
            need = _span(p["bits_per_product"] * tp_lo / 1e9, p["bits_per_product"] * tp_hi / 1e9, ",.1f")
            t_text = _span(t_lo, t_hi, ".2f") if t_hi > t_mem else f"{t_mem:.2f}"
            bound = ("engine (estimated clock)" if 1e6 / tp_hi > t_mem else
                     "memory" if 1e6 / tp_lo < t_mem else "either: depends on the clock")
        else:
            t, bound, area, tput, need = t_mem, "memory (engine not measured: at least this)", "n/a", "n/a", "n/a"
            t_text = f"{t:.2f}"
        L.append(f"| `{p['design']}` | {p['limbs']} x {p['limb_bits']} | {fmt(p['delay_line_bits'], ',')} | "
                 f"{fmt(p['macro_count'], ',')} | {p['macro_estimate_um2'] / 1e6:.2f} | {'**yes**' if over else 'no'} | {area} | "
                 f"{fmt(cyc, ',')} | {tput} | {p['bits_per_product']:,} | {need} | {t_text} | {bound} |")
    return L + [""]


def plot(s: dict):
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.8))
    ok = [p for p in s["points"] if p["status"] == "measured"]
    for store, mk in (("sram", "o"), ("ff", "^")):
        for mul, c in (("fast", "C0"), ("paper", "C1")):
            pts = [p for p in ok if p["store"] == store and p["mul"] == mul]
            if pts:
                ax.scatter([p["area_mm2"] for p in pts], [p["us_per_product"] for p in pts], marker=mk, color=c, s=22,
                           alpha=0.8, label=f"{mul} multipliers, {'SRAM' if store == 'sram' else 'flip-flop'} delay lines")
    front = sorted((p for p in ok if p["pareto"]), key=lambda p: p["area_mm2"])
    if front:
        ax.step([p["area_mm2"] for p in front], [p["us_per_product"] for p in front], where="post", color="k", lw=0.8,
                label="Pareto front")
    if s["best"]:
        ax.scatter([s["best"]["area_mm2"]], [s["best"]["us_per_product"]], marker="*", s=200, color="gold",
                   edgecolor="k", zorder=5, label=f"best: {s['best']['design']}")
    ax.axvline(AREA_BUDGET_UM2 / 1e6, color="r", ls="--", lw=1, label="25 mm2")
    base, paper, tile = s["base"], s["paper"], s["tile"]
    for v, lab, c in ((base["tfhe_ntt_us"], f"tfhe-ntt ({base['tfhe_ntt_variant']}), 1 core, {base['tfhe_ntt_extensions']}", "C2"),
                      (base["flint3_us"], "FLINT 3, 1 core", "C3"), (base["ntl_us"], "NTL, 1 core", "C4"),
                      (paper["us"] if paper else None, "SSA paper FPGA (Table IV)", "C5")):
        if v:
            ax.axhline(v, color=c, ls=":", lw=1.2, label=lab)
    if tile:
        ax.scatter([tile["area_mm2"]], [tile["us"]], marker="s", color="C7", s=40, label=f"today's tile {tile['design']}")
    from matplotlib.ticker import ScalarFormatter
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(ScalarFormatter())
        axis.set_minor_formatter(ScalarFormatter())
    ax.tick_params(which="minor", labelsize=6)
    ax.set_xlabel("area: standard cells + macros (mm2)")
    ax.set_ylabel("us per product (steady state)")
    ax.set_title(f"n = {s['n']}, log q = {s['logq']}: the stream engine's points (lower left is better)", fontsize=9)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=6, loc="best")
    save_figure(fig, f"polymul_dse_{s['n']}_{s['logq']}.png", 120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--offchip-gbps", type=float, default=OFFCHIP_GBYTES_S, metavar="GB/s",
                    help=f"the off-chip memory's bandwidth in GB/s for the larger sets (default {OFFCHIP_GBYTES_S:g}: {OFFCHIP_NAME})")
    a = ap.parse_args()
    name = OFFCHIP_NAME if a.offchip_gbps == OFFCHIP_GBYTES_S else "given with --offchip-gbps"
    try:
        data = collect()
    except cpu_strongest.StoreError as e:
        sys.exit(f"polymul_best: {e}")
    write_reports(data, a.offchip_gbps, name)


if __name__ == "__main__":
    sys.exit(main())
