"""The papers' text -> their figures as records (issue 30): used by scripts/paper_data.py, which
writes data/papers/<paper>.toml, and by verif/tests/test_paper_data.py, which compares the
committed data with the text. Never used at run time: the tests and reports read the data
(the package `papers`).

The text is <papers>/<file>, where <papers> is $MODFORGE_PAPERS or, by default,
<repo>/../shared/papers; the reading notes (errata, prime lists) are <papers>/NOTES-supporting-papers.md.

    papers_dir()                  the folder of the texts
    read_lines(name, path=None)   (path, lines) of a text, PaperTableError naming the file if missing
    figure(table, row, column, value, cite, **extra)   one record
    render(doc)                   the TOML text of a data file (a writer for this layout only)
    documents(only=None)          {paper: doc} from the text: the four papers' modules' document()
"""
import os
from decimal import Decimal
from pathlib import Path

from papers import PAPERS, REPO, PaperTableError

NOTES = "NOTES-supporting-papers.md"
INT64 = 1 << 63


def papers_dir() -> Path:
    return Path(os.environ.get("MODFORGE_PAPERS", REPO.parent / "shared" / "papers"))


def text_path(name: str) -> Path:
    return papers_dir() / name


def read_lines(name: str, path=None) -> tuple:
    path = Path(path) if path else text_path(name)
    try:
        return path, path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise PaperTableError(f"cannot read the paper's text {path}: {e.strerror}; set MODFORGE_PAPERS "
                              f"to the folder that holds {name}") from None


def figure(table: str, row, column: str, value, cite: str, **extra) -> dict:
    """A record: table, row, column, value, then unit/printed/correct/erratum/note if given, then cite."""
    rec = {"table": table, "row": row, "column": column, "value": value}
    for k in ("unit", "printed", "correct", "erratum", "note"):
        v = extra.pop(k, None)
        if v is not None:
            rec[k] = v
    if extra:
        raise TypeError(f"unknown record fields {sorted(extra)}")
    rec["cite"] = cite
    return rec


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v) if -INT64 <= v < INT64 else _toml_value(str(v))
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, Decimal):
        return _toml_value(str(v))
    if isinstance(v, str):
        s = v.replace("\\", "\\\\").replace('"', '\\"')
        return '"' + "".join(c if c >= " " else f"\\u{ord(c):04x}" for c in s) + '"'
    raise TypeError(f"cannot write {v!r} ({type(v).__name__}) as TOML")


def _inline(d: dict) -> str:
    return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in d.items()) + " }"


def render(doc: dict) -> str:
    """doc = {"comment": [lines], "paper": {key: str}, "figures": [record]} -> TOML text."""
    out = [f"# {line}".rstrip() for line in doc["comment"]] + [""]
    out.append("figures = [")
    out += [f"  {_inline(r)}," for r in doc["figures"]]
    out += ["]", "", "[paper]"]
    out += [f"{k} = {_toml_value(v)}" for k, v in doc["paper"].items()]
    return "\n".join(out) + "\n"


def header(key: str, title: str, authors: str) -> list:
    return [f"The figures modforge takes from {authors}, \"{title}\" (data/papers/{key}.toml).",
            f"Written by scripts/paper_data.py from the paper's text ({PAPERS[key]}); do not edit.",
            "Regenerate: .venv/bin/python scripts/paper_data.py   compare: .venv/bin/python scripts/paper_data.py --check",
            "(the text is read from $MODFORGE_PAPERS, default ../shared/papers). One record per figure: table, row,",
            "column, value (unit), cite. printed: the figure as the paper prints it where that differs from value;",
            "correct and erratum (a section of docs/errata.md) where the reading notes found it wrong."]


def documents(only=None) -> dict:
    """{paper: doc} parsed from the text, for the papers in `only` (default all four)."""
    from . import cao, gshoup, millar, tosun
    mods = {"gshoup": gshoup, "tosun": tosun, "millar": millar, "cao": cao}
    return {k: mods[k].document() for k in (only or PAPERS)}
