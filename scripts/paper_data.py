#!/usr/bin/env python3
"""Write the papers' figures, data/papers/<paper>.toml, from the papers' text; or compare (issue 30).

    .venv/bin/python scripts/paper_data.py [PAPER...]          regenerate (default: all four)
    .venv/bin/python scripts/paper_data.py --check [PAPER...]  compare the committed data with the text

PAPER is gshoup, tosun, millar or cao. The text is read from $MODFORGE_PAPERS, by default
<repo>/../shared/papers (the four texts and NOTES-supporting-papers.md, the reading notes that give
the Proth-2l lists and the errata). The parsers are verif/papers/text/*.py; the tests and reports
never read the text, only the committed data (verif/papers).

Exit status: 0 written, or identical; 1 the committed data differs from the text (--check; a
unified diff is printed); 2 the text is missing (the message names the file, MODFORGE_PAPERS and
the folder) or unreadable.
"""
import argparse
import difflib
import sys
from pathlib import Path

import papers
from papers import text

ROOT = Path(__file__).resolve().parents[1]


def rendered(names) -> dict:
    """{paper: the TOML text the papers' text gives}; PaperTableError when a text is missing."""
    return {k: text.render(doc) for k, doc in text.documents(names).items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("papers", nargs="*", choices=[[]] + list(papers.PAPERS), metavar="PAPER",
                    help=f"one of {', '.join(papers.PAPERS)} (default: all)")
    ap.add_argument("--check", action="store_true", help="compare the committed data with the text; write nothing")
    a = ap.parse_args(argv)
    names = a.papers or list(papers.PAPERS)
    try:
        new = rendered(names)
    except papers.PaperTableError as e:
        print(f"paper_data: {e}\npaper_data: the papers' text is in {text.papers_dir()} "
              f"($MODFORGE_PAPERS, default ../shared/papers); the committed data/papers/ is unchanged", file=sys.stderr)
        return 2
    differ = 0
    for k, body in new.items():
        path = papers.data_path(k)
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old == body:
            print(f"paper_data: {path.relative_to(ROOT)}: identical to the text ({body.count(chr(10) + '  {')} figures)")
            continue
        if a.check:
            differ += 1
            diff = list(difflib.unified_diff(old.splitlines(), body.splitlines(), f"{path.relative_to(ROOT)} (committed)",
                                             f"{path.relative_to(ROOT)} (from {text.text_path(papers.PAPERS[k])})",
                                             lineterm="", n=1))
            print("\n".join(diff[:60] + ([f"... {len(diff) - 60} more diff lines"] if len(diff) > 60 else [])))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body, encoding="utf-8")
            print(f"paper_data: wrote {path.relative_to(ROOT)} ({body.count(chr(10) + '  {')} figures)")
    if differ:
        print(f"paper_data: {differ} file(s) differ from the text; regenerate: .venv/bin/python scripts/paper_data.py",
              file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
