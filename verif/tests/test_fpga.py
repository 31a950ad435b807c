"""cocotb on FPGA netlists: Yosys's synth_xilinx output simulated with Yosys's Xilinx cell models
(DSP48E1, CARRY4, LUTs, SRLs). MODFORGE_XC7_DESIGNS names the designs (default gshoup_32, which
`make test` synthesizes with `make fpga DESIGN=gshoup_32 TARGET=xc7`)."""
import os

import pytest

from runner import run_xc7

DESIGNS = os.environ.get("MODFORGE_XC7_DESIGNS", "gshoup_32").split()


@pytest.mark.parametrize("design", DESIGNS)
def test_xc7_netlist(design):
    run_xc7(design, ops=int(os.environ.get("MODFORGE_XC7_OPS", "1000")))
