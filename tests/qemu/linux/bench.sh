#!/usr/bin/env bash
# tests/qemu/linux/bench.sh - boot-to-ready timing for the Linux image.
#
#   BOOTS=5 LINUX_OUT=build/linux tests/qemu/linux/bench.sh
#
# Boots BOOTS times (default 5) on QEMU (QEMU=... to override) with slirp
# and measures host wall-clock seconds from starting QEMU to the agent's
# ready line (iperf3 -s is started by /init before it).  Prints each boot,
# then "linux-boot-bench: min X median Y max Z s", plus image sizes.
# A benchmark, not a test: it fails only if a boot does not reach ready.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=$(cd "${LINUX_OUT:-$top/build/linux}" && pwd) || exit 2
QEMU=${QEMU:-qemu-system-arm}
BOOTS=${BOOTS:-5}
BOARD=${BOARD:-zc702}
TIMEOUT=${BOOT_TIMEOUT:-90}

work=$(mktemp -d "${TMPDIR:-/tmp}/gemlab-linux-bench.XXXXXX")
qpid=""
cleanup() { [ -n "$qpid" ] && kill "$qpid" 2>/dev/null && wait "$qpid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

times=()
for i in $(seq 1 "$BOOTS"); do
    log=$work/boot$i.log
    t0=$(date +%s.%N)
    "$QEMU" -M xilinx-zynq-a9 -smp 1 -m 512M -display none -monitor none \
        -kernel "$out/zImage" -dtb "$out/zynq-$BOARD-qemu.dtb" \
        -initrd "$out/initramfs.cpio.gz" -append "console=ttyPS0,115200 earlycon" \
        -serial null -serial "file:$log" -nic user </dev/null >/dev/null 2>&1 &
    qpid=$!
    deadline=$(( $(date +%s) + TIMEOUT ))
    until grep -aq '"type":"ready"' "$log" 2>/dev/null; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            echo "boot $i: no ready line within $TIMEOUT s"; tail -n 40 "$log"; exit 1
        fi
        sleep 0.05
    done
    t=$(echo "$(date +%s.%N) - $t0" | bc)
    kill "$qpid"; wait "$qpid" 2>/dev/null; qpid=""
    guest=$(grep -ao '"uptime_s":[0-9.]*' "$log" | head -1 | cut -d: -f2)
    printf 'boot %d: %.2f s to ready (guest uptime at ready %s s)\n' "$i" "$t" "$guest"
    times+=("$t")
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {
    m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2
    printf "linux-boot-bench: min %.2f median %.2f max %.2f s over %d boots\n", a[1], m, a[NR], NR }'
printf 'sizes: zImage %d, initramfs.cpio.gz %d bytes\n' \
    "$(stat -c %s "$out/zImage")" "$(stat -c %s "$out/initramfs.cpio.gz")"
