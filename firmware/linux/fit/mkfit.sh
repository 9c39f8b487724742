#!/usr/bin/env bash
# firmware/linux/fit/mkfit.sh OUTDIR - image.ub from OUTDIR's zImage, DTBs and
# initramfs.cpio.gz with Debian's mkimage (u-boot-tools).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: mkfit.sh OUTDIR}
command -v mkimage >/dev/null || { echo "linux-fit: FAILED: step deps: mkimage missing (u-boot-tools)" >&2; exit 1; }
for f in zImage zynq-zc702.dtb zynq-zc706.dtb initramfs.cpio.gz; do
    [ -s "$out/$f" ] || { echo "linux-fit: FAILED: step inputs: $out/$f missing" >&2; exit 1; }
done
# Rebuild only when an input changed (key over this script, the .its, the
# kernel, DTBs and initramfs, stored beside image.ub).
key=$( cd "$out" && cat "$here/mkfit.sh" "$here/image.its" zImage zynq-zc702.dtb zynq-zc706.dtb initramfs.cpio.gz | sha256sum | cut -c1-16)
if [ -s "$out/image.ub" ] && [ "$(cat "$out/image.ub.key" 2>/dev/null)" = "$key" ]; then
    echo "linux-fit: $out/image.ub up to date"
    exit 0
fi
rm -f "$out/image.ub.key"
cp "$here/image.its" "$out/image.its"
# SOURCE_DATE_EPOCH: the FIT timestamp, so the same inputs give the same
# image (mkimage honours it; https://reproducible-builds.org/specs/source-date-epoch/)
( cd "$out" && SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-0} mkimage -f image.its image.ub >mkimage.log 2>&1 ) \
    || { cat "$out/mkimage.log" >&2; echo "linux-fit: FAILED: step mkimage" >&2; exit 1; }
echo "$key" > "$out/image.ub.key"
echo "linux-fit: $out/image.ub $(stat -c %s "$out/image.ub") bytes"
