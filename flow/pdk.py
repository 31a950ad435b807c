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


PDK_CONFIG = ROOT / "pdk_config"


def overlay_root(pdk: Pdk, out: Path) -> Path:
    """A PDK root for LibreLane: out/sky130A links to every part of the real sky130A, plus the
    overrides of pdk_config/ (pdk_config/README.md). Rebuilt when the PDK root or an override
    changes; the PDK itself is never edited."""
    stamp = out / ".modforge-overlay"
    overrides = sorted(p for p in (PDK_CONFIG / PDK).rglob("*") if p.is_file())
    want = "\n".join([str(pdk.root.resolve())] + [f"{p}:{p.stat().st_mtime_ns}" for p in overrides])
    if stamp.exists() and stamp.read_text() == want:
        return out
    import shutil
    shutil.rmtree(out, ignore_errors=True)

    def mirror(src: Path, dst: Path):
        """dst mirrors src: a real folder where an override lies below, else a link."""
        dst.mkdir(parents=True)
        for child in src.iterdir():
            rel = child.relative_to(pdk.root)
            if any(PDK_CONFIG / rel in o.parents for o in overrides) and child.is_dir():
                mirror(child, dst / child.name)
            elif not (PDK_CONFIG / rel).exists():
                (dst / child.name).symlink_to(child.resolve())

    mirror(pdk.root / PDK, out / PDK)
    for o in overrides:
        target = out / o.relative_to(PDK_CONFIG)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(o, target)
    stamp.write_text(want)
    return out


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
