"""Build and run the cocotb bench (modmul_bench.py) on a design's sources under Icarus.

Used by the pytest entry points: tests/test_rtl.py (generated Verilog) and, with the cell
models added to `sources`, gate-level runs of synthesized netlists.
"""
import json
import os
from pathlib import Path

from cocotb_tools.runner import get_runner

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("MODFORGE_BUILD", ROOT / "build"))


def table_designs(widths):
    """Table designs with k in `widths`, from the index `make rtl-all` writes."""
    index = BUILD / "designs.json"
    if not index.exists():
        raise FileNotFoundError(f"{index} is missing: run `make rtl-all` first")
    return [d for d in json.loads(index.read_text())["table"] if int(d.rsplit("_", 1)[1]) in widths]


def widths_from_env(default="32,64"):
    return tuple(int(w) for w in os.environ.get("MODFORGE_WIDTHS", default).split(","))


def manifest_path(design: str) -> Path:
    p = BUILD / design / "rtl" / f"{design}.json"
    if not p.exists():
        raise FileNotFoundError(f"{p} is missing: run `make rtl DESIGN={design}` first")
    return p


def run_bench(design: str, sources, kind: str = "rtl", defines=None, extra_env=None, build_args=()):
    """Compile `sources` with top `design` into build/<design>/sim_<kind> and run the bench."""
    build_dir = BUILD / design / f"sim_{kind}"
    runner = get_runner("icarus")
    runner.build(sources=[str(s) for s in sources], hdl_toplevel=design, build_dir=build_dir,
                 defines=defines or {}, build_args=list(build_args), timescale=("1ns", "1ps"))
    env = {"MODFORGE_MANIFEST": str(manifest_path(design))}
    env.update(extra_env or {})
    runner.test(test_module="modmul_bench", hdl_toplevel=design, build_dir=build_dir,
                test_dir=build_dir, extra_env=env)
