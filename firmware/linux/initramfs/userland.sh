#!/usr/bin/env bash
# firmware/linux/initramfs/userland.sh OUTDIR - the initramfs's third-party
# programs, all armhf and fully static, from Debian packages only:
#
#   busybox  busybox-static:armhf (apt-get download + dpkg -x)
#   iperf    iperf 2.1.8: apt-get source iperf, configure --disable-shared
#            --enable-static-bin, cross-built
#   iperf3   3.12: Debian's libiperf-dev:armhf libiperf.a (same 3.12 source)
#            + our iperf3_main.c, static, with libssl/libcrypto/libsctp .a
#            from their armhf -dev packages (see iperf3_main.c for why not
#            `apt-get source iperf3`: its orig tarball is 404 on the mirror)
#   ethtool  6.1: apt-get source ethtool, --disable-netlink (ioctl path,
#            no libmnl), cross-built static
#
# Everything is stripped, and the build FAILS if `readelf -d` shows a NEEDED
# entry: the initramfs carries no shared libraries or loader (readelf(1) -d
# lists the NEEDED libraries).  Cached in $GEMLAB_CACHE/linux/userland/<key>/.
# Outputs: OUTDIR/bin/{busybox,iperf,iperf3,ethtool}, OUTDIR/versions.txt.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: userland.sh OUTDIR}
mkdir -p "$out"; out=$(cd "$out" && pwd)
root=${GEMLAB_CACHE:-$HOME/.cache/gemlab}/linux
pkgs=$root/pkgsrc
jobs=${JOBS:-2}
host=arm-linux-gnueabihf
tools="busybox iperf iperf3 ethtool"

die() { echo "linux-userland: FAILED: $*" >&2; exit 1; }
step() { echo "linux-userland: $*"; }

command -v $host-gcc >/dev/null || die "step deps: $host-gcc missing (scripts/deps.sh linux)"
command -v dpkg-source >/dev/null || die "step deps: dpkg-source missing (dpkg-dev)"

# Versions come from apt's view of the archive, so the key changes with them.
# The six apt-cache queries take seconds, so their answers are kept per
# signature of apt's lists and configuration (any apt-get update, source or
# pin change makes a new signature and a fresh query).
cand() { apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}'; }
srcver() { apt-cache showsrc "$1" 2>/dev/null | awk '/^Version:/ {print $2; exit}'; }
apt_sig=$( { ls -l --time-style=+%s /var/lib/apt/lists/ /etc/apt/sources.list \
               /etc/apt/sources.list.d/ /etc/apt/preferences.d/ 2>/dev/null
             dpkg --print-foreign-architectures; cat "$0"; } | sha256sum | cut -c1-16)
vcache=$root/userland/apt-versions-$apt_sig
if [ -s "$vcache" ]; then
    # The v_*= lines this script wrote below (printf %q), read back.
    # shellcheck source=/dev/null
    . "$vcache"
else
    v_busybox=$(cand busybox-static:armhf)
    v_libiperf=$(cand libiperf-dev:armhf)
    v_ssl=$(cand libssl-dev:armhf)
    v_sctp=$(cand libsctp-dev:armhf)
    v_iperf=$(srcver iperf)
    v_ethtool=$(srcver ethtool)
fi
for v in v_busybox v_libiperf v_ssl v_sctp v_iperf v_ethtool; do
    [ -n "${!v}" ] || die "step deps: no version for ${v#v_} (apt-get update; dpkg --add-architecture armhf; deb-src)"
done
if [ ! -s "$vcache" ]; then
    mkdir -p "${vcache%/*}"
    for v in v_busybox v_libiperf v_ssl v_sctp v_iperf v_ethtool; do
        printf '%s=%q\n' "$v" "${!v}"
    done > "$vcache.tmp.$$" && mv "$vcache.tmp.$$" "$vcache"
fi
key=$( { cat "$0" "$here/iperf3_main.c"; $host-gcc -dumpfullversion
         echo "$v_busybox $v_libiperf $v_ssl $v_sctp $v_iperf $v_ethtool"; } \
       | sha256sum | cut -c1-16)
cache=$root/userland/$key

copy_out() {
    mkdir -p "$out/bin"
    for t in $tools; do cp -p "$cache/bin/$t" "$out/bin/$t"; done
    cp -p "$cache/versions.txt" "$out/versions.txt"
}
if [ -f "$cache/.done" ]; then
    step "cache hit $cache"
    copy_out
    exit 0
fi

work=$root/userland/work-$key
rm -rf "$work"; mkdir -p "$work/bin" "$work/sysroot" "$pkgs"

# --- fetch ------------------------------------------------------------------
fetch_deb() { # PKG:armhf VERSION
    local name=${1%%:*} f="" d
    # The first (sorted) NAME_*_armhf.deb whose name holds _VERSION_.
    for d in "$pkgs/${name}_"*"_armhf.deb"; do
        case "$d" in *"_${2#*:}_"*) [ -e "$d" ] && { f=$d; break; } ;; esac
    done
    if [ -z "$f" ]; then
        ( cd "$pkgs" && apt-get download -q "$1=$2" ) >"$work/fetch-$name.log" 2>&1 \
            || { cat "$work/fetch-$name.log" >&2; die "step fetch $1"; }
        for d in "$pkgs/${name}_"*"_armhf.deb"; do
            [ -e "$d" ] && { f=$d; break; }
        done
    fi
    echo "$f"
}
fetch_src() { # SRCPKG VERSION -> unpacked dir
    local dsc="$pkgs/$1_${2#*:}.dsc"
    if [ ! -f "$dsc" ]; then
        ( cd "$pkgs" && apt-get source -q --download-only "$1=$2" ) >"$work/fetch-$1.log" 2>&1 \
            || { cat "$work/fetch-$1.log" >&2; die "step fetch source $1 $2"; }
    fi
    rm -rf "$work/src-$1"; mkdir -p "$work/src-$1"
    dpkg-source -x "$dsc" "$work/src-$1/tree" >"$work/unpack-$1.log" 2>&1 \
        || { cat "$work/unpack-$1.log" >&2; die "step unpack $1"; }
    echo "$work/src-$1/tree"
}

step "busybox $v_busybox"
dpkg -x "$(fetch_deb busybox-static:armhf "$v_busybox")" "$work/busybox" || die "step unpack busybox"
cp "$work/busybox/bin/busybox" "$work/bin/busybox"

# --- iperf 2 ----------------------------------------------------------------
step "iperf $v_iperf (configure + make, log: $work/iperf.log)"
src=$(fetch_src iperf "$v_iperf")
# The dfsg tarball drops files its shipped Makefile.in still lists; Debian's
# dh regenerates the build system, so do we.
( cd "$src" && autoreconf -fi && ./configure --host=$host --disable-shared --enable-static \
      --enable-static-bin CC="$host-gcc" CXX="$host-g++" \
      CFLAGS="-Os" CXXFLAGS="-Os" LDFLAGS="-static" \
    && make -j"$jobs" ) >"$work/iperf.log" 2>&1 \
    || { tail -30 "$work/iperf.log" >&2; die "step iperf build"; }
cp "$src/src/iperf" "$work/bin/iperf"

# --- iperf3 -----------------------------------------------------------------
step "iperf3 (libiperf $v_libiperf, static link)"
for p in "libiperf-dev:armhf $v_libiperf" "libssl-dev:armhf $v_ssl" "libsctp-dev:armhf $v_sctp"; do
    dpkg -x "$(fetch_deb "${p%% *}" "${p#* }")" "$work/sysroot" || die "step unpack ${p%% *}"
done
sr=$work/sysroot/usr
$host-gcc -std=c11 -D_DEFAULT_SOURCE -Os -Wall -Wextra -Werror -static \
    -I"$sr/include" -I"$sr/include/$host" "$here/iperf3_main.c" \
    -L"$sr/lib/$host" -Wl,--gc-sections -liperf -lssl -lcrypto -lsctp -lm \
    -o "$work/bin/iperf3" >"$work/iperf3.log" 2>&1 \
    || { cat "$work/iperf3.log" >&2; die "step iperf3 link"; }

# --- ethtool ----------------------------------------------------------------
step "ethtool $v_ethtool (configure --disable-netlink, log: $work/ethtool.log)"
src=$(fetch_src ethtool "$v_ethtool")
( cd "$src" && ./configure --host=$host --disable-netlink --disable-pretty-dump \
      CC="$host-gcc" CFLAGS="-Os" LDFLAGS="-static" \
    && make -j"$jobs" ethtool ) >"$work/ethtool.log" 2>&1 \
    || { tail -30 "$work/ethtool.log" >&2; die "step ethtool build"; }
cp "$src/ethtool" "$work/bin/ethtool"

# --- strip and the static check ---------------------------------------------
: > "$work/versions.txt"
for t in $tools; do
    f=$work/bin/$t
    [ "$t" = busybox ] || $host-strip "$f" || die "step strip $t"
    needed=$($host-readelf -d "$f" 2>&1 | grep -F '(NEEDED)' || true)
    [ -z "$needed" ] || { echo "$needed" >&2; die "step static-check: $t has NEEDED entries"; }
    $host-readelf -h "$f" | grep -q 'Machine:.*ARM' || die "step static-check: $t is not an ARM ELF"
    printf '%-8s %9d bytes  %s\n' "$t" "$(stat -c %s "$f")" \
        "$(case $t in busybox) echo "busybox-static $v_busybox";; iperf) echo "iperf $v_iperf";;
                      iperf3) echo "libiperf $v_libiperf";; ethtool) echo "ethtool $v_ethtool";; esac)" \
        >> "$work/versions.txt"
done

rm -rf "$cache"; mkdir -p "$cache"
cp -a "$work/bin" "$work/versions.txt" "$cache/"
touch "$cache/.done"
rm -rf "$work"
copy_out
cat "$out/versions.txt"
