"""Ctrl-C or SIGTERM during a harden stops everything it started (issue 30, C3): flow/harden.py
runs LibreLane in a process group of its own and stops that group when it is signalled, so no
LibreLane, synthesis or STA process outlives it, and nothing half-written lands where a finished
result would be (build/<d>/harden/ stays as it was).

Runs a 16-bit design (its RTL from `make rtl DESIGN=gshoup_16`, or gshoup_32's from `make test`'s
generator run) in a temporary build folder (MODFORGE_BUILD) and signals harden.py once synthesis
has started: a few seconds per signal.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import layout

ROOT = Path(__file__).resolve().parents[2]
PY = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
DESIGN = next((d for d in ("gshoup_16", "gshoup_32") if layout.manifest(d).exists()), None)


def processes() -> dict:
    """pid -> (ppid, pgid, state, command line) of every process, from /proc."""
    out = {}
    for d in Path("/proc").glob("[0-9]*"):
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
        out[int(d.name)] = (int(fields[1]), int(fields[2]), fields[0], cmd)
    return out


def descendants(pid: int) -> dict:
    procs, found, todo = processes(), {}, [pid]
    while todo:
        p = todo.pop()
        for c, info in procs.items():
            if info[0] == p and c not in found:
                found[c] = info
                todo.append(c)
    return found


def alive(pids) -> list:
    """The pids still running (zombies count as gone)."""
    procs = processes()
    return [p for p in pids if p in procs and procs[p][2] != "Z"]


@pytest.mark.skipif(DESIGN is None, reason="no RTL of gshoup_16 or gshoup_32: make rtl DESIGN=gshoup_16")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_harden_stops_librelane_and_synthesis(tmp_path, sig):
    build = tmp_path / "build"
    shutil.copytree(layout.rtl_dir(DESIGN), build / DESIGN / "rtl")
    earlier = build / DESIGN / "harden"
    earlier.mkdir()
    (earlier / "metrics.json").write_text(json.dumps({"earlier": True}))  # a last good result
    p = subprocess.Popen([PY, str(ROOT / "flow" / "harden.py"), DESIGN], cwd=ROOT, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "MODFORGE_BUILD": str(build)})
    seen, children = [], {}
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until synthesis (pyosys, flow/synth.py) runs
            children = descendants(p.pid)
            if any("synth.py" in c[3] for c in children.values()):
                break
            assert p.poll() is None, "harden ended before synthesis started:\n" + p.stdout.read()
            time.sleep(0.05)
        else:
            pytest.fail("synthesis did not start within 60 s")
        time.sleep(0.3)
        children = descendants(p.pid)
        assert any("librelane" in c[3] for c in children.values()), children
        assert all(c[1] != os.getpgid(p.pid) for c in children.values()), "LibreLane runs in a group of its own"
        p.send_signal(sig)
        out, _ = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 128 + sig, out
    assert "stopped by" in out and "as it was" in out, out
    deadline = time.monotonic() + 10  # the orphans' last moments
    while alive(children) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = alive(children)
    assert not left, "still running: " + "; ".join(processes()[c][3][:120] for c in left if c in processes())
    assert json.loads((earlier / "metrics.json").read_text()) == {"earlier": True}, "the last good result is kept"
    assert sorted(x.name for x in earlier.iterdir()) == ["metrics.json"]
    assert not (build / DESIGN / "harden.partial").exists() and not (build / DESIGN / "harden.old").exists()
