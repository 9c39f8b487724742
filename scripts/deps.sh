#!/usr/bin/env bash
# scripts/deps.sh [GROUP...] - install the Debian packages gemlab needs.
#
# Groups are the files scripts/deps/GROUP.list (one package per line, '#'
# comments). With no argument every group is installed. The script is
# idempotent: it asks dpkg what is missing and does nothing when nothing is.
# It enables deb-src (for `apt-get source`) when a group needs source
# packages, and the armhf architecture for the Linux image's userland.
#
# The qemu group also builds QEMU 10.0 from Debian 13's source on bookworm
# (emu/qemu/build.sh, QEMU_BASE=10.0), which needs:
#   - deb-src for trixie and trixie-updates (source only: no binary line
#     for trixie is added, so installed packages stay bookworm's);
#   - meson >= 1.5 (QEMU 10.0's meson.build; bookworm has 1.0.1): meson
#     from bookworm-backports, through a binary `deb` line for it.  The
#     backports suite is NotAutomatic, so only packages asked for with
#     `-t bookworm-backports` come from it
#     (https://backports.debian.org/Instructions/).
#   Meson is taken from backports only while the installed one is < 1.5.
#
# GEMLAB_APT_ETC (default /etc/apt) is where the sources files are looked
# for and written: tests/qemu/runner/deps_idempotent.sh points it at a
# scratch directory.
#
# As non-root it never half-installs: it prints the exact command to run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
listdir="$here/deps"
groups=("$@")
if [ ${#groups[@]} -eq 0 ]; then
    groups=()
    for f in "$listdir"/*.list; do groups+=("$(basename "$f" .list)"); done
fi

aptetc=${GEMLAB_APT_ETC:-/etc/apt}
meson_min=1.5

pkgs=()
need_src=0
need_armhf=0
need_q10=0
for g in "${groups[@]}"; do
    f="$listdir/$g.list"
    if [ ! -f "$f" ]; then
        have=""
        for l in "$listdir"/*.list; do have+="$(basename "$l" .list) "; done
        echo "deps.sh: unknown group '$g' (have: $have)" >&2
        exit 2
    fi
    case "$g" in qemu|baremetal|linux) need_src=1 ;; esac
    [ "$g" = qemu ] && need_q10=1
    [ "$g" = linux ] && need_armhf=1
    while read -r p; do
        p=${p%%#*}; p=$(echo "$p" | tr -d '[:space:]')
        # once each: several groups list the same package
        [ -n "$p" ] && [[ " ${pkgs[*]} " != *" $p "* ]] && pkgs+=("$p")
    done < "$f"
done

# The unprivileged user QEMU runs as in `gemlab run --net tap` (QEMU's
# -runas: it opens the tap and its sockets as root, then drops to this
# user; emu/runner/README.md).  A system user with no login and no home.
# Created whatever the groups; as non-root only named when missing.
if ! getent passwd gemlab >/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "deps.sh: adding the system user 'gemlab' (QEMU drops to it in --net tap runs)"
        useradd --system --user-group --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin --comment "gemlab QEMU (runas)" gemlab
    else
        echo "deps.sh: note: no user 'gemlab' (--net tap runs QEMU as 'nobody' until root runs $0)" >&2
    fi
fi

# Meson is a special case when QEMU 10.0 is in scope: installed >= 1.5 is
# fine, anything else (absent or bookworm's 1.0.1) comes from backports.
missing=()
meson_bpo=0
for p in "${pkgs[@]}"; do
    if [ "$p" = meson ] && [ $need_q10 -eq 1 ]; then
        mv=$(dpkg-query -W -f='${Status} ${Version}' meson 2>/dev/null || true)
        case "$mv" in
        *"install ok installed"*)
            dpkg --compare-versions "${mv##* }" ge "$meson_min" || meson_bpo=1 ;;
        *) meson_bpo=1 ;;
        esac
        continue
    fi
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$st" in *"install ok installed"*) ;; *) missing+=("$p") ;; esac
done

# has_suite TYPE SUITE: some apt source of type TYPE (deb, deb-src) lists
# SUITE, in one-line (sources.list) or deb822 (*.sources) form.
has_suite() {
    local type=$1 suite=$2 f
    for f in "$aptetc/sources.list" "$aptetc"/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        grep -qsE "^[[:space:]]*${type}[[:space:]]+(\\[[^]]*\\][[:space:]]+)?[^[:space:]]+[[:space:]]+$suite([[:space:]]|\$)" "$f" && return 0
    done
    for f in "$aptetc"/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk -v t="$type" -v s="$suite" '
            BEGIN { RS = ""; FS = "\n"; found = 0 }
            {
                types = ""; suites = ""; on = 1
                for (i = 1; i <= NF; i++) {
                    if ($i ~ /^Types:/)   types = " " substr($i, 7) " "
                    if ($i ~ /^Suites:/)  suites = " " substr($i, 8) " "
                    if ($i ~ /^Enabled:[[:space:]]*no/) on = 0
                }
                gsub(/[[:space:]]+/, " ", types); gsub(/[[:space:]]+/, " ", suites)
                if (on && index(types, " " t " ") && index(suites, " " s " ")) found = 1
            }
            END { exit !found }' "$f" && return 0
    done
    return 1
}

src_ok=1
if [ $need_src -eq 1 ] && ! has_suite deb-src bookworm; then
    src_ok=0
fi
trixie_ok=1
if [ $need_q10 -eq 1 ] && { ! has_suite deb-src trixie || ! has_suite deb-src trixie-updates; }; then
    trixie_ok=0
fi
bpo_ok=1
if [ $meson_bpo -eq 1 ] && ! has_suite deb bookworm-backports; then
    bpo_ok=0
fi
armhf_ok=1
if [ $need_armhf -eq 1 ] && ! dpkg --print-foreign-architectures | grep -qx armhf; then
    armhf_ok=0
fi

if [ ${#missing[@]} -eq 0 ] && [ $meson_bpo -eq 0 ] && [ $src_ok -eq 1 ] &&
   [ $trixie_ok -eq 1 ] && [ $armhf_ok -eq 1 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "deps.sh: missing Debian packages or apt settings; run as root:" >&2
    echo "  sudo $0 ${groups[*]}" >&2
    [ ${#missing[@]} -gt 0 ] && echo "  (missing: ${missing[*]})" >&2
    [ $meson_bpo -eq 1 ] && echo "  (meson >= $meson_min, from bookworm-backports)" >&2
    [ $trixie_ok -eq 1 ] || echo "  (deb-src for trixie trixie-updates: the QEMU 10.0 source)" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if [ $src_ok -eq 0 ]; then
    echo "deps.sh: enabling deb-src in $aptetc/sources.list.d/gemlab-deb-src.sources"
    mkdir -p "$aptetc/sources.list.d"
    cat > "$aptetc/sources.list.d/gemlab-deb-src.sources" <<'SRC'
# Added by gemlab scripts/deps.sh: QEMU, lwIP, iperf and Linux are built
# from Debian's source packages (apt-get source).
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
# Sorts after gemlab-deb-src.sources: `apt-cache showsrc` lists bookworm's
# records first (firmware/linux/initramfs/userland.sh takes the first one).
if [ $trixie_ok -eq 0 ]; then
    echo "deps.sh: enabling deb-src for trixie in $aptetc/sources.list.d/gemlab-trixie-src.sources"
    mkdir -p "$aptetc/sources.list.d"
    cat > "$aptetc/sources.list.d/gemlab-trixie-src.sources" <<'SRC'
# Added by gemlab scripts/deps.sh: QEMU 10.0 is built from Debian 13's
# source package (emu/qemu/build.sh, QEMU_BASE=10.0).  Source only: no
# binary package comes from trixie.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie trixie-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
if [ $bpo_ok -eq 0 ]; then
    echo "deps.sh: adding bookworm-backports in $aptetc/sources.list.d/gemlab-backports.sources"
    mkdir -p "$aptetc/sources.list.d"
    cat > "$aptetc/sources.list.d/gemlab-backports.sources" <<'SRC'
# Added by gemlab scripts/deps.sh: meson >= 1.5 for QEMU 10.0
# (`apt-get -t bookworm-backports install meson`).  Backports are
# NotAutomatic: nothing else is taken from them unless asked for.
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
if [ $armhf_ok -eq 0 ]; then
    echo "deps.sh: adding the armhf architecture (busybox/ethtool userland)"
    dpkg --add-architecture armhf
fi
echo "deps.sh: installing: ${missing[*]:-(none; refreshing apt lists)}"
# A mirror mid-sync answers with index size mismatches now and then: retry,
# and if one index still fails go on with the lists we have (the install
# below fails clearly if a package really cannot be found).
for try in 1 2 3; do
    if apt-get update -qq; then break; fi
    echo "deps.sh: apt-get update failed (try $try of 3)" >&2
    [ $try -lt 3 ] && sleep $((try * 5))
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ $meson_bpo -eq 1 ]; then
    echo "deps.sh: installing meson >= $meson_min from bookworm-backports (QEMU 10.0)"
    apt-get install -y -qq --no-install-recommends -t bookworm-backports meson
fi
