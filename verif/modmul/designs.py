"""Design names `<family>_<k>`, the same rules as the registry in hw/ (Registry.scala,
modmul/Designs.scala).

tests/test_registry.py checks that the two agree, through the index the generator writes.
"""
from dataclasses import dataclass
import re

from reduction.names import GRAMMAR, parse_reduction

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


# A variant `<base>__<tokens>` (hw/.../Variant.scala): same ports and precomputation as its base.
VARIANT_TOKEN = re.compile(r"p[01]+|t\d+(q\d+)?|m[a-z0-9]+|drc|d\d+|fa[12]|at|nb|ns")
VARIANT_GRAMMAR = ("<base>__<token>[_<token>]* with tokens p<0|1 bits>, t<c> (gshoup: t<cR>q<cQ>), m<arch>, "
                   "drc, d<ps>, fa1, fa2, at, nb, ns; or <family>_<k>_fast")


def base_name(name: str) -> str:
    """The registry design a variant or `_fast` alias is built on (itself for a plain design)."""
    if "__" in name:
        base, tokens = name.split("__", 1)
        bad = [t for t in tokens.split("_") if not VARIANT_TOKEN.fullmatch(t)]
        if bad or not tokens:
            raise ValueError(f"'{name}': unknown variant token(s) {', '.join(map(repr, bad)) or '(none)'}; {VARIANT_GRAMMAR}")
        return base
    m = re.fullmatch(r"([a-z]+_\d+)_fast", name)
    return m.group(1) if m and m.group(1).split("_")[0] in FAMILIES else name


def parse_design(name: str):
    """Parse a design name: a :class:`Design` (the paper's three families) or a
    :class:`~reduction.ReductionDesign`; raises ValueError naming the valid choices.
    A variant (`<base>__...`, `<family>_<k>_fast`) parses as its base: it has the base's interface."""
    name = base_name(name)
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
