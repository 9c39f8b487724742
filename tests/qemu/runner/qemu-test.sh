#!/usr/bin/env bash
# qemu-test.sh [SCENARIO...] - run the scenario matrix with `gemlab run`.
#
# Writes TAP to stdout (for prove) and JUnit XML to $JUNIT (through
# tests/lib/gemlab_test/junit.py).  Each scenario runs on the firmware its
# [board] names.  It stays shell: each case is a `gemlab run` and a
# `gemlab diagnose`, run in shard slices and parallel jobs, and shell is
# the shortest way to spawn, time and reap those.  gemlab's own watchdog bounds each
# run and prints the last 40 console lines when it fires.
#
# Every run is diagnosed again blind (issue 20): `gemlab diagnose --blind
# --strict` drops results.json's "scenario" and "truth" (what was injected,
# the model's internals) and checks the codes it then names against the
# scenario's [expect] diag / diag_absent.  A run that passed but fails blind
# is "not ok" with the blind diagnosis's failed expectations.
#
# A skip is not a pass (issue 20).  A run gemlab could not start (exit 3:
# firmware or QEMU not built, host iperf missing, QEMU would not start) is
# a TAP SKIP with gemlab's reason, counted apart ("N skipped"); under CI=true
# it is a failure ("not ok") naming the scenario and the reason.  A scenario
# marked `todo = REASON` in its [scenario] section is a known gap: TAP TODO,
# counted as todo, never a failure, under CI=true too.  The last line:
#   # qemu-test[-K-of-N]: P passed, F failed, S skipped, T todo; ...
#
#   GEMLAB=path      the CLI (default build/host/bin/gemlab)
#   QEMU=path        pass --qemu (default: `make -s -C emu/qemu path`; as
#                    root gemlab itself runs no make in the tree)
#   SHARD=k/N        run the k-th of N stable slices (by name hash)
#   OUT=dir          run directories (default build/qemu-test)
#   JUNIT=file       default build/test-results/qemu-test[-k-of-N].xml
#   SEED=n           pass --seed
#   TIMEOUT=sec      pass --timeout (each run's watchdog; default: gemlab's)
#   FW=elf, LINUX_FW=image   pass --fw for bare-metal / Linux scenarios
#   LIST=1           only print this shard's scenario names
#   REPORT=0         skip `gemlab report` (report.md/html) in each run dir
#   JOBS=N           run up to N virtual-time scenarios at once (default:
#                    make's -jN, else the host's cores, nproc); a real-time
#                    scenario always runs alone; TAP and JUnit stay in
#                    scenario order
#   CI=true          a skip (not a todo) fails (GitHub Actions sets it)
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

# a name that is no scenario is a typo: said here, before the slice
# below could drop it and run nothing
for f in "${list[@]}"; do
    [ -f "$f" ] || { echo "qemu-test: no scenario $f" >&2; exit 2; }
done

# stable slice: cksum of the scenario name modulo N
mine=()
for f in "${list[@]}"; do
    name=$(basename "$f" .ini)
    h=$(printf '%s' "$name" | cksum | awk '{print $1}')
    [ $(( h % n + 1 )) -eq "$k" ] && mine+=("$f")
done
# a slice that runs nothing passes nothing: more shards than scenarios
# (or a SCENARIO list that all lands in other slices) is an error
if [ ${#mine[@]} -eq 0 ]; then
    echo "qemu-test: shard $k/$n holds none of the ${#list[@]} scenario(s): nothing to run (use fewer shards)" >&2
    exit 1
fi

# a case's name: the scenario's, with _control for its negative control
casename() {
    local b
    b=$(basename "${1%#control}" .ini)
    [ "$1" != "${1%#control}" ] && b+=_control
    echo "$b"
}

# each scenario with a [control] section is followed by its negative
# control (issue 20): the same file without the fault, run with
# `gemlab run --control`, which must not name the scenario's diag codes
expanded=()
for f in "${mine[@]}"; do
    expanded+=("$f")
    grep -q '^\[control\]' "$f" && expanded+=("$f#control")
done
mine=("${expanded[@]}")

if [ -n "${LIST:-}" ]; then
    for f in "${mine[@]}"; do casename "$f"; done
    exit 0
fi
# our QEMU when QEMU is not given: this script is the tree's code and runs
# as whoever started it, unlike gemlab, which as root runs none (docs/SECURITY.md R8)
default_qemu=""
[ -z "${QEMU:-}" ] && default_qemu=$(make -s --no-print-directory -C "$top/emu/qemu" path 2>/dev/null)
# Parallel jobs: JOBS=N, else make's -jN (MAKEFLAGS), else nproc.  Each run
# picks its own free ports and run dir, so runs do not clash; results are
# printed and written to JUnit in scenario order whatever order they end in.
# Only virtual-time runs share the host: their figures are the guest's
# instruction counts, the same under any host load (docs/VIRTUAL_TIME.md),
# and their watchdogs are virtual.  A real-time run measures the host as
# well (a host iperf, QEMU's pace against the wall clock), so it waits for
# the running jobs to end and nothing starts beside it: run together, such
# runs failed their throughput bars on a 2-core host.
jobs=${JOBS:-}
if [ -z "$jobs" ]; then
    jobs=$(nproc 2>/dev/null || echo 1)
    for w in ${MAKEFLAGS:-}; do
        case $w in
            -j) jobs=$(nproc);;
            -j[0-9]*) jobs=${w#-j};;
            --jobs=[0-9]*) jobs=${w#--jobs=};;
        esac
    done
fi
if ! [[ "$jobs" =~ ^[0-9]+$ ]] || [ "$jobs" -lt 1 ]; then
    echo "qemu-test: JOBS must be a positive number, got '$jobs'" >&2; exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gemlab-qt.XXXXXX")
on_exit() {
    local p
    for p in "$tmp"/*.pid; do [ -f "$p" ] && kill -TERM "$(cat "$p")" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

# record I KIND SECONDS CLASSNAME NAME MESSAGE: scenario I's JUnit case,
# $tmp/I.case, for tests/lib/gemlab_test/junit.py, which writes the XML
# (a failure's body goes to $tmp/I.text); one line, tabs apart.
record() {
    printf '%s\t%s\t%s\t%s\t%s\n' "$2" "$3" "$4" "$5" "$(printf '%s' "$6" | tr '\t\n' '  ')" >"$tmp/$1.case"
}

# run_one I FILE: writes $tmp/I.tap (TAP line + comments), $tmp/I.case
# (the JUnit case: record) and $tmp/I.st (pass|fail|skip|todo|ciskip)
# last, as the done marker; ciskip is a skip under CI=true, counted as
# failed.
run_one() {
    local i=$1 f=$2 name shown fw todo d t0 args log rc dt st why blind brc ctl=()
    if [ "$f" != "${f%#control}" ]; then
        f=${f%#control}
        ctl=(--control)
    fi
    name=$(basename "$f" .ini)${ctl:+_control}
    shown=$("$G" show "$f" "${ctl[@]}" 2>/dev/null)
    fw=$(printf '%s\n' "$shown" | awk -F'"' '/"firmware":/ {print $4; exit}')
    # the scenario's own todo, not its [control]'s (`gemlab show` prints
    # that inside "control": it marks only the NAME_control run)
    todo=$(printf '%s\n' "$shown" | awk -F'"' '/^\t"[a-z_]+":/ {sec=$2} sec != "control" && /"todo":/ {print $4; exit}')
    fw=${fw:-baremetal}
    d="$OUT/$name-$fw"
    rm -rf "$d"
    t0=$(date +%s)
    args=(run "$f" --out "$d" "${ctl[@]}")
    [ -n "${QEMU:-}" ] && args+=(--qemu "$QEMU")
    [ -z "${QEMU:-}" ] && [ -n "$default_qemu" ] && args+=(--qemu "$default_qemu")
    [ -n "${SEED:-}" ] && args+=(--seed "$SEED")
    [ -n "${TIMEOUT:-}" ] && args+=(--timeout "$TIMEOUT")
    [ -n "${FW:-}" ] && [ "$fw" = baremetal ] && args+=(--fw "$FW")
    [ -n "${LINUX_FW:-}" ] && [ "$fw" = linux ] && args+=(--fw "$LINUX_FW")
    # gemlab runs as its own job so an interrupted qemu-test can TERM it
    # (gemlab then stops its QEMU and removes its sockets/netns)
    "$G" "${args[@]}" >"$tmp/$i.log" 2>&1 </dev/null &
    echo $! >"$tmp/$i.pid"
    wait $!; rc=$?
    rm -f "$tmp/$i.pid"
    log=$(cat "$tmp/$i.log")
    dt=$(( $(date +%s) - t0 ))
    # the blind diagnosis: evidence only, against the same [expect]
    blind=""
    if [ $rc -eq 0 ] && [ -f "$d/results.json" ]; then
        blind=$("$G" diagnose "$d" --blind --strict 2>&1)
        brc=$?
        if [ $brc -ne 0 ]; then
            rc=1
            log="$log
blind diagnosis (gemlab diagnose --blind --strict, exit $brc):
$blind"
        fi
    fi
    # report.md + report.html in the run dir (CI summaries, gemlab merge's links)
    [ "${REPORT:-1}" != 0 ] && [ -f "$d/results.json" ] && "$G" report "$d" >/dev/null 2>&1
    printf '%s' "$log" | tail -60 >"$tmp/$i.text"
    # exit 3: gemlab could not start the run; its reason is the first line
    # naming a build step, else its first "gemlab: " line
    why=""
    if [ $rc -eq 3 ]; then
        why=$(printf '%s\n' "$log" | grep -m1 'make -C' | sed 's/^gemlab: //')
        [ -z "$why" ] && why=$(printf '%s\n' "$log" | grep -m1 '^gemlab: ' | sed 's/^gemlab: //')
        why=${why:-gemlab exit 3, no reason printed}
    fi
    if [ -n "$todo" ]; then
        # a known gap ([scenario] todo): reported, not counted (TAP TODO),
        # also when it could not run (exit 3)
        [ $rc -eq 0 ] && st="ok" || st="not ok"
        [ $rc -eq 3 ] && st="ok"
        echo "$st $i - $name ($fw) ${dt}s # TODO $todo${why:+ (not run: $why)}" >"$tmp/$i.tap"
        record "$i" skip "$dt" "qemu-test.$fw" "$name" "TODO: $todo"
        echo todo >"$tmp/$i.st"
    elif [ $rc -eq 3 ] && [ "${CI:-}" = true ]; then
        # no "#" before the reason: TAP reads "# skip..." as a SKIP directive
        { echo "not ok $i - $name ($fw) ${dt}s: skipped under CI=true, and a skip is not a pass: ${why//#/\\#}"
          echo "# $name: provide what it needs, or if this is a known gap mark the scenario with"
          echo "# \`todo = REASON\` in its [scenario] section (scenarios/README.md)"; } >"$tmp/$i.tap"
        record "$i" fail "$dt" "qemu-test.$fw" "$name" "skipped under CI=true: $why"
        echo ciskip >"$tmp/$i.st"
    elif [ $rc -eq 0 ]; then
        echo "ok $i - $name ($fw) ${dt}s" >"$tmp/$i.tap"
        record "$i" pass "$dt" "qemu-test.$fw" "$name" ""
        echo pass >"$tmp/$i.st"
    elif [ $rc -eq 3 ]; then
        echo "ok $i - $name ($fw) # SKIP $why" >"$tmp/$i.tap"
        record "$i" skip "$dt" "qemu-test.$fw" "$name" "$why"
        echo skip >"$tmp/$i.st"
    else
        { echo "not ok $i - $name ($fw) ${dt}s exit $rc${blind:+ (blind diagnosis)}"
          printf '%s\n' "$log" | tail -25 | sed 's/^/# /'; } >"$tmp/$i.tap"
        record "$i" fail "$dt" "qemu-test.$fw" "$name" "exit $rc"
        echo fail >"$tmp/$i.st"
    fi
}

echo "1..${#mine[@]}"
[ "$jobs" -gt 1 ] && echo "# qemu-test: up to $jobs virtual-time runs at once; a real-time run runs alone"
t_all=$(date +%s)
shown_upto=0   # results 1..shown_upto are printed
flush() {
    while [ $shown_upto -lt ${#mine[@]} ] && [ -f "$tmp/$((shown_upto + 1)).st" ]; do
        shown_upto=$((shown_upto + 1))
        cat "$tmp/$shown_upto.tap"
    done
}
# clock_of FILE[#control]: the case's [board] clock, as gemlab reads it
# ("real" when gemlab cannot read the file: that case then runs alone and
# fails there, naming why)
clock_of() {
    local f=$1 ctl=()
    [ "$f" != "${f%#control}" ] && { f=${f%#control}; ctl=(--control); }
    "$G" show "$f" "${ctl[@]}" 2>/dev/null | awk -F'"' '/"clock":/ {c = $4; exit} END {print c ? c : "real"}'
}
i=0
for f in "${mine[@]}"; do
    i=$((i + 1))
    limit=$jobs
    [ "$jobs" -gt 1 ] && [ "$(clock_of "$f")" != virtual ] && limit=1
    while [ "$(jobs -rp | wc -l)" -ge "$limit" ]; do
        wait -n 2>/dev/null
        flush
    done
    if [ "$limit" -eq 1 ]; then
        run_one "$i" "$f"
    else
        run_one "$i" "$f" &
    fi
    flush
done
while [ -n "$(jobs -rp)" ]; do wait -n 2>/dev/null; flush; done
wait
flush
passes=0; fails=0; skips=0; todos=0; ciskips=""
for ((j = 1; j <= ${#mine[@]}; j++)); do
    if [ ! -f "$tmp/$j.st" ]; then      # a job that died without a result
        fails=$((fails + 1))
        name=$(casename "${mine[j-1]}")
        echo "not ok $j - $name # no result (job died)"
        rm -f "$tmp/$j.text"
        record "$j" fail "" qemu-test "$name" "no result"
        continue
    fi
    case $(cat "$tmp/$j.st") in
        pass) passes=$((passes + 1));;
        fail) fails=$((fails + 1));;
        skip) skips=$((skips + 1));;
        todo) todos=$((todos + 1));;
        ciskip) fails=$((fails + 1)); ciskips+=" $(casename "${mine[j-1]}")";;
    esac
done
t_total=$(( $(date +%s) - t_all ))
if ! PYTHONPATH="$top/tests/lib" python3 -m gemlab_test.junit "$JUNIT" "qemu-test$suffix" "$t_total" "$tmp" \
        "${#mine[@]}"; then
    echo "# qemu-test$suffix: could not write $JUNIT"
    fails=$((fails + 1))
fi
[ -n "$ciskips" ] && echo "# qemu-test$suffix: skipped under CI=true (each counted as failed):$ciskips"
echo "# qemu-test$suffix: $passes passed, $fails failed, $skips skipped, $todos todo; ${#mine[@]} scenarios, ${t_total}s; JUnit: $JUNIT"
[ $fails -eq 0 ]
