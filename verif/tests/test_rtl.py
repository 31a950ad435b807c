"""cocotb tests of the generated Verilog (Icarus), one pytest case per table design of the
paper's three families and of the reduction family, and per `_fast` configuration (reports/dse.md).

MODFORGE_WIDTHS picks the widths (default 32,64; `make test-long` runs all four), MODFORGE_OPS
the length of the random stream. MODFORGE_BEST_OPS, when set, is the random stream of the `_fast`
configurations instead: their explicit compressor trees cost Icarus about 0.07 CPU-s per cycle at
64 bits (13,000 full-adder instances), against milliseconds for Verilog `*`, so `make test` gives
them a shorter stream (the edge-operand and last-correction tests stay whole).
"""
import os

import pytest

from runner import manifest_path, run_bench, table_designs, widths_from_env

# The `_fast` configurations run at MODFORGE_BEST_WIDTHS (default 32,64; test-long adds 128): at 256
# bits an explicit design costs Icarus about a second per cycle.
BEST = table_designs(tuple(set(widths_from_env()) & set(widths_from_env("MODFORGE_BEST_WIDTHS", "32,64"))), ("best",))


@pytest.mark.parametrize("design", table_designs(widths_from_env(), ("table", "reduction_table")) + BEST)
def test_rtl(design):
    rtl = manifest_path(design).with_suffix(".v")
    ops = os.environ.get("MODFORGE_BEST_OPS") if design in BEST else None
    run_bench(design, [rtl], kind="rtl", extra_env={"MODFORGE_OPS": ops} if ops else None)
