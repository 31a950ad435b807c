"""Static timing of a synthesized netlist with OpenSTA (`sta`), one Liberty corner at a time.

Ideal clock, no wire parasitics (the sky130 Liberty has no wire-load model): a post-synthesis
figure, as the paper's Table 1 is. Inputs arrive and outputs are required at the clock edge
(zero I/O delay), so input-to-register and register-to-output paths count as well. Inputs are
driven by a sky130_fd_sc_hd__buf_2, about the strength of a register's output: with ideal
inputs, a stage fed by ports (Shoup's first) would look faster than the same stage fed by
registers (GShoup's), only because its high-fanout operands would cost nothing.

The critical path is the smallest clock period that meets setup. It is found from one run at a
period far below it (every path fails), one worst slack per pair of launch and capture edges:
  - rise -> rise and fall -> fall paths have the whole period: T >= period - slack;
  - fall -> rise and rise -> fall paths have half of it (ideal clock, 50% duty cycle): at the run's
    period their slack is period/2 - delay, and T/2 >= delay gives T >= period - 2 slack.
The second kind is the OpenRAM macros': their Liberty (and their Verilog model) drive dout1 after
the falling edge of clk1 and capture their inputs at the rising edge, so a path from a macro's read
data to a register or a macro input has half a cycle. `period - worst slack` alone would give it a
whole one: polymul_4096_62_s1_w32's 7.186 ns was really 10.465 ns (a 5.11 ns fall -> rise path).
"""
import re
import shutil
from pathlib import Path

from pdk import SCL, FlowError

DRIVE_CELL = f"{SCL}__buf_2"
TCL = """read_liberty {lib}
read_verilog {netlist}
link_design {top}
create_clock -name clk -period {period_ns} [get_ports clk]
set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk]]
set_driving_cell -lib_cell {drive_cell} -pin X [delete_from_list [all_inputs] [get_ports clk]]
set_output_delay 0 -clock clk [all_outputs]
foreach {{launch capture}} {{rise rise fall rise rise fall fall fall}} {{
  puts "modforge-edges $launch $capture"
  report_checks -path_delay max -digits 4 -${{launch}}_from [get_clocks clk] -${{capture}}_to [get_clocks clk]
}}
report_wns -digits 4
report_tns -digits 4
"""


def sta_binary() -> str:
    sta = shutil.which("sta")
    if not sta:
        raise FlowError("OpenSTA (`sta`) is not on PATH. Fix: apt-get install opensta")
    return sta


def parse_sta(top: str, corner: str, returncode: int, rpt: Path, period_ns: float) -> dict:
    """The critical path and the worst path's ends, from an OpenSTA run of TCL (stdout + stderr in rpt)."""
    text = rpt.read_text()
    # OpenSTA reports parse errors and still exits 0: any Error/Warning line but the known
    # harmless Liberty warning is a failure.
    errors = [l for l in text.splitlines() if re.match(r"(Error|Warning)", l) and "default_operating_condition" not in l]
    wns = re.search(r"^wns (-?[\d.]+)", text, re.M)
    if returncode != 0 or errors or not wns:
        raise RuntimeError(f"{top}: OpenSTA failed at {corner} (see {rpt}): {' '.join(errors[:3])}")
    tns = re.search(r"^tns (-?[\d.]+)", text, re.M)
    groups = edge_groups(text, period_ns)
    if not groups:
        raise RuntimeError(f"{top}: OpenSTA at {corner} reported no path between clock edges (see {rpt})")
    worst = max(groups, key=lambda g: g["needs_ns"])
    return {
        "critical_path_ns": round(worst["needs_ns"], 4),
        "timing__setup__ws": float(wns.group(1)),
        "timing__setup__tns": float(tns.group(1)) if tns else None,
        "startpoint": worst["start"],
        "endpoint": worst["end"],
        "edges": f"{worst['launch']} -> {worst['capture']}",
        "clock_period_ns": period_ns,
    }


def edge_groups(text: str, period_ns: float) -> list:
    """The worst path of each launch/capture edge pair in TCL's report, with the clock period it needs."""
    out = []
    for block in re.split(r"^modforge-edges ", text, flags=re.M)[1:]:
        launch, capture = block.split(None, 2)[:2]
        slack = re.search(r"^\s*(-?[\d.]+)\s+slack \(", block, re.M)
        if not slack:
            continue  # "No paths found."
        s = float(slack.group(1))
        needs = period_ns - s if launch == capture else period_ns - 2 * s
        start = re.search(r"^Startpoint: (\S+)", block, re.M)
        end = re.search(r"^Endpoint: (\S+)", block, re.M)
        out.append({"launch": launch, "capture": capture, "slack_ns": s, "needs_ns": needs,
                    "start": start.group(1) if start else None, "end": end.group(1) if end else None})
    return out


def report_paths(text: str) -> list:
    """Every path of an OpenSTA `report_checks` report (e.g. LibreLane's STAPostPNR max.rpt): its
    launch and capture edges, slack, and whether it runs register to register (no port at
    either end)."""
    out = []
    for block in re.split(r"^Startpoint: ", text, flags=re.M)[1:]:
        edges = re.findall(r"clock \S+ \((rise|fall) edge\)", block)
        slack = re.search(r"^\s*(-?[\d.]+)\s+slack \(", block, re.M)
        end = re.search(r"^Endpoint: .*", block, re.M)
        if len(edges) < 2 or not slack or not end:
            continue
        out.append({"launch": edges[0], "capture": edges[1], "slack_ns": float(slack.group(1)),
                    "r2r": "input port" not in block.split("\n", 1)[0] and "output port" not in end.group(0)})
    return out


def half_cycle_worst(text: str) -> dict:
    """The worst slacks of a report's paths, apart by kind: from one clock edge to the other (the
    OpenRAM macros' read data, launched at the falling edge; ws_ns, ws_r2r_ns) and between like
    edges (full_ws_ns, full_ws_r2r_ns), over all paths and register-to-register ones; None where the
    report lists none of a kind; and how many paths of the first kind it lists. A path of the first
    kind needs period - 2 slack, one of the second period - slack (module docstring)."""
    paths = report_paths(text)
    half = [p for p in paths if p["launch"] != p["capture"]]
    full = [p for p in paths if p["launch"] == p["capture"]]

    def worst(ps, r2r=False):
        return min((p["slack_ns"] for p in ps if p["r2r"] or not r2r), default=None)
    return {"ws_ns": worst(half), "ws_r2r_ns": worst(half, True), "full_ws_ns": worst(full),
            "full_ws_r2r_ns": worst(full, True), "paths": len(half)}
