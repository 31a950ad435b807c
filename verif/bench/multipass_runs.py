"""What the multi-pass pytest entries share (verif/tests/test_multipass_{mover,rows,columns,engine}.py): they run in
`make test-long` only, generate their designs in one generator call, run a design's cocotb bench on its RTL and
read the cycle records the bench leaves, and ask a unit's generator for a refusal."""
import filecmp
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from runner import ROOT, run_bench

# make test-long only (MODFORGE_POLYMUL_LONG=1): with the engine's bench and the given-primes tests in it, make test
# on a fresh clone took 15.1 min (reports/test_times.md, 2026-11-28), over its limit (docs/testing.md, "Tiers").
LONG_ONLY = pytest.mark.skipif(os.environ.get("MODFORGE_POLYMUL_LONG") != "1",
                               reason="make test-long (MODFORGE_POLYMUL_LONG=1): make test's 15-minute limit")


def generate(out, designs, primes=()):
    """The designs' RTL and manifests into <out>/<design>/rtl/, through the generator's one entry point. `primes`: the
    limb primes the designs are given (`--primes q0,q1,...`, make's PRIMES=; a multi-limb engine's `_q<hash>` names),
    so a design of given primes takes a call of its own."""
    given = ["--primes", ",".join(str(q) for q in primes)] if primes else []
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out, prefix=".generate_") as tmp:
        subprocess.run(["./mill", "-i", "hw.runMain", "modforge.Generate", "--out", tmp, *given, *designs], cwd=ROOT,
                       check=True, stdout=subprocess.DEVNULL)
        keep_unchanged(Path(tmp), out)


def keep_unchanged(new: Path, out: Path):
    """Moves the generator's files from `new` into `out`, leaving a file whose bytes are unchanged as it was. Why: a
    Verilator model is rebuilt when its Verilog is newer than it, and the large engines' models take 10 to 95 minutes
    to compile (docs/polymul_multipass.md, "Large sets under Verilator"); a test that generates its design again then
    reuses the model of an earlier test or run."""
    for f in sorted(new.rglob("*")):
        if f.is_dir():
            continue
        dest = out / f.relative_to(new)
        if dest.is_file() and filecmp.cmp(f, dest, shallow=False):   # sizes first, then bytes
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(f), str(dest))


def run(out, design: str, bench: str, unit: str, tests, extra_env=None, testcase=None, sim=None):
    """Runs cocotb bench module `bench` on the design's RTL (its test `testcase`, or all; under `sim`, run_bench's
    default if None); returns its manifest and {test: the records the bench wrote to sim_rtl/<unit>_cycles_<test>.json}."""
    rtl = out / design / "rtl" / f"{design}.v"
    manifest = rtl.with_suffix(".json")
    run_bench(design, [rtl, *macro_sources(json.loads(manifest.read_text()), sim)], kind="rtl", test_module=bench,
              manifest=manifest, extra_env=extra_env, testcase=testcase, sim=sim)
    records = out / design / "sim_rtl"
    return (json.loads(manifest.read_text()),
            {t: json.loads((records / f"{unit}_cycles_{t}.json").read_text()) for t in tests})


def macro_sources(m: dict, sim=None) -> list:
    """The behavioural models of the SRAM macros a design instantiates (its manifest's `sram`: the rows engine's delay
    lines of 256 words and more, from n2 = 512), quiet; under Verilator the copy it accepts (no `#(T_HOLD)` delay)."""
    if not (m.get("sram") or {}).get("macro_models"):
        return []
    from pdk import find_pdk, sram_views
    from runner import macro_models, simulator
    pdk = find_pdk()
    if simulator(sim) == "verilator":
        from polymul_stream_verilator import verilator_macro_model
        return [verilator_macro_model(sram_views(pdk, x).verilog) for x in m["sram"]["macro_models"]]
    return macro_models(pdk, m)


def refusal(main: str, out, name: str, args=()) -> str:
    """What a unit's generator (`main`, its whole message) prints for a name it must refuse; `args` go before the name
    (e.g. `modforge.Generate`'s `--primes q0,q1`)."""
    p = subprocess.run(["./mill", "-i", "hw.runMain", main, "--out", str(out / "refused"), *args, name], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode != 0, f"{name} was not refused"
    return p.stderr + p.stdout
