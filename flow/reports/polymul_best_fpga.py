"""The best streaming engines on FPGA, beside the SSA paper's Table IV (docs/polymul_dse.md, "FPGA").

The issue asks for the (1024, 19) and (2048, 33) winners' Verilog (the same files as the ASIC flow)
on UltraScale+, `synth_xilinx -family xcup` counts (the family of the paper's ZCU102), and on ECP5,
nextpnr place and route with its Fmax. flow/fpga.py makes both (build/<d>/fpga/<target>/); this
module runs it for the winners (`run`, from `make reports` through polymul_table.py) and writes the
section (`section`) from its results: a result of other RTL is not used, a missing one is absent.

Table IV gives percentages of its part (Table III); they are shown as counts (ntt.millar_tables
.resource_counts). A design that does not fit the ECP5 part is reported with the resource that
overflows, as fpga.py finds it before placement; it is never retargeted.
"""
from reports import common
from reports.common import fmt, fpga_result, md_head, same_rtl

FPGA_SETS = ((1024, 19), (2048, 33))  # the issue's: the winners of these two sets
TARGETS = ("xcup", "ecp5")


def winners(sets: dict) -> list:
    """[(n, logq, best point)] at FPGA_SETS that have a measured best design."""
    return [(*key, sets[key]["best"]) for key in FPGA_SETS if key in sets and sets[key].get("best")]


def shown(sets: dict) -> list:
    """The section's rows: each winner, then the set's other measured points that have an FPGA result of
    their current RTL (an earlier winner keeps its figures in the report)."""
    out = []
    for n, logq, b in winners(sets):
        out.append((n, logq, b))
        out += [(n, logq, p) for p in sets[(n, logq)]["points"] if p["status"] == "measured" and p["design"] != b["design"]
                and any(current(p["design"], t) for t in TARGETS)]
    return out


def current(d: str, target: str):
    """fpga.py's result of the design's current RTL, or None."""
    m = fpga_result(d, target)
    return m if m and same_rtl(m, d) else None


def run(sets: dict):
    """fpga.py on each winner and target without a result of its current RTL (common.run_fpga); a
    failure leaves its figures absent in the section."""
    for n, logq, b in winners(sets):
        common.run_fpga(b["design"], TARGETS, "polymul-fpga")


def paper_counts() -> dict:
    """{(n, logq): (Table4Row, {resource: count})} of the paper's Table IV, or {} if its data cannot be read."""
    from ntt import millar_tables as mt
    try:
        device = mt.paper_device()
        return {(r.n, r.logq): (r, {k: v[0] for k, v in mt.resource_counts(r, device).items()}) for r in mt.paper_table4()}
    except (OSError, KeyError, ValueError):
        return {}


def srl_note(sets: dict) -> list:
    """Why a design's ECP5 flip-flops outnumber its UltraScale+ ones: Yosys packs the delay lines' shift
    registers into SRL16E/SRLC32E LUTs on UltraScale+ (up to 16 or 32 bits each), and ECP5 has no such
    primitive, so there each bit of a delay line is a TRELLIS_FF. Counted from both results."""
    rows = []
    for _, _, b in shown(sets):
        x, e = current(b["design"], "xcup"), current(b["design"], "ecp5")
        if not x or not e:
            continue
        cells = x.get("cells") or {}
        srl16, srl32 = cells.get("SRL16E", 0), cells.get("SRLC32E", 0)
        ff_x, ff_e = (x.get("resources") or {}).get("FF"), (e.get("cells") or {}).get("TRELLIS_FF")
        if (srl16 or srl32) and ff_x and ff_e and ff_e > ff_x:
            rows.append(f"`{b['design']}` {ff_e:,} TRELLIS_FF against {ff_x:,} FF beside {srl16:,} SRL16E and {srl32:,} SRLC32E "
                        f"(up to {16 * srl16 + 32 * srl32:,} bits)")
    if not rows:
        return []
    return [f"ECP5 flip-flops against UltraScale+ ({'; '.join(rows)}): on UltraScale+ Yosys packs the delay lines' shift "
            "registers into SRL16E/SRLC32E LUTs, and ECP5 has no such primitive, so each delay-line bit there is a "
            "flip-flop.", ""]


def paper_device():
    """Table III's part and totals (ntt.millar_tables.paper_device), or None if its data cannot be read."""
    from ntt import millar_tables as mt
    try:
        return mt.paper_device()
    except (OSError, KeyError, ValueError):
        return None


def device_note(sets: dict) -> list:
    """What share of the paper's own part (Table III's totals) each engine's UltraScale+ counts take.
    Table III's LUT total is the part's LUT sites, logic and memory alike, so the LUTs counted are
    LUT1-6 plus the SRL16E/SRLC32E/LUTRAM cells (each takes a LUT site). Post-synthesis counts: Vivado
    may pair two small LUTs in one site (LUT6_2), so the share is an upper estimate, and only place
    and route would say whether the engine fits."""
    dev = paper_device()
    if dev is None:
        return []
    rows = []
    for _, _, b in shown(sets):
        x = current(b["design"], "xcup")
        res = (x or {}).get("resources") or {}
        if not res.get("LUT"):
            continue
        luts = (res.get("LUT") or 0) + (res.get("LUTRAM/SRL") or 0)
        shares = [("LUT", luts, dev.lut)] + [(k, res.get(k) or 0, total) for k, total in
                                             (("FF", dev.ff), ("DSP", dev.dsp), ("BRAM18", dev.bram18))]
        over = [k for k, used, total in shares if used > total]
        rows.append(f"`{b['design']}` " + ", ".join(f"{k} {100 * used / total:.1f}%" for k, used, total in shares)
                    + (f" (over 100% in {', '.join(over)})" if over else ""))
    if not rows:
        return []
    return [f"Share of the paper's part, {dev.part} (Table III: {dev.lut:,} LUT, {dev.ff:,} FF, {dev.dsp:,} DSP, "
            f"{dev.bram18:,} BRAM18), by the UltraScale+ counts above; LUT counts the LUTs and the SRL16E/SRLC32E/LUTRAM "
            "cells, each a LUT site of its own. Post-synthesis counts: Vivado may pair two small LUTs in one site, so "
            f"these shares are upper estimates, and whether an engine fits would take place and route: {'; '.join(rows)}.", ""]


def section(sets: dict) -> list:
    paper = paper_counts()
    L = ["## FPGA: the best engines beside the SSA paper's Table IV", "",
         "The same Verilog as the ASIC flow (flow/fpga.py; the SKY130 clock gate read from its FPGA model: BUFGCE on "
         "UltraScale+, a DCCA on ECP5). UltraScale+: `synth_xilinx -family xcup` counts (no Fmax: no open signoff timing "
         "for Xilinx parts). ECP5: LFE5U-85F, nextpnr out of context; a design that does not fit is reported with the "
         "resource that overflows. Paper: Table IV, placed and routed on its ZCU102 (percentages of Table III's totals "
         "as counts), two butterflies a cycle; us per product = its latency / fmax.", "",
         *md_head("n", "log q", "design", "LUT", "FF", "DSP", "BRAM18", "URAM", "paper LUT", "paper FF", "paper DSP",
                  "paper BRAM18", "ECP5", "ECP5 Fmax (MHz)", "us per product at ECP5 Fmax", "paper us per product")]
    absent = []
    best = {b["design"] for _, _, b in winners(sets)}
    for n, logq, b in shown(sets):
        d = b["design"]
        x, e = current(d, "xcup"), current(d, "ecp5")
        res = (x or {}).get("resources", {})
        pr, pc = paper.get((n, logq), (None, {}))
        if e is None:
            ecp5, fmax, us = "absent", None, None
        elif not e.get("fits", True):
            ecp5, fmax, us = f"does not fit: {e.get('overflow')}", None, None
        else:
            u = e.get("utilization", {})
            fmax = e.get("fmax_mhz_median")
            ecp5 = (f"{u.get('TRELLIS_COMB', {}).get('used', 0):,} LUT4, {u.get('MULT18X18D', {}).get('used', 0)} MULT18X18D, "
                    f"{u.get('DP16KD', {}).get('used', 0)} DP16KD" + ("" if e.get("routed", True) else " (not routed)"))
            us = b["cycles_per_product"] / fmax if fmax else None
        if x is None or e is None:
            absent += [(d, t) for t, m in (("xcup", x), ("ecp5", e)) if m is None]
        L.append(f"| {n} | {logq} | `{d}`{'' if d in best else ' (not the best)'} | {fmt(res.get('LUT'), ',')} | {fmt(res.get('FF'), ',')} | {fmt(res.get('DSP'), ',')} | "
                 f"{fmt(res.get('BRAM18'), ',')} | {fmt(res.get('URAM'), ',')} | {fmt(pc.get('lut'), ',')} | {fmt(pc.get('ff'), ',')} | "
                 f"{fmt(pc.get('dsp'), ',')} | {fmt(pc.get('bram18'), ',')} | {ecp5} | {fmt(fmax, '.1f')} | {fmt(us, ',.2f')} | "
                 f"{fmt(pr.latency / pr.fmax_mhz if pr else None, '.2f')} |")
    L.append("")
    lut_products = [f"`{b['design']}`" for _, _, b in shown(sets)
                    if b.get("mul") == "fast" and ((current(b["design"], "xcup") or {}).get("resources") or {}).get("DSP") == 0]
    if lut_products:
        L += [f"DSP 0 ({', '.join(lut_products)}): the `_mfast` multipliers are explicit product trees (make dse's best "
              "for SKY130 cells), which Yosys maps to LUTs and carry chains, not to DSP slices; the `_mpaper` twin "
              "writes its products as `*`, which it maps to DSPs.", ""]
    L += srl_note(sets)
    L += device_note(sets)
    dates = [m["date"] for _, _, b in shown(sets) for m in (current(b["design"], t) for t in TARGETS) if m]
    tools = sorted({f"{k} {v}" for _, _, b in shown(sets) for m in (current(b["design"], t) for t in TARGETS) if m
                    for k, v in (m.get("tools") or {}).items()})
    if dates:
        L += [f"Results dated {min(dates)} to {max(dates)}; tools: {', '.join(tools)}.", ""]
    # make reports runs fpga.py on the winners only (run): an earlier winner's missing target stays absent
    # until someone runs it, and the note must not promise otherwise.
    ours = [f"`{d}` {t}" for d, t in absent if d in best]
    others = [f"`{d}` {t}" for d, t in absent if d not in best]
    if ours:
        L += [f"Absent (no result of the current RTL in build/): {', '.join(ours)}. `make reports` runs them "
              "(flow/fpga.py <design> xcup|ecp5).", ""]
    if others:
        L += [f"Absent, not the best (`make reports` does not run them; `flow/fpga.py <design> xcup|ecp5` does): "
              f"{', '.join(others)}.", ""]
    return L
