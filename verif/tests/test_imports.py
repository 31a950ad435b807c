"""The Python tree's import structure (issue 26): no import cycles among the verif/ and flow/
modules, no two top-level names that shadow each other, and every module imports cleanly.

Modules are found the way the code finds them, through sys.path roots: verif/ (the packages
modmul, reduction, primetools, ntt, intfft), verif/bench/ (the cocotb benches) and flow/, plus any
directory below them that holds .py files without an __init__.py (scripts that put their own
directory on sys.path), and scripts/ (tests import scala_tests from it).

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


def _roots():
    """sys.path roots, in the order the code puts them first: verif/, verif/bench/, flow/, the
    script directories below them, scripts/."""
    roots = [VERIF, VERIF / "bench", FLOW]
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


IMPORT_ALL = """
import importlib, json, sys, traceback
sys.path[:0] = ROOTS
failed = {}
for m in MODULES:
    try:
        importlib.import_module(m)
    except BaseException as e:
        failed[m] = traceback.format_exception_only(type(e), e)[-1].strip()
print(json.dumps(failed))
"""


def test_every_module_imports():
    """Every verif and flow module (not scripts/, not the tests) imports from the repository root,
    with verif/, verif/bench/ and flow/ (and the script directories) on sys.path as the code puts
    them. One fresh interpreter for all: nothing the test run imported before can hide an error."""
    modules, _ = discover()
    names = sorted(m for m, (f, _) in modules.items() if not f.is_relative_to(ROOT / "scripts")
                   and not f.name == "__main__.py")
    roots = [str(r) for r in _roots()]
    code = IMPORT_ALL.replace("ROOTS", repr(roots)).replace("MODULES", repr(names))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    failed = json.loads(run.stdout.strip().splitlines()[-1])
    assert not failed, "modules that do not import:\n  " + "\n  ".join(f"{m}: {e}" for m, e in failed.items())


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
