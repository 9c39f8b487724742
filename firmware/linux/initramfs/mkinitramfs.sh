#!/usr/bin/env bash
# firmware/linux/initramfs/mkinitramfs.sh OUT.cpio.gz USERLAND_DIR AGENT
#
# Packs /init, the static userland (userland.sh) and the agent into a gzip'd
# newc cpio.  Needs no root: files are recorded as owned by 0:0, and
# /dev/console (which the kernel opens before /init runs) is a hand-written
# newc entry appended as a second archive; the kernel unpacks concatenated
# archives (Documentation/driver-api/early-userspace/buffer-format.rst).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: mkinitramfs.sh OUT.cpio.gz USERLAND_DIR AGENT}
userland=${2:?}
agent=${3:?}
max_bytes=$((8 * 1024 * 1024))

die() { echo "linux-initramfs: FAILED: $*" >&2; exit 1; }

# Repack only when an input changed: the key hashes this script, /init, the
# agent and the userland binaries; it is stored beside the archive.
key=$(cat "$here/mkinitramfs.sh" "$here/init" "$agent" "$userland"/bin/* | sha256sum | cut -c1-16)
if [ -s "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ]; then
    echo "linux-initramfs: $out up to date"
    exit 0
fi
rm -f "$out.key"

# A reproducible archive (https://reproducible-builds.org/docs/archives/):
# the same inputs give the same bytes on any machine, so the guest executes
# the same instructions and a virtual-time figure is the same for everyone
# (docs/VIRTUAL_TIME.md).  Modes from umask 022 and install -m, every mtime
# set to SOURCE_DATE_EPOCH (default 0), inode numbers renumbered from 1 in
# name order and device numbers dropped (GNU cpio --reproducible), gzip -n.
umask 022
epoch=${SOURCE_DATE_EPOCH:-0}
stage=$(mktemp -d "${out%/*}/.rootfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,etc,root}
install -m 0755 "$here/init" "$stage/init"
install -m 0755 "$userland/bin/busybox" "$stage/bin/busybox"
for t in iperf iperf3 ethtool; do
    install -m 0755 "$userland/bin/$t" "$stage/usr/bin/$t"
done
install -m 0755 "$agent" "$stage/usr/bin/gemlab-agent"
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$stage/etc/passwd"
printf 'root:x:0:\n' > "$stage/etc/group"
printf '127.0.0.1 localhost\n' > "$stage/etc/hosts"
chmod 0755 "$stage"
find "$stage" -exec touch -h -d "@$epoch" {} + || die "step mtime"

# One newc header: magic then 13 eight-digit hex fields (ino mode uid gid
# nlink mtime filesize devmajor devminor rdevmajor rdevminor namesize check),
# the NUL-terminated name, padded to a multiple of 4.
newc() { # NAME MODE RDEVMAJOR RDEVMINOR INO
    local name=$1 namesize=$((${#1} + 1)) pad
    printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%s\0' \
        "$5" "$2" 0 0 1 0 0 0 0 "$3" "$4" "$namesize" 0 "$name"
    pad=$(( (4 - (110 + namesize) % 4) % 4 ))
    head -c "$pad" /dev/zero
}
{
    ( cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet ) \
        || die "step cpio"
    newc dev/console $((0020000 | 0600)) 5 1 900001
    newc TRAILER!!! 0 0 0 0
} | gzip -9n > "$out.tmp" || die "step gzip"
mv "$out.tmp" "$out"
size=$(stat -c %s "$out")
[ "$size" -le "$max_bytes" ] || die "step size: $out is $size bytes (> 8 MiB)"
echo "$key" > "$out.key"
echo "linux-initramfs: $out $size bytes"
