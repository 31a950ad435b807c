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
from runner import BUILD
from test_multipass_engine import check_engine
import test_multipass_engine

pytestmark = LONG_ONLY

OUT = BUILD / "multipass_engine_tests"
ENGINE = "mpoly_1024_x16_b256_l1_s32_p1_mpaper_c1"
SEQUENCE = "mpoly_1024_x16_k2_b256_l1_s32_p1_mpaper_c1_t1_r2"


@pytest.fixture(scope="session")
def generated():
    generate(OUT, [ENGINE])
    return True


def test_streamed_engine(generated):
    assert test_multipass_engine.OUT == OUT
    check_engine(ENGINE)


BATCH = "mpoly_1024_x16_b256_l1_s32_p1_mpaper_c1_t1"


@pytest.fixture(scope="session")
def generated_batch():
    import test_multipass_batch
    generate(test_multipass_batch.OUT, [BATCH, SEQUENCE])
    return True


@pytest.mark.parametrize("design", [BATCH, SEQUENCE])
def test_streamed_batch(generated_batch, design):
    """A batch of four products, the passes overlapped (each product's memory against the model's image in stream mode,
    the bursts per unit and product, the order of passes), then with every AXI channel paused in 30% of cycles and with
    B slow; two limbs in sequence through one engine (_r2: each pass's primes chosen by its limb)."""
    import test_multipass_batch
    test_multipass_batch.test_batch(True, design)
