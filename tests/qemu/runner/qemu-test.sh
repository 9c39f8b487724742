#!/usr/bin/env bash
# qemu-test.sh [SCENARIO...] - run the scenario matrix with `gemlab run`.
#
# Writes TAP to stdout (for prove) and JUnit XML to $JUNIT.  Each scenario
# runs on the firmware its [board] names; one whose firmware image is not
# built is reported as a TAP SKIP.  gemlab's own watchdog bounds each run
# and prints the last 40 console lines when it fires.
#
#   GEMLAB=path      the CLI (default build/host/bin/gemlab)
#   QEMU=path        pass --qemu (default: gemlab finds our QEMU)
#   SHARD=k/N        run the k-th of N stable slices (by name hash)
#   OUT=dir          run directories (default build/qemu-test)
#   JUNIT=file       default build/test-results/qemu-test[-k-of-N].xml
#   SEED=n           pass --seed
#   FW=elf, LINUX_FW=image   pass --fw for bare-metal / Linux scenarios
#   LIST=1           only print this shard's scenario names
#   REPORT=0         skip `gemlab report` (report.md/html) in each run dir
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
G=${GEMLAB:-$top/build/host/bin/gemlab}
OUT=${OUT:-$top/build/qemu-test}
shard=${SHARD:-1/1}
k=${shard%/*}; n=${shard#*/}
if ! [[ "$k" =~ ^[0-9]+$ && "$n" =~ ^[0-9]+$ ]] || [ "$k" -lt 1 ] || [ "$k" -gt "$n" ]; then
    echo "qemu-test: SHARD must be k/N with 1 <= k <= N, got '$shard'" >&2; exit 2
fi
suffix=""; [ "$n" -gt 1 ] && suffix="-$k-of-$n"
JUNIT=${JUNIT:-$top/build/test-results/qemu-test$suffix.xml}
mkdir -p "$OUT" "$(dirname "$JUNIT")"

if [ $# -gt 0 ]; then
    list=()
    for s in "$@"; do
        case $s in */*|*.ini) list+=("$s");; *) list+=("$top/scenarios/$s.ini");; esac
    done
else
    list=("$top"/scenarios/*.ini)
fi

# stable slice: cksum of the scenario name modulo N
mine=()
for f in "${list[@]}"; do
    name=$(basename "$f" .ini)
    h=$(printf '%s' "$name" | cksum | awk '{print $1}')
    [ $(( h % n + 1 )) -eq "$k" ] && mine+=("$f")
done

if [ -n "${LIST:-}" ]; then
    for f in "${mine[@]}"; do basename "$f" .ini; done
    exit 0
fi
echo "1..${#mine[@]}"
i=0; fails=0; skips=0; cases=""
t_all=$(date +%s)
for f in "${mine[@]}"; do
    i=$((i + 1))
    name=$(basename "$f" .ini)
    shown=$("$G" show "$f" 2>/dev/null)
    fw=$(printf '%s\n' "$shown" | awk -F'"' '/"firmware":/ {print $4; exit}')
    todo=$(printf '%s\n' "$shown" | awk -F'"' '/"todo":/ {print $4; exit}')
    fw=${fw:-baremetal}
    d="$OUT/$name-$fw"
    rm -rf "$d"
    t0=$(date +%s)
    args=(run "$f" --out "$d")
    [ -n "${QEMU:-}" ] && args+=(--qemu "$QEMU")
    [ -n "${SEED:-}" ] && args+=(--seed "$SEED")
    [ -n "${FW:-}" ] && [ "$fw" = baremetal ] && args+=(--fw "$FW")
    [ -n "${LINUX_FW:-}" ] && [ "$fw" = linux ] && args+=(--fw "$LINUX_FW")
    log=$("$G" "${args[@]}" 2>&1); rc=$?
    dt=$(( $(date +%s) - t0 ))
    # report.md + report.html in the run dir (CI summaries, gemlab merge's links)
    [ "${REPORT:-1}" != 0 ] && [ -f "$d/results.json" ] && "$G" report "$d" >/dev/null 2>&1
    esc=$(printf '%s' "$log" | tail -60 | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g')
    if [ -n "$todo" ] && [ $rc -ne 3 ]; then
        # a known gap ([scenario] todo): reported, not counted (TAP TODO)
        [ $rc -eq 0 ] && st="ok" || st="not ok"
        echo "$st $i - $name ($fw) ${dt}s # TODO $todo"
        cases+="  <testcase classname=\"qemu-test.$fw\" name=\"$name\" time=\"$dt\"><skipped message=\"TODO: $(printf '%s' "$todo" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/"/\&quot;/g')\"/></testcase>"$'\n'
        skips=$((skips + 1))
    elif [ $rc -eq 0 ]; then
        echo "ok $i - $name ($fw) ${dt}s"
        cases+="  <testcase classname=\"qemu-test.$fw\" name=\"$name\" time=\"$dt\"/>"$'\n'
    elif [ $rc -eq 3 ]; then
        skips=$((skips + 1))
        why=$(printf '%s' "$log" | grep -m1 'make -C' | sed 's/^gemlab: //')
        echo "ok $i - $name ($fw) # SKIP ${why:-missing build}"
        cases+="  <testcase classname=\"qemu-test.$fw\" name=\"$name\" time=\"$dt\"><skipped message=\"missing build\"/></testcase>"$'\n'
    else
        fails=$((fails + 1))
        echo "not ok $i - $name ($fw) ${dt}s exit $rc"
        printf '%s\n' "$log" | tail -25 | sed 's/^/# /'
        cases+="  <testcase classname=\"qemu-test.$fw\" name=\"$name\" time=\"$dt\"><failure message=\"exit $rc\">$esc</failure></testcase>"$'\n'
    fi
done
t_total=$(( $(date +%s) - t_all ))
{
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuite name=\"qemu-test$suffix\" tests=\"${#mine[@]}\" failures=\"$fails\" skipped=\"$skips\" time=\"$t_total\">"
    printf '%s' "$cases"
    echo '</testsuite>'
} >"$JUNIT"
echo "# qemu-test$suffix: ${#mine[@]} scenarios, $fails failed, $skips skipped, ${t_total}s; JUnit: $JUNIT"
[ $fails -eq 0 ]
