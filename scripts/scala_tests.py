#!/usr/bin/env python3
"""Run the Scala test suites (ScalaTest) in one of two shards, without Mill, so that `make test`
can run them on both cores: Mill runs one task at a time, so a second `mill hw.test` would wait.

    scripts/scala_tests.py classpath --out build/scala_tests.cp
    scripts/scala_tests.py run --shard a|b --classpath build/scala_tests.cp [--build DIR]

`classpath` asks Mill once (`mill show hw.test.runClasspath`, which compiles the tests) and writes
the classpath. `run` starts one JVM (with build.sc's -Xss256m) on the suites of its shard: shard b
is SHARD_B below; shard a is every other compiled suite (a class named *Spec), so a new suite runs
without being listed. `--build` gives the shard its own SpinalSim workspace (MODFORGE_BUILD): two
JVMs writing build/simWorkspace/tmp at once would overwrite each other's job folders.
Exit status: ScalaTest's (non-zero if any test failed or no suite was found).
"""
import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The shard that runs beside the flows in `make test`: about a quarter of the SpinalSim time
# (Verilator builds of the NTT butterflies and tiles, the memories and the multi-pass NTT units), chosen to balance the two
# chains (reports/test_times.md: on 2026-11-25 the sim chain took 10.6 min, the flow chain 9.2).
SHARD_B = ["modforge.ntt.ButterflySimSpec", "modforge.ntt.NttTileSimSpec", "modforge.mem.SyncRamSpec",
           "modforge.polymul.StreamNttSimSpec"]
FORK_ARGS = ["-Xss256m"]  # build.sc: hw.forkArgs


def classpath(out: Path) -> None:
    p = subprocess.run(["./mill", "-i", "show", "hw.test.runClasspath"], cwd=ROOT, text=True, capture_output=True)
    if p.returncode != 0:
        sys.exit(f"scala_tests: `mill show hw.test.runClasspath` failed (exit {p.returncode}):\n{p.stderr[-3000:]}")
    # Mill prints path refs as "ref:v0:<hash>:/path" or "qref:v1:<hash>:/path".
    paths = [re.sub(r"^q?ref:v\d+:[0-9a-f]+:", "", e) for e in json.loads(p.stdout)]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(os.pathsep.join(paths) + "\n")
    print(f"scala_tests: classpath of {len(paths)} entries -> {out}")


def suites(cp: list) -> list:
    """Every compiled suite: test classes named *Spec (not inner or companion classes)."""
    found = []
    for entry in cp:
        d = Path(entry)
        if d.is_dir() and d.parts[-3:] == ("test", "compile.dest", "classes"):
            found += [".".join(c.relative_to(d).with_suffix("").parts) for c in d.rglob("*Spec.class")]
    return sorted(found)


def run(shard: str, cp_file: Path, build: str) -> int:
    if not cp_file.exists():
        sys.exit(f"scala_tests: {cp_file} is missing. Fix: scripts/scala_tests.py classpath --out {cp_file}")
    cp = cp_file.read_text().strip().split(os.pathsep)
    every = suites(cp)
    missing = [s for s in SHARD_B if s not in every]
    if missing:
        sys.exit(f"scala_tests: shard b names {', '.join(missing)}, which is not a compiled suite. "
                 "Fix: SHARD_B in scripts/scala_tests.py")
    mine = [s for s in every if (s in SHARD_B) == (shard == "b")]
    if not mine:
        sys.exit(f"scala_tests: shard {shard} has no suite (compiled suites: {len(every)})")
    print(f"scala_tests: shard {shard}: {len(mine)} of {len(every)} suites: {' '.join(s.split('.')[-1] for s in mine)}", flush=True)
    env = dict(os.environ)
    if build:
        env["MODFORGE_BUILD"] = str(Path(build).resolve())
    args = [a for s in mine for a in ("-s", s)]
    # -oD: standard output, with each test's duration.
    cmd = ["java", *FORK_ARGS, "-cp", os.pathsep.join(cp), "org.scalatest.tools.Runner", "-oD", *args]
    return subprocess.run(cmd, cwd=ROOT, env=env).returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("classpath")
    c.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("run")
    r.add_argument("--shard", choices=("a", "b"), required=True)
    r.add_argument("--classpath", type=Path, required=True)
    r.add_argument("--build", help="build folder of the SpinalSim workspace (MODFORGE_BUILD); default build/")
    a = ap.parse_args()
    if a.cmd == "classpath":
        classpath(a.out)
        return 0
    return run(a.shard, a.classpath, a.build)


if __name__ == "__main__":
    sys.exit(main())
