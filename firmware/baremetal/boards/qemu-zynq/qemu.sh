#!/usr/bin/env bash
# qemu.sh ELF [extra qemu args...] - the QEMU command line for qemu-zynq.
#
# Environment:
#   QEMU           binary (default qemu-system-arm; set to emu/qemu's build
#                  for the patched GEM/PHY)
#   GEMLAB_SERIAL  -serial argument (default mon:stdio; the smoke test uses a
#                  unix socket chardev)
#   GEMLAB_NETDEV  -netdev argument (default user,id=n0 = slirp, 10.0.2.0/24)
# The bare-metal ELF is loaded at its physical address and entered with the
# MMU off; -m 256 matches BOARD_DDR_SIZE.
set -euo pipefail
elf=${1:?usage: qemu.sh ELF [qemu args...]}
shift
exec "${QEMU:-qemu-system-arm}" -M xilinx-zynq-a9 -m 256 \
    -display none -monitor none \
    -serial "${GEMLAB_SERIAL:-mon:stdio}" \
    -netdev "${GEMLAB_NETDEV:-user,id=n0}" \
    -net nic,netdev=n0,model=cadence_gem \
    -kernel "$elf" "$@"
