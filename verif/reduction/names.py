"""The reduction family's designs (the NTT-reduction paper, Tosun et al.) as the golden models see
them: a :class:`ReductionDesign` holds what the models and the precomputation need.

Names are the generator's (hw/src/main/scala/modforge/reduction/ReductionConfig.scala, the grammar in
build/designs.json); verif/modmul/designs.py builds a ReductionDesign from the generator's answer
(verif/registry.py), never by taking a name apart.
"""
from dataclasses import dataclass
from typing import Optional, Tuple

FAMILIES = ("mont", "cbarrett", "plantard", "wlm", "wlmm", "k2red", "monts", "k2reds")
DEFAULT_TILE = (26, 17)  # WLM-Mixed's DSP tile GA x GB when the name gives none (the generator's default)


@dataclass(frozen=True)
class ReductionDesign:
    family: str
    k: int
    w: Optional[int] = None            # WLM word size
    h: Optional[int] = None            # log q_h (Proth-type families)
    tile: Optional[Tuple[int, int]] = None  # WLM-Mixed (GA, GB)
    kind: Optional[str] = None         # "2l" or "3l" (shift variants)
    preset: Optional[str] = None       # "ra" or "rb" (shift variants)
    lazy: bool = False                 # K2RED without the final correction

    @property
    def name(self) -> str:
        n = f"{self.family}_{self.k}"
        if self.w is not None:
            n += f"_w{self.w}"
        if self.h is not None:
            n += f"_h{self.h}"
        if self.tile is not None and self.tile != DEFAULT_TILE:
            n += f"_t{self.tile[0]}x{self.tile[1]}"
        if self.kind:
            n += f"_{self.kind}"
        if self.preset:
            n += f"_{self.preset}"
        if self.lazy:
            n += "_lazy"
        return n

    @property
    def omega(self) -> int:
        """w of q = q_h 2^w + 1: the WLM word, or k - log q_h for the Proth families."""
        return self.w if self.family == "wlm" else self.k - self.h

    @property
    def montgomery_shift(self) -> int:
        """x such that the reduction returns (its input) * 2^-x mod q; precompute scales B by 2^x."""
        f = self.family
        if f in ("mont", "wlmm", "monts"):
            return self.k
        if f == "wlm":
            return self.w * -(-self.k // self.w)
        if f in ("k2red", "k2reds"):
            return 2 * (self.k - self.h)
        return 0  # cbarrett; plantard has its own factor -2^-2k
