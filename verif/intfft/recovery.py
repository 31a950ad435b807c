"""Addition recovery (Cao et al., Eq. 7, Section 3.4, Fig. 4): the k IFFT outputs z_t (each < p)
of one block product become its kb-bit product as kb/d words of d bits, one word per clock.

  Fig. 4(i)  the two-by-two adder tree, registered at every level: level l adds adjacent entries,
             e_{l+1,i} = e_{l,2i} + (e_{l,2i+1} << (b 2^l)). After log2(d/b) levels (the paper
             prints "d/b levels"; with a fan-in of d/b it is log2(d/b): 2, 2, 3, 3 levels for
             d/b = 4, 4, 8, 8) the entries are z'_i = sum_{u < d/b} z_{i d/b + u} 2^(ub),
             i < kb/d, word i aligned at bit i d.
  Fig. 4(ii) the registered carry chain: c_{-1} = 0; s_i = z'_i + c_{i-1};
             out_i = s_i mod 2^d (written on clock i), c_i = s_i >> d.
             out_0 = z'_0 mod 2^d, out_1 = (z'_1 + (z'_0 >> d)) mod 2^d, ... as printed.

Widths (for z_t < 2^m): z'_i < 2^(m + d - b + 1) (ZP_BITS), carry < 2^(m - b + 2) (CARRY_BITS).
For a block product (< 2^(kb)) the carry out of the last word is 0 (asserted).

The tree's latency plus the chain's registers are the paper's N_AR = 8 cycles.
"""
from .params import is_pow2

N_AR = 8


def widths(m: int, b: int, d: int) -> dict:
    zp_max = ((1 << m) - 1) * (((1 << d) - 1) // ((1 << b) - 1))   # sum_u (2^m - 1) 2^(ub), u < d/b
    carry_max = (zp_max + (1 << (m - b + 2))) >> d
    return {"ZP_BITS": zp_max.bit_length(), "CARRY_BITS": carry_max.bit_length()}


def adder_tree(z: list, b: int, d: int) -> list:
    """[level 0 = z, level 1, ..., level log2(d/b)]: the registered two-by-two tree (Fig. 4(i))."""
    if d % b or not is_pow2(d // b) or len(z) % (d // b):
        raise ValueError(f"adder tree: d/b = {d}/{b} must be a power of two dividing k = {len(z)}")
    levels, width = [list(z)], b
    while width < d:
        prev = levels[-1]
        levels.append([prev[2 * i] + (prev[2 * i + 1] << width) for i in range(len(prev) // 2)])
        width *= 2
    return levels


def carry_chain(zp: list, d: int, final_carry_zero: bool = True):
    """Yields (clock, word): Fig. 4(ii), one d-bit word per clock."""
    carry, mask = 0, (1 << d) - 1
    for i, e in enumerate(zp):
        s = e + carry
        yield i, s & mask
        carry = s >> d
    if final_carry_zero and carry:
        raise AssertionError(f"addition recovery: carry {carry} out of the last word (product >= 2^(kb))")


def recover(z: list, b: int, d: int) -> list:
    """The kb/d product words, LSB first."""
    return [w for _, w in carry_chain(adder_tree(z, b, d)[-1], d)]
