#!/usr/bin/env python3
"""LibreLane configurations of the registry's designs.

    flow/configs.py            writes flow/designs/<d>/config.json for the 12 table designs, the reduction table and the NTT table's tiles

The committed files are for LibreLane users with their own installation:
    make rtl DESIGN=<d>
    librelane --manual-pdk --pdk-root $PDK_ROOT -p sky130A flow/designs/<d>/config.json          # here
    librelane --manual-pdk --pdk-root $PDK_ROOT -p sky130A -f classic flow/designs/<d>/config.json  # with OpenROAD
`make harden` writes the same configuration to build/<d>/librelane/config.json and runs it there,
so its run folder lands in build/<d>/librelane/runs/.
"""
import json
import sys
from pathlib import Path

FLOW = Path(__file__).resolve().parent
ROOT = FLOW.parent
CLOCK_PERIOD_NS = 0.25  # the paper's constraint: far below reachable, so the critical path is the result
STEPS_WITHOUT_OPENROAD = ["Modforge.Synthesis", "Modforge.STA"]


# SynthOptions field -> the plugin's variable (only the non-default ones are written).
SYNTH_VARIABLES = {"arith_tree": "MODFORGE_ARITH_TREE", "script_target": "MODFORGE_ABC_SCRIPT_TARGET",
                   "dont_use": "MODFORGE_DONT_USE", "adder_cells": "MODFORGE_ADDER_CELLS", "sizing": "MODFORGE_ABC_SIZING"}


def config(design: str, rtl: str, booth: bool = True, abc_target_ps: int = 250, synth: dict = None) -> dict:
    """`rtl` is the VERILOG_FILES entry, e.g. "dir::../rtl/<d>.v" (relative to the config's folder).
    `synth`: further synthesis options (flow/synth.py SynthOptions), e.g. a variant's manifest member."""
    synth = dict(synth or {})
    booth = synth.pop("booth", booth)
    abc_target_ps = synth.pop("target_ps", abc_target_ps)
    extra = {SYNTH_VARIABLES[k]: v for k, v in synth.items()}
    return {
        "DESIGN_NAME": design,
        "VERILOG_FILES": [rtl],
        "CLOCK_PORT": "clk",
        "CLOCK_PERIOD": CLOCK_PERIOD_NS,
        # Our steps (Modforge.*: flow/librelane_plugin_modforge)
        "MODFORGE_BOOTH": booth,
        "MODFORGE_ABC_TARGET_PS": abc_target_ps,
        **extra,
        # LibreLane's own Yosys.Synthesis, in the Classic flow: the same intent
        "SYNTH_STRATEGY": "DELAY 0",
        "SYNTH_MUL_BOOTH": booth,
        "meta": {"version": 2, "flow": STEPS_WITHOUT_OPENROAD},
    }


def write(path: Path, cfg: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(cfg, indent=2) + "\n")


def main():
    index = ROOT / "build" / "designs.json"
    if not index.exists():
        sys.exit("configs: error: build/designs.json is missing. Fix: make rtl-all")
    idx = json.loads(index.read_text())
    for d in idx["table"] + idx.get("reduction_table", []) + idx.get("ntt_table", []):
        write(FLOW / "designs" / d / "config.json", config(d, f"dir::../../../build/{d}/rtl/{d}.v"))
        print(f"configs: flow/designs/{d}/config.json")


if __name__ == "__main__":
    main()
