"""The software baseline of the SSA polynomial multiplier (issue 10): the paper's tables as loaded
(ntt.millar_tables, from data/papers/millar.toml), the moduli chosen for its sets, the NTL and FLINT programs
(tools/polymul_ntl.cpp, tools/polymul_flint.c) against a schoolbook negacyclic product, and the
driver flow/reports/sw_baseline.py (set names, the independent Python product every library is
checked against, tfhe-ntt's limbs, the result schema with FLINT 3 and tfhe-ntt, "absent" entries,
atomic result file). verif/tests/test_flint3_baseline.py checks the FLINT 3 (python-flint) product.

The paper's numbers come from the committed data (written from its text by scripts/paper_data.py;
test_paper_data.py compares the two), never typed here. The only typed numbers are the
ZCU102 part's totals from the Xilinx datasheet DS891 (an independent source for Table III) and
the structure the notes describe (18 sets, 4 place-and-route rows: the 256-bit-security sets
with n <= 8192). The program tests skip, saying why, when NTL or FLINT is not installed.
"""
import json
import random
import shutil
import subprocess

import pytest
import sympy

import papers
from ntt import millar_tables as mt
from reports import common, cpu_strongest
from reports import sw_baseline as sb

# Xilinx DS891 (Zynq UltraScale+ MPSoC overview), XCZU9EG: 912 BRAM36 = 1,824 BRAM18, 2,520 DSP
# slices, 548,160 CLB flip-flops, 274,080 CLB LUTs.
DS891_XCZU9EG = {"bram18": 1824, "dsp": 2520, "ff": 548160, "lut": 274080}


# ---- (a) the parsed tables ----

def test_table1():
    rows = mt.paper_table1()
    assert len(rows) == 18
    assert sorted({r.n for r in rows}) == [1 << k for k in range(10, 16)]
    assert min(r.logq for r in rows) == 19 and max(r.logq for r in rows) == 886
    for r in rows:
        assert r.size_bits == r.n * r.logq          # the Size column is n * log q
    for n in {r.n for r in rows}:                   # per n: lambda 256, 192, 128 with growing log q
        per_n = [r for r in rows if r.n == n]
        assert [r.security for r in per_n] == [256, 192, 128]
        assert per_n[0].logq < per_n[1].logq < per_n[2].logq


def test_table2_has_every_set():
    t1, t2 = mt.paper_table1(), mt.paper_table2()
    assert [(r.n, r.logq) for r in t2] == [(r.n, r.logq) for r in t1]
    for r in t2:
        fpga_us = r.latency * 0.004                 # HLS estimate at the 4 ns clock
        assert abs(fpga_us - r.fpga_us) <= 0.5
        assert abs(r.ntl_us / fpga_us - r.speedup) <= 0.5


def test_table4_rows_and_arithmetic():
    t1, t2, t4 = mt.paper_table1(), mt.paper_table2(), mt.paper_table4()
    assert [(r.n, r.logq) for r in t4] == [(r.n, r.logq) for r in t1 if r.security == 256 and r.n <= 8192]
    by_set = {(r.n, r.logq): r for r in t2}
    for r in t4:
        assert (r.latency, r.ntl_us) == (by_set[r.n, r.logq].latency, by_set[r.n, r.logq].ntl_us)
        # FPGA us = latency / fmax, both printed rounded: some fmax in [f - 0.5, f + 0.5) rounds to it
        assert r.latency / (r.fmax_mhz + 0.5) < r.fpga_us + 0.5
        assert r.latency / (r.fmax_mhz - 0.5) >= r.fpga_us - 0.5
        assert abs(r.ntl_us * r.fmax_mhz / r.latency - r.speedup) <= 0.5
        for res in ("bram18", "dsp", "ff", "lut"):
            assert 0 < getattr(r, f"{res}_pct") < 100


def test_device_and_part_erratum():
    d = mt.paper_device()
    assert d._asdict() == {"part": "XCZU9EG-FFVB1156-2-I-ES2", **DS891_XCZU9EG}
    title = next(r["part"] for r in papers.table("millar", "Table IV") if r["row"] == "title")
    assert title["printed"] == mt.TABLE4_PART_MISPRINT   # the caption as printed (docs/errata.md#millar-part) ...
    assert mt.table4_part() == title["value"] == d.part  # ... corrected to Table III's part


def test_resource_counts():
    d = mt.paper_device()
    for r in mt.paper_table4():
        for res, (count, lo, hi) in mt.resource_counts(r, d).items():
            pct, total = getattr(r, f"{res}_pct"), getattr(d, res)

            def prints_as_pct(c):                   # pct - 0.5 <= 100 c / total < pct + 0.5
                return (2 * pct - 1) * total <= 200 * c < (2 * pct + 1) * total
            assert lo <= count <= hi
            assert prints_as_pct(lo) and prints_as_pct(hi) and prints_as_pct(count)
            assert not prints_as_pct(lo - 1) and not prints_as_pct(hi + 1)


def test_missing_data_names_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(papers, "DATA", tmp_path)
    with pytest.raises(mt.PaperTableError, match="millar.toml.*scripts/paper_data.py"):
        mt.paper_table1()


def test_missing_table_is_an_error(tmp_path):
    text = mt.data_path().read_text(encoding="utf-8")
    broken = tmp_path / "millar.toml"
    broken.write_text("".join(line for line in text.splitlines(keepends=True) if 'table = "Table IV"' not in line),
                      encoding="utf-8")
    with pytest.raises(mt.PaperTableError, match="Table IV"):
        mt.paper_table4(broken)
    broken.write_text(text.replace('figures = [', 'figures = [[', 1), encoding="utf-8")
    with pytest.raises(mt.PaperTableError, match="not valid TOML"):
        mt.paper_table2(broken)


# ---- (b) the moduli ----

@pytest.mark.parametrize("s", mt.paper_sets(), ids=lambda s: s.name)
def test_modulus(s):
    assert s.name == f"polymul_{s.n}_{s.logq}"
    assert s.q < 1 << s.logq and s.q.bit_length() == s.logq
    assert s.q % (2 * s.n) == 1
    assert sympy.isprime(s.q)
    # the largest such prime: no prime = 1 mod 2n between q and 2^logq
    assert not any(sympy.isprime(c) for c in range(s.q + 2 * s.n, 1 << s.logq, 2 * s.n))
    assert pow(s.psi, s.n, s.q) == s.q - 1          # psi^n = -1: a primitive 2n-th root (n = 2^k)
    if s.logq <= 64:                                # q - 1 factors quickly: the order itself
        assert sympy.n_order(s.psi, s.q) == 2 * s.n


# ---- (c) the programs against a schoolbook product ----

def schoolbook(a, b, q):
    """sum a_i b_j x^(i+j) with x^n = -1, reduced mod q."""
    n = len(a)
    c = [0] * n
    for i in range(n):
        for j in range(n):
            if i + j < n:
                c[i + j] += a[i] * b[j]
            else:
                c[i + j - n] -= a[i] * b[j]
    return [x % q for x in c]


def _have(header, lang):
    cc = "g++" if lang == "c++" else "gcc"
    if not shutil.which(cc):
        return False
    r = subprocess.run([cc, "-E", "-x", lang, "-"], input=f"#include <{header}>\n", capture_output=True, text=True)
    return r.returncode == 0


@pytest.fixture(scope="module")
def tools():
    missing = [lib for lib, header, lang in (("NTL (libntl-dev)", "NTL/ZZ_pX.h", "c++"),
                                             ("FLINT (libflint-dev)", "flint/flint.h", "c"))
               if not _have(header, lang)]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed: run make setup")
    return sb.build_tools()


SETS = {s.name: s for s in mt.paper_sets()}
MODULI = {
    "q19": SETS["polymul_1024_19"].q,               # 19 bits, nmod and fmpz_mod
    "q64": mt.modulus(1024, 64)[0],                 # 64 bits: the largest nmod modulus
    "q80": SETS["polymul_4096_80"].q,               # > 64 bits: fmpz_mod only
    "q616": SETS["polymul_32768_616"].q,            # > 500 bits
}


def _cases(n, q, rng):
    yield "random", [rng.randrange(q) for _ in range(n)], [rng.randrange(q) for _ in range(n)]
    yield "zeros", [0] * n, [0] * n
    yield "zero-times-max", [0] * n, [q - 1] * n
    yield "max", [q - 1] * n, [q - 1] * n
    top = [0] * (n - 1) + [1]
    yield "x^(n-1)^2", top, top                     # = x^(2n-2) = -x^(n-2)
    yield "one", [1] + [0] * (n - 1), [rng.randrange(q) for _ in range(n)]


@pytest.mark.parametrize("tool", ["ntl", "flint"])
@pytest.mark.parametrize("qname", list(MODULI))
@pytest.mark.parametrize("n", [1, 4, 8, 64])
def test_tool_products(tools, tool, qname, n):
    q = MODULI[qname]
    rng = random.Random(f"{tool}:{qname}:{n}")
    for case, a, b in _cases(n, q, rng):
        assert sb.multiply(tool, n, q, a, b) == schoolbook(a, b, q), (case, n, qname)


@pytest.mark.parametrize("qname", ["q19", "q80"])
def test_tool_checksums(tools, tmp_path, qname):
    """bench's checksum is the FNV-1a of the product the tool computes, the same in both tools."""
    n, q = 64, MODULI[qname]
    a, b = sb.operands(n, q, seed=7)
    path = tmp_path / "ops.txt"
    path.write_text(sb.operand_text(n, q, a, b))
    want = sb.checksum(schoolbook(a, b, q))
    for tool in ("ntl", "flint"):
        j = sb.bench(tool, path, 3, 0)
        assert j["checksum"] == want
        assert j["n"] == n and j["q_bits"] == q.bit_length() and j["reps"] == 3 and len(j["times_s"]) == 3
        assert j["min_s"] <= j["median_s"] and j["threads"] == 1
    flint = sb.bench("flint", path, 3, 0)
    assert (flint["nmod"] is None) == (q >= 1 << 64)
    assert flint["fmpz_mod"]["checksum"] == want


def test_tool_rejects_bad_input(tools):
    for tool in ("ntl", "flint"):
        with pytest.raises(sb.BaselineError, match="not below q"):
            sb.multiply(tool, 2, 5, [1, 5], [0, 0])
        with pytest.raises(sb.BaselineError, match="coefficients expected"):
            sb._run(tool, ["mul", "-"], stdin="2 5 1 2 3")


# ---- (d) the driver ----

def test_select_sets():
    assert [s.name for s in sb.select_sets("1024_19,polymul_4096_62")] == ["polymul_1024_19", "polymul_4096_62"]
    assert len(sb.select_sets(None)) == 18
    with pytest.raises(sb.BaselineError, match="unknown set '1024_20'.*1024_19"):
        sb.select_sets("1024_20")


def _run_quick(out, **kw):
    """One set (1024_19) with few repetitions; never builds tfhe-ntt (its entry then says why)."""
    return sb.run(sb.select_sets("1024_19"), reps=3, kernel_reps=20, out=out, progress=None, build=False, **kw)


def test_run_one_set(tools, tmp_path):
    out = tmp_path / "results.json"
    result = _run_quick(out)
    saved = json.loads(out.read_text())
    assert saved == json.loads(json.dumps(result))
    row = saved["sets"][0]
    assert (row["n"], row["logq"], int(row["q"])) == (1024, 19, SETS["polymul_1024_19"].q)
    assert row["ntl"]["checksum"] == row["flint"]["checksum"] == row["checksum"]
    assert row["checksum"] == sb.checksum(schoolbook(*sb.operands(1024, int(row["q"]), 1), int(row["q"])))
    assert row["ntl_median_s"] > 0 and row["flint_median_s"] > 0
    assert row["paper_ntl_us"] == mt.paper_table2()[0].ntl_us
    env = saved["environment"]
    assert env["ntl_version"] and env["flint_version"] and env["gmp_version"] and env["cpu_model"]
    assert len(env["load_average_start"]) == len(env["load_average_end"]) == 3 and env["date"]
    assert env["pinning"] and saved["L_rule"] == sb.L_RULE
    # the core every figure came from: the model and its vector extensions (/proc/cpuinfo's flags)
    here = common.cpu_identity()
    assert (env["cpu_extensions"], env["cpu_vector_flags"]) == (here["cpu_extensions"], here["cpu_vector_flags"])
    assert env["cpu_extensions"] in ("AVX-512 IFMA", "AVX-512F", "AVX2", "none")
    # one entry per library, in microseconds; an entry without status "ok" carries no figure
    libs = row["libraries"]
    assert list(libs) == list(sb.LIBRARY_KEYS) == saved["libraries"]
    for key, e in libs.items():
        if e["status"] != "ok":
            assert not any(k.endswith("_us") for k in e) and e["install"], key
            continue
        assert (e["cpu_model"], e["cpu_extensions"]) == (env["cpu_model"], env["cpu_extensions"]), key
        assert 0 < e["full_min_us"] <= e["full_median_us"], key
        assert e["reps"] >= 3 and e["check"]["passed"] and e["check"]["reference"].startswith("schoolbook"), key
        assert e["L"] == len(e["moduli"]) == len(e["prime_bits"]), key
        if e["pre_min_us"] is None:
            assert e["pre_median_us"] is None and e["pre"].startswith(("not available", "not measured")), key
        else:
            assert 0 < e["pre_min_us"] <= e["pre_median_us"], key
    assert libs["ntl"]["full_median_us"] == pytest.approx(row["ntl_median_s"] * 1e6, abs=1e-3)
    assert libs["flint2"]["full_median_us"] == pytest.approx(row["flint_median_s"] * 1e6, abs=1e-3)
    assert libs["ntl"]["moduli"] == libs["flint2"]["moduli"] == [row["q"]]
    if libs["flint3"]["status"] == "ok":
        assert libs["flint3"]["moduli"] == [row["q"]] and libs["flint3"]["pre"].startswith("not available")
        assert libs["flint3"]["reps"] == 20 and 0 < libs["flint3"]["python_overhead_min_us"]
        assert "nmod_poly" in libs["flint3"]["api"]
    if libs["tfhe_ntt"]["status"] == "ok":
        t = libs["tfhe_ntt"]
        # every prime size tried (checked, timed), the entry is the fastest full product of them
        assert [c["prime_bits_max"] for c in t["configs"]] == list(sb.TFHE_CONFIGS) == [62, 50, 31]
        assert [c["L"] for c in t["configs"]] == [1, 1, 1]                     # log q = 19: one limb of each
        assert [c["api"] for c in t["configs"]] == ["prime64", "prime64", "prime32"]
        fastest = min(t["configs"], key=lambda c: c["full_min_us"])
        assert t["full_min_us"] == fastest["full_min_us"] and t["api"].startswith(fastest["api"] + "::Plan")
        assert (t["L"], t["modulus"]) == (1, "rns") and t["prime_bits"] == [fastest["prime_bits_max"]]
        assert t["Q_bits"] == t["prime_bits"][0] >= 19
        assert t["pre_median_us"] < t["full_median_us"]
        assert env["tfhe_ntt"]["version"].startswith("0.7.")
    text = out.with_suffix(".md").read_text()
    assert text == sb.summary(saved) and "| 1024_19 | tfhe-ntt |" in text and sb.L_RULE in text


def test_run_without_cargo_or_python_flint(tools, tmp_path, monkeypatch):
    """No cargo: tfhe-ntt is "absent" with the command that installs Rust and no figure; no
    python-flint: FLINT 3 likewise; NTL and FLINT 2.9 still run."""
    monkeypatch.setattr(sb.tn, "status", lambda: "absent")
    monkeypatch.setattr(sb, "flint", None)
    out = tmp_path / "results.json"
    result = _run_quick(out)
    libs = result["sets"][0]["libraries"]
    assert libs["tfhe_ntt"] == {"library": "tfhe-ntt", "status": "absent", "reason": "cargo not found",
                                "install": sb.tn.INSTALL}
    assert libs["flint3"]["status"] == "absent" and "pip install python-flint" in libs["flint3"]["install"]
    assert libs["ntl"]["status"] == libs["flint2"]["status"] == "ok"
    assert result["environment"]["tfhe_ntt"] == {"status": "absent", "install": sb.tn.INSTALL}
    text = out.with_suffix(".md").read_text()
    assert "tfhe-ntt: absent, install with curl https://sh.rustup.rs" in text
    assert "| 1024_19 | tfhe-ntt | - | - | absent | absent | - |" in text


# ---- (e) the independent product and tfhe-ntt's limbs ----

@pytest.mark.parametrize("n", [1, 2, 16, 64])
def test_reference_product(n, monkeypatch):
    q = MODULI["q616"]
    rng = random.Random(n)
    for case, a, b in _cases(n, q, rng):
        want = schoolbook(a, b, q)
        assert sb.reference_product(a, b, q) == sb.negacyclic_schoolbook(a, b, q) == want, case
        assert sb.negacyclic_kronecker(a, b, q) == want, case
        monkeypatch.setattr(sb, "GMP_KRONECKER_BITS", 0)     # the gmpy2 route of the largest sets
        assert sb.negacyclic_kronecker(a, b, q) == want, case
        monkeypatch.undo()


def test_reference_method():
    assert sb.reference_method(1024, 3) == "schoolbook (Python integers)"
    assert sb.reference_method(2048, SETS["polymul_2048_33"].q) == "Kronecker substitution (Python integers)"
    assert "gmpy2" in sb.reference_method(32768, SETS["polymul_32768_886"].q)


def test_tfhe_limbs_rule():
    if sb.tn.status() != "ok":
        pytest.skip(f"tfhe-ntt is {sb.tn.status()}: make sw-tfhe-ntt (the tests never build it)")
    for s in mt.paper_sets():
        qs = sb.tfhe_limbs(s.n, s.logq)
        assert len(qs) == -(-s.logq // sb.TFHE_PRIME_BITS), s.name           # L = ceil(logq / 62)
        assert all(q % (2 * s.n) == 1 and q.bit_length() == sb.TFHE_PRIME_BITS for q in qs)
        prod = 1
        for q in qs[:-1]:
            prod *= q
        assert prod.bit_length() < s.logq <= (prod * qs[-1]).bit_length(), s.name  # the smallest such L


def test_wrong_tfhe_product_stops_the_run(tools, tmp_path, monkeypatch):
    if sb.tn.status() != "ok":
        pytest.skip(f"tfhe-ntt is {sb.tn.status()}: make sw-tfhe-ntt (the tests never build it)")
    real = sb.tn.product

    def off_by_one(n, qs, a, b):
        c = real(n, qs, a, b)
        c[-1][3] = (c[-1][3] + 1) % qs[-1]
        return c

    monkeypatch.setattr(sb.tn, "product", off_by_one)
    out = tmp_path / "results.json"
    with pytest.raises(sb.BaselineError, match="tfhe-ntt's product differs .* limb 0"):
        _run_quick(out)
    assert not out.exists()


def test_failed_run_keeps_earlier_results(tools, tmp_path, monkeypatch):
    out = tmp_path / "results.json"
    out.write_text('{"earlier": true}\n')
    real = sb.bench

    def flint_differs(tool, path, reps, budget):
        j = real(tool, path, reps, budget)
        if tool == "flint":
            j["checksum"] = "fnv1a64:0000000000000000"
        return j

    monkeypatch.setattr(sb, "bench", flint_differs)
    # the route named is the faster by median, nmod or fmpz_mod: on a loaded machine either can win
    with pytest.raises(sb.BaselineError, match=r"FLINT 2.9 \((nmod|fmpz_mod)_poly\)'s product differs from the "
                                               r"independent Python product for polymul_1024_19"):
        sb.run(sb.select_sets("1024_19"), reps=1, kernel_reps=5, out=out, progress=None, build=False)
    assert json.loads(out.read_text()) == {"earlier": True}
    assert list(tmp_path.iterdir()) == [out]        # no operand files or partial results left


def test_ntl_checked_against_python(tools, tmp_path, monkeypatch):
    """NTL and FLINT 2.9 agreeing is not enough: each must match the Python product."""
    real = sb.bench

    def both_wrong(tool, path, reps, budget):
        j = real(tool, path, reps, budget)
        for route in (j, j.get("fmpz_mod"), j.get("nmod")):
            if route:
                route["checksum"] = "fnv1a64:0000000000000000"
        return j

    monkeypatch.setattr(sb, "bench", both_wrong)
    with pytest.raises(sb.BaselineError, match="NTL's product differs from the independent Python product"):
        _run_quick(tmp_path / "results.json")


# ---- (f) the store of the strongest figures (flow/reports/cpu_strongest.py; test_cpu_strongest.py has the rule) ----

def _main_quick(tmp_path, store, *extra):
    return sb.main(["--sets", "1024_19", "--reps", "3", "--kernel-reps", "20", "--no-build",
                    "--out", str(tmp_path / "results.json"), "--store", str(store), *extra])


def test_main_merges_the_run_into_the_store(tools, tmp_path, capsys):
    """make sw-baseline's command merges its run into the store and prints one line per set and library; a
    store holding faster figures (another machine's) keeps them."""
    store = tmp_path / "cpu_strongest.json"
    assert _main_quick(tmp_path, store) == 0
    out = capsys.readouterr().out
    here = common.cpu_identity()
    saved = cpu_strongest.load(store)
    ntl = cpu_strongest.entry(saved, 1024, 19, "ntl")
    assert (ntl["cpu_model"], ntl["cpu_extensions"]) == (here["cpu_model"], here["cpu_extensions"])
    assert f"cpu store: 1024_19 NTL: new, {ntl['full_min_us']:,.3f} µs ({here['cpu_extensions']}" in out
    assert ntl["full_min_us"] == json.loads((tmp_path / "results.json").read_text())["sets"][0]["libraries"]["ntl"]["full_min_us"]
    # a store whose NTL figure is faster than any this machine can time: kept, and said so
    saved["sets"]["1024_19"]["libraries"]["ntl"].update(full_min_us=0.001, cpu_model="a faster CPU", cpu_extensions="AVX-512 IFMA")
    store.write_text(json.dumps(saved))
    assert _main_quick(tmp_path, store) == 0
    assert "cpu store: 1024_19 NTL: kept 0.001 µs (AVX-512 IFMA, a faster CPU" in capsys.readouterr().out
    assert cpu_strongest.entry(cpu_strongest.load(store), 1024, 19, "ntl")["cpu_model"] == "a faster CPU"
    before = store.read_bytes()
    assert sb.main(["--sets", "1024_19", "--reps", "3", "--kernel-reps", "20", "--no-build",
                    "--out", str(tmp_path / "results.json"), "--no-store"]) == 0
    assert "(--no-store)" in capsys.readouterr().out and store.read_bytes() == before


def test_failed_run_leaves_the_store_unchanged(tools, tmp_path, monkeypatch, capsys):
    store = tmp_path / "cpu_strongest.json"
    store.write_text(json.dumps(cpu_strongest.empty()))
    before = store.read_bytes()
    real = sb.bench

    def ntl_differs(tool, path, reps, budget):
        j = real(tool, path, reps, budget)
        j["checksum"] = "fnv1a64:0000000000000000" if tool == "ntl" else j["checksum"]
        return j
    monkeypatch.setattr(sb, "bench", ntl_differs)
    assert _main_quick(tmp_path, store) == 1
    assert "NTL's product differs" in capsys.readouterr().err
    assert store.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["cpu_strongest.json"]
