"""The prime counts of Tosun et al. (Table 2 and Table 3's "# primes"), parsed from the paper's text.

Why parse instead of retyping: the numbers our counts are checked against must be the paper's,
not a copy that could drift. The text is <papers>/ntt-modred-fpga-tosun.txt, where <papers> is
$MODFORGE_PAPERS or, by default, <repo>/../shared/papers.

    paper_table2()        -> [Table2Row(logq, logqh, kind, count)]        kind "2l" or "3l"
    paper_table3_counts() -> [Table3Count(logq, logqh, algorithm, count)] rows with a number
                             (WLM-Mixed, K²RED); WLM's "*" rows ("all NTT primes") are skipped

Both raise PaperTableError, naming the file, when the file or the table is missing.
"""
import os
import re
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
TOSUN = "ntt-modred-fpga-tosun.txt"


class PaperTableError(RuntimeError):
    """The paper's text or one of its tables could not be found or read."""


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


def papers_dir() -> Path:
    return Path(os.environ.get("MODFORGE_PAPERS", REPO.parent / "shared" / "papers"))


def paper_path() -> Path:
    return papers_dir() / TOSUN


def _lines(path: Path = None) -> tuple:
    path = Path(path) if path else paper_path()
    try:
        return path, path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise PaperTableError(f"cannot read the paper's text {path}: {e.strerror}; set MODFORGE_PAPERS "
                              f"to the folder that holds {TOSUN}") from None


def _find(lines, start, test, path, what) -> int:
    for i in range(start, len(lines)):
        if test(lines[i]):
            return i
    raise PaperTableError(f"{path}: {what} not found; is this the text of Tosun et al.?")


_TABLE2_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+\$?\s*([23])\s*l\s*\$?\s+(\d+)\s*$")


def paper_table2(path=None) -> list:
    """Table 2 ("Number of proth-l primes"): the block after the "#primes" header, before "Table 2:"."""
    path, lines = _lines(path)
    head = _find(lines, 0, lambda s: re.search(r"#\s*primes", s) and "Proth" in s, path,
                 "Table 2's header (a line with 'Proth-' and '#primes')")
    end = _find(lines, head + 1, lambda s: s.strip().startswith("Table 2:"), path,
                "the caption 'Table 2:' after its header")
    rows = []
    for line in lines[head + 1:end]:
        m = _TABLE2_ROW.match(line)
        if m:
            rows.append(Table2Row(int(m[1]), int(m[2]), m[3] + "l", int(m[4])))
        elif line.strip():
            raise PaperTableError(f"{path}: unexpected line in Table 2: {line!r}")
    if not rows:
        raise PaperTableError(f"{path}: Table 2 has no rows between its header and caption")
    return rows


_TABLE3_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\*|\d+)\s")
_SECTION = re.compile(r"^\s*(.+?)\s*\(Algorithm\s*\d+\)")


def _algorithm_name(raw: str) -> str:
    return re.sub(r"\s+", "", raw)  # "K ² RED" -> "K²RED"


def paper_table3_counts(path=None) -> list:
    """Table 3's "# primes" column where it is a number, with each row's log q, log q_h and
    algorithm (the section heading above the row, e.g. "WLM-Mixed (Algorithm 8)")."""
    path, lines = _lines(path)
    end = _find(lines, 0, lambda s: s.strip().startswith("Table 3:"), path, "the caption 'Table 3:'")
    head = None
    for i in range(end - 1, -1, -1):
        if re.search(r"#\s*primes", lines[i]) and "max" in lines[i]:
            head = i
            break
    if head is None:
        raise PaperTableError(f"{path}: Table 3's header (a line with '# primes' and 'max. log n') "
                              f"not found before its caption")
    algorithm, rows, numeric = None, [], 0
    for line in lines[head + 1:end]:
        section = _SECTION.match(line)
        row = _TABLE3_ROW.match(line)
        if section and not row:
            algorithm = _algorithm_name(section[1])
        elif row:
            numeric += 1
            if row[3] != "*":
                if algorithm is None:
                    raise PaperTableError(f"{path}: Table 3 row {line.strip()!r} has no algorithm heading above it")
                rows.append(Table3Count(int(row[1]), int(row[2]), algorithm, int(row[3])))
    if not rows:
        raise PaperTableError(f"{path}: Table 3 has no rows with a prime count ({numeric} rows read)")
    return rows
