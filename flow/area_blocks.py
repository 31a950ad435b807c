"""Where a synthesized design's area goes: its standard-cell area per block, post-synthesis.

    .venv/bin/python flow/area_blocks.py <design> [--depth 2] [--top 30]

`make harden` reports one area for the whole design (flow/harden.py, `design__instance__area`). Choosing what to
make smaller needs it per block, but Modforge.Synthesis flattens the design: only the registers SpinalHDL named
keep their instance path (`cols.outBuf.mem_3_reg[17]`, as flow/sta_blocks.py uses them); the logic between them
is anonymous (`_123456_`). So each anonymous cell is counted to the block of the named register its output
reaches first, going forward through the netlist (a multi-source search backwards from every named register's
inputs, nearest first; a tie goes to the register found first). That is the block the logic computes for, which
is how a designer reads an area table; logic that reaches only output ports is counted as "(ports)", logic that
reaches nothing as "(unreached)". So a buffer's read multiplexer is counted where the read lands, not in the
buffer: in the multi-pass engine, the corner turn `inBuf`'s column multiplexer appears under `feed_fifo`.

Cell areas are the Liberty's (`area` of each cell at the harden run's tt corner). The total equals
metrics.json's design__instance__area, which is checked. Nothing is written: the output is for docs and for
choosing what to make smaller.
"""
import argparse
import json
import re
import sys
from collections import defaultdict, deque
from pathlib import Path

import layout
from pdk import find_pdk
from sta_blocks import block_of  # the same instance path to block as the timing view

CELL = re.compile(r"^\s*(sky130_fd_sc_hd__\w+)\s+(\S+)\s*\($")
PIN = re.compile(r"^\s*\.(\w+)\((.*)\),?$")


def liberty_cells(lib: Path) -> dict:
    """{cell: (area_um2, {output pins})} from a Liberty file."""
    cells, cell, pin = {}, None, None
    for line in lib.read_text().splitlines():
        s = line.strip()
        m = re.match(r'cell\s*\(\s*"?(\w+)"?\s*\)', s)
        if m:
            cell, pin = m.group(1), None
            cells[cell] = [0.0, set()]
            continue
        if cell is None:
            continue
        m = re.match(r'pin\s*\(\s*"?(\w+)"?\s*\)', s)
        if m:
            pin, s = m.group(1), s[m.end():]
        m = re.search(r'direction\s*:\s*"?(\w+)"?', s)
        if pin and m:
            if m.group(1) == "output":
                cells[cell][1].add(pin)
            pin = None
            continue
        m = re.match(r"area\s*:\s*([\d.]+)", s)
        if m and pin is None:
            cells[cell][0] = float(m.group(1))
    return {c: (a, outs) for c, (a, outs) in cells.items()}


def parse(netlist: Path, lib: dict):
    """cells: [(type, name)], drives: {net: cell index}, inputs: [[nets]] per cell."""
    cells, drives, inputs = [], {}, []
    cur = None
    with open(netlist) as f:
        for line in f:
            m = CELL.match(line)
            if m:
                cur = len(cells)
                cells.append((m.group(1), m.group(2)))
                inputs.append([])
                continue
            if cur is None:
                continue
            m = PIN.match(line)
            if m:
                pin, net = m.group(1), m.group(2).strip()
                if pin in lib.get(cells[cur][0], (0, set()))[1]:
                    drives[net] = cur
                else:
                    inputs[cur].append(net)
                continue
            if line.strip() == ");":
                cur = None
    return cells, drives, inputs


ANON = re.compile(r"\\?_\d+_")


def output_ports(netlist: Path) -> set:
    """The module's output port names (without ranges)."""
    ports = set()
    with open(netlist) as f:
        for line in f:
            s = line.strip()
            if s.startswith("output "):
                ports.update(x.strip(" ;") for x in re.sub(r"\[[^]]*\]", "", s[len("output "):]).split(","))
    return ports


def attribute(cells, drives, inputs, ports, depth) -> list:
    """Each cell's block: a named cell's own (block_of), an anonymous one the block of the named register its
    output reaches first, "(ports)" if it reaches only output ports, None if nothing."""
    block = [None] * len(cells)
    queue = deque()
    for i, (_, name) in enumerate(cells):
        if not ANON.fullmatch(name):
            block[i] = block_of(name.lstrip("\\"), depth)
            queue.append(i)

    def spread(q):
        # Backwards, nearest first: a cell takes the block of the first register that reaches it (that its
        # output reaches, read forwards).
        while q:
            i = q.popleft()
            for net in inputs[i]:
                j = drives.get(net)
                if j is not None and block[j] is None:
                    block[j] = block[i]
                    q.append(j)
    spread(queue)
    # Logic that reaches only ports: backwards from each port's driver.
    port_q = deque(j for net, j in drives.items() if re.sub(r"\[\d+\]$", "", net).lstrip("\\") in ports
                   and block[j] is None)
    for j in port_q:
        block[j] = "(ports)"
    spread(port_q)
    return block


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("design")
    ap.add_argument("--depth", type=int, default=2, help="instance path levels that name a block")
    ap.add_argument("--top", type=int, default=30, help="blocks printed")
    a = ap.parse_args()
    netlist, metrics = layout.netlist(a.design), layout.metrics(a.design)
    if not netlist.exists() or not metrics.exists():
        sys.exit(f"area_blocks: {a.design} has no synthesized netlist in {layout.harden_dir(a.design)}. "
                 f"Fix: make harden DESIGN={a.design} PNR=off")
    m = json.loads(metrics.read_text())
    corner = m.get("synthesis", {}).get("liberty_corner", "tt_025C_1v80")
    lib_path = find_pdk().liberty(corner)
    lib = liberty_cells(lib_path)
    print(f"area_blocks: {a.design}: reading {netlist} ({netlist.stat().st_size / 1e6:.0f} MB)", flush=True)
    cells, drives, inputs = parse(netlist, lib)
    unknown = sorted({t for t, _ in cells if t not in lib})
    if unknown:
        sys.exit(f"area_blocks: cells not in {lib_path}: {', '.join(unknown[:5])}")
    ports = output_ports(netlist)
    block = attribute(cells, drives, inputs, ports, a.depth)
    named = sum(1 for _, name in cells if not ANON.fullmatch(name))
    area, count, flops = defaultdict(float), defaultdict(int), defaultdict(int)
    for i, (t, _) in enumerate(cells):
        b = block[i] or "(unreached)"
        area[b] += lib[t][0]
        count[b] += 1
        flops[b] += t.startswith(("sky130_fd_sc_hd__df", "sky130_fd_sc_hd__edf", "sky130_fd_sc_hd__sdf"))
    total = sum(area.values())
    want = m.get("design__instance__area")
    if want and abs(total - want) > 1e-3 * want:
        sys.exit(f"area_blocks: the cells' areas sum to {total:.0f} um2, metrics.json says {want:.0f}: "
                 f"the Liberty ({lib_path}) is not the synthesis's")
    print(f"{'mm2':>8} {'share':>6} {'cells':>8} {'flops':>7}  block")
    for b in sorted(area, key=area.get, reverse=True)[:a.top]:
        print(f"{area[b] / 1e6:8.3f} {area[b] / total:6.1%} {count[b]:8d} {flops[b]:7d}  {b}")
    print(f"area_blocks: {len(area)} blocks, {total / 1e6:.3f} mm2 in {len(cells):,} cells ({named:,} named, the rest "
          f"counted to the named register they reach first); Liberty {lib_path.name}")


if __name__ == "__main__":
    main()
