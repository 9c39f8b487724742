#!/usr/bin/env python3
"""rxcsum.py [ELF] - the GEM_CSUM_OFFLOAD=1 firmware on gemlab's patched
QEMU, over a private netns tap: what the receive checksum offload does
NOT check is checked by lwIP (docs/SECURITY.md F2), and the UDP sender's
largest datagrams carry only the payload pattern (F1).

The GEM checks the IPv4 header checksum and the TCP/UDP checksum of
unfragmented IPv4 datagrams only; a fragment is reported in RX descriptor
word 1 bits 23:22 as 01 ("IP header checked, TCP/UDP not"), and that
status is all the driver learns (UG585 chapter 16, checksum offloading
and the receive buffer descriptor; Linux macb trusts only 10/11 too,
drivers/net/ethernet/cadence/macb_main.c).  The firmware used to build
lwIP without any RX checksum check when offloading, so a fragmented UDP
datagram with a wrong checksum was accepted.

Checks (one QEMU boot, ~15 s):
  1. ready line says csum_offload true (the ELF is the offload build);
  2. UDP echo (port 7) through raw sockets (rawudp.py echo):
     - one frame, good checksum: echoed (control);
     - one frame, bad checksum: not echoed, and the GEM's checksum drop
       counter (stat-rx-csum-drops) grew: the hardware path;
     - two IPv4 fragments, good checksum: echoed (control: reassembly and
       the echo path work with fragments);
     - two IPv4 fragments, bad checksum: NOT echoed, and lwIP's udp
       chkerr counter (`stats`) grew by one: the software path (F2);
  3. `iperf -c 10.0.2.2 -u -l 8972 -n 89720` from the board to
     rawudp.py sink: 10 datagrams of 8972 bytes, each the "0123456789"
     pattern from offset 76 to the end (F1: bytes from 8268 on came from
     beyond the 8192-byte pattern buffer).

Needs root (netns + tap) and the patched QEMU ($QEMU or emu/qemu's).
Prints PASS/FAIL lines and "baremetal-rxcsum: N passed, M failed".
RXCSUM_KEEP=1 keeps the logs.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bmlib  # noqa: E402

RAWUDP = os.path.join(bmlib.HERE, "rawudp.py")
ECHO_PORT = 7
SINK_PORT = 5005
BIG = 8972          # IPERF_MAX_UDP_LEN
BIG_N = 10


class Test:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, err):
        if err is None:
            self.passed += 1
            print("PASS %s" % name, flush=True)
        else:
            self.failed += 1
            print("FAIL %s: %s" % (name, err), flush=True)
        return err is None


def udp_chkerr(c):
    c.send("stats")
    st = c.expect_json("stats", 10)
    try:
        return st["lwip"]["udp"]["chkerr"]
    except (TypeError, KeyError):
        return None


def run(t, b, net):
    c, q = b.con, b.qmp
    ready = c.expect_json("ready", 30)
    if not t.check("boot: ready line from the offload build (csum_offload true)",
                   None if ready and ready.get("csum_offload") is True
                   else "ready %r (build with GEM_CSUM_OFFLOAD=1)" % ready):
        return
    link = c.expect_json("link", 20, lambda j: j.get("up") is True)
    if not t.check("link up", None if link else "no link line"):
        return
    c.send("echo")
    st = c.expect_json("status", 5, lambda j: j.get("app") == "echo")
    if not t.check("echo server listening", None if st and st.get("state") == "listening"
                   else "got %r" % st):
        return

    # ---- 2. checksums
    chk0 = udp_chkerr(c)
    gem0 = int(q.qom_get("stat-rx-csum-drops"))
    r = subprocess.run(net.cmd([sys.executable, RAWUDP, "echo", bmlib.BOARD_IP, str(ECHO_PORT)]),
                       capture_output=True, text=True, timeout=60)
    try:
        e = json.loads(r.stdout)
    except ValueError:
        t.check("rawudp.py echo", "no result (%s)" % r.stderr.strip()[-300:])
        return
    gem1 = int(q.qom_get("stat-rx-csum-drops"))
    chk1 = udp_chkerr(c)
    print("  echoed: %r; GEM csum drops +%d; lwIP udp chkerr %r -> %r"
          % (e, gem1 - gem0, chk0, chk1), flush=True)
    t.check("unfragmented UDP, good checksum: echoed (control)",
            None if e.get("plain-good") else "no echo")
    t.check("unfragmented UDP, bad checksum: dropped by the GEM (stat-rx-csum-drops grew)",
            None if not e.get("plain-bad") and gem1 > gem0
            else "echoed %r, GEM csum drops +%d" % (e.get("plain-bad"), gem1 - gem0))
    t.check("fragmented UDP, good checksum: echoed (control)",
            None if e.get("frag-good") else "no echo")
    t.check("fragmented UDP, bad checksum: not echoed (checked by lwIP, F2)",
            None if e.get("frag-bad") is False else "echoed: the bad checksum was accepted")
    t.check("fragmented UDP, bad checksum: counted in lwIP's udp chkerr",
            None if chk0 is not None and chk1 is not None and chk1 - chk0 == 1
            else "udp chkerr %r -> %r" % (chk0, chk1))

    # ---- 3. 8972-byte datagrams from the board (F1)
    sink = subprocess.Popen(net.cmd([sys.executable, RAWUDP, "sink", str(SINK_PORT), str(BIG_N), "30"]),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        sink.stderr.readline()                  # "listening"
        c.send("iperf -c %s -u -p %d -l %d -n %d" % (bmlib.HOST_IP, SINK_PORT, BIG, BIG * BIG_N))
        res = c.expect_json("result", 30, lambda j: j.get("proto") == "udp" and j.get("role") == "client")
        out, _ = sink.communicate(timeout=40)
    finally:
        if sink.poll() is None:
            sink.kill()
            sink.wait()
    try:
        got = json.loads(out)
    except ValueError:
        got = None
    if t.check("iperf -u -l %d: the board sent %d datagrams, the host received them" % (BIG, BIG_N),
               None if res and res.get("tx_datagrams") == BIG_N and got and len(got) >= BIG_N
               else "result %r, host got %r" % (res, got)):
        bad = [g for g in got if g[0] == BIG and g[1] is not None]
        short = [g for g in got if g[0] != BIG]
        t.check("iperf -u -l %d: payload is the pattern from offset 76 to the end (F1)" % BIG,
                None if not bad and not short
                else "%d datagrams break the pattern (first at offset %r), %d of the wrong size"
                % (len(bad), bad[0][1] if bad else None, len(short)))


def main():
    bmlib.install_signal_handlers()
    rc = bmlib.needs_root("baremetal-rxcsum")
    if rc is not None:
        return rc
    elf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get("O", os.path.join(bmlib.TOP, "build")), "csum-offload", "baremetal",
        "qemu-zynq", "gemlab-fw.elf")
    t = Test()
    if not os.path.isfile(elf):
        t.check("firmware ELF", "no ELF at %s" % elf)
        print("baremetal-rxcsum: 0 passed, 1 failed")
        return 1
    qemu = bmlib.our_qemu()
    if not qemu:
        t.check("patched QEMU", "neither $QEMU nor emu/qemu's build is gemlab's patched QEMU "
                "(no cadence_gem partner-abilities); build it with make -C emu/qemu")
        print("baremetal-rxcsum: 0 passed, 1 failed")
        return 1
    tmp = tempfile.mkdtemp(prefix="gemlab-bmcsum.")
    net = b = None
    try:
        net = bmlib.Netns("c").create()
        b = bmlib.Board(elf, tmp, qemu, net=net, timeout=120,
                        qemu_args=["-M", "xilinx-zynq-a9,flash=off"])
        run(t, b, net)
    except (EOFError, OSError, RuntimeError, ValueError, subprocess.SubprocessError) as e:
        t.check("harness", "%s: %s" % (type(e).__name__, e))
    except SystemExit:
        print("baremetal-rxcsum: interrupted, cleaning up", flush=True)
        raise
    finally:
        if b:
            b.stop()
            if t.failed:
                print("---- last 40 console lines ----")
                print("\n".join(b.console_tail(40)))
        if net:
            net.close()
        if os.environ.get("RXCSUM_KEEP"):
            print("rxcsum: kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("baremetal-rxcsum: %d passed, %d failed" % (t.passed, t.failed))
    return 0 if t.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
