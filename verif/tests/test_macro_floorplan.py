"""The layout of designs with hard macros: the floorplan (flow/macro_place.py) and the macros'
black-box headers (flow/macro_blackbox.py). Geometry is checked against the rules it must keep
(inside the die, no overlaps, halos, pins towards the core, room for the standard cells), not
against the placer's own arithmetic."""
import itertools
import shutil
import subprocess

import pytest

import macro_blackbox
import macro_place
from pdk import find_pdk, sram_views

SRAM = "sky130_sram_1kbyte_1rw1r_32x256_8"
W, H = 479.78, 397.5


def _rect(x, y, o):
    return (x, y, x + W, y + H)  # N and S keep the footprint; only the pins' edge turns


def _overlap(a, b, gap):
    return not (a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1])


@pytest.mark.parametrize("count", [1, 2, 4, 5, 8])
@pytest.mark.parametrize("cells_um2", [1_000, 141_472, 900_000])
def test_floorplan_keeps_macros_apart_inside_and_leaves_room(count, cells_um2):
    insts = [(f"m{i}", SRAM) for i in range(count)]
    halo, edge, util, growth = 20, 40, 0.45, 1.5
    fp = macro_place.floorplan(insts, {SRAM: (W, H)}, cells_um2, util, halo, edge, growth=growth)
    side = fp["side_um"]
    rects = {i: _rect(*p) for i, p in fp["places"].items()}
    assert set(rects) == {i for i, _ in insts}
    for r in rects.values():
        assert r[0] >= edge - 1e-6 and r[1] >= edge - 1e-6 and r[2] <= side - edge + 1e-6 and r[3] <= side - edge + 1e-6
    for a, b in itertools.combinations(rects.values(), 2):
        assert not _overlap(a, b, halo - 1e-6), (a, b)
    # the macro's edge with the most pins faces the middle (the LEF's bottom edge, test_pins_by_edge):
    # turned by 180 degrees (S) in the bottom row, as drawn (N) in the top row
    for x, y, o in fp["places"].values():
        assert o == ("S" if y < side / 2 else "N")
    # the standard cells' band between the rows holds the grown cell area at the utilization
    rows = len({y for _, y, _ in fp["places"].values()})  # a halo between each row and the cells
    band = (side - 2 * edge - rows * (H + halo)) * (side - 2 * edge)
    assert band >= cells_um2 * growth / util


def test_pins_by_edge():
    """Why the bottom row is turned: the LEF's bottom edge holds most of the macro's signal pins."""
    import re
    text = sram_views(find_pdk(), SRAM).lef.read_text()
    edges = {"bottom": 0, "top": 0}
    for name, body in re.findall(r"PIN (\S+)(.*?)END \1", text, re.S):
        if "USE POWER" in body or "USE GROUND" in body:
            continue
        x1, y1, x2, y2 = map(float, re.search(r"RECT\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)", body).groups())
        if y1 < 2:
            edges["bottom"] += 1
        elif y2 > H - 2:
            edges["top"] += 1
    assert edges["bottom"] > edges["top"] > 0


def test_floorplan_is_the_smallest_square_in_its_steps():
    insts = [(f"m{i}", SRAM) for i in range(4)]
    need = 141_472 * 1.5 / 0.45
    fp = macro_place.floorplan(insts, {SRAM: (W, H)}, 141_472, 0.45, 20, 40, step_um=10)
    side = fp["side_um"] - 10  # one step less must break a rule: two rows at most, room for the cells
    per_row = int((side - 80 + 20) // (W + 20))
    rows = -(-4 // per_row) if per_row else 99
    band = (side - 80 - rows * H - 2 * 20) * (side - 80)
    assert not (rows <= 2 and band >= need)


def test_floorplan_refuses_mixed_macro_sizes():
    with pytest.raises(ValueError, match="one size"):
        macro_place.floorplan([("a", "x"), ("b", "y")], {"x": (10, 10), "y": (20, 10)}, 100, 0.5, 10, 10)


def test_lef_size_and_netlist_instances(tmp_path):
    pdk = find_pdk()
    v = sram_views(pdk, SRAM)
    assert macro_place.lef_size_um(v.lef, SRAM) == (W, H)
    nl = tmp_path / "d.nl.v"
    nl.write_text(f"""module d(clk);
  {SRAM} \\bank_s0_b0.macro_r0_c0  (
    .clk0(clk));
  sky130_fd_sc_hd__inv_1 _1_ (.A(x), .Y(y));
  {SRAM} plain_1 (.clk0(clk));
endmodule
""")
    assert macro_place.netlist_instances(nl, [SRAM]) == [("bank_s0_b0.macro_r0_c0", SRAM), ("plain_1", SRAM)]


def test_blackbox_header_keeps_ports_and_drops_behaviour(tmp_path):
    pdk = find_pdk()
    v = sram_views(pdk, SRAM)
    text = macro_blackbox.blackbox_text(v.verilog.read_text(), SRAM)
    assert "#(" not in text and "$display" not in text and "always" not in text
    for port in ("clk0", "csb0", "web0", "wmask0", "addr0", "din0", "dout0", "clk1", "csb1", "addr1", "dout1", "vccd1"):
        assert port in text
    assert text.count("`ifdef") == text.count("`endif") == 2
    out = macro_blackbox.blackbox_header(v.verilog, SRAM, tmp_path)
    if shutil.which("iverilog"):  # it must be Verilog a tool reads, with and without the power pins
        for defs in ([], ["-DUSE_POWER_PINS"]):
            p = subprocess.run(["iverilog", *defs, "-o", str(tmp_path / "bb.vvp"), str(out)], capture_output=True, text=True)
            assert p.returncode == 0, p.stderr


def test_blackbox_refuses_an_unclosed_ifdef():
    model = "module m(a);\n`ifdef X\n input a;\nendmodule\n"
    with pytest.raises(ValueError, match="unclosed"):
        macro_blackbox.blackbox_text(model, "m")
