"""Table 1's figures on a clone without the syntheses (flow/reports/asic_table.py, synth_result): a synthesis read
from build/ is kept in reports/synth/<d>.json (flow/reports/synth_kept.py), and where build/ has none the kept one is
used and named in the report's opening sentence; a result of other RTL is not kept."""
import hashlib
import json

import pytest

import layout
from harden import flow_sha256
from reports import asic_table, synth_kept

D = "shoup_32"


@pytest.fixture
def build(tmp_path, monkeypatch):
    monkeypatch.setattr(layout, "BUILD", tmp_path)
    monkeypatch.setattr(synth_kept, "KEPT_DIR", tmp_path / "kept")
    monkeypatch.setattr(asic_table, "KEPT_NOTES", {})
    layout.rtl(D).parent.mkdir(parents=True)
    layout.rtl(D).write_text("module shoup_32; endmodule\n")
    layout.manifest(D).write_text(json.dumps({"design": D, "k": 32}))
    layout.harden_dir(D).mkdir(parents=True)
    m = {"design": D, "rtl_sha256": hashlib.sha256(layout.rtl(D).read_bytes()).hexdigest(), "flow_sha256": flow_sha256(),
         "design__instance__area": 98345.5712, "critical_path_ns": 7.5767, "design__instance__count": 8051,
         "date": "2026-11-23 16:53 UTC"}
    layout.metrics(D).write_text(json.dumps(m))
    return m


def test_build_result_kept_then_read_without_build(build):
    assert asic_table.synth_result(D) == build
    assert synth_kept.kept(D)["metrics"] == build           # kept as it was read
    assert asic_table.KEPT_NOTES == {}                      # from build/: nothing to say
    assert "kept in `reports/synth/<design>.json` as well" in asic_table.kept_sentence()
    for p in (layout.metrics(D), layout.manifest(D), layout.rtl(D)):
        p.unlink()                                          # a fresh clone
    assert asic_table.synth_result(D) == build
    assert "kept in reports/synth/shoup_32.json" in asic_table.KEPT_NOTES[D]
    assert "`shoup_32`: kept in reports/synth/shoup_32.json" in asic_table.kept_sentence()


def test_other_rtl_is_not_kept(build):
    """build/ regenerated with other RTL: its result is still read (run_designs reruns it unless --collect-only), but
    not kept, and without it the kept record of older RTL is not used."""
    layout.rtl(D).write_text("module shoup_32_other; endmodule\n")   # regenerated since the synthesis
    assert asic_table.synth_result(D) == build and synth_kept.kept(D) is None
    layout.metrics(D).unlink()
    assert asic_table.synth_result(D) is None
