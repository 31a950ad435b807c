"""The streamed column mode (`_c1`, docs/polymul_multipass.md, "Streamed column passes"): the column passes without
corner turns (hw/.../multipass/StreamedColumnsPass.scala: the NTT runs a block's be columns interleaved as the rows come
from memory, and writes its bit-reversed rows where they belong) and the middle twiddles in the rows pass
(RowTwiddleStage.scala). Through the engine bench (verif/bench/multipass_engine_bench.py: AxiRam, c checked against a
schoolbook product in Python big ints, the bursts against the schedule's stream order, back-pressure on every AXI
channel) and the batch bench (verif/bench/multipass_batch_bench.py).

n = 1024, n1 = 16 (n2 = 64: the twiddles' seeds, (D + 1)(L + 2) cycles, must fit a row), P = 1, a 256-bit bus of
one-beat bursts (be = 8), the paper's behavioural multipliers, as the other multi-pass tests.
"""
import pytest

from multipass_runs import LONG_ONLY, generate
from test_multipass_engine import OUT, check_engine

pytestmark = LONG_ONLY

ENGINE = "mpoly_1024_x16_b256_l1_s32_p1_mpaper_c1"
SEQUENCE = "mpoly_1024_x16_k2_b256_l1_s32_p1_mpaper_c1_t1_r2"


@pytest.fixture(scope="session")
def generated():
    generate(OUT, [ENGINE])
    return True


def test_streamed_engine(generated):
    check_engine(ENGINE)


BATCH = "mpoly_1024_x16_b256_l1_s32_p1_mpaper_c1_t1"
# 32-bit limbs fill the 32-bit slots (the (4096, 62) design's width: two such primes make Q >= 2^62): a residue's top bit
# is the slot's, the Shoup multipliers 33 bits.
BATCH_W32 = "mpoly_1024_x16_b256_l1_s32_p1_w32_mpaper_c1_t1"


@pytest.fixture(scope="session")
def generated_batch():
    import test_multipass_batch
    generate(test_multipass_batch.OUT, [BATCH, SEQUENCE, BATCH_W32])
    return True


@pytest.mark.parametrize("design", [BATCH, SEQUENCE, BATCH_W32])
def test_streamed_batch(generated_batch, design):
    """A batch of four products, the passes overlapped (each product's memory against the model's image in stream mode,
    the bursts per unit and product, the order of passes), then with every AXI channel paused in 30% of cycles and with
    B slow; two limbs in sequence through one engine (_r2: each pass's primes chosen by its limb)."""
    import test_multipass_batch
    test_multipass_batch.test_batch(True, design)


# Primes loaded at run time (_d1): the NTTs' and the rows' middle-twiddle constants in the units' chains, loaded before
# each pass from the host's image (verif/polymul/multipass_loaded.py). Limbs none of which is the design's reference
# prime, as test_multipass_loaded.py's: 30, 26 and 20 bits, all = 1 mod 2048; SEAL's 27-bit n = 1024 prime and a 17-bit one.
LOADED = "mpoly_1024_x16_b256_l1_s32_p1_mpaper_c1_t1_d1"


@pytest.fixture(scope="session")
def generated_loaded():
    import test_multipass_loaded
    generate(test_multipass_loaded.OUT, [LOADED])
    return True


@pytest.mark.parametrize("test, primes", [
    ("batch_no_pauses", "1073698817,67090433,1032193"),
    ("batch_back_pressure", f"{0x7E00001},114689"),
])
def test_streamed_loaded(generated_loaded, test, primes):
    import test_multipass_loaded
    from multipass_runs import run
    m, records = run(test_multipass_loaded.OUT, LOADED, "multipass_batch_bench", "batch", (test,), testcase=test,
                     extra_env={"MODFORGE_BATCH": "4", "MODFORGE_PRIMES": primes})
    assert m["column_mode"] == "stream"
    for r in records[test]:
        assert r["limbs"] == len(primes.split(","))
        print(f"{LOADED} {r['test']}: {r['count']} products of {r['limbs']} limbs in {r['cycles']} cycles; the promise "
              f"{r['promise']} (ratio {r['ratio']})")
        if r["count"] and r["pause"] == 0:
            assert 0.95 * r["promise"] <= r["cycles"] < 1.05 * r["promise"], f"without pauses not within 5% of the promise: {r}"
