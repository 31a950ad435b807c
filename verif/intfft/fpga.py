"""The paper's FPGA results (Tables 4 and 5, parsed) against the XC7VX980T's capacity.

The capacity comes from the tables' own headers ("(total: 3600)" ...); the tests check it against
Xilinx DS180 (3,600 DSP48E1, 1,224,000 slice registers, 612,000 LUTs). utilisation() gives each
row's fraction of the device per resource and whether the design fits; only the 2^32+1 designs do.
"""
from typing import NamedTuple

from . import paper_tables

RESOURCES = ("dsp", "registers", "luts")


class Utilisation(NamedTuple):
    group: str
    p: int
    mhz: float
    used: dict          # resource -> count
    fraction: dict      # resource -> used / device total
    fits: bool


def utilisation(table: paper_tables.SynthTable = None) -> list:
    table = table or paper_tables.paper_table4()
    out = []
    for r in table.rows:
        used = {k: getattr(r, k) for k in RESOURCES}
        frac = {k: used[k] / table.totals[k] for k in RESOURCES}
        out.append(Utilisation(r.group, r.p, float(r.mhz), used, frac, all(f <= 1 for f in frac.values())))
    return out


def format_utilisation(rows: list) -> str:
    lines = [f"{'design':36} {'MHz':>8} {'DSP':>8} {'regs':>8} {'LUTs':>8}  fits"]
    for u in rows:
        lines.append(f"{u.group:36} {u.mhz:8.3f} " + " ".join(f"{u.fraction[k]:8.1%}" for k in RESOURCES)
                     + f"  {'yes' if u.fits else 'no'}")
    return "\n".join(lines)


if __name__ == "__main__":      # python -m intfft.fpga (from verif/)
    print(format_utilisation(utilisation(paper_tables.paper_table4())))
    print()
    print(format_utilisation(utilisation(paper_tables.paper_table5())))
