"""The super-size Barrett reduction mod A0 (Cao et al., Section 4, Eqs. 9-11, Fig. 6(iii)): two
passes of the same block-schoolbook multiplier plus a d-bit serial subtract-and-select.

x is the (phi + gamma)-bit accumulated sum (gamma << phi), A0 the phi-bit public-key modulus.

  Eq. (10)  beta  = floor(phi/d) d - phi        if that is < -2
                  = floor(phi/d) d - phi - d    otherwise        (phi + beta is a multiple of d)
  Eq. (11)  alpha = (floor((phi - beta)/d) + 1) d + beta         (alpha - beta is a multiple of d)
  Step 1    A01 = floor(2^(phi+alpha) / A0), precomputed into the RAM
  Step 2    q = x[phi+gamma-1 : phi+beta] * A01      pass 1: x read from word (phi+beta)/d
  Step 3    r = q[alpha+gamma-beta : alpha-beta] * A0  pass 2: q read from word (alpha-beta)/d
  Step 4    y1 = x[phi:0] - r[phi:0] (mod 2^(phi+1)), y2 = y1 - A0, word-serial over
            ceil((phi+1)/d) words of d bits (x, r, A0 on three read buses; y1, y2 written);
            the borrow out of y2's top word is the flag: y = y1 if it is set, y2 otherwise.

The quotient estimate sigma = q >> (alpha - beta) is floor(x/A0) or one less (beta < -2 and
alpha > gamma, Dhem), so x - sigma A0 is in [0, 2 A0) and phi + 1 bits of it suffice; the model
asserts both.

Refusals (BarrettParamError, naming the condition): d <= 2 (Eq. 10 assumes d > 2); A0 < 2;
an A0 so short that Eq. (10)'s beta gives phi + beta < 0 (no word address for x[.. : phi+beta]:
phi mod d <= 2 and phi < d, i.e. a 1- or 2-bit A0); alpha <= gamma (Eq. 11's claim alpha > gamma fails: x too long
for this A0); x outside [0, 2^(phi+gamma)).

Cycles: pass 1 + pass 2 (schoolbook.model_cycles each) + ceil((phi+1)/d) subtractor words.
"""
from math import ceil
from typing import NamedTuple

from .params import FftGroup
from .schoolbook import RamModel, SchoolbookMultiplier, blocks, DEFAULT_RAM_WORDS


class BarrettParamError(ValueError):
    """A super-size Barrett parameter set that Eqs. (10)-(11) cannot serve."""


def beta_alpha(phi: int, d: int, gamma: int = None) -> tuple:
    """(beta, alpha) of Eqs. (10)-(11) for a phi-bit A0 and bus width d; checks alpha > gamma."""
    if d <= 2:
        raise BarrettParamError(f"Eq. (10) assumes d > 2 (d = {d}): it gives no beta < -2; use a wider bus")
    b0 = (phi // d) * d - phi
    beta = b0 if b0 < -2 else b0 - d
    if phi + beta < 0:
        raise BarrettParamError(f"Eq. (10) gives no usable beta for a {phi}-bit A0 with d = {d}: beta = {beta}, "
                                f"phi + beta = {phi + beta} < 0, so x[phi+gamma-1 : phi+beta] has no start address "
                                f"(phi mod d <= 2 with phi < d); use an A0 of at least 3 bits")
    alpha = ((phi - beta) // d + 1) * d + beta
    if gamma is not None and alpha <= gamma:
        raise BarrettParamError(f"Eq. (11) gives alpha = {alpha} <= gamma = {gamma} for a {phi}-bit A0 (d = {d}): "
                                f"the quotient estimate can be off by more than one; x may have at most "
                                f"phi + {alpha - 1} bits, or A0 must be longer")
    return beta, alpha


class Reduction(NamedTuple):
    y: int
    sigma: int
    q: int
    r: int
    y1: int
    y2: int
    flag: bool          # y2 < 0: y1 selected
    cycles: int
    pass1_cycles: int
    pass2_cycles: int
    sub_words: int


class SuperBarrett:
    """Reduction mod A0 of (phi+gamma)-bit inputs on the block multiplier of `group`."""

    def __init__(self, A0: int, gamma: int, group: FftGroup, block_mul="fft", ram_words: int = DEFAULT_RAM_WORDS):
        if A0 < 2:
            raise BarrettParamError(f"A0 = {A0}: the modulus must be >= 2")
        self.A0, self.gamma, self.g = A0, gamma, group
        self.phi = phi = A0.bit_length()
        self.d = d = group.d
        self.beta, self.alpha = beta_alpha(phi, d, gamma)
        self.A01 = (1 << (phi + self.alpha)) // A0
        self.mul = SchoolbookMultiplier(group, block_mul)
        self.ram_words = ram_words
        W, blk = group.words_per_block, group.block_bits
        # block counts of the two passes
        self.bx1 = blocks(gamma - self.beta, blk)
        self.by1 = blocks(self.A01.bit_length(), blk)
        self.bx2 = blocks(gamma + 1, blk)
        self.by2 = blocks(phi, blk)
        # RAM layout (word addresses), each region block-aligned and padded by one row of blocks so
        # that a pass reading Bx blocks from the middle of a region stays inside it
        self.sub_words = ceil((phi + 1) / d)
        sizes = {"x": W * (blocks(phi + gamma, blk) + self.bx1), "A01": W * self.by1, "A0": W * self.by2,
                 "q": W * (self.bx1 + self.by1 + self.bx2), "r": W * (self.bx2 + self.by2),
                 "y1": self.sub_words, "y2": self.sub_words}
        self.base, at = {}, 0
        for name, n in sizes.items():
            self.base[name] = at
            at += n
        self.ram_needed = at

    def reduce(self, x: int) -> Reduction:
        phi, gamma, beta, alpha, d = self.phi, self.gamma, self.beta, self.alpha, self.d
        if not 0 <= x < 1 << (phi + gamma):
            raise BarrettParamError(f"x ({x.bit_length()} bits) outside [0, 2^(phi+gamma)) = [0, 2^{phi + gamma})")
        W, B = self.g.words_per_block, self.base
        ram = RamModel(d, self.ram_words, write_buses=2)
        ram.check_fits(f"the super-size Barrett working set for a {phi}-bit A0", 0, self.ram_needed)
        ram.store("x", B["x"], x, W * blocks(phi + gamma, self.g.block_bits))
        ram.store("A01", B["A01"], self.A01, W * self.by1)
        ram.store("A0", B["A0"], self.A0, W * self.by2)
        # Step 2: pass 1, x read from word (phi + beta)/d of its region
        assert (phi + beta) % d == 0 and (alpha - beta) % d == 0
        p1 = self.mul.multiply_ram(ram, B["x"] + (phi + beta) // d, self.bx1, B["A01"], self.by1, B["q"])
        q = p1.product
        assert q == (x >> (phi + beta)) * self.A01
        # Step 3: pass 2, q read from word (alpha - beta)/d of its region
        p2 = self.mul.multiply_ram(ram, B["q"] + (alpha - beta) // d, self.bx2, B["A0"], self.by2, B["r"],
                                start=p1.cycles)
        r = p2.product
        sigma = q >> (alpha - beta)
        assert sigma < 1 << (gamma + 1) and r == sigma * self.A0
        assert 0 <= x - r < 2 * self.A0, "super-size Barrett: quotient error above 1"
        # Step 4: the d-bit serial subtract-and-select
        mask, top_bits = (1 << d) - 1, phi + 1 - d * (self.sub_words - 1)
        t_sub = p1.cycles + p2.cycles
        b1 = b2 = 0
        y1 = y2 = 0
        for u in range(self.sub_words):
            wmask = mask if u < self.sub_words - 1 else (1 << top_bits) - 1
            c = t_sub + u
            xw = ram.read(B["x"] + u, c) & wmask
            rw = ram.read(B["r"] + u, c) & wmask
            aw = ram.read(B["A0"] + u, c) if u < W * self.by2 else 0
            s1 = xw - rw - b1
            b1, w1 = int(s1 < 0), s1 & wmask
            s2 = w1 - aw - b2
            b2, w2 = int(s2 < 0), s2 & wmask
            ram.write(B["y1"] + u, w1, c)                      # the extra write buses of Fig. 6(iii)
            ram.write(B["y2"] + u, w2, c)
            y1 |= w1 << (u * d)
            y2 |= w2 << (u * d)
        flag = bool(b2)
        y = y1 if flag else y2
        cycles = t_sub + self.sub_words
        return Reduction(y, sigma, q, r, y1, y2 if not flag else y2 - (1 << (phi + 1)), flag, cycles,
                         p1.cycles, p2.cycles, self.sub_words)
