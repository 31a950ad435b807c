"""The papers' figures as committed data (issue 30, "Stand alone"): data/papers/<paper>.toml.

(a) The committed data is what the papers' text gives: each file is byte-identical to what
    scripts/paper_data.py writes from the text, and every loader (primetools.paper_tables,
    ntt.millar_tables, intfft.paper_tables, flow/reports/tosun_tables.py, asic_table.paper_table1)
    returns what the moved text parsers (papers.text) return. Skipped, saying why, when the text
    is not there ($MODFORGE_PAPERS, default ../shared/papers); the parsers' refusals are tested on
    made-up text either way.
(b) Nothing else reads the text: with MODFORGE_PAPERS pointing at an empty folder every loader
    works, scripts/paper_data.py --check says where the text should be, and the paper-dependent
    tests pass (a subprocess; the ones that need build/ artifacts skip, saying so, when it is missing).
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import papers
from papers import text as ptext

ROOT = Path(__file__).resolve().parents[2]
NEEDS = {"gshoup": [papers.PAPERS["gshoup"]], "tosun": [papers.PAPERS["tosun"], ptext.NOTES],
         "millar": [papers.PAPERS["millar"]], "cao": [papers.PAPERS["cao"], ptext.NOTES]}


def need_text(paper):
    """Skip, naming the variable and the folder, unless the paper's text (and the notes it needs) is there."""
    missing = [n for n in NEEDS[paper] if not ptext.text_path(n).is_file()]
    if missing:
        pytest.skip(f"the papers' text is not here: {', '.join(missing)} not in {ptext.papers_dir()} "
                    f"(set MODFORGE_PAPERS to the folder that holds it; default ../shared/papers beside the "
                    f"repository); the committed data/papers/{paper}.toml is used as it is")


# ---- (a) the committed data is the text's ----

@pytest.mark.parametrize("paper", list(papers.PAPERS))
def test_committed_data_is_the_text(paper):
    need_text(paper)
    committed = papers.data_path(paper).read_text(encoding="utf-8")
    assert committed == ptext.render(ptext.documents([paper])[paper]), \
        f"data/papers/{paper}.toml differs from the text: .venv/bin/python scripts/paper_data.py --check {paper}"


def test_tosun_loaders_are_the_parsers():
    need_text("tosun")
    from papers.text import tosun as T
    from primetools import paper_tables as P
    from reports import tosun_tables
    assert P.paper_table2() == T.paper_table2()
    assert P.paper_table3_counts() == T.paper_table3_counts()
    assert P.proth2l_lists() == T.notes_proth2l()
    extra = ("rho", "l3", "h_printed")
    parsed = [{k: v for k, v in r.items() if k not in extra} for r in T.parse()]
    for r in parsed:
        r["atp"] = tosun_tables.atp(r["lut"], r["ff"], r["dsp"], r["f_mhz"])
    assert tosun_tables.parse() == parsed
    assert tosun_tables.claim() == T.claim()
    # fpga_table's published figures: the notes' copy of Table 3 (what it read before issue 30)
    ours = tosun_tables.published_reductions()
    notes = T.notes_table3()
    assert [r["algorithm"] for r in ours] == [r["algorithm"].split(" (")[0] for r in notes]
    assert [{k: v for k, v in r.items() if k != "algorithm"} for r in ours] == \
        [{k: v for k, v in r.items() if k != "algorithm"} for r in notes]


def test_millar_loaders_are_the_parsers():
    need_text("millar")
    from ntt import millar_tables as mt
    from papers.text import millar as M
    for f in ("paper_table1", "paper_table2", "paper_device", "paper_table4", "table4_part"):
        assert getattr(mt, f)() == getattr(M, f)(), f
    assert M.table4_printed_part() == mt.TABLE4_PART_MISPRINT


def test_cao_loaders_are_the_parsers():
    need_text("cao")
    from intfft import paper_tables as pt
    from papers.text import cao as C
    for f in ("paper_table1", "paper_table2", "paper_table3", "paper_table4", "paper_table5", "paper_table6"):
        assert repr(getattr(pt, f)()) == repr(getattr(C, f)()), f   # repr: Decimal exponents too


def test_gshoup_loader_is_the_parser():
    need_text("gshoup")
    from papers.text import gshoup as G
    from reports import asic_table
    parsed = {(asic_table.PAPER_NAMES[d], k): (ns, um2) for d, k, ns, um2 in G.paper_table1()}
    assert asic_table.paper_table1() == parsed and len(parsed) == 12


def test_millar_parser_refuses_a_broken_table(tmp_path):
    need_text("millar")
    from papers.text import millar as M
    text = ptext.text_path(M.MILLAR).read_text(encoding="utf-8")
    broken = tmp_path / M.MILLAR
    broken.write_text(text.replace("TABLE IV\n", "TABLE 4\n"), encoding="utf-8")
    with pytest.raises(papers.PaperTableError, match="TABLE IV"):
        M.paper_table4(broken)
    broken.write_text(text.replace("1,024\t19\t7,390\t30", "1,024\t19\t7,390"), encoding="utf-8")
    with pytest.raises(papers.PaperTableError, match="cells"):
        M.paper_table2(broken)


def test_parsers_name_the_missing_text(tmp_path, monkeypatch):
    """The parsers' refusals on a missing or made-up text (no real text needed)."""
    from papers.text import cao as C, gshoup as G, millar as M, tosun as T
    monkeypatch.setenv("MODFORGE_PAPERS", str(tmp_path))
    for parse, name in ((T.paper_table2, T.TOSUN), (M.paper_table1, M.MILLAR), (C.paper_table1, C.CAO),
                        (G.paper_table1, G.GSHOUP), (T.notes_proth2l, ptext.NOTES)):
        with pytest.raises(papers.PaperTableError, match=re.escape(name) + ".*MODFORGE_PAPERS"):
            parse()
    (tmp_path / T.TOSUN).write_text("no tables here\n")
    with pytest.raises(papers.PaperTableError, match="Table 2's header"):
        T.paper_table2()
    with pytest.raises(papers.PaperTableError, match="'Table 3:'"):
        T.paper_table3_counts()
    (tmp_path / C.CAO).write_text("Table 1. nothing\n\nno header here\n")
    with pytest.raises(papers.PaperTableError, match="Table 1's header"):
        C.paper_table1()
    with pytest.raises(papers.PaperTableError, match="'Table 6.' not found"):
        C.paper_table6()


def test_render_round_trips():
    """The writer's TOML reads back as the records (big integers and Decimals as strings)."""
    import tomllib
    from decimal import Decimal
    figs = [ptext.figure("T", 1, "a \"q\"", 2 ** 64 + 1, "cite"),
            ptext.figure("T", "r", "b", Decimal("0.050"), "cite", unit="s", printed="0.050 s"),
            ptext.figure("T", 2, "c", 4.5, "cite")]
    doc = {"comment": ["c"], "paper": {"key": "x"}, "figures": figs}
    back = tomllib.loads(ptext.render(doc))
    assert back["figures"][0]["value"] == str(2 ** 64 + 1) and papers.number(back["figures"][0]["value"]) == 2 ** 64 + 1
    assert back["figures"][0]["column"] == 'a "q"'
    assert back["figures"][1] == {"table": "T", "row": "r", "column": "b", "value": "0.050", "unit": "s",
                                  "printed": "0.050 s", "cite": "cite"}
    assert back["figures"][2]["value"] == 4.5 and back["paper"] == {"key": "x"}


# ---- (b) nothing else reads the text ----

def test_loaders_without_the_text(tmp_path, monkeypatch):
    """Every loader the tests and reports use, with MODFORGE_PAPERS at an empty folder."""
    monkeypatch.setenv("MODFORGE_PAPERS", str(tmp_path))
    from intfft import fpga, latency, params
    from intfft import paper_tables as pt
    from ntt import millar_tables as mt
    from primetools import paper_tables as P
    from reports import asic_table, tosun_tables
    assert len(P.paper_table2()) == 8 and len(P.paper_table3_counts()) == 6
    assert sum(map(len, P.proth2l_lists().values())) == 35
    assert len(mt.paper_table1()) == 18 and len(mt.paper_table2()) == 18 and len(mt.paper_table4()) == 4
    assert mt.paper_device().part == mt.table4_part()
    assert len(pt.paper_table1()) == len(pt.paper_table2()) == 4 and len(pt.paper_table3()) == 4
    assert len(pt.paper_table4().rows) == 4 and len(pt.paper_table5().rows) == 8 and len(pt.paper_table6()) == 41
    assert len(params.table3_groups()) == 4 and len(params.scheme_groups()) == 8
    assert len(latency.table6()) == 32 and len(fpga.utilisation()) == 4
    rows = tosun_tables.parse()
    assert len(rows) == 42 and sum(bool(r["erratum"]) for r in rows) == 3
    assert tosun_tables.claim() and len(tosun_tables.published_reductions()) == 16
    assert len(asic_table.paper_table1()) == 12


def test_no_module_reads_the_text():
    """Only the parsers (verif/papers/text) and scripts/paper_data.py build the papers' folder or read
    MODFORGE_PAPERS; no code or report text cites a file of ../shared/papers/."""
    allowed = {ROOT / "verif" / "papers" / "text", ROOT / "scripts" / "paper_data.py", Path(__file__)}
    found = []
    for top in ("verif", "flow", "scripts"):
        for f in (ROOT / top).rglob("*.py"):
            if any(f == a or a in f.parents for a in allowed):
                continue
            s = f.read_text(encoding="utf-8")
            if re.search(r"[\"']shared[\"']\s*/\s*[\"']papers[\"']|shared/papers/[\w.-]+\.(txt|md)"
                         r"|getenv\(\s*[\"']MODFORGE_PAPERS|environ[^\n]*MODFORGE_PAPERS", s):
                found.append(str(f.relative_to(ROOT)))
    assert not found, "modules that read the papers' text at run time: " + ", ".join(found)


def test_check_without_the_text(tmp_path):
    env = {**os.environ, "MODFORGE_PAPERS": str(tmp_path)}
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "paper_data.py"), "--check"], env=env,
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 2, run.stdout + run.stderr
    assert str(tmp_path) in run.stderr and "MODFORGE_PAPERS" in run.stderr and "unchanged" in run.stderr


# The tests that use the papers' figures, by file; they must pass (or skip, saying why) without the text.
PAPER_TESTS = {
    "test_proth.py": "paper or table2 or table3_parsed or notes_2l or data_missing",
    "test_sw_baseline.py": "table1 or table2 or table4 or device or resource_counts or missing",
    "test_polymul.py": "registry_is_table1 or manifest_q_psi or cycles_near_ideal",
    "test_intfft_models.py": "tables_1_2 or table3_and_groups or tables_4_5 or table6_cells or missing_paper_data "
                             "or parse_helpers or erratum_printed_roots",
}


def test_paper_tests_without_the_text(tmp_path):
    """The paper-dependent tests in a fresh interpreter with MODFORGE_PAPERS at an empty folder."""
    env = {**os.environ, "MODFORGE_PAPERS": str(tmp_path)}
    failed = {}
    for f, k in PAPER_TESTS.items():
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", k,
                              str(ROOT / "verif" / "tests" / f)], env=env, capture_output=True, text=True,
                             timeout=120, cwd=ROOT)
        tail = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr[-500:]
        if run.returncode != 0 or " passed" not in tail:
            failed[f] = run.stdout[-1500:] + run.stderr[-500:]
    assert not failed, "\n\n".join(f"{f}:\n{out}" for f, out in failed.items())
