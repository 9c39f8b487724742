#!/usr/bin/env bash
# scripts/lint.sh - lint every tracked shell script and Python file.
#
#   - the Debian shellcheck package (checks: https://www.shellcheck.net/wiki/)
#     on every tracked file named *.sh or whose first line is a
#     sh/bash/dash/ash/ksh or `busybox sh` shebang;
#   - the Debian pyflakes3 package (https://github.com/PyCQA/pyflakes) on
#     every tracked *.py or python shebang.
#
# Files are found with `git ls-files`, never a hand list, so a new script is
# covered the day it is committed.  Every finding is printed as
# file:line:col: message, then one summary line that counts files:
#   lint: N passed, M failed
# Exit status: 0 clean, 1 any finding, 2 a linter is missing.
# A deliberate construct gets a targeted `# shellcheck disable=SCxxxx` with
# its reason on the line above it, never a global disable.
set -u
cd "$(dirname "$0")/.." || exit 2

for tool in shellcheck pyflakes3 git; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "lint: $tool not found (scripts/deps.sh base installs it)" >&2
        echo "lint: 0 passed, 0 failed"
        exit 2
    fi
done

sh_re='^#![[:space:]]*[^[:space:]]*/(env[[:space:]]+)?(sh|bash|dash|ash|ksh)([[:space:]]|$)'
busybox_re='^#![[:space:]]*[^[:space:]]*/busybox[[:space:]]+sh([[:space:]]|$)'
py_re='^#![[:space:]]*[^[:space:]]*/(env[[:space:]]+)?python[0-9.]*([[:space:]]|$)'

sh_files=()
py_files=()
declare -A seen=()
add() { # add LIST FILE: once per file
    [ -n "${seen[$2]:-}" ] && return
    seen[$2]=1
    if [ "$1" = sh ]; then sh_files+=("$2"); else py_files+=("$2"); fi
}
# By name.  A tracked file deleted in the working tree is skipped.
while IFS= read -r -d '' f; do
    [ -f "$f" ] || continue
    case "$f" in
        *.sh) add sh "$f" ;;
        *.py) add py "$f" ;;
    esac
done < <(git ls-files -z)
# By shebang: `git grep -I` skips binary files; only line 1 counts.
while IFS= read -r -d '' f; do
    [ -f "$f" ] || continue
    IFS= read -r first < "$f" || true
    if [[ $first =~ $sh_re || $first =~ $busybox_re ]]; then
        add sh "$f"
    elif [[ $first =~ $py_re ]]; then
        add py "$f"
    fi
done < <(git grep -I -l -z -E '^#!' -- .)

passed=0
failed=0
bad=()
check() { # check NAME CMD... : one file, findings to stdout
    local out
    if out=$("${@:2}" 2>&1) && [ -z "$out" ]; then
        passed=$((passed + 1))
    else
        [ -n "$out" ] || out="$1: linter failed with no output"
        printf '%s\n' "$out"
        failed=$((failed + 1))
        bad+=("$1")
    fi
}
for f in "${sh_files[@]}"; do
    # -x -P SCRIPTDIR: follow a `source`d file, found relative to the script.
    check "$f" shellcheck -x -P SCRIPTDIR -f gcc "$f"
done
for f in "${py_files[@]}"; do
    check "$f" pyflakes3 "$f"
done

[ ${#bad[@]} -gt 0 ] && echo "lint: findings in: ${bad[*]}"
echo "lint: shellcheck on ${#sh_files[@]} shell scripts, pyflakes3 on ${#py_files[@]} Python files"
echo "lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
