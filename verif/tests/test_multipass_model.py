"""The multi-pass (four-step) engine's software model (verif/polymul/multipass.py and
multipass_schedule.py, issue 40) against the independent oracle: every product is checked against
``negacyclic_reference`` (schoolbook or Kronecker substitution on whole integers mod Q; no RNS, no
NTT, no root of unity), and the half-transformed memory of pass 1 against a direct evaluation of the
operand at the odd powers of psi. Each pass's memory is checked against its definition (pow() and
schoolbook, nothing of the model's transforms or twiddle generator), the rows' engine
(polymul.stream_model) against the schoolbook, and the middle twiddles' generator against pow(). The
primes the tests pick themselves come from sympy, not from the project's prime helpers. The
schedule's costs are checked against the bursts themselves and the memory's own counters, and each
refusal by its message."""
import random
from math import ceil

import pytest
from sympy import isprime

from ntt.ntt import find_psi
from polymul.multipass import MiddleTwiddles, MultipassError, MultipassModel, MultipassParams, stream_primes
from polymul.multipass_schedule import PAGE_BYTES, REGIONS, Layout, costs, passes, schedule
from polymul.stream import negacyclic_reference, negacyclic_schoolbook
from polymul.stream_model import limb_product

# SEAL's default BFV modulus chain for n = 8192 (CoeffModulus::BFVDefault, 128-bit security;
# microsoft/SEAL native/src/seal/util/globals.cpp): two 43-bit and three 44-bit primes.
SEAL_8192 = (0x7fffffd8001, 0x7fffffc8001, 0xfffffffc001, 0xffffff6c001, 0xfffffebc001)


def sympy_primes(n: int, bits: int, count: int, smallest: bool = True):
    """`count` primes q = 1 mod 2n of exactly `bits` bits by sympy, the smallest first (not the
    largest of their class, which is what the single-pass engine would pick)."""
    step = 2 * n
    q = ((1 << (bits - 1)) // step + 1) * step + 1 if smallest else ((1 << bits) - 1) // step * step + 1
    out = []
    while len(out) < count:
        if isprime(q):
            out.append(q)
        q += step if smallest else -step
    return out


def edge_operands(n: int, Q: int, rng):
    """(label, a, b): random, all Q - 1, zero, one-hot, x^(n-1)."""
    rnd = [rng.randrange(Q) for _ in range(n)]
    top = [0] * (n - 1) + [1]
    hot = [0] * n
    hot[rng.randrange(n)] = rng.randrange(1, Q)
    return [
        ("random", [rng.randrange(Q) for _ in range(n)], rnd),
        ("all Q-1", [Q - 1] * n, [Q - 1] * n),
        ("zero", [0] * n, rnd),
        ("one-hot", hot, rnd),
        ("x^(n-1) squared", top, top),          # x^(2n-2) = -x^(n-2)
        ("x^(n-1) times random", top, rnd),
    ]


# (id, n, primes, n1, keyword arguments)
CASES = [
    ("1024_n1_32_side", 1024, stream_primes(1024, 60, 31), 32, {}),
    ("1024_n1_1", 1024, stream_primes(1024, 60, 31), 1, {}),                        # corner: no column transform
    ("1024_n1_n", 1024, stream_primes(1024, 30, 31), 1024, dict(bus_bits=32, burst_beats=1)),  # corner: no rows
    ("2048_n1_64_sequence", 2048, stream_primes(2048, 55, 20), 64, dict(limb_mode="sequence", lanes=8)),
    ("4096_n1_16_slot64", 4096, sympy_primes(4096, 50, 2), 16, dict(bus_bits=128, burst_beats=4, lanes=2)),
]


@pytest.mark.parametrize("label,n,primes,n1,kw", CASES, ids=[c[0] for c in CASES])
def test_products_against_oracle(label, n, primes, n1, kw):
    p = MultipassParams(n, primes, n1, **kw)
    m = MultipassModel(p)
    rng = random.Random(f"{label}")
    for what, a, b in edge_operands(n, p.Q, rng):
        assert m.product(a, b) == negacyclic_reference(a, b, n, p.Q), f"{label}: {what}"


def test_seal_chain_8192():
    """The user's own modulus chain: SEAL's five primes, 43 and 44 bits, in 44-bit limbs (64-bit slots)."""
    for q in SEAL_8192:
        assert isprime(q) and q % (2 * 8192) == 1
    p = MultipassParams(8192, SEAL_8192, 128, bus_bits=512, burst_beats=4)
    assert (p.limb_bits, p.slot_bits, p.n2) == (44, 64, 64)
    m = MultipassModel(p)
    rng = random.Random(8192)
    a = [rng.randrange(p.Q) for _ in range(8192)]
    b = [rng.randrange(p.Q) for _ in range(8192)]
    assert m.product(a, b) == negacyclic_reference(a, b, 8192, p.Q)
    top = [0] * 8191 + [1]
    assert m.product(top, b) == negacyclic_reference(top, b, 8192, p.Q)


def test_65536_one_product():
    n = 65536
    p = MultipassParams(n, stream_primes(n, 30, 31), 256, bus_bits=512, burst_beats=2)
    rng = random.Random(n)
    a = [rng.randrange(p.Q) for _ in range(n)]
    b = [rng.randrange(p.Q) for _ in range(n)]
    assert MultipassModel(p).product(a, b) == negacyclic_reference(a, b, n, p.Q)


def test_user_primes_not_largest():
    """Primes = 1 mod 2n that are the smallest of their width, and a narrow prime in a wide limb."""
    n = 1024
    primes = sympy_primes(n, 30, 2) + sympy_primes(n, 20, 1)
    p = MultipassParams(n, primes, 32, limb_bits=30)
    assert p.slot_bits == 32 and p.limb_count == 3
    rng = random.Random(3)
    for what, a, b in edge_operands(n, p.Q, rng)[:2]:
        assert MultipassModel(p).product(a, b) == negacyclic_reference(a, b, n, p.Q), what


def test_pass1_memory_is_half_the_transform():
    """After pass 1, row k1 of region x holds X[k1] whose negacyclic n2-point transform with root
    psi2 = psi^n1 is the negacyclic spectrum: sum_j2 X[k1][j2] psi2^((2 k2 + 1) j2) = a(psi^(2k + 1)),
    k = k1 + n1 k2. Checked by evaluating a at those points directly (Horner), at a sample of k."""
    n, n1 = 1024, 16
    n2 = n // n1
    p = MultipassParams(n, sympy_primes(n, 30, 1), n1)
    q, psi = p.primes[0], p.psis[0]
    assert pow(psi, n, q) == q - 1
    rng = random.Random(5)
    a = [rng.randrange(q) for _ in range(n)]
    m = MultipassModel(p)
    mem = m.run([a], [[0] * n], until="columns")
    x = mem.unload("x", 0)
    psi2 = pow(psi, n1, q)
    for k in rng.sample(range(n), 24):
        k1, k2 = k % n1, k // n1
        row = sum(x[k1 * n2 + j2] * pow(psi2, (2 * k2 + 1) * j2, q) for j2 in range(n2)) % q
        point, acc = pow(psi, 2 * k + 1, q), 0
        for coeff in reversed(a):
            acc = (acc * point + coeff) % q
        assert row == acc, f"k = {k}"


# ---- Each pass against its definition ----
# (id, n, n1, keyword arguments): n1 < n2 and n1 > n2, several column blocks, two limbs.
PASS_CASES = [
    ("1024_n1_16", 1024, 16, dict(bus_bits=256, burst_beats=2)),     # n2 = 64, be = 16: 4 blocks
    ("2048_n1_64", 2048, 64, dict(bus_bits=128, burst_beats=2)),     # n2 = 32, be = 8: 4 blocks
]


@pytest.mark.parametrize("label,n,n1,kw", PASS_CASES, ids=[c[0] for c in PASS_CASES])
def test_passes_against_their_definitions(label, n, n1, kw):
    """The memory after each pass against that pass's definition (docs/polymul_multipass.md),
    computed here by pow() and schoolbook, sharing nothing with the model's transforms or its
    twiddle generator:
      columns: X[k1][j2] = psi^((2 k1 + 1 - n1) j2) sum_j1 a[j2 + n2 j1] psi^(n2 (2 k1 + 1) j1);
      rows: Z[k1] = X[k1] Y[k1] mod (y^n2 + 1), a negacyclic schoolbook product of the rows;
      columns_inverse: c[j2 + n2 j1] = n1^-1 sum_k1 Z[k1][j2] psi^(-(2 k1 + 1 - n1) j2 - n2 (2 k1 + 1) j1)."""
    n2 = n // n1
    p = MultipassParams(n, sympy_primes(n, 30, 2), n1, **kw)
    rng = random.Random(label)
    a = [[rng.randrange(q) for _ in range(n)] for q in p.primes]
    b = [[rng.randrange(q) for _ in range(n)] for q in p.primes]
    m = MultipassModel(p)
    after = {name: m.run(a, b, until=name) for name in ("columns", "rows", "columns_inverse")}
    two_n = 2 * n
    for l, (q, psi) in enumerate(zip(p.primes, p.psis)):
        col = [[pow(psi, n2 * (2 * k1 + 1) * j1 % two_n, q) for j1 in range(n1)] for k1 in range(n1)]
        col_inv = [[pow(psi, -n2 * (2 * k1 + 1) * j1 % two_n, q) for j1 in range(n1)] for k1 in range(n1)]

        def mid(k1, j2, e=1):
            return pow(psi, e * (2 * k1 + 1 - n1) * j2 % two_n, q)

        for region, src in (("x", a[l]), ("y", b[l])):
            got = after["columns"].unload(region, l)
            want = [sum(src[j2 + n2 * j1] * col[k1][j1] for j1 in range(n1)) * mid(k1, j2) % q
                    for k1 in range(n1) for j2 in range(n2)]
            assert got == want, f"{label}: limb {l}: columns' {region}"
        x, y = after["columns"].unload("x", l), after["columns"].unload("y", l)
        z = after["rows"].unload("x", l)
        for k1 in range(n1):
            row = slice(k1 * n2, (k1 + 1) * n2)
            assert z[row] == negacyclic_schoolbook(x[row], y[row], n2, q), f"{label}: limb {l}: row {k1}"
        n1_inv = pow(n1, -1, q)
        want = [0] * n
        for j2 in range(n2):
            zt = [z[k1 * n2 + j2] * mid(k1, j2, -1) % q for k1 in range(n1)]
            for j1 in range(n1):
                want[j2 + n2 * j1] = n1_inv * sum(zt[k1] * col_inv[k1][j1] for k1 in range(n1)) % q
        assert after["columns_inverse"].unload("c", l) == want, f"{label}: limb {l}: columns_inverse"
        assert want == negacyclic_schoolbook(a[l], b[l], n, q), f"{label}: limb {l}: the product"


def test_stream_model_against_schoolbook():
    """The rows pass's engine (polymul.stream_model, the single-pass engine's loops) against the
    schoolbook, at every size the rows take here (n2 = 1 .. 1024), with psi^n1 as the model uses it
    and with another primitive 2 n2-th root: the product does not depend on the root."""
    q = sympy_primes(1024, 30, 1)[0]
    psi = find_psi(1024, q)
    rng = random.Random(7)
    for n2 in (1, 2, 4, 16, 64, 256, 1024):
        psi2 = pow(psi, 1024 // n2, q)
        other = pow(psi2, 3, q)           # also primitive: 3 is odd
        a = [rng.randrange(q) for _ in range(n2)]
        b = [rng.randrange(q) for _ in range(n2)]
        want = negacyclic_schoolbook(a, b, n2, q)
        assert limb_product(a, b, q, psi2) == want, n2
        assert limb_product(a, b, q, other) == want, n2
        top = [0] * (n2 - 1) + [q - 1]
        assert limb_product(top, top, q, psi2) == negacyclic_schoolbook(top, top, n2, q), n2


# ---- The middle twiddles' generator ----
# (n, n1, be): a block of one column, blocks of a whole row, n1 = 1 and n1 = n, and n = 65536.
TWIDDLE_CASES = [(1024, 16, 16), (1024, 32, 1), (2048, 64, 32), (1024, 1, 32), (1024, 1024, 1),
                 (8192, 64, 32), (65536, 256, 16), (65536, 16, 128)]


@pytest.mark.parametrize("n,n1,be", TWIDDLE_CASES, ids=[f"{n}_{n1}_{be}" for n, n1, be in TWIDDLE_CASES])
def test_middle_twiddles_against_pow(n, n1, be):
    """MiddleTwiddles, block after block in the pass's order, against pow() at every (k1, j2), in
    both directions; n1 (be + 1) multiplications a block; two passes in a row (the seeds reset)."""
    n2 = n // n1
    q = sympy_primes(n, 40, 1)[0]
    psi = find_psi(n, q)
    for inverse, e in ((False, 1), (True, -1)):
        gen = MiddleTwiddles(q, psi, n, n1, be, inverse=inverse)
        for _ in range(2):
            for j2_0 in range(0, n2, be):
                got = gen.block(j2_0)
                want = [[pow(psi, e * (2 * k1 + 1 - n1) * j2 % (2 * n), q) for j2 in range(j2_0, j2_0 + be)]
                        for k1 in range(n1)]
                assert got == want, f"inverse={inverse}: block at column {j2_0}"
        assert gen.mults == 2 * (n2 // be) * n1 * (be + 1)
        g = pow(psi, e, q)
        assert gen.constants == (pow(g, (1 - n1) % (2 * n), q), g * g % q, pow(g, (1 - n1) * be % (2 * n), q),
                                 pow(g, 2 * be, q))


def test_middle_twiddles_refuse_a_block_out_of_order():
    q = sympy_primes(1024, 30, 1)[0]
    gen = MiddleTwiddles(q, find_psi(1024, q), 1024, 16, 16)
    gen.block(0)
    with pytest.raises(RuntimeError, match=r"block at column 32 visited out of order \(expected 16\)"):
        gen.block(32)


# ---- Refusals ----
N = 1024
P30 = sympy_primes(N, 30, 2)


def _prime_1_mod_n_not_2n(n, bits):
    q = (1 << (bits - 1)) // n * n + n + 1
    while not (isprime(q) and q % (2 * n) != 1):
        q += n
    return q


REFUSALS = [
    ("not prime", dict(n=N, primes=[P30[0], (1 << 30) // 2048 * 2048 + 1]),
     r"limb 1: q = 1073741825 is not prime: give a prime q = 1 mod 2048 of at most 31 bits \(e\.g\. \d+"),
    ("not 1 mod 2n", dict(n=N, primes=[_prime_1_mod_n_not_2n(N, 30)]),
     r"is 1025 mod 2n = 2048, not 1, so Z_q has no primitive 2048-th root .* \(q serves n up to 512\): give a prime "
     r"q = 1 mod 2048 .* or a smaller n"),
    ("wider than the limb", dict(n=N, primes=P30 + sympy_primes(N, 31, 1), limb_bits=30),
     r"limb 2: q = \d+ has 31 bits, wider than the 30-bit limb: give limb_bits >= 31"),
    ("wider than any limb", dict(n=N, primes=[sympy_primes(N, 66, 1)[0]]),
     r"has 66 bits, wider than the widest limb \(64 bits\): split the modulus"),
    ("n not a power of two", dict(n=1000, primes=P30, n1=8), r"n = 1000: n must be a power of two from 1024 to 65536"),
    ("n too small", dict(n=512, primes=P30, n1=8), r"n = 512: n must be a power of two from 1024 to 65536"),
    ("n too large", dict(n=131072, primes=P30, n1=8), r"n = 131072: n must be a power of two from 1024 to 65536"),
    ("n1 not dividing n", dict(n=N, primes=P30, n1=24), r"n1 = 24 does not divide n = 1024: n1 must be a power of two"),
    ("n1 larger than n", dict(n=N, primes=P30, n1=2048), r"n1 = 2048 does not divide n = 1024"),
    ("no primes", dict(n=N, primes=[]), r"no limb primes: give at least one prime q = 1 mod 2n"),
    ("a prime twice", dict(n=N, primes=[P30[0], P30[0]]), r"is given twice: the CRT needs distinct"),
    ("limb width", dict(n=N, primes=P30, limb_bits=70), r"limb_bits = 70: the limb width must be from 16 to 64"),
    ("psi", dict(n=N, primes=P30[:1], psis=[2]), r"psi = 2 is not a primitive 2n-th root of unity mod q = \d+ "
                                                 r"\(psi\^n must be q - 1\): give psi = find_psi"),
    ("lanes", dict(n=N, primes=P30, lanes=3), r"lanes = 3: P must be a power of two from 1 to n/2 = 512"),
    ("limb mode", dict(n=N, primes=P30, limb_mode="mixed"), r"limb_mode = 'mixed': use 'side'"),
    ("bus width", dict(n=N, primes=P30, bus_bits=48), r"bus_bits = 48: the AXI4 data width must be one of 8, 16"),
    ("bus narrower than a slot", dict(n=N, primes=P30, bus_bits=16), r"bus_bits = 16 is narrower than a 32-bit slot"),
    ("slot", dict(n=N, primes=P30, slot_bits=16), r"slot_bits = 16: .* at least the limb width 30"),
    ("burst beats", dict(n=N, primes=P30, burst_beats=3), r"burst_beats = 3: an AXI4 burst is a power of two"),
    ("burst over 4 KB", dict(n=65536, primes=sympy_primes(65536, 40, 1), n1=16, bus_bits=1024, burst_beats=64),
     r"8192 bytes, more than AXI4's 4096-byte boundary: use at most 32 beats"),
    ("burst wider than a row", dict(n=N, primes=P30, n1=256, bus_bits=256, burst_beats=2),
     r"a burst holds 16 coefficients, more than a row of n2 = n / n1 = 4: .* use n1 <= 64"),
]


@pytest.mark.parametrize("label,kw,match", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals(label, kw, match):
    kw = dict(kw)
    kw.setdefault("n1", 32)
    with pytest.raises(MultipassError, match=match):
        MultipassParams(**kw)


# ---- The schedule ----
SCHEDULES = [
    dict(n=1024, primes=stream_primes(1024, 60, 31), n1=32),
    dict(n=1024, primes=stream_primes(1024, 60, 31), n1=32, limb_mode="sequence", lanes=2),
    dict(n=2048, primes=sympy_primes(2048, 40, 3), n1=64, bus_bits=512, burst_beats=2),   # 64-bit slots
    dict(n=1024, primes=stream_primes(1024, 30, 31), n1=1, bus_bits=1024, burst_beats=4),  # n1 = 1
    dict(n=1024, primes=stream_primes(1024, 30, 31), n1=1024, bus_bits=32, burst_beats=1),  # n1 = n
]


@pytest.fixture(params=SCHEDULES, ids=lambda kw: f"{kw['n']}_n1_{kw['n1']}_{kw.get('limb_mode', 'side')}")
def params(request):
    return MultipassParams(**request.param)


def test_bytes_moved_is_the_sum_of_the_passes(params):
    p, lay = params, Layout(params)
    c = costs(p)
    by_bursts = 0
    for ps, blocks in schedule(p):
        got = next(x for x in c.passes if x.name == ps.name)
        rd = wr = 0
        for blk in blocks:
            rd += sum(b.beats for b in blk.reads) * lay.beat_bytes
            wr += sum(b.beats for b in blk.writes) * lay.beat_bytes
        assert (got.bytes_read, got.bytes_written) == (rd, wr), ps.name
        by_bursts += rd + wr
    assert c.bytes_moved == by_bursts
    # The closed form docs/polymul_multipass.md gives: 9 n words a limb (4 n + 3 n + 2 n).
    assert c.bytes_moved == 9 * p.n * p.limb_count * p.slot_bits // 8
    # And what the memory itself counted while the model ran a product.
    rng = random.Random(1)
    limbs = [[rng.randrange(q) for _ in range(p.n)] for q in p.primes]
    mem = MultipassModel(p).run(limbs, limbs)
    assert mem.bytes_read + mem.bytes_written == c.bytes_moved
    assert (mem.bytes_read, mem.bytes_written) == (sum(x.bytes_read for x in c.passes),
                                                  sum(x.bytes_written for x in c.passes))


def test_each_coefficient_once_per_pass(params):
    p, lay = params, Layout(params)
    for ps, blocks in schedule(p):
        reads, writes = {}, {}
        for blk in blocks:
            for bursts, seen in ((blk.reads, reads), (blk.writes, writes)):
                for b in bursts:
                    first = (b.addr - lay.base(b.region, b.limb)) // lay.slot_bytes
                    for i in range(first, first + b.elements):
                        key = (b.region, b.limb, i)
                        seen[key] = seen.get(key, 0) + 1
        for regions, seen in ((ps.reads, reads), (ps.writes, writes)):
            want = {(r, l, i): 1 for r in regions for l in range(p.limb_count) for i in range(p.n)}
            assert seen == want, f"{ps.name}: not every coefficient of {regions} exactly once"


def test_bursts_stay_in_their_row_and_block(params):
    p, lay = params, Layout(params)
    row_bytes = p.n2 * lay.slot_bytes
    for ps, blocks in schedule(p):
        for blk in blocks:
            for b in blk.reads + blk.writes:
                span = b.beats * lay.beat_bytes
                assert b.elements * lay.slot_bytes == span
                row_start = lay.base(b.region, b.limb) + b.row * row_bytes
                assert row_start <= b.addr and b.addr + span <= row_start + row_bytes, \
                    f"{ps.name}: burst {b} leaves row {b.row}"
                assert b.addr == lay.address(b.region, b.limb, b.row, b.col), f"{ps.name}: burst {b} not at its place"
                assert blk.row0 <= b.row < blk.row0 + blk.rows
                assert blk.col0 <= b.col and b.col + b.elements <= blk.col0 + blk.cols, \
                    f"{ps.name}: burst {b} leaves its block's columns"
                assert b.addr % span == 0 and b.addr // PAGE_BYTES == (b.addr + span - 1) // PAGE_BYTES, \
                    f"{ps.name}: burst {b} crosses a 4 KB boundary"
    assert [x.name for x in passes()] == ["columns", "rows", "columns_inverse"]
    assert REGIONS == ("a", "b", "x", "y", "c")


def test_stream_cycles(params):
    """Each pass streams n coefficients of each operand per limb through P lanes: n/P cycles with
    the limb engines side by side, L n / P one after another."""
    p = params
    per_pass = p.n // p.lanes * (1 if p.limb_mode == "side" else p.limb_count)
    assert [x.stream_cycles for x in costs(p).passes] == [per_pass] * 3


def test_costs_by_hand():
    """n = 1024, one 31-bit limb (32-bit slots), n1 = 32, P = 4, a 256-bit bus (8 coefficients a
    beat), 2-beat (64-byte) bursts, 1 GHz:
      columns: reads 2 * 1024 / 16 = 128 bursts (256 beats, 8 KB), writes the same; the lanes take
               1024 / 4 = 256 cycles, the port max(256, 256) = 256 beats: 256 cycles, 256 ns;
      rows: reads 128 bursts (256 beats), writes 64 (128 beats): 256 cycles;
      columns_inverse: 64 and 64 bursts (128 beats each): 256 cycles.
    Bytes: 9 * 1024 * 4 = 36,864. Cycles 768. At B = 25.6 GB/s: columns takes max(256 ns, 16,384 /
    25.6 = 640 ns) = 640 ns, rows 12,288 B -> 480 ns, columns_inverse 8,192 B -> 320 ns: 1,440 ns;
    the bound over the whole product max(768 ns, 36,864 / 25.6 = 1,440 ns) is the same. Little's law
    at 100 ns: columns issues 128 reads in 640 ns, 0.2 a ns: 20 in flight; rows 128 reads in 480 ns:
    26.7, so 27 reads; writes: columns 128 in 640 ns: 20, rows 64 / 480 * 100 = 13.3, inverse
    64 / 320 * 100 = 20: 20 writes."""
    p = MultipassParams(1024, stream_primes(1024, 30, 31), 32, lanes=4, bus_bits=256, burst_beats=2)
    c = costs(p)
    assert [(x.read_bursts, x.write_bursts, x.read_beats, x.write_beats) for x in c.passes] == \
        [(128, 128, 256, 256), (128, 64, 256, 128), (64, 64, 128, 128)]
    assert c.bytes_moved == 36864 and c.cycles() == 768 and c.bursts == 576
    assert c.cycles(latency_cycles=100, fill_cycles=10) == 768 + 3 * 110
    f = 1e9
    assert c.time_bound(f, 25.6e9) == pytest.approx(1440e-9)
    assert c.time_per_product(f, 25.6e9) == pytest.approx(1440e-9)
    assert c.time_per_product(f, 25.6e9, latency_s=100e-9) == pytest.approx(1740e-9)
    assert c.time_bound(f, 256e9) == pytest.approx(768e-9)      # 36,864 B at 256 GB/s = 144 ns: the engine binds
    # A burst holds its credit for the latency, its own 2 beats and the mover's 3 cycles: 105 ns here.
    assert c.outstanding(f, 25.6e9, 100e-9) == (28, 21)
    assert c.outstanding(f, 256e9, 100e-9) == (53, 53)          # 128 bursts in 256 ns, x 105 ns = 52.5
    assert c.outstanding(f, 256e9, 100e-9, mover_cycles=0) == (51, 51)   # x 102 ns
    assert c.outstanding(f, 256e9, 0.0) == (3, 3)               # the burst's own round trip: x 5 ns
    assert c.bandwidth_needed(f) == pytest.approx(36864 / 768e-9)
    assert c.peak_bandwidth(f) == pytest.approx(16384 / 256e-9)


def test_memory_image():
    p = MultipassParams(1024, stream_primes(1024, 30, 31), 32)
    rng = random.Random(2)
    a = [rng.randrange(p.primes[0]) for _ in range(1024)]
    mem = MultipassModel(p).run([a], [a])
    img, lay = mem.to_bytes(), Layout(p)
    assert len(img) == lay.total_bytes == 5 * 4096
    base = lay.base("a", 0)
    assert [int.from_bytes(img[base + 4 * i:base + 4 * i + 4], "little") for i in range(1024)] == a
    assert mem.unload("c", 0) == negacyclic_reference(a, a, 1024, p.primes[0])


def test_run_refuses_bad_operands():
    p = MultipassParams(1024, stream_primes(1024, 30, 31), 32)
    q = p.primes[0]
    m = MultipassModel(p)
    with pytest.raises(ValueError, match=rf"a: limb 0 coefficient 5 = {q} is not a residue mod {q}"):
        m.run([[0] * 5 + [q] + [0] * 1018], [[0] * 1024])
    with pytest.raises(ValueError, match=r"b: want 1 limbs of 1024 residues"):
        m.run([[0] * 1024], [[0] * 1023])
    with pytest.raises(ValueError, match=r"until = 'transpose': a pass name, one of columns, rows, columns_inverse"):
        m.run([[0] * 1024], [[0] * 1024], until="transpose")


def test_cli(capsys):
    from polymul.multipass import main
    main(["--n", "1024", "--n1", "32", "--logq", "30", "--limb-bits", "31", "--f-mhz", "1000", "--latency-ns", "100",
          "--bus-bits", "256", "--burst-beats", "2", "--lanes", "4"])
    out = capsys.readouterr().out
    assert "bytes moved per product: 36,864" in out and "cycles per product: 768" in out
    assert "outstanding bursts to hide it: 28 reads, 21 writes" in out
