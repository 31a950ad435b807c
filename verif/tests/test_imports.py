"""The Python tree's import structure (issues 26, 29): no import cycles among the verif/ and flow/
modules, no two top-level names that shadow each other, every module imports cleanly with nothing
but the project's editable install, and no module edits sys.path.

Modules are found the way Python finds them: the editable install (pyproject.toml, `make setup`)
puts three roots on sys.path, verif/ (the packages modmul, reduction, primetools, ntt, intfft and
registry), verif/bench/ (the cocotb benches) and flow/ (the engine, reports/, layout); a script run
as `python <dir>/<x>.py` also has its own directory first, which matters for the directories below
them that hold .py files without an __init__.py (flow/experiments/) and for scripts/.

Cycles: every import statement counts, at module level or inside a function (a late import still
makes the two modules depend on each other). Importing ``a.b.c`` also runs the __init__ of ``a``
and ``a.b``, so those count too, except packages the importer is itself inside.

Run it alone as a checker: ``.venv/bin/python verif/tests/test_imports.py`` prints the graph's
cycles and shadowed names (exit status 1 if any).
"""
import ast
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VERIF, FLOW = ROOT / "verif", ROOT / "flow"
SKIP_DIRS = {"__pycache__", "tests", "designs"}


INSTALLED = [VERIF, VERIF / "bench", FLOW]  # pyproject.toml's [tool.hatch.build] dev-mode-dirs


def _roots():
    """sys.path roots: the three of the editable install (verif/, verif/bench/, flow/), then the
    script directories below them and scripts/ (each first on sys.path when its script runs)."""
    roots = list(INSTALLED)
    for top in (VERIF, FLOW):
        for d in sorted(p for p in top.rglob("*") if p.is_dir()):
            if (SKIP_DIRS & set(d.relative_to(ROOT).parts) or d in roots or (d / "__init__.py").exists()
                    or any((a / "__init__.py").exists() for a in d.parents if a != ROOT)):
                continue
            if any(d.glob("*.py")):
                roots.append(d)
    return roots + [ROOT / "scripts"]


def discover():
    """{module name: (file, is_package)}, and {top-level name: [roots that define it]}."""
    modules, tops = {}, defaultdict(list)

    def walk_package(d: Path, name: str):
        modules[name] = (d / "__init__.py", True)
        for f in sorted(d.iterdir()):
            if f.is_dir() and (f / "__init__.py").exists() and f.name != "__pycache__":
                walk_package(f, f"{name}.{f.name}")
            elif f.suffix == ".py" and f.name != "__init__.py":
                modules[f"{name}.{f.stem}"] = (f, False)

    for root in _roots():
        if not root.is_dir():
            continue
        for f in sorted(root.iterdir()):
            if f.is_dir() and (f / "__init__.py").exists():
                tops[f.name].append(root)
                walk_package(f, f.name)
            elif f.suffix == ".py" and f.name != "conftest.py":
                tops[f.stem].append(root)
                modules.setdefault(f.stem, (f, False))
    return modules, tops


def _resolve_relative(importer: str, is_pkg: bool, level: int, module) -> str:
    base = importer.split(".") if is_pkg else importer.split(".")[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def graph(modules):
    """{importer: {imported module}}, among the discovered modules only."""
    edges = defaultdict(set)
    for name, (path, is_pkg) in modules.items():
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2)}  # itself and its packages
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve_relative(name, is_pkg, node.level, node.module) if node.level else node.module
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            for t in targets:
                parts = t.split(".")
                for i in range(1, len(parts) + 1):  # a.b.c runs a/__init__, a/b/__init__, then a.b.c
                    dep = ".".join(parts[:i])
                    if dep in modules and dep not in own:
                        edges[name].add(dep)
    return edges


def cycles(edges):
    """The strongly connected components with more than one module (Tarjan), each as a sorted list."""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def _path_in(edges, comp):
    """One cycle through a component, as 'a -> b -> ... -> a', for the message."""
    start, members = comp[0], set(comp)
    prev, todo = {start: None}, [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(edges.get(v, ())):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return " -> ".join(reversed(path)) + f" -> {start}"
            if w in members and w not in prev:
                prev[w] = v
                todo.append(w)
    return ", ".join(comp)


def shadowed(tops):
    """Top-level names defined in two roots, or that shadow the standard library."""
    std = getattr(sys, "stdlib_module_names", set())
    return sorted(f"{n}: " + ", ".join(str(r.relative_to(ROOT)) for r in roots)
                  + (" (and the standard library)" if n in std else "")
                  for n, roots in tops.items() if len(roots) > 1 or n in std)


def test_no_import_cycles():
    modules, _ = discover()
    edges = graph(modules)
    assert {"modmul", "reduction", "primetools", "ntt", "intfft"} <= set(modules), "verif/ packages missing"
    found = [_path_in(edges, c) for c in cycles(edges)]
    assert not found, "import cycles:\n  " + "\n  ".join(found)


def test_no_shadowed_names():
    _, tops = discover()
    assert not shadowed(tops), "top-level names defined twice:\n  " + "\n  ".join(shadowed(tops))


def fresh(code: str, tmp_path) -> str:
    """Runs code in a fresh interpreter of this environment, from a folder outside the repository
    and without PYTHONPATH: only the editable install's .pth puts the project on sys.path. Nothing
    the test run imported before can hide an error. Returns the last line of its output."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.strip().splitlines()[-1]


def test_the_install_puts_the_roots_on_sys_path(tmp_path):
    """`make setup` installed the project in editable mode: exactly verif/, verif/bench/ and flow/ of
    this tree are on sys.path (not scripts/, not the repository root)."""
    paths = json.loads(fresh("import json, sys; print(json.dumps(sys.path))", tmp_path))
    ours = [Path(p).resolve() for p in paths if p]
    ours = [p for p in ours if p.is_relative_to(ROOT) and not p.is_relative_to(ROOT / ".venv")]
    assert sorted(ours) == sorted(INSTALLED), (f"sys.path entries in this tree: {[str(p) for p in ours]}, want "
                               f"{[str(p) for p in INSTALLED]}. Fix: make setup (pip install -e . into .venv)")


IMPORT_ALL = """
import importlib, importlib.util, json, sys, traceback
failed = {}
for m, f in MODULES:
    try:
        if f is None:
            importlib.import_module(m)
        else:  # a script directory's module: loaded as its script runs, from its file
            spec = importlib.util.spec_from_file_location(m, f)
            spec.loader.exec_module(importlib.util.module_from_spec(spec))
    except BaseException as e:
        failed[m] = traceback.format_exception_only(type(e), e)[-1].strip()
print(json.dumps(failed))
"""


def test_every_module_imports(tmp_path):
    """Every verif and flow module (not scripts/, not the tests) imports in a fresh interpreter
    outside the repository, with nothing but the editable install on sys.path: by name where it is
    below an installed root, from its file where it is a script directory's (flow/experiments/)."""
    modules, _ = discover()
    installed = {str(r) for r in INSTALLED}
    items = []
    for m, (f, _) in sorted(modules.items()):
        if f.is_relative_to(ROOT / "scripts") or f.name == "__main__.py":
            continue
        top = modules[m.split(".")[0]][0]
        top_root = top.parent.parent if top.name == "__init__.py" else top.parent
        items.append((m, None if str(top_root) in installed else str(f)))
    failed = json.loads(fresh(IMPORT_ALL.replace("MODULES", repr(items)), tmp_path))
    assert not failed, "modules that do not import:\n  " + "\n  ".join(f"{m}: {e}" for m, e in failed.items())


def path_edits():
    """Every statement in flow/, verif/ and scripts/ that changes sys.path (a call of one of its
    methods, an assignment to it or to a slice of it), as 'file:line'."""
    def is_sys_path(n):
        return (isinstance(n, ast.Attribute) and n.attr == "path" and isinstance(n.value, ast.Name)
                and n.value.id == "sys")

    found = []
    for top in ("flow", "verif", "scripts"):
        for f in sorted((ROOT / top).rglob("*.py")):
            if "__pycache__" in f.parts:
                continue
            for n in ast.walk(ast.parse(f.read_text(), str(f))):
                targets = []
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                    targets = [n.func.value]
                elif isinstance(n, (ast.Assign, ast.AugAssign)):
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    targets = [t.value if isinstance(t, ast.Subscript) else t for t in targets]
                if any(is_sys_path(t) for t in targets):
                    found.append(f"{f.relative_to(ROOT)}:{n.lineno}")
    return found


def test_no_module_edits_sys_path():
    """The editable install is the one place the roots are put on sys.path: no module inserts,
    appends or assigns to it (issue 29)."""
    found = path_edits()
    assert not found, "sys.path changed at:\n  " + "\n  ".join(found) + "\nFix: rely on the editable install"


if __name__ == "__main__":
    mods, tops = discover()
    g = graph(mods)
    print(f"{len(mods)} modules, {sum(map(len, g.values()))} import edges among them, roots: "
          + ", ".join(str(r.relative_to(ROOT)) for r in _roots()))
    cyc = [f"{_path_in(g, c)}   (component of {len(c)}: {', '.join(c)})" for c in cycles(g)]
    print("cycles:" + ("".join(f"\n  {c}" for c in cyc) if cyc else " none"))
    sh = shadowed(tops)
    print("shadowed top-level names:" + ("".join(f"\n  {s}" for s in sh) if sh else " none"))
    sys.exit(1 if cyc or sh else 0)


def test_report_scripts_shadow_no_installed_module():
    """flow/reports/*.py run as scripts put flow/reports/ first on sys.path: a module there named like
    an installed top-level module (verif/, verif/bench/, flow/) would hide it from that run
    (verif/bench/common.py was hidden from polymul_table.py by flow/reports/common.py)."""
    roots = [ROOT / "verif", ROOT / "verif" / "bench", ROOT / "flow"]
    installed = {p.stem for r in roots for p in r.glob("*.py")} | {p.name for r in roots for p in r.iterdir() if (p / "__init__.py").exists()}
    clash = sorted({p.stem for p in (ROOT / "flow" / "reports").glob("*.py")} & installed)
    assert not clash, f"flow/reports/ modules named like installed ones: {clash}"
