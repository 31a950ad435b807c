"""cocotb tests of the Integer-FFT block multipliers (issue 11, docs/intfft.md "Hardware"), one
pytest case per design, on the generated Verilog under Icarus (verif/bench/intfft_bench.py).

Every block product is checked against Python's ``x * y`` only (edge operands: 0, all-ones blocks,
(2^(kb/2) - 1)^2, the top bit squared, one all-ones digit at either end, alternating bits; then
random blocks, back to back and with idle gaps), with each product's latency and the accept
spacing against the manifest, and the manifest against the formulas of docs/intfft.md and the
Python groups (verif/intfft/params.py).

The designs are generated here, in one generator call, into build/intfft_tests/. The fast set
(make test) is fermat32 and solinas64 folded; MODFORGE_INTFFT_LONG=1 (make test-long) adds the
parallel organisation (fermat32's was 31 s of simulation in a warm make test, and 18 s of the
generator's 52 s of CPU here, /usr/bin/time on 2026-11-30), the other two moduli (general32, fermat64) in both organisations, the
64-bit parallel networks and other P, with MODFORGE_INTFFT_OPS = 20 random pairs (default 4).
The bad-parameter refusals are hw/src/test/scala/modforge/intfft/IntFftParamsSpec.scala.
"""
import json
import os
import subprocess

import pytest

from intfft import params as P
from runner import BUILD, ROOT, run_bench

OUT = BUILD / "intfft_tests"
LONG_MODE = os.environ.get("MODFORGE_INTFFT_LONG") == "1"

FAST = ["intfft_fermat32_folded_p4", "intfft_solinas64_folded_p4"]
LONG = [
    "intfft_fermat32_parallel",
    "intfft_general32_parallel", "intfft_general32_folded_p4", "intfft_general32_folded_p2",
    "intfft_fermat64_parallel", "intfft_fermat64_folded_p4", "intfft_fermat64_folded_p8",
    "intfft_solinas64_parallel", "intfft_solinas64_folded_p8",
    "intfft_fermat32_folded_p2", "intfft_fermat32_folded_p16",
]
# Part B: the block-schoolbook controller (verif/bench/intfft_schoolbook_bench.py), whole
# multiplications against x * y, the cycle count against W + L + W Bx By + W = Eq. (12) + 16 Bx and
# every write's clock against schoolbook.py's schedule. make test: fermat32 with 2000-bit operands
# (Bx = By = 8); make test-long: all four groups with 10^4-bit operands.
SCHOOLBOOK = ["intfft_fermat32_schoolbook"] + (
    ["intfft_general32_schoolbook", "intfft_fermat64_schoolbook", "intfft_solinas64_schoolbook"] if LONG_MODE else [])
# Part C: the super-size Barrett reduction mod A0 (verif/bench/intfft_barrett_bench.py; Eqs. 9-11):
# random and edge x mod a random A0, against Python's x % A0, and the cycle count against
# pass1 + 1 + pass2 + sub_words + 1. make test-long only (since 2026-11-29; 53 s of a cold make test): fermat32, a 2000-bit A0, gamma = 64;
# + 20000-bit and Toy-scale (phi = 160,000) A0 on fermat32 and solinas64, and CMNT and CNT
# encryption (intfft_encrypt_bench.py) on fermat32.
BARRETT = ["intfft_fermat32_barrett", "intfft_solinas64_barrett"] if LONG_MODE else []
CASES = FAST + (LONG if LONG_MODE else [])
REDUCER_LATENCY = {"fermat": 2, "solinas": 2, "dhem": 3}   # docs/intfft.md, "Hardware"


def rtl(design):
    return OUT / design / "rtl" / f"{design}.v"


@pytest.fixture(scope="session")
def generated():
    subprocess.run(["./mill", "-i", "hw.runMain", "modforge.Generate", "--out", str(OUT), *CASES, *SCHOOLBOOK, *BARRETT], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    return True


def manifest(design):
    return json.loads(rtl(design).with_suffix(".json").read_text())


@pytest.mark.parametrize("design", CASES)
def test_block_products(generated, design):
    env = {"MODFORGE_INTFFT_OPS": os.environ.get("MODFORGE_INTFFT_OPS", "20" if LONG_MODE else "4")}
    run_bench(design, [rtl(design)], kind="rtl", test_module="intfft_bench",
              manifest=rtl(design).with_suffix(".json"), extra_env=env)


@pytest.mark.parametrize("design", CASES)
def test_manifest(generated, design):
    """The group is the Python golden model's, the cycle counts are the documented formulas."""
    m = manifest(design)
    g = P.GROUPS[m["group"]]
    assert (int(m["p"]), m["k"], int(m["omega"]), m["b"], m["d"], m["reducer"], m["m"]) == \
        (g.p, g.k, g.omega, g.b, g.d, g.reducer, g.m)
    assert m["block_bits"] == g.k * g.b // 2 and m["product_words"] == g.k * g.b // g.d
    red = REDUCER_LATENCY[g.reducer]
    lb, lpw = red + 2, red + 1                           # butterfly: product, reducer, add/sub; pointwise: product, reducer
    tree = (g.d // g.b).bit_length() - 1                 # log2(d/b) adder-tree levels
    # Parallel: the tree, the chain's load, its output register. Folded (word-serial): the banks'
    # read and the bank select's register, the tree, the chain's output register.
    lrec = tree + 2 if m["organisation"] == "parallel" else 2 + tree + 1
    assert (m["butterfly_latency"], m["pointwise_latency"], m["recovery_latency"]) == (lb, lpw, lrec)
    log2k = g.k.bit_length() - 1
    if m["organisation"] == "parallel":
        assert m["latency"] == 1 + 2 * log2k * lb + lpw + lrec
        assert m["issue_interval"] == m["product_words"]
    else:
        units = m["butterfly_units"]
        assert m["issue_cycles"] == 3 * log2k * g.k // (2 * units) + g.k // units
        # Recovery reads slot Z for kb/d clocks from the handoff; the next pair writes Z only later.
        assert m["first_z_write_cycle"] >= m["product_words"]
        assert m["issue_interval"] == m["handoff_cycle"] + 1
        assert m["latency"] == 1 + m["handoff_cycle"] + lrec
        # The schedule only waits where a stage needs results still in the pipeline: at most one
        # butterfly drain per job boundary.
        jobs = 3 * log2k + 1
        assert m["issue_cycles"] <= m["schedule_cycles"] <= m["issue_cycles"] + jobs * (lb + 2)
    names = {p["name"]: (p["dir"], p["width"]) for p in m["ports"]}
    assert names == {"clk": ("in", 1), "reset": ("in", 1), "in_valid": ("in", 1), "in_ready": ("out", 1),
                     "in_x": ("in", m["block_bits"]), "in_y": ("in", m["block_bits"]),
                     "out_valid": ("out", 1), "out_last": ("out", 1), "out_word": ("out", m["d"])}


@pytest.mark.parametrize("design", SCHOOLBOOK)
def test_schoolbook_multiplications(generated, design):
    env = {"MODFORGE_SCHOOLBOOK_BITS": os.environ.get("MODFORGE_SCHOOLBOOK_BITS", "10000" if LONG_MODE else "2000")}
    run_bench(design, [rtl(design)], kind="rtl", test_module="intfft_schoolbook_bench",
              manifest=rtl(design).with_suffix(".json"), extra_env=env)


@pytest.mark.parametrize("design", SCHOOLBOOK)
def test_schoolbook_manifest(generated, design):
    """L = 2 N_F log2 k + N_PW + N_AR with the paper's 8s; the block multiplier's latency padded to L - W."""
    m = manifest(design)
    g = P.GROUPS[m["group"]]
    log2k = g.k.bit_length() - 1
    w = g.k * g.b // (2 * g.d)
    assert m["words_per_block"] == w == 8
    assert m["paper_latency"] == 16 * log2k + 16
    assert m["first_write_cycle"] == w + m["paper_latency"]
    red = REDUCER_LATENCY[g.reducer]
    assert m["multiplier_latency"] == 1 + 2 * log2k * (red + 2) + (red + 1) + (g.d // g.b).bit_length() - 1 + 2
    assert m["latency_pad"] == m["paper_latency"] - w - m["multiplier_latency"] >= 0
    names = {p["name"] for p in m["ports"]}
    assert {f"rd{i}_{s}" for i in (1, 2, 3) for s in ("en", "addr", "data")} <= names
    assert {"wr_en", "wr_addr", "wr_data", "cmd_valid", "cmd_ready", "done", "busy"} <= names


# (design, A0 bits phi, random reductions, edge cases too): the Toy-scale runs use Toy's phi =
# 160,000 (Table 1, CMNT Toy) with one random reduction each (~10^4 clocks on fermat32).
BARRETT_RUNS = ([("intfft_fermat32_barrett", 2000, 1, 1),
    ("intfft_fermat32_barrett", 20000, 4, 1), ("intfft_fermat32_barrett", 160000, 1, 0),
    ("intfft_solinas64_barrett", 20000, 2, 1), ("intfft_solinas64_barrett", 160000, 1, 0)] if LONG_MODE else [])


@pytest.mark.parametrize("design,phi,runs,edges", BARRETT_RUNS)
def test_barrett_reductions(generated, design, phi, runs, edges):
    env = {"MODFORGE_BARRETT_PHI": str(phi), "MODFORGE_BARRETT_RUNS": str(runs), "MODFORGE_BARRETT_EDGES": str(edges)}
    run_bench(design, [rtl(design)], kind="rtl", test_module="intfft_barrett_bench",
              manifest=rtl(design).with_suffix(".json"), extra_env=env)


# (cocotb test, scaled Toy group): CMNT at phi = 2000, theta = 3 (9 timed products); CNT at
# phi = 3000, theta = 4 (delta = 936: four-block B_i). The environment can override both.
ENCRYPTIONS = [("cmnt_encryption", "CMNT", 2000, 3), ("cnt_encryption", "CNT", 3000, 4)]


@pytest.mark.skipif(not LONG_MODE, reason="make test-long (MODFORGE_INTFFT_LONG=1)")
@pytest.mark.parametrize("testcase,scheme,phi,theta", ENCRYPTIONS)
def test_encryption(generated, testcase, scheme, phi, theta):
    """Eq. (1) / Eq. (2) at the scheme's Toy[phi, theta] (delta, rho kept) over intfft_fermat32_barrett."""
    design = "intfft_fermat32_barrett"
    env = {f"MODFORGE_{scheme}_PHI": os.environ.get(f"MODFORGE_{scheme}_PHI", str(phi)),
           f"MODFORGE_{scheme}_THETA": os.environ.get(f"MODFORGE_{scheme}_THETA", str(theta))}
    run_bench(design, [rtl(design)], kind="rtl", test_module="intfft_encrypt_bench", testcase=testcase,
              manifest=rtl(design).with_suffix(".json"), extra_env=env)


def test_barrett_refuses_a0_without_beta():
    """Eq. (10) gives no usable beta for a 1- or 2-bit A0 (phi + beta < 0): the bench's precompute,
    which holds A0, refuses it naming the condition; so are A0 < 2 and alpha <= gamma."""
    from intfft.barrett import BarrettParamError
    from intfft_barrett_bench import barrett_command
    g = P.GROUPS["fermat32"]
    for A0 in (2, 3):
        with pytest.raises(BarrettParamError, match=r"Eq. \(10\) gives no usable beta .* phi \+ beta = -?\d+ < 0"):
            barrett_command(A0, 8, g)
    with pytest.raises(BarrettParamError, match="must be >= 2"):
        barrett_command(1, 8, g)
    with pytest.raises(BarrettParamError, match=r"alpha = \d+ <= gamma"):
        barrett_command((1 << 40) + 1, 200, g)
    assert barrett_command(7, 8, g).beta < -2     # 3 bits: the shortest A0 Eq. (10) serves


@pytest.mark.parametrize("design", BARRETT)
def test_barrett_manifest(generated, design):
    m = manifest(design)
    g = P.GROUPS[m["group"]]
    assert (m["d"], m["k"], m["b"], m["write_buses"]) == (g.d, g.k, g.b, 2)
    names = {p["name"] for p in m["ports"]}
    assert {"wr2_en", "wr2_addr", "wr2_data", "y_is_y1", "cmd_mul_only", "cmd_x_hi_base", "cmd_q_hi_base",
            "cmd_sub_words", "cmd_top_bits", "done"} <= names
