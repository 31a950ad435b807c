"""Power-on for a bench under Verilator: the registered reset copies start in reset.

Why: the engines' reset port drives registered copies only, in two levels (modforge.KeepReg, one bit each;
StreamControl.resetTree), and only the second level resets anything. Verilator starts every register at a random
value (``+verilator+rand+reset+2``, cocotb_verilator.PLUSARGS), as an X would be. A copy that starts at 0 lets its
block leave "reset" at the first edge with random state, and a simulation-only check behind it (BlockBursts' "a
descriptor address or stride is not a multiple of the burst's bytes") fires before the reset has reached it
(docs/polymul_multipass.md, "Large sets under Verilator"). Icarus starts them at X, and `if (X)` takes neither path
of a check. Real power-on holds the reset port long enough to fill the copies; here they are given that value at time
0, before the first edge.

Which registers: every one-bit ``modforge_keep_reg`` instance (``W = 1``). Besides the reset copies these are the
delay lines' "read landed" copies, whose value before reset is arbitrary: 1 is one of the values a random start may
give, so the run stays a run from an arbitrary start for everything else. The instances are found in the design's
Verilog (the generator's one file), walked from the top module, and given their value through cocotb.
"""
import re
from pathlib import Path

MODULE = re.compile(r"^module\s+(\w+)")
# Spinal writes an instance as `  <Module> <name> (` or, with parameters, `  <module> #(` ... `  ) <name> (`.
INSTANCE = re.compile(r"^\s+(\w+)\s+(\w+)\s*\($")
PARAM_OPEN = re.compile(r"^\s+(\w+)\s+#\($")
PARAM_CLOSE = re.compile(r"^\s+\)\s+(\w+)\s*\($")
WIDTH_ONE = re.compile(r"^\s+\.W\s*\(\s*1\s*\)\s*,?\s*$")
KEEP = "modforge_keep_reg"


def parse(verilog: Path):
    """{module: [(child module, instance name, W == 1)]} from the generator's Verilog."""
    children = {}
    mod = None
    pending = None          # (module, width one so far) between `#(` and `) name (`
    with open(verilog) as f:
        for line in f:
            m = MODULE.match(line)
            if m:
                mod = m.group(1)
                children.setdefault(mod, [])
                pending = None
                continue
            if mod is None:
                continue
            if pending is not None:
                c = PARAM_CLOSE.match(line)
                if c:
                    children[mod].append((pending[0], c.group(1), pending[1]))
                    pending = None
                elif WIDTH_ONE.match(line):
                    pending = (pending[0], True)
                continue
            p = PARAM_OPEN.match(line)
            if p:
                pending = (p.group(1), False)
                continue
            i = INSTANCE.match(line)
            if i and i.group(1) not in ("module", "always", "if", "case", "for", "function", "task"):
                children[mod].append((i.group(1), i.group(2), False))
    return children


def keep_bits(verilog: Path, top: str):
    """The hierarchical paths (tuples of instance names below the top) of every one-bit keep register."""
    children = parse(verilog)
    if top not in children:
        raise ValueError(f"power_on: module {top} is not in {verilog}; give the design's own Verilog")
    paths = []

    def walk(mod, at):
        for child, name, one in children.get(mod, ()):
            if child == KEEP:
                if one:
                    paths.append(at + (name,))
            elif child in children:
                walk(child, at + (name,))

    walk(top, ())
    return paths


def hold_reset_copies(dut, verilog: Path, top: str) -> int:
    """Give every one-bit keep register of `dut` the value 1 (in reset) before the first edge; returns how many."""
    n = 0
    for path in keep_bits(verilog, top):
        h = dut
        for name in path:
            h = getattr(h, name)
        h.q.value = 1
        n += 1
    return n
