#!/usr/bin/env python3
"""The NTT-reduction paper's standalone FPGA results (Tosun et al., Tables 3 and 4, AMD Alveo U280),
parsed from its text, ../shared/papers/ntt-modred-fpga-tosun.txt (not retyped).

    flow/reports/tosun_tables.py        prints the parsed rows and checks the ATP formula against them

In the text each table is a tab-separated block: a header row (with "LUT", "FF", "DSP",
"Freq. (MHz)"), section rows naming the algorithm ("WLM-Mixed (Algorithm 8)" followed by empty
cells), then data rows, and a caption "Table N: ..." after the block. Table 4 rows start with the
pipeline configuration (rho_A / rho_B) and have an l_3 column (check mark: Proth-3l, cross: Proth-2l).

Erratum 6 (../shared/papers/NOTES-supporting-papers.md, 3.6): Table 4's Montgomery-Shift 64-bit rows
print log q_h = 47 but mean 17 (omega = 47; their prime counts 53 and 5 are Table 2's for log q_h = 17).
The parser corrects them and marks the row (`erratum`).

The paper's ATP for the standalone tables is (LUT + FF/2 + 100 DSP) / f with f in MHz
(ATP = time per operation in us x weighted area; notes 3.3): `atp()`.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from reports.common import PAPERS  # noqa: E402

PAPER = PAPERS / "ntt-modred-fpga-tosun.txt"
# Algorithm names as the text prints them (after removing spaces) -> modforge family
FAMILY = {"WLM": "wlm", "WLM-Mixed": "wlmm", "K²RED": "k2red", "K²RED-Shift": "k2reds", "Montgomery-Shift": "monts"}
TITLE = {"wlm": "WLM", "wlmm": "WLM-Mixed", "k2red": "K²RED", "k2reds": "K²RED-Shift", "monts": "Montgomery-Shift"}


def atp(lut, ff, dsp, f_mhz, bram=0):
    """The paper's area-time product: (LUT + FF/2 + 100 DSP + 300 BRAM) / f, f in MHz."""
    return (lut + ff / 2 + 100 * dsp + 300 * bram) / f_mhz


def _num(s):
    s = s.strip()
    return int(s) if re.fullmatch(r"\d+", s) else (float(s) if re.fullmatch(r"\d+\.\d*", s) else None)


def parse(path: Path = PAPER) -> list:
    """Rows of Tables 3 and 4 as dicts: table, family, algorithm, k (log q), h (log q_h), primes
    (None for '*'), max_log_n (text), lut, ff, dsp, f_mhz, atp_printed, and for Table 4 preset
    ('ra'/'rb') and kind ('3l'/'2l'); erratum is a note when the row was corrected. [] if the text is missing."""
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
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
                r["preset"] = {"ρ_A": "ra", "ρ_B": "rb"}.get(rho)
                l3 = c.pop(2).strip()
                r["kind"] = "3l" if l3 == "✓" else "2l" if l3 == "✗" else None
            r.update(k=_num(c[0]), h=_num(c[1]), primes=_num(c[2]), primes_text=c[2].strip(), max_log_n=c[3].strip().replace(" ", ""),
                     lut=_num(c[4]), ff=_num(c[5]), dsp=_num(c[6]), f_mhz=_num(c[7]), atp_printed=_num(c[8]))
            if r["family"] == "monts" and r["k"] == 64 and r["h"] == 47:
                r["h"], r["erratum"] = 17, "printed log q_h = 47; means 17 (erratum 6)"
            r["atp"] = atp(r["lut"], r["ff"], r["dsp"], r["f_mhz"])
            rows.append(r)
    return rows


def claim(path: Path = PAPER):
    """The text's standalone WLM-Mixed claim at 64 bits: (x lower ATP than WLM, x lower than K²RED), or None."""
    if not path.exists():
        return None
    m = re.search(r"achieves \$?([\d.]+)\s*\\times\$? and \$?([\d.]+)\s*\\times\$? lower ATP compared to WLM and K",
                  path.read_text())
    return (float(m.group(1)), float(m.group(2))) if m else None


def match(rows, mf):
    """The paper's row for one of our designs (its manifest), or None: same family, k, log q_h
    (WLM: k - w), and for the shift variants the same Proth-l kind and pipeline preset."""
    fam, k = mf["family"], mf["k"]
    h = k - mf["w"] if fam == "wlm" else mf.get("h")
    for r in rows:
        if r["family"] == fam and r["k"] == k and r["h"] == h and \
                (fam not in ("monts", "k2reds") or (r.get("kind") == mf.get("proth") and r.get("preset") == mf.get("preset"))):
            return r
    return None


if __name__ == "__main__":
    rows = parse()
    if not rows:
        sys.exit(f"tosun_tables: {PAPER} not found or has no tables")
    for r in rows:
        print(f"T{r['table']} {r['algorithm']:17s} {r.get('preset') or '':2s} {r.get('kind') or '':2s} {r['k']:3d} {r['h']:3d} "
              f"LUT {r['lut']:5d} FF {r['ff']:5d} DSP {r['dsp']:2d} f {r['f_mhz']:4d} ATP printed {r['atp_printed']:5.2f} "
              f"computed {r['atp']:5.2f}{'  ' + r['erratum'] if r['erratum'] else ''}")
    worst = max(rows, key=lambda r: abs(r["atp"] - r["atp_printed"]))
    print(f"{len(rows)} rows; largest |computed - printed| = {abs(worst['atp'] - worst['atp_printed']):.3f} "
          f"({worst['algorithm']} {worst['k']}/{worst['h']}); claim: {claim()}")
