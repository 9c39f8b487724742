#!/usr/bin/env bash
# scripts/deps.sh [GROUP...] - install the Debian packages gemlab needs.
#
# Groups are the files scripts/deps/GROUP.list (one package per line, '#'
# comments). With no argument every group is installed. The script is
# idempotent: it asks dpkg what is missing and does nothing when nothing is.
# It enables deb-src (for `apt-get source`) when a group needs source
# packages, and the armhf architecture for the Linux image's userland.
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

pkgs=()
need_src=0
need_armhf=0
for g in "${groups[@]}"; do
    f="$listdir/$g.list"
    if [ ! -f "$f" ]; then
        have=""
        for l in "$listdir"/*.list; do have+="$(basename "$l" .list) "; done
        echo "deps.sh: unknown group '$g' (have: $have)" >&2
        exit 2
    fi
    case "$g" in qemu|baremetal|linux) need_src=1 ;; esac
    [ "$g" = linux ] && need_armhf=1
    while read -r p; do
        p=${p%%#*}; p=$(echo "$p" | tr -d '[:space:]')
        [ -n "$p" ] && pkgs+=("$p")
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

missing=()
for p in "${pkgs[@]}"; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$st" in *"install ok installed"*) ;; *) missing+=("$p") ;; esac
done

src_ok=1
if [ $need_src -eq 1 ] && ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    src_ok=0
fi
armhf_ok=1
if [ $need_armhf -eq 1 ] && ! dpkg --print-foreign-architectures | grep -qx armhf; then
    armhf_ok=0
fi

if [ ${#missing[@]} -eq 0 ] && [ $src_ok -eq 1 ] && [ $armhf_ok -eq 1 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "deps.sh: missing Debian packages or apt settings; run as root:" >&2
    echo "  sudo $0 ${groups[*]}" >&2
    [ ${#missing[@]} -gt 0 ] && echo "  (missing: ${missing[*]})" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if [ $src_ok -eq 0 ]; then
    echo "deps.sh: enabling deb-src in /etc/apt/sources.list.d/gemlab-deb-src.sources"
    cat > /etc/apt/sources.list.d/gemlab-deb-src.sources <<'SRC'
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
