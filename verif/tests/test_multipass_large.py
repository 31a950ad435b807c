"""The multi-pass engine at the large sets of issue 40, under Verilator (`make test-long` only): the engine bench
(verif/bench/multipass_engine_bench.py, its `engine_large` test) on AxiRam, one AxiRam per limb port. A random product
without pauses, its cycles against the manifest's promise, then all q - 1 and one-hot times x^(n-1), with AR, R, AW,
W and B each paused in 30% of cycles; every limb's c checked against a Kronecker-substitution product mod q_l, their
CRT against the product mod Q, and the whole memory against the model's image.

- (8192, 123): four 31-bit limbs, a port each: the limbs and ports of the report's (8192, 123) design
  (reports/polymul_multipass.md: four copies of `mpoly_8192_x32_b256_l1_s32_p1_w31_t1`, a port each), with the same
  n1, bus, burst, slot and lanes; one product at a time (`_t0`) and the behavioural multipliers (`_mpaper`).
- SEAL's modulus chain for n = 8192 (its default BFV coefficient modulus at 128-bit security, 2 x 43 + 3 x 44 bits),
  given as PRIMES: five 44-bit limbs in 64-bit slots.
- n = 65536, one limb.
- (32768, 886): 29 31-bit limbs, a port each, as the report's (32768, 886) design; a random product and one edge
  product (one-hot times x^(n-1)) with pauses.

The fast multipliers (the synthesized ones) simulate hundreds of times slower (docs/polymul_multipass.md), so the
designs here are `_mpaper`; the multipliers' own tests cover the fast ones. Icarus would take hours a product here.
"""
import hashlib
import os

import pytest

from multipass_runs import LONG_ONLY, generate, run
from polymul.multipass_manifest import manifest_primes
from primetools.primes import is_probable_prime
from runner import BUILD

pytestmark = LONG_ONLY

OUT = BUILD / "multipass_large_tests"

# SEAL's CoeffModulus::BFVDefault(8192) (sec_level_type::tc128): its default_coeff_modulus_128 table for n = 8192.
SEAL_BFV_8192 = (0x7fffffd8001, 0x7fffffc8001, 0xfffffffc001, 0xffffff6c001, 0xfffffebc001)
SEAL_HASH = hashlib.sha256(",".join(map(str, SEAL_BFV_8192)).encode()).hexdigest()[:7]

EDGES = ("max", "onehot_xn1")
# (design, the Table I log q it serves or None, the primes it is given, the edge products with pauses)
CASES = {
    "8192_123": ("mpoly_8192_x32_k4_b256_l1_s32_p1_w31_mpaper_y4", 123, (), EDGES),
    "8192_seal": (f"mpoly_8192_x32_k5_b256_l2_s64_q{SEAL_HASH}_mpaper_y5", None, SEAL_BFV_8192, EDGES),
    "65536": ("mpoly_65536_x256_b256_l2_s32_p1_mpaper", None, (), EDGES),
    # The report's (32768, 886) design is 29 copies of `mpoly_32768_x64_b256_l1_s32_p1_w31_t1`, a port each. A run
    # costs about 0.5 ms a port and cycle (the model, the monitor and AxiRam), so one edge product, not two.
    "32768_886": ("mpoly_32768_x64_k29_b256_l1_s32_p1_w31_mpaper_y29", 886, (), ("onehot_xn1",)),
}


def check_large(key):
    design, logq, primes, edges = CASES[key]
    generate(OUT, [design], primes=primes)
    env = {"MODFORGE_ENGINE_LARGE": "1", "MODFORGE_LARGE_EDGES": ",".join(edges)}
    m, records = run(OUT, design, "multipass_engine_bench", "engine", ("engine_large",), extra_env=env,
                     testcase="engine_large", sim=os.environ.get("MODFORGE_LARGE_SIM", "verilator"))
    return check_records(key, m, records)


def check_records(key, m, records):
    """The checks on the bench's records (the bench itself asserted every product)."""
    design, logq, primes, edges = CASES[key]
    Q = 1
    for q in manifest_primes(m):    # a one-limb engine's manifest has `q`, a multi-limb one `primes`
        Q *= int(q)
    if logq is not None:
        assert Q >= 2 ** logq, f"{design}: Q has {Q.bit_length()} bits, below the set's log q = {logq}"
    if primes:
        assert [int(q) for q in manifest_primes(m)] == list(primes), m["primes"]
    rs = records["engine_large"]
    assert [r["pattern"] for r in rs] == ["random", *edges], rs
    for r in rs:
        print(f"{design} {r['test']}: {r['cycles']} cycles, the promise {m['cycles_per_product']} "
              f"(ratio {r['cycles'] / m['cycles_per_product']:.3f}), pauses {r['pause']}, limbs {r['limbs']}, ports {r['ports']}")
        assert r["cycles"] >= r["model_cycles"], f"faster than the model allows: {r}"
    # Without pauses, within 5% of the promise when every limb has its port (docs/polymul_multipass.md).
    r = rs[0]
    assert r["pause"] == 0 and r["cycles"] < 1.05 * m["cycles_per_product"], (r["cycles"], m["cycles_per_product"])
    return m, rs


def test_seal_chain_primes():
    """The chain as SEAL lists it: five primes = 1 mod 2n = 16384, 43 and 44 bits, 218 bits in all."""
    assert all(is_probable_prime(q) and q % 16384 == 1 for q in SEAL_BFV_8192)
    assert [q.bit_length() for q in SEAL_BFV_8192] == [43, 43, 44, 44, 44]
    Q = 1
    for q in SEAL_BFV_8192:
        Q *= q
    assert Q.bit_length() == 218


# Not yet run to its end: at the (8192, 123) run's cost at -O0 (148 s for 78,000 cycles of 4 ports, about 0.5 ms a port
# and cycle) its two products, some 200,000 cycles of 29 ports, take about 50 minutes alone; at -O1 its compile is
# longer. make test-long runs it only with MODFORGE_LARGE_886=1 (docs/polymul_multipass.md, "Large sets under Verilator").
SLOW = {"32768_886": "MODFORGE_LARGE_886"}


@pytest.mark.parametrize("key", list(CASES))
def test_engine_large(key):
    if key in SLOW and os.environ.get(SLOW[key]) != "1":
        pytest.skip(f"{key}: hours under Verilator on 2 cores; {SLOW[key]}=1 runs it")
    check_large(key)


# The report's (32768, 886) design is one engine with its primes loaded at run time, two copies of it within 25 mm2
# (reports/polymul_best.csv; docs/polymul_multipass.md, "RTL: primes loaded at run time"): 25-bit limbs, the set's
# chain the 37 largest primes = 1 mod 65536 of 17 to 25 bits (loaded_primes); before it, 31-bit limbs, 29 primes,
# one copy. Each through one engine, two products (random, all q - 1) with 30% pauses on every channel, on the batch
# bench: about 2.1 M cycles at 31 bits and 2.6 M at 25, an hour each at some 1.5 ms a cycle, so only with
# MODFORGE_LARGE_886=1.
LOADED_886 = {25: "mpoly_32768_x64_b256_l1_s32_p1_w25_mpaper_t1_d1", 31: "mpoly_32768_x64_b256_l1_s32_p1_w31_mpaper_t1_d1"}


@pytest.mark.parametrize("w", sorted(LOADED_886))
def test_loaded_886(w):
    if os.environ.get("MODFORGE_LARGE_886") != "1":
        pytest.skip("32768_886 loaded: hours under Verilator on 2 cores; MODFORGE_LARGE_886=1 runs it")
    from polymul.multipass_loaded import loaded_primes
    design = LOADED_886[w]
    primes = loaded_primes(32768, 886, w)
    assert len(primes) == {25: 37, 31: 29}[w]
    generate(OUT, [design])
    m, records = run(OUT, design, "multipass_batch_bench", "batch", ("batch_two",), testcase="batch_two",
                     extra_env={"MODFORGE_BATCH": "2", "MODFORGE_BATCH_TWO": "1", "MODFORGE_PRIMES": ",".join(map(str, primes))},
                     sim=os.environ.get("MODFORGE_LARGE_SIM", "verilator"))
    (r,) = records["batch_two"]
    print(f"{design} {r['test']}: 2 products of {len(primes)} limbs, 30% pauses, in {r['cycles']} cycles; the promise "
          f"{r['promise']} (ratio {r['ratio']})")
    assert r["limbs"] == len(primes) and r["count"] == 2


# The report's (8192, 123) design (reports/polymul_best.csv) is two copies of the two-limb batch engine
# `mpoly_8192_x32_k2_b256_l1_s32_p1_w31_t1_r2`, a port each, the copies' primes differing. Here the two copies are one
# design of the same engines: the set's four limbs, two batch engines each running two limbs in sequence (_r2), a port
# each (_y2), the behavioural multipliers (_mpaper). A batch of four without pauses (random, all q - 1 both, one-hot
# times x^(n-1), zero times all q - 1), then one of one (x^(n-1)) and an empty one, its cycles against the manifest's
# promise; then two products (random, all q - 1) with AR, R, AW, W and B each paused in 30% of cycles. Passed
# 2026-11-30 at MODFORGE_VERILATOR_OPT=-O0 once the bench started the reset copies in reset (power_on.py; before that
# a simulation-only check behind the registered reset fired at the first edge: docs/polymul_multipass.md, "Large sets
# under Verilator").
BEST_8192_123 = "mpoly_8192_x32_k4_b256_l1_s32_p1_w31_mpaper_y2_t1_r2"


@pytest.mark.parametrize("test", ["batch_no_pauses", "batch_two"])
def test_best_8192_123(test):
    from polymul.multipass import stream_primes
    generate(OUT, [BEST_8192_123])
    m, records = run(OUT, BEST_8192_123, "multipass_batch_bench", "batch", (test,), testcase=test,
                     extra_env={"MODFORGE_BATCH": "4", "MODFORGE_BATCH_TWO": "1"},
                     sim=os.environ.get("MODFORGE_LARGE_SIM", "verilator"))
    assert [int(q) for q in manifest_primes(m)] == list(stream_primes(8192, 123, 31)), m.get("primes")
    for r in records[test]:
        print(f"{BEST_8192_123} {r['test']}: {r['count']} products of {r['limbs']} limbs in {r['cycles']} cycles, "
              f"pauses {r['pause']}; the promise {r['promise']} (ratio {r['ratio']})")
        assert r["limbs"] == 4 and r["ports"] == 2, r
        if r["pause"] == 0 and r["count"] > 0:
            assert 0.95 * r["promise"] <= r["cycles"] < 1.05 * r["promise"], f"without pauses not within 5% of the promise: {r}"
    assert sum(r["count"] for r in records[test]) == (5 if test == "batch_no_pauses" else 2)
