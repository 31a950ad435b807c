"""tfhe-ntt's negacyclic product (issue 27; tools/tfhe_ntt_bench, driven by flow/reports/tfhe_ntt.py)
against a schoolbook product in Python big integers, mod each RNS prime: n = 1024 with 1 and 2
limbs, n = 4096 with 2 limbs (O(n^2), a few seconds at 4096). Also the
runner's own independent product (Kronecker substitution) against the schoolbook, the primes, and
the result line.

These tests never build anything: the program comes from `make sw-tfhe-ntt`. Without cargo, or
without the built program, the tests that need it skip and say why.
"""
import json
import random

import pytest
import sympy

from reports import tfhe_ntt as tn


# The project's independent oracle (Python integers, no NTT), shared with the engine's tests.
from polymul.stream import negacyclic_schoolbook  # noqa: E402


def schoolbook(a, b, q):
    return negacyclic_schoolbook(a, b, len(a), q)


def _needs_binary():
    st = tn.status()
    if st == "absent":
        pytest.skip(f"cargo absent: install Rust ({tn.INSTALL})")
    if st != "ok":
        pytest.skip(f"{tn.binary()} is {st}: run make sw-tfhe-ntt (the tests never build it)")


def test_kronecker_matches_schoolbook():
    q = 2 ** 61 - 1
    rng = random.Random(27)
    for n in (1, 2, 16, 64):
        a = [rng.randrange(q) for _ in range(n)]
        b = [rng.randrange(q) for _ in range(n)]
        assert tn.negacyclic_kronecker(a, b, q) == schoolbook(a, b, q)
    a = [q - 1] * 64                                  # the largest coefficients: no slot overflows
    assert tn.negacyclic_kronecker(a, a, q) == schoolbook(a, a, q)


def test_x_to_the_n_is_minus_one():
    n, q = 16, 97
    x = [0, 1] + [0] * (n - 2)
    xn1 = [0] * (n - 1) + [1]                         # x * x^(n-1) = x^n = -1
    assert tn.negacyclic_kronecker(x, xn1, q) == [q - 1] + [0] * (n - 1)


def test_crate_version_locked():
    assert tn.crate_version().startswith("0.7.")


@pytest.mark.parametrize("n, limbs, bits", [(1024, 1, 62), (1024, 2, 62), (4096, 2, 62),
                                           (1024, 2, 50), (1024, 2, 31), (4096, 2, 31)])
def test_product_matches_schoolbook(n, limbs, bits):
    """Each prime size sw-baseline tries (tn.TFHE_CONFIGS): 62 bits (prime64), 50 (prime64's IFMA path
    where the CPU has it) and 31 (prime32)."""
    _needs_binary()
    qs = tn.primes(n, limbs, bits)
    assert len(set(qs)) == limbs
    for q in qs:
        assert sympy.isprime(q) and q % (2 * n) == 1 and 2 ** (bits - 1) < q < 2 ** bits
    a, b = tn.operands(n, qs, seed=5)
    got = tn.product(n, qs, a, b)
    for i, q in enumerate(qs):
        assert got[i] == schoolbook(a[i], b[i], q), f"limb {i}, q = {q}"


@pytest.mark.parametrize("bits", tn.TFHE_CONFIGS)
def test_product_edge_operands(bits):
    _needs_binary()
    n = 64
    qs = tn.primes(n, 1, bits)
    q = qs[0]
    for a, b in [([q - 1] * n, [q - 1] * n), ([0] * n, [q - 1] * n),
                 ([1] + [0] * (n - 1), list(range(n))), ([0, 1] + [0] * (n - 2), [0] * (n - 1) + [1])]:
        assert tn.product(n, qs, [a], [b]) == [schoolbook(a, b, q)]


def test_run_line():
    _needs_binary()
    qs = tn.primes(1024, 2)
    r = tn.run(1024, qs, reps=20)
    assert (r["n"], r["L"], r["primes"], r["version"]) == (1024, 2, [str(q) for q in qs], tn.crate_version())
    assert 0 < r["full_min_us"] <= r["full_median_us"] and 0 < r["pre_min_us"] <= r["pre_median_us"]
    assert len(r["load_average_start"]) == 3 and r["cpu_model"]
    # the core's vector extensions beside the program's own use_ifma (a figure never read without its core)
    assert r["cpu_extensions"] in ("AVX-512 IFMA", "AVX-512F", "AVX2", "none")
    if any(r["use_ifma"]):                           # the IFMA path runs only on a core the label calls one
        assert r["cpu_extensions"] == "AVX-512 IFMA"
    json.dumps(r)


def test_timing_names_its_plan():
    _needs_binary()
    assert tn.timings(1024, tn.primes(1024, 1, 31), reps=5)["api"] == "prime32"
    assert tn.timings(1024, tn.primes(1024, 1, 62), reps=5)["api"] == "prime64"
    with pytest.raises(tn.TfheNttError, match="all be below 2"):   # a prime32 limb beside a prime64 one
        tn.timings(1024, tn.primes(1024, 1, 31) + tn.primes(1024, 1, 62), reps=5)


def test_cli_absent_without_cargo(monkeypatch, capsys):
    monkeypatch.setattr(tn, "status", lambda: "absent")
    assert tn.main(["--n", "1024"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["status"] == "absent" and "rustup" in line["install"]
    assert not any(k.endswith("_us") for k in line)
