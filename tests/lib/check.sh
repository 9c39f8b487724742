# shellcheck shell=bash
# tests/lib/check.sh: the shell tests' one way to count their checks.
# Sourced (bash), after `set -u`:
#   ok NAME          a check that passed
#   bad NAME [WHY]   a check that failed
#   skip NAME WHY    a check this host cannot run; under CI=true it fails,
#                    since a skip is not a pass (issue 20)
#   summary SUITE    prints "SUITE: N passed, M failed[, K skipped]", the
#                    closing line `make test` shows, and returns non-zero
#                    when a check failed
#   scratch NAME     makes $work, a directory removed at exit
# It also sets $top, the tree under test (TOP=DIR: another of the same
# layout).  The Python suites get the same from tests/conftest.py.
# shellcheck disable=SC2034  # for the sourcing script
top=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
scratch() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/gemlab-$1.XXXXXX")
    trap 'rm -rf "$work"' EXIT
}
passed=0; failed=0; skipped=0
ok()  { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1${2:+: $2}"; }
skip() {
    if [ "${CI:-}" = true ]; then bad "$1" "skipped under CI=true, and a skip is not a pass: $2"
    else skipped=$((skipped + 1)); echo "SKIP $1: $2"; fi
}
summary() {
    echo "$1: $passed passed, $failed failed$([ "$skipped" -gt 0 ] && echo ", $skipped skipped")"
    # a script that checked nothing passed nothing
    [ $((passed + failed + skipped)) -gt 0 ] || { echo "$1: no check ran"; return 1; }
    [ "$failed" -eq 0 ]
}
