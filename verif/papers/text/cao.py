"""Cao, Moore, O'Neill, O'Sullivan and Hanley (the super-size integer multiplier of the integer-FHE
paper; issue 11): Tables 1-6 from its text, fhe-integers-supersize-mult-cao.txt, and the corrected
roots of Table 3 from the reading notes (2.3). The parsers moved here unchanged from intfft/paper_tables.py.

Each table is the block of tab-separated lines after its caption ("Table N. ..."): a header line
starting with "Group", then rows until the first blank line.

    paper_table1(path) .. paper_table6(path)   as intfft.paper_tables returns them
    notes_roots(path)  -> {printed omega: the notes' corrected k-th root}
    document(path, notes) -> the records of data/papers/cao.toml
"""
import re
from decimal import Decimal

from intfft.paper_tables import FftRow, SchemeGroup, SynthRow, SynthTable, TimeCell, parse_modulus, parse_time

from . import NOTES, figure, header, read_lines
from papers import PaperTableError

CAO = "fhe-integers-supersize-mult-cao.txt"
CITE = "Cao et al."


def _table(n: int, path=None) -> tuple:
    """(path, header cells, [row cells]) of Table n: the tab-separated block after its caption."""
    path, lines = read_lines(CAO, path)
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


def notes_roots(path=None) -> dict:
    """The notes' derived constants (2.3): {the printed omega: the k-th root to use}, for the two
    groups whose printed omega is not a k-th root of unity (erratum 3)."""
    path, lines = read_lines(NOTES, path)
    out = {}
    for line in lines:
        m = re.search(r"paper's \"(?:ω = )?(\d+)\".*?\*\*(0x[0-9a-f]+)\*\*", line)
        if m and line.startswith("|"):
            out[int(m[1])] = int(m[2], 16)
    if not out:
        raise PaperTableError(f"{path}: the notes' derived roots (2.3: paper's \"ω = 7\" ... **0x...**) not found")
    return out


# ---- the records ----

SCHEME = [("delta", "δ", "bits"), ("rho", "ρ", "bits"), ("phi", "φ", "bits"), ("theta", "θ", None)]
FFT = [("form", "Group", None), ("p_text", "p", None), ("m", "m", "bits"), ("k", "k", None), ("omega", "ω", None),
       ("b", "b", "bits")]
SYNTH = [("mhz", "Frequency", "MHz"), ("dsp", "DSP48E1", None), ("registers", "Slice registers", None),
         ("luts", "Slice LUTs", None)]
TOTALS = {"dsp": "DSP48E1", "registers": "Slice registers", "luts": "Slice LUTs"}
CAPTIONS = {1: "The four groups of parameters for Equation (1) in CMNT [8]",
            2: "The four test groups of parameters for Equation (2) in CNT [9]",
            3: "The four groups of Integer-FFT parameters", 4: "The synthesis results of the proposed super-size multiplier",
            5: "The synthesis results of the FHE encryption primitives",
            6: "The average running time of the proposed FHE encryption designs"}


def document(path=None, notes=None) -> dict:
    def cite(n):
        return f"{CITE}, Table {n} ({CAPTIONS[n]})"

    figs = []
    for n, rows in ((1, paper_table1(path)), (2, paper_table2(path))):
        figs += [figure(f"Table {n}", g.name, col, getattr(g, f), cite(n), unit=unit)
                 for g in rows for f, col, unit in SCHEME]
    roots = notes_roots(notes)
    for i, r in enumerate(paper_table3(path), 1):
        for f, col, unit in FFT:
            extra = {}
            if f == "omega" and r.omega in roots:
                extra = dict(printed=r.omega, correct=f"{roots[r.omega]:#x}", erratum="docs/errata.md#cao-3")
            figs.append(figure("Table 3", i, col, getattr(r, f), cite(3), unit=unit, **extra))
    for n, t in ((4, paper_table4(path)), (5, paper_table5(path))):
        figs += [figure(f"Table {n}", "total", TOTALS[k], v, cite(n) + ", header") for k, v in t.totals.items()]
        figs += [figure(f"Table {n}", r.group, col, getattr(r, f), cite(n), unit=unit)
                 for r in t.rows for f, col, unit in SYNTH]
    figs += [figure("Table 6", c.row, c.column, c.seconds, cite(6), unit="s", printed=c.text) for c in paper_table6(path)]
    title = ("Accelerating Fully Homomorphic Encryption over the Integers with Super-size Hardware Multiplier "
             "and Modular Reduction")
    return {"comment": header("cao", title, "Cao et al."), "figures": figs,
            "paper": {"key": "cao", "title": title, "authors": "Cao, Moore, O'Neill, O'Sullivan, Hanley",
                      "affiliation": "Queen's University Belfast", "text": CAO, "short": CITE}}
