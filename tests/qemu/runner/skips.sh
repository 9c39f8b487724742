#!/usr/bin/env bash
# skips.sh - a skip is not a pass (issue 20): the root-only and
# tool-dependent checks of the test suites, made unable to run on purpose,
# are counted as skipped (never as passed) outside CI and fail under
# CI=true, naming what is missing.  No QEMU, no firmware, a few seconds:
#   1. report.sh with no gnuplot on PATH;
#   2, 3. the pytest suites (the netns suites without root, the timing
#      skip, CI=true) moved to tests/lib/tests/test_ci_skips.py (make
#      test-unit's pylib step);
#   4. tests/qemu/linux/test_boot.py's tap case without root (NETNS=0) and
#      its partner100 case on stock QEMU (STOCK=1), on a dummy LINUX_OUT:
#      nothing boots;
#   5. build_fail.sh's iperf case with no package download cache (an empty
#      GEMLAB_CACHE; its kernel case takes well under a second).
#   6. scripts/run-tests.sh with no binary (a tests/unit T= filter that
#      names no directory) and with a binary that runs no test: each a
#      failure, not "0 passed, 0 failed" and exit 0.
# qemu-test.sh and gemlab merge are covered by merge.sh #6-#7.
# Ends with "skips: N passed, M failed"; exit status non-zero on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
unset CI        # each case sets it
# shellcheck source=../../lib/check.sh
. "$here/../../lib/check.sh"
scratch skips

# 1. report.sh, gnuplot missing: a PATH with only what it needs before
#    that check (bash builtins aside)
mkdir -p "$work/bin"
for t in dirname mktemp rm; do ln -s "$(command -v $t)" "$work/bin/$t"; done
o1=$(PATH=$work/bin /bin/bash "$here/report.sh" 2>&1); r1=$?
o2=$(CI=true PATH=$work/bin /bin/bash "$here/report.sh" 2>&1); r2=$?
if [ $r1 -eq 0 ] && [[ "$o1" == *"SKIP report (every check): gnuplot not installed"* ]] \
   && [[ "$o1" == *"report: 0 passed, 0 failed, 1 skipped"* ]] \
   && [ $r2 -eq 1 ] && [[ "$o2" == *"FAIL report (every check): skipped under CI=true"*gnuplot* ]] \
   && [[ "$o2" == *"report: 0 passed, 1 failed"* ]]; then
    ok "report.sh without gnuplot: 1 skipped (not passed); CI=true: FAIL naming gnuplot"
else bad "report.sh without gnuplot" "rc=$r1/$r2: $o1 / $o2"; fi

# 4. test_boot.py cases this host or QEMU cannot run
lo=$work/linux; mkdir -p "$lo"
for f in zImage zynq-zc702-qemu.dtb initramfs.cpio.gz; do echo x >"$lo/$f"; done
boot() { LINUX_OUT=$lo QEMU=/bin/false PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest \
    -c "$top/tests/pytest.ini" -p no:cacheprovider --suite=linux-boot --basetemp="$work/bt" \
    "$top/tests/qemu/linux/test_boot.py" "$@" 2>&1; }
o1=$(NETNS=0 boot -k Tap); r1=$?
o2=$(CI=true NETNS=0 boot -k Tap); r2=$?
o3=$(CI=true STOCK=1 boot -k Partner100); r3=$?
if [ $r1 -eq 0 ] && [[ "$o1" == *"tap: needs root"* ]] && [[ "$o1" == *"linux-boot: 0 passed, 0 failed, 6 skipped"* ]] \
   && [ $r2 -ne 0 ] && [[ "$o2" == *"skipped under CI=true"*"tap: needs root (NETNS=1)"* ]] \
   && [[ "$o2" == *"linux-boot: 0 passed, 6 failed"* ]] \
   && [ $r3 -ne 0 ] && [[ "$o3" == *"skipped under CI=true"*"partner100: stock QEMU"* ]]; then
    ok "test_boot.py tap without root, partner100 on stock QEMU: skipped (not passed); CI=true: FAIL"
else bad "test_boot.py skips" "rc=$r1/$r2/$r3: $o1 / $o2 / $o3"; fi

# 5. build_fail.sh without the package download cache
mkdir -p "$work/cache"
o1=$(GEMLAB_CACHE=$work/cache "$top/tests/qemu/linux/build_fail.sh" 2>&1); r1=$?
o2=$(CI=true GEMLAB_CACHE=$work/cache "$top/tests/qemu/linux/build_fail.sh" 2>&1); r2=$?
if [ $r1 -eq 0 ] && [[ "$o1" == *"SKIP iperf build error: no package download cache"* ]] \
   && [[ "$o1" == *"2 passed, 0 failed, 1 skipped"* ]] && [ $r2 -ne 0 ] \
   && [[ "$o2" == *"FAIL iperf build error: skipped under CI=true"*"no package download cache"* ]]; then
    ok "build_fail.sh without the package cache: iperf skipped (not passed); CI=true: FAIL"
else bad "build_fail.sh skip" "rc=$r1/$r2: $(echo "$o1" | tail -2) / $(echo "$o2" | tail -2)"; fi

# 6. zero tests is not a pass
printf '#!/bin/sh\necho "[==========] 0 test(s) run."\n' >"$work/none" && chmod +x "$work/none"
o1=$("$top/scripts/run-tests.sh" unit 2>&1); r1=$?
o2=$("$top/scripts/run-tests.sh" unit "$work/none" 2>&1); r2=$?
if [ $r1 -ne 0 ] && [ $r2 -ne 0 ] && grep -q "no test binary" <<<"$o1" && grep -q "ran no test" <<<"$o2"; then
    ok "run-tests.sh with no binary, or binaries that run no test: FAIL"
else bad "run-tests.sh zero tests" "rc=$r1/$r2: $(echo "$o1" | tail -1) / $(echo "$o2" | tail -1)"; fi

summary skips
