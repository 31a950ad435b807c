"""The prime counts of Tosun et al. (Table 2 and Table 3's "# primes") and the Proth-2l lists of
the reading notes (3.7), from the committed data, data/papers/tosun.toml.

Why data instead of typed numbers: the numbers our counts are checked against must be the paper's,
not a copy that could drift. scripts/paper_data.py writes the file from the paper's text
(papers.text.tosun, when $MODFORGE_PAPERS or ../shared/papers holds it) and `--check` compares it.

    paper_table2()        -> [Table2Row(logq, logqh, kind, count)]        kind "2l" or "3l"
    paper_table3_counts() -> [Table3Count(logq, logqh, algorithm, count)] rows with a number
                             (WLM-Mixed, K²RED); WLM's "*" rows ("all NTT primes") are skipped
    proth2l_lists()       -> {(logq, logqh): [(q, l1, l2)]}               the notes' full lists
    data_path()           -> data/papers/tosun.toml

All raise PaperTableError, naming the file, when the data or the table is missing.
"""
from typing import NamedTuple

import papers
from papers import PaperTableError, number, values  # noqa: F401  (PaperTableError: callers catch it from here)

PAPER = "tosun"
__all__ = ["PaperTableError", "Table2Row", "Table3Count", "paper_table2", "paper_table3_counts", "proth2l_lists",
           "data_path"]


class Table2Row(NamedTuple):
    logq: int
    logqh: int
    kind: str   # "2l" or "3l"
    count: int


class Table3Count(NamedTuple):
    logq: int
    logqh: int
    algorithm: str  # e.g. "WLM-Mixed", "K²RED"
    count: int


def data_path():
    return papers.data_path(PAPER)


def paper_table2(path=None) -> list:
    """Table 2 ("Number of Proth-l primes")."""
    return [Table2Row(v["log q"], v["log q_h"], v["Proth-"], v["# primes"])
            for v in map(values, papers.table(PAPER, "Table 2", path))]


def paper_table3_counts(path=None) -> list:
    """Table 3's "# primes" column where it is a number, with each row's log q, log q_h and algorithm."""
    return [Table3Count(v["log q"], v["log q_h"], v["Algorithm"], v["# primes"])
            for v in map(values, papers.table(PAPER, "Table 3", path)) if v["# primes"] != "*"]


def proth2l_lists(path=None) -> dict:
    """The notes' full Proth-2l lists with (l1, l2): {(log q, log q_h): [(q, l1, l2)]}, in the notes' order."""
    out = {}
    for v in map(values, papers.table(PAPER, "Proth-2l primes", path)):
        out.setdefault((v["log q"], v["log q_h"]), []).append((number(v["q"]), v["l1"], v["l2"]))
    return out
