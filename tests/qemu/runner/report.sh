#!/usr/bin/env bash
# report.sh [GEMLAB] - `gemlab report` on a synthetic run directory (no
# QEMU): report.md and report.html are written, every chart is an inlined
# SVG with plotted data, and - when Debian's chromium is installed - the
# page rendered headless still holds non-empty charts (path elements with
# data points).  Without gnuplot (or chromium) those checks are skipped:
# "SKIP", counted apart; under CI=true a skip is a failure (issue 20: a skip
# is not a pass; `make deps` installs both, scripts/deps/report.list).
# Ends with "report: N passed, M failed[, K skipped]"; exit status non-zero
# on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../lib/check.sh
. "$here/../../lib/check.sh"
scratch report
G=${1:-$top/build/host/bin/gemlab}
if ! command -v gnuplot >/dev/null; then
    skip "report (every check)" "gnuplot not installed (apt-get install gnuplot-nox)"
    summary report; exit
fi

# a run with two TCP streams, a link flap, a latency result, a size sweep
# and a -P sweep
r="$work/run1"; mkdir -p "$r"
cat >"$r/results.json" <<'J'
{"schema":"gemlab-results-1","scenario":{"name":"synthetic","hash":"0123456789abcdef"},"seed":3,
 "versions":{"qemu":"QEMU emulator version 7.2.22","qemu_patch":"500351a9ae1f","models":"abc","firmware":"v1",
             "firmware_options":"qemu-zynq -DGEM_RXBD=64"},
 "verdict":{"result":"FAIL","reason":"throughput below 200 Mb/s"},
 "conditions":{"firmware":"baremetal","protocol":"tcp","parallel":2,"duration_s":4,"omit_s":0,"rx_bds":64,"tx_bds":64},
 "link":{"up":true,"speed_mbps":1000,"full_duplex":true,"flaps":1},
 "link_events":[{"t_s":1.5,"up":true,"speed_mbps":1000},{"t_s":4.0,"up":false},{"t_s":6.5,"up":true,"speed_mbps":1000}],
 "iperf":{"ok":true,"throughput_bps":150000000,"retransmits":12,"intervals_bps":[140e6,160e6,0,150e6]},
 "sweep":[{"length_bytes":64,"throughput_bps":20e6,"udp_lost_pct":0},{"length_bytes":512,"throughput_bps":120e6,"udp_lost_pct":0.1},
          {"length_bytes":1470,"throughput_bps":300e6,"udp_lost_pct":0.5},{"length_bytes":9000,"throughput_bps":310e6,"udp_lost_pct":0.5}],
 "parallel_sweep":[{"parallel":1,"throughput_bps":40e6,"retransmits":0},{"parallel":2,"throughput_bps":70e6,"retransmits":3},
                   {"parallel":4,"throughput_bps":110e6,"retransmits":9},{"parallel":8,"throughput_bps":120e6,"retransmits":30}]}
J
cat >"$r/diagnosis.json" <<'J'
{"schema":"gemlab-diagnosis-1","findings":[{"code":"PHY_LINK_FLAPS","layer":"physical",
 "summary":"link went down 1 time(s) during the run","evidence":{"flaps":1},"cause":"cable <b>","remedy":"reseat"}]}
J
for id in 3 4; do for t in 1 2 3 4; do
    echo "2026113015123$t,127.0.0.1,5210$id,127.0.0.1,5001,$id,$((t-1)).0-$t.0,1000,$((id * 20 + t))000000"
done; done >"$r/iperf.csv"
echo '@gemlab {"v":1,"src":"baremetal","type":"result","test":"latency","proto":"udp","sent":200,"received":200,"lost":0,"min_us":211,"p50_us":371,"p90_us":684,"p99_us":3430,"max_us":6052,"hist":{"scale":"log2_us","buckets":[[128,3],[256,156],[512,31],[1024,5],[2048,3],[4096,2]]}}' >"$r/console.log"
cp -r "$r" "$work/run2"
sed -i 's/"throughput_bps":150000000/"throughput_bps":250000000/; s/"rx_bds":64/"rx_bds":128/' "$work/run2/results.json"

out=$("$G" report "$r" 2>&1); rc=$?
charts="throughput link latency sweep psweep"
# the -P sweep bar chart: one closed bar path per parallel count with a
# height, and each bar's value label ($1 = chart id, stdin = the page)
psweep_ok() {
    local seg bars
    seg=$(awk -v id="chart-$1" 'index($0, "id=\"" id "\"") {on=1} on {print} on && /<\/svg>/ {exit}')
    bars=$(printf '%s\n' "$seg" | grep -o "d=['\"]M[0-9.]*,[0-9.]* L[^'\"]*Z" |
           awk '{split($1, a, /[=,]/); split($2, b, /[L,]/); if (a[3] + 0 != b[3] + 0) n++} END {print n + 0}')
    for v in 40.0 70.0 110.0 120.0; do
        printf '%s\n' "$seg" | grep -q ">$v</text>" || { echo "no label $v"; return 1; }
    done
    [ "$bars" -eq 4 ] || { echo "bars=$bars"; return 1; }
}
if [ $rc -eq 0 ] && [ -s "$r/report.md" ] && [ -s "$r/report.html" ] && grep -q "\`PHY_LINK_FLAPS\`" "$r/report.md" \
   && grep -q 'flaps=1' "$r/report.md" && grep -q '150.0 Mb/s' "$r/report.md" && grep -q 'cable &lt;b&gt;' "$r/report.html"; then
    ok "report.md and report.html written (verdict, throughput, findings with evidence, escaped)"
else bad "report files" "rc=$rc $out"; fi

# every chart: an inlined <svg> with at least one plotted path of >= 3 points
svg_ok=1; why=""
for c in $charts; do
    seg=$(awk -v id="chart-$c" 'index($0, "id=\"" id "\"") {on=1} on {print} on && /<\/svg>/ {exit}' "$r/report.html")
    pts=$(printf '%s\n' "$seg" | grep -o "d=['\"]M[^'\"]*['\"]" | awk '{n = gsub(/L/, "L"); if (n > m) m = n} END {print m + 0}')
    if [ -z "$seg" ] || [ "${pts:-0}" -lt 3 ]; then svg_ok=0; why+=" $c(points=$pts)"; fi
    if [ ! -s "$r/report/$c.svg" ] || [ ! -s "$r/report/$c.gp" ]; then svg_ok=0; why+=" $c(files)"; fi
done
if [ $svg_ok = 1 ] && ! grep -q '<?xml' "$r/report.html"; then ok "charts inlined with data: $charts"
else bad "charts" "$why"; fi
if why=$(psweep_ok psweep <"$r/report.html") && grep -q '| 8 | 120.0 | 30 |' "$r/report.md"; then
    ok "-P sweep: 4 bars with heights and value labels, and the Markdown table"
else bad "-P sweep chart" "$why"; fi
if grep -q 'flap 4.0s' "$r/report/link.svg" 2>/dev/null || grep -q 'flap 4.0s' "$r/report.html"; then ok "link timeline marks the flap at 4.0 s"
else bad "flap mark"; fi

# side by side
out=$("$G" report "$r" "$work/run2" --out "$work/cmp" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q '| 2 | FAIL | 250.0 | 1.667 | 128 |' "$work/cmp/report.md" && grep -q '| rx\\_bds |' "$work/cmp/report.md" \
   && grep -q 'id="chart-runs"' "$work/cmp/report.html" && grep -q 'id="chart-overtime"' "$work/cmp/report.html"; then
    ok "two runs side by side: ratio 1.667, the differing rx_bds column, bar and time charts"
else bad "side by side" "rc=$rc $out $(cat "$work/cmp/report.md" 2>/dev/null)"; fi

# one run, --out elsewhere: its report goes there, the run directory is
# left as it was; another run's directory is refused
rm -rf "$work/run2/report.md" "$work/one"
out=$("$G" report "$work/run2" --out "$work/one" 2>&1); rc=$?
e4=$("$G" report "$work/run2" --out "$r" 2>&1); r4=$?
if [ $rc -eq 0 ] && grep -q '250.0 Mb/s' "$work/one/report.md" && [ -s "$work/one/report.html" ] \
   && [ -s "$work/one/report/throughput.svg" ] && [ ! -e "$work/run2/report.md" ] && [[ "$out" == "$work/one/report.md"* ]] \
   && [ $r4 -eq 2 ] && [[ "$e4" == *"is a run directory"* ]] && grep -q '150.0 Mb/s' "$r/report.md"; then
    ok "one run with --out DIR: report.md, report.html and charts in DIR; a run directory refused"
else bad "one run with --out" "rc=$rc r4=$r4 $out | $e4"; fi

# --out into a directory of other files (/tmp, $HOME) is refused; an
# earlier report's directory is not
mkdir -p "$work/others" && echo x >"$work/others/notes.txt"
e5=$("$G" report "$work/run2" --out "$work/others" 2>&1); r5=$?
"$G" report "$work/run2" --out "$work/one" >/dev/null 2>&1; r6=$?
if [ $r5 -eq 2 ] && [[ "$e5" == *"--out $work/others: holds other files and no report"* ]] \
   && [ ! -e "$work/others/report.md" ] && [ $r6 -eq 0 ]; then
    ok "--out: a directory of other files refused (exit 2, nothing written); a report's own taken again"
else bad "--out guard" "r5=$r5 $e5 / r6=$r6"; fi

# bad input
e1=$("$G" report "$work/nope" 2>&1); r1=$?
mkdir -p "$work/empty"; e2=$("$G" report "$work/empty" 2>&1); r2=$?
e3=$("$G" report "$r" --bogus 2>&1); r3=$?
if [ $r1 -eq 2 ] && [[ "$e1" == *nope* ]] && [ $r2 -eq 2 ] && [[ "$e2" == *results.json* ]] && [ $r3 -eq 2 ] && [[ "$e3" == *--bogus* ]]; then
    ok "bad input exits 2 naming the directory, file or flag"
else bad "bad input" "$r1 $r2 $r3: $e1 | $e2 | $e3"; fi

# headless Chromium: the rendered DOM still holds the charts with data
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
    skip "headless render" "chromium not installed (apt-get install chromium)"
else
    prof=$(mktemp -d "$work/chrome.XXXXXX")
    dom=$(timeout 90 "$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
          --user-data-dir="$prof" --dump-dom "file://$r/report.html" 2>/dev/null); rc=$?
    dom_ok=1; why=""
    for c in $charts; do
        seg=$(printf '%s\n' "$dom" | awk -v id="chart-$c" 'index($0, "id=\"" id "\"") {on=1} on {print} on && /<\/svg>/ {exit}')
        n_svg=$(printf '%s\n' "$seg" | grep -c '<svg')
        pts=$(printf '%s\n' "$seg" | grep -o 'd="M[^"]*"' | awk '{n = gsub(/L/, "L"); if (n > m) m = n} END {print m + 0}')
        if [ "$n_svg" -lt 1 ] || [ "${pts:-0}" -lt 3 ]; then dom_ok=0; why+=" $c(svg=$n_svg points=$pts)"; fi
    done
    pwhy=$(printf '%s\n' "$dom" | psweep_ok psweep) || { dom_ok=0; why+=" psweep($pwhy)"; }
    if [ $rc -eq 0 ] && [ $dom_ok = 1 ]; then ok "headless chromium: $charts rendered as SVG with data paths, 4 -P bars"
    else bad "headless chromium" "rc=$rc$why"; fi
fi

summary report
