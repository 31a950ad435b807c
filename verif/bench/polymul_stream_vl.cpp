// Verilator harness for one streaming polymul engine (polymul_<n>_<logq>_s<P>[_w<w>]) whose ports are
// at most 64 bits wide: verif/bench/polymul_stream_verilator.py builds it (top prefixed Vtop), writes
// the input beats, runs it and checks what it writes against the Python oracle. This file only moves
// beats; it computes nothing.
//
//   Vtop <stimulus> <record> <reset_cycles> <in_stall> <out_stall> <seed> <max_cycles> [+verilator+...]
//
// stimulus: one input beat a line, "<in_a hex> <in_b hex>". record: lines
//   R <in_ready seen after 0, 1, ..., reset_cycles edges with reset 0>   (reset promise)
//   I <edge>                 an input beat accepted at rising edge <edge>
//   O <edge> <out_c hex>     an output beat read; first valid after rising edge <edge>
//   N <edge>                 in_valid high and in_ready low before rising edge <edge>
//   S <cycles> <in stalls> <out stalls> <out_valid after drain: 0|1>
// The timing is the cocotb bench's (polymul_stream_bench.py): inputs change after the falling edge, a
// beat moves at the next rising edge when valid and ready are both high before it.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <random>
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

int main(int argc, char** argv) {
    ctx = new VerilatedContext;
    ctx->commandArgs(argc, argv);  // +verilator+seed+<n>, +verilator+rand+reset+2
    std::vector<const char*> pos;
    for (int i = 1; i < argc; ++i)
        if (argv[i][0] != '+') pos.push_back(argv[i]);
    if (pos.size() != 7) {
        fprintf(stderr, "usage: %s stimulus record reset_cycles in_stall out_stall seed max_cycles\n", argv[0]);
        return 2;
    }
    const int reset_cycles = atoi(pos[2]);
    const double in_stall = atof(pos[3]), out_stall = atof(pos[4]);
    std::mt19937_64 rng(strtoull(pos[5], nullptr, 10));
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    const uint64_t max_cycles = strtoull(pos[6], nullptr, 10);

    std::vector<uint64_t> as, bs;
    FILE* f = fopen(pos[0], "r");
    if (!f) { perror(pos[0]); return 2; }
    uint64_t a, b;
    while (fscanf(f, "%" SCNx64 " %" SCNx64, &a, &b) == 2) { as.push_back(a); bs.push_back(b); }
    fclose(f);
    FILE* rec = fopen(pos[1], "w");
    if (!rec) { perror(pos[1]); return 2; }

    top = new Vtop{ctx};
    top->clk = 0;
    top->reset = 1;
    top->in_valid = 0;
    top->out_ready = 0;
    top->in_a = 0;
    top->in_b = 0;
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

    const size_t total = as.size();
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
        top->in_a = drive ? as[in] : rng();
        top->in_b = drive ? bs[in] : rng();
        const bool ready = !(out_stall > 0 && uni(rng) < out_stall);
        top->out_ready = ready;
        top->eval();
        const bool in_ready = top->in_ready, out_valid = top->out_valid;
        if (out_valid) {
            if (!pending) first_seen = rising;
            if (ready) {
                fprintf(rec, "O %" PRIu64 " %" PRIx64 "\n", first_seen, (uint64_t)top->out_c);
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
