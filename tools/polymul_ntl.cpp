/*
 * polymul_ntl: the negacyclic product c = a*b mod (x^n + 1) over Z_q with NTL's ZZ_pX, timed.
 *
 * Why: the software baseline of Millar et al.'s SSA polynomial multiplier (issue 10) is "the FFT
 * polynomial multiplication function within the NTL software library" (their Section V; they
 * used NTL 11.3.2 and report the average time). This program times the same operation with the
 * NTL installed here (Debian libntl-dev), with NTL's default settings: ZZ_pX multiplication
 * `mul` (NTL picks its own algorithm by degree and modulus size: plain/Karatsuba at small
 * degree, Schoenhage-Strassen SSMul only for moduli of about a hundred words or more, otherwise
 * FFTMul, the multi-modular FFT, which is what every Table I set gets), then the reduction mod
 * x^n + 1, c_i = p_i - p_{i+n}. No thread pool is set up (NTL's default is one thread).
 *
 * Usage:
 *   polymul_ntl mul FILE|-                         print c, one decimal coefficient per line
 *   polymul_ntl bench FILE|- REPS [BUDGET_S]       time REPS products of the file's a, b
 *   polymul_ntl bench-random N Q REPS SEED [BUDGET_S]
 *                                                  the same with random a, b from NTL's generator
 *                                                  (SetSeed(SEED), then random(a, N), random(b, N))
 * FILE holds whitespace-separated decimals: n, q, then a_0..a_{n-1}, then b_0..b_{n-1}, each
 * coefficient in [0, q). `-` reads stdin.
 *
 * Timing: ZZ_p::init(q) and reading the operands are outside the timed region (a library user
 * sets the modulus once); one untimed warm-up product (NTL builds its FFT tables on first use);
 * then REPS timed products, each timed alone with std::chrono::steady_clock (monotonic). With
 * BUDGET_S > 0 it stops early once the timed products exceed BUDGET_S seconds and at least 3 ran.
 *
 * bench prints one JSON line: tool, library, version (NTL_VERSION), gmp (gmp_version), threads
 * (NTL's AvailableThreads(), 1 by default), n, q_bits, reps (timed products run), warmup, median_s, min_s, mean_s, times_s and checksum, the
 * FNV-1a 64-bit hash of the decimal text "c_0\nc_1\n...c_{n-1}\n" ("fnv1a64:<16 hex digits>",
 * the same as polymul_flint's, so the two tools' products can be compared).
 *
 * Exit status: 0 on success, 2 on bad arguments or input.
 * Built by `make sw-tools` (g++ -O2 ... -lntl -lgmp -lpthread) into build/sw/polymul_ntl.
 */
#include <NTL/BasicThreadPool.h>
#include <NTL/ZZ_pX.h>
#include <NTL/version.h>
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace NTL;

static const int MIN_REPS = 3;

[[noreturn]] static void fail(const std::string& msg)
{
    std::cerr << "polymul_ntl: " << msg << std::endl;
    std::exit(2);
}

static long parse_long(const char* s, const char* what)
{
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (!*s || *end || v < 0)
        fail(std::string("bad ") + what + ": '" + s + "' (a non-negative whole number)");
    return v;
}

static double parse_double(const char* s, const char* what)
{
    char* end = nullptr;
    double v = std::strtod(s, &end);
    if (!*s || *end || v < 0)
        fail(std::string("bad ") + what + ": '" + s + "' (a non-negative number)");
    return v;
}

static ZZ parse_zz(const std::string& s, const char* what)
{
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        fail(std::string("bad ") + what + ": '" + s + "' (a non-negative decimal)");
    return conv<ZZ>(s.c_str());
}

/* Reads "n q a_0 .. a_{n-1} b_0 .. b_{n-1}", sets ZZ_p's modulus to q. */
static long read_operands(const char* file, ZZ_pX& a, ZZ_pX& b)
{
    std::ifstream fin;
    std::istream* in = &std::cin;
    if (std::string(file) != "-") {
        fin.open(file);
        if (!fin)
            fail(std::string("cannot open ") + file);
        in = &fin;
    }
    std::string tok;
    if (!(*in >> tok))
        fail(std::string(file) + ": empty input (expected n, q, then 2n coefficients)");
    long n = parse_long(tok.c_str(), "n");
    if (n < 1)
        fail("n must be at least 1");
    if (!(*in >> tok))
        fail(std::string(file) + ": q missing after n");
    ZZ q = parse_zz(tok, "q");
    if (q < 2)
        fail("q must be at least 2");
    ZZ_p::init(q);
    ZZ_pX* ops[2] = {&a, &b};
    for (int k = 0; k < 2; k++) {
        ops[k]->rep.SetLength(n);
        for (long i = 0; i < n; i++) {
            if (!(*in >> tok))
                fail(std::string(file) + ": " + std::to_string(2 * n) + " coefficients expected, input ends after "
                     + std::to_string(k * n + i));
            ZZ x = parse_zz(tok, "coefficient");
            if (x >= q)
                fail(std::string(file) + ": coefficient " + tok + " is not below q");
            ops[k]->rep[i] = conv<ZZ_p>(x);
        }
        ops[k]->normalize();
    }
    if (*in >> tok)
        fail(std::string(file) + ": unexpected input after the 2n coefficients: '" + tok + "'");
    return n;
}

/* c = a*b mod (x^n + 1): p = a*b (degree <= 2n-2), c_i = p_i - p_{i+n}. */
static void negacyclic(ZZ_pX& c, ZZ_pX& p, const ZZ_pX& a, const ZZ_pX& b, long n)
{
    mul(p, a, b);
    long len = p.rep.length();
    c.rep.SetLength(n);
    for (long i = 0; i < n; i++) {
        if (i < len)
            c.rep[i] = p.rep[i];
        else
            clear(c.rep[i]);
        if (i + n < len)
            sub(c.rep[i], c.rep[i], p.rep[i + n]);
    }
    c.normalize();
}

static std::string coeff_text(const ZZ_pX& c, long n)
{
    std::ostringstream s;
    for (long i = 0; i < n; i++)
        s << rep(coeff(c, i)) << '\n';
    return s.str();
}

static std::string fnv1a64(const std::string& text)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char ch : text) {
        h ^= ch;
        h *= 0x100000001b3ULL;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "fnv1a64:%016llx", (unsigned long long)h);
    return buf;
}

static void bench(const ZZ_pX& a, const ZZ_pX& b, long n, long reps, double budget)
{
    if (reps < 1)
        fail("REPS must be at least 1");
    ZZ_pX c, p;
    negacyclic(c, p, a, b, n);  // warm-up, untimed
    std::vector<double> times;
    double total = 0;
    for (long r = 0; r < reps; r++) {
        auto t0 = std::chrono::steady_clock::now();
        negacyclic(c, p, a, b, n);
        auto t1 = std::chrono::steady_clock::now();
        double t = std::chrono::duration<double>(t1 - t0).count();
        times.push_back(t);
        total += t;
        if (budget > 0 && total > budget && (long)times.size() >= MIN_REPS)
            break;
    }
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    size_t m = sorted.size();
    double median = m % 2 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
    std::printf("{\"tool\": \"polymul_ntl\", \"library\": \"NTL\", \"version\": \"%s\", \"gmp\": \"%s\", \"threads\": %ld, "
                "\"n\": %ld, \"q_bits\": %ld, \"reps\": %zu, \"warmup\": 1, "
                "\"median_s\": %.9g, \"min_s\": %.9g, \"mean_s\": %.9g, \"times_s\": [",
                NTL_VERSION, gmp_version, AvailableThreads(), n, (long)NumBits(ZZ_p::modulus()), m, median, sorted[0], total / m);
    for (size_t i = 0; i < m; i++)
        std::printf("%s%.9g", i ? ", " : "", times[i]);
    std::printf("], \"checksum\": \"%s\"}\n", fnv1a64(coeff_text(c, n)).c_str());
}

static void usage()
{
    std::cerr << "usage: polymul_ntl mul FILE|-\n"
                 "       polymul_ntl bench FILE|- REPS [BUDGET_S]\n"
                 "       polymul_ntl bench-random N Q REPS SEED [BUDGET_S]\n"
                 "FILE: n, q, a_0..a_{n-1}, b_0..b_{n-1} as whitespace-separated decimals\n";
    std::exit(2);
}

int main(int argc, char** argv)
{
    if (argc < 2)
        usage();
    std::string mode = argv[1];
    ZZ_pX a, b;
    if (mode == "mul" && argc == 3) {
        long n = read_operands(argv[2], a, b);
        ZZ_pX c, p;
        negacyclic(c, p, a, b, n);
        std::fputs(coeff_text(c, n).c_str(), stdout);
    } else if (mode == "bench" && (argc == 4 || argc == 5)) {
        long n = read_operands(argv[2], a, b);
        bench(a, b, n, parse_long(argv[3], "REPS"), argc == 5 ? parse_double(argv[4], "BUDGET_S") : 0);
    } else if (mode == "bench-random" && (argc == 6 || argc == 7)) {
        long n = parse_long(argv[2], "N");
        ZZ q = parse_zz(argv[3], "Q");
        if (n < 1 || q < 2)
            fail("N must be at least 1 and Q at least 2");
        ZZ_p::init(q);
        SetSeed(conv<ZZ>(parse_long(argv[5], "SEED")));
        random(a, n);
        random(b, n);
        bench(a, b, n, parse_long(argv[4], "REPS"), argc == 7 ? parse_double(argv[6], "BUDGET_S") : 0);
    } else {
        usage();
    }
    return 0;
}
