#!/usr/bin/env bash
# emu/qemu/build.sh [all|dev|path|tree|clean|prune|stock|stock-path] - build
# gemlab's QEMU.
#
# QEMU_BASE selects the QEMU it is built on (default below, BASE_DEFAULT):
#   7.2   Debian 12 (bookworm) QEMU 7.2 + patches/7.2/ (0003 holds the
#         device); models/ symlinked into the tree.
#   10.0  Debian 13 (trixie) QEMU 10.0 source + patches/10.0/ (a thin
#         series) + our own files: emu/qemu/{configs,hw,include}/ are
#         copied into the tree at the same relative paths, and models/
#         into hw/net/gemlab-models/{include,src} (see "10.0" below).
#
# Fetches the Debian source package (version pinned per base), applies
# patches/BASE/ in the order given by patches/BASE/series and builds
# arm-softmmu out of tree with ccache.  Nothing is written into git: all of
# it lives under $GEMLAB_CACHE/qemu (default ~/.cache/gemlab/qemu):
#
#   dl/VER/                 the downloaded source package (.dsc + tarballs)
#   VER-KEY/src/            the patched tree (a git repo: one commit/patch)
#   VER-KEY/build/          the meson/ninja build directory
#   VER-KEY/bin/FULL/       (10.0) the binaries built from one content of
#                           our files + models/ (what `path` prints)
#
# KEY hashes the QEMU version, the patch series and the configure options:
# it names the source tree and the build directory.
#
# 7.2: the models are NOT part of any key: they are symlinked into the
# tree, so a model edit only makes ninja recompile the changed model
# objects and relink (seconds).  Adding or removing a model .c file
# regenerates gemlab-models/meson.build, which ninja turns into a meson
# regeneration (not a full rebuild).
#
# 10.0: FULL = KEY plus the content of emu/qemu/{configs,hw,include,net}/,
# models/{include,src}/ and the firmware's iperf files the traffic peer
# reuses (copied to net/gemlab-peer/fw/), and the version of the lwIP it
# is built from (firmware/baremetal/lwip/fetch.sh's pin; the sources are
# copied to net/gemlab-peer/lwip/ at build time).  Those files are copied (not linked: two checkouts
# sharing one key cannot point the tree at each other's files) into the
# one build tree of KEY, only where the content differs, so ninja rebuilds
# just what changed; the binaries are then copied to bin/FULL/.  `path`
# names bin/FULL/, so a test never runs a binary built from other sources
# than the checkout's, and an edit costs an incremental build, not a new
# tree.  Our files may only add files to QEMU's tree: one that would
# replace a QEMU file is refused (change QEMU's files with a patch).
# The model list in emu/qemu/hw/net/gemlab-models/meson.build is committed
# and checked against models/src/*.c.
#
# Commands:
#   all    build if missing or stale (default); prints the binary path last
#   dev    the same, saying what it does and how long it took (the
#          edit-build loop: `make -C emu/qemu dev QEMU_BASE=10.0`)
#   path   print the binary path (does not build)
#   tree   print the patched source tree path (for patch development)
#   clean  remove this key's tree and build directory (downloads are kept)
#   prune  remove every other key's tree and build (old patch sets; the
#          current patch set's normal and SAN=1 builds both stay), and
#          the bin/FULL/ directories but the newest three of each key
#   fuzz-path  print the qemu-fuzz-arm path (QEMU_SAN=1 only)
#   stock  (10.0) build the unpatched Debian source, same configure
#          options, no gemlab files: the "stock" rows of the benchmarks
#   stock-path  print that binary's path
#   canary QEMU_SRC=DIR  apply the series to another QEMU source tree
#          (read-only: into a throw-away git index) and report which
#          patches no longer apply; exit 1 if any (not part of make test)
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

# The QEMU gemlab builds on when QEMU_BASE is not given.  Switching the
# default is this one line.
BASE_DEFAULT=10.0
JOBS=${JOBS:-2}

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache_root=${GEMLAB_CACHE:-$HOME/.cache/gemlab}/qemu
QEMU_BASE=${QEMU_BASE:-$BASE_DEFAULT}
STOCK=0

case "$QEMU_BASE" in
7.2)
    QEMU_DEB_VERSION_PIN="1:7.2+dfsg-7+deb12u18"
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
    ;;
10.0)
    # Debian 13's; bookworm-backports lists 1:10.0.2 but its .dsc is not
    # served (scripts/deps.sh enables deb-src for trixie).
    QEMU_DEB_VERSION_PIN="1:10.0.13+ds-0+deb13u1"
    # 10.0 builds with the meson of its python venv (the system's, >= 1.5,
    # scripts/deps.sh), never a download; /usr/bin/python3 so that no
    # other python3 on PATH (one without a meson module) is picked up.
    # The device set is configs/devices/arm-softmmu/gemlab.mak (committed
    # here, copied into the tree).
    CONFIGURE_OPTS=(
        --target-list=arm-softmmu
        --python=/usr/bin/python3
        --disable-download
        --without-default-features
        --without-default-devices
        --with-devices-arm=gemlab
        --enable-slirp
        --enable-seccomp
        --enable-fdt=system
        --disable-docs
        --disable-werror
        --disable-install-blobs
    )
    ;;
*)
    echo "build.sh: QEMU_BASE=$QEMU_BASE: unknown base (have: 7.2 10.0)" >&2
    exit 2 ;;
esac
patchdir="$here/patches/$QEMU_BASE"
case "${1:-all}" in
stock|stock-path)
    [ "$QEMU_BASE" = 10.0 ] || {
        echo "build.sh: $1: the stock build is for QEMU_BASE=10.0 (7.2's stock QEMU is Debian's qemu-system-arm)" >&2
        exit 2; }
    # Unpatched, same configure options and device set: only
    # configs/devices/arm-softmmu/gemlab.mak is copied into the tree.
    STOCK=1
    ;;
esac
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
    # 7.2's --enable-sanitizers became --enable-asan --enable-ubsan in
    # QEMU 9.1 (meson_options.txt "asan", "ubsan").
    san_opts=(--enable-sanitizers)
    [ "$QEMU_BASE" = 7.2 ] || san_opts=(--enable-asan --enable-ubsan)
    CONFIGURE_OPTS+=(--cc="$san_cc" --cxx="$san_cxx" "${san_opts[@]}" --enable-fuzzing)
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
    [ "$STOCK" = 1 ] && return 0
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
    alt=$(grep "^1:${QEMU_BASE//./\\.}[.+]" <<<"$avail" | sort -V | tail -1)
    if [ -z "$alt" ]; then
        echo "build.sh: no QEMU $QEMU_BASE source available (have: ${avail//$'\n'/ })" >&2
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
        for p in ${SERIES[@]+"${SERIES[@]}"}; do echo "== $p"; cat "$patchdir/$p"; done
        if [ "$STOCK" = 1 ]; then
            echo "stock"
            overlay_files | while IFS=$'\t' read -r a b; do echo "== $b"; cat "$a"; done
        fi
    } | sha256sum | cut -c1-12
}

# 10.0: our files, as "SOURCE<TAB>DEST" (DEST relative to the QEMU tree),
# sorted.  emu/qemu/{configs,hw,include}/ keep their relative paths;
# models/{include,src} go to hw/net/gemlab-models/.
# The stock build takes only configs/ (the device set, not code).
overlay_files() {
    local dirs=(configs hw include net)
    [ "$STOCK" = 0 ] || dirs=(configs)
    (cd "$here" && find "${dirs[@]}" -type f ! -name '*~' ! -name '.*' 2>/dev/null |
        LC_ALL=C sort | while read -r f; do printf '%s\t%s\n' "$here/$f" "$f"; done)
    [ "$STOCK" = 0 ] || return 0
    (cd "$top/models" && find include src -type f \( -name '*.c' -o -name '*.h' \) |
        LC_ALL=C sort | while read -r f; do printf '%s\t%s\n' "$top/models/$f" "hw/net/gemlab-models/$f"; done)
    lwip_files
    peer_fw_files
}

# 10.0: the bare-metal firmware's iperf 2 engines and the library they
# use, compiled for the host into the traffic peer (one iperf 2 code base
# for the board and the peer): to net/gemlab-peer/fw/ with the
# firmware's layout, so their relative includes hold.
peer_fw_files() {
    local fw="$top/firmware/baremetal"
    [ -d "$fw" ] || return 0
    (cd "$fw" && find include lib apps/apps.h apps/common apps/iperf apps/echo apps/latency \
            -type f \( -name '*.c' -o -name '*.h' \) |
        LC_ALL=C sort | while read -r f; do printf '%s\t%s\n' "$fw/$f" "net/gemlab-peer/fw/$f"; done)
}

# 10.0: the traffic peer's TCP/IP stack, lwIP from Debian's source (the
# tree the bare-metal firmware builds, firmware/baremetal/lwip/fetch.sh):
# its core, IPv4, Ethernet and headers go to net/gemlab-peer/lwip/ with
# lwIP's own layout; net/gemlab-peer/meson.build names what is compiled.
# Listed only when main has fetched the tree (LWIP_TREE: `all`, `dev`).
# FULL takes the pinned Debian version (lwip_version), not these files,
# so that `path` needs no fetch.
lwip_files() {
    [ -n "${LWIP_TREE:-}" ] || return 0
    (cd "$LWIP_TREE" && find src/core src/include/lwip src/include/netif src/netif/ethernet.c \
            -type f \( -name '*.c' -o -name '*.h' \) |
        LC_ALL=C sort | while read -r f; do printf '%s\t%s\n' "$LWIP_TREE/$f" "net/gemlab-peer/lwip/$f"; done)
}

# FULL: KEY plus the content of every overlay file (names and bytes).
full_key_of() {
    {
        echo "key $1"
        echo "lwip $(lwip_version)"
        overlay_files | while IFS=$'\t' read -r a b; do
            case $b in net/gemlab-peer/lwip/*) continue ;; esac
            echo "== $b"; cat "$a"
        done
    } | sha256sum | cut -c1-12
}

# The lwIP version the peer is built from: fetch.sh's pin (or
# $LWIP_DEB_VERSION, which fetch.sh honours too), read without fetching.
lwip_version() {
    local f="$top/firmware/baremetal/lwip/fetch.sh"
    if [ -n "${LWIP_DEB_VERSION:-}" ]; then
        echo "$LWIP_DEB_VERSION"
    elif [ -f "$f" ]; then
        # shellcheck disable=SC2016 # the $ is fetch.sh's text, matched literally
        sed -n 's/^version=\${LWIP_DEB_VERSION:-\(.*\)}$/\1/p' "$f"
    else
        echo none
    fi
}

fetch() {
    local v=$1 dl="$cache_root/dl/$1"
    [ -f "$dl/.complete" ] && return 0
    progress "fetching the QEMU $v source (apt-get source qemu, 25-40 MB): a minute or two"
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
    for p in ${SERIES[@]+"${SERIES[@]}"}; do
        step="apply $p"
        (cd "$src.tmp" && git apply --index "$patchdir/$p" &&
            git -c user.name=gemlab -c user.email=gemlab@localhost commit -q -m "$p")
    done
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

# 10.0: the committed model list must name exactly models/src/*.c (checked
# before anything is fetched or built).
check_model_list() {
    local frag="$here/hw/net/gemlab-models/meson.build" want have
    [ -f "$frag" ] || { echo "build.sh: $frag is missing" >&2; return 1; }
    want=$(cd "$top/models/src" && find . -maxdepth 1 -name '*.c' -printf '%f\n' | LC_ALL=C sort)
    have=$(sed -n "s|^ *'src/\([^']*\.c\)',\?\$|\1|p" "$frag" | LC_ALL=C sort)
    if [ "$want" != "$have" ]; then
        echo "build.sh: $frag: its src/ list differs from models/src/*.c:" >&2
        diff <(echo "$have") <(echo "$want") | sed -n 's/^[<>]/  &/p' >&2
        echo "  ('<' listed but no such file, '>' a model file it does not list)" >&2
        return 1
    fi
}

# 10.0: copy the overlay into the tree where the content differs (so ninja
# sees new mtimes only on what changed), delete what an earlier copy put
# there and is gone now, and keep git in the tree blind to all of it.
copy_overlay() {
    local src=$1 man="$1/.gemlab-overlay" a b n=0
    local -A now=()
    while IFS=$'\t' read -r a b; do
        now[$b]=1
        if [ ! -e "$src/$b" ] || grep -qxF "$b" "$man" 2>/dev/null; then
            if ! cmp -s "$a" "$src/$b"; then
                mkdir -p "$(dirname "$src/$b")"
                cp "$a" "$src/$b.gemlab-tmp" && mv -f "$src/$b.gemlab-tmp" "$src/$b"
                n=$((n + 1))
            fi
        else
            echo "build.sh: ${a#"$top/"} would replace QEMU's $b: change QEMU files with a patch in ${patchdir#"$top/"}/" >&2
            return 1
        fi
    done < <(overlay_files)
    if [ -f "$man" ]; then
        while read -r b; do
            [ -n "${now[$b]:-}" ] || { rm -f "$src/$b"; n=$((n + 1)); }
        done <"$man"
    fi
    printf '%s\n' "${!now[@]}" | LC_ALL=C sort >"$man"
    # `git status` in the tree shows the patches' work, not our copies
    { echo "/.gemlab-*"; sed 's|^|/|' "$man"; } >"$src/.git/info/exclude"
    log "overlay: $n file(s) updated in $src"
}

# canary: apply patches/BASE/ in series order to another QEMU source tree
# (QEMU_SRC: a newer upstream or Debian tree, or 7.2's), one after the
# other, and report which no longer apply.  Read-only on QEMU_SRC: the
# tree is hashed into a throw-away git index and the patches are applied
# to that index (git apply --cached), so nothing there is written.  A
# patch that fails is reported and skipped; the later ones are tried on
# what applied.  Exit 0 when every patch applies, 1 otherwise.
canary() {
    local qs=${QEMU_SRC:-} tmp p n=0 bad=0
    [ -n "$qs" ] || { echo "build.sh: canary needs QEMU_SRC=DIR (a QEMU source tree)" >&2; return 2; }
    if [ ! -f "$qs/VERSION" ] || [ ! -d "$qs/hw" ]; then
        echo "build.sh: QEMU_SRC=$qs: not a QEMU source tree (no VERSION, hw/)" >&2; return 2
    fi
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/gemlab-canary.XXXXXX")
    # shellcheck disable=SC2064 # expand $tmp now: it is local
    trap "rm -rf '$tmp'" RETURN
    local g=(git --git-dir="$tmp/git" --work-tree="$qs")
    git init -q --bare "$tmp/git"
    "${g[@]}" add -A -f . 2>/dev/null
    echo "canary: ${#SERIES[@]} patch(es) of patches/$QEMU_BASE onto $qs (QEMU $(cat "$qs/VERSION"))"
    for p in ${SERIES[@]+"${SERIES[@]}"}; do
        n=$((n + 1))
        if "${g[@]}" apply --cached "$patchdir/$p" 2>"$tmp/err"; then
            echo "  applies  $p"
        else
            bad=$((bad + 1))
            echo "  FAILS    $p"
            sed -n 's/^error: /             /p' "$tmp/err" | head -3
        fi
    done
    echo "canary: $((n - bad)) of $n apply, $bad fail"
    [ "$bad" -eq 0 ]
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

# QEMU's configure writes `werror = true` into the meson native file it
# passes (config-meson.cross) and -Dwerror=false on the command line for
# --disable-werror.  When one of our meson.build files changes, ninja has
# meson regenerate, which applies the native file again: -Werror came on
# in a configured tree (CI at 0a3f6ad: an implicit declaration in patch
# 0046 then failed the build).  Keep the file and the tree at false.
keep_werror_off() {
    local bld=$1 mesonb
    [ -f "$bld/config-meson.cross" ] || return 0
    sed -i 's/^werror = true$/werror = false/' "$bld/config-meson.cross"
    mesonb=$bld/pyvenv/bin/meson
    [ -x "$mesonb" ] || return 0
    if "$mesonb" introspect --buildoptions "$bld" 2>/dev/null |
        /usr/bin/python3 -c 'import json,sys; sys.exit(0 if any(o["name"] == "werror" and o["value"] for o in json.load(sys.stdin)) else 1)'; then
        log "meson configure -Dwerror=false in $bld (it had been turned on)"
        "$mesonb" configure -Dwerror=false "$bld" >>"$bld/configure.log" 2>&1
    fi
}

compile() {
    local bld=$1
    keep_werror_off "$bld" || return 1
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
    # A tree whose build.ninja is older than a meson.build (every fresh
    # one: our overlay lands after configure) lists only "[0/1]
    # Regenerating build files" until meson has run, so regenerate first;
    # a cold build otherwise said nothing for its whole 6-10 minutes.
    local steps rc=0 mon=""
    ninja -C "$bld" build.ninja >"$bld/ninja.log" 2>&1 || {
        grep -E -B2 -A12 'ERROR|error|FAILED' "$bld/ninja.log" | head -60 >&2
        return 1
    }
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
    ninja -C "$bld" -j"$JOBS" "${TARGETS[@]}" >>"$bld/ninja.log" 2>&1 || rc=$?
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
    case "$cmd:$QEMU_BASE" in
    all:10.0|dev:10.0) step=models; check_model_list ;;
    esac
    step=version
    case "$cmd" in
    path|fuzz-path|tree|stock-path|canary) ver=$(pick_version lookup) ;;
    *) ver=$(pick_version) ;;
    esac
    step=key
    # The series is read once: the key and the tree come from one list
    # (an edit of series during a build cannot give a tree another key).
    mapfile -t SERIES < <(series)
    for p in ${SERIES[@]+"${SERIES[@]}"}; do
        [ -f "$patchdir/$p" ] || {
            echo "build.sh: ${patchdir#"$top/"}/series names a missing patch: $p" >&2; exit 1; }
    done
    key=$(key_of "$ver")
    base="$cache_root/$ver-$key"
    # Where the binaries are run from: the build dir itself (7.2, stock),
    # or (10.0) the copy for this content of our files.
    out="$base/build"
    if [ "$QEMU_BASE" != 7.2 ] && [ "$STOCK" = 0 ]; then
        out="$base/bin/$(full_key_of "$key")"
    fi
    bin="$out/qemu-system-arm"
    fuzzbin="$out/qemu-fuzz-arm"

    case "$cmd" in
    path|stock-path) echo "$bin"; exit 0 ;;
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
        # key a running build holds; in a kept key, the newest three bin/
        # directories (10.0)
        local keep0 keep1 keep2=none
        keep0=$(QEMU_SAN=0 QUIET=1 "$here/build.sh" tree); keep0=${keep0%/src}
        keep1=$(QEMU_SAN=1 QUIET=1 "$here/build.sh" tree); keep1=${keep1%/src}
        if [ "$QEMU_BASE" = 10.0 ]; then
            keep2=$(QEMU_SAN=0 QUIET=1 "$here/build.sh" stock-path); keep2=${keep2%/build/qemu-system-arm}
        fi
        exec 9>"$cache_root/.lock"; flock 9
        for d in "$cache_root"/"$ver"-*/; do
            d=${d%/}
            [ "$d" = "$keep2" ] && continue
            if [ "$d" = "$keep0" ] || [ "$d" = "$keep1" ]; then
                [ -d "$d/bin" ] || continue
                (exec 7>"$d.lock"; flock -n 7 || exit 0
                 find "$d/bin" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' |
                     sort -rn | tail -n +4 | while read -r _ o; do
                     rm -rf "$o"; log "removed $o"; done)
                continue
            fi
            { [ ! -d "$d/src" ] && [ ! -d "$d/build" ]; } && continue
            if (exec 7>"$d.lock"; flock -n 7 && rm -rf "$d"); then
                log "removed $d"
            else
                log "kept $d (a build holds $d.lock)"
            fi
        done
        exit 0 ;;
    canary) step=canary; local rc=0; canary || rc=$?; exit $rc ;;
    all|dev|stock) ;;
    *) echo "usage: [QEMU_BASE=7.2|10.0] [QEMU_SAN=1] $0 [all|dev|path|fuzz-path|tree|clean|prune|stock|stock-path]" >&2
       echo "       QEMU_SRC=DIR [QEMU_BASE=...] $0 canary" >&2; exit 2 ;;
    esac

    # Already built from exactly these sources: nothing to do (10.0).
    if [ "$out" != "$base/build" ] && [ -x "$bin" ] &&
       { [ "$QEMU_SAN" != 1 ] || [ -x "$fuzzbin" ]; }; then
        [ "$cmd" = dev ] && progress "up to date: $bin"
        echo "$bin"; return 0
    fi
    local t0=$SECONDS
    # 10.0: the peer's lwIP tree, copied with the overlay (fetched once,
    # then cached under $GEMLAB_CACHE/lwip/VERSION)
    if [ "$QEMU_BASE" != 7.2 ] && [ "$STOCK" = 0 ]; then
        step=lwip
        LWIP_TREE=$(QUIET=1 "$top/firmware/baremetal/lwip/fetch.sh")
        [ "${LWIP_TREE##*/}" = "$(lwip_version)" ] || {
            echo "build.sh: fetch.sh gave $LWIP_TREE, not lwIP $(lwip_version)" >&2; exit 1; }
    fi
    step=lock
    exec 9>"$cache_root/.lock"
    flock 9
    step=fetch;     fetch "$ver"
    exec 9>&-
    step=lock
    exec 8>"$base.lock"
    flock 8
    step="patch";   make_tree "$ver" "$base/src"
    if [ "$QEMU_BASE" = 7.2 ]; then
        step=models;    link_models "$base/src"
    elif [ "$STOCK" = 1 ]; then
        step=overlay;   copy_overlay "$base/src"
    else
        step=overlay;   copy_overlay "$base/src"
    fi
    step=configure; configure_tree "$base/src" "$base/build"
    step=compile;   compile "$base/build"
    step=check
    [ -x "$base/build/qemu-system-arm" ]
    [ "$QEMU_SAN" != 1 ] || [ -x "$base/build/qemu-fuzz-arm" ]
    if [ "$out" != "$base/build" ]; then
        step=install
        rm -rf "$out.tmp"; mkdir -p "$out.tmp"
        cp -p "$base/build/qemu-system-arm" "$out.tmp/"
        [ "$QEMU_SAN" != 1 ] || cp -p "$base/build/qemu-fuzz-arm" "$out.tmp/"
        rm -rf "$out"; mv "$out.tmp" "$out"
    fi
    [ "$cmd" = dev ] && progress "built in $(mmss $((SECONDS - t0))): $bin"
    echo "$bin"
}

# One line: bash reads a script as it runs it, and a line after main's
# return would be read from the edited file if build.sh changed meanwhile.
main "$@"; exit $?
