"""Gate-level simulation: the cocotb bench of test_rtl.py on the synthesized netlists.

MODFORGE_GLS_DESIGNS names designs (as `make gls DESIGN=<d>` does); otherwise MODFORGE_GLS_WIDTHS
picks table widths (default 32, as in `make test`; wide netlists compile slowly under Icarus).
MODFORGE_GLS_OPS sets the random-stream length. MODFORGE_GLS_NTT names NTT tiles to add
(`make test`: ntt_16_32_p1_gshoup, whose twiddle ROM must come out of synthesis as logic with the
right values, not as X); they run the NTT bench.
MODFORGE_GLS_EXTRA names further designs (`make test`: two reduction-family designs at 32 bits).
The netlists come from `make harden DESIGN=<d>`.
MODFORGE_GLS_ROUTED names designs whose routed netlist (build/<d>/pnr/, the layout of `make harden`
where OpenROAD is found) runs the same bench (`make test-long`: gshoup_32).
"""
import os

import pytest

from runner import run_gls, table_designs, widths_from_env

DESIGNS = os.environ.get("MODFORGE_GLS_DESIGNS", "").split() or \
    table_designs(widths_from_env("MODFORGE_GLS_WIDTHS", "32")) + os.environ.get("MODFORGE_GLS_EXTRA", "").split() + os.environ.get("MODFORGE_GLS_NTT", "").split()


@pytest.mark.parametrize("design", DESIGNS)
def test_gls(design):
    run_gls(design, ops=int(os.environ.get("MODFORGE_GLS_OPS", "300")))


ROUTED = os.environ.get("MODFORGE_GLS_ROUTED", "").split()


@pytest.mark.parametrize("design", ROUTED)
def test_gls_routed(design):
    import eda
    tools = eda.find_layout_tools()
    if not tools.complete:
        pytest.skip("no layout here, so no routed netlist: " + tools.how_to_get().replace("\n", " "))
    run_gls(design, ops=int(os.environ.get("MODFORGE_GLS_OPS", "300")), routed=True)
