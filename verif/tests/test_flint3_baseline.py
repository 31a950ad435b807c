"""FLINT 3 through python-flint in the software baseline (issue 27; flow/reports/sw_baseline.py): the
negacyclic product it times (nmod_poly for q < 2^64, fmpz_mod_poly above: a*b, then the fold
c_lo - c_hi) against a schoolbook product in Python integers, at small n, on random and edge
operands (all q - 1, zero, x^(n-1) squared, one), and the timing entry it writes.

Skipped, saying why, when python-flint is not installed (requirements.txt pins it; make setup).
"""
import random

import pytest

flint = pytest.importorskip("flint", reason="python-flint is not installed: .venv/bin/pip install python-flint==0.9.0 "
                                            "(pinned in requirements.txt; make setup installs it)")

from ntt import millar_tables as mt  # noqa: E402
from reports import sw_baseline as sb  # noqa: E402


# The project's independent oracle (Python integers, no NTT), shared with the engine's tests.
from polymul.stream import negacyclic_schoolbook  # noqa: E402


def schoolbook(a, b, q):
    return negacyclic_schoolbook(a, b, len(a), q)


SETS = {s.name: s for s in mt.paper_sets()}
MODULI = {
    "q19": SETS["polymul_1024_19"].q,        # nmod_poly
    "q62": SETS["polymul_4096_62"].q,        # nmod_poly
    "q64": mt.modulus(1024, 64)[0],          # 64 bits: the largest nmod_poly modulus
    "q80": SETS["polymul_4096_80"].q,        # fmpz_mod_poly
    "q616": SETS["polymul_32768_616"].q,     # fmpz_mod_poly, > 500 bits
}


def _cases(n, q, rng):
    yield "random", [rng.randrange(q) for _ in range(n)], [rng.randrange(q) for _ in range(n)]
    yield "max", [q - 1] * n, [q - 1] * n
    yield "zeros", [0] * n, [0] * n
    yield "zero-times-max", [0] * n, [q - 1] * n
    yield "max-times-zero", [q - 1] * n, [0] * n
    top = [0] * (n - 1) + [1]
    yield "x^(n-1)^2", top, top              # = x^(2n-2) = -x^(n-2)
    yield "one", [1] + [0] * (n - 1), [rng.randrange(q) for _ in range(n)]


@pytest.mark.parametrize("qname", list(MODULI))
@pytest.mark.parametrize("n", [1, 2, 8, 64])
def test_product_matches_schoolbook(qname, n):
    q = MODULI[qname]
    rng = random.Random(f"flint3:{qname}:{n}")
    for case, a, b in _cases(n, q, rng):
        assert sb.flint3_product(n, q, a, b) == schoolbook(a, b, q), (case, n, qname)


def test_all_max_is_known():
    """(q-1) * sum x^i squared: with x^n = -1, c_k = (k + 1) - (n - 1 - k) = 2k + 2 - n (q-1 = -1)."""
    n, q = 16, MODULI["q62"]
    assert sb.flint3_product(n, q, [q - 1] * n, [q - 1] * n) == [(2 * k + 2 - n) % q for k in range(n)]


def test_api_by_width():
    assert sb.flint3_api(MODULI["q64"]).startswith("nmod_poly")
    assert sb.flint3_api(MODULI["q80"]).startswith("fmpz_mod_poly")
    A, _ = sb._flint3_polys(MODULI["q64"], [1], [1])
    C, _ = sb._flint3_polys(MODULI["q80"], [1], [1])
    assert isinstance(A, flint.nmod_poly) and isinstance(C, flint.fmpz_mod_poly)


@pytest.mark.parametrize("qname", ["q19", "q80"])
def test_bench_entry(qname):
    """flint3_bench returns the product it timed (the driver checks it), min <= median, and the
    Python-call overhead measured on 1-coefficient operands."""
    n, q = 256, MODULI[qname]
    a, b = sb.operands(n, q, seed=3)
    e = sb.flint3_bench(n, q, a, b, reps=50, budget=0)
    assert e["product"] == schoolbook(a, b, q)
    assert e["reps"] == 50 and 0 < e["full_min_us"] <= e["full_median_us"]
    assert 0 < e["python_overhead_min_us"] <= e["python_overhead_median_us"]
    assert e["python_overhead_min_us"] < e["full_min_us"]


def test_bench_budget_stops_early():
    n, q = 64, MODULI["q19"]
    a, b = sb.operands(n, q, seed=4)
    e = sb.flint3_bench(n, q, a, b, reps=10 ** 7, budget=1e-6)
    assert e["reps"] == 3                     # at least 3, then the budget ends it


def test_versions():
    v = sb.flint3_versions()
    assert v["status"] == "ok" and v["python_flint_version"] == flint.__version__
    assert v["flint_version"].startswith("3.") and v["threads"] == 1
