/*
 * polymul_flint: the negacyclic product c = a*b mod (x^n + 1) over Z_q with FLINT, timed.
 *
 * Why: the stronger modern software baseline next to NTL (tools/polymul_ntl.cpp) for the SSA
 * polynomial multiplier of Millar et al. (issue 10). Two FLINT routes, both with FLINT's defaults:
 *   fmpz_mod  fmpz_mod_poly_mul (any q), then c_i = p_i - p_{i+n} mod q;
 *   nmod      nmod_poly_mul (only q < 2^64, one machine word), then the same reduction.
 * FLINT's time is the faster route's median; the JSON gives both.
 *
 * Usage (the same as polymul_ntl):
 *   polymul_flint mul FILE|-                       print c, one decimal coefficient per line
 *                                                  (computed both ways when q < 2^64; they must agree)
 *   polymul_flint bench FILE|- REPS [BUDGET_S]     time REPS products of the file's a, b, each route
 *   polymul_flint bench-random N Q REPS SEED [BUDGET_S]
 *                                                  random a, b: fmpz_randm with flint_randseed(SEED, SEED)
 * FILE holds whitespace-separated decimals: n, q, then a_0..a_{n-1}, then b_0..b_{n-1}, each in
 * [0, q). `-` reads stdin.
 *
 * Timing: the modulus context and the operands are set up outside the timed region; one untimed
 * warm-up product per route; then REPS timed products, each timed alone with
 * clock_gettime(CLOCK_MONOTONIC). With BUDGET_S > 0 a route stops early once its timed products
 * exceed BUDGET_S seconds and at least 3 ran.
 *
 * bench prints one JSON line: tool, library, version (FLINT_VERSION), gmp (gmp_version), threads
 * (flint_get_num_threads(), 1 by default), n, q_bits, warmup, fmpz_mod and nmod (null when q >= 2^64), each {reps, median_s, min_s, mean_s,
 * times_s, checksum}, best (the faster route) and that route's reps, median_s, min_s, mean_s,
 * times_s and checksum at the top level. checksum is the FNV-1a 64-bit hash of the decimal text
 * "c_0\nc_1\n...c_{n-1}\n" ("fnv1a64:<16 hex digits>"), the same as polymul_ntl's.
 *
 * Exit status: 0 on success, 2 on bad arguments or input, 3 if the two routes disagree.
 * Built by `make sw-tools` (gcc -O2 ... -lflint -lgmp -lmpfr) into build/sw/polymul_flint.
 */
#include <flint/flint.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include <flint/fmpz_mod.h>
#include <flint/fmpz_mod_poly.h>
#include <flint/nmod_poly.h>
#include <gmp.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIN_REPS 3

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("polymul_flint: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static long parse_long(const char *s, const char *what)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0 || errno)
        fail("bad %s: '%s' (a non-negative whole number)", what, s);
    return v;
}

static double parse_double(const char *s, const char *what)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || v < 0)
        fail("bad %s: '%s' (a non-negative number)", what, s);
    return v;
}

/* One whitespace-separated token of decimal digits into x; 0 at the end of the input. */
static int read_decimal(FILE *in, fmpz_t x, const char *file, const char *what)
{
    static char *buf = NULL;
    static size_t cap = 0;
    size_t len = 0;
    int ch;
    while ((ch = fgetc(in)) != EOF && isspace(ch))
        ;
    if (ch == EOF)
        return 0;
    for (; ch != EOF && !isspace(ch); ch = fgetc(in)) {
        if (len + 2 > cap) {
            cap = cap ? 2 * cap : 256;
            buf = realloc(buf, cap);
            if (!buf)
                fail("out of memory");
        }
        buf[len++] = (char)ch;
    }
    buf[len] = 0;
    if (strspn(buf, "0123456789") != len)
        fail("%s: bad %s '%s' (a non-negative decimal)", file, what, buf);
    fmpz_set_str(x, buf, 10);
    return 1;
}

typedef struct {
    slong n;
    fmpz_t q;
    fmpz *a, *b;   /* n coefficients each, in [0, q) */
} operands_t;

static void read_operands(const char *file, operands_t *op)
{
    FILE *in = strcmp(file, "-") ? fopen(file, "r") : stdin;
    if (!in)
        fail("cannot open %s: %s", file, strerror(errno));
    fmpz_t x;
    fmpz_init(x);
    if (!read_decimal(in, x, file, "n"))
        fail("%s: empty input (expected n, q, then 2n coefficients)", file);
    if (!fmpz_fits_si(x) || fmpz_cmp_ui(x, 1) < 0 || fmpz_cmp_ui(x, 1L << 40) > 0)
        fail("%s: n must be between 1 and 2^40", file);
    op->n = fmpz_get_si(x);
    fmpz_init(op->q);
    if (!read_decimal(in, op->q, file, "q"))
        fail("%s: q missing after n", file);
    if (fmpz_cmp_ui(op->q, 2) < 0)
        fail("%s: q must be at least 2", file);
    op->a = _fmpz_vec_init(op->n);
    op->b = _fmpz_vec_init(op->n);
    for (slong k = 0; k < 2 * op->n; k++) {
        fmpz *c = k < op->n ? op->a + k : op->b + (k - op->n);
        if (!read_decimal(in, c, file, "coefficient"))
            fail("%s: %ld coefficients expected, input ends after %ld", file, (long)(2 * op->n), (long)k);
        if (fmpz_cmp(c, op->q) >= 0)
            fail("%s: coefficient %ld is not below q", file, (long)k);
    }
    if (read_decimal(in, x, file, "trailing token"))
        fail("%s: unexpected input after the 2n coefficients", file);
    fmpz_clear(x);
    if (in != stdin)
        fclose(in);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t fnv1a64(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

#define FNV_OFFSET 0xcbf29ce484222325ULL

/* ---- the fmpz_mod route (any q) ---- */

typedef struct {
    slong n;
    fmpz_mod_ctx_t ctx;
    fmpz_mod_poly_t a, b, p;
    fmpz *c;   /* the product mod x^n + 1, n coefficients */
} fmpz_route_t;

static void fmpz_route_init(fmpz_route_t *r, const operands_t *op)
{
    r->n = op->n;
    fmpz_mod_ctx_init(r->ctx, op->q);
    fmpz_mod_poly_init(r->a, r->ctx);
    fmpz_mod_poly_init(r->b, r->ctx);
    fmpz_mod_poly_init(r->p, r->ctx);
    for (slong i = 0; i < op->n; i++) {
        fmpz_mod_poly_set_coeff_fmpz(r->a, i, op->a + i, r->ctx);
        fmpz_mod_poly_set_coeff_fmpz(r->b, i, op->b + i, r->ctx);
    }
    r->c = _fmpz_vec_init(op->n);
}

static void fmpz_route_run(fmpz_route_t *r)
{
    fmpz_mod_poly_mul(r->p, r->a, r->b, r->ctx);
    slong len = r->p->length, n = r->n;
    const fmpz *p = r->p->coeffs;
    for (slong i = 0; i < n; i++) {
        if (i + n < len)
            fmpz_mod_sub(r->c + i, p + i, p + i + n, r->ctx);
        else if (i < len)
            fmpz_set(r->c + i, p + i);
        else
            fmpz_zero(r->c + i);
    }
}

static uint64_t fmpz_route_hash(const fmpz_route_t *r, FILE *print)
{
    uint64_t h = FNV_OFFSET;
    for (slong i = 0; i < r->n; i++) {
        char *s = fmpz_get_str(NULL, 10, r->c + i);
        h = fnv1a64(fnv1a64(h, s), "\n");
        if (print)
            fprintf(print, "%s\n", s);
        flint_free(s);
    }
    return h;
}

static void fmpz_route_clear(fmpz_route_t *r)
{
    _fmpz_vec_clear(r->c, r->n);
    fmpz_mod_poly_clear(r->a, r->ctx);
    fmpz_mod_poly_clear(r->b, r->ctx);
    fmpz_mod_poly_clear(r->p, r->ctx);
    fmpz_mod_ctx_clear(r->ctx);
}

/* ---- the nmod route (q < 2^64) ---- */

typedef struct {
    slong n;
    nmod_poly_t a, b, p;
    mp_limb_t *c;
} nmod_route_t;

static void nmod_route_init(nmod_route_t *r, const operands_t *op)
{
    mp_limb_t q = fmpz_get_ui(op->q);
    r->n = op->n;
    nmod_poly_init(r->a, q);
    nmod_poly_init(r->b, q);
    nmod_poly_init(r->p, q);
    for (slong i = 0; i < op->n; i++) {
        nmod_poly_set_coeff_ui(r->a, i, fmpz_get_ui(op->a + i));
        nmod_poly_set_coeff_ui(r->b, i, fmpz_get_ui(op->b + i));
    }
    r->c = flint_malloc(op->n * sizeof(mp_limb_t));
}

static void nmod_route_run(nmod_route_t *r)
{
    nmod_poly_mul(r->p, r->a, r->b);
    slong len = r->p->length, n = r->n;
    const mp_limb_t *p = r->p->coeffs;
    for (slong i = 0; i < n; i++) {
        mp_limb_t lo = i < len ? p[i] : 0;
        r->c[i] = i + n < len ? nmod_sub(lo, p[i + n], r->p->mod) : lo;
    }
}

static uint64_t nmod_route_hash(const nmod_route_t *r, FILE *print)
{
    uint64_t h = FNV_OFFSET;
    char s[32];
    for (slong i = 0; i < r->n; i++) {
        snprintf(s, sizeof s, "%" PRIu64 "\n", (uint64_t)r->c[i]);
        h = fnv1a64(h, s);
        if (print)
            fputs(s, print);
    }
    return h;
}

static void nmod_route_clear(nmod_route_t *r)
{
    flint_free(r->c);
    nmod_poly_clear(r->a);
    nmod_poly_clear(r->b);
    nmod_poly_clear(r->p);
}

/* ---- timing ---- */

typedef struct {
    long reps;
    double *times, median, min, mean;
    uint64_t hash;
} timing_t;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

typedef void (*run_fn)(void *);

static void time_route(run_fn run, void *route, long reps, double budget, timing_t *t)
{
    run(route);  /* warm-up, untimed */
    t->times = malloc(reps * sizeof(double));
    double total = 0;
    t->reps = 0;
    for (long i = 0; i < reps; i++) {
        double t0 = now_s();
        run(route);
        double dt = now_s() - t0;
        t->times[t->reps++] = dt;
        total += dt;
        if (budget > 0 && total > budget && t->reps >= MIN_REPS)
            break;
    }
    double *s = malloc(t->reps * sizeof(double));
    memcpy(s, t->times, t->reps * sizeof(double));
    qsort(s, t->reps, sizeof(double), cmp_double);
    long m = t->reps;
    t->median = m % 2 ? s[m / 2] : (s[m / 2 - 1] + s[m / 2]) / 2;
    t->min = s[0];
    t->mean = total / m;
    free(s);
}

static void print_fields(const timing_t *t)
{
    printf("\"reps\": %ld, \"median_s\": %.9g, \"min_s\": %.9g, \"mean_s\": %.9g, \"times_s\": [",
           t->reps, t->median, t->min, t->mean);
    for (long i = 0; i < t->reps; i++)
        printf("%s%.9g", i ? ", " : "", t->times[i]);
    printf("], \"checksum\": \"fnv1a64:%016" PRIx64 "\"", t->hash);
}

static void run_fmpz(void *r) { fmpz_route_run(r); }
static void run_nmod(void *r) { nmod_route_run(r); }

static void disagree(void)
{
    fprintf(stderr, "polymul_flint: fmpz_mod_poly and nmod_poly products differ: a FLINT bug or a bug here\n");
    exit(3);
}

static void bench(const operands_t *op, long reps, double budget)
{
    if (reps < 1)
        fail("REPS must be at least 1");
    int small = fmpz_abs_fits_ui(op->q);
    timing_t tf, tn;
    fmpz_route_t rf;
    fmpz_route_init(&rf, op);
    time_route(run_fmpz, &rf, reps, budget, &tf);
    tf.hash = fmpz_route_hash(&rf, NULL);
    fmpz_route_clear(&rf);
    if (small) {
        nmod_route_t rn;
        nmod_route_init(&rn, op);
        time_route(run_nmod, &rn, reps, budget, &tn);
        tn.hash = nmod_route_hash(&rn, NULL);
        nmod_route_clear(&rn);
        if (tn.hash != tf.hash)
            disagree();
    }
    const timing_t *best = small && tn.median < tf.median ? &tn : &tf;
    printf("{\"tool\": \"polymul_flint\", \"library\": \"FLINT\", \"version\": \"%s\", \"gmp\": \"%s\", \"threads\": %d, "
           "\"n\": %ld, \"q_bits\": %ld, \"warmup\": 1, \"fmpz_mod\": {",
           FLINT_VERSION, gmp_version, flint_get_num_threads(), (long)op->n, (long)fmpz_bits(op->q));
    print_fields(&tf);
    printf("}, \"nmod\": ");
    if (small) {
        printf("{");
        print_fields(&tn);
        printf("}");
    } else {
        printf("null");
    }
    printf(", \"best\": \"%s\", ", best == &tf ? "fmpz_mod" : "nmod");
    print_fields(best);
    printf("}\n");
    free(tf.times);
    if (small)
        free(tn.times);
}

static void usage(void)
{
    fprintf(stderr, "usage: polymul_flint mul FILE|-\n"
                    "       polymul_flint bench FILE|- REPS [BUDGET_S]\n"
                    "       polymul_flint bench-random N Q REPS SEED [BUDGET_S]\n"
                    "FILE: n, q, a_0..a_{n-1}, b_0..b_{n-1} as whitespace-separated decimals\n");
    exit(2);
}

int main(int argc, char **argv)
{
    operands_t op;
    if (argc < 2)
        usage();
    const char *mode = argv[1];
    if (!strcmp(mode, "mul") && argc == 3) {
        read_operands(argv[2], &op);
        fmpz_route_t rf;
        fmpz_route_init(&rf, &op);
        fmpz_route_run(&rf);
        if (fmpz_abs_fits_ui(op.q)) {
            nmod_route_t rn;
            nmod_route_init(&rn, &op);
            nmod_route_run(&rn);
            if (nmod_route_hash(&rn, NULL) != fmpz_route_hash(&rf, NULL))
                disagree();
            nmod_route_clear(&rn);
        }
        fmpz_route_hash(&rf, stdout);
        fmpz_route_clear(&rf);
    } else if (!strcmp(mode, "bench") && (argc == 4 || argc == 5)) {
        read_operands(argv[2], &op);
        bench(&op, parse_long(argv[3], "REPS"), argc == 5 ? parse_double(argv[4], "BUDGET_S") : 0);
    } else if (!strcmp(mode, "bench-random") && (argc == 6 || argc == 7)) {
        op.n = parse_long(argv[2], "N");
        fmpz_init(op.q);
        if (strspn(argv[3], "0123456789") != strlen(argv[3]) || !*argv[3])
            fail("bad Q: '%s' (a decimal)", argv[3]);
        fmpz_set_str(op.q, argv[3], 10);
        if (op.n < 1 || fmpz_cmp_ui(op.q, 2) < 0)
            fail("N must be at least 1 and Q at least 2");
        ulong seed = (ulong)parse_long(argv[5], "SEED");
        flint_rand_t state;
        flint_randinit(state);
        flint_randseed(state, seed, seed);
        op.a = _fmpz_vec_init(op.n);
        op.b = _fmpz_vec_init(op.n);
        for (slong i = 0; i < op.n; i++)
            fmpz_randm(op.a + i, state, op.q);
        for (slong i = 0; i < op.n; i++)
            fmpz_randm(op.b + i, state, op.q);
        flint_randclear(state);
        bench(&op, parse_long(argv[4], "REPS"), argc == 7 ? parse_double(argv[6], "BUDGET_S") : 0);
    } else {
        usage();
    }
    return 0;
}
