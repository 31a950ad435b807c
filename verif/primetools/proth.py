"""Proth and Proth-l primes: the prime classes of Tosun et al., "Optimized FPGA Architecture for
Modular Reduction in NTT", Section 3.1 (Table 2) and Table 3.

Why: K²RED, WLM-Mixed, K²RED-Shift and Montgomery-Shift only work for these primes, and the
shift variants take the prime as run-time shift amounts l1, l2, l3. Precomputation and tests need
to list the primes, turn a prime into its shift amounts and back, and count how many exist.

Definitions (beta = k, the bit length of the k-bit datapath):

* Proth prime of class (k, log q_h): q = q_h * 2^w + 1 prime, with w = k - log q_h >= k/2 and
  q_h of exactly log q_h bits (top bit set), so q has exactly k bits.
* Proth-2l: q = 2^(k-1) + (2^l1 - 2^l2) * 2^w + 1 with 0 <= l2 <= l1 < log q_h - 1.
* Proth-3l: q = 2^(k-1) + (2^l1 - 2^l2 + 2^l3) * 2^w + 1 with 0 <= l2 <= l1 < log q_h - 1 and
  0 <= l3 < log q_h - 1.

With m = log q_h, q_h = 2^(m-1) + d, and the l-bounds keep d inside [0, 2^(m-1)): for 2l,
0 <= d <= 2^(m-2) - 1; for 3l, 1 <= d <= (2^(m-2) - 1) + 2^(m-2) = 2^(m-1) - 1. So q_h always
keeps its top bit and exactly m bits, q < 2^k, and no extra range check is needed.

Enumeration rule that reproduces the paper's Table 2 (all eight counts): run over every tuple
allowed by the definition, collect the *distinct* values q, and keep the primes. The Proth-3l
count includes the Proth-2l primes (every Proth-2l prime is also Proth-3l, see below). Counting
tuples instead of primes gives 737, 90, 235, 205 for the four 3l rows (several tuples give the
same q), and leaving the 2l primes out of the 3l count gives 453, 48, 88, 73: neither matches.

Canonical decomposition (what precompute drives onto the l1, l2, l3 input ports): of all tuples
that give q, the lexicographically smallest (l1, l2, l3), i.e. smallest l1, then l2, then l3.

* Proth-2l: d = 2^l1 - 2^l2 > 0 has exactly one tuple (l2 = the 2-adic valuation of d, l1 - l2 =
  the bit length of d's odd part); d = 0 (l1 = l2, q = 2^(k-1) + 1) gives the canonical (0, 0).
* Proth-3l: a value may have several tuples, e.g. 2^a = 2^l1 - 2^l1 + 2^a = 2^a - 2^x + 2^x.
* A Proth-2l value with l2 < l1 has the 3l form (l1, l2 + 1, l2), because
  2^(l2+1) - 2^l2 = 2^l2, and l2 + 1 <= l1 < m - 1, l2 < m - 1 are in range. Its canonical 3l
  tuple may still be a different, smaller one (2^5 - 2^2 = 2^4 - 2^2 + 2^4 gives (4, 2, 4)).
  The one exception is d = 0: 2^l1 - 2^l2 + 2^l3 >= 2^l3 >= 1, so q = 2^(k-1) + 1 has no 3l
  form. It is a prime only when 2^(k-1) + 1 is a Fermat prime (k = 2, 3, 5, 9, 17: in modforge's
  range only k = 17, for which it is a Proth-2l prime but not a Proth-3l prime); for even k,
  3 divides it.

Functions:

    proth_l_value(k, logqh, l1, l2, l3=None) -> q           (l3=None: the 2l form)
    proth_l_decompositions(q, k, logqh, kind) -> [tuples]   (every tuple, sorted)
    proth_l_decompose(q, k, logqh, kind) -> (l1, l2, l3) or None   (the canonical tuple;
                                                                    l3 is None for "2l")
    proth_l_primes(k, logqh, kind) -> [ProthLPrime]          (sorted by q)
    is_proth(q, k, logqh), is_proth_l(q, k, logqh, kind)
    count_proth_primes(k, logqh, method="auto", n=None)      (Python, or tools/proth_count.c;
                                                              n: only those with 2n | q - 1)
    count_ntt_primes(k, n, method="auto")                    k-bit primes q = 1 (mod 2n), n a power of two
    estimate_ntt_primes(k, n)                                the same by the prime number theorem
    largest_ntt_primes(k, n, count)                          the `count` largest of them, largest first
    proth_ntt_n(k, logqh, n)                                 n' with: Proth of (k, logqh) and 2n | q - 1
                                                              <=> k bits and 2n' | q - 1
    largest_prime(bound, cls, **params)                      (cls: ntt, proth, proth2l, proth3l)
    two_adic_valuation(x)

NTT-friendly primes of exactly k bits (the streaming polymul engine's limbs, docs/polymul.md): with
2n = 2^m, q = 1 (mod 2n) and 2^(k-1) < q < 2^k is q = q_h * 2^m + 1 with q_h of exactly k - m bits,
the Proth form without its bound log q_h <= k/2, so the same counters count them. The classes nest:
a Proth prime of class (k, log q_h) has 2^(k - log q_h) | q - 1, so it is 1 mod 2n exactly when it is
a k-bit prime 1 mod 2n' with n' = max(n, 2^(k - log q_h - 1)) (proth_ntt_n).

ProthLPrime records carry v2, the 2-adic valuation of q - 1, and max_log_n = v2 - 1: the largest
negacyclic NTT size 2^max_log_n, since a negacyclic NTT of size n needs 2n | q - 1.

Command line: ``python -m primetools --help`` from verif/ (see :mod:`primetools.proth_cli`).
Primality: :func:`primetools.primes.is_probable_prime` (seeded Miller-Rabin, 32 rounds) in Python; the
C counter uses the deterministic 64-bit Miller-Rabin. The tests check that the two agree.
"""
import math
from functools import lru_cache
from typing import NamedTuple, Optional, Tuple

from .primes import is_probable_prime

KINDS = ("2l", "3l")
CLASSES = {  # largest_prime classes and the parameters each needs
    "ntt": ("n",),
    "proth": ("k", "logqh"),
    "proth2l": ("k", "logqh"),
    "proth3l": ("k", "logqh"),
}
# count_proth_primes(method="auto") counts in Python up to this many q_h candidates (64/17 has
# 2^16, about 1 s), and with the C counter above it.
PYTHON_COUNT_LIMIT = 1 << 16
# Without the C counter (k > 64), Python refuses more candidates than this (hours otherwise).
PYTHON_COUNT_MAX = 1 << 22


class ProthLPrime(NamedTuple):
    """One Proth-l prime: q, its canonical shift amounts, and the NTT sizes it supports."""
    q: int
    l1: int
    l2: int
    l3: Optional[int]   # None for Proth-2l
    v2: int             # 2-adic valuation of q - 1
    max_log_n: int      # v2 - 1: largest log2 n with 2n | q - 1


def _check_int(name: str, value, minimum: int = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} = {value} is too small: it must be >= {minimum}")
    return value


def check_proth_class(k: int, logqh: int, *, for_l: bool = False) -> int:
    """Validate a (k, log q_h) class and return w = k - log q_h.

    Proth needs w >= k/2 (so q_h^2 * 2^(2w) = 0 mod 2^k, what K²RED and Montgomery-Shift rely on),
    i.e. log q_h <= k // 2. The l forms need log q_h >= 2 so that 0 <= l < log q_h - 1 is not
    empty."""
    _check_int("k", k, 2)
    _check_int("log q_h", logqh, 2 if for_l else 1)
    if 2 * logqh > k:
        raise ValueError(
            f"log q_h = {logqh} is too large for k = {k}: a Proth prime needs w = k - log q_h >= k/2, "
            f"so use log q_h <= {k // 2}")
    return k - logqh


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"kind must be '2l' (Proth-2l) or '3l' (Proth-3l), got {kind!r}")
    return kind


def two_adic_valuation(x: int) -> int:
    """The exponent of the largest power of 2 dividing x > 0."""
    _check_int("x", x, 1)
    return (x & -x).bit_length() - 1


def proth_l_value(k: int, logqh: int, l1: int, l2: int, l3: Optional[int] = None) -> int:
    """q = 2^(k-1) + (2^l1 - 2^l2 [+ 2^l3]) * 2^w + 1; l3=None is the Proth-2l form.

    The value only: q need not be prime."""
    w = check_proth_class(k, logqh, for_l=True)
    top = logqh - 1  # every l is < log q_h - 1
    for name, value in (("l1", l1), ("l2", l2)) + ((("l3", l3),) if l3 is not None else ()):
        _check_int(name, value, 0)
        if value >= top:
            raise ValueError(f"{name} = {value} is out of range for log q_h = {logqh}: "
                             f"it must be < log q_h - 1 = {top}")
    if l2 > l1:
        raise ValueError(f"l2 = {l2} > l1 = {l1}: the definition needs l2 <= l1 (swap them?)")
    d = (1 << l1) - (1 << l2) + (0 if l3 is None else 1 << l3)
    return (1 << (k - 1)) + (d << w) + 1


def _offset(q: int, k: int, logqh: int) -> Optional[int]:
    """d with q = 2^(k-1) + d * 2^w + 1 and 0 <= d < 2^(logqh-1), or None."""
    w = k - logqh
    if not isinstance(q, int) or isinstance(q, bool) or q < 1:
        return None
    qh, low = (q - 1) >> w, (q - 1) & ((1 << w) - 1)
    if low or qh.bit_length() != logqh:
        return None
    return qh - (1 << (logqh - 1))


def proth_l_decompositions(q: int, k: int, logqh: int, kind: str) -> list:
    """Every tuple (l1, l2, l3) (l3 None for "2l") whose Proth-l value is q, sorted.

    Empty when q has no such form. Does not test primality."""
    check_proth_class(k, logqh, for_l=True)
    check_kind(kind)
    d = _offset(q, k, logqh)
    if d is None:
        return []
    top = logqh - 1
    found = []
    for l1 in range(top):
        for l2 in range(l1 + 1):
            rest = d - (1 << l1) + (1 << l2)
            if kind == "2l":
                if rest == 0:
                    found.append((l1, l2, None))
            elif rest > 0 and rest & (rest - 1) == 0 and rest.bit_length() - 1 < top:
                found.append((l1, l2, rest.bit_length() - 1))
    return found


def proth_l_decompose(q: int, k: int, logqh: int, kind: str) -> Optional[Tuple[int, int, Optional[int]]]:
    """The canonical (l1, l2, l3) of q: the lexicographically smallest tuple; l3 is None for "2l".

    None when q is not a Proth-l value of this class (see the module docstring for which values
    have which forms). Does not test primality: use :func:`is_proth_l` for that."""
    found = proth_l_decompositions(q, k, logqh, kind)
    return found[0] if found else None


@lru_cache(maxsize=None)
def _proth_l_primes(k: int, logqh: int, kind: str) -> tuple:
    w = k - logqh
    top = logqh - 1
    first = {}  # d -> its lexicographically first tuple (the loops run in lexicographic order)
    for l1 in range(top):
        for l2 in range(l1 + 1):
            base = (1 << l1) - (1 << l2)
            if kind == "2l":
                first.setdefault(base, (l1, l2, None))
            else:
                for l3 in range(top):
                    first.setdefault(base + (1 << l3), (l1, l2, l3))
    records = []
    for d, (l1, l2, l3) in first.items():
        q = (1 << (k - 1)) + (d << w) + 1
        if is_probable_prime(q):
            v2 = two_adic_valuation(q - 1)
            records.append(ProthLPrime(q, l1, l2, l3, v2, v2 - 1))
    return tuple(sorted(records))


def proth_l_primes(k: int, logqh: int, kind: str) -> list:
    """The distinct Proth-2l or Proth-3l primes of class (k, log q_h), sorted by q, each with its
    canonical tuple. len() of it is the paper's Table 2 count."""
    check_proth_class(k, logqh, for_l=True)
    check_kind(kind)
    return list(_proth_l_primes(k, logqh, kind))


def is_proth(q: int, k: int, logqh: int) -> bool:
    """Is q a Proth prime of class (k, log q_h): q = q_h * 2^w + 1 prime, q_h of exactly log q_h bits?"""
    w = check_proth_class(k, logqh)
    if isinstance(q, bool) or not isinstance(q, int) or q < 3:
        return False
    return (q - 1) & ((1 << w) - 1) == 0 and ((q - 1) >> w).bit_length() == logqh and is_probable_prime(q)


def is_proth_l(q: int, k: int, logqh: int, kind: str) -> bool:
    """Is q a Proth-2l / Proth-3l prime of class (k, log q_h)?"""
    return proth_l_decompose(q, k, logqh, kind) is not None and is_probable_prime(q)


def _count_python(k: int, logqh: int) -> int:
    w = k - logqh
    return sum(1 for qh in range(1 << (logqh - 1), 1 << logqh) if is_probable_prime((qh << w) + 1))


def _count_form(k: int, logqh: int, method: str, hint: str, progress: bool = True) -> int:
    """Primes q_h * 2^(k - logqh) + 1 over every q_h of exactly logqh bits (1 <= logqh < k), by
    either counter; hint: how to ask for fewer candidates when the count is out of reach; progress:
    the C counter's progress and "done" lines on stderr."""
    candidates = 1 << (logqh - 1)
    if method == "auto":
        method = "python" if candidates <= PYTHON_COUNT_LIMIT else "c"
        if method == "c" and k > 64:
            if candidates > PYTHON_COUNT_MAX:
                raise ValueError(
                    f"counting {candidates} candidates for k = {k} is out of reach: the C counter "
                    f"handles k <= 64 only, and Python more than 2^{PYTHON_COUNT_MAX.bit_length() - 1} "
                    f"candidates would take hours; {hint}")
            method = "python"
    if method == "python":
        return _count_python(k, logqh)
    if method == "c":
        if k > 64:
            raise ValueError(f"the C counter handles k <= 64 only (k = {k}); use method='python'")
        from .proth_native import native_count
        return native_count(k, logqh, progress=progress)
    raise ValueError(f"method must be 'auto', 'python' or 'c', got {method!r}")


def _check_method(method: str) -> str:
    if method not in ("auto", "python", "c"):
        raise ValueError(f"method must be 'auto', 'python' or 'c', got {method!r}")
    return method


def check_power_of_two(name: str, value) -> int:
    """value, if it is a power of two >= 1; ValueError otherwise."""
    _check_int(name, value, 1)
    if value & (value - 1):
        raise ValueError(f"{name} = {value} is not a power of two (the counts here need 2{name} = 2^m)")
    return value


def proth_ntt_n(k: int, logqh: int, n: int) -> int:
    """The n' for which the Proth primes of class (k, log q_h) with 2n | q - 1 are exactly the k-bit
    primes with 2n' | q - 1: n' = max(n, 2^(k - log q_h - 1)), n a power of two (a Proth prime of the
    class already has 2^(k - log q_h) | q - 1)."""
    w = check_proth_class(k, logqh)
    return max(check_power_of_two("n", n), 1 << (w - 1))


def count_proth_primes(k: int, logqh: int, method: str = "auto", n: int = None) -> int:
    """The number of Proth primes of class (k, log q_h) (Table 3's "# primes" for K²RED/WLM-Mixed);
    with n (a power of two), only those an NTT of size n can use: 2n | q - 1.

    method: "python", "c" (tools/proth_count.c, built on first use; k <= 64), or "auto": Python up
    to PYTHON_COUNT_LIMIT candidates, C above."""
    check_proth_class(k, logqh)
    if n is not None:
        return count_ntt_primes(k, proth_ntt_n(k, logqh, n), method)
    return _count_form(k, logqh, method, "use a smaller log q_h")


def _ntt_logqh(k: int, n: int) -> int:
    """k - m for 2n = 2^m: the bit length of q_h in q = q_h * 2^m + 1 (< 1: no k-bit candidate)."""
    _check_int("k", k, 2)
    return k - check_power_of_two("n", n).bit_length()


def count_ntt_primes(k: int, n: int, method: str = "auto") -> int:
    """The number of primes q = 1 (mod 2n) of exactly k bits, 2^(k-1) < q < 2^k, n a power of two:
    the NTT-friendly k-bit primes, the streaming polymul engine's limb class. 2^(k-1) / (2n)
    candidates (the Proth form with q_h of k - log2(2n) bits, see the module docstring); 0 when
    2n >= 2^k leaves none. method as for count_proth_primes."""
    _check_method(method)
    logqh = _ntt_logqh(k, n)
    if logqh < 1:
        return 0
    return _count_form(k, logqh, method, "use a larger n", progress=False)


def _li(x: float) -> float:
    """The logarithmic integral li(x) for x > 1 (Ramanujan's series; every term positive)."""
    gamma = 0.5772156649015329
    u = math.log(x)
    total, term, j = 0.0, 1.0, 0
    while True:
        j += 1
        term *= u / j                      # u^j / j!
        add = term / j
        total += add
        if add < total * 1e-17 and j > u:
            return gamma + math.log(u) + total


def estimate_ntt_primes(k: int, n: int) -> float:
    """The prime number theorem's count of the k-bit primes q = 1 (mod 2n), n a power of two:
    (li(2^k) - li(2^(k-1))) / phi(2n), phi(2n) = n. An estimate, not a count: where
    count_ntt_primes is out of reach."""
    _check_int("k", k, 2)
    check_power_of_two("n", n)
    if _ntt_logqh(k, n) < 1:
        return 0.0
    return (_li(2.0 ** k) - _li(2.0 ** (k - 1))) / n


def largest_ntt_primes(k: int, n: int, count: int) -> list:
    """The `count` largest primes q = 1 (mod 2n) of exactly k bits, largest first (fewer when fewer
    exist): the streaming polymul engine's choice of limbs (StreamPrimes.scala). n need not be a
    power of two. Scans every candidate when fewer than `count` exist: ask only where there are few
    candidates or many primes."""
    _check_int("k", k, 2)
    step = 2 * _check_int("n", n, 1)
    _check_int("count", count, 0)
    q = ((1 << k) - 1) // step * step + 1  # the largest q = 1 (mod 2n) below 2^k
    out = []
    while len(out) < count and q > 1 << (k - 1):
        if is_probable_prime(q):
            out.append(q)
        q -= step
    return out


def largest_prime(bound: int, cls: str, **params) -> int:
    """The largest prime q < bound of a class:

    * "ntt", n=N: q = 1 (mod 2N), i.e. NTT-friendly for a negacyclic NTT of size N;
    * "proth", k=K, logqh=H: a Proth prime of class (K, H);
    * "proth2l" / "proth3l", k=K, logqh=H: a Proth-2l / Proth-3l prime of class (K, H).

    Raises ValueError when no such prime lies below bound, or on unknown classes/parameters."""
    if cls not in CLASSES:
        raise ValueError(f"unknown prime class {cls!r}; valid classes: {', '.join(CLASSES)}")
    need = CLASSES[cls]
    missing = [p for p in need if p not in params]
    extra = [p for p in params if p not in need]
    if missing or extra:
        raise ValueError(f"class {cls!r} takes parameters {', '.join(need)}"
                         + (f"; missing {', '.join(missing)}" if missing else "")
                         + (f"; unexpected {', '.join(extra)}" if extra else ""))
    _check_int("bound", bound)
    if cls == "ntt":
        step = 2 * _check_int("n", params["n"], 1)
        if bound > 2:
            q = (bound - 2) // step * step + 1  # the largest q = 1 (mod 2n) with q < bound
            while q > 1:
                if is_probable_prime(q):
                    return q
                q -= step
        raise ValueError(f"no prime q = 1 (mod 2n = {step}) below {bound}: raise the bound above {step + 1}")
    k, logqh = params["k"], params["logqh"]
    if cls == "proth":
        w = check_proth_class(k, logqh)
        qh = min((1 << logqh) - 1, (bound - 2) >> w if bound >= 2 else -1)
        while qh >= 1 << (logqh - 1):
            if is_probable_prime((qh << w) + 1):
                return (qh << w) + 1
            qh -= 1
        what = f"Proth prime of class (k = {k}, log q_h = {logqh})"
    else:
        kind = cls[-2:]
        below = [r.q for r in proth_l_primes(k, logqh, kind) if r.q < bound]
        if below:
            return below[-1]
        what = f"Proth-{kind} prime of class (k = {k}, log q_h = {logqh})"
    raise ValueError(f"no {what} below {bound}: these primes lie in [2^{k - 1}, 2^{k}); "
                     f"raise the bound or change the class")
