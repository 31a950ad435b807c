"""Locate the layout tools of LibreLane's Classic flow: OpenROAD, Magic, Netgen and KLayout.

No package registry serves OpenROAD, and Debian's Magic 8.3.105 is refused by the PDK's tech file,
so these come from a build of their own (docs/toolchain.md, "Layout tools"). Each is looked up as
the PDK is (flow/pdk.py): in order, and the first that answers is used:

  OpenROAD   $OPENROAD_EXE, then `openroad` on PATH, then /opt/modforge-eda/bin/openroad
  Magic      $MAGIC_EXE,    then `magic` on PATH,    then /opt/modforge-eda/bin/magic
  Netgen     $NETGEN_EXE,   then `netgen` on PATH,   then /opt/modforge-eda/bin/netgen
  KLayout    $KLAYOUT_EXE,  then `klayout` on PATH (Debian's klayout; its DRC deck and XOR)

Magic must be 8.3.111 or later (the PDK's tech file says so): an older one found first is passed
over with a note. `find_layout_tools()` returns what it found, or what is missing and how to get it;
`layout_env()` is the environment LibreLane runs in, with each tool's folder first on PATH and our
`yosys` launcher (flow/bin/yosys) beside them.
"""
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

FLOW = Path(__file__).resolve().parent
ROOT = FLOW.parent
DEFAULT_PREFIX = Path("/opt/modforge-eda")  # where ../shared/tools/install.sh puts them
SHARED_INSTALL = ROOT.parent / "shared" / "tools" / "install.sh"  # our machines' copy beside the repository
YOSYS_LAUNCHER_DIR = FLOW / "bin"
MAGIC_MIN = (8, 3, 111)  # sky130A.tech: "magic version 8.3.111 or later"

# tool -> (environment variable, executable name)
TOOLS = {"openroad": ("OPENROAD_EXE", "openroad"), "magic": ("MAGIC_EXE", "magic"),
         "netgen": ("NETGEN_EXE", "netgen"), "klayout": ("KLAYOUT_EXE", "klayout")}


@dataclass
class LayoutTools:
    found: dict = field(default_factory=dict)     # tool -> Path of its executable
    missing: dict = field(default_factory=dict)   # tool -> what was looked at, one line
    notes: list = field(default_factory=list)     # tools passed over (e.g. a Magic too old)

    @property
    def complete(self) -> bool:
        return not self.missing

    def how_to_get(self) -> str:
        """The fix for what is missing, as the PDK's error gives the ciel command."""
        lines = ["Layout tools missing: " + "; ".join(f"{t}: {w}" for t, w in self.missing.items())]
        if "klayout" in self.missing:
            lines.append("  KLayout: apt-get install klayout (make setup does)")
        if set(self.missing) - {"klayout"}:
            if SHARED_INSTALL.exists():
                lines.append(f"  OpenROAD, Magic, Netgen: {SHARED_INSTALL} (make setup runs it)")
            else:
                lines.append("  OpenROAD, Magic, Netgen: no registry serves OpenROAD. Use LibreLane's Nix environment "
                             "(nix-shell in a LibreLane checkout), or your own builds named by OPENROAD_EXE, MAGIC_EXE "
                             f"and NETGEN_EXE, or install them into {DEFAULT_PREFIX}/bin (docs/toolchain.md, \"Layout tools\")")
        return "\n".join(lines)


def magic_version(exe: Path):
    """(major, minor, patch) of a Magic executable, or None when it does not answer."""
    try:
        out = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(x) for x in m.groups()) if m else None


def _candidates(tool: str):
    var, exe = TOOLS[tool]
    if os.environ.get(var):
        return [(Path(os.environ[var]), f"${var}")]  # named explicitly: only there
    out = []
    if (w := shutil.which(exe)):
        out.append((Path(w), "PATH"))
    out.append((DEFAULT_PREFIX / "bin" / exe, str(DEFAULT_PREFIX / "bin")))
    return out


def find_layout_tools() -> LayoutTools:
    r = LayoutTools()
    for tool in TOOLS:
        tried = []
        for path, where in _candidates(tool):
            if not (path.is_file() and os.access(path, os.X_OK)):
                tried.append(f"{where}: {path} (absent)")
                continue
            if tool == "magic":
                v = magic_version(path)
                if v is None or v < MAGIC_MIN:
                    shown = ".".join(map(str, v)) if v else "no version"
                    r.notes.append(f"magic at {path} ({where}) is {shown}; the PDK needs "
                                   f"{'.'.join(map(str, MAGIC_MIN))} or later: passed over")
                    tried.append(f"{where}: {path} ({shown}, too old)")
                    continue
            r.found[tool] = path
            break
        else:
            r.missing[tool] = ", ".join(tried)
    return r


def openroad_commit(exe: Path) -> str:
    """The OpenROAD commit: `openroad -version`, or share/openroad/COMMIT beside a source-snapshot
    build (whose -version says GITDIR-NOTFOUND)."""
    commit = exe.resolve().parent.parent / "share" / "openroad" / "COMMIT"
    if commit.exists():
        return commit.read_text().strip()
    return subprocess.run([str(exe), "-version"], capture_output=True, text=True).stdout.strip()


def layout_env(tools: LayoutTools, python: str, shim_dir: Path) -> dict:
    """The environment of a Classic run. LibreLane calls each tool by its name on PATH, so shim_dir
    gets a link named after each found tool (OPENROAD_EXE may name a file called otherwise) and comes
    first on PATH, ahead of Debian's Magic 8.3.105 in /usr/bin; then our `yosys` launcher and the
    venv's bin (LibreLane's KLayout steps run `python3` with the `klayout` module). MODFORGE_PYTHON
    tells the launcher which Python has pyosys. CAD_ROOT points Magic at its own lib/."""
    shim_dir.mkdir(parents=True, exist_ok=True)
    links = {TOOLS[tool][1]: path.resolve() for tool, path in tools.found.items()}
    # LibreLane's STA steps (OpenROAD.STAPostPNR among them) run `sta`: it must be the OpenSTA built
    # with OpenROAD (beside it), not Debian's 2019 one, which lacks the commands of their scripts.
    if "openroad" in tools.found:
        links["sta"] = tools.found["openroad"].resolve().parent / "sta"
    for name, target in links.items():
        link = shim_dir / name
        if link.is_symlink() or link.exists():
            link.unlink()
        if target.exists():
            link.symlink_to(target)
    env = dict(os.environ)
    dirs = [str(shim_dir), str(YOSYS_LAUNCHER_DIR), str(Path(python).parent)]
    # Not the tools' own folders: /opt/modforge-eda/bin's `sta` (OpenROAD's OpenSTA) would shadow the
    # Debian OpenSTA of Modforge.STA (flow/sta.py).
    env["PATH"] = os.pathsep.join(dirs + [env.get("PATH", "")])
    env["MODFORGE_PYTHON"] = python
    if "magic" in tools.found:
        lib = tools.found["magic"].resolve().parent.parent / "lib"
        if (lib / "magic").is_dir():
            env.setdefault("CAD_ROOT", str(lib))
    return env


def main(argv=None):
    """flow/eda.py [--check]: print the layout tools found; --check exits 1 (with how to get them) when any is missing."""
    import sys
    args = sys.argv[1:] if argv is None else argv
    t = find_layout_tools()
    for tool, path in t.found.items():
        print(f"eda: {tool}: {path}")
    for n in t.notes:
        print(f"eda: note: {n}")
    if not t.complete:
        print("eda: " + t.how_to_get().replace("\n", "\neda: "))
        print("eda: without them make harden runs synthesis and STA only and says what it skipped")
        return 1 if "--check" in args else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
