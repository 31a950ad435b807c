#!/usr/bin/env python3
"""The software baseline of the SSA polynomial multiplier (Millar et al.; issue 10): the negacyclic
product c = a*b in Z_q[x]/(x^n + 1), timed on this machine with NTL (the paper's library) and FLINT.

    flow/reports/sw_baseline.py [--sets 1024_19,4096_62] [--reps 7] [--seed 1] [--budget 10]
    make sw-baseline [SETS=...] [REPS=...]

For each of the paper's Table I sets (data/papers/millar.toml, via ntt.millar_tables; all 18 by
default), with q the largest prime q = 1 (mod 2n) below 2^logq:

  1. a and b, n coefficients each, uniform in [0, q), come from Python's random.Random seeded
     with the text "polymul:<seed>:<n>:<q>" and are written to one operand file that both
     programs read, so both multiply the same polynomials;
  2. build/sw/polymul_ntl (NTL ZZ_pX) and build/sw/polymul_flint (FLINT fmpz_mod_poly, and
     nmod_poly when q < 2^64; the faster counts) each run one untimed warm-up product and then
     --reps timed products (default 7; a library stops early, after at least 3, once its timed
     products pass --budget seconds, default 10, so a set takes at most about 2 x 10 s);
  3. the two products' checksums (FNV-1a 64 of the decimal coefficients) must agree, or the run
     fails.

The programs are built by `make sw-tools` (g++/gcc -O2, the libraries' default settings) when
missing or older than their sources. The result, build/sw_baseline/results.json, holds the date,
the CPU model and core count, the NTL, FLINT and GMP versions, the compilers, the load average,
and per set n, logq, q and psi (decimal strings), the medians (ntl_median_s, flint_median_s),
every time, the checksums and the paper's NTL time (Table II). It is written atomically and only
when every set succeeded: a failed run leaves an earlier results.json as it was.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from layout import BUILD
from ntt.millar_tables import PaperTableError, paper_sets, paper_table2
from reports.common import machine, write_json_atomic

ROOT = Path(__file__).resolve().parents[2]
SW = BUILD / "sw"
OUT = BUILD / "sw_baseline" / "results.json"
TOOLS = {"ntl": SW / "polymul_ntl", "flint": SW / "polymul_flint"}
SOURCES = {"ntl": ROOT / "tools" / "polymul_ntl.cpp", "flint": ROOT / "tools" / "polymul_flint.c"}
DEFAULT_REPS = 7
DEFAULT_BUDGET_S = 10.0
FNV_OFFSET, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3


class BaselineError(RuntimeError):
    """The baseline cannot run: bad input, a missing library or program, or disagreeing products."""


# ---- the programs ----

def build_tools() -> dict:
    """Builds build/sw/polymul_{ntl,flint} with `make sw-tools` when missing or stale; {name: path}."""
    stale = [k for k, t in TOOLS.items()
             if not t.is_file() or t.stat().st_mtime < SOURCES[k].stat().st_mtime]
    if stale:
        r = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT), "sw-tools", f"BUILD={BUILD}"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise BaselineError(f"building the baseline programs (make sw-tools) failed:\n{(r.stderr or r.stdout).strip()}\n"
                                f"fix: install the libraries with `make setup` "
                                f"(or apt-get install libntl-dev libflint-dev libgmp-dev)")
    for k, t in TOOLS.items():
        if not t.is_file():
            raise BaselineError(f"{t} is missing after `make sw-tools`")
    return dict(TOOLS)


def _run(tool: str, args: list, stdin: str = None) -> str:
    path = TOOLS[tool]
    r = subprocess.run([str(path), *map(str, args)], input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        raise BaselineError(f"{path.name} {' '.join(map(str, args))} failed (exit {r.returncode}): {r.stderr.strip()}")
    return r.stdout


def operand_text(n: int, q: int, a: list, b: list) -> str:
    """The programs' input: n, q, a_0..a_{n-1}, b_0..b_{n-1}, whitespace-separated decimals."""
    return f"{n} {q}\n" + "\n".join(map(str, a)) + "\n" + "\n".join(map(str, b)) + "\n"


def multiply(tool: str, n: int, q: int, a: list, b: list) -> list:
    """c = a*b mod (x^n + 1, q) computed by the program `tool` ("ntl" or "flint")."""
    out = _run(tool, ["mul", "-"], stdin=operand_text(n, q, a, b))
    return [int(x) for x in out.split()]


def bench(tool: str, operand_file: Path, reps: int, budget: float) -> dict:
    """The program's JSON for `reps` timed products of the file's operands."""
    out = _run(tool, ["bench", operand_file, reps, budget])
    try:
        return json.loads(out)
    except json.JSONDecodeError:
        raise BaselineError(f"{TOOLS[tool].name} printed no JSON: {out[:200]!r}") from None


def checksum(c: list) -> str:
    """FNV-1a 64 of "c_0\\nc_1\\n...": the programs' checksum of a product."""
    h = FNV_OFFSET
    for byte in "".join(f"{x}\n" for x in c).encode():
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return f"fnv1a64:{h:016x}"


def operands(n: int, q: int, seed: int) -> tuple:
    """a, b: n coefficients each, uniform in [0, q), from random.Random("polymul:<seed>:<n>:<q>")."""
    rng = random.Random(f"polymul:{seed}:{n}:{q}")
    return [rng.randrange(q) for _ in range(n)], [rng.randrange(q) for _ in range(n)]


# ---- the sets ----

def select_sets(spec: str = None) -> list:
    """Table I sets named by spec, e.g. "1024_19,4096_62" (or polymul_1024_19); all when empty."""
    try:
        sets = paper_sets()
    except PaperTableError as e:
        raise BaselineError(str(e)) from None
    if not spec:
        return sets
    by_key = {f"{s.n}_{s.logq}": s for s in sets}
    chosen = []
    for word in (w.strip() for w in spec.split(",")):
        key = word.removeprefix("polymul_")
        if key not in by_key:
            raise BaselineError(f"unknown set {word!r}: the paper's Table I sets are <n>_<logq> with "
                                f"{', '.join(by_key)}")
        if by_key[key] not in chosen:
            chosen.append(by_key[key])
    if not chosen:
        raise BaselineError("--sets names no set")
    return chosen


# ---- the machine ----

def _first_line(cmd: list) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
    except OSError:
        return f"{cmd[0]}: not found"
    return out.splitlines()[0] if out else cmd[0]


def environment() -> dict:
    return {
        **machine(),
        "cxx": _first_line([os.environ.get("SW_CXX", "g++"), "--version"]),
        "cc": _first_line([os.environ.get("SW_CC", "gcc"), "--version"]),
        "flags": "-O2 (g++ ... -lntl -lgmp -lpthread; gcc ... -lflint -lgmp -lmpfr)",
        "load_average_start": list(os.getloadavg()),
    }


# ---- the run ----

def _timing(j: dict) -> dict:
    return {k: j[k] for k in ("reps", "median_s", "min_s", "mean_s", "times_s", "checksum")}


def run_set(s, seed: int, reps: int, budget: float, workdir: Path) -> tuple:
    """(result row, ntl JSON, flint JSON) for one ParamSet."""
    a, b = operands(s.n, s.q, seed)
    path = workdir / f"{s.name}.txt"
    path.write_text(operand_text(s.n, s.q, a, b))
    try:
        ntl = bench("ntl", path, reps, budget)
        flint = bench("flint", path, reps, budget)
    finally:
        path.unlink(missing_ok=True)
    for j in (ntl, flint):
        if j["n"] != s.n or j["q_bits"] != s.logq:
            raise BaselineError(f"{j['tool']} read n = {j['n']}, a {j['q_bits']}-bit q for {s.name}")
    if ntl["checksum"] != flint["checksum"]:
        raise BaselineError(f"NTL and FLINT products differ for {s.name} (seed {seed}): "
                            f"NTL {ntl['checksum']}, FLINT {flint['checksum']}; one of the libraries "
                            f"or tools/polymul_*.c* is wrong")
    row = {
        "name": s.name, "n": s.n, "logq": s.logq, "security": s.security,
        "q": str(s.q), "psi": str(s.psi), "seed": seed,
        "ntl_median_s": ntl["median_s"], "flint_median_s": flint["median_s"], "flint_best": flint["best"],
        "checksum": ntl["checksum"],
        "ntl": _timing(ntl),
        "flint": {"best": flint["best"], **_timing(flint),
                  "fmpz_mod": _timing(flint["fmpz_mod"]),
                  "nmod": _timing(flint["nmod"]) if flint["nmod"] else None},
    }
    return row, ntl, flint


def run(sets: list, reps: int = DEFAULT_REPS, seed: int = 1, budget: float = DEFAULT_BUDGET_S,
        out: Path = OUT, progress=sys.stderr) -> dict:
    if reps < 1:
        raise BaselineError(f"--reps {reps}: give at least 1")
    build_tools()
    paper_ntl = {(r.n, r.logq): r.ntl_us for r in paper_table2()}
    result = {"environment": environment(), "reps": reps, "budget_s": budget, "seed": seed,
              "warmup": 1, "sets": []}
    out.parent.mkdir(parents=True, exist_ok=True)
    t_start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="operands.", dir=out.parent) as work:
        for i, s in enumerate(sets, 1):
            t0 = time.monotonic()
            row, ntl, flint = run_set(s, seed, reps, budget, Path(work))
            row["paper_ntl_us"] = paper_ntl.get((s.n, s.logq))
            result["sets"].append(row)
            if i == 1:
                result["environment"].update(
                    ntl_version=ntl["version"], flint_version=flint["version"], gmp_version=ntl["gmp"],
                    gmp_version_flint=flint["gmp"], ntl_threads=ntl["threads"], flint_threads=flint["threads"])
            if progress:
                print(f"[{i}/{len(sets)}] {s.name}: NTL {row['ntl_median_s'] * 1e3:.3f} ms, "
                      f"FLINT {row['flint_median_s'] * 1e3:.3f} ms ({flint['best']}), "
                      f"{ntl['reps']}/{flint['reps']} reps, products agree ({time.monotonic() - t0:.1f} s)",
                      file=progress, flush=True)
    result["environment"]["load_average_end"] = list(os.getloadavg())
    result["wall_s"] = round(time.monotonic() - t_start, 3)
    write_json_atomic(out, result)  # an earlier results.json stays until this one is complete
    return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", help="Table I sets, e.g. 1024_19,4096_62 (default: all 18)")
    ap.add_argument("--reps", type=int, default=DEFAULT_REPS,
                    help=f"timed products per library and set (default {DEFAULT_REPS})")
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S,
                    help=f"seconds per library and set after which it stops early, after at least 3 "
                         f"products (default {DEFAULT_BUDGET_S:g}; 0: no limit)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the operands (default 1)")
    ap.add_argument("--out", type=Path, default=OUT, help=f"the result file (default {OUT})")
    args = ap.parse_args(argv)
    try:
        sets = select_sets(args.sets)
        result = run(sets, args.reps, args.seed, args.budget, args.out)
    except BaselineError as e:
        print(f"sw_baseline: {e}", file=sys.stderr)
        return 1
    env = result["environment"]
    k = len(result["sets"])
    print(f"sw_baseline: {k} set{'' if k == 1 else 's'} in {result['wall_s']:.1f} s on {env['cpu_model']} "
          f"(NTL {env['ntl_version']}, FLINT {env['flint_version']}, GMP {env['gmp_version']}) -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
