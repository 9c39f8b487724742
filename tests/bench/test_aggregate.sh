#!/usr/bin/env bash
# test_aggregate.sh - tests/bench/aggregate.py on synthetic bench outputs (no
# benchmark runs, < 1 s): a good bench is aggregated with its figures, a
# failed one (non-zero exit) and a missing one (exit 0, no JSON; or never
# run) are listed as such, `finish` exits 1 for them and 0 without them,
# and the machine description and load are recorded.
# Ends with "aggregate: N passed, M failed"; exit status non-zero on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
A="$here/aggregate.py"
work=$(mktemp -d /tmp/gemlab-aggregate.XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0; failed=0
ok()  { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1${2:+: $2}"; }

d="$work/bench"
"$A" start "$d" || bad "start"
t0=$(date +%s.%N)
echo '{"bench":"good","x":{"mpps_min":1.5,"mpps_median":2.5,"mpps_max":3.5},"ratio_a_over_b":0.75,
       "ratio_c_over_d":{"tx_pps":1.25},
       "runs":[{"min":9,"median":9,"max":9}]}' >"$d/good.json"
"$A" status "$d" good 0 "$t0"
echo '{"partial":true}' >"$d/broken.json"
"$A" status "$d" broken 3 "$t0"
"$A" status "$d" silent 0 "$t0"          # exit 0, wrote nothing
out=$("$A" finish "$d" good broken silent never 2>&1); rc=$?
j="$d/results.json"
if [ $rc -eq 1 ] && python3 - "$j" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
b = r["benches"]
assert r["schema"] == "gemlab-bench-results-1"
assert b["good"]["status"] == "ok" and b["good"]["result"]["x"]["mpps_median"] == 2.5
assert b["good"]["rc"] == 0 and b["good"]["wall_s"] >= 0
assert b["broken"]["status"] == "failed" and b["broken"]["rc"] == 3
assert b["silent"]["status"] == "missing" and "without writing" in b["silent"]["error"]
assert b["never"]["status"] == "missing" and "never ran" in b["never"]["error"]
m = r["machine"]
for k in ("cpu_model", "cores", "ram_mib", "kernel", "date_start", "date_end"):
    assert m.get(k), k
assert len(m["loadavg_start"]) == 3 and len(m["loadavg_end"]) == 3
PY
then ok "results.json: ok/failed/missing per bench, machine and load recorded, exit 1"
else bad "results.json" "rc=$rc $out"; fi
if [[ "$out" == *"x.mpps"*"1.5"*"2.5"*"3.5"* ]] && [[ "$out" == *"ratio_a_over_b"*"0.75"* ]] && [[ "$out" == *"ratio_c_over_d.tx_pps"*"1.25"* ]] \
   && [[ "$out" == *"** FAILED ** exit 3"* ]] && [[ "$out" == *"** MISSING **"* ]] && ! printf '%s\n' "$out" | grep -q '^good .*runs'; then
    ok "table: min/median/max triples, ratios, FAILED and MISSING rows, no per-run rows"
else bad "table" "$out"; fi
if "$A" finish "$d" good >/dev/null 2>&1; then ok "finish exits 0 when every bench produced results"
else bad "finish with only good benches"; fi
md=$("$A" table --md "$j")
if [[ "$md" == *"| good | x.mpps | 1.5 | 2.5 | 3.5 |"* ]]; then ok "table --md"; else bad "table --md" "$md"; fi
e=$("$A" status "$d" good x "$t0" 2>&1); r1=$?
e2=$("$A" table "$work/nope.json" 2>&1); r2=$?
if [ $r1 -eq 2 ] && [[ "$e" == *"must be numbers"* ]] && [ $r2 -eq 2 ] && [[ "$e2" == *nope.json* ]]; then
    ok "bad input exits 2 with a message"
else bad "bad input" "$r1 $e | $r2 $e2"; fi

echo "aggregate: $passed passed, $failed failed"
[ $failed -eq 0 ]
