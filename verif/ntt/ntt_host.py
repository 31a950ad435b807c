"""Host side of the NTT tile's RAM variant (``ntt_..._ram``): what to write to its twiddle RAM and
drive on its modulus ports, from (k, q, psi) and the tile's multiplier arrangement.

    from ntt.ntt_host import modulus_ports, twiddle_writes
    for name, value in modulus_ports(k, q, "gshoup").items(): ...      # mod_q, mod_gshoup_m, ...
    for inverse, index, w, r in twiddle_writes(n, k, q, psi, "gshoup"): ...  # tw_inverse, tw_index, tw_w, tw_r

Tables (docs/ntt.md, "Ports"): entry i in 1..N-1 of the forward table is psi^bitrev(i) (SEAL's root
powers), of the inverse table psi^-bitrev(i) / 2 (the 1/2 of each Gentleman-Sande stage makes
N^-1 over log2 N stages). Each W comes with the companion its Shoup path needs:
floor(W 2^k / q) for Shoup, floor(W 2^k / M') for GShoup (M' = q << l), none for Barrett.

The reduction arrangements (mont, wlmm, k2red: one reduction-family multiplier per unit; docs/ntt.md,
"Reduction arrangements (mont, wlmm, k2red)") return A B F mod q with F = 2^-x (x = k for mont and
wlmm, 2(k - h) for k2red), so every W is stored pre-scaled as W 2^x mod q (no companion), and the
modulus ports carry, besides q, Montgomery's q' = -q^-1 mod 2^k (mod_red_mp) and
C = F^-2 = 2^2x mod q (mod_red_c), the constant of PWMUL's second pass. wlmm and k2red need a
Proth q = q_h 2^(k-h) + 1, q_h < 2^h, with h = reduction_h(k, arrangement).
"""
from modmul.precompute import PreconditionError, barrett_params, check_integers, check_shoup_modulus, gshoup_params
from primetools.primes import is_probable_prime, ntt_prime
from reduction import ReductionDesign, check_modulus
from reduction.names import DEFAULT_TILE

from . import ntt

SEED = ("barrett", "shoupbarrett", "gshoup")
REDUCTIONS = ("mont", "wlmm", "k2red")
ARRANGEMENTS = SEED + REDUCTIONS


def reduction_h(k: int, arrangement: str) -> int:
    """log q_h of a Proth-type arrangement at width k (NttConfig's ReductionArrangement.h):
    wlmm min(17, k/2) (GB of the 26x17 tile), k2red min(26, k/2) (the paper's 26 at k = 64)."""
    return {"wlmm": min(17, k // 2), "k2red": min(26, k // 2)}[arrangement]


def reduction_design(k: int, arrangement: str):
    """The reduction-family design of a reduction arrangement's units (reduction)."""
    if arrangement == "mont":
        return ReductionDesign("mont", k)
    h = reduction_h(k, arrangement)
    return ReductionDesign(arrangement, k, h=h, tile=DEFAULT_TILE if arrangement == "wlmm" else None)


def twiddle_scale(k: int, q: int, arrangement: str) -> int:
    """F^-1 = 2^x mod q: the factor the tile's twiddles are stored with (1 for the seed arrangements)."""
    return 1 if arrangement in SEED else pow(2, reduction_design(k, arrangement).montgomery_shift, q)


def in_class(n: int, k: int, q: int, arrangement: str) -> bool:
    """Whether q is prime, 1 mod 2N and accepted by the arrangement at width k."""
    if not (q > 2 and (q - 1) % (2 * n) == 0 and is_probable_prime(q)):
        return False
    if arrangement in SEED:
        return q < 1 << (k - (0 if arrangement == "barrett" else 1))
    try:
        check_modulus(reduction_design(k, arrangement), q)
    except Exception:
        return False
    return True


def class_prime(n: int, k: int, arrangement: str, below=None) -> int:
    """The largest prime q < below (default: the arrangement's bound) with q = 1 mod 2N in the
    arrangement's class at width k. With below=None this is the generator's default q (NttConfig)."""
    if arrangement in ("wlmm", "k2red"):
        w = k - reduction_h(k, arrangement)
        qh = min((1 << (k - w)) - 1, ((below or 1 << k) - 2) >> w)
        for qh in range(qh, 0, -1):
            q = (qh << w) + 1
            if (q - 1) % (2 * n) == 0 and is_probable_prime(q):
                return q
        raise ValueError(f"no Proth prime q = q_h 2^{w} + 1 below {below or 1 << k} with q = 1 mod {2 * n}")
    if below is None:
        return ntt_prime(k if arrangement == "mont" else k - 1, 2 * n)
    q = (below - 2) // (2 * n) * (2 * n) + 1
    while q > 2 * n and not is_probable_prime(q):
        q -= 2 * n
    if q <= 2 * n:
        raise ValueError(f"no prime q = 1 mod {2 * n} below {below}")
    return q


def _check(arrangement, **values):
    """The arrangement known and the values integers (PreconditionError); with q and psi, 0 < psi < q."""
    if arrangement not in ARRANGEMENTS:
        raise ValueError(f"unknown multiplier arrangement '{arrangement}'; valid: {', '.join(ARRANGEMENTS)}")
    check_integers(f"NTT tile ({arrangement})", **values)
    if "psi" in values and not 0 < values["psi"] < values["q"]:
        raise PreconditionError(f"NTT tile ({arrangement}): psi must satisfy 0 < psi < q (psi={values['psi']}, q={values['q']})")


def modulus_ports(k: int, q: int, arrangement: str) -> dict:
    """{port: value} for the tile's mod_* inputs."""
    _check(arrangement, k=k, q=q)
    ports = {"mod_q": q}
    if arrangement in REDUCTIONS:
        d = reduction_design(k, arrangement)
        check_modulus(d, q)  # PreconditionError naming the class
        if arrangement == "mont":
            ports["mod_red_mp"] = (-pow(q, -1, 1 << k)) % (1 << k)
        ports["mod_red_c"] = pow(2, 2 * d.montgomery_shift, q)
    if arrangement in ("barrett", "shoupbarrett"):
        mp, r, l = barrett_params(k, q)
        ports.update(mod_barrett_m=mp, mod_barrett_r=r, mod_barrett_l=l)
    if arrangement == "shoupbarrett":
        check_shoup_modulus(k, q)
    if arrangement == "gshoup":
        mp, g, l = gshoup_params(k, q)
        ports.update(mod_gshoup_m=mp, mod_gshoup_g=g, mod_gshoup_l=l)
    return ports


def twiddle_tables(n: int, k: int, q: int, psi: int, arrangement: str):
    """(forward, inverse): lists of (W as stored, companion) indexed 0..N-1 (entry 0 is never read).
    Reduction arrangements store W 2^x mod q (twiddle_scale) and no companion."""
    _check(arrangement, n=n, k=k, q=q, psi=psi)
    fwd = ntt.root_powers_bitrev(n, q, psi)
    half = pow(2, -1, q)
    inv = [pow(w, -1, q) * half % q for w in fwd]
    div = gshoup_params(k, q)[0] if arrangement == "gshoup" else q
    scale = twiddle_scale(k, q, arrangement)

    def entry(w):
        w = w * scale % q
        return w, (0 if arrangement in ("barrett",) + REDUCTIONS else (w << k) // div)
    return [entry(w) for w in fwd], [entry(w) for w in inv]


def twiddle_writes(n: int, k: int, q: int, psi: int, arrangement: str):
    """(tw_inverse, tw_index, tw_w, tw_r) for every write that fills the twiddle RAM."""
    fwd, inv = twiddle_tables(n, k, q, psi, arrangement)
    return [(inverse, i, *table[i]) for inverse, table in ((0, fwd), (1, inv)) for i in range(1, n)]


def rom_sha256(n: int, k: int, q: int, psi: int, arrangement: str) -> str:
    """SHA-256 of a ROM tile's twiddle table as the generator hashes it (NttConfig.twiddleSha256)."""
    import hashlib
    fwd, inv = twiddle_tables(n, k, q, psi, arrangement)
    text = "".join(f"{t} {i} {w} {r}\n" for t, table in (("f", fwd), ("i", inv)) for i, (w, r) in enumerate(table) if i)
    return hashlib.sha256(text.encode()).hexdigest()
