"""scripts/scala_tests.py, the two SpinalSim shards of `make test`: every compiled suite runs in
exactly one shard, a new suite lands in shard a without being listed, shard b gets its own
workspace, and a SHARD_B entry that names no compiled suite is refused with the fix.
No JVM runs: the java command is recorded instead.
"""
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str):
    """scripts/<name>.py as a module: scripts/ is not on sys.path (the scripts run as `python scripts/x.py`)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


scala_tests = _script("scala_tests")

SUITES = ["modforge.DesignsSpec", "modforge.arith.ConstMulSpec", "modforge.intfft.NewSpec"] + scala_tests.SHARD_B


@pytest.fixture
def classpath(tmp_path):
    classes = tmp_path / "out" / "hw" / "test" / "compile.dest" / "classes"
    for s in SUITES:
        f = classes.joinpath(*s.split(".")).with_suffix(".class")
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"")
        f.with_name(f.stem + "$.class").write_bytes(b"")          # companion: not a suite
    (classes / "modforge" / "ModMulSim.class").write_bytes(b"")   # helper: not a suite
    cp = tmp_path / "cp"
    cp.write_text(f"/nonexistent/scalatest.jar:{classes}\n")
    return cp


def java_runs(monkeypatch):
    seen = []

    def fake_run(cmd, **kw):
        seen.append((cmd, kw.get("env", {})))
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(scala_tests.subprocess, "run", fake_run)
    return seen


def suites_of(cmd):
    return [cmd[i + 1] for i, a in enumerate(cmd) if a == "-s"]


def test_the_shards_split_every_suite_once(classpath, monkeypatch, tmp_path):
    seen = java_runs(monkeypatch)
    assert scala_tests.run("a", classpath, None) == 0
    assert scala_tests.run("b", classpath, str(tmp_path / "b")) == 0
    a, b = suites_of(seen[0][0]), suites_of(seen[1][0])
    assert sorted(a + b) == sorted(SUITES) and not set(a) & set(b)
    assert sorted(b) == sorted(scala_tests.SHARD_B)
    assert "modforge.intfft.NewSpec" in a          # a new suite is run without being listed
    assert seen[1][1]["MODFORGE_BUILD"] == str((tmp_path / "b").resolve())
    assert "-Xss256m" in seen[0][0]


def test_a_stale_shard_b_entry_is_refused(classpath, monkeypatch):
    java_runs(monkeypatch)
    monkeypatch.setattr(scala_tests, "SHARD_B", scala_tests.SHARD_B + ["modforge.ntt.GoneSpec"])
    with pytest.raises(SystemExit, match="GoneSpec, which is not a compiled suite. Fix: SHARD_B"):
        scala_tests.run("b", classpath, None)


def test_a_missing_classpath_names_the_command(tmp_path):
    with pytest.raises(SystemExit, match="Fix: scripts/scala_tests.py classpath"):
        scala_tests.run("a", tmp_path / "none.cp", None)
