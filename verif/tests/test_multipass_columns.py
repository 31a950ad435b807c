"""The multi-pass engine's column passes in RTL (hw/src/main/scala/modforge/multipass/ColumnsPass.scala,
docs/polymul_multipass.md, "RTL: the column passes"): the cocotb bench (verif/bench/multipass_columns_bench.py) on
AxiRam for two small configurations, each pass (``columns``, ``cols_...``, and ``columns_inverse``, ``icols_...``),
and the generator's refusal of a prime that is not 1 mod 2n. The whole file takes about 30 s (2 cores, warm Mill).

The designs are generated here, in one generator call, into build/multipass_columns_tests/<design>/. They use the
paper's behavioural multipliers (`_mpaper`), as test_multipass_rows.py does: the fast multipliers' explicit adder
trees simulate hundreds of times slower under Icarus, and the pass around them is the same code. Each bench run
writes its cycle counts to sim_rtl/columns_cycles_<test>.json; the test prints them (pytest -s) and checks that
they are sane: no pass beats the model's cycles (`costs(p)`: the larger of the lanes' n / P and the port's beats),
and without pauses a pass is within 5% of the model's cycles plus the pass's fill: a block read before the first
column can enter the NTT, the NTT's latency, and a block written after the last column has left it
(2 n1 be / R + latency, R the coefficients a cycle on the row side).
"""
import pytest

from multipass_runs import LONG_ONLY, generate, refusal, run
from runner import BUILD

OUT = BUILD / "multipass_columns_tests"
MAIN = "modforge.multipass.ColumnsDesigns"

CASES = [
    # n1 = n2 = 32, P = 1, a 64-bit bus (e = 2), four-beat bursts (be = 8, 4 blocks); the default 30-bit prime
    # (the largest = 1 mod 2048, 1073707009). columns: one forward NTT of 2 lanes for a and b (R = 2, port and
    # lanes balanced); columns_inverse: an inverse NTT of 1 lane (R = 1, the lanes the limit)
    "cols_1024_x32_b64_l4_s32_p1_mpaper",
    "icols_1024_x32_b64_l4_s32_p1_mpaper",
    # n1 = 64 (n2 = 16), P = 2, a 128-bit bus (e = 4), two-beat bursts (be = 8, 2 blocks); a 23-bit prime given,
    # 8380417. columns: 4 lanes (R = 4), rows of 2 words, so the twiddle chains run 2 rows apart (d = 2)
    "cols_1024_x64_b128_l2_s32_p2_q8380417_mpaper",
    "icols_1024_x64_b128_l2_s32_p2_q8380417_mpaper",
]
pytestmark = LONG_ONLY


@pytest.fixture(scope="session")
def generated():
    generate(OUT, CASES)
    return True


@pytest.mark.parametrize("design", CASES)
def test_columns(generated, design):
    m, records = run(OUT, design, "multipass_columns_bench", "columns", ("pass_no_pauses", "pass_back_pressure"))
    fill = 2 * m["n1"] * m["be"] // m["row_lanes"] + m["ntt_latency_cycles"]
    for rs in records.values():
        for r in rs:
            print(f"{design} {r['test']}: {r['cycles']} cycles; the model's {r['model_cycles']} (lanes {r['stream_cycles']}, "
                  f"port {r['port_cycles']}; ratio {r['ratio']:.3f}), {r['model_cycles'] + fill} with the fill {fill} (ratio "
                  f"{r['cycles'] / (r['model_cycles'] + fill):.3f}); {r['ntt_phantom_ticks']} empty NTT ticks; at most "
                  f"{r['max_reads_in_flight']} reads and {r['max_writes_in_flight']} writes in flight")
            assert r["cycles"] >= r["model_cycles"], f"{design}: faster than the port or the lanes allow: {r}"
            if r["pause"] == 0:
                assert r["cycles"] < 1.05 * (r["model_cycles"] + fill), f"{design}: without pauses over the model with fill: {r}"


def test_refuses_prime_not_1_mod_2n():
    """1073741441 is prime and 1 mod 64, not 1 mod 2048: no primitive 2048-th root for n = 1024. Refused, by name."""
    out = refusal(MAIN, OUT, "icols_1024_x32_b64_q1073741441")
    assert "q = 1073741441 is not 1 mod 2n = 2048" in out, out[-2000:]
