"""The store of the strongest CPU figures (flow/reports/cpu_strongest.py, data/baselines/cpu_strongest.json;
docs/polymul_baselines.md, "The strongest figures") and the CPU's vector-extension label it records
(reports.common.vector_extensions): made-up runs of `make sw-baseline` on a temporary store, no timing.

What they pin: a slower figure (a core with AVX2 only) never replaces a faster stored one (AVX-512 IFMA), a
faster one does, an equal one does not; every decision is one line; an entry keeps where it was measured;
a run without the extension record, or with an unchecked figure, is refused and the store stays byte
for byte; the label from sample /proc/cpuinfo flag lines. The figures are made up: only their order
matters here.
"""
import json

import pytest

from reports import common
from reports import cpu_strongest as cs

# /proc/cpuinfo "flags" lines, shortened to the flags around the vector extensions.
ZEN4 = ("fpu vme de pse tsc msr sse sse2 ssse3 fma cx16 sse4_1 sse4_2 movbe popcnt aes xsave avx f16c rdrand "
        "bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd "
        "sha_ni avx512bw avx512vl xsaveopt avx512_bf16 avx512vbmi umip avx512_vbmi2 gfni vaes avx512_vnni "
        "avx512_bitalg avx512_vpopcntdq")
SKYLAKE_SP = ("fpu vme sse sse2 ssse3 fma cx16 sse4_1 sse4_2 popcnt avx f16c bmi1 hle avx2 smep bmi2 erms invpcid "
              "rtm mpx avx512f avx512dq rdseed adx smap clflushopt clwb avx512cd avx512bw avx512vl xsaveopt")
ZEN3 = "fpu vme sse sse2 ssse3 fma cx16 sse4_1 sse4_2 movbe popcnt aes xsave avx f16c rdrand bmi1 avx2 smep bmi2 vaes"
SANDY_BRIDGE = "fpu vme sse sse2 ssse3 cx16 sse4_1 sse4_2 popcnt aes xsave avx"

IFMA = {"cpu_model": "AMD EPYC 9654", "cpu_extensions": "AVX-512 IFMA", "cpu_vector_flags": ["avx2", "avx512f", "avx512ifma"]}
AVX2 = {"cpu_model": "AMD EPYC 7763", "cpu_extensions": "AVX2", "cpu_vector_flags": ["avx2"]}


@pytest.mark.parametrize("flags, label, present", [
    (ZEN4, "AVX-512 IFMA", ["avx2", "avx512f", "avx512ifma"]),
    (SKYLAKE_SP, "AVX-512F", ["avx2", "avx512f"]),
    (ZEN3, "AVX2", ["avx2"]),
    (SANDY_BRIDGE, "none", []),                      # AVX without AVX2: none of the three
    ("", "none", []),
    ("avx2 avx512fp16 avx512ifma52", "AVX2", ["avx2"]),  # whole flags only: avx512fp16 is not avx512f
    ("avx2 avx512ifma", "AVX2", ["avx2", "avx512ifma"]),  # IFMA without AVX-512F: not the IFMA tier
])
def test_extension_label(flags, label, present):
    assert common.vector_extensions(flags) == label
    assert common.vector_extensions(flags.split()) == label
    assert common.vector_flags(flags) == present


def test_cpu_identity_from_cpuinfo_fields():
    assert common.cpu_identity({"model name": "AMD EPYC", "flags": ZEN4}) == {
        "cpu_model": "AMD EPYC", "cpu_extensions": "AVX-512 IFMA", "cpu_vector_flags": ["avx2", "avx512f", "avx512ifma"]}
    # an aarch64 /proc/cpuinfo has "Features", no "flags"
    assert common.cpu_identity({"model name": "Neoverse", "Features": "fp asimd"})["cpu_extensions"] == "none"
    here = common.machine()                          # this machine: a label is always recorded
    assert here["cpu_extensions"] in ("AVX-512 IFMA", "AVX-512F", "AVX2", "none")


def run(cpu, figures, date, load=0.25):
    """A results.json of make sw-baseline: figures {(n, logq): {library: full_min_us}}; a library
    missing from a set's dict is "absent" in that run."""
    sets = []
    for (n, logq), libs in figures.items():
        entries = {}
        for lib in cs.LIBRARY_KEYS:
            if lib in libs:
                entries[lib] = {"library": lib, "version": "v-" + lib, "status": "ok", "reps": 2000,
                                "full_min_us": libs[lib], "full_median_us": libs[lib] * 1.05, "pre_min_us": None,
                                "pre_median_us": None, "check": {"passed": True, "reference": "schoolbook", "seed": 1},
                                **cpu}
            else:
                entries[lib] = {"library": lib, "status": "absent", "reason": "cargo not found", "install": "rustup"}
        sets.append({"name": f"polymul_{n}_{logq}", "n": n, "logq": logq, "load_average": [load, 0.2, 0.1],
                     "libraries": entries})
    return {"environment": {**cpu, "date": date, "pinned_cpu": 1, "kernel": "6.1"}, "reps": 7, "kernel_reps": 2000,
            "budget_s": 10.0, "seed": 1, "sets": sets}


# the figures at (4096, 62): tfhe-ntt 17.7 us with IFMA, 52.9 us with AVX2 only
STRONG = run(IFMA, {(4096, 62): {"tfhe_ntt": 17.7, "ntl": 1300.0}}, "2026-11-20T10:00:00+00:00", load=0.1)
WEAK = run(AVX2, {(4096, 62): {"tfhe_ntt": 52.9, "ntl": 1250.0}}, "2026-11-28T10:00:00+00:00", load=1.9)


@pytest.fixture
def store(tmp_path):
    return tmp_path / "data" / "baselines" / "cpu_strongest.json"


def test_weaker_run_keeps_the_stronger_entry(store):
    cs.merge_file(STRONG, store)
    before = store.read_bytes()
    lines = cs.merge_file(WEAK, store)
    t = cs.entry(cs.load(store), 4096, 62, "tfhe_ntt")
    assert (t["full_min_us"], t["cpu_extensions"], t["cpu_model"]) == (17.7, "AVX-512 IFMA", "AMD EPYC 9654")
    assert ("4096_62 tfhe-ntt: kept 17.700 µs (AVX-512 IFMA, AMD EPYC 9654, 2026-11-20); this run's 52.900 µs "
            "(AVX2, AMD EPYC 7763, 2026-11-28) is not faster") in lines
    # NTL was faster on the AVX2 machine: that entry alone is replaced, and says so
    assert ("4096_62 NTL: replaced 1,300.000 µs (AVX-512 IFMA, AMD EPYC 9654, 2026-11-20) by this run's 1,250.000 µs "
            "(AVX2, AMD EPYC 7763, 2026-11-28)") in lines
    assert cs.entry(cs.load(store), 4096, 62, "ntl")["cpu_extensions"] == "AVX2"
    assert lines[-1] == f"{store}: 0 new, 1 replaced, 1 kept; written"
    assert store.read_bytes() != before


def test_faster_run_replaces(store):
    lines = cs.merge_file(WEAK, store)
    assert "4096_62 tfhe-ntt: new, 52.900 µs (AVX2, AMD EPYC 7763, 2026-11-28)" in lines
    lines = cs.merge_file(STRONG, store)
    assert ("4096_62 tfhe-ntt: replaced 52.900 µs (AVX2, AMD EPYC 7763, 2026-11-28) by this run's 17.700 µs "
            "(AVX-512 IFMA, AMD EPYC 9654, 2026-11-20)") in lines
    t = cs.entry(cs.load(store), 4096, 62, "tfhe_ntt")
    assert (t["full_min_us"], t["cpu_extensions"]) == (17.7, "AVX-512 IFMA")


def test_equal_figure_and_absent_library_keep_the_entry(store):
    cs.merge_file(STRONG, store)
    before = store.read_bytes()
    same = run(AVX2, {(4096, 62): {"tfhe_ntt": 17.7}}, "2026-11-29T00:00:00+00:00")  # NTL absent in this run
    lines = cs.merge_file(same, store)
    assert any(l.startswith("4096_62 tfhe-ntt: kept 17.700 µs (AVX-512 IFMA") for l in lines)
    assert "4096_62 NTL: kept 1,300.000 µs (AVX-512 IFMA, AMD EPYC 9654, 2026-11-20); this run: absent (cargo not found)" in lines
    assert "4096_62 FLINT 3: none stored; this run: absent (cargo not found)" in lines
    assert lines[-1].endswith("0 new, 0 replaced, 2 kept; unchanged")
    assert store.read_bytes() == before              # nothing changed: the file is not rewritten


def test_entry_keeps_where_it_was_measured(store):
    cs.merge_file(STRONG, store)
    s = cs.load(store)
    assert s["schema"] == cs.SCHEMA and s["rule"] == cs.RULE
    t = cs.entry(s, 4096, 62, "tfhe_ntt")
    assert t["date"] == "2026-11-20T10:00:00+00:00" and t["load_average"] == [0.1, 0.2, 0.1]
    assert (t["full_min_us"], t["full_median_us"]) == (17.7, pytest.approx(17.7 * 1.05))
    assert t["version"] == "v-tfhe_ntt" and t["check"]["passed"] and t["check"]["reference"] == "schoolbook"
    assert t["cpu_vector_flags"] == ["avx2", "avx512f", "avx512ifma"] and t["pinned_cpu"] == 1
    assert t["run"] == {"reps": 7, "kernel_reps": 2000, "budget_s": 10.0, "seed": 1}
    assert cs.entry(s, 4096, 62, "flint3") is None   # absent in every run: never a stand-in entry
    assert cs.entry(s, 1024, 19, "tfhe_ntt") is None


def test_sets_sorted_and_dry_run(store):
    cs.merge_file(run(IFMA, {(8192, 123): {"ntl": 4000.0}, (1024, 19): {"ntl": 200.0}}, "2026-11-20T00:00:00+00:00"),
                  store)
    assert list(cs.load(store)["sets"]) == ["1024_19", "8192_123"]
    before = store.read_bytes()
    lines = cs.merge_file(run(IFMA, {(1024, 19): {"ntl": 100.0}}, "2026-11-21T00:00:00+00:00"), store, dry_run=True)
    assert lines[-1].endswith("1 replaced, 0 kept; would be written (--dry-run)") and store.read_bytes() == before


def test_refusals_leave_the_store_unchanged(store, monkeypatch):
    cs.merge_file(STRONG, store)
    before = store.read_bytes()
    old = run({"cpu_model": "AMD EPYC 9654"}, {(4096, 62): {"tfhe_ntt": 1.0}}, "2026-11-01T00:00:00+00:00")
    with pytest.raises(cs.StoreError, match="do not record the CPU's vector extensions.*--this-machine"):
        cs.merge_file(old, store)
    unchecked = json.loads(json.dumps(WEAK))
    unchecked["sets"][0]["libraries"]["tfhe_ntt"].update(full_min_us=1.0, check={"passed": False})
    with pytest.raises(cs.StoreError, match="no passing check"):
        cs.merge_file(unchecked, store)
    # the write itself fails: the earlier store stays whole, no partial file beside it
    monkeypatch.setattr(common.os, "replace", lambda *a: (_ for _ in ()).throw(OSError("disk full")))
    with pytest.raises(OSError, match="disk full"):
        cs.merge_file(run(IFMA, {(4096, 62): {"tfhe_ntt": 1.0}}, "2026-11-30T00:00:00+00:00"), store)
    assert store.read_bytes() == before and [p.name for p in store.parent.iterdir()] == [store.name]
    store.write_text("{not json")
    with pytest.raises(cs.StoreError, match="not valid JSON.*git checkout -- data/baselines/cpu_strongest.json"):
        cs.merge_file(STRONG, store)


def test_seed_cli(store, tmp_path, capsys, monkeypatch):
    """flow/reports/cpu_strongest.py seeds the store from an existing results.json; an older one without
    the extension record needs --this-machine, which takes this machine's only when the model matches."""
    results = tmp_path / "results.json"
    assert cs.main(["--results", str(results), "--store", str(store)]) == 1
    assert "does not exist: run make sw-baseline" in capsys.readouterr().err
    results.write_text(json.dumps(WEAK))
    assert cs.main(["--results", str(results), "--store", str(store)]) == 0
    assert "cpu store: 4096_62 tfhe-ntt: new, 52.900 µs (AVX2" in capsys.readouterr().out
    here = common.cpu_identity()
    old = run({"cpu_model": here["cpu_model"]}, {(1024, 19): {"tfhe_ntt": 3.0}}, "2026-11-01T00:00:00+00:00")
    results.write_text(json.dumps(old))
    assert cs.main(["--results", str(results), "--store", str(store)]) == 1
    assert "--this-machine" in capsys.readouterr().err and cs.entry(cs.load(store), 1024, 19, "tfhe_ntt") is None
    assert cs.main(["--results", str(results), "--store", str(store), "--this-machine"]) == 0
    t = cs.entry(cs.load(store), 1024, 19, "tfhe_ntt")
    assert t["cpu_extensions"] == here["cpu_extensions"] and "--this-machine" in t["cpu_extensions_source"]
    old["environment"]["cpu_model"] = "another CPU"
    results.write_text(json.dumps(old))
    assert cs.main(["--results", str(results), "--store", str(store), "--this-machine"]) == 1
    assert "measured on 'another CPU'" in capsys.readouterr().err
