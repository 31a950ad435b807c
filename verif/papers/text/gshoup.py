"""Mazonka et al. (the generalized-Shoup paper, GLSVLSI 2024): Table 1 from its text,
gshoup-glsvlsi24-mazonka.txt. The parser moved here from flow/reports/asic_table.py.

    paper_table1(path) -> [(design as printed, size, critical path ns, area um2)]
    document(path)     -> the records of data/papers/gshoup.toml
"""
import re

from . import figure, header, read_lines
from papers import PaperTableError

GSHOUP = "gshoup-glsvlsi24-mazonka.txt"
CITE = "Mazonka et al., Table 1 (Area and Delay Comparison of the multipliers; TSMC 22 nm ULL, worst corner)"


def paper_table1(path=None) -> list:
    """Table 1's rows in the printed order: the design cell is inherited by the blank cells below it."""
    path, lines = read_lines(GSHOUP, path)
    rows, design = [], None
    for line in lines:
        cells = line.split("\t")
        if len(cells) == 4 and re.fullmatch(r"\d+", cells[1]) and re.fullmatch(r"[\d.]+", cells[2]):
            design = cells[0] if cells[0] else design
            rows.append((design, int(cells[1]), float(cells[2]), float(cells[3])))
    if not rows:
        raise PaperTableError(f"{path}: Table 1 (Design, Size, Critical path, Area) not found; is this the GShoup paper?")
    return rows


def document(path=None) -> dict:
    figs = []
    for i, (design, k, ns, um2) in enumerate(paper_table1(path), 1):
        figs += [figure("Table 1", i, "Design", design, CITE),
                 figure("Table 1", i, "Size", k, CITE, unit="bits"),
                 figure("Table 1", i, "Critical path", ns, CITE, unit="ns"),
                 figure("Table 1", i, "Area", um2, CITE, unit="um2")]
    title = "Exploring Generalization of Shoup Modular Multiplier"
    return {"comment": header("gshoup", title, "Mazonka et al."), "figures": figs,
            "paper": {"key": "gshoup", "title": title, "authors": "Mazonka, Nabeel, Maniatakos",
                      "venue": "GLSVLSI '24", "doi": "10.1145/3649476.3660374",
                      "text": GSHOUP, "short": "Mazonka et al."}}
