"""The multi-pass model's second column mode, ``columns="stream"`` (verif/polymul/multipass.py and
multipass_schedule.py): the column passes stream rows through an n1-point NTT pipeline with no corner
turn, so the middle twiddles move to the rows pass and the column passes' bursts go row by row, the
spectra's rows (x, y) in bit-reversed order. Independent oracles only: products against
``negacyclic_reference`` (schoolbook, or Kronecker substitution on whole integers above n = 256; no
NTT), each pass's memory against its definition by pow() and a schoolbook written here, the burst
order against the rows decoded from the bursts' addresses, and ``turn`` mode (the default) against
digests of its schedule and memory images taken before ``stream`` existed."""
import hashlib
import random
from functools import lru_cache

import pytest
from sympy import isprime

from polymul.multipass import MultipassError, MultipassModel, MultipassParams, RowTwiddles, main, stream_primes
from polymul.multipass_manifest import manifest_params
from polymul.multipass_schedule import Layout, costs, schedule
from polymul.stream import negacyclic_reference


def sympy_primes(n: int, bits: int, count: int):
    """`count` primes q = 1 mod 2n of exactly `bits` bits by sympy, the smallest first."""
    q = ((1 << (bits - 1)) // (2 * n) + 1) * 2 * n + 1
    out = []
    while len(out) < count:
        if isprime(q):
            out.append(q)
        q += 2 * n
    return out


def rev(t: int, m: int) -> int:
    """t's log2(m) bits reversed."""
    bits = m.bit_length() - 1
    return int(format(t, f"0{bits}b")[::-1], 2) if bits else 0


def schoolbook(a, b, q):
    """a b mod (y^m + 1, q), m = len(a), term by term."""
    m = len(a)
    c = [0] * m
    for i in range(m):
        for j in range(m):
            if i + j < m:
                c[i + j] += a[i] * b[j]
            else:
                c[i + j - m] -= a[i] * b[j]
    return [v % q for v in c]


# ---- (a) The product ----
# (id, n1, primes, keyword arguments): n1 = 16 and 32, one and two limbs, several column blocks,
# limbs side by side and in sequence, and the corners n1 = 1 and n1 = n (whole bit reversal).
PRODUCTS = [
    ("n1_16_1limb", 16, stream_primes(1024, 30, 31), {}),
    ("n1_32_2limbs", 32, stream_primes(1024, 60, 31), {}),
    ("n1_32_1limb_be8", 32, sympy_primes(1024, 30, 1), dict(bus_bits=128, burst_beats=2, lanes=2)),
    ("n1_16_2limbs_sequence", 16, sympy_primes(1024, 30, 2), dict(limb_mode="sequence", bus_bits=128)),
    ("n1_1", 1, stream_primes(1024, 30, 31), {}),
    ("n1_n", 1024, stream_primes(1024, 30, 31), dict(bus_bits=32, burst_beats=1)),
]


def edge_operands(n: int, Q: int, rng):
    """(label, a, b): random, all Q - 1, zero, one-hot, x^(n-1)."""
    rnd = [rng.randrange(Q) for _ in range(n)]
    top = [0] * (n - 1) + [1]
    hot = [0] * n
    hot[rng.randrange(n)] = rng.randrange(1, Q)
    return [("random", [rng.randrange(Q) for _ in range(n)], rnd), ("all Q-1", [Q - 1] * n, [Q - 1] * n),
            ("zero", [0] * n, rnd), ("one-hot", hot, rnd), ("x^(n-1) squared", top, top),
            ("x^(n-1) times random", top, rnd)]


@pytest.mark.parametrize("label,n1,primes,kw", PRODUCTS, ids=[c[0] for c in PRODUCTS])
def test_stream_products_against_oracle(label, n1, primes, kw):
    p = MultipassParams(1024, primes, n1, columns="stream", **kw)
    m = MultipassModel(p)
    rng = random.Random(label)
    for what, a, b in edge_operands(1024, p.Q, rng):
        assert m.product(a, b) == negacyclic_reference(a, b, 1024, p.Q), f"{label}: {what}"


# ---- (b), (c) Each pass's memory against its definition ----
# n1 < n2, n1 = n2 and n1 > n2, two limbs of primes that are not the largest of their width, four
# column blocks each.
PASS_CASES = [
    ("1024_n1_16", 1024, 16, dict(bus_bits=256, burst_beats=2)),     # n2 = 64, be = 16: 4 blocks
    ("1024_n1_32", 1024, 32, dict(bus_bits=128, burst_beats=2)),     # n2 = 32, be = 8: 4 blocks
    ("2048_n1_64", 2048, 64, dict(bus_bits=128, burst_beats=2)),     # n2 = 32, be = 8: 4 blocks
]


@lru_cache(maxsize=None)
def pass_memories(label):
    """(p, a, b, {pass: the memory's x, y and c per limb after it}) for a PASS_CASES entry, stream mode."""
    _, n, n1, kw = next(c for c in PASS_CASES if c[0] == label)
    p = MultipassParams(n, sympy_primes(n, 30, 2), n1, columns="stream", **kw)
    rng = random.Random(label)
    a = [[rng.randrange(q) for _ in range(n)] for q in p.primes]
    b = [[rng.randrange(q) for _ in range(n)] for q in p.primes]
    m = MultipassModel(p)
    after = {}
    for name in ("columns", "rows", "columns_inverse"):
        mem = m.run(a, b, until=name)
        after[name] = {r: [mem.unload(r, l) for l in range(p.limb_count)] for r in "xyc"}
    return p, a, b, after


def column_ntt(src, q, psi, n, n1, sign=1):
    """C[k1][j2] = sum_j1 src[j2 + n2 j1] psi^(sign n2 (2 k1 + 1) j1), by pow()."""
    n2 = n // n1
    w = [[pow(psi, sign * n2 * (2 * k1 + 1) * j1 % (2 * n), q) for j1 in range(n1)] for k1 in range(n1)]
    return [[sum(src[j2 + n2 * j1] * w[k1][j1] for j1 in range(n1)) % q for j2 in range(n2)] for k1 in range(n1)]


def middle(q, psi, n, n1, k1, j2, e=1):
    return pow(psi, e * (2 * k1 + 1 - n1) * j2 % (2 * n), q)


@pytest.mark.parametrize("label", [c[0] for c in PASS_CASES])
def test_stream_columns_write_the_column_ntts(label):
    """After ``columns``: x = C and y = D, the column NTTs with root r1 = psi^n2 and no middle twiddle,
    every entry; psi is a primitive 2n-th root (checked here)."""
    p, a, b, after = pass_memories(label)
    n, n1, n2 = p.n, p.n1, p.n2
    for l, (q, psi) in enumerate(zip(p.primes, p.psis)):
        assert pow(psi, n, q) == q - 1
        for region, src in (("x", a[l]), ("y", b[l])):
            want = column_ntt(src, q, psi, n, n1)
            got = after["columns"][region][l]
            for k1 in range(n1):
                for j2 in range(n2):
                    assert got[k1 * n2 + j2] == want[k1][j2], \
                        f"{label}: limb {l}: {region}[k1 = {k1}][j2 = {j2}] = {got[k1 * n2 + j2]}, " \
                        f"the definition gives {want[k1][j2]}"


@pytest.mark.parametrize("label", [c[0] for c in PASS_CASES])
def test_stream_rows_apply_the_middle_twiddles(label):
    """After ``rows``: x[k1] = Z'[k1], Z'[k1][j2] = Z[k1][j2] psi^(-(2 k1 + 1 - n1) j2), Z[k1] = X[k1] Y[k1]
    mod (y^n2 + 1), X[k1][j2] = C[k1][j2] psi^((2 k1 + 1 - n1) j2) and Y from D alike; C and D are what
    ``columns`` left in x and y (checked by the test above); y is left as it was."""
    p, a, b, after = pass_memories(label)
    n, n1, n2 = p.n, p.n1, p.n2
    for l, (q, psi) in enumerate(zip(p.primes, p.psis)):
        c_, d_ = after["columns"]["x"][l], after["columns"]["y"][l]
        got = after["rows"]["x"][l]
        for k1 in range(n1):
            x = [c_[k1 * n2 + j2] * middle(q, psi, n, n1, k1, j2) % q for j2 in range(n2)]
            y = [d_[k1 * n2 + j2] * middle(q, psi, n, n1, k1, j2) % q for j2 in range(n2)]
            want = [z * middle(q, psi, n, n1, k1, j2, -1) % q for j2, z in enumerate(schoolbook(x, y, q))]
            assert got[k1 * n2:(k1 + 1) * n2] == want, f"{label}: limb {l}: row {k1}"
        assert after["rows"]["y"][l] == d_, f"{label}: limb {l}: rows wrote y"


@pytest.mark.parametrize("label", [c[0] for c in PASS_CASES])
def test_stream_columns_inverse_is_the_inverse_ntt(label):
    """After ``columns_inverse``: c[j2 + n2 j1] = n1^-1 sum_k1 Z'[k1][j2] psi^(-n2 (2 k1 + 1) j1), no inverse
    middle twiddle; and c is the product of a and b mod (x^n + 1, q)."""
    p, a, b, after = pass_memories(label)
    n, n1, n2 = p.n, p.n1, p.n2
    for l, (q, psi) in enumerate(zip(p.primes, p.psis)):
        z = after["rows"]["x"][l]
        n1_inv = pow(n1, -1, q)
        w = [[pow(psi, -n2 * (2 * k1 + 1) * j1 % (2 * n), q) for k1 in range(n1)] for j1 in range(n1)]
        want = [0] * n
        for j1 in range(n1):
            for j2 in range(n2):
                want[j2 + n2 * j1] = n1_inv * sum(z[k1 * n2 + j2] * w[j1][k1] for k1 in range(n1)) % q
        assert after["columns_inverse"]["c"][l] == want, f"{label}: limb {l}: columns_inverse"
        assert want == negacyclic_reference(a[l], b[l], n, q), f"{label}: limb {l}: the product"


def test_row_twiddles_against_pow():
    """RowTwiddles, row after row, against pow() in both directions; n2 multiplications a row; two passes
    in a row (rho resets); a row out of order refused."""
    n, n1 = 1024, 16
    n2 = n // n1
    q = sympy_primes(n, 40, 1)[0]
    psi = MultipassParams(n, [q], n1).psis[0]
    for inverse, e in ((False, 1), (True, -1)):
        gen = RowTwiddles(q, psi, n, n1, inverse=inverse)
        for _ in range(2):
            for k1 in range(n1):
                assert gen.row(k1) == [middle(q, psi, n, n1, k1, j2, e) for j2 in range(n2)], (inverse, k1)
        assert gen.mults == 2 * n1 * n2
        g = pow(psi, e, q)
        assert gen.constants == (pow(g, (1 - n1) % (2 * n), q), g * g % q)
    gen.row(0)
    with pytest.raises(RuntimeError, match=r"row 2 visited out of order \(expected 1\)"):
        gen.row(2)


# ---- (d) The burst order ----
SCHEDULES = [
    dict(n=1024, primes=stream_primes(1024, 60, 31), n1=32),                                  # 2 limbs, side
    dict(n=1024, primes=stream_primes(1024, 60, 31), n1=16, limb_mode="sequence", lanes=2),
    dict(n=2048, primes=sympy_primes(2048, 40, 2), n1=64, bus_bits=512, burst_beats=2),      # 64-bit slots
    dict(n=1024, primes=stream_primes(1024, 30, 31), n1=1, bus_bits=1024, burst_beats=4),    # n1 = 1
    dict(n=1024, primes=stream_primes(1024, 30, 31), n1=1024, bus_bits=32, burst_beats=1),   # n1 = n
]
SCHEDULE_IDS = [f"{kw['n']}_n1_{kw['n1']}_{kw.get('limb_mode', 'side')}" for kw in SCHEDULES]


def place(lay, p, b):
    """(region, limb, row, col) of a burst, decoded from its address alone."""
    word = (b.addr - lay.base(b.region, b.limb)) // lay.slot_bytes
    return b.region, b.limb, word // p.n2, word % p.n2


@pytest.mark.parametrize("kw", SCHEDULES, ids=SCHEDULE_IDS)
def test_stream_column_bursts_in_pipeline_order(kw):
    """Column passes: block by block as with ``turn``; within a block, ``columns`` reads a's row t then b's
    row t (t = 0 .. n1 - 1) and writes x's row rev(t) then y's; ``columns_inverse`` reads x's row rev(t)
    and writes c's row t; each burst one row segment of the block's be columns. The rows pass's bursts are
    ``turn``'s, and so are every pass's bursts as a set and the costs (same bursts, other order)."""
    p, turn = MultipassParams(columns="stream", **kw), MultipassParams(**kw)
    lay = Layout(p)
    be, n1 = lay.burst_elements, p.n1
    want_order = {
        "columns": (lambda t: [("a", t), ("b", t)], lambda t: [("x", rev(t, n1)), ("y", rev(t, n1))]),
        "columns_inverse": (lambda t: [("x", rev(t, n1))], lambda t: [("c", t)]),
    }
    for (ps, blocks), (ps_turn, blocks_turn) in zip(schedule(p), schedule(turn)):
        assert ps == ps_turn
        blocks, blocks_turn = list(blocks), list(blocks_turn)
        assert [(x.limb, x.row0, x.rows, x.col0, x.cols) for x in blocks] == \
            [(x.limb, x.row0, x.rows, x.col0, x.cols) for x in blocks_turn], ps.name
        for blk, old in zip(blocks, blocks_turn):
            if ps.name == "rows":
                assert (blk.reads, blk.writes) == (old.reads, old.writes), f"rows: row {blk.row0}"
                continue
            assert (sorted(blk.reads, key=repr), sorted(blk.writes, key=repr)) == \
                (sorted(old.reads, key=repr), sorted(old.writes, key=repr)), f"{ps.name}: block {blk.col0}"
            reads, writes = want_order[ps.name]
            for bursts, rows_of in ((blk.reads, reads), (blk.writes, writes)):
                want = [(r, blk.limb, row, blk.col0) for t in range(n1) for r, row in rows_of(t)]
                assert [place(lay, p, b) for b in bursts] == want, f"{ps.name}: limb {blk.limb} block {blk.col0}"
                assert all(b.elements == be == blk.cols for b in bursts)
    assert costs(p) == costs(turn)
    # And what the memory itself counted while the model ran a product on these bursts.
    rng = random.Random(1)
    limbs = [[rng.randrange(q) for _ in range(p.n)] for q in p.primes]
    mem = MultipassModel(p).run(limbs, limbs)
    assert mem.bytes_read + mem.bytes_written == costs(p).bytes_moved


# ---- (e) ``turn`` mode unchanged ----
# sha256 of each SCHEDULES entry's schedule (every block and burst in issue order) and of its memory
# images after each pass, taken with the model as it was before ``columns`` existed.
TURN_DIGESTS = {
    "1024_n1_32_side": "75a67c24c4e5eadcb44586a32ca4144d7dd67875852a1822c8b714c7450e2189",
    "1024_n1_16_sequence": "53d8c93539e4d77ebf0bee32bb37d1b5f077ce7e21fdcd281766189ce204db6c",
    "2048_n1_64_side": "35d96a64add504de8daa5cef4fd1bd9189143de7e76a25e811fe9100571e6168",
    "1024_n1_1_side": "12e688be352dbfd82c0f8a420aae76cff1cbf08945ae8b15753dbaee1d5bb8ef",
    "1024_n1_1024_side": "d3f3366dbe578cb5c7c0948c952874e785b285775b8309b6e41f441da6ce7309",
}
TURN_CASES = [
    ("1024_n1_32_side", dict(n=1024, primes=stream_primes(1024, 60, 31), n1=32)),
    ("1024_n1_16_sequence", dict(n=1024, primes=stream_primes(1024, 60, 31), n1=16, limb_mode="sequence", lanes=2)),
    ("2048_n1_64_side", dict(n=2048, primes=stream_primes(2048, 30, 31), n1=64, bus_bits=128, burst_beats=2)),
    ("1024_n1_1_side", dict(n=1024, primes=stream_primes(1024, 30, 31), n1=1, bus_bits=1024, burst_beats=4)),
    ("1024_n1_1024_side", dict(n=1024, primes=stream_primes(1024, 30, 31), n1=1024, bus_bits=32, burst_beats=1)),
]


def turn_digest(p):
    h = hashlib.sha256()
    for ps, blocks in schedule(p):
        h.update(repr((ps.name, ps.kind, ps.reads, ps.writes)).encode())
        for blk in blocks:
            h.update(repr((blk.pass_name, blk.limb, blk.row0, blk.rows, blk.col0, blk.cols)).encode())
            for b in blk.reads + (None,) + blk.writes:
                h.update(repr(b and (b.region, b.limb, b.addr, b.beats, b.row, b.col, b.elements)).encode())
    rng = random.Random(p.n * 7 + p.n1)
    a = [[rng.randrange(q) for _ in range(p.n)] for q in p.primes]
    b = [[rng.randrange(q) for _ in range(p.n)] for q in p.primes]
    m = MultipassModel(p)
    for until in ("columns", "rows", "columns_inverse"):
        h.update(m.run(a, b, until=until).to_bytes())
    return h.hexdigest()


@pytest.mark.parametrize("label,kw", TURN_CASES, ids=[c[0] for c in TURN_CASES])
def test_turn_mode_unchanged(label, kw):
    assert MultipassParams(**kw).columns == "turn"
    assert turn_digest(MultipassParams(columns="turn", **kw)) == TURN_DIGESTS[label]


# ---- Refusal, manifest, command line ----
def test_refuses_an_unknown_column_mode():
    with pytest.raises(MultipassError, match=r"columns = 'corner': use 'turn' \(the column passes corner-turn each "
                                             r"block on chip .*\) or 'stream' \(the column passes stream rows"):
        MultipassParams(1024, stream_primes(1024, 30, 31), 32, columns="corner")


def test_manifest_column_mode():
    """An RTL manifest's top-level `column_mode` reaches the params as `columns`; absent, `turn`."""
    q = stream_primes(1024, 30, 31)[0]
    m = dict(n=1024, n1=32, lanes=1, bus_bits=64, burst_beats=4, limb_bits=31, slot_bits=32, prime=q)
    assert manifest_params(m).columns == "turn"
    assert manifest_params(dict(m, column_mode="stream")).columns == "stream"
    assert manifest_params(dict(m, column_mode="stream"), limb_mode="sequence").columns == "stream"
    with pytest.raises(MultipassError, match=r"columns = 'both'"):
        manifest_params(dict(m, column_mode="both"))


def test_cli_stream(capsys):
    """The summary's costs are ``turn``'s; on chip, the NTT's delay lines (n1 - 1) be instead of a block."""
    args = ["--n", "1024", "--n1", "32", "--logq", "30", "--limb-bits", "31", "--f-mhz", "1000", "--latency-ns",
            "100", "--bus-bits", "256", "--burst-beats", "2", "--lanes", "4"]
    main(args)
    turn = capsys.readouterr().out
    main(args + ["--columns", "stream"])
    out = capsys.readouterr().out
    assert "a column block of n1 x 16 = 512 words" in turn
    assert "the column NTT's delay lines, (n1 - 1) x 16 = 496 words (stream columns, no corner turn)" in out
    assert turn.splitlines()[2:] == out.splitlines()[2:]
