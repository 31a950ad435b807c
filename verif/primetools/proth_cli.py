"""Command line for the Proth-l prime toolkit (:mod:`primetools.proth`).

From verif/ (or via scripts/primes.py from the repository root; `python -m primetools.proth_cli`
works too):

    python -m primetools list K LOGQH 2l|3l              Proth-l primes: q (hex, decimal), l1 l2 l3, v2, max log n
    python -m primetools count K LOGQH [--method auto|python|c]     number of Proth primes
    python -m primetools largest BOUND --class ntt --n N
    python -m primetools largest BOUND --class proth|proth2l|proth3l --k K --logqh H
    python -m primetools decompose Q K LOGQH 2l|3l [--all]       canonical (or every) l1 l2 l3
    python -m primetools tables [--big]                   Table 2 and Table 3 counts vs the paper

Numbers accept decimal, 0x-hex and 2^E (or 2**E), optionally with +/- an integer: 2^64, 2^63+1.
Exit status: 0 success; 1 a negative answer (no decomposition, a count that does not match the
paper); 2 bad input, with a message that names the problem.
"""
import argparse
import re
import sys
import time

from . import proth
from .paper_tables import PaperTableError, paper_table2, paper_table3_counts
from .proth_native import NativeToolError

# Table 3 counts at or above this many candidates are "big": only with --big (minutes in C).
BIG_CANDIDATES = 1 << 24


def parse_int(text: str) -> int:
    """Decimal, 0x.., or 2^E / 2**E with an optional +N / -N."""
    s = text.replace(" ", "")
    m = re.fullmatch(r"2(?:\^|\*\*)(\d+)([+-]\d+)?", s)
    if m:
        return (1 << int(m[1])) + int(m[2] or 0)
    try:
        return int(s, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer (use decimal, 0x-hex or 2^E[+-N])") from None


def _tuple_text(t) -> str:
    l1, l2, l3 = t
    return f"l1={l1} l2={l2}" + ("" if l3 is None else f" l3={l3}")


def cmd_list(a) -> int:
    records = proth.proth_l_primes(a.k, a.logqh, a.kind)
    hexw = (a.k + 3) // 4
    print(f"# Proth-{a.kind} primes, k = {a.k}, log q_h = {a.logqh} (w = {a.k - a.logqh}): {len(records)}")
    print(f"# {'q (hex)':>{hexw + 2}} {'q (decimal)':>{len(str(1 << a.k))}}  l1  l2  l3  v2  max_log_n")
    for r in records:
        l3 = "-" if r.l3 is None else r.l3
        print(f"  0x{r.q:0{hexw}x} {r.q:>{len(str(1 << a.k))}} {r.l1:>3} {r.l2:>3} {l3:>3} {r.v2:>3} {r.max_log_n:>10}")
    return 0


def timed_count(k: int, logqh: int, method: str = "auto") -> tuple:
    """(count, seconds, method used) for count_proth_primes."""
    used = method if method != "auto" else (
        "python" if (1 << (logqh - 1)) <= proth.PYTHON_COUNT_LIMIT or k > 64 else "c")
    t0 = time.perf_counter()
    n = proth.count_proth_primes(k, logqh, method=used)
    return n, time.perf_counter() - t0, used


def cmd_count(a) -> int:
    n, seconds, used = timed_count(a.k, a.logqh, a.method)
    print(f"{n}\t# Proth primes, k = {a.k}, log q_h = {a.logqh} ({used}, {seconds:.2f} s)")
    return 0


def cmd_largest(a) -> int:
    params = {"ntt": {"n": a.n}}.get(a.cls, {"k": a.k, "logqh": a.logqh})
    given = {name: v for name, v in (("n", a.n), ("k", a.k), ("logqh", a.logqh)) if v is not None}
    stray = sorted(set(given) - set(params))
    missing = sorted(name for name, v in params.items() if v is None)
    if missing or stray:
        flags = " ".join(f"--{p} <int>" for p in proth.CLASSES[a.cls])
        raise ValueError(f"--class {a.cls} takes {flags}"
                         + (f"; missing --{', --'.join(missing)}" if missing else "")
                         + (f"; not used: --{', --'.join(stray)}" if stray else ""))
    q = proth.largest_prime(a.bound, a.cls, **params)
    print(f"0x{q:x}\t{q}")
    return 0


def cmd_decompose(a) -> int:
    found = proth.proth_l_decompositions(a.q, a.k, a.logqh, a.kind)
    if not found:
        print(f"0x{a.q:x} is not a Proth-{a.kind} value for k = {a.k}, log q_h = {a.logqh}")
        return 1
    prime = "prime" if proth.is_probable_prime(a.q) else "NOT prime"
    for t in (found if a.all else found[:1]):
        print(_tuple_text(t))
    print(f"# 0x{a.q:x} ({prime}): {len(found)} tuple(s); the first is canonical (lexicographically smallest)")
    return 0


def table_rows(big: bool, counter=timed_count):
    """Yield (table, label, paper, ours, seconds, method) for Table 2 and Table 3's counts.

    Table 3 counts at or above BIG_CANDIDATES candidates are skipped unless big."""
    for row in paper_table2():
        t0 = time.perf_counter()
        ours = len(proth.proth_l_primes(row.logq, row.logqh, row.kind))
        yield ("Table 2", f"{row.logq}/{row.logqh} Proth-{row.kind}", row.count, ours,
               time.perf_counter() - t0, "python")
    done = {}
    for row in paper_table3_counts():
        label = f"{row.logq}/{row.logqh} {row.algorithm}"
        if (1 << (row.logqh - 1)) >= BIG_CANDIDATES and not big:
            yield ("Table 3", label, row.count, None, None, "skipped (needs --big)")
            continue
        key = (row.logq, row.logqh)
        if key in done:
            ours, _, used = done[key]
            yield ("Table 3", label, row.count, ours, 0.0, f"{used} (same class as above)")
        else:
            done[key] = counter(row.logq, row.logqh)
            ours, seconds, used = done[key]
            yield ("Table 3", label, row.count, ours, seconds, used)


def cmd_tables(a) -> int:
    mismatches = 0
    print(f"{'table':8} {'class':24} {'paper':>10} {'ours':>10} {'match':6} {'time':>9}  method")
    for table, label, paper, ours, seconds, used in table_rows(a.big):
        match = "-" if ours is None else ("yes" if ours == paper else "NO")
        mismatches += match == "NO"
        t = "" if seconds is None else f"{seconds:.2f} s"
        print(f"{table:8} {label:24} {paper:>10} {'-' if ours is None else ours:>10} {match:6} {t:>9}  {used}",
              flush=True)
    print("all counts match the paper" if not mismatches else f"{mismatches} count(s) differ from the paper")
    return 1 if mismatches else 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m primetools", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True, metavar="{list,count,largest,decompose,tables}")

    def cls_args(sp):
        sp.add_argument("k", type=parse_int, help="bit length of q (beta)")
        sp.add_argument("logqh", type=parse_int, help="bit length of q_h (w = k - logqh >= k/2)")

    sp = sub.add_parser("list", help="Proth-2l or Proth-3l primes with l1 l2 l3, v2, max log n")
    cls_args(sp)
    sp.add_argument("kind", choices=proth.KINDS)
    sp.set_defaults(func=cmd_list)

    sp = sub.add_parser("count", help="number of Proth primes (q_h of exactly logqh bits)")
    cls_args(sp)
    sp.add_argument("--method", choices=("auto", "python", "c"), default="auto",
                    help=f"auto: Python up to {proth.PYTHON_COUNT_LIMIT} candidates, the C counter above")
    sp.set_defaults(func=cmd_count)

    sp = sub.add_parser("largest", help="the largest prime below BOUND in a class")
    sp.add_argument("bound", type=parse_int)
    sp.add_argument("--class", dest="cls", required=True, choices=tuple(proth.CLASSES))
    sp.add_argument("--n", type=parse_int, help="NTT size (class ntt: q = 1 mod 2n)")
    sp.add_argument("--k", type=parse_int, help="bit length of q (Proth classes)")
    sp.add_argument("--logqh", type=parse_int, help="bit length of q_h (Proth classes)")
    sp.set_defaults(func=cmd_largest)

    sp = sub.add_parser("decompose", help="the canonical l1 l2 [l3] of a Proth-l value")
    sp.add_argument("q", type=parse_int)
    cls_args(sp)
    sp.add_argument("kind", choices=proth.KINDS)
    sp.add_argument("--all", action="store_true", help="every tuple, not just the canonical one")
    sp.set_defaults(func=cmd_decompose)

    sp = sub.add_parser("tables", help="Table 2 and Table 3 counts, ours vs the paper's text")
    sp.add_argument("--big", action="store_true",
                    help="include the 64/26 and 64/32 counts (C counter; minutes for 64/32)")
    sp.set_defaults(func=cmd_tables)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, PaperTableError, NativeToolError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
