"""The tables of Cao, Moore, O'Neill, O'Sullivan and Hanley (the super-size integer multiplier of
the integer-FHE paper; issue 11), parsed from the paper's text.

Why parse instead of retyping: every number our models and reports are checked against must be
the paper's, not a copy that could drift. The text is <papers>/fhe-integers-supersize-mult-cao.txt,
where <papers> is $MODFORGE_PAPERS or, by default, <repo>/../shared/papers. Each table is the
block of tab-separated lines after its caption ("Table N. ..."): a header line starting with
"Group", then rows until the first blank line.

    paper_table1() -> [SchemeGroup]   CMNT groups for Eq. (1): name, delta, rho, phi, theta
    paper_table2() -> [SchemeGroup]   CNT groups for Eq. (2)
    paper_table3() -> [FftRow]        Integer-FFT groups: form, p, m, k, omega (as printed), b
    paper_table4() -> SynthTable      multiplier synthesis: rows + the device totals of the header
    paper_table5() -> SynthTable      CMNT/CNT synthesis
    paper_table6() -> [TimeCell]      run times: one cell per (row, column) that is not blank

The moduli are printed in LaTeX ("$2^{64} - 2^{32} + 1$"); parse_modulus() turns them into
integers. phi is printed in millions of bits ("0.16"); it is converted exactly (Decimal) to
160000. Table 6's times are printed as "0.003 s", "0.057s" or "2 min 57 s"; each TimeCell keeps
the printed text, the value in seconds (Decimal, exact) and the printed number of decimals.

All raise PaperTableError, naming the file, when the file or a table is missing or malformed.
"""
import os
import re
from decimal import Decimal
from pathlib import Path
from typing import NamedTuple, Optional

REPO = Path(__file__).resolve().parents[2]
CAO = "fhe-integers-supersize-mult-cao.txt"


class PaperTableError(RuntimeError):
    """The paper's text or one of its tables could not be found or read."""


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


def papers_dir() -> Path:
    return Path(os.environ.get("MODFORGE_PAPERS", REPO.parent / "shared" / "papers"))


def paper_path() -> Path:
    return papers_dir() / CAO


def _lines(path=None) -> tuple:
    path = Path(path) if path else paper_path()
    try:
        return path, path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise PaperTableError(f"cannot read the paper's text {path}: {e.strerror}; set MODFORGE_PAPERS "
                              f"to the folder that holds {CAO}") from None


def _table(n: int, path=None) -> tuple:
    """(path, header cells, [row cells]) of Table n: the tab-separated block after its caption."""
    path, lines = _lines(path)
    cap = next((i for i, s in enumerate(lines) if s.startswith(f"Table {n}.")), None)
    if cap is None:
        raise PaperTableError(f"{path}: the caption 'Table {n}.' not found; is this the text of Cao et al.?")
    head = next((i for i in range(cap + 1, min(cap + 4, len(lines))) if lines[i].startswith("Group\t")), None)
    if head is None:
        raise PaperTableError(f"{path}: Table {n}'s header (a line starting 'Group<TAB>') not found "
                              f"within 3 lines of its caption (line {cap + 1})")
    rows = []
    for s in lines[head + 1:]:
        if not s.strip():
            break
        rows.append(s.split("\t"))
    if not rows:
        raise PaperTableError(f"{path}: Table {n} has no rows after its header (line {head + 1})")
    return path, lines[head].split("\t"), rows


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


def _int(path, n, cell, what) -> int:
    try:
        return int(cell.strip())
    except ValueError:
        raise PaperTableError(f"{path}: Table {n}: {what} {cell!r} is not an integer") from None


def _scheme_table(n: int, scheme: str, path=None) -> list:
    path, head, rows = _table(n, path)
    if len(head) != 5:
        raise PaperTableError(f"{path}: Table {n}'s header has {len(head)} columns, expected 5 "
                              f"(Group, delta, rho, phi x 10^-6, theta)")
    out = []
    for r in rows:
        if len(r) != 5:
            raise PaperTableError(f"{path}: Table {n}: row {r!r} does not have 5 cells")
        phi = Decimal(r[3].strip()) * 10 ** 6
        if phi != phi.to_integral_value():
            raise PaperTableError(f"{path}: Table {n}: phi {r[3]!r} x 10^6 is not a whole number of bits")
        out.append(SchemeGroup(scheme, r[0].strip(), _int(path, n, r[1], "delta"), _int(path, n, r[2], "rho"),
                               int(phi), _int(path, n, r[4], "theta")))
    return out


def paper_table1(path=None) -> list:
    """Table 1: the CMNT [8] groups for Eq. (1)."""
    return _scheme_table(1, "CMNT", path)


def paper_table2(path=None) -> list:
    """Table 2: the CNT [9] groups for Eq. (2)."""
    return _scheme_table(2, "CNT", path)


def paper_table3(path=None) -> list:
    """Table 3: the Integer-FFT groups. A blank group cell inherits the form above it."""
    path, head, rows = _table(3, path)
    if [h.strip() for h in head] != ["Group", "p", "m", "k", "ω", "b"]:
        raise PaperTableError(f"{path}: Table 3's header {head!r} is not Group, p, m, k, ω, b")
    out, form = [], None
    for r in rows:
        if len(r) != 6:
            raise PaperTableError(f"{path}: Table 3: row {r!r} does not have 6 cells")
        if r[0].strip():
            form = r[0].strip().split()[0]      # "Special modulus form [23]" -> "Special"
        if form is None:
            raise PaperTableError(f"{path}: Table 3's first row has no group")
        try:
            p = parse_modulus(r[1])
        except ValueError as e:
            raise PaperTableError(f"{path}: Table 3: {e}") from None
        out.append(FftRow(form, r[1].replace("$", "").strip(), p, _int(path, 3, r[2], "m"),
                          _int(path, 3, r[3], "k"), _int(path, 3, r[4], "ω"), _int(path, 3, r[5], "b")))
    return out


_TOTAL = re.compile(r"total:\s*(\d+)")
_GROUP = re.compile(r"^(Multiplier|CMNT|CNT)\s+with\s+(\$.+\$)\s*$")


def _synth_table(n: int, path=None) -> SynthTable:
    path, head, rows = _table(n, path)
    keys = ("dsp", "registers", "luts")
    totals = {}
    for key, cell in zip(keys, head[2:]):
        m = _TOTAL.search(cell)
        if not m:
            raise PaperTableError(f"{path}: Table {n}'s header cell {cell!r} has no '(total: N)'")
        totals[key] = int(m[1])
    if len(totals) != 3 or "Frequency" not in head[1]:
        raise PaperTableError(f"{path}: Table {n}'s header {head!r} is not Group, Frequency, DSP, registers, LUTs")
    out = []
    for r in rows:
        m = _GROUP.match(r[0].strip())
        if len(r) != 5 or not m:
            raise PaperTableError(f"{path}: Table {n}: cannot read the row {r!r}")
        out.append(SynthRow(r[0].replace("$", "").strip(), m[1], parse_modulus(m[2]), Decimal(r[1].strip()),
                            _int(path, n, r[2], "DSP"), _int(path, n, r[3], "registers"),
                            _int(path, n, r[4], "LUTs")))
    return SynthTable(out, totals)


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
    path, head, rows = _table(6, path)
    columns = [h.strip() for h in head[1:]]
    if columns != ["Toy", "Small", "Medium", "Large"]:
        raise PaperTableError(f"{path}: Table 6's columns {columns!r} are not Toy, Small, Medium, Large")
    out = []
    for r in rows:
        label = r[0].replace("$", "").strip()
        m = _GROUP.match(r[0].strip())
        scheme = m[1] if m else (label.split()[0] if label.split()[0] in ("CMNT", "CNT") else "")
        p = parse_modulus(m[2]) if m else None
        cells = r[1:] + [""] * (4 - len(r[1:]))
        if len(cells) != 4:
            raise PaperTableError(f"{path}: Table 6: row {r!r} has more than 4 cells")
        for col, cell in zip(columns, cells):
            if not cell.strip():
                continue
            try:
                sec, dec = parse_time(cell)
            except ValueError as e:
                raise PaperTableError(f"{path}: Table 6, row {label!r}, column {col}: {e}") from None
            out.append(TimeCell(label, scheme, p, col, cell.strip(), sec, dec))
    return out
