"""LibreLane's Classic flow accepts a table design's and an SRAM tile's configuration with this PDK
(flow/check_classic.py; docs/flow.md, "Hardening (SKY130 with LibreLane)"). The RTL comes from
`make test`'s generator call (gshoup_32 and ntt_16_32_p1_gshoup_sram)."""
import pytest

import layout
from check_classic import check
from pdk import find_pdk

SRAM_TILE = "ntt_16_32_p1_gshoup_sram"


def need(design):
    if not layout.manifest(design).exists():
        pytest.skip(f"{design} not generated: make rtl DESIGN={design}")


@pytest.mark.parametrize("design", ["gshoup_32", SRAM_TILE])
def test_classic_accepts(design):
    need(design)
    ok, notes, errors = check(design, find_pdk())
    assert ok, errors
    if design == SRAM_TILE:
        import json
        cfg = json.loads((layout.librelane_dir(design) / "config.classic.json").read_text())
        macro = "sky130_sram_1kbyte_1rw1r_32x256_8"
        assert set(cfg["MACROS"]) == {macro}
        assert cfg["MACROS"][macro]["lef"][0].endswith(f"{macro}.lef")
        assert cfg["MACROS"][macro]["lib"]["*"][0].endswith(f"{macro}_TT_1p8V_25C.lib")
        assert cfg["MACROS"][macro]["vh"][0].endswith(f"{macro}.v")


def test_classic_still_rejects_beside_a_missing_gds():
    """The missing-GDS allowance must not hide a real error: LibreLane lists both in one pass."""
    need(SRAM_TILE)
    ok, notes, errors = check(SRAM_TILE, find_pdk(), extra={"FP_CORE_UTIL": "half"})
    assert not ok and any("FP_CORE_UTIL" in e for e in errors), errors
