"""Where a design's files are in the build folder, the one place that knows it.

The build folder is $MODFORGE_BUILD (the Makefile exports it), default <repo>/build/:
    designs.json                      the index: table lists, families' grammar lines (`make rtl-all`)
    <d>/rtl/<d>.v, <d>/rtl/<d>.json   the generated RTL and its manifest (`make rtl DESIGN=<d>`)
    <d>/librelane/                    LibreLane's configuration and run folder (flow/harden.py)
    <d>/harden/                       metrics.json, summary.md, the netlist <d>.nl.v, STA reports
    <d>/fpga/<target>/                metrics.json, summary.md, the netlist (flow/fpga.py)
    dse/                              the design-space explorations' records (flow/dse.py, flow/dse_polymul.py)

Every function reads the module's BUILD when called: a test that sets `layout.BUILD` moves them all.
"""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = Path(os.environ.get("MODFORGE_BUILD") or ROOT / "build")


def index() -> Path:
    """build/designs.json."""
    return BUILD / "designs.json"


def design_dir(d: str) -> Path:
    """build/<d>/."""
    return BUILD / d


def rtl_dir(d: str) -> Path:
    """build/<d>/rtl/."""
    return BUILD / d / "rtl"


def rtl(d: str) -> Path:
    """build/<d>/rtl/<d>.v, the generated Verilog."""
    return rtl_dir(d) / f"{d}.v"


def manifest(d: str) -> Path:
    """build/<d>/rtl/<d>.json, the generator's manifest of the design."""
    return rtl_dir(d) / f"{d}.json"


def librelane_dir(d: str) -> Path:
    """build/<d>/librelane/, LibreLane's configuration and its runs/."""
    return BUILD / d / "librelane"


def harden_dir(d: str) -> Path:
    """build/<d>/harden/, flow/harden.py's published result."""
    return BUILD / d / "harden"


def netlist(d: str) -> Path:
    """build/<d>/harden/<d>.nl.v, the synthesized netlist."""
    return harden_dir(d) / f"{d}.nl.v"


def metrics(d: str) -> Path:
    """build/<d>/harden/metrics.json."""
    return harden_dir(d) / "metrics.json"


def dse_dir() -> Path:
    """build/dse/, the explorations' records (flow/dse.py: history.json; flow/dse_polymul.py: polymul.json)."""
    return BUILD / "dse"


def fpga_dir(d: str, target: str) -> Path:
    """build/<d>/fpga/<target>/, flow/fpga.py's result for one target (xc7, xcup, ecp5)."""
    return BUILD / d / "fpga" / target


def fpga_metrics(d: str, target: str) -> Path:
    """build/<d>/fpga/<target>/metrics.json."""
    return fpga_dir(d, target) / "metrics.json"
