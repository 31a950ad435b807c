"""CMNT and CNT encryption (Cao et al., Eqs. 1-2, Section 4, Fig. 6) over the block models: every
product goes through the block-schoolbook multiplier (schoolbook.py) and the final reduction
through the super-size Barrett reduction (barrett.py), on one FFT group.

  CMNT (Eq. 1):  C = (M + 2R + 2 sum_{1<=i,j<=theta} B_ij A_i,0 A_j,1) mod A0
  CNT  (Eq. 2):  C = (M + 2R + 2 sum_{i<=theta} B_i A_i) mod A0
  M in {0, 1}; R in (-2^rho, 2^rho); B's delta-bit; A's phi-bit; A0 phi-bit (its top bit set here).

Schedule (the paper's): stage 1, the multiplier computes the products while the d-bit
accumulation module adds them (no extra cycles); stage 2, the super-size Barrett reduction of the
(phi + gamma)-bit sum. gamma = delta + ceil(log2 N) + 3 for N products (the doubling, the
M + 2R term, and one A0 added when M + 2R < 0 so that the accumulator stays non-negative, which
needs A0 > 2^(rho+1)).

CMNT: the paper's timed run (notes, section 2.2 A) behaves as if the theta^2 factors
P_ij = A_i,0 A_j,1 mod A0 were available: the model computes them first (a phi x phi product and a
super-size Barrett reduction with gamma = phi each; reported apart as precompute_cycles) and then
times theta^2 products B_ij P_ij (delta x phi) and the final reduction, like the paper.

Scaled-down parameters: scaled(group, phi=..., theta=...) keeps delta and rho of the paper's
group and replaces phi and/or theta; the returned SchemeGroup's name states the scaling
("Toy[phi=2000,theta=3]"). The full groups (phi up to 19.35 Mbit) are fine in the closed-form
latency model (latency.py) but far too slow for the Python FFT model.
"""
from math import ceil, log2
from typing import NamedTuple

from .barrett import SuperBarrett
from .paper_tables import SchemeGroup
from .params import FftGroup
from .schoolbook import SchoolbookMultiplier


class Encryption(NamedTuple):
    C: int
    products: int           # timed multiplications
    cycles: int             # timed: the products plus the final reduction
    reduction_cycles: int
    precompute_cycles: int  # CMNT: forming P_ij (not in the paper's timed run); 0 for CNT
    gamma: int


def scaled(group: SchemeGroup, phi: int = None, theta: int = None) -> SchemeGroup:
    """The paper's group with phi and/or theta replaced (delta, rho kept); the name states it."""
    phi = group.phi if phi is None else phi
    theta = group.theta if theta is None else theta
    return group._replace(name=f"{group.name}[phi={phi},theta={theta}]", phi=phi, theta=theta)


def gamma_for(delta: int, products: int) -> int:
    return delta + ceil(log2(max(products, 1))) + 3


def _start(M: int, R: int, rho: int, A0: int) -> int:
    if M not in (0, 1):
        raise ValueError(f"the plaintext M must be a bit, not {M}")
    if not -(1 << rho) < R < 1 << rho:
        raise ValueError(f"R = {R} outside (-2^rho, 2^rho) for rho = {rho}")
    acc = M + 2 * R
    if acc < 0:
        if A0 <= 1 << (rho + 1):
            raise ValueError(f"A0 ({A0.bit_length()} bits) must exceed 2^(rho+1) to absorb a negative M + 2R")
        acc += A0
    return acc


class Encryptor:
    def __init__(self, group: FftGroup, block_mul="fft"):
        self.g, self.block_mul = group, block_mul
        self.mul = SchoolbookMultiplier(group, block_mul)

    def _product(self, a: int, b: int) -> tuple:
        """(a b, cycles) with the shorter operand as x (fewer schoolbook rows)."""
        x, y = (a, b) if a.bit_length() <= b.bit_length() else (b, a)
        r = self.mul.multiply(x, y)
        assert r.product == a * b
        return r.product, r.cycles

    def _reduce(self, x: int, A0: int, gamma: int) -> tuple:
        r = SuperBarrett(A0, gamma, self.g, self.block_mul).reduce(x)
        return r.y, r.cycles

    def cnt(self, M: int, R: int, B: list, A: list, A0: int, rho: int, delta: int) -> Encryption:
        """Eq. (2)."""
        if len(B) != len(A):
            raise ValueError("CNT needs as many B_i as A_i")
        acc, cycles = _start(M, R, rho, A0), 0
        for b, a in zip(B, A):
            if not 0 <= b < 1 << delta:
                raise ValueError(f"B_i = {b} is not a {delta}-bit integer")
            prod, c = self._product(b, a)
            acc += 2 * prod
            cycles += c
        gamma = gamma_for(delta, len(B))
        C, rc = self._reduce(acc, A0, gamma)
        return Encryption(C, len(B), cycles + rc, rc, 0, gamma)

    def cmnt(self, M: int, R: int, B: list, A_0: list, A_1: list, A0: int, rho: int, delta: int) -> Encryption:
        """Eq. (1); B[i][j] for 1 <= i, j <= theta (0-based here)."""
        theta = len(A_0)
        if len(A_1) != theta or len(B) != theta or any(len(row) != theta for row in B):
            raise ValueError("CMNT needs theta A_i,0, theta A_j,1 and a theta x theta B")
        phi = A0.bit_length()
        pre = 0
        P = {}
        for i in range(theta):
            for j in range(theta):
                prod, c = self._product(A_0[i], A_1[j])
                P[i, j], rc = self._reduce(prod, A0, max(phi, 1))
                pre += c + rc
        acc, cycles = _start(M, R, rho, A0), 0
        for i in range(theta):
            for j in range(theta):
                if not 0 <= B[i][j] < 1 << delta:
                    raise ValueError(f"B_{i + 1},{j + 1} = {B[i][j]} is not a {delta}-bit integer")
                prod, c = self._product(B[i][j], P[i, j])
                acc += 2 * prod
                cycles += c
        gamma = gamma_for(delta, theta * theta)
        C, rc = self._reduce(acc, A0, gamma)
        return Encryption(C, theta * theta, cycles + rc, rc, pre, gamma)
