#!/usr/bin/env bash
# run.sh - run libFuzzer targets built by tests/fuzz/Makefile, one at a time.
#
#   run.sh smoke     FZO RUNS NAME [ARGS...]       one target, RUNS executions
#                                                  from libFuzzer seed SMOKE_SEED (1)
#   run.sh smoke-all FZO RUNS 'NAME:ARGS'...       each; "fuzz-smoke: N passed, M failed"
#   run.sh fuzz      FZO seconds=S|runs=N NAME [ARGS...]
#   run.sh fuzz-all  FZO seconds=S|runs=N 'NAME:ARGS'...
#
# The committed corpus tests/fuzz/NAME/corpus is read only: libFuzzer writes
# new inputs to FZO/NAME/corpus (the first directory it is given; a smoke run
# uses a fresh FZO/NAME/smoke-corpus so it depends on committed files only), crash
# artifacts to FZO/NAME/artifacts/, its log to FZO/NAME/MODE.log.  A fuzz
# run leaves FZO/NAME/result.json; FZO/results.json gathers every target's
# latest one and a table is printed.  Exit status is non-zero on a crash.
set -u
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 fzo=$2 budget=$3
shift 3

# run_one MODE NAME [ARGS...] -> 0 ok, 1 crash/failure
run_one() {
    local m=$1 name=$2; shift 2
    local bin=$fzo/$name/fuzz_$name seeds=$here/$name/corpus
    local work=$fzo/$name/corpus art=$fzo/$name/artifacts/
    # A smoke run starts from the committed corpus only, every time.
    if [ "$m" = smoke ]; then
        work=$fzo/$name/smoke-corpus
        rm -rf "$work"
    fi
    local log=$fzo/$name/$m.log opts=() rc t0 t1
    mkdir -p "$work" "$art" "$seeds"
    [ -f "$here/$name/fuzz.dict" ] && opts+=("-dict=$here/$name/fuzz.dict")
    case $m in
    # A smoke run is part of `make test`: the same seed gives the same
    # inputs, so a pass or a failure reproduces.  SMOKE_SEED=0 asks
    # libFuzzer for a random one (it prints it: "Seed: N").
    smoke) opts+=("-runs=$budget" "-seed=${SMOKE_SEED:-1}") ;;
    fuzz)
        case $budget in
        runs=*) opts+=("-runs=${budget#runs=}") ;;
        *) opts+=("-max_total_time=${budget#seconds=}") ;;
        esac ;;
    esac
    t0=$(date +%s.%N)
    "$bin" "${opts[@]}" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$art" "$@" "$work" "$seeds" >"$log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    local secs execs eps units crash status
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    units=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
    crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    if [ -z "$execs" ]; then  # crashed before the final stats: last status line
        execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" | tail -1)
    fi
    status=ok
    if grep -q 'libFuzzer: run interrupted' "$log"; then
        status=interrupted      # SIGINT: stopped early, nothing found
    elif [ $rc -ne 0 ]; then
        status=crash
    fi
    local seed
    seed=$(sed -n 's/^INFO: Seed: *//p' "$log" | head -1)
    printf '  %-16s %-6s %12s execs %9s exec/s %6ss  seed %s  %s\n' "$name" "$status" \
        "${execs:-0}" "${eps:-0}" "$secs" "${seed:-?}" "${crash:+artifact $crash}"
    if [ "$status" = crash ]; then
        echo "  --- $log (tail) ---"
        grep -v '^#[0-9]' "$log" | tail -25 | sed 's/^/  | /'
    fi
    if [ "$m" = fuzz ]; then
        cat >"$fzo/$name/result.json" <<EOF
{"target": "$name", "status": "$status", "budget": "$budget", "seconds": $secs, "executions": ${execs:-0}, "exec_per_sec": ${eps:-0}, "new_units": ${units:-0}, "corpus_files": $(find "$work" "$seeds" -type f | wc -l), "artifact": "${crash}", "date": "$(date -u +%FT%TZ)"}
EOF
    fi
    [ $rc -eq 0 ]
}

gather() {
    local first=1
    {
        echo '{"results": ['
        for f in "$fzo"/*/result.json; do
            [ -f "$f" ] || continue
            [ $first -eq 1 ] || echo ','
            first=0
            tr -d '\n' <"$f"
        done
        echo ']}'
    } >"$fzo/results.json"
    echo "fuzz results ($fzo/results.json):"
    printf '  %-16s %-6s %14s %10s %8s %s\n' target status executions exec/s seconds date
    for f in "$fzo"/*/result.json; do
        [ -f "$f" ] || continue
        sed -e 's/[{}"]//g' -e 's/, /\n/g' "$f" | awk -F': ' '
            { v[$1] = $2 }
            END { printf "  %-16s %-6s %14s %10s %8s %s\n", v["target"],
                  v["status"], v["executions"], v["exec_per_sec"],
                  v["seconds"], v["date"] }'
    done
}

case $mode in
smoke|fuzz)
    name=$1; shift
    run_one "$mode" "$name" "$@"; rc=$?
    [ "$mode" = fuzz ] && gather
    exit $rc ;;
smoke-all|fuzz-all)
    m=${mode%-all} passed=0 failed=0 start=$(date +%s)
    # no target: nothing ran, which is no pass
    [ $# -gt 0 ] || { echo "$0 $mode: no target to run" >&2; exit 1; }
    for spec in "$@"; do
        name=${spec%%:*} args=${spec#*:}
        # shellcheck disable=SC2086  # ARGS are separate libFuzzer flags
        if run_one "$m" "$name" $args; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
    done
    [ "$m" = fuzz ] && gather
    label=fuzz; [ "$m" = smoke ] && label=fuzz-smoke
    echo "$label: $passed passed, $failed failed ($(( $(date +%s) - start )) s)"
    [ $failed -eq 0 ] ;;
*)
    echo "usage: $0 smoke|smoke-all|fuzz|fuzz-all FZO BUDGET NAME..." >&2
    exit 2 ;;
esac
