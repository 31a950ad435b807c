"""Locate and check the SKY130 PDK (sky130A, sky130_fd_sc_hd) the flow reads. Never edits it.

find_pdk() looks in three places, in order: PDK_ROOT when it is set (and then only there); ciel's
default location ~/.ciel, where `ciel enable` (LibreLane installs ciel and uses it itself) puts
sky130A; the folder ../shared/pdk beside the repository. Its error gives the ciel command that
installs the version LibreLane 3.0.17 pins (CIEL_COMMAND; docs/toolchain.md). What the flow knows
about the PDK (its name, the standard-cell library, the corners, the don't-use lists, the SRAM
macro catalogue, LibreLane's PDK overrides) comes from pdk_config/ (pdk_config/README.md), which
the Scala generators read too.
"""
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PDK_CONFIG = ROOT / "pdk_config"


def _config(name: str) -> dict:
    return json.loads((PDK_CONFIG / name).read_text())


_PDK = _config("pdk.json")
PDK, SCL = _PDK["pdk"], _PDK["std_cell_library"]
CORNERS = tuple(_PDK["corners"])  # typical first: the headline corner
# Don't-use recipes of synthesis (flow/synth.py SynthOptions.dont_use): recipe -> the PDK's cell-list
# files (in DONT_USE_FOLDER, relative to $PDK_ROOT/<PDK>) whose cells it never maps to.
DONT_USE_FOLDER = _PDK["dont_use"]["folder"]
DONT_USE = {recipe: tuple(files) for recipe, files in _PDK["dont_use"]["recipes"].items()}
DONT_USE_DEFAULT = _PDK["dont_use"]["default"]
SRAM_CATALOGUE = _config("sram_macros.json")  # the OpenRAM macros the generators build banks of
SRAM_MACROS = {m["name"]: m for m in SRAM_CATALOGUE["macros"]}  # name -> {"name", "depth", "area_um2"}
LIBRELANE_PDK_OVERRIDES = _config("librelane.json")["pdk_overrides"]  # into every LibreLane configuration
DEFAULT_PDK_ROOT = ROOT.parent / "shared" / "pdk"  # the folder beside the repository (our machines)
# ciel's default PDK root (ciel 2.6.1, ciel/common.py CIEL_DEFAULT_HOME); `ciel enable` links
# <root>/sky130A to the enabled version there.
CIEL_HOME = Path.home() / ".ciel"
# open_pdks 1.0.530, the sky130 version LibreLane 3.0.17 pins (librelane/pdk_hashes.yaml). ciel's
# default library set for sky130 includes sky130_fd_sc_hd and the OpenRAM macros, sky130_sram_macros.
OPEN_PDKS_COMMIT = "8afc8346a57fe1ab7934ba5a6056ea8b43078e71"
CIEL_COMMAND = f".venv/bin/ciel enable --pdk-family sky130 {OPEN_PDKS_COMMIT}"


class FlowError(RuntimeError):
    """A problem the user can fix; the message names it and the fix."""


def shown(path: Path) -> str:
    """A path as messages show it: relative to the repository when inside it (shorter lines)."""
    path = Path(path)
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


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
    def cell_gds(self) -> Path:
        return self.scl / "gds" / f"{SCL}.gds"

    def layout_cell_gds(self, out_dir: Path):
        """(the cell GDS the layout flow reads, the boundaries closed in it). Magic refuses a GDS
        BOUNDARY whose last point is not its first ("Boundary is not closed"), and LibreLane's
        Magic.StreamOut stops on it. The PDK subset's cell GDS (open_pdks 1.0.255) has one such
        boundary, in sky130_ef_sc_hd__decap_12. Where the PDK's file has any, a copy in out_dir
        gets the first point appended to each (the polygon its points describe, closed) and is
        used instead; the PDK itself is never edited. A PDK without them is used as it is."""
        from gds_fix import close_boundaries
        src = self.cell_gds
        fixed = out_dir / src.name
        stamp = out_dir / (src.name + ".fixes.json")
        if fixed.exists() and stamp.exists() and fixed.stat().st_mtime >= src.stat().st_mtime:
            return (fixed if json.loads(stamp.read_text()) else src), json.loads(stamp.read_text())
        out_dir.mkdir(parents=True, exist_ok=True)
        data, fixes = close_boundaries(src.read_bytes())
        if fixes:
            tmp = fixed.with_suffix(".tmp")
            tmp.write_bytes(data)
            tmp.rename(fixed)
        else:
            fixed.touch()
        stamp.write_text(json.dumps(fixes))
        return (fixed if fixes else src), fixes

    def dont_use(self, recipe: str = DONT_USE_DEFAULT):
        """The cells a don't-use recipe (pdk_config/pdk.json `dont_use`) never synthesizes into: those
        of its files, sorted. "openlane": OpenLane's no_synth.cells + drc_exclude.cells; "drc":
        drc_exclude.cells only, the cells that must never be used (the small _1 drive strengths stay usable)."""
        if recipe not in DONT_USE:
            raise ValueError(f"dont_use = {recipe!r}: use {' or '.join(map(repr, DONT_USE))}")
        cells = []
        for name in DONT_USE[recipe]:
            cells += [c for c in (self.root / PDK / DONT_USE_FOLDER / name).read_text().split() if not c.startswith("#")]
        return sorted(set(cells))


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
    """Finds a macro's views in the first layout of pdk_config/sram_macros.json `views` that has them:
    the pre-built macros' own (`<macro>/<macro>.lef`, the PDK subset's) or open_pdks' (`lef/<macro>.lef`,
    `lib/`, `verilog/`, `gds/`, as `ciel` installs it). The macros have a Liberty view at tt only
    (`<macro>_TT_1p8V_25C.lib`)."""
    base = pdk.root / PDK / SRAM_CATALOGUE["folder"]

    def find(view):
        return next((c for c in (base / t.format(macro=name) for t in SRAM_CATALOGUE["views"][view]) if c.exists()), None)
    lef, lib, v, gds = (find(view) for view in ("lef", "lib_tt", "verilog", "gds"))
    missing = [what for what, f in (("LEF", lef), ("tt Liberty", lib), ("Verilog model", v)) if f is None]
    if missing:
        raise FlowError(f"SRAM macro {name}: no {', '.join(missing)} under {base}.\nFix: use a PDK with the OpenRAM "
                        f"sky130 macros (PDK_ROOT), e.g.\n  {CIEL_COMMAND}\n(ciel's default library set has them)")
    return SramViews(name, lef, lib, v, gds)


def open_pdks_view(view: str, name: str) -> str:
    """A macro's view at open_pdks' path (the last layout of pdk_config/sram_macros.json `views`),
    relative to $PDK_ROOT/<PDK>: where a full PDK (`ciel`) has it."""
    return f"{SRAM_CATALOGUE['folder']}/{SRAM_CATALOGUE['views'][view][-1].format(macro=name)}"


def _missing(root: Path) -> list:
    """The files the flow needs that the PDK at root lacks (empty: usable)."""
    pdk = Pdk(root)
    needed = [pdk.liberty(c) for c in CORNERS] + list(pdk.cell_models) + [
        root / PDK / DONT_USE_FOLDER / f for f in dict.fromkeys(f for files in DONT_USE.values() for f in files)]
    return [p for p in needed if not p.exists()]


def pdk_candidates() -> list:
    """(root, where) in the order find_pdk looks: PDK_ROOT alone when it is set, else ciel's
    default location, then the folder beside the repository."""
    if os.environ.get("PDK_ROOT"):
        return [(Path(os.environ["PDK_ROOT"]), "PDK_ROOT")]
    return [(CIEL_HOME, "ciel's default location"), (DEFAULT_PDK_ROOT, "beside the repository")]


def find_pdk() -> Pdk:
    """The first usable PDK of pdk_candidates(); FlowError naming each place and the ciel command."""
    tried = []
    for root, where in pdk_candidates():
        missing = _missing(root)
        if not missing:
            return Pdk(root)
        what = f"no {PDK}/" if not (root / PDK).exists() else \
            f"{len(missing)} files missing, e.g. {missing[0].relative_to(root)}"
        tried.append(f"  {where}: {root}: {what}")
    explicit = bool(os.environ.get("PDK_ROOT"))
    raise FlowError("\n".join([
        f"no usable SKY130 PDK ({PDK} with {SCL}). Looked at:", *tried,
        "Fix: install open_pdks 1.0.530 (the version LibreLane 3.0.17 pins, with the OpenRAM macros)",
        f"  {CIEL_COMMAND}",
        "  (into " + ("$PDK_ROOT" if explicit else "~/.ciel") + "; ciel comes with LibreLane: make setup),",
        "  or export PDK_ROOT=<folder holding " + PDK + "/>" + (" or unset PDK_ROOT" if explicit else "")
        + " (docs/toolchain.md, \"PDK\")."]))
