"""Proth-2l / Proth-3l form of a modulus (Tosun et al., Section 3.1), as the shift-add designs
(monts_*, k2reds_*) take it on their ports l1, l2, l3:

    q = 2^(k-1) + (2^l1 - 2^l2 [+ 2^l3]) 2^w + 1,  w = k - h,  0 <= l2 <= l1 < h-1,  0 <= l3 < h-1

so q_h = q >> w = 2^(h-1) + 2^l1 - 2^l2 [+ 2^l3]. The prime toolkit (modmul.proth) enumerates
and counts these primes; this module only maps between q and (l1, l2, l3).
"""
from typing import Optional, Tuple


def value(k: int, h: int, l1: int, l2: int, l3: Optional[int] = None) -> int:
    """q for the given shift amounts (no range check; see :func:`check_ls`)."""
    v = (1 << l1) - (1 << l2) + ((1 << l3) if l3 is not None else 0)
    return (1 << (k - 1)) + (v << (k - h)) + 1


def check_ls(h: int, kind: str, l1: int, l2: int, l3: Optional[int]) -> Optional[str]:
    """Why (l1, l2, l3) is not a valid Proth-<kind> choice for log q_h = h, or None."""
    top = h - 1
    if not (0 <= l2 <= l1 < top):
        return f"need 0 <= l2 <= l1 < log q_h - 1 = {top} (got l1 = {l1}, l2 = {l2})"
    if kind == "3l" and (l3 is None or not 0 <= l3 < top):
        return f"need 0 <= l3 < log q_h - 1 = {top} (got l3 = {l3})"
    if kind == "2l" and l3 is not None:
        return "a Proth-2l design has no l3"
    return None


def _two_terms(v: int, top: int) -> Optional[Tuple[int, int]]:
    """(l1, l2) with v = 2^l1 - 2^l2 and 0 <= l2 <= l1 < top, the smallest l1; None if none."""
    if v == 0:
        return (0, 0)
    if v < 0:
        return None
    l2 = (v & -v).bit_length() - 1      # v is a run of ones from bit l2 to bit l1-1
    l1 = v.bit_length()
    if v != (1 << l1) - (1 << l2) or l1 >= top:
        return None
    return (l1, l2)


def decompose(q: int, k: int, h: int, kind: str) -> Optional[Tuple[int, int, Optional[int]]]:
    """A canonical (l1, l2, l3) describing q (l3 None for 2l), or None if q has no such form.

    Canonical: the lexicographically smallest (l1, l2, l3), the rule of the prime toolkit
    (modmul.proth). A 2l form is unique except v = 0 (l1 = l2), which gives (0, 0)."""
    w = k - h
    if q <= 0 or (q - 1) % (1 << w) or (q >> (k - 1)) != 1:
        return None
    v = ((q - 1) >> w) - (1 << (h - 1))
    if kind == "2l":
        two = _two_terms(v, h - 1)
        return None if two is None else (two[0], two[1], None)
    for l1 in range(h - 1):
        for l2 in range(l1 + 1):
            r = v - (1 << l1) + (1 << l2)      # must be 2^l3 with l3 < h-1
            if r > 0 and r & (r - 1) == 0 and r.bit_length() - 1 < h - 1:
                return (l1, l2, r.bit_length() - 1)
    return None
