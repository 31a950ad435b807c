"""The streaming engine's best-design report and its exploration's plan (flow/reports/polymul_best.py,
flow/dse_polymul.py; docs/polymul_dse.md) on a temporary build/ and reports/ with made-up manifests,
harden results, software baselines and today's tile table: no synthesis, no generator (the registry's
answers are monkeypatched), a few seconds.

What they pin: reports/polymul_best.csv's columns and its figures (clock from the critical path,
throughput from clock and cycles, latency from latency_cycles + cycles, area = cells + macros), the
25 mm2 filter, a missing baseline shown as absent, the goal check's pass/miss arithmetic, a result of
other RTL left out, and the plan's handling of refused names and of macros over the budget.
"""
import csv
import hashlib
import json

import pytest

import dse_polymul
import layout
import registry
from harden import flow_sha256
from reports import common, cpu_strongest
from reports import polymul_best as pb

TILE_CSV = """n,logq,design,asic
1024,19,polymul_1024_19,

design,n,logq,p,stdcell_um2,macro_um2,macros,critical_path_ns,cycles,cycles_with_streams,us_per_product,stale
polymul_1024_19,1024,19,2,200000.0,3800000.0,16,9.4,8224,11301,100.0,False
polymul_1024_19_p8,1024,19,8,1000000.0,15000000.0,64,15.7,2080,5157,80.0,False
polymul_1024_19_p16,1024,19,16,2000000.0,30000000.0,128,15.7,1040,4117,70.0,False
polymul_2048_33,2048,33,2,400000.0,13600000.0,48,10.9,17952,24101,250.0,False
"""


def manifest(d, n, logq, lanes, w, limbs, mul="fast", store="sram", macro_um2=0.0, latency=675, cls="any", primes=None):
    sram = {"macro_models": ["sky130_sram_1kbyte_1rw1r_32x256_8"], "macro_count": 4, "macro_area_um2": macro_um2} if macro_um2 else None
    return {"design": d, "kind": "polymul_stream", "family": "polymul", "n": n, "logq": logq, "lanes": lanes,
            "limb_bits": w, "limbs": limbs, "cycles_per_product": n // lanes, "latency_cycles": latency,
            "prime_class": cls, "primes": [str(q) for q in (primes or [(1 << w) - 1 - i for i in range(limbs)])],
            "registry": {"design": d, "params": {"n": n, "logq": logq, "lanes": lanes, "limb_bits": w, "limbs": limbs,
                                                 "mul": mul, "store": store, "prime_class": cls}},
            "storage": {"store": store, "delay_line_bits": 3 * n * w * limbs, "flip_flop_line_bits": 1000,
                        "macro_count": 4 if macro_um2 else 0, "macro_area_um2": macro_um2},
            "sram": sram,
            "ports": [{"name": "in_a", "dir": "in", "width": limbs * lanes * w}, {"name": "in_b", "dir": "in", "width": limbs * lanes * w},
                      {"name": "out_c", "dir": "out", "width": limbs * lanes * w}]}


def tile_manifest(d, n, units, macro_um2):
    """A banked tile's manifest (reports.polymul_arch reads its macros and command cycles)."""
    return {"design": d, "kind": "ntt", "polymul": True, "n": n, "p": units,
            "sram": {"macro_count": 8 * units, "macro_area_um2": macro_um2},
            "cycles": {"LOAD": n + 1, "UNLOAD": n + 3, "NTT": 5 * n // units, "INTT": 5 * n // units, "PWMUL": n // units + 8}}


def add_tiles(build, n=1024, logq=19, macro_per_unit_um2=1.9e6):
    """The tile at P = 1..32 (polymul_<n>_<logq>[_p<P>]; P = 2 is the name without _p)."""
    for u in (1, 2, 4, 8, 16, 32):
        d = f"polymul_{n}_{logq}" + ("" if u == 2 else f"_p{u}")
        if not layout.manifest(d).exists():
            add_design(build, tile_manifest(d, n, u, macro_per_unit_um2 * u))


# The tile's names at (1024, 19), as add_tiles writes them (the sweep's tile step asks for these).
TILES_1024_19 = {"polymul_1024_19" + ("" if u == 2 else f"_p{u}") for u in (1, 2, 4, 8, 16, 32)}


def add_design(build, mf, std_um2=None, cp_ns=None, rtl_text=None, wrong_rtl=False):
    d = mf["design"]
    layout.rtl_dir(d).mkdir(parents=True)
    layout.manifest(d).write_text(json.dumps(mf))
    layout.rtl(d).write_text(rtl_text or f"module {d}(); endmodule\n")
    if std_um2 is not None:
        add_metrics(d, mf, std_um2, cp_ns, rtl="0" * 64 if wrong_rtl else None)


def add_metrics(d, mf, std_um2, cp_ns, rtl=None):
    """build/<d>/harden/metrics.json as flow/harden.py writes it (the fields the reports read)."""
    layout.harden_dir(d).mkdir(parents=True, exist_ok=True)
    sha = rtl or hashlib.sha256(layout.rtl(d).read_bytes()).hexdigest()
    m = {"design": d, "rtl_sha256": sha, "flow_sha256": flow_sha256(),
         "design__instance__area": std_um2, "critical_path_ns": cp_ns, "latency": mf["latency_cycles"],
         "critical_path_endpoints": {"start": "a_reg", "end": "b_reg"}, "tools": {"LibreLane": "3.0.17"},
         "flow": "LibreLane test", "date": "2026-11-25 12:00 UTC"}
    if mf["sram"]:
        m.update(macro_area_um2=mf["sram"]["macro_area_um2"], macro_count=4, macro_models=mf["sram"]["macro_models"])
    layout.metrics(d).write_text(json.dumps(m))


CPU = {"cpu_model": "test CPU", "cpu_extensions": "AVX-512 IFMA", "cpu_vector_flags": ["avx2", "avx512f", "avx512ifma"]}


def sw_results(tfhe_2048=True, cpu=CPU, date="2026-11-25T00:00:00+00:00"):
    """A build/sw_baseline/results.json as make sw-baseline writes it (the fields the store keeps)."""
    def lib(full, pre=None, status="ok"):
        e = {"status": status, "version": "0.7.1", "full_min_us": full, "full_median_us": full * 1.1 if full else None,
             "pre_min_us": pre, "pre_median_us": pre, "L": 1, "check": {"passed": True, "reference": "schoolbook", "seed": 1}}
        return {**e, **cpu} if status == "ok" else {"status": status, "reason": "test"}
    sets = []
    for (n, logq), t in (((1024, 19), 9.0), ((2048, 33), 19.0), ((4096, 62), 40.0)):
        # at (2048, 33) an entry that is not "ok" (a stale program's): its figure must not be used
        tf = lib(t, t * 0.7) if (n != 2048 or tfhe_2048) else lib(t, t * 0.7, status="stale")
        sets.append({"n": n, "logq": logq, "load_average": [0.5, 0.4, 0.3],
                     "libraries": {"tfhe_ntt": tf, "flint3": lib(50.0 * n / 1024), "ntl": lib(200.0 * n / 1024),
                                   "flint2": lib(48.0 * n / 1024)}})
    return {"environment": {**cpu, "date": date, "pinned_cpu": 1}, "reps": 7, "kernel_reps": 2000, "sets": sets}


def seed_store(results):
    """What make sw-baseline does after its run: merge the results into the store of strongest figures."""
    return cpu_strongest.merge_file(results, cpu_strongest.STORE)


@pytest.fixture
def tree(tmp_path, monkeypatch):
    build, reports = tmp_path / "build", tmp_path / "reports"
    build.mkdir()
    reports.mkdir()
    monkeypatch.setattr(layout, "BUILD", build)
    monkeypatch.setattr(common, "REPORTS", reports)
    monkeypatch.setattr(common, "LOOKED_UP", {})
    monkeypatch.setattr(common, "PARTIAL", False)
    (reports / "polymul_table.csv").write_text(TILE_CSV)
    (build / "sw_baseline").mkdir()
    (build / "sw_baseline" / "results.json").write_text(json.dumps(sw_results(tfhe_2048=False)))
    # the reports read the store, never this machine's results.json alone: a store of its own per test
    monkeypatch.setattr(cpu_strongest, "STORE", tmp_path / "data" / "baselines" / "cpu_strongest.json")
    seed_store(sw_results(tfhe_2048=False))
    # (1024, 19): P = 4 within, P = 8 within and faster (the best), P = 16 faster still but 30 mm2
    add_design(build, manifest("polymul_1024_19_s4_w20", 1024, 19, 4, 20, 1), std_um2=3e6, cp_ns=2.0)
    add_design(build, manifest("polymul_1024_19_s8_w20", 1024, 19, 8, 20, 1, macro_um2=5e6), std_um2=10e6, cp_ns=2.5)
    add_design(build, manifest("polymul_1024_19_s16_w20", 1024, 19, 16, 20, 1, macro_um2=10e6), std_um2=20e6, cp_ns=2.5)
    # the default name of the P = 4 point, never hardened: the same circuit, shown once
    add_design(build, manifest("polymul_1024_19_s4", 1024, 19, 4, 20, 1))
    # (2048, 33): one point, no tfhe-ntt figure in the baselines
    add_design(build, manifest("polymul_2048_33_s4_w18", 2048, 33, 4, 18, 2, latency=1500), std_um2=8e6, cp_ns=4.0)
    # (4096, 62): a result of other RTL only (not used), and a point whose macros alone exceed 25 mm2
    add_design(build, manifest("polymul_4096_62_s4_w22", 4096, 62, 4, 22, 3), std_um2=9e6, cp_ns=3.0, wrong_rtl=True)
    add_design(build, manifest("polymul_4096_62_s1_w22", 4096, 62, 1, 22, 3, macro_um2=26e6))
    # a larger set: generated only
    add_design(build, manifest("polymul_16384_243_s4_w28", 16384, 243, 4, 28, 9, macro_um2=40e6))
    return build, reports


def read_csv(reports):
    with open(reports / "polymul_best.csv") as f:
        r = csv.DictReader(f)
        return r.fieldnames, {(int(x["n"]), int(x["logq"])): x for x in r}


def test_best_csv_columns_and_values(tree):
    build, reports = tree
    pb.write_reports()
    fields, rows = read_csv(reports)
    assert fields == ["n", "logq", "design", "area_mm2", "macro_mm2", "clock_mhz", "cycles_per_product", "throughput_per_s",
                      "latency_us", "tfhe_ntt_us", "tfhe_ntt_cpu", "tfhe_ntt_extensions", "flint3_us", "ntl_us",
                      "fpga_paper_us", "ratio_vs_tfhe_ntt", "engine", "hierarchical", "time_us_hbm2_256",
                      "bandwidth_needed_gbs", "fits_25mm2", "limit", "source", "layout_status", "post_route_cp_tt_ns"]
    r = rows[(1024, 19)]
    assert r["engine"] == "single-pass" and r["fits_25mm2"] == "True" and r["source"].startswith("synthesized")
    assert float(r["time_us_hbm2_256"]) == pytest.approx(0.32)          # its streams' 7,680 B take 0.03 us at 256 GB/s
    assert float(r["bandwidth_needed_gbs"]) == pytest.approx(3 * 1024 * 20 / 8 / 0.32 / 1e3, abs=0.01)
    assert (r["layout_status"], r["post_route_cp_tt_ns"]) == ("no layout run", "")
    # P = 16 is faster but 30 mm2: the best within 25 mm2 is P = 8 (10 mm2 of cells + 5 of macros)
    assert r["design"] == "polymul_1024_19_s8_w20"
    assert float(r["area_mm2"]) == pytest.approx(15.0) and float(r["macro_mm2"]) == pytest.approx(5.0)
    assert float(r["clock_mhz"]) == pytest.approx(400.0)
    assert int(r["cycles_per_product"]) == 128
    assert int(r["throughput_per_s"]) == 3_125_000                      # 400 MHz / 128 cycles
    assert float(r["latency_us"]) == pytest.approx((675 + 128) * 2.5 / 1000, abs=1e-4)
    assert float(r["tfhe_ntt_us"]) == 9.0 and float(r["flint3_us"]) == 50.0 and float(r["ntl_us"]) == 200.0
    assert (r["tfhe_ntt_cpu"], r["tfhe_ntt_extensions"]) == ("test CPU", "AVX-512 IFMA")
    assert float(r["fpga_paper_us"]) == pytest.approx(7390 / 299, abs=1e-3)  # Table IV: latency / fmax
    assert float(r["ratio_vs_tfhe_ntt"]) == pytest.approx(9.0 / 0.32, abs=1e-3)
    assert set(rows) >= {(1024, 19), (2048, 33), (4096, 62), (16384, 243)}


MP = "mpoly_16384_x64_b256_l1_s32_p1_t1"


def add_multipass(build, std_um2=2.0e6, cp_ns=10.0, cycles=17000, d=MP, limb_bits=30, fill=(300, 600, 500)):
    """A one-limb multi-pass batch design at n = 16384 (the fields polymul_multipass reads)."""
    m = {"design": d, "kind": "multipass_batch", "n": 16384, "limb_bits": limb_bits, "slot_bits": 32, "cycles_per_product": cycles,
         "batch": {"steady_cycles_per_product": cycles}, "model_cycles": [16384] * 3, "fill_cycles": list(fill)}
    layout.rtl_dir(d).mkdir(parents=True)
    layout.manifest(d).write_text(json.dumps(m))
    layout.rtl(d).write_text("module m; endmodule\n")
    layout.harden_dir(d).mkdir(parents=True)
    layout.metrics(d).write_text(json.dumps({
        "design": d, "rtl_sha256": hashlib.sha256(layout.rtl(d).read_bytes()).hexdigest(), "flow_sha256": flow_sha256(),
        "design__instance__area": std_um2, "critical_path_ns": cp_ns, "design__instance__count": 1000, "date": "2026-11-29"}))


def test_multipass_row_where_no_single_pass_design(tree, monkeypatch):
    """(16384, 243) has only a planned single-pass design: the multi-pass one is its row, L copies, hierarchical."""
    build, reports = tree
    add_multipass(build)
    monkeypatch.setattr(pb, "paper_sets", lambda path=None: {(1024, 19), (16384, 243)})
    pb.write_reports()
    _, rows = read_csv(reports)
    r = rows[(16384, 243)]
    assert r["design"] == MP and r["engine"] == "multi-pass (batch)"
    assert "copies of the synthesized 1-limb design" in r["hierarchical"]
    L = int(r["hierarchical"].split()[0])
    assert float(r["area_mm2"]) == pytest.approx(2.0 * L)
    assert float(r["time_us_hbm2_256"]) == pytest.approx(170.0)        # 17,000 cycles at 100 MHz; traffic below it
    assert r["tfhe_ntt_us"] == ""                                      # no stored figure at this set: absent
    assert r["ratio_vs_tfhe_ntt"] == ""
    assert r["fits_25mm2"] == str(2.0 * L <= 25)


def test_previous_single_pass_row_kept_when_not_in_this_build(tree):
    """A row synthesized on another machine survives a run here; its ratio follows today's strongest figure."""
    build, reports = tree
    pb.write_reports()
    fields, rows = read_csv(reports)
    prev = dict(rows[(1024, 19)])
    prev.update(design="polymul_1024_19_s32_w20_elsewhere", throughput_per_s="5000000", area_mm2="20.0")
    with open(reports / "polymul_best.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows([prev])
    pb.write_reports()
    _, rows = read_csv(reports)
    r = rows[(1024, 19)]
    assert r["design"] == "polymul_1024_19_s32_w20_elsewhere"          # 5.0 M products/s beats this build's 3.125 M
    assert "kept from the previous" in r["source"]
    assert float(r["ratio_vs_tfhe_ntt"]) == pytest.approx(9.0 * 5.0)   # today's tfhe-ntt 9.0 us x 5 M/s


def test_budget_filter_and_absent(tree):
    build, reports = tree
    pb.write_reports()
    _, rows = read_csv(reports)
    # (2048, 33): the tfhe-ntt entry is not "ok": empty fields, no ratio; the others are there
    r = rows[(2048, 33)]
    assert r["design"] == "polymul_2048_33_s4_w18" and r["tfhe_ntt_us"] == "" and r["ratio_vs_tfhe_ntt"] == ""
    assert r["tfhe_ntt_cpu"] == r["tfhe_ntt_extensions"] == ""       # absent: no CPU named either
    assert float(r["flint3_us"]) == 100.0
    # (4096, 62): only a result of other RTL: no design, no figures of ours; baselines still there
    r = rows[(4096, 62)]
    assert r["design"] == "" and r["area_mm2"] == "" and r["throughput_per_s"] == "" and float(r["tfhe_ntt_us"]) == 40.0
    md = (reports / "polymul_dse.md").read_text()
    assert "| `polymul_1024_19_s16_w20` | 16 |" in md and "| 30.000 | 10.000 |" in md
    row16 = next(l for l in md.splitlines() if l.startswith("| `polymul_1024_19_s16_w20`"))
    assert "| no | yes | measured |" in row16          # outside 25 mm2, yet on the Pareto front (the fastest)
    assert "(= polymul_1024_19_s4)" in md              # two names, one circuit: shown once
    assert "| stale |" in md and "no: macros alone" in md
    assert "storage alone > 25 mm2" in md and "| **yes** |" in md  # the larger set's macros exceed the budget
    # the larger set, not hardened: its engine estimated at the clock of the measured engines with macros
    # (s8 and s16: 2.5 ns, 400 MHz), n/P = 4096 cycles: 97,656 products/s; 3 x 16384 x 9 x 28 bits each,
    # 1,209.6 Gbit/s; the engine's 10.24 us exceed the 6.05 us the 256 GB/s memory takes
    larger = md.split("## The larger sets")[1]
    big = next(l for l in larger.splitlines() if l.startswith("| `polymul_16384_243_s4_w28`"))
    assert "| >= 40.00 (macros) | 4,096 | ~97,656 | 12,386,304 | ~1,209.6 | ~10.24 | engine (estimated clock) |" in big
    assert (reports / "polymul_dse_1024_19.png").exists() and not (reports / "polymul_dse_4096_62.png").exists()


def test_no_baselines_at_all(tree):
    build, reports = tree
    cpu_strongest.STORE.unlink()
    pb.write_reports()
    _, rows = read_csv(reports)
    r = rows[(1024, 19)]
    assert r["tfhe_ntt_us"] == r["flint3_us"] == r["ntl_us"] == r["ratio_vs_tfhe_ntt"] == ""
    assert r["tfhe_ntt_cpu"] == r["tfhe_ntt_extensions"] == ""
    assert r["design"] == "polymul_1024_19_s8_w20"
    assert "No store of CPU baselines" in (reports / "polymul_dse.md").read_text()


def test_ratio_uses_the_strongest_stored_entry(tree):
    """A later run on a core with AVX2 only (slower tfhe-ntt, faster FLINT 3) is merged as make sw-baseline
    does and becomes build/sw_baseline/results.json: the CSV's tfhe-ntt figure, CPU and extensions are
    still the stored AVX-512 IFMA entry's, the ratio uses it, and the reports name that entry; FLINT 3 takes
    the faster AVX2 figure. A set the store lacks stays absent."""
    build, reports = tree
    avx2 = {"cpu_model": "slow CPU", "cpu_extensions": "AVX2", "cpu_vector_flags": ["avx2"]}
    weaker = sw_results(cpu=avx2, date="2026-11-28T00:00:00+00:00")
    for st in weaker["sets"]:
        libs = st["libraries"]
        libs["tfhe_ntt"].update(full_min_us=3 * libs["tfhe_ntt"]["full_min_us"])
        libs["flint3"].update(full_min_us=0.5 * libs["flint3"]["full_min_us"])
    (build / "sw_baseline" / "results.json").write_text(json.dumps(weaker))
    lines = seed_store(weaker)
    assert any(l.startswith("1024_19 tfhe-ntt: kept 9.000 µs (AVX-512 IFMA, test CPU, 2026-11-25)") for l in lines)
    pb.write_reports()
    _, rows = read_csv(reports)
    r = rows[(1024, 19)]
    assert (float(r["tfhe_ntt_us"]), r["tfhe_ntt_cpu"], r["tfhe_ntt_extensions"]) == (9.0, "test CPU", "AVX-512 IFMA")
    assert float(r["ratio_vs_tfhe_ntt"]) == pytest.approx(9.0 / 0.32, abs=1e-3)
    assert float(r["flint3_us"]) == 25.0
    # (2048, 33): the fixture's run had no tfhe-ntt figure there; this run's (57 us, AVX2) is the first: stored
    r = rows[(2048, 33)]
    assert (float(r["tfhe_ntt_us"]), r["tfhe_ntt_cpu"], r["tfhe_ntt_extensions"]) == (57.0, "slow CPU", "AVX2")
    md = (reports / "polymul_dse.md").read_text()
    best = next(l for l in md.splitlines() if l.startswith("| 1024 | 19 | `polymul_1024_19_s8_w20`"))
    assert "| 9.000 | AVX-512 IFMA, test CPU, 2026-11-25 |" in best
    assert "(min; the strongest stored entry: AVX-512 IFMA, test CPU, 2026-11-25)" in md
    where = md.split("## Where the baselines come from")[1]
    assert "data/baselines/cpu_strongest.json" in where and "replaces an entry only by a faster one" in where
    row = next(l for l in where.splitlines() if l.startswith("| 1024 | 19 |"))
    assert "| AVX-512 IFMA, test CPU, 2026-11-25 | 0.50 |" in row and row.endswith("| AVX2, slow CPU, 2026-11-28; "
                                                                                  "AVX-512 IFMA, test CPU, 2026-11-25 |")
    # a set the store has never seen: every baseline column empty, no CPU named
    assert pb.baselines(cpu_strongest.load(), 8192, 123)["tfhe_ntt_cpu"] is None
    assert pb.best_row({"n": 8192, "logq": 123, "best": None, "paper": None,
                        "base": pb.baselines(cpu_strongest.load(), 8192, 123)})["tfhe_ntt_extensions"] is None


def test_goal_check_arithmetic(tree):
    data = pb.collect()
    s = data["sets"][(1024, 19)]
    g = {x["target"]: x for x in pb.goal_check(s)}
    # ours: 0.32 us per product, 15 mm2 -> 4.8 mm2 us
    tf = pb.goal_check(s)[0]
    assert tf["target"] == 3.0 and tf["value"] == pytest.approx(9.0 / 0.32) and tf["ok"] is True and tf["short_by"] is None
    fpga = pb.goal_check(s)[1]
    assert fpga["value"] == pytest.approx(7390 / 299 / 0.32) and fpga["ok"] is True
    at = pb.goal_check(s)[2]
    # today's tile: the largest P within 25 mm2 is P = 8 (16 mm2 x 80 us); P = 16 (32 mm2) is outside
    assert s["tile"]["design"] == "polymul_1024_19_p8"
    assert at["value"] == pytest.approx(16.0 * 80.0 / (15.0 * 0.32)) and at["ok"] is True
    assert g[10.0]["ok"] is True
    # a miss: slow the best down 40x; the ratio and the shortfall follow
    b = dict(s["best"], us_per_product=12.8, area_time=15.0 * 12.8)
    miss = pb.goal_check(dict(s, best=b))
    assert miss[0]["ok"] is False and miss[0]["value"] == pytest.approx(9.0 / 12.8)
    assert miss[0]["short_by"] == pytest.approx(3.0 / (9.0 / 12.8))
    assert miss[2]["ok"] is False and miss[2]["short_by"] == pytest.approx(10.0 / (1280.0 / (15.0 * 12.8)))
    # (2048, 33) has no tfhe-ntt figure: that goal is absent, not passed or missed
    g2 = pb.goal_check(data["sets"][(2048, 33)])
    assert g2[0]["value"] is None and g2[0]["ok"] is None
    md_lines = (pb.write_reports(data), (common.REPORTS / "polymul_dse.md").read_text())[1]
    assert "-> **pass**" in md_lines and "-> absent" in md_lines
    # the measured cost of doubling the lanes: s4_w20 (3 mm2 of cells) -> s8_w20 (10 mm2) at (1024, 19)
    growth = pb.lane_growth(data["sets"], 4)
    assert [(a["design"], c["design"]) for a, c, _ in growth] == [("polymul_1024_19_s4_w20", "polymul_1024_19_s8_w20")]
    assert growth[0][2] == pytest.approx(10.0 / 3.0) and pb.lane_growth(data["sets"], 2) == []


def test_polymul_table_opens_with_the_best_table(tree):
    lines = pb.best_section()
    assert lines[0].startswith("## The best engine per set, single-pass or multi-pass")
    head = next(i for i, l in enumerate(lines) if l.startswith("| n | log q | design |"))
    assert lines[head + 2].startswith("| 1024 | 19 | `polymul_1024_19_s8_w20` | single-pass | 15.000 | yes | 400.0 | 128 | 3,125,000 |")


def test_plan_refusals_and_macro_skip(tree, monkeypatch):
    build, _ = tree
    asked = []

    def describe_many(names):
        asked.extend(names)
        out = {}
        for n in names:
            if n in ("polymul_4096_62_s4", "polymul_4096_62_s1"):  # the probes of P0 = 4 and 1
                out[n] = {"design": n, "params": {"limb_bits": 22, "limbs": 3}}
            elif "_w21" in n:
                out[n] = {"error": f"'{n}': limb width w = 21: only 2 primes q = 1 mod 8192 have exactly 21 bits; "
                                   "polymul_<n>_<logq>_s<P>[_w<w>] (streaming RNS engine ...)"}
            else:
                out[n] = {"design": n, "params": {}}
        return out
    monkeypatch.setattr(registry, "describe_many", describe_many)
    # the fixture's polymul_4096_62_s1_w22 (generated) has macros of 26 mm2
    out, rec = [], {"points": {}, "log": {}, "runs": []}
    s = dse_polymul.SetSweep(4096, 62, "plan", rec=rec, out=out.append, budget=[3])
    s.sweep()
    text = "\n".join(out)
    # the widths: default 22, one limb fewer (32), one more (17), one bit narrower (21: refused)
    assert dse_polymul.width_candidates(62, 22, 3) == [22, 32, 17, 21]
    assert "polymul_4096_62_s4_w21: refused by the registry: 'polymul_4096_62_s4_w21': limb width w = 21" in text
    assert "(streaming RNS engine" not in text                            # the grammar is cut off
    assert rec["points"]["polymul_4096_62_s4_w21"]["status"] == "refused"
    assert "polymul_4096_62_s4_w21: to run" not in text
    assert "polymul_4096_62_s1_w22: skipped: macros alone 26.00 mm2 > 25 mm2 (manifest)" in text
    assert rec["points"]["polymul_4096_62_s1_w22"]["status"] == "skipped"
    # --max-points 3: three points to run, the rest capped; nothing ran, nothing was generated
    assert text.count(": to run") == 3 and "not run: --max-points reached" in text
    assert not layout.rtl_dir("polymul_4096_62_s4_w32").exists()
    assert [l.split(":")[0] for l in s.log] == ["4096_62"] * 8  # six stream steps, the tile and the multi-pass engine
    assert [l.split(": ")[1] for l in s.log] == ["width", "mul", "class", "store", "lanes", "store2", "tile", "multipass"]
    # --start-lanes 1: steps 1-4 at P = 1 (the width step's points are _s1_)
    out1 = []
    dse_polymul.SetSweep(4096, 62, "plan", rec={"points": {}, "log": {}, "runs": []}, out=out1.append, budget=[0],
                         start_lanes=1).sweep()
    assert out1[0].startswith("(4096, 62): start at P = 1,")
    assert "polymul_4096_62_s1_w21: refused by the registry" in "\n".join(out1)
    with pytest.raises(SystemExit):
        dse_polymul.main(["--start-lanes", "3", "--plan"])


def test_names_and_sets():
    assert dse_polymul.name(1024, 19, 8, 20) == "polymul_1024_19_s8_w20"
    assert dse_polymul.name(2048, 33, 4, 18, "paper", "ff") == "polymul_2048_33_s4_w18_mpaper_rff"
    assert dse_polymul.name(4096, 62, 1, 32, cls="proth2l") == "polymul_4096_62_s1_w32_cproth2l"
    assert dse_polymul.name(4096, 62, 1, 32, cls="any") == "polymul_4096_62_s1_w32"
    assert dse_polymul.width_candidates(19, 20, 1) == [20, 16, 19]
    assert dse_polymul.width_candidates(33, 18, 2) == [18, 34, 16, 17]
    a = dse_polymul.argparse.Namespace(sets="1024_19,4096_62", n=None, logq=None)
    assert dse_polymul.parse_sets(a) == [(1024, 19), (4096, 62)]
    a = dse_polymul.argparse.Namespace(sets="", n="1024,2048", logq="19,33")
    assert dse_polymul.parse_sets(a) == [(1024, 19), (2048, 33)]
    with pytest.raises(SystemExit):
        dse_polymul.parse_sets(dse_polymul.argparse.Namespace(sets="", n="1024", logq="19,33"))


# The (1024, 19) designs the tree fixture builds (the sweep test removes them to run its own).
FIXTURE_1024_19 = {"polymul_1024_19_s4_w20", "polymul_1024_19_s8_w20", "polymul_1024_19_s16_w20", "polymul_1024_19_s4"}


def test_sweep_descends_prunes_and_records_failures(tree, monkeypatch):
    """The run mode on a made-up flow: generation writes manifests, the runner writes metrics with
    area P * L * w^2 * 1e4 um2 (P = 8 at w = 20 is 32 mm2) and fails one point."""
    import re

    import dse
    build, _ = tree
    fixtures = {p.name for p in build.iterdir()} - {"sw_baseline", "dse"}  # the tree's fixture designs
    for d in [x for x in fixtures if x in FIXTURE_1024_19]:
        import shutil
        shutil.rmtree(build / d)
    monkeypatch.setattr(registry, "describe_many",
                        lambda names: {n: {"design": n, "params": {"limb_bits": 20, "limbs": 1}} for n in names})

    def parse(d):
        m = re.fullmatch(r"polymul_(\d+)_(\d+)_s(\d+)_w(\d+)(_mpaper)?(_rff)?(?:_c(\w+))?", d)
        n, logq, P, w = map(int, m.groups()[:4])
        return n, logq, P, w, -(-logq // (w - 1)), "paper" if m.group(5) else "fast", "ff" if m.group(6) else "sram", m.group(7) or "any"

    def generate(designs):
        for d in designs:
            if d in TILES_1024_19:  # architecture (b): the tile at P = 1..32
                add_tiles(build)
                continue
            n, logq, P, w, L, mul, store, cls = parse(d)
            # the prime classes: proth's largest primes are any's (the same circuit), the l forms' are not
            primes = [(1 << w) - 3 - 2 * i for i in range(L)] if cls in ("proth2l", "proth3l") else None
            if not layout.manifest(d).exists():
                add_design(build, manifest(d, n, logq, P, w, L, mul, store, macro_um2=3e6 if P == 1 and store == "sram" else 0.0,
                                           cls=cls, primes=primes))
        return []
    monkeypatch.setattr(dse, "generate", generate)
    failing = "polymul_1024_19_s2_w20"

    class Runner:
        ran = []

        def run(self, designs, rerun):
            out = {}
            for d in designs:
                self.ran.append(d)
                if d == failing:
                    out[d] = {"design": d, "ok": False, "wall_s": 1.0, "tail": "flow output\nerror: synthesis ran out of memory\n"}
                    continue
                n, logq, P, w, L, mul, store, cls = parse(d)
                mf = json.loads(layout.manifest(d).read_text())
                add_metrics(d, mf, P * L * w * w * 1e4 * (1.0 if cls == "any" else 1.05), 3.0 if mul == "paper" else 2.0)
                out[d] = {"design": d, "ok": True, "wall_s": 1.0, "tail": ""}
            return out
    # an earlier result of the failing point (older RTL): it stays where it is
    generate([failing])
    add_metrics(failing, json.loads(layout.manifest(failing).read_text()), 1e6, 2.0, rtl="0" * 64)
    before = layout.metrics(failing).read_text()
    out, rec = [], {"points": {}, "log": {}, "runs": []}
    s = dse_polymul.SetSweep(1024, 19, "run", runner=Runner(), rec=rec, out=out.append, jobs=1, engines=("single",))
    cur = s.sweep()
    text = "\n".join(out)
    # width: w = 19 (2 limbs, 28.9 mm2) is over budget, w = 16 (2 limbs) costs more area-time: w = 20 stays
    assert "best polymul_1024_19_s4_w20" in s.log[0]
    assert "best polymul_1024_19_s4_w20" in s.log[1]                       # _mpaper is slower
    # the prime class: proth's primes are any's (pruned, the same circuit); the l forms ran and cost more
    assert "best polymul_1024_19_s4_w20" in s.log[2] and s.log[2].startswith("1024_19: class:")
    assert rec["points"]["polymul_1024_19_s4_w20_cproth"]["status"] == "pruned"
    assert "same circuit as `polymul_1024_19_s4_w20`" in rec["points"]["polymul_1024_19_s4_w20_cproth"]["why"]
    assert {"polymul_1024_19_s4_w20_cproth2l", "polymul_1024_19_s4_w20_cproth3l"} <= set(Runner.ran)
    assert rec["points"]["polymul_1024_19_s4_w20_rff"]["status"] == "pruned"   # no macro at P = 4: the same circuit
    # lanes, one wave at a time: P = 8 measures 32 mm2, so P = 16 is pruned unrun
    assert rec["points"]["polymul_1024_19_s16_w20"]["status"] == "pruned" and "polymul_1024_19_s16_w20" not in Runner.ran
    assert "P = 8 measured 32.00 mm2 > 25 mm2" in rec["points"]["polymul_1024_19_s16_w20"]["why"]
    assert cur == {"lanes": 4, "w": 20, "mul": "fast", "store": "sram", "cls": "any"}
    # the failure: recorded with the flow's last line, run once, its earlier result untouched
    assert rec["points"][failing]["status"] == "failed" and "ran out of memory" in rec["points"][failing]["why"]
    assert Runner.ran.count(failing) == 1 and layout.metrics(failing).read_text() == before
    # architecture (b), the tile: P = 16 and 32 skipped (macros alone over 25 mm2), P = 8 carried from the
    # table (16 mm2, within) as is P = 2, P = 1 and 4 pruned below P = 8; no tile synthesized
    pts = rec["points"]
    assert pts["polymul_1024_19_p16"]["status"] == "skipped" and pts["polymul_1024_19_p32"]["status"] == "skipped"
    assert pts["polymul_1024_19_p8"]["status"] == "ok" and pts["polymul_1024_19_p8"]["why"] == "carried"
    assert pts["polymul_1024_19"]["status"] == "ok"
    assert all(pts[d]["status"] == "pruned" for d in ("polymul_1024_19_p1", "polymul_1024_19_p4"))
    assert not TILES_1024_19 & set(Runner.ran)
    assert "tile: 6 points, 3 measured, best polymul_1024_19_p8" in s.log[-1]
    # resumable: a second sweep runs nothing (every measured point is up to date; the failure is retried)
    Runner.ran.clear()
    dse_polymul.SetSweep(1024, 19, "run", runner=Runner(), rec=rec, out=out.append, jobs=1, engines=("single",)).sweep()
    assert Runner.ran == [failing]
    assert "(1024, 19): start" in text


def test_architectures_section(tree):
    """reports/polymul_dse.md's architecture comparison at (1024, 19): the tile's cycles from its command
    cycles, its stream floor, the P whose macros alone exceed the budget, and (c)'s storage bound."""
    build, reports = tree
    add_tiles(build)
    pb.write_reports()
    text = (reports / "polymul_dse.md").read_text()
    sec = text.split("## Architectures")[1].split("\n## ")[0]
    part = sec.split("### (1024, 19)")[1].split("### ")[0]
    # tile P = 8: 2 (n + 1) + (n + 3) + 3 (5n/8) + (n/8 + 8) = 2050 + 1027 + 1920 + 136 cycles at 15.7 ns
    assert "| (b) tile | `polymul_1024_19_p8` | 8 | 64 | 15.20 | 16.000 | 63.7 | 5,133 |" in part
    assert "| (a) streaming | `polymul_1024_19_s8_w20` | 8 |" in part
    # P = 8's streams alone: 3077 cycles x 15.7 ns = 48.31 us, against (a)'s 0.32 us
    assert "3,077 cycles, 48.31 us at its clock: 151.0x (a)'s whole product" in part
    assert "P = 16 measures 32.00 mm2, over 25 mm2" in part
    # (c): 3 n L w = 3 x 1024 x 1 x 20 bits, against the manifest's 3 n w (the fixture's delay-line bits)
    assert "at least 61,440 bits of corner-turn memory against (a)'s 61,440 delay-line bits (1.000x)" in part


def test_fpga_section_of_the_winners(tree):
    """The winners' FPGA rows: xcup counts beside Table IV's as counts, ECP5's overflow or its Fmax and
    the time per product at it; a result of other RTL is absent."""
    build, reports = tree

    def fpga(d, target, rtl=None, **kw):
        p = layout.fpga_metrics(d, target)
        p.parent.mkdir(parents=True, exist_ok=True)
        sha = rtl or hashlib.sha256(layout.rtl(d).read_bytes()).hexdigest()
        p.write_text(json.dumps({"design": d, "target": target, "rtl_sha256": sha, "date": "2026-11-26 01:00 UTC",
                                 "tools": {"pyosys": "0.70"}, **kw}))
    # (1024, 19)'s winner is polymul_1024_19_s8_w20 (128 cycles a product): it routes at 50 MHz on ECP5
    fpga("polymul_1024_19_s8_w20", "xcup", resources={"LUT": 12345, "FF": 6789, "DSP": 99, "BRAM18": 4, "URAM": 0})
    fpga("polymul_1024_19_s8_w20", "ecp5", fits=True, fmax_mhz_median=50.0, routed=True,
         utilization={"TRELLIS_COMB": {"used": 40000}, "MULT18X18D": {"used": 150}, "DP16KD": {"used": 8}})
    # (2048, 33)'s: xcup of other RTL (absent), ECP5 does not fit
    fpga("polymul_2048_33_s4_w18", "xcup", rtl="0" * 64, resources={"LUT": 1})
    fpga("polymul_2048_33_s4_w18", "ecp5", fits=False, overflow="MULT18X18D: 400 of 156")
    # an earlier winner, measured, not the best now: its figures stay, marked
    fpga("polymul_1024_19_s4_w20", "xcup", resources={"LUT": 555, "FF": 66, "DSP": 0, "BRAM18": 0, "URAM": 0})
    # another, on both: more flip-flops on ECP5 than on UltraScale+, where its delay lines are SRLs
    fpga("polymul_1024_19_s16_w20", "xcup", resources={"LUT": 270000, "FF": 66, "DSP": 0, "BRAM18": 0, "URAM": 0,
                                                       "LUTRAM/SRL": 12},
         cells={"FDRE": 66, "SRL16E": 10, "SRLC32E": 2})
    fpga("polymul_1024_19_s16_w20", "ecp5", fits=False, overflow="TRELLIS_FF", cells={"TRELLIS_FF": 300})
    # measured, no FPGA result: not shown
    add_design(build, manifest("polymul_1024_19_s2_w20", 1024, 19, 2, 20, 1), std_um2=2e6, cp_ns=2.0)
    pb.write_reports()
    sec = (reports / "polymul_dse.md").read_text().split("## FPGA: the best engines")[1].split("\n## ")[0]
    assert "| `polymul_1024_19_s4_w20` (not the best) | 555 | 66 |" in sec
    assert "`polymul_1024_19_s2_w20`" not in sec  # measured, no FPGA result: not shown
    r1 = next(l for l in sec.splitlines() if "`polymul_1024_19_s8_w20`" in l).split(" | ")
    assert r1[3:8] == ["12,345", "6,789", "99", "4", "0"]
    assert r1[12].startswith("40,000 LUT4, 150 MULT18X18D, 8 DP16KD") and r1[13] == "50.0"
    assert r1[14] == "2.56"                                  # 128 cycles at 50 MHz
    assert r1[15].rstrip(" |") == f"{7390 / 299:.2f}"        # Table IV: latency / fmax
    r2 = next(l for l in sec.splitlines() if "`polymul_2048_33_s4_w18`" in l).split(" | ")
    assert r2[3] == "n/a" and r2[12] == "does not fit: MULT18X18D: 400 of 156"
    assert "`polymul_2048_33_s4_w18` xcup" in sec and "`polymul_1024_19_s8_w20` xcup" not in sec
    # a winner's absence is make reports' to fill; an earlier winner's (no ECP5 here) is not promised
    assert "Absent (no result of the current RTL in build/): `polymul_2048_33_s4_w18` xcup. `make reports` runs them" in sec
    assert "Absent, not the best (`make reports` does not run them" in sec and "`polymul_1024_19_s4_w20` ecp5." in sec
    # the SRL note: the design with both results and more ECP5 flip-flops, its SRL bits (10 x 16 + 2 x 32)
    assert "`polymul_1024_19_s16_w20` 300 TRELLIS_FF against 66 FF beside 10 SRL16E and 2 SRLC32E (up to 224 bits)" in sec
    assert "`polymul_1024_19_s8_w20` " not in sec.split("ECP5 flip-flops against UltraScale+")[1].split("\n")[0]
    # the share of the paper's XCZU9EG (Table III: 274,080 LUT, 548,160 FF, 2,520 DSP, 1,824 BRAM18): the LUT
    # share counts the SRL cells as LUT sites: (270,000 + 12) / 274,080 = 98.5%, but 282,000 with 12,000 of them
    share = sec.split("Share of the paper's part, ")[1].split("\n")[0]
    assert share.startswith("XCZU9EG")
    assert "`polymul_1024_19_s8_w20` LUT 4.5%, FF 1.2%, DSP 3.9%, BRAM18 0.2%" in share
    assert "`polymul_1024_19_s16_w20` LUT 98.5%, FF 0.0%" in share and "over 100%" not in share
    fpga("polymul_1024_19_s16_w20", "xcup", resources={"LUT": 270000, "FF": 66, "DSP": 0, "BRAM18": 0, "URAM": 0,
                                                       "LUTRAM/SRL": 12000}, cells={"FDRE": 66, "SRL16E": 12000})
    common.LOOKED_UP.clear()
    pb.write_reports()
    sec = (reports / "polymul_dse.md").read_text().split("## FPGA: the best engines")[1].split("\n## ")[0]
    assert "`polymul_1024_19_s16_w20` LUT 102.9%, FF 0.0%, DSP 0.0%, BRAM18 0.0% (over 100% in LUT)" in sec


def test_sweep_takes_a_measured_alias(tree, monkeypatch):
    """A point measured under another name of the same circuit (polymul_4096_62_s4_w32 spelled
    differently) is not synthesized again, and the descent uses its figures."""
    import dse
    build, _ = tree
    # the same engine as the sweep's canonical name polymul_2048_33_s4_w18, measured as polymul_2048_33_s4
    add_design(build, manifest("polymul_2048_33_s4", 2048, 33, 4, 18, 2), std_um2=8e6, cp_ns=4.0)
    import shutil
    shutil.rmtree(build / "polymul_2048_33_s4_w18")
    monkeypatch.setattr(registry, "describe_many",
                        lambda names: {n: {"design": n, "params": {"limb_bits": 18, "limbs": 2}} for n in names})

    def generate(designs):
        for d in designs:
            if d == "polymul_2048_33_s4_w18" and not layout.manifest(d).exists():
                add_design(build, manifest(d, 2048, 33, 4, 18, 2))
        return [d for d in designs if d != "polymul_2048_33_s4_w18"]  # the rest: "cannot be generated"
    monkeypatch.setattr(dse, "generate", generate)

    class Runner:
        ran = []

        def run(self, designs, rerun):
            self.ran += designs
            return {d: {"design": d, "ok": False, "wall_s": 0, "tail": "not in this test"} for d in designs}
    rec = {"points": {}, "log": {}, "runs": []}
    s = dse_polymul.SetSweep(2048, 33, "run", runner=Runner(), rec=rec, out=lambda x: None, jobs=1, engines=("single",))
    s.sweep()
    assert "polymul_2048_33_s4_w18" not in Runner.ran
    assert rec["points"]["polymul_2048_33_s4_w18"]["why"] == "measured as `polymul_2048_33_s4` (the same circuit)"
    assert "best polymul_2048_33_s4_w18" in s.log[0]


def test_limits_of_a_missed_goal(tree):
    """A best design that misses 10x the paper's FPGA: what the next P's macros leave for cells, and the
    clock each P would need (Table IV (4096, 62): 33,184 cycles at 256 MHz = 129.625 us)."""
    build, _ = tree
    add_design(build, manifest("polymul_4096_62_s1_w32", 4096, 62, 1, 32, 2, macro_um2=13e6), std_um2=7.5e6, cp_ns=10.0)
    add_design(build, manifest("polymul_4096_62_s2_w32", 4096, 62, 2, 32, 2, macro_um2=12.5e6))
    s = pb.collect()["sets"][(4096, 62)]
    assert s["best"]["design"] == "polymul_4096_62_s1_w32"
    lines = pb.limits(s)
    area = next(l for l in lines if l.startswith("area: P = 2"))
    assert "its macros take 12.50 mm2 (manifest), leaving 12.50 mm2 for standard cells, against the 7.50 mm2" in area
    # ours 4096 cycles x 10 ns = 40.96 us; 10x the paper needs 12.9625 us: 3.160x
    fpga = next(l for l in lines if l.startswith("the FPGA goal"))
    assert fpga == ("the FPGA goal needs 3.16x the throughput: 316 MHz (3.16 ns) at P = 1, 158 MHz (6.33 ns) at P = 2, "
                    "or P = 4 at 100 MHz")


def test_plan_shows_a_point_measured_under_another_name(tree, monkeypatch):
    """--plan reads the registry's params (n, log q, P, w, multipliers, storage, primes) for a point not
    generated yet: one that is a measured circuit under another name shows as measured, one with other
    primes (a prime class) does not; outside --plan nothing is read from the registry for it."""
    mf = json.loads(layout.manifest("polymul_1024_19_s8_w20").read_text())
    same = {**mf["registry"]["params"], "primes": mf["primes"]}
    other = {**same, "primes": ["778241"], "prime_class": "proth2l"}
    monkeypatch.setattr(registry, "describe_many", lambda names: {
        n: {"design": n, "params": other if n.endswith("_cproth2l") else same} for n in names})
    plan = dse_polymul.SetSweep(1024, 19, "plan", out=lambda _: None)
    assert plan.alias("polymul_1024_19_s8")["design"] == "polymul_1024_19_s8_w20"
    assert plan.alias("polymul_1024_19_s8_w20_cproth2l") is None
    assert dse_polymul.SetSweep(1024, 19, "run", out=lambda _: None).alias("polymul_1024_19_s8") is None


def test_levers_pairs_points_that_differ_in_one_lever_only(tree):
    """Each lever's measured pairs: the (1024, 19) fixture's P = 4, 8, 16 (lanes), plus a Proth-2l point of
    the P = 4 configuration (class, its primes' set bits shown); a point differing in two levers is no pair."""
    from reports import polymul_levers
    build, _ = tree
    add_design(build, manifest("polymul_1024_19_s4_w20_cproth2l", 1024, 19, 4, 20, 1, cls="proth2l", primes=[778241]),
               std_um2=2.7e6, cp_ns=2.0)
    add_design(build, manifest("polymul_1024_19_s8_w20_mpaper_cproth2l", 1024, 19, 8, 20, 1, mul="paper", cls="proth2l",
                               primes=[778241]), std_um2=2.7e6, cp_ns=2.0)
    sets = pb.collect()["sets"]
    got = [(name, a["design"], b["design"]) for name, _, a, b in polymul_levers.pairs(sets[(1024, 19)]["points"])]
    assert ("prime class", "polymul_1024_19_s4_w20", "polymul_1024_19_s4_w20_cproth2l") in got
    assert ("lanes P", "polymul_1024_19_s4_w20", "polymul_1024_19_s8_w20") in got
    assert ("lanes P", "polymul_1024_19_s8_w20", "polymul_1024_19_s16_w20") in got
    assert not any("mpaper" in a or "mpaper" in b for _, a, b in got)        # two levers apart from every point
    text = "\n".join(polymul_levers.section(sets))
    # any's fixture primes (2^20 - 1: 20 set bits) against 778241 (7 set bits); area 3.000 -> 2.700
    assert "`polymul_1024_19_s4_w20_cproth2l`: proth2l (7 set bits)" in text and "any (20 set bits)" in text
    assert "3.000 -> 2.700 (0.900)" in text


def test_coverage_says_which_sets_the_sweep_ran(tree):
    """A set `make dse-polymul` has not swept is said to be one, with its hand-measured points; a swept
    one lists the steps of its record."""
    data = pb.collect()
    rec = {"points": {}, "runs": [{"date": "2026-11-26 05:26 UTC", "mode": "run", "sets": ["1024_19"]}],
           "log": {"1024_19": ["1024_19: width: 3 points, 3 measured, best polymul_1024_19_s4_w20",
                               "1024_19: lanes: 5 points, 4 measured, best polymul_1024_19_s8_w20"]}}
    lines = pb.coverage_lines(data["sets"], rec)
    assert lines[0] == "## How far the exploration went"
    assert ("- (1024, 19): swept (2026-11-26 05:26 UTC): width: 3 points, 3 measured, best polymul_1024_19_s4_w20; "
            "lanes: 5 points, 4 measured, best polymul_1024_19_s8_w20") in lines
    assert ("- (2048, 33): **not swept** by `make dse-polymul`; 1 point measured by hand (`polymul_2048_33_s4_w18`)"
            in lines)
    assert "- (4096, 62): **not swept** by `make dse-polymul`; 0 points measured by hand" in lines


def test_tfhe_ntt_prime_sizes(tree):
    """tfhe-ntt's entry is the fastest full product of the prime sizes tried; the table names its plan and
    gives every size; a pre-transformed comparison takes the fastest pre of any size."""
    build, reports = tree
    res = sw_results()
    t = res["sets"][0]["libraries"]["tfhe_ntt"]
    t.update(api="prime32::Plan fwd, mul_assign_normalize, inv (per limb)", prime_bits=[31], full_min_us=3.3,
             pre_min_us=2.5, configs=[
                 {"prime_bits_max": 62, "api": "prime64", "L": 1, "full_min_us": 8.8, "pre_min_us": 6.1},
                 {"prime_bits_max": 50, "api": "prime64", "L": 1, "full_min_us": 4.6, "pre_min_us": 2.2},
                 {"prime_bits_max": 31, "api": "prime32", "L": 1, "full_min_us": 3.3, "pre_min_us": 2.5}])
    cpu_strongest.STORE.unlink()
    seed_store(res)
    sw = pb.collect()["sw"]
    full, pre = pb.baselines(sw, 1024, 19), pb.baselines(sw, 1024, 19, pretransformed=True)
    assert full["tfhe_ntt_us"] == 3.3 and full["tfhe_ntt_plan"] == "prime32, 1 x 31 bits"
    assert pre["tfhe_ntt_us"] == 2.2                     # the 50-bit size's pre, faster than the entry's own
    pb.write_reports()
    md = (reports / "polymul_dse.md").read_text().split("## Where the baselines come from")[1]
    row = next(l for l in md.splitlines() if l.startswith("| 1024 | 19 |"))
    assert "| prime32, 1 x 31 bits | 62 bits: 8.800 (L = 1); 50 bits: 4.600 (L = 1); 31 bits: 3.300 (L = 1) |" in row


def test_a_wider_design_serves_a_smaller_set_of_its_n(tree, monkeypatch):
    """A (2048, 58) design of two 31-bit primes (Q of 62 bits) is also (2048, 42)'s row, and says why."""
    build, reports = tree
    add_design(build, manifest("polymul_2048_58_s4_w31", 2048, 58, 4, 31, 2), std_um2=12e6, cp_ns=5.0)
    monkeypatch.setattr(pb, "paper_sets", lambda path=None: {(2048, 33), (2048, 42), (2048, 58), (2048, 70)})
    pb.write_reports()
    _, rows = read_csv(reports)
    r = rows[(2048, 42)]
    assert r["design"] == "polymul_2048_58_s4_w31" and r["engine"] == "single-pass"
    assert "its Q of 62 bits covers 2^42" in r["hierarchical"]
    assert float(r["time_us_hbm2_256"]) == pytest.approx(512 * 5.0 / 1000)
    assert rows[(2048, 58)]["design"] == "polymul_2048_58_s4_w31"
    assert rows[(2048, 70)]["design"] == ""                           # 62 bits do not cover 2^70


@pytest.mark.parametrize("limb1", ["own", "absent", "other psi"])
def test_a_design_counted_from_its_limbs(tree, monkeypatch, limb1):
    """A two-limb design too large to synthesize here, counted from the one-limb designs of its primes
    (polymul_limbs): area their sum, clock the slowest, cycles its own; a limb without a synthesis of
    its prime and psi is counted as the other's, and the row says so."""
    build, reports = tree
    q, psi = ["2147389441", "2147377153"], ["447825397", "1785079668"]
    full = manifest("polymul_2048_58_s4_w31", 2048, 58, 4, 31, 2, primes=q)
    add_design(build, {**full, "psi": psi})
    limb0 = manifest("polymul_2048_30_s4_qaaaaaaa", 2048, 30, 4, 31, 1, primes=q[:1], macro_um2=2e6)
    add_design(build, {**limb0, "psi": psi[:1]}, std_um2=9e6, cp_ns=5.0)
    if limb1 != "absent":
        one = manifest("polymul_2048_30_s4_qbbbbbbb", 2048, 30, 4, 31, 1, primes=q[1:], macro_um2=2e6)
        add_design(build, {**one, "psi": [psi[1] if limb1 == "own" else "12345"]}, std_um2=10e6, cp_ns=6.0)
    monkeypatch.setattr(pb, "paper_sets", lambda path=None: {(2048, 33), (2048, 42), (2048, 58)})
    pb.write_reports()
    _, rows = read_csv(reports)
    r = rows[(2048, 58)]
    assert r["design"] == "polymul_2048_58_s4_w31" and r["engine"] == "single-pass"
    assert r["hierarchical"].startswith("yes: 2 limbs synthesized one by one")
    assert int(r["cycles_per_product"]) == 512
    if limb1 == "own":
        assert float(r["area_mm2"]) == pytest.approx(9 + 2 + 10 + 2) and float(r["macro_mm2"]) == pytest.approx(4)
        assert float(r["clock_mhz"]) == pytest.approx(1000 / 6.0, abs=0.01)
        assert "limb 1 (q = 2147377153): polymul_2048_30_s4_qbbbbbbb" in r["hierarchical"]
    else:  # limb 1 stands in as limb 0's synthesis
        assert float(r["area_mm2"]) == pytest.approx(2 * (9 + 2)) and float(r["clock_mhz"]) == pytest.approx(200.0)
        assert "limb 1 (q = 2147377153): not synthesized, counted as polymul_2048_30_s4_qaaaaaaa" in r["hierarchical"]
    assert rows[(2048, 42)]["design"] == "polymul_2048_58_s4_w31"  # its Q of 62 bits covers 2^42
    assert rows[(2048, 42)]["hierarchical"].startswith("yes: 2 limbs")


def test_multipass_step_points_and_best(tree, monkeypatch):
    """Step 8: the multi-pass points of n (n2 = n / n1 in 64..512, P in 1, 2), the engines option, and the best
    synthesized one logged with its L-copy area and ratio."""
    build, _ = tree
    assert [d for d, _ in dse_polymul.multipass_names(16384)] == [
        f"mpoly_16384_x{n1}_b256_l1_s32_p{p}_w31_t1" for n1 in (32, 64, 128) for p in (1, 2)]
    assert dse_polymul.multipass_names(512) == []
    monkeypatch.setattr(registry, "describe_many", lambda names: {n: {"design": n, "params": {}} for n in names})
    d = "mpoly_16384_x64_b256_l1_s32_p1_w31_t1"
    add_multipass(build, std_um2=8.0e6, cycles=17519, d=d, limb_bits=31, fill=(590, 647, 1135))
    out, rec = [], {"points": {}, "log": {}, "runs": []}
    s = dse_polymul.SetSweep(16384, 243, "plan", rec=rec, out=out.append, budget=[1], engines=("multi",))
    s.sweep()
    text = "\n".join(out)
    assert "step width" not in text                                   # --engines multi: no single-pass steps
    assert f"{d}: up to date" in text and text.count(": to run") == 1 and "not run: --max-points reached" in text
    assert len(s.log) == 1 and s.log[0].startswith(f"16384_243: multipass: 6 points, 1 measured, best {d} (")
    L = 8                                                             # eight 31-bit primes make Q >= 2^243
    assert f"({8.0 * L:.1f} mm2 for L copies" in s.log[0]
    # None of the measured points fits: the last resort is the engine with its primes loaded at run time.
    assert "primes loaded at run time: 8 limbs through one engine of any primes: mpoly_16384_x64_b256_l1_s32_p1_w31_t1_d1" in text


def test_limbs_in_sequence_names_and_rounds():
    """The DSE's limbs-in-sequence point (flow/dse_polymul.py, step 8): the one-limb point's engine with r limbs, r from
    the copies that fit 25 mm2 (worked by hand: 4 limbs, 7.68 mm2 a copy -> 3 fit -> 2 each; 29 limbs at 11.64 mm2 ->
    2 fit -> 15 each; a copy of 26 mm2 fits none)."""
    assert dse_polymul.multipass_name(8192, 32, 1) == "mpoly_8192_x32_b256_l1_s32_p1_w31_t1"
    assert dse_polymul.multipass_name(8192, 32, 1, 2) == "mpoly_8192_x32_k2_b256_l1_s32_p1_w31_t1_r2"
    assert dse_polymul.sequence_rounds(4, 7.68) == 2
    assert dse_polymul.sequence_rounds(29, 11.64) == 15
    assert dse_polymul.sequence_rounds(6, 8.4) == 3
    assert dse_polymul.sequence_rounds(8, 26.0) is None


def test_narrowest_width_keeps_the_limbs():
    """The DSE's narrower-limb point (flow/dse_polymul.py, step 8): the narrowest w whose default primes still give the
    set its L limbs. The oracle is the product of the w-bit primes q = 1 mod 2n counted down from 2^w by trial
    division, independent of primetools: L of them reach 2^logq, L - 1 do not."""
    def primes_down(w, n, count):
        out, q = [], ((1 << w) - 1) // (2 * n) * (2 * n) + 1
        while len(out) < count and q >= 1 << (w - 1):
            if all(q % d for d in range(2, int(q ** 0.5) + 1)):
                out.append(q)
            q -= 2 * n
        return out

    def limbs(w, n, logq):
        prod, k = 1, 0
        for q in primes_down(w, n, 64):
            prod, k = prod * q, k + 1
            if prod >= 1 << logq:
                return k
        return None

    for n, logq, L in ((4096, 113, 4), (8192, 157, 6), (8192, 123, 4)):
        w = dse_polymul.narrowest_width(n, logq, L)
        if w is None:  # only 31-bit limbs give L: 30-bit ones need more
            assert limbs(30, n, logq) != L
            continue
        assert limbs(w, n, logq) == L and limbs(w - 1, n, logq) != L
    assert dse_polymul.narrowest_width(4096, 113, 4) == 29
    assert dse_polymul.multipass_name(4096, 16, 1, 1, 29) == "mpoly_4096_x16_b256_l1_s32_p1_w29_t1"
    assert dse_polymul.multipass_name(8192, 32, 1, 3, 28) == "mpoly_8192_x32_k3_b256_l1_s32_p1_w28_t1_r3"
    assert dse_polymul.loaded_name(32768, 64, 1) == "mpoly_32768_x64_b256_l1_s32_p1_w31_t1_d1"


def test_single_pass_row_says_its_miss():
    """A single-pass row below the issue's goal says by how much and where its limits are measured, as the multi-pass
    rows do; one at or above it says none; a kept row's old misses are replaced, its other words kept."""
    from reports import polymul_engines as pe
    row = {"n": 4096, "logq": 62, "engine": "single-pass", "ratio_vs_tfhe_ntt": 1.152, "limit": "",
           "hierarchical": "no: the design as synthesized"}
    got = pe.with_misses(row)["limit"]
    assert got.startswith("misses: 1.15x is 1.30x short of 1.5x") and "reports/polymul_dse.md, (4096, 62)" in got, got
    kept = pe.with_misses({**row, "ratio_vs_tfhe_ntt": 1.6, "limit": "bandwidth; misses: 1.15x is 1.30x short of 1.5x"})
    assert kept["limit"] == "bandwidth; misses: none", kept
    assert pe.with_misses({**row, "n": 1024, "ratio_vs_tfhe_ntt": 2.0})["limit"].startswith("misses: 2.00x is 1.50x short of 3.0x")
    multi = {**row, "engine": "multi-pass (batch)", "limit": "area; misses: none"}
    assert pe.with_misses(multi) == multi


def test_loaded_width_for_one_more_copy():
    """Step 8's narrower run-time-primes point (flow/dse_polymul.py, loaded_width), worked by hand: 15.511 mm2 at 31
    bits, two copies -> a target of 25 / 2 x 0.95 = 11.875 mm2 -> w <= 31 x (11.875 / 15.511)^(1 / 1.3) = 25.25 -> 25
    bits, whose primes (24 and 25 bits) still make 886 bits; three copies would need 21 bits, whose primes at n = 32768
    cannot make 886 bits."""
    assert dse_polymul.loaded_width(32768, 886, 15.511, 2) == 25
    assert dse_polymul.loaded_width(32768, 886, 15.511, 3) is None
    assert dse_polymul.loaded_width(32768, 886, 5.0, 2) == 30      # already small: the next width down
    assert dse_polymul.loaded_name(32768, 64, 1, 25) == "mpoly_32768_x64_b256_l1_s32_p1_w25_t1_d1"
