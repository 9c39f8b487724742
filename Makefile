# gemlab top-level Makefile: it only delegates to the components.
#
#   make run     install what is missing, build what is missing, run the
#                default board and scenario, print the report
#   make test    everything CI checks
#   make all     build every component (QEMU, firmwares, runner); runs nothing.
#                `make build` is the same (build/ is also the output folder)
#   make bench   benchmarks (never part of `make test`)
#   make fuzz    every fuzz target for FUZZ_SECONDS (default 120) each
#   make fuzz-qemu  QEMU generic-fuzz on cadence_gem, FUZZ_SECONDS (default 600)
#   make soak    the fault soak, SOAK_SECONDS (default 1800)
#   make campaign  fault campaign scored blind: RUNS (200), SEED, PAIRS=1
#   make lint    shellcheck + pyflakes3 on every tracked script (make test's first step)
#
# Conventions (mk/common.mk): V=1 verbose, O=DIR output root (default
# build/), SAN=1 ASan+UBSan host build, GEMLAB_CACHE third-party cache.
include mk/common.mk

# Groups of Debian packages (scripts/deps/GROUP.list) the targets need.
# `make run` gets gnuplot (charts) so the first report has its charts, but
# not report.list's chromium and tshark.
DEPS_TEST := base qemu baremetal linux charts report
DEPS_RUN  := base qemu baremetal charts

# The QEMU every firmware test boots: ours.  Its path is asked for by the
# shell when the recipe line runs, never by make: make expands every line
# of a recipe before it runs the first, so a $(shell ...) here ran
# build.sh before `make run` had installed anything (issue 21, "a clean
# first run").  Use: $(Q)$(QEMU_SET) && QEMU="$$qemu" CMD.  build.sh
# directly, not $(MAKE): a line naming $(MAKE) runs even under `make -n`.
QEMU_SET = qemu=$$(QEMU_SAN=$(SAN) $(TOP)/emu/qemu/build.sh path)

.PHONY: all build deps help models demo qemu qemu-path firmware baremetal linux runner \
        test test-unit test-san test-fuzz test-device test-baremetal \
        qemu-san test-device-san fuzz-qemu test-fuzz-qemu \
        test-linux test-runner test-campaign test-soak qemu-test qemu-test-merge bench \
        campaign fuzz soak \
        run run-demo clean

all: models qemu baremetal linux runner
build: all

help:
	@sed -n '2,16p' Makefile

deps:
	$(Q)$(TOP)/scripts/deps.sh $(DEPS_TEST)

models:
	$(Q)$(MAKE) -C models all

demo: models

qemu:
	$(Q)$(MAKE) -C emu/qemu all

qemu-path:
	@$(MAKE) -s --no-print-directory -C emu/qemu path

baremetal:
	$(Q)$(MAKE) -C firmware/baremetal all

linux:
	$(Q)$(MAKE) -C firmware/linux all

firmware: baremetal linux

runner:
	$(Q)$(MAKE) -C emu/runner all

# ---- make test: every part CI checks, in dependency order -------------
# Each step is its own target so `make test-device` etc. work alone.
# Each step prints how long it took ("make test: test-unit took 93 s"),
# so a CI log shows where the time goes (the brief's aim: 45 minutes).
test_step = t0=$$(date +%s); $(MAKE) --no-print-directory $(1); rc=$$?; \
	echo "make test: $(1) took $$(( $$(date +%s) - t0 )) s"; exit $$rc
test: deps
	$(Q)$(call test_step,test-lint)
	$(Q)$(call test_step,test-unit)
	$(Q)$(call test_step,test-san)
	$(Q)$(call test_step,test-fuzz)
	$(Q)$(call test_step,test-device)
	$(Q)$(call test_step,test-device-san)
	$(Q)$(call test_step,test-fuzz-qemu)
	$(Q)$(call test_step,test-baremetal)
	$(Q)$(call test_step,test-linux)
	$(Q)$(call test_step,test-runner)
	$(Q)$(call test_step,test-campaign)
	$(Q)$(call test_step,test-soak)
	$(Q)$(call test_step,qemu-test)
	@echo "make test: all suites passed"

# Lint (issue 21), first because it takes seconds: shellcheck on every
# tracked shell script, pyflakes3 on every tracked Python file, found by
# git ls-files and shebang (scripts/lint.sh); "lint: N passed, M failed".
# C warnings fail the C builds themselves (-Werror, mk/common.mk WARNFLAGS).
.PHONY: lint test-lint
lint: test-lint
test-lint:
	$(Q)$(TOP)/scripts/lint.sh

test-unit: models
	$(Q)$(MAKE) -C tests/unit run
	$(Q)$(call pytest_suite,pylib) $(TOP)/tests/lib/tests

# The same unit tests under ASan + UBSan (their own output tree).
test-san:
	$(Q)$(MAKE) -C tests/unit run SAN=1
	$(Q)$(MAKE) -C emu/runner all SAN=1

test-fuzz:
	$(Q)$(MAKE) -C tests/fuzz smoke

test-device: qemu
	$(Q)$(MAKE) -C tests/device run

# The sanitizer QEMU (clang-14, ASan+UBSan, --enable-fuzzing; its own cache
# key): qemu-system-arm for test-device-san, qemu-fuzz-arm for fuzz-qemu.
qemu-san:
	$(Q)$(MAKE) -C emu/qemu all SAN=1

# The device tests again, harness and QEMU under ASan+UBSan: any sanitizer
# report fails the step (docs/SECURITY.md: the device tests run on the
# SAN=1 QEMU).
test-device-san: qemu-san
	$(Q)$(MAKE) -C tests/device run SAN=1

# QEMU's generic-fuzz on xilinx-zynq-a9 + cadence_gem (tests/fuzz/qemu):
#   make fuzz-qemu FUZZ_SECONDS=3600   a long run, growing build/fuzz/qemu/corpus
# `make test` runs 60 s from the committed corpus only (test-fuzz-qemu).
fuzz-qemu: qemu-san
	$(Q)$(MAKE) -C tests/fuzz/qemu fuzz FUZZ_SECONDS=$(or $(FUZZ_SECONDS),600)

test-fuzz-qemu: qemu-san
	$(Q)$(MAKE) -C tests/fuzz/qemu smoke

# Build every board profile; boot the QEMU one on our QEMU.
test-baremetal: qemu
	$(Q)$(MAKE) -C firmware/baremetal all BOARD=zc702
	$(Q)$(MAKE) -C firmware/baremetal all BOARD=zc706
	$(Q)$(QEMU_SET) && $(MAKE) -C firmware/baremetal test QEMU="$$qemu"

test-linux: qemu
	$(Q)$(QEMU_SET) && $(MAKE) -C firmware/linux test QEMU="$$qemu"

# determinism and virtual-time boot both firmwares on our QEMU, so the step
# builds them itself when it runs alone (`make test-runner` in a fresh clone).
test-runner: qemu baremetal linux runner
	$(Q)$(MAKE) -C emu/runner robustness
	$(Q)$(TOP)/tests/qemu/runner/merge.sh
	$(Q)$(TOP)/tests/qemu/runner/skips.sh
	$(Q)$(TOP)/tests/qemu/runner/first_run.sh
	$(Q)$(TOP)/tests/qemu/runner/deps_idempotent.sh
	$(Q)$(TOP)/tests/qemu/runner/qemu_build_keys.sh
	$(Q)$(TOP)/tests/qemu/runner/report.sh
	$(Q)$(call pytest_suite,aggregate) $(TOP)/tests/bench/test_aggregate.py $(TOP)/tests/bench/test_bench_make.py \
	    $(TOP)/tests/bench/test_vt_theory.py $(TOP)/tests/bench/test_calibration_search.py
	$(Q)$(QEMU_SET) && QEMU="$$qemu" $(call pytest_suite,determinism) $(TOP)/tests/qemu/runner/test_determinism.py
	$(Q)$(QEMU_SET) && QEMU="$$qemu" GEMLAB=$(HOSTO)/bin/gemlab $(call pytest_suite,board-argv) \
	    $(TOP)/tests/qemu/runner/test_board_argv.py
	$(Q)$(QEMU_SET) && QEMU="$$qemu" $(call pytest_suite,link-keys) $(TOP)/tests/qemu/runner/test_link_keys.py
	$(Q)$(QEMU_SET) && QEMU="$$qemu" GEMLAB=$(HOSTO)/bin/gemlab $(call pytest_suite,virtual-time) \
	    -n $(PYTEST_JOBS) --basetemp=$(O)/vt $(TOP)/tests/qemu/runner/test_virtual_time.py

# Fault campaigns (issue 20): random faults, each run diagnosed blind and
# scored for precision and recall per code (emu/runner/campaign.c):
#   make campaign RUNS=200 SEED=1            single faults
#   make campaign RUNS=100 SEED=1 PAIRS=1    two faults per sample
#   make campaign CLOCK=virtual RUNS=100     bare metal, virtual time
# Writes build/campaign[-vt][-pairs]/campaign.{json,md,html}.  `make test`
# runs 20 samples in real time (it fails when a run errors or a clean
# sample names a physical, MAC or protocol code; the per-code scores move
# with the host, so they are reported, not gated) and 20 in virtual time.
campaign: qemu baremetal runner
	$(Q)$(QEMU_SET) && $(HOSTO)/bin/gemlab campaign --qemu "$$qemu" --runs $(or $(RUNS),200) \
	    --seed $(or $(SEED),1) $(if $(PAIRS),--pairs) $(if $(FAULTS),--faults $(FAULTS)) \
	    $(if $(CLOCK),--clock $(CLOCK)) \
	    --out $(O)/campaign$(if $(filter virtual,$(CLOCK)),-vt)$(if $(PAIRS),-pairs)

# In virtual time every figure is exact, so the 20 samples' scores are
# gated at issue 20's bars (docs/CAMPAIGN.md "Virtual time").
test-campaign: qemu baremetal runner
	$(Q)$(QEMU_SET) && $(HOSTO)/bin/gemlab campaign --qemu "$$qemu" --runs 20 --seed 1 \
	    --out $(O)/test-results/campaign
	$(Q)$(QEMU_SET) && $(HOSTO)/bin/gemlab campaign --qemu "$$qemu" --runs 20 --seed 1 --clock virtual \
	    --min-recall 95 --min-precision 98 --out $(O)/test-results/campaign-vt

# The fault soak (issue 8): flaps every 2 s, 5 % Gilbert-Elliott loss,
# partner-speed changes, RX starvation bursts, iperf + echo; then stats,
# lwIP pools back to idle, counters explained, QEMU RSS flat.
#   make soak                  30 minutes against bare-metal
#   make soak SOAK_SECONDS=600 SOAK_FW=both
# `make test` runs the 2-minute version.
SOAK_SECONDS ?= 1800
SOAK_FW ?= baremetal
soak: qemu baremetal runner
	$(Q)SOAK_SECONDS=$(SOAK_SECONDS) SOAK_FW=$(SOAK_FW) $(TOP)/tests/soak/soak.sh

test-soak: qemu baremetal runner
	$(Q)SOAK_SECONDS=120 SOAK_FW=baremetal $(call pytest_suite,soak) $(TOP)/tests/soak/test_soak.py

# The scenario matrix (TAP on stdout, JUnit in build/test-results/):
#   make qemu-test                     every scenario
#   make qemu-test SCENARIO=clean_1g   one (or several, space-separated)
#   make qemu-test SHARD=2/4           a stable slice of the matrix
qemu-test: qemu baremetal linux runner
	$(Q)$(QEMU_SET) && QEMU="$$qemu" SHARD="$(or $(SHARD),1/1)" \
	    $(TOP)/tests/qemu/runner/qemu-test.sh $(SCENARIO)

bench: deps models
	$(Q)$(MAKE) -C tests/bench run

fuzz: deps
	$(Q)$(MAKE) -C tests/fuzz fuzz

# Merge the outputs of `make qemu-test SHARD=k/N` (k = 1..N) into one
# verdict, JUnit file, report.md and index.html in build/qemu-test-merged
# (N=1: an unsharded `make qemu-test` too).
qemu-test-merge: runner
	$(Q)$(HOSTO)/bin/gemlab merge --expect-shards $(or $(N),$(error N=number of shards)) \
	    --out $(O)/qemu-test-merged \
	    $(wildcard $(O)/test-results/qemu-test-*-of-$(N).xml) \
	    $(if $(filter 1,$(N)),$(wildcard $(O)/test-results/qemu-test.xml)) $(O)/qemu-test

# The main job: bare-metal on the clean-1G scenario, TCP both ways and UDP.
run:
	$(Q)$(TOP)/scripts/deps.sh $(DEPS_RUN)
	$(Q)$(MAKE) --no-print-directory qemu baremetal runner
	$(Q)$(QEMU_SET) && QEMU="$$qemu" $(TOP)/scripts/run.sh

# The models alone, no emulator: negotiation and wire traces.
run-demo: models
	$(Q)$(TOP)/scripts/run-demo.sh

clean:
	rm -rf $(O)
