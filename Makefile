# modforge: `make help` lists the targets.
SHELL      := /bin/bash
.SHELLFLAGS := -eo pipefail -c
DESIGN     ?= gshoup_32
BUILD      := $(CURDIR)/build
MILL       := ./mill -i
PYTEST     := .venv/bin/python -m pytest
export MODFORGE_BUILD := $(BUILD)

.PHONY: help setup rtl rtl-all test test-chains test-long test-sim test-models test-rtl harden gls check-classic fpga reports bench-flow correction-stats record-test-times clean

help:
	@echo "modforge: make <target> [DESIGN=<d>]; the docs/ pages hold each family's detail"
	@echo "flow and FPGA, any design (docs/flow.md):"
	@echo "  make harden DESIGN=<d>  the main job: RTL, synthesis, STA at tt/ss/ff -> build/<d>/harden/; then, where"
	@echo "                          OpenROAD is found, LibreLane's Classic flow to GDS, DRC, LVS, post-route STA"
	@echo "                          -> build/<d>/pnr/ [PNR=auto|on|off PNR_LIMIT_MIN=<m> PNR_SET=\"VAR=JSON ...\" PNR_RESUME=1]"
	@echo "  make pnr-report         reports/pnr.csv, pnr.md: every layout of build/ (flow/reports/pnr_table.py)"
	@echo "  make gls DESIGN=<d>     the cocotb bench on the synthesized netlist (Icarus); hardens first if the"
	@echo "                          netlist is missing or was made from other RTL"
	@echo "  make rtl DESIGN=<d>     build/<d>/rtl/<d>.v and its manifest <d>.json"
	@echo "  (rtl, harden, gls and fpga without DESIGN use $(DESIGN) and say so)"
	@echo "  make rtl-all            the 12 designs of the paper's Table 1, the reduction family's table and the NTT tiles"
	@echo "  make check-classic [DESIGN=<d>]  does LibreLane's Classic flow accept the config with this PDK?"
	@echo "                          (without DESIGN: every table design and the SRAM tiles)"
	@echo "  make fpga DESIGN=<d> TARGET=xc7|xcup|ecp5 [PART=LFE5U-85F]  FPGA counts / Fmax -> build/<d>/fpga/"
	@echo "                          (TARGET is required; PART is ecp5's, LFE5U-25F|45F|85F)"
	@echo "  make peer               the peer multiplier vlsiffra through our synthesis and STA (VLSIFFRA_DIR=<clone>)"
	@echo "  make bench-flow         rerun all 12 designs, time and memory per step -> reports/flow_benchmark.md"
	@echo "modmul, the paper's three multipliers (docs/modmul.md):"
	@echo "  make correction-stats   how rare the last corrections are, and how often Algorithm 1 as printed fails -> reports/correction_stats.md"
	@echo "reduction (docs/reduction.md):"
	@echo "  make proth-report       the NTT-reduction paper's Tables 2-3 prime counts recomputed -> reports/proth_primes.md"
	@echo "NTT tile (docs/ntt.md):"
	@echo "  NTT_Q=q NTT_PSI=psi: the modulus and root of an NTT tile (make rtl / harden), e.g. DESIGN=ntt_256_64_p2_gshoup"
	@echo "polymul streaming engine (docs/polymul.md):"
	@echo "  PRIMES=q0,q1,...: your own limb primes (make rtl / harden), the name's _q<hash>; a name without it or with"
	@echo "                          another hash is refused with the right name, e.g. DESIGN=polymul_1024_50_s4_q<hash>"
	@echo "multi-pass engine, limbs side by side (docs/polymul_multipass.md):"
	@echo "  PRIMES=q0,q1,...: the limbs' own primes, one a limb (make rtl / harden), the name's _q<hash> as above,"
	@echo "                          e.g. DESIGN=mpoly_1024_x64_k2_b128_l2_s32_p2_q<hash>_mpaper (without: the largest w-bit primes)"
	@echo "tests (docs/testing.md):"
	@echo "  make test               fast suite: models, SpinalSim (k=32,256), cocotb RTL (k=32,64), gate level (k=32)"
	@echo "  make test-long          all 12 table designs, 10,000 operations each"
	@echo "  make record-test-times  time both suites into reports/test_times.md and docs/testing.md"
	@echo "reports and DSE:"
	@echo "  make reports            Table 1, Figures 2-3, the NTT, reduction, polymul and intfft tables in SKY130, the FPGA table -> reports/ (runs missing designs)"
	@echo "  make dse [FAMILY=barrett K=32,64 WIDE=128,256 JOBS=2 DASK=tcp://host:8786]  design-space exploration -> reports/dse.md"
	@echo "  make dse FAMILY=reduction [K=64 | DESIGNS=monts_64_h17_2l_rb,...] [JOBS=1]  the reduction family's designs through the"
	@echo "                          same recipe and product levers -> reports/dse_reduction.md, .csv (docs/reduction.md)"
	@echo "  make dse-polymul [SETS=1024_19,2048_33,4096_62 JOBS=2 DASK=tcp://host:8786 MAX_POINTS=N PLAN=1 START_LANES=P ENGINES=single,multi]"
	@echo "                          the polymul engines' exploration (lanes, limb width, multipliers, storage; the multi-pass engine's n1"
	@echo "                          and P) -> reports/polymul_dse.md,"
	@echo "                          polymul_best.csv (also: make dse FAMILY=polymul N=1024 LOGQ=19; docs/polymul_dse.md)"
	@echo "software baselines (docs/polymul.md, docs/polymul_baselines.md):"
	@echo "  make sw-baseline [SETS=1024_19,4096_62 REPS=7 KERNEL_REPS=2000]  the negacyclic product on one core, coefficients to"
	@echo "                          coefficients: NTL, FLINT 2.9, FLINT 3 (python-flint), tfhe-ntt (RNS, L = ceil(logq/b) limbs,"
	@echo "                          b = 62, 50, 31 bits, the fastest kept;"
	@echo "                          \"absent\" without cargo), each checked against Python -> build/sw_baseline/ (docs/polymul_baselines.md)"
	@echo "  make sw-tools           build/sw/polymul_ntl and build/sw/polymul_flint (the baseline's C/C++ programs)"
	@echo "  make sw-tfhe-ntt        build/sw/tfhe_ntt: tfhe-ntt (cargo, -C target-cpu=native); .venv/bin/python flow/reports/tfhe_ntt.py times it"
	@echo "design names, from the generator's registry (build/designs.json; DESIGN defaults to $(DESIGN)):"
	@.venv/bin/python verif/registry.py --grammar 2>/dev/null || echo "  (make setup first: the grammar comes from the generator)"

setup:
	@scripts/setup.sh

# NTT tiles take NTT_Q and NTT_PSI (defaults: the largest q = 1 mod 2N below 2^(k-1), its smallest psi).
NTT_Q   ?= default
NTT_PSI ?= default
# A streaming polymul engine's own limb primes (docs/polymul.md, "Your own primes"): PRIMES=q0,q1,... with
# DESIGN=polymul_<n>_<logq>_s<P>..._q<hash>, or a multi-limb multi-pass engine's (docs/polymul_multipass.md,
# "RTL: limbs side by side") with DESIGN=mpoly_<n>_x<n1>_k<limbs>..._q<hash>; empty: the engine draws its primes.
PRIMES  ?=
# A target that acts on one design says which it uses when DESIGN was not given (on the command
# line or in the environment): rtl (the first step of harden and gls) and fpga say it, once.
ONE_DESIGN := rtl harden gls fpga
say_design = $(if $(and $(filter file,$(origin DESIGN)),$(filter $(ONE_DESIGN),$(MAKECMDGOALS))),@echo "make $(MAKECMDGOALS): DESIGN not given: using $(DESIGN) (give DESIGN=<d>)" >&2)

rtl: setup
	$(say_design)
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --ntt-q $(NTT_Q) --ntt-psi $(NTT_PSI) $(if $(PRIMES),--primes $(PRIMES)) $(DESIGN)

rtl-all: setup
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --table --reduction-table --ntt-table --best

# Synthesis and STA at three corners (docs/flow.md, "Hardening (SKY130 with LibreLane)"); results in
# build/<d>/harden/.
# Then, where OpenROAD, Magic, Netgen and KLayout are found (flow/eda.py), LibreLane's Classic flow from
# that netlist to a DRC- and LVS-checked GDS in build/<d>/pnr/ (flow/pnr.py). PNR=off skips it, PNR=on
# fails without the tools; PNR_LIMIT_MIN=<m> stops a layout after m minutes and records the step it was in.
PNR ?= auto
PNR_LIMIT_MIN ?=
# PNR_SET="VAR=JSON ..." sets LibreLane variables for this layout (recorded in its metrics.json), e.g. DRT_THREADS=1
PNR_SET ?=
# PNR_RESUME=1 continues the layout a time limit stopped, from the step it was in (flow/pnr.py --resume), or
# PNR_RESUME=<LibreLane step id> from that step; the netlist is then kept as it is (harden.py --if-stale)
PNR_RESUME ?=
harden: rtl
	.venv/bin/python flow/harden.py $(DESIGN) $(if $(PNR_RESUME),--if-stale)
	$(if $(filter off,$(PNR)),,.venv/bin/python flow/pnr.py $(DESIGN) --tools $(PNR) $(if $(PNR_RESUME),--resume $(filter-out 1,$(PNR_RESUME))) $(if $(PNR_LIMIT_MIN),--time-limit-min $(PNR_LIMIT_MIN)) $(foreach s,$(PNR_SET),--set $(s)))

# Gate-level cocotb on build/<d>/harden/<d>.nl.v, hardened first if it is missing or was made from
# other RTL (harden.py --if-stale compares the RTL's hash with its metrics.json's rtl_sha256).
gls: rtl
	@.venv/bin/python verif/bench/runner.py gls-check $(DESIGN)
	.venv/bin/python flow/harden.py --if-stale $(DESIGN)
	MODFORGE_GLS_DESIGNS=$(DESIGN) $(PYTEST) -q verif/tests/test_gls.py

test-models: setup
	$(PYTEST) -q verif/tests/test_models.py

test-sim: setup
	$(MILL) hw.test

test-rtl: rtl-all
	$(PYTEST) -q verif/tests/test_rtl.py

GLS_FAST := barrett_32 shoup_32 gshoup_32
# make test's table design at gate level: the paper's GShoup (test-long: all three; docs/testing.md, "Tiers").
GLS_FAST_TEST := gshoup_32
# The routed netlists test-long simulates (their layout, reports/pnr.md gives its time, runs first where OpenROAD is found).
GLS_ROUTED := gshoup_32
# The one layout of make test (verif/tests/test_pnr.py, where OpenROAD is found): the smallest registry design;
# its time alone is in reports/pnr.md. It runs as a third chain beside sim and flow: its steps are mostly single-threaded and fill the
# time the two chains leave a core idle (Mill, JVM start-up, the chains' unequal ends). Since 2026-11-29 it starts right after a
# generator run of its design alone, before the generator's run for the other chains (about 2 minutes on a fresh clone).
# mul_8 since 2026-11-30: mul_16's layout alone took 419 s, over issue 42's 5 minutes (docs/flow.md, "The layout in make test").
PNR_TEST := mul_8
PNR_TEST_ID := verif/tests/test_pnr.py::test_layout_of_a_small_design_is_clean
GLS_RED  := k2reds_32_h15_3l_rb
GLS_NTT  := ntt_16_32_p1_gshoup ntt_16_32_p1_gshoup_sram
# The SRAM tile make test generates (check_classic reads it); its gate level (74 s of a cold make test, 2026-11-29)
# and the flip-flop tile's are in test-long (docs/testing.md, "Tiers").
GLS_NTT_TEST := ntt_16_32_p1_gshoup_sram
GLS_BEST := shoup_32_fast
# Gate level in make test-long only (docs/testing.md, "Tiers"): each costs make test a synthesis
# (20-100 s) and an Icarus run; make test keeps one reduction design and one _fast design at gate
# level, and all of them at RTL.
GLS_LONG := mont_32 wlmm_32_h15 barrett_32_fast gshoup_32_fast
# The multi-pass engine at gate level (docs/polymul_multipass.md, "Gate level"): a synthesis of about 4 minutes and
# about 40 minutes of Icarus for two products.
GLS_MULTIPASS := mpoly_1024_x32_b128_l2_s32_p1_w20_mpaper
# The _fast configurations make test simulates (MODFORGE_BEST_WIDTHS=32): generating all twelve
# (--best) costs about 2 minutes of elaboration, almost all of it the 64- to 256-bit product trees.
BEST_32  := barrett_32_fast shoup_32_fast gshoup_32_fast

# make test runs two chains side by side (scripts/parallel.py, target test-chains), one per core, after one generator
# run, and the layout chain beside them: "sim" (SpinalSim shard a, then the pytest files that call the generator themselves, since Mill
# runs one at a time) and "flow" (synthesis and STA of the gate-level designs, SpinalSim shard b,
# then the rest of pytest, the multipliers' cocotb RTL benches among it). The SpinalSim suites run
# without Mill (scripts/scala_tests.py: one JVM per shard, shard b in its own workspace), so that
# they can use both cores. The split balances the two chains' times (test_dse.py, which calls the generator too,
# runs in the flow chain since 2026-11-29: a Mill call waits for the other chain's, docs/testing.md "Tiers"). The `_fast` configurations run
# at RTL at 32 bits here (their explicit product trees cost Icarus minutes at 64); test-long adds 64, 128.
SIM_TESTS  := verif/tests/test_intfft_rtl.py verif/tests/test_multipass_columns.py verif/tests/test_multipass_engine.py verif/tests/test_multipass_mover.py verif/tests/test_multipass_rows.py verif/tests/test_ntt_sram.py verif/tests/test_ntt_tile.py verif/tests/test_polymul.py verif/tests/test_polymul_given_primes.py verif/tests/test_polymul_stream.py verif/tests/test_registry.py
TEST_ENV   := MODFORGE_WIDTHS=32,64 MODFORGE_BEST_OPS=100 MODFORGE_BEST_WIDTHS=32 MODFORGE_GLS_DESIGNS="$(GLS_FAST_TEST) $(GLS_RED) $(GLS_BEST)"

test: setup
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --index $(PNR_TEST)
	.venv/bin/python verif/registry.py --prefetch
	.venv/bin/python scripts/parallel.py 'pnr: $(PYTEST) -q $(PNR_TEST_ID)' 'tests: $(MAKE) --no-print-directory test-chains'

# make test's two main chains (not a target of its own: `make test` runs it beside the layout chain,
# which needs only mul_8's RTL and so starts before this generator run; 2026-11-29, docs/testing.md "Tiers").
# No --ntt-table: the NTT table's tiles (N = 64, 256) are simulated in test-long only, and their generation was
# 0.8 of this run's 1.0 min on a fresh clone (2026-11-29; test_ntt_tile.py generates what it runs).
test-chains:
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --table --reduction-table $(BEST_32) $(GLS_NTT_TEST) polymul_1024_19
	.venv/bin/python scripts/scala_tests.py classpath --out $(BUILD)/scala_tests.cp
	.venv/bin/python scripts/parallel.py \
	  'sim: .venv/bin/python scripts/scala_tests.py run --shard a --classpath $(BUILD)/scala_tests.cp && $(TEST_ENV) $(PYTEST) -q --durations=30 $(SIM_TESTS)' \
	  'flow: for d in $(GLS_FAST_TEST) $(GLS_RED) $(GLS_BEST); do .venv/bin/python flow/harden.py $$d | tail -n 2; done && \
	     .venv/bin/python flow/fpga.py gshoup_32 xc7 | tail -n 1 && \
	     .venv/bin/python flow/check_classic.py gshoup_32 ntt_16_32_p1_gshoup_sram && \
	     .venv/bin/python scripts/scala_tests.py run --shard b --classpath $(BUILD)/scala_tests.cp --build $(BUILD)/scala_shard_b && \
	     $(TEST_ENV) $(PYTEST) -q --durations=30 verif/tests $(addprefix --ignore=,$(SIM_TESTS)) --deselect $(PNR_TEST_ID)'

test-long: setup
	.venv/bin/pip install -q --disable-pip-version-check -r requirements-long.txt
	MODFORGE_SIM_OPS=10000 MODFORGE_SIM_WIDTHS=32,256 MODFORGE_POLYMUL_LONG=1 $(MILL) hw.test
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --table --reduction-table --ntt-table --best $(GLS_NTT) polymul_1024_19 $(GLS_MULTIPASS)
	.venv/bin/python verif/registry.py --prefetch
	for d in barrett_64 shoup_64 gshoup_64 $(GLS_FAST) $(GLS_RED) $(GLS_BEST) $(GLS_LONG) $(GLS_NTT) $(GLS_MULTIPASS); do .venv/bin/python flow/harden.py $$d | tail -n 2; done
	for d in barrett_32 shoup_32 gshoup_32; do .venv/bin/python flow/fpga.py $$d xc7 | tail -n 1; done
	for d in $(GLS_ROUTED); do .venv/bin/python flow/pnr.py $$d --tools auto --if-stale | tail -n 3; done
	MODFORGE_GLS_ROUTED="$(GLS_ROUTED)" MODFORGE_NTT_LONG=1 MODFORGE_INTFFT_LONG=1 MODFORGE_POLYMUL_LONG=1 MODFORGE_WIDTHS=32,64,128,256 MODFORGE_OPS=10000 MODFORGE_BEST_OPS=1000 MODFORGE_BEST_WIDTHS=32,64,128 MODFORGE_GLS_WIDTHS=32,64 MODFORGE_GLS_OPS=1000 \
	  MODFORGE_GLS_EXTRA="$(GLS_RED) $(GLS_BEST) $(GLS_LONG) $(GLS_MULTIPASS)" MODFORGE_GLS_NTT="$(GLS_NTT)" \
	  MODFORGE_XC7_DESIGNS="barrett_32 shoup_32 gshoup_32" $(PYTEST) -q verif/tests

# Whether LibreLane's Classic flow accepts the configuration with this PDK (no OpenROAD needed):
# DESIGN=<d>, or every design of the tables (reports/*) and the polymul_* SRAM tiles without DESIGN
# (generated here: check_classic.py --all checks what build/designs.json lists).
check-classic: setup
	@$(if $(filter file,$(origin DESIGN)),echo "make check-classic: DESIGN not given: checking every table design and the SRAM tiles" >&2)
	$(if $(filter file,$(origin DESIGN)),$(MILL) hw.runMain modforge.Generate --out $(BUILD) --table --reduction-table --ntt-table --polymul)
	$(if $(filter file,$(origin DESIGN)),,@$(MAKE) --no-print-directory rtl DESIGN=$(DESIGN))
	.venv/bin/python flow/check_classic.py $(if $(filter file,$(origin DESIGN)),--all,$(DESIGN))

# FPGA resource counts (TARGET=xc7) or place-and-route Fmax (TARGET=ecp5, PART=LFE5U-85F default).
TARGET ?=
PART   ?=
# TARGET is checked before anything is built.
fpga:
	@case "$(TARGET)" in xc7|xcup|ecp5) ;; \
	  "") echo "make fpga: TARGET not given. Fix: make fpga DESIGN=$(DESIGN) TARGET=xc7|xcup|ecp5 (ecp5: [PART=...])" >&2; exit 2;; \
	  *) echo "make fpga: unknown TARGET=$(TARGET). Fix: TARGET=xc7|xcup|ecp5 (xc7, xcup: counts; ecp5: Fmax)" >&2; exit 2;; esac
	$(say_design)
	@$(MAKE) --no-print-directory rtl DESIGN=$(DESIGN)
	.venv/bin/python flow/fpga.py $(DESIGN) $(TARGET) $(if $(PART),--part $(PART))

# The paper's Table 1 and Figures 2-3 in SKY130, and the FPGA table (reports/); reruns only
# designs whose RTL changed. One design's failure does not stop the others.
# The software baselines run first, so the polymul tables compare with figures from this run.
# polymul_primes.py (the limb prime classes, about half a minute) needs only the registry and the C counter.
reports: rtl-all sw-baseline
	.venv/bin/python flow/reports/asic_table.py || status=$$?; \
	.venv/bin/python flow/reports/ntt_table.py || status=$$?; \
	.venv/bin/python flow/reports/reduction_table.py || status=$$?; \
	.venv/bin/python flow/reports/polymul_table.py || status=$$?; \
	.venv/bin/python flow/reports/polymul_best.py || status=$$?; \
	.venv/bin/python flow/reports/polymul_primes.py || status=$$?; \
	.venv/bin/python flow/reports/intfft_table.py || status=$$?; \
	.venv/bin/python flow/reports/multipass_cycles.py || status=$$?; \
	.venv/bin/python flow/reports/polymul_multipass.py || status=$$?; \
	.venv/bin/python flow/reports/fpga_table.py || status=$$?; exit $${status:-0}

# Design-space exploration (docs/modmul.md, "Design-space exploration") -> reports/dse.md, dse.csv, dse_<k>.png.
# FAMILY=barrett,shoup,gshoup K=32,64 (full sweeps) WIDE=128,256 (the best few of k = 64; WIDE= skips) JOBS=<cores>; DASK=tcp://host:8786 runs the points on a Dask
# cluster (workers share this folder); DASK_LOCAL=N on a local one. Resumable: finished points are kept.
FAMILY ?= barrett,shoup,gshoup
K      ?= 32,64
WIDE   ?= 128,256
JOBS   ?= $(shell nproc)
# FAMILY=polymul runs the streaming polymul engine's exploration instead (dse-polymul below) at the
# sets N=<n,...> LOGQ=<logq,...> (paired; without them the three goal sets).
# FAMILY=reduction sweeps the reduction family's table designs at K (or DESIGNS=<d,...>) from their
# paper recipes (docs/reduction.md, "Design-space exploration") -> reports/dse_reduction.md, .csv.
N      ?=
LOGQ   ?=
DESIGNS ?=
DASK_ARGS = $(if $(DASK),--scheduler $(DASK)) $(if $(DASK_LOCAL),--local-cluster $(DASK_LOCAL))
.PHONY: dse dse-polymul
dse: setup
ifeq ($(FAMILY),polymul)
	.venv/bin/python flow/dse_polymul.py $(if $(N),--n $(N) --logq $(LOGQ)) -j $(JOBS) $(DASK_ARGS) $(if $(MAX_POINTS),--max-points $(MAX_POINTS))
else ifeq ($(FAMILY),reduction)
	.venv/bin/python flow/dse.py --family reduction --k $(K) $(if $(DESIGNS),--designs $(DESIGNS)) -j $(JOBS) $(DASK_ARGS)
else
	.venv/bin/python flow/dse.py --products --targets --family $(FAMILY) --k $(K) -j $(JOBS) $(DASK_ARGS)
	$(if $(WIDE),.venv/bin/python flow/dse.py --products --family $(FAMILY) --k $(WIDE) --from-k 64 -j $(JOBS) $(DASK_ARGS))
endif

# The streaming RNS polymul engine's exploration (docs/polymul_dse.md) -> reports/polymul_dse.md,
# polymul_best.csv, polymul_dse_<n>_<logq>.png; build/dse/polymul.json. SETS=1024_19,2048_33,4096_62
# (default), JOBS, DASK, DASK_LOCAL as for dse; MAX_POINTS=<N> synthesizes at most N points;
# PLAN=1 prints the points without running anything; START_LANES=<P> sweeps steps 1-4 at P lanes
# instead of 4 (at (4096, 62): 1). Resumable: finished points are kept.
MAX_POINTS  ?=
PLAN        ?=
START_LANES ?=
dse-polymul: setup
	.venv/bin/python flow/dse_polymul.py $(if $(SETS),--sets $(SETS)) -j $(JOBS) $(DASK_ARGS) $(if $(MAX_POINTS),--max-points $(MAX_POINTS)) $(if $(PLAN),--plan) $(if $(START_LANES),--start-lanes $(START_LANES)) $(if $(ENGINES),--engines $(ENGINES))

# reports/pnr.csv and pnr.md from every layout in build/ (make harden DESIGN=<d> makes one).
.PHONY: pnr-report
pnr-report: setup
	.venv/bin/python flow/reports/pnr_table.py $(if $(PARTIAL),--partial)

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

# The software baseline of the polynomial multipliers (Millar et al., issues 10 and 27): the negacyclic
# product in Z_q[x]/(x^n + 1) on one pinned core with NTL (ZZ_pX) and FLINT 2.9 (fmpz_mod_poly,
# nmod_poly), -O2 and the libraries' default settings, FLINT 3 through python-flint (requirements.txt)
# and tfhe-ntt (sw-tfhe-ntt, built by the script when cargo is there; "absent" otherwise), each
# checked against a Python product (docs/polymul_baselines.md).
# SETS=<n>_<logq>,... picks Table I sets (all by default); REPS timed products per set for NTL and
# FLINT 2.9 (default 7), KERNEL_REPS for FLINT 3 and tfhe-ntt (default 2000); fewer when a library
# passes ~10 s on a set.
SW      := $(BUILD)/sw
SW_CXX  ?= g++
SW_CC   ?= gcc
SETS    ?=
REPS    ?= 7
KERNEL_REPS ?= 2000
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

# sw_baseline.py merges a complete run into data/baselines/cpu_strongest.json (a faster figure replaces an
# entry, a slower one never does; flow/reports/cpu_strongest.py, docs/polymul_baselines.md): commit that file.
sw-baseline: setup sw-tools
	.venv/bin/python flow/reports/sw_baseline.py --reps $(REPS) --kernel-reps $(KERNEL_REPS) $(if $(SETS),--sets $(SETS))

# tfhe-ntt (Zama's NTT crate, prime64::Plan) on one core (issue 27): tools/tfhe_ntt_bench, whose
# Cargo.lock pins the crate's version, built with cargo --locked and -C target-cpu=native into
# $(SW)/tfhe_ntt (cargo's own output stays in $(SW)/cargo-target). Run it with
# .venv/bin/python flow/reports/tfhe_ntt.py (--help); verif/tests/test_tfhe_ntt.py checks it.
# tfhe-ntt 0.7.1 needs Rust >= 1.91.1 (older Debian/Ubuntu cargo packages are too old: use rustup).
.PHONY: sw-tfhe-ntt
sw-tfhe-ntt:
	@command -v cargo >/dev/null 2>&1 || { echo "sw-tfhe-ntt: cargo not found: install Rust >= 1.91.1 with 'curl https://sh.rustup.rs -sSf | sh' (or apt-get install cargo, if the distribution's is that recent)" >&2; exit 1; }
	@mkdir -p $(SW)
	CARGO_TARGET_DIR=$(SW)/cargo-target RUSTFLAGS="-C target-cpu=native" cargo build --release --locked --manifest-path tools/tfhe_ntt_bench/Cargo.toml
	cp $(SW)/cargo-target/release/tfhe_ntt_bench $(SW)/tfhe_ntt.tmp && mv $(SW)/tfhe_ntt.tmp $(SW)/tfhe_ntt
