"""The multi-pass polymul engine's software model (issue 40): a bit-exact model of the negacyclic
product c = a b mod (x^n + 1) in Z_Q, Q = prod q_l, computed as the engine will, in passes over
external memory (Bailey's four-step FFT: D. H. Bailey, "FFTs in external or hierarchical memory",
J. Supercomputing 4, 1990, in a negacyclic form whose rows are negacyclic products). The memory
schedule and its costs are ``polymul.multipass_schedule``; docs/polymul_multipass.md describes both
and proves the formulation.

Per limb q (psi a primitive 2n-th root of unity mod q, n = n1 n2, coefficient i = j2 + n2 j1 at
row j1, column j2 of an n1 x n2 matrix, r1 = psi^n2 a primitive 2 n1-th root):

* ``columns``: for each column j2 of a and of b, the negacyclic n1-point NTT with root r1,
  C_j2(k1) = sum_j1 a[j2 + n2 j1] r1^((2 k1 + 1) j1), then the middle twiddle:
  X[k1][j2] = C_j2(k1) psi^((2 k1 + 1 - n1) j2) (exponent mod 2n), written to x (and Y to y);
* ``rows``: for each row k1, Z[k1] = X[k1] Y[k1] mod (y^n2 + 1), the negacyclic n2-point product,
  computed by the single-pass streaming engine's arithmetic (``polymul.stream_model``) at n2 with
  psi2 = psi^n1, written over x;
* ``columns_inverse``: for each column j2, Z[k1][j2] psi^(-(2 k1 + 1 - n1) j2), then the negacyclic
  n1-point inverse NTT with root r1 (n1^-1 included): c[j2 + n2 j1], written to c.

**Column mode ``stream``** (``MultipassParams.columns``; ``turn``, the default, is the above): the
column passes stream rows through an n1-point NTT pipeline with no corner turn, so the middle
twiddles move to the rows pass, which holds a whole row of j2. ``columns`` writes the column NTTs
alone, C to x and D (from b) to y; ``rows`` computes X[k1][j2] = C[k1][j2] psi^((2 k1 + 1 - n1) j2)
and Y likewise, Z = X Y mod (y^n2 + 1) as above, and writes Z'[k1][j2] = Z[k1][j2]
psi^(-(2 k1 + 1 - n1) j2) over x; ``columns_inverse`` runs the inverse column NTTs alone on Z'. The
product is the same; x and y hold other values between the passes (:class:`RowTwiddles`).

No twist of the whole polynomial, no untwist, no n^-1: the negacyclic wrap lives in the column
transforms (r1) and in the rows' products (mod y^n2 + 1). Data moves between passes only through
the flat memory, by the schedule's bursts.

**Twiddles are generated, not read from an n-entry table** (:class:`MiddleTwiddles`): the middle
twiddles of a column block come out in the order the pass writes them (row k1 by row, within a row
the block's be columns) as running products, from two seeds per block that are themselves running
products across the blocks; the column transform's weights r1^j1 (n1^-1 r1^-j1 in the inverse) are
running products down the rows. :class:`LimbConstants` lists what a limb engine holds. Modular
products are exact, so generated twiddles are bit-exact: the model's values are the engine's,
canonical residues in [0, q).

The RNS conversion and the CRT are ``polymul.stream.Engine``'s (imported, not copied).
"""
import argparse
from dataclasses import dataclass, field
from typing import Optional, Sequence, Tuple

from ntt.ntt import find_psi
from polymul.multipass_schedule import (AXI_DATA_BITS, COLUMN_MODES, LIMB_MODES, MAX_BURST_BEATS, PAGE_BYTES, Layout,
                                        Memory, bit_reversal, costs, schedule)
from polymul.stream import Engine
from polymul.stream_model import limb_product
from primetools.primes import is_probable_prime
from primetools.proth import largest_ntt_primes

MIN_N, MAX_N = 1024, 65536          # the range: the SSA paper's Table I and n = 65536
MIN_LIMB, MAX_LIMB = 16, 64         # the single-pass engine's limb widths (StreamConfig)


class MultipassError(ValueError):
    """A parameter the engine cannot take; the message names the problem and the fix."""


def _pow2(x) -> bool:
    return isinstance(x, int) and x > 0 and x & (x - 1) == 0


def largest_n(q: int) -> int:
    """The largest power-of-two n that q serves (q = 1 mod 2n): 2n is the largest power of two
    dividing q - 1."""
    return ((q - 1) & -(q - 1)) // 2


def stream_primes(n: int, logq: int, limb_bits: int) -> Tuple[int, ...]:
    """The single-pass engine's default limbs (StreamPrimes.select, class ``any``): the largest
    primes q = 1 mod 2n of exactly limb_bits bits, as few as make Q >= 2^logq."""
    need = (logq + limb_bits - 2) // (limb_bits - 1) + 1
    got = []
    for q in largest_ntt_primes(limb_bits, n, need):
        got.append(q)
        prod = 1
        for x in got:
            prod *= x
        if prod >= 1 << logq:
            return tuple(got)
    raise MultipassError(f"only {len(got)} primes q = 1 mod {2 * n} have exactly {limb_bits} bits, too few for "
                         f"log q = {logq}: use a wider limb")


@dataclass
class MultipassParams:
    """One multi-pass engine.

    n          the ring degree, a power of two from 1024 to 65536
    primes     the limb primes q_0 .. q_(L-1), any primes q = 1 mod 2n of at most limb_bits bits (the
               user's modulus chain, e.g. SEAL's, or :func:`stream_primes` for the single-pass engine's)
    n1         the on-chip column transform's size, a power of two dividing n (n2 = n / n1 for the rows)
    lanes      P, coefficients of each operand per cycle per limb engine
    bus_bits   the AXI4 data width (8 .. 1024 bits)
    burst_beats the beats of a burst (1 .. 256, a power of two; a burst is at most 4 KB)
    limb_mode  ``side``: L limb engines run each pass together; ``sequence``: one engine, limb after limb
    limb_bits  w, the limb width (default: the widest prime's bits, at least 16)
    slot_bits  the bits a coefficient takes in memory (default: the power of two >= w)
    psis       psi per limb (default: NttConfig.findPsi's, the smallest g >= 2 whose g^((q-1)/2n) has psi^n = -1)
    columns    ``turn``: the column passes corner-turn each block on chip and apply the middle twiddles;
               ``stream``: they stream rows through the column NTTs (no corner turn, bit-reversed spectra
               rows) and the rows pass applies the middle twiddles
    """
    n: int
    primes: Sequence[int]
    n1: int
    lanes: int = 4
    bus_bits: int = 256
    burst_beats: int = 2
    limb_mode: str = "side"
    limb_bits: Optional[int] = None
    slot_bits: Optional[int] = None
    psis: Optional[Sequence[int]] = None
    columns: str = "turn"
    n2: int = field(init=False)
    Q: int = field(init=False)

    def __post_init__(self):
        n = self.n
        if not _pow2(n) or not MIN_N <= n <= MAX_N:
            raise MultipassError(f"n = {n}: n must be a power of two from {MIN_N} to {MAX_N}")
        self.primes = tuple(int(q) for q in self.primes)
        if not self.primes:
            raise MultipassError("no limb primes: give at least one prime q = 1 mod 2n (stream_primes(n, logq, w) "
                                 "gives the single-pass engine's)")
        widest = max(q.bit_length() for q in self.primes)
        if widest > MAX_LIMB:
            q = next(q for q in self.primes if q.bit_length() == widest)
            raise MultipassError(f"q = {q} has {widest} bits, wider than the widest limb ({MAX_LIMB} bits): split the "
                                 f"modulus into primes of at most {MAX_LIMB} bits")
        if self.limb_bits is None:
            self.limb_bits = max(MIN_LIMB, widest)
        w = self.limb_bits
        if not isinstance(w, int) or not MIN_LIMB <= w <= MAX_LIMB:
            raise MultipassError(f"limb_bits = {w}: the limb width must be from {MIN_LIMB} to {MAX_LIMB} bits")
        for l, q in enumerate(self.primes):
            self._check_prime(l, q)
        if len(set(self.primes)) != len(self.primes):
            dup = next(q for q in self.primes if self.primes.count(q) > 1)
            raise MultipassError(f"q = {dup} is given twice: the CRT needs distinct (coprime) limb primes; drop the "
                                 f"repeat or use another prime q = 1 mod {2 * n}")
        if not _pow2(self.n1) or self.n % self.n1:
            raise MultipassError(f"n1 = {self.n1} does not divide n = {n}: n1 must be a power of two from 1 to {n} "
                                 f"(the on-chip column transform; the rows get n2 = n / n1)")
        self.n2 = n // self.n1
        if not _pow2(self.lanes) or self.lanes > n // 2:
            raise MultipassError(f"lanes = {self.lanes}: P must be a power of two from 1 to n/2 = {n // 2}")
        if self.limb_mode not in LIMB_MODES:
            raise MultipassError(f"limb_mode = {self.limb_mode!r}: use 'side' (limb engines side by side) or "
                                 f"'sequence' (one engine, limb after limb)")
        if self.columns not in COLUMN_MODES:
            raise MultipassError(f"columns = {self.columns!r}: use 'turn' (the column passes corner-turn each block "
                                 f"on chip and apply the middle twiddles) or 'stream' (the column passes stream rows "
                                 f"through their NTTs, no corner turn; the rows pass applies the middle twiddles)")
        self._check_memory()
        prod = 1
        for q in self.primes:
            prod *= q
        self.Q = prod
        if self.psis is None:
            self.psis = tuple(find_psi(n, q) for q in self.primes)
        else:
            self.psis = tuple(int(s) for s in self.psis)
            if len(self.psis) != len(self.primes):
                raise MultipassError(f"{len(self.psis)} psis for {len(self.primes)} primes: give one psi per limb")
            for q, psi in zip(self.primes, self.psis):
                if pow(psi, n, q) != q - 1:
                    raise MultipassError(f"psi = {psi} is not a primitive 2n-th root of unity mod q = {q} "
                                         f"(psi^n must be q - 1): give psi = find_psi({n}, {q}) = {find_psi(n, q)}, "
                                         f"or leave psis out")

    def _check_prime(self, l: int, q: int):
        n, w = self.n, self.limb_bits
        two_n = 2 * n

        def example():
            top = largest_ntt_primes(w, n, 1)
            return f"e.g. {top[0]}, the largest of {w} bits" if top else f"none has {w} bits: widen the limb"

        if not is_probable_prime(q):
            raise MultipassError(f"limb {l}: q = {q} is not prime: give a prime q = 1 mod {two_n} of at most {w} bits "
                                 f"({example()})")
        if q % two_n != 1:
            raise MultipassError(f"limb {l}: q = {q} is {q % two_n} mod 2n = {two_n}, not 1, so Z_q has no primitive "
                                 f"{two_n}-th root of unity for the negacyclic NTT (q serves n up to {largest_n(q)}): "
                                 f"give a prime q = 1 mod {two_n} ({example()}) or a smaller n")
        if q.bit_length() > w:
            raise MultipassError(f"limb {l}: q = {q} has {q.bit_length()} bits, wider than the {w}-bit limb: give "
                                 f"limb_bits >= {q.bit_length()} (up to {MAX_LIMB}) or a prime of at most {w} bits")

    def _check_memory(self):
        w = self.limb_bits
        if self.slot_bits is None:
            self.slot_bits = max(8, 1 << (w - 1).bit_length())
        s = self.slot_bits
        if not _pow2(s) or s < 8 or s < w:
            raise MultipassError(f"slot_bits = {s}: a coefficient's slot in memory must be a power of two of at least "
                                 f"8 bits and at least the limb width {w}")
        if self.bus_bits not in AXI_DATA_BITS:
            raise MultipassError(f"bus_bits = {self.bus_bits}: the AXI4 data width must be one of "
                                 f"{', '.join(map(str, AXI_DATA_BITS))}")
        if self.bus_bits < s:
            raise MultipassError(f"bus_bits = {self.bus_bits} is narrower than a {s}-bit slot: use a bus of at least "
                                 f"{s} bits")
        b = self.burst_beats
        if not _pow2(b) or b > MAX_BURST_BEATS:
            raise MultipassError(f"burst_beats = {b}: an AXI4 burst is a power of two from 1 to {MAX_BURST_BEATS} "
                                 f"beats here")
        if b * self.bus_bits // 8 > PAGE_BYTES:
            raise MultipassError(f"a burst of {b} beats of {self.bus_bits} bits is {b * self.bus_bits // 8} bytes, "
                                 f"more than AXI4's {PAGE_BYTES}-byte boundary: use at most "
                                 f"{PAGE_BYTES * 8 // self.bus_bits} beats")
        be = self.bus_bits // s * b
        if be > self.n2:
            raise MultipassError(f"a burst holds {be} coefficients, more than a row of n2 = n / n1 = {self.n2}: bursts "
                                 f"must stay within their row; use n1 <= {self.n // be}, or fewer beats or a "
                                 f"narrower bus")

    @property
    def limb_count(self) -> int:
        return len(self.primes)

    def engine(self) -> Engine:
        """The host helpers (RNS, CRT) of polymul.stream for these limbs."""
        return Engine(self.n, self.lanes, self.limb_bits, self.primes, self.Q, design="multipass")


def running_powers(start: int, step: int, count: int, q: int):
    """start, start*step, ..., start*step^(count-1) mod q: a sequence made as the engine makes it,
    one modular multiplication an entry, from a start and a step (no table)."""
    out = [0] * count
    t = start % q
    for i in range(count):
        out[i] = t
        t = t * step % q
    return out


def _ntt(x, q: int, roots):
    """Cyclic NTT of m = len(x) points, natural order in and out, y_k = sum_j x_j r^(jk) with
    roots[t] = r^t for t < m/2: the core of the column transform (radix-2 Cooley-Tukey, its own
    table of m/2 roots). Unscaled in both directions (the inverse is this with r^-1; n1^-1 rides on
    the inverse's weights)."""
    m = len(x)
    y = [x[i] for i in bit_reversal(m)]
    half = 1
    while half < m:
        stride = m // (2 * half)
        for s in range(0, m, 2 * half):
            for k in range(half):
                u, v = y[s + k], y[s + k + half] * roots[k * stride] % q
                y[s + k], y[s + k + half] = (u + v) % q, (u - v) % q
        half *= 2
    return y


class MiddleTwiddles:
    """The middle twiddles of one limb's column pass, psi^(e (2 k1 + 1 - n1) j2) (e = 1 forward,
    -1 in ``columns_inverse``; exponent mod 2n), generated in the order the pass writes a block
    (:meth:`block`): row k1 = 0 .. n1 - 1, within a row the block's be columns j2 = j2_0 ..
    j2_0 + be - 1. Running products only, g = psi^e:

    * within row k1 the ratio is rho_k1 = g^(2 k1 + 1 - n1): the row's first twiddle
      f_k1 = rho_k1^j2_0, the next ones times rho_k1;
    * down the rows: rho_0 = g^(1 - n1) (a constant), rho_(k1+1) = rho_k1 g^2, and
      f_0 = s_b, f_(k1+1) = f_k1 u_b, with the block's seeds s_b = g^((1 - n1) j2_0) and
      u_b = g^(2 j2_0);
    * across the blocks (j2_0 = b be): s_0 = u_0 = 1, s_(b+1) = s_b g^((1 - n1) be),
      u_(b+1) = u_b g^(2 be).

    So a limb engine holds four constants a direction (:attr:`constants`: rho_0, g^2, and the block
    steps g^((1 - n1) be), g^(2 be)) and two seeds it carries from block to block, and spends
    n1 (be + 1) modular multiplications on a block's n1 be twiddles (:attr:`mults` counts them). A
    block out of order is refused: the engine could not follow it either."""

    def __init__(self, q: int, psi: int, n: int, n1: int, be: int, inverse: bool = False):
        if n % n1 or n // n1 % be:
            raise ValueError(f"be = {be} does not divide n2 = n / n1 = {n // n1} (n = {n}, n1 = {n1})")
        self.q, self.n1, self.be, self.n2 = q, n1, be, n // n1
        g = pow(psi, -1, q) if inverse else psi % q
        two_n = 2 * n
        self.rho0 = pow(g, (1 - n1) % two_n, q)
        self.rho_step = g * g % q
        self.s_step = pow(g, (1 - n1) * be % two_n, q)
        self.u_step = pow(g, 2 * be % two_n, q)
        self.s, self.u = 1, 1           # block 0's seeds: j2_0 = 0
        self.next_col0 = 0
        self.mults = 0

    @property
    def constants(self) -> Tuple[int, int, int, int]:
        """(rho_0, g^2, g^((1 - n1) be), g^(2 be)): what the engine holds for this direction."""
        return self.rho0, self.rho_step, self.s_step, self.u_step

    def block(self, j2_0: int):
        """The block's twiddles, ``out[k1][c]`` for column j2_0 + c, in generation order."""
        if j2_0 != self.next_col0:
            raise RuntimeError(f"block at column {j2_0} visited out of order (expected {self.next_col0})")
        q, be = self.q, self.be
        out = []
        first, rho = self.s, self.rho0
        for k1 in range(self.n1):
            row = [first] * be
            for c in range(1, be):
                row[c] = row[c - 1] * rho % q
            self.mults += be - 1
            out.append(row)
            if k1 + 1 < self.n1:
                first, rho = first * self.u % q, rho * self.rho_step % q
                self.mults += 2
        self.s, self.u = self.s * self.s_step % q, self.u * self.u_step % q
        self.mults += 2
        self.next_col0 = j2_0 + be
        if self.next_col0 == self.n2:   # the pass is done: the next product starts from block 0's seeds
            self.s, self.u, self.next_col0 = 1, 1, 0
        return out


class RowTwiddles:
    """``stream`` mode's middle twiddles, applied by the rows pass: row k1's n2 twiddles
    psi^(e (2 k1 + 1 - n1) j2), j2 = 0 .. n2 - 1 (e = 1 on the operands' rows, -1 on their product;
    exponent mod 2n), generated in the order the pass streams a row (:meth:`row`, rows k1 = 0 ..
    n1 - 1). Running products only, g = psi^e: within row k1 from 1 by rho_k1 = g^(2 k1 + 1 - n1);
    down the rows rho_0 = g^(1 - n1), rho_(k1+1) = rho_k1 g^2, as in :class:`MiddleTwiddles`, but
    with no block seeds: every row starts at j2 = 0. So a limb engine holds two constants a direction
    (:attr:`constants`) and carries rho from row to row, and a row costs n2 multiplications (n2 - 1
    within it, 1 for the next rho; :attr:`mults`). A row out of order is refused."""

    def __init__(self, q: int, psi: int, n: int, n1: int, inverse: bool = False):
        self.q, self.n1, self.n2 = q, n1, n // n1
        g = pow(psi, -1, q) if inverse else psi % q
        self.rho0 = pow(g, (1 - n1) % (2 * n), q)
        self.rho_step = g * g % q
        self.rho, self.next_row = self.rho0, 0
        self.mults = 0

    @property
    def constants(self) -> Tuple[int, int]:
        """(rho_0, g^2): what the engine holds for this direction."""
        return self.rho0, self.rho_step

    def row(self, k1: int):
        """Row k1's twiddles, for columns j2 = 0 .. n2 - 1."""
        if k1 != self.next_row:
            raise RuntimeError(f"row {k1} visited out of order (expected {self.next_row})")
        out = running_powers(1, self.rho, self.n2, self.q)
        self.rho = self.rho * self.rho_step % self.q
        self.mults += self.n2
        self.next_row = k1 + 1
        if self.next_row == self.n1:    # the pass is done: the next product starts from rho_0
            self.rho, self.next_row = self.rho0, 0
        return out


class LimbConstants:
    """What a limb engine holds for limb q (besides the two generators' carried seeds):

    * the column transform (negacyclic, n1 points, root r1 = psi^n2): r1 (the weights' step down
      the rows) and, for the inverse, r1^-1 and n1^-1 (the inverse weights' step and start), and
      the cyclic core's root tables (r1^2)^t and (r1^-2)^t, t < n1/2;
    * the middle twiddles' constants, four a direction (:class:`MiddleTwiddles`), or with ``stream``
      columns two (:class:`RowTwiddles`);
    * the rows: psi2 = psi^n1, from which the single-pass engine at n2 has its own tables
      (StreamTwiddles: psi2^rev(k), psi2^-rev(k), n2^-1). Any primitive 2 n2-th root would give
      the same rows: a negacyclic product does not depend on its transform's root."""

    def __init__(self, p: "MultipassParams", q: int, psi: int):
        n, n1, n2 = p.n, p.n1, p.n2
        self.q, self.psi = q, psi
        self.r1 = pow(psi, n2, q)
        self.r1_inv = pow(self.r1, -1, q)
        self.n1_inv = pow(n1, -1, q)
        self.col_roots = running_powers(1, self.r1 * self.r1 % q, max(1, n1 // 2), q)
        self.col_roots_inv = running_powers(1, self.r1_inv * self.r1_inv % q, max(1, n1 // 2), q)
        self.psi2 = pow(psi, n1, q)
        if p.columns == "stream":
            self.middle = RowTwiddles(q, psi, n, n1).constants
            self.middle_inv = RowTwiddles(q, psi, n, n1, inverse=True).constants
        else:
            be = Layout(p).burst_elements
            self.middle = MiddleTwiddles(q, psi, n, n1, be).constants
            self.middle_inv = MiddleTwiddles(q, psi, n, n1, be, inverse=True).constants


class MultipassModel:
    """The engine's arithmetic on its external memory: :meth:`run` places the operands' limbs in a
    :class:`Memory`, runs the three passes on the schedule's bursts and returns the memory (regions
    x and y hold the intermediate values the RTL's memory will hold; c the product)."""

    def __init__(self, p: MultipassParams):
        self.p = p
        self.rns = p.engine()
        self.k = [LimbConstants(p, q, psi) for q, psi in zip(p.primes, p.psis)]

    # ---- The host's view ----
    def product(self, a, b):
        """a b mod (x^n + 1) with coefficients mod Q: to RNS, the passes, the CRT."""
        return self.rns.from_rns(self.product_limbs(self.rns.to_rns(a), self.rns.to_rns(b)))

    def product_limbs(self, a_limbs, b_limbs):
        mem = self.run(a_limbs, b_limbs)
        return [mem.unload("c", l) for l in range(self.p.limb_count)]

    def run(self, a_limbs, b_limbs, until: Optional[str] = None) -> Memory:
        """The memory after the passes, or after pass ``until`` (its name): what a bench of one pass
        compares the RTL's memory with (X and Y in x and y after ``columns``; Z in x after ``rows``;
        the product in c after ``columns_inverse``; with ``stream`` columns, C and D, then Z')."""
        p = self.p
        names = [ps.name for ps, _ in schedule(p)]
        if until is not None and until not in names:
            raise ValueError(f"until = {until!r}: a pass name, one of {', '.join(names)}")
        for name, limbs in (("a", a_limbs), ("b", b_limbs)):
            if len(limbs) != p.limb_count or any(len(x) != p.n for x in limbs):
                raise ValueError(f"{name}: want {p.limb_count} limbs of {p.n} residues, got {len(limbs)} limbs")
            for l, (x, q) in enumerate(zip(limbs, p.primes)):
                bad = next((i for i, r in enumerate(x) if not 0 <= r < q), None)
                if bad is not None:
                    raise ValueError(f"{name}: limb {l} coefficient {bad} = {x[bad]} is not a residue mod {q}")
        mem = Memory(p)
        for l in range(p.limb_count):
            mem.load("a", l, a_limbs[l])
            mem.load("b", l, b_limbs[l])
        for ps, blocks in schedule(p):
            gens = self._generators(ps.name)
            for blk in blocks:
                data = [self._gather(mem, blk, region) for region in ps.reads]
                out = getattr(self, "_" + ps.name)(blk, data, gens[blk.limb] if gens else None)
                for region, values in zip(ps.writes, out):
                    self._scatter(mem, blk, region, values)
            if ps.name == until:
                break
        return mem

    # ---- Memory to block and back ----
    @staticmethod
    def _gather(mem: Memory, blk, region: str):
        """The block's rows x cols words of one region, from its read bursts (placed where each
        burst says it belongs; its data come from where its address points)."""
        m = [[None] * blk.cols for _ in range(blk.rows)]
        for b in blk.reads:
            if b.region == region:
                m[b.row - blk.row0][b.col - blk.col0:b.col - blk.col0 + b.elements] = mem.read(b)
        if any(v is None for r in m for v in r):
            raise RuntimeError(f"{blk.pass_name}: the bursts of {region} do not cover the block")
        return m

    @staticmethod
    def _scatter(mem: Memory, blk, region: str, m):
        for b in blk.writes:
            if b.region == region:
                mem.write(b, m[b.row - blk.row0][b.col - blk.col0:b.col - blk.col0 + b.elements])

    def _generators(self, pass_name: str):
        """One middle-twiddle generator per limb for a column pass (its seeds carry from block to
        block of that limb); with ``stream`` columns, a (forward, inverse) pair per limb for the
        rows pass instead (rho carries from row to row)."""
        p = self.p
        if p.columns == "stream":
            if pass_name != "rows":
                return None
            return [(RowTwiddles(q, psi, p.n, p.n1), RowTwiddles(q, psi, p.n, p.n1, inverse=True))
                    for q, psi in zip(p.primes, p.psis)]
        if pass_name not in ("columns", "columns_inverse"):
            return None
        be = Layout(p).burst_elements
        return [MiddleTwiddles(q, psi, p.n, p.n1, be, inverse=pass_name == "columns_inverse")
                for q, psi in zip(p.primes, p.psis)]

    # ---- The passes, on one block ----
    def _columns(self, blk, data, gen):
        """Each column's negacyclic n1-point NTT with root r1 (weights r1^j1, then the cyclic NTT
        with root r1^2), then the middle twiddle psi^((2 k1 + 1 - n1) j2) (not with ``stream``
        columns: the rows pass applies it); a and b alike."""
        k, n1, q = self.k[blk.limb], self.p.n1, self.k[blk.limb].q
        middle = gen.block(blk.col0) if gen else None
        weight = running_powers(1, k.r1, n1, q)
        outs = []
        for m in data:
            out = [[0] * blk.cols for _ in range(n1)]
            for c in range(blk.cols):
                spec = _ntt([m[j1][c] * weight[j1] % q for j1 in range(n1)], q, k.col_roots)
                for k1 in range(n1):
                    out[k1][c] = spec[k1] * middle[k1][c] % q if middle else spec[k1]
            outs.append(out)
        return outs

    def _rows(self, blk, data, gen):
        """The row's negacyclic n2-point product mod (y^n2 + 1): the single-pass engine at n2. With
        ``stream`` columns, row k1's middle twiddles psi^((2 k1 + 1 - n1) j2) on both operands
        first, and their inverses on the product after."""
        k = self.k[blk.limb]
        if gen is None:
            return [[limb_product(data[0][0], data[1][0], k.q, k.psi2)]]
        q, fwd, inv = k.q, gen[0].row(blk.row0), gen[1].row(blk.row0)
        x, y = ([v * t % q for v, t in zip(m[0], fwd)] for m in data)
        return [[[v * t % q for v, t in zip(limb_product(x, y, q, k.psi2), inv)]]]

    def _columns_inverse(self, blk, data, gen):
        """The inverse middle twiddle psi^-((2 k1 + 1 - n1) j2) (not with ``stream`` columns: the
        rows pass applied it), then each column's negacyclic n1-point inverse NTT (the cyclic NTT
        with root r1^-2, then weights n1^-1 r1^-j1)."""
        k, n1, q = self.k[blk.limb], self.p.n1, self.k[blk.limb].q
        middle = gen.block(blk.col0) if gen else None
        weight = running_powers(k.n1_inv, k.r1_inv, n1, q)
        m = data[0]
        out = [[0] * blk.cols for _ in range(n1)]
        for c in range(blk.cols):
            col = _ntt([m[k1][c] * middle[k1][c] % q if middle else m[k1][c] for k1 in range(n1)], q,
                       k.col_roots_inv)
            for j1 in range(n1):
                out[j1][c] = col[j1] * weight[j1] % q
        return [out]


# ---- Command line: the schedule's figures for one engine ----
def summary(p: MultipassParams, f_hz: float, latency_s: float, bandwidths=(256e9, 25.6e9)) -> str:
    c = costs(p)
    lay = Layout(p)
    if p.columns == "stream":   # no corner turn: the column NTT pipeline's delay lines
        column = (f"the column NTT's delay lines, (n1 - 1) x {lay.burst_elements} = "
                  f"{(p.n1 - 1) * lay.burst_elements:,} words (stream columns, no corner turn)")
    else:
        column = f"a column block of n1 x {lay.burst_elements} = {p.n1 * lay.burst_elements:,} words"
    lines = [f"n = {p.n}, n1 = {p.n1}, n2 = {p.n2}, L = {p.limb_count} ({p.limb_mode}), w = {p.limb_bits}, "
             f"slot {p.slot_bits} b, P = {p.lanes}, bus {p.bus_bits} b, burst {p.burst_beats} beats "
             f"({lay.burst_bytes} B, {lay.burst_elements} coefficients)",
             f"Q has {p.Q.bit_length()} bits; on chip per limb engine and operand: {column}, a row of n2 = {p.n2:,}",
             "",
             "| pass | read bursts | write bursts | bytes read | bytes written | stream cycles | port cycles |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for x in c.passes:
        lines.append(f"| {x.name} | {x.read_bursts:,} | {x.write_bursts:,} | {x.bytes_read:,} | {x.bytes_written:,} "
                     f"| {x.stream_cycles:,} | {x.port_cycles:,} |")
    lines += ["", f"bytes moved per product: {c.bytes_moved:,}",
              f"cycles per product: {c.cycles():,} (no latency); "
              f"{c.cycles(latency_cycles=round(latency_s * f_hz)):,} with {latency_s * 1e9:g} ns per pass boundary",
              f"at f_clk = {f_hz / 1e6:g} MHz: bandwidth needed {c.bandwidth_needed(f_hz) / 1e9:.2f} GB/s on average, "
              f"{c.peak_bandwidth(f_hz) / 1e9:.2f} GB/s in the busiest pass"]
    for bw in bandwidths:
        r, w = c.outstanding(f_hz, bw, latency_s)
        lines.append(f"B = {bw / 1e9:g} GB/s: max(cycles/f, bytes/B) = {c.time_bound(f_hz, bw) * 1e6:.3f} us; "
                     f"pass by pass with {latency_s * 1e9:g} ns latency {c.time_per_product(f_hz, bw, latency_s) * 1e6:.3f} us; "
                     f"outstanding bursts to hide it: {r} reads, {w} writes")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m polymul.multipass",
                                 description="The multi-pass engine's memory schedule: bytes, cycles, bandwidth, time")
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--n1", type=int, required=True)
    ap.add_argument("--logq", type=int, help="limbs: the single-pass engine's primes of --limb-bits bits for this log q")
    ap.add_argument("--limb-bits", type=int)
    ap.add_argument("--primes", type=lambda s: [int(x, 0) for x in s.split(",")], help="limbs: explicit, comma-separated")
    ap.add_argument("--lanes", type=int, default=4)
    ap.add_argument("--bus-bits", type=int, default=256)
    ap.add_argument("--burst-beats", type=int, default=2)
    ap.add_argument("--limb-mode", default="side", choices=LIMB_MODES)
    ap.add_argument("--columns", default="turn", choices=COLUMN_MODES,
                    help="the column passes: turn (corner turn on chip) or stream (rows through the NTT pipeline)")
    ap.add_argument("--f-mhz", type=float, required=True, help="the engine's clock (an assumption until the RTL exists)")
    ap.add_argument("--latency-ns", type=float, default=0.0, help="the memory's round trip")
    a = ap.parse_args(argv)
    if a.primes is None:
        if a.logq is None or a.limb_bits is None:
            ap.error("give --primes, or --logq and --limb-bits")
        a.primes = stream_primes(a.n, a.logq, a.limb_bits)
    try:
        p = MultipassParams(a.n, a.primes, a.n1, lanes=a.lanes, bus_bits=a.bus_bits, burst_beats=a.burst_beats,
                            limb_mode=a.limb_mode, limb_bits=a.limb_bits, columns=a.columns)
    except MultipassError as e:
        ap.exit(2, f"error: {e}\n")
    print(summary(p, a.f_mhz * 1e6, a.latency_ns * 1e-9))


if __name__ == "__main__":
    main()
