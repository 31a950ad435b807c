"""LibreLane steps for hardening on machines without OpenROAD (imported by LibreLane at start-up,
as every importable `librelane_plugin_*` module is; the editable install, `make setup`, puts flow/
on sys.path).

* ``Modforge.Synthesis``: flow/synth.py (pyosys 0.70). It stands in for ``Yosys.Synthesis``,
  whose ABC scripts take over 30 minutes at k = 128 and rebuild fast adders as ripple chains.
  It is delay-oriented, Booth on by default, with no retiming.
* ``Modforge.STA``: OpenSTA (Debian's ``sta``) at each corner. It stands in for
  ``OpenROAD.STAPrePNR``, which needs ``openroad``; Debian's OpenSTA lacks the commands of
  LibreLane's own STA scripts.

Both write LibreLane metric names (``design__instance__area``, ``timing__setup__ws__corner:*``)
plus ``modforge__critical_path_ns*``: the smallest clock period that meets setup at each corner.
Nothing is estimated: a step that cannot run fails.
"""
import json
import logging
import re
import sys
from decimal import Decimal
from pathlib import Path
from typing import List, Optional

from librelane.common import Path as LLPath  # state views must be LibreLane's Path (a str)
from librelane.config import Variable
from librelane.state import DesignFormat, State
from librelane.steps import MetricsUpdate, Step, ViewsUpdate

from pdk import CORNERS, DONT_USE, DONT_USE_DEFAULT, SCL, Pdk
from sta import DRIVE_CELL, TCL, parse_sta, sta_binary

FLOW_DIR = Path(__file__).resolve().parents[1]


class _KnownUnusedKeys(logging.Filter):
    """Drops LibreLane's "Key 'X' provided is unused by the current flow." for the keys our
    configurations (flow/configs.py) write on purpose for the other flow: MODFORGE_* are our steps'
    (Classic, `make check-classic`, does not run them), SYNTH_STRATEGY and SYNTH_MUL_BOOTH are
    Classic's Yosys.Synthesis's (our flow, `make harden`, does not run it). One configuration serves
    both flows, so the warning is expected and harmless there; any other key's still shows. The
    header LibreLane logs before those warnings is held back and shown only if one of them still is."""

    UNUSED = re.compile(r"Key '(MODFORGE_\w+|SYNTH_STRATEGY|SYNTH_MUL_BOOTH)' provided is unused by the current flow\.")
    HEADER = "Loading the design configuration file has generated the following warnings"

    def __init__(self, logger: logging.Logger):
        super().__init__()
        self.logger, self.header, self.replaying = logger, None, False

    def filter(self, record: logging.LogRecord) -> bool:
        if self.replaying:
            return True
        msg = str(record.msg)
        if msg.startswith(self.HEADER):
            self.header = record
            return False
        if self.UNUSED.fullmatch(msg):
            return False
        if self.header is not None:
            header, self.header = self.header, None
            if record.levelno >= logging.WARNING:  # a warning of the configuration we keep: its header first
                self.replaying = True
                try:
                    self.logger.handle(header)
                finally:
                    self.replaying = False
        return True


def quiet_known_unused_keys():
    """Installs _KnownUnusedKeys on LibreLane's logger, once (LibreLane imports this plugin at start-up)."""
    logger = logging.getLogger("__librelane__")
    if not any(isinstance(f, _KnownUnusedKeys) for f in logger.filters):
        logger.addFilter(_KnownUnusedKeys(logger))


quiet_known_unused_keys()


@Step.factory.register()
class Synthesis(Step):
    """Delay-oriented synthesis to the standard cells (pdk_config/pdk.json) with pyosys (flow/synth.py)."""

    id = "Modforge.Synthesis"
    name = "Synthesis (pyosys, delay-oriented)"
    inputs = []
    outputs = [DesignFormat.NETLIST]
    config_vars = [
        Variable("VERILOG_FILES", List[LLPath], "The design's Verilog sources (one generated file)."),
        Variable("MODFORGE_BOOTH", bool, "Booth-encoded multipliers (`synth -booth`).", default=True),
        Variable("MODFORGE_ABC_TARGET_PS", int,
                 "Delay target of ABC's &nf mapping; far below reachable, as the paper's 250 ps clock.",
                 default=250, units="ps"),
        Variable("MODFORGE_ARITH_TREE", bool, "`synth -arith_tree`: adder chains and $macc to compressor trees.",
                 default=False),
        Variable("MODFORGE_ABC_SCRIPT_TARGET", bool, "Write the target into the ABC script (Yosys does not substitute "
                 "{D} in script files).", default=False),
        Variable("MODFORGE_DONT_USE", str, "The don't-use recipe (pdk_config/pdk.json): " +
                 "; ".join(f"{r}: {' + '.join(files)}" for r, files in DONT_USE.items()) + ".",
                 default=DONT_USE_DEFAULT),
        Variable("MODFORGE_ADDER_CELLS", str, f"'' or the drive strength ('1', '2') of the {SCL} fa/ha cells "
                 "that full and half adders are mapped to, out of ABC's reach.", default=""),
        Variable("MODFORGE_ABC_SIZING", bool, "ABC's `buffer -N 16; upsize; dnsize` after mapping.", default=True),
        Variable("MODFORGE_MACRO_LIBS", Optional[List[LLPath]],
                 "Liberty views of the hard macros the design instantiates (the SRAM tiles' OpenRAM macros): "
                 "black boxes in synthesis, timed by STA (their tt view at every corner: they have no other)."),
    ]

    def run(self, state_in: State, **kwargs) -> tuple[ViewsUpdate, MetricsUpdate]:
        files = self.config["VERILOG_FILES"]
        if len(files) != 1:
            raise ValueError(f"Modforge.Synthesis takes one generated Verilog file, got {len(files)}")
        step_dir = Path(self.step_dir)
        top = self.config["DESIGN_NAME"]
        opts = {"booth": self.config["MODFORGE_BOOTH"], "target_ps": self.config["MODFORGE_ABC_TARGET_PS"],
                "arith_tree": self.config["MODFORGE_ARITH_TREE"],
                "script_target": self.config["MODFORGE_ABC_SCRIPT_TARGET"], "dont_use": self.config["MODFORGE_DONT_USE"],
                "adder_cells": self.config["MODFORGE_ADDER_CELLS"], "sizing": self.config["MODFORGE_ABC_SIZING"]}
        cmd = [sys.executable, str(FLOW_DIR / "synth.py"), "--top", top, "--rtl", str(files[0]),
               "--out", str(step_dir), "--options", json.dumps(opts)]
        for lib in self.config["MODFORGE_MACRO_LIBS"] or []:
            cmd += ["--macro-lib", str(lib)]
        kwargs, env = self.extract_env(kwargs)
        env["PDK_ROOT"] = str(self.config["PDK_ROOT"])
        self.run_subprocess(cmd, env=env, **kwargs)
        res = json.loads((step_dir / "synth_result.json").read_text())
        return ({DesignFormat.NETLIST: LLPath(res["netlist"])},
                {"design__instance__count": res["design__instance__count"],
                 "design__instance__area": Decimal(str(res["design__instance__area"]))})


@Step.factory.register()
class STA(Step):
    """Post-synthesis static timing with OpenSTA at each corner (ideal clock, no parasitics)."""

    id = "Modforge.STA"
    name = "Static timing (OpenSTA, each corner)"
    inputs = [DesignFormat.NETLIST]
    outputs = []
    config_vars = [
        Variable("MODFORGE_STA_CORNERS", Optional[List[str]],
                 f"Liberty corners of {SCL} to time; default {', '.join(CORNERS)}."),
        Variable("MODFORGE_MACRO_LIBS", Optional[List[LLPath]],
                 "Liberty views of the hard macros the design instantiates (the SRAM tiles' OpenRAM macros): "
                 "black boxes in synthesis, timed by STA (their tt view at every corner: they have no other)."),
    ]

    def run(self, state_in: State, **kwargs) -> tuple[ViewsUpdate, MetricsUpdate]:
        step_dir = Path(self.step_dir)
        netlist = Path(str(state_in[DesignFormat.NETLIST]))
        top, period = self.config["DESIGN_NAME"], float(self.config["CLOCK_PERIOD"])
        pdk = Pdk(Path(str(self.config["PDK_ROOT"])))
        metrics, paths = {}, {}
        corners = self.config["MODFORGE_STA_CORNERS"] or list(CORNERS)
        for corner in corners:
            tcl, log = step_dir / f"sta_{corner}.tcl", step_dir / f"sta_{corner}.log"
            # The macros' tt view at every corner: the only one they have (docs/ntt.md, "ASIC and
            # FPGA flows with macros"); the standard cells take the corner's own.
            macros = "".join(f"read_liberty {lib}\n" for lib in self.config["MODFORGE_MACRO_LIBS"] or [])
            tcl.write_text(macros + TCL.format(lib=pdk.liberty(corner), netlist=netlist, top=top, period_ns=period,
                                               drive_cell=DRIVE_CELL))
            p = self.run_subprocess([sta_binary(), "-no_splash", "-exit", str(tcl)], log_to=log, check=False)
            t = parse_sta(top, corner, p["returncode"], log, period)
            metrics[f"timing__setup__ws__corner:{corner}"] = Decimal(str(t["timing__setup__ws"]))
            metrics[f"modforge__critical_path_ns__corner:{corner}"] = Decimal(str(t["critical_path_ns"]))
            paths[corner] = {"start": t["startpoint"], "end": t["endpoint"], "edges": t["edges"]}
        metrics["timing__setup__ws"] = min(metrics[f"timing__setup__ws__corner:{c}"] for c in corners)
        metrics["modforge__critical_path_ns"] = metrics[f"modforge__critical_path_ns__corner:{corners[0]}"]
        (step_dir / "worst_paths.json").write_text(json.dumps(paths, indent=2))
        return {}, metrics


@Step.factory.register()
class Netlist(Step):
    """The post-synthesis netlist of `make harden`'s own synthesis, as the Classic flow's netlist.

    flow/pnr.py runs LibreLane's Classic flow with `Yosys.Synthesis` substituted by this step, so
    that the netlist placed and routed is the very one whose post-synthesis figures the reports
    give (Modforge.Synthesis, then Modforge.STA, in build/<d>/harden/). It copies that netlist and
    sets the metrics the checkers after synthesis read: the cell count and area of the synthesis,
    the cells that are not library cells or the design's macros (counted here from the netlist),
    and Yosys's `check` errors (0: flow/synth.py ends with `check -assert`, which fails otherwise)."""

    id = "Modforge.Netlist"
    name = "Post-synthesis netlist (make harden)"
    inputs = []
    outputs = [DesignFormat.NETLIST]
    config_vars = [
        Variable("MODFORGE_NETLIST", LLPath, "The post-synthesis netlist (build/<d>/harden/<d>.nl.v)."),
        Variable("MODFORGE_SYNTH_METRICS", LLPath, "Its metrics.json (build/<d>/harden/metrics.json)."),
    ]

    def run(self, state_in: State, **kwargs) -> tuple[ViewsUpdate, MetricsUpdate]:
        src = Path(str(self.config["MODFORGE_NETLIST"]))
        synth = json.loads(Path(str(self.config["MODFORGE_SYNTH_METRICS"])).read_text())
        dst = Path(self.step_dir) / f"{self.config['DESIGN_NAME']}.nl.v"
        text = src.read_text()
        dst.write_text(text)
        macros = set((self.config.get("MACROS") or {}).keys())
        types = re.findall(r"^\s+(\\?[$\w]+)\s+\\?[$\w\[\].]+\s*\(\s*$", text, re.M)
        unmapped = [t for t in types if not t.startswith(f"{SCL}__") and t not in macros and t != "module"]
        return ({DesignFormat.NETLIST: LLPath(str(dst))},
                {"design__instance__count": synth["design__instance__count"],
                 "design__instance__area": Decimal(str(synth["design__instance__area"])),
                 "design__instance_unmapped__count": len(unmapped),
                 "synthesis__check_error__count": 0})
