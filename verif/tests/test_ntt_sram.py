"""cocotb tests of the SRAM NTT tiles (``ntt_..._sram``, docs/sram_tile.md): the whole NTT bench
(verif/bench/ntt_bench.py) under Icarus on the tile's Verilog plus the OpenRAM macros' own
behavioural models, ``$PDK_ROOT/sky130A/libs.ref/sky130_sram_macros/<macro>/<macro>.v`` (PDK_ROOT
defaults to ../shared/pdk beside the repository, as flow/pdk.py finds it). The tile instantiates
them with VERBOSE = 0; the models still print a WARNING when a cycle reads and writes one address,
which the tile must never do, so each run's log is searched for it.

The fast set: N = 16, 32 and 64 (stages overlapped with a gap), the paper's three arrangements and
a reduction arrangement at k = 64 (two macro columns), ROM and RAM twiddles, P = 1 and 2.
MODFORGE_NTT_LONG=1 adds an N = 1024 tile (twiddle banks of four macro rows) and polymul_4096_113.
Also: the manifest's macro grid and area against the macros' Liberty `area`, and the macro catalogue
(pdk_config/sram_macros.json) against the Liberty files.
"""
import json
import math
import os
import re
import subprocess

import pytest

from pdk import SRAM_CATALOGUE, SRAM_MACROS, FlowError, find_pdk, sram_views
from runner import BUILD, ROOT, run_bench

OUT = BUILD / "ntt_sram_tests"

FAST = [
    "ntt_16_32_p1_barrett_sram",
    "ntt_16_32_p2_barrett_ram_sram",
    "ntt_32_32_p2_shoupbarrett_sram",
    "ntt_16_32_p1_shoupbarrett_ram_sram",
    "ntt_16_32_p2_gshoup_sram",
    "ntt_32_32_p1_gshoup_ram_sram",
    "ntt_16_64_p2_k2red_ram_sram",   # k = 64: two macro columns; two-pass PWMUL
    "ntt_64_32_p2_gshoup_sram",      # a gap between the first two stages, none after
]
# N = 1024 (twiddle banks of four macro rows) and a wide-coefficient Table I set of the SSA paper,
# polymul_4096_113 (BarrettOpt, 113-bit q in four macro columns; docs/polymul.md).
LONG = ["ntt_1024_64_p2_gshoup_ram_sram", "polymul_4096_113"]
CASES = FAST + (LONG if os.environ.get("MODFORGE_NTT_LONG") == "1" else [])


@pytest.fixture(scope="session")
def generated():
    """All tiles in one generator run."""
    subprocess.run(["./mill", "-i", "hw.runMain", "modforge.Generate", "--out", str(OUT), *CASES], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    return True


def manifest(design):
    return json.loads((OUT / design / "rtl" / f"{design}.json").read_text())


def macro_model(name):
    try:
        return sram_views(find_pdk(), name).verilog
    except FlowError as e:
        pytest.fail(str(e))


@pytest.mark.parametrize("design", CASES)
def test_ntt_sram_tile(generated, design):
    m = manifest(design)
    assert m["storage"] == "sram" and m["sram"]["macro_count"] > 0
    rtl = OUT / design / "rtl" / f"{design}.v"
    models = [macro_model(x) for x in m["sram"]["macro_models"]]
    log = OUT / design / "sim_rtl.log"
    run_bench(design, [rtl, *models], kind="rtl", test_module="ntt_bench", manifest=rtl.with_suffix(".json"),
              log_file=log)
    text = log.read_text()
    # run_bench raises on a failed cocotb test; this catches what the bench cannot see.
    assert "WARNING: Writing and reading" not in text, f"{design}: a cycle read and wrote one SRAM address"
    assert not re.search(r"Reading .* addr1=", text), f"{design}: the macros' VERBOSE access log is on"
    assert re.search(r"TESTS=\d+ PASS=\d+ FAIL=0", text), f"{design}: no cocotb summary with FAIL=0 in {log}"


def liberty_area(name):
    lib = sram_views(find_pdk(), name).lib_tt.read_text()
    return float(re.search(r"\barea\s*:\s*([0-9.]+)\s*;", lib).group(1))


@pytest.mark.parametrize("name", sorted(SRAM_MACROS))
def test_macro_catalogue(name):
    """pdk_config/sram_macros.json (which the generators choose macros from and price them by)
    against each macro's tt Liberty: area, word width, depth."""
    entry, cat = SRAM_MACROS[name], SRAM_CATALOGUE
    lib = sram_views(find_pdk(), name).lib_tt.read_text()
    assert re.search(r"\bcell\s*\(\s*(\w+)\s*\)", lib).group(1) == name
    area = liberty_area(name)
    assert entry["area_um2"] == area, f"{name}: catalogue area_um2 {entry['area_um2']}, Liberty {area}"
    widths = {t: int(w) for t, w in re.findall(r"type\s*\((\w+)\)\s*\{[^}]*?bit_width\s*:\s*(\d+)", lib)}
    assert widths["data"] == cat["word_bits"], f"{name}: {widths['data']}-bit words"
    assert 1 << widths["addr"] == entry["depth"], f"{name}: {widths['addr']} address bits, catalogue depth {entry['depth']}"


@pytest.mark.parametrize("design", FAST[:2] + ["ntt_16_64_p2_k2red_ram_sram"])
def test_manifest_macros(generated, design):
    """Grid per bank role (ceil(k/32) columns, ceil(depth/macro depth) rows), counts and areas."""
    m = manifest(design)
    n, k, p = m["n"], m["k"], m["p"]
    roles = {b["role"]: b for b in m["sram"]["banks"]}
    want = {"coefficients": (4 * p, n // (2 * p))}
    if m["twiddles"] == "ram":
        want["twiddles"] = (p, 2 * n)
        if m["arrangement"] in ("shoupbarrett", "gshoup"):
            want["twiddle_companions"] = (p, 2 * n)
    assert set(roles) == set(want)
    total_macros, total_area = 0, 0.0
    for role, (banks, depth) in want.items():
        b = roles[role]
        macro_depth = int(re.search(r"_32x(\d+)_8$", b["macro"]).group(1))
        assert macro_depth == (256 if depth <= 256 else 512), f"{role}: {b['macro']} for depth {depth}"
        assert (b["banks"], b["width"], b["depth"]) == (banks, k, depth)
        assert (b["columns"], b["rows"]) == (math.ceil(k / 32), math.ceil(depth / macro_depth))
        assert b["macros_per_bank"] == b["columns"] * b["rows"] and b["macros"] == banks * b["macros_per_bank"]
        area = b["macros"] * liberty_area(b["macro"])
        assert abs(b["area_um2"] - area) < 0.01, f"{role}: {b['area_um2']} um2, Liberty gives {area}"
        total_macros += b["macros"]
        total_area += area
    assert m["sram"]["macro_count"] == total_macros
    assert abs(m["sram"]["macro_area_um2"] - total_area) < 0.01


@pytest.mark.parametrize("design", ["ntt_16_32_p2_gshoup_sram", "ntt_16_64_p2_k2red_ram_sram"])
def test_fpga_macro_model(generated, design):
    """The FPGA flow's synthesizable stand-in for the macros (flow/fpga.py SRAM_FPGA_MODEL, which
    Yosys maps to block RAM) runs the whole bench on the tile's RTL as the OpenRAM models do."""
    from fpga import sram_fpga_models
    rtl = OUT / design / "rtl" / f"{design}.v"
    work = OUT / design / "fpga_models"
    work.mkdir(exist_ok=True)
    models = sram_fpga_models(design, work, rtl.with_suffix(".json"))
    assert models
    log = OUT / design / "sim_fpgamodel.log"
    run_bench(design, [rtl, *models], kind="fpgamodel", test_module="ntt_bench", manifest=rtl.with_suffix(".json"),
              log_file=log)
    assert re.search(r"TESTS=\d+ PASS=\d+ FAIL=0", log.read_text())
