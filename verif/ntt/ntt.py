"""Golden model of the negacyclic NTT over Z_q[x]/(x^N + 1), in SEAL's conventions.

Forward: natural-order input, bit-reversed output, as SEAL's ``ntt_negacyclic_harvey``:
    ntt(a)[j] = a(psi^(2*bitrev(j) + 1)) = sum_i a_i * psi^((2*bitrev(j)+1)*i)  mod q
with psi a primitive 2N-th root of unity (psi^N = -1). Inverse: bit-reversed input, natural
output, N^-1 included. Both are direct evaluations (O(N^2)): a structure unlike the butterfly
network the hardware uses, so they can serve as its oracle. Tests check them against SEAL's
published values, a schoolbook negacyclic product and sympy's cyclic NTT.
"""
from primetools.primes import is_probable_prime


class NttParameterError(ValueError):
    """N, q or psi break the transform's preconditions."""


def bitrev(x: int, bits: int) -> int:
    return int(format(x, f"0{bits}b")[::-1], 2) if bits else 0


def check_params(n: int, q: int, psi: int) -> int:
    """Returns log2(N); raises NttParameterError naming the broken condition."""
    if n < 1 or n & (n - 1):
        raise NttParameterError(f"N = {n} is not a power of two")
    if not is_probable_prime(q):
        raise NttParameterError(f"q = {q} is not prime")
    if (q - 1) % (2 * n):
        raise NttParameterError(f"q = {q} is not 1 mod 2N = {2 * n}: no 2N-th roots of unity")
    if pow(psi, n, q) != q - 1:
        raise NttParameterError(f"psi = {psi} is not a primitive 2N-th root of unity mod q (psi^N != -1)")
    return n.bit_length() - 1


def find_psi(n: int, q: int) -> int:
    """The smallest primitive 2N-th root of unity mod q (psi^N = -1)."""
    if (q - 1) % (2 * n):
        raise NttParameterError(f"q = {q} is not 1 mod 2N = {2 * n}")
    for g in range(2, q):
        psi = pow(g, (q - 1) // (2 * n), q)
        if pow(psi, n, q) == q - 1:
            return psi
    raise NttParameterError(f"no primitive 2N-th root of unity mod {q}")


def ntt(a, q: int, psi: int):
    n = len(a)
    bits = check_params(n, q, psi)
    out = []
    for j in range(n):
        w = pow(psi, 2 * bitrev(j, bits) + 1, q)
        acc, p = 0, 1
        for x in a:
            acc = (acc + x * p) % q
            p = p * w % q
        out.append(acc)
    return out


def intt(y, q: int, psi: int):
    n = len(y)
    bits = check_params(n, q, psi)
    n_inv, psi_inv = pow(n, -1, q), pow(psi, -1, q)
    return [n_inv * sum(y[j] * pow(psi_inv, (2 * bitrev(j, bits) + 1) * i, q) for j in range(n)) % q
            for i in range(n)]


def pointwise(a, b, q: int):
    return [x * y % q for x, y in zip(a, b)]


def negacyclic_schoolbook(a, b, q: int):
    """a*b mod (x^N + 1, q), term by term: the oracle for the whole polynomial product."""
    n = len(a)
    c = [0] * n
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            k = i + j
            if k < n:
                c[k] = (c[k] + x * y) % q
            else:
                c[k - n] = (c[k - n] - x * y) % q
    return c


def polymul(a, b, q: int, psi: int):
    """NTT(a), NTT(b), pointwise, INTT: the tile's command sequence for one product."""
    return intt(pointwise(ntt(a, q, psi), ntt(b, q, psi), q), q, psi)


def root_powers_bitrev(n: int, q: int, psi: int):
    """psi^bitrev(i) for i < N: SEAL's table of root powers (the forward twiddles)."""
    bits = check_params(n, q, psi)
    return [pow(psi, bitrev(i, bits), q) for i in range(n)]
