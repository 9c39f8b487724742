#!/usr/bin/env bash
# run-tests.sh SUITE BIN... - run cmocka test binaries one after another,
# show their output, and close with one summary line that counts tests:
#   SUITE: N passed, M failed
# Exit status is non-zero if any binary failed or crashed, or if no test
# ran at all (no binary given, e.g. a T= filter that matched no
# directory): a suite of zero tests is not a pass.
set -u
suite=$1; shift
if [ $# -eq 0 ]; then
    echo "$suite: no test binary to run (T=${T:-} names no directory of tests/unit?)"
    echo "$suite: 0 passed, 1 failed"
    exit 1
fi
passed=0; failed=0; badbins=()
for b in "$@"; do
    out=$("$b" 2>&1); rc=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
    passed=$((passed + p)); failed=$((failed + f))
    if [ $rc -ne 0 ]; then
        badbins+=("$(basename "$b") (exit $rc)")
        [ "$f" -eq 0 ] && failed=$((failed + 1))
    fi
done
[ ${#badbins[@]} -gt 0 ] && echo "failing binaries: ${badbins[*]}"
echo "$suite: $passed passed, $failed failed"
if [ $((passed + failed)) -eq 0 ]; then
    echo "$suite: the binaries ran no test"
    exit 1
fi
[ $failed -eq 0 ] && [ ${#badbins[@]} -eq 0 ]
