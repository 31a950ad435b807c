"""Host-side precomputation of the reduction family: the value of every input port for a*b mod m.

Every design returns out_t = a*b mod m. Where the method leaves a factor (2^-x for the
Montgomery-type ones, -2^-2k for Plantard), the host passes a pre-scaled B, exactly as an NTT
stores pre-scaled twiddles: B * 2^x mod m on in_b (Plantard: (B * -2^2k mod m) * m^-1 mod 2^2k,
its precomputed constant operand). A is never scaled.

Modulus classes (docs/reduction.md); a modulus outside its design's class raises
PreconditionError naming the class, the failed condition, and the toolkit command that finds
valid primes (primetools.proth).

PreconditionError is defined here, in the lower layer: modmul.precompute (the registry-wide
``precompute``) re-exports it, so both families raise the same class.
"""
from primetools.proth import proth_l_decompose, proth_l_value

from .names import ReductionDesign

# From the repository root (docs/reduction.md, "Prime toolkit (Proth and Proth-l primes)").
TOOLKIT = ".venv/bin/python scripts/primes.py"


class PreconditionError(ValueError):
    """An operand or modulus breaks the algorithm's preconditions."""


def _fail(d: ReductionDesign, cls: str, cond: str, find: str):
    raise PreconditionError(f"{d.name}: modulus outside the {cls} class: {cond}. "
                            f"To find a valid prime: {find}")


def plantard_ok(k: int, m: int) -> bool:
    """m < 2^k / phi (Plantard's bound; the paper omits it): (2m + 2^k)^2 < 5 * 4^k."""
    return (2 * m + (1 << k)) ** 2 < 5 << (2 * k)


def _check_ls(h: int, kind: str, l1: int, l2: int, l3) -> str:
    """Why (l1, l2, l3) is not a valid Proth-<kind> choice for log q_h = h ('' if it is), in the
    words of the shift designs' ports (the toolkit's own checks name the toolkit's arguments)."""
    top = h - 1
    if not (0 <= l2 <= l1 < top):
        return f"need 0 <= l2 <= l1 < log q_h - 1 = {top} (got l1 = {l1}, l2 = {l2})"
    if kind == "3l" and (l3 is None or not 0 <= l3 < top):
        return f"need 0 <= l3 < log q_h - 1 = {top} (got l3 = {l3})"
    if kind == "2l" and l3 is not None:
        return "a Proth-2l design has no l3"
    return ""


def proth_ls(d: ReductionDesign, m: int, ls=None):
    """(l1, l2, l3) for a shift design: the caller's, checked against m, or m's canonical form
    (the prime toolkit's: the lexicographically smallest tuple)."""
    find = f"{TOOLKIT} list {d.k} {d.h} {d.kind}"
    cls = f"Proth-{d.kind} (log q_h = {d.h}, k = {d.k})"
    if ls is not None:
        if len(ls) not in (2, 3):
            _fail(d, cls, f"l1, l2, l3 = {tuple(ls)}: give 2 or 3 shift amounts", find)
        ls = tuple(ls) + (None,) * (3 - len(ls))
        l1, l2, l3 = ls[:3]
        why = _check_ls(d.h, d.kind, l1, l2, l3)
        if why:
            _fail(d, cls, f"l1, l2, l3 = {ls}: {why}", find)
        q = proth_l_value(d.k, d.h, l1, l2, l3)
        if q != m:
            _fail(d, cls, f"l1, l2, l3 = {ls} describe q = {q}, not m = {m}", find)
        return ls
    got = proth_l_decompose(m, d.k, d.h, d.kind)
    if got is None:
        _fail(d, cls, f"m = {m} is not 2^{d.k - 1} + (2^l1 - 2^l2{' + 2^l3' if d.kind == '3l' else ''})"
                      f"*2^{d.k - d.h} + 1 with 0 <= l2 <= l1 < {d.h - 1}"
                      + (f", 0 <= l3 < {d.h - 1}" if d.kind == "3l" else ""), find)
    return got


def check_modulus(d: ReductionDesign, m: int):
    """Raise PreconditionError if m is outside d's class."""
    k = d.k
    f = d.family
    if f == "mont":
        if not (3 <= m < 1 << k and m & 1):
            _fail(d, "Montgomery (any odd modulus)", f"need m odd and 3 <= m < 2^{k} (got {m})",
                  f"any odd m; e.g. {TOOLKIT} largest {1 << k} --class ntt --n 1")
    elif f == "cbarrett":
        if not (1 << (k - 1)) < m < 1 << k:
            _fail(d, f"classical Barrett (exactly {k}-bit modulus)", f"need 2^{k - 1} < m < 2^{k} (got {m}); "
                  f"for smaller moduli use barrett_{k} (BarrettOpt aligns any m)",
                  f"{TOOLKIT} largest {1 << k} --class ntt --n 1")
    elif f == "plantard":
        if not (3 <= m and m & 1 and plantard_ok(k, m)):
            _fail(d, "Plantard (odd modulus below 2^k/phi)",
                  f"need m odd, m >= 3 and m < 2^{k}/phi, i.e. (2m + 2^{k})^2 < 5*4^{k} (got {m})",
                  f"{TOOLKIT} largest {((1 << k) * 618) // 1000} --class ntt --n 1")
    elif f in ("wlm", "wlmm", "k2red"):
        w = d.omega
        cls = {"wlm": f"NTT-friendly for WLM (q = 1 mod 2^{w})",
               "wlmm": f"Proth for WLM-Mixed (q = q_h*2^{w} + 1, log q_h <= {d.h})",
               "k2red": f"Proth for K2RED (q = q_h*2^{w} + 1, log q_h <= {d.h})"}[f]
        find = (f"{TOOLKIT} largest {1 << k} --class ntt --n {1 << (w - 1)}" if f == "wlm"
                else f"{TOOLKIT} largest {1 << k} --class proth --k {k} --logqh {d.h}")
        if not ((1 << w) < m < 1 << k and (m - 1) % (1 << w) == 0):
            _fail(d, cls, f"need m = 1 mod 2^{w} and 2^{w} < m < 2^{k} (got {m})", find)
    elif f in ("monts", "k2reds"):
        proth_ls(d, m)
    else:
        raise AssertionError(f)


def reduction_ports(d: ReductionDesign, a: int, b: int, m: int, ls=None) -> dict:
    """Every input port's value (but clk, reset, in_valid) for a*b mod m on design d."""
    check_modulus(d, m)
    if not (0 <= a < m and 0 <= b < m):
        raise PreconditionError(f"{d.name}: operands must satisfy 0 <= a, b < m (a={a}, b={b}, m={m})")
    k = d.k
    if ls is not None and d.family not in ("monts", "k2reds"):
        raise PreconditionError(f"{d.name}: l1, l2, l3 apply to monts_* and k2reds_* designs only")
    if d.family == "plantard":
        b_scaled = (-b << (2 * k)) % m
        qinv = pow(m, -1, 1 << (2 * k))
        return {"in_a": a, "in_b": b_scaled * qinv % (1 << (2 * k)), "in_m": m}
    ports = {"in_a": a, "in_b": (b << d.montgomery_shift) % m, "in_m": m}
    if d.family == "mont":
        ports["in_mp"] = (-pow(m, -1, 1 << k)) % (1 << k)
    elif d.family == "cbarrett":
        ports["in_r"] = (1 << (2 * k)) // m
    elif d.family in ("monts", "k2reds"):
        l1, l2, l3 = proth_ls(d, m, ls)
        ports.update(in_l1=l1, in_l2=l2)
        if d.kind == "3l":
            ports["in_l3"] = l3
    return ports
