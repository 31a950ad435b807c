"""The reduction family (Tosun et al.) against plain a*b % m, the only oracle.

The models (reduction.models) describe the RTL bit for bit; precompute gives every input
port. Nothing here compares one model with another. What each part checks:

* exhaustive at small k: every design shape (every w, h, WLM-Mixed schedule, Proth kind), every
  modulus of its class and every operand pair, at k = 6 and 7 and a subset at k = 8 (all of k = 8
  with MODFORGE_LONG=1). The results are checked, and so is every intermediate against its RTL
  width. Also checked: precompute accepts exactly the class, at k = 6..8;
* hypothesis at the design widths 16..512, over every class of reduction.vectors, with
  the edge operands 0, 1 and m-1, through the public precompute(name, ...);
* the printed paper's errors, each kept red by a counterexample next to the fixed version;
* Plantard's omitted modulus bound (the smallest failing moduli) and the unreachable line 3;
* precondition errors, name errors, and agreement with the generator's registry and manifests.
"""
import json
import os
import random
import re
import shlex

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings, strategies as st

import layout
from modmul import PreconditionError, precompute
from modmul.designs import parse_design
from primetools.proth import proth_l_decompose
from reduction import ReductionDesign, check_modulus, model, reduction_ports
from reduction import models as rmodels
import registry
from reduction.names import DEFAULT_TILE
from reduction.vectors import CLASSES, modulus

LONG = os.environ.get("MODFORGE_LONG") == "1"
PROPERTY = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
WIDTHS = (16, 17, 32, 33, 64, 128, 256, 512)
FAMILIES = ("mont", "cbarrett", "plantard", "wlm", "wlmm", "k2red", "monts", "k2reds")


# ---------------------------------------------------------------- helpers
def fits(value, bits, signed):
    if signed:
        return -(1 << (bits - 1)) <= value < 1 << (bits - 1)
    return 0 <= value < 1 << bits


def assert_fits(trace, where=""):
    """Every intermediate's true value fits the width (and signedness) the RTL gives it."""
    for name, (value, bits, signed) in trace.items():
        assert fits(value, bits, signed), \
            f"{where}: {name} = {value} does not fit in {bits} {'signed' if signed else 'unsigned'} bits"


def lazy_value(out, k):
    """The lazy K2RED's out_t: a k+2-bit two's-complement pattern."""
    assert 0 <= out < 1 << (k + 2)
    return out - (1 << (k + 2)) if out >> (k + 1) else out


def assert_result(d, out, a, b, m, where=""):
    if d.lazy:
        v = lazy_value(out, d.k)
        assert (v - a * b) % m == 0 and -m < v < 2 * m, f"{where}: lazy out {v}, a*b % m = {a * b % m}"
    else:
        assert out == a * b % m, f"{where}: out {out} != a*b % m = {a * b % m}"


def proth_l_tuples(h, kind):
    """Every (l1, l2[, l3]) of the Proth-<kind> form for log q_h = h (the paper's Section 3.1)."""
    top = h - 1
    for l1 in range(top):
        for l2 in range(l1 + 1):
            if kind == "2l":
                yield (l1, l2)
            else:
                for l3 in range(top):
                    yield (l1, l2, l3)


def proth_l_q(k, h, ls):
    l1, l2 = ls[:2]
    v = (1 << l1) - (1 << l2) + ((1 << ls[2]) if len(ls) == 3 else 0)
    return (1 << (k - 1)) + (v << (k - h)) + 1


def small_designs(k, family):
    """Every design shape of a family at width k (the name grammar's limits, without k >= 16).
    WLM-Mixed: the tile matters only through w1 = min(GA, w), so GB = h and GA = h..w give every
    distinct schedule."""
    if family in ("mont", "cbarrett", "plantard"):
        return [ReductionDesign(family, k)]
    if family == "wlm":
        return [ReductionDesign("wlm", k, w=w) for w in range(2, k - 1)]
    if family == "wlmm":
        return [ReductionDesign("wlmm", k, h=h, tile=(ga, h))
                for h in range(1, k // 2 + 1) for ga in range(h, k - h + 1)]
    if family == "k2red":
        return [ReductionDesign("k2red", k, h=h, lazy=lazy) for h in range(1, k // 2 + 1) for lazy in (False, True)]
    return [ReductionDesign(family, k, h=h, kind=kind, preset="ra" if kind == "2l" else "rb")
            for h in range(3, k // 2 + 1) for kind in ("2l", "3l")]


def class_moduli(d):
    """Every modulus of d's class, from the class definitions (docs/reduction.md)."""
    k, f = d.k, d.family
    if f == "mont":
        return list(range(3, 1 << k, 2))
    if f == "cbarrett":
        return list(range((1 << (k - 1)) + 1, 1 << k))
    if f == "plantard":  # m < 2^k / phi  <=>  (2m + 2^k)^2 < 5 * 4^k
        return [m for m in range(3, 1 << k, 2) if (2 * m + (1 << k)) ** 2 < 5 << (2 * k)]
    if f in ("wlm", "wlmm", "k2red"):
        w = d.w if f == "wlm" else k - d.h
        return list(range((1 << w) + 1, 1 << k, 1 << w))
    return sorted({proth_l_q(k, d.h, ls) for ls in proth_l_tuples(d.h, d.kind)})


def check_all_pairs(d, m):
    """Every a, b < m on design d: the result and every intermediate's width."""
    k = d.k
    # A is never scaled: the ports of (a, b) are those of (0, b) with in_a = a.
    base = [reduction_ports(d, 0, b, m) for b in range(m)]
    assert reduction_ports(d, m - 1, m - 1, m) == {**base[m - 1], "in_a": m - 1}
    plantard, lazy, top = d.family == "plantard", d.lazy, (1 << k) - 1
    for b in range(m):
        p = dict(base[b])
        for a in range(m):
            p["in_a"] = a
            tr = {}
            out = model(d, p, tr)
            if lazy:
                v = out - (1 << (k + 2)) if out >> (k + 1) else out
                ok = 0 <= out < 1 << (k + 2) and (v - a * b) % m == 0 and -m < v < 2 * m
            else:
                ok = out == a * b % m
            if not ok:
                raise AssertionError(f"{d.name}: a={a} b={b} m={m}: out {out}, a*b % m = {a * b % m}")
            for name, (v, bits, s) in tr.items():
                if (v < -(1 << (bits - 1)) or v >= 1 << (bits - 1)) if s else (v < 0 or v >> bits):
                    raise AssertionError(f"{d.name}: a={a} b={b} m={m}: {name} = {v} does not fit {bits} bits")
            if plantard and tr["c'"][0] == top:
                raise AssertionError(f"{d.name}: a={a} b={b} m={m}: Plantard line 3 taken")


# ---------------------------------------------------------------- 1. exhaustive, small k
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("k", [6, 7])
def test_exhaustive(k, family):
    """Every design shape x every modulus of its class x every operand pair."""
    for d in small_designs(k, family):
        moduli = class_moduli(d)
        assert moduli, d
        for m in moduli:
            check_all_pairs(d, m)


@pytest.mark.parametrize("family", FAMILIES)
def test_exhaustive_k8_edges(family):
    """k = 8, every design shape, the smallest and the largest modulus of each class (the largest
    one has the tightest widths); all of k = 8 runs with MODFORGE_LONG=1."""
    for d in small_designs(8, family):
        moduli = class_moduli(d)
        for m in sorted({moduli[0], moduli[-1]}):
            check_all_pairs(d, m)


@pytest.mark.skipif(not LONG, reason="MODFORGE_LONG=1: every modulus at k = 8 (about 80 s)")
@pytest.mark.parametrize("family", FAMILIES)
def test_exhaustive_k8_long(family):
    for d in small_designs(8, family):
        for m in class_moduli(d):
            check_all_pairs(d, m)


@pytest.mark.parametrize("k", [6, 7, 8])
def test_class_is_what_precompute_accepts(k):
    """precompute accepts exactly the moduli of each class, so "every modulus" above is every one."""
    for family in FAMILIES:
        for d in small_designs(k, family):
            want = set(class_moduli(d))
            for m in range(0, (1 << k) + 3):
                try:
                    check_modulus(d, m)
                    got = True
                except PreconditionError:
                    got = False
                assert got == (m in want), (d, m)


@pytest.mark.parametrize("k", [6, 7, 8])
def test_every_shift_tuple(k):
    """The shift designs take any (l1, l2, l3) that describes q on their ports, not only the
    canonical one: each tuple is accepted, lands on in_l*, and gives a*b % m."""
    rng = random.Random(k)
    for family in ("monts", "k2reds"):
        for d in small_designs(k, family):
            for ls in proth_l_tuples(d.h, d.kind):
                m = proth_l_q(k, d.h, ls)
                canon = proth_l_decompose(m, k, d.h, d.kind)
                assert canon is not None and proth_l_q(k, d.h, [x for x in canon if x is not None]) == m
                for a, b in [(m - 1, m - 1), (1, m - 1)] + [(rng.randrange(m), rng.randrange(m)) for _ in range(8)]:
                    p = reduction_ports(d, a, b, m, ls=ls)
                    assert (p["in_l1"], p["in_l2"], p.get("in_l3")) == tuple(ls) + (None,) * (3 - len(ls))
                    tr = {}
                    assert model(d, p, tr) == a * b % m, (d.name, ls, a, b, m)
                    assert_fits(tr, d.name)


# ---------------------------------------------------------------- 2. design widths, property-based
def _pick(draw, options):
    return draw(st.sampled_from(sorted(set(options))))


@st.composite
def design_names(draw, family):
    """Real design names at the design widths. Parameters are kept where every modulus class has
    members (with tiny h or k - w, e.g. wlm_512_w510, the prime classes are empty; the small
    widths above cover those shapes exhaustively)."""
    k = draw(st.sampled_from(WIDTHS))
    if family in ("mont", "cbarrett", "plantard"):
        return f"{family}_{k}"
    if family == "wlm":
        return f"wlm_{k}_w{_pick(draw, [w for w in (2, 3, 13, 17, 26, k // 2) if 2 <= w <= k - 8])}"
    if family == "wlmm":
        h = _pick(draw, [h for h in (15, 16, 17) if h <= k // 2] or [k // 2])
        tile = _pick(draw, [t for t in (DEFAULT_TILE, (18, 18), (16, 16), (24, 15), (40, 17)) if t[1] >= h])
        return f"wlmm_{k}_h{h}" + ("" if tile == DEFAULT_TILE else f"_t{tile[0]}x{tile[1]}")
    if family == "k2red":
        h = _pick(draw, [h for h in (15, 16, 17, 26, 32, k // 2) if h <= k // 2])
        return f"k2red_{k}_h{h}" + ("_lazy" if draw(st.booleans()) else "")
    kind = draw(st.sampled_from(("2l", "3l")))
    hs = [h for h in (15, 16, 17, 32, k // 2) if 3 <= h <= k // 2]
    if kind == "2l" and k == 512:  # no Proth-2l primes with small log q_h at 512 bits
        hs = [k // 2]
    return f"{family}_{k}_h{_pick(draw, hs)}_{kind}_{draw(st.sampled_from(('ra', 'rb')))}"


@st.composite
def cases(draw, family):
    name = draw(design_names(family))
    cls = draw(st.sampled_from(CLASSES))
    rng = random.Random(draw(st.integers(0, 2**32)))
    try:
        m = modulus(parse_design(name), cls, rng)
    except RuntimeError:  # a class without members for this shape
        reject()
    rand = [(rng.randrange(m), rng.randrange(m)) for _ in range(4)]
    return name, cls, m, [(a, b) for a in (0, 1, m - 1) for b in (0, 1, m - 1)] + rand


@pytest.mark.parametrize("family", FAMILIES)
def test_models_equal_a_times_b_mod_m(family):
    @PROPERTY
    @given(cases(family))
    def check(case):
        name, cls, m, pairs = case
        d = parse_design(name)
        assert d.name == name
        for a, b in pairs:
            tr = {}
            out = model(d, precompute(name, a, b, m), tr)
            assert_result(d, out, a, b, m, f"{name} ({cls}) a={a} b={b} m={m}")
            assert_fits(tr, f"{name} ({cls}) a={a} b={b} m={m}")
    check()


# ---------------------------------------------------------------- 3. the printed paper's errors
# Proth(-l) primes from the paper's lists (NOTES-supporting-papers.md 3.7).
Q32_2L = 0x80400001          # 2^31 + 2^22 + 1: q_h = 0x4020 at w = 17, Proth-2l for log q_h = 15, 16
Q32_3L = 0x80140001          # Proth-3l, k = 32, log q_h = 15: l1, l2, l3 = 2, 1, 3
Q64_17 = 0x8fe0000000000001  # Proth-2l, k = 64, log q_h = 17


def word_montgomery_alg(x, m, omega, schedule, printed_tl=False):
    """Alg. 2 / Alg. 8 in plain integers. printed_tl: line 6 / 8 as printed, q_h * t_l."""
    qh, t = m >> omega, x
    for wi, di in schedule:
        tl, th = t % (1 << wi), t >> wi
        tn = -tl % (1 << wi)                                   # line 4 / 6
        c = ((tn | tl) >> (wi - 1)) & 1                        # line 5 / 7
        t = th + ((qh * (tl if printed_tl else tn)) << di) + c
    return t - m if t >= m else t


def wlmm_schedule(k, h, tile):
    """Alg. 8 line 1 and line 4: w1 = min(GA, w), w0 = k - w1, delta_i = w - w_i."""
    omega = k - h
    w1 = min(tile[0], omega)
    return [(k - w1, omega - (k - w1)), (w1, omega - w1)]


def test_wlmm_schedule_is_the_papers():
    """The paper's two worked examples of Alg. 8 (Sec. 4; its labels swapped, NOTES 3.6.3)."""
    from reduction.widths import wlm_schedule
    assert wlmm_schedule(64, 17, (26, 17)) == wlm_schedule("wlmm", 64, h=17, tile=(26, 17)) == [(38, 9), (26, 21)]
    assert wlmm_schedule(32, 15, (26, 17)) == wlm_schedule("wlmm", 32, h=15, tile=(26, 17)) == [(15, 2), (17, 0)]


@pytest.mark.parametrize("name,m", [("wlm_32_w17", Q32_2L), ("wlm_64_w17", Q64_17),
                                    ("wlmm_32_h15", Q32_2L), ("wlmm_64_h17", Q64_17)])
def test_wlm_printed_line6_fails(name, m):
    """Alg. 2 line 6 / Alg. 8 line 8 as printed (q_h * t_l) give a wrong residue on every input
    tried; t' = -t_l mod 2^w (the fix) gives a*b mod m on the same inputs, in the model too."""
    d = parse_design(name)
    k = d.k
    omega = d.w if d.family == "wlm" else k - d.h
    schedule = [(d.w, 0)] * -(-k // d.w) if d.family == "wlm" else wlmm_schedule(k, d.h, d.tile)
    rng = random.Random(6)
    for _ in range(30):
        a, b = rng.randrange(1, m), rng.randrange(1, m)
        p = precompute(name, a, b, m)
        x = p["in_a"] * p["in_b"]
        assert word_montgomery_alg(x, m, omega, schedule, printed_tl=True) % m != a * b % m, (a, b)
        assert word_montgomery_alg(x, m, omega, schedule) == a * b % m
        assert model(d, p) == a * b % m


@pytest.mark.parametrize("name,m", [("wlmm_32_h15", Q32_2L), ("wlmm_64_h17", Q64_17)])
def test_wlmm_three_iterations_wrong_factor(name, m):
    """Alg. 8's "for i = 0 -> 2" read as three iterations (i = 0, 1, 2; the paper defines only
    w0 and w1, so the third reuses w1) multiplies by one more 2^-w1: the Montgomery factor becomes
    2^-(k + w1) and the result is wrong. Exactly two iterations give a*b mod m."""
    d = parse_design(name)
    k, omega = d.k, d.k - d.h
    two = wlmm_schedule(k, d.h, d.tile)
    w1 = two[1][0]
    rng = random.Random(8)
    for _ in range(20):
        a, b = rng.randrange(1, m), rng.randrange(1, m)
        p = precompute(name, a, b, m)
        x = p["in_a"] * p["in_b"]
        three = word_montgomery_alg(x, m, omega, two + [two[1]]) % m
        assert three == a * b * pow(2, -w1, m) % m != a * b % m
        assert word_montgomery_alg(x, m, omega, two) == a * b % m
        assert model(d, p) == a * b % m


def montgomery_shift_alg(k, h, x, m, ls, line1):
    """Alg. 6 in plain integers (q_h by shifts), with a choice of line 1."""
    w = k - h
    l1, l2 = ls[:2]
    qh = (1 << (h - 1)) + (1 << l1) - (1 << l2) + ((1 << ls[2]) if len(ls) == 3 else 0)
    al, ah = line1(x), x >> k                                  # line 1
    t = ((al * qh) << w) - al & ((1 << k) - 1)                 # line 2: a_l q' mod 2^k
    tq = ((t * qh) << w) + t                                   # line 3: t q
    c = ((tq | al) >> (k - 1)) & 1                             # line 4
    b = ah + (tq >> k) + c                                     # line 5
    return b - m if b >= m else b


def test_montgomery_shift_printed_line1_fails():
    """Alg. 6 line 1 prints "a_l <- a_l mod 2^beta": a_l has no value yet. Read literally, an
    unassigned a_l is 0 (a register's reset value), and the datapath then returns a_h minus at
    most one q, not a 2^-k mod q: wrong. Reading the right-hand a_l as a typo for a_h is wrong
    too. The fix a_l <- a mod 2^beta gives a*b mod m on the same inputs (model too)."""
    k, h, m, ls = 32, 15, Q32_3L, (2, 1, 3)
    assert proth_l_q(k, h, ls) == m
    name = "monts_32_h15_3l_ra"
    d = parse_design(name)
    rng = random.Random(1)
    for _ in range(30):
        a, b = rng.randrange(1, m), rng.randrange(1, m)
        p = precompute(name, a, b, m, ls=ls)
        x = p["in_a"] * p["in_b"]
        assert montgomery_shift_alg(k, h, x, m, ls, lambda x: 0) % m != a * b % m
        assert montgomery_shift_alg(k, h, x, m, ls, lambda x: (x >> k) % (1 << k)) % m != a * b % m
        assert montgomery_shift_alg(k, h, x, m, ls, lambda x: x % (1 << k)) == a * b % m
        assert model(d, p) == a * b % m


def plantard_all_pairs(k, q):
    """Alg. 5 on every a, b < q (b the constant operand, b q' mod 2^2k precomputed), in numpy:
    (c', c, the expected a b (-2^-2k) mod q). Needs k <= 10 for int64."""
    mask = (1 << 2 * k) - 1
    v = np.arange(q, dtype=np.int64)
    bq = (v * pow(q, -1, 1 << 2 * k)) & mask
    c1 = ((v[:, None] * bq[None, :]) & mask) >> k               # line 1
    c = ((c1 + 1) * q) >> k                                     # line 2
    c = np.where(c == q, 0, c)                                  # line 3
    factor = -pow(2, -2 * k, q) % q
    return c1, c, (v[:, None] * v[None, :] % q) * factor % q


def plantard_bound_top(k):
    """The largest m with m < 2^k/phi."""
    return max(m for m in range(1 << k) if (2 * m + (1 << k)) ** 2 < 5 << (2 * k))


# The smallest odd q above 2^k/phi where Alg. 5 fails, with its failing pair: found by the
# exhaustive search test_plantard_smallest_failing_modulus repeats (every odd q between the
# bound and these passes on every pair).
PLANTARD_FIRST_FAIL = {8: (161, 152, 160), 9: (321, 312, 320), 10: (641, 616, 640)}


@pytest.mark.parametrize("k", sorted(PLANTARD_FIRST_FAIL))
def test_plantard_smallest_failing_modulus(k):
    """Without Plantard's bound q < 2^k/phi (the paper omits it), Alg. 5 fails; the first failing
    odd q is PLANTARD_FIRST_FAIL[k], just above the bound (0.629, 0.627, 0.626 * 2^k)."""
    q, fa, fb = PLANTARD_FIRST_FAIL[k]
    top = plantard_bound_top(k)
    for m in range(top + 1 | 1, q, 2):   # every odd modulus between the bound and q passes
        _, c, want = plantard_all_pairs(k, m)
        assert (c == want).all(), (k, m)
    _, c, want = plantard_all_pairs(k, q)
    bad = np.argwhere(c != want)
    assert len(bad) and tuple(map(int, bad[0])) == (fa, fb)
    # The RTL model fails there too, and precompute refuses q (its modulus class has the bound).
    # (precompute's B = fb * (-2^-2k) mod q would put exactly this on in_b.)
    ports = {"in_a": fa, "in_b": fb * pow(q, -1, 1 << 2 * k) % (1 << 2 * k), "in_m": q}
    assert rmodels.plantard(k, **ports) != fa * fb * -pow(2, -2 * k, q) % q
    with pytest.raises(PreconditionError, match="Plantard"):
        check_modulus(ReductionDesign("plantard", k), q)


def test_plantard_line3_unreachable_within_bound():
    """A finding: for every odd q < 2^k/phi and every a, b < q (k = 6..10), c' never equals
    2^k - 1, so Alg. 5 line 3 (c = q -> 0) is never taken (c = q exactly when c' = 2^k - 1).
    The results are right on every one of those pairs."""
    for k in range(6, 11):
        for q in range(3, plantard_bound_top(k) + 1, 2):
            c1, c, want = plantard_all_pairs(k, q)
            assert not (c1 == (1 << k) - 1).any(), (k, q)
            assert (c == want).all(), (k, q)
    # Above the bound it is taken (k = 8, q = 161: the first failing pair takes it).
    c1, _, _ = plantard_all_pairs(8, 161)
    assert c1[152, 160] == 255


@pytest.mark.parametrize("k", [6, 7, 8])
def test_k2red_lazy_range(k):
    """The lazy K2RED's out_t (no lines 5-7) lies in -2^h < t' < 2q and is congruent to a*b, for
    every h, modulus and operand pair. From h = 2 on, both sides of [0, q) occur (the consumer
    must correct); h = 1 (q_h = 1) lands in [0, q) already."""
    for h in range(1, k // 2 + 1):
        d = ReductionDesign("k2red", k, h=h, lazy=True)
        below = above = 0
        for m in class_moduli(d):
            for b in range(m):
                p = reduction_ports(d, 0, b, m)
                for a in range(m):
                    p["in_a"] = a
                    v = lazy_value(model(d, p), k)
                    assert -(1 << h) < v < 2 * m and (v - a * b) % m == 0, (d.name, a, b, m, v)
                    below += v < 0
                    above += v >= m
        assert h == 1 or (below and above), (d.name, below, above)


# The factor each method leaves (the paper's "out" lines), removed by the pre-scaled B.
FACTORS = {
    "mont_32": lambda m: pow(2, -32, m),
    "plantard_32": lambda m: -pow(2, -64, m),
    "wlm_32_w17": lambda m: pow(2, -34, m),            # 2^(-w*ceil(k/w)), two words
    "wlm_32_w13": lambda m: pow(2, -39, m),            # three words
    "wlmm_32_h15": lambda m: pow(2, -32, m),
    "k2red_32_h15": lambda m: pow(2, -34, m),          # 2^(-2w), w = 17
    "monts_32_h15_3l_ra": lambda m: pow(2, -32, m),
    "k2reds_32_h16_2l_ra": lambda m: pow(2, -32, m),   # 2^(-2w), w = 16
    "cbarrett_32": lambda m: 1,
}


@pytest.mark.parametrize("name", sorted(FACTORS))
def test_prescaling_is_needed(name):
    """precompute scales B so the design returns a*b mod m. With B unscaled (Plantard: b q'
    mod 2^2k of the plain b) the design returns a*b times the method's factor instead."""
    d = parse_design(name)
    m = modulus(d, "prime_top", random.Random(3))
    a, b = 123456789 % m, 987654321 % m
    p = precompute(name, a, b, m)
    assert model(d, p) == a * b % m
    raw = b * pow(m, -1, 1 << 64) % (1 << 64) if d.family == "plantard" else b
    out = model(d, {**p, "in_b": raw})
    assert out == a * b * FACTORS[name](m) % m
    if d.family != "cbarrett":
        assert out != a * b % m
    else:
        assert p["in_b"] == b   # classical Barrett leaves no factor and takes B as is


# ---------------------------------------------------------------- 4. preconditions and names
# The prime toolkit's command line (docs/reduction.md, "Prime toolkit (Proth and Proth-l primes)"),
# from the root or from verif/.
TOOLKIT_CMD = r"(?:scripts/primes\.py|python -m primetools)"
TOOLKIT = re.compile(TOOLKIT_CMD + r" (.+)$")


def _toolkit_prime(message, capsys):
    """Run the toolkit command a precondition message gives; return the first prime it prints."""
    from primetools.proth_cli import main
    argv = shlex.split(TOOLKIT.search(message).group(1))
    capsys.readouterr()
    assert main(argv) == 0, message
    out = capsys.readouterr().out
    return int(re.search(r"0x[0-9a-f]+", out).group(0), 16)


OUTSIDE = [  # design, a modulus outside its class, what the message must name
    ("mont_32", 2**20, [r"Montgomery \(any odd modulus\)", r"m odd and 3 <= m < 2\^32"]),
    ("mont_32", 2**32 + 1, [r"Montgomery", r"3 <= m < 2\^32"]),
    ("cbarrett_32", 2**31, [r"classical Barrett", r"2\^31 < m < 2\^32"]),
    ("plantard_32", 2**31 + 2**30 + 1, [r"Plantard", r"2\^32/phi"]),
    ("plantard_32", 2**20, [r"Plantard", r"m odd"]),
    ("wlm_32_w17", 2**31 + 3, [r"NTT-friendly for WLM", r"m = 1 mod 2\^17"]),
    ("wlm_32_w17", 2**32 + 1, [r"NTT-friendly", r"2\^17 < m < 2\^32"]),
    ("wlmm_32_h15", 2**31 + 2**16 + 1, [r"Proth for WLM-Mixed", r"m = 1 mod 2\^17"]),
    ("k2red_32_h15", 2**16 + 1, [r"Proth for K2RED", r"2\^17 < m"]),
    ("monts_32_h15_3l_ra", 2**31 + 21 * 2**17 + 1, [r"Proth-3l", r"2\^l1 - 2\^l2 \+ 2\^l3", r"0 <= l3 < 14"]),
    ("k2reds_32_h16_2l_ra", 2**31 + 5 * 2**16 + 1, [r"Proth-2l", r"l2 <= l1 < 15"]),
]


@pytest.mark.parametrize("name,m,says", OUTSIDE)
def test_modulus_outside_class(name, m, says, capsys):
    """The error names the class, the failed condition and a toolkit command; the command runs
    and finds a modulus the design accepts."""
    with pytest.raises(PreconditionError) as e:
        precompute(name, 1, 1, m)
    msg = str(e.value)
    assert msg.startswith(name)
    for s in says:
        assert re.search(s, msg), (s, msg)
    assert TOOLKIT.search(msg), msg
    q = _toolkit_prime(msg, capsys)
    d = parse_design(name)
    check_modulus(d, q)
    assert model(d, precompute(name, q - 1, q - 2, q)) == (q - 1) * (q - 2) % q


@pytest.mark.parametrize("name,m,ls,match", [
    ("monts_32_h15_3l_ra", Q32_3L, (2, 1, 4), "describe q = .*not m"),
    ("monts_32_h15_3l_ra", Q32_3L, (2, 1), r"l3"),                      # 3l needs l3
    ("monts_32_h15_3l_ra", Q32_3L, (14, 1, 3), r"l2 <= l1 < log q_h - 1 = 14"),
    ("monts_32_h15_3l_ra", Q32_3L, (1, 2, 3), r"l2 <= l1"),
    ("monts_32_h15_3l_ra", Q32_3L, (2, 1, 3, 0), r"l1, l2, l3"),        # too many
    ("k2reds_32_h15_2l_ra", Q32_2L, (6, 5, 0), "no l3"),
    ("k2reds_32_h15_2l_ra", Q32_2L, (6, 4), "describe q"),
    ("k2reds_32_h15_2l_ra", Q32_2L, (-1, -1), r"0 <= l2"),
])
def test_bad_shift_amounts(name, m, ls, match):
    with pytest.raises(PreconditionError, match=match) as e:
        precompute(name, 1, 2, m, ls=ls)
    assert re.search(TOOLKIT_CMD + r" list 32 15 [23]l$", str(e.value)), str(e.value)


def test_good_shift_amounts():
    p = precompute("monts_32_h15_3l_ra", 1, 2, Q32_3L, ls=(2, 1, 3))
    assert (p["in_l1"], p["in_l2"], p["in_l3"]) == (2, 1, 3)
    p = precompute("k2reds_32_h15_2l_ra", 1, 2, Q32_2L, ls=[6, 5])
    assert (p["in_l1"], p["in_l2"]) == (6, 5) and "in_l3" not in p
    assert set(precompute("k2reds_32_h15_2l_ra", 1, 2, Q32_2L)) == {"in_a", "in_b", "in_m", "in_l1", "in_l2"}


@pytest.mark.parametrize("name,m", [("k2red_32_h15", Q32_2L), ("wlm_32_w17", Q32_2L), ("mont_32", 101),
                                    ("gshoup_32", 101), ("barrett_32", 101)])
def test_ls_on_a_non_shift_design(name, m):
    with pytest.raises(PreconditionError, match=r"monts_\* and k2reds_\* designs only"):
        precompute(name, 1, 2, m, ls=(1, 0))


@pytest.mark.parametrize("name,m,a,b", [("k2red_32_h15", Q32_2L, Q32_2L, 1), ("mont_32", 101, 1, -1),
                                        ("monts_32_h15_3l_ra", Q32_3L, 0, Q32_3L + 5)])
def test_operands_out_of_range(name, m, a, b):
    with pytest.raises(PreconditionError, match=r"0 <= a, b < m"):
        precompute(name, a, b, m)


def test_mode_on_a_reduction_design():
    with pytest.raises(PreconditionError, match="gshoup designs only"):
        precompute("k2red_32_h15", 1, 2, Q32_2L, mode="shoup")


@pytest.mark.parametrize("name,match", [
    ("wlm_32", r"wlm needs its word size"),
    ("wlm_32_w31", r"2 <= w <= k-2 = 30"),
    ("wlm_32_w1", r"2 <= w"),
    ("wlmm_64_h18", r"log q_h = 18 <= GB = 17"),
    ("wlmm_64_h17_t26x16", r"log q_h = 17 <= GB = 16"),
    ("wlmm_32_h10_t8x9", r"GA >= GB"),
    ("wlmm_32", r"wlmm needs log q_h"),
    ("k2red_32_h17", r"log q_h <= k/2 = 16"),
    ("k2red_33_h17", r"log q_h <= k/2 = 16"),
    ("k2red_32_h0", r"1 <= log q_h"),
    ("k2red_32", r"k2red needs log q_h"),
    ("monts_32_h15", r"needs the prime kind and the pipeline preset"),
    ("monts_32_h15_3l", r"needs the prime kind and the pipeline preset"),
    ("k2reds_32_h15_ra", r"needs the prime kind and the pipeline preset"),
    ("monts_32_h2_2l_ra", r"3 <= log q_h"),
    ("mont_8", r"k = 8 is out of range 16..512"),
    ("k2red_8_h4", r"out of range 16..512"),
    ("plantard_1024", r"out of range 16..512"),
    ("wlm_15_w4", r"out of range 16..512"),
    ("mont_32_h4", r"mont takes no h field"),
    ("cbarrett_32_lazy", r"takes no lazy field"),
    ("monts_32_h15_3l_ra_lazy", r"takes no lazy field"),
    ("wlm_32_w17_h4", r"takes no h field"),
])
def test_bad_names(name, match):
    with pytest.raises(ValueError, match=match) as e:
        precompute(name, 1, 2, 7)
    assert registry.index()["grammar"]["reduction"] in str(e.value) and "16 <= k <= 512" in str(e.value)


@pytest.mark.parametrize("name", ["mont_32", "cbarrett_512", "plantard_16", "wlm_64_w17",
                                  "wlmm_64_h17", "wlmm_64_h16_t18x18", "k2red_64_h26_lazy",
                                  "monts_64_h17_3l_ra", "k2reds_32_h16_2l_rb"])
def test_names_round_trip(name):
    d = parse_design(name)
    assert isinstance(d, ReductionDesign) and d.name == name
    assert parse_design("wlmm_64_h17_t26x17").name == "wlmm_64_h17"  # the default tile is implicit


# ---------------------------------------------------------------- 5. the generator's registry
def _registry():
    path = layout.index()
    if not os.path.exists(path):
        pytest.skip("build/designs.json not generated (./mill -i hw.runMain modforge.Generate --out build "
                    "--table --reduction-table --ntt-table)")
    with open(path) as f:
        return json.load(f)


def test_registry_names_parse():
    table = _registry()["reduction_table"]
    assert table
    for n in table:
        d = parse_design(n)
        assert isinstance(d, ReductionDesign) and d.name == n


def test_registry_manifests_match_precompute():
    """Each manifest's input ports (but clk, reset, in_valid) are exactly precompute's keys, its
    widths hold every value precompute and the model give, and its fields agree with the name."""
    checked = 0
    for n in _registry()["reduction_table"]:
        path = layout.manifest(n)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            man = json.load(f)
        d = parse_design(n)
        assert (man["design"], man["family"], man["k"]) == (n, d.family, d.k)
        if d.h is not None:
            assert (man["h"], man["omega"]) == (d.h, d.k - d.h)
        assert man.get("lazy", False) == d.lazy
        assert isinstance(man["latency"], int) and man["latency"] >= 1
        width = {p["name"]: p["width"] for p in man["ports"]}
        ins = {p["name"] for p in man["ports"] if p["dir"] == "in"} - {"clk", "reset", "in_valid"}
        assert width["out_t"] == (d.k + 2 if d.lazy else d.k)
        rng = random.Random(n)
        for cls in ("range_max", "range_min", "prime_top"):
            try:
                m = modulus(d, cls, rng)
            except RuntimeError:
                continue
            for a, b in [(m - 1, m - 1), (0, 1), (1, m - 1), (rng.randrange(m), rng.randrange(m))]:
                p = precompute(n, a, b, m)
                assert set(p) == ins, (n, sorted(p), sorted(ins))
                for port, v in p.items():
                    assert 0 <= v < 1 << width[port], (n, port, v, width[port])
                assert 0 <= model(d, p) < 1 << width["out_t"]
        checked += 1
    if not checked:
        pytest.skip("no reduction manifests under build/")
