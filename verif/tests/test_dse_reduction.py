"""The reduction family's design-space exploration (flow/dse.py --family reduction; docs/reduction.md,
"Design-space exploration"): which points the descent proposes, the resumability rule, and that a
candidate the registry refuses is recorded as refused with the registry's own reason, never built.

Nothing is synthesized: the runner, the generator call and the results are stand-ins; the names are
the registry's (its answers are cached in build/registry/, so no Mill is needed).
"""
import json

import pytest

import dse
import registry

BASE = "monts_64_h17_2l_rb"


def reason(name):
    """The registry's own reason for refusing a name (its message's first line)."""
    e = registry.describe_many([name])[name]
    assert "error" in e, f"the registry accepts {name}"
    return e["error"].splitlines()[0]


class FakeRunner:
    def __init__(self):
        self.ran = []

    def run(self, designs, rerun):
        self.ran += designs
        return {}


def fake_sweep(monkeypatch, score, failed=()):
    """Points score by their tokens (score: {token: gain}); the `failed` ones have no result."""
    built = []
    monkeypatch.setattr(dse, "generate", lambda ds: built.extend(ds) or [])

    def metrics_of(d):
        if d in failed:
            return None
        toks = dse.variant_tokens(d)
        t = 1.0 + sum(score.get(x, 0) for x in toks)
        return {"design": d, "latency": 5, "tput_per_area": t, "critical_path_ns": 2.0, "area_um2": 1e6 / (2.0 * t),
                "cells": 10}
    monkeypatch.setattr(dse, "metrics_of", metrics_of)
    return built


def test_reduction_plan_proposes_recipe_and_architecture_and_refuses_the_rest():
    steps = dse.plan_reduction(BASE)
    assert [s[0] for s in steps] == ["synth", "arch", "pipe", "trunc", "synth"]
    (_, synth, no1), (_, arch, no2), (_, pipe, no3), (_, trunc, no4), (_, synth2, no5) = steps
    assert synth == [BASE, BASE + "__drc"]
    assert arch == [BASE] + [f"{BASE}__{a}" for a in ("mbdks", "mbdbk", "mbdhc", "madks")]
    assert synth2 == [BASE + "__drc", BASE + "__drc_fa1"]
    assert not (no1 or no2 or no5)
    # the paper families' pipeline masks and truncations: refused for a reduction design, with the registry's reason
    assert pipe == [] and no3 == {BASE + "__p1": reason(BASE + "__p1")}
    assert trunc == [] and no4 == {BASE + "__t1": reason(BASE + "__t1")}
    assert "pipeline masks (p...) apply to barrett, shoup and gshoup only" in no3[BASE + "__p1"]


def test_reduction_designs_are_the_tables_at_the_width():
    idx = registry.index()["reduction_table"]
    at64 = dse.reduction_designs([64])
    assert BASE in at64 and "k2reds_64_h32_3l_rb" in at64 and "mont_64" in at64
    assert at64 == [d for d in idx if registry.describe(d)["params"]["k"] == 64]
    assert not any(registry.describe(d)["params"]["k"] != 64 for d in at64)
    assert dse.reduction_designs([64], ["wlm_64_w17", BASE]) == ["wlm_64_w17", BASE]
    with pytest.raises(dse.FlowError, match="pipeline masks"):
        dse.reduction_designs([64], [BASE + "__p1"])


def test_descent_builds_the_best_path_and_records_refusals_and_failures(monkeypatch):
    built = fake_sweep(monkeypatch, {"drc": 0.5, "mbdhc": 0.4, "mbdks": 0.2, "fa1": 0.1},
                       failed={BASE + "__madks_drc"})
    runner, log, outcome = FakeRunner(), [], {}
    seen = dse.descend(BASE, dse.REDUCTION_LEVERS, runner, False, log, outcome)
    want = [BASE, BASE + "__drc",                                          # the paper recipe, then drc
            *(f"{BASE}__{a}_drc" for a in ("mbdks", "mbdbk", "mbdhc", "madks")),  # architectures on the best recipe
            BASE + "__mbdhc_drc_fa1"]                                      # adder cells on the best architecture
    assert list(seen) == want and runner.ran == want and built == want
    best = max((m for m in seen.values() if m), key=lambda m: m["tput_per_area"])
    assert best["design"] == BASE + "__mbdhc_drc_fa1"
    assert outcome["failed"] == [BASE + "__madks_drc"]
    # refused candidates: recorded with the registry's reason, in the log too, and never generated or run
    # (asked from the best point so far: the architecture and recipe it has, plus the probe)
    assert set(outcome["refused"]) == {BASE + "__p1_mbdhc_drc", BASE + "__t1_mbdhc_drc"}
    for n, why in outcome["refused"].items():
        assert why == reason(n) and n not in built and n not in runner.ran
        assert any(f"refused `{n}`: {why}" in line for line in log)
    assert log[0] == f"{BASE}: synth: 2 points, best {BASE}__drc"


def test_paper_family_sweep_is_unchanged(monkeypatch):
    """The shared descent still proposes the paper families' points (pipeline masks, truncation)."""
    built = fake_sweep(monkeypatch, {"drc": 0.5, "mbdhc": 0.4, "p111111100": 0.3, "t58": 0.2, "fa1": 0.1})
    log = []
    dse.sweep("barrett", 64, FakeRunner(), False, log)
    assert log == ["barrett_64: synth: 3 points, best barrett_64__drc",
                   "barrett_64: arch: 5 points, best barrett_64__mbdhc_drc",
                   "barrett_64: pipe: 8 points, best barrett_64__p111111100_mbdhc_drc",
                   "barrett_64: trunc: 2 points, best barrett_64__p111111100_t58_mbdhc_drc",
                   "barrett_64: synth: 3 points, best barrett_64__p111111100_t58_mbdhc_drc_fa1"]
    assert len(built) == 1 + 2 + 4 + 7 + 1 + 2


def test_resumable_a_point_reruns_only_when_its_rtl_or_the_flow_changed(monkeypatch, tmp_path):
    rtl = {"a": "module a;", "b": "module b;"}
    flow = {"sha": "F1"}
    monkeypatch.setattr(dse.layout, "metrics", lambda d: tmp_path / d / "metrics.json")
    monkeypatch.setattr(dse.layout, "rtl", lambda d: tmp_path / d / "rtl.v")
    monkeypatch.setattr(dse, "rtl_sha256", lambda d: "R:" + rtl[d])
    monkeypatch.setattr(dse, "flow_sha256", lambda: flow["sha"])
    ran = []

    def harden_job(d, root):
        ran.append(d)
        (tmp_path / d).mkdir(exist_ok=True)
        (tmp_path / d / "rtl.v").write_text(rtl[d])
        (tmp_path / d / "metrics.json").write_text(json.dumps({
            "design": d, "rtl_sha256": "R:" + rtl[d], "flow_sha256": flow["sha"], "date": "now", "latency": 5,
            "design__instance__area": 100.0, "critical_path_ns": 2.0, "design__instance__count": 10}))
        return {"design": d, "ok": True, "wall_s": 0.0, "tail": ""}
    monkeypatch.setattr(dse, "harden_job", harden_job)
    runner = dse.Runner(jobs=1)
    runner.run(["a", "b"], rerun=False)
    assert sorted(ran) == ["a", "b"] and dse.up_to_date("a") and dse.metrics_of("a")["tput_per_area"] == 5000.0
    ran.clear()
    runner.run(["a", "b"], rerun=False)
    assert ran == []                                  # finished points are kept
    rtl["b"] = "module b2;"                           # b's RTL changed: only b reruns
    assert not dse.up_to_date("b") and dse.metrics_of("b") is None
    runner.run(["a", "b"], rerun=False)
    assert ran == ["b"]
    ran.clear()
    flow["sha"] = "F2"                                # the flow changed: every point reruns
    runner.run(["a", "b"], rerun=False)
    assert sorted(ran) == ["a", "b"]
    ran.clear()
    runner.run(["a"], rerun=True)                     # --rerun forces it
    assert ran == ["a"]


def test_report_lists_refusals_with_the_reason_and_failed_points(monkeypatch, tmp_path):
    import reports.reduction_table as rt
    monkeypatch.setattr(dse, "REPORTS", tmp_path)
    monkeypatch.setattr(dse, "REDUCTION_HISTORY", tmp_path / "history_reduction.json")
    built = fake_sweep(monkeypatch, {"drc": 0.5, "mbdhc": 0.4}, failed={BASE + "__madks_drc"})
    log, outcome = [], {}
    seen = dse.descend(BASE, dse.REDUCTION_LEVERS, FakeRunner(), False, log, outcome)
    monkeypatch.setattr(dse, "collect_reduction",
                        lambda history: {BASE: {**seen, **{n: None for o in history["outcomes"].values() for n in o["failed"]}}})
    monkeypatch.setattr(dse, "result", lambda d: {"tools": {"yosys": "test"}, "wall_s": 1.0})
    monkeypatch.setattr(rt, "modulus_of", lambda d: ("Proth-2l, log q_h = 17", "5", "exact"))
    dse.write_reduction_reports(log, 60.0, "1 local jobs", {BASE: outcome})
    md = (tmp_path / "dse_reduction.md").read_text()
    assert "## Refused by the registry" in md
    for n, why in outcome["refused"].items():
        assert f"| `{n}` | {why} |" in md
    assert f"| `{BASE}__madks_drc` | failed or not measured |" in md
    assert f"| 64 | `{BASE}` |" in md and "**1.90x**" in md and "Proth-2l, log q_h = 17 | 5 |" in md
    rows = (tmp_path / "dse_reduction.csv").read_text().splitlines()
    assert rows[0] == "base,family,k,modulus_class,usable_primes,design,latency,area_um2,critical_path_ns,tput_per_area,cells"
    assert len(rows) == 1 + len([m for m in seen.values() if m])
    h = json.loads((tmp_path / "history_reduction.json").read_text())
    assert h["outcomes"][BASE]["refused"] == outcome["refused"] and len(h["runs"]) == 1
    assert built and not (tmp_path / "dse.md").exists()  # the paper families' report is not touched
