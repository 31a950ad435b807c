"""The tables of Cao, Moore, O'Neill, O'Sullivan and Hanley (the super-size integer multiplier of
the integer-FHE paper; issue 11), from the committed data, data/papers/cao.toml.

Why data instead of typed numbers: every number our models and reports are checked against must
be the paper's, not a copy that could drift. scripts/paper_data.py writes the file from the
paper's text, fhe-integers-supersize-mult-cao.txt (its parser: papers.text.cao), and `--check`
compares the two.

    paper_table1() -> [SchemeGroup]   CMNT groups for Eq. (1): name, delta, rho, phi, theta
    paper_table2() -> [SchemeGroup]   CNT groups for Eq. (2)
    paper_table3() -> [FftRow]        Integer-FFT groups: form, p, m, k, omega (as printed), b
    paper_table4() -> SynthTable      multiplier synthesis: rows + the device totals of the header
    paper_table5() -> SynthTable      CMNT/CNT synthesis
    paper_table6() -> [TimeCell]      run times: one cell per (row, column) that is not blank

The moduli are printed in LaTeX ("$2^{64} - 2^{32} + 1$"); the data keeps them without the dollars
and parse_modulus() turns them into integers. phi is printed in millions of bits ("0.16"); the
data has it in bits (160000). Table 6's times are printed as "0.003 s", "0.057s" or "2 min 57 s";
each TimeCell keeps the printed text, the value in seconds (Decimal, exact) and the printed number
of decimals (parse_time()).

All raise PaperTableError, naming the file, when the data file or a table is missing.
"""
import re
from decimal import Decimal
from typing import NamedTuple, Optional

import papers
from papers import PaperTableError  # noqa: F401  (callers catch it from here)

PAPER = "cao"
CAO = papers.PAPERS[PAPER]   # the paper's text, for scripts/paper_data.py (papers.text.cao)


class SchemeGroup(NamedTuple):
    scheme: str     # "CMNT" (Table 1) or "CNT" (Table 2)
    name: str       # Toy, Small, Medium, Large
    delta: int      # bits of B_{i,j} / B_i
    rho: int        # bits of the noise R
    phi: int        # bits of the public-key integers (A_0 and the A's)
    theta: int      # terms: theta^2 products for CMNT, theta for CNT


class FftRow(NamedTuple):
    form: str       # "Special", "Solinas" or "General" (the group column, inherited by blank cells)
    p_text: str     # as printed, e.g. "2^{64} - 2^{32} + 1"
    p: int
    m: int
    k: int
    omega: int      # as printed (7 and 17 are not k-th roots: see params.py and the notes' errata)
    b: int


class SynthRow(NamedTuple):
    group: str      # as printed without the LaTeX dollars, e.g. "Multiplier with 2^{32} + 1"
    kind: str       # "Multiplier", "CMNT" or "CNT"
    p: int
    mhz: Decimal
    dsp: int
    registers: int
    luts: int


class SynthTable(NamedTuple):
    rows: list
    totals: dict    # {"dsp": 3600, "registers": 1224000, "luts": 612000} from the header


class TimeCell(NamedTuple):
    row: str        # as printed without the LaTeX dollars, e.g. "CNT with 2^{64} + 1", "CMNT [8]"
    scheme: str     # "CMNT", "CNT" or "" (the [13] GPU row)
    p: Optional[int]  # the FFT modulus of a hardware row; None for the software/GPU rows
    column: str     # Toy, Small, Medium, Large
    text: str       # the printed cell, e.g. "0.057s", "2 min 57 s"
    seconds: Decimal
    decimals: int   # printed digits after the point (0 for "10 s", "2 min 57 s")


_TERM = re.compile(r"^(\d+)(?:\^\{?(\d+)\}?)?$")


def parse_modulus(text: str) -> int:
    """"$2^{64} - 2^{32} + 1$" -> 18446744069414584321: a sum of signed terms 2^{e} or integers."""
    s = text.replace("$", "").replace(" ", "")
    if not s:
        raise ValueError("empty modulus")
    total = 0
    for sign, term in re.findall(r"([+-]?)([^+-]+)", s):
        m = _TERM.match(term)
        if not m:
            raise ValueError(f"cannot read the term {term!r} of the modulus {text!r}")
        v = int(m[1]) ** int(m[2]) if m[2] else int(m[1])
        total += -v if sign == "-" else v
    return total


def data_path():
    return papers.data_path(PAPER)


def _scheme_table(n: int, scheme: str, path=None) -> list:
    return [SchemeGroup(scheme, row["row"], v["δ"], v["ρ"], v["φ"], v["θ"])
            for row in papers.table(PAPER, f"Table {n}", path) for v in [papers.values(row)]]


def paper_table1(path=None) -> list:
    """Table 1: the CMNT [8] groups for Eq. (1)."""
    return _scheme_table(1, "CMNT", path)


def paper_table2(path=None) -> list:
    """Table 2: the CNT [9] groups for Eq. (2)."""
    return _scheme_table(2, "CNT", path)


def paper_table3(path=None) -> list:
    """Table 3: the Integer-FFT groups (omega as printed; the data records the corrected roots, erratum 3)."""
    return [FftRow(v["Group"], v["p"], parse_modulus(v["p"]), v["m"], v["k"], v["ω"], v["b"])
            for v in map(papers.values, papers.table(PAPER, "Table 3", path))]


_LABEL = re.compile(r"^(Multiplier|CMNT|CNT)\s+with\s+(.+?)\s*$")


def _synth_table(n: int, path=None) -> SynthTable:
    rows, totals = [], {}
    for row in papers.table(PAPER, f"Table {n}", path):
        v = papers.values(row)
        if row["row"] == "total":
            totals = {"dsp": v["DSP48E1"], "registers": v["Slice registers"], "luts": v["Slice LUTs"]}
            continue
        m = _LABEL.match(row["row"])
        if not m:
            raise PaperTableError(f"{papers.data_path(PAPER)}: Table {n}: cannot read the row {row['row']!r}")
        rows.append(SynthRow(row["row"], m[1], parse_modulus(m[2]), Decimal(v["Frequency"]), v["DSP48E1"],
                             v["Slice registers"], v["Slice LUTs"]))
    return SynthTable(rows, totals)


def paper_table4(path=None) -> SynthTable:
    """Table 4: the synthesis results of the super-size multiplier (XC7VX980T)."""
    return _synth_table(4, path)


def paper_table5(path=None) -> SynthTable:
    """Table 5: the synthesis results of the CMNT and CNT encryption designs."""
    return _synth_table(5, path)


_SECONDS = re.compile(r"^(?:(\d+)\s*min\s*)?(\d+(?:\.(\d+))?)\s*s$")


def parse_time(text: str) -> tuple:
    """"0.057s" -> (Decimal('0.057'), 3); "2 min 57 s" -> (Decimal('177'), 0)."""
    m = _SECONDS.match(text.strip())
    if not m:
        raise ValueError(f"cannot read the time {text!r}")
    minutes = int(m[1]) if m[1] else 0
    return Decimal(m[2]) + 60 * minutes, len(m[3] or "")


def paper_table6(path=None) -> list:
    """Table 6: every non-blank cell, row by row. The [13] row has one cell (Small)."""
    out = []
    for row in papers.table(PAPER, "Table 6", path):
        label = row["row"]
        m = _LABEL.match(label)
        scheme = m[1] if m else (label.split()[0] if label.split()[0] in ("CMNT", "CNT") else "")
        p = parse_modulus(m[2]) if m else None
        for col, rec in row.items():
            if col == "row":
                continue
            out.append(TimeCell(label, scheme, p, col, rec["printed"], Decimal(rec["value"]),
                                parse_time(rec["printed"])[1]))
    return out
