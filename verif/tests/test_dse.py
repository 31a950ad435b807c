"""The design-space exploration driver (flow/dse.py): its naming and lever rules, and one real run of
two points on a local Dask cluster of 2 workers (the distributed path `make dse DASK=...` takes).

The points are the bare products mul_16 and mul_16__mbdks (seconds each), rerun every time so
the cluster really executes them; their results are checked against the flow's own metrics.
"""
import json

import pytest

import dse
import layout


def test_names_and_levers():
    assert dse.name("barrett", 32, []) == "barrett_32"
    # tokens in a canonical order (pipeline, truncation, architecture, synthesis)
    assert dse.name("gshoup", 64, ["drc", "mbdks", "p111111001"]) == "gshoup_64__p111111001_mbdks_drc"
    assert dse.replace(["drc", "mbdks", "p1111"], "arch", ["mbdhc"]) == ["drc", "p1111", "mbdhc"]
    assert dse.replace(["drc", "d4000", "mbdks"], "synth", []) == ["mbdks"]
    assert dse.replace(["drc", "t27"], "trunc", []) == ["drc"]


def test_truncation_keeps_the_corrections():
    # docs/modmul.md, "Truncated quotient products": at k = 32, Barrett c <= 27, Shoup c <= 26, GShoup (24, 25)
    assert dse.truncation("barrett", 32) == ["t27"]
    assert dse.truncation("shoup", 32) == ["t26"]
    assert dse.truncation("gshoup", 32) == ["t24q25"]


def test_local_dask_cluster_of_two_workers():
    pytest.importorskip("dask.distributed")
    points = ["mul_16", "mul_16__mbdks"]
    dse.generate(points)
    runner = dse.Runner(jobs=1, local_cluster=2)
    try:
        assert len(runner.client.scheduler_info()["workers"]) == 2
        out = runner.run(points, rerun=True)
    finally:
        runner.close()
    assert sorted(out) == sorted(points) and all(r["ok"] for r in out.values()), out
    for p in points:
        m = json.loads(layout.metrics(p).read_text())
        assert m["design"] == p and m["design__instance__area"] > 0 and m["critical_path_ns"] > 0
        assert dse.up_to_date(p)
