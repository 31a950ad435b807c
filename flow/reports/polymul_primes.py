#!/usr/bin/env python3
"""Prime classes as a lever for the streaming RNS polymul engine (issue 27): how many limb primes
each reduction method's modulus class offers, per limb width w and NTT size n, and which classes
could serve the engine's sets. Writes reports/polymul_primes.md and reports/polymul_primes.csv.

    flow/reports/polymul_primes.py [--cap-log2 20]

A limb is a prime q = 1 (mod 2n) of exactly w bits, 2^(w-1) < q < 2^w (StreamPrimes.scala). The
classes (the modulus classes of docs/reduction.md, intersected with that):

  any         every such prime: the engine today (BarrettOpt and Shoup take any modulus), and WLM
              with omega <= log2(2n)
  wlm         WLM at its designs' omega: also q = 1 (mod 2^omega), omega <= w - 2
  proth_wlmm  Proth, h = min(floor(w/2), GB): WLM-Mixed at its designs' tile GA x GB (h <= GB)
  proth_k2red Proth, h = floor(w/2): K2RED (h <= k/2)
  proth2l     Proth-2l, h = floor(w/2): Montgomery-Shift and K2RED-Shift with 2l
  proth3l     Proth-3l, h = floor(w/2): the same with 3l

Every count comes from the prime toolkit (verif/primetools/proth.py): count_ntt_primes and
count_proth_primes(n=...) with the C counter tools/proth_count.c, proth_l_primes for the Proth-l
forms. A count over more than 2^CAP candidates q (--cap-log2, default 20) is replaced by the prime
number theorem's estimate (estimate_ntt_primes), marked "~". The classes nest in h (class h is in
class h + 1), so the count at h = floor(w/2) holds every smaller h; the CSV adds the h values of
the reduction family's table designs.

The engine's sets: the issue's three goal sets and the SSA paper's sets with n >= 8192
(flow/reports/polymul_best.py). Their limb widths: the generator's default (asked of the registry,
verif/registry.py, for the set's stream engine at its default lanes) and the width of the set's
best design in reports/polymul_best.csv, with the limb count L the generator chose for each.
The reduction designs' parameters (omega, the tile, the h values) come from the registry too.
It runs no synthesis; it takes about half a minute on one core.
"""
import argparse
import math
import platform
import sys
import time

import registry
from primetools import proth
from primetools.proth_native import NativeToolError, compiler_version
from reports import common
from reports import polymul_best as pb
from reports.common import generated_by, md_head, utc_now, write_csv, write_md

NAME = "polymul_primes"
GRID_N = tuple(1 << e for e in range(6, 16))       # the tables' columns: n = 64 .. 32768
ENGINE_N = tuple(1 << e for e in range(4, 16))     # the engine's n: 16 .. 32768 (StreamConfig)
WIDTHS = tuple(range(16, 65))                      # the engine's limb widths (StreamConfig)
DEFAULT_LANES = 4                                  # StreamConfig.defaultLanes (any valid P: w does not depend on it)
CAP_LOG2 = 20
CLASSES = ("any", "wlm", "proth_wlmm", "proth_k2red", "proth2l", "proth3l")
# One CSV, two sections. "set": one row per (set, width, class), the set table's figures. "grid": one row
# per (class, h or omega, w) with the count at every n of the tables (n_<n>): an int when exact, a float
# of three significant digits when the prime number theorem's estimate (at n below exact_from_n).
SET_FIELDS = ["section", "class", "h", "omega", "w", "n", "logq", "limbs", "width_source", "primes", "exact",
              "candidates", "serves", "limbs_from_class", "largest_n"]
CSV_FIELDS = SET_FIELDS + ["exact_from_n"] + [f"n_{n}" for n in GRID_N]


# ---------------------------------------------------------------- the reduction designs' parameters

def design_params(names=None) -> dict:
    """{"omega": [...], "gb": [...], "h": [...]} of the reduction family's table designs
    (build/designs.json's reduction_table, asked of the registry)."""
    names = names if names is not None else registry.index()["reduction_table"]
    got = registry.describe_many(names)
    omega, gb, hs = set(), set(), set()
    for e in got.values():
        if "error" in e:
            continue
        p = e["params"]
        if e["family"] == "wlm":
            omega.add(p["w"])
        if e["family"] == "wlmm":
            gb.add(p["tile"][1])
        if e["family"] in ("wlmm", "k2red", "monts", "k2reds"):
            hs.add(p["h"])
    return {"omega": sorted(omega), "gb": sorted(gb), "h": sorted(hs)}


# ---------------------------------------------------------------- the classes at one (w, n)

class Counter:
    """The counts, memoized: (w, n') of NTT-friendly primes, exact up to 2^cap candidates."""

    def __init__(self, cap_log2: int = CAP_LOG2, method: str = "c"):
        self.cap, self.method = 1 << cap_log2, method
        self.memo = {}
        self.seconds = 0.0

    @staticmethod
    def candidates(w: int, n: int) -> int:
        """How many q = 1 (mod 2n) lie in (2^(w-1), 2^w): 2^(w-1) / (2n), or 0."""
        return (1 << (w - 1)) // (2 * n)

    def ntt(self, w: int, n: int) -> tuple:
        """(count, exact) of the w-bit primes q = 1 (mod 2n)."""
        key = (w, n)
        if key not in self.memo:
            t0 = time.perf_counter()
            if self.candidates(w, n) <= self.cap:
                self.memo[key] = (proth.count_ntt_primes(w, n, self.method), True)
            else:
                self.memo[key] = (proth.estimate_ntt_primes(w, n), False)
            self.seconds += time.perf_counter() - t0
        return self.memo[key]


def class_h(cls: str, w: int, params: dict, h: int = None):
    """The h (Proth forms) or omega (wlm) a class uses at limb width w, or None where the class
    has no design at w (h < 3 for the l forms, omega > w - 2)."""
    if cls == "any":
        return None
    if cls == "wlm":
        om = h if h is not None else max(params["omega"])
        return om if 2 <= om <= w - 2 else None
    top = w // 2 if cls != "proth_wlmm" else min(w // 2, max(params["gb"]))
    h = top if h is None else h
    if h > w // 2 or (cls == "proth_wlmm" and h > max(params["gb"])):
        return None
    if cls in ("proth2l", "proth3l") and h < 3:
        return None
    return h if h >= 1 else None


def ntt_n(cls: str, w: int, n: int, hv: int) -> int:
    """The n' whose w-bit primes q = 1 (mod 2n') are the class's primes usable at NTT size n
    (the classes that are a power-of-two congruence: any, wlm, the Proth classes)."""
    if cls == "any":
        return n
    if cls == "wlm":
        return max(n, 1 << (hv - 1))
    return proth.proth_ntt_n(w, hv, n)


def proth_l_desc(kind: str, w: int, h: int, n: int) -> list:
    """The Proth-l primes of class (w, h) with 2n | q - 1, largest first."""
    log_n = n.bit_length() - 1
    return [r.q for r in reversed(proth.proth_l_primes(w, h, kind)) if r.max_log_n >= log_n]


def count(counter: Counter, cls: str, w: int, n: int, params: dict, h: int = None) -> dict:
    """{"primes", "exact", "candidates", "h"} of a class at (w, n); primes None where the class has
    no design at w."""
    hv = class_h(cls, w, params, h)
    if cls != "any" and hv is None:
        return {"primes": None, "exact": True, "candidates": None, "h": None}
    if cls in ("proth2l", "proth3l"):
        t0 = time.perf_counter()
        got = len(proth_l_desc(cls[-2:], w, hv, n))
        counter.seconds += time.perf_counter() - t0
        return {"primes": got, "exact": True, "candidates": None, "h": hv}
    nn = ntt_n(cls, w, n, hv)
    c, exact = counter.ntt(w, nn)
    return {"primes": c, "exact": exact, "candidates": Counter.candidates(w, nn), "h": hv}


def largest(counter: Counter, cls: str, w: int, n: int, params: dict, many: int) -> list:
    """Up to `many` of the class's largest w-bit primes with 2n | q - 1, largest first."""
    hv = class_h(cls, w, params)
    if cls != "any" and hv is None:
        return []
    if cls in ("proth2l", "proth3l"):
        return proth_l_desc(cls[-2:], w, hv, n)[:many]
    nn = ntt_n(cls, w, n, hv)
    c, exact = counter.ntt(w, nn)
    if exact and c == 0:
        return []
    return _largest_ntt(w, nn, many)


_LARGEST = {}  # (w, n) -> (the largest primes found, whether they are all there are)


def _largest_ntt(w: int, n: int, many: int) -> list:
    got, complete = _LARGEST.get((w, n), ([], False))
    if len(got) < many and not complete:
        got = proth.largest_ntt_primes(w, n, many)
        _LARGEST[(w, n)] = (got, len(got) < many)
    return got[:many]


def limbs_needed(primes_desc: list, logq: int):
    """The fewest of the primes (largest first) whose product is >= 2^logq, or None."""
    need, prod = 1 << logq, 1
    for i, q in enumerate(primes_desc, 1):
        prod *= q
        if prod >= need:
            return i
    return None


def serves(counter, cls, w, n, logq, limbs, params) -> bool:
    """The class has `limbs` w-bit primes with 2n | q - 1 whose product is >= 2^logq."""
    got = largest(counter, cls, w, n, params, limbs)
    return len(got) == limbs and limbs_needed(got, logq) is not None


def largest_n(counter, cls, w, logq, limbs, params):
    """The largest power-of-two n of the engine's range the class serves with `limbs` limbs, or None."""
    for n in sorted(ENGINE_N, reverse=True):
        if serves(counter, cls, w, n, logq, limbs, params):
            return n
    return None


# ---------------------------------------------------------------- the engine's sets

def engine_sets() -> list:
    """The goal sets and the SSA paper's sets with n >= 8192, in order."""
    larger = sorted(s for s in pb.paper_sets() if s[0] >= pb.LARGE_N)
    return list(dict.fromkeys([*pb.GOAL_SETS, *larger]))


def best_designs(path=None) -> dict:
    """{(n, logq): design} of reports/polymul_best.csv (empty where the file or a design is missing)."""
    return {(int(r["n"]), int(r["logq"])): r["design"] for r in common.read_csv(path or common.REPORTS / "polymul_best.csv")
            if r.get("design")}


def engine_widths(sets: list, best: dict) -> dict:
    """{(n, logq): [(w, L, source, primes)]}: the generator's default width (registry, the set's stream
    engine at the default lanes) and the best design's, with the limb count L and the primes the
    generator chose; one registry call."""
    probe = {s: f"polymul_{s[0]}_{s[1]}_s{min(DEFAULT_LANES, s[0] // 2)}" for s in sets}
    got = registry.describe_many(list(probe.values()) + [best[s] for s in sets if s in best])
    out = {}
    for s in sets:
        rows = []
        for name, source in ((probe[s], "default"), (best.get(s), "best")):
            e = got.get(name) if name else None
            if not e or "error" in e:
                continue
            p = e["params"]
            primes, how = [int(x) for x in p.get("primes", [])], ""
            if "limbs" not in p:  # a multi-pass engine whose primes are loaded at run time: the chain its bench loads
                from polymul.multipass_loaded import loaded_primes
                primes, how = list(loaded_primes(s[0], s[1], p["limb_bits"])), " (primes loaded at run time)"
            elif math.prod(primes) < 1 << s[1]:  # copies of a multi-pass engine of fewer limbs: the set's chain
                from polymul.multipass import stream_primes
                primes, how = list(stream_primes(s[0], s[1], p["limb_bits"])), f" (copies of {p['limbs']} limbs)"
            if all(r[0] != p["limb_bits"] for r in rows):
                rows.append((p["limb_bits"], len(primes), source if source == "default" else f"best: {name}{how}",
                             primes))
        out[s] = rows
    return out


def set_rows(counter: Counter, widths: dict, params: dict) -> list:
    """One dict per (set, width, class): the count at (w, n), whether it serves the set with L limbs,
    the limbs it would need, the largest n it serves with L limbs."""
    rows = []
    for (n, logq), ws in widths.items():
        for w, limbs, source, primes in ws:
            for cls in CLASSES:
                c = count(counter, cls, w, n, params)
                if c["primes"] is None:
                    rows.append({"n": n, "logq": logq, "w": w, "limbs": limbs, "source": source, "class": cls,
                                 **c, "serves": None, "limbs_from_class": None, "largest_n": None,
                                 "generator_primes": primes})
                    continue
                got = largest(counter, cls, w, n, params, limbs + 2)
                rows.append({"n": n, "logq": logq, "w": w, "limbs": limbs, "source": source, "class": cls, **c,
                             "serves": serves(counter, cls, w, n, logq, limbs, params),
                             "limbs_from_class": limbs_needed(got, logq),
                             "largest_n": largest_n(counter, cls, w, logq, limbs, params),
                             "generator_primes": primes, "class_primes": got[:limbs]})
    return rows


# ---------------------------------------------------------------- the grid

def grid(counter: Counter, params: dict, widths=WIDTHS, ns=GRID_N) -> dict:
    """{(cls, w, n): count dict} at the classes' main h / omega."""
    return {(cls, w, n): count(counter, cls, w, n, params) for cls in CLASSES for w in widths for n in ns}


def per_h(counter: Counter, params: dict, widths=WIDTHS, ns=GRID_N) -> dict:
    """{(cls, w, n, h): count} of the Proth classes at the designs' h values that fit w (and h = floor(w/2),
    the grid's), and of wlm at the designs' omega values."""
    out = {}
    for w in widths:
        for cls in CLASSES[1:]:
            vals = params["omega"] if cls == "wlm" else sorted(set(params["h"]) | {w // 2})
            for hv in vals:
                if class_h(cls, w, params, hv) is None:
                    continue
                for n in ns:
                    out[(cls, w, n, hv)] = count(counter, cls, w, n, params, hv)
    return out


def cell(c: dict) -> str:
    """A count as the tables show it: exact with thousands separators, an estimate as ~m.me+E, n/a."""
    v = c["primes"]
    if v is None:
        return "n/a"
    if c["exact"]:
        return f"{v:,}"
    mant, exp = f"{v:.1e}".split("e")
    return f"~{mant}e{int(exp)}"


def estimate_error(counter: Counter, floor: int = 1000) -> tuple:
    """(cells, max relative error) of the estimate against the exact counts with >= floor primes."""
    errs = [abs(proth.estimate_ntt_primes(w, n) - c) / c for (w, n), (c, exact) in counter.memo.items()
            if exact and c >= floor]
    return len(errs), max(errs) if errs else None


# ---------------------------------------------------------------- the report

TITLES = {
    "any": ("any NTT-friendly prime", "BarrettOpt, Shoup (the engine today); WLM with omega <= log2(2n)",
            "q = 1 (mod 2n)"),
    "wlm": ("WLM, omega = {omega}", "WLM (`wlm_<k>_w<omega>`)", "also q = 1 (mod 2^omega), omega <= w - 2"),
    "proth_wlmm": ("Proth, h = min(floor(w/2), {gb})", "WLM-Mixed (`wlmm_<k>_h<h>`, tile GA x GB, h <= GB = {gb})",
                   "q = q_h 2^(w-h) + 1, q_h < 2^h"),
    "proth_k2red": ("Proth, h = floor(w/2)", "K²RED (`k2red_<k>_h<h>`, h <= k/2)", "q = q_h 2^(w-h) + 1, q_h < 2^h"),
    "proth2l": ("Proth-2l, h = floor(w/2)", "Montgomery-Shift, K²RED-Shift (`monts`/`k2reds_<k>_h<h>_2l`)",
                "q = 2^(w-1) + (2^l1 - 2^l2) 2^(w-h) + 1, 0 <= l2 <= l1 < h - 1"),
    "proth3l": ("Proth-3l, h = floor(w/2)", "Montgomery-Shift, K²RED-Shift (`..._3l`)",
                "q = 2^(w-1) + (2^l1 - 2^l2 + 2^l3) 2^(w-h) + 1, also 0 <= l3 < h - 1"),
}


SHORT = {"any": "any", "wlm": "WLM ω={omega}", "proth_wlmm": "Proth (WLM-Mixed)", "proth_k2red": "Proth (K²RED)",
         "proth2l": "Proth-2l", "proth3l": "Proth-3l"}


def title(cls: str, params: dict, which: int = 0) -> str:
    """The class's title (0), methods (1), condition (2) or short name (3)."""
    text = SHORT[cls] if which == 3 else TITLES[cls][which]
    return text.format(omega=max(params["omega"]), gb=max(params["gb"]))


def set_cell(r: dict) -> str:
    if r["primes"] is None:
        return "n/a"
    verdict = "**yes**" if r["serves"] else "no"
    ln = f"n ≤ {r['largest_n']:,}" if r["largest_n"] else "no n"
    extra = ""
    if not r["serves"] and r["limbs_from_class"] and r["limbs_from_class"] > r["limbs"]:
        extra = f"; {r['limbs_from_class']} limbs would do"
    return f"{verdict}: {cell(r)} ({ln}{extra})"


def widths_told(primes: list) -> str:
    """"33 of 25 bits, 4 of 24 bits": how many primes of each width, widest first."""
    bits = [q.bit_length() for q in primes]
    return ", ".join(f"{bits.count(b)} of {b} bits" for b in sorted(set(bits), reverse=True))


def findings(rows: list, params: dict) -> list:
    """Sentences computed from the set rows."""
    out = []
    for (n, logq, w) in dict.fromkeys((r["n"], r["logq"], r["w"]) for r in rows):
        rs = [r for r in rows if (r["n"], r["logq"], r["w"]) == (n, logq, w)]
        yes = [title(r["class"], params, 3) for r in rs if r["serves"] and r["class"] != "any"]
        no = [title(r["class"], params, 3) + (f" (with {r['limbs_from_class']} limbs it would)"
                                              if r["limbs_from_class"] and r["limbs_from_class"] > r["limbs"] else "")
              for r in rs if r["serves"] is False]
        na = [title(r["class"], params, 3) for r in rs if r["primes"] is None]
        L = rs[0]["limbs"]
        by_any = any(r["serves"] for r in rs if r["class"] == "any")
        served = (f"served by {', '.join(yes)} besides any" if yes and by_any else
                  f"served by {', '.join(yes)}" if yes else "served by no class but any" if by_any else
                  f"served by no class with {L} primes of exactly {w} bits (the chain takes narrower ones too)")
        out.append(f"({n}, {logq}) at w = {w} ({rs[0]['source']}), L = {L}: " + served
                   + (f"; not by {', '.join(no)}" if no else "; every class with a design at w serves it")
                   + (f"; no design at w: {', '.join(na)}" if na else "") + ".")
    return out


def build(cap_log2: int = CAP_LOG2, params: dict = None, widths: dict = None, grid_widths=WIDTHS, grid_ns=GRID_N):
    """Everything the report shows: {"params", "grid", "per_h", "sets", "counter", "estimate"}."""
    params = params or design_params()
    counter = Counter(cap_log2)
    g = grid(counter, params, grid_widths, grid_ns)
    ph = per_h(counter, params, grid_widths, grid_ns)
    sets = engine_sets() if widths is None else list(widths)
    widths = widths if widths is not None else engine_widths(sets, best_designs())
    rows = set_rows(counter, widths, params)
    return {"params": params, "grid": g, "per_h": ph, "sets": rows, "counter": counter,
            "estimate": estimate_error(counter), "cap_log2": cap_log2}


def csv_rows(data: dict) -> list:
    out = []
    for r in data["sets"]:
        out.append({"section": "set", "n": r["n"], "logq": r["logq"], "w": r["w"], "limbs": r["limbs"],
                    "width_source": r["source"], "class": r["class"], "h": r["h"] if r["class"] != "wlm" else None,
                    "omega": r["h"] if r["class"] == "wlm" else None, "primes": _num(r), "exact": r["exact"],
                    "candidates": r["candidates"], "serves": r["serves"], "limbs_from_class": r["limbs_from_class"],
                    "largest_n": r["largest_n"]})
    # the tables' figures, then the other h values of the designs (per_h less the tables' own h)
    cells = {(cls, w, n, c["h"]): c for (cls, w, n), c in data["grid"].items()}
    cells.update({k: c for k, c in data["per_h"].items() if k not in cells})
    lines = {}
    for (cls, w, n, hv), c in cells.items():
        lines.setdefault((CLASSES.index(cls), w, hv or 0, cls, hv), {})[n] = c
    for (_, w, _, cls, hv), by_n in sorted(lines.items(), key=lambda kv: kv[0][:3]):
        if all(c["primes"] is None for c in by_n.values()):
            continue  # no design of the class at w: the tables say n/a
        exact_n = [n for n, c in by_n.items() if c["exact"]]
        row = {"section": "grid", "class": cls, "h": hv if cls != "wlm" else None, "omega": hv if cls == "wlm" else None,
               "w": w, "exact_from_n": min(exact_n) if exact_n and len(exact_n) < len(by_n) else None}
        if not exact_n:
            row["exact_from_n"] = "none"
        row.update({f"n_{n}": _num(c) for n, c in sorted(by_n.items())})
        out.append(row)
    return out


def _num(c: dict):
    v = c["primes"]
    return v if v is None or c["exact"] else f"{v:.2e}"


def markdown(data: dict, seconds: float, command: str) -> list:
    params, cap = data["params"], data["cap_log2"]
    n_est, err = data["estimate"]
    L = ["# Prime classes for the streaming RNS polymul engine's limbs (issue 27)", "",
         f"{generated_by(__file__)}; do not edit. Command: `{command}`. Python {platform.python_version()}, "
         f"C counter tools/proth_count.c built with {compiler_version()}. Written {utc_now()} in {seconds:.1f} s "
         f"({data['counter'].seconds:.1f} s of counting). docs/polymul.md, \"Prime classes\", says what it means for the engine.", "",
         "## What is counted", "",
         "A limb of the engine is a prime q = 1 (mod 2n) of exactly w bits, 2^(w-1) < q < 2^w "
         "(hw/src/main/scala/modforge/polymul/StreamPrimes.scala). Each class below is a reduction method's modulus "
         "class (docs/reduction.md) intersected with that; a cell is the number of such primes at (w, n). "
         f"The reduction designs' parameters are the registry's (build/designs.json's reduction_table): WLM's omega "
         f"{', '.join(map(str, params['omega']))}, WLM-Mixed's GB {', '.join(map(str, params['gb']))}, the h values "
         f"{', '.join(map(str, params['h']))}.", ""]
    L += md_head("class", "short name", "reduction methods", "modulus condition (besides q = 1 mod 2n, w bits)")
    for cls in CLASSES:
        L.append(f"| {title(cls, params)} | {title(cls, params, 3)} | {title(cls, params, 1)} | {title(cls, params, 2)} |")
    L += ["",
          "* Exact counts: the prime toolkit (verif/primetools/proth.py): `count_ntt_primes(w, n')` on the C counter "
          "(a sieve, then Miller-Rabin with the bases 2..37, deterministic for 64-bit q) for the classes that are a "
          "power-of-two congruence (a Proth prime of class (w, h) is 1 mod 2n exactly when it is 1 mod 2n', "
          "n' = max(n, 2^(w-h-1)): `proth_ntt_n`), `proth_l_primes(w, h, kind)` for Proth-2l/3l, keeping the primes "
          "with 2n | q - 1.",
          f"* An estimate, marked **~**, where a count would test more than 2^{cap} candidates q: the prime number "
          "theorem for primes in a progression, (li(2^w) - li(2^(w-1))) / phi(2n'), phi(2n') = n' "
          "(`estimate_ntt_primes`). "
          + (f"Against the {n_est} exact counts of this report with at least 1,000 primes it is off by at most "
             f"{100 * err:.2f}%." if err is not None else "No exact count of 1,000 primes or more to check it against."),
          "* The classes nest: every Proth, Proth-2l or Proth-3l prime of class (w, h) is one of class (w, h + 1) "
          "(q_h 2^(w-h) = 2 q_h 2^(w-h-1); l1, l2, l3 each + 1), so the count at h = floor(w/2), the largest h a "
          "design allows, holds those of every smaller h. reports/polymul_primes.csv has every figure of this report: "
          "section `set`, a row per (set, width, class); section `grid`, a row per (class, h or omega, w) with the "
          "count at each n in n_<n> (an estimate in e-notation, at n below exact_from_n), the tables' h and also "
          "the designs' h values that fit w.",
          "* WLM with omega <= log2(2n) accepts every NTT-friendly prime: its count is the `any` column.", ""]

    # the sets
    rows = data["sets"]
    L += ["## The engine's sets", "",
          "Per set and limb width (the generator's default, and the set's best design in reports/polymul_best.csv "
          "where it has another width; L = the limbs the generator chose there, from the registry), per class: "
          "**yes** when the class has L primes of w bits with 2n | q - 1 whose product (the L largest) is at least "
          "2^log q, i.e. it could supply every limb; then the count at (w, n) and the largest n (16 to 32,768) it "
          "serves with L limbs of w bits. \"k limbs would do\": the class serves the set with k > L limbs.", ""]
    L += md_head("n", "log q", "w", "L", *[title(c, params, 3) for c in CLASSES])
    for key in dict.fromkeys((r["n"], r["logq"], r["w"]) for r in rows):
        rs = {r["class"]: r for r in rows if (r["n"], r["logq"], r["w"]) == key}
        r0 = rs[CLASSES[0]]
        L.append(f"| {key[0]} | {key[1]} | {key[2]} ({r0['source']}) | {r0['limbs']} | "
                 + " | ".join(set_cell(rs[c]) for c in CLASSES) + " |")
    L.append("")
    chains = [r for r in rows if r["class"] == "any" and r["generator_primes"]]
    # A run-time-primes engine's chain may take narrower primes than w (loaded_primes): not the class's L largest
    # w-bit primes by design, so it is named rather than compared.
    mixed = [r for r in chains if min(q.bit_length() for q in r["generator_primes"]) < r["w"]]
    checked = [r for r in chains if r not in mixed]
    same = [r for r in checked if r["class_primes"] == r["generator_primes"]]
    L += [f"Check: at {len(same)} of {len(checked)} (set, width) rows the `any` class's L largest primes, computed here, "
          "are the primes the generator chose (the registry's `primes`; for copies of an engine of fewer limbs, and "
          "for an engine whose primes are loaded at run time, the set's chain its bench loads)."
          + ("" if len(same) == len(checked) else " **Mismatch** at: " + ", ".join(
              f"({r['n']}, {r['logq']}, w = {r['w']})" for r in checked if r not in same) + ".")
          + ("" if not mixed else " Not compared, their chains taking narrower primes too: " + ", ".join(
              f"({r['n']}, {r['logq']}, w = {r['w']}: {widths_told(r['generator_primes'])})" for r in mixed) + "."), ""]
    L += ["Per row:", "", *[f"* {s}" for s in findings(rows, params)], ""]

    # the grid
    L += ["## Counts per class (rows: limb width w; columns: n)", "",
          "Each cell: the number of primes q of exactly w bits with 2n | q - 1 in the class; ~ marks an estimate, "
          "n/a a class with no design at that w.", ""]
    g = data["grid"]
    ws = sorted({w for (_, w, _) in g})
    ns = sorted({n for (_, _, n) in g})
    for cls in CLASSES:
        L += [f"### {title(cls, params)}: {title(cls, params, 1)}", ""]
        L += md_head("w", *[f"n = {n}" for n in ns])
        for w in ws:
            L.append(f"| {w} | " + " | ".join(cell(g[(cls, w, n)]) for n in ns) + " |")
        L.append("")
    return L


def write_reports(data: dict, seconds: float, command: str):
    write_csv(f"{NAME}.csv", csv_rows(data), CSV_FIELDS)
    write_md(f"{NAME}.md", markdown(data, seconds, command))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cap-log2", type=int, default=CAP_LOG2,
                    help=f"count exactly up to 2^CAP candidates per cell, estimate above (default {CAP_LOG2})")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        data = build(a.cap_log2)
    except NativeToolError as e:
        sys.exit(f"polymul-primes: error: the C counter failed: {e}")
    command = common.script(__file__) + ("" if a.cap_log2 == CAP_LOG2 else f" --cap-log2 {a.cap_log2}")
    write_reports(data, time.perf_counter() - t0, command)
    print(f"polymul-primes: wrote reports/{NAME}.md and reports/{NAME}.csv in {time.perf_counter() - t0:.1f} s",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
