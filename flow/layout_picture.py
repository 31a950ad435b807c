#!/usr/bin/env python3
"""A small picture of a routed layout: its GDS drawn headless by KLayout's Python module, the five
metal layers only, each in its own opaque colour, at PICTURE_PX on the longer side.

    flow/layout_picture.py DESIGN...     re-draws build/<d>/pnr/<d>.png from build/<d>/pnr/<d>.gds

flow/pnr.py draws every finished layout this way (make pnr-report copies the pictures to reports/pnr/).
Why not LibreLane's KLayout.Render picture: it draws every layer, and at a few hundred pixels the
cell layers and fill cover the die in one colour (the engine's was a plain magenta square); the
metals show the power grid, the macros' outlines and where the routing is dense.
"""
import sys
from pathlib import Path

PICTURE_PX = 480  # small enough to commit beside the table
# sky130's drawn metals (GDS layer/datatype: met1 68/20 ... met5 72/20), lowest first so the upper ones lie on top
METALS = {(68, 20): 0x3050ff, (69, 20): 0xe02020, (70, 20): 0x20a020, (71, 20): 0xd0a000, (72, 20): 0x8040c0}


def draw(gds: Path, out: Path, px: int = PICTURE_PX) -> bool:
    """Draws gds into out (PNG); False where KLayout's module is missing or the GDS has none of the metals."""
    try:
        import klayout.db  # noqa: F401  (the layout view needs the database module loaded)
        import klayout.lay as lay
    except ImportError:
        return False
    view = lay.LayoutView()
    view.set_config("background-color", "#ffffff")
    view.set_config("grid-visible", "false")
    view.set_config("text-visible", "false")
    cv = view.load_layout(str(gds), False)
    ly = view.cellview(cv).layout()
    shown = 0
    for li in ly.layer_indexes():
        info = ly.get_info(li)
        color = METALS.get((info.layer, info.datatype))
        if color is None:
            continue
        lp = lay.LayerProperties()
        lp.source = f"{info.layer}/{info.datatype}@1"
        lp.fill_color = lp.frame_color = color
        lp.dither_pattern = 0  # solid
        view.insert_layer(view.end_layers(), lp)
        shown += 1
    if not shown:
        return False
    view.max_hier()
    view.zoom_fit()
    out.parent.mkdir(parents=True, exist_ok=True)
    view.save_image(str(out), px, px)
    return True


def main():
    import json
    import layout
    if len(sys.argv) < 2:
        sys.exit(__doc__.split("\n\n")[1].strip())
    for d in sys.argv[1:]:
        folder = layout.design_dir(d) / "pnr"
        gds = folder / f"{d}.gds"
        if not gds.exists():
            sys.exit(f"layout_picture: {gds} is missing.\nFix: make harden DESIGN={d} (a layout to GDS)")
        if not draw(gds, folder / f"{d}.png"):
            sys.exit(f"layout_picture: {d}: KLayout's Python module is missing or the GDS has no metal layer.\n"
                     "Fix: make setup (the venv's klayout)")
        m = folder / "metrics.json"
        if m.exists():
            metrics = json.loads(m.read_text())
            metrics["picture"] = f"{d}.png"
            m.write_text(json.dumps(metrics, indent=2) + "\n")
        print(f"layout_picture: {d}: {folder / f'{d}.png'}")


if __name__ == "__main__":
    main()
