"""Test moduli of the reduction family, by class, for the model tests and the cocotb bench.

Each design's class (docs/reduction.md) is sampled where its edges are:
  prime_top        primes just below the top of the class's range
  prime_far        primes far below it (a random, much smaller size where the class allows)
  composite        composites in the class (the algorithms must not need primality)
  range_min        the smallest modulus of the class
  range_max        the largest modulus of the class
and, for the shift methods, Proth-l forms with extreme shift amounts (l_i = 0 and h-2).
"""
import random

from primetools.primes import is_probable_prime
from primetools.proth import proth_l_value

from .names import ReductionDesign
from .precompute import plantard_ok

CLASSES = ("prime_top", "prime_far", "composite", "range_min", "range_max")


def _plantard_top(k):
    """The largest odd m with m < 2^k/phi."""
    lo, hi = 3, 1 << k
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if plantard_ok(k, mid) else (lo, mid)
    return lo if lo & 1 else lo - 1


def _pick(candidates, want_prime, rng, tries=20000):
    for _ in range(tries):
        m = candidates(rng)
        if m is not None and is_probable_prime(m) == want_prime:
            return m
    raise RuntimeError("no modulus found for this class")


def _proth_l(d: ReductionDesign, rng, extreme=False):
    top = d.h - 2
    if extreme:
        l1, l2 = rng.choice([(0, 0), (top, 0), (top, top), (top, top // 2)])
        l3 = rng.choice([0, top]) if d.kind == "3l" else None
    else:
        l1 = rng.randrange(top + 1)
        l2 = rng.randrange(l1 + 1)
        l3 = rng.randrange(top + 1) if d.kind == "3l" else None
    return proth_l_value(d.k, d.h, l1, l2, l3)


def modulus(d: ReductionDesign, cls: str, rng: random.Random) -> int:
    k, f = d.k, d.family
    if f in ("monts", "k2reds"):
        if cls in ("range_min", "range_max"):
            return _proth_l(d, rng, extreme=True)
        return _pick(lambda r: _proth_l(d, r), cls != "composite", rng)
    if f in ("mont", "plantard", "cbarrett"):
        hi = _plantard_top(k) if f == "plantard" else (1 << k) - 1
        lo = (1 << (k - 1)) + 1 if f == "cbarrett" else 3
        if cls == "range_min":
            return lo
        if cls == "range_max":
            return hi
        if cls == "prime_top":
            return _pick(lambda r: (hi - r.randrange(1 << min(16, k - 2))) | 1, True, rng)
        if cls == "prime_far":
            if f == "cbarrett":  # exactly k bits: far below the top of the range
                return _pick(lambda r: r.randrange(lo, lo + (lo >> 4)) | 1, True, rng)
            return _pick(lambda r: r.randrange(3, 1 << r.randrange(3, k - 2)) | 1, True, rng)
        return _pick(lambda r: r.randrange(lo, hi) | 1, False, rng)
    # wlm, wlmm, k2red: q = q_h 2^w + 1 with 1 <= q_h < 2^(k-w)
    w = d.omega
    qh_top = (1 << (k - w)) - 1
    if cls == "range_min":
        return (1 << w) + 1
    if cls == "range_max":
        return (qh_top << w) + 1
    if cls == "prime_top":
        return _pick(lambda r: ((qh_top - r.randrange(min(qh_top, 1 << 12))) << w) + 1, True, rng)
    if cls == "prime_far":
        return _pick(lambda r: (r.randrange(1, max(2, qh_top >> 3)) << w) + 1, True, rng)
    return _pick(lambda r: (r.randrange(1, qh_top + 1) << w) + 1, False, rng)


def pre_correction(d: ReductionDesign, trace: dict) -> int:
    """The value the design's last correction looks at, read off the model's trace."""
    name = {"mont": "b", "cbarrett": "b_true", "plantard": "c", "wlm": "t_final", "wlmm": "t_final",
            "k2red": "t'", "k2reds": "t'", "monts": "b'"}[d.family]
    return trace[name][0]


def correction_case(d: ReductionDesign, rng: random.Random, exact: bool, max_tries=20000):
    """(a, b, m) whose last correction fires: the pre-correction value is >= m (K2RED: also < 0);
    None for Plantard, whose line 3 never fires. With `exact`, it equals m exactly (m composite, a b = 0 mod m), which tells a
    `>=` from a `>` (Plantard's ==, K2RED's >= q)."""
    from .models import model
    from .precompute import reduction_ports
    if d.family == "plantard":
        return None  # line 3 (c = q) is unreachable for a, b < q < 2^k/phi (test_reduction_models)
    if not exact:  # random operands reach the correction often, except for a few Proth-l classes
        tries, max_tries = max_tries, 300
    for _ in range(max_tries):
        cls = "composite" if exact else rng.choice(CLASSES)
        try:
            m = modulus(d, cls, rng)
        except RuntimeError:
            continue
        if exact:
            f = next((p for p in range(3, 1 << 12, 2) if m % p == 0 and p < m), None)
            if f is None:
                continue
            a, b = f * rng.randrange(m // f), (m // f) * rng.randrange(f)
        else:
            a, b = rng.randrange(m), rng.randrange(m)
        tr = {}
        model(d, reduction_ports(d, a, b, m), tr)
        v = pre_correction(d, tr)
        if (v == m) if exact else (v >= m or (v < 0)):
            return a, b, m
    if not exact:
        return correction_case(d, rng, True, tries)
    raise RuntimeError(f"{d.name}: no correction case in {max_tries} tries")
