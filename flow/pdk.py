"""Locate and check the SKY130 PDK (sky130A, sky130_fd_sc_hd) the flow reads. Never edits it.

PDK_ROOT defaults to ../shared/pdk beside the repository when that exists.
"""
import os
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PDK, SCL = "sky130A", "sky130_fd_sc_hd"
CORNERS = ("tt_025C_1v80", "ss_100C_1v60", "ff_n40C_1v95")  # typical first: the headline corner
DEFAULT_PDK_ROOT = ROOT.parent / "shared" / "pdk"


class FlowError(RuntimeError):
    """A problem the user can fix; the message names it and the fix."""


@dataclass(frozen=True)
class Pdk:
    root: Path

    @property
    def scl(self) -> Path:
        return self.root / PDK / "libs.ref" / SCL

    def liberty(self, corner: str) -> Path:
        return self.scl / "lib" / f"{SCL}__{corner}.lib"

    @property
    def cell_models(self):
        """Verilog models for gate-level simulation: primitives.v, then the cells."""
        v = self.scl / "verilog"
        return v / "primitives.v", v / f"{SCL}.v"

    def sim_cell_models(self, out_dir: Path):
        """Cell models Icarus 11 can compile: primitives.v as shipped, and a copy of the cell
        file with its one malformed line fixed (`endif LABEL` without `//`, about line 49162).
        The PDK itself is never edited. Use with -DFUNCTIONAL -DUNIT_DELAY=#1."""
        primitives, cells = self.cell_models
        out_dir.mkdir(parents=True, exist_ok=True)
        fixed = out_dir / cells.name
        if not fixed.exists() or fixed.stat().st_mtime < cells.stat().st_mtime:
            text = re.sub(r"^`endif[ \t]+(?!//)(\S)", r"`endif // \1", cells.read_text(), flags=re.M)
            tmp = fixed.with_suffix(".tmp")
            tmp.write_text(text)
            tmp.rename(fixed)
        return primitives, fixed

    @property
    def dont_use(self):
        """Cells OpenLane never synthesizes into (no_synth.cells, drc_exclude.cells)."""
        d = self.root / PDK / "libs.tech" / "openlane" / SCL
        cells = []
        for name in ("no_synth.cells", "drc_exclude.cells"):
            cells += [c for c in (d / name).read_text().split() if not c.startswith("#")]
        return sorted(set(cells))

    @property
    def drc_exclude(self):
        """Only the cells that must never be used (drc_exclude.cells): the small _1 drive strengths stay usable."""
        d = self.root / PDK / "libs.tech" / "openlane" / SCL
        return sorted(set(c for c in (d / "drc_exclude.cells").read_text().split() if not c.startswith("#")))


SRAM_MACROS = "sky130_sram_macros"


@dataclass(frozen=True)
class SramViews:
    """The views of one OpenRAM SRAM macro the flow uses. `gds` is None where the PDK has none
    (our subset: the OpenRAM team's pre-built macros ship without it)."""
    name: str
    lef: Path
    lib_tt: Path
    verilog: Path
    gds: Path = None


def sram_views(pdk: Pdk, name: str) -> SramViews:
    """Finds a macro's views in either layout: the pre-built macros' own (`<macro>/<macro>.lef`,
    the PDK subset's) or open_pdks' (`lef/<macro>.lef`, `lib/`, `verilog/`, `gds/`, as `ciel` installs it).
    The macros have a Liberty view at tt only (`<macro>_TT_1p8V_25C.lib`)."""
    base = pdk.root / PDK / "libs.ref" / SRAM_MACROS

    def find(*cands):
        return next((c for c in cands if c.exists()), None)
    lef = find(base / name / f"{name}.lef", base / "lef" / f"{name}.lef")
    lib = find(base / name / f"{name}_TT_1p8V_25C.lib", base / "lib" / f"{name}_TT_1p8V_25C.lib")
    v = find(base / name / f"{name}.v", base / "verilog" / f"{name}.v")
    gds = find(base / name / f"{name}.gds", base / "gds" / f"{name}.gds")
    missing = [what for what, f in (("LEF", lef), ("tt Liberty", lib), ("Verilog model", v)) if f is None]
    if missing:
        raise FlowError(f"SRAM macro {name}: no {', '.join(missing)} under {base}. Fix: use a PDK with the OpenRAM "
                        f"sky130 macros (PDK_ROOT; ../shared/pdk has them in {SRAM_MACROS}/<macro>/)")
    return SramViews(name, lef, lib, v, gds)


def find_pdk() -> Pdk:
    root = Path(os.environ.get("PDK_ROOT") or DEFAULT_PDK_ROOT)
    pdk = Pdk(root)
    needed = [pdk.liberty(c) for c in CORNERS] + list(pdk.cell_models) + [
        root / PDK / "libs.tech" / "openlane" / SCL / "no_synth.cells"]
    missing = [str(p) for p in needed if not p.exists()]
    if missing:
        how = "PDK_ROOT is not set and ../shared/pdk does not exist" if "PDK_ROOT" not in os.environ \
            else f"PDK_ROOT={root} is incomplete"
        more = f" and {len(missing) - 2} more" if len(missing) > 2 else ""
        raise FlowError(f"SKY130 PDK not usable: {how}; missing {', '.join(missing[:2])}{more}. Fix: export PDK_ROOT=<folder holding "
                        f"{PDK}/ with {SCL}> (open_pdks layout; e.g. `ciel enable` installs one).")
    return pdk
