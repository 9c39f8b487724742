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
cp "$here/image.its" "$out/image.its"
( cd "$out" && mkimage -f image.its image.ub >mkimage.log 2>&1 ) \
    || { cat "$out/mkimage.log" >&2; echo "linux-fit: FAILED: step mkimage" >&2; exit 1; }
echo "linux-fit: $out/image.ub $(stat -c %s "$out/image.ub") bytes"
