"""Parameters of the Integer-FFT block multiplier (Cao et al., Table 3) and of the CMNT/CNT
encryption groups (Tables 1-2), with the checks the generator applies before it builds anything.

An FFT group is (p, k, omega, b) plus the RAM bus width d. The paper fixes d = kb/16, so that one
kb/2-bit block is kb/(2d) = 8 bus words; d/b (the adder-tree fan-in of addition recovery) must be a
power of two. make_group() refuses, with a ParamError naming the condition and the fix:

  * p not odd or < 3;                     * k not a power of two (k >= 2);
  * b < 1; d not dividing kb/2, not a multiple of b, or d/b not a power of two;
  * k not dividing q - 1 for every prime factor q of p (the paper's condition, with q | p);
  * omega not a principal k-th root of unity: omega^k != 1, or omega^(k/2) - 1 not a unit mod p
    (for prime p: the order of omega is not exactly k). The paper states the condition with
    "prime divisor q of p"; it is q of k (notes, erratum 12). Its printed roots 7 (Solinas) and 17
    (general) fail this check (erratum 3); the corrected roots below pass;
  * the exactness bound (k/2)(2^b - 1)^2 >= p: an acyclic convolution sum of k/2 digit products
    would wrap modulo p (not stated in the paper; the notes derive it);
  * a reducer that does not fit p (fermat: p = 2^(m-1)+1 with omega a power of two, so every
    twiddle is a shift; solinas: p = 2^(2h) - 2^h + 1; dhem: any p).

GROUPS holds the four Table 3 groups with the notes' corrected roots, in Table 4 order (the order
of the paper's d = 32, 48, 192, 224; erratum 7). table3_groups() builds the same four from the
parsed Table 3, substituting the corrected roots, so the printed p, m, k and b are the paper's.

The CMNT/CNT groups (Tables 1-2) are parsed: scheme_groups() = paper_table1() + paper_table2().
"""
from dataclasses import dataclass
from math import gcd

import sympy

from . import paper_tables

REDUCERS = ("dhem", "fermat", "solinas")
WORDS_PER_BLOCK = 8      # kb/(2d) in the paper's designs


class ParamError(ValueError):
    """A parameter set the generator refuses; the message names the condition and the fix."""


def is_pow2(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def fermat_form(p: int) -> bool:
    """p = 2^(m-1) + 1 (m = bit length of p)."""
    return p > 3 and is_pow2(p - 1)


def solinas_half(p: int):
    """h when p = 2^(2h) - 2^h + 1 (h >= 2), else None."""
    h = (p.bit_length()) // 2
    return h if h >= 2 and p == (1 << 2 * h) - (1 << h) + 1 else None


def default_reducer(p: int) -> str:
    if fermat_form(p):
        return "fermat"
    if solinas_half(p):
        return "solinas"
    return "dhem"


def multiplicative_order(w: int, p: int) -> int:
    if gcd(w, p) != 1:
        return 0
    return int(sympy.n_order(w, p))


def suggested_root(p: int, k: int):
    """A principal k-th root for prime p (g^((p-1)/k) for the smallest generator g), else None."""
    if not sympy.isprime(p) or (p - 1) % k:
        return None
    return pow(int(sympy.primitive_root(p)), (p - 1) // k, p)


def max_exact_b(p: int, k: int) -> int:
    """The largest b with (k/2)(2^b - 1)^2 < p (0 when none)."""
    b = 0
    while (k // 2) * ((1 << (b + 1)) - 1) ** 2 < p:
        b += 1
    return b


@dataclass(frozen=True)
class FftGroup:
    name: str
    p: int
    k: int
    omega: int
    b: int
    d: int
    reducer: str

    @property
    def m(self) -> int:
        """Bits of p (the FFT word width): 33, 32, 65, 64 for the four groups."""
        return self.p.bit_length()

    @property
    def log2k(self) -> int:
        return self.k.bit_length() - 1

    @property
    def block_bits(self) -> int:
        """kb/2: the bits of one operand block (k/2 digits of b bits)."""
        return self.k * self.b // 2

    @property
    def words_per_block(self) -> int:
        """kb/(2d): bus words per operand block (8 in the paper)."""
        return self.block_bits // self.d

    @property
    def tree_fanin(self) -> int:
        """d/b: coefficients summed into one d-bit word by the adder tree (4, 4, 8, 8)."""
        return self.d // self.b


def check_group(g: FftGroup) -> FftGroup:
    """Raises ParamError unless g is a parameter set the block multiplier can compute exactly."""
    p, k, w, b, d = g.p, g.k, g.omega, g.b, g.d
    where = f"FFT group {g.name!r} (p = {p:#x}, k = {k}, omega = {w:#x}, b = {b}, d = {d})"
    if p < 3 or p % 2 == 0:
        raise ParamError(f"{where}: p must be odd and >= 3 (k must be invertible mod p)")
    if k < 2 or not is_pow2(k):
        raise ParamError(f"{where}: k = {k} is not a power of two >= 2; the radix-2 network needs k = 2^n")
    if b < 1:
        raise ParamError(f"{where}: the digit width b = {b} must be >= 1")
    if d < 1 or (k * b // 2) % d or (k * b) % 2:
        raise ParamError(f"{where}: the bus width d = {d} must divide the block width kb/2 = {k * b / 2:g}; "
                         f"the paper uses d = kb/16 = {k * b / 16:g}")
    if d % b or not is_pow2(d // b):
        raise ParamError(f"{where}: d/b = {d / b:g} is not a power of two; the two-by-two adder tree of "
                         f"addition recovery sums d/b coefficients per word: choose d = b * 2^j")
    for q in sympy.factorint(p):
        if (q - 1) % k:
            raise ParamError(f"{where}: k = {k} does not divide q - 1 for the prime factor q = {q} of p: "
                             f"no k-point transform exists modulo p; use a smaller k or another p")
    if pow(w, k, p) != 1 or gcd(pow(w, k // 2, p) - 1, p) != 1:
        order = multiplicative_order(w, p)
        fix = suggested_root(p, k)
        fix = f"use omega = {fix:#x}" if fix is not None else "use an omega with omega^k = 1 and omega^(k/2) - 1 a unit mod p"
        raise ParamError(f"{where}: omega = {w} is not a principal {k}-th root of unity modulo p "
                         f"(its order is {order}, not k = {k}); {fix}")
    bound = (k // 2) * ((1 << b) - 1) ** 2
    if bound >= p:
        raise ParamError(f"{where}: the exactness bound (k/2)(2^b - 1)^2 = {bound} >= p fails: the convolution "
                         f"sums would wrap modulo p; use b <= {max_exact_b(p, k)} (or a larger p)")
    if g.reducer not in REDUCERS:
        raise ParamError(f"{where}: unknown reducer {g.reducer!r}; one of {', '.join(REDUCERS)}")
    if g.reducer == "fermat" and (not fermat_form(p) or not is_pow2(w)):
        raise ParamError(f"{where}: the fermat reducer needs p = 2^(m-1) + 1 and omega a power of two "
                         f"(shift-only twiddles); use reducer 'dhem'")
    if g.reducer == "solinas" and not solinas_half(p):
        raise ParamError(f"{where}: the solinas reducer needs p = 2^(2h) - 2^h + 1; use reducer 'dhem'")
    return g


def make_group(p: int, k: int, omega: int, b: int, d: int = None, reducer: str = None, name: str = None) -> FftGroup:
    """A checked FftGroup; d defaults to kb/16 (8 words per block), reducer to the form of p."""
    if d is None:
        if (k * b) % 16:
            raise ParamError(f"FFT group p = {p:#x}, k = {k}, b = {b}: kb = {k * b} is not a multiple of 16, "
                             f"so the paper's d = kb/16 is not a whole number of bits; pass d explicitly")
        d = k * b // 16
    return check_group(FftGroup(name or f"p{p:#x}_k{k}_b{b}", p, k, omega, b, d, reducer or default_reducer(p)))


# The notes' corrected roots (section 2.3): 2 for the Fermat-type moduli, 7^((p-1)/128) for
# Solinas, 17^((p-1)/64) for the general modulus. Keyed by p.
P_F32 = (1 << 32) + 1
P_G32 = (1 << 32) - (1 << 20) + 1
P_F64 = (1 << 64) + 1
P_S64 = (1 << 64) - (1 << 32) + 1
CORRECTED_OMEGA = {P_F32: 2, P_G32: 0xCA125983, P_F64: 2, P_S64: 0xF80007FF08000001}
PRINTED_OMEGA = {P_F32: 2, P_G32: 17, P_F64: 2, P_S64: 7}   # for the errata tests; Table 3 is the source

GROUPS = {
    "fermat32": make_group(P_F32, 64, 2, 8, name="fermat32"),
    "general32": make_group(P_G32, 64, 0xCA125983, 12, name="general32"),
    "fermat64": make_group(P_F64, 128, 2, 24, name="fermat64"),
    "solinas64": make_group(P_S64, 128, 0xF80007FF08000001, 28, name="solinas64"),
}
GROUP_BY_P = {g.p: g for g in GROUPS.values()}


def table3_groups(path=None) -> list:
    """The four groups as parsed from Table 3 (printed p, k, b; m checked), with the corrected roots."""
    out = []
    for row in paper_tables.paper_table3(path):
        if row.m != row.p.bit_length():
            raise ParamError(f"Table 3: m = {row.m} is not the bit length of p = {row.p_text} ({row.p.bit_length()})")
        g = GROUP_BY_P.get(row.p)
        name = g.name if g else f"table3_{row.p:#x}"
        out.append(make_group(row.p, row.k, CORRECTED_OMEGA.get(row.p, row.omega), row.b, name=name))
    return out


def scheme_groups(path=None) -> list:
    """Tables 1 (CMNT) and 2 (CNT), parsed: [SchemeGroup(scheme, name, delta, rho, phi, theta)]."""
    return paper_tables.paper_table1(path) + paper_tables.paper_table2(path)
