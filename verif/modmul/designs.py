"""Design names `<family>_<k>`, the same rules as the registry in hw/ (Designs.scala).

tests/test_registry.py checks that the two agree, through the index the generator writes.
"""
from dataclasses import dataclass
import re

from .reduction.names import GRAMMAR

FAMILIES = ("barrett", "shoup", "gshoup")
MIN_K, MAX_K = 16, 512
TABLE_WIDTHS = (32, 64, 128, 256)


@dataclass(frozen=True)
class Design:
    family: str
    k: int

    @property
    def name(self) -> str:
        return f"{self.family}_{self.k}"


def _help() -> str:
    return (f"valid designs: <family>_<k> with family in {{{', '.join(FAMILIES)}}} and "
            f"{MIN_K} <= k <= {MAX_K}; reduction family: {GRAMMAR}")


def parse_design(name: str):
    """Parse a design name: a :class:`Design` (the paper's three families) or a
    :class:`~modmul.reduction.ReductionDesign`; raises ValueError naming the valid choices."""
    from .reduction.names import parse_reduction
    red = parse_reduction(name, MIN_K, MAX_K)
    if red is not None:
        return red
    m = re.fullmatch(r"([a-z]+)_(\d+)", name)
    if not m:
        raise ValueError(f"unknown design '{name}'; {_help()}")
    family, k = m.group(1), int(m.group(2))
    if family not in FAMILIES:
        raise ValueError(f"unknown design family '{family}' in '{name}'; {_help()}")
    if not MIN_K <= k <= MAX_K:
        raise ValueError(f"width k = {k} in '{name}' is out of range {MIN_K}..{MAX_K}; {_help()}")
    return Design(family, k)
