"""The multi-pass engine's ``rows`` pass in RTL (hw/src/main/scala/modforge/multipass/RowsPass.scala,
docs/polymul_multipass.md, "RTL: the rows pass"): the cocotb bench (verif/bench/multipass_rows_bench.py) on AxiRam
for two small configurations, and the generator's refusal of a prime that is not 1 mod 2n.

The designs are generated here, in one generator call, into build/multipass_rows_tests/<design>/. They use the
engine's behavioural multipliers (`_mpaper`), as test_polymul_stream.py does: the default (fast) multipliers'
explicit adder trees made Icarus about 400 times slower here (rows_1024_x32_b64_l2_s32_p1_o4: 562 s for the two
passes of rows_no_pauses, against 1.4 s), and the pass around them is the same code. Each bench run writes its cycle counts
to sim_rtl/rows_cycles_<test>.json; the test prints them (pytest -s) and checks that they are sane: no pass beats
the model's cycles (the larger of the engine's n / P and the port's 2 n / e), and without pauses a pass is within
5% of the model's cycles with the engine's latency as the pass boundary's fill.
"""
import pytest

from multipass_runs import LONG_ONLY, generate, refusal, run
from runner import BUILD

OUT = BUILD / "multipass_rows_tests"
MAIN = "modforge.multipass.RowsDesigns"

CASES = [
    # n1 = n2 = 32, P = 1, a 64-bit bus (e = 2, the port as fast as the engine), two-beat bursts; chunks of two
    # bursts, 4 groups a row; the default 30-bit limb: the largest Proth prime = 1 mod 64, 1073643521
    "rows_1024_x32_b64_l2_s32_p1_o4_mpaper",
    # n1 = 64 (n2 = 16), P = 2 lanes, a 128-bit bus (e = 4), one group a row; the prime given: 8380417
    # (2^23 - 2^13 + 1, the largest 23-bit Proth prime = 1 mod 32, and 1 mod 2048)
    "rows_1024_x64_b128_l2_s32_p2_o4_q8380417_mpaper",
]
pytestmark = LONG_ONLY


@pytest.fixture(scope="session")
def generated():
    generate(OUT, CASES)
    return True


@pytest.mark.parametrize("design", CASES)
def test_rows(generated, design):
    _, records = run(OUT, design, "multipass_rows_bench", "rows", ("rows_no_pauses", "rows_back_pressure"))
    for rs in records.values():
        for r in rs:
            print(f"{design} {r['test']}: {r['cycles']} cycles; the model's {r['model_cycles']} (ratio {r['ratio']:.3f}), "
                  f"{r['model_cycles_with_fill']} with the engine's latency {r['engine_latency']} as fill (ratio "
                  f"{r['ratio_with_fill']:.3f}); {r['engine_empty_ticks']} empty engine ticks, {r['engine_phantom_ticks']} before "
                  f"the last input beat; at most "
                  f"{r['max_reads_in_flight']} reads and {r['max_writes_in_flight']} writes in flight")
            assert r["cycles"] >= r["model_cycles"], f"{design}: faster than the port or the engine allows: {r}"
            if r["pause"] == 0:
                assert r["ratio_with_fill"] < 1.05, f"{design}: without pauses more than 5% over the model with fill: {r}"


def test_refuses_prime_the_engine_does_not_take():
    """1073741441, the largest 30-bit prime = 1 mod 64 (class any), is what the engine would draw at n2 = 32, but it is
    not 1 mod 2048: refused for n = 1024, saying the largest n it serves and a prime that would do (the engine takes
    any prime = 1 mod 2n as its given limb prime, docs/polymul_multipass.md, "The engine and its prime")."""
    out = refusal(MAIN, OUT, "rows_1024_x32_b64_q1073741441")
    assert "q = 1073741441 is not 1 mod 2n = 2048" in out and "it serves n up to 64" in out, out[-2000:]
    assert "e.g. 1073707009, the largest of 30 bits" in out and "the rows pass serves a product of n = 1024" in out, out[-2000:]
