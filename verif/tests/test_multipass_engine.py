"""The one-limb multi-pass engine in RTL (hw/src/main/scala/modforge/multipass/MultipassEngine.scala,
docs/polymul_multipass.md, "RTL: the engine, one limb"): the three passes chained behind one AXI4 master, run by
the cocotb bench (verif/bench/multipass_engine_bench.py) on AxiRam, c checked against a schoolbook product in
Python big ints. Two small configurations: one limb, and two limbs side by side (MultipassLimbs, c_l checked mod
each q_l and their CRT against the product mod Q). n = 1024, n1 = 64 (n2 = 16), P = 2, a 128-bit bus, two-beat bursts,
the one limb's given prime 8380417 (the column and rows pass tests' `_q8380417` designs), the paper's behavioural
multipliers (`_mpaper`, as the pass tests use: the fast ones simulate hundreds of times slower).

Limbs side by side with the user's own primes (`_q<hash>`, Generate's `--primes`, make's PRIMES=): two 30-bit primes
= 1 mod 2048 that are not the two largest, through the same bench, and the generator's refusals of given primes.

The design is generated here into build/multipass_engine_tests/<design>/. Each bench run writes its cycles to
sim_rtl/engine_cycles_<test>.json; the test prints them (pytest -s) and checks that they are sane: no product
beats the model's cycles (`costs(p).cycles()`), and without pauses a product is within 5% of the model's cycles
plus the three passes' fills (columns: 2 n1 be / R + the NTT's latency; rows: the engine's latency).
"""
import hashlib
import json

import pytest

from multipass_runs import LONG_ONLY, generate, refusal, run
from polymul.multipass_manifest import manifest_params, manifest_primes
from polymul.multipass_schedule import costs
from primetools.primes import is_probable_prime
from primetools.proth import largest_ntt_primes
from runner import BUILD

pytestmark = LONG_ONLY

OUT = BUILD / "multipass_engine_tests"
MAIN = "modforge.multipass.MultipassEngineDesigns"
DESIGN = "mpoly_1024_x64_b128_l2_s32_p2_q8380417_mpaper"
# Two limbs side by side (MultipassLimbs: two engines, SpinalHDL's AXI4 arbiters), the two largest 30-bit primes = 1 mod 2n.
LIMBS = "mpoly_1024_x64_k2_b128_l2_s32_p2_mpaper"
# The same with a port per limb (_y2: two AxiRams, one per port).
PORTS = "mpoly_1024_x64_k2_b128_l2_s32_p2_mpaper_y2"

# Two limbs of the user's own primes: 30-bit primes = 1 mod 2n = 2048, neither of the two largest (the drawn limbs'),
# the smaller first: the smallest above 2^29 and the largest below 3 * 2^28.
def _ntt_prime(start, step):
    return next(q for q in range(start, start + step * 10**6, step) if q % 2048 == 1 and is_probable_prime(q))


GIVEN_PRIMES = (_ntt_prime((1 << 29) + 1, 2048), _ntt_prime(3 * (1 << 28) - 2047, -2048))
GIVEN_HASH = hashlib.sha256(",".join(map(str, GIVEN_PRIMES)).encode()).hexdigest()[:7]
GIVEN = f"mpoly_1024_x64_k2_b128_l2_s32_p2_q{GIVEN_HASH}_mpaper"
GENERATE = "modforge.Generate"


@pytest.fixture(scope="session")
def generated():
    generate(OUT, [DESIGN, LIMBS, PORTS])
    return True


@pytest.mark.parametrize("design", [DESIGN, LIMBS, PORTS])
def test_engine(generated, design):
    check_engine(design)


def check_engine(design):
    """The engine bench's three runs of `design` (generated in OUT), their cycles printed and checked."""
    m, records = run(OUT, design, "multipass_engine_bench", "engine", ("engine_no_pauses", "engine_back_pressure", "engine_slow_b"))
    promise = m["cycles_per_product"]
    # The bytes the manifest says a port moves per product: the schedule model's, for the limbs on one port.
    on_port = m.get("limbs", 1) // m.get("axi_ports", 1)
    p = manifest_params(m, manifest_primes(m)[:on_port])
    assert m["bytes_per_product_per_port"] == sum(c.bytes_moved for c in costs(p).passes)
    for rs in records.values():
        for r in rs:
            passes = ", ".join(f"{k} {v['cycles']} (model {v['model']} + fill {v['fill']})" for k, v in r["passes"].items())
            print(f"{design} {r['test']}: {r['cycles']} cycles; the model's {r['model_cycles']} (ratio {r['ratio']:.3f}), "
                  f"{r['model_cycles'] + r['fill']} with the fills {r['fill']} (ratio {r['ratio_with_fill']:.3f}); {passes}")
            assert r["cycles"] >= r["model_cycles"], f"faster than the model allows: {r}"
            if r["pause"] == 0:
                # One limb: within 5% of the model with fills. Limbs side by side: within 10%; two took 1.063 (the
                # engines reach their pass boundaries at different times, and AxiRam queues 2 ARs: docs, "limbs side
                # by side").
                bound = 1.05 if r.get("limbs", 1) == r.get("ports", 1) else 1.10
                # The manifest's promise (Scala) is the Python schedule model's cycles plus the fills.
                assert promise == r["model_cycles"] + r["fill"], (promise, r["model_cycles"], r["fill"])
                assert r["cycles"] < bound * (r["model_cycles"] + r["fill"]), f"without pauses over the model with fills: {r}"


def test_refuses_prime_not_1_mod_2n():
    """1073741441 is prime and 1 mod 64, not 1 mod 2048: refused by name, before anything is written."""
    out = refusal(MAIN, OUT, "mpoly_1024_x32_b64_q1073741441")
    assert "q = 1073741441 is not 1 mod 2n = 2048" in out, out[-2000:]


@pytest.fixture(scope="session")
def generated_given():
    """The given-primes design: a generator call of its own (--primes applies to the names after it)."""
    generate(OUT, [GIVEN], primes=GIVEN_PRIMES)
    return True


def test_engine_given_primes(generated_given):
    """Two limbs of given primes: the manifest lists them, in their order, says they were given, and the bench checks
    each c_l mod q_l and the CRT mod q_0 q_1 (as for drawn primes, test_engine), cycles within the same bounds."""
    assert all(q.bit_length() == 30 and q % 2048 == 1 for q in GIVEN_PRIMES), GIVEN_PRIMES
    assert not set(GIVEN_PRIMES) & set(largest_ntt_primes(30, 1024, 2)), "the drawn primes: no test of given ones"
    m = json.loads((OUT / GIVEN / "rtl" / f"{GIVEN}.json").read_text())
    assert [int(q) for q in m["primes"]] == list(GIVEN_PRIMES), m["primes"]
    assert m["prime_class"] == "given" and m["registry"]["params"]["prime_class"] == "given"
    assert m["limb_bits"] == 30 and m["limbs"] == 2
    check_engine(GIVEN)


def test_refuses_given_prime_not_1_mod_2n():
    """A limb prime = 1 mod 64, not 1 mod 2048 (the one-limb test's 1073741441): refused, naming the limb, the largest n
    it serves and the fix, before anything is written."""
    primes = (GIVEN_PRIMES[0], 1073741441)
    h = hashlib.sha256(",".join(map(str, primes)).encode()).hexdigest()[:7]
    out = refusal(GENERATE, OUT, f"mpoly_1024_x64_k2_b128_l2_s32_p2_q{h}_mpaper", ("--primes", ",".join(map(str, primes))))
    assert "limb 1: q = 1073741441 is not 1 mod 2n = 2048" in out, out[-2000:]
    assert "give primes q = 1 mod 2048" in out, out[-2000:]


def test_refuses_given_primes_hash_mismatch():
    """PRIMES with another design's hash, and without _q: refused, naming the design of these primes."""
    args = ("--primes", ",".join(map(str, GIVEN_PRIMES)))
    out = refusal(GENERATE, OUT, "mpoly_1024_x64_k2_b128_l2_s32_p2_q0000000_mpaper", args)
    assert f"_q0000000 is not the hash of PRIMES={','.join(map(str, GIVEN_PRIMES))}" in out, out[-2000:]
    assert f"the design of these primes is {GIVEN}" in out, out[-2000:]
    out = refusal(GENERATE, OUT, "mpoly_1024_x64_k2_b128_l2_s32_p2_mpaper", args)
    assert "given, but the name has no _q<hash>" in out, out[-2000:]
    assert f"mpoly_1024_x64_k2_b128_l2_s32_p2_mpaper_q{GIVEN_HASH}" in out, out[-2000:]
