#!/usr/bin/env bash
# first_run.sh - a clean first run (issue 21): on a machine where
# scripts/deps.sh has not run yet (no deb-src: apt-cache knows no qemu
# source) and nothing is cached, nothing before deps.sh prints an error.
# No QEMU, no firmware, no root, about a second:
#   1. emu/qemu/build.sh path prints the path `all` will build, exit 0,
#      nothing on stderr (it used to fail: "apt-cache showsrc qemu lists
#      nothing", "make: *** [Makefile:22: path] Error 1");
#   2. build.sh all still stops there, naming deb-src and scripts/deps.sh
#      (1 and 2 for QEMU_BASE=7.2 and 10.0);
#   3. `make run`'s first output is deps.sh's: the Makefile asks for the
#      QEMU path when that recipe line runs, not when make expands the
#      recipe (deps.sh is given an unknown group, so it stops at once);
#   4. the groups `make run` installs have gnuplot (the first report's
#      charts) and not report.list's chromium.
# TOP=DIR tests another tree (the same layout).
# Ends with "first_run: N passed, M failed"; exit status non-zero on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../lib/check.sh
. "$here/../../lib/check.sh"
scratch firstrun

# a fresh machine: apt-cache lists no source package, an empty cache
mkdir -p "$work/bin" "$work/cache"
printf '#!/bin/sh\nexit 0\n' >"$work/bin/apt-cache"
chmod +x "$work/bin/apt-cache"
fresh() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$work/bin:$PATH" GEMLAB_CACHE="$work/cache" "$@"; }

# 1. and 2., for each QEMU base (emu/qemu/build.sh QEMU_BASE)
for qb in 7.2 10.0; do
out=$(QEMU_BASE=$qb fresh "$top/emu/qemu/build.sh" path 2>"$work/err"); rc=$?
if [ $rc -eq 0 ] && [ ! -s "$work/err" ] && [[ "$out" == "$work/cache/qemu/$qb"[.+]*"/qemu-system-arm" ]]; then
    ok "build.sh path before deps.sh (QEMU_BASE=$qb): the path, exit 0, no stderr"
else bad "build.sh path before deps.sh (QEMU_BASE=$qb)" "rc=$rc out=$out err=$(head -c 300 "$work/err")"; fi

out=$(QEMU_BASE=$qb fresh "$top/emu/qemu/build.sh" all 2>&1); rc=$?
if [ $rc -ne 0 ] && [[ "$out" == *"deb-src"*"scripts/deps.sh qemu"* ]]; then
    ok "build.sh all before deps.sh (QEMU_BASE=$qb): fails naming deb-src and scripts/deps.sh"
else bad "build.sh all before deps.sh (QEMU_BASE=$qb)" "rc=$rc: $out"; fi
done

# 3.
out=$(fresh make --no-print-directory -C "$top" run DEPS_RUN=gemlab-no-such-group 2>&1); rc=$?
first=$(head -n 1 <<<"$out")
if [ $rc -ne 0 ] && [[ "$first" == "deps.sh: unknown group 'gemlab-no-such-group'"* ]] && ! grep -q 'build.sh' <<<"$out"; then
    ok "make run: deps.sh's line comes first, no build.sh error before it"
else bad "make run before deps.sh" "rc=$rc: $out"; fi

# 4.
groups=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s -C "$top" -n run 2>/dev/null |
         sed -n 's|.*/scripts/deps.sh ||p' | head -n 1)
pk=""
for g in $groups; do [ -f "$top/scripts/deps/$g.list" ] && pk+=$(sed 's/#.*//' "$top/scripts/deps/$g.list")$'\n'; done
if [ -n "$groups" ] && grep -qx 'gnuplot-nox' <<<"$pk" && ! grep -qx 'chromium' <<<"$pk"; then
    ok "make run installs gnuplot-nox (groups: $groups), not chromium"
else bad "make run's dependency groups" "groups '$groups' lack gnuplot-nox or pull in chromium"; fi

summary first_run
