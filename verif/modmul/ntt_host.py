"""Host side of the NTT tile's RAM variant (``ntt_..._ram``): what to write to its twiddle RAM and
drive on its modulus ports, from (k, q, psi) and the tile's multiplier arrangement.

    from modmul.ntt_host import modulus_ports, twiddle_writes
    for name, value in modulus_ports(k, q, "gshoup").items(): ...      # mod_q, mod_gshoup_m, ...
    for inverse, index, w, r in twiddle_writes(n, k, q, psi, "gshoup"): ...  # tw_inverse, tw_index, tw_w, tw_r

Tables (README, "NTT tile"): entry i in 1..N-1 of the forward table is psi^bitrev(i) (SEAL's root
powers), of the inverse table psi^-bitrev(i) / 2 (the 1/2 of each Gentleman-Sande stage makes
N^-1 over log2 N stages). Each W comes with the companion its Shoup path needs:
floor(W 2^k / q) for Shoup, floor(W 2^k / M') for GShoup (M' = q << l), none for Barrett.
"""
from . import ntt
from .precompute import barrett_params, check_shoup_modulus, gshoup_params

ARRANGEMENTS = ("barrett", "shoupbarrett", "gshoup")


def _check(arrangement):
    if arrangement not in ARRANGEMENTS:
        raise ValueError(f"unknown multiplier arrangement '{arrangement}'; valid: {', '.join(ARRANGEMENTS)}")


def modulus_ports(k: int, q: int, arrangement: str) -> dict:
    """{port: value} for the tile's mod_* inputs."""
    _check(arrangement)
    ports = {"mod_q": q}
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
    """(forward, inverse): lists of (W, companion) indexed 0..N-1 (entry 0 is never read)."""
    _check(arrangement)
    fwd = ntt.root_powers_bitrev(n, q, psi)
    half = pow(2, -1, q)
    inv = [pow(w, -1, q) * half % q for w in fwd]
    div = gshoup_params(k, q)[0] if arrangement == "gshoup" else q

    def companion(w):
        return 0 if arrangement == "barrett" else (w << k) // div
    return [(w, companion(w)) for w in fwd], [(w, companion(w)) for w in inv]


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
