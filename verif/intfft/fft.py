"""The Integer-FFT block multiplier (Cao et al., Algorithm 1, Section 3.2, Fig. 2), in the exact
order of operations of the hardware network.

One call multiplies two kb/2-bit blocks x, y into the kb-bit product:

  Step 1  digits(x): k/2 digits of b bits, LSB first, zero-padded to k (acyclic product). The
          printed Eq. (3) is garbled; it should read x = sum_{t<k/2} x_t 2^(tb) (erratum 1).
  Step 2  forward(digits): k-point transform over Z/pZ, X_T = sum_t x_t omega^(Tt).
  Step 3  pointwise(X, Y): Z_T = X_T Y_T mod p (k reduced m x m products).
  Step 4  inverse(Z): z_t = k^-1 sum_T Z_T omega^(-tT), k^-1 folded into the last stage.
  Step 5  recovery.recover(z): carry propagation into d-bit words (recovery.py).

The transform (both directions) is a radix-2 decimation-in-time network: the input is taken in
bit-reversed order (wiring), then log2 k stages; stage s (half-span h = 2^s) has k/2 unified
butterflies (Fig. 2(ii)) on (start + j, start + j + h), start a multiple of 2h, j < h, with the
twiddle omega_down = w^(j k/(2h)) (w = omega forward, omega^-1 inverse):

    t      = reduce(x_down * omega_down)
    u      = x_up                           all stages but the last inverse one
    u      = reduce(x_up * omega_up)        last inverse stage: omega_up = k^-1 and
                                            omega_down = k^-1 omega^(-j) (the paper's hat-omega^-1)
    X_up   = u + t  (mod p: one conditional subtraction of p)
    X_down = u - t  (mod p: one conditional addition of p)

Output in natural order. Products are reduced with the group's reducer (reducers.py). For the
fermat groups (p = 2^(m-1)+1, omega = 2^u) every twiddle, k^-1 included, is +-2^s with
0 <= s < m-1, so the multiply is multiplier-free: a negacyclic rotation of x by s, then one
subtraction and one correction (reducers.FermatTwiddle, the RTL's FermatTwiddle).

Two organisations, same arithmetic:
  * "parallel": log2 k stages x k/2 butterflies, each stage N_F = 8 pipeline cycles (the paper's);
  * "folded":  P butterfly units; stage s takes ceil(k/(2P)) issue cycles, butterflies issued in
               schedule order (stage by stage, P at a time). folded_schedule() lists the order;
               the result equals the parallel network's (the tests check it).
"""
from math import ceil

from . import reducers
from .params import FftGroup, check_group, is_pow2

N_F = 8     # pipeline stages per butterfly stage (the paper's N_F)
N_PW = 8    # pipeline stages of the pointwise multiply (N_PW)


def bitrev(i: int, bits: int) -> int:
    return int(format(i, f"0{bits}b")[::-1], 2) if bits else 0


def folded_schedule(k: int, units: int) -> list:
    """[(cycle, stage, start, j)]: the butterfly issue order of a P-unit folded transform."""
    if not is_pow2(units) or units > k // 2:
        raise ValueError(f"folded FFT: P = {units} butterfly units must be a power of two <= k/2 = {k // 2}")
    out, cycle, h, s = [], 0, 1, 0
    while h < k:
        flies = [(start, j) for start in range(0, k, 2 * h) for j in range(h)]
        for n in range(0, len(flies), units):
            out.extend((cycle, s, start, j) for start, j in flies[n:n + units])
            cycle += 1
        h, s = 2 * h, s + 1
    return out


class IntegerFFT:
    """The block multiplier of one FFT group. organisation: "parallel" or ("folded", P)."""

    def __init__(self, group: FftGroup, organisation="parallel"):
        self.g = check_group(group)
        self.p, self.k, self.b = group.p, group.k, group.b
        self.bits = group.log2k
        self.red = reducers.for_group(group)
        self.organisation = organisation
        if organisation == "parallel":
            self.order = [(0, s, start, j) for s in range(self.bits)
                          for start in range(0, self.k, 2 << s) for j in range(1 << s)]
        elif isinstance(organisation, tuple) and organisation[0] == "folded":
            self.order = folded_schedule(self.k, organisation[1])
        else:
            raise ValueError(f"unknown FFT organisation {organisation!r}: 'parallel' or ('folded', P)")
        p, k = self.p, self.k
        self.kinv = pow(k, -1, p)
        self.omega_inv = pow(group.omega, -1, p)
        self.shift = group.reducer == "fermat"
        if self.shift:
            self.u = group.omega.bit_length() - 1          # omega = 2^u
            self.period = 2 * (group.m - 1)                # 2 has order 2(m-1) mod 2^(m-1)+1
            self.twiddle_mul = reducers.FermatTwiddle(group.m)

    # ---- twiddles: an int (multiplier) or a (neg, s) pair (fermat shift) ----

    def _twiddle(self, e: int, inverse: bool, scaled: bool):
        """omega^(+-e), times k^-1 when scaled."""
        if self.shift:
            x = (-self.u * e if inverse else self.u * e) - (self.bits if scaled else 0)
            x %= self.period
            half = self.period // 2
            return (x >= half, x - half if x >= half else x)
        w = pow(self.omega_inv if inverse else self.g.omega, e, self.p)
        return w * self.kinv % self.p if scaled else w

    def twiddle_value(self, tw) -> int:
        if self.shift:
            neg, s = tw
            return (-(1 << s)) % self.p if neg else (1 << s) % self.p
        return tw

    def mul(self, x: int, tw) -> int:
        """x * twiddle mod p: a rotation for fermat groups, a product and the reducer otherwise."""
        if self.shift:
            neg, s = tw
            return self.twiddle_mul.mul(x, neg, s)
        return self.red.reduce(x * tw)

    def _add(self, a, b):
        s = a + b
        return s - self.p if s >= self.p else s

    def _sub(self, a, b):
        s = a - b
        return s + self.p if s < 0 else s

    # ---- Algorithm 1 ----

    def digits(self, block: int) -> list:
        """Step 1: the k/2 b-bit digits of a kb/2-bit block, LSB first, zero-padded to k."""
        if not 0 <= block < 1 << self.g.block_bits:
            raise ValueError(f"block {block:#x} does not fit kb/2 = {self.g.block_bits} bits")
        mask = (1 << self.b) - 1
        return [(block >> (t * self.b)) & mask for t in range(self.k // 2)] + [0] * (self.k // 2)

    def transform(self, a: list, inverse: bool = False) -> list:
        """Steps 2 and 4: the DIT network in self.order; k^-1 folded into the last inverse stage."""
        k = self.k
        if len(a) != k or not all(0 <= v < self.p for v in a):
            raise ValueError(f"transform input must be {k} residues mod p")
        v = [a[bitrev(i, self.bits)] for i in range(k)]
        last = self.bits - 1
        kinv = self._twiddle(0, True, True)
        for _, s, start, j in self.order:
            h = 1 << s
            scaled = inverse and s == last
            tw = self._twiddle(j * (k >> (s + 1)), inverse, scaled)
            u, t = v[start + j], self.mul(v[start + j + h], tw)
            if scaled:
                u = self.mul(u, kinv)
            v[start + j], v[start + j + h] = self._add(u, t), self._sub(u, t)
        return v

    def forward(self, a: list) -> list:
        return self.transform(a, False)

    def inverse(self, a: list) -> list:
        return self.transform(a, True)

    def pointwise(self, X: list, Y: list) -> list:
        """Step 3."""
        return [self.red.reduce(x * y) for x, y in zip(X, Y)]

    def coefficients(self, x: int, y: int, X: list = None, Y: list = None) -> list:
        """z_t, t < k: the exact acyclic convolution of the digits of two blocks (Steps 1-4).
        X, Y: forward transforms already computed (a model shortcut; the hardware recomputes)."""
        X = X if X is not None else self.forward(self.digits(x))
        Y = Y if Y is not None else self.forward(self.digits(y))
        return self.inverse(self.pointwise(X, Y))

    def block_product(self, x: int, y: int) -> int:
        """x * y for two kb/2-bit blocks, through Steps 1-5."""
        from .recovery import recover
        words = recover(self.coefficients(x, y), self.b, self.g.d)
        return sum(w << (i * self.g.d) for i, w in enumerate(words))

    # ---- timing ----

    def transform_cycles(self) -> int:
        """Issue cycles of one transform: 1 for the parallel network (a new one every cycle),
        log2 k * ceil(k/(2P)) for P folded units."""
        if self.organisation == "parallel":
            return 1
        return self.bits * ceil(self.k / (2 * self.organisation[1]))

    def latency(self) -> int:
        """Pipeline latency of one block product through the transforms and the pointwise multiply:
        2 N_F log2 k + N_PW (the paper's parallel network: 16 log2 k + 8)."""
        return 2 * N_F * self.bits + N_PW
