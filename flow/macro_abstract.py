"""A GDS of a hard macro's LEF abstract, for a PDK that has the macro's LEF but not its GDS.

The OpenRAM macros of the PDK subset ship LEF, Liberty and Verilog views and no GDS, and none is
reachable from our machines. LibreLane requires a GDS view for every macro (MACROS.<m>.gds), so the
layout places such a macro from its LEF and streams out this GDS in its place: the LEF's pin shapes
and labels, written by Magic (`lef read`, then `gds write`; Magic's GDS output style does not write
the LEF's obstruction layers). DRC then checks everything but the macro's inside, and LVS sees the
macro as a black box with its pins, as caravel users do without the macro's GDS. Every result
made this way says so (metrics.json `macros_as_abstracts`). A PDK with the GDS (`ciel`) uses it.
"""
import subprocess
from pathlib import Path

from pdk import PDK, FlowError

SCRIPT = """lef read {lef}
load {macro}
property LEFview ""
gds write {out}
quit -noprompt
"""


def abstract_gds(pdk, macro: str, lef: Path, out_dir: Path, magic: Path) -> Path:
    """out_dir/<macro>.abstract.gds, made from lef by Magic unless it is newer than lef already."""
    out = out_dir / f"{macro}.abstract.gds"
    if out.exists() and out.stat().st_mtime >= lef.stat().st_mtime and out.stat().st_size > 0:
        return out
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp.gds")
    script = out_dir / f"{macro}.abstract.tcl"
    script.write_text(SCRIPT.format(lef=lef, macro=macro, out=tmp))
    rc = pdk.root / PDK / "libs.tech" / "magic" / f"{PDK}.magicrc"
    p = subprocess.run([str(magic), "-dnull", "-noconsole", "-rcfile", str(rc), str(script)], capture_output=True,
                       text=True, timeout=600, env={**__import__("os").environ, "PDK_ROOT": str(pdk.root)})
    if p.returncode != 0 or not tmp.exists() or tmp.stat().st_size == 0:
        raise FlowError(f"Magic could not write a GDS of {macro}'s LEF abstract ({lef}):\n"
                        + "\n".join(p.stdout.splitlines()[-5:] + p.stderr.splitlines()[-5:]))
    tmp.rename(out)
    return out
