#!/usr/bin/env python3
"""Does LibreLane's Classic flow accept a design's configuration with this PDK?

    flow/check_classic.py [DESIGN]     (default gshoup_32; needs build/<d>/librelane/config.json)

Building the flow object validates every Classic step's variables against the PDK, so this
runs without OpenROAD. It lists what LibreLane rejects and exits 1 if anything is.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harden import BUILD, librelane_pdk_root  # noqa: E402
from pdk import PDK, find_pdk  # noqa: E402


def main():
    design = sys.argv[1] if len(sys.argv) > 1 else "gshoup_32"
    cfg = BUILD / design / "librelane" / "config.json"
    if not cfg.exists():
        sys.exit(f"check-classic: error: {cfg} is missing. Fix: make harden DESIGN={design}")
    from librelane.flows import Flow
    root = librelane_pdk_root(find_pdk())
    try:
        Flow.factory.get("Classic")([str(cfg)], pdk_root=str(root), pdk=PDK)
    except Exception as e:  # InvalidConfig carries the list
        errors = getattr(e, "errors", None) or [str(e)]
        print(f"check-classic: LibreLane's Classic flow rejects {design} with the PDK at {root}:")
        for err in errors:
            print(f"  - {err}")
        return 1
    print(f"check-classic: LibreLane's Classic flow accepts {design} with the PDK at {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
