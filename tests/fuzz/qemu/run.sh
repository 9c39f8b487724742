#!/usr/bin/env bash
# tests/fuzz/qemu/run.sh - QEMU's generic-fuzz on our cadence_gem.
#
#   run.sh fuzz SECONDS    fuzz; new inputs go to FZO/qemu/corpus (kept
#                          between runs), the committed corpus is read only
#   run.sh smoke SECONDS   the same from the committed corpus only (a fresh
#                          scratch corpus each time): what `make test` runs
#   run.sh repro FILE...   replay inputs (crash artifacts) with the qtest
#                          trace on stderr (QTEST_LOG=1), for a reproducer
#
# Environment: QEMU_FUZZ_BIN (default: make -s -C emu/qemu fuzz-path SAN=1),
# FZO (default build/fuzz).  The configuration (QEMU_FUZZ_ARGS,
# QEMU_FUZZ_OBJECTS) is gem.env.
#
# generic-fuzz runs every input in a fork()ed child (generic_fuzz.c), so a
# crash kills the child, which writes the artifact (libFuzzer's death
# callback), while the parent fuzzes on and would exit 0.  This script
# therefore watches the run's artifact directory: the first artifact stops
# the fuzzer (SIGINT: libFuzzer prints its final stats) and the script
# exits 1 naming the reproducer.  Exit 0: no finding; 1: a finding (or the
# fuzzer itself failed); 2: setup error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
mode=${1:-}
shift || true

bin=${QEMU_FUZZ_BIN:-$(make -s --no-print-directory -C "$top/emu/qemu" fuzz-path SAN=1)}
fzo=${FZO:-$top/build/fuzz}/qemu
seeds=$here/corpus

# shellcheck source=tests/fuzz/qemu/gem.env disable=SC1091
. "$here/gem.env"
export QEMU_FUZZ_ARGS QEMU_FUZZ_OBJECTS
# Every report is fatal in the child that hits it.  handle_abort: QEMU's
# g_assert/abort() (hw_error, g_assert_not_reached) would otherwise kill the
# child silently and the parent would not notice.  No leak checking: the
# children leave with _Exit() and QEMU keeps its device state to the end.
# symbolize=0 while fuzzing: the children are fork()s of a parent whose
# llvm-symbolizer (started for libFuzzer's NEW_FUNC lines) they would share
# through inherited pipes, and a report stuck on it is cut short by
# generic-fuzz's 100 ms SIGALRM (_Exit(0): the finding is lost; seen once).
# A finding is replayed with symbols afterwards.  emu/qemu/ubsan.supp lists
# known stock-QEMU reports by file, one reason each.
# (compiler-rt sanitizer_common_flags.inc / asan_flags.inc / ubsan_flags.inc)
# (ASan parses its own suppression types only: the file goes to UBSan.)
asan_opts="halt_on_error=1:handle_abort=1:detect_leaks=0:print_summary=1"
ubsan_opts="halt_on_error=1:print_stacktrace=1:suppressions=$top/emu/qemu/ubsan.supp"
export ASAN_OPTIONS=${ASAN_OPTIONS:-$asan_opts:symbolize=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-$ubsan_opts:symbolize=0}

if [ ! -x "$bin" ]; then
    echo "fuzz-qemu: no qemu-fuzz-arm at '$bin'; build it: make -C emu/qemu SAN=1" >&2
    exit 2
fi

repro_cmd() {
    echo "QEMU_FUZZ_ARGS='$QEMU_FUZZ_ARGS' QEMU_FUZZ_OBJECTS='$QEMU_FUZZ_OBJECTS'" \
         "$bin --fuzz-target=generic-fuzz $1"
}

case $mode in
fuzz|smoke) ;;
repro)
    [ $# -gt 0 ] || { echo "usage: $0 repro FILE..." >&2; exit 2; }
    # QEMU docs/devel/fuzzing.rst "Building Crash Reproducers": the qtest
    # trace on stderr can be turned into a qtest script with
    # scripts/oss-fuzz/reorder_fuzzer_qtest_trace.py.
    QEMU_FUZZ_TIMEOUT=0 QTEST_LOG=1 FUZZ_SERIALIZE_QTEST=1 \
    ASAN_OPTIONS=${ASAN_OPTIONS%:symbolize=0} UBSAN_OPTIONS=${UBSAN_OPTIONS%:symbolize=0} \
        exec "$bin" --fuzz-target=generic-fuzz "$@" ;;
*)
    echo "usage: $0 fuzz|smoke SECONDS | repro FILE..." >&2
    exit 2 ;;
esac

secs=${1:-60}
case $secs in ''|*[!0-9]*) echo "fuzz-qemu: SECONDS must be a number, not '$secs'" >&2; exit 2 ;; esac

stamp=$(date -u +%Y%m%dT%H%M%SZ)
art=$fzo/artifacts/$stamp-$mode
log=$fzo/$mode.log
work=$fzo/corpus
if [ "$mode" = smoke ]; then
    work=$fzo/smoke-corpus
    rm -rf "$work"
fi
mkdir -p "$art" "$work"

echo "fuzz-qemu: $mode ${secs}s, $bin"
echo "fuzz-qemu: log $log, artifacts $art/"
# smoke: a fixed seed, so `make test` runs the same inputs every time
# (FUZZ_SEED overrides; 0 = libFuzzer picks one).  With a random seed a
# smoke run found docs/SECURITY.md Q9 (a hang in stock xilinx_spips reached
# through GEM TX DMA, fixed by patch 0044) in CI at e5e07ca, where earlier
# runs had not: a finding belongs to `make fuzz-qemu`, which keeps
# exploring with random seeds, and its regression test to tests/device;
# `make test` must not pass or fail by lot.  4241907218 ran 51 405 inputs
# clean in the CI smoke at afc2b75.
case ${FUZZ_SEED:-0} in *[!0-9]*) echo "fuzz-qemu: FUZZ_SEED must be a number, not '$FUZZ_SEED'" >&2; exit 2 ;; esac
seed=${FUZZ_SEED:-0}
[ "$mode" = smoke ] && [ -z "${FUZZ_SEED:-}" ] && seed=4241907218
seedopt=""
[ "$seed" != 0 ] && seedopt="-seed=$seed"
t0=$(date +%s)
# -timeout: libFuzzer's per-input limit in the parent (the child has its own
# 100 ms per command, QEMU_FUZZ_TIMEOUT); generous, the host is shared.
"$bin" --fuzz-target=generic-fuzz -max_total_time="$secs" -timeout=120 ${seedopt:+"$seedopt"} \
    -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
    -dict="$here/fuzz.dict" -artifact_prefix="$art/" "$work" "$seeds" \
    >"$log" 2>&1 &
pid=$!

# Watch for an artifact; stop a run that overstays by 5 minutes.
found="" overdue=0
while kill -0 "$pid" 2>/dev/null; do
    found=$(find "$art" -type f -print -quit)
    if [ -n "$found" ]; then
        sleep 2                     # let the child finish its report
        kill -INT "$pid" 2>/dev/null
        break
    fi
    if [ $(( $(date +%s) - t0 )) -gt $(( secs + 300 )) ]; then
        overdue=1
        kill -INT "$pid" 2>/dev/null
        break
    fi
    sleep 1
done
for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
wait "$pid"
rc=$?
t1=$(date +%s)
[ -n "$found" ] || found=$(find "$art" -type f -print -quit)
rmdir "$art" 2>/dev/null     # keep only the directories of runs that found something

execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" | tail -1)
eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
units=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
regions=$(sed -n 's/^  \* \(.*\)$/\1/p' "$log" | tr '\n' ';')

status=ok
if [ -n "$found" ]; then
    status=crash
elif [ "$overdue" = 1 ]; then
    status=hung
elif [ "$rc" -ne 0 ]; then
    status=failed
fi
corpus_n=$(find "$work" "$seeds" -type f | wc -l)
echo "fuzz-qemu: $status: ${execs:-0} executions in $((t1 - t0)) s" \
     "(${eps:-0} exec/s, ${cov:-cov: ?}, ${units:-0} new units, corpus $corpus_n files)"
echo "fuzz-qemu: regions fuzzed: ${regions:-none}"
mkdir -p "$fzo"
cat >"$fzo/result.json" <<JSON
{"target": "qemu", "status": "$status", "budget": "seconds=$secs", "seconds": $((t1 - t0)), "executions": ${execs:-0}, "exec_per_sec": ${eps:-0}, "new_units": ${units:-0}, "corpus_files": $corpus_n, "artifact": "$found", "date": "$(date -u +%FT%TZ)"}
JSON

case $status in
ok)
    [ -n "$regions" ] || { echo "fuzz-qemu: no MemoryRegion matched QEMU_FUZZ_OBJECTS; see $log" >&2; exit 1; }
    exit 0 ;;
crash)
    echo "fuzz-qemu: FINDING - reproducer: $found"
    # the same input again, alone, with symbols (no QTEST_LOG: short)
    replay=$fzo/$(basename "$found").txt
    QEMU_FUZZ_TIMEOUT=0 ASAN_OPTIONS=$asan_opts UBSAN_OPTIONS=$ubsan_opts \
        timeout 300 "$bin" --fuzz-target=generic-fuzz "$found" >"$replay" 2>&1
    echo "  --- symbolized replay $replay ---"
    grep -a -A30 -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error' "$replay" |
        head -40 | sed 's/^/  | /'
    grep -a -q -E 'ERROR: |runtime error' "$replay" ||
        { echo "  | (no report on replay; the fuzzing log has it:)";
          grep -a -A20 -m1 -E 'ERROR: |runtime error|deadly signal' "$log" | sed 's/^/  | /'; }
    # A CI log may keep only its tail, and the artifact dies with the CI
    # machine: the input (when small) and the top of the report come last.
    size=$(stat -c %s "$found")
    if [ "$size" -le 4096 ]; then
        echo "  input ($size bytes, base64; recreate it with base64 -d >crash):"
        base64 -w 76 "$found" | sed 's/^/    /'
    fi
    echo "  --- in short ---"
    grep -a -m1 -E '^SUMMARY: ' "$replay" | sed 's/^/  | /'
    grep -a -m1 -E '^(READ|WRITE) of size|is located' "$replay" | sed 's/^/  | /'
    grep -a -E '^ +#[0-9]+ 0x' "$replay" | head -8 |
        sed -E 's/ 0x[0-9a-f]+ in / /; s#/[^ ]*/src/#src/#; s/ \(.*//; s/^/  | /'
    echo "  replay:   $(repro_cmd "$found")"
    echo "  trace:    $here/run.sh repro $found 2>trace.txt"
    exit 1 ;;
*)
    echo "fuzz-qemu: the fuzzer $status (rc=$rc); tail of $log:" >&2
    tail -25 "$log" | sed 's/^/  | /' >&2
    exit 1 ;;
esac
