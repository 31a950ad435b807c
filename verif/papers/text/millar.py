"""Millar, Łukowiak and Radziszowski's SSA polynomial multiplier (HLS, ZCU102): Tables I-IV from
its text, ssa-hls-polymul-millar.txt. The parsers moved here unchanged from ntt/millar_tables.py.

Each table there is a caption line ("TABLE I", "TABLE II", ...), a title line, a blank line, a
tab-separated header line and tab-separated rows up to the next blank line.

    paper_table1(path) paper_table2(path) paper_device(path) paper_table4(path) table4_part(path)
    document(path)     -> the records of data/papers/millar.toml
"""
import re

from ntt.millar_tables import TABLE4_PART_MISPRINT, Device, Table1Row, Table2Row, Table4Row

from . import figure, header, read_lines
from papers import PaperTableError

MILLAR = "ssa-hls-polymul-millar.txt"
CITE = "Millar et al."


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
    path, lines = read_lines(MILLAR, path)
    _, header, rows = _block(lines, "I", path, lambda c: len(c) == 4 and c[0] == "n" and _is_logq(c[2]),
                             "n, lambda, log q, Size")
    return [Table1Row(*(_int(c, path, "I") for c in r)) for r in rows]


def paper_table2(path=None) -> list:
    """Table II ("TIMING RESULTS OF THE SYNTHESIZED DESIGN"): n, log q, latency, FPGA, NTL, speedup."""
    path, lines = read_lines(MILLAR, path)
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
    path, lines = read_lines(MILLAR, path)
    title, header, rows = _block(lines, "III", path, lambda c: c[:1] == ["BRAM_18K"], "BRAM_18K, DSP48E, FF, LUT")
    if header != ["BRAM_18K", "DSP48E", "FF", "LUT"] or len(rows) != 1:
        raise PaperTableError(f"{path}: Table III should be one row under BRAM_18K, DSP48E, FF, LUT; "
                              f"got {header} with {len(rows)} rows")
    part = _part(title)
    if part is None:
        raise PaperTableError(f"{path}: Table III's title {title!r} names no part")
    return Device(part, *(_int(c, path, "III") for c in rows[0]))


def table4_printed_part(path=None) -> str:
    """The part of Table IV's caption as printed."""
    path, lines = read_lines(MILLAR, path)
    part = _part(lines[_caption(lines, "IV", path) + 1])
    if part is None:
        raise PaperTableError(f"{path}: Table IV's title names no part")
    return part


def table4_part(path=None) -> str:
    """The part of Table IV's caption, with the misprint of notes 1.4 corrected to Table III's."""
    part = table4_printed_part(path)
    if part == TABLE4_PART_MISPRINT:  # docs/errata.md#millar-part: misprint of Table III's part
        part = paper_device(path).part
    return part


def paper_table4(path=None) -> list:
    """Table IV (place and route, 256-bit-security sets): n, log q, the four resource percentages
    of Table III's totals, fmax (MHz), latency, FPGA (us), NTL (us), speedup."""
    path, lines = read_lines(MILLAR, path)
    _, header, rows = _block(lines, "IV", path,
                             lambda c: len(c) == 11 and c[0] == "n" and _is_logq(c[1]) and c[2] == "BRAM_18K",
                             "n, log q, BRAM_18K, DSP48E, FF, LUT, f_max, Latency, FPGA, NTL, Speedup")
    out = []
    for r in rows:
        vals = [_int(c, path, "IV", percent=2 <= i <= 5) for i, c in enumerate(r)]
        out.append(Table4Row(*vals))
    return out


# ---- the records: (field, column as printed, unit) ----

T1 = [("n", "n", None), ("security", "λ", "bits of security"), ("logq", "log q", "bits"), ("size_bits", "Size", "bits")]
T2 = [("n", "n", None), ("logq", "log q", "bits"), ("latency", "Latency", "cycles"), ("fpga_us", "FPGA", "us"),
      ("ntl_us", "NTL", "us"), ("speedup", "Speedup", "x")]
T3 = [("bram18", "BRAM_18K", None), ("dsp", "DSP48E", None), ("ff", "FF", None), ("lut", "LUT", None)]
T4 = [("n", "n", None), ("logq", "log q", "bits"), ("bram18_pct", "BRAM_18K", "%"), ("dsp_pct", "DSP48E", "%"),
      ("ff_pct", "FF", "%"), ("lut_pct", "LUT", "%"), ("fmax_mhz", "f_max", "MHz"), ("latency", "Latency", "cycles"),
      ("fpga_us", "FPGA", "us"), ("ntl_us", "NTL", "us"), ("speedup", "Speedup", "x")]
CAPTIONS = {"I": "PARAMETERS FOR RLWE-BASED HE SCHEMES", "II": "TIMING RESULTS OF THE SYNTHESIZED DESIGN",
            "III": "AVAILABLE RESOURCES FOR PART ...", "IV": "RESULTS OF THE IMPLEMENTED DESIGN FOR 256-BIT SECURITY CONFIGURATIONS"}


def _rows(numeral, rows, columns) -> list:
    cite = f"{CITE}, Table {numeral} ({CAPTIONS[numeral]})"
    return [figure(f"Table {numeral}", i, col, getattr(r, field), cite, unit=unit)
            for i, r in enumerate(rows, 1) for field, col, unit in columns]


def document(path=None) -> dict:
    figs = _rows("I", paper_table1(path), T1) + _rows("II", paper_table2(path), T2)
    device = paper_device(path)
    cite3 = f"{CITE}, Table III (AVAILABLE RESOURCES FOR PART {device.part})"
    figs.append(figure("Table III", 1, "part", device.part, cite3))
    figs += [figure("Table III", 1, col, getattr(device, field), cite3) for field, col, _ in T3]
    printed, part = table4_printed_part(path), table4_part(path)
    cite4 = f"{CITE}, Table IV ({CAPTIONS['IV']} TARGETING PART ...)"
    extra = dict(printed=printed, correct=part, erratum="docs/errata.md#millar-part") if printed != part else {}
    figs.append(figure("Table IV", "title", "part", part, cite4, **extra))
    figs += _rows("IV", paper_table4(path), T4)
    title = ("Design of a Flexible Schönhage-Strassen FFT Polynomial Multiplier with High-Level Synthesis "
             "to Accelerate HE in the Cloud")
    return {"comment": header("millar", title, "Millar et al."), "figures": figs,
            "paper": {"key": "millar", "title": title, "authors": "Millar, Łukowiak, Radziszowski",
                      "affiliation": "Rochester Institute of Technology", "text": MILLAR, "short": CITE}}
