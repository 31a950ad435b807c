"""cocotb tests of the generated Verilog (Icarus), one pytest case per table design of the
paper's three families and of the reduction family, and per `_fast` configuration (reports/dse.md).

MODFORGE_WIDTHS picks the widths (default 32,64; `make test-long` runs all four), MODFORGE_OPS
the length of the random stream.
"""
import pytest

from runner import manifest_path, run_bench, table_designs, widths_from_env


@pytest.mark.parametrize("design", table_designs(widths_from_env(), ("table", "reduction_table", "best")))
def test_rtl(design):
    rtl = manifest_path(design).with_suffix(".v")
    run_bench(design, [rtl], kind="rtl")
