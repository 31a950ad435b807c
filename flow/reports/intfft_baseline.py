#!/usr/bin/env python3
"""The software baseline of the super-size multiplier (Cao et al.; issue 11): the multiplications
and Barrett reductions of CMNT and CNT encryption, timed with GMP (through gmpy2) on this machine,
at the operand sizes of the paper's Tables 1 and 2 (parsed from its text by intfft.paper_tables).

    flow/reports/intfft_baseline.py [--groups CMNT:Toy,CNT:Large] [--reps 7] [--seed 1] [--budget 10]
                            [--with-square] [--out build/intfft_baseline/results.json]

For each group (all eight by default), with operands from random.Random("intfft:<seed>:<scheme>:
<group>"): B (delta bits), A (phi bits), A0 (phi bits, top bit set), x (phi + gamma bits, gamma =
delta + ceil(log2 N) + 3 for the group's N = theta^2 or theta products; intfft.encrypt), it times

  mul      one delta x phi product B*A (the product the hardware repeats N times);
  barrett  one super-size Barrett reduction of x mod A0 as in Eqs. (9)-(11): beta, alpha from
           Eq. (10)-(11) with d = 224 (the Solinas design), A01 = floor(2^(phi+alpha)/A0)
           precomputed (not timed), q = (x >> (phi+beta)) * A01, sigma = q >> (alpha-beta),
           y = x - sigma*A0, one conditional subtraction;
  mod      GMP's own x mod A0 (gmpy2.f_mod), for reference;
  square   (--with-square) one phi x phi product A_i,0 * A_j,1 (CMNT's factor, which the paper's
           timed run leaves out);

each as the median of --reps timed runs after one untimed warm-up (a quantity stops early, after
at least 3 runs, once its runs pass --budget seconds). The Barrett result must equal x mod A0.
Per group it also gives est_encrypt_s = N * mul + barrett, beside the paper's fastest hardware
time (the Solinas row of Table 6) and the software time it cites ([8] or [9]), both parsed.

The result, build/intfft_baseline/results.json, holds the date, the CPU model (/proc/cpuinfo) and
core count, the gmpy2, GMP and Python versions, the load average, and one entry per group; it is
written atomically and only when every group succeeded. One progress line per group on stdout.
gmpy2 is pinned in requirements.txt.
"""
import argparse
import os
import platform
import random
import statistics
import sys
import time
from math import ceil, log2
from pathlib import Path

from intfft.paper_tables import PaperTableError, paper_table1, paper_table2, paper_table6
from layout import BUILD
from reports.common import machine, write_json_atomic

OUT = BUILD / "intfft_baseline" / "results.json"
DEFAULT_REPS = 7
DEFAULT_BUDGET_S = 10.0
BARRETT_D = 224
SOLINAS_ROW = "with 2^{64} - 2^{32} + 1"


class BaselineError(RuntimeError):
    """The baseline cannot run: bad input, gmpy2 missing, or a wrong reduction."""


def gmpy2_module():
    try:
        import gmpy2
    except ImportError:
        raise BaselineError("gmpy2 is not installed: pip install -r requirements.txt (gmpy2 is pinned there)") from None
    return gmpy2


# ---- parameters ----

def groups(path=None) -> list:
    """The eight parsed groups (Tables 1 and 2) in the order CMNT Toy..Large, CNT Toy..Large."""
    return paper_table1(path) + paper_table2(path)


def select(spec: str = None, path=None) -> list:
    all_groups = groups(path)
    if not spec:
        return all_groups
    by_key = {f"{g.scheme}:{g.name}".lower(): g for g in all_groups}
    chosen = []
    for key in spec.split(","):
        g = by_key.get(key.strip().lower())
        if g is None:
            raise BaselineError(f"unknown group {key!r}; choose from {', '.join(f'{g.scheme}:{g.name}' for g in all_groups)}")
        chosen.append(g)
    return chosen


def n_products(g) -> int:
    return g.theta ** 2 if g.scheme == "CMNT" else g.theta


def gamma_of(g) -> int:
    return g.delta + ceil(log2(n_products(g))) + 3


def beta_alpha(phi: int, d: int) -> tuple:
    """Eqs. (10)-(11) (the same formulas as intfft.barrett, kept free of sympy here)."""
    b0 = (phi // d) * d - phi
    beta = b0 if b0 < -2 else b0 - d
    return beta, ((phi - beta) // d + 1) * d + beta


def operands(g, seed: int) -> dict:
    rng = random.Random(f"intfft:{seed}:{g.scheme}:{g.name}")
    A0 = rng.getrandbits(g.phi) | (1 << (g.phi - 1))
    return {"B": rng.getrandbits(g.delta), "A": rng.getrandbits(g.phi), "A0": A0,
            "A1": rng.getrandbits(g.phi), "x": rng.getrandbits(g.phi + gamma_of(g))}


def barrett_setup(A0, phi: int, d: int = BARRETT_D) -> dict:
    beta, alpha = beta_alpha(phi, d)
    gmpy2 = gmpy2_module()
    A0 = gmpy2.mpz(A0)
    return {"A0": A0, "A01": (gmpy2.mpz(1) << (phi + alpha)) // A0, "phi": phi, "beta": beta, "alpha": alpha}


def barrett(x, s: dict):
    """Eqs. (9)-(11) with gmpy2 integers."""
    q = (x >> (s["phi"] + s["beta"])) * s["A01"]
    y = x - (q >> (s["alpha"] - s["beta"])) * s["A0"]
    if y >= s["A0"]:
        y -= s["A0"]
    return y


def timed(fn, reps: int, budget: float) -> dict:
    fn()                                   # warm-up
    times = []
    t_all = time.perf_counter()
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        if len(times) >= 3 and time.perf_counter() - t_all > budget:
            break
    return {"reps": len(times), "median_s": statistics.median(times), "min_s": min(times), "times_s": times}


def paper_times(path=None) -> dict:
    """{(scheme, group): {"hw_solinas_s": .., "sw_s": ..}} from the parsed Table 6."""
    out = {}
    for c in paper_table6(path):
        if not c.scheme:
            continue
        entry = out.setdefault((c.scheme, c.column), {})
        if c.p is None:
            entry["sw_s"] = float(c.seconds)
        elif c.row.endswith(SOLINAS_ROW):
            entry["hw_solinas_s"] = float(c.seconds)
    return out


def run_group(g, seed: int, reps: int, budget: float, with_square: bool, paper: dict) -> dict:
    gmpy2 = gmpy2_module()
    ops = {k: gmpy2.mpz(v) for k, v in operands(g, seed).items()}
    s = barrett_setup(ops["A0"], g.phi)
    if barrett(ops["x"], s) != gmpy2.f_mod(ops["x"], ops["A0"]):
        raise BaselineError(f"{g.scheme} {g.name}: the Barrett reduction disagrees with x mod A0")
    B, A, A0, A1, x = ops["B"], ops["A"], ops["A0"], ops["A1"], ops["x"]
    row = {"scheme": g.scheme, "group": g.name, "delta": g.delta, "rho": g.rho, "phi": g.phi, "theta": g.theta,
           "products": n_products(g), "gamma": gamma_of(g), "beta": s["beta"], "alpha": s["alpha"],
           "mul": timed(lambda: B * A, reps, budget),
           "barrett": timed(lambda: barrett(x, s), reps, budget),
           "mod": timed(lambda: gmpy2.f_mod(x, A0), reps, budget)}
    if with_square:
        row["square"] = timed(lambda: A * A1, reps, budget)
    row["est_encrypt_s"] = row["products"] * row["mul"]["median_s"] + row["barrett"]["median_s"]
    row.update(paper.get((g.scheme, g.name), {}))
    return row


def environment() -> dict:
    gmpy2 = gmpy2_module()
    return {**machine(), "python": platform.python_version(), "gmpy2": gmpy2.version(), "gmp": gmpy2.mp_version(),
            "load_average_start": list(os.getloadavg())}


def run(chosen: list, reps: int = DEFAULT_REPS, seed: int = 1, budget: float = DEFAULT_BUDGET_S,
        with_square: bool = False, out: Path = OUT, log=print) -> dict:
    env = environment()
    paper = paper_times()
    rows = []
    for g in chosen:
        r = run_group(g, seed, reps, budget, with_square, paper)
        rows.append(r)
        log(f"{g.scheme:4} {g.name:6} phi={g.phi:>8} delta={g.delta:>4} N={r['products']:>5}: "
            f"mul {r['mul']['median_s'] * 1e3:9.3f} ms, barrett {r['barrett']['median_s'] * 1e3:9.3f} ms, "
            f"mod {r['mod']['median_s'] * 1e3:9.3f} ms, est. encryption {r['est_encrypt_s']:9.4f} s "
            f"(paper: Solinas hw {r.get('hw_solinas_s', float('nan'))} s, sw {r.get('sw_s', float('nan'))} s)",
            flush=True)
    env["load_average_end"] = list(os.getloadavg())
    data = {"environment": env, "reps": reps, "seed": seed, "budget_s": budget, "barrett_d": BARRETT_D,
            "groups": rows}
    write_json_atomic(Path(out), data)  # an earlier results.json stays until this one is complete
    return data


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--groups", help="comma-separated scheme:group, e.g. CMNT:Toy,CNT:Large (default: all 8)")
    ap.add_argument("--reps", type=int, default=DEFAULT_REPS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S, help="seconds per quantity before stopping early")
    ap.add_argument("--with-square", action="store_true", help="also time the phi x phi product")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    try:
        if a.reps < 1:
            raise BaselineError("--reps must be >= 1")
        run(select(a.groups), a.reps, a.seed, a.budget, a.with_square, a.out)
    except (BaselineError, PaperTableError) as e:
        print(f"intfft_baseline: {e}", file=sys.stderr)
        return 1
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
