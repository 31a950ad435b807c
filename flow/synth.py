"""Synthesis of a generated design to sky130_fd_sc_hd cells with Yosys (pyosys 0.70).

Delay-oriented, after the paper's "as fast as possible": generic synthesis with Booth-encoded
multipliers (`synth -booth`, configurable), flops mapped with `dfflibmap`, and the logic mapped
by ABC's delay-driven `&nf` with a target far below what is reachable (-D, ps), so the
critical path is the result. ABC then buffers nets of more than 16 sinks and resizes gates
(`buffer -N 16; upsize; dnsize`) against the same target, as a layout flow's repair step
would: without it, the fanout of wide operands, and in the NTT tiles of the storage and
twiddle decoders, is read off the far end of the Liberty tables (gshoup_256: 37.3 ns unbuffered,
24.5 ns buffered, +0.7% area). No retiming: the registers stay where the RTL puts them.
ABC's default scripts are not used: at k = 128 they take over 30 minutes and rebuild the fast
adders as ripple chains (docs/toolchain.md).
"""
import argparse
import json
import sys
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from pdk import CORNERS, DONT_USE, DONT_USE_DEFAULT, SCL, find_pdk, Pdk

ABC_SCRIPT = "strash\n&get -n\n&nf {D}\n&put\nbuffer -N 16\nupsize -D {D}\ndnsize -D {D}\n"
ABC_SCRIPT_NO_SIZING = "strash\n&get -n\n&nf {D}\n&put\n"

# Yosys's $fa (Booth's compressors) onto the PDK's full-adder cell, one cell per bit, as ORFS's
# fa_map.v does, but for any width. Library cells are out of ABC's reach: it cannot flatten them.
FA_MAP = """(* techmap_celltype = "$fa" *)
module _modforge_fa (A, B, C, X, Y);
  parameter WIDTH = 1;
  (* force_downto *) input [WIDTH-1:0] A, B, C;
  (* force_downto *) output [WIDTH-1:0] X, Y;
  genvar i;
  generate for (i = 0; i < WIDTH; i = i + 1) begin : bit
    {cell} fa (.A(A[i]), .B(B[i]), .CIN(C[i]), .COUT(X[i]), .SUM(Y[i]));
  end endgenerate
endmodule
"""


@dataclass(frozen=True)
class SynthOptions:
    """The levers of the synthesis recipe (docs/flow.md, "Synthesis options"). The defaults are the
    recipe of the paper's Table 1 reproduction and must stay byte-identical to it.

    booth       `synth -booth`: Yosys's radix-4 Booth multipliers for `*`.
    arith_tree  `synth -arith_tree` (Yosys 0.70): $add/$sub chains and $macc to compressor trees.
    target_ps   Yosys's `abc -D`, ps.
    script_target  write `-D <target_ps>` into the ABC script. Yosys 0.70 substitutes {D} only in
                its built-in scripts, not in a -script file: the default recipe's `&nf {D}`,
                `upsize -D {D}` reach ABC with the literal text `{D}`, so no delay target reaches
                &nf, upsize or dnsize at all (docs/flow.md, "Synthesis options"). Off by default: Table 1's
                recipe is kept as it was measured.
    dont_use    the don't-use recipe (pdk_config/pdk.json `dont_use`: the PDK's cell lists of each):
                "openlane": no_synth.cells + drc_exclude.cells (OpenLane's list: no _1 drive
                strengths, which OpenLane's resizer downsizes to after placement; we have none);
                "drc": drc_exclude.cells only, so ABC can use the small cells.
    adder_cells ""  : adders are logic for ABC to map;
                "1"/"2": Yosys's $fa cells and the generators' explicit mf_fa/mf_ha adders become
                sky130_fd_sc_hd__fa_<n>/__ha_<n> cells, kept out of ABC's reach.
    sizing      ABC's `buffer -N 16; upsize; dnsize` after mapping.
    """
    booth: bool = True
    arith_tree: bool = False
    target_ps: int = 250
    script_target: bool = False
    dont_use: str = DONT_USE_DEFAULT
    adder_cells: str = ""
    sizing: bool = True

    def __post_init__(self):
        if self.dont_use not in DONT_USE:
            raise ValueError(f"dont_use = {self.dont_use!r}: use {' or '.join(map(repr, DONT_USE))}")
        if self.adder_cells not in ("", "1", "2"):
            raise ValueError(f"adder_cells = {self.adder_cells!r}: use '' (none), '1' or '2' (drive strength)")
        if not 10 <= self.target_ps <= 1_000_000:
            raise ValueError(f"target_ps = {self.target_ps}: use 10..1000000 ps")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "SynthOptions":
        names = {f.name for f in fields(cls)}
        bad = sorted(set(d) - names)
        if bad:
            raise ValueError(f"unknown synthesis option(s) {', '.join(bad)}; known: {', '.join(sorted(names))}")
        return cls(**d)


def recipe(top: str, rtl: Path, out_dir: Path, pdk: Pdk, opts: SynthOptions, corner: str, macro_libs=()) -> list:
    """The Yosys commands of one synthesis (and the files they read, written to out_dir).
    `macro_libs`: Liberty files of hard macros (the SRAM tiles' OpenRAM macros). Read with -lib, they
    define the macros as black boxes the RTL instantiates; the area of stat.json stays the standard
    cells' (stat gets the standard-cell Liberty only), the macros' is reported apart."""
    lib = pdk.liberty(corner)
    abc_script = out_dir / "abc.script"
    script = ABC_SCRIPT if opts.sizing else ABC_SCRIPT_NO_SIZING
    if opts.script_target:
        script = script.replace("-D {D}", "{D}").replace("{D}", f"-D {opts.target_ps}")
    abc_script.write_text(script)
    dont_use = " ".join(f"-dont_use {c}" for c in pdk.dont_use(opts.dont_use))
    netlist, stat = out_dir / f"{top}.nl.v", out_dir / "stat.json"
    flags = (" -booth" if opts.booth else "") + (" -arith_tree" if opts.arith_tree else "")
    if opts.adder_cells:
        fa, ha = (f"{SCL}__{c}_{opts.adder_cells}" for c in ("fa", "ha"))
        fa_map = out_dir / "fa_map.v"
        fa_map.write_text(FA_MAP.replace("{cell}", fa))
        front = [f"chtype -map mf_fa {fa} -map mf_ha {ha}",  # the generators' explicit adders
                 f"hierarchy -check -top {top}",
                 f"synth -flatten -top {top} -noabc{flags} -run :fine",
                 f"techmap -map {fa_map} t:$fa",  # Yosys's own ($fa from Booth, alumacc)
                 f"synth -flatten -top {top} -noabc{flags} -run fine:"]
    else:
        front = [f"synth -flatten -top {top} -noabc{flags}"]
    return [
        f"read_liberty -lib {lib}",
        *(f"read_liberty -lib {m}" for m in macro_libs),
        f"read_verilog {rtl}",
        # The tiles pass the macros' simulation-model parameter VERBOSE = 0 (silences their
        # per-access $display); the Liberty black box has no parameters.
        *(f"setparam -unset VERBOSE t:{Path(m).name.split('_TT_')[0]}" for m in macro_libs),
        f"hierarchy -check -top {top}",
        *front,
        f"dfflibmap -liberty {lib} {dont_use}",
        f"abc -liberty {lib} {dont_use} -script {abc_script} -D {opts.target_ps}",
        "opt_clean -purge",
        f"hilomap -singleton -hicell {SCL}__conb_1 HI -locell {SCL}__conb_1 LO",
        "setundef -zero",
        "splitnets",
        f"insbuf -buf {SCL}__buf_2 A X",  # no assigns between nets in the netlist
        "opt_clean -purge",
        # Flops named after the RTL register they implement, so timing reports show the stage;
        # other cells keep short names (`autoname` on everything made a 16 MB netlist at k = 32).
        f"rename -wire -suffix _reg t:{SCL}__df*",
        f"tee -q -o {stat} stat -json -liberty {lib}",
        "check -assert",
        # OpenSTA 2.0.17 cannot parse `assign {a,b} = ...`: -simple-lhs.
        f"write_verilog -noattr -noexpr -nohex -nodec -simple-lhs {netlist}",
    ]


def synthesize(top: str, rtl: Path, out_dir: Path, pdk: Pdk, booth: bool = True,
               target_ps: int = 250, corner: str = CORNERS[0], opts: SynthOptions = None,
               macro_libs=()) -> dict:
    """Writes out_dir/<top>.nl.v and out_dir/stat.json; returns cell count and area (standard
    cells; macro instances are counted apart). `opts` (SynthOptions) overrides `booth` and
    `target_ps` when given."""
    from pyosys import libyosys as ys  # imported here: only the synthesis needs it

    opts = opts or SynthOptions(booth=booth, target_ps=target_ps)
    out_dir.mkdir(parents=True, exist_ok=True)
    netlist, stat = out_dir / f"{top}.nl.v", out_dir / "stat.json"
    d = ys.Design()
    for cmd in recipe(top, rtl, out_dir, pdk, opts, corner, macro_libs):
        ys.run_pass(cmd, d)
    s = json.loads(stat.read_text())["design"]
    unmapped = {c: n for c, n in s["num_cells_by_type"].items() if c.startswith("$")}
    if unmapped:
        raise RuntimeError(f"{top}: unmapped cells after synthesis: {unmapped}")
    macro_names = {Path(m).name.split("_TT_")[0] for m in macro_libs}
    macros = {c: n for c, n in s["num_cells_by_type"].items() if c in macro_names}
    res = {"design__instance__count": s["num_cells"] - sum(macros.values()), "design__instance__area": s["area"],
           "netlist": str(netlist)}
    if macro_libs:
        res["macro_instances"] = macros
    return res


def main():
    """CLI, so the flow can run synthesis in its own process (log to a file, own peak memory)."""
    ap = argparse.ArgumentParser(description=f"Synthesize one design to {SCL} (pyosys).")
    ap.add_argument("--top", required=True)
    ap.add_argument("--rtl", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--options", default="{}", help="SynthOptions as JSON, e.g. '{\"dont_use\": \"drc\"}'")
    ap.add_argument("--macro-lib", action="append", default=[], type=Path,
                    help="Liberty of a hard macro the RTL instantiates (repeatable): read as a black box")
    a = ap.parse_args()
    try:
        opts = SynthOptions.from_dict(json.loads(a.options))
    except (ValueError, TypeError) as e:
        sys.exit(f"synth: error: --options: {e}")
    res = synthesize(a.top, a.rtl, a.out, find_pdk(), corner=CORNERS[0], opts=opts, macro_libs=a.macro_lib)
    (a.out / "synth_result.json").write_text(json.dumps(res))


if __name__ == "__main__":
    sys.exit(main())
