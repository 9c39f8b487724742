#!/usr/bin/env bash
# skips.sh - a skip is not a pass (issue 20): the root-only and
# tool-dependent checks of the test suites, made unable to run on purpose,
# are counted as skipped (never as passed) outside CI and fail under
# CI=true, naming what is missing.  No QEMU, no firmware, a few seconds:
#   1. report.sh with no gnuplot on PATH;
#   2. ourqemu.py and rxcsum.py as a user that is not root (as root: run as
#      nobody through setpriv, from a copy nobody can read);
#   3. ourqemu.py's timing skip (host starved QEMU): not counted as passed,
#      and under CI=true raised as a GitHub warning annotation, not failed;
#   4. boot.sh's tap case without root (NETNS=0) and its partner100 case on
#      stock QEMU (STOCK=1), on a dummy LINUX_OUT: nothing boots;
#   5. build_fail.sh's iperf case with no package download cache (an empty
#      GEMLAB_CACHE; its kernel case takes well under a second).
# qemu-test.sh and gemlab merge are covered by merge.sh #6-#7.
# Ends with "skips: N passed, M failed"; exit status non-zero on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
work=$(mktemp -d /tmp/gemlab-skips.XXXXXX)
trap 'rm -rf "$work"' EXIT
ci_env=${CI-}
unset CI        # each case sets it
passed=0; failed=0
ok()  { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1${2:+: $2}"; }

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

# 2. the bare-metal netns tests without root
as_user=()
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null; then
        as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    fi
fi
if [ "$(id -u)" = 0 ] && [ ${#as_user[@]} -eq 0 ]; then
    if [ "$ci_env" = true ]; then bad "netns tests without root" "setpriv missing (util-linux)"
    else echo "SKIP netns tests without root: setpriv missing (util-linux)"; fi
else
    bm=$work/bm; mkdir -p "$bm"
    cp "$top"/tests/qemu/baremetal/*.py "$bm/"
    chmod 755 "$work" "$bm"; chmod 644 "$bm"/*.py
    why=""
    for s in ourqemu rxcsum; do
        o=$(cd "$bm" && env -u CI "${as_user[@]}" /usr/bin/python3 "$bm/$s.py" /nonexistent.elf 2>&1); r=$?
        oc=$(cd "$bm" && env CI=true "${as_user[@]}" /usr/bin/python3 "$bm/$s.py" /nonexistent.elf 2>&1); rc=$?
        [ $r -eq 0 ] && [[ "$o" == *"SKIP baremetal-$s: needs root"* ]] \
            && [[ "$o" == *"baremetal-$s: 0 passed, 0 failed, 1 skipped"* ]] || why="$why $s(rc=$r: $o)"
        [ $rc -eq 1 ] && [[ "$oc" == *"FAIL baremetal-$s: skipped under CI=true"*"needs root"* ]] \
            && [[ "$oc" == *"baremetal-$s: 0 passed, 1 failed"* ]] || why="$why $s-CI(rc=$rc: $oc)"
    done
    chmod 700 "$work"
    if [ -z "$why" ]; then
        ok "ourqemu.py, rxcsum.py without root: 1 skipped (not passed); CI=true: FAIL, exit 1"
    else bad "netns tests without root" "$why"; fi
fi

# 3. ourqemu.py's timing skip
o=$(cd "$top/tests/qemu/baremetal" && CI=true /usr/bin/python3 -B -c '
import ourqemu
t = ourqemu.Test()
t.timing_skip("100M TCP: best 1 s", "90.1 Mb/s, QEMU waited 59 %")
print("counts", t.passed, t.failed, t.skipped)' 2>&1); r=$?
o2=$(cd "$top/tests/qemu/baremetal" && /usr/bin/python3 -B -c '
import ourqemu
ourqemu.Test().timing_skip("x", "y")' 2>&1)
if [ $r -eq 0 ] && [[ "$o" == *"SKIP (timing, not a pass) 100M TCP: best 1 s: 90.1 Mb/s"* ]] \
   && [[ "$o" == *"counts 0 0 1"* ]] \
   && [[ "$o" == *"::warning title=baremetal-ourqemu: timing check not counted::100M TCP: best 1 s: 90.1 Mb/s, QEMU waited 59 %25"* ]] \
   && [[ "$o2" != *"::warning"* ]]; then
    ok "ourqemu.py timing skip: counted apart, not passed; CI=true adds a GitHub warning annotation"
else bad "ourqemu.py timing skip" "rc=$r: $o / $o2"; fi

# 4. boot.sh cases this host or QEMU cannot run
lo=$work/linux; mkdir -p "$lo"
for f in zImage zynq-zc702-qemu.dtb initramfs.cpio.gz; do echo x >"$lo/$f"; done
boot() { LINUX_OUT=$lo QEMU=/bin/false "$top/tests/qemu/linux/boot.sh" "$@" 2>&1; }
o1=$(NETNS=0 boot --case tap); r1=$?
o2=$(CI=true NETNS=0 boot --case tap); r2=$?
o3=$(CI=true STOCK=1 boot --case partner100); r3=$?
if [ $r1 -eq 0 ] && [[ "$o1" == *"skip  tap: needs root"* ]] && [[ "$o1" == *"linux-boot: 0 passed, 0 failed, 1 skipped"* ]] \
   && [ $r2 -ne 0 ] && [[ "$o2" == *"FAIL  tap: needs root (NETNS=1) (skipped under CI=true"* ]] \
   && [ $r3 -ne 0 ] && [[ "$o3" == *"FAIL  partner100: stock QEMU"*"skipped under CI=true"* ]]; then
    ok "boot.sh tap without root, partner100 on stock QEMU: skipped (not passed); CI=true: FAIL"
else bad "boot.sh skips" "rc=$r1/$r2/$r3: $o1 / $o2 / $o3"; fi

# 5. build_fail.sh without the package download cache
mkdir -p "$work/cache"
o1=$(GEMLAB_CACHE=$work/cache "$top/tests/qemu/linux/build_fail.sh" 2>&1); r1=$?
o2=$(CI=true GEMLAB_CACHE=$work/cache "$top/tests/qemu/linux/build_fail.sh" 2>&1); r2=$?
if [ $r1 -eq 0 ] && [[ "$o1" == *"skip  iperf: no package download cache"* ]] && [[ "$o1" == *"2 passed, 0 failed, 1 skipped"* ]] \
   && [ $r2 -ne 0 ] && [[ "$o2" == *"FAIL  iperf: no package download cache"*"skipped under CI=true"* ]]; then
    ok "build_fail.sh without the package cache: iperf skipped (not passed); CI=true: FAIL"
else bad "build_fail.sh skip" "rc=$r1/$r2: $(echo "$o1" | tail -2) / $(echo "$o2" | tail -2)"; fi

echo "skips: $passed passed, $failed failed"
[ $failed -eq 0 ]
