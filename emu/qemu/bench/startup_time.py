#!/usr/bin/env python3
"""startup_time.py QEMU [N] [-- EXTRA ARGS] - time from exec to the first
guest instruction on xilinx-zynq-a9, min/median/max over N runs.

The guest is 7 hand-assembled ARM instructions (loaded as a raw "kernel"
at 0x10000 behind QEMU's boot stub) that enable UART0 and write 'X'; the
clock stops when that byte reaches our end of -serial stdio.  The boot stub
and the 7 instructions take microseconds, so this is QEMU's startup.
"""
import os, statistics, subprocess, sys, tempfile, time

GUEST = [
    0xE3000000,  # movw r0, #0
    0xE34E0000,  # movt r0, #0xE000      UART0 base
    0xE3001114,  # movw r1, #0x114       CR: TX+RX enable (UG585 B.33 Control_reg0)
    0xE5801000,  # str  r1, [r0]
    0xE3A01058,  # mov  r1, #'X'
    0xE5801030,  # str  r1, [r0, #0x30]  TX FIFO
    0xEAFFFFFE,  # b    .
]

def once(qemu, img, extra):
    cmd = [qemu, "-M", "xilinx-zynq-a9", "-display", "none", "-nodefaults",
           "-serial", "stdio", "-kernel", img] + extra
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL)
    try:
        while True:
            b = p.stdout.read(1)
            if not b:
                raise RuntimeError("QEMU exited before the guest wrote")
            if b == b"X":
                return time.monotonic() - t0
    finally:
        p.kill()
        p.wait()

def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        i = args.index("--")
        args, extra = args[:i], args[i + 1:]
    qemu = args[0]
    n = int(args[1]) if len(args) > 1 else 7
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        for w in GUEST:
            f.write(w.to_bytes(4, "little"))
        img = f.name
    try:
        ts = sorted(once(qemu, img, extra) for _ in range(n))
    finally:
        os.unlink(img)
    print("startup %s %s: min %.3f s median %.3f s max %.3f s (n=%d)" %
          (qemu, " ".join(extra) or "-", ts[0], statistics.median(ts), ts[-1], n))

if __name__ == "__main__":
    main()
