#!/usr/bin/env bash
# robustness.sh [GEMLAB] - harness robustness tests for the gemlab runner
# (issue 8), against Debian's stock qemu-system-arm (or $QEMU).  No
# firmware needed: a two-line UART fixture (fixtures/uart_fixture.S) stands
# in for it when arm-none-eabi-gcc is installed.
#
# Each test lists QEMU processes, sockets and network namespaces before and
# after and fails if anything the runner started is left behind.
# A test this host cannot run (not root, a tool missing) is a SKIP,
# counted apart; under CI=true a failure (issue 20: a skip is not a pass).
# Ends with "runner: N passed, M failed[, K skipped]"; exit status non-zero
# on failure.
#
# Why this stays shell (issue 21): it tests the gemlab CLI the way a user
# runs it - exit codes, stderr text, what is left in ps, ss and ip netns
# after a kill, a full disk or a bad scenario - so its steps are process
# and file-system operations, not Python logic.  Where it needs JSON it
# reads one field with a python3 -c one-liner.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
G=${1:-$top/build/host/bin/gemlab}
case $G in /*) ;; *) G=$PWD/$G ;; esac     # some tests run it from $work
QEMU=${QEMU:-/usr/bin/qemu-system-arm}
work=$(mktemp -d /tmp/gemlab-rb.XXXXXX)
# shellcheck source=../../lib/check.sh
. "$here/../../lib/check.sh"

cleanup_work() {
    # our own safety net: only processes whose command line names $work
    pkill -KILL -f -- "$work" 2>/dev/null
    # the ENOSPC test's tmpfs (test 18)
    mountpoint -q "$work/tiny" 2>/dev/null && umount "$work/tiny"
    rm -rf "$work"
    # the not-writable --out test's directory, outside 0700 $work
    if [ -n "${np:-}" ]; then pkill -KILL -f -- "$np" 2>/dev/null; rm -rf "$np"; fi
}
trap cleanup_work EXIT

# Leftovers of one run directory: live processes naming it, sockets in it.
leftovers() {
    local d=$1 out=""
    pgrep -f -- "$d" >/dev/null && out="$out processes($(pgrep -f -- "$d" | tr '\n' ' '))"
    compgen -G "$d/*.sock" >/dev/null && out="$out sockets($(ls "$d"/*.sock))"
    [ -e "$d/qemu.pid" ] && out="$out qemu.pid"
    echo "$out"
}
# only the runner's namespaces (gl-*): other suites on this machine create
# and delete their own while we run
netns_list() { ip netns list 2>/dev/null | awk '{print $1}' | grep '^gl-' | sort; }
qemu_count() { pgrep -c -f -- "$work" 2>/dev/null || true; }

# Wait until FILE exists (max 20 s).
wait_file() { for _ in $(seq 200); do [ -s "$1" ] && return 0; sleep 0.1; done; return 1; }
# nfiles GLOB: how many names the glob expands to (0 when none matches).
nfiles() { local n=0 f; for f in "$@"; do [ -e "$f" ] && n=$((n + 1)); done; echo "$n"; }

if [ ! -x "$G" ]; then echo "runner: $G not built (make -C emu/runner)"; echo "runner: 0 passed, 1 failed"; exit 1; fi
if [ ! -x "$QEMU" ]; then echo "runner: $QEMU missing (apt-get install qemu-system-arm)"; echo "runner: 0 passed, 1 failed"; exit 1; fi

have_fixture=0
if command -v arm-none-eabi-gcc >/dev/null; then
    arm-none-eabi-gcc -nostdlib -Ttext=0x100000 -o "$work/hang.elf" "$here/fixtures/uart_fixture.S" &&
    arm-none-eabi-gcc -DREADY -nostdlib -Ttext=0x100000 -o "$work/ready.elf" "$here/fixtures/uart_fixture.S" &&
    have_fixture=1
    [ $have_fixture = 1 ] || bad "UART fixture" "arm-none-eabi-gcc could not build fixtures/uart_fixture.S"
else
    skip "tests 6, 7, 7b, 9b (git), 13, 16, 17, 17b, 18, 19" \
        "they boot the UART fixture: arm-none-eabi-gcc not installed (apt-get install gcc-arm-none-eabi)"
fi
[ "$(id -u)" = 0 ] || skip "tests 9b, 12, 13, 18" "they need root (setpriv, netns, tmpfs mount)"
ns_before=$(netns_list)

# 1. A clean boot: QMP answers, the run dir is 0700, nothing is left.
#    The --out directory is reused (an earlier run created it): that
#    run's numbered host-tool outputs go, files that are not ours stay.
#    While it holds a run's results.json, boot (which writes none) refuses
#    it and removes nothing: a blind user lost a run's evidence that way.
d=$work/clean
"$G" boot --qemu "$QEMU" --out "$d" --hold 0 >/dev/null 2>&1
touch "$d/iperf-7.json" "$d/iperf-3.csv" "$d/iperf-n.err" "$d/notes.txt" "$d/results.json"
out0=$("$G" boot --qemu "$QEMU" --out "$d" --hold 0 2>&1); rc0=$?
kept=$(cd "$d" && { compgen -G 'iperf*'; compgen -G 'results.json'; } | wc -l)
rm -f "$d/results.json"
out=$("$G" boot --qemu "$QEMU" --out "$d" --hold 1 2>&1); rc=$?
mode=$(stat -c %a "$d" 2>/dev/null)
left=$(leftovers "$d")
stale=$(cd "$d" && compgen -G 'iperf*' | tr '\n' ' ')
if [ $rc0 -eq 2 ] && [[ "$out0" == *"holds a run's results.json"* ]] && [ "$kept" = 4 ] \
   && [ $rc -eq 0 ] && [[ "$out" == *"QMP up"* ]] && [ "$mode" = 700 ] && [ -z "$left" ] \
   && [ -z "$stale" ] && [ -e "$d/notes.txt" ]; then
    ok "boot with QMP, run dir 0700, cleaned up, stale iperf outputs of a reused --out removed; one holding results.json refused, kept"
else bad "boot with QMP" "rc0=$rc0 kept=$kept rc=$rc mode=$mode left=[$left] stale=[$stale] out0=$out0 out=$out"; fi

# 1b. --out only creates a directory or reuses one a run created (it holds
#     .gemlab-run): an existing directory without the mark is refused,
#     never chmod()ed or cleaned (docs/SECURITY.md R3: `--out /tmp` as root made /tmp
#     mode 0700 and removed other users' /tmp/iperf* files).  A stand-in
#     first: a 1777 directory with an iperf file in it; then, only if that
#     was refused, the real /tmp and $HOME.  A parent any user may write
#     (not sticky) is refused too.
pub=$work/pub
mkdir -p "$pub" && chmod 1777 "$pub" && touch "$pub/iperf-1.json"
out=$("$G" boot --qemu "$QEMU" --out "$pub" --hold 0 2>&1); rc=$?
mode=$(stat -c %a "$pub")
if [ $rc -eq 2 ] && [[ "$out" == *"--out $pub"* ]] && [ "$mode" = 1777 ] && [ -e "$pub/iperf-1.json" ] \
   && [ ! -e "$pub/qemu.argv" ]; then
    ok "--out: an existing directory a run did not create is refused, its mode and files untouched"
    tmode=$(stat -c %a /tmp); hmode=$(stat -c %a "$HOME")
    out=$("$G" boot --qemu "$QEMU" --out /tmp --hold 0 2>&1); rc=$?
    out2=$("$G" boot --qemu "$QEMU" --out "$HOME" --hold 0 2>&1); rc2=$?
    if [ $rc -eq 2 ] && [[ "$out" == *"--out /tmp"* ]] && [ "$(stat -c %a /tmp)" = "$tmode" ] \
       && [ $rc2 -eq 2 ] && [[ "$out2" == *"--out $HOME"* ]] && [ "$(stat -c %a "$HOME")" = "$hmode" ]; then
        ok "--out /tmp and --out \$HOME refused, modes unchanged ($tmode, $hmode)"
    else bad "--out /tmp, \$HOME" "rc=$rc rc2=$rc2 /tmp $(stat -c %a /tmp) $out / $out2"; fi
else bad "--out on a directory a run did not create" "rc=$rc mode=$mode $out"; fi
ww=$work/ww
mkdir -p "$ww" && chmod 0777 "$ww"
out=$("$G" boot --qemu "$QEMU" --out "$ww/run" --hold 0 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"writable by every user"* ]] && [ ! -e "$ww/run" ]; then
    ok "--out below a world-writable, non-sticky parent refused"
else bad "--out below a world-writable parent" "rc=$rc $out"; fi

# a reused --out its user cannot write: refused before anything in it
# changes (console.log was truncated, then the old results could not be
# removed); as another user, since root writes anywhere
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
    np=$(mktemp -d /tmp/gemlab-np.XXXXXX)     # $work is 0700: nobody could not reach it
    cp "$G" "$np/gemlab" && chmod 755 "$np" "$np/gemlab" && chown nobody "$np"
    runuser -u nobody -- "$np/gemlab" boot --qemu /bin/true --out "$np/a" --hold 0 >/dev/null 2>&1
    echo "an earlier run" > "$np/a/console.log" && chmod 500 "$np/a"
    out=$(runuser -u nobody -- "$np/gemlab" boot --qemu /bin/true --out "$np/a" --hold 0 2>&1); rc=$?
    if [ $rc -eq 2 ] && [[ "$out" == *"--out $np/a: cannot write there"* ]] \
       && [ "$(cat "$np/a/console.log")" = "an earlier run" ]; then
        ok "--out its user cannot write: refused (rc 2) before console.log is touched"
    else bad "--out not writable" "rc=$rc $out / $(cat "$np/a/console.log")"; fi
    rm -rf "$np"
else
    skip "--out not writable (another user)" "needs root and runuser"
fi

# 2. QEMU killed with SIGKILL mid-run: FAIL with the console tail, no leftovers.
d=$work/sigkill
"$G" boot --qemu "$QEMU" ${have_fixture:+$( [ $have_fixture = 1 ] && echo --fw "$work/ready.elf")} \
    --out "$d" --hold 30 >"$work/sigkill.out" 2>&1 &
rpid=$!
if wait_file "$d/qemu.pid"; then
    # once the runner is connected (a kill during the QMP connect is
    # reported as a connect failure instead; seen under load)
    for _ in $(seq 200); do grep -q "QMP up" "$work/sigkill.out" && break; sleep 0.1; done
    sleep 0.5
    kill -KILL "$(cat "$d/qemu.pid")"
fi
wait $rpid; rc=$?
left=$(leftovers "$d")
if [ $rc -eq 1 ] && grep -q "killed by signal 9" "$work/sigkill.out" && grep -q "last .* console line" "$work/sigkill.out" \
   && [ -z "$left" ]; then
    ok "SIGKILLed QEMU reported as FAIL with console tail, cleaned up"
else bad "SIGKILLed QEMU" "rc=$rc left=[$left] $(tail -5 "$work/sigkill.out")"; fi

# 3. SIGINT to the runner: exit 130, QEMU gone, sockets gone.
for sig in INT TERM; do
    d=$work/sig$sig
    "$G" boot --qemu "$QEMU" --out "$d" --hold 30 >"$work/sig$sig.out" 2>&1 &
    rpid=$!
    wait_file "$d/qemu.pid"; sleep 0.5
    qpid=$(cat "$d/qemu.pid" 2>/dev/null)
    kill -$sig $rpid
    wait $rpid; rc=$?
    left=$(leftovers "$d")
    alive=$( [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null && echo yes )
    if [ $rc -eq 130 ] && [ -z "$left" ] && [ -z "$alive" ]; then
        ok "SIG$sig to the runner: exit 130, QEMU $qpid gone, no sockets"
    else bad "SIG$sig to the runner" "rc=$rc alive=$alive left=[$left] $(tail -3 "$work/sig$sig.out")"; fi
done

# 3b. SIGKILL to the runner (nothing can be caught): the kernel kills
#     QEMU with it (PR_SET_PDEATHSIG), so no emulator is orphaned.  The
#     run directory's sockets stay; a later run with the same --out
#     replaces them (test 1).
d=$work/sigKILLrunner
"$G" boot --qemu "$QEMU" --out "$d" --hold 30 >"$work/sigKILLrunner.out" 2>&1 &
rpid=$!
wait_file "$d/qemu.pid"
for _ in $(seq 200); do grep -q "QMP up" "$work/sigKILLrunner.out" && break; sleep 0.1; done
qpid=$(cat "$d/qemu.pid" 2>/dev/null)
kill -KILL $rpid
wait $rpid 2>/dev/null
alive=yes
for _ in $(seq 50); do
    if [ -n "$qpid" ] && ! kill -0 "$qpid" 2>/dev/null; then alive=; break; fi
    sleep 0.1
done
if [ -n "$qpid" ] && [ -z "$alive" ]; then
    ok "SIGKILL to the runner: QEMU $qpid dies with it"
else
    bad "SIGKILL to the runner" "QEMU '$qpid' still alive after 5 s"
    [ -n "$qpid" ] && kill -KILL "$qpid" 2>/dev/null
fi

# 4. A hung QEMU (SIGSTOP): QMP stops answering, the runner kills it.
d=$work/hung
"$G" boot --qemu "$QEMU" --out "$d" --hold 30 >"$work/hung.out" 2>&1 &
rpid=$!
wait_file "$d/qemu.pid"
for _ in $(seq 200); do grep -q "QMP up" "$work/hung.out" && break; sleep 0.1; done
kill -STOP "$(cat "$d/qemu.pid")"
start=$(date +%s)
wait $rpid; rc=$?
took=$(( $(date +%s) - start ))
left=$(leftovers "$d")
if [ $rc -eq 1 ] && grep -q "hung" "$work/hung.out" && [ -z "$left" ] && [ $took -lt 15 ]; then
    ok "hung QEMU detected by the QMP watchdog in ${took}s and killed"
else bad "hung QEMU" "rc=$rc took=$took left=[$left] $(tail -3 "$work/hung.out")"; fi

# 5. The per-run watchdog (--timeout) fires.
d=$work/watchdog
out=$("$G" boot --qemu "$QEMU" --out "$d" --hold 30 --timeout 2 2>&1); rc=$?
left=$(leftovers "$d")
if [ $rc -eq 1 ] && [[ "$out" == *watchdog* ]] && [ -z "$left" ]; then
    ok "watchdog --timeout 2 kills QEMU"
else bad "watchdog" "rc=$rc left=[$left] $out"; fi

# 6. Firmware that never prints the ready line: the ready watchdog fires
#    and the last console lines are shown.
if [ $have_fixture = 1 ]; then
    d=$work/noready
    out=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$QEMU" --fw "$work/hang.elf" --out "$d" --timeout 8 2>&1); rc=$?
    left=$(leftovers "$d")
    if [ $rc -eq 1 ] && [[ "$out" == *watchdog* ]] && [[ "$out" == *"hanging before the ready line"* ]] \
       && [ -z "$left" ] && grep -q '"result":.*"ERROR"' "$d/results.json"; then
        ok "never-ready firmware: watchdog, console tail, results.json ERROR"
    else bad "never-ready firmware" "rc=$rc left=[$left] $(echo "$out" | tail -4)"; fi

    # 7. The whole run pipeline on the fixture: results.json, diagnosis.json,
    #    verdict; a `gemlab fault` applied meanwhile is in its results.json
    #    (truth.timeline_applied), not only the scenario's [timeline].
    d=$work/pipeline
    "$G" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$QEMU" --fw "$work/ready.elf" --out "$d" \
        >"$work/pipeline.out" 2>&1 &
    rpid=$!
    for _ in $(seq 200); do [ -S "$d/fault.sock" ] && break; sleep 0.1; done
    fo=$("$G" fault "$d" link up 2>&1); frc=$?
    wait $rpid; rc=$?
    out=$(cat "$work/pipeline.out")
    left=$(leftovers "$d")
    # a FAIL says why in verdict.reason (schema: "why, when not PASS")
    if [ $rc -le 1 ] && [ -s "$d/results.json" ] && [ -s "$d/diagnosis.json" ] && [[ "$out" == *clean_1g* ]] \
       && { [ $rc -eq 0 ] || grep -Eq '"reason":[[:space:]]*"[^"]' "$d/results.json"; } \
       && [ -z "$left" ] && "$G" diagnose "$d" >/dev/null; then
        ok "run pipeline on a fixture: results.json + diagnosis.json, verdict printed (rc=$rc)"
    else bad "run pipeline" "rc=$rc left=[$left] $(echo "$out" | tail -4)"; fi
    if [ $frc -eq 0 ] && python3 -c '
import json, sys
tl = json.load(open(sys.argv[1]))["truth"]["timeline_applied"]
sys.exit(0 if [e for e in tl if e["event"] == "link up" and e["source"] == "gemlab fault"
               and e["applied"] == "set_link up" and isinstance(e["t_s"], (int, float))] else 1)' "$d/results.json"; then
        ok "a gemlab fault during a run is recorded in its results.json (truth.timeline_applied)"
    else bad "gemlab fault recorded" "rc=$frc $fo $(grep -o '"timeline_applied".\{0,200\}' "$d/results.json")"; fi
    # 7b. A QEMU slow to open its sockets (a loaded host starves it) is
    #     waited for within the run's watchdog, not failed at a fixed 20 s
    #     of wall clock (seen: a virtual-time run beside two busy loops).
    printf '#!/bin/sh\ncase " $* " in *" -qmp "*) sleep 22;; esac\nexec "%s" "$@"\n' "$QEMU" >"$work/slowq"
    chmod +x "$work/slowq"
    d=$work/slowstart
    out=$("$G" boot --qemu "$work/slowq" --fw "$work/ready.elf" --hold 0 --timeout 60 --out "$d" 2>&1); rc=$?
    if [ $rc -eq 0 ] && [[ "$out" == *"QMP up"*"PASS boot"* ]] && [ -z "$(leftovers "$d")" ]; then
        ok "QEMU 22 s slow to open its sockets: the run waits for it within its watchdog"
    else bad "slow QEMU start" "rc=$rc $(echo "$out" | tail -3)"; fi
fi

# 7c. A campaign stopped by SIGINT in the middle of a sample: that sample
#     is not scored (it would be a miss), and campaign.json/.md say the
#     campaign was interrupted after 0 of 3.  The binary sits in a tree of
#     its own (runner_find_top) whose default firmware is the fixture.
if [ $have_fixture = 1 ]; then
    ct=$work/ctop
    mkdir -p "$ct/emu/runner" "$ct/bin" "$ct/build/baremetal/qemu-zynq"
    cp "$G" "$ct/bin/gemlab" && cp "$work/ready.elf" "$ct/build/baremetal/qemu-zynq/gemlab-fw.elf"
    "$ct/bin/gemlab" campaign --qemu "$QEMU" --runs 3 --seed 1 --out "$work/camp" >"$work/camp.out" 2>&1 &
    rpid=$!
    wait_file "$work/camp/sample-000/run/qemu.pid"
    kill -INT $rpid; wait $rpid; rc=$?
    if [ $rc -eq 130 ] && python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
sys.exit(0 if c["interrupted"] is True and c["samples_done"] == 0 and c["samples"] == [] and c["errors"] == 0
         else 1)' "$work/camp/campaign.json" && grep -q "Interrupted.*after 0 of 3" "$work/camp/campaign.md" \
       && [ -z "$(leftovers "$work/camp/sample-000/run")" ]; then
        ok "campaign interrupted mid-sample: exit 130, that sample not scored, campaign.json/.md say so"
    else bad "interrupted campaign" "rc=$rc $(tail -3 "$work/camp.out")"; fi
fi

# 7d. A miss's "reproduce" command reruns that sample: it carries --runs
#     (the campaign's; the draw does not depend on it), --faults (the draw is among them) and
#     --qemu (as root gemlab runs no QEMU from the tree), and writes beside
#     the campaign, not over it.  --qemu /bin/false: every sample errors,
#     so every sample is a miss with its command.  The progress line names
#     a sample by its own number (its directory's), then its place.
out=$("$G" campaign --qemu /bin/false --runs 2 --seed 1 --faults loss,corrupt --out "$work/camp2" 2>&1)
line=$(printf '%s\n' "$out" | sed -n 's/.*; reproduce: gemlab //p' | head -1)
read -ra rargs <<<"$line"
want="campaign --seed 1 --runs 2 --only 0 --duration 6 --faults loss,corrupt --qemu /bin/false --out $work/camp2/repro-0"
if [ "$line" = "$want" ] && "$G" "${rargs[@]}" --dry-run >/dev/null 2>&1 \
   && cmp -s "$work/camp2/sample-000/scenario.ini" "$work/camp2/repro-0/sample-000/scenario.ini" \
   && grep -q '"samples_done":[[:space:]]*2' "$work/camp2/campaign.json" \
   && [[ "$out" == *"campaign: sample 1 (2 of 2): "* ]]; then
    ok "a campaign miss's reproduce command draws the same sample, beside the campaign"
else bad "campaign reproduce command" "got '$line', want '$want'"; fi

# 7b. A re-run into the same --out that is SIGKILLed leaves no results.json
#     that looks fresh (docs/SECURITY.md D1): the earlier run's results go at start,
#     RUN_DIR/run.in-progress stays, and report / baseline save /
#     diagnose refuse it.
if [ $have_fixture = 1 ]; then
    printf '[traffic]\nduration = 1s\n' >"$work/short.ini"
    d=$work/rerun
    "$G" run "$work/short.ini" --qemu "$QEMU" --fw "$work/ready.elf" --out "$d" >/dev/null 2>&1
    first=$( [ -s "$d/results.json" ] && echo yes )
    # 7e. (on that first run) a stored baseline that cannot be read leaves
    #     `gemlab diagnose` without a baseline, with a warning, not without
    #     a diagnosis (as `gemlab run` does); one asked for by name must be read.
    mkdir -p "$work/bl" && cp -r "$d" "$work/bl/run"
    "$G" baseline save "$work/bl/run" --dir "$work/bl/store" >/dev/null 2>&1
    blf=$(find "$work/bl/store" -name '*.json' | head -1)
    [ -n "$blf" ] && echo '{not json' >"$blf"
    bo=$(GEMLAB_BASELINE_DIR=$work/bl/store "$G" diagnose "$work/bl/run" 2>&1); brc=$?
    bo2=$("$G" diagnose "$work/bl/run" --baseline-dir "$work/bl/store" --baseline "$(basename "$blf" .json)" 2>&1); brc2=$?
    if [ -n "$blf" ] && [ $brc -eq 0 ] && [[ "$bo" == *"the stored baseline above is not used"* ]] \
       && [[ "$bo" == *"diagnosis:"* ]] && [ $brc2 -eq 2 ]; then
        ok "diagnose with an unreadable stored baseline: a warning and the diagnosis; by name: exit 2"
    else bad "diagnose with a corrupt baseline" "blf=$blf rc=$brc $bo / rc2=$brc2 $bo2"; fi
    "$G" run "$work/short.ini" --qemu "$QEMU" --fw "$work/ready.elf" --out "$d" >"$work/rerun.out" 2>&1 &
    rpid=$!
    wait_file "$d/qemu.pid"
    kill -KILL $rpid; wait $rpid 2>/dev/null
    "$G" report "$d" >"$work/rerun.report" 2>&1; rrc=$?
    "$G" baseline save "$d" --dir "$work/bl" >"$work/rerun.bl" 2>&1; brc=$?
    "$G" diagnose "$d" >"$work/rerun.dg" 2>&1; drc=$?
    if [ "$first" = yes ] && [ ! -e "$d/results.json" ] && [ -e "$d/run.in-progress" ] && [ $rrc -eq 2 ] \
       && [ $brc -eq 2 ] && [ $drc -eq 2 ] && grep -q "did not finish" "$work/rerun.report" \
       && grep -q "did not finish" "$work/rerun.dg"; then
        ok "SIGKILLed re-run: no stale results.json, run.in-progress stays, report, baseline save and diagnose refuse"
    else bad "SIGKILLed re-run" "first=$first results=$(ls "$d"/results.json 2>&1) rrc=$rrc brc=$brc drc=$drc"; fi
fi

# 8. A QEMU that exits at once (/bin/false stands in): FAIL naming the exit.
d=$work/badqemu
out=$("$G" boot --qemu /bin/false --out "$d" --hold 1 2>&1); rc=$?
left=$(leftovers "$d")
if [ $rc -eq 1 ] && [[ "$out" == *"QEMU exited with status"* ]] && [ -z "$left" ]; then
    ok "QEMU failing at start reported with its exit status"
else bad "QEMU failing at start" "rc=$rc left=[$left] $out"; fi

# 8b. A QEMU that never answers its probes (a wrapper whose child hangs):
# each probe's timeout kills its whole process group (no orphan left to
# init), and a sandbox probe with no answer is an error, never "built
# without seccomp" (which would run the binary unconfined).
printf '#!/bin/sh\nsleep 4243\n' >"$work/hangq"; chmod +x "$work/hangq"
out=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$work/hangq" --out "$work/hangq.run" 2>&1); rc=$?
orphans=$(pgrep -f "sleep 4243" || true)
if [ $rc -eq 3 ] && [[ "$out" == *"-sandbox on -version: no answer within 10 s; it is not run unconfined"* ]] \
   && [[ "$out" != *"QEMU runs unconfined"* ]] && [ -z "$orphans" ]; then
    ok "a QEMU that never answers its probes: exit 3, not run unconfined, no orphan"
else bad "hung QEMU probes" "rc=$rc orphans=[$orphans] $out"; pkill -f "sleep 4243" || true; fi

# 9. Missing QEMU / firmware name the make target that builds them.
out=$(GEMLAB_TOP=$work "$G" boot 2>&1); rc=$?
if [ $rc -eq 3 ] && [[ "$out" == *"make -C emu/qemu"* ]]; then ok "missing QEMU names make -C emu/qemu"
else bad "missing QEMU message" "rc=$rc $out"; fi
# (a copy outside the tree, run in $work: as root GEMLAB_TOP is ignored and
# the tree is found from the binary or the working directory)
cp "$G" "$work/gemlab-notree"
out=$(cd "$work" && GEMLAB_TOP=$work "$work/gemlab-notree" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$QEMU" 2>&1); rc=$?
if [ $rc -eq 3 ] && [[ "$out" == *"make -C firmware/baremetal"* ]]; then ok "missing firmware names make -C firmware/baremetal"
else bad "missing firmware message" "rc=$rc $out"; fi

# 9c. An image of the other firmware's kind is refused before anything
#     boots, naming --fw and the image the scenario's firmware needs: an
#     ELF for a Linux scenario, a zImage (magic 0x016f2818 at 0x24) for a
#     bare-metal one.  Neither needs to boot, so stand-ins do.
printf '\177ELF' >"$work/fake.elf"
head -c 36 /dev/zero >"$work/fake.zImage" && printf '\030\050\157\001' >>"$work/fake.zImage"
out=$("$G" run "$top/scenarios/advertise_100_only_linux.ini" --qemu "$QEMU" --fw "$work/fake.elf" \
      --out "$work/kind1" 2>&1); rc=$?
out2=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$QEMU" --fw "$work/fake.zImage" \
       --out "$work/kind2" 2>&1); rc2=$?
if [ $rc -eq 2 ] && [[ "$out" == *"--fw $work/fake.elf is an ELF"*"zImage"* ]] && [ ! -e "$work/kind1" ] \
   && [ $rc2 -eq 2 ] && [[ "$out2" == *"--fw $work/fake.zImage is a Linux zImage"* ]] && [ ! -e "$work/kind2" ]; then
    ok "--fw of the other firmware's kind refused (rc 2), nothing booted"
else bad "--fw of the wrong kind" "rc=$rc rc2=$rc2 $out / $out2"; fi

# 9d. An image of neither kind, or no file at all, is refused by --fw too:
#     an empty file (it used to boot and wait out the ready watchdog), a
#     host binary, a text file, a directory.  Nothing boots.
: >"$work/empty.elf"
why=""
for f in "$work/empty.elf:no ELF header" "/bin/sh:not ELFCLASS32" "/etc/hostname:no ELF header" \
         "$work:not a regular file"; do
    out=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$QEMU" --fw "${f%%:*}" --out "$work/kind3" 2>&1); rc=$?
    if [ $rc -ne 2 ] || [[ "$out" != *"--fw ${f%%:*}"*"${f#*:}"* ]] || [ -e "$work/kind3" ]; then why+=" [${f%%:*}: rc=$rc $out]"; fi
done
# one that does not exist (yet) is a missing build, exit 3: qemu-test.sh
# counts that a skip (a failure under CI=true)
out=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$QEMU" --fw "$work/nope.elf" --out "$work/kind3" 2>&1); rc=$?
if [ $rc -ne 3 ] || [[ "$out" != *"--fw $work/nope.elf: No such file"* ]]; then why+=" [nope.elf: rc=$rc $out]"; fi
out=$("$G" run "$top/scenarios/advertise_100_only_linux.ini" --qemu "$QEMU" --fw "$work/empty.elf" --out "$work/kind3" 2>&1); rc=$?
if [ $rc -ne 2 ] || [[ "$out" != *"is not an ARM zImage"* ]]; then why+=" [linux empty: rc=$rc $out]"; fi
if [ -z "$why" ]; then ok "--fw empty, host ELF, text, directory: refused (rc 2) naming why; missing: rc 3; nothing booted"
else bad "--fw that is no firmware" "$why"; fi

# 9b. As root the runner runs no code from the tree (docs/SECURITY.md R8): GEMLAB_TOP
#     is ignored (a booby-trapped emu/qemu/Makefile there is not run), our
#     QEMU must be named with --qemu, and git is not run in a tree root does
#     not own (.git/config names commands, e.g. core.fsmonitor; git's own
#     safe.directory check is switched off here through GIT_CONFIG_GLOBAL).
if [ "$(id -u)" = 0 ]; then
    trap_top=$work/trap
    mkdir -p "$trap_top/emu/qemu" "$trap_top/emu/runner"
    printf 'path:\n\t@touch %s/pwned-make; echo /bin/true\n' "$work" >"$trap_top/emu/qemu/Makefile"
    out=$(cd "$work" && GEMLAB_TOP=$trap_top "$G" boot --hold 0 2>&1); rc=$?
    if [ $rc -eq 3 ] && [ ! -e "$work/pwned-make" ] && [[ "$out" == *"--qemu"* ]]; then
        ok "root: GEMLAB_TOP ignored, no make in the tree (rc 3 asking for --qemu)"
    else bad "root runs the tree's Makefile" "rc=$rc pwned=$(ls "$work"/pwned-make 2>/dev/null) $out"; fi
    if [ $have_fixture = 1 ] && command -v git >/dev/null; then
        gt=$work/gtree
        mkdir -p "$gt/models" "$gt/emu/runner" "$gt/build/host/bin"
        cp "$G" "$gt/build/host/bin/gemlab"
        printf '#!/bin/sh\ntouch %s/pwned-git\n' "$work" >"$work/hook.sh"; chmod 755 "$work/hook.sh"
        printf '[safe]\n\tdirectory = *\n' >"$work/gitcfg"
        ( cd "$gt" && echo x >models/a && git init -q . && git add models/a &&
          git -c user.email=rb@gemlab -c user.name=rb commit -qm fixture && git config core.fsmonitor "$work/hook.sh" )
        chown -R 65534:65534 "$gt"
        printf '[traffic]\nduration = 1s\n' >"$work/short.ini"
        GIT_CONFIG_GLOBAL=$work/gitcfg "$gt/build/host/bin/gemlab" run "$work/short.ini" --qemu "$QEMU" \
            --fw "$work/ready.elf" --out "$work/provrun" --timeout 3 >"$work/provrun.out" 2>&1
        if [ -s "$work/provrun/results.json" ] && [ ! -e "$work/pwned-git" ]; then
            ok "root: no git in a tree root does not own (its core.fsmonitor not run)"
        else bad "root runs git in a foreign tree" "pwned=$(ls "$work"/pwned-git 2>/dev/null) $(tail -2 "$work/provrun.out")"; fi
    elif [ $have_fixture = 1 ]; then
        skip "root: no git in a foreign tree (9b)" "git not installed"
    fi
fi

# 10. Garbage scenarios: precise errors, never a crash.
g=$work/garbage; mkdir -p "$g"
head -c 4096 /dev/urandom >"$g/random.ini"
printf '[board]\ncpus = 99999999999999999999999999999\nrx_bds = -1\n[link]\nlatency = 1e309s\nloss = 1000%%\n' >"$g/huge.ini"
printf '[scenario]\nzz = 1\n[board]\nzz = 1\n[link]\nzz = 1\n[timeline]\nzz = 1\n[traffic]\nzz = 1\n[expect]\nzz = 1\n' >"$g/unknown.ini"
# The $(...) and `...` are the hostile text itself, never to be expanded here.
# shellcheck disable=SC2016
printf '[traffic]\nfw_cmd = $(reboot); `id` | rm -rf /\n' >"$g/shell.ini"
awk 'BEGIN { printf "[scenario]\ndescription = "; for (i = 0; i < 100000; i++) printf "x"; printf "\n" }' >"$g/longline.ini"
# a negative control that breaks a rule its scenario keeps
printf '[link]\nloss = 1%%\n[expect]\ndiag = PROTO_RETRANSMITS\n[control]\nset = link.latency 5ms\nset = link.jitter 10ms\n' >"$g/control.ini"
# bytes per second, and a loss in hex: numbers are plain decimal bits
printf '[traffic]\nprotocol = udp\nbandwidth = 100MB/s\n' >"$g/byterate.ini"
printf '[link]\nloss = 0x10\n' >"$g/hexloss.ini"
# in virtual time the in-emulator peer plays the host: what it cannot run
# (here the 2.x/3.x mismatch, a real-time case) is refused by check too
printf '[board]\nfirmware = linux\nclock = virtual\n[traffic]\ntool = iperf3\nboard_tool = iperf2\n' >"$g/vtpeer.ini"
allgood=1
for f in "$g"/random.ini "$g"/huge.ini "$g"/unknown.ini "$g"/longline.ini "$g"/control.ini "$g"/byterate.ini \
    "$g"/hexloss.ini "$g"/vtpeer.ini; do
    out=$("$G" check "$f" 2>&1); rc=$?
    if [ $rc -ne 2 ] || ! [[ "$out" == *"$f:"[0-9]* ]]; then allgood=0; bad "garbage $(basename "$f")" "rc=$rc $(echo "$out" | head -2)"; fi
done
n=$("$G" check "$g/unknown.ini" 2>&1 | grep -c "unknown key 'zz'")
[ "$n" = 6 ] || { allgood=0; bad "unknown key in every section" "$n of 6 reported"; }
# a shell-looking fw_cmd is just text: accepted, never interpreted
out=$("$G" check "$g/shell.ini" 2>&1); rc=$?
[ $rc -eq 0 ] || { allgood=0; bad "shell metacharacters are plain text" "$out"; }
out=$("$G" run "$g/huge.ini" --qemu "$QEMU" 2>&1); rc=$?
[ $rc -eq 2 ] || { allgood=0; bad "run refuses a bad scenario" "rc=$rc"; }
[ $allgood = 1 ] && ok "garbage, huge values, unknown keys in every section: file:line errors, exit 2, no crash"

# 11. Bad flags name the flag.
out=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --seed banana 2>&1); rc=$?
out2=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --bogus 1 2>&1); rc2=$?
if [ $rc -eq 2 ] && [[ "$out" == *"--seed"* ]] && [ $rc2 -eq 2 ] && [[ "$out2" == *"--bogus"* ]]; then
    ok "bad flags rejected by name"
else bad "bad flags" "$out / $out2"; fi
# a flag is matched whole, and given once
out=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --f x 2>&1); rc=$?
out2=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --seed 1 --seed 2 2>&1); rc2=$?
if [ $rc -eq 2 ] && [[ "$out" == *"unknown option '--f'"* ]] && [ $rc2 -eq 2 ] \
   && [[ "$out2" == *"--seed given twice"* ]]; then
    ok "a flag prefix is unknown; a flag twice is refused"
else bad "flag matching" "rc=$rc $out / rc=$rc2 $out2"; fi
# every command refuses a value flag twice (cmd_given_twice), before it
# touches its inputs
out=$("$G" campaign --dry-run --runs 1 --runs 2 2>&1); rc=$?
out2=$("$G" report "$work" --out "$work/r1" --out "$work/r2" 2>&1); rc2=$?
out3=$("$G" merge --out "$work/m1" --expect-shards 1 --out "$work/m2" "$work" 2>&1); rc3=$?
if [ $rc -eq 2 ] && [[ "$out" == "gemlab campaign: --runs given twice" ]] && [ $rc2 -eq 2 ] \
   && [[ "$out2" == "gemlab report: --out given twice" ]] && [ $rc3 -eq 2 ] \
   && [[ "$out3" == "gemlab merge: --out given twice" ]] && ! [ -e "$work/r1" ] && ! [ -e "$work/m1" ]; then
    ok "campaign, report and merge refuse a flag given twice"
else bad "campaign/report/merge flag twice" "rc=$rc $out / rc=$rc2 $out2 / rc=$rc3 $out3"; fi
# a baseline is named, never a path; a flag given twice is not a choice
out=$("$G" diagnose "$work" --baseline ../../etc/x 2>&1); rc=$?
out2=$("$G" diagnose "$work" --baseline a --baseline b 2>&1); rc2=$?
# a --baseline-dir that is not there was ignored: a typo read as "none stored"
out3=$("$G" diagnose "$work" --baseline-dir "$work/no-such-dir" 2>&1); rc3=$?
if [ $rc -eq 2 ] && [[ "$out" == *"--baseline '../../etc/x'"* ]] && [ $rc2 -eq 2 ] \
   && [[ "$out2" == *"--baseline given twice"* ]] && [ $rc3 -eq 2 ] \
   && [[ "$out3" == *"--baseline-dir $work/no-such-dir: No such file or directory"* ]]; then
    ok "diagnose --baseline takes a name, once; a --baseline-dir that is not there is refused"
else bad "diagnose --baseline" "rc=$rc $out / rc=$rc2 $out2 / rc=$rc3 $out3"; fi
# a value flag without its value is named as such; an empty tap NAME and
# an --out longer than a path the runner keeps are refused with a message
out=$("$G" diagnose "$work" --baseline 2>&1); rc=$?
out2=$("$G" tap up '' 2>&1); rc2=$?
long=$(printf '%0600d' 0)
out3=$("$G" boot --qemu "$QEMU" --out "$work/$long" --hold 0 2>&1); rc3=$?
if [ $rc -eq 2 ] && [[ "$out" == *"--baseline needs a value"* ]] && [ $rc2 -eq 2 ] \
   && [[ "$out2" == *"NAME must be 1..10"* ]] && [ $rc3 -eq 2 ] \
   && [[ "$out3" == *"--out: the path is longer than 511 bytes"* ]]; then
    ok "a flag without its value, an empty tap NAME and an over-long --out are refused by name"
else bad "missing value / empty NAME / long --out" "rc=$rc $out / rc=$rc2 $out2 / rc=$rc3 ${out3:0:200}"; fi
# `gemlab CMD --help` shows CMD's usage (not the others') on stdout, exit
# 0; an unknown command with --help is still an unknown command (exit 2).
out=$("$G" run --help 2>/dev/null); rc=$?
out2=$("$G" bogus --help 2>&1); rc2=$?
if [ $rc -eq 0 ] && [[ "$out" == "usage: gemlab run SCENARIO"*"--clock real|virtual"*"exit: 0 pass"* ]] \
   && [[ "$out" != *"diagnose RUN_DIR"* ]] && [ $rc2 -eq 2 ] \
   && [[ "$out2" == *"unknown command 'bogus'"* ]]; then
    ok "run --help shows run's usage (exit 0); bogus --help is an unknown command (exit 2)"
else bad "--help" "rc=$rc rc2=$rc2 ${out:0:80} / ${out2:0:80}"; fi

# 12. Tap mode: without root a clear message suggesting --net user; as root
#     up/down leaves no namespace behind.
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
    # The unprivileged user gets its own copies: the checkout may sit in a
    # directory only root can enter (a mktemp -d clone is mode 0700).
    cp "$G" "$work/gemlab-copy" && cp "$top/scenarios/clean_1g_realtime.ini" "$work/clean_1g_realtime.ini" &&
        chmod 755 "$work" "$work/gemlab-copy" && chmod 644 "$work/clean_1g_realtime.ini"
    out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$work/gemlab-copy" tap up t1 2>&1); rc=$?
    out2=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$work/gemlab-copy" run "$work/clean_1g_realtime.ini" --net tap 2>&1); rc2=$?
    chmod 700 "$work"
    if [ $rc -eq 2 ] && [[ "$out" == *"--net user"* ]] && [ $rc2 -eq 2 ] && [[ "$out2" == *"--net user"* ]]; then
        ok "tap without root: clear message suggesting --net user"
    else bad "tap without root" "rc=$rc $out / rc=$rc2 $out2"; fi
elif [ "$(id -u)" = 0 ]; then
    skip "tap without root (12)" "setpriv not installed (util-linux)"
fi
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
    name=rb$$; name=${name:0:10}
    "$G" tap up "$name" >/dev/null 2>&1; rc=$?
    inside=$(ip netns list 2>/dev/null | grep -c "gl-$name")
    "$G" tap down "$name" >/dev/null 2>&1
    after=$(ip netns list 2>/dev/null | grep -c "gl-$name")
    if [ $rc -eq 0 ] && [ "$inside" = 1 ] && [ "$after" = 0 ]; then ok "tap up/down creates and removes its private netns"
    else bad "tap up/down" "rc=$rc inside=$inside after=$after"; fi
elif [ "$(id -u)" = 0 ]; then
    skip "tap up/down, --net tap (12, 13)" "ip not installed (iproute2)"
fi

# 14b. gemlab fault restart-aneg (docs/SECURITY.md R10: it set a property the model
#      does not have, so it always failed): on our QEMU it renegotiates.
#      Stock QEMU has no link model, so this one needs ours
#      (make -C emu/qemu, or OUR_QEMU=path).
ourq=${OUR_QEMU:-$(make -s --no-print-directory -C "$top/emu/qemu" path 2>/dev/null)}
if [ -x "$ourq" ]; then
    d=$work/faultaneg
    "$G" boot --qemu "$ourq" --out "$d" --hold 4 >"$work/faultaneg.out" 2>&1 &
    rpid=$!
    for _ in $(seq 200); do grep -q "QMP up" "$work/faultaneg.out" && break; sleep 0.1; done
    o6=$("$G" fault "$d" restart-aneg 2>&1); r6=$?
    # a value of several words needs no quotes, as in a scenario's [timeline]
    o7=$("$G" fault "$d" set loss random 1% 2>&1); r7=$?
    wait $rpid
    if [ $r6 -eq 0 ] && [[ "$o6" == *"fault applied: restart-aneg"* ]] && [ $r7 -eq 0 ] && [ -z "$(leftovers "$d")" ]; then
        ok "fault restart-aneg renegotiates through an existing property; set loss random 1% (unquoted) applied"
    else bad "fault restart-aneg / set loss" "rc=$r6 $o6 / rc=$r7 $o7"; fi
    # a comma in --out, on our QEMU (it has the capture): the capture's
    # -global value is taken as it is (only QemuOpts strings double
    # commas), so QEMU starts and writes wire.pcapng there
    if [ $have_fixture = 1 ]; then
        d=$work/pipe,line
        out=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$ourq" --fw "$work/ready.elf" --out "$d" 2>&1); rc=$?
        if [ $rc -le 1 ] && [ -s "$d/results.json" ] && [ -e "$d/wire.pcapng" ] && [ -z "$(leftovers "$d")" ] \
           && grep -qF "pcap=$d/wire.pcapng" "$d/qemu.argv"; then
            ok "run with a comma in --out on our QEMU: it starts, the capture is written there (rc=$rc)"
        else bad "run with a comma in --out" "rc=$rc $(echo "$out" | tail -3) $(tail -2 "$d/qemu.log" 2>/dev/null)"; fi
    fi
else
    skip "fault restart-aneg (14b)" "our QEMU is not built (make -C emu/qemu, or OUR_QEMU=path)"
fi

# 14. gemlab fault reaches a running instance through its QMP socket, and
#     validates with the scenario tables before touching it.
d=$work/fault
"$G" boot --qemu "$QEMU" --out "$d" --hold 6 >"$work/fault.out" 2>&1 &
rpid=$!
for _ in $(seq 200); do grep -q "QMP up" "$work/fault.out" && break; sleep 0.1; done
o1=$("$G" fault "$d" link down 2>&1); r1=$?
o2=$("$G" fault "$d" set loss 150% 2>&1); r2=$?
o3=$("$G" fault "$d" set bogus 1 2>&1); r3=$?
o4=$("$G" fault "$d" flap 200ms 2>&1); r4=$?
# a second run or boot into the live run's directory is refused, and
# leaves its sockets alone
o8=$("$G" boot --qemu "$QEMU" --out "$d" --hold 1 2>&1); r8=$?
o9=$("$G" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$QEMU" --out "$d" 2>&1); r9=$?
socks=$(ls "$d"/qmp.sock "$d"/serial.sock 2>&1)
wait $rpid
if [ $r8 -eq 2 ] && [ $r9 -eq 2 ] && [[ "$o8" == *"--out $d is in use by another gemlab run"* ]] \
   && [[ "$o9" == *"is in use"* ]] && [[ "$socks" != *"No such"* ]]; then
    ok "a second boot or run into a live run's --out: refused (rc 2), its sockets left alone"
else bad "second run into a live --out" "$r8 $o8 / $r9 $o9 / $socks"; fi
if [ $r1 -eq 0 ] && [ $r4 -eq 0 ] && [ $r2 -eq 2 ] && [[ "$o2" == *loss* ]] && [ $r3 -eq 2 ] && [[ "$o3" == *bogus* ]] \
   && [ -z "$(leftovers "$d")" ]; then
    ok "fault: link down / flap applied over QMP; bad values rejected before QMP"
else bad "fault" "$r1 $o1 / $r2 $o2 / $r3 $o3 / $r4 $o4"; fi
o5=$("$G" fault "$d" link down 2>&1); r5=$?
o6=$("$G" fault "$work" link down 2>&1); r6=$?
if [ $r5 -eq 2 ] && [[ "$o5" == *"not a running gemlab run"* ]] && [ $r6 -eq 2 ] \
   && [[ "$o6" == *"$work has no fault.sock"* ]]; then ok "fault on a finished run or no run: clear message, exit 2"
else bad "fault on a finished run" "$r5 $o5 / $r6 $o6"; fi
# a fault.sock nobody listens on (a runner killed with SIGKILL leaves it):
# exit 2 naming it, not a 3 s retry reported as a timeout
mkdir -p "$work/stale"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$work/stale/fault.sock"
o7=$("$G" fault "$work/stale" link down 2>&1); r7=$?
if [ $r7 -eq 2 ] && [[ "$o7" == *"nothing listens on $work/stale/fault.sock"* ]]; then
    ok "fault on a stale fault.sock: exit 2, says the run has ended"
else bad "fault on a stale socket" "$r7 $o7"; fi
# SIGTERM during a flap's down-time: the link comes back up, the fault is
# recorded, exit 130 (it was left down for the rest of the run)
d=$work/flapsig
"$G" boot --qemu "$QEMU" --out "$d" --hold 10 >"$work/flapsig.out" 2>&1 &
rpid=$!
for _ in $(seq 200); do grep -q "QMP up" "$work/flapsig.out" && break; sleep 0.1; done
"$G" fault "$d" flap 30s >"$work/flapsig.fault" 2>&1 &
fpid=$!
# once it says the link is down (its signal handler is in place by then)
for _ in $(seq 100); do grep -q "link down for" "$work/flapsig.fault" && break; sleep 0.1; done
kill -TERM $fpid; wait $fpid; rf=$?
flog=$(cat "$d/faults.jsonl" 2>/dev/null)
wait $rpid
if [ $rf -eq 130 ] && grep -q "the link is up again" "$work/flapsig.fault" \
   && [[ "$flog" == *'"event":"flap 30s","applied":"set_link down (the flap'"'"'s up follows)"'* ]] \
   && [[ "$flog" == *'"event":"flap 30s","applied":"set_link up early (signal)"'* ]] \
   && [[ "$flog" != *error* ]]; then
    ok "SIGTERM during a fault flap: link up again, recorded, exit 130"
else bad "SIGTERM during a fault flap" "rc=$rf $(cat "$work/flapsig.fault") / $flog"; fi
# A flap that outlasts the run: its down is recorded when applied (the
# run's results list it), and the fault stops waiting when the run ends,
# saying so, instead of sleeping out its 30 s to a "connection reset".
d=$work/flaplong
"$G" boot --qemu "$QEMU" --out "$d" --hold 3 >"$work/flaplong.out" 2>&1 &
rpid=$!
for _ in $(seq 200); do grep -q "QMP up" "$work/flaplong.out" && break; sleep 0.1; done
t0=$(date +%s)
fo=$("$G" fault "$d" flap 30s 2>&1); rf=$?
took=$(( $(date +%s) - t0 ))
flog=$(cat "$d/faults.jsonl" 2>/dev/null)
wait $rpid
if [ $rf -eq 2 ] && [ "$took" -lt 15 ] && [[ "$fo" == *"the run ended during the flap"* ]] \
   && [[ "$flog" == *'"applied":"set_link down (the flap'* ]]; then
    ok "a fault flap that outlasts the run: down recorded at once, exit 2 when the run ends"
else bad "flap outlasting the run" "rc=$rf took=${took}s $fo / $flog"; fi

# 13. --net tap: the run's private netns disappears on success and on SIGINT.
if [ "$(id -u)" = 0 ] && [ $have_fixture = 1 ] && command -v ip >/dev/null; then
    before=$(netns_list)
    d=$work/tapok
    "$G" run "$top/scenarios/clean_1g_realtime.ini" --firmware baremetal --qemu "$QEMU" --fw "$work/ready.elf" \
        --net tap --out "$d" >"$work/tapok.out" 2>&1; rc=$?
    mid=$(netns_list)
    d2=$work/tapint
    "$G" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$QEMU" --fw "$work/ready.elf" --net tap --out "$d2" \
        >"$work/tapint.out" 2>&1 &
    rpid=$!
    for _ in $(seq 200); do grep -q traffic "$work/tapint.out" && break; sleep 0.1; done
    during=$(netns_list | grep -c '^gl-run')
    # docs/SECURITY.md Q5: QEMU drops root after opening the tap (-runas), and runs
    # under -sandbox; results.json names the user
    quser=$(ps -o user= -p "$(cat "$d2/qemu.pid" 2>/dev/null)" 2>/dev/null | tr -d ' ')
    kill -INT $rpid; wait $rpid; rc2=$?
    after=$(netns_list)
    if [ $rc -le 1 ] && [ "$before" = "$mid" ] && [ "$during" -ge 1 ] && [ $rc2 -eq 130 ] && [ "$before" = "$after" ] \
       && [ -z "$(leftovers "$d")$(leftovers "$d2")" ]; then
        ok "--net tap: private netns exists during the run, gone after success and after SIGINT"
    else bad "--net tap cleanup" "rc=$rc rc2=$rc2 during=$during before=[$before] after=[$after]"; fi
    ruser=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["qemu"]["user"])' "$d/results.json" 2>/dev/null)
    if [ -n "$quser" ] && [ "$quser" != root ] && [ "$ruser" = "$quser" ] && grep -qx -- -runas "$d/qemu.argv" \
       && grep -q "^on,.*spawn=deny" "$d/qemu.argv"; then
        ok "--net tap: QEMU runs as '$quser', not root (-runas, -sandbox; results.json qemu.user)"
    else bad "--net tap: QEMU as root" "ps user=[$quser] results.json qemu.user=[$ruser]"; fi
    # 13b. QEMU 10.0 has no -runas (removed after 9.1 added -run-with user=):
    #      on our QEMU the run drops root with -run-with user= instead.
    if [ -x "$ourq" ]; then
        d3=$work/tap10
        "$G" run "$top/scenarios/clean_1g_realtime.ini" --firmware baremetal --qemu "$ourq" --fw "$work/ready.elf" \
            --net tap --out "$d3" >"$work/tap10.out" 2>&1; rc3=$?
        ruser3=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["qemu"]["user"])' "$d3/results.json" 2>/dev/null)
        if [ $rc3 -le 1 ] && [ -n "$ruser3" ] && [ "$ruser3" != root ] && grep -qx -- -run-with "$d3/qemu.argv" \
           && grep -qx -- "user=$ruser3" "$d3/qemu.argv" && ! grep -qx -- -runas "$d3/qemu.argv" \
           && [ -z "$(leftovers "$d3")" ]; then
            ok "--net tap on QEMU 10.0: -run-with user=$ruser3, not the removed -runas"
        else bad "--net tap on QEMU 10.0" "rc=$rc3 user=[$ruser3] $(tail -3 "$work/tap10.out")"; fi
    else
        bad "--net tap on QEMU 10.0 (13b)" "our QEMU is not built (make -C emu/qemu, or OUR_QEMU=path)"
    fi
fi

# 19. A guest console that is not text (docs/SECURITY.md R7): a firmware printing an
#     OSC set-title sequence, BEL and 0xff (fixtures/uart_fixture.S
#     -DHOSTILE, also inside a stats line) and never becoming ready.  Its
#     run's terminal output has no ESC/BEL, results.json (console_tail,
#     firmware_stats) is strict UTF-8 JSON, the JUnit of qemu-test.sh and
#     of gemlab merge over it are well-formed XML 1.0 (xmllint).
if [ $have_fixture = 1 ]; then
    r7=$work/r7
    mkdir -p "$r7"
    if ! command -v xmllint >/dev/null; then
        bad "guest control characters" "xmllint missing (apt-get install libxml2-utils; scripts/deps/report.list)"
    elif ! arm-none-eabi-gcc -DHOSTILE -nostdlib -Ttext=0x100000 -o "$work/hostile.elf" "$here/fixtures/uart_fixture.S"; then
        bad "guest control characters" "cannot build the -DHOSTILE fixture"
    else
        "$G" run "$top/scenarios/clean_1g_realtime.ini" --qemu "$QEMU" --fw "$work/hostile.elf" --out "$r7/run" --timeout 6 \
            >"$r7/run.out" 2>&1; rc=$?
        OUT=$r7/qt JUNIT=$r7/junit.xml REPORT=0 QEMU=$QEMU FW=$work/hostile.elf TIMEOUT=6 GEMLAB=$G \
            "$here/qemu-test.sh" clean_1g_realtime >"$r7/qt.out" 2>&1; rc2=$?
        "$G" merge --out "$r7/merged" "$r7/junit.xml" >"$r7/merge.out" 2>&1
        why=""
        [ $rc -eq 1 ] || why="$why run-rc=$rc"
        grep -q "hostile console" "$r7/run.out" || why="$why no-console-tail"
        LC_ALL=C grep -q $'[\x07\x1b]' "$r7/run.out" && why="$why ESC/BEL-on-the-terminal"
        grep -qF '^[]0;x^G' "$r7/run.out" || why="$why tail-not-shown-cleaned"
        for j in "$r7/run/results.json" "$r7/qt/clean_1g_realtime-baremetal/results.json"; do
            python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); assert "^[]0;x^G\ufffd" in d["console_tail"]; assert d["firmware_stats"]["esc"] == "^[[2J^G"' "$j" \
                2>"$r7/json.err" || why="$why json($j: $(tail -1 "$r7/json.err"))"
        done
        [ $rc2 -eq 1 ] && grep -q "<failure" "$r7/junit.xml" || why="$why qemu-test-rc=$rc2"
        xmllint --noout "$r7/junit.xml" 2>"$r7/xml.err" || why="$why junit($(head -1 "$r7/xml.err"))"
        xmllint --noout "$r7/merged/junit.xml" 2>"$r7/xml.err" || why="$why merged-junit($(head -1 "$r7/xml.err"))"
        grep -qF '^[]0;x^G' "$r7/merged/junit.xml" || why="$why merged-junit-lacks-the-tail"
        if [ -z "$why$(leftovers "$r7/run")" ]; then
            ok "guest ESC/BEL/0xff: clean on the terminal, strict JSON in results.json, JUnit (qemu-test, merge) passes xmllint"
        else bad "guest control characters" "$why $(leftovers "$r7/run")"; fi
    fi
fi

# 20. Commas in paths (docs/SECURITY.md R9): an --out with a comma (and a would-be
#     QemuOpts key) still boots with QMP and the console on the sockets in
#     it; a scenario whose file name is no valid name is refused, exit 2.
d="$work/comma,server=off"
out=$("$G" boot --qemu "$QEMU" --out "$d" --hold 1 2>&1); rc=$?
left=$(leftovers "$d")
printf '[traffic]\nduration = 2s\n' >"$work/bad,name.ini"
out2=$("$G" run "$work/bad,name.ini" --qemu "$QEMU" 2>&1); rc2=$?
if [ $rc -eq 0 ] && [[ "$out" == *"QMP up"* ]] && grep -qF "unix:$work/comma,,server=off/qmp.sock,server=on" "$d/qemu.argv" \
   && [ -z "$left" ] && [ $rc2 -eq 2 ] && [[ "$out2" == *"bad,name.ini"*"file name"* ]]; then
    ok "comma in --out doubled for QEMU's options; a file name that is no scenario name refused"
else bad "commas in paths" "rc=$rc rc2=$rc2 left=[$left] $(echo "$out" | tail -2) / $(echo "$out2" | tail -1)"; fi

# 15. Shards (issue 9): for several N the slices cover every scenario once.
all=$(LIST=1 "$here/qemu-test.sh" | sort)
shard_ok=1
for n in 1 2 3 5 8; do
    u=$(for k in $(seq "$n"); do LIST=1 SHARD=$k/$n "$here/qemu-test.sh"; done | sort)
    [ "$u" = "$all" ] || shard_ok=0
done
out=$(SHARD=3/2 "$here/qemu-test.sh" 2>&1); rc=$?
if [ $shard_ok = 1 ] && [ -n "$all" ] && [ $rc -eq 2 ]; then ok "SHARD=k/N slices are disjoint and cover all $(echo "$all" | wc -l) scenarios"
else bad "shards" "shard_ok=$shard_ok rc=$rc"; fi
# a slice that holds nothing, and a scenario name that is a typo, run
# nothing: each is an error, never "0 passed, 0 failed" and exit 0
if [ -n "$(LIST=1 SHARD=1/2 "$here/qemu-test.sh" clean_1g 2>/dev/null)" ]; then other=2; else other=1; fi
out=$(SHARD=$other/2 "$here/qemu-test.sh" clean_1g 2>&1); rc=$?
out2=$(SHARD=1/2 "$here/qemu-test.sh" clean_1g no_such_scenario 2>&1); rc2=$?
if [ $rc -eq 1 ] && [[ "$out" == *"shard $other/2 holds none of the 1 scenario(s)"* ]] && [ $rc2 -eq 2 ] \
   && [[ "$out2" == *"no scenario "*"/scenarios/no_such_scenario.ini"* ]]; then
    ok "an empty shard slice and a mistyped scenario name fail, naming why"
else bad "empty slice / typo" "rc=$rc $out / rc=$rc2 $out2"; fi

# 16. --net pair: both boards' QEMUs (RUN_DIR and RUN_DIR/peer) are gone
#     after SIGINT to the runner and after the peer's QEMU is SIGKILLed.
if [ $have_fixture = 1 ]; then
    printf '[board]\npeer = baremetal\n[traffic]\nduration = 2s\n' >"$work/pair.ini"
    d=$work/pairint
    "$G" run "$work/pair.ini" --qemu "$QEMU" --fw "$work/ready.elf" --out "$d" >"$work/pairint.out" 2>&1 &
    rpid=$!
    wait_file "$d/peer/qemu.pid"; sleep 0.5
    q1=$(cat "$d/qemu.pid" 2>/dev/null); q2=$(cat "$d/peer/qemu.pid" 2>/dev/null)
    kill -INT $rpid; wait $rpid; rc=$?
    alive=""
    for q in $q1 $q2; do kill -0 "$q" 2>/dev/null && alive="$alive $q"; done
    left=$(leftovers "$d")$(leftovers "$d/peer")
    d2=$work/pairkill
    "$G" run "$work/pair.ini" --qemu "$QEMU" --fw "$work/ready.elf" --out "$d2" >"$work/pairkill.out" 2>&1 &
    rpid=$!
    wait_file "$d2/peer/qemu.pid"
    for _ in $(seq 200); do grep -q ready "$d2/peer/console.log" 2>/dev/null && break; sleep 0.1; done
    q3=$(cat "$d2/qemu.pid" 2>/dev/null)
    kill -KILL "$(cat "$d2/peer/qemu.pid")"
    wait $rpid; rc2=$?
    kill -0 "$q3" 2>/dev/null && alive="$alive $q3"
    left2=$(leftovers "$d2")$(leftovers "$d2/peer")
    if [ $rc -eq 130 ] && [ -n "$q1" ] && [ -n "$q2" ] && [ $rc2 -eq 1 ] && grep -q "peer QEMU killed by signal 9" "$work/pairkill.out" \
       && grep -q "stream,.*server=off" "$d/peer/qemu.argv" && [ -z "$alive$left$left2" ]; then
        ok "--net pair: both QEMUs gone after SIGINT and after the peer is SIGKILLed"
    else bad "--net pair cleanup" "rc=$rc rc2=$rc2 q=[$q1 $q2 $q3] alive=[$alive] left=[$left$left2] $(tail -2 "$work/pairkill.out")"; fi
fi

# 17. qemu-test.sh JOBS=2: two virtual-time runs go at once, and a
#     TERMed matrix TERMs its gemlab runs, which stop their QEMUs (exit
#     130, no process or socket left in its OUT dir).  Against the fixture
#     a virtual-time run lasts about 5 s of wall time; it needs our QEMU.
if [ $have_fixture = 1 ] && [ ! -x "$ourq" ]; then
    skip "tests 17, 17b" "virtual time needs our QEMU: not built (make -C emu/qemu, or OUR_QEMU=path)"
elif [ $have_fixture = 1 ]; then
    qt=$work/qt
    OUT=$qt JUNIT=$work/qt.xml JOBS=2 REPORT=0 QEMU=$ourq FW=$work/ready.elf GEMLAB=$G \
        "$here/qemu-test.sh" clean_1g clean_1g_udp >"$work/qt.out" 2>&1 &
    rpid=$!
    for _ in $(seq 200); do [ "$(nfiles "$qt"/*/qemu.pid)" -ge 2 ] && break; sleep 0.05; done
    running=$(nfiles "$qt"/*/qemu.pid)
    kill -TERM $rpid; wait $rpid; rc=$?
    sleep 0.2
    left=""
    for d in "$qt"/*/; do left="$left$(leftovers "${d%/}")"; done
    if [ $rc -eq 130 ] && [ "$running" -eq 2 ] && [ -z "$left" ] && ! pgrep -f -- "$qt" >/dev/null; then
        ok "qemu-test.sh JOBS=2: 2 virtual-time runs at once, TERM stops both, nothing left"
    else bad "qemu-test.sh JOBS=2 TERM" "rc=$rc running=$running left=[$left] $(tail -2 "$work/qt.out")"; fi

# 17b. ... but a real-time run (it measures the host too) starts only when
#     the runs before it have ended, and nothing starts beside it: the
#     virtual-time clean_1g has its results.json before the real-time
#     run's QEMU exists, and no two QEMUs are seen at once.
    qt=$work/qt2
    OUT=$qt JUNIT=$work/qt2.xml JOBS=2 REPORT=0 QEMU=$ourq FW=$work/ready.elf GEMLAB=$G \
        "$here/qemu-test.sh" clean_1g clean_1g_realtime clean_1g_udp >"$work/qt2.out" 2>&1 &
    rpid=$!
    most=0 first_done=""
    for _ in $(seq 600); do
        n=$(nfiles "$qt"/*/qemu.pid)
        [ "$n" -gt "$most" ] && most=$n
        if [ -e "$qt/clean_1g_realtime-baremetal/qemu.pid" ]; then
            [ -f "$qt/clean_1g-baremetal/results.json" ] && first_done=yes
            break
        fi
        sleep 0.05
    done
    # the real-time run waits on the host's iperf for seconds: watch 2 s of it
    for _ in $(seq 40); do
        n=$(nfiles "$qt"/*/qemu.pid); [ "$n" -gt "$most" ] && most=$n
        sleep 0.05
    done
    kill -TERM $rpid; wait $rpid; rc=$?
    sleep 0.2
    left=""
    for d in "$qt"/*/; do left="$left$(leftovers "${d%/}")"; done
    if [ $rc -eq 130 ] && [ "$most" -eq 1 ] && [ "$first_done" = yes ] && [ -z "$left" ] &&
        ! pgrep -f -- "$qt" >/dev/null; then
        ok "qemu-test.sh JOBS=2: a real-time run starts after the one before ends, and runs alone"
    else bad "qemu-test.sh JOBS=2 real-time alone" \
        "rc=$rc most_at_once=$most first_done_before=[$first_done] left=[$left] $(tail -2 "$work/qt2.out")"; fi
fi

# 18. A full disk (a 64 KiB tmpfs filled during the run): the run exits
#     non-zero naming ENOSPC, never PASS, and leaves no partial
#     results.json or temporary (docs/SECURITY.md D1).
#     16 fw_cmd lines make results.json larger than the one page the
#     run frees when it stops (qemu.pid), so its write must fail.
if [ "$(id -u)" = 0 ] && [ $have_fixture = 1 ] && mkdir -p "$work/tiny" \
   && mount -t tmpfs -o size=64k,mode=0700 tmpfs "$work/tiny" 2>/dev/null; then
    { printf '[traffic]\nduration = 1s\n'
      for i in $(seq 16); do printf 'fw_cmd = echo %0110d\n' "$i"; done; } >"$work/big.ini"
    d=$work/tiny/run
    "$G" run "$work/big.ini" --qemu "$QEMU" --fw "$work/ready.elf" --out "$d" >"$work/enospc.out" 2>&1 &
    rpid=$!
    wait_file "$d/qemu.pid"
    dd if=/dev/zero of="$work/tiny/fill" bs=4k >/dev/null 2>&1
    wait $rpid; rc=$?
    left=$(cd "$d" && for p in 'results.json*' 'diagnosis.json*' '.results*' '.diagnosis*'; do
               compgen -G "$p"; done | tr '\n' ' ')
    if [ $rc -ne 0 ] && [ -z "$left" ] && grep -q "No space left on device" "$work/enospc.out" \
       && ! grep -q "^PASS" "$work/enospc.out" && [ -e "$d/run.in-progress" ]; then
        ok "full disk: exit $rc, ENOSPC named, no partial results.json, run.in-progress stays"
    else bad "full disk" "rc=$rc left=[$left] $(tail -3 "$work/enospc.out")"; fi
    umount "$work/tiny"
elif [ "$(id -u)" = 0 ] && [ $have_fixture = 1 ]; then
    skip "full disk (18)" "cannot mount a 64 KiB tmpfs at $work/tiny"
fi

# Nothing of ours survives: no process naming the work dir, same netns list.
sleep 0.2
ns_after=$(netns_list)
n=$(qemu_count)
if [ "${n:-0}" = 0 ] && [ "$ns_before" = "$ns_after" ]; then ok "global: no QEMU left, netns list unchanged"
else bad "global leftovers" "processes=$n netns before=[$ns_before] after=[$ns_after]"; fi

summary runner
