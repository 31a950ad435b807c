#!/usr/bin/env python3
"""Does LibreLane's Classic flow accept a design's configuration with this PDK?

    flow/check_classic.py DESIGN...        (needs build/<d>/rtl/<d>.json: make rtl DESIGN=<d>)
    flow/check_classic.py --all            every design of build/designs.json's tables

Writes the configuration a user with OpenROAD runs (flow/configs.py, with LibreLane's MACROS for
the SRAM tiles) to build/<d>/librelane/config.classic.json and builds the Classic flow object on
it: that validates every Classic step's variables against the PDK, without OpenROAD. Lists what
LibreLane rejects and exits 1 if anything is.

One rejection is not counted: a macro's GDS view missing from the PDK. LibreLane requires one per
macro; the PDK subset's OpenRAM macros ship without GDS, so the configuration names open_pdks'
path (`libs.ref/sky130_sram_macros/gds/<macro>.gds`), where a full PDK (`ciel`) has it. The check
says so for each such macro.
"""
import argparse
import json
import re
import sys

import layout
from configs import config, write
from pdk import PDK, FlowError, find_pdk, shown

GDS_MISSING = re.compile(r"Path provided for variable 'MACROS\.(\w+)\.gds\[0\]' is invalid: '(.+)' does not exist")
# Our steps' variables: unknown to Classic, which warns about them (and lists them among the
# errors when it rejects something else).
OURS = re.compile(r"Unknown key 'MODFORGE_\w+' provided\.")


def check(design: str, pdk, extra: dict = None) -> tuple:
    """(accepted, notes, errors) for one design; `extra` variables are merged into its configuration."""
    manifest_file = layout.manifest(design)
    if not manifest_file.exists():
        raise FlowError(f"{shown(manifest_file)} is missing.\nFix: make rtl DESIGN={design}")
    manifest = json.loads(manifest_file.read_text())
    macros = (manifest.get("sram") or {}).get("macro_models", [])
    cfg = layout.librelane_dir(design) / "config.classic.json"
    write(cfg, {**config(design, f"dir::../rtl/{design}.v", synth=manifest.get("synthesis"), macros=macros, pdk=pdk,
                         with_macros=True), **(extra or {})})
    from librelane.flows import Flow
    try:
        Flow.factory.get("Classic")([str(cfg)], pdk_root=str(pdk.root), pdk=PDK)
        return True, [], []
    except Exception as e:  # InvalidConfig carries the list
        errors = [str(x) for x in (getattr(e, "errors", None) or [str(e)])]
    notes = [f"macro {m.group(1)}: no GDS view in this PDK; a full PDK (ciel) has it at\n    {m.group(2)}"
             for x in errors if (m := GDS_MISSING.search(x))]
    real = [x for x in errors if not GDS_MISSING.search(x) and not OURS.search(x)]
    # LibreLane lists every rejected variable in one pass (test_check_classic.py checks that a
    # second, real error still shows beside a missing GDS), so nothing else was rejected.
    return not real, notes, real


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("designs", nargs="*")
    ap.add_argument("--all", action="store_true", help="every table design, reduction and NTT tile, and the SRAM tiles of the index")
    a = ap.parse_args()
    designs = list(a.designs)
    if a.all:
        index = layout.index()
        if not index.exists():
            sys.exit("check-classic: error: build/designs.json is missing. Fix: make rtl-all")
        idx = json.loads(index.read_text())
        designs += [d for key in ("table", "reduction_table", "ntt_table", "polymul") for d in idx.get(key, [])]
    if not designs:
        ap.error("no design given. Fix: name designs or --all (make check-classic)")
    try:
        pdk = find_pdk()
    except FlowError as e:
        sys.exit(f"check-classic: error: {e}")
    bad = 0
    for d in dict.fromkeys(designs):
        try:
            ok, notes, errors = check(d, pdk)
        except FlowError as e:
            print(f"check-classic: error: {e}")
            bad += 1
            continue
        if ok:
            print(f"check-classic: LibreLane's Classic flow accepts {d} with the PDK at {pdk.root}")
        else:
            bad += 1
            print(f"check-classic: LibreLane's Classic flow rejects {d} with the PDK at {pdk.root}:")
            for err in errors:
                print(f"  - {err}")
        for n in notes:
            print(f"  note: {n}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
