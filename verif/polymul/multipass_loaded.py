"""The host's side of the multi-pass engine whose primes are loaded at run time (``mpoly_..._t1_d1``,
docs/polymul_multipass.md, "Primes loaded at run time"): check the limb primes, and build the constants image the
engine reads before each pass.

The manifest's ``loaded`` member lists, for each pass unit (columns, rows, columns_inverse), the forms of its constants
in the order the engine shifts them in. A form is one of

- ``["q"]``: the prime q;
- ``["barrett", i]``: BarrettOpt's constant i for a w-bit limb (Algorithm 1): 0 M' = q 2^l, 1 floor(4^w / M'),
  2 l = w - bitlen(q) (``modmul.precompute.barrett_params``);
- ``["pow", e, s]``: psi^e s^-1 mod q;
- ``["pair", e, s]``: W 2^k + W', W = psi^e s^-1 mod q and W' = floor(W 2^k / q) (Shoup, Algorithm 3), k = w + 1;

with psi any primitive 2n-th root of unity mod q (by default ``ntt.ntt.find_psi(n, q)``, the model's). Each word is
``word_bytes`` little-endian bytes; a unit's words start at its ``offset_bytes`` within the limb's image and are padded
with zeros to its ``image_bytes``. Limb l's image is at ``const_base + l * limb_image_bytes``.

Usage (a design's manifest, your primes)::

    python -m polymul.multipass_loaded build/<d>/rtl/<d>.json --primes q0,q1,... --out image.bin
"""
import argparse
import json
import sys
from typing import Optional, Sequence

from modmul.precompute import barrett_params, shoup_r
from ntt.ntt import find_psi
from polymul.multipass import MultipassError
from polymul.multipass_manifest import manifest_params

#: The engine's smallest limb prime, as the generator's (RowsConfig: log q >= 16).
MIN_PRIME_BITS = 17


def loaded(m: dict) -> dict:
    """The manifest's ``loaded`` member, or a clear error for a design without one."""
    if "loaded" not in m:
        raise MultipassError(f"{m.get('design', 'this design')} fixes its prime at generation (no _d1): its constants are "
                             f"literals, nothing to load; generate the _t1_d1 design to give primes at run time")
    return m["loaded"]


def loaded_primes(n: int, logq: int, limb_bits: int) -> tuple:
    """A chain for a set on a run-time-primes engine of limb_bits-bit limbs: the largest primes q = 1 mod 2n of
    MIN_PRIME_BITS to limb_bits bits, largest first, as few as make Q >= 2^logq. Unlike `stream_primes` (exactly
    limb_bits bits, the fixed engines' rule), narrower primes count too, as the engine takes them: at n = 32768 there
    are 33 primes of exactly 25 bits, too few for log q = 886, and 37 of 24 and 25 bits make it."""
    from primetools.proth import largest_ntt_primes
    got, prod = [], 1
    for bits in range(limb_bits, MIN_PRIME_BITS - 1, -1):
        need = (logq - prod.bit_length() + 1) // (bits - 1) + 2   # enough of this width, were no narrower needed
        for q in largest_ntt_primes(bits, n, need):
            got.append(q)
            prod *= q
            if prod >= 1 << logq:
                return tuple(got)
    raise MultipassError(f"the primes q = 1 mod {2 * n} of {MIN_PRIME_BITS} to {limb_bits} bits ({len(got)}) make only "
                         f"{prod.bit_length()} bits, too few for log q = {logq}: use a wider limb")


def check_primes(m: dict, primes: Sequence[int]) -> tuple:
    """The limb primes as ints, checked as the engine needs them: prime, = 1 mod 2n, of 17 to limb_bits bits, distinct,
    at most max_limbs; a MultipassError names the first problem and its fix."""
    ld = loaded(m)
    primes = tuple(int(q) for q in primes)
    if not 1 <= len(primes) <= ld["max_limbs"]:
        raise MultipassError(f"{len(primes)} limb primes: the engine takes 1 to {ld['max_limbs']} limbs a product "
                             f"(io_limbs has {m['batch']['limbs_bits']} bits); split the product into batches of fewer limbs")
    for l, q in enumerate(primes):
        if q.bit_length() < MIN_PRIME_BITS:
            raise MultipassError(f"limb {l}: q = {q} has {q.bit_length()} bits, fewer than {MIN_PRIME_BITS}: the engine "
                                 f"takes primes of {MIN_PRIME_BITS} to {m['limb_bits']} bits")
    # The model's checks (prime, 1 mod 2n, at most the limb's bits, distinct), with its messages.
    manifest_params(m, primes=primes, limb_mode="sequence")
    return primes


def form_value(form, q: int, psi: int, w: int, n: int) -> int:
    """One constant's value for the prime q and root psi (a primitive 2n-th root of unity mod q)."""
    kind = form[0]
    if kind == "q":
        return q
    if kind == "barrett":
        return barrett_params(w, q)[form[1]]
    if kind in ("pow", "pair"):
        e, s = form[1], form[2]
        t = pow(psi, e % (2 * n), q) * pow(s, -1, q) % q
        if kind == "pow":
            return t
        k = w + 1
        return (t << k) | shoup_r(k, t, q)
    raise MultipassError(f"unknown constant form {form!r}: this helper is older than the design's generator")


def limb_image(m: dict, q: int, psi: Optional[int] = None) -> bytes:
    """Limb image (``limb_image_bytes`` bytes) for the prime q (checked) and root psi (default find_psi(n, q))."""
    ld = loaded(m)
    (q,) = check_primes(m, [q])
    n, w = ld["n"], ld["limb_bits"]
    if psi is None:
        psi = find_psi(n, q)
    elif pow(psi, n, q) != q - 1:
        raise MultipassError(f"psi = {psi} is not a primitive {2 * n}-th root of unity mod q = {q} (psi^n must be q - 1): "
                             f"give psi = find_psi({n}, {q}) = {find_psi(n, q)}, or leave it out")
    wb = ld["word_bytes"]
    out = bytearray(ld["limb_image_bytes"])
    for u in ld["units"]:
        at = u["offset_bytes"]
        assert len(u["forms"]) == u["words"] and u["words"] * wb <= u["image_bytes"]
        for i, f in enumerate(u["forms"]):
            v = form_value(f, q, psi, w, n)
            assert 0 <= v < 1 << ld["cell_bits"], (f, v)
            out[at + i * wb:at + (i + 1) * wb] = v.to_bytes(wb, "little")
    return bytes(out)


def image(m: dict, primes: Sequence[int], psis: Optional[Sequence[int]] = None) -> bytes:
    """The whole image, limb after limb, for a product of limbs ``primes`` (each checked); place it at a
    ``const_base`` aligned to ``align_bytes``."""
    primes = check_primes(m, primes)
    psis = list(psis) if psis is not None else [None] * len(primes)
    if len(psis) != len(primes):
        raise MultipassError(f"{len(psis)} psis for {len(primes)} primes: give one a limb, or none")
    return b"".join(limb_image(m, q, p) for q, p in zip(primes, psis))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("manifest", help="the design's manifest, build/<d>/rtl/<d>.json")
    ap.add_argument("--primes", required=True, help="the limb primes, comma-separated")
    ap.add_argument("--out", required=True, help="the image file to write")
    a = ap.parse_args(argv)
    try:
        m = json.loads(open(a.manifest).read())
        primes = [int(x) for x in a.primes.split(",") if x.strip()]
        data = image(m, primes)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with open(a.out, "wb") as f:
        f.write(data)
    ld = m["loaded"]
    print(f"{a.out}: {len(primes)} limbs, {len(data)} bytes ({ld['limb_image_bytes']} a limb); place it at an io_const_base "
          f"aligned to {ld['align_bytes']} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
