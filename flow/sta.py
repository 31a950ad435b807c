"""Static timing of a synthesized netlist with OpenSTA (`sta`), one Liberty corner at a time.

Ideal clock, no wire parasitics (the sky130 Liberty has no wire-load model): a post-synthesis
figure, as the paper's Table 1 is. Inputs arrive and outputs are required at the clock edge
(zero I/O delay), so input-to-register and register-to-output paths count as well. Inputs are
driven by a sky130_fd_sc_hd__buf_2, about the strength of a register's output: with ideal
inputs, a stage fed by ports (Shoup's first) would look faster than the same stage fed by
registers (GShoup's), only because its high-fanout operands would cost nothing. The critical
path is the smallest clock period that meets setup: period - worst slack.
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
report_checks -path_delay max -digits 4
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
    start = re.search(r"^Startpoint: (\S+)", text, re.M)
    end = re.search(r"^Endpoint: (\S+)", text, re.M)
    return {
        "critical_path_ns": round(period_ns - float(wns.group(1)), 4),
        "timing__setup__ws": float(wns.group(1)),
        "timing__setup__tns": float(tns.group(1)) if tns else None,
        "startpoint": start.group(1) if start else None,
        "endpoint": end.group(1) if end else None,
        "clock_period_ns": period_ns,
    }
