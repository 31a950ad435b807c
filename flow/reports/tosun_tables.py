#!/usr/bin/env python3
"""The NTT-reduction paper's standalone FPGA results (Tosun et al., Tables 3 and 4, AMD Alveo U280),
from the committed data, data/papers/tosun.toml (written from the paper's text by scripts/paper_data.py;
not retyped).

    flow/reports/tosun_tables.py        prints the rows and checks the ATP formula against them

Table 4 rows have the pipeline configuration (rho_A / rho_B) and an l_3 column (check mark:
Proth-3l, cross: Proth-2l).

Erratum 6 (docs/errata.md#tosun-6): Table 4's Montgomery-Shift 64-bit rows print log q_h = 47 but
mean 17 (omega = 47; their prime counts 53 and 5 are Table 2's for log q_h = 17). The data records
the corrected figure with the printed one, and the row is marked (`erratum`).

The paper's ATP for the standalone tables is (LUT + FF/2 + 100 DSP) / f with f in MHz
(ATP = time per operation in us x weighted area; notes 3.3): `atp()`.
"""
import sys
from pathlib import Path

import papers

PAPER = papers.data_path("tosun")
# Algorithm names as the text prints them (after removing spaces) -> modforge family
FAMILY = {"WLM": "wlm", "WLM-Mixed": "wlmm", "K²RED": "k2red", "K²RED-Shift": "k2reds", "Montgomery-Shift": "monts"}
TITLE = {"wlm": "WLM", "wlmm": "WLM-Mixed", "k2red": "K²RED", "k2reds": "K²RED-Shift", "monts": "Montgomery-Shift"}


def atp(lut, ff, dsp, f_mhz, bram=0):
    """The paper's area-time product: (LUT + FF/2 + 100 DSP + 300 BRAM) / f, f in MHz."""
    return (lut + ff / 2 + 100 * dsp + 300 * bram) / f_mhz


def parse(path: Path = PAPER) -> list:
    """Rows of Tables 3 and 4 as dicts: table, family, algorithm, k (log q), h (log q_h), primes
    (None for '*'), max_log_n (text), lut, ff, dsp, f_mhz, atp_printed, and for Table 4 preset
    ('ra'/'rb') and kind ('3l'/'2l'); erratum is a note when the row was corrected. [] if the data is missing."""
    if not Path(path).exists():
        return []
    rows = []
    for t in (3, 4):
        for row in papers.table("tosun", f"Table {t}", path):
            v = papers.values(row)
            r = {"table": t, "algorithm": v["Algorithm"], "family": FAMILY.get(v["Algorithm"]),
                 "erratum": row["log q_h"].get("note")}
            if t == 4:
                r["preset"] = {"ρ_A": "ra", "ρ_B": "rb"}.get(v["ρ"])
                r["kind"] = {"✓": "3l", "✗": "2l"}.get(v["l₃ en."])
            primes = v["# primes"]
            r.update(k=v["log q"], h=v["log q_h"], primes=primes if isinstance(primes, int) else None,
                     primes_text=str(primes), max_log_n=v["max. log n"], lut=v["LUT"], ff=v["FF"], dsp=v["DSP"],
                     f_mhz=v["Freq."], atp_printed=v["ATP"])
            r["atp"] = atp(r["lut"], r["ff"], r["dsp"], r["f_mhz"])
            rows.append(r)
    return rows


def claim(path: Path = PAPER):
    """The text's standalone WLM-Mixed claim at 64 bits (Section 5.3): (x lower ATP than WLM, x lower
    than K²RED), or None."""
    if not Path(path).exists():
        return None
    v = papers.values(papers.table("tosun", "Section 5.3", path)[0])
    return (v["lower ATP than WLM"], v["lower ATP than K²RED"])


def published_reductions(path: Path = PAPER) -> list:
    """Table 3 (standalone DSP-based reductions, Alveo U280): algorithm, log_q, lut, ff, dsp, freq_mhz."""
    return [{"algorithm": r["algorithm"], "log_q": r["k"], "lut": r["lut"], "ff": r["ff"], "dsp": r["dsp"],
             "freq_mhz": float(r["f_mhz"])} for r in parse(path) if r["table"] == 3]


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
