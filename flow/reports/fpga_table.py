#!/usr/bin/env python3
"""FPGA table: resource counts (xc7) and post-route Fmax (ECP5) of the table designs, the reduction
family's 32- and 64-bit designs and the NTT tiles.

    flow/reports/fpga_table.py [--collect-only] [--ecp5-tiles] [--ecp5-reductions] [DESIGN...]

Runs flow/fpga.py for each design and target unless a result exists for the current RTL
(--collect-only never runs it). NTT tiles get the xc7 counts; their ECP5 place and route (tens of
minutes per seed) runs only with --ecp5-tiles or `make fpga DESIGN=<tile> TARGET=ecp5`, and
the table uses such a result when it exists. A failure is reported and does not stop the others. Writes
reports/fpga_table.md and .csv, with a comparison against the published FPGA figures of the
NTT-reduction paper (its Table 3, read from data/papers/tosun.toml).

Reduction family (section "Reduction family beside the paper's Tables 3 and 4", flow/reports/tosun_tables.py):
the reduction_table designs at k = 32 and 64 get the xc7 counts; ECP5 place and route runs by default
for the 32-bit ones and the 64-bit designs of the paper's five implemented methods (WLM, WLM-Mixed,
K2RED, Montgomery-Shift, K2RED-Shift: ECP5_REDUCTIONS_64; measured 0.5-3 min per 32-bit design and
2.5-4 min per 64-bit one on our 2-core machines, about 40 min for the 18), for all of them (adding the
64-bit Montgomery, classical Barrett, Plantard and lazy K2RED) with --ecp5-reductions. The paper's Tables 3 and 4 (U280) are parsed from its text.
"""
import argparse
import sys

from reports import common, tosun_tables  # reduction family: the paper's Tables 3 and 4
from reports.common import (date_span, entries, entry, fmt, fpga_result, generated_by, harden_result, index,
                            manifest, md_head, script, tools_text, write_csv, write_md)

TARGETS = ("xc7", "ecp5")


def is_tile(design) -> bool:
    """An NTT tile (or a polymul tile), as the registry says."""
    return entry(design)["family"] in ("ntt", "polymul")


def targets(design, ecp5_tiles, ecp5_reductions=False):
    if is_tile(design):
        return TARGETS if ecp5_tiles else ("xc7",)
    if reduction_manifest(design) and not ecp5_reductions and not ecp5_by_default(design):
        return ("xc7",)
    return TARGETS


def run_all(designs, ecp5_tiles=False, ecp5_reductions=False):
    failures = {}
    for i, d in enumerate(designs, 1):
        failures.update(common.run_fpga(d, targets(d, ecp5_tiles, ecp5_reductions), f"fpga-reports: [{i}/{len(designs)}]"))
    return failures


def published_reductions():
    """Rows of the NTT-reduction paper's Table 3 (standalone DSP-based reductions, Alveo U280), from
    data/papers/tosun.toml (flow/reports/tosun_tables.py)."""
    return tosun_tables.published_reductions()



# ---- Reduction family (Tosun et al.): which designs run, and the section beside the paper's Tables 3-4 ----

ECP5_REDUCTIONS_64 = ("wlm", "wlmm", "k2red", "monts", "k2reds")  # the paper's five implemented methods


def reduction_manifest(design):
    """The manifest of a reduction-family design (None for the table designs and the tiles)."""
    mf = None if is_tile(design) else manifest(design)
    if mf is None:
        return None
    return mf if mf.get("family") in ("mont", "cbarrett", "plantard") + ECP5_REDUCTIONS_64 else None


def ecp5_by_default(design):
    """ECP5 place and route in `make reports`: every 32-bit reduction design, and at 64 bits the paper's
    five implemented methods (not the baselines it only analyses on paper, nor the lazy K2RED)."""
    mf = reduction_manifest(design)
    return bool(mf) and (mf["k"] == 32 or (mf["k"] == 64 and mf["family"] in ECP5_REDUCTIONS_64 and not mf.get("lazy")))


def reduction_designs(idx):
    return [d for d in idx.get("reduction_table", []) if (reduction_manifest(d) or {}).get("k") in (32, 64)]


def ecp5_atp(design):
    """Our ECP5 figures and the paper's ATP formula applied to them; None if there is no fitting result.
    ATP uses the logic cells nextpnr places (TRELLIS_COMB: the LUT4s and the two LUT4 halves of every
    CCU2C carry cell); atp_lut4 uses the synthesis' LUT4 count alone (carry cells left out)."""
    e = fpga_result(design, "ecp5")
    if not e or not e.get("fits") or not e.get("fmax_mhz_median"):
        return None
    c, u, f = e["cells"], e.get("utilization", {}), e["fmax_mhz_median"]
    r = {"lut4": c.get("LUT4", 0), "ccu2c": c.get("CCU2C", 0), "comb": u.get("TRELLIS_COMB", {}).get("used"),
         "ff": c.get("TRELLIS_FF", 0), "dsp": c.get("MULT18X18D", 0), "fmax": f}
    r["atp"] = tosun_tables.atp(r["comb"], r["ff"], r["dsp"], f) if r["comb"] is not None else None
    r["atp_lut4"] = tosun_tables.atp(r["lut4"], r["ff"], r["dsp"], f)
    return r


def reduction_section(designs):
    import math
    paper = tosun_tables.parse()
    if not designs and not paper:
        return []
    L = ["", "## Reduction family beside the paper's Tables 3 and 4 (AMD Alveo U280)", "",
         "The paper's standalone results (Tosun et al., Tables 3 and 4) are parsed from its text "
         "(`data/papers/tosun.toml`, flow/reports/tosun_tables.py), not retyped; Table 4's "
         "Montgomery-Shift 64-bit rows print log q_h = 47 and are read as 17 (erratum 6 of "
         "`docs/errata.md`). ATP is the paper's (LUT + FF/2 + 100 DSP) / f with f in MHz.", "",
         "**The devices, tools and designs differ.** The paper: AMD Alveo U280 (UltraScale+, 6-input LUTs, "
         "DSP48E2 used as 26x17 unsigned multipliers), Vivado 2023.2, f the fastest clock that closes; each design "
         "is a reduction alone (input a < q^2). Ours: Lattice ECP5 LFE5U-85F (4-input LUTs, MULT18X18D 18x18 "
         "multipliers), Yosys `synth_ecp5` and nextpnr-ecp5, f the median post-route Fmax of three seeds; each "
         "design is a complete k-bit modular multiplier, the k x k product included. For our ATP, FF is the "
         "flip-flops, DSP the MULT18X18D count, and LUT the logic cells nextpnr places (TRELLIS_COMB): the "
         "LUT4s plus the two LUT4s inside every CCU2C carry cell. On the U280 each adder bit takes a LUT (counted) "
         "in front of the CARRY8; on ECP5 the carry cell holds its own LUT4s, which the synthesis does not count "
         "as LUT4, so the LUT4 count alone undercounts adders. The ATP with the LUT4 count alone, what the "
         "synthesis reports, is shown too. The formula weighs a DSP as 100 "
         "LUTs on both devices, though a DSP48E2 and a MULT18X18D are different resources and a LUT4 is smaller "
         "than a LUT6: compare how the methods rank on each device, not values across devices."]
    if paper:
        worst = max(paper, key=lambda r: abs(r["atp"] - r["atp_printed"]))
        exact = [r for r in paper if abs(math.floor(
            (r["lut"] + r["ff"] / 2 + 100 * r["dsp"]) * round(1000 / r["f_mhz"], 1) / 10 + 1e-9) / 100 - r["atp_printed"]) < 1e-9]
        odd = [r for r in paper if r not in exact]
        L += ["", f"Check of the formula: it reproduces the printed ATP of all {len(paper)} parsed rows within "
                  f"{abs(worst['atp'] - worst['atp_printed']):.3f} (largest difference: {worst['algorithm']} "
                  f"{worst['k']}/{worst['h']}, computed {worst['atp']:.3f}, printed {worst['atp_printed']}). "
                  f"Computed with the clock period T = 1/f rounded to 0.1 ns (the paper's frequencies are 1/T in "
                  f"0.1 ns steps) and truncated to two decimals, it gives {len(exact)} of {len(paper)} printed values "
                  f"exactly" + (": the exception" + ("s are " if len(odd) > 1 else " is ") + "; ".join(
                      f"{r['algorithm']} {({'ra': 'ρ_A ', 'rb': 'ρ_B '}.get(r.get('preset'), ''))}{r['k']}/{r['h']} (printed {r['atp_printed']}, "
                      f"computed {r['atp']:.3f})" for r in odd) if odd else "") + "."]
    if designs:
        L += ["", "### Our 32- and 64-bit designs and the paper's matching rows", "",
              "Paper's row: same method, log q, log q_h (WLM: log q - w) and, for the shift-add methods, Proth-l kind "
              "and pipeline (rho_A/rho_B). Absent figures are `n/a`: a run not made, or no matching row.", "",
              *md_head("design", "paper's row", "paper LUT / FF / DSP", "paper f (MHz)", "paper ATP (computed)", "ECP5 LUT4",
                       "CCU2C", "logic cells", "FF", "MULT18X18D", "Fmax median (MHz)", "our ATP (ECP5)", "ATP, LUT4 only",
                       "xc7 LUT / FF / DSP48E1")]
        for d in designs:
            mf = reduction_manifest(d)
            pr = tosun_tables.match(paper, mf) if paper else None
            e = ecp5_atp(d)
            x = fpga_result(d, "xc7")
            xr = x["resources"] if x else None
            prow = (f"T{pr['table']} {pr['algorithm']} {pr['k']}/{pr['h']}"
                    + (f" {'ρ_A' if pr['preset'] == 'ra' else 'ρ_B'} {pr['kind']}" if pr.get("preset") else "")) if pr else "n/a"
            L.append(f"| {d} | {prow} | " + (f"{pr['lut']} / {pr['ff']} / {pr['dsp']} | {pr['f_mhz']} | "
                                            f"{pr['atp_printed']} ({pr['atp']:.2f})" if pr else "n/a | n/a | n/a")
                     + " | " + (" | ".join([str(e["lut4"]), str(e["ccu2c"]), fmt(e["comb"]), str(e["ff"]), str(e["dsp"]),
                                            f"{e['fmax']:.1f}", fmt(e["atp"], ".2f"), f"{e['atp_lut4']:.2f}"])
                                if e else " | ".join(["n/a"] * 8))
                     + " | " + (f"{xr['LUT']} / {xr['FF']} / {xr['DSP']}" if xr else "n/a") + " |")
        sa = {}
        for d in designs:
            mf, e = reduction_manifest(d), ecp5_atp(d)
            if e and mf["family"] in ("monts", "k2reds"):
                sa.setdefault(mf["k"], set()).add(e["dsp"])
        if sa:
            L += ["", "Our shift-add designs (Montgomery-Shift, K2RED-Shift) still use MULT18X18Ds: "
                  + ", ".join(f"{'/'.join(map(str, sorted(v)))} at {k} bits" for k, v in sorted(sa.items()))
                  + ", the k x k product's. The paper's shift-add rows have no DSP because they are reductions alone."]
        for k in (32, 64):
            ours = sorted(((ecp5_atp(d)["atp"], d) for d in designs if reduction_manifest(d)["k"] == k
                           and ecp5_atp(d) and ecp5_atp(d)["atp"] is not None))
            theirs = sorted({(pr["atp"], f"{pr['algorithm']} {pr['k']}/{pr['h']}"
                              + (f" {'ρ_A' if pr['preset'] == 'ra' else 'ρ_B'} {pr['kind']}" if pr.get("preset") else ""))
                             for d in designs if reduction_manifest(d)["k"] == k
                             and (pr := tosun_tables.match(paper, reduction_manifest(d)))})
            if ours or theirs:
                L += ["", f"Ranking by ATP at {k} bits (lowest first). Ours on ECP5: "
                      + (", ".join(f"{d} {a:.2f}" for a, d in ours) if ours else "no results")
                      + ". The paper's matching rows on the U280: " + (", ".join(f"{n} {a:.2f}" for a, n in theirs) or "none") + "."]
        claim = tosun_tables.claim()
        L += ["", "### WLM-Mixed against WLM and K2RED (ATP ratio; above 1 favours WLM-Mixed)", "",
              *md_head("k", "ratio", "paper: text", "paper: Table 3 (computed)", "ours: ECP5 ATP", "ours: SKY130 A x P")]
        for k in (64, 32):
            fam = {}
            for d in designs:
                mf = reduction_manifest(d)
                if mf["k"] == k and not mf.get("lazy"):
                    fam.setdefault(mf["family"], (d, mf))
            if "wlmm" not in fam:
                continue
            dw, mw = fam["wlmm"]
            for f, name in (("wlm", "WLM"), ("k2red", "K2RED")):
                if f not in fam:
                    continue
                do, mo = fam[f]
                po, pw = (tosun_tables.match(paper, mo), tosun_tables.match(paper, mw)) if paper else (None, None)
                eo, ew = ecp5_atp(do), ecp5_atp(dw)
                ao, aw = asic_ap(do), asic_ap(dw)
                text = f"{claim[0] if f == 'wlm' else claim[1]:.2f}" if claim and k == 64 else ""
                L.append(f"| {k} | {name} / WLM-Mixed ({do} / {dw}) | {text} | "
                         f"{fmt(po['atp'] / pw['atp'] if po and pw else None, '.2f')} | "
                         f"{fmt(eo['atp'] / ew['atp'] if eo and ew and eo['atp'] and ew['atp'] else None, '.2f')} | "
                         f"{fmt(ao / aw if ao and aw else None, '.2f')} |")
    if paper:
        L += ["", "### The paper's Tables 3 and 4 as parsed", "",
              *md_head("table", "algorithm", "ρ", "l_3", "log q", "log q_h", "# primes", "max log n", "LUT", "FF", "DSP",
                       "f (MHz)", "ATP printed", "ATP computed", "note")]
        for r in paper:
            L.append(f"| {r['table']} | {r['algorithm']} | {({'ra': 'ρ_A', 'rb': 'ρ_B'}.get(r.get('preset'), ''))} | "
                     f"{({'3l': '✓', '2l': '✗'}.get(r.get('kind'), ''))} | {r['k']} | {r['h']} | {fmt(r['primes'], ',') if r['primes'] is not None else r['primes_text']} | "
                     f"{r['max_log_n']} | {r['lut']} | {r['ff']} | {r['dsp']} | {r['f_mhz']} | {r['atp_printed']} | "
                     f"{r['atp']:.3f} | {r['erratum'] or ''} |")
    return L


def asic_ap(design):
    """Area x critical path (um2 ns) of the SKY130 result, None if absent."""
    m = harden_result(design)
    if m is None:
        return None
    return m["design__instance__area"] * m["critical_path_ns"]


# ---- modforge best (issue "Beyond the paper", lever 5): the paper-faithful designs, their `_fast`
# configurations (best 1/(P*A) in SKY130, reports/dse.md) and one FPGA-minded variant each: Verilog
# `*` (so the products go to DSP blocks) with a register after every product and subtraction the
# family allows outside the products (the `mid*` registers need an explicit tree, which an FPGA
# builds in LUTs). ----
FPGA_PIPE_MASK = {"barrett": "p111100011", "shoup": "p111001", "gshoup": "p1111110001"}
BEST_WIDTHS = (32, 64)


def best_designs(idx):
    """[(family, k, paper-faithful, _fast, FPGA-pipelined)] for the index's `_fast` designs at 32 and 64 bits."""
    out = []
    for fast, e in entries(idx.get("best", [])).items():
        fam, k = e["family"], e["params"]["k"]
        if k in BEST_WIDTHS and fam in FPGA_PIPE_MASK:
            out.append((fam, k, f"{fam}_{k}", fast, f"{fam}_{k}__{FPGA_PIPE_MASK[fam]}"))
    return sorted(out, key=lambda x: (x[1], list(FPGA_PIPE_MASK).index(x[0])))


def latency_of(design):
    mf = manifest(design)
    return mf.get("latency") if mf is not None else None


def write_best(best, failures):
    """reports/fpga_best.md: the best section on its own (`--best-only` reruns just these designs)."""
    if not best:
        return
    metas = [m for b in best for d in b[2:] for t in TARGETS if (m := fpga_result(d, t))]
    tools = {k: v for m in metas for k, v in m["tools"].items()}
    L = ["# modforge best on FPGA", "",
         f"Generated by `make reports` or `{script(__file__)} --best-only` from `build/<d>/fpga/<target>/metrics.json`; do not edit. "
         "Tools: " + tools_text(tools) + "." +
         (f" Runs dated {date_span(m['date'] for m in metas)}." if metas else "")]
    L += best_section(best)[2:]
    if failures:
        L += ["", "## Failed runs", ""] + [f"- {d} {t}: {why}" for (d, t), why in failures.items()]
    write_md("fpga_best.md", L)


def best_section(best):
    if not best:
        return []
    L = ["", "## modforge best on FPGA", "",
         "The paper-faithful designs beside their `_fast` configurations (best throughput per area in SKY130, reports/dse.md)",
         "and a variant pipelined for the FPGA: Verilog `*`, so the products stay in DSP blocks, with a register after",
         "every product and subtraction outside the products (`p` masks " +
         ", ".join(f"{f} `{m}`" for f, m in FPGA_PIPE_MASK.items()) + "; docs/modmul.md, \"Pipeline registers\").",
         "The `_fast` products are explicit Booth/Dadda trees: on an FPGA they are LUTs, not DSPs.", "",
         *md_head("k", "family", "design", "latency", "xc7 LUT", "xc7 FF", "xc7 DSP48E1", "ECP5 LUT4", "ECP5 FF", "MULT18X18D",
                  "ECP5 Fmax median (MHz)", "vs paper-faithful")]
    for fam, k, base, fast, pipe in best:
        eb = fpga_result(base, "ecp5") or {}
        fb = eb.get("fmax_mhz_median")
        for d, what in ((base, "paper-faithful"), (fast, "`_fast`"), (pipe, "FPGA-pipelined")):
            x, e = fpga_result(d, "xc7") or {}, fpga_result(d, "ecp5") or {}
            xr, u = x.get("resources", {}), e.get("utilization", {})
            f = e.get("fmax_mhz_median")
            rel = f"{f / fb:.2f}x" if f and fb and d != base else ""
            L.append(f"| {k} | {fam} | `{d}` ({what}) | {fmt(latency_of(d))} | {fmt(xr.get('LUT'))} | {fmt(xr.get('FF'))} | "
                     f"{fmt(xr.get('DSP'))} | {fmt(u.get('TRELLIS_COMB', {}).get('used'))} | {fmt(u.get('TRELLIS_FF', {}).get('used'))} | "
                     f"{fmt(u.get('MULT18X18D', {}).get('used'))} | {fmt(f, '.1f')} | {rel} |")
    return L


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("designs", nargs="*")
    ap.add_argument("--collect-only", action="store_true")
    ap.add_argument("--ecp5-tiles", action="store_true", help="also place and route the NTT tiles on ECP5")
    ap.add_argument("--best-only", action="store_true",
                    help="only the modforge-best designs (paper-faithful, _fast, FPGA-pipelined at 32 and 64 bits) -> reports/fpga_best.md")
    ap.add_argument("--ecp5-reductions", action="store_true",
                    help="place and route every 32- and 64-bit reduction design on ECP5 (default: ECP5_REDUCTIONS_64 at 64 bits)")
    a = ap.parse_args()
    idx = index("fpga-reports")
    best = best_designs(idx)
    if a.best_only:
        designs = list(dict.fromkeys(d for b in best for d in b[2:]))
    else:
        designs = a.designs or list(dict.fromkeys(idx["table"] + reduction_designs(idx) + idx.get("ntt_table", [])
                                                  + [d for b in best for d in b[3:]]))
    if not a.collect_only:  # the FPGA-pipelined variants are not in `make rtl-all`'s index
        from dse import generate
        unbuilt = generate([d for b in best for d in b[3:] if d in designs])
        designs = [d for d in designs if d not in unbuilt]
    failures = {} if a.collect_only else run_all(designs, a.ecp5_tiles, a.ecp5_reductions)
    write_best([b for b in best if b[2] in designs or b[3] in designs], failures)
    if a.best_only:
        print(f"fpga-reports: wrote reports/fpga_best.md; {len(failures)} failed")
        return 1 if failures else 0
    rows = []
    for d in designs:
        x, e = fpga_result(d, "xc7"), fpga_result(d, "ecp5")
        r = {"design": d}
        if x:
            r.update({f"xc7_{k.lower().replace('/', '_')}": v for k, v in x["resources"].items()})
        if e:
            r["ecp5_fits"] = e["fits"]
            r["ecp5_overflow"] = e.get("overflow")
            u = e.get("utilization", {})
            for k in ("TRELLIS_COMB", "TRELLIS_FF", "MULT18X18D"):
                r[f"ecp5_{k.lower()}"] = u.get(k, {}).get("used")
            r["ecp5_fmax_mhz_median"] = e.get("fmax_mhz_median")
            r["ecp5_fmax_mhz_best"] = e.get("fmax_mhz_best")
        r["failures"] = "; ".join(f"{t}: {why}" for (dd, t), why in failures.items() if dd == d) or None
        rows.append(r)
    write_csv("fpga_table.csv", rows)

    metas = [m for d in designs for t in TARGETS if (m := fpga_result(d, t))]
    tools = {k: v for m in metas for k, v in m["tools"].items()}
    ecp5 = next((m for m in metas if m["target"] == "ecp5"), None)
    lines = ["# FPGA results of the modular multipliers and NTT tiles",
             "", f"{generated_by(__file__)} from `build/<d>/fpga/<target>/metrics.json`, the same",
             "generated Verilog as the ASIC flow. Tools: " + tools_text(tools) + ".",
             f"Runs dated {date_span(m['date'] for m in metas)}." if metas else "",
             "", "## Xilinx 7-series (Yosys `synth_xilinx -family xc7`): resource counts",
             "", "No Fmax: no open tool gives signoff timing for Xilinx parts.",
             "", *md_head("design", "LUT", "FF", "DSP48E1", "BRAM", "LUTRAM/SRL", "CARRY4")]
    for r in rows:
        lines.append(f"| {r['design']} | {fmt(r.get('xc7_lut'))} | {fmt(r.get('xc7_ff'))} | {fmt(r.get('xc7_dsp'))} | "
                     f"{fmt(r.get('xc7_bram'))} | {fmt(r.get('xc7_lutram_srl'))} | {fmt(r.get('xc7_carry4'))} |")
    if ecp5:
        lines += ["", f"## Lattice ECP5 {ecp5['part']} ({ecp5['package']}): nextpnr place and route",
                  "", f"Out of context (as a core: no I/O buffers), clock constraint {ecp5['clock_constraint_mhz']} MHz, "
                  f"seeds {', '.join(map(str, ecp5['seeds']))}; Fmax is nextpnr's post-route figure, median and best over the seeds.",
                  "", *md_head("design", "LUT4/comb", "FF", "MULT18X18D", "Fmax median (MHz)", "Fmax best (MHz)", "note")]
        for r in rows:
            note = "" if r.get("ecp5_fits", True) else f"does not fit: {r['ecp5_overflow']} overflows"
            if "ecp5_fits" not in r and is_tile(r["design"]):
                note = f"not run by `make reports` (tens of minutes per seed): `make fpga DESIGN={r['design']} TARGET=ecp5`"
            elif "ecp5_fits" not in r and reduction_manifest(r["design"]) and not ecp5_by_default(r["design"]):
                note = (f"not run by `make reports` (about 4 min): `make fpga DESIGN={r['design']} TARGET=ecp5` "
                        f"or `{script(__file__)} --ecp5-reductions`")
            lines.append(f"| {r['design']} | {fmt(r.get('ecp5_trellis_comb'))} | {fmt(r.get('ecp5_trellis_ff'))} | "
                         f"{fmt(r.get('ecp5_mult18x18d'))} | {fmt(r.get('ecp5_fmax_mhz_median'), '.1f')} | "
                         f"{fmt(r.get('ecp5_fmax_mhz_best'), '.1f')} | {note} |")
    pub = published_reductions()
    if pub:
        lines += ["", "## Published FPGA figures at matching widths",
                  "", "The NTT-reduction paper (Tosun et al., `data/papers/tosun.toml`, Table 3) reports standalone",
                  "DSP-based modular *reductions* on an AMD Alveo U280 (UltraScale+, Vivado), for NTT-friendly primes of",
                  "special forms. Ours are complete k-bit modular *multipliers* (product included) for any modulus in",
                  "range, counted by Yosys for 7-series and placed by nextpnr on ECP5: different devices, tools and",
                  "functions, so compare orders of magnitude, not ratios.", "",
                  *md_head("log q", "their rows", "LUT", "FF", "DSP", "Freq. (MHz)")]
        for lq in (32, 64):
            sel = [p for p in pub if p["log_q"] == lq]
            if sel:
                rng = lambda k: f"{min(p[k] for p in sel):g}-{max(p[k] for p in sel):g}"
                lines.append(f"| {lq} | {len(sel)} ({', '.join(sorted({p['algorithm'].split(' (')[0] for p in sel}))}) | "
                             f"{rng('lut')} | {rng('ff')} | {rng('dsp')} | {rng('freq_mhz')} |")
    lines += reduction_section([d for d in designs if reduction_manifest(d)])
    lines += ["", "The modforge-best designs on FPGA: reports/fpga_best.md."]
    if failures:
        lines += ["", "## Failed runs", ""] + [f"- {d} {t}: {why}" for (d, t), why in failures.items()]
    write_md("fpga_table.md", lines)
    print(f"fpga-reports: wrote reports/fpga_table.md and .csv; {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
