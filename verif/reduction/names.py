"""Design names of the reduction family (the NTT-reduction paper, Tosun et al.), the same rules
as the generator's registry (hw/src/main/scala/modforge/reduction/ReductionDesigns.scala).

Every design is a complete k-bit modular multiplier: the k x k product A*B, then the reduction.

    mont_<k>                          naive Montgomery (Alg. 1)
    cbarrett_<k>                      the paper's classical Barrett (Alg. 4)
    plantard_<k>                      Plantard (Alg. 5)
    wlm_<k>_w<w>                      word-level Montgomery, word w (Alg. 2, fixed)
    wlmm_<k>_h<h>[_t<GA>x<GB>]        WLM-Mixed, log q_h = h, DSP tile GA x GB (default 26x17) (Alg. 8, fixed)
    k2red_<k>_h<h>[_lazy]             K2RED, log q_h = h; _lazy: without the final correction (Alg. 3)
    monts_<k>_h<h>_<2l|3l>_<ra|rb>    Montgomery-Shift for Proth-2l/3l primes, pipeline preset (Alg. 6, fixed)
    k2reds_<k>_h<h>_<2l|3l>_<ra|rb>   K2RED-Shift for Proth-2l/3l primes, pipeline preset (Alg. 7)
"""
import re
from dataclasses import dataclass
from typing import Optional, Tuple

FAMILIES = ("mont", "cbarrett", "plantard", "wlm", "wlmm", "k2red", "monts", "k2reds")
TITLES = {
    "mont": "Montgomery (Tosun Alg. 1)",
    "cbarrett": "classical Barrett (Tosun Alg. 4)",
    "plantard": "Plantard (Tosun Alg. 5)",
    "wlm": "WLM (Tosun Alg. 2, fixed)",
    "wlmm": "WLM-Mixed (Tosun Alg. 8, fixed)",
    "k2red": "K2RED (Tosun Alg. 3)",
    "monts": "Montgomery-Shift (Tosun Alg. 6, fixed)",
    "k2reds": "K2RED-Shift (Tosun Alg. 7)",
}
DEFAULT_TILE = (26, 17)
GRAMMAR = ("mont_<k>, cbarrett_<k>, plantard_<k>, wlm_<k>_w<w>, wlmm_<k>_h<h>[_t<GA>x<GB>], "
           "k2red_<k>_h<h>[_lazy], monts_<k>_h<h>_<2l|3l>_<ra|rb>, k2reds_<k>_h<h>_<2l|3l>_<ra|rb>")

_PATTERN = re.compile(
    r"(?P<fam>mont|cbarrett|plantard|wlm|wlmm|k2red|monts|k2reds)_(?P<k>\d+)"
    r"(?:_w(?P<w>\d+))?(?:_h(?P<h>\d+))?(?:_t(?P<ga>\d+)x(?P<gb>\d+))?"
    r"(?:_(?P<kind>2l|3l))?(?:_(?P<preset>ra|rb))?(?P<lazy>_lazy)?")


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


def _err(name, what, k_range=(16, 512)):
    return ValueError(f"{what} in '{name}'; valid reduction designs: {GRAMMAR}, "
                      f"{k_range[0]} <= k <= {k_range[1]}")


def parse_reduction(name: str, min_k=16, max_k=512) -> Optional[ReductionDesign]:
    """The design `name` names, None if it is not a reduction-family name, ValueError (naming
    what the method accepts) if it is one with parameters the method cannot take."""
    m = _PATTERN.fullmatch(name)
    if not m:
        return None
    fam, k = m["fam"], int(m["k"])
    g = {n: m[n] for n in ("w", "h", "ga", "kind", "preset", "lazy")}
    allowed = {"mont": set(), "cbarrett": set(), "plantard": set(), "wlm": {"w"}, "wlmm": {"h", "ga"},
               "k2red": {"h", "lazy"}, "monts": {"h", "kind", "preset"}, "k2reds": {"h", "kind", "preset"}}[fam]
    extra = [n for n, v in g.items() if v and n not in allowed]
    if extra:
        raise _err(name, f"{fam} takes no {'/'.join(extra)} field")
    if not min_k <= k <= max_k:
        raise _err(name, f"width k = {k} is out of range {min_k}..{max_k}")
    if fam == "wlm":
        if not m["w"]:
            raise _err(name, "wlm needs its word size: wlm_<k>_w<w>")
        w = int(m["w"])
        if not 2 <= w <= k - 2:
            raise _err(name, f"WLM word w = {w} must satisfy 2 <= w <= k-2 = {k - 2} "
                             "(q = 1 mod 2^w and q < 2^k)")
        return ReductionDesign(fam, k, w=w)
    if fam in ("wlmm", "k2red", "monts", "k2reds"):
        if not m["h"]:
            raise _err(name, f"{fam} needs log q_h: {fam}_<k>_h<h>")
        h = int(m["h"])
        lo = 3 if fam in ("monts", "k2reds") else 1
        if not lo <= h <= k // 2:
            raise _err(name, f"log q_h = {h} must satisfy {lo} <= log q_h <= k/2 = {k // 2} "
                             "(a Proth prime has w = k - log q_h >= k/2)")
        if fam == "wlmm":
            tile = (int(m["ga"]), int(m["gb"])) if m["ga"] else DEFAULT_TILE
            if tile[0] < tile[1] or tile[1] < 1:
                raise _err(name, f"the multiplier tile {tile[0]}x{tile[1]} must have GA >= GB >= 1")
            if h > tile[1]:
                raise _err(name, f"WLM-Mixed needs log q_h = {h} <= GB = {tile[1]} (one DSP column for q_h)")
            return ReductionDesign(fam, k, h=h, tile=tile)
        if fam == "k2red":
            return ReductionDesign(fam, k, h=h, lazy=bool(m["lazy"]))
        if not m["kind"] or not m["preset"]:
            raise _err(name, f"{fam} needs the prime kind and the pipeline preset: {fam}_<k>_h<h>_<2l|3l>_<ra|rb>")
        return ReductionDesign(fam, k, h=h, kind=m["kind"], preset=m["preset"])
    return ReductionDesign(fam, k)
