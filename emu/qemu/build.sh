#!/usr/bin/env bash
# emu/qemu/build.sh [all|path|tree|clean] - build gemlab's QEMU 7.2.
#
# Fetches Debian bookworm's QEMU 7.2 source package (version pinned below),
# applies emu/qemu/patches/ in the order given by patches/series, links the
# repository's models/ into the tree at hw/net/gemlab-models/ and builds
# arm-softmmu out of tree with ccache.  Nothing is written into git: all of
# it lives under $GEMLAB_CACHE/qemu (default ~/.cache/gemlab/qemu):
#
#   dl/VER/                 the downloaded source package (.dsc + tarballs)
#   VER-KEY/src/            the patched tree (a git repo: one commit/patch)
#   VER-KEY/build/          the meson/ninja build directory
#
# KEY hashes the patch series plus the configure options, so a new patch
# set gets a fresh tree.  The models are NOT part of the key: they are
# symlinked into the tree, so a model edit only makes ninja recompile the
# changed model objects and relink (seconds).  Adding or removing a model
# .c file regenerates gemlab-models/meson.build, which ninja turns into a
# meson regeneration (not a full rebuild).
#
# Commands:
#   all    build if missing or stale (default); prints the binary path last
#   path   print the binary path (does not build)
#   tree   print the patched source tree path (for patch development)
#   clean  remove this key's tree and build directory (downloads are kept)
#   prune  remove every other key's tree and build (old patch sets; the
#          current patch set's normal and SAN=1 builds both stay)
#   fuzz-path  print the qemu-fuzz-arm path (QEMU_SAN=1 only)
#
# QEMU_SAN=1 (`make -C emu/qemu SAN=1`) selects the sanitizer build: clang-14
# with --enable-sanitizers (ASan + UBSan) and --enable-fuzzing, one build dir
# (its own key: the configure options differ) that makes both
# qemu-system-arm (tests/device on ASan/UBSan) and qemu-fuzz-arm (libFuzzer
# with QEMU's generic-fuzz target, tests/fuzz/qemu).  --enable-fuzzing
# compiles everything with -fsanitize=fuzzer-no-link and only links
# libFuzzer's main() into qemu-fuzz-arm, so qemu-system-arm stays an
# ordinary emulator (QEMU docs/devel/fuzzing.rst; meson.build "Fuzzing").
# Coverage instrumentation is limited to hw/, net/ and slirp by QEMU's
# scripts/oss-fuzz/instrumentation-filter-template (our models are compiled
# as hw/net/gemlab-models/src/*.c, so they are instrumented).
#
# A failed step stops the script with "build.sh: step 'NAME' failed".
# Locks (flock): the download takes $GEMLAB_CACHE/qemu/.lock, everything
# of one key (tree, configure, compile, clean) takes that key's VER-KEY.lock.
# Two runs of the same key serialise; different keys (the normal and the
# sanitizer build, or a new patch set) do not wait for each other, so a
# no-op `make -C emu/qemu` never sits behind a 20-minute SAN=1 build.
set -Eeuo pipefail

QEMU_DEB_VERSION_PIN="1:7.2+dfsg-7+deb12u18"
JOBS=${JOBS:-2}

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache_root=${GEMLAB_CACHE:-$HOME/.cache/gemlab}/qemu
patchdir="$here/patches"

# Configure options; part of the cache key.
CONFIGURE_OPTS=(
    --target-list=arm-softmmu
    --without-default-features
    --without-default-devices
    --with-devices-arm=gemlab
    --enable-slirp
    --enable-seccomp
    --enable-fdt=system
    --disable-docs
    --disable-werror
    --disable-install-blobs
    --with-git-submodules=ignore
    --meson=meson
)
QEMU_SAN=${QEMU_SAN:-0}
# ninja targets; the sanitizer build adds the fuzzer.
TARGETS=(qemu-system-arm)
if [ "$QEMU_SAN" = 1 ]; then
    # clang (not gcc): libFuzzer and -fsanitize=fuzzer-no-link are clang's.
    # Debian bookworm: clang-14 + libclang-rt-14-dev (scripts/deps/qemu.list).
    san_cc=clang-14 san_cxx=clang++-14
    for c in "$san_cc" "$san_cxx"; do
        command -v "$c" >/dev/null || {
            echo "build.sh: QEMU_SAN=1 needs $c (run: scripts/deps.sh qemu)" >&2; exit 1; }
    done
    # ccache through Debian's masquerade links, as for the normal build.
    [ -x "/usr/lib/ccache/$san_cc" ] && san_cc=/usr/lib/ccache/$san_cc
    [ -x "/usr/lib/ccache/$san_cxx" ] && san_cxx=/usr/lib/ccache/$san_cxx
    # --cxx too: QEMU links with the C++ driver when one works, and g++
    # cannot link clang's -fsanitize=fuzzer objects.
    CONFIGURE_OPTS+=(--cc="$san_cc" --cxx="$san_cxx" --enable-sanitizers --enable-fuzzing)
    TARGETS+=(qemu-fuzz-arm)
# ccache: QEMU's configure hands meson an explicit compiler, so meson's own
# ccache detection never triggers; use Debian's masquerade link instead.
elif [ -x /usr/lib/ccache/cc ]; then
    CONFIGURE_OPTS+=(--cc=/usr/lib/ccache/cc)
fi

step=""
# Only reached through `trap on_err ERR` below (shellcheck cannot see it).
# shellcheck disable=SC2317
on_err() { [ "$BASHPID" = "$$" ] && echo "build.sh: step '$step' failed" >&2; }
trap on_err ERR

log() { [ "${QUIET:-0}" = 1 ] || echo "build.sh: $*" >&2; }
# The long steps say what they do and how long it takes even when QUIET=1
# (`make run` on a fresh machine would otherwise sit silent for minutes);
# a no-op build prints nothing.  QUIET=2 silences these too.
progress() { [ "${QUIET:-0}" = 2 ] || echo "build.sh: $*" >&2; }
# m:ss
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

series() {
    if [ -f "$patchdir/series" ]; then
        sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patchdir/series"
    else
        (cd "$patchdir" && find . -maxdepth 1 -name '*.patch' -printf '%f\n' | sort)
    fi
}

# The Debian version we build.  The pin wins when the archive still serves
# it; otherwise the newest bookworm 7.2 source, with a loud warning.
# pick_version lookup (path, fuzz-path, tree): only asked where the binary
# is or will be.  Before scripts/deps.sh has enabled deb-src, apt-cache
# knows no qemu source: that is the pinned version's path (what `all`
# fetches once deb-src is on), not an error.
pick_version() {
    local dl="$cache_root/dl"
    local v=${QEMU_DEB_VERSION_PIN#1:}
    if [ -f "$dl/$v/.complete" ]; then echo "$v"; return; fi
    local avail
    avail=$(apt-cache showsrc qemu 2>/dev/null | sed -n 's/^Version: //p' | sort -u)
    if [ -z "$avail" ] && [ "${1:-}" = lookup ]; then echo "$v"; return; fi
    if [ -z "$avail" ]; then
        echo "build.sh: apt-cache showsrc qemu lists nothing; is deb-src enabled? run: scripts/deps.sh qemu" >&2
        return 1
    fi
    if grep -qxF "$QEMU_DEB_VERSION_PIN" <<<"$avail"; then echo "$v"; return; fi
    local alt
    alt=$(grep '^1:7\.2+' <<<"$avail" | sort -V | tail -1)
    if [ -z "$alt" ]; then
        echo "build.sh: no QEMU 7.2 source available (have: ${avail//$'\n'/ })" >&2
        return 1
    fi
    echo "build.sh: WARNING: pinned qemu $QEMU_DEB_VERSION_PIN is no longer served;" \
         "falling back to $alt. Patches may need a refresh." >&2
    echo "${alt#1:}"
}

key_of() {
    local v=$1
    {
        echo "qemu $v"
        printf '%s\n' "${CONFIGURE_OPTS[@]}"
        series | while read -r p; do echo "== $p"; cat "$patchdir/$p"; done
    } | sha256sum | cut -c1-12
}

fetch() {
    local v=$1 dl="$cache_root/dl/$1"
    [ -f "$dl/.complete" ] && return 0
    progress "fetching the QEMU $v source (apt-get source qemu, about 25 MB): a minute or two"
    rm -rf "$dl.tmp"; mkdir -p "$dl.tmp"
    (cd "$dl.tmp" && apt-get source -qq --download-only "qemu=1:$v" >/dev/null 2>&1) || {
        echo "build.sh: apt-get source qemu=1:$v failed (deb-src enabled? scripts/deps.sh qemu)" >&2
        return 1
    }
    touch "$dl.tmp/.complete"
    rm -rf "$dl"; mv "$dl.tmp" "$dl"
}

# Unpack (Debian patches applied), stub the edk2 blobs the dfsg tarball
# lacks, commit as "pristine", then one commit per gemlab patch.
make_tree() {
    local v=$1 src=$2 dl="$cache_root/dl/$1"
    [ -f "$src/.gemlab-patched" ] && return 0
    rm -rf "$src.tmp"; mkdir -p "$(dirname "$src")"
    progress "unpacking and patching QEMU $v into $src: about a minute"
    step=unpack
    dpkg-source -q -x "$dl"/qemu_*.dsc "$src.tmp" >/dev/null 2>&1
    rm -f "$(dirname "$src")"/qemu_*.orig.tar.*   # dpkg-source's link
    step=edk2-placeholders
    # pc-bios/meson.build wants every edk2 *.fd.bz2 when an ARM target is
    # built; empty bzip2 streams satisfy it (we never install blobs).
    local f
    while read -r f; do
        [ -f "$src.tmp/pc-bios/$f.bz2" ] || bzip2 </dev/null >"$src.tmp/pc-bios/$f.bz2"
    done < <(sed -n "s/^ *'\(edk2-[^']*\.fd\)',\?$/\1/p" "$src.tmp/pc-bios/meson.build")
    step=git-init
    (cd "$src.tmp" && git init -q && git add -A -f . &&
        git -c user.name=gemlab -c user.email=gemlab@localhost \
            commit -q -m "pristine qemu $v (Debian patches applied, edk2 stubs)")
    local p
    while read -r p; do
        step="apply $p"
        [ -f "$patchdir/$p" ] || { echo "build.sh: series names missing patch $p" >&2; false; }
        (cd "$src.tmp" && git apply --index "$patchdir/$p" &&
            git -c user.name=gemlab -c user.email=gemlab@localhost commit -q -m "$p")
    done < <(series)
    touch "$src.tmp/.gemlab-patched"
    mv "$src.tmp" "$src"
}

# hw/net/gemlab-models/{include,src} -> the repository's models/, plus a
# meson.build listing the model sources (rewritten only when the list
# changes, so ninja does not re-run meson for nothing).
link_models() {
    local src=$1 gm="$1/hw/net/gemlab-models"
    mkdir -p "$gm"
    ln -sfn "$top/models/include" "$gm/include"
    ln -sfn "$top/models/src" "$gm/src"
    local new="$gm/meson.build.new"
    {
        echo "# Generated by emu/qemu/build.sh from $top/models - do not edit."
        echo "gemlab_models_dep = declare_dependency("
        echo "  include_directories: include_directories('include'))"
        echo "gemlab_models_src = files("
        (cd "$top/models/src" && find . -maxdepth 1 -name '*.c' -printf '%f\n' | LC_ALL=C sort) |
            sed "s|.*|  'src/&',|"
        echo ")"
    } >"$new"
    if cmp -s "$new" "$gm/meson.build"; then rm -f "$new"; else mv "$new" "$gm/meson.build"; fi
}

configure_tree() {
    local src=$1 bld=$2
    [ -f "$bld/build.ninja" ] && [ -f "$bld/.gemlab-configured" ] && return 0
    rm -rf "$bld"; mkdir -p "$bld"
    progress "configuring QEMU $ver (arm-softmmu): about a minute, log: $bld/configure.log"
    (cd "$bld" && "$src/configure" "${CONFIGURE_OPTS[@]}" >configure.log 2>&1) || {
        tail -30 "$bld/configure.log" >&2; return 1
    }
    touch "$bld/.gemlab-configured"
}

compile() {
    local bld=$1
    # ccache: one cache for every key's build dir (paths made relative).
    export CCACHE_BASEDIR="$cache_root" CCACHE_NOHASHDIR=1
    log "ninja -j$JOBS in $bld (${TARGETS[*]})"
    if [ "${V:-0}" = 1 ]; then
        ninja -C "$bld" -j"$JOBS" "${TARGETS[@]}"
        return
    fi
    # How much is to do: `ninja -n` lists the steps without running them.
    # An up-to-date tree still lists a few (qemu-version.h is always
    # stale, QEMU's meson.build), so only a real build gets the lines.
    local steps rc=0 mon=""
    steps=$(ninja -C "$bld" -n "${TARGETS[@]}" 2>/dev/null | grep -c '^\[' || true)
    if [ "${steps:-0}" -gt 50 ]; then
        # Seconds of one CPU per step, measured on a 2-core bookworm VM
        # with a cold ccache: gcc about 0.75 (1620 steps in about 10 min at
        # -j2), clang-14 with ASan/UBSan about 1.8.  Hits in ccache make it
        # shorter, other load on the machine longer.
        local per=75 what="arm-softmmu" est
        [ "$QEMU_SAN" = 1 ] && per=180 what="arm-softmmu, ASan+UBSan, qemu-fuzz-arm"
        est=$(( (steps * per / 100 / JOBS + 59) / 60 ))
        progress "building QEMU $ver ($what, $steps steps): about $est min on $JOBS cores, log: $bld/ninja.log"
        # One line every 30 s: ninja's last [n/N] and the time, not a wall
        # of compiler lines.  Ticks of 1 s, so that nothing lingers on
        # our stderr once ninja is done.
        (
            t=0
            while sleep 1; do
                t=$((t + 1))
                [ $((t % 30)) -eq 0 ] || continue
                last=$(tail -n 40 "$bld/ninja.log" 2>/dev/null | grep -o '^\[[0-9]*/[0-9]*\]' | tail -n 1 || true)
                done_n=${last#[}; done_n=${done_n%/*}
                tot=${last#*/}; tot=${tot%]}
                left=""
                if [ -n "$last" ] && [ "${done_n:-0}" -gt 0 ] && [ "$tot" -gt "$done_n" ]; then
                    left=$((t * (tot - done_n) / done_n))
                    if [ "$left" -lt 60 ]; then left=", under a minute left"
                    else left=", about $(( (left + 59) / 60 )) min left"; fi
                fi
                progress "QEMU ${last:-[starting]} $(mmss $t) elapsed$left"
            done
        ) &
        mon=$!
    fi
    ninja -C "$bld" -j"$JOBS" "${TARGETS[@]}" >"$bld/ninja.log" 2>&1 || rc=$?
    if [ -n "$mon" ]; then
        kill "$mon" 2>/dev/null || true
        wait "$mon" 2>/dev/null || true
    fi
    if [ "$rc" -ne 0 ]; then
        grep -E -B2 -A12 'error|FAILED' "$bld/ninja.log" | head -60 >&2
        return 1
    fi
    [ -z "$mon" ] || progress "built $bld/qemu-system-arm"
}

# The whole run is one function, parsed before it starts: editing this
# file while a build runs cannot derail it.
main() {
    cmd=${1:-all}
    mkdir -p "$cache_root"
    step=version
    case "$cmd" in
    path|fuzz-path|tree) ver=$(pick_version lookup) ;;
    *) ver=$(pick_version) ;;
    esac
    step=key
    key=$(key_of "$ver")
    base="$cache_root/$ver-$key"
    bin="$base/build/qemu-system-arm"
    fuzzbin="$base/build/qemu-fuzz-arm"

    case "$cmd" in
    path) echo "$bin"; exit 0 ;;
    fuzz-path)
        [ "$QEMU_SAN" = 1 ] || {
            echo "build.sh: qemu-fuzz-arm exists only in the sanitizer build (QEMU_SAN=1)" >&2; exit 2; }
        echo "$fuzzbin"; exit 0 ;;
    tree) echo "$base/src"; exit 0 ;;
    clean)
        exec 8>"$base.lock"; flock 8
        rm -rf "$base"; log "removed $base"; exit 0 ;;
    prune)
        # keeps the current patch set's normal and sanitizer keys, and any
        # key a running build holds
        local keep0 keep1
        keep0=$(QEMU_SAN=0 QUIET=1 "$here/build.sh" tree); keep0=${keep0%/src}
        keep1=$(QEMU_SAN=1 QUIET=1 "$here/build.sh" tree); keep1=${keep1%/src}
        exec 9>"$cache_root/.lock"; flock 9
        for d in "$cache_root"/*-*/; do
            d=${d%/}
            [ "$d" = "$keep0" ] || [ "$d" = "$keep1" ] ||
                { [ ! -d "$d/src" ] && [ ! -d "$d/build" ]; } && continue
            if (exec 7>"$d.lock"; flock -n 7 && rm -rf "$d"); then
                log "removed $d"
            else
                log "kept $d (a build holds $d.lock)"
            fi
        done
        exit 0 ;;
    all) ;;
    *) echo "usage: [QEMU_SAN=1] $0 [all|path|fuzz-path|tree|clean|prune]" >&2; exit 2 ;;
    esac

    step=lock
    exec 9>"$cache_root/.lock"
    flock 9
    step=fetch;     fetch "$ver"
    exec 9>&-
    step=lock
    exec 8>"$base.lock"
    flock 8
    step="patch";   make_tree "$ver" "$base/src"
    step=models;    link_models "$base/src"
    step=configure; configure_tree "$base/src" "$base/build"
    step=compile;   compile "$base/build"
    step=check
    [ -x "$bin" ]
    [ "$QEMU_SAN" != 1 ] || [ -x "$fuzzbin" ]
    echo "$bin"
}

# One line: bash reads a script as it runs it, and a line after main's
# return would be read from the edited file if build.sh changed meanwhile.
main "$@"; exit $?
