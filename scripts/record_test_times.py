#!/usr/bin/env python3
"""Time `make test` and `make test-long`; write reports/test_times.md and the table in docs/testing.md.

    scripts/record_test_times.py [--cold] [--skip-long] [--skip-warm]

--cold runs `make test` first in a fresh clone with an empty HOME, so Mill, its dependencies
and the venv are fetched from the registries as on a fresh machine (Debian packages already
installed stay installed). Every figure comes with the date, machine and tool versions.
"""
import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- test-times:begin -->", "<!-- test-times:end -->"


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=True, text=True, capture_output=True, **kw).stdout.strip()


def versions():
    py = ROOT / ".venv/bin/python"
    return {
        "Verilator": sh("verilator --version"),
        "Icarus Verilog": sh("iverilog -V 2>&1 | head -1"),
        "Java": sh("java -version 2>&1 | head -1"),
        "Mill": (ROOT / ".mill-version").read_text().strip(),
        "SpinalHDL": re.search(r'spinalVersion = "([^"]+)"', (ROOT / "build.sc").read_text()).group(1),
        "cocotb": sh(f"{py} -c 'import cocotb; print(cocotb.__version__)'"),
        "Python": sh(f"{py} --version"),
    }


def timed(cmd, cwd, env=None):
    print(f"record: running `{cmd}` in {cwd}", flush=True)
    t0 = time.monotonic()
    p = subprocess.run(cmd, shell=True, cwd=cwd, env=env, text=True, capture_output=True)
    dt = time.monotonic() - t0
    # the whole output kept (each chain's lines carry their minute: where the time goes)
    log = ROOT / "build" / "record_test_times" / f"{cmd.replace(' ', '_')}_{'cold' if cwd != ROOT else 'warm'}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(p.stdout + p.stderr)
    print(f"record: its output in {log.relative_to(ROOT)}", flush=True)
    # pytest's "N passed" lines, ScalaTest's "Tests: succeeded N" (one per shard, colour codes
    # removed) and the chains' status lines.
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", l) for l in p.stdout.splitlines()]
    tail = [l for l in lines if re.search(r"\d+ passed|Tests: succeeded \d+|(^|\] )parallel: \w+: ok in", l)]
    if p.returncode != 0:
        sys.exit(f"record: `{cmd}` failed (exit {p.returncode}); nothing written\n{p.stdout[-3000:]}{p.stderr[-3000:]}")
    print(f"record: `{cmd}` took {dt / 60:.1f} min", flush=True)
    # make test runs two pytest chains (scripts/parallel.py): report every "N passed" line.
    return dt, "; ".join(l.strip("= ") for l in tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cold", action="store_true", help="also time `make test` on a fresh clone with an empty HOME")
    ap.add_argument("--skip-long", action="store_true", help="do not run `make test-long`")
    ap.add_argument("--skip-warm", action="store_true", help="do not time `make test` again in this tree")
    args = ap.parse_args()
    rows = []
    if args.cold:
        with tempfile.TemporaryDirectory() as tmp:
            clone, home = Path(tmp, "modforge"), Path(tmp, "home")
            home.mkdir()
            subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
            # A clone with nothing beside it, as a user has it: the PDK only through PDK_ROOT (this
            # machine's, if set, else the one find_pdk() finds from here), no papers' text.
            env = {**os.environ, "HOME": str(home)}
            if "PDK_ROOT" not in env:
                from pdk import find_pdk
                env["PDK_ROOT"] = str(find_pdk().root)
            env.pop("MODFORGE_PAPERS", None)
            env.pop("XDG_CACHE_HOME", None)
            pyenv = Path.home() / ".pyenv"  # pyenv's shims find their root through HOME
            if "PYENV_ROOT" not in env and pyenv.exists():
                env["PYENV_ROOT"] = str(pyenv)
            dt, res = timed("make test", clone, env)
            rows.append(("`make test`, fresh clone with nothing beside it, PDK_ROOT set, empty HOME (fetches Mill, dependencies, venv)", dt, res))
    if not args.skip_warm:
        dt, res = timed("make test", ROOT)
        rows.append(("`make test`, warm", dt, res))
    if not args.skip_long:
        dt, res = timed("make test-long", ROOT)
        rows.append(("`make test-long`, warm", dt, res))

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    machine = f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, " + \
        sh("free -g | awk '/Mem:/{print $2\" GiB\"}'")
    table = ["| run | wall time | result |", "|---|---|---|"]
    table += [f"| {what} | {dt / 60:.1f} min ({dt:.0f} s) | {res} |" for what, dt, res in rows]
    # Tools that print their own name first ("Verilator 5.006 ...") are not named twice.
    vers = "; ".join(v if v.lower().startswith(k.split()[0].lower()) else f"{k} {v}" for k, v in versions().items())
    block = "\n".join(table) + f"\n\nRecorded {date} by `make record-test-times` on {machine}. Tools: {vers}.\n"
    (ROOT / "reports").mkdir(exist_ok=True)
    (ROOT / "reports/test_times.md").write_text("# Test-suite run times\n\n" + block)
    page = ROOT / "docs/testing.md"  # "Run times", between the markers
    text = page.read_text()
    if BEGIN in text and END in text:
        pre, rest = text.split(BEGIN, 1)
        page.write_text(pre + BEGIN + "\n" + block + END + rest.split(END, 1)[1])
    print("record: wrote reports/test_times.md and the run-time table of docs/testing.md")


if __name__ == "__main__":
    main()
