#!/bin/sh
# make soak: the fault soak of issue #8 (tests/soak/soak.py does the work).
#   SOAK_SECONDS  traffic time per firmware (default 1800)
#   SOAK_FW       baremetal (default) | linux | both
#   SOAK_OUT      where run dirs go (default build/soak)
#   SOAK_SEED     model PRNG seed (default 1)
# Each run writes RUN_DIR/soak.json (machine) and RUN_DIR/summary.txt (human),
# RUN_DIR = $SOAK_OUT/<fw>-<UTC time>-<pid>.
# Exit: 0 all PASS, 1 a FAIL, 2 bad input, 3 something to build, 130 interrupted.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${SOAK_SECONDS:-1800}
fws=${SOAK_FW:-baremetal}
out=${SOAK_OUT:-$top/build/soak}
seed=${SOAK_SEED:-1}
case $secs in ''|*[!0-9]*) echo "soak.sh: SOAK_SECONDS='$secs' is not a whole number of seconds" >&2; exit 2;; esac
case $seed in ''|*[!0-9]*) echo "soak.sh: SOAK_SEED='$seed' is not a whole number" >&2; exit 2;; esac
[ "$fws" = both ] && fws="baremetal linux"
for fw in $fws; do
    case $fw in baremetal|linux) ;; *) echo "soak.sh: SOAK_FW='$fw' is not baremetal|linux|both" >&2; exit 2;; esac
done
qemu=$(make -s -C "$top/emu/qemu" path 2>/dev/null) || qemu=
if [ -z "$qemu" ] || [ ! -x "$qemu" ]; then
    echo "soak.sh: our QEMU is not built (make -C emu/qemu)" >&2; exit 3
fi
rc=0
for fw in $fws; do
    case $fw in
    baremetal)
        command -v iperf >/dev/null || { echo "soak.sh: host iperf (2.1.8, Debian package iperf) missing" >&2; exit 3; }
        img=$top/build/baremetal/qemu-zynq/gemlab-fw.elf;;
    linux)
        command -v iperf3 >/dev/null || { echo "soak.sh: host iperf3 (Debian package iperf3) missing" >&2; exit 3; }
        img=$top/build/linux;;
    esac
    dir=$out/$fw-$(date -u +%Y%m%dT%H%M%SZ)-$$
    python3 "$top/tests/soak/soak.py" --firmware "$fw" --qemu "$qemu" --fw "$img" --out "$dir" \
        --seconds "$secs" --seed "$seed"
    r=$?
    [ $r -eq 130 ] && exit 130
    if [ $r -ne 0 ] && { [ $rc -eq 0 ] || [ $r -lt $rc ]; }; then rc=$r; fi
done
exit $rc
