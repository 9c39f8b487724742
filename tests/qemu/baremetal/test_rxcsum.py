"""test_rxcsum.py - the GEM_CSUM_OFFLOAD=1 firmware on gemlab's patched
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
Run by `make -C firmware/baremetal test-rxcsum` (--fw= the offload
build): "baremetal-rxcsum: N passed, M failed"; logs stay in
$O/test-results/baremetal-rxcsum/.
"""
import json
import os
import subprocess
import sys

import pytest

from gemlab_test.fixtures import boot
from gemlab_test import net

# first of all fixtures: without root nothing else runs (a skip, a failure under CI=true)
pytestmark = pytest.mark.usefixtures("root")

RAWUDP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rawudp.py")
ECHO_PORT = 7
SINK_PORT = 5005
BIG = 8972          # IPERF_MAX_UDP_LEN
BIG_N = 10


@pytest.fixture(scope="module")
def b(request, tmp_path_factory, fw, our_qemu, ns):
    return boot(request, tmp_path_factory, fw, our_qemu, "rxcsum", net=ns, machine_opts="flash=off")


@pytest.fixture(scope="module")
def echo(b, link):
    b.con.send("echo")
    return b.con.expect_json("status", 5, lambda j: j.get("app") == "echo")


def udp_chkerr(b):
    b.con.send("stats")
    st = b.con.expect_json("stats", 10)
    try:
        return st["lwip"]["udp"]["chkerr"]
    except (TypeError, KeyError):
        return None


@pytest.fixture(scope="module")
def csum(b, ns, echo):
    """rawudp.py echo: ({case: echoed}, GEM csum drops +N, lwIP udp chkerr
    before, after)."""
    chk0 = udp_chkerr(b)
    gem0 = int(b.qmp.qom_get("stat-rx-csum-drops"))
    r = ns.run([sys.executable, RAWUDP, "echo", net.BOARD_IP, str(ECHO_PORT)],
               capture_output=True, text=True, timeout=60)
    try:
        e = json.loads(r.stdout)
    except ValueError:
        pytest.fail("rawudp.py echo: no result (%s)" % r.stderr.strip()[-300:])
    gem = int(b.qmp.qom_get("stat-rx-csum-drops")) - gem0
    chk1 = udp_chkerr(b)
    print("  echoed: %r; GEM csum drops +%d; lwIP udp chkerr %r -> %r" % (e, gem, chk0, chk1))
    return e, gem, chk0, chk1


@pytest.fixture(scope="module")
def big(b, ns, csum):
    """The board's iperf -u -l 8972 to rawudp.py sink: (result, datagrams
    the host got as [length, first offset breaking the pattern])."""
    sink = subprocess.Popen(ns.cmd([sys.executable, RAWUDP, "sink", str(SINK_PORT), str(BIG_N), "30"]),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        sink.stderr.readline()                  # "listening"
        b.con.send("iperf -c %s -u -p %d -l %d -n %d" % (net.HOST_IP, SINK_PORT, BIG, BIG * BIG_N))
        res = b.con.expect_json("result", 30, lambda j: j.get("proto") == "udp" and j.get("role") == "client")
        out, _ = sink.communicate(timeout=40)
    finally:
        if sink.poll() is None:
            sink.kill()
            sink.wait()
    try:
        got = json.loads(out)
    except ValueError:
        got = None
    return res, got


def test_boot_ready_line_from_the_offload_build(ready):
    assert ready.get("csum_offload") is True, "ready %r (build with GEM_CSUM_OFFLOAD=1)" % ready


def test_link_up(link):
    assert link, "no link line"


def test_echo_server_listening(echo):
    assert echo and echo.get("state") == "listening", echo


def test_unfragmented_good_checksum_echoed(csum):
    assert csum[0].get("plain-good"), "no echo"


def test_unfragmented_bad_checksum_dropped_by_the_gem(csum):
    e, gem = csum[:2]
    assert not e.get("plain-bad") and gem > 0, "echoed %r, GEM csum drops +%d" % (e.get("plain-bad"), gem)


def test_fragmented_good_checksum_echoed(csum):
    assert csum[0].get("frag-good"), "no echo"


def test_fragmented_bad_checksum_not_echoed_checked_by_lwip(csum):
    """F2"""
    assert csum[0].get("frag-bad") is False, "echoed: the bad checksum was accepted"


def test_fragmented_bad_checksum_counted_in_lwip_udp_chkerr(csum):
    _, _, chk0, chk1 = csum
    assert chk0 is not None and chk1 is not None and chk1 - chk0 == 1, "udp chkerr %r -> %r" % (chk0, chk1)


def test_big_datagrams_sent_and_received(big):
    res, got = big
    assert res and res.get("tx_datagrams") == BIG_N and got and len(got) >= BIG_N, \
        "result %r, host got %r" % (res, got)


def test_big_datagrams_carry_the_pattern_to_the_end(big):
    """F1: bytes from 8268 on came from beyond the 8192-byte pattern buffer"""
    got = big[1] or []
    bad = [g for g in got if g[0] == BIG and g[1] is not None]
    short = [g for g in got if g[0] != BIG]
    assert got and not bad and not short, "%d datagrams break the pattern (first at offset %r), %d of the " \
        "wrong size" % (len(bad), bad[0][1] if bad else None, len(short))
