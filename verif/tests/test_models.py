"""Golden models and precomputation against plain a*b % m (the only oracle).

Exhaustive at small k (the models take any k; the designs start at 16), hypothesis-driven
for the design widths 16..512 over every modulus class of modmul.vectors, both GShoup modes.
"""
import random

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from modmul import precompute, PreconditionError
from modmul.models import barrett_opt, gshoup, model, shoup
from modmul.precompute import barrett_params, gshoup_params, shoup_r
from modmul.vectors import classes_for, last_correction_case, modulus, operand

PROPERTY = settings(max_examples=400, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
WIDTHS = (16, 17, 31, 32, 33, 64, 100, 128, 256, 512)


def assert_fits(trace):
    """Every intermediate's true value fits the width the RTL gives it."""
    for name, (value, bits) in trace.items():
        assert 0 <= value < 1 << bits, f"{name} = {value} does not fit in {bits} bits"


def pow2(m):
    return m & (m - 1) == 0


# ---------------------------------------------------------------- exhaustive, small k
@pytest.mark.parametrize("k", [4, 5, 6, 7])
def test_barrett_exhaustive(k):
    for m in range(3, 1 << k):
        if pow2(m):
            continue
        mp, r, l = barrett_params(k, m)
        for a in range(m):
            for b in range(m):
                tr = {}
                assert barrett_opt(k, a, b, mp, r, l, trace=tr) == a * b % m, (k, a, b, m)
                assert_fits(tr)


@pytest.mark.parametrize("k", [4, 5, 6, 7])
def test_shoup_and_gshoup_exhaustive(k):
    for m in range(2, 1 << (k - 1)):
        for a in range(m):
            for b in range(m):
                tr = {}
                assert shoup(k, a, b, m, shoup_r(k, b, m), trace=tr) == a * b % m, (k, a, b, m)
                assert_fits(tr)
        if m < 3 or pow2(m):
            continue
        mp, g, l = gshoup_params(k, m)
        for a in range(m):
            for b in range(m):
                for mode, r in ((0, 0), (1, shoup_r(k, b, mp))):
                    tr = {}
                    assert gshoup(k, a, b, mp, l, g, r, mode, trace=tr) == a * b % m, (k, a, b, m, mode)
                    assert_fits(tr)


# ---------------------------------------------------------------- design widths, property-based
@st.composite
def cases(draw, family):
    k = draw(st.sampled_from(WIDTHS))
    design = f"{family}_{k}"
    cls = draw(st.sampled_from(classes_for(design)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    m = modulus(design, cls, rng)
    return design, k, m, operand(m, rng), operand(m, rng)


@pytest.mark.parametrize("family", ["barrett", "shoup", "gshoup"])
def test_models_equal_a_times_b_mod_m(family):
    @PROPERTY
    @given(cases(family))
    def check(case):
        design, k, m, a, b = case
        for mode in (("full", "shoup") if family == "gshoup" else (None,)):
            ports = precompute(design, a, b, m, mode=mode)
            tr = {}
            assert model(family, k, ports, tr) == a * b % m, (design, a, b, m, mode)
            assert_fits(tr)
    check()


@pytest.mark.parametrize("family", ["barrett", "shoup", "gshoup"])
@pytest.mark.parametrize("k", WIDTHS)
def test_last_correction_cases(family, k):
    """The rarest correction step (see vectors.needs_last_correction) is reachable at every
    width, and the models get those cases right."""
    rng = random.Random(k)
    for i in range(6):
        a, b, m = last_correction_case(f"{family}_{k}", rng, exact=i % 2 == 1)
        assert model(family, k, precompute(f"{family}_{k}", a, b, m)) == a * b % m


# ---------------------------------------------------------------- the paper's Proposition (Eq. 4)
def q_s_q_g(k, a, b, m):
    """Eq. 1 and 2 with alpha = k-2, for 2^(k-2) <= m < 2^(k-1) (Eq. 3)."""
    r_s = (b << k) // m
    g = (1 << 2 * k - 2) // m
    r_g = (g * b) >> (k - 2)
    return (a * r_s) >> k, (a * r_g) >> k


@pytest.mark.parametrize("k", [3, 4, 5, 6, 7, 8])
def test_proposition_exhaustive(k):
    for m in range(1 << (k - 2), 1 << (k - 1)):
        for a in range(m):
            for b in range(m):
                qs, qg = q_s_q_g(k, a, b, m)
                assert qs - 1 <= qg <= qs, (k, a, b, m, qs, qg)


def test_proposition_random():
    rng = random.Random(2024)
    seen_short = 0
    for _ in range(20000):
        k = rng.choice(WIDTHS)
        m = rng.randrange(1 << (k - 2), 1 << (k - 1))
        a, b = operand(m, rng), operand(m, rng)
        qs, qg = q_s_q_g(k, a, b, m)
        assert qs - 1 <= qg <= qs, (k, a, b, m)
        seen_short += qg == qs - 1
    assert seen_short > 0, "q_g = q_s - 1 never occurred: the extra reduction is never exercised"


# ---------------------------------------------------------------- erratum in Algorithm 1
def test_barrett_printed_width_fails():
    """Algorithm 1 as printed (lines 5-8 in k+1 bits) returns a wrong result; k+2 bits are right."""
    k, a, b, m = 8, 228, 229, 235
    mp, r, l = barrett_params(k, m)
    assert barrett_opt(k, a, b, mp, r, l, sub_bits=k + 1) != a * b % m
    assert barrett_opt(k, a, b, mp, r, l) == a * b % m


# ---------------------------------------------------------------- precomputation errors
@pytest.mark.parametrize("design,a,b,m,mode,match", [
    ("barrett_32", 5, 7, 5, None, r"0 <= a, b < m"),
    ("barrett_32", 1, 7, 2**20, None, "power of two"),
    ("barrett_32", 1, 2, 2**32 + 1, None, r"3 <= m < 2\^32"),
    ("shoup_32", 1, 2, 2**31, None, r"2m < 2\^32"),
    ("gshoup_32", 1, 2, 2**31 + 1, None, r"2m < 2\^32"),
    ("gshoup_32", 1, 2, 1024, None, "power of two"),
    ("gshoup_32", 1, 2, 1023, "fast", "mode must be one of"),
    ("shoup_32", 1, 2, 1023, "shoup", "gshoup designs only"),
])
def test_precondition_errors(design, a, b, m, mode, match):
    with pytest.raises(PreconditionError, match=match):
        precompute(design, a, b, m, mode=mode)


@pytest.mark.parametrize("design,match", [
    ("montgomery_32", "unknown design family"),
    ("gshoup_8", "out of range 16..512"),
    ("gshoup_1024", "out of range 16..512"),
    ("gshoup", "unknown design"),
])
def test_unknown_designs(design, match):
    with pytest.raises(ValueError, match=match) as e:
        precompute(design, 1, 2, 7)
    assert "valid designs" in str(e.value)


def test_precompute_ports():
    p = precompute("gshoup_64", 3, 5, 97, mode="shoup")
    assert set(p) == {"in_a", "in_b", "in_m", "in_l", "in_g", "in_r", "in_mode"}
    assert set(precompute("barrett_64", 3, 5, 97)) == {"in_a", "in_b", "in_m", "in_r", "in_l"}
    assert set(precompute("shoup_64", 3, 5, 97)) == {"in_a", "in_b", "in_m", "in_r"}
