"""test_ourqemu.py - the bare-metal firmware on gemlab's patched QEMU, over
a private netns tap, against the host's Debian iperf 2.1.8.

One QEMU boot (about 45 s in all), checks in order:
  1. link 1000/full from the 88E1116R model;
  1b. bad input (iperf_junk.py): truncated datagrams outside a test are
     counted (malformed_outside_test) and start nothing; a test with
     truncated and id-0 datagrams mixed in counts them as malformed and
     still reports 0 lost of its 1000 in the result and the FIN-ack;
  2. UDP host -> board at 20 Mb/s (1470-byte datagrams, 3 s) with
     rx-backpressure=on for this test: the host client's "Server Report"
     (sent back by the firmware) equals the firmware's own result line;
     0 lost, and any loss would have to equal the frames the GEM, the
     wire or the tap dropped (nothing vanishes unaccounted); 19..22 Mb/s
     (iperf 2.1.8 overshoots -b by a few percent).  Why backpressure:
     by default our GEM drops at a full RX ring as silicon does, and 64
     descriptors ride out only ~37 ms of vCPU stall at 20 Mb/s (~15 ms at
     50); on the shared 2-core host with load 8-10 we saw 1-17 % lost at
     50M and 1.4 % at 10M, all of it GEM ring drops.  Held in QEMU's and
     the tap's queues instead, the frames wait out the stall;
  2b. UDP -d against the host's iperf: the firmware runs its client back
     to the host's -L port while receiving (10 Mb/s each way, 2 s); the
     host's two reports equal the firmware's; UDP -R both ways (10 Mb/s,
     2 s): the host client counts what the firmware's server sends; the
     firmware's -R client counts what the host's server sends;
  2c. TCP -P 4 both ways: the host's `iperf -c -P 4` against the
     firmware's server gives one summed result line with four streams,
     each equal to what the host client sent; the firmware's `iperf -c
     -P 4` reaches the host's server as four streams, each what the
     firmware wrote; the firmware's `iperf -c -R` counts every byte the
     host's server sent; its `-r` (TCP, UDP) is followed by the host's
     test back to the firmware's server; UDP -P 2 both ways: one summed
     line of two streams, each acked with its own report;
  3. UDP board -> host at 20 Mb/s (1470 B, 3 s) to `iperf -s -u -w 4M`:
     the firmware's copy of the server report equals what the host server
     printed; 0 lost; 14..21 Mb/s: the pacer (lib/pace.c) drops credit
     beyond 40 ms, so a vCPU the host starves sends less than asked -
     20.0 of 20 at load 9, 15.5 at load 12.5, 26.6 of 30 at load 9;
  4. 1 % random loss on the wire (tx-loss-pct=1, wire-seed fixed), board
     -> host, `-n 50M` of 512-byte datagrams (102400) at 50 Mb/s (the
     firmware manages 9-12k of these per second; the host server takes
     them without socket-buffer drops thanks to -w 4M): >= 100k
     datagrams, the reported loss within 1 +- 0.3 %, equal to what the
     wire dropped (nothing else lost), host and firmware agree;
  5. 100M partner (partner-abilities=100FD,100HD,10FD,10HD): the firmware
     reports link 100/full and programs NWCFG 100 (`gem`); TCP board ->
     host for 8 s, goodput from the host server's 0.5 s intervals with
     the first second (slow start, ARP) left out: the best 1 s stretch
     (two adjacent intervals, ~8000 frames) is within 1 % of 94.93 Mb/s
     (1460/1538 x 100: lwIP sends no TCP timestamps) and no interval
     exceeds it by more than 1 %.  When an 8 s run holds no such stretch,
     another is made, at most 3.

Host starvation: the two checks that depend on the guest getting CPU time
(the board->host UDP rate and the 100M line rate) measure how long QEMU's
threads sat runnable without a host CPU (schedstat run_delay, summed over
its threads, as a % of the run).  A miss while that exceeded 10 % (every
attempt, for the TCP check) is reported as SKIP with the figures, not as
a pass or a failure: the host, not the firmware, set the rate.  A slow
firmware keeps QEMU busy rather than waiting, so it still fails.  Seen:
vCPU waits of 2 % idle and 59 % under TCP at load 23 on the 2-core host.
Such a timing skip is never counted as passed (issue 20: a skip is not a
pass): its reason starts "timing, not a pass", the last line counts
it as skipped, and under CI=true it is also raised as a GitHub
warning annotation.  It is not turned into a failure under CI: CI runs on
a shared 2-core host, and without virtual time (QEMU -icount) a real-time
rate cannot be made deterministic there.  The same properties are checked
deterministically in virtual time by the device tests
(test_tx_100m_frames_leave_at_line_rate, test_rx_100m_frames_arrive_at_
line_rate in tests/device/test_device.c); this end-to-end check adds the
firmware and host stack when the host lets it.

Why the best 1 s stretch and not the mean: the firmware can keep at most
one 64 KiB window (44 segments, ~5.4 ms at 100 Mb/s) queued, so whenever
the host does not schedule QEMU's vCPU thread for longer than that the
wire idles.  That is host load, not the firmware; the steady mean is
printed next to it.  On the shared host at load 9-13 the 0.5 s intervals
swing between ~20 and 94.9 Mb/s within one run; a firmware or MAC
bottleneck below line rate would keep every stretch short of it, and a
MAC running faster than the PHY would show above it.

Needs root (netns + tap) and the patched QEMU ($QEMU or emu/qemu's).
Each check is one pytest test; module-scoped fixtures do the traffic, in
the order above, so `-k` can pick a check (its fixtures run first).
Run by `make -C firmware/baremetal test-ourqemu` ("baremetal-ourqemu: N
passed, M failed"); logs stay in $O/test-results/baremetal-ourqemu/.
"""
import contextlib
import json
import os
import sys
import time

import pytest

from gemlab_test.fixtures import boot, timing_skip
from gemlab_test import iperf, net
from gemlab_test.board import Starve

# first of all fixtures: without root nothing else runs (a skip, a failure under CI=true)
pytestmark = pytest.mark.usefixtures("root")

SUITE = "baremetal-ourqemu"
HERE = os.path.dirname(os.path.abspath(__file__))
LINE_100 = 100e6 * 1460 / 1538          # 94.93 Mb/s TCP goodput, no timestamps
DROPS = ("stat-rx-resource-drops", "stat-rx-fcs-drops", "stat-rx-csum-drops", "stat-rx-mismatch-drops",
         "stat-rx-wire-dropped-loss", "stat-rx-wire-dropped-queue", "stat-rx-wire-dropped-link-down")
B, H = net.BOARD_IP, net.HOST_IP


@pytest.fixture(scope="module")
def b(request, tmp_path_factory, fw, our_qemu, ns):
    return boot(request, tmp_path_factory, fw, our_qemu, "ourqemu", net=ns, machine_opts="flash=off",
                gem={"wire-seed": 11})


def dropped(b, ns):
    return sum(int(b.qmp.qom_get(p)) for p in DROPS) + ns.tap_counter("tx_dropped")


class backpressure:
    """rx-backpressure on while in the block: a descheduled vCPU must not
    cost datagrams (see the module doc)."""

    def __init__(self, b):
        self.q = b.qmp

    def __enter__(self):
        self.q.qom_set("rx-backpressure", True)

    def __exit__(self, *exc):
        self.q.qom_set("rx-backpressure", False)


def result(b, timeout, role=None, proto="udp"):
    """The next result line (proto/role None: any)."""
    return b.con.expect_json("result", timeout, lambda j: (proto is None or j.get("proto") == proto) and
                             (role is None or j.get("role") == role))


def fw_client(b, ns, port, args, roles=("client",), proto="udp"):
    """The firmware's `iperf -c H [-u] -p PORT ARGS` against the host's
    `iperf -s` on PORT (-u, or -y C for TCP); UDP under RX backpressure.
    (the firmware's result lines for @roles, the host server's output)."""
    udp = proto == "udp"
    srv = iperf.Iperf(["-s", "-p", str(port)] + (["-u"] if udp else ["-y", "C"]), net=ns)
    time.sleep(0.3)
    with backpressure(b) if udp else contextlib.nullcontext():
        b.con.send("iperf -c %s%s -p %d %s" % (H, " -u" if udp else "", port, args))
        res = [result(b, 30, role, proto) for role in roles]
    time.sleep(0.5 if udp else 1.0)
    srv.kill()
    return res, srv.wait(5)


# ---- 1. boot and link
def test_boot_ready_line(ready):
    pass


def test_link_up_1000_full(link):
    assert link and (link["speed_mbps"], link["duplex"]) == (1000, "full"), link


# ---- 1b. bad input, 2. UDP host -> board
@pytest.fixture(scope="module")
def udp_server(b, link):
    b.con.send("iperf -s -u")
    return b.con.expect_json("status", 5, lambda j: j.get("app") == "iperf")


@pytest.fixture(scope="module")
def junk(b, ns, udp_server):
    """iperf_junk.py's bad datagrams: (what it sent and the FIN-ack it got,
    the firmware's result line, its stderr)."""
    with backpressure(b):
        r = ns.run([sys.executable, os.path.join(HERE, "iperf_junk.py"), B, "5001"],
                   capture_output=True, text=True, timeout=30)
        res = result(b, 10, "server")
    try:
        j = json.loads(r.stdout)
    except ValueError:
        j = None
    return j, res, r.stderr.strip()[-200:]


@pytest.fixture(scope="module")
def junk_ok(junk):
    j, res, err = junk
    assert j and j["fin_ack"] and res, "junk %r (%s), result %r" % (j, err, res)
    print("  firmware: %d received, %d lost, malformed %d, outside a test %d; FIN-ack %r"
          % (res["received"], res["lost"], res["malformed"], res["malformed_outside_test"], j["fin_ack"]))
    return j, res


@pytest.fixture(scope="module")
def udp_rx(b, ns, junk, tmp_path_factory):
    """20 Mb/s host -> board: (firmware result, host report, frames dropped)."""
    with backpressure(b):
        d0 = dropped(b, ns)
        out = iperf.Iperf(["-u", "-c", B, "-b", "20M", "-l", "1470", "-t", "3"], net=ns).wait(25)
        res = result(b, 10, "server")
        d = dropped(b, ns) - d0
    host = iperf.udp_report(out)
    assert res and host, "result %r, host report %r" % (res, host)
    print("  firmware: %.2f Mb/s, %d/%d lost, jitter %.1f us; host: %r; GEM/wire drops %d"
          % (res["mbps"], res["lost"], res["datagrams"], res["jitter_us"], host, d))
    return res, host, d


def test_udp_server_listening(udp_server):
    assert udp_server and udp_server.get("state") == "listening", udp_server


def test_junk_test_result_and_fin_ack(junk_ok):
    pass


def test_junk_truncated_and_id0_counted_as_malformed_rest_intact(junk_ok):
    j, res = junk_ok
    assert (res["received"], res["lost"], res["malformed"]) == (j["n"], 0, j["inside_short"] + j["inside_zero"]), res


# The client's FIN, -(n + 1), is the datagram total n + 1, as in iperf
# 2.1.8's server (Server.cpp ReadPacketID): loss before it shows.
def test_junk_short_outside_a_test_counted_no_test_started(junk_ok):
    j, res = junk_ok
    assert res["malformed_outside_test"] == j["outside"] and res["datagrams"] == j["n"] + 1, res


def test_junk_fin_ack_reports_0_lost(junk_ok):
    j, _ = junk_ok
    assert (j["fin_ack"]["lost"], j["fin_ack"]["datagrams"]) == (0, j["n"] + 1), j["fin_ack"]


def test_junk_late_fins_answered_again_no_new_test(b, junk_ok):
    j, _ = junk_ok
    assert all(x >= 56 for x in j["late_fin_acks"]), j["late_fin_acks"]
    assert not b.con.expect_json("result", 0.5, lambda r: r.get("role") == "server")


def test_udp_rx_20m_firmware_result_and_host_server_report(udp_rx):
    pass


def test_junk_late_data_after_fin_counted_late_no_test_started(junk, udp_rx):
    j, res, host = junk[0], udp_rx[0], udp_rx[1]
    late_n = j["late_data"] if j else None
    assert late_n is not None and res.get("late_outside_test") == late_n and res["datagrams"] == host[2], \
        "late_outside_test %r (sent %r), datagrams %r, host total %r" % (
            res.get("late_outside_test"), late_n, res.get("datagrams"), host[2])


def test_udp_rx_host_report_equals_firmware_result(udp_rx):
    res, host, _ = udp_rx
    assert (host[1], host[2]) == (res["lost"], res["datagrams"])


def test_udp_rx_every_lost_datagram_is_a_counted_drop(udp_rx):
    res, _, d = udp_rx
    assert res["lost"] <= d <= res["lost"] + 3, "lost %d, dropped frames %d" % (res["lost"], d)


def test_udp_rx_0_lost_at_20m(udp_rx):
    assert udp_rx[0]["lost"] == 0, "%d lost (%.3f %%)" % (udp_rx[0]["lost"], udp_rx[0]["loss_pct"])


def test_udp_rx_rate_19_to_22m(udp_rx):
    assert 19.0 <= udp_rx[0]["mbps"] <= 22.0, udp_rx[0]["mbps"]


def test_udp_rx_no_malformed_datagrams(udp_rx):
    assert udp_rx[0]["malformed"] == 0


# ---- 2b. UDP dual (-d) and reverse (-R) from the host client
@pytest.fixture(scope="module")
def dual(b, ns, udp_server):
    with backpressure(b):
        out = iperf.Iperf(["-u", "-c", B, "-b", "10M", "-t", "2", "-d", "-L", "5010"], net=ns).wait(25)
        fwd = back = None               # the two result lines come in either order
        for _ in range(2):
            j = result(b, 10)
            if j and j.get("role") == "server":
                fwd = j
            elif j and j.get("role") == "client":
                back = j
    reps = iperf.udp_reports(out)
    assert fwd and back and back.get("server") and len(reps) == 2, \
        "forward %r, back %r, host reports %d" % (fwd, back, len(reps))
    host = sorted(r[1:] for r in reps)
    fwp = sorted([(fwd["lost"], fwd["datagrams"]), (back["server"]["lost"], back["server"]["datagrams"])])
    print("  forward %.2f Mb/s; back %.2f Mb/s (%s:%s); host %r firmware %r"
          % (fwd["mbps"], back["server"]["mbps"], back["peer"], back["len"], host, fwp))
    return back, host, fwp


def test_udp_dual_both_tests_reported_by_the_host(dual):
    pass


def test_udp_dual_back_test_to_the_hosts_L_port_at_the_clients_rate(dual):
    back = dual[0]
    assert back["peer"].endswith(":5010") and abs(back["offered_bps"] - 10485760) < 1000, \
        "peer %s offered %d" % (back["peer"], back["offered_bps"])


def test_udp_dual_host_reports_equal_the_firmwares(dual):
    assert dual[1] == dual[2]


def test_udp_dual_both_directions_1000_datagrams_at_most_1pct_lost(dual):
    # real time over a tap: a host that deschedules QEMU can drop a few
    # datagrams (9 of 1783 once, beside another make test); that both ends
    # count the same loss is test_udp_dual_host_reports_equal_the_firmwares,
    # and exact zero loss is the virtual-time tests' (tests/qemu/runner)
    assert all(tot >= 1000 and lost <= 0.01 * tot for lost, tot in dual[2]), dual[2]


@pytest.fixture(scope="module")
def udp_rev_rx(b, ns, udp_server):
    """The host's `iperf -c -u -R` (2.1.8's reverse test) against the
    firmware's `iperf -s -u`, which sends 10 Mb/s from port 5001 to the
    host client's socket: (the firmware's result line, the host's
    receive report (mbps, lost, total))."""
    with backpressure(b):
        out = iperf.Iperf(["-u", "-c", B, "-b", "10M", "-t", "2", "-R"], net=ns).wait(25)
        fw = result(b, 10, "server")
    host = iperf.udp_report(out)
    print("  firmware sent %r; host received %r" % (fw and (fw.get("tx_datagrams"), fw.get("server")), host))
    assert fw and host, "firmware %r, host output %r" % (fw, out)
    return fw, host


def test_udp_reverse_host_client_the_firmwares_server_sends(udp_rev_rx):
    """The firmware's server sends at the host client's -b 10M (iperf 2's
    binary M), one FIN set and no report awaited: 2.1.8 runs a reverse
    UDP test with no-udp-fin."""
    fw, host = udp_rev_rx
    assert fw.get("reverse") is True and fw["offered_bps"] == 10485760 and fw["tx_datagrams"] >= 1000, fw
    assert fw["server"] is None, fw


def test_udp_reverse_host_client_counts_what_the_firmware_sent(udp_rev_rx):
    fw, host = udp_rev_rx
    # the host's total is the highest id it saw; real time over a tap:
    # see test_udp_dual_both_directions_...
    assert abs(host[2] - fw["tx_datagrams"]) <= 1 and host[1] <= 0.01 * host[2], (fw, host)


@pytest.fixture(scope="module")
def udp_rev_tx(b, ns, link):
    """The firmware's `iperf -c -u -R` against the host's `iperf -s -u`
    (2.1.8 sends from its port to the firmware's socket): the firmware's
    reverse client line."""
    (r,), _ = fw_client(b, ns, 5004, "-R -b 10M -t 2")
    print("  firmware received %r" % r)
    assert r, "no firmware result line"
    return r


def test_udp_reverse_firmware_client_counts_the_hosts_stream(udp_rev_tx):
    r = udp_rev_tx
    assert r.get("reverse") is True and r["fin"] is True and r["peer"].endswith(":5004"), r
    assert r["received"] >= 1000 and r["lost"] <= 0.01 * r["datagrams"] and r["malformed"] == 0, r
    # the host's -b 10M is 10485760 b/s (iperf 2's binary M); a first to
    # last arrival measure of 2 s: 9..11 Mb/s
    assert 9e6 <= r["bps"] <= 11.5e6, r


# ---- 2c. TCP -P 4 both ways against the host's iperf 2.1.8
def csv_streams(text):
    """iperf 2 -y C rows of single streams (the [SUM] row has id -1) ->
    {id: bytes} of each stream's last row."""
    out = {}
    for line in text.splitlines():
        f = line.strip().split(",")
        if len(f) >= 9 and f[0].isdigit() and f[5].isdigit():
            out[f[5]] = int(f[7])
    return out


@pytest.fixture(scope="module")
def tcp_p4_rx(b, ns, link):
    """Host `iperf -c B -P 4` to the firmware's `iperf -s`: (the
    firmware's result line, the host client's per-stream bytes)."""
    b.con.send("iperf -s")
    st = b.con.expect_json("status", 5, lambda j: j.get("app") == "iperf" and j.get("proto") == "tcp")
    assert st and st.get("state") == "listening", st
    out = iperf.Iperf(["-c", B, "-P", "4", "-t", "2", "-y", "C"], net=ns).wait(30)
    res = result(b, 15, "server", "tcp")
    host = csv_streams(out)
    print("  firmware: %r; host streams %r" % (res and (res["mbps"], res.get("stream_bytes")), host))
    return res, host


def test_tcp_p4_host_client_one_summed_result(b, tcp_p4_rx):
    """iperf 2's server sums the streams of one -P client: one line."""
    res, host = tcp_p4_rx
    assert res and res["streams"] == 4 and not res["aborted"], res
    assert len(res["stream_bytes"]) == 4 and all(x > 0 for x in res["stream_bytes"]), res
    assert sum(res["stream_bytes"]) == res["bytes"], res
    assert not b.con.expect_json("result", 0.5, lambda r: r.get("proto") == "tcp"), "a second result line"


def test_tcp_p4_host_client_streams_match_the_firmwares(tcp_p4_rx):
    res, host = tcp_p4_rx
    assert res and len(host) == 4, host
    # both count every byte of the stream, its iperf header included
    assert sorted(res["stream_bytes"]) == sorted(host.values()), (res["stream_bytes"], host)


@pytest.fixture(scope="module")
def tcp_p4_tx(b, ns, link):
    """The firmware's `iperf -c H -P 4` to the host's `iperf -s`: (the
    firmware's result line, the host server's per-stream bytes)."""
    (res,), out = fw_client(b, ns, 5004, "-P 4 -t 2", proto="tcp")
    host = csv_streams(out)
    print("  firmware: %r; host streams %r" % (res and (res["mbps"], res.get("stream_bytes")), host))
    return res, host


def test_tcp_p4_firmware_client_four_streams_reach_the_host(tcp_p4_tx):
    res, host = tcp_p4_tx
    assert res and res["streams"] == 4 and not res["aborted"], res
    assert len(res["stream_bytes"]) == 4 and all(x > 0 for x in res["stream_bytes"]), res
    assert len(host) == 4 and all(x > 0 for x in host.values()), host
    # the client counts what it wrote into lwIP; each stream closed cleanly,
    # so the host's server read all of it, the iperf header included
    assert sorted(res["stream_bytes"]) == sorted(host.values()), (res["stream_bytes"], host)


@pytest.fixture(scope="module")
def tcp_rev_tx(b, ns, link):
    """The firmware's `iperf -c H -R` (2.1's reverse test) to the host's
    `iperf -s -y C`: (the firmware's result line, the host server's
    per-stream bytes: what it sent)."""
    (res,), out = fw_client(b, ns, 5006, "-R -t 2", proto="tcp")
    host = csv_streams(out)
    print("  firmware: %r; host sent %r" % (res and (res["mbps"], res["bytes"]), host))
    return res, host


def test_tcp_reverse_firmware_client_counts_what_the_host_sent(tcp_rev_tx):
    """The host's 2.1.8 server sends only when the header is VERSION2 with
    the reverse flag (Listener.cpp); every byte it wrote arrives, and the
    connection closes cleanly (not aborted at IPERF_TCP_RX_GRACE_MS)."""
    res, host = tcp_rev_tx
    assert res and res.get("reverse") is True and res["aborted"] is False, res
    assert len(host) == 1 and res["bytes"] == list(host.values())[0] > 100000, (res, host)


@pytest.fixture(scope="module")
def tcp_tradeoff_tx(b, ns, link):
    """The firmware's `iperf -c H -r` (iperf 2's tradeoff test) to the
    host's `iperf -s -y C` on 5001: the host connects back to the
    firmware's server on 5001 when the firmware's test is over.  (the
    firmware's client line, its server's line, the host's per-stream
    bytes)."""
    (cl, sv), out = fw_client(b, ns, 5001, "-r -t 2", ("client", "server"), "tcp")
    host = csv_streams(out)
    print("  firmware sent %r, received %r; host %r" % (cl and cl["bytes"], sv and sv["bytes"], host))
    return cl, sv, host


def test_tcp_tradeoff_firmware_client_then_the_host_sends_back(tcp_tradeoff_tx):
    cl, sv, host = tcp_tradeoff_tx
    assert cl and not cl["aborted"] and sv and not sv["aborted"], (cl, sv)
    assert sv["bytes"] > 100000, sv
    # the host's two rows: what it received, what it sent back
    assert sorted(host.values()) == sorted([cl["bytes"], sv["bytes"]]), (cl, sv, host)


@pytest.fixture(scope="module")
def udp_tradeoff_tx(b, ns, udp_server):
    """The firmware's `iperf -c H -u -r -b 10M -t 2` to the host's
    `iperf -s -u` on 5001: (the firmware's client line, its server's line
    of the host's back test, the host's UDP reports)."""
    (cl, sv), out = fw_client(b, ns, 5001, "-r -b 10M -t 2", ("client", "server"))
    reps = iperf.udp_reports(out)
    print("  firmware sent %r; received %r; host %r" % (cl and cl.get("server"), sv, reps))
    return cl, sv, reps


def test_udp_tradeoff_firmware_client_then_the_host_sends_back(udp_tradeoff_tx):
    cl, sv, reps = udp_tradeoff_tx
    assert cl and cl.get("server") and sv and sv["fin"] is True, (cl, sv)
    assert sv["received"] >= 1000 and sv["lost"] <= 0.01 * sv["datagrams"], sv
    # the host printed its receive report and, for its back test, the
    # firmware's FIN-ack report
    got = sorted((r[1], r[2]) for r in reps)
    want = sorted([(cl["server"]["lost"], cl["server"]["datagrams"]), (sv["lost"], sv["datagrams"])])
    assert got == want, (got, want)


@pytest.fixture(scope="module")
def udp_p2_rx(b, ns, udp_server):
    """The host's `iperf -c -u -P 2 -b 5M -t 2` against the firmware's
    `iperf -s -u`: (the firmware's summed line, the host client's
    per-stream server reports (mbps, lost, total))."""
    with backpressure(b):
        out = iperf.Iperf(["-u", "-c", B, "-P", "2", "-b", "5M", "-t", "2"], net=ns).wait(25)
        fw = result(b, 10, "server")
    reps = iperf.udp_reports(out)
    print("  firmware %r; host reports %r" % (fw and (fw.get("streams"), fw.get("stream_bytes"), fw["lost"],
                                                     fw["datagrams"]), reps))
    assert fw, "no firmware result; host output %r" % out
    return fw, reps


def test_udp_p2_host_client_one_summed_line_two_reports(udp_p2_rx):
    """iperf 2.1.8's two sockets are one test of two streams; each got
    its own FIN-ack, and the two reports add up to the firmware's sum."""
    fw, reps = udp_p2_rx
    assert fw["streams"] == 2 and len(fw["stream_bytes"]) == 2 and fw["fin"] is True, fw
    per_stream = [r for r in reps if r[2] < fw["datagrams"]]
    assert len(per_stream) == 2, reps
    assert sum(r[1] for r in per_stream) == fw["lost"] and sum(r[2] for r in per_stream) == fw["datagrams"], \
        (fw, reps)
    assert fw["datagrams"] >= 1000 and fw["lost"] <= 0.01 * fw["datagrams"], fw


@pytest.fixture(scope="module")
def udp_p2_tx(b, ns, link):
    """The firmware's `iperf -c H -u -P 2 -b 5M -t 2` to the host's
    `iperf -s -u`: (the firmware's line, the host server's reports)."""
    (r,), out = fw_client(b, ns, 5007, "-P 2 -b 5M -t 2")
    reps = iperf.udp_reports(out)
    print("  firmware %r; host %r" % (r and (r.get("stream_bytes"), r.get("server")), reps))
    assert r, "no firmware result line"
    return r, reps


def test_udp_p2_firmware_client_two_streams_reach_the_host(udp_p2_tx):
    """Two sockets, each a test at 5 Mb/s with its own FIN-ack: the
    firmware's "server" object is the sum of the host's two reports."""
    r, reps = udp_p2_tx
    assert r["streams"] == 2 and r["server"], r
    per_stream = [x for x in reps if x[2] < r["server"]["datagrams"]]
    assert len(per_stream) == 2, reps
    assert (sum(x[1] for x in per_stream), sum(x[2] for x in per_stream)) == \
        (r["server"]["lost"], r["server"]["datagrams"]), (r, reps)


# ---- 3. UDP board -> host, 4. 1 % loss
def board_to_host(b, ns, rate, length, amount):
    """The firmware's UDP client to the host's iperf -s: (result, host
    report, wire frames sent, wire loss drops, Starve)."""
    q = b.qmp
    srv = iperf.Iperf(["-s", "-u", "-p", "5003", "-w", "4M"], net=ns)
    time.sleep(0.3)
    sv = Starve(b)
    tw0 = [int(q.qom_get(p)) for p in ("stat-tx-wire-sent", "stat-tx-wire-dropped-loss")]
    b.con.send("iperf -c %s -u -p 5003 -b %s -l %d %s" % (H, rate, length, amount))
    r = result(b, 40, "client")
    time.sleep(0.3)
    srv.kill()
    host = iperf.udp_report(srv.wait(5))
    tw = [int(q.qom_get(p)) for p in ("stat-tx-wire-sent", "stat-tx-wire-dropped-loss")]
    sv.stop()
    assert r and r.get("server") and host, "result %r, host %r" % (r, host)
    return r, host, tw[0] - tw0[0], tw[1] - tw0[1], sv


@pytest.fixture(scope="module")
def udp_tx(b, ns, link):
    r, host, _, _, sv = board_to_host(b, ns, "20M", 1470, "-t 3")
    s = r["server"]
    print("  firmware sent %d (%.2f Mb/s); server: %.2f Mb/s, %d/%d lost; host printed %r"
          % (r["tx_datagrams"], r["mbps"], s["mbps"], s["lost"], s["datagrams"], host))
    return s, host, sv


def test_udp_tx_20m_firmware_result_with_the_host_servers_report(udp_tx):
    pass


def test_udp_tx_firmware_server_report_equals_host_server_output(udp_tx):
    s, host, _ = udp_tx
    assert (host[1], host[2]) == (s["lost"], s["datagrams"])


def test_udp_tx_0_lost_at_20m(udp_tx):
    assert udp_tx[0]["lost"] == 0


def test_udp_tx_rate_14_to_21m(udp_tx):
    s, _, sv = udp_tx
    name = "udp board->host: rate 14..21 Mb/s (70..105 %%) [QEMU waited %s]" % sv
    if s["mbps"] < 14.0 and sv.starved():
        timing_skip(SUITE, name, "%.2f Mb/s, but the host starved QEMU" % s["mbps"])
    assert 14.0 <= s["mbps"] <= 21.0, "%s: %.2f Mb/s" % (name, s["mbps"])


@pytest.fixture(scope="module")
def loss(b, ns, link):
    b.qmp.qom_set("tx-loss-pct", 1.0)
    try:
        r, host, sent, wloss, _ = board_to_host(b, ns, "50M", 512, "-n 50M")
    finally:
        b.qmp.qom_set("tx-loss-pct", 0.0)
    s = r["server"]
    print("  %d datagrams, %d lost (%.3f %%), wire dropped %d of %d frames; host %r"
          % (s["datagrams"], s["lost"], s["loss_pct"], wloss, sent, host))
    return r, s, host, sent, wloss


def test_loss_1pct_firmware_result_with_the_host_servers_report(loss):
    pass


def test_loss_1pct_at_least_100k_datagrams(loss):
    r, s = loss[:2]
    assert s["datagrams"] >= 100000, "only %d (firmware sent %.1f Mb/s)" % (s["datagrams"], r["mbps"])


def test_loss_1pct_reported_within_0_3(loss):
    assert abs(loss[1]["loss_pct"] - 1.0) <= 0.3, loss[1]["loss_pct"]


def test_loss_1pct_lost_equals_wire_loss_drops(loss):
    """The wire also carries the test's FIN retries and ARP (sent -
    datagrams frames), which the same 1 % may drop: every lost datagram
    is a wire drop, and every other wire drop is one of those extras."""
    _, s, _, sent, wloss = loss
    extra = max(0, sent - s["datagrams"])
    assert s["lost"] <= wloss <= s["lost"] + extra, \
        "lost %d, wire dropped %d, frames beyond the datagrams %d" % (s["lost"], wloss, extra)


def test_loss_1pct_host_and_firmware_agree(loss):
    _, s, host = loss[:3]
    assert (host[1], host[2]) == (s["lost"], s["datagrams"]), host


# ---- 5. 100M partner
@pytest.fixture(scope="module")
def partner100(b, link):
    b.qmp.qom_set("partner-abilities", "100FD,100HD,10FD,10HD")
    l100 = b.con.expect_json("link", 20, lambda j: j.get("up") is True)
    b.con.send("gem")
    return l100, b.con.expect_json("gem_config", 5)


def test_partner_100m_link_100_full(partner100):
    l100 = partner100[0]
    assert l100 and (l100["speed_mbps"], l100["duplex"]) == (100, "full"), l100


def test_partner_100m_nwcfg_100_full_mac_matches_phy(b, partner100):
    g = partner100[1]
    assert g and g.get("nwcfg_speed_mbps") == 100 and g.get("nwcfg_duplex") == "full" \
        and b.qmp.qom_get("mac-matches-phy") is True, g


@pytest.fixture(scope="module")
def tcp100(b, ns, partner100):
    """TCP board -> host for 8 s, goodput from the host server's 0.5 s
    intervals; another attempt (at most 3) only when the last found no
    1 s stretch at line rate.  A list of attempts: dict(result, steady
    intervals, best, peak, Starve)."""
    attempts = []
    for n in (1, 2, 3):
        srv = iperf.Iperf(["-s", "-p", "5002", "-i", "0.5", "-y", "C"], net=ns)
        time.sleep(0.3)
        sv = Starve(b)
        b.con.send("iperf -c %s -p 5002 -t 8" % H)
        r = result(b, 25, proto="tcp")
        sv.stop()
        time.sleep(0.5)
        srv.kill()
        rows = [x for x in iperf.parse_csv(srv.wait(5)) if x["end"] - x["start"] < 0.6]
        steady = [x for x in rows if x["start"] >= 1.0 and x["end"] <= 8.0]
        a = {"n": n, "result": r, "steady": steady, "starve": sv, "best": None, "peak": None}
        attempts.append(a)
        if not r or len(steady) < 8:
            break
        win = [sum(x["bytes"] for x in steady[i:i + 2]) * 8 / (steady[i + 1]["end"] - steady[i]["start"])
               for i in range(len(steady) - 1)]
        a["best"], a["peak"] = max(win), max(x["bps"] for x in steady)
        mean = sum(x["bytes"] for x in steady) * 8 / (steady[-1]["end"] - steady[0]["start"])
        print("  attempt %d, goodput 1..8 s: best 1 s %.3f Mb/s, mean %.3f, peak 0.5 s %.3f (line %.3f); "
              "firmware %.3f; QEMU waited %s; intervals %s"
              % (n, a["best"] / 1e6, mean / 1e6, a["peak"] / 1e6, LINE_100 / 1e6, r["mbps"], sv,
                 " ".join("%.1f" % (x["bps"] / 1e6) for x in steady)), flush=True)
        if abs(a["best"] / LINE_100 - 1) <= 0.01:
            break
    return attempts


def test_tcp_100m_host_server_intervals(tcp100):
    bad = [a for a in tcp100 if not a["result"] or len(a["steady"]) < 8]
    assert not bad, "attempt %d: result %r, %d intervals" % (bad[0]["n"], bad[0]["result"], len(bad[0]["steady"]))


def test_tcp_100m_no_half_second_above_line_rate(tcp100):
    peaks = [a["peak"] for a in tcp100 if a["peak"] is not None]
    assert peaks and max(peaks) <= LINE_100 * 1.01, "%s Mb/s" % ["%.3f" % (p / 1e6) for p in peaks]


def test_tcp_100m_best_1s_goodput_within_1pct_of_line_rate(tcp100):
    bests = [a["best"] for a in tcp100 if a["best"] is not None]
    assert bests, "no attempt with intervals"
    best = max(bests)
    if abs(best / LINE_100 - 1) <= 0.01:
        return
    waits = ", ".join(str(a["starve"]) for a in tcp100)
    if len(tcp100) == 3 and all(a["starve"].starved() for a in tcp100):
        timing_skip(SUITE, "100M TCP best 1 s", "%.3f Mb/s at best, but in every attempt the host starved "
                    "QEMU (waited %s for a CPU)" % (best / 1e6, waits))
    pytest.fail("%.3f Mb/s at best in %d attempts, QEMU waited %s" % (best / 1e6, len(tcp100), waits))
