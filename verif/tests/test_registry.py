"""One name grammar: the generator's registry is the only definition of a design name (docs/registry.md).

- For names of every family (plain, options, variants, `_fast`, tiles, polymul, intfft), the Python
  view (verif/registry.py, and the models' parse_design) equals what the generator writes into the
  design's manifest: the `registry` member, and the manifest's own family fields (written by another
  code path, ModMulDesign.manifestExtra / the tile and intfft writers).
- Each malformed name gets the generator's own error through the registry, parse_design and precompute.
- build/designs.json lists every family with its grammar line; `make help` prints those lines.
- No code outside verif/registry.py takes a design name apart (a grep).
It runs the generator (sim chain of make test).
"""
import json
import re
import subprocess
from pathlib import Path

import pytest

import registry
from modmul import parse_design, precompute

ROOT = Path(__file__).resolve().parents[2]

NAMES = [
    "barrett_32", "shoup_17", "gshoup_64", "mul_24",                                    # the paper's three, bare product
    "mont_32", "cbarrett_32", "plantard_32", "wlm_32_w17", "wlmm_32_h15", "wlmm_64_h17_t26x17",
    "k2red_32_h15_lazy", "monts_32_h16_2l_rb", "k2reds_32_h15_3l_rb",                   # the reduction family, options
    "barrett_32__p1111_d5000_drc", "shoup_32__t26_mbdbk", "mont_32__mbdhc_drc",         # variants
    "gshoup_32_fast",                                                                   # a _fast alias
    "ntt_16_32_p1_gshoup", "ntt_16_32_p2_k2red_ram_sram", "ntt_16_32_p1_barrett__mbdhc_drc",  # NTT tiles
    "polymul_1024_19",
    "intfft_fermat32_parallel", "intfft_fermat32_folded_p4", "intfft_general32_butterfly",
    "intfft_fermat32_schoolbook", "intfft_fermat32_barrett",
    "mover_1024_x32_b64_l2_s32_o4_k2",                                                  # the multi-pass family (its smallest)
]
# Malformed multiplier names (also refused by parse_design and precompute) and malformed names of the other families.
MALFORMED_MUL = ["foo", "gshoup_1024", "barrett_32__zz", "wlm_32", "k2red_32_h20"]
MALFORMED_OTHER = ["ntt_100_32_p1_gshoup", "polymul_1000_19", "intfft_fermat99_parallel", "mpoly_1000_x64", "rows_1024_x64_z3", "mpoly_1024_x64_k1"]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("registry")
    p = subprocess.run([str(ROOT / "mill"), "-i", "hw.runMain", "modforge.Generate", "--out", str(out), "--index", *NAMES],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    return out


def manifest(out, name):
    return json.loads((out / name / "rtl" / f"{name}.json").read_text())


@pytest.mark.parametrize("name", NAMES)
def test_python_view_is_the_manifest(generated, name):
    e = registry.describe(name)
    m = manifest(generated, e["design"])  # a name with a default option spelled out is its canonical design
    assert e == m["registry"]
    # the manifest's own fields, written by another path of the generator, agree with the entry
    assert e["design"] == m["design"]
    assert e["family"] == m["family"] or m["family"] in ("ntt", "intfft")
    if "k" in e["params"] and "k" in m:
        assert e["params"]["k"] == m["k"]
    for f in ("w", "h", "tile"):
        if f in m:
            assert e["params"][f] == m[f], f
    if "lazy" in m:  # every reduction manifest says; the entry names it where the family has the option (k2red)
        assert e["params"].get("lazy", False) == m["lazy"]
    if m.get("proth"):
        assert e["params"]["proth"] == m["proth"] and e["params"]["preset"] == m["preset"]
    if m.get("group"):
        assert e["params"]["group"] == m["group"]
    if e["family"] in ("ntt", "polymul"):
        assert (e["params"]["n"], e["params"]["p"], e["params"]["arrangement"]) == (m["n"], m["p"], m["arrangement"])


@pytest.mark.parametrize("name", [n for n in NAMES if registry.describe(n)["precompute"] not in ("none", "ntt_host", "intfft")])
def test_models_view(generated, name):
    """The golden models' parameters come from the generator's answer, and match the manifest."""
    m, d = manifest(generated, registry.describe(name)["design"]), parse_design(name)
    assert d.k == m["k"] and d.family == m["family"]
    for f in ("w", "h"):
        if f in m:
            assert getattr(d, f) == m[f]


def generator_error(name: str) -> str:
    """What `make rtl DESIGN=<name>` prints: the generator's `error: ...` line."""
    cp = json.loads((registry.CACHE.parent / "classpath.json").read_text())["classpath"]
    p = subprocess.run(["java", "-cp", ":".join(cp), "modforge.Generate", "--out", "/nonexistent", name],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode != 0
    return p.stderr[p.stderr.index("error: "):].removeprefix("error: ").rstrip("\n")


@pytest.mark.parametrize("name", MALFORMED_MUL + MALFORMED_OTHER)
def test_malformed_names_get_the_generators_error(name):
    registry.describe_many([name])  # fills the classpath cache
    want = generator_error(name)
    with pytest.raises(registry.RegistryError) as e:
        registry.describe(name)
    assert str(e.value) == want
    lines = want.splitlines()  # at most a few lines: what, the grammar, the nearest names, where to read more
    assert len(lines) <= 6 and all(len(l) <= 200 for l in lines), want
    assert "nearest valid names: " in want and "make help" in want
    if name in MALFORMED_MUL:
        with pytest.raises(ValueError) as e2:
            parse_design(name)
        assert str(e2.value) == want
        with pytest.raises(ValueError) as e3:
            precompute(name, 1, 2, 97)
        assert str(e3.value) == want


def test_index_lists_every_family_and_help_prints_the_grammar():
    idx = registry.index()
    for key in ("table", "reduction_table", "ntt_table", "best", "polymul", "intfft_table"):
        assert idx[key], key
    assert set(idx["grammar"]) >= {"modmul", "variant", "fast", "mul", "reduction", "ntt", "polymul", "intfft", "multipass"}
    out = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True).stdout
    for line in idx["grammar"].values():
        assert line in out


def test_no_name_is_taken_apart_outside_the_registry():
    """Outside verif/registry.py no Python code splits, prefix-tests or regex-matches a design name."""
    pat = re.compile(r"""split\(["']__?["']|partition\(["']_["']\)|startswith\(["'](ntt|polymul|intfft|mul|barrett|shoup|gshoup|mont|cbarrett|plantard|wlmm?|k2reds?|monts)_|"""
                     r"""fullmatch\(r?["']\(?\[a-z\]|_PATTERN|VARIANT_TOKEN""")
    hits = []
    for f in sorted(list((ROOT / "flow").rglob("*.py")) + list((ROOT / "verif").rglob("*.py")) + list((ROOT / "scripts").rglob("*.py"))):
        if f.name in ("registry.py", "test_registry.py") or ".venv" in f.parts:
            continue
        for i, line in enumerate(f.read_text().splitlines(), 1):
            if pat.search(line):
                hits.append(f"{f.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not hits, "design names taken apart outside verif/registry.py:\n" + "\n".join(hits)


def test_gate_level_bench_comes_from_the_family(generated, monkeypatch):
    """make gls picks the bench from the design's registry entry, and refuses a family without one by name."""
    import layout
    import runner
    monkeypatch.setattr(layout, "BUILD", generated)
    with pytest.raises(ValueError, match="the intfft family has no gate-level bench"):
        runner.run_gls("intfft_fermat32_parallel", 1)


def test_ntt_q_on_a_design_that_is_not_a_tile_is_refused(tmp_path):
    """NTT_Q / NTT_PSI choose an NTT tile's modulus: on any other design they are refused, not ignored."""
    registry.describe_many(["barrett_32"])  # fills the classpath cache
    cp = json.loads((registry.CACHE.parent / "classpath.json").read_text())["classpath"]
    p = subprocess.run(["java", "-cp", ":".join(cp), "modforge.Generate", "--out", str(tmp_path), "--ntt-q", "97", "barrett_32"],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode != 0 and "apply to NTT tiles (ntt_...) only" in p.stderr and not (tmp_path / "barrett_32").exists()
