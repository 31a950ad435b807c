"""The multi-pass engine's AXI4 burst mover (hw/src/main/scala/modforge/multipass/, docs/polymul_multipass.md,
"RTL: the burst mover"): the cocotb bench (verif/bench/multipass_mover_bench.py) on AxiRam, for a few small
configurations, and the generator's refusal of a burst wider than a row.

The movers are generated here, in one generator call, into build/multipass_mover_tests/<design>/. Each
bench run writes its cycle counts to sim_rtl/mover_cycles_<test>.json; the test prints them (pytest -s)
and checks only that they are sane: no pass beats the larger of the schedule's port cycles and the mover's
stream (operands x n / lanes words), and without pauses it takes less than twice that.
"""
import pytest

from multipass_runs import LONG_ONLY, generate, refusal, run
from runner import BUILD

OUT = BUILD / "multipass_mover_tests"
MAIN = "modforge.multipass.MoverDesigns"

# design: the limb width w the bench fills with (the edge pattern 2^w - 1); the mover itself moves slots.
CASES = {
    # n1 = n2 = 32, a 64-bit bus (e = 2), two-beat bursts (be = 4): 8 blocks, 512 read bursts; both operands
    "mover_1024_x32_b64_l2_s32_o4_k2": 26,
    # n1 = 64 (n2 = 16), four-beat bursts of two 32-bit slots (be = 8): 2 blocks of 64 rows; 2 outstanding
    "mover_1024_x64_b64_l4_s32_o2_k2": 32,
    # a 256-bit bus (e = 16 slots of 16 bits), four-beat bursts (be = 64 = n2): one block per operand,
    # words of 4 lanes (a beat is 4 words); region a only
    "mover_1024_x16_b256_l4_s16_p4_o4_k1": 16,
}
pytestmark = LONG_ONLY


@pytest.fixture(scope="session")
def generated():
    generate(OUT, CASES)
    return True


@pytest.mark.parametrize("design", CASES)
def test_mover(generated, design):
    _, records = run(OUT, design, "multipass_mover_bench", "mover", ("copy_no_pauses", "copy_back_pressure"),
                     extra_env={"MODFORGE_LIMB_BITS": str(CASES[design])})
    for rs in records.values():
        for r in rs:
            bound = max(r["port_cycles"], r["stream_cycles"])
            print(f"{design} {r['test']}: {r['cycles']} cycles; the schedule's port cycles {r['port_cycles']} "
                  f"(ratio {r['ratio']:.3f}), the stream's {r['stream_cycles']} (ratio to the larger "
                  f"{r['ratio_to_bound']:.3f}); at most {r['max_reads_in_flight']} reads and "
                  f"{r['max_writes_in_flight']} writes in flight")
            assert r["cycles"] >= bound, f"{design}: faster than the port or the stream allows: {r}"
            if r["pause"] == 0:
                assert r["cycles"] < 2 * bound, f"{design}: without pauses more than twice the port's or stream's cycles: {r}"


def test_refuses_burst_wider_than_row():
    """be = 16 coefficients (256-bit bus, 32-bit slots, 2 beats) against a row of n2 = 8: refused, with the fix."""
    out = refusal(MAIN, OUT, "mover_1024_x128_b256_l2_s32")
    assert "more than a row of n2 = n / n1 = 8" in out, out[-2000:]
