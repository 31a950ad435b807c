/*
 * proth_count: count the Proth primes q = q_h * 2^w + 1 with q of exactly K bits and q_h of
 * exactly LOGQH bits (2^(LOGQH-1) <= q_h < 2^LOGQH, w = K - LOGQH).
 *
 * Why a C program: the paper's Table 3 counts for 64-bit primes (1,522,110 with log q_h = 26 and
 * 97,482,212 with log q_h = 32) need 2^25 and 2^31 candidates; Python would take days.
 *
 * How:
 *   1. a segmented sieve over q_h removes every candidate with a small odd prime factor p: p | q
 *      exactly when q_h = -(2^w)^-1 (mod p), one residue class per p;
 *   2. each survivor gets a Miller-Rabin test with the bases 2, 3, 5, ..., 37, which is
 *      deterministic (no pseudoprime passes all twelve) for every n < 3.3 * 10^24, so for every
 *      64-bit n. Arithmetic is Montgomery multiplication on unsigned __int128 products: a plain
 *      `(unsigned __int128)a * b % n` calls a 128-by-64-bit division, several times slower.
 *
 * Usage: proth_count K LOGQH [QH_LO QH_HI]
 *   2 <= K <= 64, 1 <= LOGQH < K. QH_LO/QH_HI (decimal, half-open) restrict q_h to a sub-range,
 *   e.g. to split a count; they default to the full range [2^(LOGQH-1), 2^LOGQH).
 * Output: the count on stdout (one decimal number); progress lines on stderr.
 * Exit status: 0 on success, 2 on bad arguments.
 *
 * Built by the Python wrapper primetools.proth (gcc -O2 into build/proth_count).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 u128;

/* ---- Montgomery arithmetic modulo an odd n < 2^64, R = 2^64 ---- */

typedef struct {
    uint64_t n;     /* the modulus (odd) */
    uint64_t ninv;  /* n^-1 mod 2^64 */
    uint64_t r1;    /* R mod n: Montgomery form of 1 */
    uint64_t r2;    /* R^2 mod n: converts into Montgomery form */
} mont_t;

static mont_t mont_init(uint64_t n) {
    mont_t m;
    uint64_t x = n; /* n*n = 1 mod 8: x is n^-1 to 3 bits; each Newton step doubles that */
    for (int i = 0; i < 5; i++) x *= 2 - n * x;
    m.n = n;
    m.ninv = x;
    m.r1 = (0 - n) % n;                 /* 2^64 - n = 2^64 (mod n) */
    m.r2 = (uint64_t)(((u128)m.r1 * m.r1) % n);
    return m;
}

/* a * b * R^-1 mod n for a, b < n. With u = (t mod R) * n^-1 mod R, t - u*n is a multiple of R
 * and lies in (-nR, nR): the low words cancel exactly, and the high word needs one conditional
 * + n. This form never overflows, even for n close to 2^64. */
static inline uint64_t mont_mul(uint64_t a, uint64_t b, const mont_t *m) {
    u128 t = (u128)a * b;
    uint64_t u = (uint64_t)t * m->ninv;
    uint64_t th = (uint64_t)(t >> 64);
    uint64_t uh = (uint64_t)(((u128)u * m->n) >> 64);
    uint64_t r = th - uh;
    return th < uh ? r + m->n : r;
}

/* One Miller-Rabin round: is n a strong probable prime to base a? n odd, n > 37. */
static int mr_round(uint64_t a, uint64_t d, int s, const mont_t *m) {
    uint64_t one = m->r1, minus_one = m->n - m->r1;
    uint64_t base = mont_mul(a % m->n, m->r2, m);
    uint64_t x = one;
    for (uint64_t e = d; e; e >>= 1) {   /* right-to-left square and multiply */
        if (e & 1) x = mont_mul(x, base, m);
        base = mont_mul(base, base, m);
    }
    if (x == one || x == minus_one) return 1;
    for (int i = 1; i < s; i++) {
        x = mont_mul(x, x, m);
        if (x == minus_one) return 1;
        if (x == one) return 0;
    }
    return 0;
}

static const uint64_t MR_BASES[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
#define N_MR_BASES (sizeof MR_BASES / sizeof MR_BASES[0])

/* Deterministic primality for every 64-bit n. */
static int is_prime_u64(uint64_t n) {
    if (n < 2) return 0;
    for (size_t i = 0; i < N_MR_BASES; i++) {
        if (n == MR_BASES[i]) return 1;
        if (n % MR_BASES[i] == 0) return 0;
    }
    uint64_t d = n - 1;
    int s = 0;
    while (!(d & 1)) { d >>= 1; s++; }
    mont_t m = mont_init(n);
    for (size_t i = 0; i < N_MR_BASES; i++)
        if (!mr_round(MR_BASES[i], d, s, &m)) return 0;
    return 1;
}

/* ---- the sieve ---- */

#define SIEVE_LIMIT 65536u   /* odd primes below this remove candidates before Miller-Rabin */
#define SEGMENT (1u << 16)   /* q_h values per segment: fits in L2 */

static uint64_t inv_mod(uint64_t a, uint64_t p) { /* a^-1 mod p, p prime, a != 0 mod p */
    int64_t t = 0, nt = 1, r = (int64_t)p, nr = (int64_t)(a % p);
    while (nr) {
        int64_t q = r / nr, tmp;
        tmp = t - q * nt; t = nt; nt = tmp;
        tmp = r - q * nr; r = nr; nr = tmp;
    }
    return (uint64_t)(t < 0 ? t + (int64_t)p : t);
}

static int parse_u64(const char *s, uint64_t *out) {
    char *end;
    if (!*s || *s == '-') return 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end) return 0;
    *out = v;
    return 1;
}

static void usage(const char *msg) {
    fprintf(stderr, "proth_count: %s\nusage: proth_count K LOGQH [QH_LO QH_HI]  "
            "(2 <= K <= 64, 1 <= LOGQH < K; q_h range half-open, inside [2^(LOGQH-1), 2^LOGQH))\n", msg);
    exit(2);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    uint64_t k, logqh, lo, hi;
    if (argc != 3 && argc != 5) usage("expected 2 or 4 arguments");
    if (!parse_u64(argv[1], &k) || k < 2 || k > 64) usage("K must be an integer in 2..64");
    if (!parse_u64(argv[2], &logqh) || logqh < 1 || logqh >= k) usage("LOGQH must be an integer in 1..K-1");
    unsigned w = (unsigned)(k - logqh);
    uint64_t full_lo = 1ull << (logqh - 1), full_hi = logqh == 64 ? 0 : 1ull << logqh;
    lo = full_lo; hi = full_hi;
    if (argc == 5) {
        if (!parse_u64(argv[3], &lo) || !parse_u64(argv[4], &hi) || lo < full_lo || hi > full_hi || lo > hi)
            usage("QH_LO QH_HI must satisfy 2^(LOGQH-1) <= QH_LO <= QH_HI <= 2^LOGQH");
    }

    /* Sieve primes p < min(SIEVE_LIMIT, smallest q): a sieve prime must never equal q itself. */
    uint64_t q_min = (lo << w) + 1;
    static uint8_t composite[SIEVE_LIMIT];
    static uint32_t sp[SIEVE_LIMIT / 2], next[SIEVE_LIMIT / 2];
    size_t nsp = 0;
    for (uint32_t i = 2; i < SIEVE_LIMIT; i++) {
        if (composite[i]) continue;
        for (uint64_t j = (uint64_t)i * i; j < SIEVE_LIMIT; j += i) composite[j] = 1;
        if (i == 2 || i >= q_min) continue;
        /* first q_h >= lo with q_h = -(2^w)^-1 (mod p) */
        uint64_t p = i, two_w = 1;
        for (unsigned b = 0; b < w; b++) two_w = two_w * 2 % p;
        uint64_t r = (p - inv_mod(two_w, p)) % p;
        sp[nsp] = i;
        next[nsp] = (uint32_t)((r + p - lo % p) % p);  /* offset from the segment start */
        nsp++;
    }

    uint64_t count = 0, total = hi - lo, done = 0;
    static uint8_t seg[SEGMENT];
    double t0 = now(), last = t0;
    for (uint64_t base = lo; base < hi; base += SEGMENT) {
        uint64_t len = hi - base < SEGMENT ? hi - base : SEGMENT;
        memset(seg, 0, SEGMENT);
        for (size_t i = 0; i < nsp; i++) {
            uint64_t j = next[i], p = sp[i];
            for (; j < SEGMENT; j += p) seg[j] = 1;
            next[i] = (uint32_t)(j - SEGMENT);
        }
        for (uint64_t j = 0; j < len; j++)
            if (!seg[j] && is_prime_u64(((base + j) << w) + 1)) count++;
        done += len;
        double t = now();
        if (t - last >= 10.0) {
            double rate = done / (t - t0);
            fprintf(stderr, "proth_count %" PRIu64 "/%" PRIu64 ": %.1f%% of %" PRIu64
                    " q_h, %" PRIu64 " primes so far, %.0f s elapsed, about %.0f s left\n",
                    k, logqh, 100.0 * done / total, total, count, t - t0, (total - done) / rate);
            last = t;
        }
    }
    fprintf(stderr, "proth_count %" PRIu64 "/%" PRIu64 ": done, %" PRIu64 " primes among %" PRIu64
            " q_h in %.1f s\n", k, logqh, count, total, now() - t0);
    printf("%" PRIu64 "\n", count);
    return 0;
}
