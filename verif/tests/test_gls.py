"""Gate-level simulation: the cocotb bench of test_rtl.py on the synthesized netlists.

MODFORGE_GLS_DESIGNS names designs (as `make gls DESIGN=<d>` does); otherwise MODFORGE_GLS_WIDTHS
picks table widths (default 32, as in `make test`; wide netlists compile slowly under Icarus).
MODFORGE_GLS_OPS sets the random-stream length. MODFORGE_GLS_NTT names NTT tiles to add
(`make test`: ntt_16_32_p1_gshoup_sram, test-long also ntt_16_32_p1_gshoup; a twiddle ROM must come out of synthesis as logic with the
right values, not as X); they run the NTT bench.
MODFORGE_GLS_EXTRA names further designs (`make test`: two reduction-family designs at 32 bits).
The netlists come from `make harden DESIGN=<d>`.
MODFORGE_GLS_ROUTED names designs whose routed netlist (build/<d>/pnr/, the layout of `make harden`
where OpenROAD is found) runs the same bench (`make test-long`: gshoup_32).
MODFORGE_GLS_SDF names designs (default shoup_32, the smallest routed modular multiplier with a bench;
mul_8, the layout test's design, has none) whose routed netlist runs its bench timed: the PDK's timed
cell models with the layout's tt SDF (runner.run_gls_sdf), at the layout's clock, and at 0.4 times the
post-route critical path, where it must fail. MODFORGE_GLS_SDF_OPS sets their random-stream length
(default 20; an engine, polymul_stream_bench, gets MODFORGE_POLYMUL_OPS, default 1 here, and runs its
random_products test only); MODFORGE_GLS_SDF_TESTCASE picks one bench test for all. Skipped where the
design has no layout of its current RTL.
"""
import os

import pytest

from runner import BenchFailed, gls_manifest, layout_timing, run_gls, run_gls_sdf, table_designs, widths_from_env

DESIGNS = os.environ.get("MODFORGE_GLS_DESIGNS", "").split() or \
    table_designs(widths_from_env("MODFORGE_GLS_WIDTHS", "32")) + os.environ.get("MODFORGE_GLS_EXTRA", "").split() + os.environ.get("MODFORGE_GLS_NTT", "").split()


# A bench whose products take minutes at gate level runs part of itself there: its test and environment per bench
# (MODFORGE_GLS_TESTCASE overrides the test). The multi-pass engine (mpoly_..., one limb): about 4 cycles a second
# under Icarus on a 260,000-cell netlist, so some 17 minutes a product: a random product and one of all q - 1,
# without pauses (docs/polymul_multipass.md, "Gate level").
GLS_PART = {"multipass_engine_bench": ("engine_no_pauses", {"MODFORGE_ENGINE_INPUTS": "random,max"})}


@pytest.mark.parametrize("design", DESIGNS)
def test_gls(design):
    testcase, env = GLS_PART.get(gls_manifest(design)["registry"]["bench"], (None, {}))
    run_gls(design, ops=int(os.environ.get("MODFORGE_GLS_OPS", "300")),
            testcase=os.environ.get("MODFORGE_GLS_TESTCASE") or testcase,
            extra_env={**env, **{k: os.environ[k] for k in env if k in os.environ}})


ROUTED = os.environ.get("MODFORGE_GLS_ROUTED", "").split()


@pytest.mark.parametrize("design", ROUTED)
def test_gls_routed(design):
    import eda
    tools = eda.find_layout_tools()
    if not tools.complete:
        pytest.skip("no layout here, so no routed netlist: " + tools.how_to_get().replace("\n", " "))
    run_gls(design, ops=int(os.environ.get("MODFORGE_GLS_OPS", "300")), routed=True)


SDF = os.environ.get("MODFORGE_GLS_SDF", "shoup_32").split()
SDF_OPS = int(os.environ.get("MODFORGE_GLS_SDF_OPS", "20"))
SDF_CORNER = "tt_025C_1v80"  # the typical corner (pdk_config/pdk.json), the layout's headline
# One product per test on an engine (polymul_stream_bench; the other benches do not read it).
SDF_ENV = {"MODFORGE_POLYMUL_OPS": os.environ.get("MODFORGE_POLYMUL_OPS", "1")}
# The bench tests a timed run runs: MODFORGE_GLS_SDF_TESTCASE, else per bench (an engine's timed
# netlist simulates a few cycles a second: one product), else all of them.
SDF_TESTCASE = {"polymul_stream_bench": "random_products"}


def _sdf_testcase(design):
    return os.environ.get("MODFORGE_GLS_SDF_TESTCASE") or SDF_TESTCASE.get(gls_manifest(design)["registry"]["bench"])


def _skip_without_layout(design):
    from pnr import current_layout
    if current_layout(design) is None:
        pytest.skip(f"no layout of {design}'s current RTL (build/{design}/pnr/: `make harden DESIGN={design}` "
                    "where OpenROAD is found), so no routed netlist and SDF to simulate")


@pytest.mark.parametrize("design", SDF)
def test_gls_sdf(design):
    """The bench passes on the routed netlist with every IOPATH of the tt SDF annotated (run_gls_sdf
    raises when any SDF instance or path found no match), at a clock no faster than the corner's
    post-route critical path."""
    _skip_without_layout(design)
    r = run_gls_sdf(design, SDF_OPS, SDF_CORNER, extra_env=SDF_ENV, testcase=_sdf_testcase(design))
    assert r["clk_ns"] >= r["layout"]["critical_path_ns"]
    assert r["tests"] > 0 and r["failed"] == 0
    print(f"{design}: {r['sdf_counts']['iopath']} IOPATHs of {r['sdf_counts']['cells']} cells annotated, "
          f"clock {r['clk_ns']} ns, compile {r['compile_s']} s, simulation {r['sim_s']} s")


@pytest.mark.parametrize("design", SDF)
def test_gls_sdf_too_fast_clock_fails(design):
    """The annotation has effect: at 0.4 times the post-route critical path the same run gives wrong
    results (a zero-delay netlist passes at any clock)."""
    _skip_without_layout(design)
    cp = layout_timing(design, SDF_CORNER)["critical_path_ns"]
    with pytest.raises(BenchFailed) as failed:
        run_gls_sdf(design, SDF_OPS, SDF_CORNER, clk_ns=0.4 * cp, extra_env=SDF_ENV, testcase=_sdf_testcase(design))
    r = failed.value.args[0]
    # The bench's own checks failed (their messages start with the design's name: a wrong result, X on an
    # output, a handshake out of order), not the simulation's set-up.
    assert r["failures"] and all(f.split(": ", 1)[1].startswith(design) for f in r["failures"]), r["failures"]
    print(f"{design} at {r['clk_ns']} ns: {r['failed']} of {r['tests']} bench tests failed, e.g. {r['failures'][0]}")


def test_timed_cell_models(tmp_path):
    """The Icarus-ready copy of the timed cell models (flow/timed_models.py timed_cell_models): the flops'
    delayed inputs driven, the Liberty's delay arcs as module paths, nothing else changed."""
    import re
    from pdk import find_pdk
    pdk = find_pdk()
    from timed_models import timed_cell_models
    _, timed = timed_cell_models(pdk, tmp_path)
    text = timed.read_text()
    dfxtp = re.findall(r"^module sky130_fd_sc_hd__dfxtp \(.*?^endmodule", text, re.M | re.S)
    timed_dfxtp = [m for m in dfxtp if "D_delayed" in m]  # with and without power pins; the other two: FUNCTIONAL
    assert len(dfxtp) == 4 and len(timed_dfxtp) == 2
    assert all("assign D_delayed = D;" in m and "assign CLK_delayed = CLK;" in m for m in timed_dfxtp)
    dfrtp_1 = re.findall(r"^module sky130_fd_sc_hd__dfrtp_1 \(.*?^endmodule", text, re.M | re.S)
    assert dfrtp_1 and all("(CLK => Q) = (0, 0);" in m and "(RESET_B => Q) = (0, 0);" in m for m in dfrtp_1)
    xor2_2 = re.search(r"^module sky130_fd_sc_hd__xor2_2 \(.*?^endmodule", text, re.M | re.S).group(0)
    assert "(A => X) = (0, 0);" in xor2_2 and "(B => X) = (0, 0);" in xor2_2
    # Every delayed net whose signal is an input is driven; the rest of the file is the PDK's.
    original = pdk.sim_cell_models(tmp_path)[1].read_text()
    added = re.compile(r"\n    // (Driven here|Delay arcs of the Liberty).*?\n(?=endmodule)", re.S)
    assert added.sub("", text.split("\n", 2)[2]) == original
