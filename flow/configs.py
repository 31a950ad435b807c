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

from pdk import LIBRELANE_PDK_OVERRIDES, PDK

FLOW = Path(__file__).resolve().parent
ROOT = FLOW.parent
CLOCK_PERIOD_NS = 0.25  # the paper's constraint: far below reachable, so the critical path is the result
STEPS_WITHOUT_OPENROAD = ["Modforge.Synthesis", "Modforge.STA"]


# SynthOptions field -> the plugin's variable (only the non-default ones are written).
SYNTH_VARIABLES = {"arith_tree": "MODFORGE_ARITH_TREE", "script_target": "MODFORGE_ABC_SCRIPT_TARGET",
                   "dont_use": "MODFORGE_DONT_USE", "adder_cells": "MODFORGE_ADDER_CELLS", "sizing": "MODFORGE_ABC_SIZING"}


def pdk_path(pdk, f: Path) -> str:
    """A PDK file as LibreLane's `pdk_dir::` reference (relative to $PDK_ROOT/sky130A): portable."""
    return "pdk_dir::" + str(f.relative_to(pdk.root / PDK))


def macros_config(pdk, names, with_macros: bool) -> dict:
    """The SRAM macros of a tile (its manifest's `sram.macro_models`) as configuration.
    MODFORGE_MACRO_LIBS: their tt Liberty for our synthesis (black boxes) and STA (every corner).
    MACROS (LibreLane's own variable, with the LEF, Liberty, Verilog and GDS views), so that the
    Classic flow places them where OpenROAD runs. LibreLane requires a GDS view to exist, and the
    PDK subset's pre-built macros have none: then `with_macros=None` leaves MACROS out unless the
    GDS is there; `with_macros=True` writes it anyway, at open_pdks' path (`gds/<macro>.gds`),
    where a full PDK (`ciel`) has it."""
    from pdk import open_pdks_view, sram_views
    views = [sram_views(pdk, n) for n in names]
    c = {"MODFORGE_MACRO_LIBS": [pdk_path(pdk, v.lib_tt) for v in views]}
    if with_macros or all(v.gds for v in views):
        c["MACROS"] = {v.name: {
            "gds": [pdk_path(pdk, v.gds) if v.gds else "pdk_dir::" + open_pdks_view("gds", v.name)],
            "lef": [pdk_path(pdk, v.lef)],
            "vh": [pdk_path(pdk, v.verilog)],
            # tt only: the same view times every corner (docs/ntt.md, "ASIC and FPGA flows with macros")
            "lib": {"*": [pdk_path(pdk, v.lib_tt)]},
            "instances": {}} for v in views}
    return c


def config(design: str, rtl: str, booth: bool = True, abc_target_ps: int = 250, synth: dict = None,
           macros=(), pdk=None, with_macros: bool = False) -> dict:
    """`rtl` is the VERILOG_FILES entry, e.g. "dir::../rtl/<d>.v" (relative to the config's folder).
    `synth`: further synthesis options (flow/synth.py SynthOptions), e.g. a variant's manifest member.
    `macros`: names of the SRAM macros the design instantiates (see macros_config).
    LibreLane's PDK variables of pdk_config/librelane.json `pdk_overrides` come after ours (none today:
    the PDK's own configuration, open_pdks 1.0.530's, is read as is)."""
    synth = dict(synth or {})
    booth = synth.pop("booth", booth)
    abc_target_ps = synth.pop("target_ps", abc_target_ps)
    extra = {SYNTH_VARIABLES[k]: v for k, v in synth.items()}
    if macros:
        if pdk is None:
            from pdk import find_pdk
            pdk = find_pdk()
        extra.update(macros_config(pdk, macros, with_macros))
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
        **LIBRELANE_PDK_OVERRIDES,
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
    for d in idx["table"] + idx.get("reduction_table", []) + idx.get("ntt_table", []) + idx.get("polymul", []):
        manifest = json.loads((ROOT / "build" / d / "rtl" / f"{d}.json").read_text())
        macros = (manifest.get("sram") or {}).get("macro_models", [])
        write(FLOW / "designs" / d / "config.json", config(d, f"dir::../../../build/{d}/rtl/{d}.v",
                                                           synth=manifest.get("synthesis"), macros=macros, with_macros=True))
        print(f"configs: flow/designs/{d}/config.json")


if __name__ == "__main__":
    main()
