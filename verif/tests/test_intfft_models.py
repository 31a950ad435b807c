"""The super-size integer multiplier of Cao et al. (issue 11): every model of verif/intfft against
independent references only: Python's x * y, x % p, x % A0, the direct DFT sums of Eqs. (4) and
(6), the CMNT/CNT formulas. Nothing here compares one model with another port of itself. Parts:

* the paper's tables (Tables 1-6, data/papers/cao.toml) and the XC7VX980T's capacity from an
  independent source;
* the generator's checks and the bad-input refusals (each message names its condition);
* each reducer exhaustively at reduced widths (every input), by hypothesis over its full range at
  the paper's widths, with the range ends; the printed-paper errors kept as counterexamples
  (the Solinas range, the roots 7 and 17, the Barrett constant width, the exactness bound);
* the transforms against Eqs. (4)/(6), the block product, addition recovery, both organisations;
* the block-schoolbook controller: products, the cycle count against Eq. (12), the RAM model;
  whole multiplications of random 10^4..10^5-bit operands through the FFT model;
* the super-size Barrett reduction (Eqs. 9-11) and CMNT/CNT encryption at scaled parameters;
* Table 6 recomputed from Eq. (12) beside the parsed printed values;
* the GMP baseline driver's helpers (skipped, saying why, without gmpy2).

Exhaustive runs at larger widths are behind MODFORGE_LONG=1.
"""
import json
import os
import random
from fractions import Fraction

import pytest
import sympy
from hypothesis import HealthCheck, given, settings, strategies as st

import papers
from intfft import fpga
from intfft import paper_tables as pt
from intfft import params as P
from intfft.barrett import BarrettParamError, SuperBarrett, beta_alpha
from intfft.encrypt import Encryptor, scaled
from intfft.fft import IntegerFFT, folded_schedule
from intfft.latency import (EQ12_PREP_DEFICIT, described_preparation, eq12, eq12_preparation, table6)
from intfft.recovery import adder_tree, carry_chain, recover, widths
from intfft.reducers import DhemBarrett, FermatReducer, FermatTwiddle, ReducerRangeError, SolinasReducer, for_group
from intfft.schoolbook import RamError, RamModel, SchoolbookMultiplier, model_cycles

LONG = os.environ.get("MODFORGE_LONG") == "1"
PROPERTY = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
GROUPS = list(P.GROUPS.values())
GROUP_IDS = [g.name for g in GROUPS]
# Xilinx DS180 (7 Series FPGAs overview), XC7VX980T: 3,600 DSP48E1 slices, 1,224,000 CLB
# flip-flops, 612,000 LUTs (153,000 slices x 4 LUTs / 8 flip-flops). Independent of the paper's headers.
DS180_XC7VX980T = {"dsp": 3600, "registers": 1224000, "luts": 612000}


# ---- the parsed tables ----

def test_tables_1_2():
    t1, t2 = pt.paper_table1(), pt.paper_table2()
    assert [g.name for g in t1] == [g.name for g in t2] == ["Toy", "Small", "Medium", "Large"]
    assert all(g.rho == 4 * g.delta for g in t1) and all(g.rho == g.delta for g in t2)
    assert [g.phi for g in t1][-1] == 19_000_000 and [g.phi for g in t2][-1] == 19_350_000
    assert all(a.phi < b.phi and a.delta < b.delta and a.theta < b.theta for a, b in zip(t1, t1[1:]))


def test_table3_and_groups():
    rows = pt.paper_table3()
    assert [r.form for r in rows] == ["Special", "Special", "Solinas", "General"]
    for r in rows:
        assert r.m == r.p.bit_length() and r.k in (64, 128)
    assert {(g.p, g.k, g.b) for g in P.table3_groups()} == {(r.p, r.k, r.b) for r in rows}
    assert set(P.table3_groups()) == set(GROUPS)
    # d = kb/16, and the paper's d list (32, 48, 192, 224) is in Table 4 order (erratum 7)
    order4 = [r.p for r in pt.paper_table4().rows]
    assert [P.GROUP_BY_P[p].d for p in order4] == [32, 48, 192, 224]
    assert [P.GROUP_BY_P[p].tree_fanin for p in order4] == [4, 4, 8, 8]


def test_tables_4_5_capacity():
    t4, t5 = pt.paper_table4(), pt.paper_table5()
    assert t4.totals == t5.totals == DS180_XC7VX980T
    assert len(t4.rows) == 4 and len(t5.rows) == 8
    u4 = fpga.utilisation(t4)
    assert [u.p for u in u4 if u.fits] == [P.P_F32]   # only the 2^32+1 multiplier fits the device
    assert [u.p for u in fpga.utilisation(t5) if u.fits] == [P.P_F32, P.P_F32]
    sol = next(u for u in u4 if u.p == P.P_S64)
    assert round(sol.fraction["registers"], 2) == 0.92 and sol.fraction["dsp"] > 5
    # the Solinas DSP count: 1,536 64x64 multipliers x 12 DSP48E1 + 64 (notes, section 2.3)
    assert next(r.dsp for r in t4.rows if r.p == P.P_S64) == 1536 * 12 + 64


def test_table6_cells():
    cells = pt.paper_table6()
    hw = [c for c in cells if c.p is not None]
    assert len(hw) == 32 and len(cells) == 41
    assert {(c.scheme, c.p) for c in hw} == {(s, g.p) for s in ("CMNT", "CNT") for g in GROUPS}
    sw = {(c.scheme, c.column): c.seconds for c in cells if c.p is None and c.scheme}
    solinas = {(c.scheme, c.column): c.seconds for c in hw if c.p == P.P_S64}
    # the headline speedups, from the parsed cells: 44.72 / 54.42 (Large), 61.3 / 67.7 (Toy)
    assert round(sw["CMNT", "Large"] / solinas["CMNT", "Large"], 2) == Fraction(4472, 100)
    assert round(sw["CNT", "Large"] / solinas["CNT", "Large"], 2) == Fraction(5442, 100)
    assert abs(float(sw["CMNT", "Toy"] / solinas["CMNT", "Toy"]) - 61.34) < 0.02
    assert abs(float(sw["CNT", "Toy"] / solinas["CNT", "Toy"]) - 67.65) < 0.02


def test_missing_paper_data(tmp_path, monkeypatch):
    monkeypatch.setattr(papers, "DATA", tmp_path)
    with pytest.raises(pt.PaperTableError, match="cao.toml.*scripts/paper_data.py"):
        pt.paper_table1()
    (tmp_path / "cao.toml").write_text('figures = [{ table = "Table 1", row = "Toy", column = "δ", value = 42 }]\n')
    with pytest.raises(pt.PaperTableError, match="row 'Toy' has no figure in the column 'ρ'"):
        pt.paper_table1()
    with pytest.raises(pt.PaperTableError, match="no figures of 'Table 6'"):
        pt.paper_table6()


def test_parse_helpers():
    assert pt.parse_modulus("$2^{64} - 2^{32} + 1$") == 2 ** 64 - 2 ** 32 + 1
    assert pt.parse_modulus("2^{32}+1") == 2 ** 32 + 1
    assert pt.parse_time("2 min 57 s") == (177, 0) and pt.parse_time("0.057s")[1] == 3


# ---- the generator's checks ----

def test_groups_valid():
    for g in GROUPS:
        assert P.check_group(g) is g
        assert P.multiplicative_order(g.omega, g.p) == g.k
        assert g.words_per_block == 8 and (g.k // 2) * ((1 << g.b) - 1) ** 2 < g.p
    assert [P.GROUPS[n].reducer for n in ("fermat32", "general32", "fermat64", "solinas64")] == \
        ["fermat", "dhem", "fermat", "solinas"]


def test_erratum_printed_roots():
    """Erratum 3: the printed 7 (Solinas) and 17 (general) are not k-th roots of unity."""
    s, gen = P.GROUP_BY_P[P.P_S64], P.GROUP_BY_P[P.P_G32]
    assert sympy.n_order(7, s.p) == s.p - 1                 # a generator, not of order 128
    assert sympy.n_order(17, gen.p) == (gen.p - 1) // 3     # not of order 64
    assert pow(7, s.k, s.p) != 1 and pow(17, gen.k, gen.p) != 1
    for g in (s, gen):
        with pytest.raises(P.ParamError, match=r"not a principal .*-th root .*its order is"):
            P.make_group(g.p, g.k, P.PRINTED_OMEGA[g.p], g.b)
    # the corrected roots are the notes' 7^((p-1)/128) and 17^((p-1)/64)
    assert s.omega == pow(7, (s.p - 1) // 128, s.p) == 0xF80007FF08000001
    assert gen.omega == pow(17, (gen.p - 1) // 64, gen.p) == 0xCA125983
    # "p is a prime" is false for the Fermat-type moduli, yet k | q - 1 for both factors
    for p, k in ((P.P_F32, 64), (P.P_F64, 128)):
        f = sympy.factorint(p)
        assert len(f) == 2 and all((q - 1) % k == 0 for q in f)


def test_erratum_exactness_bound():
    """Not in the paper: (k/2)(2^b - 1)^2 < p. At b_max + 1 the all-ones digits wrap mod p."""
    for g in GROUPS:
        bmax = P.max_exact_b(g.p, g.k)
        assert bmax == (13 if g.k == 64 else 29) and g.b <= bmax
        b = bmax + 1
        digits = [(1 << b) - 1] * (g.k // 2)
        # the middle coefficient of the acyclic product of two all-ones blocks
        true = sum(digits[t] * digits[g.k // 2 - 1 - t] for t in range(g.k // 2))
        assert true >= g.p and true % g.p != true
        with pytest.raises(P.ParamError, match=r"exactness bound .* use b <= %d" % bmax):
            P.make_group(g.p, g.k, g.omega, b, d=g.k * b // 16 if g.k * b % 16 == 0 else b * 8)


@pytest.mark.parametrize("args, match", [
    (dict(p=P.P_S64, k=96, omega=2, b=4, d=24), "not a power of two"),
    (dict(p=P.P_G32, k=64, omega=0xCA125983, b=12, d=32), "d/b = 2.66667 is not a power of two"),
    (dict(p=P.P_S64, k=128, omega=0xF80007FF08000001, b=28, d=100), "must divide the block width"),
    (dict(p=P.P_F32, k=256, omega=2, b=4, d=64), "k = 256 does not divide q - 1 for the prime factor q = 641"),
    (dict(p=P.P_F32, k=128, omega=2, b=4, d=32), "omega = 2 is not a principal 128-th root .* order is 64"),
    (dict(p=P.P_F32, k=64, omega=4, b=8, d=32), "not a principal 64-th root"),
    (dict(p=2 ** 32, k=64, omega=2, b=8, d=32), "must be odd"),
    (dict(p=P.P_G32, k=64, omega=0xCA125983, b=12, d=48, reducer="fermat"), "fermat reducer needs"),
    (dict(p=P.P_G32, k=64, omega=0xCA125983, b=12, d=48, reducer="solinas"), "solinas reducer needs"),
])
def test_bad_parameters(args, match):
    with pytest.raises(P.ParamError, match=match):
        P.make_group(**args)


# ---- reducers: exhaustive at reduced widths ----

@pytest.mark.parametrize("m", [5, 7, 9] + ([11] if LONG else []))
def test_fermat_exhaustive(m):
    r = FermatReducer(m)
    p = r.p
    for x in range(p * p):
        assert r.reduce(x) == x % p
    # above p^2 (still 2m bits) the single correction is not enough: documented IN_MAX = p^2
    over = [x for x in range(p * p, 1 << 2 * m) if r.trace(x)["y"] != x % p]
    assert over and min(over) >= p * p and max(r.trace(x)["y"] for x in over) <= p + 1
    with pytest.raises(ReducerRangeError):
        r.reduce(p * p)


@pytest.mark.parametrize("m", [5, 7, 9] + ([11] if LONG else []))
def test_fermat_twiddle_exhaustive(m):
    """The rotation against x * (+-2^s) % p for every residue x (2^n = p - 1 included) and code."""
    t = FermatTwiddle(m)
    p, n = t.p, m - 1
    for neg in (False, True):
        for s in range(n):
            tw = (-(1 << s)) % p if neg else 1 << s
            for x in range(p):
                assert t.mul(x, neg, s) == x * tw % p, (x, neg, s)
    for bad in ((p, False, 0), (0, False, n), (-1, True, 1)):
        with pytest.raises(ReducerRangeError):
            t.mul(*bad)


@pytest.mark.parametrize("m", [33, 65])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_fermat_twiddle_paper_widths(m, data):
    t = FermatTwiddle(m)
    p = t.p
    x = data.draw(st.one_of(st.sampled_from([0, 1, p - 2, p - 1, 1 << (m - 2), (1 << (m - 2)) - 1]),
                            st.integers(0, p - 1)))
    neg, s = data.draw(st.booleans()), data.draw(st.integers(0, m - 2))
    assert t.mul(x, neg, s) == x * ((-(1 << s)) % p if neg else 1 << s) % p


@pytest.mark.parametrize("h", [2, 3, 4] + ([5] if LONG else []))
def test_solinas_exhaustive(h):
    r = SolinasReducer(h)
    rs, sels = [], set()
    for x in range(r.IN_MAX):
        assert r.reduce(x) == x % r.p
        t = r.trace(x)
        rs.append(t["r"])
        sels.add(t["sel"])
    assert (min(rs), max(rs)) == (r.R_MIN, r.R_MAX) == (-(2 ** h - 1), 2 * r.p - 2)
    assert sels == {"+p", "-p", "r"}                # all three inputs of the select are used


def test_dhem_exhaustive_small():
    """Every odd 6-bit modulus, every 12-bit input; quotient error 0 or 1 and both occur."""
    errors = set()
    for p in range(33, 64, 2):
        r = DhemBarrett(p)
        for x in range(1 << 12):
            t = r.trace(x)
            assert t["y"] == x % p
            errors.add(x // p - t["sigma"])
    assert errors == {0, 1}


@pytest.mark.parametrize("p", [0xFB, 0x83] + (list(range(129, 256, 2)) if LONG else []))
def test_dhem_exhaustive_8bit(p):
    r = DhemBarrett(p)
    for x in range(1 << 16):
        assert r.reduce(x) == x % p


# ---- reducers: full range at the paper's widths ----

def _edge_inputs(r):
    p = r.p
    return [0, 1, p - 1, p, p + 1, (p - 1) ** 2, r.IN_MAX - 1, min(p * p, r.IN_MAX) - 1]


@pytest.mark.parametrize("g", GROUPS, ids=GROUP_IDS)
def test_reducer_edges(g):
    r = for_group(g)
    for x in _edge_inputs(r):
        if x < r.IN_MAX:
            assert r.reduce(x) == x % g.p


@pytest.mark.parametrize("g", GROUPS, ids=GROUP_IDS)
def test_reducer_hypothesis(g):
    r = for_group(g)

    @PROPERTY
    @given(st.integers(0, r.IN_MAX - 1))
    def check(x):
        assert r.reduce(x) == x % g.p
    check()


def _word(h):
    return st.one_of(st.just(0), st.just((1 << h) - 1), st.integers(0, (1 << h) - 1))


@PROPERTY
@given(_word(32), _word(32), _word(32), _word(32))
def test_solinas_words_hypothesis(a, b, c, d):
    """The 64-bit Solinas reducer over its 32-bit words, ends included (reaches both corrections)."""
    r = SolinasReducer(32)
    x = a << 96 | b << 64 | c << 32 | d
    assert r.reduce(x) == x % r.p


@PROPERTY
@given(st.integers(4, 128).flatmap(lambda m: st.tuples(st.integers((1 << (m - 1)) | 1, (1 << m) - 1), st.data())))
def test_dhem_any_modulus(pd):
    p, data = pd
    r = DhemBarrett(p | 1)
    x = data.draw(st.integers(0, r.IN_MAX - 1))
    t = r.trace(x)
    assert t["y"] == x % r.p and 0 <= x // r.p - t["sigma"] <= 1


def test_erratum_barrett_constant_width():
    """Erratum 4: p1 = floor(2^(2m+4)/p) has m+5 bits (the paper: m+4); cut to m+4 bits it fails."""
    r = DhemBarrett(P.P_G32)
    assert r.P1 == 0x1001000FF0 and r.P1.bit_length() == 37 == r.m + 5
    for p in (P.P_G32, (1 << 31) + 1, (1 << 32) - 1, 0xFFFFFFFB):
        assert DhemBarrett(p).P1.bit_length() == p.bit_length() + 5
    cut = r.P1 & ((1 << r.P1_BITS_PRINTED) - 1)
    x = (r.p - 1) ** 2
    t = r.trace(x, p1=cut)
    assert x // r.p - t["sigma"] > 1 and t["y"] != x % r.p     # one subtraction no longer suffices


def test_erratum_solinas_range():
    """Erratum 5: r = 2^32(b+c) - a - b + d is in (-2^32, 2p), not the printed (p, 2p)."""
    r = SolinasReducer(32)
    lo, hi = r.PRINTED_RANGE
    assert r.trace(5 << 96)["r"] == -5                    # the notes' counterexample: below 0
    assert r.trace(0)["r"] == 0 and r.trace(r.p - 1)["r"] == r.p - 1   # in [0, p]: inside neither end
    worst_lo = (2 ** 32 - 1) << 96                        # a = 2^32 - 1, b = c = d = 0
    worst_hi = ((2 ** 32 - 1) << 64) | ((2 ** 32 - 1) << 32) | (2 ** 32 - 1)   # a = 0, b = c = d max
    assert r.trace(worst_lo)["r"] == r.R_MIN == -(2 ** 32 - 1)
    assert r.trace(worst_hi)["r"] == r.R_MAX == 2 * r.p - 2
    for x in (5 << 96, 0, worst_lo):
        assert not lo < r.trace(x)["r"] < hi
        assert r.reduce(x) == x % r.p


# ---- transforms, block product, recovery ----

def crt_root(p, k):
    """A principal k-th root modulo a square-free p: g_q^((q-1)/k) per prime factor, by CRT."""
    qs = list(sympy.factorint(p))
    rs = [pow(int(sympy.primitive_root(q)), (q - 1) // k, q) for q in qs]
    return int(sympy.ntheory.modular.crt(qs, rs)[0])


SMALL_GROUPS = [P.make_group(65537, 32, 2, 6, name="fermat16"),             # 2^16+1: omega = 2, order 32
                P.make_group(257, 16, 2, 2, d=2, name="fermat8"),             # 2^8+1, d/b = 1
                P.make_group(65281, 32, crt_root(65281, 32), 6, name="solinas16"),   # 2^16-2^8+1 = 97*673
                P.make_group(241, 16, crt_root(241, 16), 2, d=2, name="solinas8"),   # 2^8-2^4+1, prime
                P.make_group(7681, 16, pow(17, 7680 // 16, 7681), 4, name="dhem13")]
ALL_GROUPS = GROUPS + SMALL_GROUPS


def dft(a, w, p):
    k = len(a)
    return [sum(a[t] * pow(w, T * t, p) for t in range(k)) % p for T in range(k)]


@pytest.mark.parametrize("g", ALL_GROUPS, ids=[g.name for g in ALL_GROUPS])
def test_transforms_against_eq4_eq6(g):
    f = IntegerFFT(g)
    rng = random.Random(g.name)
    for a in ([0] * g.k, [g.p - 1] * g.k, [rng.randrange(g.p) for _ in range(g.k)]):
        X = f.forward(a)
        assert X == dft(a, g.omega, g.p)                                  # Eq. (4)
        kinv = pow(g.k, -1, g.p)
        assert f.inverse(X) == [v * kinv % g.p for v in dft(X, pow(g.omega, -1, g.p), g.p)] == a   # Eq. (6)


@pytest.mark.parametrize("g", ALL_GROUPS, ids=[g.name for g in ALL_GROUPS])
def test_block_product(g):
    f = IntegerFFT(g)
    n = g.block_bits
    full = (1 << n) - 1
    alt = int("10" * (n // 2), 2)
    top_digit = ((1 << g.b) - 1) << (n - g.b)
    rng = random.Random(n)
    cases = [(0, 0), (0, full), (full, full), (alt, full), (1, full), (top_digit, top_digit)]
    cases += [(rng.getrandbits(n), rng.getrandbits(n)) for _ in range(4)]
    for x, y in cases:
        assert f.block_product(x, y) == x * y
    with pytest.raises(ValueError, match="does not fit"):
        f.digits(1 << n)


def test_shift_twiddles():
    """fermat groups: every twiddle (k^-1 included) is +-2^s with s < m - 1."""
    for g in (P.GROUPS["fermat32"], P.GROUPS["fermat64"], SMALL_GROUPS[0]):
        f = IntegerFFT(g)
        kinv = pow(g.k, -1, g.p)
        for e in range(g.k):
            for inverse in (False, True):
                for scaled_ in (False, True):
                    neg, s = f._twiddle(e, inverse, scaled_)
                    assert 0 <= s < g.m - 1
                    want = pow(g.omega, -e if inverse else e, g.p) * (kinv if scaled_ else 1) % g.p
                    assert f.twiddle_value((neg, s)) == want


@pytest.mark.parametrize("units", [1, 4, 64])
def test_folded_equals_parallel_and_dft(units):
    g = P.GROUPS["solinas64"]
    rng = random.Random(units)
    a = [rng.randrange(g.p) for _ in range(g.k)]
    folded = IntegerFFT(g, ("folded", units))
    assert folded.forward(a) == dft(a, g.omega, g.p)
    sched = folded_schedule(g.k, units)
    assert len(sched) == g.log2k * g.k // 2
    assert len({(s, st_, j) for _, s, st_, j in sched}) == len(sched)         # every butterfly once
    assert folded.transform_cycles() == g.log2k * g.k // (2 * units) == sched[-1][0] + 1
    with pytest.raises(ValueError, match="power of two"):
        folded_schedule(g.k, 3)


@pytest.mark.parametrize("g", GROUPS, ids=GROUP_IDS)
def test_recovery(g):
    rng = random.Random(g.d)
    # exact convolutions of random digits (what the IFFT delivers) and the all-max case
    for digits in ([(1 << g.b) - 1] * (g.k // 2), [rng.getrandbits(g.b) for _ in range(g.k // 2)]):
        z = [sum(digits[i] * digits[t - i] for i in range(max(0, t - g.k // 2 + 1), min(t, g.k // 2 - 1) + 1))
             for t in range(g.k)]
        words = recover(z, g.b, g.d)
        assert len(words) == g.k * g.b // g.d == 16 and all(0 <= w < 1 << g.d for w in words)
        assert sum(w << (i * g.d) for i, w in enumerate(words)) == sum(v << (t * g.b) for t, v in enumerate(z))
    # the tree: log2(d/b) registered levels; z'_i = sum_u z_{i d/b + u} 2^(ub)
    z = [rng.randrange(g.p) for _ in range(g.k)]
    levels = adder_tree(z, g.b, g.d)
    f = g.tree_fanin
    assert len(levels) - 1 == f.bit_length() - 1
    assert levels[-1] == [sum(z[i * f + u] << (u * g.b) for u in range(f)) for i in range(g.k // f)]
    w = widths(g.m, g.b, g.d)
    assert max(levels[-1]).bit_length() <= w["ZP_BITS"]
    assert [c for c, _ in carry_chain(levels[-1], g.d, False)] == list(range(g.k // f))   # one word per clock


# ---- the block-schoolbook controller ----

@pytest.mark.parametrize("g", GROUPS, ids=GROUP_IDS)
def test_schoolbook_controller_exact_blocks(g):
    """The controller alone (block products by Python), many shapes; cycles against Eq. (12)."""
    s = SchoolbookMultiplier(g, "exact")
    blk = g.block_bits
    rng = random.Random(blk)
    for bx, by in [(1, 1), (1, 5), (2, 1), (3, 4), (5, 2), (4, 7)]:
        for x, y in [((1 << bx * blk) - 1, (1 << by * blk) - 1),
                     (rng.getrandbits(bx * blk) | 1 << (bx * blk - 1), rng.getrandbits(by * blk) | 1 << (by * blk - 1))]:
            r = s.multiply(x, y)
            assert r.product == x * y and (r.bx, r.by) == (bx, by)
            assert r.cycles == model_cycles(g, bx, by) == 8 * bx * by + 16 * g.log2k + 32
            assert r.first_write == described_preparation(g.k, g.b, g.d) == 16 * g.log2k + 24
            assert r.cycles - eq12(g.k, g.b, g.d, bx * blk, by * blk) == 16 * bx


@FEW
@given(st.data())
def test_schoolbook_hypothesis(data):
    g = data.draw(st.sampled_from(GROUPS))
    nx = data.draw(st.integers(1, 6 * g.block_bits))
    ny = data.draw(st.integers(1, 6 * g.block_bits))
    x = data.draw(st.integers(0, (1 << nx) - 1))
    y = data.draw(st.integers(0, (1 << ny) - 1))
    assert SchoolbookMultiplier(g, "exact").multiply(x, y, nx, ny).product == x * y


def test_eq12_8_cycle_difference():
    for g in GROUPS:
        assert described_preparation(g.k, g.b, g.d) - eq12_preparation(g.k) == EQ12_PREP_DEFICIT == 8


@pytest.mark.parametrize("g, nx, ny", [
    (P.GROUPS["solinas64"], 10_000, 10_000),
    (P.GROUPS["solinas64"], 1_792, 100_000),
    (P.GROUPS["fermat64"], 3_000, 60_000),
    (P.GROUPS["general32"], 384, 40_000),
    (P.GROUPS["fermat32"], 300, 20_000),
], ids=["solinas-10k^2", "solinas-1blk-100k", "fermat64-2blk-60k", "general-1blk-40k", "fermat32-2blk-20k"])
def test_whole_multiplication_fft(g, nx, ny):
    rng = random.Random(nx * ny)
    x, y = rng.getrandbits(nx) | 1 << (nx - 1), rng.getrandbits(ny) | 1 << (ny - 1)
    r = SchoolbookMultiplier(g).multiply(x, y)
    assert r.product == x * y
    assert r.cycles == model_cycles(g, r.bx, r.by)


def test_ram_model_refuses():
    g = P.GROUPS["solinas64"]
    s = SchoolbookMultiplier(g, "exact")
    with pytest.raises(RamError, match=r"operand y .* does not fit the RAM model of 64 words"):
        s.multiply(1, 1 << 20_000, ram=RamModel(g.d, words=64))
    with pytest.raises(RamError, match="product .* does not fit"):
        s.multiply((1 << 3000) - 1, (1 << 3000) - 1, ram=RamModel(g.d, words=40))
    ram = RamModel(g.d)
    ram.write(5, 1, 10)
    with pytest.raises(RamError, match="read before its write"):
        ram.read(5, 10)
    with pytest.raises(RamError, match="more than 1 RAM write"):
        ram.write(6, 1, 10)


# ---- the super-size Barrett reduction ----

def test_beta_alpha_worked_values():
    assert beta_alpha(19_000_000, 224) == (-96, 19_000_032)
    assert beta_alpha(19_350_000, 224) == (-208, 19_350_032)


@PROPERTY
@given(st.integers(5, 20_000), st.sampled_from([3, 32, 48, 192, 224]), st.integers(1, 150))
def test_beta_alpha_properties(phi, d, gamma):
    try:
        beta, alpha = beta_alpha(phi, d, gamma)
    except BarrettParamError as e:
        assert "phi + beta" in str(e) or "alpha =" in str(e)
        return
    assert beta < -2 and (phi + beta) % d == 0 and (alpha - beta) % d == 0 and alpha > gamma and phi + beta >= 0


@FEW
@given(st.data())
def test_super_barrett_exact_blocks(data):
    g = data.draw(st.sampled_from(GROUPS))
    phi = data.draw(st.integers(g.d + 3, 6000))
    gamma = data.draw(st.integers(1, 200))
    A0 = data.draw(st.integers(1 << (phi - 1), (1 << phi) - 1))
    try:
        b = SuperBarrett(A0, gamma, g, "exact")
    except BarrettParamError as e:
        assert "alpha" in str(e) and gamma >= beta_alpha(phi, g.d)[1]
        return
    for x in (0, A0 - 1, A0, 2 * A0 - 1, (1 << (phi + gamma)) - 1,
              data.draw(st.integers(0, (1 << (phi + gamma)) - 1))):
        r = b.reduce(x)
        assert r.y == x % A0
        assert r.cycles == r.pass1_cycles + r.pass2_cycles + r.sub_words


def test_super_barrett_fft():
    """One super-size reduction through the FFT model: 20,000-bit A0, 100-bit headroom."""
    g = P.GROUPS["solinas64"]
    rng = random.Random(20_000)
    A0 = rng.getrandbits(20_000) | 1 << 19_999
    x = rng.getrandbits(20_100)
    r = SuperBarrett(A0, 100, g).reduce(x)
    assert r.y == x % A0
    assert r.pass1_cycles == model_cycles(g, 1, 12) and r.pass2_cycles == model_cycles(g, 1, 12)


@pytest.mark.parametrize("A0, d, gamma, match", [
    (3, 224, 10, "Eq. \\(10\\) gives no usable beta for a 2-bit A0 with d = 224: beta = -226"),
    ((1 << 2000) + 1, 2, 10, "assumes d > 2"),
    ((1 << 300) + 1, 224, 400, "alpha = .* <= gamma = 400"),
    (1, 224, 10, "must be >= 2"),
])
def test_super_barrett_refuses(A0, d, gamma, match):
    g = P.GROUPS["solinas64"] if d == 224 else P.make_group(257, 16, 2, 2, d=2)
    with pytest.raises(BarrettParamError, match=match):
        SuperBarrett(A0, gamma, g, "exact")


def test_super_barrett_input_range():
    b = SuperBarrett((1 << 3000) + 12345, 50, P.GROUPS["solinas64"], "exact")
    with pytest.raises(BarrettParamError, match="outside"):
        b.reduce(1 << 3051)


# ---- CMNT / CNT ----

def _groups():
    return {(s.scheme, s.name): s for s in P.scheme_groups()}


def test_cnt_encryption():
    s = scaled(_groups()["CNT", "Toy"], phi=3000, theta=4)
    assert s.name == "Toy[phi=3000,theta=4]" and (s.delta, s.rho) == (936, 936)
    rng = random.Random(2)
    A0 = rng.getrandbits(s.phi) | 1 << (s.phi - 1)
    A = [rng.getrandbits(s.phi) for _ in range(s.theta)]
    for M, R, B in [(1, -(2 ** s.rho - 1), [rng.getrandbits(s.delta) for _ in range(s.theta)]),
                    (0, 2 ** s.rho - 1, [0] * s.theta)]:
        e = Encryptor(P.GROUPS["solinas64"]).cnt(M, R, B, A, A0, s.rho, s.delta)
        assert e.C == (M + 2 * R + 2 * sum(b * a for b, a in zip(B, A))) % A0
        assert e.products == s.theta


def test_cmnt_encryption():
    s = scaled(_groups()["CMNT", "Toy"], phi=1200, theta=2)
    rng = random.Random(3)
    A0 = rng.getrandbits(s.phi) | 1 << (s.phi - 1)
    A_0 = [rng.getrandbits(s.phi) for _ in range(2)]
    A_1 = [rng.getrandbits(s.phi) for _ in range(2)]
    B = [[rng.getrandbits(s.delta) for _ in range(2)] for _ in range(2)]
    R = -rng.getrandbits(s.rho)
    e = Encryptor(P.GROUPS["fermat64"]).cmnt(1, R, B, A_0, A_1, A0, s.rho, s.delta)
    assert e.C == (1 + 2 * R + 2 * sum(B[i][j] * A_0[i] * A_1[j] for i in range(2) for j in range(2))) % A0
    assert e.products == 4 and e.precompute_cycles > 0


def test_encryption_bad_input():
    enc = Encryptor(P.GROUPS["solinas64"], "exact")
    A0 = (1 << 2000) + 1
    with pytest.raises(ValueError, match="plaintext M must be a bit"):
        enc.cnt(2, 0, [1], [1], A0, 10, 10)
    with pytest.raises(ValueError, match="outside"):
        enc.cnt(0, 1 << 10, [1], [1], A0, 10, 10)
    with pytest.raises(ValueError, match="not a 10-bit integer"):
        enc.cnt(0, 0, [1 << 10], [1], A0, 10, 10)


# ---- Eq. (12) and Table 6 ----

def test_eq12_values():
    # CMNT Solinas Large: n_x = one 1,792-bit block, n_y = 19e6 -> 128 + (2/224) 9.5e6 cycles
    assert eq12(128, 28, 224, 1792, 19_000_000) == 128 + Fraction(2, 224) * 9_500_000
    # one block by one block: the formula's 16(log2 k + 1) + 8
    for g in GROUPS:
        assert eq12(g.k, g.b, g.d, g.block_bits, g.block_bits) == 16 * (g.log2k + 1) + 8


def test_table6_recomputed():
    cells = table6()
    assert len(cells) == 32
    by = {(c.scheme, c.p, c.group): c for c in cells}
    # three of the four groups: Medium and Large within 0.7 %, Toy within 17 %
    for c in cells:
        if c.p != P.P_G32:
            assert abs(c.rel) < (0.007 if c.group in ("Medium", "Large") else 0.17), c
    assert abs(by["CMNT", P.P_S64, "Large"].model_s - 3.952) < 0.001       # the notes' example
    assert abs(by["CNT", P.P_S64, "Large"].model_s - 7.992) < 0.001
    # the general modulus: Table 3's b = 12 is a third too fast; b = 8 (d = 32) fits (erratum 8)
    general = [c for c in cells if c.p == P.P_G32]
    assert all(-0.56 < c.rel < -0.33 for c in general)
    general8 = [c for c in table6(general_b=8) if c.p == P.P_G32]
    assert all(abs(c.rel) < (0.005 if c.group in ("Medium", "Large") else 0.04) for c in general8)


# ---- the GMP baseline driver ----

def _baseline():
    from reports import intfft_baseline
    return intfft_baseline


def test_baseline_groups_and_barrett_formula():
    ib = _baseline()
    gs = ib.select()
    assert [(g.scheme, g.name) for g in gs] == [(s, n) for s in ("CMNT", "CNT") for n in ("Toy", "Small", "Medium", "Large")]
    for phi in (5000, 19_000_000, 19_350_000):
        assert ib.beta_alpha(phi, 224) == beta_alpha(phi, 224)
    with pytest.raises(ib.BaselineError, match="unknown group"):
        ib.select("CMNT:Huge")
    paper = ib.paper_times()
    assert paper["CMNT", "Large"] == {"sw_s": 177.0, "hw_solinas_s": 3.958}


def test_baseline_run_tiny(tmp_path):
    pytest.importorskip("gmpy2", reason="gmpy2 not installed in this venv (pinned in requirements.txt)")
    ib = _baseline()
    toy = ib.select("CMNT:Toy")[0]._replace(phi=5000, theta=2)
    out = tmp_path / "r.json"
    data = ib.run([toy], reps=3, budget=0.1, out=out, log=lambda *a, **k: None)
    assert json.loads(out.read_text())["groups"][0]["products"] == 4
    assert data["environment"]["gmp"].startswith("GMP") and data["environment"]["cpu_model"]
