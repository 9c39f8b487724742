#!/usr/bin/env bash
# fetch.sh - print the path of a cached lwIP source tree, fetching it first
# if needed.
#
# lwIP comes from Debian's source package (`apt-get source lwip`, deb-src is
# enabled by scripts/deps.sh) and is cached under
#   $GEMLAB_CACHE/lwip/<version>/   (default ~/.cache/gemlab)
# It is never committed.  Debian's patches are applied by apt-get source; they
# touch only the sockets API, the unix port and the CMake files, none of which
# we build (NO_SYS=1, RAW API).
#
# Usage: fetch.sh            -> prints the tree's path on stdout
# Exit status non-zero (with the reason on stderr) when the fetch fails.
set -euo pipefail

version=${LWIP_DEB_VERSION:-2.1.3+dfsg1-2}
cache=${GEMLAB_CACHE:-$HOME/.cache/gemlab}
dest="$cache/lwip/$version"
stamp="$dest/.gemlab-fetched"

if [ -f "$stamp" ]; then
    echo "$dest"
    exit 0
fi

command -v apt-get >/dev/null || { echo "fetch.sh: apt-get not found" >&2; exit 1; }
mkdir -p "$cache/lwip"
tmp=$(mktemp -d "$cache/lwip/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# One line of what and how long instead of apt-get's own (kept in a log,
# shown only when it fails).
echo "fetch.sh: fetching lwIP $version (apt-get source lwip, about 0.8 MB): a few seconds, into $dest" >&2
if ! (cd "$tmp" && apt-get source -q "lwip=$version" >"$tmp/apt-get.log" 2>&1); then
    tail -n 15 "$tmp/apt-get.log" >&2
    echo "fetch.sh: 'apt-get source lwip=$version' failed; is deb-src enabled?" >&2
    echo "          run: sudo scripts/deps.sh base baremetal" >&2
    exit 1
fi
src=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d -name 'lwip-*' | head -n1)
if [ -z "$src" ] || [ ! -f "$src/src/core/tcp.c" ] || [ ! -d "$src/src/apps/lwiperf" ]; then
    echo "fetch.sh: unexpected source layout in $tmp" >&2
    exit 1
fi
rm -rf "$dest"
mv "$src" "$dest"
touch "$stamp"
echo "$dest"
