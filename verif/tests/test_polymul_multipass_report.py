"""The multi-pass engine's Table I report (flow/reports/polymul_multipass.py) on a temporary build/ with a made-up
manifest and harden result: no synthesis, a second. What it pins: the limbs from the set (the single-pass engine's
prime rule), the hierarchical copies and their area, the clock from the critical path, time per product =
max(cycles / f_clk, bytes / B) at both memories, the ratio against the stored CPU figure, the limit named, and a
result of other RTL left out; a synthesis kept in reports/synth/ (flow/reports/synth_kept.py) read where build/ has
none, and never where build/ has other RTL."""
import hashlib
import json

import pytest

import layout
from harden import flow_sha256
from reports import polymul_inputs as pi
from reports import polymul_multipass as pm
from reports import synth_kept

D = "mpoly_8192_x64_b256_l1_s32_p2_t1"


@pytest.fixture
def build(tmp_path, monkeypatch):
    monkeypatch.setattr(layout, "BUILD", tmp_path)
    monkeypatch.setattr(synth_kept, "KEPT_DIR", tmp_path / "kept")
    m = {"design": D, "kind": "multipass_batch", "n": 8192, "limb_bits": 30, "slot_bits": 32, "cycles_per_product": 4400,
         "batch": {"steady_cycles_per_product": 4400}, "model_cycles": [4096, 4096, 4096], "fill_cycles": [300, 100, 304]}
    layout.rtl(D).parent.mkdir(parents=True)
    layout.rtl(D).write_text("module x; endmodule\n")
    layout.manifest(D).write_text(json.dumps(m))
    layout.harden_dir(D).mkdir(parents=True)
    layout.metrics(D).write_text(json.dumps({
        "design": D, "rtl_sha256": hashlib.sha256(layout.rtl(D).read_bytes()).hexdigest(), "flow_sha256": flow_sha256(),
        "design__instance__area": 5.0e6, "critical_path_ns": 10.0, "design__instance__count": 1000, "date": "2026-11-28"}))
    monkeypatch.setattr(pi, "baselines", lambda store, n, logq: {"tfhe_ntt_us": 132.0, "tfhe_ntt_cpu": "test CPU",
                                                                   "tfhe_ntt_extensions": "AVX-512 IFMA"})
    return m


def test_rows(build):
    (d, m), = pm.designs()
    rows = {r["logq"]: r for r in pm.rows_of(d, m, [(8192, 123), (8192, 223), (4096, 62)], None)}
    assert set(rows) == {123, 223}                       # the set of another n is not this design's
    r = rows[123]
    assert r["limbs"] == r["copies"] == 5                # five 30-bit primes make Q >= 2^123 (each just under 2^30)
    assert r["area_mm2"] == pytest.approx(25.0)          # 5 copies x 5 mm2
    assert r["fits_25mm2"]
    assert r["clock_mhz"] == pytest.approx(100.0)
    assert r["engine_us"] == pytest.approx(44.0)         # 4,400 cycles at 100 MHz
    nbytes = 9 * 8192 * 5 * 4
    assert r["bytes_per_product"] == nbytes
    assert r["time_us_hbm2_256"] == pytest.approx(44.0)  # 1.44 us of traffic at 256 GB/s: the engine binds
    assert r["time_us_ddr4_25_6"] == pytest.approx(max(44.0, nbytes / 25.6e9 * 1e6), rel=1e-3)
    assert r["ratio_vs_tfhe_ntt"] == pytest.approx(3.0)
    assert r["limit"] == "cycles at the clock (lanes)"
    assert r["bandwidth_needed_gbs"] == pytest.approx(nbytes / 44.0 / 1e3, rel=1e-3)
    assert r["products_per_s_per_mm2"] == pytest.approx(1e6 / 44.0 / 25.0, abs=0.1)
    big = rows[223]
    assert big["copies"] == 8 and big["area_mm2"] == pytest.approx(40.0) and not big["fits_25mm2"]
    assert big["limit"] == "area"
    assert r["ratio_in_sequence_25mm2"] is None          # within the budget: no projection
    # 8 limbs in sequence through the 5 copies that fit 25 mm2: 2 rounds of 44 us a product
    assert big["ratio_in_sequence_25mm2"] == pytest.approx(132.0 / 88.0)
    assert ("with its limbs in sequence (estimated from this design's area; the _r<rounds> designs are rows of their "
            "own) 5 copies fit 25 mm2, 2 rounds a product: 1.50x") in big["misses"]


def test_sequence_design_rows(build):
    """A design with its limbs in sequence (`_r<rounds>`): L_d its limbs, ceil(L / L_d) copies, its cycles those of
    its rounds items, said in `kind` and `hierarchical`."""
    m = {**build, "limbs": 2, "rounds": 2, "engines": 1, "cycles_per_product": 8800}
    rows = {r["logq"]: r for r in pm.rows_of(D, m, [(8192, 123), (8192, 223)], None)}
    r = rows[123]
    assert r["limbs"] == 5 and r["copies"] == 3 and r["area_mm2"] == pytest.approx(15.0)   # 5 limbs, 2 an engine
    assert r["engine_us"] == pytest.approx(88.0) and r["ratio_vs_tfhe_ntt"] == pytest.approx(1.5)
    assert r["kind"] == "batch, limbs in sequence"
    assert r["hierarchical"].startswith("3 copies of the synthesized 2-limb design (its limbs in sequence, 2 through each of its 1 engine)")
    # The copies run 6 limbs, not the set's 5: no run-time limb count, so the third copy moves both of its limbs' bytes.
    assert r["bytes_per_product"] == 9 * 8192 * 6 * 4
    big = rows[223]                                      # 8 limbs: 4 copies, 20 mm2, within the budget
    assert big["copies"] == 4 and big["fits_25mm2"] and big["ratio_in_sequence_25mm2"] is None


def test_port_bound_named(build):
    m = {**build, "cycles_per_product": 5120}            # above the slowest pass's 4,400: the port's beats
    (r, *_) = pm.rows_of(D, m, [(8192, 123)], None)
    assert r["limit"] == "the engine's AXI port (bus width)"


def test_other_rtl_left_out(build):
    layout.rtl(D).write_text("module y; endmodule\n")   # regenerated since the synthesis
    (d, m), = pm.designs()
    assert pm.rows_of(d, m, [(8192, 123)], None) == []


def test_kept_synthesis_read_on_a_fresh_clone(build):
    """A synthesis read from build/ is kept; with build/ gone (a fresh clone) the same rows come from the kept
    record, and say so; a rerun does not rewrite the record."""
    (d, m), = pm.designs()
    rows = pm.rows_of(d, m, [(8192, 123)], None)
    assert synth_kept.keep(d) and not synth_kept.keep(d)     # written once; the same synthesis is not rewritten
    for p in (layout.manifest(D), layout.metrics(D), layout.rtl(D)):
        p.unlink()
    (d2, m2), = pm.designs()
    assert (d2, m2) == (d, m)
    kept_rows = pm.rows_of(d2, m2, [(8192, 123)], None)
    assert [{k: v for k, v in r.items() if k != "synthesized"} for r in kept_rows] == \
        [{k: v for k, v in r.items() if k != "synthesized"} for r in rows]
    assert "kept in reports/synth/" in kept_rows[0]["synthesized"]
    assert not synth_kept.stale(d)


def test_kept_synthesis_of_rtl_older_than_the_generator(build, tmp_path, monkeypatch):
    """A synthesis that outlasted a generator change (a source newer than its RTL) is kept without a generator hash,
    and its rows say the generator changed since."""
    import os
    gen = tmp_path / "gen"
    gen.mkdir()
    src = gen / "Engine.scala"
    src.write_text("class Engine\n")
    t = layout.rtl(D).stat().st_mtime
    os.utime(src, (t + 60, t + 60))
    monkeypatch.setattr(synth_kept, "GENERATOR", gen)
    assert synth_kept.keep(D)
    rec = synth_kept.kept(D)
    assert rec["kept"]["generator_sha256"] is None and rec["kept"]["generator_newer_than_rtl"] == ["Engine.scala"]
    assert synth_kept.note(rec).endswith("the generator changed since")


def test_kept_synthesis_of_other_rtl_left_out(build):
    """build/ regenerated with other RTL: neither its own older synthesis nor the kept one is used, and the
    design is listed as stale."""
    synth_kept.keep(D)
    layout.rtl(D).write_text("module y; endmodule\n")
    (d, m), = pm.designs()
    assert pm.rows_of(d, m, [(8192, 123)], None) == []
    assert synth_kept.stale(d)


def test_loaded_design_rows(build):
    """A design with its primes loaded at run time (`_d1`, manifest `loaded`): as many copies as fit 25 mm2 (at most
    L), each running ceil(L / copies) limbs one after another; cycles that many limb items, bytes L limbs' (passes
    and constants image)."""
    m = {**build, "e": 8, "batch": {"steady_cycles_per_item": 4500}, "loaded": {"bytes_per_limb": 300000}}
    rows = {r["logq"]: r for r in pm.rows_of(D, m, [(8192, 123), (8192, 223)], None)}
    r = rows[123]                                        # 5 limbs; 5 copies of 5 mm2 fit: one limb each
    assert r["copies"] == 5 and r["area_mm2"] == pytest.approx(25.0) and r["fits_25mm2"]
    assert r["cycles_per_product"] == 4500 and r["engine_us"] == pytest.approx(45.0)
    assert r["bytes_per_product"] == 5 * 300000
    assert r["kind"] == "batch, primes loaded at run time"
    assert r["hierarchical"].startswith("5 copies of the synthesized design, a port each, 1 limb each in sequence")
    assert r["products_at_once"] == 1                    # whole products on each copy are no faster: 5 x 45 / 5 us
    big = rows[223]   # 8 limbs, 5 copies: split, 2 rounds (90 us); whole products, 8 x 45 us over 5 at once (72 us)
    assert big["copies"] == 5 and big["fits_25mm2"] and big["products_at_once"] == 5
    assert big["cycles_per_product"] == 8 * 4500 and big["engine_us"] == pytest.approx(72.0)
    assert big["bytes_per_product"] == 8 * 300000
    assert big["ratio_vs_tfhe_ntt"] == pytest.approx(132.0 / 72.0, rel=1e-3)
    assert big["limit"] == "cycles at the clock (lanes), 5 products at once in 25 mm2"
    # 132 / 72 = 1.83x, 1.64x short of 3x: 9 copies would have to fit (2.78 mm2 each), or a 6.10 ns clock
    assert big["misses"] == ("1.83x is 1.64x short of 3.0x: it takes 1.64x the products per second: 9 copies in 25 mm2 "
                             "where 5 fit (each at most 2.78 mm2, measured 5.00), or a tt clock of 6.11 ns (measured 10.00 ns)")
    assert big["hierarchical"].startswith("5 products at once, each on a copy of the synthesized design, a port each, "
                                          "its 8 limbs in sequence")


def test_products_at_once(build, monkeypatch):
    """A product's copies in at most half of 25 mm2: floor(25 / their area) groups run that many products at once, the
    time per product the engine's over the groups (the bytes of one product over B still bound it), the bandwidth
    needed times the groups, the area the groups'. 2 limbs of 5 mm2 (10 mm2 a product): 2 products at once."""
    (d, m), = pm.designs()
    r, = pm.rows_of(d, m, [(8192, 58)], None)            # two 30-bit primes make Q >= 2^58
    assert r["limbs"] == 2 and r["products_at_once"] == 2 and r["copies"] == 4
    assert r["area_mm2"] == pytest.approx(20.0)
    assert r["engine_us"] == pytest.approx(22.0)         # 4,400 cycles at 100 MHz, two products at once
    assert r["time_us_hbm2_256"] == pytest.approx(22.0)
    nbytes = 9 * 8192 * 2 * 4
    assert r["bytes_per_product"] == nbytes
    assert r["bandwidth_needed_gbs"] == pytest.approx(nbytes / 22.0 / 1e3, rel=1e-3)
    assert r["ratio_vs_tfhe_ntt"] == pytest.approx(6.0)
    assert r["limit"] == "cycles at the clock (lanes), 2 products at once in 25 mm2"
    assert r["hierarchical"].startswith("2 products at once, each on 2 copies of the synthesized 1-limb design")
