#!/usr/bin/env python3
"""Design-space exploration of the modular multipliers (docs/modmul.md, "Design-space exploration").

    flow/dse.py [--family barrett,shoup,gshoup] [--k 32,64] [-j N] [--scheduler ADDR | --local-cluster N]
                [--rerun] [--report-only]
    flow/dse.py --family reduction [--k 64 | --designs monts_64_h17_2l_rb,...] [-j N] [--plan] ...

For each family and width it starts from the paper-faithful design (`<family>_<k>`) and sweeps
the levers one at a time, keeping the best point of each sweep (coordinate descent on
throughput per area 1/(P*A), P the tt critical path, A the standard-cell area):
  1. synthesis recipe   (variant tokens drc, d<ps>, ns, at, fa1: flow/synth.py SynthOptions)
  2. product architecture (m<arch>: modforge.arith.MulArch)
  3. pipeline registers (p<mask>: the paper's, then registers between and inside the products)
  4. truncated quotient products (t<c>: the largest c that keeps the paper's corrections)
  5. the synthesis recipe again on the result (adder cells fa1/fa2 on the explicit trees)
Every point is a registry design `<family>_<k>__<tokens>`, built by `make harden DESIGN=...` like
any other. Each synthesis + STA is an independent job: -j N local processes (default: the number
of cores), or a Dask cluster (--scheduler tcp://host:8786; the workers must see this repository
at the same path), or a local Dask cluster of N workers (--local-cluster N). Resumable: a point
whose RTL and flow are unchanged since its last result is not rerun (as `make reports`).

Writes reports/dse.md, reports/dse.csv and reports/dse_<k>.png (area against critical path, the
paper-faithful point marked). A point that fails is reported as failed; earlier results stay.

`--family reduction` (docs/reduction.md, "Design-space exploration") runs the same descent on the
reduction family's table designs at the widths given (build/designs.json's "reduction_table"), or on
the designs named by --designs, from each design's paper recipe (the plain name): the levers the
registry accepts for them (REDUCTION_LEVERS). A candidate the registry refuses (today the pipeline
masks and truncations, which are the paper families' own) is not built: it is recorded as refused
with the registry's reason. Writes reports/dse_reduction.md and dse_reduction.csv (with each
design's modulus class and usable primes, as reports/reduction_table.md counts them); its steps are
kept in build/dse/history_reduction.json, apart from the paper families'. --plan prints the first
candidates of every step and the refusals without building anything.
"""
import argparse
import csv
import datetime
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

import layout
import registry  # what a design name means: the generator's answer
from harden import flow_sha256, rtl_sha256
from layout import BUILD
from pdk import CORNERS, ROOT, FlowError

REPORTS = ROOT / "reports"
FAMILIES = ("barrett", "shoup", "gshoup")
TITLES = {"barrett": "BarrettOpt", "shoup": "Shoup", "gshoup": "GShoup"}
DEFAULT_WIDTHS = (32, 64)

# Lever values, in sweep order. A value is a list of variant tokens; [] is the paper's choice.
# Each value is a candidate only if the registry accepts the name (refused ones are recorded, not built).
SYNTH = [[], ["drc"], ["drc", "ns"], ["drc", "at"], ["drc", "fa1"]]
ARCH = [[], ["mbdks"], ["mbdbk"], ["mbdhc"], ["madks"]]
# Pipeline masks (bit order: BarrettOptRegs/ShoupRegs/GShoupRegs.names). `explicit` ones put
# registers inside products and need an explicit architecture.
MASKS = {
    "barrett": {"yosys": ["p111100010", "p111100011"],
                "explicit": ["p111100100", "p111101100", "p111111100", "p111111110", "p111111111"]},
    "shoup": {"yosys": ["p111001"], "explicit": ["p11101", "p11111", "p111111"]},
    "gshoup": {"yosys": ["p1111110001"], "explicit": ["p111111001", "p111111111", "p1111111111"]},
}


# The reduction family (docs/reduction.md): the synthesis recipe and the product architecture of the
# paper families' sweep, minus what lost at 64 bits on every paper family there (ns, fa2: reports/dse.md,
# "Every point"), so that a 64-bit design costs 7 points. The pipeline masks and truncations are
# the paper families' own (their mask orders, their corrections): one probe each asks the registry,
# which refuses them for every reduction design today (a reduction design's registers are its name's
# preset, _ra/_rb); if it ever accepts one, the probe is measured like any other point.
REDUCTION_LEVERS = [("synth", [[], ["drc"]]), ("arch", ARCH), ("pipe", [["p1"]]), ("trunc", [["t1"]]),
                    ("synth", [["drc"], ["drc", "fa1"]])]


def truncation(family: str, k: int) -> list:
    """The largest truncation that keeps the paper's corrections (flow-independent; Truncation.scala)."""
    def dmax(c):
        return 0 if c == 0 else (c - 1) * 2 ** c + 1
    if family == "barrett":
        return [f"t{max(c for c in range(k + 2) if dmax(c) <= 2 ** k)}"]
    if family == "shoup":
        return [f"t{max(c for c in range(k + 1) if dmax(c) <= 2 ** (k - 1))}"]
    cr = max(c for c in range(k - 1) if 3 * dmax(c) <= 2 ** (k - 1))
    cq = max(c for c in range(k + 1) if 2 * dmax(cr) + dmax(c) <= 2 ** (k - 1))
    return [f"t{cr}q{cq}"]


def name(family: str, k: int, tokens: list) -> str:
    return variant(f"{family}_{k}", tokens)


def variant(base: str, tokens: list) -> str:
    """The registry name of `base` with variant tokens, in a canonical order (pipeline, truncation,
    architecture, synthesis)."""
    order = {"p": 0, "t": 1, "m": 2}
    toks = sorted(tokens, key=lambda t: order.get(t[0], 3))
    return base + ("__" + "_".join(toks) if toks else "")


def refusals(names: list) -> dict:
    """{name: the registry's reason} for the names the generator refuses (its message's first line)."""
    return {n: e["error"].splitlines()[0] for n, e in registry.describe_many(names).items() if "error" in e}


def replace(tokens: list, lever: str, values: list) -> list:
    """tokens with the lever's own tokens swapped for `values`."""
    def mine(t):
        if lever == "synth":
            return t in ("drc", "ns", "at", "fa1", "fa2", "nb") or (t[0] == "d" and t[1:].isdigit())
        return t[0] == {"arch": "m", "pipe": "p", "trunc": "t"}[lever] and t != "drc"
    return [t for t in tokens if not mine(t)] + values


# ---------------------------------------------------------------- running points

def result(design: str):
    p = layout.metrics(design)
    return json.loads(p.read_text()) if p.exists() else None


def up_to_date(design: str) -> bool:
    m = result(design)
    return bool(m and layout.rtl(design).exists()
                and m.get("rtl_sha256") == rtl_sha256(design) and m.get("flow_sha256") == flow_sha256())


def generator_sha256() -> str:
    """Hash of the generator's sources: the RTL of a design name is a function of them alone."""
    h = hashlib.sha256()
    for f in [ROOT / "build.sc", *sorted((ROOT / "hw" / "src" / "main").rglob("*"))]:
        if f.is_file():
            h.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def _stamp(design: str) -> Path:
    return layout.rtl_dir(design) / ".generator_sha256"


def generate(designs: list) -> list:
    """RTL of every point, one generator call (elaboration is seconds; unchanged RTL is identical).
    A point whose RTL was generated from the same generator sources is not regenerated (a stamp
    beside its Verilog), so rerunning a finished sweep only rewrites the reports.
    If the call fails, each point is generated alone; returns the points that could not be built."""
    src = generator_sha256()
    designs = [d for d in designs if not (layout.rtl(d).exists() and _stamp(d).exists()
                                          and _stamp(d).read_text() == src)]
    if not designs:
        return []

    def gen(ds):
        cmd = [str(ROOT / "mill"), "-i", "hw.runMain", "modforge.Generate", "--out", str(BUILD)] + ds
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if p.returncode == 0:
            for d in ds:
                _stamp(d).write_text(src)
        return p
    p = gen(designs)
    if p.returncode == 0:
        return []
    if len(designs) == 1:
        print(f"dse: {designs[0]}: cannot be generated: " + next((l for l in (p.stdout + p.stderr).splitlines() if l.startswith("error:")),
                                                              (p.stdout + p.stderr)[-500:]), flush=True)
        return designs
    return [d for d in designs if generate([d])]


def harden_job(design: str, root: str) -> dict:
    """One point: flow/harden.py in its own process. Runs locally or on a Dask worker."""
    t = time.monotonic()
    p = subprocess.run([sys.executable, str(Path(root) / "flow" / "harden.py"), design], capture_output=True, text=True)
    return {"design": design, "ok": p.returncode == 0, "wall_s": round(time.monotonic() - t, 1),
            "tail": (p.stdout + p.stderr)[-1500:]}


class Runner:
    """Runs points: local processes (-j) or a Dask cluster (--scheduler / --local-cluster)."""

    def __init__(self, jobs: int, scheduler: str = None, local_cluster: int = 0):
        self.jobs, self.client, self.cluster = jobs, None, None
        if scheduler or local_cluster:
            try:
                from dask.distributed import Client, LocalCluster
            except ImportError:
                raise FlowError("Dask is not installed in this environment. Fix: make setup (requirements.txt has dask[distributed])")
            if local_cluster:
                self.cluster = LocalCluster(n_workers=local_cluster, threads_per_worker=1, processes=True,
                                            dashboard_address=None)
                self.client = Client(self.cluster)
            else:
                self.client = Client(scheduler, timeout=30)
            print(f"dse: Dask cluster {self.client.scheduler.address}, {len(self.client.scheduler_info()['workers'])} workers", flush=True)

    def run(self, designs: list, rerun: bool) -> dict:
        todo = [d for d in designs if rerun or not up_to_date(d)]
        for d in designs:
            if d not in todo:
                print(f"dse: {d}: up to date ({result(d)['date']})", flush=True)
        out = {}
        if not todo:
            return out
        t0 = time.monotonic()
        if self.client:
            from dask.distributed import as_completed
            futures = self.client.map(harden_job, todo, root=str(ROOT), pure=False)
            done = (f.result() for f in as_completed(futures))
        else:
            from concurrent.futures import ThreadPoolExecutor, as_completed as done_as
            pool = ThreadPoolExecutor(max_workers=self.jobs)
            done = (f.result() for f in done_as([pool.submit(harden_job, d, str(ROOT)) for d in todo]))
        for i, r in enumerate(done, 1):
            out[r["design"]] = r
            m = result(r["design"]) if r["ok"] else None
            what = (f"{m['design__instance__area']:.0f} um2, {m['critical_path_ns']:.3f} ns" if m
                    else "FAILED: " + r["tail"].strip().splitlines()[-1] if r["tail"].strip() else "FAILED")
            print(f"dse: [{i}/{len(todo)} {time.monotonic() - t0:6.0f} s] {r['design']}: {what} ({r['wall_s']} s)", flush=True)
        return out

    def close(self):
        if self.client:
            self.client.close()
        if self.cluster:
            self.cluster.close()


def metrics_of(design: str):
    m = result(design)
    if not m or not up_to_date(design):
        return None
    a, p = m["design__instance__area"], m["critical_path_ns"]
    return {"design": design, "area_um2": a, "critical_path_ns": p, "latency": m["latency"],
            "tput_per_area": 1e6 / (p * a), "cells": m["design__instance__count"], "date": m["date"]}


# ---------------------------------------------------------------- the sweep

# Bare k x k products (mul_<k>), measured beside the peer generator vlsiffra (flow/vlsiffra.py).
PRODUCTS = [[], ["drc"], ["mbdks", "drc"], ["mbdhc", "drc"], ["mbdbk", "drc"], ["mbdks", "drc", "fa1"], ["mbdks", "fa1"]]
# From 128 bits on, Karatsuba (modforge.arith.MulArch) beside the flat builds: one and two levels.
KARATSUBA_FROM = 128
PRODUCTS_WIDE = [[], ["drc"], ["mbdhc", "drc"], ["mbdhck1", "drc"], ["mbdhck2", "drc"]]
# Above 128 bits (minutes per point): the flat tree against one Karatsuba level.
PRODUCTS_256 = [["mbdhc", "drc"], ["mbdhck1", "drc"]]


def products(k: int, runner: "Runner", rerun: bool, log: list):
    cands = [f"mul_{k}" + ("__" + "_".join(sorted(t, key=lambda x: {"m": 0}.get(x[0], 1))) if t else "")
             for t in (PRODUCTS if k < KARATSUBA_FROM else PRODUCTS_WIDE if k == KARATSUBA_FROM else PRODUCTS_256)]
    bad = generate(cands)
    runner.run([c for c in cands if c not in bad], rerun)
    log.append(f"mul_{k}: {len(cands)} product builds")
    print(f"dse: {log[-1]}", flush=True)


def product_section(ks) -> list:
    """Our product builds against vlsiffra's (build/vlsiffra/<config>/metrics.json from `make peer`)."""
    out = ["", "## Products against the peer generator vlsiffra", "",
           "A bare k x k -> 2k product between registers (latency 2), ours (`mul_<k>`, variants as above) and vlsiffra's",
           "(Booth radix-4, Dadda tree of sky130 fa/ha cells, prefix adder; `make peer`, flow/vlsiffra.py), both through",
           "the same synthesis and STA. vlsiffra instantiates every gate, so ABC maps none of its cells and none is",
           "buffered or resized (its own flow leaves that to OpenROAD's resizer after placement).", "",
           "| design | area (um2) | critical path (ns) | 1/(P*A) | vs the best vlsiffra |", "|---|---|---|---|---|"]
    for k in ks:
        peers = []
        for p in sorted((BUILD / "vlsiffra").glob(f"vlsiffra_{k}_*/metrics.json")):
            m = json.loads(p.read_text())
            area = m.get("area_um2") or m.get("design__instance__area")
            cp = m.get("critical_path_ns")
            if area and cp:
                peers.append((p.parent.name, area, cp))
        ours = []
        for p in sorted(BUILD.glob(f"mul_{k}*/harden/metrics.json")):
            n = p.parent.parent.name
            if n == f"mul_{k}" or n.startswith(f"mul_{k}__"):
                m = metrics_of(n)
                if m:
                    ours.append((n, m["area_um2"], m["critical_path_ns"]))
        best_peer = max((1e6 / (a * c) for _, a, c in peers), default=None)
        for n, a, c in sorted(ours, key=lambda x: x[1] * x[2]) + sorted(peers, key=lambda x: x[1] * x[2]):
            t = 1e6 / (a * c)
            out.append(f"| `{n}` | {a:.0f} | {c:.3f} | {t:.3f} | {'' if best_peer is None else f'{t / best_peer:.2f}x'} |")
        if not peers:
            out.append(f"| vlsiffra, k = {k} | not measured here: run `make peer` (needs a vlsiffra checkout, VLSIFFRA_DIR) | | | |")
    return out


def targets(family: str, k: int, runner: "Runner", rerun: bool, log: list):
    """The ABC delay target written into the script (d<ps>) on the paper-faithful RTL with the drc list:
    from far below reach to the period the design reaches (with &nf's area recovery) and beyond."""
    m = metrics_of(f"{family}_{k}__drc")
    reach = int(round(m["critical_path_ns"] * 1000, -2)) if m else 8000
    cands = [f"{family}_{k}__drc_d{ps}" for ps in (250, 1000, reach // 2, reach, 2 * reach)]
    bad = generate(cands)
    runner.run([c for c in cands if c not in bad], rerun)
    log.append(f"{family}_{k}: ABC targets {', '.join(c.rsplit('_d', 1)[1] for c in cands)} ps")
    print(f"dse: {log[-1]}", flush=True)


def target_section(points: dict) -> list:
    out = ["", "## The ABC delay target", "",
           "Yosys 0.70 does not substitute `{D}` in a `-script` file, so the paper-faithful recipe's target never reaches",
           "ABC (docs/flow.md, \"Synthesis options\"). Written into the script (`d<ps>`), on the paper-faithful RTL "
           "with the `drc`",
           "don't-use list; the last targets are the period the design reaches without a target (rounded) and twice it:", "",
           "| design | target (ps) | area (um2) | critical path (ns) | 1/(P*A) | vs no target (`__drc`) |", "|---|---|---|---|---|---|"]
    rows = 0
    for (fam, k), pts in sorted(points.items(), key=lambda x: (x[0][1], FAMILIES.index(x[0][0]))):
        base = pts.get(f"{fam}_{k}__drc")
        for n, m in sorted(pts.items()):
            if m and n.startswith(f"{fam}_{k}__drc_d") and n.rsplit("_d", 1)[1].isdigit():
                rows += 1
                rel = f"{m['tput_per_area'] / base['tput_per_area']:.2f}x" if base else ""
                out.append(f"| `{n}` | {n.rsplit('_d', 1)[1]} | {m['area_um2']:.0f} | {m['critical_path_ns']:.3f} | {m['tput_per_area']:.3f} | {rel} |")
    return out if rows else []


def transfer(family: str, k: int, k0: int, runner: Runner, rerun: bool, log: list):
    """The best few at a wide k: the paper-faithful design, and the best and the best same-latency
    configurations of the sweep at k0, with the truncation recomputed for k."""
    rows = [r for r in summary_rows(collect()) if r["family"] == family and r["k"] == k0 and r.get("default")]
    if not rows:
        raise FlowError(f"no sweep of {family} at k = {k0} to take candidates from. Fix: make dse FAMILY={family} K={k0}")
    cands = [f"{family}_{k}"]
    for which in ("best", "best_same_latency"):
        d = rows[0][which]["design"]
        toks = variant_tokens(d)
        toks = replace(toks, "trunc", truncation(family, k)) if any(t.startswith("t") for t in toks) else toks
        cands.append(name(family, k, toks))
    if k == KARATSUBA_FROM:
        # Karatsuba (one level) on the best's full products: measured, not assumed (reports/dse.md).
        # At 128 bits only: a 256-bit point costs about 8 minutes, and the bare products measure
        # one and two levels at both 128 and 256.
        toks = variant_tokens(cands[1])
        arch = next((t for t in toks if t.startswith("m")), None)
        if arch and re.fullmatch(r"m[ab][wd](rc|bk|ks|sk|hc)", arch):  # an explicit tree without Karatsuba
            cands.append(name(family, k, [t for t in toks if t != arch] + [arch + "k1"]))
    cands = list(dict.fromkeys(cands))
    bad = generate(cands)
    runner.run([c for c in cands if c not in bad], rerun)
    log.append(f"{family}_{k}: the best of k = {k0} carried over: {', '.join(cands[1:])}")
    print(f"dse: {log[-1]}", flush=True)


def sweep(family: str, k: int, runner: Runner, rerun: bool, log: list) -> dict:
    """Coordinate descent over the levers; returns {design: metrics} of every point it measured."""
    synth = SYNTH if k <= 32 else [v for v in SYNTH if "at" not in v and "fa1" not in v]  # no gain at 32 (reports/dse.md)

    def pipe(cur):
        explicit = any(t.startswith("m") for t in cur)
        return [[]] + [[m] for m in MASKS[family]["yosys"]] + ([[m] for m in MASKS[family]["explicit"]] if explicit else [])
    # A second round of the synthesis recipe on the final configuration: adder cells (fa1) lose on
    # Yosys's `*` but can win on an explicit tree (the products: reports/dse.md).
    levers = [("synth", synth), ("arch", ARCH), ("pipe", pipe), ("trunc", [[], *[[t] for t in truncation(family, k)]]),
              ("synth", [["drc"], ["drc", "fa1"], ["drc", "fa2"]])]
    return descend(name(family, k, []), levers, runner, rerun, log)


def step(base: str, cur: list, lever: str, values) -> tuple:
    """One lever step from the tokens `cur`: (the candidates the registry accepts, {refused: reason}).
    `values` is a list of token lists or a function of `cur` giving one."""
    values = values(cur) if callable(values) else values
    cands = list(dict.fromkeys(variant(base, replace(cur, lever, v)) for v in values))
    refused = refusals(cands)
    return [c for c in cands if c not in refused], refused


def descend(base: str, levers: list, runner: "Runner", rerun: bool, log: list, outcome: dict = None) -> dict:
    """Coordinate descent from `base` (its plain name: the paper's recipe) over `levers`, keeping the
    best point of each step; returns {design: metrics or None} of every point it measured.
    `outcome`, if given, receives {"refused": {name: reason}, "failed": [names]}."""
    seen, refused = {}, {}
    outcome = {} if outcome is None else outcome

    def measure(cands):
        cands = list(dict.fromkeys(c for c in cands if c not in seen))
        if cands:
            bad = generate(cands)
            runner.run([c for c in cands if c not in bad], rerun)
        for c in cands:
            seen[c] = metrics_of(c)

    def best(pool):
        ok = [seen[n] for n in pool if seen.get(n)]
        return max(ok, key=lambda m: m["tput_per_area"]) if ok else None

    cur = []
    measure([base])
    for lever, values in levers:
        cands, no = step(base, cur, lever, values)
        refused.update(no)
        measure(cands)
        b = best(cands + [variant(base, cur)])
        if b:
            cur = variant_tokens(b["design"])
        log.append(f"{base}: {lever}: {len(cands)} points, best {b['design'] if b else 'none'}"
                   + "".join(f"; refused `{n}`: {why}" for n, why in no.items()))
        print(f"dse: {log[-1]}", flush=True)
    outcome["refused"] = refused
    outcome["failed"] = [n for n, m in seen.items() if m is None]
    return seen


def reduction_designs(ks: list, named: list = None) -> list:
    """The reduction designs to sweep: the named ones, or the reduction table's designs at the widths
    ks (build/designs.json's "reduction_table", in its order)."""
    if named:
        bad = refusals(named)
        if bad:
            raise FlowError("; ".join(bad.values()))
        return list(dict.fromkeys(named))
    table = registry.index()["reduction_table"]
    entries = registry.describe_many(table)
    return [d for d in table if entries[d]["params"]["k"] in ks]


def plan_reduction(design: str) -> list:
    """The first candidates of each lever step from the design's paper recipe (later steps start from
    the best point found, so a run may propose others): [(lever, candidates, {refused: reason})]."""
    return [(lever, *step(design, [], lever, values)) for lever, values in REDUCTION_LEVERS]


def sweep_reduction(designs: list, runner: "Runner", rerun: bool, log: list) -> dict:
    """The descent on each reduction design; returns {design: {"refused": ..., "failed": ...}}."""
    out = {}
    for d in designs:
        out[d] = {}
        descend(d, REDUCTION_LEVERS, runner, rerun, log, out[d])
    return out


# ---------------------------------------------------------------- reports

def summary_rows(points: dict) -> list:
    rows = []
    for (family, k), pts in sorted(points.items(), key=lambda x: (FAMILIES.index(x[0][0]), x[0][1])):
        ok = [m for m in pts.values() if m]
        d = pts.get(f"{family}_{k}")
        if not d or not ok:
            rows.append({"family": family, "k": k, "default": None})
            continue
        b = max(ok, key=lambda m: m["tput_per_area"])
        same = [m for m in ok if m["latency"] == d["latency"]]
        bs = max(same, key=lambda m: m["tput_per_area"])
        rows.append({"family": family, "k": k, "default": d, "best": b, "best_same_latency": bs,
                     "ratio": b["tput_per_area"] / d["tput_per_area"],
                     "ratio_same_latency": bs["tput_per_area"] / d["tput_per_area"],
                     "points": len(ok), "failed": len(pts) - len(ok)})
    return rows


def write_reports(points: dict, log: list, wall_s: float, jobs: str):
    REPORTS.mkdir(exist_ok=True)
    rows = summary_rows(points)
    tools = next((result(m["design"])["tools"] for pts in points.values() for m in pts.values() if m), {})
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    def eff(m, k):
        return k * k / (m["critical_path_ns"] * m["area_um2"])
    lines = intro("Design-space exploration: throughput per area of the modular multipliers", "make dse",
                  "the paper-faithful design `<family>_<k>`") + [
        "| family | k | paper-faithful 1/(P*A) | best | 1/(P*A) | ratio | best at the same latency | ratio | goal (2x / 1.5x) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if not r.get("default"):
            lines.append(f"| {TITLES[r['family']]} | {r['k']} | not measured | | | | | | |")
            continue
        d, b, s = r["default"], r["best"], r["best_same_latency"]
        goal = []
        goal.append("met" if r["ratio"] >= 2 else f"missed by {2 / r['ratio']:.2f}x")
        goal.append("met" if r["ratio_same_latency"] >= 1.5 else f"missed by {1.5 / r['ratio_same_latency']:.2f}x")
        lines.append(f"| {TITLES[r['family']]} | {r['k']} | {d['tput_per_area']:.3f} (L{d['latency']}) | `{b['design']}` (L{b['latency']}) | "
                     f"{b['tput_per_area']:.3f} | **{r['ratio']:.2f}x** | `{s['design']}` | **{r['ratio_same_latency']:.2f}x** | {' / '.join(goal)} |")
    lines += ["", UNITS]
    # Efficiency with width
    by_fam = {}
    for r in rows:
        if r.get("default"):
            by_fam.setdefault(r["family"], {})[r["k"]] = r
    lines += ["", "## Efficiency with width", "",
              "S^2/(P*A) (bits^2 / (ns um2)), the paper's efficiency, of the paper-faithful and the best design:", "",
              "| family | " + " | ".join(f"k = {k}" for k in sorted({r['k'] for r in rows})) + " | loss from the smallest to the largest k |",
              "|---|" + "---|" * (len({r['k'] for r in rows}) + 1)]
    for fam, per in by_fam.items():
        ks = sorted(per)
        for which in ("default", "best"):
            vals = [eff(per[k][which], k) for k in ks]
            loss = vals[0] / vals[-1] if len(vals) > 1 else None
            verdict = ""
            if which == "best" and loss is not None:
                verdict = " (goal at most 1.5x: " + ("met" if loss <= 1.5 else f"missed by {loss / 1.5:.2f}x") + ")"
            lines.append(f"| {TITLES[fam]} {'paper-faithful' if which == 'default' else 'best'} | " +
                         " | ".join(f"{v:.5f}" for v in vals) + f" | {'n/a' if loss is None else f'{loss:.2f}x'}{verdict} |")
    lines += limit_section(by_fam, eff)
    groups = [({"family": family, "k": k}, pts, f"{family}_{k}")
              for (family, k), pts in sorted(points.items(), key=lambda x: (x[0][1], FAMILIES.index(x[0][0])))]
    table, csv_rows = every_point(groups, "vs paper-faithful")
    lines += table
    lines += target_section(points)
    lines += product_section(sorted({k for _, k in points}))
    history = merge_history(log, wall_s, jobs, date)
    lines += ["", "## The sweep", "", "Coordinate descent, one lever at a time from the paper-faithful design; at 128 and 256 bits the",
              "best few of k = 64 (flow/dse.py). The steps of the latest run of each family and width:", ""]
    lines += [f"- {l}" for subject in sorted(history["log"], key=subject_order) for l in history["log"][subject]]
    lines += run_time(point_times(points), history, tools, date)
    write_table("dse", lines, csv_rows, ["family", "k"])
    plot(points)
    print(f"dse: wrote {REPORTS / 'dse.md'}, dse.csv, dse_<k>.png", flush=True)


# ---------------------------------------------------------------- pieces of both reports

UNITS = "1/(P*A) is in Gops/(s mm2): 1e6 / (P in ns * A in um2)."
POINT_FIELDS = ["design", "latency", "area_um2", "critical_path_ns", "tput_per_area", "cells"]


def intro(title: str, command: str, baseline: str) -> list:
    """A report's title and what its figures are; ratios are against `baseline`."""
    return [
        f"# {title}",
        "",
        f"Generated by `{command}` (flow/dse.py); do not edit. Throughput per area = 1/(P*A) in Gops/(s mm2) at one",
        "operation per cycle; P = critical path at tt (OpenSTA), A = standard-cell area (pyosys 0.70, SKY130 hd),",
        "post-synthesis without parasitics, every point through `make harden` in this run's flow",
        f"(flow hash {flow_sha256()[:12]}). Ratios are against {baseline} of the same run.",
        "",
    ]


def every_point(groups: list, vs: str) -> tuple:
    """The "Every point" table and its CSV rows. groups: [(the CSV row's leading fields, {design:
    metrics or None}, the design the ratios are against)]; each group's points best first."""
    lines = ["", "## Every point", "", f"| design | latency | area (um2) | critical path (ns) | 1/(P*A) | {vs} |", "|---|---|---|---|---|---|"]
    csv_rows = []
    for lead, pts, base in groups:
        d = pts.get(base)
        for n, m in sorted(pts.items(), key=lambda x: -(x[1]["tput_per_area"] if x[1] else 0)):
            if not m:
                lines.append(f"| `{n}` | failed or not measured | | | | |")
                continue
            rel = m["tput_per_area"] / d["tput_per_area"] if d else None
            lines.append(f"| `{n}` | {m['latency']} | {m['area_um2']:.0f} | {m['critical_path_ns']:.3f} | {m['tput_per_area']:.3f} | "
                         f"{'' if rel is None else f'{rel:.2f}x'} |")
            csv_rows.append({**lead, **{x: m[x] for x in POINT_FIELDS}})
    return lines, csv_rows


def run_time(times: dict, history: dict, tools: dict, date: str) -> list:
    """The run-time section (times: point_times's {k: (points, seconds)}), the runs and the tools."""
    lines = ["", "## Run time", "",
             "Synthesis + STA time of the points in this report, from each point's own record (metrics.json `wall_s`),",
             f"and the wall time of a sweep from scratch at 2 jobs on {os.cpu_count()} cores ({platform.processor() or platform.machine()}),",
             "estimated as half of it (the points run two at a time; elaboration adds about a minute per lever step):", "",
             "| k | points | synthesis + STA (CPU min) | from scratch at -j 2 (min) |", "|---|---|---|---|"]
    for k, (n, cpu_s) in sorted(times.items()):
        lines.append(f"| {k} | {n} | {cpu_s / 60:.0f} | {cpu_s / 120:.0f} |")
    lines += ["", "Runs that wrote this report:", ""]
    lines += [f"- {r['date']}: {r['jobs']}, {r['wall_min']:.1f} min for the points not already up to date" for r in history["runs"][-8:]]
    lines += ["", "Tools: " + ", ".join(f"{k} {v}" for k, v in tools.items()) + f". Date: {date}."]
    return lines


def write_table(stem: str, lines: list, csv_rows: list, lead: list):
    """reports/<stem>.md and reports/<stem>.csv (the lead fields, then POINT_FIELDS)."""
    (REPORTS / f"{stem}.md").write_text("\n".join(lines) + "\n")
    with open(REPORTS / f"{stem}.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=lead + POINT_FIELDS)
        w.writeheader()
        w.writerows(csv_rows)


HISTORY = BUILD / "dse" / "history.json"
REDUCTION_HISTORY = BUILD / "dse" / "history_reduction.json"  # the reduction sweep's, apart from the paper families'


def lever_text(levers: list) -> list:
    """The levers as the report lists them: each step's token lists ("paper" for [])."""
    what = {"synth": "synthesis recipe", "arch": "product architecture", "pipe": "pipeline registers", "trunc": "truncation"}
    return [f"{i}. {what[lever]}: " + ", ".join(f"`{'_'.join(v)}`" if v else "paper" for v in values)
            for i, (lever, values) in enumerate(levers, 1)]


def collect_reduction(history: dict = None) -> dict:
    """{base design: {design: metrics or None}}: every up-to-date point in build/ of the reduction
    family's designs and their variants, for the designs swept (a variant measured, or steps in
    the history); a point the history records as failed is listed as failed."""
    history = history or {"log": {}}
    table = registry.index()["reduction_table"]
    fams = {e["family"] for e in registry.describe_many(table).values() if "error" not in e}
    names = [p.parent.parent.name for p in sorted(BUILD.glob("*/harden/metrics.json"))]
    groups = {}
    for n, e in registry.describe_many(names).items():
        if "error" in e or e["family"] not in fams or "alias_of" in e["params"]:
            continue
        if e["design"] == e["base"] or "variant" in e["params"]:
            groups.setdefault(e["base"], {})[n] = metrics_of(n)
    for base, o in history.get("outcomes", {}).items():
        for n in o.get("failed", []):
            groups.setdefault(base, {}).setdefault(n, None)
    return {b: pts for b, pts in groups.items() if len(pts) > 1 or b in history["log"]}


def reduction_rows(groups: dict) -> list:
    """Per design: its paper recipe, the best point and the ratio, by width, best first."""
    entries = registry.describe_many(list(groups))
    rows = []
    for base, pts in groups.items():
        e = entries[base]
        ok = [m for m in pts.values() if m]
        d, b = pts.get(base), max(ok, key=lambda m: m["tput_per_area"]) if ok else None
        rows.append({"design": base, "family": e["family"], "title": e["title"], "k": e["params"]["k"], "default": d,
                     "best": b, "ratio": b["tput_per_area"] / d["tput_per_area"] if d and b else None,
                     "points": len(ok), "failed": len(pts) - len(ok)})
    return sorted(rows, key=lambda r: (r["k"], -(r["best"]["tput_per_area"] if r["best"] else 0), r["design"]))


def write_reduction_reports(log: list, wall_s: float, jobs: str, outcomes: dict = None, record_run: bool = True):
    """reports/dse_reduction.md and .csv: the reduction family's sweep (its own history file; the
    run is recorded there if record_run and the log has steps)."""
    from reports import reduction_table  # modulus classes and prime counts, as in reduction_table.md
    REPORTS.mkdir(exist_ok=True)
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    history = merge_history(log, wall_s, jobs, date, REDUCTION_HISTORY, outcomes, record_run)
    groups = collect_reduction(history)
    rows = reduction_rows(groups)
    primes = {r["design"]: reduction_table.modulus_of(r["design"]) for r in rows}
    tools = next((result(m["design"])["tools"] for pts in groups.values() for m in pts.values() if m), {})
    lines = intro("Design-space exploration: the reduction family", "make dse FAMILY=reduction",
                  "each design's paper recipe (its plain name, as in `reduction_table.md`)")
    lines += ["Coordinate descent on 1/(P*A) from each design's paper recipe, one lever at a time, keeping the best point",
              "of each step; the levers in their order (flow/dse.py, REDUCTION_LEVERS):", "", *lever_text(REDUCTION_LEVERS), "",
              "A candidate the registry refuses is not built; it is listed below with the registry's reason. Modulus class",
              "and usable primes as in `reduction_table.md` (the prime toolkit; `~` marks an estimate).", "",
              "| k | design | method | modulus class | usable primes | paper recipe 1/(P*A) | best | 1/(P*A) | ratio | points (failed) |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        d, b = r["default"], r["best"]
        cls, count, _ = primes[r["design"]]
        paper = f"{d['tput_per_area']:.3f} (L{d['latency']})" if d else "not measured"
        best = (f"`{b['design']}` (L{b['latency']}) | {b['tput_per_area']:.3f}" if b else "none | ")
        ratio = f"**{r['ratio']:.2f}x**" if r["ratio"] is not None else ""
        lines.append(f"| {r['k']} | `{r['design']}` | {r['title']} | {cls} | {count} | {paper} | {best} | {ratio} | "
                     f"{r['points']} ({r['failed']}) |")
    lines += ["", UNITS]
    refused = {n: why for r in rows for n, why in history.get("outcomes", {}).get(r["design"], {}).get("refused", {}).items()}
    if refused:
        lines += ["", "## Refused by the registry", "", "| candidate | the registry's reason |", "|---|---|"]
        lines += [f"| `{n}` | {why.replace('|', '/')} |" for n, why in refused.items()]
    lead = {r["design"]: {"base": r["design"], "family": r["family"], "k": r["k"],
                          "modulus_class": primes[r["design"]][0], "usable_primes": primes[r["design"]][1]} for r in rows}
    table, csv_rows = every_point([(lead[r["design"]], groups[r["design"]], r["design"]) for r in rows], "vs paper recipe")
    lines += table
    lines += ["", "## The sweep", "", "The steps of the latest run of each design (flow/dse.py --family reduction):", ""]
    lines += [f"- {l}" for r in rows for l in history["log"].get(r["design"], [])]
    lines += run_time(point_times(groups, products=False), history, tools, date)
    write_table("dse_reduction", lines, csv_rows, ["base", "family", "k", "modulus_class", "usable_primes"])
    print(f"dse: wrote {REPORTS / 'dse_reduction.md'}, dse_reduction.csv", flush=True)


def limit_section(by_fam: dict, eff) -> list:
    """What limits the efficiency of the best designs at the widest k: their worst path's start,
    and, where flow/experiments/abc_input_drive.py has measured them, the figures with a driving
    cell for ABC's inputs (docs/modmul.md, "What limits the efficiency at wide k")."""
    out = ["", "### What limits it", "",
           "The worst path of each best design (tt), and where `flow/experiments/abc_input_drive.py` has run, the same",
           "design with a driving cell for ABC's primary inputs (flip-flop outputs) and `buffer -N 16 -p`",
           "(reports/abc_input_drive.md; not part of this flow, so not in the ratios above):", "",
           "| design | worst path | flip-flop output delay (ns) | P (ns) | with input drive: P (ns), A (um2) | S^2/(P*A) | loss from the smallest k |",
           "|---|---|---|---|---|---|---|"]
    rows = 0
    for fam, per in by_fam.items():
        ks = sorted(per)
        for k in ks:
            b = per[k]["best"]
            d = b["design"]
            m = result(d) or {}
            ends = m.get("critical_path_endpoints") or {}
            qd = flop_q_delay(d)
            x = BUILD / d / "experiments" / "abc_input_drive" / "result.json"
            xr = json.loads(x.read_text()) if x.exists() else None
            if xr and (xr.get("rtl_sha256") != m.get("rtl_sha256") or xr.get("flow_sha256") != m.get("flow_sha256")):
                xr = None
            if k != ks[-1] and not xr:
                continue
            rows += 1
            b0 = per[ks[0]]["best"]["design"]
            x0 = BUILD / b0 / "experiments" / "abc_input_drive" / "result.json"
            # The loss with the input drive is against the smallest k with the input drive too.
            e0 = (ks[0] ** 2 / (lambda r: r["critical_path_ns"] * r["area_um2"])(json.loads(x0.read_text()))
                  if x0.exists() else None)
            with_drive = f"{xr['critical_path_ns']:.3f}, {xr['area_um2']:.0f}" if xr else "not measured"
            e = k * k / (xr["critical_path_ns"] * xr["area_um2"]) if xr else None
            out.append(f"| `{d}` | {ends.get('start')} -> {ends.get('end')} | {'' if qd is None else f'{qd:.2f}'} | "
                       f"{b['critical_path_ns']:.3f} | {with_drive} | {'' if e is None else f'{e:.5f}'} | "
                       f"{'' if e is None or e0 is None else f'{e0 / e:.2f}x'} |")
    return out if rows else []


def flop_q_delay(design: str):
    """The delay of the worst path's first step (the launching flip-flop's clock-to-Q), from the tt STA log."""
    log = layout.harden_dir(design) / f"sta_{CORNERS[0]}.log"
    if not log.exists():
        return None
    for line in log.read_text().splitlines():
        if "/Q (sky130_fd_sc_hd__df" in line:
            try:
                return float(line.split()[0])
            except ValueError:
                return None
    return None


def variant_tokens(design: str) -> list:
    """A design's variant tokens as the registry gives them ([] for a plain design)."""
    return list(registry.describe(design)["params"].get("variant", []))


def subject_order(subject: str):
    """Sort key of a history subject (a design name: `<family>_<k>`): width, then family."""
    e = registry.describe_many([subject])[subject]
    if "error" in e:
        return (0, 9, subject)
    fam = e["family"]
    return (e["params"]["k"], (FAMILIES + ("mul",)).index(fam) if fam in FAMILIES + ("mul",) else 9, subject)


def merge_history(log: list, wall_s: float, jobs: str, date: str, path: Path = None, outcomes: dict = None,
                  record_run: bool = True) -> dict:
    """The sweep's steps, kept across runs: a run replaces the steps of the families and widths it
    swept, and keeps the others' (a run at 128/256 does not erase the 32/64 sweep's account).
    path: the history file (default HISTORY); outcomes: {subject: {"refused": ..., "failed": ...}}
    of this run, kept per subject under "outcomes" in the same way (the reduction sweep's)."""
    path = path or HISTORY
    h = json.loads(path.read_text()) if path.exists() else {"log": {}, "runs": []}
    fresh = {}
    for line in log:
        fresh.setdefault(line.split(":", 1)[0], []).append(line)
    h["log"].update(fresh)
    if outcomes:
        h.setdefault("outcomes", {}).update(outcomes)
    if log and record_run:
        h["runs"].append({"date": date, "jobs": jobs, "wall_min": wall_s / 60})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(h, indent=1))
    tmp.replace(path)
    return h


def point_times(points: dict, products: bool = True) -> dict:
    """{k: (number of points, their synthesis + STA seconds)} over the families' points and the products."""
    out = {}
    names = [n for pts in points.values() for n, m in pts.items() if m]
    if products:
        names += [p.parent.parent.name for p in BUILD.glob("mul_*/harden/metrics.json") if metrics_of(p.parent.parent.name)]
    ks = {n: e["params"]["k"] for n, e in registry.describe_many(names).items()}
    for n in names:
        k = ks[n]
        w = (result(n) or {}).get("wall_s") or 0
        c, t = out.get(k, (0, 0.0))
        out[k] = (c + 1, t + w)
    return out


def plot(points: dict):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for k in sorted({k for _, k in points}):
        fig, ax = plt.subplots(figsize=(6.5, 4.5))
        for i, fam in enumerate(FAMILIES):
            pts = points.get((fam, k), {})
            ok = [m for m in pts.values() if m]
            if not ok:
                continue
            c = f"C{i}"
            ax.scatter([m["critical_path_ns"] for m in ok], [m["area_um2"] / 1e3 for m in ok], s=14, color=c, alpha=0.6, label=TITLES[fam])
            d = pts.get(f"{fam}_{k}")
            if d:
                ax.scatter([d["critical_path_ns"]], [d["area_um2"] / 1e3], marker="*", s=160, color=c, edgecolor="k",
                           label=f"{TITLES[fam]} paper-faithful")
        ax.set_xlabel("critical path P at tt (ns)")
        ax.set_ylabel("standard-cell area A (1000 um2)")
        ax.set_title(f"k = {k}: every point of the sweep (lower left is better)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(REPORTS / f"dse_{k}.png", dpi=120)
        plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", default=",".join(FAMILIES))
    ap.add_argument("--k", default=",".join(map(str, DEFAULT_WIDTHS)))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786 (workers share this repository's path)")
    ap.add_argument("--local-cluster", type=int, default=0, metavar="N", help="run on a local Dask cluster of N workers")
    ap.add_argument("--rerun", action="store_true", help="rerun points that are up to date")
    ap.add_argument("--targets", action="store_true", help="also measure the ABC delay target (d<ps>) on each family")
    ap.add_argument("--products", action="store_true", help="also measure the bare products mul_<k> (beside vlsiffra)")
    ap.add_argument("--from-k", type=int, default=0, metavar="K0",
                    help="instead of sweeping, measure the best few of the sweep at K0 (for wide k: 128, 256)")
    ap.add_argument("--report-only", action="store_true", help="only rewrite the reports from the results there are")
    ap.add_argument("--designs", default="", metavar="D1,D2",
                    help="with --family reduction: sweep these reduction designs (paper recipes) instead of the table's at --k")
    ap.add_argument("--plan", action="store_true", help="with --family reduction: print the first candidates and refusals, build nothing")
    a = ap.parse_args()
    fams = [f for f in a.family.split(",") if f]
    if fams == ["reduction"] or a.designs:
        return main_reduction(a)
    bad = [f for f in fams if f not in FAMILIES]
    if bad:
        sys.exit(f"dse: error: unknown family {', '.join(bad)}; use {', '.join(FAMILIES)}")
    try:
        ks = [int(x) for x in a.k.split(",") if x]
    except ValueError:
        sys.exit(f"dse: error: --k {a.k!r}: give widths as integers, e.g. --k 32,64")
    if any(not 16 <= k <= 512 for k in ks):
        sys.exit("dse: error: widths must be in 16..512")
    jobs = (f"Dask scheduler {a.scheduler}" if a.scheduler else f"local Dask cluster of {a.local_cluster} workers"
            if a.local_cluster else f"{a.jobs} local jobs")
    t0 = time.monotonic()
    log, points = [], {}
    try:
        runner = None if a.report_only else Runner(a.jobs, a.scheduler, a.local_cluster)
        for k in ks:
            if a.products and not a.report_only:
                products(k, runner, a.rerun, log)
            for fam in fams:
                if a.report_only:
                    continue
                if a.from_k:
                    transfer(fam, k, a.from_k, runner, a.rerun, log)
                else:
                    sweep(fam, k, runner, a.rerun, log)
                    if a.targets:
                        targets(fam, k, runner, a.rerun, log)
        if runner:
            runner.close()
    except FlowError as e:
        sys.exit(f"dse: error: {e}")
    write_reports(collect(), log, time.monotonic() - t0, jobs)


def main_reduction(a):
    """--family reduction: the descent on the reduction designs -> reports/dse_reduction.md, .csv."""
    if a.family != "reduction":
        sys.exit(f"dse: error: --designs goes with --family reduction, not --family {a.family}")
    if a.products or a.targets or a.from_k:
        sys.exit("dse: error: --products, --targets and --from-k are the paper families' (barrett, shoup, gshoup)")
    try:
        ks = [int(x) for x in a.k.split(",") if x]
    except ValueError:
        sys.exit(f"dse: error: --k {a.k!r}: give widths as integers, e.g. --k 64")
    jobs = (f"Dask scheduler {a.scheduler}" if a.scheduler else f"local Dask cluster of {a.local_cluster} workers"
            if a.local_cluster else f"{a.jobs} local jobs")
    t0 = time.monotonic()
    log, outcomes = [], {}
    try:
        designs = reduction_designs(ks, [d for d in a.designs.split(",") if d])
        if a.plan:
            for d in designs:
                for lever, cands, refused in plan_reduction(d):
                    print(f"{d}: {lever}: {', '.join(cands)}" + "".join(f"; refused {n}: {why}" for n, why in refused.items()))
            return
        if not a.report_only:
            runner = Runner(a.jobs, a.scheduler, a.local_cluster)
            try:
                for d in designs:  # the report is rewritten after each design: a partial sweep is reported
                    outcomes.update(sweep_reduction([d], runner, a.rerun, log))
                    write_reduction_reports(log, 0, jobs, outcomes, record_run=False)
            finally:
                runner.close()
        write_reduction_reports(log, time.monotonic() - t0, jobs, outcomes)
    except (FlowError, registry.RegistryError) as e:
        sys.exit(f"dse: error: {e}")


def collect() -> dict:
    """Every up-to-date point in build/, for every family and width: the report covers all of them,
    whatever subset this run swept (points from another flow or RTL are left out)."""
    points = {}
    names = [p.parent.parent.name for p in sorted(BUILD.glob("*/harden/metrics.json"))]
    for n, e in registry.describe_many(names).items():
        if "error" in e or e["family"] not in FAMILIES:
            continue
        # the family's plain design and its variants; not the _fast aliases (the same points under another name)
        if e["design"] == e["base"] or ("variant" in e["params"] and "alias_of" not in e["params"]):
            points.setdefault((e["family"], e["params"]["k"]), {})[n] = metrics_of(n)
    return {key: pts for key, pts in points.items() if pts.get(f"{key[0]}_{key[1]}") and
            sum(1 for m in pts.values() if m) > 1}


if __name__ == "__main__":
    main()
