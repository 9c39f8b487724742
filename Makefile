# gemlab top-level Makefile: it only delegates to the components.
#
#   make run     install what is missing, build what is missing, run the
#                default board and scenario, print the report
#   make test    everything CI checks
#   make bench   benchmarks (never part of `make test`)
#
# Conventions (mk/common.mk): V=1 verbose, O=DIR output root (default
# build/), SAN=1 ASan+UBSan host build, GEMLAB_CACHE third-party cache.
include mk/common.mk

# Groups of Debian packages each target needs (scripts/deps/GROUP.list).
DEPS_TEST := base
DEPS_RUN  := base

.PHONY: all deps models demo test test-unit bench run clean help
all: models

help:
	@sed -n '2,12p' Makefile

deps:
	$(Q)$(TOP)/scripts/deps.sh $(DEPS_TEST)

models: deps
	$(Q)$(MAKE) -C models all

demo: models

test: deps
	$(Q)$(MAKE) -C models all
	$(Q)$(MAKE) -C tests/unit run

test-unit: deps
	$(Q)$(MAKE) -C tests/unit run

bench: deps
	$(Q)$(MAKE) -C tests/bench run

run: deps models
	$(Q)$(TOP)/scripts/run-demo.sh

clean:
	rm -rf $(O)
