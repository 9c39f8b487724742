#!/usr/bin/env bash
# tests/qemu/linux/build_fail.sh - a failing kernel or iperf build stops
# `make -C firmware/linux` with a non-zero exit and names the failing step.
#
#   tests/qemu/linux/build_fail.sh
#
# Both cases run in a private GEMLAB_CACHE and O= (the real caches and
# build/ are never touched) and take seconds:
#   kernel  LINUX_SOURCE_TAR is a tiny tree whose kbuild accepts the config
#           and then fails to compile: "linux-kernel: FAILED: step zImage/dtbs".
#   iperf   the cross compiler on PATH is a wrapper that fails every compile
#           (it still answers -dumpfullversion); the packages come from the
#           real download cache (read-only): "linux-userland: FAILED: step
#           iperf build".  Without that cache (the image was never built
#           here) the case is a skip, counted apart; under CI=true a
#           failure (issue 20: a skip is not a pass).
# Last line: "linux-build-fail: N passed, M failed[, K skipped]".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
real_cache=${GEMLAB_CACHE:-$HOME/.cache/gemlab}
# shellcheck source=../../lib/check.sh
. "$here/../../lib/check.sh"
scratch linux-buildfail
trap 'echo "linux-build-fail: interrupted"; exit 130' INT TERM

# expect_fail NAME STEP_TEXT LOG: make exited non-zero ($rc) and LOG names the step.
expect_fail() {
    if [ "$rc" -eq 0 ]; then bad "$1: make exited 0"; return; fi
    if grep -qF "$2" "$3"; then ok "$1: make exit $rc, '$2'"
    else bad "$1: make exit $rc but no '$2' in its output:"; tail -n 15 "$3" | sed 's/^/    | /'; fi
}

# --- kernel ------------------------------------------------------------------
t=$work/ksrc/linux-source-6.1
mkdir -p "$t/arch/arm/configs" "$t/scripts/kconfig"
printf 'CONFIG_ARCH_MULTI_V7=y\nCONFIG_ARCH_ZYNQ=y\nCONFIG_ARCH_VEXPRESS=y\n' > "$t/arch/arm/configs/multi_v7_defconfig"
# merge_config.sh -O OBJ BASE FRAGMENT...: the result is the last fragment
# (gemlab.config), so build.sh's "applied" check passes.
cat > "$t/scripts/kconfig/merge_config.sh" <<'SH'
#!/bin/sh
[ "$1" = -O ] || exit 1
obj=$2; shift 2
for f; do last=$f; done
cp "$last" "$obj/.config"
SH
chmod +x "$t/scripts/kconfig/merge_config.sh"
printf 'zImage:\n\t@echo "init/main.c:1:1: error: injected by build_fail.sh" >&2; exit 2\n%%.dtb:\n\t@true\n' > "$t/Makefile"
tar -C "$work/ksrc" -cJf "$work/fake-linux.tar.xz" linux-source-6.1
GEMLAB_CACHE=$work/cache-k LINUX_SOURCE_TAR=$work/fake-linux.tar.xz \
    make -C "$top/firmware/linux" kernel O="$work/out-k" > "$work/kernel.log" 2>&1
rc=$?
expect_fail "kernel compile error" "linux-kernel: FAILED: step zImage/dtbs" "$work/kernel.log"
if grep -qF 'injected by build_fail.sh' "$work/kernel.log"; then ok "kernel: the compiler's error is shown"
else bad "kernel: the compiler's error is not in make's output"; fi

# --- iperf -------------------------------------------------------------------
if [ -d "$real_cache/linux/pkgsrc" ]; then
    mkdir -p "$work/bin" "$work/cache-u/linux"
    ln -s "$real_cache/linux/pkgsrc" "$work/cache-u/linux/pkgsrc"
    real_gcc=$(command -v arm-linux-gnueabihf-gcc)
    cat > "$work/bin/arm-linux-gnueabihf-gcc" <<SH
#!/bin/sh
[ "\$1" = -dumpfullversion ] && exec "$real_gcc" "\$@"
echo "arm-linux-gnueabihf-gcc: injected failure (build_fail.sh)" >&2
exit 1
SH
    chmod +x "$work/bin/arm-linux-gnueabihf-gcc"
    PATH=$work/bin:$PATH GEMLAB_CACHE=$work/cache-u \
        make -C "$top/firmware/linux" userland O="$work/out-u" > "$work/userland.log" 2>&1
    rc=$?
    expect_fail "iperf build error" "linux-userland: FAILED: step iperf build" "$work/userland.log"
    if [ ! -e "$work/out-u/linux/userland/bin/iperf" ]; then ok "iperf: no binary left behind"
    else bad "iperf: a binary was produced despite the failure"; fi
else
    skip "iperf build error" "no package download cache at $real_cache/linux/pkgsrc (build the image first: make linux)"
fi
summary linux-build-fail
