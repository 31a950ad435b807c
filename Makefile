# modforge: `make help` lists the targets.
SHELL      := /bin/bash
.SHELLFLAGS := -eo pipefail -c
DESIGN     ?= gshoup_128
BUILD      := $(CURDIR)/build
MILL       := ./mill -i
PYTEST     := .venv/bin/python -m pytest
export MODFORGE_BUILD := $(BUILD)

.PHONY: help setup rtl rtl-all test test-long test-sim test-models test-rtl harden record-test-times clean

help:
	@echo "make harden DESIGN=<d>  the main job: RTL (hardening: see README, issue 3)"
	@echo "make rtl DESIGN=<d>     build/<d>/rtl/<d>.v and its manifest <d>.json"
	@echo "make rtl-all            the 12 designs of the paper's Table 1"
	@echo "make test               fast suite: models, SpinalSim (k=32,256), cocotb RTL (k=32,64)"
	@echo "make test-long          all 12 table designs, 10,000 operations each"
	@echo "make record-test-times  time both suites into reports/test_times.md and the README"
	@echo "designs: barrett_<k>, shoup_<k>, gshoup_<k>, 16 <= k <= 512 (default DESIGN=$(DESIGN))"

setup:
	@scripts/setup.sh

rtl: setup
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) $(DESIGN)

rtl-all: setup
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --table

# Hardening (OpenLane/LibreLane) is issue 3; until it lands the main job stops after RTL.
harden: rtl
	@echo "harden: $(DESIGN): RTL written to build/$(DESIGN)/rtl/$(DESIGN).v; synthesis, STA and the"
	@echo "harden: OpenLane flow are not implemented yet (issue 3), so the run stops here."

test-models: setup
	$(PYTEST) -q verif/tests/test_models.py

test-sim: setup
	$(MILL) hw.test

test-rtl: rtl-all
	$(PYTEST) -q verif/tests/test_rtl.py

test: setup
	$(MILL) hw.test
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --table
	MODFORGE_WIDTHS=32,64 $(PYTEST) -q verif/tests

test-long: setup
	MODFORGE_SIM_OPS=10000 $(MILL) hw.test
	$(MILL) hw.runMain modforge.Generate --out $(BUILD) --table
	MODFORGE_WIDTHS=32,64,128,256 MODFORGE_OPS=10000 $(PYTEST) -q verif/tests

# Times `make test` (also cold, on a fresh clone with an empty HOME) and `make test-long`.
record-test-times: setup
	.venv/bin/python scripts/record_test_times.py --cold

clean:
	rm -rf build out
