"""The tables of Millar, Łukowiak and Radziszowski's SSA polynomial multiplier (HLS, ZCU102),
from the committed data, data/papers/millar.toml, and the moduli we use for its parameter sets.

Why data instead of typed numbers: the paper's numbers we compare against must be the paper's, not
a copy that could drift. scripts/paper_data.py writes the file from the paper's text,
ssa-hls-polymul-millar.txt (its parser: papers.text.millar), and `--check` compares the two.

    paper_table1()   -> [Table1Row(n, security, logq, size_bits)]      the 18 parameter sets
    paper_table2()   -> [Table2Row(n, logq, latency, fpga_us, ntl_us, speedup)]   HLS estimate
    paper_device()   -> Device(part, bram18, dsp, ff, lut)              Table III, the XCZU9EG totals
    paper_table4()   -> [Table4Row(n, logq, bram18_pct, ..., speedup)]  place and route
    resource_counts(row, device) -> {resource: (count, lo, hi)}         Table IV percentages as counts
    paper_sets()     -> [ParamSet(name, n, logq, security, q, psi)]     our modulus for each set

All raise PaperTableError, naming the file, when the data file or a table is missing.

Errata (docs/errata.md, Millar et al.): of the misprints the reading notes list,
one concerns these tables: Table IV's caption names the part "XCZU9EG-FVVB1156-2-1-ES2", a
misprint of Table III's (and Section V's) "xczu9eg-ffvb1156-2-i-es2" (notes 1.4); table4_part()
returns the caption's part with that correction. The others (Algorithm 2's twiddle index, loop
bound, indentation, missing bit reversal; Algorithm 1's "maximum degree n", really n - 1) concern
the algorithms, not the tables.

Moduli (our choice; the paper gives no q, omega or theta, notes 1.2): for each Table I set, q is
the largest prime q = 1 (mod 2n) below 2^logq (so q has exactly logq bits), and psi (the paper's
theta, a primitive 2n-th root of unity, psi^n = -1 mod q) is g^((q-1)/2n) for the smallest g >= 2
that gives psi^n = -1: the search of ntt.ntt.find_psi, which the NTT tiles use too.
"""
from functools import lru_cache
from typing import NamedTuple

import papers
from papers import PaperTableError  # noqa: F401  (callers catch it from here)
from primetools.primes import ntt_prime

from .ntt import find_psi

PAPER = "millar"
MILLAR = papers.PAPERS[PAPER]   # the paper's text, for scripts/paper_data.py (papers.text.millar)

# Notes 1.4 (docs/errata.md#millar-part): the caption of Table IV misprints the part; the device is
# Table III's. The data records the corrected part with the printed one.
TABLE4_PART_MISPRINT = "XCZU9EG-FVVB1156-2-1-ES2"


class Table1Row(NamedTuple):
    n: int
    security: int    # lambda, bits of security
    logq: int
    size_bits: int   # n * log q, as printed


class Table2Row(NamedTuple):
    n: int
    logq: int
    latency: int     # clock cycles (Vivado HLS estimate at a 4 ns clock)
    fpga_us: int     # latency x 4 ns, as printed (rounded)
    ntl_us: int      # NTL 11.3.2 on an AMD A10-7850K at 3.7 GHz, average
    speedup: int


class Device(NamedTuple):
    part: str
    bram18: int
    dsp: int
    ff: int
    lut: int


class Table4Row(NamedTuple):
    n: int
    logq: int
    bram18_pct: int  # percent of Table III's totals
    dsp_pct: int
    ff_pct: int
    lut_pct: int
    fmax_mhz: int    # from the worst negative slack after place and route
    latency: int     # clock cycles
    fpga_us: int     # latency / fmax, as printed (rounded)
    ntl_us: int
    speedup: int


class ParamSet(NamedTuple):
    name: str        # polymul_<n>_<logq>, the registry's design name
    n: int
    logq: int
    security: int
    q: int           # the largest prime q = 1 mod 2n below 2^logq
    psi: int         # a primitive 2n-th root of unity mod q (psi^n = -1)


def data_path():
    return papers.data_path(PAPER)


def _table(numeral, fields, columns, cls, path):
    return [cls(*(papers.values(row)[columns[f]] for f in fields))
            for row in papers.table(PAPER, f"Table {numeral}", path)]


def paper_table1(path=None) -> list:
    """Table I ("PARAMETERS FOR RLWE-BASED HE SCHEMES"): n, lambda, log q, size (bits)."""
    return _table("I", Table1Row._fields, {"n": "n", "security": "λ", "logq": "log q", "size_bits": "Size"},
                  Table1Row, path)


def paper_table2(path=None) -> list:
    """Table II ("TIMING RESULTS OF THE SYNTHESIZED DESIGN"): n, log q, latency, FPGA, NTL, speedup."""
    return _table("II", Table2Row._fields, {"n": "n", "logq": "log q", "latency": "Latency", "fpga_us": "FPGA",
                                            "ntl_us": "NTL", "speedup": "Speedup"}, Table2Row, path)


def paper_device(path=None) -> Device:
    """Table III ("AVAILABLE RESOURCES FOR PART ..."): the part and its BRAM_18K, DSP48E, FF and
    LUT totals, the base of Table IV's percentages."""
    return _table("III", Device._fields, {"part": "part", "bram18": "BRAM_18K", "dsp": "DSP48E", "ff": "FF",
                                          "lut": "LUT"}, Device, path)[0]


def table4_part(path=None) -> str:
    """The part of Table IV's caption, with the misprint of docs/errata.md#millar-part corrected to Table III's."""
    return next(papers.values(r)["part"] for r in papers.table(PAPER, "Table IV", path) if r["row"] == "title")


def paper_table4(path=None) -> list:
    """Table IV (place and route, 256-bit-security sets): n, log q, the four resource percentages
    of Table III's totals, fmax (MHz), latency, FPGA (us), NTL (us), speedup."""
    columns = {"n": "n", "logq": "log q", "bram18_pct": "BRAM_18K", "dsp_pct": "DSP48E", "ff_pct": "FF",
               "lut_pct": "LUT", "fmax_mhz": "f_max", "latency": "Latency", "fpga_us": "FPGA", "ntl_us": "NTL",
               "speedup": "Speedup"}
    return [Table4Row(*(papers.values(row)[columns[f]] for f in Table4Row._fields))
            for row in papers.table(PAPER, "Table IV", path) if row["row"] != "title"]


def resource_counts(row: Table4Row, device: Device) -> dict:
    """Table IV's percentages as counts of the device's totals: {resource: (count, lo, hi)} with
    count = round(pct x total / 100) and [lo, hi] the counts a whole percentage printed from a
    true value in [pct - 0.5, pct + 0.5) allows (the paper prints whole percentages only)."""
    out = {}
    for res in ("bram18", "dsp", "ff", "lut"):
        pct, total = getattr(row, f"{res}_pct"), getattr(device, res)
        lo = max(0, -(-(2 * pct - 1) * total // 200))   # ceil((pct - 0.5) * total / 100)
        hi = ((2 * pct + 1) * total - 1) // 200           # below (pct + 0.5) * total / 100
        out[res] = (round(pct * total / 100), lo, hi)
    return out


def set_name(n: int, logq: int) -> str:
    return f"polymul_{n}_{logq}"


@lru_cache(maxsize=None)
def modulus(n: int, logq: int) -> tuple:
    """(q, psi): q the largest prime q = 1 (mod 2n) below 2^logq, psi = g^((q-1)/2n) for the
    smallest g >= 2 with psi^n = -1 (mod q), i.e. a primitive 2n-th root of unity."""
    q = ntt_prime(logq, 2 * n)
    return q, find_psi(n, q)


def paper_sets(path=None) -> list:
    """Every Table I set with its name (polymul_<n>_<logq>), q and psi (see modulus())."""
    return [ParamSet(set_name(r.n, r.logq), r.n, r.logq, r.security, *modulus(r.n, r.logq))
            for r in paper_table1(path)]
