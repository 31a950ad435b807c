"""flow/area_blocks.py on a made-up netlist and Liberty (no synthesis, milliseconds): each anonymous cell is
counted to the named register its output reaches first, logic reaching only ports to "(ports)", logic reaching
nothing to none; the Liberty's areas and output pins are read."""
import area_blocks as ab

LIB = """library (x) {
  cell ("sky130_fd_sc_hd__inv_1") {
    area : 3.75;
    pin ("A") { direction : "input"; }
    pin ("Y") { direction : "output"; }
  }
  cell ("sky130_fd_sc_hd__dfxtp_1") {
    area : 20.02;
    pin ("CLK") { direction : "input"; }
    pin ("D") { direction : "input"; }
    pin ("Q") { direction : "output"; }
  }
}
"""


def cell(t, name, **pins):
    return f"  {t} {name} (\n" + ",\n".join(f"    .{p}({n})" for p, n in pins.items()) + "\n  );\n"


NETLIST = ("module top(clk, a, y);\n  input clk;\n  input a;\n  output y;\n"
           + cell("sky130_fd_sc_hd__inv_1", "_1_", A="a", Y="n1")
           + cell("sky130_fd_sc_hd__inv_1", "_2_", A="n1", Y="n2")
           + cell("sky130_fd_sc_hd__dfxtp_1", "\\blk.sub.deep.r_reg[0]", CLK="clk", D="n2", Q="q1")
           + cell("sky130_fd_sc_hd__inv_1", "_3_", A="q1", Y="n3")
           + cell("sky130_fd_sc_hd__dfxtp_1", "\\count_reg[3]", CLK="clk", D="n3", Q="q2")
           + cell("sky130_fd_sc_hd__inv_1", "_4_", A="q2", Y="y")
           + cell("sky130_fd_sc_hd__inv_1", "_5_", A="q2", Y="dangling")
           + "endmodule\n")


def test_attribution(tmp_path):
    (tmp_path / "x.lib").write_text(LIB)
    (tmp_path / "x.v").write_text(NETLIST)
    lib = ab.liberty_cells(tmp_path / "x.lib")
    assert lib["sky130_fd_sc_hd__dfxtp_1"] == (20.02, {"Q"})
    cells, drives, inputs = ab.parse(tmp_path / "x.v", lib)
    assert [n for _, n in cells] == ["_1_", "_2_", "\\blk.sub.deep.r_reg[0]", "_3_", "\\count_reg[3]", "_4_", "_5_"]
    blocks = dict(zip((n for _, n in cells), ab.attribute(cells, drives, inputs, ab.output_ports(tmp_path / "x.v"), 2)))
    assert blocks == {"_1_": "blk.sub", "_2_": "blk.sub", "\\blk.sub.deep.r_reg[0]": "blk.sub",
                      "_3_": "(top level)", "\\count_reg[3]": "(top level)", "_4_": "(ports)", "_5_": None}
