"""The streaming RNS polynomial multiplier (``polymul_<n>_<logq>_s<P>[_w<w>]``): the cocotb bench
(verif/bench/polymul_stream_bench.py) on a fast set of engines, the host helpers and the oracle
(verif/polymul/stream.py), and the generator's refusals of malformed names.

The engines are generated here, in one generator call, into build/polymul_stream_tests/<design>/.
The set covers P = 1, 2, 4 and 8, one limb and two or three, a spatial-only engine (P = n/2: every
stage's pairs lie in one beat), the default options (`polymul_16_20`: P = 4, the default limb width)
and a narrow explicit limb width (`_w17`, three limbs).
"""
import json
import os
import random
import re
import subprocess

import pytest

import registry
from polymul.stream import Engine, negacyclic_kronecker, negacyclic_reference, negacyclic_schoolbook
from primetools.proth import is_proth, proth_l_primes
from pdk import FlowError, find_pdk, sram_views
from polymul_stream_verilator import edge_operands, run_products
from runner import BUILD, ROOT, run_bench

OUT = BUILD / "polymul_stream_tests"

# design: (n, P, L) as the test expects them (checked against the manifest). The paper's multipliers
# (`_mpaper`) except in one engine: the default (`fast`) multipliers' explicit product trees make
# Icarus about 20 times slower (polymul_16_20_s1: 253 s for the five tests on a loaded machine), and
# the schedule around them is the same code. make test runs that engine's edge polynomials only.
CASES = {
    "polymul_16_20_s8_mpaper": (16, 8, 1),      # P = n/2: spatial stages only, 2 beats a product
    "polymul_16_20_mpaper": (16, 4, 1),         # the default lanes and limb width (not a Table I set): P = 4
    "polymul_32_40_s4_mpaper": (32, 4, 2),      # two limbs
    "polymul_32_40_s2_w17_mpaper": (32, 2, 3),  # an explicit narrow limb: three limbs of 17 bits
    "polymul_64_30_s2_mpaper": (64, 2, 1),      # P = 2, lane-pair and delay-line stages
    "polymul_32_40_s4_cproth2l_mpaper": (32, 4, 2),  # limbs of a prime class (Proth-2l: 1179649, 1146881)
}
# The default (fast) multipliers: edge polynomials in make test, every test in make test-long.
FAST_MUL = {"polymul_16_20_s1": (16, 1, 1)}      # P = 1: every stage a delay line, one limb
LONG = {
    "polymul_128_50_s1_mpaper": (128, 1, 2),    # P = 1 with two limbs
    "polymul_256_60_s4_mpaper": (256, 4, 2),
}
# Delay lines of 256 words and more in SKY130 macros (the macros' own behavioural models): the stalls
# test; make test-long adds one full (1024, 19) product and one (4096, 62) product (random_products,
# MODFORGE_POLYMUL_OPS=1 there).
MACRO_CASES = {"polymul_512_20_s1_mpaper": (512, 1, 1)}
LONG_PRODUCTS = {"polymul_1024_19_s4_mpaper": (1024, 4, 1), "polymul_4096_62_s1_w32_mpaper": (4096, 1, 2)}
# Too large for Icarus (192 MB of Verilog, its twiddle tables as ~1.3 M one-bit constant wires: Icarus was
# still compiling after 15 CPU-minutes at 5.4 GB): the same Verilog and macro models under Verilator, a C++
# harness moving the beats and the same Python oracle (verif/bench/polymul_stream_verilator.py).
VERILATOR_PRODUCTS = {"polymul_4096_62_s1_w32_mpaper"}
# The measured winners (docs/polymul.md), with their default (fast) multipliers as synthesised, in make
# test-long: full products under Verilator (ports of 160, 80, 144 and 64 bits), generated here like the rest.
WINNERS = {
    "polymul_1024_19_s8_w20_cproth3l": (1024, 8, 1),
    "polymul_1024_19_s8": (1024, 8, 1),
    "polymul_1024_19_s4": (1024, 4, 1),
    "polymul_2048_33_s4": (2048, 4, 2),
    "polymul_4096_62_s1_w32": (4096, 1, 2),
}
IS_LONG = os.environ.get("MODFORGE_POLYMUL_LONG") == "1"
if IS_LONG:
    CASES.update(LONG)
ALL = {**CASES, **FAST_MUL, **MACRO_CASES, **(LONG_PRODUCTS if IS_LONG else {}), **(WINNERS if IS_LONG else {})}


def manifest_file(design):
    return OUT / design / "rtl" / f"{design}.json"


@pytest.fixture(scope="session")
def generated():
    """All engines in one generator run."""
    subprocess.run(["./mill", "-i", "hw.runMain", "modforge.Generate", "--out", str(OUT), *ALL], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    return True


@pytest.mark.parametrize("design", CASES)
def test_polymul_stream(generated, design):
    rtl = OUT / design / "rtl" / f"{design}.v"
    run_bench(design, [rtl], kind="rtl", test_module="polymul_stream_bench", manifest=rtl.with_suffix(".json"))


@pytest.mark.parametrize("design", FAST_MUL)
def test_polymul_stream_fast_multipliers(generated, design):
    rtl = OUT / design / "rtl" / f"{design}.v"
    run_bench(design, [rtl], kind="rtl", test_module="polymul_stream_bench", manifest=rtl.with_suffix(".json"),
              testcase=None if IS_LONG else "edge_products")


@pytest.mark.parametrize("design", [*MACRO_CASES, *(LONG_PRODUCTS if IS_LONG else {})])
def test_polymul_stream_macros(generated, design):
    m = json.loads(manifest_file(design).read_text())
    long_product = design in LONG_PRODUCTS
    # A long product's engine may have no line long enough for macros (n/P = 256 at (1024, 19), P = 4).
    assert long_product or (m["sram"] or {}).get("macro_count", 0) > 0, f"{design}: no delay line in macros"
    try:
        models = [sram_views(find_pdk(), x).verilog for x in (m["sram"] or {}).get("macro_models", [])]
    except FlowError as e:
        pytest.fail(str(e))
    rtl = OUT / design / "rtl" / f"{design}.v"
    if design in VERILATOR_PRODUCTS:
        # One product back to back (reset, latency and results), then two with stalls on both streams
        # (under a second once built: the build is the cost, about 7 minutes and 9.7 GB of Verilator).
        ops, seed = int(os.environ.get("MODFORGE_POLYMUL_OPS", "1")), int(os.environ.get("MODFORGE_SEED", "1"))
        run_products(m, rtl, models, OUT / design / "sim_verilator", ops=ops, seed=seed)
        run_products(m, rtl, models, OUT / design / "sim_verilator", ops=2, seed=seed + 1, in_stall=0.3, out_stall=0.3)
        return
    log = OUT / design / "sim_rtl.log"
    run_bench(design, [rtl, *models], kind="rtl", test_module="polymul_stream_bench", manifest=rtl.with_suffix(".json"),
              log_file=log, testcase="random_products" if long_product else "stalls",
              extra_env={"MODFORGE_POLYMUL_OPS": "1"} if long_product else None)
    text = log.read_text()
    assert "WARNING: Writing and reading" not in text, f"{design}: a cycle read and wrote one SRAM address"
    assert re.search(r"TESTS=\d+ PASS=\d+ FAIL=0", text), f"{design}: no cocotb summary with FAIL=0 in {log}"


@pytest.mark.skipif(not IS_LONG, reason="make test-long (MODFORGE_POLYMUL_LONG=1): minutes of Verilator build each")
@pytest.mark.parametrize("design", WINNERS)
def test_polymul_stream_winners(generated, design):
    """A winner's full products under Verilator (verif/bench/polymul_stream_verilator.py): one random
    product and two edge products back to back (reset, latency, throughput and results), then two random
    products with 30% stalls on both streams. The build is the cost (docs/testing.md); the runs take seconds."""
    m = json.loads(manifest_file(design).read_text())
    try:
        models = [sram_views(find_pdk(), x).verilog for x in (m["sram"] or {}).get("macro_models", [])]
    except FlowError as e:
        pytest.fail(str(e))
    rtl = OUT / design / "rtl" / f"{design}.v"
    seed = int(os.environ.get("MODFORGE_SEED", "1"))
    run_products(m, rtl, models, OUT / design / "sim_verilator", ops=1, seed=seed,
                 extra=edge_operands(Engine.from_manifest(m)))
    run_products(m, rtl, models, OUT / design / "sim_verilator", ops=2, seed=seed + 1, in_stall=0.3, out_stall=0.3)


def _is_prime(q):
    return q > 1 and all(pow(a, q - 1, q) == 1 for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
                         if a < q) and all(q % p for p in (2, 3, 5, 7, 11, 13) if p < q)


@pytest.mark.parametrize("design", [*CASES, *FAST_MUL, *MACRO_CASES, *(WINNERS if IS_LONG else {})])
def test_manifest(generated, design):
    """The manifest's parameters agree with the name, each other and the registry."""
    m = json.loads(manifest_file(design).read_text())
    e = Engine.from_manifest(manifest_file(design))  # checks prod q_l = Q and q_l < 2^w
    n, p, limbs = ALL[design]
    assert (e.n, e.lanes, e.limbs) == (n, p, limbs) == (m["n"], m["lanes"], m["limbs"])
    assert m["cycles_per_product"] == e.frame == n // p
    assert e.Q.bit_length() == m["Q_bits"] and e.Q >= 1 << m["logq"]
    for q in e.primes:
        assert _is_prime(q) and q % (2 * n) == 1 and q.bit_length() == e.limb_bits, q
        psi = int(m["psi"][e.primes.index(q)])
        assert pow(psi, n, q) == q - 1, f"psi = {psi} is not a 2n-th root of unity mod {q}"
    widths = {pt["name"]: pt["width"] for pt in m["ports"]}
    assert widths["in_a"] == widths["in_b"] == widths["out_c"] == e.width == limbs * p * e.limb_bits
    assert m["registry"] == registry.describe(design)
    assert (m["registry"]["bench"], m["registry"]["model"]) == ("polymul_stream_bench", "polymul.stream")


# ---- Prime classes: the generator's limbs against the prime toolkit (verif/primetools/proth.py) ----
def _class_primes(cls, n, w):
    """The class's w-bit primes = 1 mod 2n, the largest first, from the toolkit's definitions."""
    h = w // 2
    if cls == "any":
        return [q for q in range((1 << w) - 1, 1 << (w - 1), -1) if q % (2 * n) == 1 and _is_prime(q)]
    if cls == "proth":
        qs = [q for q in range((1 << w) - 1, 1 << (w - 1), -1) if q % (2 * n) == 1 and is_proth(q, w, h)]
    else:
        qs = [r.q for r in proth_l_primes(w, h, cls[-2:]) if r.q % (2 * n) == 1]
    return sorted(qs, reverse=True)


@pytest.mark.parametrize("design,n,logq,w,cls", [
    ("polymul_32_40_s4_cproth2l", 32, 40, 21, "proth2l"),
    ("polymul_32_40_s4_cproth3l", 32, 40, 21, "proth3l"),
    ("polymul_64_30_s2_w20_cproth", 64, 30, 20, "proth"),
    ("polymul_1024_19_s4_cproth2l", 1024, 19, 20, "proth2l"),
    ("polymul_2048_33_s4_w18_cany", 2048, 33, 18, "any"),
])
def test_prime_class(design, n, logq, w, cls):
    """_c<class>: the limbs are the class's largest primes (exactly w bits, = 1 mod 2n), as few as make
    Q >= 2^logq; the class is in the registry's parameters."""
    e = registry.describe(design)
    got = [int(q) for q in e["params"]["primes"]]
    want, Q = [], 1
    for q in _class_primes(cls, n, w):
        if Q >= 1 << logq:
            break
        want.append(q)
        Q *= q
    assert got == want, (got, want)
    assert e["params"]["prime_class"] == cls and e["params"]["limb_bits"] == w


# ---- The oracle ----
def naive_negacyclic(a, b, q):
    """The plain product, then x^n = -1 folded, written separately from polymul.stream."""
    n = len(a)
    full = [0] * (2 * n)
    for i in range(n):
        for j in range(n):
            full[i + j] += a[i] * b[j]
    return [(full[i] - full[i + n]) % q for i in range(n)]


Q_SMALL = 2096449 * 2095361                           # polymul_32_40_s4's Q
Q_BIG = (1 << 127) - 1


@pytest.mark.parametrize("n", [8, 16])
@pytest.mark.parametrize("Q", [17, Q_SMALL, Q_BIG])
def test_oracle_against_naive(n, Q):
    rng = random.Random(n * 1000 + Q % 1000)
    cases = [([rng.randrange(Q) for _ in range(n)], [rng.randrange(Q) for _ in range(n)]) for _ in range(5)]
    cases += [([Q - 1] * n, [Q - 1] * n), ([0] * n, [Q - 1] * n), ([1] + [0] * (n - 1), [Q - 1] * n),
              ([0] * (n - 1) + [1], [0] * (n - 1) + [1])]
    for a, b in cases:
        want = naive_negacyclic(a, b, Q)
        assert negacyclic_reference(a, b, n, Q) == want
        assert negacyclic_schoolbook(a, b, n, Q) == want
        assert negacyclic_kronecker(a, b, n, Q) == want
    # x^(n-1) * x^(n-1) = x^(2n-2) = -x^(n-2)
    top = [0] * (n - 1) + [1]
    assert negacyclic_reference(top, top, n, Q) == [Q - 1 if i == n - 2 else 0 for i in range(n)]
    # inputs are taken mod Q (negative and too large alike)
    a = [rng.randrange(-3 * Q, 3 * Q) for _ in range(n)]
    b = [rng.randrange(Q) for _ in range(n)]
    assert negacyclic_reference(a, b, n, Q) == naive_negacyclic([x % Q for x in a], b, Q)


@pytest.mark.parametrize("Q", [Q_SMALL, Q_BIG])
def test_oracle_at_512_is_kronecker_and_agrees_with_schoolbook(Q):
    n = 512
    rng = random.Random(512)
    for a, b in [([rng.randrange(Q) for _ in range(n)], [rng.randrange(Q) for _ in range(n)]),
                 ([Q - 1] * n, [Q - 1] * n)]:
        got = negacyclic_reference(a, b, n, Q)
        assert got == negacyclic_schoolbook(a, b, n, Q) == negacyclic_kronecker(a, b, n, Q)
    # all Q - 1: coefficient k is (k + 1) - (n - 1 - k) = 2k + 2 - n
    assert negacyclic_reference([Q - 1] * n, [Q - 1] * n, n, Q) == [(2 * k + 2 - n) % Q for k in range(n)]


def test_oracle_rejects_wrong_lengths():
    with pytest.raises(ValueError):
        negacyclic_reference([1, 2, 3], [1, 2, 3, 4], 4, 17)


# ---- RNS and beats ----
ENGINE = Engine(n=32, lanes=4, limb_bits=21, primes=[2096449, 2095361], Q=Q_SMALL, design="test")
ENGINE3 = Engine(n=16, lanes=2, limb_bits=17, primes=[131009, 130817, 130369], Q=131009 * 130817 * 130369, design="t3")


@pytest.mark.parametrize("e", [ENGINE, ENGINE3], ids=["L2", "L3"])
def test_crt_round_trip(e):
    rng = random.Random(7)
    for poly in ([rng.randrange(e.Q) for _ in range(e.n)], [0] * e.n, [e.Q - 1] * e.n,
                 [rng.choice((0, 1, e.Q - 1, e.Q // 2)) for _ in range(e.n)]):
        limbs = e.to_rns(poly)
        assert [len(x) for x in limbs] == [e.n] * e.limbs
        assert all(r == x % q for x, q in zip(limbs, e.primes) for r, x in zip(x, poly))
        assert e.from_rns(limbs) == poly
    # Q - 1 is q_l - 1 in every limb; residues chosen per limb come back as the CRT value
    assert e.to_rns([e.Q - 1] * e.n) == [[q - 1] * e.n for q in e.primes]
    limbs = [[rng.randrange(q) for _ in range(e.n)] for q in e.primes]
    assert e.to_rns(e.from_rns(limbs)) == limbs
    assert e.to_rns([-1] * e.n) == e.to_rns([e.Q - 1] * e.n)


@pytest.mark.parametrize("e", [ENGINE, ENGINE3], ids=["L2", "L3"])
def test_beats_layout(e):
    """Coefficient j*n/P + t of limb l is in beat t, bits [(l*P + j)*w, (l*P + j + 1)*w)."""
    rng = random.Random(3)
    limbs = [[rng.randrange(q) for _ in range(e.n)] for q in e.primes]
    words = e.beats(limbs)
    assert len(words) == e.frame == e.n // e.lanes
    w, p = e.limb_bits, e.lanes
    for l in range(e.limbs):
        for j in range(p):
            for t in range(e.frame):
                assert (words[t] >> ((l * p + j) * w)) & ((1 << w) - 1) == limbs[l][j * e.frame + t]
    assert all(x < 1 << e.width for x in words)
    assert e.unbeat(words) == limbs
    # one residue alone: its only bits are where the layout says
    one = [[0] * e.n for _ in e.primes]
    l, j, t = e.limbs - 1, 1, e.frame - 1
    one[l][j * e.frame + t] = 5
    assert e.beats(one) == [0] * (e.frame - 1) + [5 << ((l * p + j) * w)]


def test_beats_refuses_bad_operands():
    bad = ENGINE.to_rns([0] * 32)
    bad[1][3] = ENGINE.primes[1]  # not a residue
    with pytest.raises(ValueError, match="not a residue"):
        ENGINE.beats(bad)
    with pytest.raises(ValueError):
        ENGINE.beats(bad[:1])
    with pytest.raises(ValueError):
        ENGINE.unbeat([0] * (ENGINE.frame + 1))
    with pytest.raises(ValueError, match="not Q"):
        Engine(n=32, lanes=4, limb_bits=21, primes=[2096449, 2095361], Q=Q_SMALL + 2)


def test_from_manifest_path_and_dict(generated):
    f = manifest_file("polymul_32_40_s4_mpaper")
    a, b = Engine.from_manifest(f), Engine.from_manifest(json.loads(f.read_text()))
    assert (a.n, a.lanes, a.limb_bits, a.primes, a.Q, a.frame) == (b.n, b.lanes, b.limb_bits, b.primes, b.Q, b.frame) \
        == (32, 4, 21, (2096449, 2095361), 4392817473089, 8)
    assert (a.latency, a.cycles_per_product) == (64, 8)


# ---- Refusals: the generator's error names the problem and what is accepted ----
GRAMMAR = "polymul_<n>_<logq>_s<P>[_w<w>]"
REFUSED = {
    "polymul_1000_20_s2": ("n = 1000", "power of two from 16 to 32768"),
    "polymul_65536_30_s2": ("n = 65536", "power of two from 16 to 32768"),
    "polymul_8_20_s1": ("n = 8", "power of two from 16 to 32768"),
    "polymul_1024_2000_s2": ("log q = 2000", "from 16 to 1024"),
    "polymul_1024_8_s2": ("log q = 8", "from 16 to 1024"),
    "polymul_16_20_s3": ("_s3", "1, 2, 4, ..., 8 for n = 16"),
    "polymul_16_20_s16": ("_s16", "1, 2, 4, ..., 8 for n = 16"),
    "polymul_16_20_s2_w8": ("_w8", "from 16 to 64 bits"),
    # too few 17-bit primes = 1 mod 2^16: the error must say what would work (a wider limb, or up to which n)
    "polymul_32768_60_s2_w17": ("w = 17", "wider limb"),
    "polymul_16_20_p2_s2": ("_p<P>", "_s<P>"),
    "polymul_1024_19_p2_s2": ("_p<P>", "_s<P>"),
    "polymul_16_20_s2_s4": ("at most once", "_w<w>"),
    "polymul_16_20_s2_cfoo": ("prime classes", "_cany or _cproth or _cproth2l or _cproth3l"),
    "polymul_16_20_s2_cproth_cany": ("at most once", "_c<any|proth|proth2l|proth3l>"),
    # three 20-bit Proth-2l primes = 1 mod 2048 exist, log q = 60 needs four: say so, and what would do
    "polymul_1024_60_s2_w20_cproth2l": ("only 3 primes q = 1 mod 2048 of class proth2l", "another class"),
    # no 22-bit Proth-2l prime = 1 mod 8192 at all: the error says "no prime", not "only 0 primes"
    "polymul_4096_62_s4_w22_cproth2l": ("no prime q = 1 mod 8192 of class proth2l has exactly 22 bits", "class any has 3 of the 3"),
}


@pytest.mark.parametrize("name", REFUSED)
def test_refusals(name):
    problem, accepted = REFUSED[name]
    with pytest.raises(registry.RegistryError) as e:
        registry.describe(name)
    msg = str(e.value)
    first = msg.splitlines()[0]
    assert first.startswith(f"'{name}': "), msg
    assert problem in first, f"the error does not name the problem ({problem!r}):\n{msg}"
    assert accepted in msg, f"the error does not say what is accepted ({accepted!r}):\n{msg}"
    assert GRAMMAR in msg and "make help" in msg, msg
