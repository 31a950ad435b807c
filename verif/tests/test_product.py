"""The bare products (`mul_<k>`: out_t = a*b between registers) under their bench, verif/bench/product_bench.py:
`mul_8`, make test's layout design, at RTL (every pair of operands, edges, a random stream, a reset in flight),
and the bench going red on a product that is wrong for one value only. Its routed netlist runs the same bench
in test_pnr.py's layout test."""
import re

import pytest

from runner import gls_manifest, manifest_path, results_of, run_bench

DESIGN = "mul_8"


def _rtl_or_skip():
    manifest = manifest_path(DESIGN)
    if not manifest.exists():
        pytest.skip(f"{DESIGN}'s RTL is not generated (make test generates it; or make rtl DESIGN={DESIGN})")
    return manifest.with_suffix(".v")


def _bench():
    """The bench the registry names for the design (its manifest's entry), not one named here."""
    return gls_manifest(DESIGN)["registry"]["bench"]


def test_product_rtl():
    rtl = _rtl_or_skip()
    run_bench(DESIGN, [rtl], kind="rtl", test_module=_bench())


def test_product_bench_goes_red_on_one_wrong_value(tmp_path):
    """out_t off by one wherever the product is 173 * 91 = 15743 (and for its other factor pairs): the edges and
    a random stream of 2,000 miss it (0.03% of the pairs), every pair does not."""
    text = _rtl_or_skip().read_text()
    broken, n = re.subn(r"assign out_t = (\w+);", r"assign out_t = \1 ^ {15'd0, \1 == 16'd15743};", text)
    assert n == 1, "mul_8's Verilog no longer assigns out_t from one signal: update this mutation"
    src = tmp_path / f"{DESIGN}.v"
    src.write_text(broken)
    results = tmp_path / "results.xml"
    try:
        run_bench(DESIGN, [src], kind="rtl_broken", test_module=_bench(), results_xml=results)
    except SystemExit:  # cocotb's runner under pytest, on a failed test
        pass
    r = results_of(results)
    assert [f.split(":")[0] for f in r["failures"]] == ["all_pairs"], r
    assert "173*91" in r["failures"][0] or "15743" in r["failures"][0], r
