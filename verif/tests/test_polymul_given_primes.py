"""The streaming engine with the user's own limb primes (``polymul_<n>_<logq>_s<P>..._q<hash>`` with
``Generate --primes q0,q1,...``, make's ``PRIMES=``; docs/polymul.md, "Your own primes"): one engine through
the cocotb bench (verif/bench/polymul_stream_bench.py, every product checked against the independent oracle
mod Q), its manifest, and the generator's refusals, each asserting its message.

The engine: n = 64, P = 2, two primes = 1 mod 128 that are not the largest of their width, one of them
(1047041, 20 bits) narrower than the 21-bit limb (the widest prime's bits, the default with given primes).
The generator runs as a plain JVM on the generator's classpath (verif/registry.py keeps it per source hash):
the refusals cost a JVM start each, not a Mill start.
"""
import hashlib
import json
import re
import subprocess

import os

import pytest

# make test-long only (MODFORGE_POLYMUL_LONG=1): make test on a fresh clone took 15.1 min with this file in
# (reports/test_times.md, 2026-11-28), over its 15-minute limit (docs/testing.md, "Tiers").
pytestmark = pytest.mark.skipif(os.environ.get("MODFORGE_POLYMUL_LONG") != "1",
                                reason="make test-long (MODFORGE_POLYMUL_LONG=1): make test's 15-minute limit")

import registry
from polymul.stream import Engine
from runner import BUILD, ROOT, run_bench

OUT = BUILD / "polymul_given_primes_tests"
PRIMES = [2093953, 1047041]       # 21 and 20 bits, both = 1 mod 128 (2093953 serves n up to 64, 1047041 up to 256)
HASH = "624f1e4"                   # sha256("2093953,1047041")[:7]
DESIGN = f"polymul_64_40_s2_mpaper_q{HASH}"
GRAMMAR = "polymul_<n>_<logq>_s<P>[_w<w>]"


def _hash(primes):
    return hashlib.sha256(",".join(str(q) for q in primes).encode()).hexdigest()[:7]


_CLASSPATH = []


def _generate(*args, out=OUT):
    """The generator (`modforge.Generate`) on its classpath (asked of Mill once a session); the finished process."""
    if not _CLASSPATH:
        _CLASSPATH.append(registry._classpath(registry.fingerprint()))
    cp = _CLASSPATH[0]
    return subprocess.run(["java", "-cp", cp, "modforge.Generate", "--out", str(out), *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_hash_is_sha256_of_the_decimal_list():
    assert _hash(PRIMES) == HASH


@pytest.fixture(scope="session")
def generated():
    p = _generate("--primes", ",".join(map(str, PRIMES)), DESIGN)
    assert p.returncode == 0, p.stderr[-2000:]
    return OUT / DESIGN / "rtl" / f"{DESIGN}.v"


def test_manifest_has_the_given_primes(generated):
    """The manifest (and its registry entry) carry the given primes in their order, the engine's psi for
    each, and prime_class "given": the host helpers read them unchanged."""
    m = json.loads(generated.with_suffix(".json").read_text())
    assert [int(q) for q in m["primes"]] == PRIMES == [int(q) for q in m["registry"]["params"]["primes"]]
    assert m["prime_class"] == m["registry"]["params"]["prime_class"] == "given"
    assert (m["limb_bits"], m["limbs"], int(m["Q"])) == (21, 2, PRIMES[0] * PRIMES[1])
    for q, psi in zip(PRIMES, m["psi"]):
        assert pow(int(psi), 64, q) == q - 1, f"psi = {psi} is not a primitive 128th root of unity mod {q}"
    e = Engine.from_manifest(m)
    assert (e.n, e.lanes, e.limb_bits, e.primes, e.Q) == (64, 2, 21, tuple(PRIMES), PRIMES[0] * PRIMES[1])
    widths = {pt["name"]: pt["width"] for pt in m["ports"]}
    assert widths["in_a"] == 2 * 2 * 21


def test_bench_with_given_primes(generated):
    """Random, edge, throughput/latency, stall and reset products, each checked against the oracle mod Q."""
    log = OUT / DESIGN / "sim_rtl.log"
    run_bench(DESIGN, [generated], kind="rtl", test_module="polymul_stream_bench",
              manifest=generated.with_suffix(".json"), log_file=log)
    assert re.search(r"TESTS=\d+ PASS=\d+ FAIL=0", log.read_text()), f"no cocotb summary with FAIL=0 in {log}"


# ---- Refusals: (primes, name or None for the name of those primes, what the first line must say) ----
def _named(base, primes):
    return f"{base}_q{_hash(primes)}"


REFUSED = {
    "not prime": ([2093953, 1048577], "polymul_64_40_s2", "limb 1: q = 1048577 is not prime (17 divides it)"),
    # 1048897 = 65 mod 128: a prime, but Z_q has no 128th root of unity
    "not 1 mod 2n": ([2093953, 1048897], "polymul_64_40_s2",
                     "limb 1: q = 1048897 is not 1 mod 2n = 128 (it is 65), so Z_q has no primitive 128-th root of unity"),
    "wider than w": ([2093953, 1047041], "polymul_64_40_s2_w20",
                     "limb 0: q = 2093953 has 21 bits, wider than the 20-bit limb: use _w21"),
    "repeated": ([2093953, 2093953], "polymul_64_40_s2", "q = 2093953 is given twice"),
    "too few": ([2093953], "polymul_64_40_s2",
                "too few primes: the product of the 1 given has 21 bits, below 2^40"),
    "class and primes": ([2093953, 1047041], "polymul_64_40_s2_cproth",
                         "_cproth draws the primes from a class and given primes (_q<hash>) are your own: keep one"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_refusals(case):
    primes, base, problem = REFUSED[case]
    name = _named(base, primes)
    p = _generate("--primes", ",".join(map(str, primes)), name, out=OUT / "refused")
    assert p.returncode != 0, f"{name} with PRIMES={primes} was accepted"
    first = p.stderr.strip().splitlines()[0]
    assert first.startswith(f"error: '{name}': "), p.stderr
    assert problem in first, f"the error does not name the problem ({problem!r}):\n{p.stderr}"
    assert GRAMMAR in p.stderr and "make help" in p.stderr, p.stderr


def test_refuses_primes_not_1_mod_2n_saying_the_largest_n_served():
    """q = 1051649 = 1 + 2^10 * 1027 is 1 mod 1024 but not 1 mod 2048: it serves n up to 512, so not n = 2048."""
    primes = [1051649, 2093953]
    p = _generate("--primes", ",".join(map(str, primes)), _named("polymul_2048_40_s2", primes), out=OUT / "refused")
    assert p.returncode != 0
    first = p.stderr.strip().splitlines()[0]
    assert "limb 0: q = 1051649 is not 1 mod 2n = 4096 (it is 3073)" in first, p.stderr
    assert "it serves n up to 512" in first, p.stderr


@pytest.mark.parametrize("args,problem", [
    # a name of given primes, and no primes: say which list to pass
    ([DESIGN], f"_q{HASH} names a design of your own primes, and none were given: pass the primes whose hash is {HASH}"),
    # primes, and a name without _q<hash>: print the right name
    (["--primes", "2093953,1047041", "polymul_64_40_s2_mpaper"],
     f"PRIMES=2093953,1047041 given, but the name has no _q<hash>: the design of these primes is {DESIGN}"),
    # primes, and another hash: print the right name
    (["--primes", "2093953,1047041", "polymul_64_40_s2_mpaper_q1234567"],
     f"_q1234567 is not the hash of PRIMES=2093953,1047041: the design of these primes is {DESIGN}"),
    # the primes in another order are another list (the limbs' order is the ports' order)
    (["--primes", "1047041,2093953", DESIGN],
     f"the design of these primes is polymul_64_40_s2_mpaper_q{_hash([1047041, 2093953])}"),
    # PRIMES for a design that is not a streaming engine
    (["--primes", "2093953", "barrett_32"], "PRIMES (--primes) gives a streaming polymul engine's limb primes"),
    (["--primes", "2093953,x", DESIGN], "--primes (PRIMES=) needs primes in decimal separated by commas"),
])
def test_name_and_primes_must_agree(args, problem):
    p = _generate(*args, out=OUT / "refused")
    assert p.returncode != 0
    assert problem in p.stderr.strip().splitlines()[0], p.stderr


def test_registry_refuses_a_name_of_primes_it_was_not_given():
    """The registry (Generate --serve) has no primes: a _q<hash> name is refused with the same advice."""
    with pytest.raises(registry.RegistryError, match=f"pass the primes whose hash is {HASH}"):
        registry.describe(DESIGN)
