"""The streaming engine's arithmetic on one limb, as ``LimbEngine`` and ``StreamTwiddles``
(hw/src/main/scala/modforge/polymul/) compute it: the negacyclic product a b mod (x^n + 1) in Z_q by
Longa and Naehrig's loops with psi merged into the twiddles ("Speeding up the Number Theoretic
Transform for Faster Ideal Lattice-Based Cryptography", CANS 2016, Algorithms 1 and 2). The forward
transform (Cooley-Tukey) takes natural order to bit-reversed order, the pointwise product works in
that order, and the inverse (Gentleman-Sande) takes it back to natural order, with N^-1 on its last
stage's multiplications. No weighting pass, no bit reversal.

The multi-pass engine's rows pass is this product at n2 points (``polymul.multipass``). The host
helpers and the oracle of the streaming engine are ``polymul.stream``, which shares nothing with
this module.
"""
from functools import lru_cache
from typing import Tuple


def _rev(x: int, bits: int) -> int:
    return int(format(x, f"0{bits}b")[::-1], 2) if bits else 0


@lru_cache(maxsize=64)
def twiddles(n: int, q: int, psi: int) -> Tuple[Tuple[int, ...], Tuple[int, ...], int]:
    """StreamTwiddles for (n, q, psi): psi^rev(k) and psi^-rev(k) for k < n (rev the log2(n)-bit
    reversal; the forward stage s, block i uses entry 2^s + i, the inverse stage r, block i entry
    n / 2^(r+1) + i), and n^-1."""
    if n < 1 or n & (n - 1):
        raise ValueError(f"n = {n} is not a power of two")
    if pow(psi, n, q) != q - 1:
        raise ValueError(f"psi = {psi} is not a primitive {2 * n}-th root of unity mod q = {q} (psi^n != -1)")
    bits = n.bit_length() - 1
    psi_inv = pow(psi, -1, q)
    fwd = tuple(pow(psi, _rev(k, bits), q) for k in range(n))
    inv = tuple(pow(psi_inv, _rev(k, bits), q) for k in range(n))
    return fwd, inv, pow(n, -1, q)


def forward(a, q: int, psi: int):
    """Algorithm 1: y[rev(k)] = a(psi^(2k + 1)), natural order in, bit-reversed order out."""
    n = len(a)
    fwd, _, _ = twiddles(n, q, psi)
    y = list(a)
    t, m = n, 1
    while m < n:
        t //= 2
        for i in range(m):
            s = fwd[m + i]
            j1 = 2 * i * t
            for j in range(j1, j1 + t):
                u, v = y[j], y[j + t] * s % q
                y[j], y[j + t] = (u + v) % q, (u - v) % q
        m *= 2
    return y


def inverse(y, q: int, psi: int):
    """Algorithm 2, bit-reversed order in, natural order out, N^-1 folded into the last stage
    (both of its outputs: n^-1 on the upper, psi^-rev(1) n^-1 on the lower, as the RTL does)."""
    n = len(y)
    _, inv, n_inv = twiddles(n, q, psi)
    a = list(y)
    if n == 1:
        return [a[0] * n_inv % q]
    t, m = 1, n
    while m > 1:
        h = m // 2
        last = h == 1
        for i in range(h):
            s = inv[h + i] * n_inv % q if last else inv[h + i]
            j1 = 2 * i * t
            for j in range(j1, j1 + t):
                u, v = a[j], a[j + t]
                a[j] = (u + v) * n_inv % q if last else (u + v) % q
                a[j + t] = (u - v) * s % q
        t *= 2
        m = h
    return a


def limb_product(a, b, q: int, psi: int):
    """One limb of the streaming engine: a b mod (x^n + 1) in Z_q, n = len(a), residues in [0, q)
    in and out; psi any primitive 2n-th root of unity mod q (the product does not depend on it)."""
    if len(a) != len(b):
        raise ValueError(f"operands of {len(a)} and {len(b)} coefficients")
    fa, fb = forward(a, q, psi), forward(b, q, psi)
    return inverse([x * y % q for x, y in zip(fa, fb)], q, psi)
