"""The tables of Millar, Łukowiak and Radziszowski's SSA polynomial multiplier (HLS, ZCU102),
parsed from the paper's text, and the moduli we use for its parameter sets.

Why parse instead of retyping: the paper's numbers we compare against must be the paper's, not a
copy that could drift. The text is <papers>/ssa-hls-polymul-millar.txt, where <papers> is
$MODFORGE_PAPERS or, by default, <repo>/../shared/papers. Each table there is a caption line
("TABLE I", "TABLE II", ...), a title line, a blank line, a tab-separated header line and
tab-separated rows up to the next blank line.

    paper_table1()   -> [Table1Row(n, security, logq, size_bits)]      the 18 parameter sets
    paper_table2()   -> [Table2Row(n, logq, latency, fpga_us, ntl_us, speedup)]   HLS estimate
    paper_device()   -> Device(part, bram18, dsp, ff, lut)              Table III, the XCZU9EG totals
    paper_table4()   -> [Table4Row(n, logq, bram18_pct, ..., speedup)]  place and route
    resource_counts(row, device) -> {resource: (count, lo, hi)}         Table IV percentages as counts
    paper_sets()     -> [ParamSet(name, n, logq, security, q, psi)]     our modulus for each set

All raise PaperTableError, naming the file, when the file or a table is missing or malformed.

Errata (../shared/papers/NOTES-supporting-papers.md, section 1): of the misprints the notes list,
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
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from primetools.primes import ntt_prime

from .ntt import find_psi

REPO = Path(__file__).resolve().parents[2]
MILLAR = "ssa-hls-polymul-millar.txt"

# Notes 1.4: the caption of Table IV misprints the part; the device is Table III's.
TABLE4_PART_MISPRINT = "XCZU9EG-FVVB1156-2-1-ES2"


class PaperTableError(RuntimeError):
    """The paper's text or one of its tables could not be found or read."""


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


def papers_dir() -> Path:
    return Path(os.environ.get("MODFORGE_PAPERS", REPO.parent / "shared" / "papers"))


def paper_path() -> Path:
    return papers_dir() / MILLAR


def _lines(path=None):
    path = Path(path) if path else paper_path()
    try:
        return path, path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise PaperTableError(f"cannot read the paper's text {path}: {e.strerror}; set MODFORGE_PAPERS "
                              f"to the folder that holds {MILLAR}") from None


def _caption(lines, numeral, path) -> int:
    for i, line in enumerate(lines):
        if line.strip() == f"TABLE {numeral}":
            return i
    raise PaperTableError(f"{path}: the caption 'TABLE {numeral}' not found; is this the text of Millar et al.?")


def _block(lines, numeral, path, header_test, what):
    """(title, header cells, [row cells]) of table <numeral>: the title line after the caption,
    the first header line after it (header_test), and the tab-separated rows up to a blank line."""
    cap = _caption(lines, numeral, path)
    title = lines[cap + 1].strip() if cap + 1 < len(lines) else ""
    for h in range(cap + 1, min(cap + 6, len(lines))):
        header = [c.strip() for c in lines[h].split("\t")]
        if header_test(header):
            break
    else:
        raise PaperTableError(f"{path}: Table {numeral}'s header ({what}) not found after its caption")
    rows = []
    for line in lines[h + 1:]:
        if not line.strip():
            break
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) != len(header):
            raise PaperTableError(f"{path}: Table {numeral} row {line.strip()!r} has {len(cells)} cells, "
                                  f"its header {len(header)}")
        rows.append(cells)
    if not rows:
        raise PaperTableError(f"{path}: Table {numeral} has no rows after its header")
    return title, header, rows


def _int(cell, path, numeral, percent=False) -> int:
    s = cell.replace(",", "")
    if percent:
        if not s.endswith("%"):
            raise PaperTableError(f"{path}: Table {numeral}: expected a percentage, got {cell!r}")
        s = s[:-1]
    if not re.fullmatch(r"\d+", s):
        raise PaperTableError(f"{path}: Table {numeral}: expected a whole number, got {cell!r}")
    return int(s)


def _is_logq(cell: str) -> bool:
    return re.sub(r"[\s$\\]", "", cell) == "logq"


def paper_table1(path=None) -> list:
    """Table I ("PARAMETERS FOR RLWE-BASED HE SCHEMES"): n, lambda, log q, size (bits)."""
    path, lines = _lines(path)
    _, header, rows = _block(lines, "I", path, lambda c: len(c) == 4 and c[0] == "n" and _is_logq(c[2]),
                             "n, lambda, log q, Size")
    return [Table1Row(*(_int(c, path, "I") for c in r)) for r in rows]


def paper_table2(path=None) -> list:
    """Table II ("TIMING RESULTS OF THE SYNTHESIZED DESIGN"): n, log q, latency, FPGA, NTL, speedup."""
    path, lines = _lines(path)
    _, header, rows = _block(lines, "II", path,
                             lambda c: len(c) == 6 and c[0] == "n" and _is_logq(c[1]) and c[2] == "Latency",
                             "n, log q, Latency, FPGA, NTL, Speedup")
    return [Table2Row(*(_int(c, path, "II") for c in r)) for r in rows]


def _part(title: str):
    m = re.search(r"PART\s+(\S+)", title, re.IGNORECASE)
    return m[1].upper() if m else None


def paper_device(path=None) -> Device:
    """Table III ("AVAILABLE RESOURCES FOR PART ..."): the part and its BRAM_18K, DSP48E, FF and
    LUT totals, the base of Table IV's percentages."""
    path, lines = _lines(path)
    title, header, rows = _block(lines, "III", path, lambda c: c[:1] == ["BRAM_18K"], "BRAM_18K, DSP48E, FF, LUT")
    if header != ["BRAM_18K", "DSP48E", "FF", "LUT"] or len(rows) != 1:
        raise PaperTableError(f"{path}: Table III should be one row under BRAM_18K, DSP48E, FF, LUT; "
                              f"got {header} with {len(rows)} rows")
    part = _part(title)
    if part is None:
        raise PaperTableError(f"{path}: Table III's title {title!r} names no part")
    return Device(part, *(_int(c, path, "III") for c in rows[0]))


def table4_part(path=None) -> str:
    """The part of Table IV's caption, with the misprint of notes 1.4 corrected to Table III's."""
    path, lines = _lines(path)
    part = _part(lines[_caption(lines, "IV", path) + 1])
    if part is None:
        raise PaperTableError(f"{path}: Table IV's title names no part")
    if part == TABLE4_PART_MISPRINT:  # NOTES-supporting-papers.md 1.4: misprint of Table III's part
        part = paper_device(path).part
    return part


def paper_table4(path=None) -> list:
    """Table IV (place and route, 256-bit-security sets): n, log q, the four resource percentages
    of Table III's totals, fmax (MHz), latency, FPGA (us), NTL (us), speedup."""
    path, lines = _lines(path)
    _, header, rows = _block(lines, "IV", path,
                             lambda c: len(c) == 11 and c[0] == "n" and _is_logq(c[1]) and c[2] == "BRAM_18K",
                             "n, log q, BRAM_18K, DSP48E, FF, LUT, f_max, Latency, FPGA, NTL, Speedup")
    out = []
    for r in rows:
        vals = [_int(c, path, "IV", percent=2 <= i <= 5) for i, c in enumerate(r)]
        out.append(Table4Row(*vals))
    return out


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
