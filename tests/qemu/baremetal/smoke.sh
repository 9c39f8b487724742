#!/usr/bin/env bash
# smoke.sh [ELF] - boot the bare-metal firmware in stock QEMU and check it.
#
# Boots firmware/baremetal's qemu-zynq ELF (built if no ELF is given) with
# the serial console on a unix socket and slirp networking whose host
# forwards bind 127.0.0.1 on free ports, then (smoke.py): ready line, link
# up, shell errors, TCP and UDP echo from the host, `stats` JSON, forced
# speed and renegotiation.  A watchdog kills QEMU; on failure the last 40
# console lines are printed.  QEMU is always cleaned up (EXIT/INT/TERM).
# Last line: "baremetal-smoke: N passed, M failed"; non-zero exit on failure.
#
# Environment: QEMU (binary), SMOKE_TIMEOUT (seconds, default 120), O (make).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
fw="$top/firmware/baremetal"
timeout_s=${SMOKE_TIMEOUT:-120}

elf=${1:-}
if [ -z "$elf" ]; then
    make -s -C "$fw" BOARD=qemu-zynq -j2 all >/dev/null || {
        echo "baremetal-smoke: build failed"; echo "baremetal-smoke: 0 passed, 1 failed"; exit 1; }
    elf="${O:-$top/build}/baremetal/qemu-zynq/gemlab-fw.elf"
fi
[ -f "$elf" ] || { echo "baremetal-smoke: no ELF at $elf"; echo "baremetal-smoke: 0 passed, 1 failed"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gemlab-smoke.XXXXXX")
qpid=""
cleanup() {
    if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
        kill "$qpid" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$qpid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$qpid" 2>/dev/null
    fi
    if [ -n "${SMOKE_KEEP:-}" ]; then echo "smoke: kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'echo "baremetal-smoke: interrupted"; exit 130' INT TERM

# Free loopback ports (TCP for the TCP forward, UDP for the UDP forward).
read -r tport uport < <(python3 - <<'PY'
import socket
t = socket.socket(); t.bind(("127.0.0.1", 0))
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 0))
print(t.getsockname()[1], u.getsockname()[1])
PY
)

sock="$tmp/console.sock"
GEMLAB_SERIAL=chardev:con \
GEMLAB_NETDEV="user,id=n0,net=10.0.2.0/24,hostfwd=tcp:127.0.0.1:${tport}-:7,hostfwd=udp:127.0.0.1:${uport}-:7" \
    "$fw/boards/qemu-zynq/qemu.sh" "$elf" \
    -chardev "socket,id=con,path=$sock,server=on,wait=on" \
    >"$tmp/qemu.out" 2>&1 &
qpid=$!

# Watchdog: smoke.py has its own deadline; timeout(1) backs it up.
timeout -k 5 "$timeout_s" python3 "$here/smoke.py" --sock "$sock" --log "$tmp/console.log" \
    --tcp-port "$tport" --udp-port "$uport" --timeout "$((timeout_s - 10))" | tee "$tmp/results"
rc=${PIPESTATUS[0]}

passed=$(grep -c '^PASS ' "$tmp/results")
failed=$(grep -c '^FAIL ' "$tmp/results")
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "FAIL smoke.py exited with $rc (watchdog or crash)"
    failed=1
fi
if [ "$failed" -ne 0 ]; then
    echo "---- last 40 console lines ----"
    tail -n 40 "$tmp/console.log" 2>/dev/null
    echo "---- qemu output ----"
    tail -n 10 "$tmp/qemu.out" 2>/dev/null
fi
echo "baremetal-smoke: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
