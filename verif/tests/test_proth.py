"""The Proth-l prime toolkit (primetools.proth) against the paper's counts, the notes' lists and brute force.

The counts compared against are the paper's (primetools.paper_tables, from data/papers/tosun.toml,
which scripts/paper_data.py writes from its text), never typed here. The Proth-2l lists with
(l1, l2) are the reading notes' (3.7, "KATs from the paper"), recorded in the same file.
"""
import shutil
from itertools import product

import pytest

from primetools import proth
import papers
from primetools.paper_tables import PaperTableError, paper_table2, paper_table3_counts, proth2l_lists
from primetools.proth_cli import main as cli

# The reading notes' full Proth-2l lists, (q, l1, l2) per (log q, log q_h) (data/papers/tosun.toml,
# "Proth-2l primes"; notes 3.7).
NOTES_2L = proth2l_lists()
PAPER_CLASSES = [(64, 32), (64, 17), (32, 16), (32, 15)]
SMALL_COUNT = proth.PYTHON_COUNT_LIMIT  # Table 3 counts with at most this many candidates run here


def is_prime_td(n: int) -> bool:
    """Trial division: independent of primetools.primes, for brute force on small numbers."""
    if n < 2:
        return False
    f = 2
    while f * f <= n:
        if n % f == 0:
            return False
        f += 1
    return True


# ---- the paper's counts ----

def test_paper_table2_parsed():
    rows = paper_table2()
    assert sorted((r.logq, r.logqh, r.kind) for r in rows) == sorted(
        (k, m, kind) for k, m in PAPER_CLASSES for kind in ("2l", "3l"))


@pytest.mark.parametrize("row", paper_table2(), ids=lambda r: f"{r.logq}-{r.logqh}-{r.kind}")
def test_table2_counts(row):
    assert len(proth.proth_l_primes(row.logq, row.logqh, row.kind)) == row.count


def test_paper_table3_parsed():
    rows = paper_table3_counts()
    assert {r.algorithm for r in rows} == {"WLM-Mixed", "K²RED"}
    assert len(rows) == 6
    small = [r for r in rows if 1 << (r.logqh - 1) <= SMALL_COUNT]
    assert sorted({(r.logq, r.logqh) for r in small}) == [(32, 15), (32, 16), (64, 17)]


@pytest.mark.parametrize("row", [r for r in paper_table3_counts() if 1 << (r.logqh - 1) <= SMALL_COUNT],
                         ids=lambda r: f"{r.algorithm}-{r.logq}-{r.logqh}")
def test_table3_small_counts(row):
    assert proth.count_proth_primes(row.logq, row.logqh, method="python") == row.count


@pytest.mark.skipif(not shutil.which("gcc"), reason="gcc missing: the C counter cannot be built")
def test_c_counter_agrees_with_python():
    """Deterministic C Miller-Rabin + sieve vs Python, on every class with k <= 20 and on 32/15."""
    for k in range(4, 21):
        for m in range(1, k // 2 + 1):
            assert proth.count_proth_primes(k, m, method="c") == proth.count_proth_primes(k, m, method="python"), (k, m)
    assert proth.count_proth_primes(32, 15, method="c") == proth.count_proth_primes(32, 15, method="python")


# ---- the notes' Proth-2l lists ----

@pytest.mark.parametrize("cls", sorted(NOTES_2L), ids=lambda c: f"{c[0]}-{c[1]}")
def test_notes_2l_lists(cls):
    k, m = cls
    got = [(r.q, r.l1, r.l2) for r in proth.proth_l_primes(k, m, "2l")]
    assert got == NOTES_2L[cls]
    for q, l1, l2 in NOTES_2L[cls]:
        assert proth.proth_l_decompose(q, k, m, "2l") == (l1, l2, None)
        assert proth.proth_l_value(k, m, l1, l2) == q


def test_notes_3l_32_16_valuations():
    """Notes 3.6 item 11: 80 of the 95 Proth-3l primes (32/16) have v2 >= 17 (n = 2^16 possible)."""
    records = proth.proth_l_primes(32, 16, "3l")
    assert sum(r.v2 >= 17 for r in records) == 80
    for r in records:
        assert (r.q - 1) % (1 << r.v2) == 0 and (r.q - 1) >> r.v2 & 1
        assert r.max_log_n == r.v2 - 1


# ---- decomposition ----

@pytest.mark.parametrize("cls", PAPER_CLASSES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_primes_round_trip(cls):
    k, m = cls
    two = {r.q for r in proth.proth_l_primes(k, m, "2l")}
    three = proth.proth_l_primes(k, m, "3l")
    assert two <= {r.q for r in three}  # the 3l count includes the 2l primes
    for r in three:
        assert proth.proth_l_value(k, m, r.l1, r.l2, r.l3) == r.q
        assert proth.proth_l_decompose(r.q, k, m, "3l") == (r.l1, r.l2, r.l3)
        assert proth.is_proth(r.q, k, m) and proth.is_proth_l(r.q, k, m, "3l")
        assert proth.is_proth_l(r.q, k, m, "2l") == (r.q in two)


@pytest.mark.parametrize("k,m", [(12, 6), (16, 8), (20, 7)])
def test_every_tuple_round_trips(k, m):
    """Exhaustive on small classes: every tuple's value decomposes back to a list holding that
    tuple, the canonical tuple is the smallest, and every listed tuple gives the value."""
    top = m - 1
    for l1, l2 in product(range(top), repeat=2):
        if l2 > l1:
            continue
        for l3 in [None] + list(range(top)):
            kind = "2l" if l3 is None else "3l"
            q = proth.proth_l_value(k, m, l1, l2, l3)
            assert q.bit_length() == k and ((q - 1) >> (k - m)).bit_length() == m
            found = proth.proth_l_decompositions(q, k, m, kind)
            assert (l1, l2, l3) in found and found == sorted(found)
            assert proth.proth_l_decompose(q, k, m, kind) == found[0]
            assert all(proth.proth_l_value(k, m, *t) == q for t in found)


def test_2l_values_have_3l_forms():
    """(l1, l2) with l2 < l1 is (l1, l2 + 1, l2) in 3l form; l1 = l2 (q = 2^(k-1) + 1) has none."""
    k, m = 64, 32
    for l1 in range(m - 1):
        for l2 in range(l1):
            q = proth.proth_l_value(k, m, l1, l2)
            assert proth.proth_l_value(k, m, l1, l2 + 1, l2) == q
            assert proth.proth_l_decompose(q, k, m, "3l") is not None
        assert proth.proth_l_decompose(proth.proth_l_value(k, m, l1, l1), k, m, "3l") is None


def test_fermat_prime_is_2l_not_3l():
    """k = 17: 2^16 + 1 is prime, a Proth-2l prime (l1 = l2) without a Proth-3l form."""
    q = (1 << 16) + 1
    assert proth.proth_l_decompose(q, 17, 8, "2l") == (0, 0, None)
    assert q in {r.q for r in proth.proth_l_primes(17, 8, "2l")}
    assert q not in {r.q for r in proth.proth_l_primes(17, 8, "3l")}


def test_not_a_proth_l_value():
    assert proth.proth_l_decompose(0x801c000000000003, 64, 17, "2l") is None   # q - 1 not a multiple of 2^w
    assert proth.proth_l_decompose(0x401c000000000001, 64, 17, "3l") is None   # 63 bits
    assert proth.proth_l_decompose(0xc000000000000001, 64, 17, "2l") is None   # d = 2^15 > 2l range
    assert proth.proth_l_decompose(-5, 64, 17, "2l") is None


# ---- Proth primes and largest_prime, by brute force ----

@pytest.mark.parametrize("k", range(6, 17))
def test_is_proth_and_count_brute_force(k):
    for m in range(1, k // 2 + 1):
        w = k - m
        brute = [q for q in range(1 << (k - 1), 1 << k)
                 if is_prime_td(q) and (q - 1) % (1 << w) == 0 and ((q - 1) >> w).bit_length() == m]
        assert [q for q in range(1 << (k - 1), 1 << k) if proth.is_proth(q, k, m)] == brute
        assert proth.count_proth_primes(k, m, method="python") == len(brute)


def _brute_largest(bound, pred):
    for q in range(bound - 1, 1, -1):
        if pred(q) and is_prime_td(q):
            return q
    return None


@pytest.mark.parametrize("k", [10, 12, 14, 16])
def test_largest_prime_brute_force(k):
    bounds = [1 << (k - 1), (1 << (k - 1)) + 1, 3 << (k - 2), (1 << k) - 1, 1 << k, (1 << k) + 1000]
    for m in range(2, k // 2 + 1):
        w = k - m
        top = m - 1
        twol = {proth.proth_l_value(k, m, a, b) for a in range(top) for b in range(a + 1)}
        threel = {proth.proth_l_value(k, m, a, b, c) for a in range(top) for b in range(a + 1) for c in range(top)}
        preds = {
            "proth": lambda q: q.bit_length() == k and (q - 1) % (1 << w) == 0 and ((q - 1) >> w).bit_length() == m,
            "proth2l": lambda q: q in twol,
            "proth3l": lambda q: q in threel,
        }
        for cls, pred in preds.items():
            for bound in bounds:
                want = _brute_largest(bound, pred)
                if want is None:
                    with pytest.raises(ValueError, match="no Proth"):
                        proth.largest_prime(bound, cls, k=k, logqh=m)
                else:
                    assert proth.largest_prime(bound, cls, k=k, logqh=m) == want, (cls, k, m, bound)
    for n in (1, 2, 4, 8, 16, 3):
        for bound in bounds + [3, 2 * n + 1, 2 * n + 2]:
            want = _brute_largest(bound, lambda q: q % (2 * n) == 1)
            if want is None:
                with pytest.raises(ValueError, match="no prime"):
                    proth.largest_prime(bound, "ntt", n=n)
            else:
                assert proth.largest_prime(bound, "ntt", n=n) == want, (n, bound)


def test_largest_prime_64_bit():
    """Sanity at k = 64: the answer is in the class and nothing larger below the bound is."""
    q = proth.largest_prime(1 << 64, "proth", k=64, logqh=32)
    assert q == 0xffffffff00000001  # the "Goldilocks" prime 2^64 - 2^32 + 1
    assert proth.largest_prime(1 << 64, "proth2l", k=64, logqh=32) == 0xbe00000000000001
    assert proth.largest_prime(0xbe00000000000001, "proth2l", k=64, logqh=32) == 0x8fffffe000000001
    q = proth.largest_prime(1 << 64, "ntt", n=1 << 16)
    assert q % (1 << 17) == 1 and q > (1 << 64) - (1 << 24)


# ---- bad input ----

@pytest.mark.parametrize("call,message", [
    (lambda: proth.proth_l_primes(64, 33, "2l"), "log q_h = 33 is too large for k = 64"),
    (lambda: proth.proth_l_primes(64, 17, "4l"), "kind must be '2l'"),
    (lambda: proth.proth_l_primes(64, 1, "2l"), "log q_h = 1 is too small"),
    (lambda: proth.proth_l_value(64, 17, 16, 3), "l1 = 16 is out of range"),
    (lambda: proth.proth_l_value(64, 17, 3, 6), "l2 = 6 > l1 = 3"),
    (lambda: proth.proth_l_value(64, 17, 6, 3, -1), "l3 = -1 is too small"),
    (lambda: proth.proth_l_value(64, 17.0, 6, 3), "log q_h must be an integer"),
    (lambda: proth.count_proth_primes(64, 17, method="fortran"), "method must be"),
    (lambda: proth.count_proth_primes(128, 64, method="c"), "k <= 64 only"),
    (lambda: proth.count_proth_primes(128, 64), "out of reach"),
    (lambda: proth.largest_prime(1 << 64, "sophie"), "unknown prime class 'sophie'; valid classes: ntt"),
    (lambda: proth.largest_prime(1 << 64, "proth", k=64), "missing logqh"),
    (lambda: proth.largest_prime(1 << 64, "ntt", n=8, k=3), "unexpected k"),
    (lambda: proth.largest_prime(1 << 62, "proth", k=64, logqh=32), r"no Proth prime .* below"),
    (lambda: proth.largest_prime(17, "ntt", n=8), "no prime q = 1 \\(mod 2n = 16\\) below 17"),
])
def test_bad_input_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_cli(capsys):
    assert cli(["list", "32", "15", "2l"]) == 0
    out = capsys.readouterr().out
    assert "0x83fe0001 2214461441   9   0   -  17         16" in out
    assert cli(["decompose", "0x801c000000000001", "64", "17", "3l", "--all"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == ["l1=5 l2=3 l3=5", "l1=6 l2=4 l3=3"]
    assert cli(["largest", "2^64", "--class", "proth2l", "--k", "64", "--logqh", "17"]) == 0
    assert capsys.readouterr().out.split() == ["0xbe00000000000001", "13690942867206307841"]
    assert cli(["count", "32", "15"]) == 0
    assert capsys.readouterr().out.startswith("1540\t")
    assert cli(["decompose", "0x801c000000000003", "64", "17", "2l"]) == 1
    assert cli(["count", "64", "40"]) == 2
    assert "log q_h = 40 is too large" in capsys.readouterr().err
    assert cli(["largest", "100", "--class", "ntt"]) == 2
    assert "missing --n" in capsys.readouterr().err
    for bad in (["list", "64", "17", "4l"], ["count", "sixty", "17"], ["frobnicate"]):
        with pytest.raises(SystemExit) as e:
            cli(bad)
        assert e.value.code == 2
    capsys.readouterr()


def test_paper_data_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(papers, "DATA", tmp_path)
    with pytest.raises(PaperTableError, match="tosun.toml.*scripts/paper_data.py"):
        paper_table2()
    (tmp_path / "tosun.toml").write_text("figures = []\n")
    with pytest.raises(PaperTableError, match="no figures of 'Table 2'"):
        paper_table2()
    with pytest.raises(PaperTableError, match="no figures of 'Table 3'"):
        paper_table3_counts()
    assert cli(["tables"]) == 2
