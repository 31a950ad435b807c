#!/usr/bin/env python3
"""The software baseline of the polynomial multipliers (issues 10 and 27): the negacyclic product
c = a*b in Z_q[x]/(x^n + 1), from coefficient form to coefficient form, timed on one core of this
machine with NTL (the SSA paper's library), FLINT 2.9 (C), FLINT 3 (python-flint) and tfhe-ntt
(Zama's NTT crate, the strongest NTT library; RNS limbs).

    flow/reports/sw_baseline.py [--sets 1024_19,4096_62] [--reps 7] [--kernel-reps 2000]
                                [--budget 10] [--seed 1] [--cpu 1] [--no-build] [--store PATH | --no-store]
    make sw-baseline [SETS=...] [REPS=...] [KERNEL_REPS=...]

docs/polymul_baselines.md describes what each library measures and the result schema. For each of
the paper's Table I sets (data/papers/millar.toml, via ntt.millar_tables; all 18 by default), with
q the largest prime q = 1 (mod 2n) below 2^logq:

  1. a and b, n coefficients each, uniform in [0, q), come from Python's random.Random seeded
     with the text "polymul:<seed>:<n>:<q>"; the reference product is computed once from them with
     Python integers (reference_product: schoolbook for n <= 1024, Kronecker substitution above);
  2. NTL and FLINT 2.9: build/sw/polymul_ntl (ZZ_pX) and build/sw/polymul_flint (fmpz_mod_poly, and
     nmod_poly when q < 2^64; the faster counts) read the operands from one file, run one untimed
     warm-up product and then --reps timed products (default 7; a library stops early, after at
     least 3, once its timed products pass --budget seconds, default 10); each one's checksum
     (FNV-1a 64 of the decimal coefficients) must be the reference product's;
  3. FLINT 3 (python-flint, in this process): nmod_poly (q < 2^64) or fmpz_mod_poly, a*b then the
     fold c_lo - c_hi (truncate(n) - right_shift(n)); one warm-up, then up to --kernel-reps products
     (default 2000, within --budget), each timed alone with time.perf_counter_ns; the Python-call
     overhead is measured with the same code on 1-coefficient operands; the product must be the
     reference; python-flint has no pre-transformed product;
  4. tfhe-ntt (build/sw/tfhe_ntt, flow/reports/tfhe_ntt.py; built with `make sw-tfhe-ntt` when
     missing or stale): for each prime size b of TFHE_CONFIGS (62, 50, 31 bits: prime64's Shoup
     and IFMA paths, prime32), L primes q_i < 2^b, q_i = 1 (mod 2n), with L = ceil(logq / b), the
     smallest L for which Q = q_1...q_L has at least logq bits (the engine compared computes mod
     Q = prod q_i, as RNS hardware does; see tfhe_limbs), the fastest size kept (tfhe_bench);
     per size one product on seeded operands per limb
     against the reference product mod q_i, then the full product (2 fwd + pointwise + inv per
     limb) and the pre-transformed one (1 fwd + pointwise + inv), min and median over up to
     --kernel-reps repetitions (within --budget). Without cargo the entry says "absent" and names
     the command that installs Rust, with no figure.

A product that differs from the reference stops the run. The whole run is pinned to one core
(--cpu, default 1, when this process may use it: os.sched_setaffinity, what `taskset -c 1` does;
the programs inherit it). The result, build/sw_baseline/results.json, holds the environment (date,
CPU, libraries' versions, compilers, rustc, load average at the start and the end, the core), and
per set n, logq, q and psi (decimal strings), the legacy NTL/FLINT 2.9 fields (ntl_median_s,
flint_median_s, ntl, flint: seconds) and "libraries": one entry per library in microseconds
(LIBRARY_KEYS). It is written atomically, with build/sw_baseline/results.md beside it (the table
this script prints), and only when every set succeeded: a failed run leaves an earlier
results.json as it was.

Every figure says which core it came from: the environment and each library entry record the CPU
model and its vector extensions ("AVX-512 IFMA", "AVX-512F", "AVX2" or "none", from /proc/cpuinfo's
flags; tfhe-ntt also per prime size, use_ifma). After a complete run the results are merged into the
committed store of the strongest figures, data/baselines/cpu_strongest.json (flow/reports/cpu_strongest.py:
an entry is replaced only by a faster one, one line per decision; --store, --no-store), which
reports/polymul_best.csv compares with: a rerun on a weaker core keeps the stronger entry.
"""
import argparse
import contextlib
import gc
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from layout import BUILD
from ntt.millar_tables import PaperTableError, paper_sets, paper_table2
from reports import cpu_strongest as cs
from reports import tfhe_ntt as tn
from reports.common import cpu_identity, machine, write_json_atomic

try:
    import flint  # python-flint (requirements.txt)
except ImportError:  # the FLINT 3 entry then says "absent"
    flint = None

ROOT = Path(__file__).resolve().parents[2]
SW = BUILD / "sw"
OUT = BUILD / "sw_baseline" / "results.json"
TOOLS = {"ntl": SW / "polymul_ntl", "flint": SW / "polymul_flint"}
SOURCES = {"ntl": ROOT / "tools" / "polymul_ntl.cpp", "flint": ROOT / "tools" / "polymul_flint.c"}
DEFAULT_REPS = 7
DEFAULT_KERNEL_REPS = 2000
DEFAULT_BUDGET_S = 10.0
DEFAULT_CPU = 1
FNV_OFFSET, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3
LIBRARY_KEYS = ("ntl", "flint2", "flint3", "tfhe_ntt")
LIBRARY_NAMES = {"ntl": "NTL", "flint2": "FLINT 2.9 (C)", "flint3": "FLINT 3 (python-flint)", "tfhe_ntt": "tfhe-ntt"}
TFHE_PRIME_BITS = tn.DEFAULT_BITS  # 62: prime64::Plan keeps its Shoup path below 2^63
TFHE_CONFIGS = tn.TFHE_CONFIGS  # the prime sizes tried per set (62, 50, 31 bits): the fastest is kept
L_RULE = (f"for each prime size b in {', '.join(map(str, TFHE_CONFIGS))} bits (prime64 with Shoup; prime64's IFMA path; "
          f"prime32), L = ceil(logq / b): the smallest L for which Q = q_1...q_L (the L largest primes q_i < 2^b, "
          f"q_i = 1 mod 2n, that tfhe-ntt accepts) has at least logq bits; each size is checked and timed, and the "
          f"entry is the fastest (its full product's minimum); the product is mod Q (RNS limbs), not an exact "
          f"integer product")
SCHOOLBOOK_MAX_N = 1024
GMP_KRONECKER_BITS = 1 << 22  # Kronecker operands above 4 Mbit: one gmpy2 product instead of CPython's Karatsuba
PYTHON_FLINT_PIN = "python-flint==0.9.0"
PYTHON_FLINT_INSTALL = (f".venv/bin/pip install {PYTHON_FLINT_PIN} (pinned in requirements.txt; make setup "
                        f"installs it)")


class BaselineError(RuntimeError):
    """The baseline cannot run: bad input, a missing library or program, or a wrong product."""


# ---- the programs (NTL, FLINT 2.9) ----

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


# ---- the independent product (Python integers) ----

def negacyclic_schoolbook(a: list, b: list, q: int) -> list:
    """sum_{i+j=k} a_i b_j - sum_{i+j=k+n} a_i b_j, mod q: n^2 Python-integer products."""
    n = len(a)
    c = [0] * (2 * n)
    for i, ai in enumerate(a):
        if ai:
            for j, bj in enumerate(b):
                c[i + j] += ai * bj
    return [(c[k] - c[k + n]) % q for k in range(n)]


def negacyclic_kronecker(a: list, b: list, q: int) -> list:
    """a*b mod (x^n + 1, q) by Kronecker substitution: each operand packed into one integer (slots
    wide enough for a full-product coefficient, < n q^2), one integer product, unpacked, x^n = -1
    folded, reduced. The product is CPython's; above GMP_KRONECKER_BITS it is gmpy2's (GMP) when
    installed, since CPython's Karatsuba takes minutes at the largest sets."""
    n = len(a)
    width = ((n * (q - 1) ** 2).bit_length() + 8) // 8  # bytes per slot
    pack = lambda v: int.from_bytes(b"".join(x.to_bytes(width, "little") for x in v), "little")
    x, y = pack(a), pack(b)
    if 8 * n * width > GMP_KRONECKER_BITS and _gmpy2() is not None:
        p = int(_gmpy2().mpz(x) * _gmpy2().mpz(y))
    else:
        p = x * y
    raw = p.to_bytes(2 * n * width, "little")
    c = [int.from_bytes(raw[k * width:(k + 1) * width], "little") for k in range(2 * n)]
    return [(c[k] - c[k + n]) % q for k in range(n)]


def _gmpy2():
    try:
        import gmpy2
        return gmpy2
    except ImportError:
        return None


def reference_method(n: int, q: int) -> str:
    """How reference_product computes a*b for this n and q (recorded beside each check)."""
    if n <= SCHOOLBOOK_MAX_N:
        return "schoolbook (Python integers)"
    width = ((n * (q - 1) ** 2).bit_length() + 8) // 8
    big = 8 * n * width > GMP_KRONECKER_BITS and _gmpy2() is not None
    return "Kronecker substitution (" + ("one gmpy2 integer product" if big else "Python integers") + ")"


def reference_product(a: list, b: list, q: int) -> list:
    """The independent negacyclic product: schoolbook for n <= 1024, Kronecker substitution above."""
    return negacyclic_schoolbook(a, b, q) if len(a) <= SCHOOLBOOK_MAX_N else negacyclic_kronecker(a, b, q)


# ---- FLINT 3 (python-flint, in this process) ----

def flint3_status() -> str:
    return "ok" if flint is not None else "absent"


def flint3_versions() -> dict:
    if flint is None:
        return {"status": "absent", "reason": "python-flint is not installed", "install": PYTHON_FLINT_INSTALL}
    return {"status": "ok", "python_flint_version": flint.__version__,
            "flint_version": getattr(flint, "__FLINT_VERSION__", "unknown"), "threads": flint.ctx.threads}


def flint3_api(q: int) -> str:
    kind = "nmod_poly" if q < 1 << 64 else "fmpz_mod_poly"
    return f"{kind}: c = a * b, then c.truncate(n) - c.right_shift(n) (c_lo - c_hi: x^n = -1)"


def _flint3_polys(q: int, a: list, b: list):
    """The operands as python-flint polynomials: nmod_poly for q < 2^64, else fmpz_mod_poly."""
    if flint is None:
        raise BaselineError(f"python-flint is not installed: {PYTHON_FLINT_INSTALL}")
    if q < 1 << 64:
        return flint.nmod_poly(a, q), flint.nmod_poly(b, q)
    ctx = flint.fmpz_mod_poly_ctx(q)
    return ctx(a), ctx(b)


def _flint3_negacyclic(A, B, n: int):
    """The timed code: FLINT's product, then the fold of the high half (x^n = -1). `%` by x^n + 1
    would be a general division, several times the product's cost."""
    c = A * B
    return c.truncate(n) - c.right_shift(n)


def _flint3_coeffs(c, n: int) -> list:
    v = [int(x) for x in c.coeffs()]
    return v + [0] * (n - len(v))


def flint3_product(n: int, q: int, a: list, b: list) -> list:
    """c = a*b mod (x^n + 1, q) with python-flint (what flint3_bench times)."""
    A, B = _flint3_polys(q, a, b)
    return _flint3_coeffs(_flint3_negacyclic(A, B, n), n)


def _time_ns(A, B, n: int, reps: int, budget: float) -> tuple:
    """One warm-up, then up to reps products each timed alone (ns), stopping once budget seconds
    passed and at least 3 ran; the garbage collector is off while timing. (times, last product)"""
    pc = time.perf_counter_ns
    fold = _flint3_negacyclic
    c = fold(A, B, n)
    times = []
    limit = budget * 1e9 if budget > 0 else math.inf
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = pc()
        for _ in range(reps):
            t0 = pc()
            c = fold(A, B, n)
            t1 = pc()
            times.append(t1 - t0)
            if len(times) >= 3 and t1 - start > limit:
                break
    finally:
        if enabled:
            gc.enable()
    return times, c


def _min_median_us(times_ns: list) -> tuple:
    return round(min(times_ns) / 1e3, 3), round(statistics.median(times_ns) / 1e3, 3)


def flint3_bench(n: int, q: int, a: list, b: list, reps: int, budget: float) -> dict:
    """FLINT 3's entry for one set: check against the reference (the caller's), min and median µs."""
    A, B = _flint3_polys(q, a, b)           # set-up: outside the timed region
    times, c = _time_ns(A, B, n, reps, budget)
    A1, B1 = _flint3_polys(q, a[:1], b[:1])
    over, _ = _time_ns(A1, B1, 1, min(reps, 1000), budget)
    fmin, fmed = _min_median_us(times)
    omin, omed = _min_median_us(over)
    return {"product": _flint3_coeffs(c, n), "reps": len(times), "full_min_us": fmin, "full_median_us": fmed,
            "python_overhead_min_us": omin, "python_overhead_median_us": omed}


# ---- tfhe-ntt (build/sw/tfhe_ntt) ----

def tfhe_prepare(build: bool = True) -> str:
    """tfhe-ntt's status before the sets run: builds it (`make sw-tfhe-ntt`) when cargo is there and
    the program is missing or stale, unless build is False. "ok", "absent", "not built" or "stale"."""
    st = tn.status()
    if st in ("not built", "stale") and build:
        r = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT), "sw-tfhe-ntt", f"BUILD={BUILD}"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise BaselineError(f"building tfhe-ntt (make sw-tfhe-ntt) failed:\n{(r.stderr or r.stdout).strip()[-2000:]}")
        st = tn.status()
    return st


def tfhe_limbs(n: int, logq: int, bits: int = TFHE_PRIME_BITS) -> list:
    """The L primes of L_RULE: the smallest L for which the product of the L largest primes q_i < 2^bits,
    q_i = 1 (mod 2n), that tfhe-ntt accepts has at least logq bits (L = ceil(logq / bits) for primes
    this close to 2^bits)."""
    enough = max(1, math.ceil((logq - 1) / (bits - 1)))  # each q_i >= 2^(bits-1): enough primes
    qs = tn.primes(n, enough, bits)
    prod = 1
    for L, q in enumerate(qs, 1):
        prod *= q
        if prod.bit_length() >= logq:
            return qs[:L]
    raise BaselineError(f"{enough} primes below 2^{bits} give only {prod.bit_length()} bits for log q = {logq}")


def tfhe_bench(n: int, logq: int, seed: int, reps: int, budget: float) -> dict:
    """tfhe-ntt's entry for one set: each prime size of TFHE_CONFIGS checked and timed (tfhe_config,
    a third of the budget each), the fastest full product kept, with every size's figures in
    "configs": the strongest tfhe-ntt this machine runs, not the one size the issue named."""
    runs = [tfhe_config(n, logq, seed, reps, budget / len(TFHE_CONFIGS), bits) for bits in TFHE_CONFIGS]
    best = min(runs, key=lambda r: r["full_min_us"])
    configs = [{"prime_bits_max": r["bits"], "api": r["api"], "L": len(r["primes"]),
                **{k: r[k] for k in ("full_min_us", "full_median_us", "pre_min_us", "pre_median_us", "use_ifma")}}
               for r in runs]
    out = {k: v for k, v in best.items() if k != "bits"}
    out["configs"] = configs
    out["api"] = f"{best['api']}::Plan fwd, mul_assign_normalize, inv (per limb); the fastest of {len(runs)} prime sizes"
    return out


def tfhe_config(n: int, logq: int, seed: int, reps: int, budget: float, bits: int) -> dict:
    """One prime size: the check per limb against the reference, then min and median µs of the full and
    pre-transformed products, the repetitions calibrated to fit budget."""
    qs = tfhe_limbs(n, logq, bits)
    a, b = tn.operands(n, qs, seed)
    got = tn.product(n, qs, a, b)
    for i, q in enumerate(qs):
        if got[i] != reference_product(a[i], b[i], q):
            raise BaselineError(f"tfhe-ntt's product differs from the independent Python product for n = {n}, "
                                f"limb {i} (q = {q}), seed {seed}")
    calib = tn.timings(n, qs, 10, seed)
    per_rep_s = (calib["full_median_us"] + calib["pre_median_us"]) * 1e-6 * 1.1  # and the warm-up tenth
    if budget > 0:
        reps = max(10, min(reps, int(budget / per_rep_s)))
    t = tn.timings(n, qs, reps, seed)
    return {"primes": qs, "bits": bits, "api": t["api"], "reps": t["reps"], "full_min_us": t["full_min_us"],
            "full_median_us": t["full_median_us"], "pre_min_us": t["pre_min_us"], "pre_median_us": t["pre_median_us"],
            "use_ifma": t["use_ifma"]}


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
        "python": sys.version.split()[0],
        "load_average_start": list(os.getloadavg()),
    }


@contextlib.contextmanager
def pinned(cpu):
    """Runs the block on core `cpu` alone (os.sched_setaffinity, what `taskset -c <cpu>` does; child
    processes inherit it), then restores the affinity. Yields (core or None, how)."""
    if cpu is None or cpu < 0:
        yield None, "not pinned (--cpu -1)"
        return
    if not hasattr(os, "sched_setaffinity"):
        yield None, "not pinned: os.sched_setaffinity is not available here"
        return
    before = os.sched_getaffinity(0)
    if cpu not in before:
        yield None, f"not pinned: core {cpu} is not among this process's cores {sorted(before)}"
        return
    os.sched_setaffinity(0, {cpu})
    try:
        yield cpu, f"os.sched_setaffinity({{{cpu}}}) for the whole run (as taskset -c {cpu}); the programs inherit it"
    finally:
        os.sched_setaffinity(0, before)


# ---- the run ----

def _timing(j: dict) -> dict:
    return {k: j[k] for k in ("reps", "median_s", "min_s", "mean_s", "times_s", "checksum")}


def _us(x: float) -> float:
    return round(x * 1e6, 3)


def _not_measured(why: str) -> dict:
    return {"pre_min_us": None, "pre_median_us": None, "pre": why}


def _c_entry(library: str, version: str, api: str, q: int, j: dict, check: dict) -> dict:
    return {"library": library, "version": version, "status": "ok", "api": api, "modulus": "q", "L": 1,
            "prime_bits": [q.bit_length()], "moduli": [str(q)], "reps": j["reps"],
            "full_min_us": _us(j["min_s"]), "full_median_us": _us(j["median_s"]),
            **_not_measured("not measured: the C program times the full product only"), "check": check}


def run_set(s, seed: int, reps: int, budget: float, workdir: Path, kernel_reps: int = DEFAULT_KERNEL_REPS,
            tfhe_status: str = "ok") -> tuple:
    """(result row, ntl JSON, flint JSON) for one ParamSet."""
    a, b = operands(s.n, s.q, seed)
    method = reference_method(s.n, s.q)
    ref = reference_product(a, b, s.q)
    want = checksum(ref)
    check = {"passed": True, "reference": method, "seed": seed}
    load = list(os.getloadavg())
    path = workdir / f"{s.name}.txt"
    path.write_text(operand_text(s.n, s.q, a, b))
    try:
        ntl = bench("ntl", path, reps, budget)
        flint2 = bench("flint", path, reps, budget)
    finally:
        path.unlink(missing_ok=True)
    for j in (ntl, flint2):
        if j["n"] != s.n or j["q_bits"] != s.logq:
            raise BaselineError(f"{j['tool']} read n = {j['n']}, a {j['q_bits']}-bit q for {s.name}")
    for name, got in (("NTL", ntl["checksum"]), (f"FLINT 2.9 ({flint2['best']}_poly)", flint2["checksum"]),
                      ("FLINT 2.9 (fmpz_mod_poly)", flint2["fmpz_mod"]["checksum"]),
                      ("FLINT 2.9 (nmod_poly)", (flint2["nmod"] or {"checksum": want})["checksum"])):
        if got != want:
            raise BaselineError(f"{name}'s product differs from the independent Python product for {s.name} "
                                f"(seed {seed}): {got}, want {want}; the library or tools/polymul_*.c* is wrong")
    libs = {
        "ntl": _c_entry("NTL", ntl["version"], "ZZ_pX mul, then c_i - c_(i+n) (tools/polymul_ntl.cpp)", s.q, ntl, check),
        "flint2": _c_entry("FLINT", flint2["version"], f"{flint2['best']}_poly_mul, then c_i - c_(i+n) "
                           f"(tools/polymul_flint.c; the faster of nmod and fmpz_mod)", s.q, flint2, check),
    }
    if flint3_status() == "ok":
        f3 = flint3_bench(s.n, s.q, a, b, kernel_reps, budget)
        if f3.pop("product") != ref:
            raise BaselineError(f"FLINT 3 (python-flint)'s product differs from the independent Python product "
                                f"for {s.name} (seed {seed})")
        libs["flint3"] = {"library": "FLINT (python-flint)", "version": f"{flint.__FLINT_VERSION__} "
                          f"(python-flint {flint.__version__})", "status": "ok", "api": flint3_api(s.q), "modulus": "q",
                          "L": 1, "prime_bits": [s.q.bit_length()], "moduli": [str(s.q)], **f3,
                          **_not_measured("not available: python-flint has no transform or pre-transformed "
                                          "(precomputed-operand) product for nmod_poly/fmpz_mod_poly"),
                          "timer": "time.perf_counter_ns per product, garbage collector off",
                          "check": check}
    else:
        libs["flint3"] = {"library": "FLINT (python-flint)", **flint3_versions()}
    if tfhe_status == "ok":
        t = tfhe_bench(s.n, s.logq, seed, kernel_reps, budget)
        qs = t.pop("primes")
        Q = math.prod(qs)
        libs["tfhe_ntt"] = {"library": "tfhe-ntt", "version": tn.crate_version(), "status": "ok", "modulus": "rns",
                            "L": len(qs), "prime_bits": [q.bit_length() for q in qs], "moduli": [str(q) for q in qs],
                            "Q_bits": Q.bit_length(), "L_rule": L_RULE, **t,
                            "pre": "measured: b already transformed (1 fwd + mul_assign_normalize + inv per limb)",
                            "check": {"passed": True, "reference": reference_method(s.n, max(qs)) + ", per limb",
                                      "seed": seed}}
    elif tfhe_status == "absent":
        libs["tfhe_ntt"] = {"library": "tfhe-ntt", "status": "absent", "reason": "cargo not found",
                            "install": tn.INSTALL}
    else:
        libs["tfhe_ntt"] = {"library": "tfhe-ntt", "status": tfhe_status,
                            "reason": f"{tn.binary()} is {tfhe_status} and this run was told not to build it",
                            "install": "make sw-tfhe-ntt"}
    cpu = cpu_identity()  # the core each figure came from, kept with the figure (the store merges entries)
    for e in libs.values():
        if e.get("status") == "ok":
            e.update(cpu)
    row = {
        "name": s.name, "n": s.n, "logq": s.logq, "security": s.security,
        "q": str(s.q), "psi": str(s.psi), "seed": seed, "load_average": load,
        "ntl_median_s": ntl["median_s"], "flint_median_s": flint2["median_s"], "flint_best": flint2["best"],
        "checksum": want,
        "ntl": _timing(ntl),
        "flint": {"best": flint2["best"], **_timing(flint2),
                  "fmpz_mod": _timing(flint2["fmpz_mod"]),
                  "nmod": _timing(flint2["nmod"]) if flint2["nmod"] else None},
        "libraries": libs,
    }
    return row, ntl, flint2


def _fmt(e: dict, which: str) -> str:
    if e.get("status") != "ok":
        return e.get("status", "?")
    lo, med = e.get(f"{which}_min_us"), e.get(f"{which}_median_us")
    return "n/a" if lo is None else f"{lo:,.1f} / {med:,.1f}"


def summary(result: dict) -> str:
    """The run as markdown: the environment, one table row per set and library, the L rule."""
    env = result["environment"]
    t3, f3 = env["tfhe_ntt"], env["python_flint"]
    L = [f"# Software baseline: negacyclic product, coefficient form to coefficient form, one core", "",
         f"{env['date']}, {env['cpu_model']} ({env.get('cpu_extensions', 'extensions not recorded')}; "
         f"{env['cpu_count']} cores), {env['pinning']}; load average "
         f"{env['load_average_start']} at the start, {env['load_average_end']} at the end.", "",
         f"NTL {env.get('ntl_version')} and FLINT {env.get('flint_version')} (C, {env['cxx']}, {env['flags']}), "
         f"up to {result['reps']} timed products; "
         + (f"FLINT {f3['flint_version']} through python-flint {f3['python_flint_version']} (Python {env['python']})"
            if f3["status"] == "ok" else f"FLINT 3 (python-flint): absent, install with {f3['install']}")
         + "; " + (f"tfhe-ntt {t3['version']} ({t3['rustc']}, {t3['rustflags']})" if t3["status"] == "ok"
                   else f"tfhe-ntt: {t3['status']}" + (f", install with {t3['install']}" if t3.get("install") else ""))
         + f"; up to {result['kernel_reps']} repetitions each; every library within a budget of "
           f"{result['budget_s']:g} s per set.", "",
         "| set | library | modulus | reps | full product µs (min / median) | b pre-transformed µs (min / median) | check |",
         "|---|---|---|---|---|---|---|"]
    for row in result["sets"]:
        for key in LIBRARY_KEYS:
            e = row["libraries"][key]
            if e.get("status") == "ok":
                mod = f"q, {e['prime_bits'][0]} bits" if e["modulus"] == "q" else \
                    (f"RNS, L = {e['L']} x {max(e['prime_bits'])} bits (Q: {e['Q_bits']} bits)"
                     + (f", {e['api'].split('::')[0]}" if e.get("configs") else ""))
                chk = "passed" if e["check"]["passed"] else "FAILED"
                reps = str(e["reps"])
            else:
                mod, chk, reps = "-", "-", "-"
            L.append(f"| {row['n']}_{row['logq']} | {LIBRARY_NAMES[key]} | {mod} | {reps} | {_fmt(e, 'full')} | "
                     f"{_fmt(e, 'pre')} | {chk} |")
    L += ["", f"tfhe-ntt's limbs: {L_RULE}. FLINT 3's product: "
          f"{flint3_api(2)} (fmpz_mod_poly when q >= 2^64); it runs in Python, one call chain per product "
          f"(its overhead, the same code on 1-coefficient operands, is in results.json as python_overhead_*_us)."
          " n/a: the library has no pre-transformed product here (NTL and FLINT 2.9: not measured by the C "
          "programs; python-flint: no such API). Every product was checked once per set against an independent "
          "Python product (schoolbook for n <= 1024, Kronecker substitution above), mod each modulus used.", ""]
    over = [f"{row['n']}_{row['logq']}: {row['libraries']['flint3']['python_overhead_min_us']:.2f} µs"
            for row in result["sets"] if row["libraries"]["flint3"].get("status") == "ok"]
    if over:
        L += ["python-flint call overhead (min): " + ", ".join(over) + ".", ""]
    return "\n".join(L)


def run(sets: list, reps: int = DEFAULT_REPS, seed: int = 1, budget: float = DEFAULT_BUDGET_S,
        out: Path = OUT, progress=sys.stderr, kernel_reps: int = DEFAULT_KERNEL_REPS, cpu=DEFAULT_CPU,
        build: bool = True) -> dict:
    if reps < 1 or kernel_reps < 1:
        raise BaselineError(f"--reps {reps}, --kernel-reps {kernel_reps}: give at least 1")
    build_tools()
    tfhe_status = tfhe_prepare(build)
    paper_ntl = {(r.n, r.logq): r.ntl_us for r in paper_table2()}
    result = {"environment": environment(), "reps": reps, "kernel_reps": kernel_reps, "budget_s": budget,
              "seed": seed, "warmup": 1, "libraries": list(LIBRARY_KEYS), "L_rule": L_RULE,
              "tfhe_ntt_prime_bits": TFHE_PRIME_BITS, "tfhe_ntt_configs": list(TFHE_CONFIGS), "sets": []}
    env = result["environment"]
    env["python_flint"] = flint3_versions()
    env["tfhe_ntt"] = ({"status": "ok", "version": tn.crate_version(), "rustc": tn.rustc_version(),
                        "rustflags": tn.RUSTFLAGS, "binary": str(tn.binary())} if tfhe_status == "ok" else
                       {"status": tfhe_status, "install": tn.INSTALL if tfhe_status == "absent" else "make sw-tfhe-ntt"})
    out.parent.mkdir(parents=True, exist_ok=True)
    t_start = time.monotonic()
    with pinned(cpu) as (core, how), \
            tempfile.TemporaryDirectory(prefix="operands.", dir=out.parent) as work:
        env["pinned_cpu"], env["pinning"] = core, how
        for i, s in enumerate(sets, 1):
            t0 = time.monotonic()
            row, ntl, flint2 = run_set(s, seed, reps, budget, Path(work), kernel_reps, tfhe_status)
            row["paper_ntl_us"] = paper_ntl.get((s.n, s.logq))
            result["sets"].append(row)
            if i == 1:
                env.update(ntl_version=ntl["version"], flint_version=flint2["version"], gmp_version=ntl["gmp"],
                           gmp_version_flint=flint2["gmp"], ntl_threads=ntl["threads"], flint_threads=flint2["threads"])
            if progress:
                parts = [f"{LIBRARY_NAMES[k]} {_fmt(row['libraries'][k], 'full')}" for k in LIBRARY_KEYS]
                t = row["libraries"]["tfhe_ntt"]
                pre = f" (pre {_fmt(t, 'pre')}, L = {t['L']})" if t.get("status") == "ok" else ""
                print(f"[{i}/{len(sets)}] {s.name}, µs min / median: {', '.join(parts)}{pre}; all checked "
                      f"({time.monotonic() - t0:.1f} s)", file=progress, flush=True)
    env["load_average_end"] = list(os.getloadavg())
    result["wall_s"] = round(time.monotonic() - t_start, 3)
    write_json_atomic(out, result)  # an earlier results.json stays until this one is complete
    out.with_suffix(".md").write_text(summary(result))
    return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", help="Table I sets, e.g. 1024_19,4096_62 (default: all 18)")
    ap.add_argument("--reps", type=int, default=DEFAULT_REPS,
                    help=f"timed products per set for NTL and FLINT 2.9 (default {DEFAULT_REPS})")
    ap.add_argument("--kernel-reps", type=int, default=DEFAULT_KERNEL_REPS,
                    help=f"timed products per set for FLINT 3 and tfhe-ntt (default {DEFAULT_KERNEL_REPS})")
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S,
                    help=f"seconds per library and set after which it stops early, after at least 3 "
                         f"products (default {DEFAULT_BUDGET_S:g}; 0: no limit)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the operands (default 1)")
    ap.add_argument("--cpu", type=int, default=DEFAULT_CPU,
                    help=f"the core the run is pinned to (default {DEFAULT_CPU}; -1: not pinned)")
    ap.add_argument("--no-build", action="store_true",
                    help="do not build tfhe-ntt when it is missing or stale (its entry then says so)")
    ap.add_argument("--out", type=Path, default=OUT, help=f"the result file (default {OUT})")
    store = ap.add_mutually_exclusive_group()
    store.add_argument("--store", type=Path, default=cs.STORE,
                       help=f"the store of the strongest figures the run is merged into (default {cs.STORE})")
    store.add_argument("--no-store", action="store_true", help="do not merge the run into the store (a trial run)")
    args = ap.parse_args(argv)
    try:
        sets = select_sets(args.sets)
        result = run(sets, args.reps, args.seed, args.budget, args.out, kernel_reps=args.kernel_reps,
                     cpu=args.cpu, build=not args.no_build)
    except (BaselineError, tn.TfheNttError) as e:
        print(f"sw_baseline: {e}", file=sys.stderr)
        return 1
    env = result["environment"]
    print(summary(result))
    k = len(result["sets"])
    print(f"sw_baseline: {k} set{'' if k == 1 else 's'} in {result['wall_s']:.1f} s on {env['cpu_model']} "
          f"({env['cpu_extensions']}; NTL {env['ntl_version']}, FLINT {env['flint_version']}, GMP {env['gmp_version']}, "
          f"python-flint: {env['python_flint'].get('python_flint_version', 'absent')}, "
          f"tfhe-ntt: {env['tfhe_ntt'].get('version', env['tfhe_ntt']['status'])}) -> {args.out} "
          f"and {args.out.with_suffix('.md')}")
    if args.no_store:
        print(f"sw_baseline: not merged into {cs.STORE} (--no-store)")
        return 0
    try:  # after the run is complete: a failed run never reaches the store
        for line in cs.merge_file(result, args.store):
            print(f"cpu store: {line}")
    except cs.StoreError as e:
        print(f"sw_baseline: the run is in {args.out}, but merging it into the store failed: {e}; the store is "
              f"unchanged", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
