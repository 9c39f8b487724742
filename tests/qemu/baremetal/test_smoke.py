"""Bare-metal smoke: the firmware on $QEMU (stock qemu-system-arm will do) behind slirp, driven over
its serial console.  One boot for the module: ready line, link up, shell
errors, TCP and UDP echo from the host through hostfwd on 127.0.0.1,
`stats` JSON, forced speed and renegotiation.  Each check is one test;
a fixture does the traffic a check needs, so `-k` can pick any of them.
Run by `make -C firmware/baremetal test-smoke`."""
import os
import socket
import time

import pytest

from gemlab_test.fixtures import boot
from gemlab_test import board, console, net

# Every command with bad arguments: its usage line, nothing started or
# changed (test_still_serving_after_bad_input would catch a bad `ip`/`gem`
# that was applied anyway).
BAD = [
    ("iperf", "iperf -c 1.2.3"), ("iperf", "iperf -s -t 5"), ("iperf", "iperf -x"),
    ("iperf", "iperf -c 10.0.2.2 -u -l 10"), ("iperf", "iperf -c 10.0.2.2 -b 5M"),
    ("iperf", "iperf -c 10.0.2.2 -u -n 1M -t 3"), ("iperf", "iperf -c 10.0.2.2 -t"),
    ("iperf", "iperf -c 10.0.2.2 -P 9"), ("iperf", "iperf -c 10.0.2.2 -u -P 2 -R"),
    ("iperf", "iperf -c 10.0.2.2 -r -d"),
    ("echo", "echo -p 0"), ("echo", "echo -p notaport"), ("echo", "echo -T 0"), ("echo", "echo -T"),
    ("latency", "latency"), ("latency", "latency -c 10.0.2.2 -n 0"),
    ("sweep", "sweep"), ("sweep", "sweep -c 10.0.2.2 -t 0"),
    ("ip", "ip 1.2.3.4"), ("ip", "ip 300.1.1.1 255.255.255.0 10.0.2.2"),
    ("gem", "gem rxbd 1"), ("gem", "gem rxbd 100000"), ("gem", "gem macspeed 42"),
    ("phy", "phy force 100 sideways"), ("phy", "phy bogus"),
]


@pytest.fixture(scope="module")
def port():
    return net.free_port()


@pytest.fixture(scope="module")
def b(request, tmp_path_factory, fw, any_qemu, port):
    return boot(request, tmp_path_factory, fw, any_qemu, "smoke",
                netdev=board.netdev_user([("tcp", port, 7), ("udp", port, 7)]))


@pytest.fixture(scope="module")
def echo(b, link):
    b.con.send("echo")
    st = b.con.expect_json("status", 5, lambda j: j.get("app") == "echo")
    time.sleep(0.2)
    return st


@pytest.fixture(scope="module")
def traffic(echo, port):
    """The echo traffic the stats checks count: errors of the TCP and UDP
    echo (None each when it worked)."""
    return {"tcp": tcp_echo(port, 256 * 1024, 20), "udp": udp_echo(port, [1, 64, 512, 1472], 2)}


@pytest.fixture(scope="module")
def stats(b, traffic):
    b.con.send("stats")
    return b.con.expect_json("stats", 10)


def tcp_echo(port, size, timeout):
    """None when @size random bytes come back intact, else what went wrong."""
    payload = os.urandom(size)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            got = bytearray()
            sent = 0
            while sent < len(payload):
                sent += s.send(payload[sent:sent + 4096])
                s.setblocking(False)
                try:
                    while True:
                        d = s.recv(65536)
                        if not d:
                            break
                        got += d
                except BlockingIOError:
                    pass
                s.settimeout(timeout)
            end = time.monotonic() + timeout
            while len(got) < len(payload) and time.monotonic() < end:
                d = s.recv(65536)
                if not d:
                    break
                got += d
    except OSError as e:
        return "socket error: %s" % e
    if bytes(got) != payload:
        return "echoed %d of %d bytes%s" % (len(got), len(payload),
                                            " (content differs)" if len(got) == len(payload) else "")
    return None


def udp_echo(port, sizes, timeout):
    ok = 0
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.settimeout(timeout)
            for n in sizes:
                payload = os.urandom(n)
                for _attempt in range(3):      # slirp may drop the first (ARP)
                    s.sendto(payload, ("127.0.0.1", port))
                    try:
                        d, _ = s.recvfrom(65536)
                    except socket.timeout:
                        continue
                    if d == payload:
                        ok += 1
                        break
    except OSError as e:
        return "socket error: %s" % e
    return None if ok == len(sizes) else "%d of %d datagrams echoed" % (ok, len(sizes))


def cmd_prints(b, cmd, pred, timeout=5):
    b.con.send(cmd)
    return b.con.expect(pred, timeout)


def test_boot_ready_line(ready):
    pass


def test_ready_ip_and_board(ready):
    assert (ready.get("ip"), ready.get("board")) == ("10.0.2.15", "qemu-zynq"), ready


def test_link_up(link):
    assert link, "no link-up event within 20 s"


def test_link_1000_full_autoneg(link):
    """stock PHY registers resolve to 1000/full"""
    assert link and (link.get("speed_mbps"), link.get("duplex"), link.get("autoneg")) == (1000, "full", True), link


def test_shell_help_lists_stats(b, link):
    assert cmd_prints(b, "help", lambda ln: ln.strip().startswith("stats")), "no 'stats' in help"


def test_shell_bad_args_print_usage(b, link):
    assert cmd_prints(b, "phy force 42 full", lambda ln: ln.startswith("usage: phy")), "no usage line"


def test_shell_unknown_command_reported(b, link):
    assert cmd_prints(b, "nosuchcommand", lambda ln: "unknown command" in ln), "no error line"


def test_shell_every_bad_argument_command_prints_its_usage(b, link):
    missing = [cmd for name, cmd in BAD
               if not cmd_prints(b, cmd, lambda ln, n=name: ln.startswith("usage: " + n))]
    assert not missing, "no usage line for: %s" % "; ".join(missing)


def test_iperf_bad_parallel_error_names_the_flag(b, link):
    """-P outside 1..8: an error line that names -P before the usage."""
    assert cmd_prints(b, "iperf -c 10.0.2.2 -P 0",
                      lambda ln: '"type":"error"' in ln and '"what":"-P: streams must be 1..8"' in ln)


def test_iperf_bad_udp_length_error_names_the_flag(b, link):
    """-l outside a UDP datagram's 20..8972 bytes: an error line that says
    so before the usage (firmware/baremetal/lib/appargs.c)."""
    assert cmd_prints(b, "iperf -c 10.0.2.2 -u -l 9000",
                      lambda ln: '"type":"error"' in ln and '"what":"-l: a UDP datagram is 20..8972 bytes"' in ln)


def test_shell_too_many_arguments_reported(b, link):
    assert cmd_prints(b, "iperf " + " ".join(["-p"] * 40), lambda ln: "too many arguments" in ln)


def test_shell_over_long_line_refused(b, link):
    """Longer than the shell's 160-byte line buffer: refused, not run
    truncated.  Shorter than the firmware's 256-byte UART RX ring
    (bsp/uart.c): QEMU delivers the bytes at once, not at 115200 baud,
    so a longer burst can overrun the ring (and lose the CR) whenever a
    loaded host delays the main loop."""
    assert cmd_prints(b, "ip " + "x" * 200, lambda ln: "error: line too long" in ln), "no error line"


def test_still_serving_after_bad_input(b, link):
    """address and RX ring unchanged after all the bad input above"""
    b.con.send("ip")
    ipl = b.con.expect_json("ip", 5)
    b.con.send("gem")
    gcf = b.con.expect_json("gem_config", 5)
    assert ipl and ipl.get("ip") == "10.0.2.15" and gcf and gcf.get("rxbd") == gcf.get("rxbd_max"), (ipl, gcf)


def test_echo_server_started(echo):
    assert echo and echo.get("state") == "listening", echo


def test_tcp_echo_256k_over_slirp(traffic):
    assert traffic["tcp"] is None, traffic["tcp"]


def test_udp_echo_1_to_1472_bytes_over_slirp(traffic):
    assert traffic["udp"] is None, traffic["udp"]


def test_stats_one_json_line(stats):
    assert stats, "no stats line"


def test_stats_gem_hw_counters_count_traffic(stats):
    hw = stats["gem"]["hw"]
    assert hw["frames_rx"] > 100 and hw["frames_tx"] > 100, hw


def test_stats_all_gem_error_counters_present(stats):
    assert {"fcs_errors", "rx_resource_errors", "rx_overrun_errors"} <= set(stats["gem"]["hw"])


def test_stats_driver_saw_rx_frames(stats):
    assert stats["gem"]["drv"]["rx_frames"] > 100, stats["gem"]["drv"]


def test_stats_lwip_tcp_recv(stats):
    assert stats["lwip"]["tcp"]["recv"] > 0, stats["lwip"]["tcp"]


def test_stats_phy_up(stats):
    assert stats["phy"]["link"] is True and stats["phy"]["state"] == "up", stats["phy"]


@pytest.fixture(scope="module")
def forced100(b, stats):
    b.con.send("phy force 100 full")
    return b.con.expect_json("link", 5, lambda j: j.get("up") is True)


@pytest.fixture(scope="module")
def reneg(b, forced100):
    b.con.send("phy aneg")
    return b.con.expect_json("link", 8, lambda j: j.get("up") is True)


def test_phy_force_100_full(forced100):
    j = forced100
    assert j and (j.get("speed_mbps"), j.get("duplex"), j.get("autoneg")) == (100, "full", False), j


def test_phy_aneg_back_to_1000(reneg):
    assert reneg and reneg.get("speed_mbps") == 1000 and reneg.get("autoneg") is True, reneg


def test_tcp_echo_after_renegotiation(reneg, port):
    err = tcp_echo(port, 16 * 1024, 20)
    assert err is None, err


ECHO_TCP_MAX_CONNS = 8      # firmware/baremetal/apps/echo/echo.c


def echo_one(s, timeout=10):
    """None when one byte sent on @s comes back, else what happened."""
    try:
        s.settimeout(timeout)
        s.sendall(b"x")
        d = s.recv(1)
    except OSError as e:
        return "socket error: %s" % e
    return None if d == b"x" else "got %r" % d


def closed_by_board(s, timeout):
    """True when the board ends the connection (EOF or reset) within
    @timeout s, False when data or nothing arrives."""
    s.settimeout(timeout)
    try:
        return s.recv(1) == b""
    except socket.timeout:
        return False
    except OSError:
        return True


def echo_answer(line):
    """@gemlab status or error of the echo app on @line, else None."""
    j = console.parse_line(line)
    ok = j is not None and j.get("app") == "echo" and j.get("type") in ("status", "error")
    return j if ok and j.get("state") != "stopped" else None


def echo_cmd(b, cmd):
    """Run an echo command; its result line (stop) or its listening status
    (start).  A start is tried again while it fails with ERR_USE (-8):
    connections the host has just closed keep port 7 until their FIN is
    acknowledged (lwIP's tcp_bind; SO_REUSE is off in
    firmware/baremetal/port/lwipopts.h)."""
    if cmd == "echo stop":
        b.con.send(cmd)
        return b.con.expect_json("result", 5, lambda j: j.get("test") == "echo")
    for _ in range(10):
        b.con.send(cmd)
        line = b.con.expect(lambda ln: echo_answer(ln) is not None, 5)
        j = echo_answer(line) if line else None
        if not j or j.get("type") == "status":
            return j
        if j.get("err") != -8:
            return None
        time.sleep(0.5)
    return None


@pytest.fixture(scope="module")
def echo_limits(b, reneg, port):
    """The echo server's TCP limits (apps/echo/echo.c), after the checks
    above: ECHO_TCP_MAX_CONNS held connections, one more, a slot freed by
    a close; then `echo -T 1`: a connection kept busy past 1 s, then left
    idle.  The echo server is restarted with its defaults at the end."""
    out = {}
    addr = ("127.0.0.1", port)
    held = [socket.create_connection(addr, timeout=10) for _ in range(ECHO_TCP_MAX_CONNS)]
    try:
        out["held"] = [echo_one(s) for s in held]
        with socket.create_connection(addr, timeout=10) as extra:
            try:
                extra.sendall(b"x")
            except OSError:
                pass
            out["extra_closed"] = closed_by_board(extra, 10)
        held.pop().close()
        # the board frees the slot when its FIN arrives: a few tries
        for _ in range(10):
            with socket.create_connection(addr, timeout=10) as s:
                out["after_close"] = echo_one(s, 2)
            if out["after_close"] is None:
                break
            time.sleep(0.5)
    finally:
        for s in held:
            s.close()
    out["stop_refused"] = echo_cmd(b, "echo stop")
    out["start_idle"] = echo_cmd(b, "echo -T 1")
    with socket.create_connection(addr, timeout=10) as s:
        out["busy"] = []
        for _ in range(6):          # 2.4 s of traffic: past -T, never idle for it
            out["busy"].append(echo_one(s))
            time.sleep(0.4)
        out["idle_closed"] = closed_by_board(s, 10)
    out["stop_idle"] = echo_cmd(b, "echo stop")
    out["restart"] = echo_cmd(b, "echo")
    return out


def test_echo_holds_at_most_8_tcp_connections(echo_limits):
    assert echo_limits["held"] == [None] * ECHO_TCP_MAX_CONNS, echo_limits["held"]
    assert echo_limits["extra_closed"] is True, "the 9th connection stayed open"
    st = echo_limits["stop_refused"]
    assert st and st.get("tcp_refused") == 1, st


def test_echo_takes_a_connection_again_once_one_closes(echo_limits):
    assert echo_limits["after_close"] is None, echo_limits["after_close"]


def test_echo_aborts_a_connection_idle_for_its_T(echo_limits):
    assert echo_limits["start_idle"], "echo -T 1 did not start"
    assert echo_limits["busy"] == [None] * 6, echo_limits["busy"]
    assert echo_limits["idle_closed"] is True, "the idle connection stayed open"
    st = echo_limits["stop_idle"]
    assert st and st.get("tcp_idle_aborts") == 1 and st.get("tcp_refused") == 0, st
    assert echo_limits["restart"], "echo did not restart"
