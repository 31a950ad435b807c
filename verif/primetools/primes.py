"""Primes for test moduli: Miller-Rabin, primes just below a bound, NTT-friendly primes."""
import random

_SMALL = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71)


def is_probable_prime(n: int, rounds: int = 32, rng=None) -> bool:
    if n < 2:
        return False
    for p in _SMALL:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    rng = rng or random.Random(n)
    for _ in range(rounds):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def prev_prime(bound: int) -> int:
    """The largest prime < bound."""
    n = bound - 1
    while n >= 2 and not is_probable_prime(n):
        n -= 1
    if n < 2:
        raise ValueError(f"no prime below {bound}")
    return n


def ntt_prime(bits: int, two_n: int, nth: int = 0) -> int:
    """The nth largest prime q < 2^bits with q = 1 mod two_n (NTT-friendly for N = two_n/2)."""
    q = ((1 << bits) - 1) // two_n * two_n + 1
    while q >= 1 << bits:
        q -= two_n
    while q > two_n:
        if is_probable_prime(q):
            if nth == 0:
                return q
            nth -= 1
        q -= two_n
    raise ValueError(f"no NTT-friendly prime below 2^{bits} for 2N = {two_n}")
