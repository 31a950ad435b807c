"""The prime-class counts of the streaming polymul engine's limbs (flow/reports/polymul_primes.py and
the toolkit functions it uses: count_ntt_primes, count_proth_primes(n=...), estimate_ntt_primes,
largest_ntt_primes, proth_ntt_n) against independent oracles:

- every w-bit prime, by gmpy2.is_prime (sympy.isprime where gmpy2 is missing) over all odd q in
  (2^(w-1), 2^w), at w = 16..22, filtered here by each class's congruences;
- the Proth-2l and Proth-3l classes enumerated here from docs/reduction.md's definition,
  q = 2^(k-1) + (2^l1 - 2^l2 [+ 2^l3]) 2^(k-h) + 1, 0 <= l2 <= l1 < h - 1, 0 <= l3 < h - 1,
  with the primes kept by the same oracle (not by the toolkit's proth_l_primes).

Edge cases: w = 16, n so large that no prime (or no candidate) exists, a class with no design at
w (WLM's omega > w - 2), the cap between exact counts and estimates. No generator call: the
report's registry inputs (the designs' parameters, the engine's widths) are given here.
"""
import math
from functools import lru_cache

import pytest

from primetools import proth
from reports import common
from reports import polymul_primes as pp

try:
    from gmpy2 import is_prime as _oracle_is_prime
except ImportError:  # pragma: no cover - gmpy2 is in requirements.txt
    sympy = pytest.importorskip("sympy")
    _oracle_is_prime = sympy.isprime

# The reduction table designs' parameters as the registry gives them (WLM omega 17, WLM-Mixed tile
# 26 x 17, the h values of docs/reduction.md's table designs up to 64 bits).
PARAMS = {"omega": [17], "gb": [17], "h": [15, 16, 17, 26, 32]}
SMALL_W = range(16, 23)
NS = [1 << e for e in range(0, 17)]  # n = 1 .. 65536: past every w here, so the counts reach 0


def is_prime(q: int) -> bool:
    return bool(_oracle_is_prime(q))


@lru_cache(maxsize=None)
def all_primes(w: int) -> tuple:
    """Every prime q with 2^(w-1) < q < 2^w (the oracle over every odd q of the interval)."""
    return tuple(q for q in range((1 << (w - 1)) + 1, 1 << w, 2) if is_prime(q))


def ntt_brute(w: int, n: int) -> list:
    return [q for q in all_primes(w) if q % (2 * n) == 1]


def proth_brute(w: int, h: int, n: int) -> list:
    """Proth of class (w, h), docs/reduction.md: q = q_h 2^(w-h) + 1, q_h of exactly h bits; and 2n | q - 1."""
    return [q for q in all_primes(w)
            if (q - 1) % (1 << (w - h)) == 0 and ((q - 1) >> (w - h)).bit_length() == h and (q - 1) % (2 * n) == 0]


@lru_cache(maxsize=None)
def proth_l_brute(k: int, h: int, kind: str) -> tuple:
    """The definition, enumerated: every tuple, the distinct values, the primes among them."""
    values = set()
    for l1 in range(h - 1):
        for l2 in range(l1 + 1):
            if kind == "2l":
                values.add((1 << (k - 1)) + (((1 << l1) - (1 << l2)) << (k - h)) + 1)
            else:
                for l3 in range(h - 1):
                    values.add((1 << (k - 1)) + (((1 << l1) - (1 << l2) + (1 << l3)) << (k - h)) + 1)
    return tuple(sorted(q for q in values if is_prime(q)))


def proth_l_n(k: int, h: int, kind: str, n: int) -> list:
    return [q for q in proth_l_brute(k, h, kind) if (q - 1) % (2 * n) == 0]


# ---- the toolkit's counts ----

@pytest.mark.parametrize("w", SMALL_W)
def test_count_ntt_primes_brute_force(w):
    for n in NS:
        want = len(ntt_brute(w, n))
        assert proth.count_ntt_primes(w, n, "c") == want, (w, n)
        if (1 << (w - 1)) // (2 * n) <= 4096:  # the Python counter is slow: small cells only
            assert proth.count_ntt_primes(w, n, "python") == want, (w, n)


def test_edge_no_prime_and_no_candidate():
    """w = 16: at n = 8192 (2n = 2^14) the three candidates are composite; from n = 32768 (2n >= 2^16)
    no candidate exists. Both are 0, and the estimate of an empty progression is 0."""
    assert [q for q in range((1 << 15) + 1, 1 << 16, 2 * 8192) if q % (2 * 8192) == 1]  # candidates exist ...
    assert ntt_brute(16, 8192) == [] and proth.count_ntt_primes(16, 8192, "c") == 0  # ... none prime
    for n in (1 << 15, 1 << 16, 1 << 20):
        assert proth.count_ntt_primes(16, n, "c") == 0 == proth.count_ntt_primes(16, n, "python")
        assert proth.estimate_ntt_primes(16, n) == 0.0
    # 2^16 + 1 (a Fermat prime) is the only 17-bit prime 1 mod 2^16
    assert proth.count_ntt_primes(17, 1 << 15, "c") == len(ntt_brute(17, 1 << 15)) == 1
    assert proth.largest_ntt_primes(16, 8192, 3) == []


@pytest.mark.parametrize("bad", [3, 0, 96, -4])
def test_n_must_be_a_power_of_two(bad):
    with pytest.raises(ValueError):
        proth.count_ntt_primes(20, bad)


@pytest.mark.parametrize("w", SMALL_W)
def test_count_proth_primes_with_n_brute_force(w):
    for h in range(1, w // 2 + 1):
        for n in (1, 64, 1 << (w - h - 2) if w - h >= 2 else 1, 1 << (w - h), 4096, 32768):
            want = len(proth_brute(w, h, n))
            assert proth.count_proth_primes(w, h, method="c", n=n) == want, (w, h, n)
        # without n: the class's full count, as before
        assert proth.count_proth_primes(w, h, method="c") == len(proth_brute(w, h, 1)), (w, h)


@pytest.mark.parametrize("w", SMALL_W)
def test_largest_ntt_primes_brute_force(w):
    for n in (64, 512, 4096, 32768):
        brute = sorted(ntt_brute(w, n), reverse=True)
        for many in (0, 1, 3, 40):
            assert proth.largest_ntt_primes(w, n, many) == brute[:many], (w, n, many)


def test_estimate():
    """The prime number theorem's estimate: li is right, and it is close to the brute count."""
    assert abs(proth._li(1e6) - 78627.549) < 0.01  # li(10^6) = 78627.549...
    for w in (21, 22):
        exact = len(ntt_brute(w, 64))
        assert abs(proth.estimate_ntt_primes(w, 64) - exact) / exact < 0.05, w
    assert abs(proth.estimate_ntt_primes(22, 1) - len(all_primes(22))) / len(all_primes(22)) < 0.01


# ---- the report's classes ----

@pytest.fixture()
def counter():
    return pp.Counter(cap_log2=20)


@pytest.mark.parametrize("w", SMALL_W)
def test_report_classes_brute_force(w, counter):
    """Every class of the report's grid at w = 16..22 and every n of its columns and beyond."""
    for n in list(pp.GRID_N) + [16, 32]:
        h = w // 2
        want = {
            "any": len(ntt_brute(w, n)),
            "wlm": len([q for q in ntt_brute(w, n) if q % (1 << 17) == 1]) if w - 2 >= 17 else None,
            "proth_wlmm": len(proth_brute(w, min(h, 17), n)),
            "proth_k2red": len(proth_brute(w, h, n)),
            "proth2l": len(proth_l_n(w, h, "2l", n)),
            "proth3l": len(proth_l_n(w, h, "3l", n)),
        }
        for cls, v in want.items():
            c = pp.count(counter, cls, w, n, PARAMS)
            assert c["primes"] == v, (cls, w, n)
            assert c["exact"], (cls, w, n)
            if v is not None:
                got = pp.largest(counter, cls, w, n, PARAMS, 5)
                if cls in ("proth2l", "proth3l"):
                    brute = sorted(proth_l_n(w, h, cls[-2:], n), reverse=True)
                elif cls == "wlm":
                    brute = sorted((q for q in ntt_brute(w, n) if q % (1 << 17) == 1), reverse=True)
                else:
                    brute = sorted(proth_brute(w, min(h, 17) if cls == "proth_wlmm" else h, n) if cls != "any"
                                   else ntt_brute(w, n), reverse=True)
                assert got == brute[:5], (cls, w, n)


@pytest.mark.parametrize("k,h", [(16, 3), (16, 8), (20, 10), (22, 11), (32, 15), (32, 16), (64, 17), (64, 32)])
def test_proth_l_per_h_brute_force(k, h, counter):
    """The l forms at the designs' h values (and small ones), per n, against the definition."""
    for kind in ("2l", "3l"):
        for n in (1, 64, 1024, 4096, 32768, 1 << 20):
            assert pp.count(counter, f"proth{kind}", k, n, PARAMS, h)["primes"] == len(proth_l_n(k, h, kind, n)), (kind, k, h, n)


@pytest.mark.parametrize("k", [16, 21, 32])
def test_classes_nest_in_h(k):
    """What the report relies on to table h = floor(w/2) only: class h is inside class h + 1."""
    for h in range(3, k // 2):
        for kind in ("2l", "3l"):
            assert set(proth_l_brute(k, h, kind)) <= set(proth_l_brute(k, h + 1, kind)), (k, h, kind)
        if k <= 22:
            assert set(proth_brute(k, h, 1)) <= set(proth_brute(k, h + 1, 1))


def test_cap_switches_to_the_estimate():
    c = pp.Counter(cap_log2=6)  # 64 candidates at most
    exact = pp.count(c, "any", 22, 1 << 14, PARAMS)       # 2^21 / 2^15 = 64 candidates: counted
    est = pp.count(c, "any", 22, 1 << 13, PARAMS)         # 128 candidates: estimated
    assert exact["exact"] and exact["primes"] == len(ntt_brute(22, 1 << 14))
    assert not est["exact"] and est["primes"] == proth.estimate_ntt_primes(22, 1 << 13)
    assert pp.cell(est).startswith("~") and not pp.cell(exact).startswith("~")
    assert pp.cell({"primes": None, "exact": True}) == "n/a"


def test_no_design_at_w(counter):
    """WLM's omega = 17 needs w >= 19 (omega <= w - 2): n/a below, a count from 19."""
    assert pp.count(counter, "wlm", 18, 64, PARAMS)["primes"] is None
    assert pp.count(counter, "wlm", 19, 64, PARAMS)["primes"] == len([q for q in all_primes(19) if q % (1 << 17) == 1])


# ---- the sets: serves, limbs needed, the largest n ----

def _serves_brute(primes_desc, limbs, logq):
    prod = 1
    for q in primes_desc[:limbs]:
        prod *= q
    return len(primes_desc) >= limbs and prod >= 1 << logq


def _class_primes_brute(cls, w, n):
    h = w // 2
    return sorted({"any": lambda: ntt_brute(w, n),
                   "wlm": lambda: [q for q in ntt_brute(w, n) if q % (1 << 17) == 1] if w >= 19 else [],
                   "proth_wlmm": lambda: proth_brute(w, min(h, 17), n),
                   "proth_k2red": lambda: proth_brute(w, h, n),
                   "proth2l": lambda: proth_l_n(w, h, "2l", n),
                   "proth3l": lambda: proth_l_n(w, h, "3l", n)}[cls](), reverse=True)


@pytest.mark.parametrize("n,logq,w,limbs", [(1024, 19, 20, 1), (2048, 33, 18, 2), (4096, 62, 22, 3), (64, 30, 16, 2),
                                            (256, 40, 21, 2), (1024, 100, 22, 5)])
def test_set_rows_brute_force(n, logq, w, limbs, counter):
    rows = pp.set_rows(counter, {(n, logq): [(w, limbs, "default", [])]}, PARAMS)
    assert [r["class"] for r in rows] == list(pp.CLASSES)
    for r in rows:
        desc = _class_primes_brute(r["class"], w, n)
        if r["class"] == "wlm" and w < 19:
            assert r["primes"] is None and r["serves"] is None
            continue
        assert r["primes"] == len(desc), r
        assert r["serves"] == _serves_brute(desc, limbs, logq), r
        want_n = next((m for m in sorted(pp.ENGINE_N, reverse=True)
                       if _serves_brute(_class_primes_brute(r["class"], w, m), limbs, logq)), None)
        assert r["largest_n"] == want_n, r
        need = next((i for i in range(1, limbs + 3) if _serves_brute(desc, i, logq)), None)
        assert r["limbs_from_class"] == need, r


def test_any_is_the_generators_choice():
    """The `any` class's L largest primes are what StreamPrimes.select picks: (1024, 19) at w = 20 has
    one limb, the largest 20-bit prime 1 mod 2048 (brute), as the manifest of polymul_1024_19_s4 says."""
    assert proth.largest_ntt_primes(20, 1024, 1) == sorted(ntt_brute(20, 1024))[-1:]


def _chain_ok(chain, n, logq, widest, exact):
    """The chain as a set's limbs must be, checked from the definition: distinct primes (the oracle) q = 1 mod 2n of
    at most `widest` bits (exactly, where `exact`), their product at least 2^logq, and none to spare."""
    assert len(set(chain)) == len(chain) and all(is_prime(q) and q % (2 * n) == 1 for q in chain)
    assert all(q.bit_length() == widest if exact else q.bit_length() <= widest for q in chain)
    prod = math.prod(chain)
    assert prod >= 1 << logq and prod // min(chain) < 1 << logq


def test_engine_widths_multipass(monkeypatch):
    """reports/polymul_best.csv's multi-pass designs (registry answers as the generator gives them): copies of a
    2-limb engine at (8192, 123) take the set's 4-limb chain of 31-bit primes; an engine whose primes are loaded at
    run time (no `limbs` in its parameters) takes its bench's chain, with narrower primes where the w-bit ones are
    too few: at (32768, 886) 25 bits has 33 primes 1 mod 65536, too few. (The report had stopped on that KeyError.)"""
    copies, loaded = "mpoly_8192_x32_k2_b256_l1_s32_p1_w31_t1_r2", "mpoly_32768_x64_b256_l1_s32_p1_w25_t1_d1"
    answers = {copies: {"params": {"limb_bits": 31, "limbs": 2, "primes": ["2147352577", "2147205121"]}},
               loaded: {"params": {"limb_bits": 25, "prime_class": "loaded at run time"}}}
    monkeypatch.setattr(pp.registry, "describe_many", lambda names: {k: answers[k] for k in names if k in answers})
    got = pp.engine_widths([(8192, 123), (32768, 886)], {(8192, 123): copies, (32768, 886): loaded})
    ((w, limbs, source, chain),) = got[(8192, 123)]
    assert (w, limbs, len(chain)) == (31, 4, 4) and "copies of 2 limbs" in source and chain[:2] == [2147352577, 2147205121]
    _chain_ok(chain, 8192, 123, 31, exact=True)
    ((w, limbs, source, chain),) = got[(32768, 886)]
    assert w == 25 and limbs == len(chain) and "loaded at run time" in source
    _chain_ok(chain, 32768, 886, 25, exact=False)
    every25 = [q for q in range((1 << 24) + 1, 1 << 25, 65536) if is_prime(q)]  # all 25-bit q = 1 mod 65536
    assert len(every25) == 33 and set(every25) <= set(chain) and limbs == 37


# ---- the files ----

def test_report_files(tmp_path, monkeypatch, counter):
    """A small build written through the report's writers: the CSV's figures are the brute counts,
    and the markdown states the date, the command and the Python version."""
    monkeypatch.setattr(common, "REPORTS", tmp_path)
    generator_primes = sorted(ntt_brute(20, 1024))[-1:]  # StreamPrimes.select's one limb, by brute force
    data = pp.build(params=PARAMS, widths={(1024, 19): [(20, 1, "default", generator_primes)]},
                    grid_widths=range(16, 19), grid_ns=(64, 128, 4096, 8192))
    pp.write_reports(data, 1.0, "flow/reports/polymul_primes.py")
    import csv
    import platform
    rows = list(csv.DictReader(open(tmp_path / "polymul_primes.csv")))
    grid = [r for r in rows if r["section"] == "grid"]
    assert grid and all(not r["exact_from_n"] for r in grid)  # all exact at these widths
    checked = 0
    for r in grid:
        w, cls = int(r["w"]), r["class"]
        h = int(r["h"]) if r["h"] else None
        for n in (64, 128, 4096, 8192):
            if cls == "any":
                want = len(ntt_brute(w, n))
            elif cls == "wlm":
                want = len([q for q in ntt_brute(w, n) if q % (1 << int(r["omega"])) == 1])
            elif cls in ("proth2l", "proth3l"):
                want = len(proth_l_n(w, h, cls[-2:], n))
            else:
                want = len(proth_brute(w, h, n))
            assert int(r[f"n_{n}"]) == want, (r, n)
            checked += 1
    assert checked == 4 * len(grid) and {r["class"] for r in grid} == set(pp.CLASSES) - {"wlm"}  # WLM: w < 19
    sets = [r for r in rows if r["section"] == "set"]
    assert [r["class"] for r in sets] == list(pp.CLASSES)
    assert all(r["serves"] == "True" for r in sets if r["class"] != "wlm")
    md = (tmp_path / "polymul_primes.md").read_text()
    assert "Command: `flow/reports/polymul_primes.py`" in md and f"Python {platform.python_version()}" in md
    assert " UTC " in md or " UTC" in md
    assert "Check: at 1 of 1 (set, width) rows" in md
