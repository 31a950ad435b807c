"""Build and run the cocotb bench (modmul_bench.py) on a design's sources under Icarus.

Used by the pytest entry points: tests/test_rtl.py (generated Verilog) and, with the cell
models added to `sources`, gate-level runs of synthesized netlists.
"""
import json
import re
import os
import sys
from pathlib import Path

from cocotb_tools.runner import get_runner

import layout
import registry
from layout import BUILD

ROOT = Path(__file__).resolve().parents[2]
# Gate-level clock: the cell models give every cell a unit delay (UNIT_DELAY=#1, 1 ns), and a
# 32-bit stage is about 60 cells deep; 400 ns leaves a wide margin.
GLS_CLK_NS = "400"
# Families whose bench also runs on a gate-level netlist (their registry entries say gls: true).


def table_designs(widths, lists=("table",)):
    """Designs of the index's `lists` ("table": the paper's Table 1, "reduction_table": the
    reduction family) with k in `widths`, from the index `make rtl-all` writes."""
    index = layout.index()
    if not index.exists():
        raise FileNotFoundError(f"{index} is missing: run `make rtl-all` first")
    j = json.loads(index.read_text())
    names = [d for lst in lists for d in j.get(lst, [])]
    entries = registry.describe_many(names)
    return [d for d in names if entries[d]["params"]["k"] in widths]


def widths_from_env(var="MODFORGE_WIDTHS", default="32,64"):
    return tuple(int(w) for w in os.environ.get(var, default).split(","))


def manifest_path(design: str) -> Path:
    p = layout.manifest(design)
    if not p.exists():
        raise FileNotFoundError(f"{p} is missing: run `make rtl DESIGN={design}` first")
    return p


def run_bench(design: str, sources, kind: str = "rtl", defines=None, extra_env=None, build_args=(),
              test_module: str = "modmul_bench", manifest: Path = None, log_file: Path = None,
              testcase: str = None):
    """Compile `sources` with top `design` into <manifest's design folder>/sim_<kind> and run the
    bench `test_module` (modmul_bench or ntt_bench) on it; `log_file`: the simulator's output there;
    `testcase`: one cocotb test of the module (default: all of them)."""
    manifest = manifest or manifest_path(design)
    build_dir = manifest.parent.parent / f"sim_{kind}"
    runner = get_runner("icarus")
    runner.build(sources=[str(s) for s in sources], hdl_toplevel=design, build_dir=build_dir,
                 defines=defines or {}, build_args=list(build_args), timescale=("1ns", "1ps"))
    env = {"MODFORGE_MANIFEST": str(manifest)}
    env.update(extra_env or {})
    return runner.test(test_module=test_module, hdl_toplevel=design, build_dir=build_dir,
                       test_dir=build_dir, extra_env=env, log_file=log_file, testcase=testcase)


def netlist_path(design: str) -> Path:
    p = layout.netlist(design)
    if not p.exists():
        raise FileNotFoundError(f"{p} is missing: run `make harden DESIGN={design}` first")
    return p


def quiet_macro_model(model: Path) -> Path:
    """A copy of an OpenRAM macro's behavioural model with VERBOSE = 0 by default. The RTL passes
    VERBOSE = 0 to each instance; the netlist cannot (the macro is a Liberty black box there, whose
    parameters synthesis drops), and the model's default prints a line per access. The PDK is not
    edited; the copy lives in build/pdk_sim/."""
    out = BUILD / "pdk_sim" / model.name
    text = model.read_text()
    quiet, n = re.subn(r"parameter VERBOSE = 1 ;", "parameter VERBOSE = 0 ;", text)
    if n != 1:
        raise RuntimeError(f"{model}: no `parameter VERBOSE = 1 ;` line to turn off")
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.exists() or out.read_text() != quiet:
        out.write_text(quiet)
    return out


def gls_manifest(design: str) -> dict:
    """The manifest of a design with a gate-level bench (its registry entry says gls), or ValueError
    naming the family (make gls asks it before hardening, run_gls before simulating)."""
    manifest = json.loads(manifest_path(design).read_text())
    entry = manifest["registry"]  # the bench comes from the design's family, as the generator says
    if not entry["gls"]:
        raise ValueError(f"{design}: the {entry['family']} family has no gate-level bench "
                         "(its registry entry says gls: false; docs/registry.md)")
    return manifest


def routed_netlist_path(design: str) -> Path:
    """build/<d>/pnr/<d>.routed.nl.v: the netlist as placed and routed (flow/pnr.py), with the
    resizer's buffers and resized cells, the clock tree, hold buffers and antenna diodes."""
    p = layout.design_dir(design) / "pnr" / f"{design}.routed.nl.v"
    if not p.exists():
        raise FileNotFoundError(f"{p} is missing: run `make harden DESIGN={design}` where OpenROAD is found first")
    return p


def run_gls(design: str, ops: int, routed: bool = False):
    """The same bench on the synthesized sky130_fd_sc_hd netlist (Icarus, functional cell models);
    routed: on the netlist after layout (build/<d>/pnr/). The functional models have no timing, so
    the routed run checks what layout changed in the logic (buffers, resizing, clock tree, hold
    buffers, diodes), at unit delay; the SDF beside it (build/<d>/pnr/sdf/) has no specify paths
    to annotate in them (docs/testing.md, "Gate level after layout")."""
    from pdk import find_pdk, sram_views
    pdk = find_pdk()
    primitives, cells = pdk.sim_cell_models(BUILD / "pdk_sim")
    manifest = gls_manifest(design)
    sram = manifest.get("sram") or {}
    macros = [quiet_macro_model(sram_views(pdk, m).verilog) for m in sram.get("macro_models", [])]
    netlist = routed_netlist_path(design) if routed else netlist_path(design)
    run_bench(design, [primitives, cells, *macros, netlist], kind="gls_routed" if routed else "gls",
              defines={"FUNCTIONAL": 1, "UNIT_DELAY": "#1"},
              extra_env={"MODFORGE_CLK_NS": GLS_CLK_NS, "MODFORGE_OPS": str(ops)},
              test_module=manifest["registry"]["bench"])


def run_xc7(design: str, ops: int):
    """The same bench on Yosys's synth_xilinx netlist, with the Xilinx cell models Yosys ships."""
    import pyosys
    netlist = layout.fpga_dir(design, "xc7") / f"{design}.xc7.v"
    if not netlist.exists():
        raise FileNotFoundError(f"{netlist} is missing: run `make fpga DESIGN={design} TARGET=xc7` first")
    cells = Path(pyosys.__file__).parent / "share" / "xilinx" / "cells_sim.v"
    entry = json.loads(manifest_path(design).read_text())["registry"]
    # An SRAM tile's netlist holds the block RAMs Yosys mapped our FPGA macro model to (flow/fpga.py).
    run_bench(design, [cells, netlist], kind="xc7", extra_env={"MODFORGE_OPS": str(ops)},
              test_module=entry["bench"])


if __name__ == "__main__":
    # make gls: `runner.py gls-check <design>` refuses a family without a gate-level bench before any synthesis.
    if len(sys.argv) != 3 or sys.argv[1] != "gls-check":
        sys.exit("usage: runner.py gls-check <design>")
    try:
        gls_manifest(sys.argv[2])
    except (ValueError, FileNotFoundError) as e:
        sys.exit(f"make gls: {e}; nothing was hardened")
