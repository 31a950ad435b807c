"""The polymul_<n>_<logq> designs (docs/polymul.md): the registry
against the SSA paper's Table I (data/papers/millar.toml, written from its text), q and psi against an independent search
(verif/ntt/millar_tables.py: its own prime search and root finder, not the generator's), the
refusals, and the cycle promise against the ideal. `make test` generates polymul_1024_19 and writes
the index build/designs.json; the cocotb runs of polymul tiles are in test_ntt_sram.py (make test-long).
"""
import json
import subprocess
from pathlib import Path

import pytest

from sympy import isprime as is_prime  # an independent primality test

import layout
import registry
from ntt import millar_tables as mt

ROOT = Path(__file__).resolve().parents[2]


def index():
    f = layout.index()
    if not f.exists():
        pytest.skip("build/designs.json missing: make rtl-all")
    return json.loads(f.read_text())


def test_registry_is_table1():
    sets = mt.paper_sets()
    assert len(sets) == 18
    assert index()["polymul"] == [s.name for s in sets if s.logq <= 512]
    assert [s.name for s in sets if s.logq > 512] == ["polymul_32768_616", "polymul_32768_886"]


@pytest.mark.parametrize("design", ["polymul_1024_19"])
def test_manifest_q_psi(design):
    f = layout.manifest(design)
    if not f.exists():
        pytest.skip(f"{design} not generated: make rtl DESIGN={design}")
    m = json.loads(f.read_text())
    s = next(x for x in mt.paper_sets() if x.name == design)
    assert (int(m["q"]), int(m["psi"])) == (s.q, s.psi)
    assert (m["n"], m["k"], m["p"], m["arrangement"], m["twiddles"], m["storage"]) == (s.n, s.logq, 2, "barrett", "ram", "sram")
    assert m["polymul"] == {"n": s.n, "logq": s.logq} and m["base"] == f"ntt_{s.n}_{s.logq}_p2_barrett_ram_sram"
    # q: prime, 1 mod 2n, below 2^logq, and no larger such prime (checked by stepping, not by the search)
    q, n = s.q, s.n
    assert is_prime(q) and q % (2 * n) == 1 and q < 2 ** s.logq
    assert not any(is_prime(c) for c in range(q + 2 * n, 2 ** s.logq, 2 * n))
    assert pow(s.psi, n, q) == q - 1


def test_cycles_near_ideal():
    """At most 1.1x the ideal (3 (N/2) log2 N + N) / P at N >= 1024, from the bench's formula, which
    the cocotb runs check against the simulation; and the manifest promises the same."""
    from ntt_bench import INTT, NTT, PWMUL, expected_cycles
    for s in mt.paper_sets():
        for p in (1, 2):
            c = {op: expected_cycles(op, s.n, p, "barrett", "sram") for op in (NTT, INTT, PWMUL)}
            prod = 2 * c[NTT] + c[PWMUL] + c[INTT]
            ideal = (3 * (s.n // 2) * (s.n.bit_length() - 1) + s.n) / p
            assert prod <= 1.1 * ideal, (s.name, p, prod, ideal)
    f = layout.manifest("polymul_1024_19")
    if f.exists():
        m = json.loads(f.read_text())
        assert m["cycles"]["NTT"] == expected_cycles(NTT, 1024, 2, "barrett", "sram")


REFUSED = [
    ("polymul_32768_616", "exceeds the generators' largest coefficient width"),
    # (n, log q) outside Table I is the streaming engine's name (docs/polymul.md): its n must be a power of two.
    ("polymul_1000_19", "n must be a power of two from 16 to 32768"),
    ("polymul_1024_19_p64", "P = 64 butterfly units is not supported"),
]


# The generator's own message for each name, through the registry's one generator JVM (verif/registry.py): a
# Generate call per name cost make test 38 s of Java start-ups (2026-11-30); the command line is checked once, below.
@pytest.mark.parametrize("name, words", REFUSED)
def test_refused(name, words):
    with pytest.raises(registry.RegistryError) as e:
        registry.describe(name)
    assert words in str(e.value), str(e.value)


def test_refused_on_the_command_line(tmp_path):
    """Generate refuses a run with any refused name: it exits non-zero, names one of them with its reason, and writes
    nothing, not even the designs it accepts."""
    names = [n for n, _ in REFUSED]
    p = subprocess.run(["./mill", "-i", "hw.runMain", "modforge.Generate", "--out", str(tmp_path), "polymul_16_20_s1", *names],
                       cwd=ROOT, capture_output=True, text=True)
    out = p.stdout + p.stderr
    assert p.returncode != 0 and any(f"error: '{n}'" in out and w in out for n, w in REFUSED), out[-2000:]
    assert not any(tmp_path.iterdir()), sorted(x.name for x in tmp_path.iterdir())
