"""The paper's three families as the golden models see them: a :class:`Design` is (family, k).

A name's meaning comes from the generator's registry through verif/registry.py, never from
taking the name apart here: `parse_design` builds the models' parameters from the generator's
answer (family and params) and raises the generator's own error for a name it refuses.
verif/tests/test_registry.py checks that the two views agree on names of every family.
"""
from dataclasses import dataclass

import registry
from reduction.names import ReductionDesign

FAMILIES = ("barrett", "shoup", "gshoup")  # the families whose precomputation verif/modmul/precompute.py knows
MIN_K, MAX_K = 16, 512  # the width range the registry accepts (checked against it by test_registry.py)
TABLE_WIDTHS = (32, 64, 128, 256)  # the paper's Table 1 widths (checked against build/designs.json)


@dataclass(frozen=True)
class Design:
    family: str
    k: int

    @property
    def name(self) -> str:
        return f"{self.family}_{self.k}"


def of_entry(e: dict):
    """The models' view of a registry entry: a :class:`Design` (the paper's three families) or a
    :class:`~reduction.ReductionDesign`; ValueError for a design that is not a modular multiplier
    with a golden model (an NTT tile, a bare product, ...)."""
    p = e["params"]
    if e["precompute"] in FAMILIES:
        return Design(e["family"], p["k"])
    if e["precompute"] == "reduction":
        return ReductionDesign(e["family"], p["k"], w=p.get("w"), h=p.get("h"),
                               tile=tuple(p["tile"]) if "tile" in p else None, kind=p.get("proth"),
                               preset=p.get("preset"), lazy=p.get("lazy", False))
    raise ValueError(f"'{e['design']}' is a {e['family']} design ({e['title']}): it has no modular-multiplier "
                     f"precomputation (its kind is '{e['precompute']}')")


def parse_design(name: str):
    """The design a name means, for the models and `precompute`: a :class:`Design` or a
    :class:`~reduction.ReductionDesign`. A variant (`<base>__...`, `<family>_<k>_fast`) is its base:
    it has the base's interface. Raises ValueError (registry.RegistryError: the generator's message)."""
    return of_entry(registry.describe(name))
