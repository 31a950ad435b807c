"""Host helpers of the streaming RNS negacyclic polynomial multiplier (``polymul_<n>_<logq>_s<P>[_w<w>]``),
driven by its manifest only (``build/<d>/rtl/<d>.json``), and the oracle the bench checks it against.

The engine computes c = a*b mod (x^n + 1) in Z_Q, Q = prod q_l, as L independent limbs: limb l holds
the residues mod q_l. A product is n/P beats in and n/P beats out; beat t carries coefficient
j*(n/P) + t of limb l in bits [(l*P + j)*w, (l*P + j + 1)*w) of in_a, in_b and out_c (the manifest's
``layout``).

The oracle, :func:`negacyclic_reference`, shares nothing with the hardware's algorithm: it works
mod Q on whole coefficients (no RNS, no NTT, no roots of unity): schoolbook for n <= 256,
Kronecker substitution (one big-integer product) above.
"""
import json
from pathlib import Path

SCHOOLBOOK_MAX_N = 256


class Engine:
    """One streaming engine's parameters, from its manifest: n, lanes (P), limb_bits (w), primes
    (q_0 .. q_{L-1}), Q = prod q_l, frame = n // lanes (beats, and cycles, per product), latency and
    cycles_per_product as the manifest promises them.

    Costs on the host: :meth:`to_rns` does L modular reductions per coefficient; :meth:`from_rns` a
    CRT of L terms per coefficient (L products by the precomputed (Q/q_l) * ((Q/q_l)^-1 mod q_l) and
    one reduction mod Q), so both are O(n L) big-integer operations.
    """

    def __init__(self, n: int, lanes: int, limb_bits: int, primes, Q: int, design: str = "",
                 latency: int = None, cycles_per_product: int = None):
        self.design = design
        self.n, self.lanes, self.limb_bits = int(n), int(lanes), int(limb_bits)
        self.primes = tuple(int(q) for q in primes)
        self.Q = int(Q)
        self.limbs = len(self.primes)
        if self.n % self.lanes:
            raise ValueError(f"{design}: lanes = {lanes} does not divide n = {n}")
        self.frame = self.n // self.lanes
        self.latency = latency
        self.cycles_per_product = cycles_per_product
        prod = 1
        for q in self.primes:
            prod *= q
        if prod != self.Q:
            raise ValueError(f"{design}: the product of the primes {self.primes} is {prod}, not Q = {self.Q}")
        for q in self.primes:
            if not 1 < q < (1 << self.limb_bits):
                raise ValueError(f"{design}: prime {q} does not fit a {self.limb_bits}-bit limb")
        # CRT basis: e_l = 1 mod q_l, 0 mod the other primes.
        self._crt = []
        for q in self.primes:
            m = self.Q // q
            self._crt.append(m * pow(m, -1, q) % self.Q)
        self.width = self.limbs * self.lanes * self.limb_bits
        self._mask = (1 << self.limb_bits) - 1

    @classmethod
    def from_manifest(cls, manifest) -> "Engine":
        """From a manifest dict, or the path of a manifest file."""
        if not isinstance(manifest, dict):
            manifest = json.loads(Path(manifest).read_text())
        return cls(manifest["n"], manifest["lanes"], manifest["limb_bits"], [int(q) for q in manifest["primes"]],
                   int(manifest["Q"]), design=manifest.get("design", ""), latency=manifest.get("latency_cycles"),
                   cycles_per_product=manifest.get("cycles_per_product"))

    # ---- RNS ----
    def to_rns(self, poly):
        """Coefficients (any integers, taken mod Q) -> L limbs, limb l the residues mod q_l.
        Cost: L reductions per coefficient."""
        if len(poly) != self.n:
            raise ValueError(f"{self.design}: a polynomial has n = {self.n} coefficients, got {len(poly)}")
        return [[int(x) % q for x in poly] for q in self.primes]

    def from_rns(self, limbs):
        """L limbs of residues -> coefficients in [0, Q), by the CRT: sum_l r_l e_l mod Q, with
        e_l = (Q/q_l) ((Q/q_l)^-1 mod q_l). Cost: a CRT of L terms per coefficient. Residues are
        taken as given (a residue >= q_l still maps to a value; check ranges separately)."""
        self._check_limbs(limbs)
        return [sum(r * e for r, e in zip(col, self._crt)) % self.Q for col in zip(*limbs)]

    def _check_limbs(self, limbs):
        if len(limbs) != self.limbs or any(len(x) != self.n for x in limbs):
            raise ValueError(f"{self.design}: want {self.limbs} limbs of {self.n} residues, got "
                             f"{len(limbs)} limbs of {[len(x) for x in limbs]}")

    # ---- Beats ----
    def beats(self, limbs):
        """L limbs -> n/P port words (ints), beat t holding coefficient j*(n/P) + t of limb l in bits
        [(l*P + j)*w, (l*P + j + 1)*w). Residues must be in [0, q_l)."""
        self._check_limbs(limbs)
        for l, (x, q) in enumerate(zip(limbs, self.primes)):
            bad = [i for i, r in enumerate(x) if not 0 <= r < q]
            if bad:
                raise ValueError(f"{self.design}: limb {l} coefficient {bad[0]} = {x[bad[0]]} is not a residue mod {q}")
        w, p, f = self.limb_bits, self.lanes, self.frame
        words = []
        for t in range(f):
            v = 0
            for l in range(self.limbs):
                for j in range(p):
                    v |= limbs[l][j * f + t] << ((l * p + j) * w)
            words.append(v)
        return words

    def unbeat(self, words):
        """n/P port words -> L limbs (the inverse of :meth:`beats`; no range check)."""
        if len(words) != self.frame:
            raise ValueError(f"{self.design}: a product is {self.frame} beats, got {len(words)}")
        w, p, f = self.limb_bits, self.lanes, self.frame
        limbs = [[0] * self.n for _ in range(self.limbs)]
        for t, v in enumerate(words):
            for l in range(self.limbs):
                for j in range(p):
                    limbs[l][j * f + t] = (v >> ((l * p + j) * w)) & self._mask
        return limbs

    def __repr__(self):
        return (f"Engine({self.design or '?'}: n={self.n}, P={self.lanes}, w={self.limb_bits}, "
                f"L={self.limbs}, Q={self.Q})")


# ---- The oracle ----
def negacyclic_schoolbook(a, b, n: int, Q: int):
    """a*b mod (x^n + 1, Q), term by term: O(n^2) products of integers < Q."""
    a = [int(x) % Q for x in a]
    b = [int(x) % Q for x in b]
    _check_len(a, b, n)
    c = [0] * n
    for i, x in enumerate(a):
        if not x:
            continue
        for j, y in enumerate(b):
            k = i + j
            if k < n:
                c[k] += x * y
            else:
                c[k - n] -= x * y
    return [v % Q for v in c]


def negacyclic_kronecker(a, b, n: int, Q: int):
    """a*b mod (x^n + 1, Q) by Kronecker substitution: each operand packed into one integer in
    byte-aligned slots wide enough for a coefficient of the plain product (< n Q^2), one big-integer
    product, unpacked to the 2n - 1 coefficients, and x^n = -1 folds the top half down."""
    a = [int(x) % Q for x in a]
    b = [int(x) % Q for x in b]
    _check_len(a, b, n)
    slot = (2 * Q.bit_length() + n.bit_length() + 7) // 8 + 1  # bytes; the coefficients are < n Q^2
    pa = int.from_bytes(b"".join(x.to_bytes(slot, "little") for x in a), "little")
    pb = int.from_bytes(b"".join(x.to_bytes(slot, "little") for x in b), "little")
    raw = (pa * pb).to_bytes(slot * 2 * n, "little")
    full = [int.from_bytes(raw[i * slot:(i + 1) * slot], "little") for i in range(2 * n)]
    return [(full[i] - full[i + n]) % Q for i in range(n)]


def negacyclic_reference(a, b, n: int, Q: int):
    """The oracle: a*b mod (x^n + 1) with coefficients mod Q, in Python integers; schoolbook for
    n <= 256, Kronecker substitution above. Never an NTT."""
    if n <= SCHOOLBOOK_MAX_N:
        return negacyclic_schoolbook(a, b, n, Q)
    return negacyclic_kronecker(a, b, n, Q)


def assert_product(e: "Engine", got, want, label: str, frame: int):
    """Asserts that the engine's limbs `got` are the product `want` (coefficients mod Q): each limb
    residue by residue, then the CRT of all of them. The message names the first wrong coefficient,
    its beat and lane (`frame` = n/P beats a product). Shared by the cocotb bench and the Verilator
    checker (verif/bench/)."""
    for l, q in enumerate(e.primes):
        bad = [i for i in range(e.n) if got[l][i] != want[i] % q]
        assert not bad, (
            f"{label}: limb {l} (q = {q}): {len(bad)} of {e.n} coefficients wrong, first at index {bad[0]} "
            f"(beat {bad[0] % frame}, lane {bad[0] // frame}): got {got[l][bad[0]]}, expected {want[bad[0]] % q}")
    assert e.from_rns(got) == want, f"{label}: the CRT of the limbs is not a*b mod Q"


def _check_len(a, b, n):
    if len(a) != n or len(b) != n:
        raise ValueError(f"operands of {len(a)} and {len(b)} coefficients, want n = {n}")
