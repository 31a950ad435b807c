"""The issue's architectures side by side at each goal set (docs/polymul_dse.md, "Architectures"):

  (a) the streaming engine, `polymul_<n>_<logq>_s<P>...`: its best point (polymul_best.best_of);
  (b) the banked SRAM tile with more units, `polymul_<n>_<logq>[_p<P>]`, P = 1..32: the storage its
      manifest names (macros and their Liberty area), the cycles its manifest promises, and its area
      and time where hardened (build/<d>/harden/metrics.json of its current RTL, else the row
      reports/polymul_table.csv carries, marked carried);
  (c) a four-step (n1 x n2) organisation: not built. Its storage lower bound is computed beside (a)'s.

The tile runs a product as a sequence of commands, one coefficient per cycle through its streams:
    cycles per product = 2 LOAD + UNLOAD + 2 NTT + INTT + PWMUL   (its manifest's `cycles`)
so however many units it has, a product costs at least the streams' 2 LOAD + UNLOAD cycles (about
3n): `stream_floor_us` is that many cycles at the tile's best measured clock.

A streaming four-step transform holds a whole polynomial between its column and row passes (the first
row needs the last column's outputs): at least n words per transform and limb, the corner-turn
memory, where (a)'s single-path delay lines hold n - 1. Three transforms per product (two forward, one
inverse) give the bound 3 n L w bits, (a)'s layout L and w. It also adds one twiddle multiplication per
lane between the passes. It could pay only where storage is cheap beside the lanes, P >= sqrt(n).
"""
import csv
import io

import layout
from reports.common import fmt, harden_result, md_head, read_json, same_rtl
from reports import common

TILE_UNITS = (1, 2, 4, 8, 16, 32)  # the tile generator's P (ntt: a power of two from 1 to 32)
TILE_DEFAULT_UNITS = 2             # polymul_<n>_<logq> without _p<P> (the paper's two butterflies)


def tile_name(n: int, logq: int, units: int) -> str:
    """The name the tables use: the default P without _p<P> (reports/polymul_table.csv)."""
    return f"polymul_{n}_{logq}" + ("" if units == TILE_DEFAULT_UNITS else f"_p{units}")


def product_cycles(mf: dict) -> int:
    """A tile's cycles per product from its manifest's command cycles (the streams counted)."""
    c = mf["cycles"]
    return 2 * c["LOAD"] + c["UNLOAD"] + 2 * c["NTT"] + c["INTT"] + c["PWMUL"]


def stream_cycles(mf: dict) -> int:
    """The cycles of a product's streams alone: two operands in, the product out."""
    c = mf["cycles"]
    return 2 * c["LOAD"] + c["UNLOAD"]


def table_rows(path=None) -> dict:
    """reports/polymul_table.csv's ASIC rows by design (the tiles' committed measurements)."""
    p = path or common.REPORTS / "polymul_table.csv"
    if not p.exists():
        return {}
    lines = p.read_text().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("design,")), None)
    return {} if start is None else {r["design"]: r for r in csv.DictReader(io.StringIO("\n".join(lines[start:])))}


def tile_point(n: int, logq: int, units: int, budget_um2: float, rows: dict = None):
    """One tile point, or None if its manifest is not in build/ (make dse-polymul generates it)."""
    d = tile_name(n, logq, units)
    mf = read_json(layout.manifest(d))
    if mf is None or "cycles" not in mf:
        return None
    sram = mf.get("sram") or {}
    r = {"design": d, "units": units, "macro_count": sram.get("macro_count", 0),
         "macro_estimate_um2": float(sram.get("macro_area_um2") or 0.0), "cycles_per_product": product_cycles(mf),
         "stream_cycles": stream_cycles(mf), "status": "not hardened"}
    m = harden_result(d)
    row = (rows if rows is not None else table_rows()).get(d)
    if m and same_rtl(m, d):
        std, mac, period = m["design__instance__area"], float(m.get("macro_area_um2") or 0.0), m["critical_path_ns"]
        r.update(status="measured", date=m.get("date"))
    elif row and row.get("stdcell_um2"):
        std, mac, period = float(row["stdcell_um2"]), float(row.get("macro_um2") or 0.0), float(row["critical_path_ns"])
        r.update(status="carried")
    else:
        r["within"] = None if r["macro_estimate_um2"] <= budget_um2 else False
        return r
    r.update(stdcell_um2=std, macro_um2=mac, area_mm2=(std + mac) / 1e6, critical_path_ns=period,
             us_per_product=r["cycles_per_product"] * period / 1000.0,
             stream_floor_us=r["stream_cycles"] * period / 1000.0)
    r["area_time"] = r["area_mm2"] * r["us_per_product"]
    r["within"] = std + mac <= budget_um2
    return r


def tile_points(n: int, logq: int, budget_um2: float, rows: dict = None) -> list:
    rows = rows if rows is not None else table_rows()
    return [p for p in (tile_point(n, logq, u, budget_um2, rows) for u in TILE_UNITS) if p]


def best_tile(points: list):
    """The tile with the most units among the measured (or carried) points within the budget."""
    ok = [p for p in points if p["status"] in ("measured", "carried") and p["within"]]
    return max(ok, key=lambda p: p["units"]) if ok else None


def four_step_bound_bits(n: int, limbs: int, w: int) -> int:
    """(c)'s storage lower bound: one n-word corner turn per transform, three transforms, L limbs of w bits."""
    return 3 * n * limbs * w


def section(sets: dict, goal_sets, budget_um2: float) -> list:
    """The "Architectures" section of reports/polymul_dse.md."""
    rows = table_rows()
    L = ["## Architectures: (a) streaming, (b) banked tile with more units, (c) four-step", "",
         "(a) is the streaming engine's best point above. (b) is the SRAM tile `polymul_<n>_<logq>_p<P>` with P = 1..32 "
         "units (BarrettOpt, RAM twiddles; docs/polymul.md): its macros and cycles from its manifest, its area and clock "
         "where hardened (carried: the row of reports/polymul_table.csv, its date there). The tile runs a product as "
         "commands, one coefficient a cycle through its streams: cycles = 2 LOAD + UNLOAD + 2 NTT + INTT + PWMUL, so no "
         "number of units takes it below the streams' 2 LOAD + UNLOAD cycles (stream floor: those cycles at its measured "
         "clock). (c), a four-step organisation, is not built: a streaming one holds a whole polynomial between its "
         "column and row passes, at least 3 n L w bits for a product's three transforms, against (a)'s delay lines "
         "(its manifest), and it adds a twiddle multiplication per lane between the passes.", ""]
    for key in goal_sets:
        s = sets.get(key)
        if not s:
            continue
        n, logq = key
        a = s["best"]
        tps = tile_points(n, logq, budget_um2, rows)
        bt = best_tile(tps)
        L += [f"### ({n}, {logq})", ""]
        L += md_head("architecture", "design", "units / lanes", "macros", "macros (mm2, manifest)", "area (mm2)",
                     "clock (MHz)", "cycles per product", "us per product", "area-time (mm2 us)", "<= 25 mm2", "status")
        if a:
            L.append(f"| (a) streaming | `{a['design']}` | {a['lanes']} | {fmt(a['macro_count'])} | "
                     f"{a['macro_estimate_um2'] / 1e6:.2f} | {a['area_mm2']:.3f} | {a['clock_mhz']:.1f} | "
                     f"{a['cycles_per_product']:,} | {a['us_per_product']:.3f} | {a['area_time']:.1f} | yes | measured |")
        for p in tps:
            if p["status"] in ("measured", "carried"):
                L.append(f"| (b) tile | `{p['design']}` | {p['units']} | {p['macro_count']} | "
                         f"{p['macro_estimate_um2'] / 1e6:.2f} | {p['area_mm2']:.3f} | {1000.0 / p['critical_path_ns']:.1f} | "
                         f"{p['cycles_per_product']:,} | {p['us_per_product']:.2f} | {p['area_time']:.1f} | "
                         f"{'yes' if p['within'] else 'no'} | {p['status']} |")
            else:
                fit = "no: macros alone" if p["within"] is False else "n/a"
                L.append(f"| (b) tile | `{p['design']}` | {p['units']} | {p['macro_count']} | "
                         f"{p['macro_estimate_um2'] / 1e6:.2f} | n/a | n/a | {p['cycles_per_product']:,} | n/a | n/a | {fit} | "
                         f"{p['status']} |")
        L.append("")
        over = [p for p in tps if p["within"] is False and (not bt or p["units"] > bt["units"])]
        if a and bt:
            L.append(f"- (b) at its best within 25 mm2, `{bt['design']}` (P = {bt['units']}): {bt['us_per_product']:.2f} us "
                     f"per product, {bt['us_per_product'] / a['us_per_product']:.1f}x (a)'s time and "
                     f"{bt['area_time'] / a['area_time']:.1f}x its area-time. Its streams alone take "
                     f"{bt['stream_cycles']:,} cycles, {bt['stream_floor_us']:.2f} us at its clock: "
                     f"{bt['stream_floor_us'] / a['us_per_product']:.1f}x (a)'s whole product, whatever P.")
        if over:
            p0 = min(over, key=lambda p: p["units"])
            what = (f"measures {p0['area_mm2']:.2f} mm2" if p0["status"] in ("measured", "carried")
                    else f"has {p0['macro_estimate_um2'] / 1e6:.2f} mm2 of macros alone")
            L.append(f"- (b) with more units: P = {p0['units']} {what}, over 25 mm2, and every larger P has more: each unit "
                     "brings its banks and its copy of the twiddle table.")
        if a:
            bits = a["delay_line_bits"]
            bound = four_step_bound_bits(n, a["limbs"], a["limb_bits"])
            if bits:
                L.append(f"- (c) four-step at (a)'s L = {a['limbs']}, w = {a['limb_bits']}: at least {bound:,} bits of "
                         f"corner-turn memory against (a)'s {bits:,} delay-line bits ({bound / bits:.3f}x): no storage saved, "
                         f"plus a multiplier per lane; not built.")
        L.append("")
    return L
