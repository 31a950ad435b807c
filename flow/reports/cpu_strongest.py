#!/usr/bin/env python3
"""The strongest CPU figure measured per Table I set and library (issue 40, part 5): the committed
store data/baselines/cpu_strongest.json, which `make sw-baseline` merges each run into and
flow/reports/polymul_best.py compares the engines with.

    flow/reports/cpu_strongest.py [--results build/sw_baseline/results.json] [--store PATH]
                                  [--dry-run] [--this-machine]

Why a store: the baselines are timed on whatever machine runs `make sw-baseline`, and our machines
differ in vector extensions (tfhe-ntt is 3-9x slower on a core with AVX2 only than with AVX-512
IFMA). build/sw_baseline/results.json is this machine's last run; the store keeps the strongest
figure any machine measured, so a report regenerated on a weaker machine does not flatter the
hardware.

The merge rule (merge): per set and library, a stored entry is replaced only by a strictly faster
figure, the smaller minimum of the full product (full_min_us: coefficients to coefficients, the
figure the ratios use), whatever the CPU, date or library version. A slower or equal figure, or a
library absent from the run, keeps the stored entry; each decision is one line of output ("new",
"replaced", "kept"). Only checked figures are stored (status "ok", check passed). The store is
written atomically and only when an entry changed; an error leaves it as it was.

Each stored entry is the library's entry of results.json (version, api, moduli, reps, min and median,
pre-transformed figures, tfhe-ntt's prime sizes and use_ifma, the check) plus where it was measured:
date, cpu_model, cpu_extensions ("AVX-512 IFMA", "AVX-512F", "AVX2" or "none"), cpu_vector_flags,
load_average (at the set's start), pinned_cpu, kernel and the run's repetitions, budget and seed.

Without --results this CLI seeds the store from build/sw_baseline/results.json (make sw-baseline
does the same after every run). A results.json written before the CPU's extensions were recorded is
refused; --this-machine takes them from this machine's /proc/cpuinfo when its CPU model is the one
the file names (the entry then says so).
"""
import argparse
import copy
import json
import math
import sys
from pathlib import Path

from layout import BUILD, ROOT
from reports.common import cpu_identity, write_json_atomic

STORE = ROOT / "data" / "baselines" / "cpu_strongest.json"
RESULTS = BUILD / "sw_baseline" / "results.json"
SCHEMA = 1
LIBRARY_KEYS = ("ntl", "flint2", "flint3", "tfhe_ntt")  # sw_baseline's order
LIBRARY_NAMES = {"ntl": "NTL", "flint2": "FLINT 2.9", "flint3": "FLINT 3", "tfhe_ntt": "tfhe-ntt"}
FIGURE = "full_min_us"
RULE = (f"per Table I set and library, an entry is replaced only by a strictly smaller {FIGURE} (the full "
        f"product's minimum, one core), whatever the CPU, date or version; only checked figures are stored")
ABOUT = ("The strongest CPU figure measured per Table I set and library for the negacyclic product, merged by "
         "`make sw-baseline` (flow/reports/cpu_strongest.py; docs/polymul_baselines.md). Written by the merge: never "
         "type a figure here; edit by hand only to retire an entry, in a commit that says why.")
FIX_RESTORE = "restore it with `git checkout -- data/baselines/cpu_strongest.json`"


class StoreError(RuntimeError):
    """The store or the results cannot be read or merged; nothing was written."""


def set_key(n: int, logq: int) -> str:
    return f"{n}_{logq}"


def shown(path: Path = None) -> str:
    """The store's path as a report names it: relative to the repository when inside it."""
    path = Path(path or STORE)
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def empty() -> dict:
    return {"schema": SCHEMA, "about": ABOUT, "rule": RULE, "sets": {}}


def load(path: Path = None) -> dict:
    """The store at path (default STORE); an empty one when the file does not exist."""
    path = Path(path or STORE)
    if not path.exists():
        return empty()
    try:
        store = json.loads(path.read_text())
    except ValueError as e:
        raise StoreError(f"{path} is not valid JSON ({e}): {FIX_RESTORE}") from None
    if not isinstance(store, dict) or store.get("schema") != SCHEMA or not isinstance(store.get("sets"), dict):
        raise StoreError(f"{path} is not a CPU baseline store of schema {SCHEMA} (no \"schema\": {SCHEMA} or no "
                         f"\"sets\"): {FIX_RESTORE}")
    return store


def entry(store: dict, n: int, logq: int, library: str):
    """The stored entry of a library at a set, or None (never measured: absent)."""
    return (((store or {}).get("sets") or {}).get(set_key(n, logq)) or {}).get("libraries", {}).get(library)


def describe(e: dict) -> str:
    """'2.201 µs (AVX-512 IFMA, AMD EPYC, 2026-11-28)': a stored or candidate entry in one phrase."""
    return f"{e[FIGURE]:,.3f} µs ({e['cpu_extensions']}, {e['cpu_model']}, {str(e['date'])[:10]})"


# ---- the candidates of one run ----

def _assumed_cpu(results: dict) -> dict:
    """The CPU of a results.json that predates the extension record, taken from this machine
    (--this-machine): refused unless this machine's CPU model is the one the file names."""
    here = cpu_identity()
    named = (results.get("environment") or {}).get("cpu_model")
    if named != here["cpu_model"]:
        raise StoreError(f"--this-machine: results.json was measured on {named!r}, this machine is "
                         f"{here['cpu_model']!r}; rerun make sw-baseline on the machine that measured it")
    return {**here, "cpu_extensions_source": "this machine's /proc/cpuinfo when merged (results.json predates the "
                                             "extension record; --this-machine)"}


def candidates(results: dict, this_machine: bool = False) -> list:
    """[(set key, n, logq, library, entry to store or None, why not)] of a results.json: each
    library entry with its provenance, or None and the reason (absent, not built, ...)."""
    if not isinstance(results, dict) or not isinstance(results.get("sets"), list):
        raise StoreError("the results have no \"sets\" list: not a build/sw_baseline/results.json")
    env = results.get("environment") or {}
    assumed = None
    out = []
    for row in results["sets"]:
        key = set_key(row["n"], row["logq"])
        for lib in LIBRARY_KEYS:
            e = (row.get("libraries") or {}).get(lib)
            if not e or e.get("status") != "ok":
                why = "not in this run" if not e else e.get("status", "no status") + (
                    f" ({e['reason']})" if e.get("reason") else "")
                out.append((key, row["n"], row["logq"], lib, None, why))
                continue
            fig = e.get(FIGURE)
            if not isinstance(fig, (int, float)) or not math.isfinite(fig) or fig <= 0:
                raise StoreError(f"{key} {LIBRARY_NAMES[lib]}: {FIGURE} is {fig!r}, not a positive figure")
            if not (e.get("check") or {}).get("passed"):
                raise StoreError(f"{key} {LIBRARY_NAMES[lib]}: the entry has no passing check; an unchecked "
                                 f"figure is never stored (rerun make sw-baseline)")
            cpu = {k: e.get(k) or env.get(k) for k in ("cpu_model", "cpu_extensions", "cpu_vector_flags")}
            if not cpu["cpu_extensions"]:
                if not this_machine:
                    raise StoreError(f"{key} {LIBRARY_NAMES[lib]}: the results do not record the CPU's vector "
                                     f"extensions (written before they were recorded). Fix: rerun make sw-baseline, "
                                     f"or, if this machine measured them, flow/reports/cpu_strongest.py --this-machine")
                assumed = assumed or _assumed_cpu(results)
                cpu = dict(assumed)
            stored = copy.deepcopy(e)
            stored.update({"set": key, "n": row["n"], "logq": row["logq"], **cpu,
                           "date": env.get("date"), "load_average": row.get("load_average"),
                           "pinned_cpu": env.get("pinned_cpu"), "kernel": env.get("kernel"),
                           "run": {k: results.get(k) for k in ("reps", "kernel_reps", "budget_s", "seed")}})
            out.append((key, row["n"], row["logq"], lib, stored, None))
    return out


# ---- the rule ----

def stronger(new: dict, old: dict) -> bool:
    """The merge rule: new replaces old only when its figure is strictly smaller (faster)."""
    return old is None or new[FIGURE] < old[FIGURE]


def merge(store: dict, results: dict, this_machine: bool = False) -> tuple:
    """(the merged store, decisions): one decision per set and library of the run, {"set", "library",
    "action": "new" | "replaced" | "kept" | "none", "line"}. The input store is not modified."""
    out = copy.deepcopy(store)
    decisions = []
    for key, n, logq, lib, new, why in candidates(results, this_machine):
        old = entry(out, n, logq, lib)
        name = f"{key} {LIBRARY_NAMES[lib]}"
        if new is None:
            action, line = ("kept", f"kept {describe(old)}; this run: {why}") if old else \
                ("none", f"none stored; this run: {why}")
        elif stronger(new, old):
            out["sets"].setdefault(key, {"n": n, "logq": logq, "libraries": {}})["libraries"][lib] = new
            action, line = ("replaced", f"replaced {describe(old)} by this run's {describe(new)}") if old else \
                ("new", f"new, {describe(new)}")
        else:
            action, line = "kept", f"kept {describe(old)}; this run's {describe(new)} is not faster"
        decisions.append({"set": key, "library": lib, "action": action, "line": f"{name}: {line}"})
    # a stable file: sets by (n, log q), libraries in sw_baseline's order
    out["sets"] = {k: {**s, "libraries": {lib: s["libraries"][lib] for lib in LIBRARY_KEYS if lib in s["libraries"]}}
                   for k, s in sorted(out["sets"].items(), key=lambda kv: (kv[1]["n"], kv[1]["logq"]))}
    out.update(schema=SCHEMA, about=ABOUT, rule=RULE)
    return out, decisions


def merge_file(results: dict, path: Path = None, this_machine: bool = False, dry_run: bool = False) -> list:
    """Merges results into the store at path (default STORE), written atomically only when an entry
    is new or replaced and not dry_run; the decision lines and a closing summary line."""
    path = Path(path or STORE)
    merged, decisions = merge(load(path), results, this_machine)
    count = {w: sum(d["action"] == w for d in decisions) for w in ("new", "replaced", "kept")}
    changed = count["new"] + count["replaced"] > 0
    if changed and not dry_run:
        write_json_atomic(path, merged)
    state = "written" if changed and not dry_run else "would be written (--dry-run)" if changed else "unchanged"
    return [d["line"] for d in decisions] + [
        f"{path}: {count['new']} new, {count['replaced']} replaced, {count['kept']} kept; {state}"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="flow/reports/cpu_strongest.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", type=Path, default=RESULTS, help=f"the run to merge (default {RESULTS})")
    ap.add_argument("--store", type=Path, default=STORE, help=f"the store (default {STORE})")
    ap.add_argument("--dry-run", action="store_true", help="print the decisions, write nothing")
    ap.add_argument("--this-machine", action="store_true",
                    help="a results.json without the CPU's extensions was measured here: take them from this "
                         "machine's /proc/cpuinfo (refused when the CPU model differs)")
    a = ap.parse_args(argv)
    if not a.results.exists():
        print(f"cpu_strongest: {a.results} does not exist: run make sw-baseline (it merges its results into "
              f"the store itself)", file=sys.stderr)
        return 1
    try:
        results = json.loads(a.results.read_text())
        for line in merge_file(results, a.store, a.this_machine, a.dry_run):
            print(f"cpu store: {line}")
    except ValueError as e:
        print(f"cpu_strongest: {a.results} is not valid JSON ({e}): rerun make sw-baseline", file=sys.stderr)
        return 1
    except StoreError as e:
        print(f"cpu_strongest: {e}; the store is unchanged", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
