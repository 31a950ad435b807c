"""The floorplan of a design with hard macros: die size and each macro's place (flow/pnr.py).

LibreLane's Classic flow places macros only where the configuration says (`MACROS.<m>.instances`,
step Odb.ManualMacroPlacement); it has no macro placer of its own. This module says where, by a
rule a floorplanner would use for a few identical SRAMs:

- The die is square (pdk_config/layout.json `FP_ASPECT_RATIO` 1) and the smallest one, in steps of
  `step_um`, that holds the macros with their halos and the standard cells at the flow's
  utilization (`FP_CORE_UTIL`) of the area the macros leave.
- The macros sit in two rows: along the bottom edge (orientation S, turned by 180 degrees) and
  along the top edge (orientation N), each `edge_um` from the die's edge. The OpenRAM macros of
  sky130 have most of their signal pins on the LEF's bottom edge (sky130_sram_1kbyte_1rw1r_32x256_8:
  74 there, port 0's din, dout, wmask; 34 on the top edge, port 1's; 13 on the sides): S at the
  bottom and N at the top turn that edge towards the standard cells in the middle, and the 34
  towards the die's edge, where `edge_um` leaves room to route them round.
- Macros in a row are `halo_um` apart; the standard cells keep `halo_um` from them (the PDN's and
  the placer's macro halos, pdk_config/layout.json `macro`).

The standard-cell area is the post-synthesis one times `growth` (the resizer's buffers and the
clock tree; gshoup_32 grew from 12,460 to 18,664 cells, reports/pnr.md).
"""
import math
import re
from pathlib import Path


def lef_size_um(lef: Path, macro: str):
    """(width, height) of macro's SIZE statement in lef."""
    text = lef.read_text(errors="replace")
    body = re.search(rf"MACRO\s+{re.escape(macro)}\b(.*?)END\s+{re.escape(macro)}\b", text, re.S)
    m = re.search(r"SIZE\s+([\d.]+)\s+BY\s+([\d.]+)", body.group(1) if body else "")
    if not m:
        raise ValueError(f"{lef}: no SIZE for MACRO {macro}")
    return float(m.group(1)), float(m.group(2))


def netlist_instances(netlist: Path, macros) -> list:
    """[(instance, macro)] of every instance of the named macros in a flat gate-level netlist,
    in netlist order. Escaped names (`\\bank_s0_b0.macro_r0_c0 `) are given without the escape,
    as OpenROAD's database names them."""
    pat = re.compile(r"^\s*(" + "|".join(re.escape(m) for m in macros) + r")\s+(\\\S+|[A-Za-z_][\w$]*)\s*\(", re.M)
    return [(inst[1:] if inst.startswith("\\") else inst, macro)
            for macro, inst in pat.findall(netlist.read_text(errors="replace"))]


def _grid(v: float, g: float = 0.01) -> float:
    return round(math.ceil(v / g - 1e-9) * g, 2)


def floorplan(instances, sizes: dict, stdcell_area_um2: float, util: float, halo_um: float,
              edge_um: float, step_um: float = 10.0, growth: float = 1.5) -> dict:
    """The die side and each instance's location: {"side_um", "rows", "stdcell_region_um2",
    "places": {instance: (x_um, y_um, orientation)}}. All macros must have one size."""
    dims = {sizes[m] for _, m in instances}
    if len(dims) != 1:
        raise ValueError(f"macros of more than one size {sorted(dims)}: this floorplan places identical macros only")
    w, h = dims.pop()
    need = stdcell_area_um2 * growth / util
    side = _grid(max(w + 2 * edge_um, math.sqrt(need + len(instances) * (w + halo_um) * (h + halo_um))), step_um)
    while True:
        per_row = int((side - 2 * edge_um + halo_um) // (w + halo_um))
        rows = math.ceil(len(instances) / per_row) if per_row else 99
        # standard cells: between the rows' halos, edge to edge less the macros' edges
        middle = side - 2 * edge_um - rows * (h + halo_um)
        if rows <= 2 and middle > 0 and middle * (side - 2 * edge_um) >= need:
            break
        side = _grid(side + step_um, step_um)
    places, n = {}, len(instances)
    bottom = math.ceil(n / 2) if rows == 2 else n
    for i, (inst, _) in enumerate(instances):
        top = i >= bottom
        j = i - bottom if top else i
        x = _grid(edge_um + j * (w + halo_um))
        y = _grid(side - edge_um - h) if top else _grid(edge_um)
        places[inst] = (x, y, "N" if top else "S")
    return {"side_um": side, "rows": rows, "stdcell_region_um2": round(middle * (side - 2 * edge_um)), "places": places}
