#!/usr/bin/env bash
# long.sh - long fuzzing runs spread over several processes, counted per
# target.  Used for the 10-million-execution goal of issue 8.
#
#   long.sh run NAME RUNS [BIN]   one libFuzzer process of RUNS executions,
#                                 nice 15, from the committed corpus only (a
#                                 fresh work dir); BIN defaults to the
#                                 Makefile's build.  Start several at once
#                                 (each in the background) to use more cores.
#   long.sh status                one line per log: state, executions
#                                 (final stat, or the last status line of a
#                                 run still going), exec/s; then the sum per
#                                 target
#   long.sh merge NAME [BIN]      committed corpus + every work dir of NAME
#                                 minimized (-merge=1 -use_counters=0: a new
#                                 file stays only for new edges) into
#                                 LONG/NAME-merged; the committed files are
#                                 kept as they are
#
# Everything goes to LONG (default build/fuzz/long): NAME-TIME-PID.log,
# NAME-work-TIME-PID/ (new inputs), NAME-art-TIME-PID/ (crash artifacts).
# A SIGINT-stopped run still prints its final stat lines.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
long=${LONG:-$top/build/fuzz/long}
mkdir -p "$long"

target_args() {  # the NAME_ARGS of tests/fuzz/NAME/fuzz.mk
    sed -n "s/^$1_ARGS *:= *//p" "$here/$1/fuzz.mk" 2>/dev/null
}

case ${1:-} in
run)
    name=$2 runs=$3 bin=${4:-$top/build/fuzz/$name/fuzz_$name}
    ts=$(date -u +%H%M%S)-$$
    work=$long/$name-work-$ts art=$long/$name-art-$ts/ log=$long/$name-$ts.log
    opts=()
    [ -f "$here/$name/fuzz.dict" ] && opts+=("-dict=$here/$name/fuzz.dict")
    mkdir -p "$work" "$art"
    {
        echo "bin $bin"
        echo "start $(date -u +%FT%TZ) $name runs=$runs args=$(target_args "$name") work=$work"
    } >"$log"
    # shellcheck disable=SC2046  # ARGS are separate libFuzzer flags
    nice -n 15 "$bin" "${opts[@]}" $(target_args "$name") -runs="$runs" \
        -timeout=10 -print_final_stats=1 -artifact_prefix="$art" \
        "$work" "$here/$name/corpus" >>"$log" 2>&1
    rc=$?
    echo "end $(date -u +%FT%TZ) rc=$rc" >>"$log"
    exit $rc ;;
status)
    # Oldest first (ls -t: mtime) over our own NAME-TIME-PID.log names.
    # shellcheck disable=SC2010
    for f in $(ls -tr "$long"/*.log 2>/dev/null | grep -v -- '-merge\.log$'); do
        b=$(basename "$f" .log)
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$f" | tail -1)
        eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$f" | tail -1)
        st=running
        grep -q '^end ' "$f" && st=$(sed -n 's/^end .* rc=/rc=/p' "$f")
        grep -q 'libFuzzer: run interrupted' "$f" && st=stopped
        if [ -z "$n" ]; then
            l=$(grep -a '^#[0-9]' "$f" | tail -1)
            n=${l#\#}; n=${n%%[!0-9]*}
            eps=$(echo "$l" | sed -n 's/.*exec\/s: \([0-9]*\).*/\1/p')
        fi
        printf '%-44s %-8s %10s %7s\n' "$b" "$st" "${n:-0}" "${eps:-?}"
    done | tee "$long/.status"
    echo "per target (every log; a crashed run counts up to its crash):"
    awk '{ split($1, p, "-"); s[p[1]] += $3 } END { for (t in s) printf "  %-16s %10d\n", t, s[t] }' \
        "$long/.status" | sort ;;
merge)
    name=$2 bin=${3:-$top/build/fuzz/$name/fuzz_$name} out=$long/$2-merged
    rm -rf "$out"
    mkdir -p "$out"
    cp "$here/$name/corpus/"* "$out/"
    # shellcheck disable=SC2046  # ARGS are separate libFuzzer flags
    nice -n 15 "$bin" -merge=1 -use_counters=0 $(target_args "$name") -timeout=10 \
        "$out" "$long/$name"-work-* >"$long/$name-merge.log" 2>&1
    rc=$?
    echo "$name: merge rc=$rc, $(find "$out" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l) files, $(cat "$out"/* | wc -c) bytes"
    exit $rc ;;
*)
    echo "usage: $0 run NAME RUNS [BIN] | status | merge NAME [BIN]" >&2
    exit 2 ;;
esac
