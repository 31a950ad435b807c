"""The negacyclic NTT golden model (ntt.ntt) against SEAL's published values, a schoolbook
negacyclic product and sympy's cyclic NTT: three oracles that share none of its code."""
import random

import pytest
from sympy import primitive_root
from sympy.discrete.transforms import ntt as sympy_ntt

from ntt.ntt import (NttParameterError, bitrev, find_psi, intt, negacyclic_schoolbook, ntt, polymul,
                        root_powers_bitrev)
from primetools.primes import ntt_prime

SEAL_Q = 0xffffffffffc0001  # 1152921504606584833


def test_seal_values():
    assert SEAL_Q == 1152921504606584833
    assert ntt([1, 1], SEAL_Q, 288794978602139552) == [288794978602139553, 864126526004445282]
    assert root_powers_bitrev(4, SEAL_Q, 178930308976060547) == \
        [1, 288794978602139552, 178930308976060547, 748001537669050592]


def cases():
    rng = random.Random(7)
    for n in (2, 4, 8, 16, 64):
        for bits in (17, 30, 60):
            q = ntt_prime(bits, 2 * n, rng.randrange(3))
            yield n, q, find_psi(n, q), rng


@pytest.mark.parametrize("n,q,psi,rng", list(cases()))
def test_against_sympy_and_schoolbook(n, q, psi, rng):
    a = [rng.randrange(q) for _ in range(n)]
    b = [rng.choice((0, q - 1, rng.randrange(q))) for _ in range(n)]
    # sympy: cyclic NTT with w = g^((q-1)/N); with psi = g^((q-1)/2N), the negacyclic transform
    # is the cyclic one of a_i psi^i, read in bit-reversed order.
    g = primitive_root(q)
    psi_g = pow(g, (q - 1) // (2 * n), q)
    cyc = sympy_ntt([x * pow(psi_g, i, q) % q for i, x in enumerate(a)], q)
    bits = n.bit_length() - 1
    assert ntt(a, q, psi_g) == [cyc[bitrev(j, bits)] for j in range(n)]
    assert intt(ntt(a, q, psi), q, psi) == a
    assert polymul(a, b, q, psi) == negacyclic_schoolbook(a, b, q)


@pytest.mark.parametrize("n,q,psi,match", [
    (6, 97, 1, "not a power of two"),
    (4, 91, 1, "not prime"),
    (4, 101, 1, "not 1 mod 2N"),
    (4, 97, 1, "not a primitive 2N-th root"),
])
def test_parameter_errors(n, q, psi, match):
    with pytest.raises(NttParameterError, match=match):
        ntt([0] * n, q, psi)
