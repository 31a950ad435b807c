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
adders as ripple chains (../shared/TOOLCHAIN.md).
"""
import argparse
import json
import sys
from pathlib import Path

from pdk import CORNERS, find_pdk, Pdk

ABC_SCRIPT = "strash\n&get -n\n&nf {D}\n&put\nbuffer -N 16\nupsize -D {D}\ndnsize -D {D}\n"


def synthesize(top: str, rtl: Path, out_dir: Path, pdk: Pdk, booth: bool = True,
               target_ps: int = 250, corner: str = "tt_025C_1v80") -> dict:
    """Writes out_dir/<top>.nl.v and out_dir/stat.json; returns cell count and area."""
    from pyosys import libyosys as ys  # imported here: only the synthesis needs it

    out_dir.mkdir(parents=True, exist_ok=True)
    lib = pdk.liberty(corner)
    abc_script = out_dir / "abc.script"
    abc_script.write_text(ABC_SCRIPT)
    dont_use = " ".join(f"-dont_use {c}" for c in pdk.dont_use)
    netlist, stat = out_dir / f"{top}.nl.v", out_dir / "stat.json"
    d = ys.Design()
    for cmd in (
        f"read_liberty -lib {lib}",
        f"read_verilog {rtl}",
        f"hierarchy -check -top {top}",
        f"synth -flatten -top {top} -noabc" + (" -booth" if booth else ""),
        f"dfflibmap -liberty {lib} {dont_use}",
        f"abc -liberty {lib} {dont_use} -script {abc_script} -D {target_ps}",
        "opt_clean -purge",
        "hilomap -singleton -hicell sky130_fd_sc_hd__conb_1 HI -locell sky130_fd_sc_hd__conb_1 LO",
        "setundef -zero",
        "splitnets",
        "insbuf -buf sky130_fd_sc_hd__buf_2 A X",  # no assigns between nets in the netlist
        "opt_clean -purge",
        # Flops named after the RTL register they implement, so timing reports show the stage;
        # other cells keep short names (`autoname` on everything made a 16 MB netlist at k = 32).
        "rename -wire -suffix _reg t:sky130_fd_sc_hd__df*",
        f"tee -q -o {stat} stat -json -liberty {lib}",
        "check -assert",
        # OpenSTA 2.0.17 cannot parse `assign {a,b} = ...`: -simple-lhs.
        f"write_verilog -noattr -noexpr -nohex -nodec -simple-lhs {netlist}",
    ):
        ys.run_pass(cmd, d)
    s = json.loads(stat.read_text())["design"]
    unmapped = {c: n for c, n in s["num_cells_by_type"].items() if c.startswith("$")}
    if unmapped:
        raise RuntimeError(f"{top}: unmapped cells after synthesis: {unmapped}")
    return {"design__instance__count": s["num_cells"], "design__instance__area": s["area"],
            "netlist": str(netlist)}


def main():
    """CLI, so the flow can run synthesis in its own process (log to a file, own peak memory)."""
    ap = argparse.ArgumentParser(description="Synthesize one design to sky130_fd_sc_hd (pyosys).")
    ap.add_argument("--top", required=True)
    ap.add_argument("--rtl", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--no-booth", action="store_true")
    ap.add_argument("--target-ps", type=int, default=250)
    a = ap.parse_args()
    res = synthesize(a.top, a.rtl, a.out, find_pdk(), booth=not a.no_booth, target_ps=a.target_ps,
                     corner=CORNERS[0])
    (a.out / "synth_result.json").write_text(json.dumps(res))


if __name__ == "__main__":
    sys.exit(main())
