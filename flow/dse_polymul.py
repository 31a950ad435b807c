#!/usr/bin/env python3
"""Design-space exploration of the streaming RNS polymul engine (docs/polymul_dse.md).

    flow/dse_polymul.py [--sets 1024_19,2048_33,4096_62 | --n 1024 --logq 19] [--engines single,multi] [--plan] [--max-points N]
                        [--start-lanes P] [-j N] [--scheduler ADDR | --local-cluster N] [--rerun] [--generate-only]
                        [--report-only]

Per set (n, log q) it sweeps the engine's levers, `polymul_<n>_<logq>_s<P>_w<w>[_m<fast|paper>][_r<sram|ff>][_c<class>]`,
one at a time (coordinate descent, as flow/dse.py does for the multipliers), not their full product:
  1. limb width w at P0 = 4 lanes (--start-lanes): the generator's default w, the widths of one limb fewer and one
     limb more (ceil(logq / L) + 1 bits), and the default minus one bit. w sets the number of limbs
     L and the width of every multiplier and delay line: the largest per-lane lever, so it goes first.
  2. the multipliers, _mfast against _mpaper, at the best w.
  3. the primes' class, _cany, _cproth, _cproth2l, _cproth3l (the reduction family's classes; the
     multipliers take q as a constant, so a class of few set bits leaves synthesis fewer partial
     products): a class with too few w-bit primes is refused by the registry, one whose primes are
     the current point's is the same circuit (pruned).
  4. the delay-line storage, _rsram (macros where a line is deep enough) against _rff.
     Steps 1-4 keep the point of least area-time (area x us per product) within 25 mm2: at a fixed P
     they change the cost of a lane, not the cycles.
  5. lanes P in 1, 2, 4, 8, 16 (P <= n/2) on the best of 1-3, smallest first, in waves of the job
     count: P scales the throughput and (nearly) the area, so the budget binds here; once a P
     measures more than 25 mm2 the larger ones are pruned. Keeps the highest throughput within 25 mm2.
  6. the storage again at the chosen P: which lines reach the macro depth depends on n/P.
  7. architecture (b), the banked SRAM tile with more units (`polymul_<n>_<logq>[_p<P>]`, P = 1..32):
     skipped where its macros alone exceed 25 mm2, pruned below a tile measured within it, else run.
     Architecture (c), four-step, is not built; reports.polymul_arch gives its storage bound.
  8. the multi-pass engine over external memory (docs/polymul_multipass.md), one-limb batch designs
     `mpoly_<n>_x<n1>_b256_l1_s32_p<P>_w31_t1` for n1 in 16..128 with n2 = n / n1 in 64..512 (the rows
     engine's delay lines, flip-flops to 256 words) and P in 1, 2: one synthesis serves every set of its n,
     counted L times (reports/polymul_multipass.md). Where those L copies exceed 25 mm2, the best one-limb point
     with the narrowest limbs that keep the set's L (`_w<w>`, narrowest_width), measured; where those still exceed
     it, the engine with r limbs in sequence (`_k<r>_..._r<r>`, r = ceil(L / the copies that fit)), measured, and r chosen
     again from its own area while it does not fit (its tables of constants grow with r), at most three times;
     where none of those fits, the engine with its primes loaded at run time (`_d1`, loaded_name), measured; and
     where its copies are fewer than the limbs, the same engine of narrower limbs that might fit one more copy
     (loaded_width: an estimate from the area's measured growth with w), measured.
     The set's best engine, single-pass or multi-pass, is
     reports/polymul_best.csv's row (flow/reports/polymul_engines.py). --engines picks the steps: `single`
     (1-7), `multi` (8) or both (default); at n >= 8192 the single-pass points' macros alone exceed 25 mm2.
Before synthesis every point is asked of the generator's registry (a refused name is recorded with
the generator's reason), generated, and its macros' area read from its manifest: a point whose
macros alone exceed 25 mm2 is skipped, and a _rff point whose _rsram twin has no macro (the same
circuit) is pruned. Each synthesis + STA is `flow/harden.py <point>` through flow/dse.py's Runner:
-j N local processes, a Dask cluster (--scheduler) or a local one (--local-cluster). Resumable: a
point whose metrics match its RTL and the flow (rtl_sha256, flow_sha256) is not rerun. A failing point
is recorded as failed; earlier results stay. The record is build/dse/polymul.json; the reports
(flow/reports/polymul_best.py) are reports/polymul_dse.md, polymul_best.csv, polymul_dse_<n>_<logq>.png.
"""
import argparse
import datetime
import json
import re
import os
import sys
import time

import dse
import layout
import registry
from pdk import FlowError
from reports import polymul_arch as pa
from reports import polymul_best as pb

LANES = (1, 2, 4, 8, 16)
MULS = ("fast", "paper")
STORES = ("sram", "ff")
CLASSES = ("any", "proth", "proth2l", "proth3l")  # the generator's PrimeClass.all
DEFAULT_SETS = ((1024, 19), (2048, 33), (4096, 62))
DEFAULT_LANES = 4  # the generator's default P (StreamConfig.defaultLanes)
MULTIPASS_N1 = (16, 32, 64, 128)
MULTIPASS_N2 = (64, 128, 256, 512)  # rows engine sizes: delay lines in flip-flops to 256 words, macros beyond
MULTIPASS_LANES = (1, 2)
MULTIPASS_W = 31                    # the widest limb the rows engine's multipliers take: fewest limbs
MULTIPASS_W_MIN = 20                # the narrowest limb step 8 tries (narrowest_width)
ENGINES = ("single", "multi")


def loaded_name(n: int, n1: int, p: int, w: int = MULTIPASS_W) -> str:
    """The one-limb batch point with its primes loaded at run time (`_d1`, docs/polymul_multipass.md, "RTL: primes
    loaded at run time"): one synthesis for any limbs of its n."""
    return f"mpoly_{n}_x{n1}_b256_l1_s32_p{p}_w{w}_t1_d1"


# How a multi-pass engine's area scales with its limb width w at the same n, n1 and P (standard cells and macros), from
# pairs synthesized here (reports/polymul_multipass.csv): mpoly_4096_x16 w29 / w31 = 17.158 / 18.758 mm2 (0.915 for
# 29/31 = 0.935, exponent 1.32); mpoly_8192_x32_k3 w28 / w31 = 14.937 / 17.06 (0.876 for 0.903, exponent 1.30).
LOADED_AREA_EXPONENT = 1.3
LOADED_AREA_MARGIN = 0.95   # the estimate's target, below the copies' share of the budget: a width is then measured


def loaded_width(n: int, logq: int, area_mm2: float, copies: int, w: int = MULTIPASS_W, budget_mm2: float = 25.0):
    """The widest limb below w at which `copies` copies of the run-time-primes engine would fit the budget, were its
    area (area_mm2 at w) to scale as w^LOADED_AREA_EXPONENT, with LOADED_AREA_MARGIN; None where the primes of 17 to
    that many bits cannot make the set's Q (polymul.multipass_loaded.loaded_primes). An estimate: the point is then
    synthesized and measured like any other."""
    from polymul.multipass import MultipassError
    from polymul.multipass_loaded import MIN_PRIME_BITS, loaded_primes
    target = budget_mm2 / copies * LOADED_AREA_MARGIN
    for v in range(w - 1, MIN_PRIME_BITS - 1, -1):
        if area_mm2 * (v / w) ** LOADED_AREA_EXPONENT <= target:
            try:
                loaded_primes(n, logq, v)
            except MultipassError:
                return None
            return v
    return None


def multipass_name(n: int, n1: int, p: int, r: int = 1, w: int = MULTIPASS_W) -> str:
    """A multi-pass step's point: the one-limb batch engine, or (r > 1) one engine running r limbs in sequence, of
    w-bit limbs."""
    if r == 1:
        return f"mpoly_{n}_x{n1}_b256_l1_s32_p{p}_w{w}_t1"
    return f"mpoly_{n}_x{n1}_k{r}_b256_l1_s32_p{p}_w{w}_t1_r{r}"


def narrowest_width(n: int, logq: int, limbs: int, widest: int = MULTIPASS_W, narrowest: int = MULTIPASS_W_MIN):
    """The narrowest limb width that still gives the set `limbs` limbs (the engine's default primes, stream_primes),
    or None if only `widest` does. A narrower limb shrinks every multiplier, adder and memory word of the engine at
    the same cycles: (4096, 113) takes 4 limbs at 29 bits as at 31 (docs/polymul_multipass.md, "Narrower limbs")."""
    from polymul.multipass import MultipassError, stream_primes
    best = None
    for w in range(widest - 1, narrowest - 1, -1):
        try:
            if len(stream_primes(n, logq, w)) != limbs:
                break
        except MultipassError:
            break
        best = w
    return best


def multipass_points(n: int) -> list:
    """The multi-pass step's one-limb points at n: [(n1, P)], n1 smallest first, then P."""
    return [(n1, p) for n1 in MULTIPASS_N1 if n % n1 == 0 and n // n1 in MULTIPASS_N2 for p in MULTIPASS_LANES]


def multipass_names(n: int) -> list:
    """The multi-pass step's points at n: [(design, lanes)], n1 smallest first, then P."""
    return [(multipass_name(n, n1, p), p) for n1, p in multipass_points(n)]


def sequence_rounds(limbs: int, per_copy_mm2: float, budget_mm2: float = 25.0):
    """Limbs each engine runs in sequence so that the copies fit the budget: ceil(L / floor(budget / one copy's
    area)); None where one copy alone is over it."""
    fit = int(budget_mm2 // per_copy_mm2)
    return None if fit < 1 else -(-limbs // fit)


STEPS = (("width", "limb width w"), ("mul", "multipliers"), ("class", "prime class"), ("store", "delay-line storage"),
         ("lanes", "lanes P"), ("store2", "delay-line storage at the chosen P"))  # then the tile (SetSweep.tile_step)


def name(n: int, logq: int, lanes: int, w: int, mul: str = "fast", store: str = "sram", cls: str = "any") -> str:
    """The generator's canonical spelling (StreamDesigns.name): the defaults _mfast, _rsram and _cany left out."""
    return (f"polymul_{n}_{logq}_s{lanes}_w{w}" + ("" if mul == "fast" else f"_m{mul}") + ("" if store == "sram" else f"_r{store}")
            + ("" if cls == "any" else f"_c{cls}"))


def width_candidates(logq: int, w_default: int, limbs_default: int) -> list:
    """The default width, those of one limb fewer and one more, and one bit narrower than the default."""
    ws = [w_default]
    for limbs in (limbs_default - 1, limbs_default + 1):
        if limbs >= 1:
            ws.append(max(16, -(-logq // limbs) + 1))
    ws.append(w_default - 1)
    return [w for w in dict.fromkeys(ws) if 16 <= w <= 64]


def short(msg: str) -> str:
    """A refusal without the grammar the generator appends."""
    return msg.strip().splitlines()[0].split("; polymul_<n>")[0].strip() if msg.strip() else msg


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


# ---------------------------------------------------------------- the record

def record_path():
    return layout.dse_dir() / "polymul.json"


def load_record() -> dict:
    p = record_path()
    try:
        return json.loads(p.read_text())
    except (OSError, ValueError):
        return {"points": {}, "log": {}, "runs": []}


def save_record(rec: dict):
    p = record_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f"{p.name}.tmp{os.getpid()}")
    tmp.write_text(json.dumps(rec, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, p)


# ---------------------------------------------------------------- one set

class SetSweep:
    """The coordinate descent at one set. mode: "plan" (print the points, run nothing), "generate"
    (RTL and manifests only) or "run". `budget` is a one-element list shared across sets: the
    points --max-points still allows (None: no cap)."""

    def __init__(self, n, logq, mode, runner=None, rerun=False, budget=None, jobs=1, rec=None, out=print,
                 start_lanes=DEFAULT_LANES, engines=ENGINES):
        self.n, self.logq, self.mode, self.runner, self.rerun = n, logq, mode, runner, rerun
        self.engines = tuple(engines)
        self.start_lanes = start_lanes
        self.budget, self.jobs, self.out = budget or [None], max(1, jobs), out
        self.rec = rec if rec is not None else {"points": {}, "log": {}, "runs": []}
        self.set = f"{n}_{logq}"
        self.log = []
        self.handled = set()  # the points this sweep has run, generated or listed (a later step meets them again)

    # -- what is known of a point
    def note(self, d, lanes, step, status, why=""):
        self.rec["points"][d] = {"set": self.set, "lanes": lanes, "step": step, "status": status, "why": why, "date": now()}

    def row(self, d):
        mf = pb.stream_manifest(d)
        return pb.point(d, mf) if mf else None

    def measured(self, d):
        r = self.row(d)
        if r and r["status"] == "measured":
            return r
        a = self.alias(d)
        return {**a, "design": d, "aliases": [a["design"]]} if a else None

    def alias(self, d):
        """A measured point of the same circuit under another name (the sweep spells the width out,
        `polymul_1024_19_s4_w20`; a design measured as `polymul_1024_19_s4` is the same engine), or None."""
        mf = pb.stream_manifest(d) or self.planned(d)
        if mf is None:
            return None
        key = pb.config_key(mf)
        for o in pb.stream_designs():
            omf = pb.stream_manifest(o) if o != d else None
            if omf and pb.config_key(omf) == key:
                r = pb.point(o, omf)
                if r["status"] == "measured":
                    return r
        return None

    def planned(self, d):
        """--plan: the parts of a manifest the registry already knows (an entry's params name n, log q,
        P, w, the multipliers, the storage and the primes), so that a point measured under another
        name shows as such before anything is generated; None outside --plan or for a refused name."""
        if self.mode != "plan":
            return None
        p = registry.describe_many([d]).get(d, {}).get("params") or {}
        if "primes" not in p:
            return None
        return {"n": p["n"], "logq": p["logq"], "lanes": p["lanes"], "limb_bits": p["limb_bits"],
                "primes": p["primes"], "registry": {"params": p}}

    # -- a step: registry, generation, the storage estimate, then synthesis
    def screen(self, step, cands, twin_of=None):
        """The candidates that may run, after the registry, generation and the estimates;
        cands: [(design, lanes)]. Prints the plan lines."""
        names = [d for d, _ in cands]
        answers = registry.describe_many(names)
        ok = []
        for d, lanes in cands:
            e = answers[d]
            if "error" in e:
                self.note(d, lanes, step, "refused", short(e["error"]))
                self.out(f"  {d}: refused by the registry: {short(e['error'])}")
                continue
            ok.append((d, lanes))
        # Generated unless --max-points is used up (then nothing more runs; its manifest can wait).
        if self.mode == "generate" or (self.mode == "run" and (self.budget[0] is None or self.budget[0] > 0)):
            bad = dse.generate([d for d, _ in ok])
            for d, lanes in [c for c in ok if c[0] in bad]:
                self.note(d, lanes, step, "failed", "cannot be generated (see the dse: line of the run's output)")
            ok = [c for c in ok if c[0] not in bad]
        kept = []
        for d, lanes in ok:
            mf = pb.stream_manifest(d)
            if mf is None:  # --plan: not generated yet, its macro area is known after generation
                kept.append((d, lanes))
                continue
            mac = pb.macro_estimate_um2(mf)
            if mac > pb.AREA_BUDGET_UM2:
                why = f"macros alone {mac / 1e6:.2f} mm2 > {pb.AREA_BUDGET_UM2 / 1e6:g} mm2 (manifest)"
                self.note(d, lanes, step, "skipped", why)
                self.out(f"  {d}: skipped: {why}")
                continue
            twin = twin_of(d) if twin_of else None
            if twin:
                self.note(d, lanes, step, "pruned", twin)
                self.out(f"  {d}: pruned: {twin}")
                continue
            kept.append((d, lanes))
        return kept

    def run(self, step, cands, aliases=True):
        """Synthesis of the kept candidates not up to date (within --max-points); returns nothing: the
        results are read back from build/. aliases: look for the same circuit under another stream
        engine's name first (stream designs only)."""
        todo = []
        for d, lanes in cands:
            if d in self.handled:
                self.out(f"  {d}: see above")
                continue
            self.handled.add(d)
            fresh = layout.rtl(d).exists() and dse.up_to_date(d) and not self.rerun
            if fresh:
                self.note(d, lanes, step, "ok", "up to date")
                self.out(f"  {d}: up to date ({dse.result(d).get('date')})")
                continue
            a = None if self.rerun or not aliases else self.alias(d)
            if a:
                self.note(d, lanes, step, "ok", f"measured as `{a['design']}` (the same circuit)")
                self.out(f"  {d}: measured as {a['design']} (the same circuit, {a.get('date')})")
                continue
            if self.budget[0] is not None and self.budget[0] <= 0:
                self.note(d, lanes, step, "capped", "not run: --max-points reached")
                self.out(f"  {d}: not run: --max-points reached")
                continue
            if self.budget[0] is not None and self.mode != "generate":
                self.budget[0] -= 1
            todo.append((d, lanes))
            mf = pb.stream_manifest(d)
            est = (f" (macros {pb.macro_estimate_um2(mf) / 1e6:.2f} mm2 by its manifest)"
                   if mf and mf.get("kind") == "polymul_stream" else "")
            self.out(f"  {d}: {'to run' if self.mode != 'generate' else 'generated (--generate-only: not synthesized)'}{est}")
        if self.mode == "generate":
            for d, lanes in todo:
                self.note(d, lanes, step, "generated", "--generate-only")
            return
        if self.mode != "run" or not todo:
            return
        res = self.runner.run([d for d, _ in todo], self.rerun)
        for d, lanes in todo:
            r = res.get(d)
            if r and r["ok"]:
                self.note(d, lanes, step, "ok", f"{r['wall_s']} s")
            else:
                tail = (r or {}).get("tail", "").strip().splitlines()
                self.note(d, lanes, step, "failed", tail[-1] if tail else "no output")

    # -- the descent
    def sweep(self) -> dict:
        cur = self.single_pass_sweep() if "single" in self.engines else {}
        if "multi" in self.engines:
            self.multipass_step(pb.cpu_store())
        return cur

    def single_pass_sweep(self) -> dict:
        n, logq = self.n, self.logq
        p0 = min(self.start_lanes, n // 2)
        probe = f"polymul_{n}_{logq}_s{p0}"
        e = registry.describe_many([probe])[probe]
        if "error" in e:
            self.out(f"({n}, {logq}): refused by the registry: {short(e['error'])}")
            self.log.append(f"{self.set}: refused: {short(e['error'])}")
            return {}
        w0, l0 = e["params"]["limb_bits"], e["params"]["limbs"]
        cur = {"lanes": p0, "w": w0, "mul": "fast", "store": "sram", "cls": "any"}
        self.out(f"({n}, {logq}): start at P = {p0}, default w = {w0} (L = {l0}), _mfast, _rsram")

        def nm(c):
            return name(n, logq, c["lanes"], c["w"], c["mul"], c["store"], c["cls"])

        for step, title in STEPS:
            if step == "width":
                configs = [{**cur, "w": w} for w in width_candidates(logq, w0, l0)]
            elif step == "mul":
                configs = [{**cur, "mul": m} for m in MULS]
            elif step == "class":
                configs = [{**cur, "cls": c} for c in CLASSES]
            elif step in ("store", "store2"):
                configs = [{**cur, "store": s} for s in STORES]
            else:
                configs = [{**cur, "lanes": p} for p in LANES if p <= n // 2]
            self.out(f" step {step}: {title}: {len(configs)} points")
            by_name = {nm(c): c for c in configs}
            twin = None
            if step in ("store", "store2"):
                sram, ff = nm({**cur, "store": "sram"}), nm({**cur, "store": "ff"})
                keep = nm(cur)

                def twin(d, sram=sram, ff=ff, keep=keep):
                    mf = pb.stream_manifest(sram)
                    if d != keep and mf is not None and not (mf.get("storage") or {}).get("macro_count"):
                        return f"same circuit as `{keep}`: no delay line reaches the macro depth at P = {cur['lanes']}"
                    return None
            if step == "class":
                keep = nm(cur)

                def twin(d, keep=keep):
                    mf, kf = pb.stream_manifest(d), pb.stream_manifest(keep)
                    if d != keep and mf is not None and kf is not None and mf["primes"] == kf["primes"]:
                        return f"same circuit as `{keep}`: the class's {len(mf['primes'])} largest w-bit primes are its primes"
                    return None
            if step == "lanes":
                self.lanes_step(configs, nm)
            else:
                kept = self.screen(step, [(nm(c), c["lanes"]) for c in configs], twin)
                self.run(step, kept)
            rows = [r for r in (self.measured(d) for d in by_name) if r]
            if step == "lanes" or step == "store2":
                b = pb.best_of(rows)
            else:
                fit = [r for r in rows if r["within"]] or rows
                b = min(fit, key=lambda r: r["area_time"]) if fit else None
            if b:
                cur = dict(by_name[b["design"]])
            self.log.append(f"{self.set}: {step}: {len(configs)} points, {len(rows)} measured, "
                            f"best {b['design'] if b else 'none measured: kept ' + nm(cur)}")
            self.out(f"  -> {self.log[-1].split(': ', 2)[2]}")
        self.tile_step()
        return cur

    def tile_step(self):
        """Architecture (b): the banked SRAM tile with more units, P = 1..32 (reports.polymul_arch). A P
        whose macros alone exceed the budget is skipped; one with fewer units than a tile measured within
        the budget is pruned (the tile's throughput grows with P); the rest are synthesized."""
        n, logq = self.n, self.logq
        cands = [(pa.tile_name(n, logq, u), u) for u in pa.TILE_UNITS]
        self.out(f" step tile: (b) the banked tile with more units: {len(cands)} points")
        kept = self.screen("tile", cands)
        pts = {p["design"]: p for p in pa.tile_points(n, logq, pb.AREA_BUDGET_UM2)}
        bt = pa.best_tile(list(pts.values()))
        todo = []
        for d, units in kept:
            p = pts.get(d)
            if p and p["status"] in ("measured", "carried"):
                self.note(d, units, "tile", "ok", p["status"])
                self.out(f"  {d}: {p['status']}")
            elif bt and units < bt["units"]:
                why = f"fewer units than `{bt['design']}`, measured within 25 mm2 (the tile's throughput grows with P)"
                self.note(d, units, "tile", "pruned", why)
                self.out(f"  {d}: pruned: {why}")
            else:
                todo.append((d, units))
        self.run("tile", todo)
        pts = pa.tile_points(n, logq, pb.AREA_BUDGET_UM2)
        bt = pa.best_tile(pts)
        self.log.append(f"{self.set}: tile: {len(cands)} points, {sum(p['status'] in ('measured', 'carried') for p in pts)} "
                        f"measured, best {bt['design'] if bt else 'none measured within 25 mm2'}")
        self.out(f"  -> {self.log[-1].split(': ', 2)[2]}")

    def multipass_step(self, store=None):
        """Step 8: the multi-pass engine's points at this n (multipass_names); up-to-date ones are not rerun,
        so the sets of one n share them. Logs the best by polymul_engines.rank at this set."""
        from reports import polymul_engines as pe
        from reports import polymul_multipass as pm
        n, logq = self.n, self.logq
        cands = multipass_names(n)
        self.out(f" step multipass: the multi-pass engine at n = {n} (one limb, a batch; L copies at a set): "
                 f"{len(cands)} points")
        kept = self.screen("multipass", cands)
        self.run("multipass", kept, aliases=False)
        rows = []
        point_of = {multipass_name(n, n1, p): (n1, p) for n1, p in multipass_points(n)}

        def measure(points):
            """[(polymul_multipass row, its polymul_best candidate)] of the points at this set."""
            got = []
            for d, _ in points:
                mf = pb.stream_manifest(d)
                if mf:
                    got += [(r, pe.multipass_candidate(r, {"base": pb.baselines(store, n, logq), "paper": None}))
                            for r in pm.rows_of(d, mf, [(n, logq)], store) if "area_mm2" in r]
            return got
        measured = measure(kept)
        rows += [c for _, c in measured]

        def one_point(d, lanes):
            """Synthesizes (if not up to date) and measures one more point: its polymul_multipass row, or None."""
            pts = self.screen("multipass", [(d, lanes)])
            self.run("multipass", pts, aliases=False)
            got = measure(pts)
            rows.extend(c for _, c in got)
            return got[0][0] if got else None

        def per_copy_of(row):
            return row["area_mm2"] / row["copies"]

        # Where the set's copies of the best one-limb point exceed 25 mm2: first the same point with the narrowest
        # limbs that keep L (narrowest_width); then, if those copies still exceed it, limbs in sequence
        # (docs/polymul_multipass.md, "RTL: limbs in sequence"): one engine running r limbs, r = ceil(L / the copies
        # that fit), measured; its tables make it larger than the one-limb engine, so r is chosen again from its own
        # area (at most three rounds of this).
        one = [(r, c) for r, c in measured if not r["fits_25mm2"]]
        if one:
            best1, _ = max(one, key=lambda rc: pe.rank(rc[1]))
            n1, p = point_of[best1["design"]]
            per_copy, limbs = per_copy_of(best1), best1["limbs"]
            w, fits = MULTIPASS_W, False
            # Narrower limbs first: the same limbs and cycles in smaller copies (narrowest_width), measured.
            narrow = narrowest_width(n, logq, limbs)
            if narrow is not None:
                d = multipass_name(n, n1, p, 1, narrow)
                self.out(f"  narrower limbs: {limbs} limbs of {narrow} bits as of {MULTIPASS_W}: {d}")
                got = one_point(d, p)
                if got and per_copy_of(got) < per_copy:
                    per_copy, w = per_copy_of(got), narrow
                fits = bool(got and got["fits_25mm2"])  # the narrower copies fit: no limbs in sequence
            tried = set()
            for _ in range(0 if fits else 3):
                r = sequence_rounds(limbs, per_copy, pm.AREA_BUDGET_MM2)
                if r is None or r < 2 or r in tried:
                    break
                fit = -(-limbs // r)
                tried.add(r)
                d = multipass_name(n, n1, p, r, w)
                self.out(f"  limbs in sequence: {limbs} limbs over copies of {per_copy:.2f} mm2 -> {fit} engines of {r}: {d}")
                got = one_point(d, p)
                if got and got["fits_25mm2"]:
                    fits = True
                if not got or got["fits_25mm2"]:
                    break
                per_copy = per_copy_of(got)  # the r-limb engine's own area: the next r from it
            # Still nothing within 25 mm2 (limbs in sequence whose tables do not synthesize here, or are too large):
            # the engine with its primes loaded at run time, whose size does not grow with the limbs, measured.
            if not fits:
                d = loaded_name(n, n1, p)
                self.out(f"  primes loaded at run time: {limbs} limbs through one engine of any primes: {d}")
                got = one_point(d, p)
                # One more copy, were the limbs narrower: more limbs a product, but more engines (loaded_width).
                if got and got["copies"] < got["limbs"]:
                    v = loaded_width(n, logq, per_copy_of(got), got["copies"] + 1)
                    if v is not None:
                        d = loaded_name(n, n1, p, v)
                        self.out(f"  narrower run-time primes: {got['copies'] + 1} copies of {v}-bit limbs, were the area "
                                 f"w^{LOADED_AREA_EXPONENT}: {d}")
                        one_point(d, p)
        b = max(rows, key=pe.rank) if rows else None
        self.log.append(f"{self.set}: multipass: {len(cands)} points, {len(rows)} measured, best "
                        + (f"{b['design']} ({b['area_mm2']:.1f} mm2 for L copies, "
                           f"{'absent' if b['ratio_vs_tfhe_ntt'] is None else format(b['ratio_vs_tfhe_ntt'], '.2f') + 'x'} tfhe-ntt)"
                           if b else "none measured"))
        self.out(f"  -> {self.log[-1].split(': ', 2)[2]}")

    def lanes_step(self, configs, nm):
        """P smallest first, in waves of the job count; the larger P are pruned once one exceeds the budget."""
        cands = [(nm(c), c["lanes"]) for c in configs]
        kept = self.screen("lanes", cands)
        over = None
        for i in range(0, len(kept), self.jobs):
            wave = kept[i:i + self.jobs]
            if over:
                for d, lanes in wave:
                    why = f"P = {over[1]} measured {over[2]:.2f} mm2 > {pb.AREA_BUDGET_UM2 / 1e6:g} mm2: area grows with P"
                    self.note(d, lanes, "lanes", "pruned", why)
                    self.out(f"  {d}: pruned: {why}")
                continue
            self.run("lanes", wave)
            for d, lanes in wave:
                r = self.measured(d)
                if r and not r["within"] and (over is None or lanes < over[1]):
                    over = (d, lanes, r["area_mm2"])


# ---------------------------------------------------------------- the command

def parse_sets(a) -> list:
    sets = []
    if a.n or a.logq:
        ns, ls = [x for x in (a.n or "").split(",") if x], [x for x in (a.logq or "").split(",") if x]
        if len(ns) != len(ls):
            raise SystemExit(f"dse-polymul: error: --n {a.n!r} and --logq {a.logq!r} must list as many values (they pair up)")
        pairs = list(zip(ns, ls))
    else:
        # A set is "<n>_<logq>" (SETS=1024_19,...), not a design name.
        pairs = [(m.group(1), m.group(2)) if (m := re.fullmatch(r"(\d+)_(\d+)", s)) else (s, "") for s in a.sets.split(",") if s]
    for n, l in pairs:
        try:
            sets.append((int(n), int(l)))
        except ValueError:
            raise SystemExit(f"dse-polymul: error: set {n}_{l}: give sets as <n>_<logq>, e.g. --sets 1024_19,4096_62")
    return sets


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(f"{n}_{l}" for n, l in DEFAULT_SETS), help="sets as <n>_<logq>,...")
    ap.add_argument("--n", help="(make dse FAMILY=polymul N=... LOGQ=...) n values, paired with --logq")
    ap.add_argument("--logq", help="log q values, paired with --n")
    ap.add_argument("--plan", action="store_true", help="print each step's points and what would happen to them; run nothing")
    ap.add_argument("--max-points", type=int, default=None, metavar="N", help="synthesize at most N points in this run")
    ap.add_argument("--start-lanes", type=int, default=DEFAULT_LANES, metavar="P",
                    help=f"the lanes P0 of steps 1-4, one of {', '.join(map(str, LANES))} (default {DEFAULT_LANES}, the "
                         "generator's): a smaller P0 where the default's synthesis does not fit the machine (at (4096, 62), "
                         "P = 4 needs about 4x P = 1's memory)")
    ap.add_argument("--engines", default=",".join(ENGINES),
                    help="single (the streaming engine's steps 1-7), multi (the multi-pass engine, step 8) or both")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786 (workers share this repository's path)")
    ap.add_argument("--local-cluster", type=int, default=0, metavar="N", help="run on a local Dask cluster of N workers")
    ap.add_argument("--rerun", action="store_true", help="rerun points that are up to date")
    ap.add_argument("--generate-only", action="store_true", help="RTL and manifests of the points (their storage), no synthesis")
    ap.add_argument("--report-only", action="store_true", help="only rewrite the reports from the results there are")
    ap.add_argument("--offchip-gbps", type=float, default=pb.OFFCHIP_GBYTES_S, metavar="GB/s",
                    help=f"the off-chip memory's bandwidth for the larger sets (default {pb.OFFCHIP_GBYTES_S:g}: {pb.OFFCHIP_NAME})")
    a = ap.parse_args(argv)
    if a.start_lanes not in LANES:
        ap.error(f"--start-lanes {a.start_lanes}: not a lane count the sweep uses; accepted: {', '.join(map(str, LANES))}")
    sets = parse_sets(a)
    engines = [e for e in a.engines.split(",") if e]
    if not engines or any(e not in ENGINES for e in engines):
        ap.error(f"--engines {a.engines}: use {', '.join(ENGINES)} or both, comma-separated (e.g. --engines multi)")
    offchip = pb.OFFCHIP_NAME if a.offchip_gbps == pb.OFFCHIP_GBYTES_S else "given with --offchip-gbps"
    if a.report_only:
        pb.write_reports(pb.collect(), a.offchip_gbps, offchip)
        return 0
    mode = "plan" if a.plan else "generate" if a.generate_only else "run"
    rec = load_record()
    budget = [a.max_points]
    t0 = time.monotonic()
    runner = None
    try:
        jobs = a.jobs
        if mode == "run":
            runner = dse.Runner(a.jobs, a.scheduler, a.local_cluster)
            if runner.client:
                jobs = max(1, len(runner.client.scheduler_info()["workers"]))
        for n, logq in sets:
            s = SetSweep(n, logq, mode, runner, a.rerun, budget, jobs, rec, start_lanes=a.start_lanes, engines=engines)
            s.sweep()
            if mode != "plan":
                rec["log"][s.set] = s.log
                save_record(rec)
    except (FlowError, registry.RegistryError, RuntimeError) as e:
        sys.exit(f"dse-polymul: error: {e}")
    finally:
        if runner:
            runner.close()
    if mode == "plan":
        print("dse-polymul: --plan: nothing was generated or run; the steps after the first continue from the points "
              "measured so far (from the defaults where none is)")
        return 0
    rec["runs"] = (rec.get("runs") or [])[-19:] + [{"date": now(), "sets": [f"{n}_{l}" for n, l in sets], "mode": mode,
                                                    "wall_min": round((time.monotonic() - t0) / 60, 1)}]
    save_record(rec)
    pb.write_reports(pb.collect(), a.offchip_gbps, offchip)
    return 0


if __name__ == "__main__":
    sys.exit(main())
