# mk/common.mk - the one shared make fragment (libopencm3 lib/Makefile.include
# style). Every component Makefile includes it.
#
#   V=1        echo every command
#   O=DIR      out-of-tree output root (default: build/ at the top)
#   SAN=1      host code with ASan+UBSan, into a separate output tree
#   GEMLAB_CACHE  where fetched/built third-party trees live (default
#              ~/.cache/gemlab); never inside git.
#   QEMU_BASE  7.2 or 10.0: the QEMU emu/qemu builds and every test boots
#              (empty: emu/qemu/build.sh's BASE_DEFAULT)
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
O ?= $(TOP)/build
override O := $(abspath $(O))
# An override is not exported by itself, even when O came from the command
# line: the pytest suites (tests/lib/gemlab_test/paths.py) read it from the
# environment to find what this make built.
export O
GEMLAB_CACHE ?= $(HOME)/.cache/gemlab
export GEMLAB_CACHE

V ?= 0
ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-7s %s\n' $(1) $(2)
endif

SAN ?= 0
ifeq ($(SAN),1)
HOSTO := $(O)/host-san
# float-cast-overflow: GCC's -fsanitize=undefined leaves it out (GCC
# manual, "Program Instrumentation Options"), and a double from a guest
# or a results file cast to an integer is exactly what it catches.
SANFLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
else
HOSTO := $(O)/host
SANFLAGS :=
endif

# Exported so that emu/qemu/build.sh sees it from any recipe (the top
# Makefile and test scripts call build.sh directly).
QEMU_BASE ?=
export QEMU_BASE

# Host C: our code is C11 and warning-clean.
HOSTCC ?= cc
# lwIP: the Debian source package version the firmware and the traffic
# peer's fuzz target build, fetched into $(GEMLAB_CACHE)/lwip/VERSION:
# firmware/baremetal/lwip/fetch.sh's pin, or $LWIP_DEB_VERSION, which
# fetch.sh honours too (as emu/qemu/build.sh reads it)
LWIP_VERSION := $(or $(LWIP_DEB_VERSION),$(shell sed -n 's/^version=\$${LWIP_DEB_VERSION:-\(.*\)}$$/\1/p' \
                    $(TOP)/firmware/baremetal/lwip/fetch.sh))
WARNFLAGS := -Wall -Wextra -Werror -Wshadow -Wpointer-arith -Wstrict-prototypes \
             -Wmissing-prototypes -Wformat=2 -Wundef
HOST_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -O2 -g $(WARNFLAGS) $(SANFLAGS) -MD -MP
HOST_LDFLAGS := $(SANFLAGS)

# The model library, built once per host output tree.
MODELS_INC := $(TOP)/models/include
LIBMODELS := $(HOSTO)/models/libgemlab-models.a

# The runner library, libgemlab: every emu/runner/*.c but the CLI's own
# main.c and cmd_*.c (option parsing and exit codes).  The CLI, the unit
# tests and the fuzzers link it (emu/runner/Makefile builds it here;
# tests/fuzz builds its own instrumented copy from the same list).
LIBGEMLAB_INC := $(TOP)/emu/runner
LIBGEMLAB_SRCS := $(sort $(filter-out $(TOP)/emu/runner/main.c $(wildcard $(TOP)/emu/runner/cmd_*.c), \
                                      $(wildcard $(TOP)/emu/runner/*.c)))
LIBGEMLAB := $(HOSTO)/runner/libgemlab.a
# merge.c reads JUnit with libxml2 (libxml2-dev, scripts/deps/base.list);
# its headers' directory is Debian's `pkg-config --cflags libxml-2.0`,
# written out so that a machine without it yet parses this file quietly
LIBGEMLAB_CFLAGS := -I/usr/include/libxml2
LIBGEMLAB_LDLIBS := -lcjson -linih -lxml2 -lm

# Python suites: Debian's pytest (python3-pytest, scripts/deps/base.list)
# on Debian's python3, never whatever python3 comes first in PATH.
# $(call pytest_suite,NAME) runs with the closing line
# "NAME: N passed, M failed", JUnit in $(O)/test-results/NAME.xml and
# run directories (console.log, qemu.log) under $(O)/test-results/NAME/.
PYTHON3 ?= /usr/bin/python3
PYTEST = PYTHONDONTWRITEBYTECODE=1 $(PYTHON3) -m pytest -c $(TOP)/tests/pytest.ini
pytest_suite = $(PYTEST) -v --suite=$(1) --junitxml=$(O)/test-results/$(1).xml --basetemp=$(O)/test-results/$(1)
# pytest-xdist workers for a suite whose tests are all virtual-time runs
# (figures that do not depend on the host's load, docs/VIRTUAL_TIME.md):
# one per host core.  Real-time suites stay serial.  xdist puts each
# worker's tests under BASETEMP/popen-gwN/, 10 bytes deeper: such a suite
# passes a shorter --basetemp, so that its run directories' sockets stay
# under the 108 bytes of a unix socket path (gemlab refuses longer ones).
PYTEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
