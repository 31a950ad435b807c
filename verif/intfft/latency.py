"""The paper's latency formula, Eq. (12), and Table 6 recomputed from it (Cao et al., Section 5).

    eq12(k, b, d, n_x, n_y) = 16 (log2 k + 1) + (2/d) (n_x n_y / (kb) - n_x + kb/2)   cycles (exact)

The 8-cycle difference (notes, section 2.2 I and erratum 11): the text derives Eq. (12) from a
preparation latency kb/(2d) + 2 N_F log2 k + N_PW + N_AR = 16 log2 k + 24 (N_F = N_PW = N_AR = 8,
kb/(2d) = 8) but Eq. (12)'s constant is 16 (log2 k + 1) = 16 log2 k + 16: EQ12_PREP_DEFICIT = 8.
The controller model (schoolbook.py) counts T = 8 Bx By + 16 log2 k + 32 = eq12 + 16 Bx for
whole blocks (n_x = Bx kb/2, n_y = By kb/2); its docstring splits the 16 Bx.

Table 6 model (the notes' reconstruction, section 2.4): a cell's time is
    N_mult * eq12(n_x = delta rounded up to whole kb/2-bit blocks, n_y = phi) / f
with N_mult = theta^2 (CMNT) or theta (CNT), f the design's Table 5 frequency and k, b, d from
Table 3 (d = kb/16). The super-size Barrett reduction and the accumulation are not included: the
printed times fit the multiplications alone. table6() gives all 32 hardware cells beside the
printed values, parsed from the text; general_b=8 recomputes the general-modulus rows with b = 8,
d = 32 (the notes: those rows fit b = 8, not Table 3's b = 12; erratum 8).

A cell "matches" when the model rounded to the printed number of decimals equals the printed
value; rel is model/printed - 1.
"""
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from math import ceil
from typing import NamedTuple

from . import paper_tables
from .params import GROUP_BY_P, make_group

N_F = N_PW = N_AR = 8
EQ12_PREP_DEFICIT = 8


def eq12(k: int, b: int, d: int, n_x, n_y) -> Fraction:
    """Eq. (12) as printed, exactly (a Fraction: n_x n_y / (kb) need not be whole)."""
    log2k = k.bit_length() - 1
    return 16 * (log2k + 1) + Fraction(2, d) * (Fraction(n_x * n_y, k * b) - n_x + Fraction(k * b, 2))


def described_preparation(k: int, b: int, d: int) -> int:
    """kb/(2d) + 2 N_F log2 k + N_PW + N_AR: the text's latency before the first product word."""
    return k * b // (2 * d) + 2 * N_F * (k.bit_length() - 1) + N_PW + N_AR


def eq12_preparation(k: int) -> int:
    """The constant of Eq. (12): 16 (log2 k + 1)."""
    return 16 * (k.bit_length())


class Table6Cell(NamedTuple):
    scheme: str          # CMNT or CNT
    group: str           # Toy, Small, Medium, Large
    p: int
    row: str             # Table 6's row label
    k: int
    b: int
    d: int
    n_x: int             # delta rounded up to whole blocks
    n_y: int             # phi
    n_mult: int
    cycles: Fraction     # per multiplication, Eq. (12)
    mhz: Decimal         # Table 5
    model_s: float
    printed: object      # paper_tables.TimeCell
    rel: float           # model / printed - 1
    match: bool          # equal at the printed precision


def rounded(x: float, decimals: int) -> Decimal:
    return Decimal(repr(x)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def table6(general_b: int = None, path=None) -> list:
    """The 32 hardware cells of Table 6 (8 rows x Toy..Large), recomputed, in the printed order."""
    schemes = {(s.scheme, s.name): s for s in paper_tables.paper_table1(path) + paper_tables.paper_table2(path)}
    freq = {(r.kind, r.p): r.mhz for r in paper_tables.paper_table5(path).rows}
    fft = {r.p: r for r in paper_tables.paper_table3(path)}
    out = []
    for cell in paper_tables.paper_table6(path):
        if cell.p is None:          # software and GPU rows
            continue
        s, t3 = schemes[(cell.scheme, cell.column)], fft[cell.p]
        k, b = t3.k, t3.b
        if general_b and GROUP_BY_P[cell.p].reducer == "dhem":
            b = general_b
        d = make_group(t3.p, k, GROUP_BY_P[cell.p].omega, b).d
        blk = k * b // 2
        n_x, n_y = ceil(s.delta / blk) * blk, s.phi
        n_mult = s.theta ** 2 if s.scheme == "CMNT" else s.theta
        cyc = eq12(k, b, d, n_x, n_y)
        mhz = freq[(cell.scheme, cell.p)]
        model = float(n_mult * cyc / Fraction(mhz) / 10 ** 6)
        printed = float(cell.seconds)
        out.append(Table6Cell(cell.scheme, cell.column, cell.p, cell.row, k, b, d, n_x, n_y, n_mult, cyc, mhz,
                              model, cell, model / printed - 1, rounded(model, cell.decimals) == cell.seconds))
    return out


def format_table6(cells: list) -> str:
    """A text table: row, column, printed, model, rel, match."""
    lines = [f"{'design':32} {'group':7} {'printed':>11} {'model':>12} {'rel':>8}  match"]
    for c in cells:
        lines.append(f"{c.row:32} {c.group:7} {c.printed.text:>11} {c.model_s:12.6g} {c.rel:+8.2%}  "
                     f"{'yes' if c.match else 'no'}")
    return "\n".join(lines)


def summary(cells: list) -> dict:
    return {"cells": len(cells), "match_printed": sum(c.match for c in cells),
            "within_1pct": sum(abs(c.rel) < 0.01 for c in cells),
            "within_0.5pct": sum(abs(c.rel) < 0.005 for c in cells)}


if __name__ == "__main__":      # python -m intfft.latency (from verif/)
    for gb, title in ((None, "Table 3's b for every group"), (8, "general modulus recomputed with b = 8, d = 32")):
        cells = table6(general_b=gb)
        print(f"Table 6 from Eq. (12), {title}: {summary(cells)}")
        print(format_table6(cells))
        print()
