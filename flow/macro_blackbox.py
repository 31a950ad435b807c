"""A hard macro's Verilog header as a black box: its ports, none of its behaviour.

LibreLane's Classic flow lints the RTL with every macro's `vh` view, and stops on timing
constructs (Checker.LintTimingConstructs). The OpenRAM macros' Verilog views are simulation models
with `#(DELAY)` and `$display`; the layout needs only their ports. So the layout's MACROS entries
name this header instead (build/pdk_layout/<macro>.bb.v): the module's port list and port
declarations as the vendor model has them, `ifdef USE_POWER_PINS` blocks included, and nothing
else. The simulation benches keep the vendor model.
"""
import re
from pathlib import Path

DECL = re.compile(r"^\s*(input|output|inout|parameter|localparam|`ifdef|`ifndef|`else|`endif)\b")


def blackbox_text(model: str, macro: str) -> str:
    m = re.search(rf"^\s*module\s+{re.escape(macro)}\b.*?\);", model, re.S | re.M)
    if not m:
        raise ValueError(f"no module {macro} in its Verilog model")
    body = model[m.end():model.index("endmodule", m.end())]
    decls = [line.rstrip() for line in body.splitlines() if DECL.match(line)]
    # the declarations' `ifdef blocks must close: keep only balanced ones (a model's behavioural
    # `ifdef around no port declaration is dropped with its `endif)
    kept, stack = [], []
    for line in decls:
        word = line.split()[0]
        if word in ("`ifdef", "`ifndef"):
            stack.append(len(kept))
            kept.append(line)
        elif word == "`endif":
            start = stack.pop() if stack else None
            if start is not None and all(k.split()[0] in ("`ifdef", "`ifndef", "`else") for k in kept[start:]):
                del kept[start:]
            else:
                kept.append(line)
        else:
            kept.append(line)
    if stack:
        raise ValueError(f"{macro}'s model has an unclosed `ifdef among its port declarations")
    return ("// black box of " + macro + " for the layout's lint (flow/macro_blackbox.py)\n"
            "(* blackbox *)\n" + model[m.start():m.end()].strip() + "\n" + "\n".join(kept) + "\nendmodule\n")


def blackbox_header(model: Path, macro: str, out_dir: Path) -> Path:
    """out_dir/<macro>.bb.v from the vendor model, rewritten only when its text changes."""
    out = out_dir / f"{macro}.bb.v"
    text = blackbox_text(model.read_text(errors="replace"), macro)
    if not out.exists() or out.read_text() != text:
        out_dir.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    return out
