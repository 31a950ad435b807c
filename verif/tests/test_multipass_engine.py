"""The one-limb multi-pass engine in RTL (hw/src/main/scala/modforge/multipass/MultipassEngine.scala,
docs/polymul_multipass.md, "RTL: the engine, one limb"): the three passes chained behind one AXI4 master, run by
the cocotb bench (verif/bench/multipass_engine_bench.py) on AxiRam, c checked against a schoolbook product in
Python big ints. Two small configurations: one limb, and two limbs side by side (MultipassLimbs, c_l checked mod
each q_l and their CRT against the product mod Q). n = 1024, n1 = 64 (n2 = 16), P = 2, a 128-bit bus, two-beat bursts,
the one limb's given prime 8380417 (the column and rows pass tests' `_q8380417` designs), the paper's behavioural
multipliers (`_mpaper`, as the pass tests use: the fast ones simulate hundreds of times slower).

The design is generated here into build/multipass_engine_tests/<design>/. Each bench run writes its cycles to
sim_rtl/engine_cycles_<test>.json; the test prints them (pytest -s) and checks that they are sane: no product
beats the model's cycles (`costs(p).cycles()`), and without pauses a product is within 5% of the model's cycles
plus the three passes' fills (columns: 2 n1 be / R + the NTT's latency; rows: the engine's latency).
"""
import pytest

from multipass_runs import LONG_ONLY, generate, refusal, run
from polymul.multipass_manifest import manifest_params, manifest_primes
from polymul.multipass_schedule import costs
from runner import BUILD

pytestmark = LONG_ONLY

OUT = BUILD / "multipass_engine_tests"
MAIN = "modforge.multipass.MultipassEngineDesigns"
DESIGN = "mpoly_1024_x64_b128_l2_s32_p2_q8380417_mpaper"
# Two limbs side by side (MultipassLimbs: two engines, SpinalHDL's AXI4 arbiters), the two largest 30-bit primes = 1 mod 2n.
LIMBS = "mpoly_1024_x64_k2_b128_l2_s32_p2_mpaper"
# The same with a port per limb (_y2: two AxiRams, one per port).
PORTS = "mpoly_1024_x64_k2_b128_l2_s32_p2_mpaper_y2"


@pytest.fixture(scope="session")
def generated():
    generate(OUT, [DESIGN, LIMBS, PORTS])
    return True


@pytest.mark.parametrize("design", [DESIGN, LIMBS, PORTS])
def test_engine(generated, design):
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
