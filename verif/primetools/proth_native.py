"""Build and run tools/proth_count.c, the C counter of Proth primes.

Why: Table 3 of Tosun et al. counts 97,482,212 Proth primes for k = 64, log q_h = 32, i.e. 2^31
candidates; that is minutes in C (sieve + deterministic Miller-Rabin) and days in Python.

The binary goes to $MODFORGE_BUILD/proth_count (default <repo>/build/proth_count) and is rebuilt
with ``$CC -O2`` (CC defaults to gcc) whenever it is missing or older than the source.
"""
import os
import shutil
import subprocess
from pathlib import Path

import layout

REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO / "tools" / "proth_count.c"


class NativeToolError(RuntimeError):
    """The C counter could not be built or run."""


def binary_path() -> Path:
    return layout.BUILD / "proth_count"


def compiler() -> str:
    return os.environ.get("CC", "gcc")


def compiler_version() -> str:
    """The compiler's first --version line, or a note that it is missing."""
    cc = compiler()
    if not shutil.which(cc):
        return f"{cc}: not found"
    out = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
    return out.splitlines()[0] if out else cc


def ensure_built() -> Path:
    """The path of an up-to-date binary, compiling it first if needed."""
    binary = binary_path()
    if not SOURCE.is_file():
        raise NativeToolError(f"{SOURCE} is missing: restore it from git (git checkout -- tools/proth_count.c)")
    if binary.is_file() and binary.stat().st_mtime >= SOURCE.stat().st_mtime:
        return binary
    cc = compiler()
    if not shutil.which(cc):
        raise NativeToolError(f"C compiler {cc!r} not found: install gcc (apt-get install gcc) or set CC")
    binary.parent.mkdir(parents=True, exist_ok=True)
    tmp = binary.with_name(f"{binary.name}.tmp{os.getpid()}")  # concurrent builds must not collide
    result = subprocess.run([cc, "-O2", "-Wall", "-o", str(tmp), str(SOURCE)], capture_output=True, text=True)
    if result.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise NativeToolError(f"compiling {SOURCE} with {cc} failed:\n{result.stderr}")
    os.replace(tmp, binary)
    return binary


def native_count(k: int, logqh: int, qh_lo: int = None, qh_hi: int = None, progress: bool = True) -> int:
    """Count Proth primes q = q_h * 2^(k - logqh) + 1, q_h in [qh_lo, qh_hi) (default: all q_h of
    exactly logqh bits). progress=True passes the counter's progress lines through to stderr."""
    args = [str(ensure_built()), str(k), str(logqh)]
    if (qh_lo is None) != (qh_hi is None):
        raise ValueError("give both qh_lo and qh_hi, or neither")
    if qh_lo is not None:
        args += [str(qh_lo), str(qh_hi)]
    result = subprocess.run(args, stdout=subprocess.PIPE, stderr=None if progress else subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise NativeToolError(f"{' '.join(args)} failed (exit {result.returncode}): {result.stderr or ''}".strip())
    return int(result.stdout.strip())
