"""Test moduli and operands for a design, by class, shared by the model tests and the cocotb bench.

Modulus classes (each within the design's supported range, see precompute.py):
  prime_top      odd primes just below the top of the range (2^k for barrett, 2^(k-1) otherwise)
  prime_far      primes of a random, much smaller bit length
  ntt_prime      NTT-friendly primes q = 1 mod 2N (N up to 2^12) near the top and far below it
  small          small moduli (3..255)
  composite_odd  odd composites
  range_max      the largest supported modulus (all ones: l = 0)
  just_above_pow2  2^j + 1, the smallest modulus of its bit length (largest r or g)
  pow2           powers of two (shoup only: the others reject them)
"""
import random

from primetools.primes import ntt_prime, prev_prime

from .designs import parse_design
from .models import model
from .precompute import precompute

CLASSES = ("prime_top", "prime_far", "ntt_prime", "small", "composite_odd", "range_max",
           "just_above_pow2", "pow2")


def _reduction(design: str):
    from reduction.names import ReductionDesign
    d = parse_design(design)
    return d if isinstance(d, ReductionDesign) else None


def modulus_top(design: str) -> int:
    """Moduli of `design` satisfy m < modulus_top(design)."""
    d = parse_design(design)
    return 1 << (d.k if d.family == "barrett" else d.k - 1)


def classes_for(design: str):
    if _reduction(design):
        from reduction.vectors import CLASSES as RED_CLASSES
        return list(RED_CLASSES)
    return [c for c in CLASSES if c != "pow2" or parse_design(design).family == "shoup"]


def modulus(design: str, cls: str, rng: random.Random) -> int:
    red = _reduction(design)
    if red:
        from reduction.vectors import modulus as red_modulus
        return red_modulus(red, cls, rng)
    top = modulus_top(design)
    tb = top.bit_length() - 1  # m has at most tb bits
    if cls == "prime_top":
        return prev_prime(top - rng.randrange(0, 1 << min(16, tb - 2)))
    if cls == "prime_far":
        bits = rng.randrange(4, max(5, tb - 4))
        return prev_prime(rng.randrange(1 << (bits - 1), 1 << bits))
    if cls == "ntt_prime":
        e = rng.randrange(min(9, tb - 8), min(14, tb - 6))  # 2N = 2^e, leaving >= 6 bits of c in c*2N+1
        two_n = 1 << e
        bits = tb if rng.random() < 0.5 else rng.randrange(e + 6, tb + 1)
        return ntt_prime(bits, two_n, rng.randrange(3))
    if cls == "small":
        m = rng.randrange(3, 256)
        return m + 1 if m & (m - 1) == 0 else m
    if cls == "composite_odd":
        bits = rng.randrange(4, tb + 1)
        while True:
            x = rng.randrange(3, 1 << (bits // 2 + 1)) | 1
            y = rng.randrange(3, max(4, (top - 1) // x)) | 1
            if x * y < top:
                return x * y
    if cls == "range_max":
        return top - 1
    if cls == "just_above_pow2":
        return (1 << rng.randrange(2, tb)) + 1
    if cls == "pow2":
        return 1 << rng.randrange(1, tb)
    raise ValueError(f"unknown modulus class {cls}; valid: {CLASSES}")


def operand(m: int, rng: random.Random) -> int:
    """An operand below m: edges (0, 1, m-1, m-2) one time in three, else uniform."""
    if rng.random() < 1 / 3:
        return rng.choice((0, 1, m - 1, max(0, m - 2)))
    return rng.randrange(m)


def needs_last_correction(design: str, a: int, b: int, m: int) -> bool:
    """Whether a*b mod m needs the design's last, rarest correction step: BarrettOpt's second
    subtraction (Algorithm 1 line 10, q two short), GShoup's extra subtraction (Algorithm 4
    line 4, q_g = q_s - 1 and Shoup's own correction) or Shoup's one (Algorithm 3 line 6).
    Read off the model's trace: this selects vectors, it is not the oracle."""
    d = parse_design(design)
    ports = precompute(design, a, b, m)
    trace = {}
    model(d.family, d.k, ports, trace)
    t, _ = trace["t8" if d.family == "barrett" else "t5"]
    return t >= (ports["in_m"] if d.family == "shoup" else 2 * ports["in_m"])


def last_correction_case(design: str, rng: random.Random, exact: bool = False, max_tries: int = 1_000_000):
    """(a, b, m) for which `needs_last_correction` holds.

    Random operands almost never need it (GShoup at k = 32: about 3 in 100,000; none in 20,000
    at k = 64). The Proposition's proof shows when it happens: A, B and M' close to their
    upper bound and both fractional parts dropped by the floors (of 2^(2k-2)/M' or 4^k/M', and
    of 2^k B/M') close to 1. Sampling there finds a case in about a thousand tries.

    With `exact`, m = f*h is composite and a, b are multiples of f and h, so a*b = 0 mod m and
    the uncorrected t is an exact multiple of M': it lands on the comparison thresholds
    (t = 2M', then M'), which tells a `>=` from a `>` in every correction step."""
    red = _reduction(design)
    if red:  # the reduction family's own sampler; None where the last correction never fires
        from reduction.vectors import correction_case
        return correction_case(red, rng, exact)
    d = parse_design(design)
    top = modulus_top(design)
    lo = top - top // 32  # M' = m with l = 0 at the top of the range
    recip = 1 << (2 * d.k if d.family == "barrett" else 2 * d.k - 2)
    half = (top.bit_length() - 1) // 2

    def frac(n, q):
        return (n % q) / q

    for _ in range(max_tries):
        if exact:
            f = rng.randrange(1 << (half - 1), 1 << half) | 1
            h = rng.randrange(-(-lo // f), (top - 1) // f + 1)
            m = f * h
        else:
            m = rng.randrange(lo, top) | 1
        if m & (m - 1) == 0 or (d.family != "shoup" and frac(recip, m) < 0.75):
            continue
        b = h * rng.randrange(f - f // 32 - 1, f) if exact else rng.randrange(m - m // 32, m)
        if frac(b << d.k, m) < 0.75:
            continue
        a = f * rng.randrange(h - h // 32 - 1, h) if exact else rng.randrange(m - m // 32, m)
        if needs_last_correction(design, a, b, m):
            return a, b, m
    raise RuntimeError(f"{design}: no vector needing the last correction in {max_tries} tries")
