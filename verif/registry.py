"""What a design name means, asked of the generator: the one Python module that reads a name.

The generator's registry (hw/src/main/scala/modforge/RegistryEntry.scala) defines every family's
names. Python never takes a name apart: it asks the generator (`Generate --serve`, one JVM per
process, a name per line) and keeps the answers in build/registry/entries.json, keyed by a hash of the
generator's sources, so a test session or a report asks once (docs/registry.md). A manifest carries
the same entry as its `registry` member; `remember()` takes it from there without a generator call
(the cocotb benches, which run inside the simulator, have their design's manifest).

An entry: {"design", "family", "title", "params": {...}, "base", "bench", "gls", "precompute", "model"}.
A name the generator refuses raises RegistryError with the generator's own message.
"""
import hashlib
import json
import os
import subprocess
from pathlib import Path

import layout
from layout import BUILD

ROOT = Path(__file__).resolve().parents[1]
CACHE = BUILD / "registry" / "entries.json"

_memo = {}


class RegistryError(ValueError):
    """The generator refused the name; the message is the generator's."""


def fingerprint() -> str:
    """Hash of what decides a name's meaning: the generator's sources, build.sc and pdk_config/."""
    h = hashlib.sha256()
    files = sorted((ROOT / "hw" / "src" / "main").rglob("*.scala")) + [ROOT / "build.sc"] + \
        sorted((ROOT / "pdk_config").glob("*.json"))
    for f in files:
        h.update(str(f.relative_to(ROOT)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def _load_cache(fp: str) -> dict:
    try:
        c = json.loads(CACHE.read_text())
    except (OSError, ValueError):
        return {}
    return c.get("entries", {}) if c.get("fingerprint") == fp else {}


def _save_cache(fp: str, entries: dict) -> None:
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    tmp = CACHE.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps({"fingerprint": fp, "entries": entries}, sort_keys=True))
    tmp.replace(CACHE)


def _classpath(fp: str) -> str:
    """The generator's run classpath (asked of Mill once per source hash, kept in build/registry/):
    later questions start the JVM directly, so they need no Mill and can run beside a Mill build."""
    f = CACHE.parent / "classpath.json"
    try:
        c = json.loads(f.read_text())
        if c["fingerprint"] == fp and all(Path(x).exists() for x in c["classpath"]):
            return os.pathsep.join(c["classpath"])
    except (OSError, ValueError, KeyError):
        pass
    p = subprocess.run([str(ROOT / "mill"), "-i", "--disable-ticker", "show", "hw.runClasspath"], cwd=ROOT,
                       capture_output=True, text=True)
    try:
        cp = [x.split(":", 3)[-1] if x.startswith("qref:") or x.startswith("ref:") else x for x in json.loads(p.stdout)]
    except ValueError:
        tail = "\n".join((p.stdout + p.stderr).strip().splitlines()[-5:])
        raise RuntimeError(f"registry: Mill gave no classpath for the generator (exit {p.returncode}):\n{tail}\n"
                           "Fix: run `./mill -i hw.compile` and read its errors")
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(json.dumps({"fingerprint": fp, "classpath": cp}))
    return os.pathsep.join(cp)


_server = None


def _ask_generator(names, fp: str) -> dict:
    """Answers from one long-lived generator JVM per process (`Generate --serve`: a name per line in,
    an entry per line out), so a test session that meets names one at a time starts Java once."""
    global _server
    if _server is None or _server[0] != fp or _server[1].poll() is not None:
        if _server is not None:
            _server[1].kill()
        proc = subprocess.Popen(["java", "-cp", _classpath(fp), "modforge.Generate", "--serve"], cwd=ROOT,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        _server = (fp, proc)
    proc = _server[1]
    answers = {}
    try:
        proc.stdin.write("".join(n.replace("\n", " ") + "\n" for n in names))
        proc.stdin.flush()
        for n in names:
            line = proc.stdout.readline()
            while line and not line.startswith("@@"):  # anything else the JVM prints
                line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"registry: the generator stopped before answering for '{n}' (exit {proc.poll()}). "
                                   "Fix: run `./mill -i hw.compile` and read its errors")
            answers[n] = json.loads(line[2:])
    except BrokenPipeError:
        raise RuntimeError("registry: the generator JVM did not start. Fix: run `./mill -i hw.compile` and read its errors")
    return answers


def describe_many(names) -> dict:
    """Entries (or {"error": message}) of many names, with at most one generator call."""
    names = list(dict.fromkeys(names))
    missing = [n for n in names if n not in _memo]
    if missing:
        fp = fingerprint()
        cached = _load_cache(fp)
        _memo.update({n: cached[n] for n in missing if n in cached})
        ask = [n for n in missing if n not in cached]
        if ask:
            answers = _ask_generator(ask, fp)
            _memo.update(answers)
            _save_cache(fp, {**_load_cache(fp), **answers})
    return {n: _memo[n] for n in names}


def describe(name: str) -> dict:
    """The entry of one name; RegistryError with the generator's message if it refuses it."""
    if not isinstance(name, str):
        raise RegistryError(f"a design name is a string, got {type(name).__name__} {name!r}")
    e = describe_many([name])[name]
    if "error" in e:
        raise RegistryError(e["error"])
    return e


def remember(entry: dict) -> dict:
    """Takes an entry the generator wrote (a manifest's `registry` member) as the name's meaning."""
    _memo[entry["design"]] = entry
    return entry


def index() -> dict:
    """build/designs.json: the table lists, every family's grammar line and title (`make rtl-all`
    or `Generate --index` writes it). Rewritten when the generator's sources changed since it was
    written (its fingerprint in build/registry/index.fingerprint), so a new family's grammar shows."""
    p = layout.index()
    stamp = CACHE.parent / "index.fingerprint"
    fp = fingerprint()
    if not p.exists() or not stamp.exists() or stamp.read_text() != fp:
        r = subprocess.run(["java", "-cp", _classpath(fp), "modforge.Generate", "--out", str(BUILD), "--index"],
                           cwd=ROOT, capture_output=True, text=True)
        if r.returncode == 0 and p.exists():
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(fp)
    if not p.exists():
        raise FileNotFoundError(f"{p} is missing. Fix: make rtl-all (or ./mill -i hw.runMain modforge.Generate --index)")
    return json.loads(p.read_text())


def prefetch() -> int:
    """Asks the generator once for the names the tests and reports use most: the index's lists and
    every width of the paper's three families and of the bare product (`make test` runs it first, so
    that the two test chains find their answers in the cache)."""
    idx = index()
    lists = [n for key, v in idx.items() if isinstance(v, list) and all(isinstance(x, str) for x in v)
             and key not in ("families",) for n in v]
    widths = range(idx["min_k"], idx["max_k"] + 1)
    names = lists + [f"{f}_{k}" for f in idx["families"] + ["mul"] for k in widths]
    return len(describe_many(names))


def grammar_lines() -> list:
    """Every family's one-line grammar, as the generator defines it (`make help`)."""
    g = index()["grammar"]
    return [f"  {fam + ':':<11}{line}" for fam, line in g.items()]


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--prefetch"]:
        print(f"registry: {prefetch()} names described (build/registry/entries.json)")
    elif sys.argv[1:] == ["--grammar"]:
        print("\n".join(grammar_lines()))
    else:
        sys.exit("usage: python verif/registry.py --prefetch | --grammar\n"
                 "  --prefetch  fills build/registry/ for the test chains; --grammar  prints every family's name grammar")
