#!/usr/bin/env bash
# firmware/linux/kernel/build.sh OUTDIR - the gemlab Zynq kernel and DTBs.
#
# Builds Linux 6.1 from Debian's linux-source-6.1 (never a committed copy) with
# arm-linux-gnueabihf-gcc through ccache: multi_v7_defconfig, every other
# platform off, then gemlab.config merged by scripts/kconfig/merge_config.sh.
# DTBs: upstream zynq-zc702.dtb and zynq-zc706.dtb, plus "-qemu" variants
# compiled from the same upstream .dts with qemu-overlay.dtsi appended.
#
# Cache: $GEMLAB_CACHE/linux/<key>/ where key hashes this script, the config
# fragment, the QEMU overlay, the source package version and the compiler
# version. A matching cache entry is copied out without running make.
# Outputs in OUTDIR: zImage, *.dtb, kernel.config, build-time.txt (cold builds).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUTDIR}
mkdir -p "$out"; out=$(cd "$out" && pwd)
cache_root=${GEMLAB_CACHE:-$HOME/.cache/gemlab}/linux
jobs=${JOBS:-2}
cross=arm-linux-gnueabihf-
boards="zynq-zc702 zynq-zc706"

die() { echo "linux-kernel: FAILED: $*" >&2; exit 1; }

command -v ${cross}gcc >/dev/null || die "step deps: ${cross}gcc missing (scripts/deps.sh linux)"
# LINUX_SOURCE_TAR replaces the package's tarball (tests/qemu/linux/build_fail.sh
# feeds a broken tree through it, with its own GEMLAB_CACHE).
tarball=${LINUX_SOURCE_TAR:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$tarball" ] || die "step deps: $tarball missing (apt-get install linux-source-6.1)"
pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
gccver=$(${cross}gcc -dumpfullversion)

key=$( { cat "$0" "$here/gemlab.config" "$here/qemu-overlay.dtsi"
         echo "$pkgver $gccver $boards $tarball"; } | sha256sum | cut -c1-16)
cache=$cache_root/$key
products="zImage kernel.config"
for b in $boards; do products="$products $b.dtb $b-qemu.dtb"; done

have_cache() {
    local p
    for p in $products; do [ -s "$cache/$p" ] || return 1; done
}
copy_out() {
    local p
    for p in $products; do cp -p "$cache/$p" "$out/$p"; done
    if [ -f "$cache/build-time.txt" ]; then cp -p "$cache/build-time.txt" "$out/"; fi
    echo "$key" > "$out/kernel.key"
}

if have_cache; then
    echo "linux-kernel: cache hit $cache"
    copy_out
    exit 0
fi

# --- source: extracted once per package version -----------------------------
src=$cache_root/src/$pkgver
if [ ! -f "$src/.extracted" ]; then
    echo "linux-kernel: extracting $tarball ($pkgver)"
    rm -rf "$src"; mkdir -p "$src"
    tar -C "$src" -xf "$tarball" || die "step extract"
    touch "$src/.extracted"
fi
ksrc=$src/linux-source-6.1
obj=$cache_root/obj-$pkgver
mkdir -p "$obj"

# Reproducible identity strings keep ccache hits across machines and days.
export ARCH=arm CROSS_COMPILE=$cross
export KBUILD_BUILD_USER=gemlab KBUILD_BUILD_HOST=gemlab
export KBUILD_BUILD_TIMESTAMP="$pkgver"
kmake() { make -C "$ksrc" O="$obj" CC="ccache ${cross}gcc" -j"$jobs" "$@"; }

# --- config -----------------------------------------------------------------
# Every platform the defconfig enables except Zynq goes off; generated so a
# new Debian point release cannot silently re-add one.
grep -E '^CONFIG_(ARCH|SOC|PLAT)_[A-Za-z0-9_]+=y' "$ksrc/arch/arm/configs/multi_v7_defconfig" \
    | cut -d= -f1 | grep -vxE 'CONFIG_ARCH_(ZYNQ|MULTI_V7)' \
    | sed 's/.*/# & is not set/' > "$obj/platforms-off.config"
echo "linux-kernel: config (merge_config.sh)"
( cd "$ksrc" && scripts/kconfig/merge_config.sh -O "$obj" \
      arch/arm/configs/multi_v7_defconfig "$obj/platforms-off.config" \
      "$here/gemlab.config" ) > "$obj/merge.log" 2>&1 \
    || { tail -20 "$obj/merge.log" >&2; die "step config"; }
# merge_config only warns when a requested value did not survive; we fail.
bad=0
while read -r line; do
    case "$line" in
    CONFIG_*=*) grep -qxF "$line" "$obj/.config" || { echo "  not applied: $line" >&2; bad=1; } ;;
    "# CONFIG_"*" is not set")
        sym=${line#\# }; sym=${sym%% *}
        grep -qE "^$sym=" "$obj/.config" && { echo "  still on: $sym" >&2; bad=1; } ;;
    esac
done < "$here/gemlab.config"
[ $bad -eq 0 ] || die "step config: gemlab.config not applied (see $obj/merge.log)"

# --- build ------------------------------------------------------------------
t0=$(date +%s)
echo "linux-kernel: make -j$jobs zImage dtbs (log: $obj/build.log)"
dtbs=()
for b in $boards; do dtbs+=("$b.dtb"); done
kmake zImage "${dtbs[@]}" > "$obj/build.log" 2>&1 \
    || { tail -30 "$obj/build.log" >&2; die "step zImage/dtbs"; }
t1=$(date +%s)

# QEMU variants: upstream .dts + our overlay, preprocessed like kbuild does.
for b in $boards; do
    cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
        -I "$ksrc/arch/arm/boot/dts" -I "$ksrc/include" \
        -include "$ksrc/arch/arm/boot/dts/$b.dts" "$here/qemu-overlay.dtsi" \
        -o "$obj/$b-qemu.dts.tmp" || die "step dtb $b-qemu (cpp)"
    dtc -q -I dts -O dtb -o "$obj/$b-qemu.dtb" "$obj/$b-qemu.dts.tmp" \
        || die "step dtb $b-qemu (dtc)"
done

tmp=$cache.tmp.$$
rm -rf "$tmp"; mkdir -p "$tmp"
cp "$obj/arch/arm/boot/zImage" "$tmp/zImage"
cp "$obj/.config" "$tmp/kernel.config"
for b in $boards; do
    cp "$obj/arch/arm/boot/dts/$b.dtb" "$tmp/"
    cp "$obj/$b-qemu.dtb" "$tmp/"
done
echo "make zImage+dtbs: $((t1 - t0)) s (jobs=$jobs, ccache $(ccache -s 2>/dev/null | grep -m1 -iE 'hits' | tr -s ' ' || echo n/a))" \
    > "$tmp/build-time.txt"
rm -rf "$cache"; mv "$tmp" "$cache"
copy_out
echo "linux-kernel: built in $((t1 - t0)) s -> $cache"
