"""The streaming engine's levers one at a time, as measured (reports/polymul_dse.md, "Each lever, measured").

`make dse-polymul` changes one lever per step (docs/polymul_dse.md); this section sets side by side
every two measured points of a set that differ in exactly one lever (the limb width w, the
multipliers, the primes' class, the delay-line storage, the lanes P), so that each choice the sweep
made comes with the measurement that made it. For the class it gives the primes' set bits (the
multipliers take each q as a constant; docs/polymul.md, "Prime classes"). Nothing is estimated: a
lever with no measured pair is not shown.
"""
from itertools import combinations

from reports.common import md_head

# (point field, the lever's name in the table)
LEVERS = (("limb_bits", "limb width w"), ("mul", "multipliers"), ("prime_class", "prime class"),
          ("store", "delay-line storage"), ("lanes", "lanes P"))


def value(p: dict, field: str) -> str:
    if field == "limb_bits":
        return f"w = {p['limb_bits']} (L = {p['limbs']})"
    if field == "lanes":
        return f"P = {p['lanes']}"
    if field == "prime_class":
        bits = "+".join(str(bin(int(q)).count("1")) for q in p.get("primes") or [])
        return f"{p['prime_class']} ({bits} set bits)" if bits else p["prime_class"]
    return str(p[field])


def pairs(points: list) -> list:
    """[(lever name, field, a, b)] for the measured points that differ in exactly one lever, a the
    smaller value of it (by the levers' own order: w and P by number, the rest by name)."""
    fields = [f for f, _ in LEVERS]
    ms = [p for p in points if p["status"] == "measured"]
    out = []
    for a, b in combinations(ms, 2):
        diff = [f for f in fields if a.get(f) != b.get(f)]
        if len(diff) != 1 or a["n"] != b["n"] or a["logq"] != b["logq"]:
            continue
        f = diff[0]
        if (a[f], a["design"]) > (b[f], b["design"]) if f in ("limb_bits", "lanes") else (str(a[f]), a["design"]) > (str(b[f]), b["design"]):
            a, b = b, a
        out.append((dict(LEVERS)[f], f, a, b))
    order = [name for _, name in LEVERS]
    return sorted(out, key=lambda x: (order.index(x[0]), x[2]["design"], x[3]["design"]))


def section(sets: dict) -> list:
    L = ["## Each lever, measured", "",
         "Every two measured points of a set that differ in exactly one lever (flow/reports/polymul_levers.py); "
         "the ratios are the second point's figure over the first's (area and area-time: below 1 is better; "
         "products/s: above 1 is better).", ""]
    rows = []
    for (n, logq), s in sets.items():
        for name, f, a, b in pairs(s["points"]):
            rows.append(f"| ({n}, {logq}) | {name} | `{a['design']}`: {value(a, f)} | `{b['design']}`: {value(b, f)} | "
                        f"{a['area_mm2']:.3f} -> {b['area_mm2']:.3f} ({b['area_mm2'] / a['area_mm2']:.3f}) | "
                        f"{a['clock_mhz']:.1f} -> {b['clock_mhz']:.1f} | "
                        f"{b['throughput_per_s'] / a['throughput_per_s']:.3f} | {b['area_time'] / a['area_time']:.3f} |")
    if not rows:
        return L + ["No two measured points differ in one lever only.", ""]
    return L + md_head("set", "lever", "first", "second", "area (mm2)", "clock (MHz)", "products/s ratio",
                       "area-time ratio") + rows + [""]
