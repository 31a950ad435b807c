"""The streaming polymul engine's generated Verilog under Verilator, for engines too large for Icarus.

The (4096, 62) engine's Verilog is 192 MB: its twiddle tables are about 1.3 M one-bit constant wires,
and Icarus was still compiling after 15 CPU-minutes at 5.4 GB. cocotb 2.1 cannot drive Verilator
5.006 (its verilator.cpp needs VerilatorVpi calls added in Verilator 5.036), so here a small C++
harness (polymul_stream_vl.cpp) moves the beats, with the cocotb bench's timing, and Python checks
every result against :func:`polymul.stream.negacyclic_reference` (Python integers mod Q: no NTT, no
RNS), per limb and through the CRT, and the manifest's reset, latency and throughput promises. Ports
of any width: the beats go to the harness as hex text (packed and unpacked here by Engine.beats and
Engine.unbeat from the manifest's layout) and the harness moves them as 32-bit words, into a
Verilator VlWide when a port is wider than 64 bits.

The Verilog simulated is the generator's file as it is, with the OpenRAM macros' own behavioural
models. Verilator 5.006 refuses those models as they are (a blocking and a non-blocking write to
dout0/dout1), so the copy here (build/pdk_sim/verilator/) turns the `#(T_HOLD) dout = 32'bx` after
each rising edge into a non-blocking write; the `#` delays are dropped (--no-timing), so a read's data
still arrives at the falling edge and is sampled at the next rising edge, as under Icarus. Verilator has
two states: --x-assign unique and --x-initial unique with +verilator+rand+reset+2 make every X (an
unwritten word, dout between the edges, an unreset register) a random value, which the oracle catches.
"""
import hashlib
import random
import re
import resource
import shutil
import subprocess
import time
from pathlib import Path

from layout import BUILD
from polymul.stream import Engine, assert_product, negacyclic_reference

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "polymul_stream_vl.cpp"
VERILATOR_FLAGS = ["--cc", "--exe", "--no-timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-STMTDLY",
                   "--x-assign", "unique", "--x-initial", "unique", "--output-split", "20000", "--prefix", "Vtop"]


def verilator_macro_model(model: Path) -> Path:
    """A copy of an OpenRAM macro's model that Verilator 5.006 accepts (see the module's docstring),
    VERBOSE = 0 by default; in build/pdk_sim/verilator/, the PDK untouched."""
    text = model.read_text()
    out_text, n = re.subn(r"#\(T_HOLD\) (dout[01]) = (\d+'bx);", r"\1 <= \2;", text)
    if n != 2:
        raise RuntimeError(f"{model}: expected two `#(T_HOLD) doutN = ...'bx;` lines, found {n}")
    out_text, n = re.subn(r"parameter VERBOSE = 1 ;", "parameter VERBOSE = 0 ;", out_text)
    if n != 1:
        raise RuntimeError(f"{model}: no `parameter VERBOSE = 1 ;` line to turn off")
    out = BUILD / "pdk_sim" / "verilator" / model.name
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.exists() or out.read_text() != out_text:
        out.write_text(out_text)
    return out


def _digest(paths, extra) -> str:
    h = hashlib.sha256(repr(extra).encode())
    for p in paths:
        with open(p, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()


def _peak_child_gb() -> float:
    """The largest resident set of any child process waited for so far (this process's lifetime)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / (1 << 20)


def build(design: str, rtl: Path, models, build_dir: Path, log) -> Path:
    """Verilates `rtl` (top `design`) with the macro models and the harness into build_dir; reuses
    the binary when the sources and flags are unchanged (a stamp of their hash). Logs each step's wall
    time and the peak resident set of the children so far (verilator's, then the C++ compilers')."""
    sources = [rtl, *[verilator_macro_model(m) for m in models]]
    binary = build_dir / "Vtop"
    stamp = build_dir / "sources.sha256"
    digest = _digest([*sources, HARNESS], [design, VERILATOR_FLAGS])
    if binary.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        print(f"{design}: Verilator binary up to date ({binary})", file=log, flush=True)
        return binary
    if build_dir.exists():
        shutil.rmtree(build_dir)
    build_dir.mkdir(parents=True)
    verilator = shutil.which("verilator")
    if verilator is None:
        raise FileNotFoundError("verilator is not on PATH (the (4096, 62) product needs Verilator 5)")
    cmd = [verilator, *VERILATOR_FLAGS, "-Mdir", str(build_dir), "--top-module", design, "-o", "Vtop",
           str(HARNESS), *map(str, sources)]
    make = ["make", "-j", "2", "-C", str(build_dir), "-f", "Vtop.mk", "OPT_FAST=-O1", "OPT_SLOW=-O0"]
    for step in (cmd, make):
        print(" ".join(step), file=log, flush=True)
        t0 = time.monotonic()
        if subprocess.run(step, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
            raise RuntimeError(f"{design}: `{step[0]}` failed; see {log.name}")
        print(f"{design}: {step[0]}: {time.monotonic() - t0:.0f} s; peak child RSS so far {_peak_child_gb():.2f} GB",
              file=log, flush=True)
    stamp.write_text(digest + "\n")
    return binary


def edge_operands(e: Engine):
    """Two edge products in limbs: (Q - 1 everywhere) squared, and x^(n-1) times Q - 1 everywhere (every
    residue q_l - 1; the one-hot's product is the all-(q_l - 1) operand rotated negacyclically)."""
    top = [[q - 1] * e.n for q in e.primes]
    one_hot = e.to_rns([int(i == e.n - 1) for i in range(e.n)])
    return [(top, top), (one_hot, top)]


def run_products(manifest: dict, rtl: Path, models, build_dir: Path, ops: int = 1, seed: int = 1,
                 in_stall: float = 0.0, out_stall: float = 0.0, corrupt=None, extra=()):
    """Builds, streams `ops` random products and then the operand pairs `extra` (limbs, as
    :func:`edge_operands`), back to back when there are no stalls, and checks them. `corrupt(want)`:
    changes the oracle's expected products (the test's self-check that a wrong result is caught).
    Returns a summary dict; raises AssertionError on any mismatch."""
    e = Engine.from_manifest(manifest)
    design, f = manifest["design"], e.frame
    build_dir.mkdir(parents=True, exist_ok=True)
    log_path = build_dir.parent / "sim_verilator.log"
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        binary = build(design, rtl, models, build_dir / "obj", log)
    build_s = time.monotonic() - t0
    rng = random.Random(seed)
    products = [tuple(e.to_rns([rng.randrange(e.Q) for _ in range(e.n)]) for _ in range(2)) for _ in range(ops)]
    products += [(a, b) for a, b in extra]
    ops = len(products)
    stim = build_dir / "stimulus.txt"
    with open(stim, "w") as s:
        for a, b in products:
            for wa, wb in zip(e.beats(a), e.beats(b)):
                s.write(f"{wa:x} {wb:x}\n")
    rec_path = build_dir / "record.txt"
    budget = int(4 * (ops * f + manifest["latency_cycles"] + 2 * f) / ((1 - in_stall) * (1 - out_stall))) + 200
    cmd = [str(binary), str(stim), str(rec_path), str(manifest["reset_cycles"]), str(in_stall), str(out_stall),
           str(seed), str(budget), str(e.width), f"+verilator+seed+{seed}", "+verilator+rand+reset+2"]
    t0 = time.monotonic()
    with open(log_path, "a") as log:
        print(" ".join(cmd), file=log, flush=True)
        p = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
        run_s = time.monotonic() - t0
        print(f"{design}: ran {ops} products in {run_s:.1f} s", file=log, flush=True)
    text = log_path.read_text()
    assert p.returncode == 0, f"{design}: the Verilator run failed (exit {p.returncode}); see {log_path}"
    assert "WARNING: Writing and reading" not in text, f"{design}: a cycle read and wrote one SRAM address"

    accepted, first_seen, words, not_ready, resets, summary = [], [], [], [], None, None
    for line in rec_path.read_text().splitlines():
        k, *v = line.split()
        if k == "I":
            accepted.append(int(v[0]))
        elif k == "O":
            first_seen.append(int(v[0]))
            words.append(int(v[1], 16))
        elif k == "N":
            not_ready.append(int(v[0]))
        elif k == "R":
            resets = [int(x) for x in v]
        elif k == "S":
            summary = [int(x) for x in v]
    assert summary is not None, f"{design}: the harness wrote no summary ({rec_path})"
    rc = manifest["reset_cycles"]
    assert resets == [0] * rc + [1], (f"{design}: in_ready after 0..{rc} edges with reset 0: {resets}, "
                                      f"the manifest's reset_cycles is {rc}")
    assert len(words) == ops * f and len(accepted) == ops * f, f"{design}: {len(words)} beats out, {len(accepted)} in"
    assert not summary[3], f"{design}: out_valid after every product had come out (a beat that was never put in)"

    wants = [negacyclic_reference(e.from_rns(a), e.from_rns(b), e.n, e.Q) for a, b in products]
    if corrupt:
        corrupt(wants)
    for p, want in enumerate(wants):
        assert_product(e, e.unbeat(words[p * f:(p + 1) * f]), want, f"{design}: product {p}", f)
        if not (in_stall or out_stall):
            lat = first_seen[p * f] - accepted[p * f]
            assert lat == manifest["latency_cycles"], (
                f"{design}: product {p}: {lat} edges from the first input beat to the first output beat, the "
                f"manifest's latency_cycles is {manifest['latency_cycles']}")
    if not (in_stall or out_stall):
        assert not not_ready, f"{design}: in_ready low with in_valid high at edges {not_ready[:8]}"
        assert all(y - x == 1 for x, y in zip(accepted, accepted[1:])), f"{design}: input beats not back to back"
    return {"cycles": summary[0], "in_stalls": summary[1], "out_stalls": summary[2], "log": log_path,
            "products": ops, "build_s": build_s, "run_s": run_s}
