// Verilator harness for one streaming polymul engine (polymul_<n>_<logq>_s<P>[_w<w>]) with ports of any
// width: verif/bench/polymul_stream_verilator.py builds it (top prefixed Vtop), writes the input beats,
// runs it and checks what it writes against the Python oracle. This file only moves beats; it computes
// nothing.
//
//   Vtop <stimulus> <record> <reset_cycles> <in_stall> <out_stall> <seed> <max_cycles> <width> [+verilator+...]
//
// stimulus: one input beat a line, "<in_a hex> <in_b hex>". record: lines
//   R <in_ready seen after 0, 1, ..., reset_cycles edges with reset 0>   (reset promise)
//   I <edge>                 an input beat accepted at rising edge <edge>
//   O <edge> <out_c hex>     an output beat read; first valid after rising edge <edge>
//   N <edge>                 in_valid high and in_ready low before rising edge <edge>
//   S <cycles> <in stalls> <out stalls> <out_valid after drain: 0|1>
// The timing is the cocotb bench's (polymul_stream_bench.py): inputs change after the falling edge, a
// beat moves at the next rising edge when valid and ready are both high before it.
//
// Ports: <width> bits (L*P*w, the manifest's), held here as ceil(width/32) 32-bit words, least
// significant first. Verilator makes a port of up to 64 bits a CData/SData/IData/QData and a wider one
// a VlWide<N> (N 32-bit words); put()/get() below move the words into either. Between beats the data
// inputs get random bits (masked to <width>: Verilator expects a wide port's unused top bits zero), one
// 64-bit draw per two words, so a port of at most 64 bits sees the draws it always saw.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vtop.h"
#include "verilated.h"

static VerilatedContext* ctx;
static Vtop* top;
static uint64_t rising = 0;

static void rise() {
    ctx->timeInc(5);
    top->clk = 1;
    top->eval();
    ++rising;
}
static void fall() {
    ctx->timeInc(5);
    top->clk = 0;
    top->eval();
}

// The 32-bit words a port holds, and moving words in and out of it.
template <std::size_t N>
constexpr size_t port_words(const VlWide<N>&) { return N; }
template <typename T>
constexpr typename std::enable_if<std::is_integral<T>::value, size_t>::type port_words(const T&) {
    return sizeof(T) > 4 ? 2 : 1;
}
template <std::size_t N>
static void put(VlWide<N>& port, const uint32_t* w) {
    for (size_t i = 0; i < N; ++i) port[i] = w[i];
}
template <typename T>
static typename std::enable_if<std::is_integral<T>::value>::type put(T& port, const uint32_t* w) {
    uint64_t v = w[0];
    if (sizeof(T) > 4) v |= (uint64_t)w[1] << 32;
    port = (T)v;
}
template <std::size_t N>
static void get(const VlWide<N>& port, uint32_t* w) {
    for (size_t i = 0; i < N; ++i) w[i] = port[i];
}
template <typename T>
static typename std::enable_if<std::is_integral<T>::value>::type get(const T& port, uint32_t* w) {
    const uint64_t v = port;
    w[0] = (uint32_t)v;
    if (sizeof(T) > 4) w[1] = (uint32_t)(v >> 32);
}

// Hex text -> nw words (least significant first); false if it has a non-hex digit or does not fit.
static bool parse_hex(const std::string& s, uint32_t* w, size_t nw) {
    for (size_t i = 0; i < nw; ++i) w[i] = 0;
    size_t bit = 0;
    for (size_t k = s.size(); k-- > 0; bit += 4) {
        const char c = s[k];
        uint32_t d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return false;
        if (!d) continue;
        if (bit / 32 >= nw) return false;
        w[bit / 32] |= d << (bit % 32);
    }
    return true;
}

static void print_hex(FILE* f, const uint32_t* w, size_t nw) {
    size_t top_word = nw - 1;
    while (top_word > 0 && !w[top_word]) --top_word;
    fprintf(f, "%" PRIx32, w[top_word]);
    for (size_t i = top_word; i-- > 0;) fprintf(f, "%08" PRIx32, w[i]);
}

int main(int argc, char** argv) {
    ctx = new VerilatedContext;
    ctx->commandArgs(argc, argv);  // +verilator+seed+<n>, +verilator+rand+reset+2
    std::vector<const char*> pos;
    for (int i = 1; i < argc; ++i)
        if (argv[i][0] != '+') pos.push_back(argv[i]);
    if (pos.size() != 8) {
        fprintf(stderr, "usage: %s stimulus record reset_cycles in_stall out_stall seed max_cycles width\n", argv[0]);
        return 2;
    }
    const int reset_cycles = atoi(pos[2]);
    const double in_stall = atof(pos[3]), out_stall = atof(pos[4]);
    std::mt19937_64 rng(strtoull(pos[5], nullptr, 10));
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    const uint64_t max_cycles = strtoull(pos[6], nullptr, 10);
    const size_t width = strtoull(pos[7], nullptr, 10);
    const size_t nw = (width + 31) / 32;
    const uint32_t top_mask = width % 32 ? (1u << (width % 32)) - 1 : ~0u;

    top = new Vtop{ctx};
    if (!width || port_words(top->in_a) != nw || port_words(top->in_b) != nw || port_words(top->out_c) != nw) {
        fprintf(stderr, "ports of %zu bits are %zu words; the model's in_a, in_b, out_c are %zu, %zu, %zu words\n",
                width, nw, port_words(top->in_a), port_words(top->in_b), port_words(top->out_c));
        return 2;
    }

    std::vector<uint32_t> as, bs;  // nw words a beat
    {
        std::ifstream f(pos[0]);
        if (!f) { perror(pos[0]); return 2; }
        std::string ha, hb;
        while (f >> ha >> hb) {
            as.resize(as.size() + nw);
            bs.resize(bs.size() + nw);
            if (!parse_hex(ha, &as[as.size() - nw], nw) || !parse_hex(hb, &bs[bs.size() - nw], nw) ||
                (as.back() & ~top_mask) || (bs.back() & ~top_mask)) {
                fprintf(stderr, "%s: beat %zu is not two hex numbers of at most %zu bits\n", pos[0],
                        as.size() / nw - 1, width);
                return 2;
            }
        }
    }
    FILE* rec = fopen(pos[1], "w");
    if (!rec) { perror(pos[1]); return 2; }

    std::vector<uint32_t> zero(nw, 0), filler(nw + 1), outw(nw);
    auto random_words = [&]() {
        for (size_t i = 0; i < nw; i += 2) {
            const uint64_t r = rng();
            filler[i] = (uint32_t)r;
            filler[i + 1] = (uint32_t)(r >> 32);  // filler has a spare word for odd nw
        }
        filler[nw - 1] &= top_mask;
        return filler.data();
    };

    top->clk = 0;
    top->reset = 1;
    top->in_valid = 0;
    top->out_ready = 0;
    put(top->in_a, zero.data());
    put(top->in_b, zero.data());
    top->eval();
    for (int i = 0; i < 3; ++i) { rise(); fall(); }
    top->reset = 0;
    top->eval();
    fprintf(rec, "R");
    for (int i = 0; i <= reset_cycles; ++i) {
        fprintf(rec, " %d", (int)top->in_ready);
        if (i < reset_cycles) { rise(); fall(); }
    }
    fprintf(rec, "\n");
    rise(); fall();

    const size_t total = as.size() / nw;
    size_t in = 0, out = 0;
    bool pending = false;
    uint64_t first_seen = 0, cycles = 0, in_stalls = 0, out_stalls = 0;
    while (out < total) {
        if (cycles >= max_cycles) {
            fprintf(stderr, "%zu of %zu output beats after %" PRIu64 " cycles (%zu input beats accepted)\n", out,
                    total, cycles, in);
            fclose(rec);
            return 1;
        }
        const bool drive = in < total && !(in_stall > 0 && uni(rng) < in_stall);
        top->in_valid = drive;
        put(top->in_a, drive ? &as[in * nw] : random_words());
        put(top->in_b, drive ? &bs[in * nw] : random_words());
        const bool ready = !(out_stall > 0 && uni(rng) < out_stall);
        top->out_ready = ready;
        top->eval();
        const bool in_ready = top->in_ready, out_valid = top->out_valid;
        if (out_valid) {
            if (!pending) first_seen = rising;
            if (ready) {
                get(top->out_c, outw.data());
                fprintf(rec, "O %" PRIu64 " ", first_seen);
                print_hex(rec, outw.data(), nw);
                fprintf(rec, "\n");
                ++out;
            }
        }
        pending = out_valid && !ready;
        out_stalls += pending;
        in_stalls += !drive && in < total;
        if (drive) {
            if (in_ready) {
                fprintf(rec, "I %" PRIu64 "\n", rising + 1);
                ++in;
            } else {
                fprintf(rec, "N %" PRIu64 "\n", rising + 1);
            }
        }
        rise(); fall();
        ++cycles;
    }
    // Drained: nothing more may come out.
    int late = 0;
    top->in_valid = 0;
    top->out_ready = 1;
    for (int i = 0; i < 64; ++i) {
        top->eval();
        late |= top->out_valid;
        rise(); fall();
    }
    fprintf(rec, "S %" PRIu64 " %" PRIu64 " %" PRIu64 " %d\n", cycles, in_stalls, out_stalls, late);
    fclose(rec);
    top->final();
    delete top;
    delete ctx;
    return 0;
}
