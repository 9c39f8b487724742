#!/usr/bin/env bash
# deps_idempotent.sh - scripts/deps.sh on a simulated fresh bookworm machine
# (issue 17: QEMU 10.0 from trixie's source, meson from bookworm-backports).
# No root, no network: dpkg-query, apt-get, id and getent are stubs on PATH
# that keep the "installed" packages in a file, and GEMLAB_APT_ETC points
# deps.sh at a scratch /etc/apt.  About a second.
#   1. first run of `deps.sh qemu` with bookworm's meson 1.0.1: writes
#      deb-src for bookworm, deb-src for trixie trixie-updates (and no
#      binary trixie line), a deb line for bookworm-backports, and installs
#      meson with `-t bookworm-backports`;
#   2. second run: prints nothing, calls no apt-get, changes no file;
#   3. meson >= 1.5 already installed: no backports line, no meson install;
#   4. `deps.sh base` (no QEMU): neither trixie nor backports is added;
#   5. as non-root with trixie missing: exit 1, naming trixie and sudo.
# Ends with "deps_idempotent: N passed, M failed"; non-zero exit on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../lib/check.sh
. "$here/../../lib/check.sh"
scratch deps

# Stubs.  $STATE/installed holds "package version" lines; apt-get appends
# to it and logs its arguments to $STATE/apt.log.
mkdir -p "$work/bin"
cat >"$work/bin/dpkg-query" <<'EOF'
#!/bin/bash
# dpkg-query -W -f=FORMAT PKG
fmt=${2#-f=}; p=$3
v=$(awk -v p="$p" '$1 == p {print $2}' "$STATE/installed")
[ -n "$v" ] || exit 1
fmt=${fmt//'${Status}'/install ok installed}; fmt=${fmt//'${Version}'/$v}
printf '%s' "$fmt"
EOF
cat >"$work/bin/dpkg" <<'EOF'
#!/bin/bash
case "$1" in
--print-foreign-architectures) echo armhf ;;
--compare-versions) exec /usr/bin/dpkg "$@" ;;
*) echo "dpkg stub: $*" >&2; exit 1 ;;
esac
EOF
cat >"$work/bin/apt-get" <<'EOF'
#!/bin/bash
echo "$*" >>"$STATE/apt.log"
[ "$1" = update ] && exit 0
bpo=0; for a in "$@"; do [ "$a" = bookworm-backports ] && bpo=1; done
for a in "$@"; do
    case "$a" in -*|install|bookworm-backports) continue ;; esac
    v=1.0; [ "$a" = meson ] && { v=1.0.1-5; [ $bpo = 1 ] && v=1.7.0-1~bpo12+1; }
    grep -v "^$a " "$STATE/installed" >"$STATE/i.tmp"; echo "$a $v" >>"$STATE/i.tmp"
    mv "$STATE/i.tmp" "$STATE/installed"
done
EOF
cat >"$work/bin/id" <<'EOF'
#!/bin/sh
[ "$1" = -u ] && echo "${STUB_UID:-0}"
EOF
printf '#!/bin/sh\nexit 0\n' >"$work/bin/getent"
chmod +x "$work/bin"/*

# A machine with every package of GROUPS installed, meson at MESON.
machine() {  # NAME MESON GROUP...
    local d="$work/$1" m=$2 g; shift 2
    mkdir -p "$d/etc/sources.list.d"
    cp /dev/null "$d/apt.log"
    for g in "$@"; do sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$top/scripts/deps/$g.list"; done |
        grep -vx meson | sed 's/$/ 1.0/' >"$d/installed"
    [ -z "$m" ] || echo "meson $m" >>"$d/installed"
    # bookworm's own binary sources, as debian.sources ships them
    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\n' \
        >"$d/etc/sources.list.d/debian.sources"
}
deps() {  # NAME GROUP...
    local d="$work/$1"; shift
    env PATH="$work/bin:$PATH" STATE="$d" GEMLAB_APT_ETC="$d/etc" "$top/scripts/deps.sh" "$@"
}
# the sources files deps.sh added (debian.sources is the machine's own)
added() { find "$work/$1/etc/sources.list.d" -type f ! -name debian.sources -printf '%f\n'; }
snap() { (cd "$work/$1" && find etc installed -type f -exec sha256sum {} + | sort; cat apt.log); }
# paragraph of a .sources file that lists SUITE, one line
para() { awk -v s="$2" 'BEGIN{RS=""} $0 ~ ("Suites:[^\n]* " s "([ \n]|$)") {gsub(/\n/, "|"); print}' "$1" 2>/dev/null; }

# 1.
machine m1 1.0.1-5 qemu
out=$(deps m1 qemu 2>&1); rc=$?
e=$work/m1/etc/sources.list.d
tx=$(para "$e/gemlab-trixie-src.sources" trixie-updates)
bp=$(para "$e/gemlab-backports.sources" bookworm-backports)
if [ $rc -eq 0 ] && [[ "$tx" == *"Types: deb-src|"* ]] && [[ "$tx" == *"Suites: trixie trixie-updates|"* ]] &&
   ! grep -rqsE '^Types:.*\bdeb\b( |$)' "$e/gemlab-trixie-src.sources" &&
   [[ "$bp" == *"Types: deb|"* ]] && [ -n "$(para "$e/gemlab-deb-src.sources" bookworm)" ] &&
   grep -qx 'install -y -qq --no-install-recommends -t bookworm-backports meson' "$work/m1/apt.log" &&
   grep -qx 'meson 1.7.0-1~bpo12+1' "$work/m1/installed"; then
    ok "first run: deb-src trixie trixie-updates (source only), deb bookworm-backports, meson from backports"
else bad "first run" "rc=$rc out=$out apt=$(tr '\n' ';' <"$work/m1/apt.log") trixie=$tx bpo=$bp"; fi

# 2.
before=$(snap m1)
out=$(deps m1 qemu 2>&1); rc=$?
after=$(snap m1)
if [ $rc -eq 0 ] && [ -z "$out" ] && [ "$before" = "$after" ]; then
    ok "second run: no output, no apt-get, no file changed"
else bad "second run is not a no-op" "rc=$rc out=$out diff=$(diff <(echo "$before") <(echo "$after") | head -5)"; fi

# 3.
machine m3 1.7.0-1~bpo12+1 qemu
out=$(deps m3 qemu 2>&1); rc=$?
if [ $rc -eq 0 ] && [ ! -e "$work/m3/etc/sources.list.d/gemlab-backports.sources" ] &&
   [ -e "$work/m3/etc/sources.list.d/gemlab-trixie-src.sources" ] &&
   ! grep -q meson "$work/m3/apt.log" && grep -qx 'meson 1.7.0-1~bpo12+1' "$work/m3/installed"; then
    ok "meson 1.7 installed: no backports line, meson left alone"
else bad "meson >= 1.5 already there" "rc=$rc out=$out apt=$(tr '\n' ';' <"$work/m3/apt.log")"; fi

# 4.
machine m4 "" base
out=$(deps m4 base 2>&1); rc=$?
if [ $rc -eq 0 ] && [ -z "$(added m4)" ] && [ ! -s "$work/m4/apt.log" ]; then
    ok "deps.sh base: no trixie, no backports, no apt-get"
else bad "deps.sh base touched apt" "rc=$rc out=$out files=$(added m4)"; fi

# 5.
machine m5 1.0.1-5 qemu
out=$(STUB_UID=1000 deps m5 qemu 2>&1); rc=$?
if [ $rc -eq 1 ] && [[ "$out" == *"sudo "*"trixie"* ]] && [[ "$out" == *"bookworm-backports"* ]] &&
   [ -z "$(added m5)" ] && [ ! -s "$work/m5/apt.log" ]; then
    ok "non-root: exit 1 naming sudo, trixie and bookworm-backports; nothing written"
else bad "non-root run" "rc=$rc out=$out"; fi

summary deps_idempotent
