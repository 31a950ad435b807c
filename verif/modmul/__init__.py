"""modforge golden models, precomputation and design registry (Python side).

    from modmul import precompute
    ports = precompute("gshoup_64", a, b, m, mode="shoup")

The reference result of every test is plain ``a * b % m``; the models in :mod:`modmul.models`
are bit-exact descriptions of the RTL, checked against that reference, never used as it.

This package is the paper's three families (Barrett, Shoup, GShoup); ``parse_design`` and
``precompute`` also take the reduction family's names and hand them to the sibling package
``reduction``. The prime toolkit is ``primetools``, the NTT tile's host side ``ntt``.
"""
from .designs import Design, parse_design, FAMILIES, MIN_K, MAX_K, TABLE_WIDTHS
from .precompute import precompute, PreconditionError

__all__ = ["Design", "parse_design", "FAMILIES", "MIN_K", "MAX_K", "TABLE_WIDTHS",
           "precompute", "PreconditionError"]
