# modforge: `make help` lists the targets.
SHELL      := /bin/bash
.SHELLFLAGS := -eo pipefail -c
DESIGN     ?= gshoup_128
BUILD      := $(CURDIR)/build
MILL       := ./mill -i
PYTEST     := .venv/bin/python -m pytest
export MODFORGE_BUILD := $(BUILD)

.PHONY: help setup rtl rtl-all test test-long test-sim test-models test-rtl harden gls check-classic fpga reports bench-flow correction-stats record-test-times clean

help:
	@echo "modforge: make <target> [DESIGN=<d>]; the docs/ pages hold each family's detail"
	@echo "flow and FPGA, any design (docs/flow.md):"
	@echo "  make harden DESIGN=<d>  the main job: RTL, synthesis, STA at tt/ss/ff -> build/<d>/harden/"
	@echo "  make gls DESIGN=<d>     the cocotb bench on the synthesized netlist (Icarus)"
	@echo "  make rtl DESIGN=<d>     build/<d>/rtl/<d>.v and its manifest <d>.json"
	@echo "  make rtl-all            the 12 designs of the paper's Table 1, the reduction family's table and the NTT tiles"
	@echo "  make check-classic [DESIGN=<d>]  does LibreLane's Classic flow accept the config with this PDK? (all table designs without DESIGN)"
	@echo "  make fpga DESIGN=<d> TARGET=xc7|xcup|ecp5 [PART=LFE5U-85F]  FPGA counts / Fmax -> build/<d>/fpga/"
	@echo "  make peer               the peer multiplier vlsiffra through our synthesis and STA (VLSIFFRA_DIR=<clone>)"
	@echo "  make bench-flow         rerun all 12 designs, time and memory per step -> reports/flow_benchmark.md"
	@echo "modmul, the paper's three multipliers (docs/modmul.md):"
	@echo "  designs: barrett_<k>, shoup_<k>, gshoup_<k>, 16 <= k <= 512 (default DESIGN=$(DESIGN))"
	@echo "  bare products: mul_<k>; variants: <design>__<tokens> (p<mask>, t<c>, m<arch>, drc, d<ps>, fa1, ...) and <family>_<k>_fast (docs/modmul.md)"
	@echo "  make correction-stats   how rare the last corrections are, and how often Algorithm 1 as printed fails -> reports/correction_stats.md"
	@echo "reduction (docs/reduction.md):"
	@echo "  reduction family: mont_<k>, cbarrett_<k>, plantard_<k>, wlm_<k>_w<w>, wlmm_<k>_h<h>[_t<GA>x<GB>],"
	@echo "    k2red_<k>_h<h>[_lazy], monts_<k>_h<h>_<2l|3l>_<ra|rb>, k2reds_<k>_h<h>_<2l|3l>_<ra|rb> (docs/reduction.md)"
	@echo "  make proth-report       the NTT-reduction paper's Tables 2-3 prime counts recomputed -> reports/proth_primes.md"
	@echo "NTT tile (docs/ntt.md):"
	@echo "  NTT tiles: ntt_<N>_<k>_p<P>_<barrett|shoupbarrett|gshoup|mont|wlmm|k2red>[_ram][_sram] [NTT_Q=q NTT_PSI=psi], e.g. ntt_256_64_p2_gshoup; _sram: SKY130 SRAM macros (docs/ntt.md)"
	@echo "polymul (docs/polymul.md):"
	@echo "  polynomial multipliers: polymul_<n>_<logq>[_p<P>] for the SSA paper's Table I sets, e.g. polymul_4096_62 (docs/polymul.md)"
	@echo "intfft (docs/intfft.md):"
	@echo "  Integer-FFT super-size multiplier: intfft_<fermat32|general32|fermat64|solinas64>_<parallel|folded_p<P>|butterfly|schoolbook|barrett> (docs/intfft.md, Hardware)"
	@echo "tests (docs/testing.md):"
	@echo "  make test               fast suite: models, SpinalSim (k=32,256), cocotb RTL (k=32,64), gate level (k=32)"
	@echo "  make test-long          all 12 table designs, 10,000 operations each"
	@echo "  make record-test-times  time both suites into reports/test_times.md and docs/testing.md"
	@echo "reports and DSE:"
	@echo "  make reports            Table 1, Figures 2-3, the NTT, reduction, polymul and intfft tables in SKY130, the FPGA table -> reports/ (runs missing designs)"
	@echo "  make dse [FAMILY=barrett K=32,64 WIDE=128,256 JOBS=2 DASK=tcp://host:8786]  design-space exploration -> reports/dse.md"
	@echo "software baseline (docs/polymul.md):"
	@echo "  make sw-baseline [SETS=1024_19,4096_62 REPS=7]  NTL and FLINT negacyclic products for the SSA paper's sets -> build/sw_baseline/"
	@echo "  make sw-tools           build/sw/polymul_ntl and build/sw/polymul_flint (the baseline's C/C++ programs)"

setup:
	@scripts/setup.sh

# NTT tiles take NTT_Q and NTT_PSI (defaults: the largest q = 1 mod 2N below 2^(k-1), its smallest psi).
NTT_Q   ?= default
NTT_PSI ?= default
rtl: setup
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --ntt-q $(NTT_Q) --ntt-psi $(NTT_PSI) $(DESIGN)

rtl-all: setup
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --table --reduction-table --ntt-table --best

# Synthesis and STA at three corners (docs/flow.md, "Hardening (SKY130 with LibreLane)"); results in
# build/<d>/harden/.
harden: rtl
	.venv/bin/python flow/harden.py $(DESIGN)

# Gate-level cocotb on build/<d>/harden/<d>.nl.v (hardened first if it is missing).
gls: setup
	@test -f build/$(DESIGN)/harden/$(DESIGN).nl.v || $(MAKE) --no-print-directory harden DESIGN=$(DESIGN)
	MODFORGE_GLS_DESIGNS=$(DESIGN) $(PYTEST) -q verif/tests/test_gls.py

test-models: setup
	$(PYTEST) -q verif/tests/test_models.py

test-sim: setup
	$(MILL) hw.test

test-rtl: rtl-all
	$(PYTEST) -q verif/tests/test_rtl.py

GLS_FAST := barrett_32 shoup_32 gshoup_32
GLS_RED  := k2reds_32_h15_3l_rb
GLS_NTT  := ntt_16_32_p1_gshoup ntt_16_32_p1_gshoup_sram
GLS_BEST := shoup_32_fast
# Gate level in make test-long only (docs/testing.md, "Tiers"): each costs make test a synthesis
# (20-100 s) and an Icarus run; make test keeps one reduction design and one _fast design at gate
# level, and all of them at RTL.
GLS_LONG := mont_32 wlmm_32_h15 barrett_32_fast gshoup_32_fast
# The _fast configurations make test simulates (MODFORGE_BEST_WIDTHS=32): generating all twelve
# (--best) costs about 2 minutes of elaboration, almost all of it the 64- to 256-bit product trees.
BEST_32  := barrett_32_fast shoup_32_fast gshoup_32_fast

# make test runs two chains side by side (scripts/parallel.py), one per core, after one generator
# run: "sim" (SpinalSim shard a, then the pytest files that call the generator themselves, since Mill
# runs one at a time) and "flow" (synthesis and STA of the gate-level designs, SpinalSim shard b,
# then the rest of pytest, the multipliers' cocotb RTL benches among it). The SpinalSim suites run
# without Mill (scripts/scala_tests.py: one JVM per shard, shard b in its own workspace), so that
# they can use both cores. The split balances the two chains' times. The `_fast` configurations run
# at RTL at 32 bits here (their explicit product trees cost Icarus minutes at 64); test-long adds 64, 128.
SIM_TESTS  := verif/tests/test_dse.py verif/tests/test_intfft_rtl.py verif/tests/test_ntt_sram.py verif/tests/test_ntt_tile.py verif/tests/test_polymul.py
TEST_ENV   := MODFORGE_WIDTHS=32,64 MODFORGE_BEST_OPS=100 MODFORGE_BEST_WIDTHS=32 MODFORGE_GLS_WIDTHS=32 MODFORGE_GLS_EXTRA="$(GLS_RED) $(GLS_BEST)" MODFORGE_GLS_NTT="$(GLS_NTT)"

test: setup
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --table --reduction-table --ntt-table $(BEST_32) $(GLS_NTT) polymul_1024_19
	.venv/bin/python scripts/scala_tests.py classpath --out $(BUILD)/scala_tests.cp
	.venv/bin/python scripts/parallel.py \
	  'sim: .venv/bin/python scripts/scala_tests.py run --shard a --classpath $(BUILD)/scala_tests.cp && $(TEST_ENV) $(PYTEST) -q $(SIM_TESTS)' \
	  'flow: for d in $(GLS_FAST) $(GLS_RED) $(GLS_BEST) $(GLS_NTT); do .venv/bin/python flow/harden.py $$d | tail -n 2; done && \
	     .venv/bin/python flow/fpga.py gshoup_32 xc7 | tail -n 1 && \
	     .venv/bin/python flow/check_classic.py gshoup_32 ntt_16_32_p1_gshoup_sram && \
	     .venv/bin/python scripts/scala_tests.py run --shard b --classpath $(BUILD)/scala_tests.cp --build $(BUILD)/scala_shard_b && \
	     $(TEST_ENV) $(PYTEST) -q verif/tests $(addprefix --ignore=,$(SIM_TESTS))'

test-long: setup
	MODFORGE_SIM_OPS=10000 $(MILL) hw.test
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --table --reduction-table --ntt-table --best $(GLS_NTT) polymul_1024_19
	for d in barrett_64 shoup_64 gshoup_64 $(GLS_FAST) $(GLS_RED) $(GLS_BEST) $(GLS_LONG) $(GLS_NTT); do .venv/bin/python flow/harden.py $$d | tail -n 2; done
	for d in barrett_32 shoup_32 gshoup_32; do .venv/bin/python flow/fpga.py $$d xc7 | tail -n 1; done
	MODFORGE_NTT_LONG=1 MODFORGE_INTFFT_LONG=1 MODFORGE_WIDTHS=32,64,128,256 MODFORGE_OPS=10000 MODFORGE_BEST_OPS=1000 MODFORGE_BEST_WIDTHS=32,64,128 MODFORGE_GLS_WIDTHS=32,64 MODFORGE_GLS_OPS=1000 \
	  MODFORGE_GLS_EXTRA="$(GLS_RED) $(GLS_BEST) $(GLS_LONG)" MODFORGE_GLS_NTT="$(GLS_NTT)" \
	  MODFORGE_XC7_DESIGNS="barrett_32 shoup_32 gshoup_32" $(PYTEST) -q verif/tests

# Whether LibreLane's Classic flow accepts the configuration with this PDK (no OpenROAD needed):
# DESIGN=<d>, or every design of the tables (reports/*) and the polymul_* SRAM tiles without DESIGN.
check-classic: setup
	@if [ -n "$(DESIGN)" ]; then $(MAKE) --no-print-directory rtl DESIGN=$(DESIGN) && .venv/bin/python flow/check_classic.py $(DESIGN); \
	else $(MAKE) --no-print-directory rtl-all && .venv/bin/python flow/check_classic.py --all; fi

# FPGA resource counts (TARGET=xc7) or place-and-route Fmax (TARGET=ecp5, PART=LFE5U-85F default).
TARGET ?=
PART   ?=
fpga: rtl
	.venv/bin/python flow/fpga.py $(DESIGN) $(TARGET) $(if $(PART),--part $(PART))

# The paper's Table 1 and Figures 2-3 in SKY130, and the FPGA table (reports/); reruns only
# designs whose RTL changed. One design's failure does not stop the others.
reports: rtl-all
	.venv/bin/python flow/reports/asic_table.py || status=$$?; \
	.venv/bin/python flow/reports/ntt_table.py || status=$$?; \
	.venv/bin/python flow/reports/reduction_table.py || status=$$?; \
	.venv/bin/python flow/reports/polymul_table.py || status=$$?; \
	.venv/bin/python flow/reports/intfft_table.py || status=$$?; \
	.venv/bin/python flow/reports/fpga_table.py || status=$$?; exit $${status:-0}

# Design-space exploration (docs/modmul.md, "Design-space exploration") -> reports/dse.md, dse.csv, dse_<k>.png.
# FAMILY=barrett,shoup,gshoup K=32,64 (full sweeps) WIDE=128,256 (the best few of k = 64; WIDE= skips) JOBS=<cores>; DASK=tcp://host:8786 runs the points on a Dask
# cluster (workers share this folder); DASK_LOCAL=N on a local one. Resumable: finished points are kept.
FAMILY ?= barrett,shoup,gshoup
K      ?= 32,64
WIDE   ?= 128,256
JOBS   ?= $(shell nproc)
.PHONY: dse
dse: setup
	.venv/bin/python flow/dse.py --products --targets --family $(FAMILY) --k $(K) -j $(JOBS) $(if $(DASK),--scheduler $(DASK)) $(if $(DASK_LOCAL),--local-cluster $(DASK_LOCAL))
	$(if $(WIDE),.venv/bin/python flow/dse.py --products --family $(FAMILY) --k $(WIDE) --from-k 64 -j $(JOBS) $(if $(DASK),--scheduler $(DASK)) $(if $(DASK_LOCAL),--local-cluster $(DASK_LOCAL)))

# Reruns the flow on every table design and records each step's time and memory.
bench-flow: rtl-all
	.venv/bin/python flow/reports/asic_table.py --rerun

# How rare the last corrections are, and how often Algorithm 1 as printed fails.
correction-stats: setup
	.venv/bin/python scripts/correction_stats.py

# Times `make test` (also cold, on a fresh clone with an empty HOME) and `make test-long`.
record-test-times: setup
	.venv/bin/python scripts/record_test_times.py --cold

# Proth and Proth-l prime counts vs Tosun et al.'s Tables 2-3, with the 64-bit K²RED counts
# (C counter, minutes), and the Proth-2l lists -> reports/proth_primes.md.
.PHONY: proth-report
proth-report: setup
	.venv/bin/python scripts/proth_report.py --big

clean:
	rm -rf build out

# The peer multiplier vlsiffra (external tool, own venv) through our synthesis and STA, verified
# by simulation -> build/vlsiffra/<config>/metrics.json. VLSIFFRA_DIR=<clone> or the mirror.
.PHONY: peer
peer: setup
	.venv/bin/python flow/vlsiffra.py

# The software baseline of the SSA polynomial multiplier (Millar et al., issue 10): the negacyclic
# product in Z_q[x]/(x^n + 1) with NTL (ZZ_pX) and FLINT (fmpz_mod_poly, nmod_poly), -O2 and the
# libraries' default settings (docs/polymul.md, "Measurements and the software baseline").
# SETS=<n>_<logq>,... picks Table I sets (all by default); REPS timed products per library and set
# (default 7; fewer when a set passes ~10 s).
SW      := $(BUILD)/sw
SW_CXX  ?= g++
SW_CC   ?= gcc
SETS    ?=
REPS    ?= 7
.PHONY: sw-tools sw-baseline
sw-tools: $(SW)/polymul_ntl $(SW)/polymul_flint

$(SW)/polymul_ntl: tools/polymul_ntl.cpp
	@echo '#include <NTL/ZZ_pX.h>' | $(SW_CXX) -E -x c++ - >/dev/null 2>&1 || { echo "sw-tools: NTL's headers not found: run make setup (or apt-get install libntl-dev libgmp-dev)" >&2; exit 1; }
	@mkdir -p $(SW)
	$(SW_CXX) -O2 -Wall -o $@.tmp $< -lntl -lgmp -lpthread && mv $@.tmp $@

$(SW)/polymul_flint: tools/polymul_flint.c
	@echo '#include <flint/flint.h>' | $(SW_CC) -E -x c - >/dev/null 2>&1 || { echo "sw-tools: FLINT's headers not found: run make setup (or apt-get install libflint-dev libgmp-dev)" >&2; exit 1; }
	@mkdir -p $(SW)
	$(SW_CC) -O2 -Wall -o $@.tmp $< -lflint -lgmp -lmpfr && mv $@.tmp $@

sw-baseline: setup sw-tools
	.venv/bin/python flow/reports/sw_baseline.py --reps $(REPS) $(if $(SETS),--sets $(SETS))
