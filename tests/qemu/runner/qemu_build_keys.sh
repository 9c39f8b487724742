#!/usr/bin/env bash
# qemu_build_keys.sh - emu/qemu/build.sh's base selection, cache keys and
# early checks (issue 17), without building or fetching QEMU.  build.sh
# runs from a scratch copy of emu/qemu and models/ (so files can be
# changed), with an empty GEMLAB_CACHE and an apt-cache that lists no
# source, as on a machine before scripts/deps.sh.  About two seconds.
#   1. QEMU_BASE=7.2 and 10.0 give different trees; a bad base exits 2
#      naming it;
#   2. 10.0: the binary path (bin/FULL) follows the content of models/ and
#      of emu/qemu/hw: an edit gives a new FULL in the same tree (KEY),
#      undoing it gives the old path back; 7.2's path ignores models/;
#   3. a changed patch gives a new KEY (a new tree);
#   4. a series line naming a missing patch stops `path`, naming it;
#   5. `all` on 10.0 with a model file missing from the committed list
#      stops before any fetch, naming the file and the list;
#   6. canary: without QEMU_SRC exit 2; on a tree the patches do not fit,
#      each patch FAILS, exit 1, and the tree is left as it was.
# Ends with "qemu_build_keys: N passed, M failed"; non-zero exit on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../lib/check.sh
. "$here/../../lib/check.sh"
scratch qkeys

# the scratch checkout: emu/qemu (no bench/) and models/{include,src}
mkdir -p "$work/r/emu" "$work/r/models" "$work/bin" "$work/cache"
cp -r "$top/emu/qemu" "$work/r/emu/qemu"
rm -rf "$work/r/emu/qemu/bench"
cp -r "$top/models/include" "$top/models/src" "$work/r/models/"
printf '#!/bin/sh\nexit 0\n' >"$work/bin/apt-cache"
chmod +x "$work/bin/apt-cache"
b() { env -u QEMU_SAN PATH="$work/bin:$PATH" GEMLAB_CACHE="$work/cache" "$work/r/emu/qemu/build.sh" "$@"; }
p10() { QEMU_BASE=10.0 b path; }
p72() { QEMU_BASE=7.2 b path; }
model=$(cd "$work/r/models/src" && find . -maxdepth 1 -name "*.c" -printf "%f\n" | LC_ALL=C sort | head -n 1)

# 1.
a=$(p72); c=$(p10); out=$(QEMU_BASE=9.9 b path 2>&1); rc=$?
if [[ "$a" == "$work/cache/qemu/7.2+"*"/build/qemu-system-arm" ]] &&
   [[ "$c" == "$work/cache/qemu/10.0."*"/bin/"*"/qemu-system-arm" ]] &&
   [ $rc -eq 2 ] && [[ "$out" == *"QEMU_BASE=9.9"*"7.2 10.0"* ]]; then
    ok "QEMU_BASE picks the tree; an unknown base exits 2 naming it"
else bad "QEMU_BASE" "7.2=$a 10.0=$c bad-base rc=$rc: $out"; fi

# 2.
f0=$(p10); a0=$(p72)
echo "/* qemu_build_keys probe */" >>"$work/r/models/src/$model"
f1=$(p10); a1=$(p72)
echo "/* probe */" >>"$work/r/emu/qemu/hw/net/gemlab-models/meson.build"
f2=$(p10)
sed -i '$d' "$work/r/models/src/$model"
sed -i '$d' "$work/r/emu/qemu/hw/net/gemlab-models/meson.build"
f3=$(p10)
if [ "$f0" != "$f1" ] && [ "$f1" != "$f2" ] && [ "$f3" = "$f0" ] &&
   [ "${f0%/bin/*}" = "${f1%/bin/*}" ] && [ "${f0%/bin/*}" = "${f2%/bin/*}" ] && [ "$a0" = "$a1" ]; then
    ok "10.0 binary path follows models/ and emu/qemu/hw content in one tree; 7.2's does not"
else bad "10.0 FULL key" "f0=$f0 f1=$f1 f2=$f2 f3=$f3 7.2: $a0 -> $a1"; fi

# 3.
first=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$work/r/emu/qemu/patches/10.0/series" | head -n 1)
k0=$(p10); k0=${k0%/bin/*}
echo " " >>"$work/r/emu/qemu/patches/10.0/$first"
k1=$(p10); k1=${k1%/bin/*}
sed -i '$d' "$work/r/emu/qemu/patches/10.0/$first"
if [ -n "$first" ] && [ "$k0" != "$k1" ] && [ "$(p10)" = "$f0" ]; then
    ok "a changed patch gives a new tree key"
else bad "patch in the key" "first=$first $k0 -> $k1"; fi

# 4.
cp "$work/r/emu/qemu/patches/10.0/series" "$work/series"
echo "0099-no-such.patch" >>"$work/r/emu/qemu/patches/10.0/series"
out=$(p10 2>&1); rc=$?
cp "$work/series" "$work/r/emu/qemu/patches/10.0/series"
if [ $rc -ne 0 ] && [[ "$out" == *"missing patch: 0099-no-such.patch"* ]]; then
    ok "a series line naming a missing patch fails, naming it"
else bad "missing patch" "rc=$rc: $out"; fi

# 5.
echo "int gemlab_probe;" >"$work/r/models/src/zz_probe.c"
out=$(QEMU_BASE=10.0 b all 2>&1); rc=$?
rm -f "$work/r/models/src/zz_probe.c"
if [ $rc -ne 0 ] && [[ "$out" == *"gemlab-models/meson.build: its src/ list differs"*"> zz_probe.c"* ]] &&
   [[ "$out" != *"deb-src"* ]] && [ ! -d "$work/cache/qemu/dl" ]; then
    ok "an unlisted model file stops the 10.0 build before any fetch, naming it"
else bad "model list check" "rc=$rc: $out"; fi

# 6.
out=$(QEMU_BASE=10.0 b canary 2>&1); rc=$?
mkdir -p "$work/fake/hw/net" "$work/fake/hw/arm"
echo "10.2.50" >"$work/fake/VERSION"
echo "# not QEMU's" >"$work/fake/hw/net/meson.build"
echo "/* not QEMU's */" >"$work/fake/hw/arm/xilinx_zynq.c"
before=$(cd "$work/fake" && find . -type f -exec sha256sum {} + | sort; find . | sort)
out2=$(QEMU_BASE=10.0 QEMU_SRC="$work/fake" b canary 2>&1); rc2=$?
after=$(cd "$work/fake" && find . -type f -exec sha256sum {} + | sort; find . | sort)
n=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$work/r/emu/qemu/patches/10.0/series" | wc -l)
if [ $rc -eq 2 ] && [[ "$out" == *"needs QEMU_SRC"* ]] && [ $rc2 -eq 1 ] &&
   [ "$(grep -c '^  FAILS ' <<<"$out2")" -eq "$n" ] && [[ "$out2" == *"0 of $n apply, $n fail"* ]] &&
   [ "$before" = "$after" ]; then
    ok "canary: QEMU_SRC required; every patch FAILS on a foreign tree, exit 1, tree untouched"
else bad "canary" "rc=$rc rc2=$rc2 n=$n: $out2"; fi

summary qemu_build_keys
