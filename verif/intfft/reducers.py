"""The three modular reducers of the Integer-FFT butterflies and pointwise products (Cao et al.,
Section 3.3, Fig. 3), bit-accurate: each computes what the hardware computes, word by word, with
the widths below, and asserts every intermediate against its documented range.

  DhemBarrett(p)    any m-bit p (Fig. 3(i), Algorithm 2, Eq. 8) with beta = -4, alpha = m + 4:
                      P1    = floor(2^(2m+4) / p)          an (m+5)-bit constant (the paper: "m+4 bits",
                                                           erratum 4; 0x1001000ff0 for p = 0xfff00001)
                      sigma = ((x >> (m-4)) * P1) >> (m+8)  (m+4) x (m+5) -> 2m+9-bit product, top m+1 bits
                      y1    = (x - sigma*p) mod 2^(m+1)     only the low m+1 bits are built
                      y2    = y1 - p ;  y = y2 if y2 >= 0 else y1
                    input [0, 2^(2m)); m >= 4, p odd; quotient error floor(x/p) - sigma in {0, 1}; output [0, p)

  FermatReducer(m)  p = 2^(m-1) + 1 (Fig. 3(ii)): 2^(m-1) = -1, 2^(2m-2) = 1 (mod p):
                      y1 = x[m-2:0] + x[2m-1:2m-2] - x[2m-3:m-1]   in [-(2^(m-1)-1), 2^(m-1)+2]
                      y  = y1 + p if y1 < 0 else y1
                    input [0, p^2) (every product of two residues and every shifted twiddle
                    product); output [0, p). For 2m-bit inputs above p^2 the output can be p or
                    p + 1: IN_MAX is p^2, not 2^(2m).

  SolinasReducer(h) p = 2^(2h) - 2^h + 1 (Fig. 3(iii); h = 32: 2^64 - 2^32 + 1). x = 2^(3h)a + 2^(2h)b
                    + 2^h c + d with h-bit a, b, c, d; 2^(3h) = -1, 2^(2h) = 2^h - 1 (mod p):
                      upper = (b + c) << h       (2h+1 bits, unsigned)
                      lower = d - a - b          (h+2 bits, signed, in (-2^(h+1), 2^h))
                      r     = upper + lower      in (-2^h, 2p)  -- NOT the printed (p, 2p) (erratum 5)
                      y     = r + p if r < 0 ; r - p if r >= p ; r otherwise   (the 3:1 select)
                    input [0, 2^(4h)); output [0, p). Both corrections are needed: x = 5*2^(3h)
                    gives r = -5, x = 0 gives r = 0, x = (p-1)^2 ... see the tests.

Each reducer has reduce(x) -> y and trace(x) -> dict of the intermediates (for the RTL later).
"""
from .params import fermat_form, solinas_half


class ReducerRangeError(ValueError):
    """An input outside the reducer's documented input range."""


class DhemBarrett:
    kind = "dhem"
    BETA = -4

    def __init__(self, p: int):
        self.p = p
        self.m = m = p.bit_length()
        if m < 4 or p % 2 == 0:
            raise ValueError(f"Dhem Barrett with beta = -4 needs an odd p of at least 4 bits (x >> (m-4)); p = {p}")
        self.ALPHA = m + 4
        self.P1 = (1 << (m + self.ALPHA)) // p           # floor(2^(2m+4) / p)
        self.P1_BITS = m + 5
        self.P1_BITS_PRINTED = m + 4                     # the paper's width (too small: erratum 4)
        assert self.P1.bit_length() == self.P1_BITS
        self.SHIFT_IN = m + self.BETA                    # x >> (m-4): m+4 bits
        self.SHIFT_OUT = self.ALPHA - self.BETA          # >> (m+8)
        self.IN_MAX = 1 << (2 * m)                       # inputs [0, 2^(2m))
        self.SIGMA_BITS = m + 1
        self.Y1_BITS = m + 1                             # low bits of x - sigma*p actually built

    def trace(self, x: int, p1: int = None) -> dict:
        """The datapath for x; p1 overrides the constant (the erratum test passes the printed width)."""
        if not 0 <= x < self.IN_MAX:
            raise ReducerRangeError(f"Barrett input {x} outside [0, 2^{2 * self.m})")
        p1 = self.P1 if p1 is None else p1
        xh = x >> self.SHIFT_IN
        prod = xh * p1
        sigma = prod >> self.SHIFT_OUT
        p2 = sigma * self.p
        mask = (1 << self.Y1_BITS) - 1
        y1 = (x - p2) & mask                             # the m+1-bit subtractor
        y2 = y1 - self.p                                 # its sign bit selects
        y = y1 if y2 < 0 else y2
        return {"xh": xh, "prod": prod, "sigma": sigma, "p2": p2, "y1": y1, "y2": y2, "y": y}

    def reduce(self, x: int) -> int:
        t = self.trace(x)
        assert t["xh"] < 1 << (self.m + 4) and t["sigma"] < 1 << self.SIGMA_BITS
        assert 0 <= x - t["p2"] < 2 * self.p, "Barrett quotient error above 1"
        assert 0 <= t["y"] < self.p
        return t["y"]


class FermatReducer:
    kind = "fermat"

    def __init__(self, m: int):
        self.m = m
        self.p = p = (1 << (m - 1)) + 1
        self.IN_MAX = p * p                              # inputs [0, p^2)
        self.Y1_MIN = -((1 << (m - 1)) - 1)
        self.Y1_MAX = (1 << (m - 1)) + 2

    def trace(self, x: int) -> dict:
        m = self.m
        if not 0 <= x < 1 << (2 * m):
            raise ReducerRangeError(f"special-modulus input {x} outside [0, 2^{2 * m})")
        lo = x & ((1 << (m - 1)) - 1)                    # x[m-2:0]
        mid = (x >> (m - 1)) & ((1 << (m - 1)) - 1)      # x[2m-3:m-1]
        top = x >> (2 * m - 2)                           # x[2m-1:2m-2]
        y1 = lo + top - mid
        y = y1 + self.p if y1 < 0 else y1
        return {"lo": lo, "mid": mid, "top": top, "y1": y1, "y": y}

    def reduce(self, x: int) -> int:
        if not 0 <= x < self.IN_MAX:
            raise ReducerRangeError(f"special-modulus input {x} outside [0, p^2) for p = 2^{self.m - 1}+1")
        t = self.trace(x)
        assert self.Y1_MIN <= t["y1"] <= self.Y1_MAX
        assert 0 <= t["y"] < self.p
        return t["y"]


class FermatTwiddle:
    """x * (-1)^neg 2^s mod p for p = 2^n + 1 (n = m - 1), s < n, as a negacyclic rotation: the
    model of hw/.../intfft/FermatTwiddle.scala, register by register. With 2^n = -1 and x < 2^n,
    x 2^s = H 2^n + L is L - H mod p, and rotl_n(x, s) holds L above bit s and H below it.
    x = 2^n (= -1) becomes 1 with the sign flipped. Fully reduced output, no reducer after it."""
    kind = "fermat-twiddle"

    def __init__(self, m: int):
        self.m, self.n = m, m - 1
        self.p = (1 << self.n) + 1

    def trace(self, x: int, neg: bool, s: int) -> dict:
        n, full = self.n, (1 << self.n) - 1
        if not 0 <= x < self.p or not 0 <= s < n:
            raise ReducerRangeError(f"fermat twiddle: x = {x} must be below p = 2^{n}+1 and s = {s} below {n}")
        top = x >> n
        xr = (x & full) | top                            # register 1
        r = ((xr << s) | (xr >> (n - s))) & full
        neg = bool(neg) ^ bool(top)
        mask = (1 << s) - 1                              # register 2
        hi, lo = r & mask, r & ~mask & full
        d = hi - lo if neg else lo - hi
        y = d + self.p if d < 0 else d                   # register 3
        return {"r": r, "neg": neg, "d": d, "y": y}

    def mul(self, x: int, neg: bool, s: int) -> int:
        t = self.trace(x, neg, s)
        assert -(1 << self.n) < t["d"] < 1 << self.n and 0 <= t["y"] < self.p
        return t["y"]


class SolinasReducer:
    kind = "solinas"

    def __init__(self, h: int):
        self.h = h
        self.p = p = (1 << 2 * h) - (1 << h) + 1
        self.IN_MAX = 1 << (4 * h)
        self.UPPER_BITS = 2 * h + 1
        self.LOWER_MIN, self.LOWER_MAX = -(1 << (h + 1)) + 2, (1 << h) - 1
        self.R_MIN, self.R_MAX = -((1 << h) - 1), 2 * p - 2   # r in (-2^h, 2p): both ends reached
        self.PRINTED_RANGE = (p, 2 * p)                       # open interval as printed (erratum 5)

    def trace(self, x: int) -> dict:
        h = self.h
        if not 0 <= x < self.IN_MAX:
            raise ReducerRangeError(f"Solinas input {x} outside [0, 2^{4 * h})")
        mask = (1 << h) - 1
        d, c, b, a = x & mask, (x >> h) & mask, (x >> 2 * h) & mask, x >> 3 * h
        upper = (b + c) << h
        lower = d - a - b
        r = upper + lower
        if r < 0:
            y, sel = r + self.p, "+p"
        elif r >= self.p:
            y, sel = r - self.p, "-p"
        else:
            y, sel = r, "r"
        return {"a": a, "b": b, "c": c, "d": d, "upper": upper, "lower": lower, "r": r, "sel": sel, "y": y}

    def reduce(self, x: int) -> int:
        t = self.trace(x)
        assert t["upper"] < 1 << self.UPPER_BITS
        assert self.LOWER_MIN <= t["lower"] <= self.LOWER_MAX
        assert self.R_MIN <= t["r"] <= self.R_MAX
        assert 0 <= t["y"] < self.p
        return t["y"]


def for_group(g):
    """The reducer instance of an FftGroup (params.FftGroup)."""
    if g.reducer == "fermat":
        assert fermat_form(g.p)
        return FermatReducer(g.m)
    if g.reducer == "solinas":
        return SolinasReducer(solinas_half(g.p))
    return DhemBarrett(g.p)
