#!/usr/bin/env bash
# tests/qemu/linux/boot.sh - boot the gemlab Linux image on xilinx-zynq-a9
# and check kernel, network, iperf3/iperf and the guest agent end to end.
#
# Why this stays shell (issue 21): it is a sequence of host tools (iperf3,
# iperf, ip netns, dumpimage, sha256sum, cmp) around one console FIFO, and
# every piece of logic that is not a tool call lives in Python already:
# gemlab_json.py, on the shared test library tests/lib/gemlab_test (its
# QMP client, console line parser, free port, iperf3 parser).  Its 64
# checks over 4 Linux boots are due to move to a pytest module on
# gemlab_test.board (the bare-metal suites show the shape); until then
# this file has no Python of its own.
#
#   LINUX_OUT=build/linux tests/qemu/linux/boot.sh [--case CASE]
#
# CASE (default all): main (slirp boot: kernel, SMP, link, iperf3/iperf,
# agent, IRQ affinity, carrier edges, FCS counters), partner100 (a partner
# that offers only 100 Mb/s), tap (a tap in a private netns), fit (image.ub:
# `dumpimage -l` types, load address, compression, hashes, then a boot from
# the kernel, board DTB and ramdisk extracted from it), or all.
#
# Two kinds of QEMU:
#   stock  Debian's /usr/bin/qemu-system-arm (or STOCK=1): -M xilinx-zynq-a9
#          -smp 1, its PHY says 100Mbps/Full and the kernel prints a bogus
#          downshift warning (noted, not failed); partner100 and the FCS
#          check need properties it lacks and are skipped.
#   ours   anything else (make -s -C emu/qemu path): -M xilinx-zynq-a9,
#          flash=off -smp 2.  Both CPUs must come up (kernel and agent),
#          the link is 1Gbps/Full with the 88E1116R model and no downshift
#          warning, the GEM IRQ follows smp_affinity to CPU1, a 100-only
#          partner gives 100Mbps/Full, and with rx-corrupt-pct the agent's
#          rx_frame_check_sequence_errors equals the model's stat-rx-fcs-drops.
#
# Environment:
#   QEMU=path         qemu-system-arm to use (default: Debian's, on PATH)
#   STOCK=0|1         force the kind (default: 1 iff QEMU is /usr/bin/...)
#   LINUX_OUT=dir     zImage, *-qemu.dtb, initramfs.cpio.gz (default build/linux)
#   BOARD=zc702|zc706 which DTB (default zc702)
#   EXPECT_LINK=...   the "Link is Up - X" text to require.  Default
#                     "1Gbps/Full" (the scenario's 1G partner); with Debian's
#                     stock QEMU "100Mbps/Full", because its PHY register 17
#                     says 100 Mb/s whatever regs 9/10 resolve (docs/FACTS.md).
#   BOOT_TIMEOUT=s    seconds to the ready marker (default 90)
#   IPERF_TIME=s      seconds per iperf run (default 3)
#   NETNS=0|1|auto    also boot over a tap in a private netns (auto: if root)
#   UDP_RATE=10M      iperf3 -u -b rate for the UDP check
#   CORRUPT_PCT=2     rx-corrupt-pct (netdev->GEM) during the FCS check
#
# Network: slirp only, host side bound to 127.0.0.1 on a free port; the tap
# phase lives entirely inside a netns this script creates and removes.
# QEMU is always killed (trap EXIT INT TERM).
# A case this host cannot run (tap without root, partner100 and the FCS
# check on stock QEMU) is a "skip", counted apart; under CI=true it is a
# failure (issue 20: a skip is not a pass).  Last line:
#   linux-boot: N passed, M failed[, K skipped] (T s)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=$(cd "${LINUX_OUT:-$top/build/linux}" 2>/dev/null && pwd) || { echo "linux-boot: no LINUX_OUT" >&2; exit 2; }
CASE=all
while [ $# -gt 0 ]; do
    case "$1" in
    --case) CASE=${2:-}; shift 2 || true ;;
    --case=*) CASE=${1#--case=}; shift ;;
    *) echo "usage: boot.sh [--case all|main|partner100|tap|fit]" >&2; exit 2 ;;
    esac
done
case "$CASE" in all|main|partner100|tap|fit) ;; *) echo "linux-boot: unknown case '$CASE'" >&2; exit 2 ;; esac
want() { [ "$CASE" = all ] || [ "$CASE" = "$1" ]; }
QEMU=${QEMU:-qemu-system-arm}
BOARD=${BOARD:-zc702}
if [ -z "${STOCK:-}" ]; then
    [ "$(command -v "$QEMU")" = /usr/bin/qemu-system-arm ] && STOCK=1 || STOCK=0
fi
if [ "$STOCK" = 1 ]; then
    MACHINE=xilinx-zynq-a9 SMP=1 PHY_DRIVER="Marvell 88E1111"
    : "${EXPECT_LINK:=100Mbps/Full}"  # stock PHY model: reg 17 says 100
else
    MACHINE=xilinx-zynq-a9,flash=off SMP=2 PHY_DRIVER="Marvell 88E1116R"
    : "${EXPECT_LINK:=1Gbps/Full}"
fi
CORRUPT_PCT=${CORRUPT_PCT:-2}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-90}
IPERF_TIME=${IPERF_TIME:-3}
# 10M: at 50M the 1-vCPU guest sometimes never answers the end-of-test
# exchange over slirp (the client then times out).
UDP_RATE=${UDP_RATE:-10M}
NETNS=${NETNS:-auto}
py=/usr/bin/python3
# gj ARGS...: tests/qemu/linux/gemlab_json.py (agent lines, JSON fields, QMP).
gj() { "$py" "$here/gemlab_json.py" "$@"; }

pass=0 fail=0 skipped=0
ok()  { pass=$((pass + 1)); echo "  ok    $*"; }
bad() { fail=$((fail + 1)); echo "  FAIL  $*"; }
# skip WHAT: a check this host or QEMU cannot run
skip() {
    if [ "${CI:-}" = true ]; then bad "$* (skipped under CI=true, and a skip is not a pass)"
    else skipped=$((skipped + 1)); echo "  skip  $*"; fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/gemlab-linux-boot.XXXXXX")
logdir=$out/boot-test
rm -rf "$logdir"; mkdir -p "$logdir"
qpid="" rpid="" hpids="" ns="" qextra=()
cleanup() {
    local p
    for p in $qpid $rpid $hpids; do kill "$p" 2>/dev/null; done
    for p in $qpid $rpid $hpids; do wait "$p" 2>/dev/null; done
    [ -n "$ns" ] && ip netns del "$ns" 2>/dev/null
    cp -f "$work"/*.log "$work"/*.json "$logdir/" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
trap 'echo "linux-boot: interrupted"; exit 130' INT TERM
t_script=$(date +%s)

for f in zImage "zynq-$BOARD-qemu.dtb" initramfs.cpio.gz; do
    [ -s "$out/$f" ] || { echo "linux-boot: missing $out/$f (make -C firmware/linux)"; echo "linux-boot: 0 passed, 1 failed"; exit 1; }
done

# A port free for both TCP and UDP on 127.0.0.1 (the test library's).
free_port() { gj free-port; }

# --- QEMU control -----------------------------------------------------------
# boot NAME NETDEV_OPTS CMDLINE_EXTRA [PREFIX...]: start QEMU with the console
# (UART1, ttyPS0) on a pipe chardev; the console log is $work/NAME.log.
# Extra QEMU arguments (e.g. -global ...) come from the array qextra; the
# images from k_img, k_dtb and k_initrd (default: the build's files).
k_img=$out/zImage k_dtb=$out/zynq-$BOARD-qemu.dtb k_initrd=$out/initramfs.cpio.gz
boot() {
    local name=$1 netdev=$2 extra=$3; shift 3
    con=$work/$name-con log=$work/$name.log qmp_sock=$work/$name-qmp.sock
    mkfifo "$con.in" "$con.out"
    : > "$log"
    t_start=$(date +%s.%N)
    "$@" "$QEMU" -M "$MACHINE" -smp "$SMP" -m 512M -display none -monitor none \
        -kernel "$k_img" -dtb "$k_dtb" -initrd "$k_initrd" \
        -append "console=ttyPS0,115200 earlycon $extra" \
        -serial null -chardev pipe,id=con,path="$con" -serial chardev:con \
        -netdev "$netdev" -net nic,netdev=n0 \
        -qmp "unix:$qmp_sock,server=on,wait=off" ${qextra[@]+"${qextra[@]}"} \
        > "$work/$name-qemu.log" 2>&1 &
    qpid=$!
    cat "$con.out" >> "$log" &
    rpid=$!
    exec 7<>"$con.in"
}
stop_qemu() {
    exec 7>&- 2>/dev/null
    kill $qpid 2>/dev/null; wait $qpid 2>/dev/null
    kill $rpid 2>/dev/null; wait $rpid 2>/dev/null
    qpid="" rpid=""
}
# wait_for REGEX TIMEOUT: until the console log matches; on timeout the
# watchdog prints the last 40 console lines.
wait_for() {
    local deadline=$(( $(date +%s) + $2 ))
    while ! grep -aqE "$1" "$log"; do
        if [ "$(date +%s)" -ge "$deadline" ] || ! kill -0 "$qpid" 2>/dev/null; then
            echo "  watchdog: no /$1/ within $2 s; last 40 console lines:"
            tail -n 40 "$log" | sed 's/^/    | /'
            [ -s "$work/$name-qemu.log" ] && sed 's/^/    qemu: /' "$work/$name-qemu.log" | tail -5
            return 1
        fi
        sleep 0.1
    done
}
# agent CMD TYPE TIMEOUT FILE: send one command, store the first @gemlab line
# of TYPE (or an error line) that follows it in FILE.
agent() {
    local from deadline
    from=$(( $(wc -l < "$log") + 1 ))
    printf '%s\n' "$1" >&7
    deadline=$(( $(date +%s) + $3 ))
    while :; do
        if gj line "$log" "$2" "$from" > "$4" 2>/dev/null; then return 0; fi
        if [ "$2" != error ] && gj line "$log" error "$from" > "$4" 2>/dev/null; then return 1; fi
        [ "$(date +%s)" -lt "$deadline" ] || { echo "  (no $2 line for '$1' within $3 s)"; tail -n 5 "$log" | sed 's/^/    | /'; return 1; }
        sleep 0.2
    done
}
# qmp CMD [ARGS_JSON]: one QMP command on the running QEMU; prints "return".
qmp() { gj qmp "$qmp_sock" "$@"; }
# qmp_set_link UP(true|false): QMP set_link on the GEM's netdev.
qmp_set_link() { qmp set_link "{\"name\": \"n0\", \"up\": $1}" > /dev/null && echo "set_link up=$1"; }
# qom_get PROP / qom_set PROP JSON_VALUE: a property of /machine/gem0.
qom_get() { qmp qom-get "{\"path\": \"/machine/gem0\", \"property\": \"$1\"}"; }
qom_set() { qmp qom-set "{\"path\": \"/machine/gem0\", \"property\": \"$1\", \"value\": $2}" > /dev/null; }
# qom_is PROP VALUE: the raw QMP answer for PROP of /machine/gem0 is VALUE.
qom_is() {
    local v
    v=$(gj qmp "$qmp_sock" qom-get "{\"path\":\"/machine/gem0\",\"property\":\"$1\"}")
    echo "$1=$v"; [ "$v" = "$2" ]
}
# p100_partner_no_1000: the agent's link answer lists no 1000baseT partner mode.
p100_partner_no_1000() { gj get "$work/p100-link.json" partner | grep -v 1000baseT; }
# fit_model_is_board: the fit boot's ready line names BOARD in its model.
fit_model_is_board() {
    local m
    m=$(gj get "$work/fit-ready.json" model); echo "model $m"
    case "$m" in *"${BOARD^^}"*) ;; *) return 1 ;; esac
}
# wait_link_event UP(true|false) FROM_LINE: an agent link line with that state.
wait_link_event() {
    local deadline=$(( $(date +%s) + 10 ))
    while [ "$(date +%s)" -lt "$deadline" ]; do
        if tail -n +"$2" "$log" | grep -a '@gemlab ' | grep -a '"type":"link"' \
            | grep -a '"reason":"change"' | grep -aq "\"up\":$1"; then
            echo "agent reported up=$1"; return 0
        fi
        sleep 0.2
    done
    echo "no link change event with up=$1 within 10 s"; return 1
}

expect() { # DESCRIPTION COMMAND...: pass if the command succeeds, show its output
    local what=$1 res; shift
    if res=$("$@" 2>&1); then ok "$what: $res"; else bad "$what: $res"; fi
}

# guest_iperf3_idle: wait (up to 30 s) until the guest's iperf3 server on
# 5201 listens and holds no connection of the previous test (agent tcp-port).
# iperf3 3.12's server runs one test at a time and closes and re-creates its
# listener after each; the host client exits as soon as it has sent
# IPERF_DONE, before the starved guest has read it.  A client started in
# that gap is refused "the server is busy" (old test not finished) or, with
# no listener, slirp has already accepted it on the host and then drops it
# on the guest's RST: "control socket has closed unexpectedly" / "unable to
# receive control message: Connection reset by peer".  Prints the waits.
guest_iperf3_idle() {
    local deadline=$(( $(date +%s) + 30 )) n=0
    while :; do
        n=$((n + 1))
        agent "tcp-port 5201" result 10 "$work/tcp-port.json" || { echo "agent tcp-port 5201 gave no answer"; return 1; }
        [ "$(gj get "$work/tcp-port.json" idle)" = true ] && { [ $n -gt 1 ] && echo "guest server idle after $n polls"; return 0; }
        [ "$(date +%s)" -lt "$deadline" ] || { echo "guest iperf3 server not idle within 30 s: $(cat "$work/tcp-port.json")"; return 1; }
        sleep 0.2
    done
}

# host_iperf3 NAME ARGS...: host client against the guest server; prints Mb/s.
# Starts only once the guest server is idle (guest_iperf3_idle); a failure
# shows the guest's sockets on 5201 right after it.
host_iperf3() {
    local name=$1 rc waited; shift
    waited=$(guest_iperf3_idle) || { echo "$waited"; return 1; }
    [ -n "$waited" ] && echo "  (iperf3 $name: $waited)" >&2
    timeout $((IPERF_TIME + 30)) "$@" -J > "$work/$name.json" 2>"$work/$name.err"; rc=$?
    if [ $rc -eq 0 ]; then
        gj iperf3 "$work/$name.json" && return 0
    else
        echo "iperf3 failed (exit $rc): $(head -c 300 "$work/$name.json") $(cat "$work/$name.err")"
    fi
    agent "tcp-port 5201" result 10 "$work/$name-tcp-port.json" \
        && echo "guest after the failure: $(cat "$work/$name-tcp-port.json")"
    return 1
}

# boot_ready NAME: wait for the agent's ready line, check it and the start
# link event; return 1 (after counting a failure) if the guest never got there.
boot_ready() {
    if wait_for '@gemlab \{"v":1,"src":"linux","type":"ready"' "$BOOT_TIMEOUT"; then
        boot_s=$(echo "$(date +%s.%N) - $t_start" | bc)
        ok "$1: boot to ready marker in ${boot_s} s (host wall clock)"
        echo "$1 boot_s $boot_s" >> "$work/boot-time.log"
    else
        bad "$1: boot to ready marker"
        return 1
    fi
    gj line "$log" ready > "$work/$1-ready.json"
    expect "$1: ready event" gj check ready "$work/$1-ready.json"
    gj line "$log" link > "$work/$1-link-start.json"
    expect "$1: link event at start" gj check link "$work/$1-link-start.json"
}
# kernel_link NAME EXPECTED: the kernel's "Link is Up - X" line, the PHY
# driver, and (ours) no downshift warning.
kernel_link() {
    local seen
    seen=$(grep -aoE 'macb [^ ]+ eth0: Link is Up - [^ ]+' "$log" | head -1 | sed 's/.*Link is Up - //')
    if [ "$seen" = "$2" ]; then ok "$1: kernel 'Link is Up - $seen'"
    else bad "$1: kernel link line: expected '$2', saw '${seen:-nothing}'"; fi
    if grep -aq "driver \[$PHY_DRIVER\]" "$log"; then ok "$1: PHY bound by the $PHY_DRIVER driver"
    else bad "$1: no 'driver [$PHY_DRIVER]' in the kernel log"; fi
    if grep -aqi 'downshift' "$log"; then
        if [ "$STOCK" = 1 ]; then echo "  note  $1: kernel printed a downshift warning (stock PHY model quirk)"
        else bad "$1: kernel printed a downshift warning: $(grep -ai downshift "$log" | head -1)"; fi
    elif [ "$STOCK" = 0 ]; then
        ok "$1: no downshift warning in the kernel log"
    fi
}
# json_eq FILE PATH VALUE: a JSON field equals VALUE.
json_eq() {
    local v
    v=$(gj get "$1" "$2") || { echo "$v"; return 1; }
    if [ "$v" = "$3" ]; then echo "$2 = $v"; else echo "$2 = $v, expected $3"; return 1; fi
}
# ncpus_in_irqs FILE N: every GEM IRQ in an agent stats line has N per-CPU counts.
ncpus_in_irqs() { gj irq-columns "$1" "$2"; }
# irq_moved BEFORE AFTER: the GEM IRQs with affinity 2 counted only on CPU1.
irq_moved() { gj irq-moved "$1" "$2"; }

# clock_mark FILE: an agent 'link' answer plus the host time (ms) half-way
# between sending the command and seeing the answer; prints "HOST_MS T_MS".
clock_mark() {
    local h0 h1
    h0=$(date +%s%3N)
    agent link link 10 "$1" || return 1
    h1=$(date +%s%3N)
    echo "$(( (h0 + h1) / 2 )) $(gj get "$1" t_ms)"
}
# clock_ratio "H0 G0" "H1 G1": guest time must track host time within 5 %
# (QEMU's timers count at fixed rates; the QEMU DTB's fixed clocks must match).
clock_ratio() {
    local h0 g0 h1 g1
    read -r h0 g0 <<<"$1"
    read -r h1 g1 <<<"$2"
    awk -v h=$(( h1 - h0 )) -v g=$(( g1 - g0 )) 'BEGIN {
        r = g / h; printf "guest %d ms over host %d ms (ratio %.3f)\n", g, h, r
        exit !(r > 0.95 && r < 1.05) }'
}

# --- case main: slirp -------------------------------------------------------
echo "linux-boot: QEMU=$QEMU ($([ "$STOCK" = 1 ] && echo stock || echo ours): -M $MACHINE -smp $SMP) board=$BOARD case=$CASE out=$out"
if want main; then
port=$(free_port); hport=$(free_port); h2port=$(free_port)
qextra=()
boot slirp "user,id=n0,hostfwd=tcp:127.0.0.1:$port-:5201,hostfwd=udp:127.0.0.1:$port-:5201" \
    "gemlab.ip=10.0.2.15/24 gemlab.gw=10.0.2.2"
if ! boot_ready slirp; then
    echo "linux-boot: $pass passed, $fail failed"
    exit 1
fi
kernel_link slirp "$EXPECT_LINK"
want_cpus="$SMP CPU"; [ "$SMP" -gt 1 ] && want_cpus="${want_cpus}s"
if grep -aq "smp: Brought up 1 node, $want_cpus\$" <(tr -d '\r' < "$log"); then
    ok "kernel 'smp: Brought up 1 node, $want_cpus'"
else
    bad "kernel did not bring up $want_cpus: $(grep -a 'smp: Brought up' "$log" | tr -d '\r' | head -1)"
fi
expect "agent ready reports $SMP CPU(s)" json_eq "$work/slirp-ready.json" cpus "$SMP"

# Host -> guest, guest -> host (-R), 4 streams, UDP: guest iperf3 -s from /init.
mark0=$(clock_mark "$work/clock0.json") || bad "agent link (clock mark)"
for t in "p1 -P 1" "p4 -P 4" "p1R -P 1 -R" "p4R -P 4 -R"; do
    read -r name args <<<"$t"
    read -ra args <<<"$args"
    expect "iperf3 ${args[*]} over slirp" host_iperf3 "slirp-$name" iperf3 -c 127.0.0.1 -p "$port" -t "$IPERF_TIME" "${args[@]}"
done
expect "iperf3 -u -b $UDP_RATE over slirp" host_iperf3 slirp-udp iperf3 -c 127.0.0.1 -p "$port" -t "$IPERF_TIME" -u -b "$UDP_RATE" -l 1400
mark1=$(clock_mark "$work/clock1.json") || bad "agent link (clock mark)"
[ -n "$mark0" ] && [ -n "$mark1" ] && expect "guest clock tracks host clock under load" clock_ratio "$mark0" "$mark1"

# FCS errors: corrupt netdev->GEM frames (rx- = towards the GEM) during a
# host->guest run, stop corrupting, let the wire drain, then the kernel's
# count (read by the agent through ethtool -S) must equal the model's count
# of FCS-errored frames it delivered into the GEM.  Two agent reads with no
# traffic in between must agree (the MAC's counters are clear-on-read and
# macb accumulates them).
if [ "$STOCK" = 0 ]; then
    agent stats stats 10 "$work/fcs-before.json" || bad "agent stats before the FCS run"
    fcs_base=$(gj get "$work/fcs-before.json" ethtool.rx_frame_check_sequence_errors 2>/dev/null || echo '?')
    model_base=$(qom_get stat-rx-fcs-drops 2>&1)
    echo "  info  before: agent rx_frame_check_sequence_errors=$fcs_base model stat-rx-fcs-drops=$model_base"
    if qom_set rx-corrupt-pct "$CORRUPT_PCT"; then
        ok "qom-set /machine/gem0 rx-corrupt-pct $CORRUPT_PCT"
        # UDP keeps sending whatever is lost (TCP over a lossy slirp path
        # collapses to a few frames); the run is only the traffic source.
        if host_iperf3 slirp-fcs iperf3 -c 127.0.0.1 -p "$port" -t "$IPERF_TIME" -u -b "$UDP_RATE" -l 1400 > "$work/fcs-iperf.log" 2>&1; then
            echo "  info  iperf3 -u -b $UDP_RATE with rx-corrupt-pct $CORRUPT_PCT: $(cat "$work/fcs-iperf.log")"
        else
            echo "  info  iperf3 with corruption did not complete: $(head -c 200 "$work/fcs-iperf.log")"
        fi
        qom_set rx-corrupt-pct 0 || bad "qom-set rx-corrupt-pct 0"
        sleep 1
        model=$(qom_get stat-rx-fcs-drops 2>&1)
        mism=$(qom_get stat-rx-mismatch-drops 2>&1)
        corrupted=$(qom_get stat-rx-wire-corrupted 2>&1)
        agent stats stats 10 "$work/fcs-after.json" || bad "agent stats after the FCS run"
        fcs=$(gj get "$work/fcs-after.json" ethtool.rx_frame_check_sequence_errors 2>/dev/null || echo '?')
        agent stats stats 10 "$work/fcs-again.json" || bad "agent stats (second read)"
        fcs2=$(gj get "$work/fcs-again.json" ethtool.rx_frame_check_sequence_errors 2>/dev/null || echo '?')
        model2=$(qom_get stat-rx-fcs-drops 2>&1)
        echo "fcs agent=$fcs agent_reread=$fcs2 model=$model model_reread=$model2 mismatch=$mism wire_corrupted=$corrupted" > "$work/fcs.log"
        echo "  info  after: agent rx_frame_check_sequence_errors=$fcs (re-read $fcs2), model stat-rx-fcs-drops=$model (re-read $model2), stat-rx-mismatch-drops=$mism, stat-rx-wire-corrupted=$corrupted"
        case "$model" in ''|*[!0-9]*) model=-1 ;; esac
        if [ "$model" -gt 0 ]; then ok "model delivered $model FCS-errored frames into the GEM"
        else bad "model counted no FCS-errored deliveries (stat-rx-fcs-drops=$model)"; fi
        if [ "$mism" = 0 ]; then ok "no MAC/PHY mismatch drops (stat-rx-mismatch-drops=0)"
        else bad "stat-rx-mismatch-drops=$mism (they count at 0x190 too)"; fi
        if [ "$fcs" = "$model" ]; then ok "agent rx_frame_check_sequence_errors == model stat-rx-fcs-drops ($fcs)"
        else bad "agent rx_frame_check_sequence_errors=$fcs != model stat-rx-fcs-drops=$model"; fi
        if [ "$fcs2" = "$fcs" ] && [ "$model2" = "$model" ]; then ok "counters stable over a second read with no traffic"
        else bad "counters changed with no traffic: agent $fcs -> $fcs2, model $model -> $model2"; fi
    else
        bad "qom-set /machine/gem0 rx-corrupt-pct $CORRUPT_PCT"
    fi
else
    skip "FCS counters: stock QEMU has no rx-corrupt-pct property"
fi

# Agent commands.
if agent help result 10 "$work/help.json"; then
    expect "agent help" gj check help "$work/help.json"
else bad "agent help"; fi
if agent link link 10 "$work/link.json"; then
    expect "agent link" gj check link "$work/link.json"
else bad "agent link"; fi
if agent stats stats 10 "$work/stats.json"; then
    expect "agent stats" gj check stats "$work/stats.json"
else bad "agent stats"; fi
expect "agent per-CPU IRQ data has $SMP column(s)" ncpus_in_irqs "$work/stats.json" "$SMP"
if agent "frobnicate now" error 10 "$work/unknown.json"; then
    expect "unknown command -> error" gj check error "$work/unknown.json"
else bad "unknown command"; fi
if agent "run sh -c reboot" error 10 "$work/notallowed.json"; then
    expect "run of a non-iperf tool refused" gj check error "$work/notallowed.json"
else bad "run sh refused"; fi
if agent "sockbuf 256K" result 10 "$work/sockbuf.json"; then
    expect "agent sockbuf 256K" gj check sockbuf "$work/sockbuf.json"
else bad "agent sockbuf"; fi
# With 2 CPUs, steer the GEM IRQ to CPU1 and require that the next run's
# interrupts land there and nowhere else.
aff=1; [ "$SMP" -gt 1 ] && aff=2
if agent "irq-affinity $aff" result 10 "$work/irq.json"; then
    expect "agent irq-affinity $aff" gj check irq "$work/irq.json"
else bad "agent irq-affinity"; fi
[ "$SMP" -gt 1 ] && { agent stats stats 10 "$work/stats-aff0.json" || bad "agent stats before the affinity run"; }

# Guest-side clients through the agent: guest -> 10.0.2.2 (the host's loopback).
iperf3 -s -1 -B 127.0.0.1 -p "$hport" > "$work/host-iperf3-server.log" 2>&1 &
hpids="$hpids $!"
sleep 0.5
if agent "run iperf3 -c 10.0.2.2 -p $hport -t $IPERF_TIME -P 2 -w 256K -J" result $((IPERF_TIME + 30)) "$work/run-iperf3.json"; then
    expect "agent run iperf3 -c -P 2 -w 256K -J (embedded json)" gj check run "$work/run-iperf3.json"
else bad "agent run iperf3: $(head -c 300 "$work/run-iperf3.json")"; fi
if [ "$SMP" -gt 1 ]; then
    if agent stats stats 10 "$work/stats-aff1.json"; then
        expect "GEM IRQ follows smp_affinity 2 (CPU1 only)" irq_moved "$work/stats-aff0.json" "$work/stats-aff1.json"
    else bad "agent stats after the affinity run"; fi
fi
iperf -s -B 127.0.0.1 -p "$h2port" > "$work/host-iperf2-server.log" 2>&1 &
hpids="$hpids $!"
sleep 0.5
if agent "run iperf -c 10.0.2.2 -p $h2port -t $IPERF_TIME -P 2 -i 1" result $((IPERF_TIME + 30)) "$work/run-iperf.json"; then
    expect "agent run iperf (2) -c -P 2" gj check run "$work/run-iperf.json"
else bad "agent run iperf: $(head -c 300 "$work/run-iperf.json")"; fi
# Link down/up from the host (QMP set_link): the agent reports both edges.
from=$(( $(wc -l < "$log") + 1 ))
expect "QMP set_link down" qmp_set_link false
expect "agent link event on carrier loss" wait_link_event false "$from"
from=$(( $(wc -l < "$log") + 1 ))
expect "QMP set_link up" qmp_set_link true
expect "agent link event on carrier return" wait_link_event true "$from"
if agent stats stats 10 "$work/stats2.json"; then
    expect "agent still serving after runs" gj check stats "$work/stats2.json"
else bad "agent stats after runs"; fi
stop_qemu
fi

# --- case partner100: a partner that offers only 100 Mb/s ------------------
if want partner100 && [ "$STOCK" = 1 ]; then
    skip "partner100: stock QEMU has no partner-abilities property"
elif want partner100; then
    qextra=(-global "cadence_gem.partner-abilities=100FD,100HD")
    boot p100 "user,id=n0" "gemlab.ip=10.0.2.15/24 gemlab.gw=10.0.2.2 gemlab.iperf3=0"
    if boot_ready p100; then
        kernel_link p100 "100Mbps/Full"
        if agent link link 10 "$work/p100-link.json"; then
            expect "p100: agent link" gj check link "$work/p100-link.json"
        else bad "p100: agent link"; fi
        expect "p100: agent link speed" json_eq "$work/p100-link.json" speed_mbps 100
        expect "p100: agent link duplex" json_eq "$work/p100-link.json" duplex full
        expect "p100: partner advertises no 1000baseT" p100_partner_no_1000
        expect "p100: model link-speed" qom_is link-speed 100
        expect "p100: model not downshifted" qom_is link-downshifted false
    fi
    stop_qemu
    qextra=()
fi

# --- case tap: a tap in a private netns -------------------------------------
tap_rst() {
    local r
    r=$(ip netns exec "$ns" timeout 5 bash -c 'exec 3<>/dev/tcp/192.168.77.2/9' 2>&1)
    case "$r" in
    *"Connection refused"*) echo "Connection refused" ;;
    *) echo "${r:-connected (port 9 open?!)}"; return 1 ;;
    esac
}
if [ "$NETNS" = auto ]; then [ "$(id -u)" = 0 ] && NETNS=1 || NETNS=0; fi
if want tap && [ "$NETNS" = 1 ]; then
    ns=gemlab-linux-$$
    if ip netns add "$ns" && ip -n "$ns" link set lo up \
        && ip -n "$ns" tuntap add dev gl0 mode tap \
        && ip -n "$ns" addr add 192.168.77.1/24 dev gl0 \
        && ip -n "$ns" link set gl0 up; then
        boot tap "tap,id=n0,ifname=gl0,script=no,downscript=no" \
            "gemlab.ip=192.168.77.2/24 gemlab.gw=192.168.77.1" ip netns exec "$ns"
        if wait_for '"type":"ready"' "$BOOT_TIMEOUT"; then
            ok "tap: boot to ready"
            # Reachability without touching iperf3 -s (a bare connect to 5201
            # makes the server reset the next test): a closed port answers RST.
            expect "tap: guest answers TCP (RST from closed port 9)" tap_rst
            for t in "p1 -P 1" "p4 -P 4" "p1R -P 1 -R" "p4R -P 4 -R"; do
                read -r name args <<<"$t"
                read -ra args <<<"$args"
                expect "iperf3 ${args[*]} over tap" host_iperf3 "tap-$name" ip netns exec "$ns" iperf3 -c 192.168.77.2 -t "$IPERF_TIME" "${args[@]}"
            done
        else
            bad "tap: boot to ready"
        fi
        stop_qemu
    else
        bad "tap: could not create netns/tap (need root and /dev/net/tun)"
    fi
    ip netns del "$ns" 2>/dev/null; ns=""
elif want tap; then
    skip "tap: needs root (NETNS=1)"
fi

# --- case fit: image.ub, listed and booted from its own bytes --------------
# fit_list: `dumpimage -l` shows the four images with the types, compression
# and load/entry addresses image.its asks for, and the default config zc702.
fit_list() { gj fit-list "$1"; }
# fit_extract NAME BUILD_FILE: dumpimage -p INDEX to $work/fit-NAME; the
# bytes must hash to the value stored in the FIT and equal the build's own
# file (then $work/fit-NAME.ok exists: expect runs this in a subshell).
fit_extract() {
    local idx sum got
    read -r _ idx sum < <(grep "^$1 " "$work/fit-list.txt.idx")
    [ -n "$idx" ] || { echo "$1 not listed"; return 1; }
    dumpimage -T flat_dt -p "$idx" -o "$work/fit-$1" "$out/image.ub" > /dev/null || { echo "dumpimage -p $idx failed"; return 1; }
    got=$(sha256sum < "$work/fit-$1" | cut -d' ' -f1)
    [ "$got" = "$sum" ] || { echo "$1: sha256 $got != FIT hash $sum"; return 1; }
    cmp -s "$work/fit-$1" "$2" || { echo "$1: extracted bytes differ from $2"; return 1; }
    touch "$work/fit-$1.ok"
    echo "$1 (image $idx): $(stat -c %s "$work/fit-$1") bytes, sha256 matches the FIT, same as $(basename "$2")"
}
if want fit; then
    if ! command -v dumpimage > /dev/null; then
        bad "fit: dumpimage missing (u-boot-tools)"
    elif [ ! -s "$out/image.ub" ]; then
        bad "fit: $out/image.ub missing (make -C firmware/linux fit)"
    else
        dumpimage -l "$out/image.ub" > "$work/fit-list.txt" 2>&1
        expect "fit: dumpimage -l image.ub" fit_list "$work/fit-list.txt"
        expect "fit: extract kernel-1" fit_extract kernel-1 "$out/zImage"
        expect "fit: extract fdt-$BOARD" fit_extract "fdt-$BOARD" "$out/zynq-$BOARD.dtb"
        expect "fit: extract ramdisk-1" fit_extract ramdisk-1 "$out/initramfs.cpio.gz"
        fit_img=$work/fit-kernel-1 fit_dtb=$work/fit-fdt-$BOARD fit_rd=$work/fit-ramdisk-1
        if [ -f "$fit_img.ok" ] && [ -f "$fit_dtb.ok" ] && [ -f "$fit_rd.ok" ]; then
            # The board DTB as on the SD card (no QEMU overlay): its clocks
            # make guest time drift, which only this boot tolerates.
            k_img=$fit_img k_dtb=$fit_dtb k_initrd=$fit_rd
            boot fit "user,id=n0" "gemlab.ip=10.0.2.15/24 gemlab.gw=10.0.2.2"
            if boot_ready fit; then
                kernel_link fit "$EXPECT_LINK"
                expect "fit: ready reports the board model" fit_model_is_board
            fi
            stop_qemu
            k_img=$out/zImage k_dtb=$out/zynq-$BOARD-qemu.dtb k_initrd=$out/initramfs.cpio.gz
        fi
    fi
fi

echo "linux-boot: $pass passed, $fail failed$([ "$skipped" -gt 0 ] && echo ", $skipped skipped") ($(( $(date +%s) - t_script )) s)"
[ "$fail" -eq 0 ]
