"""The papers' figures, committed in the repository as data: data/papers/<paper>.toml (issue 30).

modforge reproduces and compares with figures of four papers (the GShoup paper, Tosun et al.,
Millar et al., Cao et al.). Their tables, the prime lists and the errata corrections are committed
as data, one file per paper, so that a clone needs nothing beside it:

    data/papers/gshoup.toml   Mazonka et al. (GShoup), Table 1
    data/papers/tosun.toml    Tosun et al., Tables 2-4, the Section 5.3 claim, the Proth-2l lists
    data/papers/millar.toml   Millar et al., Tables I-IV
    data/papers/cao.toml      Cao et al., Tables 1-6

Each file holds `figures`, a list of records, one per figure: its table, row and column, its
value (with a unit where there is one) and the citation; a corrected figure also carries what the
paper prints (`printed`), the correction (`correct`) and the erratum (`erratum`, a section of
docs/errata.md). scripts/paper_data.py writes the files from the papers' text (the parsers are
in papers.text, never used at run time) and `--check` compares them with it.

This module reads them for the loaders the tests and reports use (primetools.paper_tables,
ntt.millar_tables, intfft.paper_tables, flow/reports/tosun_tables.py, flow/reports/asic_table.py):

    load(paper)               -> the whole file as a dict
    table(paper, name)        -> [row] in the printed order; a row maps each column to its record
    values(row)               -> {column: value}
"""
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data" / "papers"
REGENERATE = "scripts/paper_data.py"
# key (the data file is data/papers/<key>.toml) -> the paper's text file, in $MODFORGE_PAPERS (scripts/paper_data.py)
PAPERS = {
    "gshoup": "gshoup-glsvlsi24-mazonka.txt",
    "tosun": "ntt-modred-fpga-tosun.txt",
    "millar": "ssa-hls-polymul-millar.txt",
    "cao": "fhe-integers-supersize-mult-cao.txt",
}


class PaperTableError(RuntimeError):
    """A paper's data (or, for scripts/paper_data.py, its text) could not be read, or a table is missing."""


PaperDataError = PaperTableError

_cache = {}


def data_path(paper: str) -> Path:
    """data/papers/<paper>.toml (read through DATA, so a test can point it elsewhere)."""
    return DATA / f"{paper}.toml"


def load(paper: str, path=None) -> dict:
    """The parsed data file of the paper (cached by path and modification time)."""
    path = Path(path) if path else data_path(paper)
    try:
        stamp = path.stat().st_mtime_ns
        key = (str(path), stamp)
        if key not in _cache:
            with path.open("rb") as f:
                _cache[key] = tomllib.load(f)
    except OSError as e:
        raise PaperTableError(f"cannot read the paper data {path}: {e.strerror}; it is committed in the repository "
                              f"(data/papers/); {REGENERATE} regenerates it from the paper's text") from None
    except tomllib.TOMLDecodeError as e:
        raise PaperTableError(f"{path}: not valid TOML ({e}); {REGENERATE} regenerates it") from None
    return _cache[key]


def table(paper: str, name: str, path=None) -> list:
    """The rows of the table `name` in the order they are recorded: each a dict {column: record},
    plus "row": the row's identifier. Raises PaperTableError when the table has no figure."""
    rows, order = {}, []
    for rec in load(paper, path).get("figures", []):
        if rec.get("table") != name:
            continue
        rid = rec.get("row")
        if rid not in rows:
            rows[rid] = {"row": rid}
            order.append(rid)
        rows[rid][rec["column"]] = rec
    if not order:
        raise PaperTableError(f"{Path(path) if path else data_path(paper)}: no figures of {name!r}; "
                              f"{REGENERATE} regenerates the file from the paper's text")
    return [rows[r] for r in order]


class Row(dict):
    """{column: value} of one row; a column without a figure raises PaperTableError naming it."""

    def __missing__(self, column):
        raise PaperTableError(f"{self.where}: row {self.rid!r} has no figure in the column {column!r}; "
                              f"{REGENERATE} regenerates the file from the paper's text")


def values(row: dict) -> dict:
    """{column: value} of a row of table()."""
    out = Row((c, rec["value"]) for c, rec in row.items() if c != "row")
    rec = next((r for c, r in row.items() if c != "row"), {})
    out.where, out.rid = rec.get("table", "?"), row.get("row")
    return out


def number(v) -> int:
    """An integer figure: integers beyond 64 bits are recorded as strings (TOML integers are 64-bit)."""
    return int(v, 0) if isinstance(v, str) else v
