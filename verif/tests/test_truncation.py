"""Truncated quotient products (issue lever 1, docs/modmul.md, "Truncated quotient products").

Dropping the c low columns of a quotient product makes q smaller: the truncated
floor(ab / 2^s) is at most E(c, s) = ceil(Dmax(c) / 2^s) below the exact one, Dmax(c) =
(c-1) 2^c + 1 (Multiplier.highTruncated). Each family's proof turns that into a strict bound
t < X M before the conditional subtractions (models.barrett_bound, shoup_bound, gshoup_bound:
the paper's Proposition extended) and ceil(X) - 1 corrections. Checked here:
  * the product bound, exhaustively on 4..8-bit operands, every c;
  * every family exhaustively at k = 4..8 (every modulus, every operand pair, every c, GShoup
    every (cR, cQ) and both modes): q within E of the exact q, t below the bound, every
    intermediate fits its width, the result is a*b % m;
  * hypothesis at 16..256 bits with the edge operands;
  * one correction fewer than the bound requires gives a wrong result (kept counterexamples).
The exhaustive checks run the models on numpy arrays (elementwise, the same code).
"""
import functools
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from modmul import precompute
from modmul.models import (barrett_bound, barrett_corrections, barrett_opt, dropped_max, gshoup,
                           gshoup_bound, gshoup_corrections, model, mul_high_truncated, shoup,
                           shoup_bound, shoup_corrections, trunc_error)
from modmul.vectors import classes_for, modulus, operand

SMALL_K = (4, 5, 6, 7, 8)
BITLEN = np.array([x.bit_length() for x in range(1 << 9)])


def fits(trace):
    for name, (value, bits) in trace.items():
        assert np.all(value >= 0) and np.all(value < (1 << bits)), f"{name} does not fit in {bits} bits"


def below(t, m, bound):
    """t < (num/den) m, elementwise."""
    num, den = bound
    return np.all(t * den < num * m)


@functools.lru_cache(maxsize=None)
def triples(lo, hi, skip_pow2):
    """Every (m, a, b) with lo <= m < hi (no powers of two if skip_pow2), 0 <= a, b < m."""
    ms, As, Bs = [], [], []
    for m in range(lo, hi):
        if skip_pow2 and m & (m - 1) == 0:
            continue
        a, b = np.meshgrid(np.arange(m), np.arange(m), indexing="ij")
        ms.append(np.full(m * m, m))
        As.append(a.ravel())
        Bs.append(b.ravel())
    return tuple(np.concatenate(x).astype(np.int64) for x in (ms, As, Bs))


# ---------------------------------------------------------------- the truncated product
@pytest.mark.parametrize("w", SMALL_K)
def test_product_bound_exhaustive(w):
    a, b = (x.ravel().astype(np.int64) for x in np.meshgrid(np.arange(1 << w), np.arange(1 << w)))
    ab = a * b
    for s in range(1, 2 * w):
        exact = ab >> s
        for c in range(0, s + 1):
            dropped = ab - mul_high_truncated(a, b, w, 0, c)
            assert dropped.min() >= 0 and dropped.max() <= dropped_max(c), (w, s, c)
            if c <= w:  # all-ones operands fill every dropped column: Dmax is attained
                assert dropped[-1] == dropped_max(c)
            h = mul_high_truncated(a, b, w, s, c)
            assert np.all(h <= exact) and np.all(h >= exact - trunc_error(c, s)), (w, s, c)


def test_product_bound_formula():
    assert [dropped_max(c) for c in range(5)] == [0, 1, 5, 17, 49]
    assert trunc_error(27, 32) == 1 and trunc_error(28, 32) == 2 and trunc_error(0, 32) == 0


# ---------------------------------------------------------------- families, exhaustive
@pytest.mark.parametrize("k", SMALL_K)
def test_barrett_truncated_exhaustive(k):
    m, a, b = triples(3, 1 << k, True)
    l = k - BITLEN[m]
    mp, ab = m << l, a * b % m
    r = (1 << 2 * k) // mp
    exact = {}
    barrett_opt(k, a, b, mp, r, l, trace=exact)
    for c in range(k + 2):
        tr = {}
        assert np.all(barrett_opt(k, a, b, mp, r, l, truncate=c, trace=tr) == ab), (k, c)
        fits(tr)
        q, q0 = tr["q"][0], exact["q"][0]
        assert np.all(q <= q0) and np.all(q >= q0 - trunc_error(c, k + 1)), (k, c)
        assert below(tr["t8"][0], mp, barrett_bound(k, c)), (k, c)


@pytest.mark.parametrize("k", SMALL_K)
def test_shoup_truncated_exhaustive(k):
    m, a, b = triples(2, 1 << (k - 1), False)
    r, ab = (b << k) // m, a * b % m
    exact = {}
    shoup(k, a, b, m, r, trace=exact)
    for c in range(k + 1):
        tr = {}
        assert np.all(shoup(k, a, b, m, r, truncate=c, trace=tr) == ab), (k, c)
        fits(tr)
        q, q0 = tr["q"][0], exact["q"][0]
        assert np.all(q <= q0) and np.all(q >= q0 - trunc_error(c, k)), (k, c)
        assert below(tr["t5"][0], m, shoup_bound(k, c)), (k, c)


@pytest.mark.parametrize("k", SMALL_K)
def test_gshoup_truncated_exhaustive(k):
    """The extended Proposition: t < (5/2 + Dmax(cR)/2^(k-1) + Dmax(cQ)/2^k) M'."""
    m, a, b = triples(3, 1 << (k - 1), True)
    l = k - 1 - BITLEN[m]
    mp, ab = m << l, a * b % m
    g = (1 << 2 * k - 2) // mp
    rs = (b << k) // mp
    exact = {}
    gshoup(k, a, b, mp, l, g, 0, 0, trace=exact)
    for cr in range(k - 1):
        for cq in range(k + 1):
            tr = {}
            assert np.all(gshoup(k, a, b, mp, l, g, 0, 0, truncate_r=cr, truncate_q=cq, trace=tr) == ab), (k, cr, cq)
            fits(tr)
            r, r0 = tr["r_full"][0], exact["r_full"][0]
            assert np.all(r <= r0) and np.all(r >= r0 - trunc_error(cr, k - 2)), (k, cr)
            assert below(tr["t5"][0], mp, gshoup_bound(k, cr, cq)), (k, cr, cq)
    for cq in range(k + 1):  # Shoup mode: the caller's r, only the core's product is truncated
        tr = {}
        assert np.all(gshoup(k, a, b, mp, l, g, rs, 1, truncate_q=cq, trace=tr) == ab), (k, cq)
        fits(tr)
        assert below(tr["t5"][0], mp, gshoup_bound(k, 0, cq)), (k, cq)


# ---------------------------------------------------------------- design widths, property-based
PROPERTY = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
WIDTHS = (16, 17, 32, 33, 64, 128, 256)


@st.composite
def cases(draw, family):
    k = draw(st.sampled_from(WIDTHS))
    design = f"{family}_{k}"
    rng = random.Random(draw(st.integers(0, 2**32)))
    m = modulus(design, draw(st.sampled_from(classes_for(design))), rng)
    edge = draw(st.integers(0, 3))  # a = b = m-1 (largest product), then edge/uniform operands
    a, b = (m - 1, m - 1) if edge == 0 else (operand(m, rng), operand(m, rng))
    shift = {"barrett": k + 1, "shoup": k, "gshoup": k}[family]
    # Mostly the interesting range (corrections unchanged or a few more), sometimes any c.
    c = draw(st.one_of(st.integers(max(0, k - 8), shift), st.integers(0, shift)))
    cr = draw(st.one_of(st.integers(max(0, k - 10), k - 2), st.integers(0, k - 2)))
    return design, k, m, a, b, c, cr


@pytest.mark.parametrize("family", ["barrett", "shoup", "gshoup"])
def test_truncated_models_equal_a_times_b_mod_m(family):
    @PROPERTY
    @given(cases(family))
    def check(case):
        design, k, m, a, b, c, cr = case
        for mode in (("full", "shoup") if family == "gshoup" else (None,)):
            ports = precompute(design, a, b, m, mode=mode)
            tr = {}
            if family == "barrett":
                out = barrett_opt(k, trace=tr, truncate=c, **ports)
                assert below(tr["t8"][0], ports["in_m"], barrett_bound(k, c))
            elif family == "shoup":
                out = shoup(k, trace=tr, truncate=c, **ports)
                assert below(tr["t5"][0], m, shoup_bound(k, c))
            else:
                out = gshoup(k, trace=tr, truncate_r=cr, truncate_q=c, **ports)
                assert below(tr["t5"][0], ports["in_m"], gshoup_bound(k, cr if mode == "full" else 0, c))
            assert out == a * b % m, (design, a, b, m, mode, c, cr)
            fits(tr)
    check()


def test_untruncated_models_unchanged():
    """truncate = 0 is the default design: same corrections, widths and results."""
    assert [barrett_corrections(k) for k in (16, 32, 512)] == [2, 2, 2]
    assert [shoup_corrections(k) for k in (16, 32, 512)] == [1, 1, 1]
    assert [gshoup_corrections(k) for k in (16, 32, 512)] == [(1, 1)] * 3
    rng = random.Random(7)
    for family in ("barrett", "shoup", "gshoup"):
        m = modulus(f"{family}_64", "prime_top", rng)
        a, b = operand(m, rng), operand(m, rng)
        assert model(family, 64, precompute(f"{family}_64", a, b, m)) == a * b % m


# ---------------------------------------------------------------- one correction fewer fails
# (family, k, truncation, a, b, m): found by the exhaustive search at k <= 8, first failing
# input in (m, a, b) order. The truncation raised Shoup's count from 1 to 2 at k = 8, c = 6;
# Barrett at c = 5 and GShoup at (cR, cQ) = (0, 4) keep their counts, and these inputs (not
# failures of the exact designs' own last correction) need them.
COUNTEREXAMPLES = [
    ("shoup", 8, 6, 63, 50, 67),
    ("barrett", 8, 5, 65, 126, 130),
    ("gshoup", 8, (0, 4), 109, 102, 110),
]


@pytest.mark.parametrize("family,k,c,a,b,m", COUNTEREXAMPLES)
def test_one_correction_fewer_fails(family, k, c, a, b, m):
    if family == "barrett":
        from modmul.precompute import barrett_params
        mp, r, l = barrett_params(k, m)
        n = barrett_corrections(k, c)
        assert barrett_opt(k, a, b, mp, r, l, truncate=c) == a * b % m
        assert barrett_opt(k, a, b, mp, r, l, truncate=c, corrections=n - 1) != a * b % m
        assert barrett_opt(k, a, b, mp, r, l, corrections=n - 1) == a * b % m  # exact q: fine
    elif family == "shoup":
        r = (b << k) // m
        n = shoup_corrections(k, c)
        assert n == 2
        assert shoup(k, a, b, m, r, truncate=c) == a * b % m
        assert shoup(k, a, b, m, r, truncate=c, corrections=n - 1) != a * b % m
        assert shoup(k, a, b, m, r) == a * b % m  # exact q: one correction suffices
    else:
        from modmul.precompute import gshoup_params
        mp, g, l = gshoup_params(k, m)
        cr, cq = c
        core, line4 = gshoup_corrections(k, cr, cq)
        kw = dict(truncate_r=cr, truncate_q=cq)
        assert gshoup(k, a, b, mp, l, g, 0, 0, **kw) == a * b % m
        assert gshoup(k, a, b, mp, l, g, 0, 0, corrections=(core, line4 - 1), **kw) != a * b % m
        assert gshoup(k, a, b, mp, l, g, 0, 0, corrections=(core, line4 - 1)) == a * b % m
