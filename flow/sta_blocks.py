"""Which blocks of a synthesized design set its clock: the worst path into each block, post-synthesis.

    .venv/bin/python flow/sta_blocks.py <design> [--corner tt_025C_1v80] [--depth 3] [--top 25] [--endpoints 20000]

`make harden` reports one critical path per corner (flow/sta.py). That names the slowest block but not how far the
others are behind it, which is what decides whether pipelining that block raises the clock. This script reruns
OpenSTA with the harden run's own setup (its `sta_<corner>.tcl`: the Liberty, the netlist, the clock, the I/O delays
and drive), but asks for the worst path into each endpoint (`report_checks -group_count N -endpoint_count 1 -format
summary`), then groups the endpoints by their instance path's first `depth` levels (SpinalHDL keeps the hierarchy in
the flattened names: `cols.twiddles.barrettOpt_10...`). It prints, per block, the worst path delay (the run's period
minus the slack, as flow/sta.py takes it for rise -> rise paths) and how many endpoints it has among the N worst.

Post-synthesis STA has no buffering: a register driving a wide multiplexer shows its whole fanout as its output's
delay, which the layout's resizer would split. The start of each block's worst path is printed, so such a path shows.
Nothing is written: the output is for docs and for choosing what to pipeline.
"""
import argparse
import re
import subprocess
import sys
import tempfile
from collections import OrderedDict
from pathlib import Path

from layout import BUILD


def harden_tcl(design: str, corner: str) -> Path:
    runs = BUILD / design / "librelane" / "runs" / "latest"
    tcl = next(iter(sorted(runs.glob(f"*-modforge-sta/sta_{corner}.tcl"))), None)
    if tcl is None:
        sys.exit(f"sta_blocks: no STA setup of {design} at {corner} in {runs}. Fix: `make harden DESIGN={design} PNR=off` "
                 f"first (corners: tt_025C_1v80, ss_100C_1v60, ff_n40C_1v95)")
    return tcl


def setup_lines(tcl: Path) -> tuple:
    """The harden run's setup, without its reports, and its clock period."""
    keep, period = [], None
    for line in tcl.read_text().splitlines():
        if line.startswith(("foreach", "  puts", "  report_checks", "}", "report_wns", "report_tns")):
            continue
        m = re.search(r"create_clock .* -period (\S+)", line)
        if m:
            period = float(m.group(1))
        keep.append(line)
    if period is None:
        sys.exit(f"sta_blocks: {tcl} creates no clock")
    return keep, period


def block_of(endpoint: str, depth: int) -> str:
    name = re.sub(r"\[\d+\]", "", endpoint.split("/")[0])
    name = re.sub(r"_reg$", "", name)
    parts = name.split(".")
    return ".".join(parts[:depth]) if len(parts) > 1 else "(top level)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("design")
    ap.add_argument("--corner", default="tt_025C_1v80")
    ap.add_argument("--depth", type=int, default=3, help="instance path levels that name a block")
    ap.add_argument("--top", type=int, default=25, help="blocks printed")
    ap.add_argument("--endpoints", type=int, default=20000, help="worst endpoints asked of OpenSTA")
    a = ap.parse_args()
    lines, period = setup_lines(harden_tcl(a.design, a.corner))
    lines.append(f"report_checks -path_delay max -group_count {a.endpoints} -endpoint_count 1 -format summary")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "blocks.tcl"
        script.write_text("\n".join(lines) + "\n")
        print(f"sta_blocks: OpenSTA on {a.design} at {a.corner}, the {a.endpoints} worst endpoints (a few minutes on a "
              f"large netlist)", flush=True)
        out = subprocess.run(["sta", "-exit", str(script)], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"sta_blocks: OpenSTA failed ({out.returncode}): {out.stderr[-2000:]}")
    blocks = OrderedDict()
    for line in out.stdout.splitlines():
        p = line.split()
        if len(p) < 5 or not re.fullmatch(r"-?\d+\.\d+", p[-1]) or "/" not in p[0]:
            continue
        start, end, slack = p[0], p[2], float(p[-1])
        b = block_of(end, a.depth)
        if b not in blocks:
            blocks[b] = {"delay_ns": period - slack, "endpoints": 0, "start": start, "end": end}
        blocks[b]["endpoints"] += 1
    if not blocks:
        sys.exit(f"sta_blocks: no paths in OpenSTA's output: {out.stdout[-2000:]}")
    print(f"{'worst path (ns)':>15} {'endpoints':>9}  block  (start -> end of its worst path)")
    for b, v in list(blocks.items())[:a.top]:
        print(f"{v['delay_ns']:15.3f} {v['endpoints']:9d}  {b}  ({v['start']} -> {v['end']})")
    print(f"sta_blocks: {len(blocks)} blocks among the {a.endpoints} worst endpoints; period {period} ns "
          f"(delay = period - slack: flow/sta.py's rise -> rise figure)")


if __name__ == "__main__":
    main()
