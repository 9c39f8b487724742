#!/usr/bin/env bash
# run.sh - `make run`: boot the bare-metal firmware on our QEMU with the
# clean-1G scenario, run TCP host->board, TCP board->host and UDP, then
# print the diagnosis and where the reports are.
#
#   QEMU=path   our qemu-system-arm (the Makefile passes it)
#   OUT=dir     where the run directories go (default build/run/<time>)
#   CLOCK=virtual (default) or real.  Virtual: the guest runs in QEMU's
#               virtual clock at its board's calibrated instruction rate and
#               the traffic peer runs inside the emulator (--net sim), so the
#               figures are the board's, exact and the same on any host
#               (docs/VIRTUAL_TIME.md).  Real: host iperf over slirp, for
#               interop with real tools; the figures then measure the host.
# Exit status: 0 when every run met its expectations, else 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
G=$top/build/host/bin/gemlab
OUT=${OUT:-$top/build/run/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
CLOCK=${CLOCK:-virtual}
case $CLOCK in
    virtual|real) ;;
    *) echo "run.sh: CLOCK must be virtual or real, not '$CLOCK'" >&2; exit 2 ;;
esac
args=(--clock "$CLOCK")
# as root gemlab runs no make in the tree (docs/SECURITY.md R8): this script names it
QEMU=${QEMU:-$(make -s --no-print-directory -C "$top/emu/qemu" path 2>/dev/null)}
[ -n "${QEMU:-}" ] && args+=(--qemu "$QEMU")

rc=0
for s in clean_1g clean_1g_reverse clean_1g_udp; do
    printf '\n=== %s (scenarios/%s.ini) ===\n' "$s" "$s"
    "$G" run "$top/scenarios/$s.ini" --firmware baremetal --out "$OUT/$s" "${args[@]}" || rc=1
    # report.md + report.html with gnuplot charts (exit 3: no gnuplot, the
    # reports are still written without charts).
    if [ -f "$OUT/$s/results.json" ]; then
        "$G" report "$OUT/$s" >/dev/null || [ $? -eq 3 ] || echo "run.sh: gemlab report $OUT/$s failed" >&2
    fi
done

printf '\n=== summary ===\n'
python3 - "$OUT" clean_1g clean_1g_reverse clean_1g_udp <<'PY'
import json, os, sys
out = sys.argv[1]
print(f"{'scenario':<18} {'clock':<8} {'link':<12} {'throughput':>14} {'measured by':<12} {'verdict':<6} findings")
for s in sys.argv[2:]:
    try:
        r = json.load(open(os.path.join(out, s, "results.json")))
    except (OSError, ValueError):
        print(f"{s:<18} (no results)")
        continue
    l = r.get("link", {})
    link = f"{l.get('speed_mbps', '?')}/{'full' if l.get('full_duplex') else 'half'}" if l.get("up") else "down"
    bps = r.get("iperf", {}).get("throughput_bps")
    tp = f"{bps / 1e6:.3f} Mb/s" if isinstance(bps, (int, float)) else "-"
    try:
        d = json.load(open(os.path.join(out, s, "diagnosis.json")))
        codes = ",".join(f.get("code", "?") for f in d.get("findings", [])) or "none"
    except (OSError, ValueError):
        codes = "?"
    clock = r.get("clock", {}).get("mode", "real")
    by = r.get("measured_by") or r.get("iperf", {}).get("measured_by") or "-"
    print(f"{s:<18} {clock:<8} {link:<12} {tp:>14} {by:<12} {r.get('verdict', {}).get('result', '?'):<6} {codes}")
PY
for s in clean_1g clean_1g_reverse clean_1g_udp; do
    d=$OUT/$s
    [ -f "$d/results.json" ] || { echo "$s: no results (see the output above)"; continue; }
    if [ -f "$d/report.md" ]; then
        echo "$s: report $d/report.md${d:+ $( [ -f "$d/report.html" ] && echo "and $d/report.html")}"
    else
        echo "$s: results $d/results.json, diagnosis $d/diagnosis.json"
    fi
done
echo "run directory: $OUT"
exit $rc
