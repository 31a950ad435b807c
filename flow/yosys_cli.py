"""The `yosys` command line that LibreLane calls, on pyosys 0.70 (flow/bin/yosys runs this).

The PyPI wheel of pyosys is native Yosys as a Python module, without the `yosys` executable, and
Debian's Yosys 0.23 is too old for LibreLane 3. LibreLane's Classic flow calls Yosys three ways:

    yosys -y <script.py> [-Q] [-q|-qq] -- <args>   its pyosys steps (Yosys.JsonHeader, Yosys.Synthesis)
    yosys -p '<cmd>; <cmd>; ...'                    the linter's model preparation (common/toolbox.py)
    yosys -V                                        a version query

`-y` runs the script as `__main__` in this Python, with sys.argv = [script, <args>] (what Yosys
does with its embedded interpreter); `-p` runs the commands through `libyosys.run_pass` on one
design. Anything else (Tcl with `-c`, an interactive shell) is refused, naming what is supported.
"""
import runpy
import sys

USAGE = "supported: yosys -y <script.py> [-Q] [-q|-qq] -- <args> | yosys -p '<commands>' | yosys -V"


def main(argv):
    from pyosys import libyosys as ys
    if argv[:1] in (["-V"], ["--version"]):
        print(ys.Globals.yosys_version_str if hasattr(ys, "Globals") else "Yosys (pyosys)")
        return 0
    quiet = {"-Q", "-q", "-qq"}
    rest = list(argv)
    while rest and rest[0] in quiet:
        rest.pop(0)
    if rest[:1] == ["-y"] and len(rest) >= 2:
        script, args = rest[1], rest[2:]
        while args and args[0] in quiet:
            args.pop(0)
        if args[:1] == ["--"]:
            args = args[1:]
        sys.argv = [script] + args
        runpy.run_path(script, run_name="__main__")
        return 0
    if rest[:1] == ["-p"] and len(rest) == 2:
        d = ys.Design()
        ys.run_pass(rest[1], d)
        return 0
    print(f"yosys (modforge launcher on pyosys): unsupported arguments {argv!r}; {USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
