"""Tosun et al., "Optimized FPGA Architecture for Modular Reduction in NTT": the figures from its
text, ntt-modred-fpga-tosun.txt, and from the reading notes (the Proth-2l lists, 3.7).

The parsers moved here unchanged from primetools/paper_tables.py (Table 2, Table 3's prime counts)
and flow/reports/tosun_tables.py (Tables 3 and 4, the Section 5.3 claim); fpga_table.py's reading
of the notes' copy of Table 3 is here too, for the comparison test.

    paper_table2(path)         -> [Table2Row]     paper_table3_counts(path) -> [Table3Count]
    parse(path)                -> [row dict] of Tables 3 and 4 (without the computed ATP)
    claim(path)                -> (x lower ATP than WLM, than K²RED) or None
    notes_proth2l(path)        -> {(log q, log q_h): [(q, l1, l2)]}
    notes_table3(path)         -> the notes' Table 3 rows (fpga_table's former published_reductions)
    document(path, notes)      -> the records of data/papers/tosun.toml
"""
import re

from primetools.paper_tables import Table2Row, Table3Count

from . import NOTES, figure, header, read_lines
from papers import PaperTableError

TOSUN = "ntt-modred-fpga-tosun.txt"
CITE = "Tosun et al."
# as in flow/reports/tosun_tables.py: algorithm names as printed (spaces removed) -> modforge family
FAMILY = {"WLM": "wlm", "WLM-Mixed": "wlmm", "K²RED": "k2red", "K²RED-Shift": "k2reds", "Montgomery-Shift": "monts"}
PRESET = {"ρ_A": "ra", "ρ_B": "rb"}
KIND = {"✓": "3l", "✗": "2l"}
NOTES_CITE = "reading notes on Tosun et al. (NOTES-supporting-papers.md 3.7), derived from its Proth-2l form (Section 3.1)"


def _find(lines, start, test, path, what) -> int:
    for i in range(start, len(lines)):
        if test(lines[i]):
            return i
    raise PaperTableError(f"{path}: {what} not found; is this the text of Tosun et al.?")


_TABLE2_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+\$?\s*([23])\s*l\s*\$?\s+(\d+)\s*$")


def paper_table2(path=None) -> list:
    """Table 2 ("Number of proth-l primes"): the block after the "#primes" header, before "Table 2:"."""
    path, lines = read_lines(TOSUN, path)
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
    path, lines = read_lines(TOSUN, path)
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


def _num(s):
    s = s.strip()
    return int(s) if re.fullmatch(r"\d+", s) else (float(s) if re.fullmatch(r"\d+\.\d*", s) else None)


ERRATUM6 = "printed log q_h = 47; means 17 (erratum 6)"


def parse(path=None) -> list:
    """Rows of Tables 3 and 4 as dicts: table, family, algorithm, k (log q), h (log q_h), primes
    (None for '*'), max_log_n (text), lut, ff, dsp, f_mhz, atp_printed, and for Table 4 preset
    ('ra'/'rb') and kind ('3l'/'2l'); erratum is a note when the row was corrected. Each row also
    keeps its printed ρ and l₃ cells ("rho", "l3") and, when corrected, the printed log q_h ("h_printed")."""
    path, lines = read_lines(TOSUN, path)
    rows, i = [], 0
    while i < len(lines):
        head = lines[i].split("\t")
        if not ("LUT" in head and "FF" in head and "DSP" in head and any(c.startswith("Freq") for c in head)):
            i += 1
            continue
        shift = head[0].strip() == "ρ"
        block, algo, i = [], None, i + 1
        while i < len(lines) and lines[i].strip():
            cells = lines[i].split("\t")
            if cells[0].strip() and not any(c.strip() for c in cells[1:]):
                algo = re.sub(r"\s+", "", cells[0].split("(")[0])
            elif algo:
                block.append((algo, cells))
            i += 1
        caption = next((l for l in lines[i:i + 6] if re.match(r"Table \d+:", l)), "")
        table = int(re.match(r"Table (\d+)", caption).group(1)) if caption else (4 if shift else 3)
        for algo, c in block:
            r = {"table": table, "algorithm": algo, "family": FAMILY.get(algo), "erratum": None}
            if shift:
                rho, c = c[0].strip(), c[1:]
                r["preset"] = PRESET.get(rho)
                l3 = c.pop(2).strip()
                r["kind"] = KIND.get(l3)
                r["rho"], r["l3"] = rho, l3
            r.update(k=_num(c[0]), h=_num(c[1]), primes=_num(c[2]), primes_text=c[2].strip(), max_log_n=c[3].strip().replace(" ", ""),
                     lut=_num(c[4]), ff=_num(c[5]), dsp=_num(c[6]), f_mhz=_num(c[7]), atp_printed=_num(c[8]))
            if r["family"] == "monts" and r["k"] == 64 and r["h"] == 47:
                r["h"], r["erratum"], r["h_printed"] = 17, ERRATUM6, 47
            rows.append(r)
    if not rows:
        raise PaperTableError(f"{path}: no table with LUT, FF, DSP and Freq. columns; is this the text of Tosun et al.?")
    return rows


def claim(path=None):
    """The text's standalone WLM-Mixed claim at 64 bits: (x lower ATP than WLM, x lower than K²RED), or None."""
    path, lines = read_lines(TOSUN, path)
    m = re.search(r"achieves \$?([\d.]+)\s*\\times\$? and \$?([\d.]+)\s*\\times\$? lower ATP compared to WLM and K",
                  "\n".join(lines))
    return (float(m.group(1)), float(m.group(2))) if m else None


def notes_proth2l(path=None) -> dict:
    """The notes' full Proth-2l lists (3.7, "KATs from the paper"): {(log q, log q_h): [(q, l1, l2)]}."""
    path, lines = read_lines(NOTES, path)
    start = _find(lines, 0, lambda s: "full Proth-2l prime lists" in s, path, "the notes' Proth-2l lists (3.7)")
    out, cls = {}, None
    for line in lines[start + 1:]:
        if "Other checkable numbers" in line:
            break
        m = re.search(r"(\d+)-bit, log q_h = (\d+)", line)
        if m:
            cls = (int(m[1]), int(m[2]))
            out[cls] = []
            continue
        for q, l1, l2 in re.findall(r"(0x[0-9a-f]+) \((\d+), (\d+)\)", line):
            if cls is None:
                raise PaperTableError(f"{path}: a Proth-2l prime before its class heading: {line.strip()!r}")
            out[cls].append((int(q, 16), int(l1), int(l2)))
    if not out or not all(out.values()):
        raise PaperTableError(f"{path}: the notes' Proth-2l lists (3.7) are empty")
    return out


def notes_table3(path=None) -> list:
    """The notes' verbatim copy of Table 3 (standalone DSP-based reductions): what fpga_table.py read
    before issue 30 (its published_reductions)."""
    path, lines = read_lines(NOTES, path)
    text = "\n".join(lines)
    start = text.find("**Table 3 — Standalone DSP-based reductions")
    if start < 0:
        raise PaperTableError(f"{path}: the notes' Table 3 not found")
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("**Table 4"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 10 and cells[1].isdigit():
            rows.append({"algorithm": cells[0], "log_q": int(cells[1]), "lut": int(cells[5]), "ff": int(cells[6]),
                         "dsp": int(cells[7]), "freq_mhz": float(cells[8])})
    return rows


# ---- the records ----

T34 = [("algorithm", "Algorithm", None), ("rho", "ρ", None), ("k", "log q", "bits"), ("h", "log q_h", "bits"),
       ("l3", "l₃ en.", None), ("primes_text", "# primes", None), ("max_log_n", "max. log n", None),
       ("lut", "LUT", None), ("ff", "FF", None), ("dsp", "DSP", None), ("f_mhz", "Freq.", "MHz"), ("atp_printed", "ATP", None)]


def document(path=None, notes=None) -> dict:
    cite2 = f"{CITE}, Table 2 (Number of Proth-l primes)"
    figs = []
    t2 = paper_table2(path)
    for i, r in enumerate(t2, 1):
        figs += [figure("Table 2", i, "log q", r.logq, cite2, unit="bits"),
                 figure("Table 2", i, "log q_h", r.logqh, cite2, unit="bits"),
                 figure("Table 2", i, "Proth-", r.kind, cite2),
                 figure("Table 2", i, "# primes", r.count, cite2)]
    counts = {(r.logq, r.logqh, r.kind): r.count for r in t2}
    rows = parse(path)
    for t in (3, 4):
        cite = f"{CITE}, Table {t} (standalone {'DSP-based' if t == 3 else 'shift-add-based'} reductions, Alveo U280)"
        for i, r in enumerate((r for r in rows if r["table"] == t), 1):
            for key, col, unit in T34:
                if key not in r:
                    continue
                v = r[key]
                if key == "primes_text":
                    v = r["primes"] if r["primes"] is not None else v
                extra = {}
                if key == "h" and r.get("h_printed") is not None:
                    extra = dict(printed=r["h_printed"], correct=r["h"], erratum="docs/errata.md#tosun-6", note=r["erratum"])
                if key == "primes_text" and t == 4 and r["primes"] is not None and \
                        counts.get((r["k"], r["h"], r["kind"]), r["primes"]) != r["primes"]:
                    extra = dict(printed=r["primes"], correct=counts[(r["k"], r["h"], r["kind"])],
                                 erratum="docs/errata.md#tosun-7")
                figs.append(figure(f"Table {t}", i, col, v, cite, unit=unit, **extra))
    c = claim(path)
    if c is None:
        raise PaperTableError("the Section 5.3 claim ('achieves .. and .. lower ATP compared to WLM and K²RED') not found")
    cite = f"{CITE}, Section 5.3 (standalone evaluation)"
    figs += [figure("Section 5.3", "WLM-Mixed, 64 bits", "lower ATP than WLM", c[0], cite, unit="x"),
             figure("Section 5.3", "WLM-Mixed, 64 bits", "lower ATP than K²RED", c[1], cite, unit="x")]
    i = 0
    for (k, h), primes in notes_proth2l(notes).items():
        for q, l1, l2 in primes:
            i += 1
            figs += [figure("Proth-2l primes", i, "log q", k, NOTES_CITE, unit="bits"),
                     figure("Proth-2l primes", i, "log q_h", h, NOTES_CITE, unit="bits"),
                     figure("Proth-2l primes", i, "q", f"{q:#x}", NOTES_CITE),
                     figure("Proth-2l primes", i, "l1", l1, NOTES_CITE),
                     figure("Proth-2l primes", i, "l2", l2, NOTES_CITE)]
    title = "Optimized FPGA Architecture for Modular Reduction in NTT"
    authors = "Tosun, Kırbıyık, Koçer, Alaybeyoğlu"
    return {"comment": header("tosun", title, "Tosun et al."), "figures": figs,
            "paper": {"key": "tosun", "title": title, "authors": authors, "affiliation": "Sabancı University; Bartın University",
                      "text": TOSUN, "short": CITE}}
