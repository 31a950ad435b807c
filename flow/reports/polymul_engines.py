"""The best engine per Table I set, single-pass or multi-pass: the rows of reports/polymul_best.csv
(flow/reports/polymul_best.py writes them; docs/polymul_multipass.md, "At the Table I sets").

Candidates at a set:
- the single-pass engine's best design within 25 mm2 (polymul_best.best_of), its time per product its
  own (its operands stream through its ports: bytes / 256 GB/s bounds it where that is larger);
- the single-pass best design of a larger log q at the same n whose Q (the product of its primes) covers
  2^logq: the same circuit serves the smaller set;
- every multi-pass design of the set's n (polymul_multipass.rows_of: L copies, hierarchical, time per
  product max(cycles / f_clk, bytes / 256 GB/s));
- a single-pass row of the previous reports/polymul_best.csv whose design this build folder has no
  result for (another machine synthesized it): kept, not re-measured, with its ratio recomputed against
  today's strongest CPU figure, and `source` says so. A run on a machine without those syntheses
  therefore does not drop them.

The best: the candidates within 25 mm2 first, then the higher ratio to the strongest tfhe-ntt figure,
then the smaller area. A set with none has its baselines only.
"""

from reports import common, pnr_table
from reports import polymul_inputs as pi
from reports import polymul_multipass as pm

ENGINE_FIELDS = ["engine", "hierarchical", "time_us_hbm2_256", "bandwidth_needed_gbs", "fits_25mm2", "limit", "source"]
KEPT = "kept from the previous reports/polymul_best.csv: not synthesized in this build folder"


def single_pass_candidate(s: dict, best_row) -> dict:
    """The single-pass best design's row (polymul_best.best_row) with the engine columns."""
    b = s["best"]
    row = best_row(s)
    bytes_per_product = b["bits_per_product"] / 8
    time_us = max(b["us_per_product"], bytes_per_product / pm.MEMORIES["hbm2_256"] * 1e6)
    row.update(engine="single-pass", hierarchical=b.get("hierarchical") or "no: the design as synthesized",
               time_us_hbm2_256=time_us,
               bandwidth_needed_gbs=bytes_per_product / b["us_per_product"] / 1e3, fits_25mm2=b["within"],
               limit="bandwidth" if time_us > b["us_per_product"] else "",
               source=f"synthesized {b.get('date')}")
    base = s["base"]["tfhe_ntt_us"]
    row["ratio_vs_tfhe_ntt"] = base / time_us if base else None
    return row


def q_bits(point: dict) -> int:
    """The bits of Q = the product of a single-pass design's limb primes (0 where its manifest has none)."""
    q = 1
    for x in point.get("primes") or []:
        q *= int(x)
    return (q - 1).bit_length() if point.get("primes") else 0


def wider_candidate(p: dict, s: dict, best_row) -> dict:
    """A single-pass design measured at another set of the same n whose Q covers this set's (Q >= 2^logq):
    the same circuit serves it (its products are exact mod the larger Q)."""
    row = single_pass_candidate({**s, "best": p}, best_row)
    how = p.get("hierarchical") or "no: the design as synthesized"
    row.update(n=s["n"], logq=s["logq"],
               hierarchical=f"{how}; the ({p['n']}, {p['logq']}) design: its Q of {q_bits(p)} bits covers 2^{s['logq']}")
    return row


def multipass_candidate(r: dict, s: dict) -> dict:
    """A polymul_multipass row as a polymul_best.csv row."""
    base = s["base"]
    return {"n": r["n"], "logq": r["logq"], "design": r["design"], "area_mm2": r["area_mm2"], "macro_mm2": 0.0,
            "clock_mhz": r["clock_mhz"], "cycles_per_product": r["cycles_per_product"],
            "throughput_per_s": 1e6 / r["time_us_hbm2_256"], "latency_us": None,
            "tfhe_ntt_us": base["tfhe_ntt_us"], "tfhe_ntt_cpu": base["tfhe_ntt_cpu"],
            "tfhe_ntt_extensions": base["tfhe_ntt_extensions"], "flint3_us": base["flint3_us"], "ntl_us": base["ntl_us"],
            "fpga_paper_us": s["paper"]["us"] if s.get("paper") else None,
            "ratio_vs_tfhe_ntt": r["ratio_vs_tfhe_ntt"], "engine": f"multi-pass ({r['kind']})",
            "hierarchical": r["hierarchical"], "time_us_hbm2_256": r["time_us_hbm2_256"],
            "bandwidth_needed_gbs": r["bandwidth_needed_gbs"], "fits_25mm2": r["fits_25mm2"],
            "limit": f"{r['limit']}; misses: {r['misses']}", "source": f"synthesized {r['synthesized']}"}


def previous_rows(path=None) -> dict:
    """(n, logq) -> the single-pass row of the committed reports/polymul_best.csv (empty if none)."""
    return {(int(r["n"]), int(r["logq"])): r for r in common.read_csv(path or common.REPORTS / "polymul_best.csv")
            if r.get("design") and r.get("engine", "single-pass") in ("", "single-pass")}


def kept_candidate(prev: dict, s: dict) -> dict:
    """A previous single-pass row, its baselines and ratio today's (from its products per second)."""
    def num(k):
        return float(prev[k]) if prev.get(k) not in (None, "") else None
    base = s["base"]
    tput = num("throughput_per_s")
    row = {"n": s["n"], "logq": s["logq"], "design": prev["design"],
           **{k: num(k) for k in ("area_mm2", "macro_mm2", "clock_mhz", "latency_us")},
           "cycles_per_product": int(prev["cycles_per_product"]), "throughput_per_s": tput,
           "tfhe_ntt_us": base["tfhe_ntt_us"], "tfhe_ntt_cpu": base["tfhe_ntt_cpu"],
           "tfhe_ntt_extensions": base["tfhe_ntt_extensions"], "flint3_us": base["flint3_us"], "ntl_us": base["ntl_us"],
           "fpga_paper_us": s["paper"]["us"] if s.get("paper") else None,
           "ratio_vs_tfhe_ntt": base["tfhe_ntt_us"] * tput / 1e6 if base["tfhe_ntt_us"] and tput else None,
           "engine": "single-pass", "hierarchical": prev.get("hierarchical") or "no: the design as synthesized",
           "time_us_hbm2_256": num("time_us_hbm2_256") or (1e6 / tput if tput else None),
           "bandwidth_needed_gbs": num("bandwidth_needed_gbs"),
           "fits_25mm2": (num("area_mm2") or 0) <= pm.AREA_BUDGET_MM2, "limit": prev.get("limit") or "", "source": KEPT}
    return row


def with_layout(row: dict) -> dict:
    """The post-route figure beside the post-synthesis one (issue 42): the design's layout status
    (reports/pnr.csv's words) and its post-route tt critical path where a layout finished."""
    pr = pnr_table.post_route(row["design"])
    return {**row, "layout_status": pnr_table.layout_status(row["design"]), "post_route_cp_tt_ns": pr[0] if pr else None}


def with_misses(row: dict) -> dict:
    """A single-pass row against the issue's goal (polymul_multipass.GOALS), as the multi-pass rows are: the ratio it
    misses by, or none. The single-pass engine's limits (clock, area of the next P, storage, ports) are measured by
    `make dse-polymul` and written per set in reports/polymul_dse.md, "what limits it"; the row points there."""
    ratio = row.get("ratio_vs_tfhe_ntt")
    if not str(row.get("engine") or "").startswith("single-pass") or ratio is None:
        return row
    # A kept row's own words, without the misses of the ratio it had (today's baseline may differ).
    lim = "; ".join(x for x in (row.get("limit") or "").split("; ") if x and not x.startswith("misses:"))
    goal = pm.GOALS.get(row["n"], 3.0)
    if ratio >= goal:
        return {**row, "limit": f"{lim}; misses: none" if lim else "misses: none"}
    where = f"what limits it: reports/polymul_dse.md, ({row['n']}, {row['logq']})"
    if "the (" in str(row.get("hierarchical") or ""):
        where = "what limits it: reports/polymul_dse.md, the set of the design that serves it"
    miss = f"misses: {ratio:.2f}x is {goal / ratio:.2f}x short of {goal}x ({where})"
    return {**row, "limit": f"{lim}; {miss}" if lim else miss}


def rank(row: dict) -> tuple:
    return (bool(row.get("fits_25mm2")), row.get("ratio_vs_tfhe_ntt") or 0.0, -(row.get("area_mm2") or 0.0))


def best_rows(data: dict, sets_wanted, store, best_row, previous: dict = None) -> list:
    """One row per set of sets_wanted: the best candidate, or the set's baselines alone."""
    previous = previous_rows() if previous is None else previous
    mp = [r for d, m in pm.designs() for r in pm.rows_of(d, m, sorted(sets_wanted), store) if "area_mm2" in r]
    here = {p["design"] for s in data["sets"].values() for p in s["points"] if p["status"] != "not hardened"}
    paper = pi.paper_table4()
    out = []
    for key in sorted(sets_wanted):
        s = data["sets"].get(key) or {"n": key[0], "logq": key[1], "points": [], "best": None,
                                      "base": pi.baselines(store, *key), "paper": paper.get(key)}
        cands = [single_pass_candidate(s, best_row)] if s["best"] else []
        cands += [wider_candidate(p, s, best_row) for k2, s2 in data["sets"].items()
                  if k2[0] == key[0] and k2[1] > key[1] and s2["best"] and q_bits(p := s2["best"]) >= key[1]]
        cands += [multipass_candidate(r, s) for r in mp if (r["n"], r["logq"]) == key]
        prev = previous.get(key)
        if prev and prev["design"] not in here and not any(c["design"] == prev["design"] for c in cands):
            cands.append(kept_candidate(prev, s))
        if cands:
            out.append(with_layout(with_misses(max(cands, key=rank))))
            continue
        row = best_row(s)
        row.update({k: None for k in ENGINE_FIELDS})
        out.append(row)
    return out
