"""Host-side precomputation: the value of every input port of a design for one a*b mod m.

``precompute(design, a, b, m, mode=None)`` returns ``{port name: int}`` for every input port
except ``clk``, ``reset`` and ``in_valid``. Drive those values and the design returns
``a*b % m`` on ``out_t`` after its latency. ``mode`` only applies to GShoup: ``"full"`` (the
default) computes r in hardware from g; ``"shoup"`` passes the precomputed Shoup r (as for
NTT twiddle factors) on ``in_r``.

Preconditions (docs/modmul.md, "Preconditions and precomputation"), each rejected with
:class:`PreconditionError` (defined in reduction.precompute, which the reduction family's checks
share; re-exported here):
  * a, b, m integers (not bool, float or str);
  * 0 <= a, b < m;
  * barrett_k: 3 <= m < 2^k, m not a power of two;
  * shoup_k:   2 <= m, 2m < 2^k;
  * gshoup_k:  3 <= m, 2m < 2^k, m not a power of two.
"""
import numbers

from reduction.names import ReductionDesign
from reduction.precompute import PreconditionError, reduction_ports

from .designs import parse_design

MODES = ("full", "shoup")


def _is_pow2(m: int) -> bool:
    return m > 0 and m & (m - 1) == 0


def _require(ok: bool, design: str, what: str) -> None:
    if not ok:
        raise PreconditionError(f"{design}: {what}")


def barrett_params(k: int, m: int):
    """Algorithm 1 pre-computation: l = k - bitlen(M), M' = M << l, r = floor(4^k / M')."""
    d = f"barrett_{k}"
    _require(3 <= m < 1 << k, d, f"modulus must satisfy 3 <= m < 2^{k} (got {m})")
    _require(not _is_pow2(m), d, f"modulus {m} is a power of two: r = 4^k/M' would need k+2 bits; "
                                 "reduce with a bit mask instead")
    l = k - m.bit_length()
    mp = m << l
    return mp, (1 << 2 * k) // mp, l


def shoup_r(k: int, b: int, m: int) -> int:
    """Shoup's precomputed companion of B: r = floor(2^k B / M)."""
    return (b << k) // m


def gshoup_params(k: int, m: int):
    """Algorithm 4 pre-computation: l = k-1-bitlen(M), M' = M << l, g = floor(2^(2k-2) / M')."""
    d = f"gshoup_{k}"
    _require(m >= 3 and 2 * m < 1 << k, d, f"modulus must satisfy 3 <= m and 2m < 2^{k} (got {m})")
    _require(not _is_pow2(m), d, f"modulus {m} is a power of two: g = 2^k would need k+1 bits; "
                                 "reduce with a bit mask instead")
    l = k - 1 - m.bit_length()
    mp = m << l
    return mp, (1 << 2 * k - 2) // mp, l


def check_shoup_modulus(k: int, m: int) -> None:
    """Algorithm 2/3 condition 2M < 2^k (and a non-trivial modulus)."""
    _require(m >= 2 and 2 * m < 1 << k, f"shoup_{k}", f"modulus must satisfy 2 <= m and 2m < 2^{k} (got {m})")


def check_integers(design: str, **values) -> None:
    """Each value an integer (bool and float rejected: 1.5 would become a port value), else
    PreconditionError naming it."""
    for name, v in values.items():
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise PreconditionError(f"{design}: {name} must be an integer (got {v!r}, {type(v).__name__})")


def precompute(design: str, a: int, b: int, m: int, mode=None, ls=None) -> dict:
    """``ls`` = (l1, l2[, l3]) for the shift designs (monts_*, k2reds_*): checked against m;
    without it, m's canonical Proth-l form is used."""
    check_integers(design, a=a, b=b, m=m)
    a, b, m = int(a), int(b), int(m)
    d = parse_design(design)
    k = d.k
    if isinstance(d, ReductionDesign):
        if mode is not None:
            raise PreconditionError(f"{design}: mode applies to gshoup designs only (got mode={mode!r})")
        return reduction_ports(d, a, b, m, ls)
    if ls is not None:
        raise PreconditionError(f"{design}: ls (l1, l2, l3) applies to monts_* and k2reds_* designs only")
    if mode is not None and d.family != "gshoup":
        raise PreconditionError(f"{design}: mode applies to gshoup designs only (got mode={mode!r})")
    mode = mode or "full"
    _require(mode in MODES, design, f"mode must be one of {MODES} (got {mode!r})")
    # Modulus first (its range is the more useful message), then the operands.
    if d.family == "barrett":
        mp, r, l = barrett_params(k, m)
    elif d.family == "shoup":
        check_shoup_modulus(k, m)
    else:
        mp, g, l = gshoup_params(k, m)
    _require(0 <= a < m and 0 <= b < m, design, f"operands must satisfy 0 <= a, b < m (a={a}, b={b}, m={m})")
    ports = {"in_a": a, "in_b": b}
    if d.family == "barrett":
        ports.update(in_m=mp, in_r=r, in_l=l)
    elif d.family == "shoup":
        ports.update(in_m=m, in_r=shoup_r(k, b, m))
    else:
        shoup = mode == "shoup"
        ports.update(in_m=mp, in_l=l, in_g=g, in_r=shoup_r(k, b, mp) if shoup else 0, in_mode=int(shoup))
    return ports
