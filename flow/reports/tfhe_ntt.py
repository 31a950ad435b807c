#!/usr/bin/env python3
"""tfhe-ntt on one core (issue 27's software baseline, first piece): the negacyclic product
c = a*b in Z_q[x]/(x^n + 1), q = q_1 * ... * q_L (RNS, L limbs), from coefficient form to
coefficient form with Zama's NTT crate (prime32::Plan for primes below 2^32, prime64::Plan for the
others: fwd, mul_assign_normalize, inv).

    flow/reports/tfhe_ntt.py [--n 1024,2048,4096] [--limbs 1] [--bits 62] [--reps 2000] [--seed 1]
    make sw-tfhe-ntt          builds the program first (cargo, --locked, -C target-cpu=native)

The program is build/sw/tfhe_ntt (tools/tfhe_ntt_bench; Cargo.lock pins the crate's version).
Per n the CLI prints one JSON line:

  * the L primes: the largest q < 2^bits with q = 1 (mod 2n) that the plan accepts (62 bits
    by default: prime64 takes any prime below 2^64, and below 2^63 it keeps its Shoup code path;
    log q is then about 62 L). At --bits 50 prime64 takes its IFMA (52-bit) path where the CPU has
    it; at --bits 32 or fewer the primes run on prime32 (TFHE_CONFIGS: the three sw_baseline tries);
  * the check: one product on seeded random operands (Python's random.Random) per run, against an
    independent product with Python big integers (Kronecker substitution: the operands packed
    into one integer each and multiplied by Python), reduced mod each q_i; a mismatch fails;
  * the timings, in microseconds, minimum and median over --reps repetitions (after reps/10
    untimed ones), all L limbs in one timed repetition: "full" = both operands transformed
    (copy a and b, 2 fwd + mul_assign_normalize + inv per limb), "pre" = b already in NTT form
    (copy a, 1 fwd + mul_assign_normalize + inv per limb);
  * the crate's version (from Cargo.lock), rustc's version, the CPU and its vector extensions
    (/proc/cpuinfo: cpu_extensions "AVX-512 IFMA", "AVX-512F", "AVX2" or "none", beside the
    program's own use_ifma), the load average before and after, the date.

When cargo is missing the line says "absent" and names the command that installs Rust; it never
carries a figure. When cargo is there but the program is not built (or older than its sources),
the CLI says to run `make sw-tfhe-ntt` and exits 1.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import layout
from reports.common import machine

ROOT = Path(__file__).resolve().parents[2]
CRATE = ROOT / "tools" / "tfhe_ntt_bench"
SOURCES = [CRATE / "Cargo.toml", CRATE / "Cargo.lock", CRATE / "src" / "main.rs"]
INSTALL = ("curl https://sh.rustup.rs -sSf | sh   (Rust >= 1.91.1, which tfhe-ntt 0.7.1 needs; "
           "or the distribution's `cargo` package if it is that recent), then make sw-tfhe-ntt")
DEFAULT_BITS = 62
# The prime sizes make sw-baseline tries per set, each with its own L, keeping the fastest: 62 bits
# (prime64, Shoup), 50 bits (prime64's IFMA path on a CPU with AVX-512 IFMA), 31 bits (prime32: twice
# the lanes per vector, Shoup below 2^31). No one size is the fastest at every set: each entry of
# `make sw-baseline` keeps every size's figures ("configs"), and reports/polymul_dse.md shows them.
TFHE_CONFIGS = (62, 50, 31)
DEFAULT_REPS = 2000
RUSTFLAGS = "-C target-cpu=native"


class TfheNttError(RuntimeError):
    """The program is missing or stale, or its product disagrees with the independent one."""


def binary() -> Path:
    return layout.BUILD / "sw" / "tfhe_ntt"


def cargo_present() -> bool:
    return shutil.which("cargo") is not None


def status() -> str:
    """"ok", "absent" (no cargo), "not built" or "stale" (older than tools/tfhe_ntt_bench)."""
    b = binary()
    if not b.exists():
        return "not built" if cargo_present() else "absent"
    if any(s.stat().st_mtime > b.stat().st_mtime for s in SOURCES):
        return "stale"
    return "ok"


def _require():
    st = status()
    if st == "absent":
        raise TfheNttError(f"cargo absent: install it with {INSTALL}")
    if st != "ok":
        raise TfheNttError(f"{binary()} is {st}: run make sw-tfhe-ntt")


def _call(args, stdin: str = "") -> str:
    r = subprocess.run([str(binary()), *map(str, args)], input=stdin, capture_output=True, text=True)
    if r.returncode:
        raise TfheNttError(f"{binary().name} {' '.join(map(str, args))}: exit {r.returncode}: "
                           f"{r.stderr.strip()}")
    return r.stdout


def crate_version(name: str = "tfhe-ntt") -> str:
    """The version Cargo.lock resolved for `name`."""
    lock = tomllib.loads((CRATE / "Cargo.lock").read_text())
    return next(p["version"] for p in lock["package"] if p["name"] == name)


def rustc_version() -> str:
    try:
        return subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "absent"


def primes(n: int, limbs: int, bits: int = DEFAULT_BITS) -> list:
    """The `limbs` largest primes q < 2^bits, q = 1 (mod 2n), that the plan of their size accepts."""
    _require()
    qs = [int(w) for w in _call(["primes", n, limbs, bits]).split()]
    if len(qs) != limbs:
        raise TfheNttError(f"only {len(qs)} of {limbs} primes below 2^{bits} for n = {n}")
    return qs


def product(n: int, qs, a, b) -> list:
    """The program's negacyclic product: a[i], b[i] (n coefficients in [0, qs[i])) -> c[i] per limb."""
    _require()
    lines = [f"{n} {len(qs)}", " ".join(map(str, qs))]
    for ai, bi in zip(a, b):
        lines += [" ".join(map(str, ai)), " ".join(map(str, bi))]
    out = _call(["check"], "\n".join(lines) + "\n").splitlines()
    return [[int(w) for w in line.split()] for line in out]


def negacyclic_kronecker(a, b, q: int) -> list:
    """a*b mod (x^n + 1, q) with Python big integers: pack each operand into one integer (slots wide
    enough for a full-product coefficient, < n q^2), multiply, unpack, fold x^n = -1, reduce."""
    n = len(a)
    width = ((n * (q - 1) ** 2).bit_length() + 8) // 8  # bytes per slot
    pack = lambda v: int.from_bytes(b"".join(x.to_bytes(width, "little") for x in v), "little")
    raw = (pack(a) * pack(b)).to_bytes(2 * n * width, "little")
    c = [int.from_bytes(raw[k * width:(k + 1) * width], "little") for k in range(2 * n)]
    return [(c[k] - c[k + n]) % q for k in range(n)]


def operands(n: int, qs, seed: int):
    rng = random.Random(f"tfhe_ntt:{seed}:{n}:{','.join(map(str, qs))}")
    a = [[rng.randrange(q) for _ in range(n)] for q in qs]
    b = [[rng.randrange(q) for _ in range(n)] for q in qs]
    return a, b


def check(n: int, qs, seed: int = 1):
    """One product on seeded operands against negacyclic_kronecker per limb; raises on a mismatch."""
    a, b = operands(n, qs, seed)
    got = product(n, qs, a, b)
    for i, q in enumerate(qs):
        if got[i] != negacyclic_kronecker(a[i], b[i], q):
            raise TfheNttError(f"n = {n}, q = {q}: tfhe-ntt's product differs from Python's")


def timings(n: int, qs, reps: int = DEFAULT_REPS, seed: int = 1) -> dict:
    """The program's `time` line for the limbs qs: full and pre-transformed min and median, in µs."""
    _require()
    return json.loads(_call(["time", n, reps, seed, *qs]))


def run(n: int, primes_, reps: int = DEFAULT_REPS, seed: int = 1) -> dict:
    """Checks, then times, the product for one n over the limbs primes_ (see the module's text)."""
    _require()
    qs = [int(q) for q in primes_]
    load_start = list(os.getloadavg())
    check(n, qs, seed)
    t = timings(n, qs, reps, seed)
    m = machine()
    return {"library": "tfhe-ntt", "version": crate_version(), "api": f"{t['api']}::Plan fwd/mul_assign_normalize/inv",
            "n": n, "L": len(qs), "primes": [str(q) for q in qs], "logq": sum(q.bit_length() for q in qs),
            "reps": t["reps"], "full_min_us": t["full_min_us"], "full_median_us": t["full_median_us"],
            "pre_min_us": t["pre_min_us"], "pre_median_us": t["pre_median_us"], "use_ifma": t["use_ifma"],
            "checked": "kronecker (Python big integers)", "threads": 1, "rustflags": RUSTFLAGS,
            "rustc": rustc_version(), "cpu_model": m["cpu_model"], "cpu_extensions": m["cpu_extensions"],
            "cpu_vector_flags": m["cpu_vector_flags"], "cpu_count": m["cpu_count"],
            "load_average_start": load_start, "load_average_end": list(os.getloadavg()), "date": m["date"]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="flow/reports/tfhe_ntt.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", default="1024,2048,4096", help="ring degrees, comma-separated (default %(default)s)")
    p.add_argument("--limbs", type=int, default=1, help="L, the number of RNS primes (default 1)")
    p.add_argument("--bits", type=int, default=DEFAULT_BITS, help="each prime < 2^bits (default %(default)s)")
    p.add_argument("--primes", help="the L primes, comma-separated (default: picked per n with --bits)")
    p.add_argument("--reps", type=int, default=DEFAULT_REPS, help="timed repetitions (default %(default)s)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if status() == "absent":
        print(json.dumps({"library": "tfhe-ntt", "status": "absent", "reason": "cargo not found",
                          "install": INSTALL}))
        return 0
    try:
        for n in (int(x) for x in args.n.split(",")):
            qs = ([int(x) for x in args.primes.split(",")] if args.primes
                  else primes(n, args.limbs, args.bits))
            print(json.dumps(run(n, qs, args.reps, args.seed)), flush=True)
    except TfheNttError as e:
        print(f"tfhe_ntt: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
