"""gemlab_test.net, proc, iperf, results and board."""
import json
import os
import socket
import subprocess
import sys

import pytest

from gemlab_test import board, iperf, net, proc, results


def test_free_port_is_free_for_tcp_and_udp():
    p = net.free_port(exclude=(1,))
    t = socket.socket()
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        t.bind(("127.0.0.1", p))
        u.bind(("127.0.0.1", p))
    finally:
        t.close()
        u.close()


def test_free_port_honours_exclude():
    a = net.free_port()
    assert all(net.free_port(exclude=(a,)) != a for _ in range(5))


USERNET = ("Hub -1 (n0):\r\n"
           "  Protocol[State]    FD  Source Address  Port   Dest. Address  Port RecvQ SendQ\r\n"
           "  TCP[HOST_FORWARD]   9       127.0.0.1 34675       10.0.2.15  5001     0     0\r\n"
           "  TCP[SYN_SENT]      14       10.0.2.2 36104       10.0.2.15  5001  1460     0\r\n"
           "  TCP[TIME_WAIT]     -1       10.0.2.2 51618       10.0.2.15  5001     0     0\r\n"
           "  TCP[ESTABLISHED]   15       10.0.2.2 45616       10.0.2.15  5001     0 65536\r\n"
           "  UDP[236 sec]       16       127.0.0.1 40000       10.0.2.15     7     0     0\r\n")


def test_slirp_tcp_rows_and_the_live_ones():
    rows = net.slirp_tcp(USERNET)
    assert [(r["state"], r["sport"], r["dport"]) for r in rows] == [
        ("HOST_FORWARD", 34675, 5001), ("SYN_SENT", 36104, 5001), ("TIME_WAIT", 51618, 5001),
        ("ESTABLISHED", 45616, 5001)]
    assert rows[1]["recvq"] == 1460 and rows[3]["sendq"] == 65536 and rows[2]["fd"] == -1
    assert [r["sport"] for r in net.slirp_tcp_live(USERNET)] == [36104, 45616]
    assert net.slirp_tcp_live(USERNET.replace("SYN_SENT", "CLOSED").replace("ESTABLISHED", "NONE")) == []
    assert net.slirp_tcp("") == []


def test_proc_readers_see_a_busy_child():
    p = subprocess.Popen([sys.executable, "-c", "import time\nt=time.process_time()\n"
                          "while time.process_time()-t<0.3: pass\ninput()"], stdin=subprocess.PIPE)
    try:
        import time
        time.sleep(0.6)
        assert proc.cpu_s(p.pid) >= 0.2
        assert proc.rss_kb(p.pid) > 1000
        assert proc.sched_wait_ns(p.pid) >= 0
        assert proc.find_comm(os.getpid(), "python") == os.getpid()
        assert p.pid in proc.children(os.getpid())
    finally:
        p.communicate(b"\n")
    assert proc.cpu_s(p.pid) is None and proc.rss_kb(p.pid) is None


CSV = """20261201120000,10.0.2.2,5002,10.0.2.15,49153,3,0.0-0.5,5931008,94896128
20261201120000,10.0.2.2,5002,10.0.2.15,49153,3,0.5-1.0,5000000,80000000
not,a,row
20261201120001,10.0.2.2,5003,10.0.2.15,49154,4,0.0-3.0,3675000,9800000,0.012,2,2500,0.08,0
"""

REPORT = """[  1] Server Report:
[ ID] Interval       Transfer     Bandwidth        Jitter   Lost/Total Datagrams
[  1] 0.0000-3.0012 sec  7.16 MBytes  20.0 Mbits/sec   0.051 ms    3/ 5105 (0.059%)
[  2] 0.0000-2.0000 sec  2.50 MBytes  10.5 Mbits/sec   0.020 ms    0/ 1785 (0%)
"""


def test_iperf2_csv_rows():
    rows = iperf.parse_csv(CSV)
    assert [(r["start"], r["end"], r["bytes"]) for r in rows] == [(0.0, 0.5, 5931008), (0.5, 1.0, 5000000),
                                                                  (0.0, 3.0, 3675000)]
    assert rows[2]["lost"] == 2 and rows[2]["total"] == 2500 and "lost" not in rows[0]


def test_iperf2_udp_reports():
    assert iperf.udp_reports(REPORT) == [(20.0, 3, 5105), (10.5, 0, 1785)]
    assert iperf.udp_report(REPORT) == (10.5, 0, 1785)
    assert iperf.udp_report("nothing") is None


def test_iperf3_summary_tcp_udp_and_error():
    tcp = {"start": {"test_start": {"protocol": "TCP"}},
           "end": {"sum_sent": {"bits_per_second": 95e6, "retransmits": 4},
                   "sum_received": {"bits_per_second": 94e6}}}
    s = iperf.iperf3_summary(json.dumps(tcp))
    assert (s["mbps"], s["retransmits"]) == (94.0, 4)
    udp = {"start": {"test_start": {"protocol": "UDP"}},
           "end": {"sum": {"bits_per_second": 10e6, "seconds": 2.0, "bytes": 2500000, "lost_percent": 1.5}}}
    s = iperf.iperf3_summary(udp)
    assert (s["mbps"], s["lost_pct"]) == (10.0, 1.5)
    with pytest.raises(ValueError, match="unable to connect"):
        iperf.iperf3_summary({"error": "unable to connect to server"})


def test_iperf3_began_tells_a_reset_before_the_test_from_one_during_it():
    # iperf 3.12's document when slirp resets the control connection
    reset = ('{"start": {"connected": [], "version": "iperf 3.12"}, "intervals": [], "end": {},'
             ' "error": "unable to receive control message: Connection reset by peer"}')
    assert not iperf.iperf3_began(reset)
    during = {"start": {"connected": [{"socket": 5}], "test_start": {"protocol": "TCP"}},
              "intervals": [], "end": {}, "error": "control socket has closed unexpectedly"}
    assert iperf.iperf3_began(during)
    assert iperf.iperf3_began({"start": {"connected": []}, "intervals": [{"sum": {}}]})
    assert iperf.iperf3_began("not json")


def test_results_accessors_read_top_level_and_truth(tmp_path):
    (tmp_path / "results.json").write_text(json.dumps({
        "link": {"speed_mbps": 100}, "sweep": [{"throughput_bps": 5}], "conditions": {"cpus": 1},
        "scenario": {"name": "x"},
        "truth": {"model": {"wire_sent": 7}, "conditions": {"cpus": 2}, "link": {"link_speed": 1000}}}))
    r = results.load(str(tmp_path))
    assert results.link(r)["speed_mbps"] == 100                 # evidence, not truth.link
    assert results.model_link(r)["link_speed"] == 1000
    assert results.model(r)["wire_sent"] == 7
    assert results.conditions(r)["cpus"] == 2                   # truth.conditions first
    assert results.conditions({"conditions": {"cpus": 1}})["cpus"] == 1     # a schema-1 file
    assert results.scenario(r)["name"] == "x"
    assert results.gem(r) == {}
    assert results.get(r, "sweep.0.throughput_bps") == 5
    assert results.get(r, "model.wire_sent") == 7
    assert results.get(r, "link.nope", "dflt") == "dflt"
    (tmp_path / "results.json").write_text("{bad")
    with pytest.raises(ValueError, match="results.json"):
        results.load(str(tmp_path))


def test_results_codes_and_messages_of_a_run_dir(tmp_path):
    (tmp_path / "diagnosis.json").write_text('{"findings": [{"code": "B"}, {"code": "A"}]}')
    (tmp_path / "console.log").write_text(
        'boot\n@gemlab {"type":"result","test":"iperf","bps":1}\n'
        'x @gemlab {"type":"result","test":"echo"}\n@gemlab {"type":\n')
    (tmp_path / "peer.jsonl").write_text('{"type":"result","role":"server"}\n{"type":"log"}\n')
    assert results.codes(str(tmp_path)) == ["B", "A"]
    assert results.messages(str(tmp_path), type="result", test="iperf") == [
        {"type": "result", "test": "iperf", "bps": 1}]
    assert len(results.messages(str(tmp_path))) == 2      # the torn line is not a message
    assert results.messages(str(tmp_path), "peer.jsonl", role="server") == [{"type": "result", "role": "server"}]


def test_board_argv_baremetal_on_slirp():
    a = board.zynq_argv("q", "fw.elf", qmp="/r,1/qmp.sock", serial="/r/ser.sock",
                        netdev=board.netdev_user([("udp", 4000, 7)], ipv6=False), gem={"wire-seed": 3})
    assert a == ["q", "-M", "xilinx-zynq-a9", "-m", "256M", "-display", "none", "-monitor", "none", "-S",
                 "-qmp", "unix:/r,,1/qmp.sock,server=on,wait=off",
                 "-chardev", "socket,id=ser0,path=/r/ser.sock,server=on,wait=off",
                 "-serial", "chardev:ser0", "-serial", "null", "-kernel", "fw.elf",
                 "-netdev", "user,id=n0,net=10.0.2.0/24,ipv6=off,hostfwd=udp:127.0.0.1:4000-10.0.2.15:7",
                 "-net", "nic,netdev=n0,model=cadence_gem", "-global", "gemlab-link.wire-seed=3"]


def test_board_argv_linux_console_on_uart1_and_tap():
    a = board.zynq_argv("q", "/img", serial="/s", firmware="linux", netdev=board.netdev_tap("t0"), smp=2)
    assert a[a.index("-m") + 1] == "512M"
    assert a[a.index("-serial"):a.index("-serial") + 4] == ["-serial", "null", "-serial", "chardev:ser0"]
    assert a[a.index("-kernel") + 1] == "/img/zImage" and a[a.index("-smp") + 1] == "2"
    assert "tap,id=n0,ifname=t0,script=no,downscript=no" in a
    assert "-qmp" not in a


def test_board_argv_no_network():
    a = board.zynq_argv("q", "f", paused=False)
    assert a[-2:] == ["-net", "none"] and "-S" not in a


def test_bench_mmm_and_write_json(tmp_path, monkeypatch):
    from gemlab_test import bench
    assert bench.mmm([3, None, 1, 2]) == {"min": 1, "median": 2, "max": 3, "n": 3}
    assert bench.mmm([1.23456, 2.0], ndigits=2)["median"] == 1.62
    assert bench.mmm([2, 1], runs=True)["runs"] == [2, 1]
    assert bench.mmm([None]) is None
    monkeypatch.delenv("BENCH_JSON", raising=False)
    assert bench.write_json({"a": 1}) is None
    monkeypatch.setenv("BENCH_JSON", str(tmp_path / "d" / "b.json"))
    assert json.loads(open(bench.write_json({"a": 1})).read()) == {"a": 1}


def test_gemregs_reads_the_device_tests_header():
    from gemlab_test import gemregs
    r = gemregs.load()
    assert (r["GEM_NWCTRL_TSTART"], r["GEM_DMACFG_RXBUF_1536"], r["TXD_W1_WRAP"], r["GEM0_BASE"]) == \
        (0x200, 0x18 << 16, 1 << 30, 0xE000B000)
    assert "GEM0_QOM" not in r and "GEM_PHYMNTNC_PHY" not in r     # a string, a function-like macro


def test_gemregs_expressions_names_and_errors(tmp_path):
    from gemlab_test import gemregs
    h = tmp_path / "r.h"
    h.write_text("#define BITU(n) (1u << (n))\n#define A 0x10u /* c */\n#define B (A | BITU(3))\n"
                 "#define S \"x\"\n#define F(v) ((v) << 2)\n")
    assert gemregs.load(str(h)) == {"A": 0x10, "B": 0x18}
    h.write_text("#define BAD (1 <<)\n")
    with pytest.raises(ValueError, match=r"r.h:1"):
        gemregs.load(str(h))


def test_bench_run_main_exit_codes_and_cleanup(capsys):
    from gemlab_test import bench
    done = []

    def run(main, **kw):
        with pytest.raises(SystemExit) as e:
            bench.run_main(main, "b", cleanup=lambda: done.append(1), **kw)
        return e.value.code

    assert run(lambda: 3) == 3 and done == [1]

    def boom():
        raise RuntimeError("no QEMU")
    assert run(boom) == 1 and "b: no QEMU" in capsys.readouterr().err

    def sig():
        raise SystemExit(143)
    assert run(sig) == 143 and "b: stopped by signal 15" in capsys.readouterr().err

    def why():
        raise SystemExit("usage: b")
    assert run(why) == "usage: b" and len(done) == 4     # cleanup every time


def test_bench_reaper_ends_what_is_left_last_first_once():
    import subprocess
    from gemlab_test import bench
    r, ended = bench.Reaper(), []
    a = r.keep("a", ended.append)
    r.keep("b", ended.append)
    r.keep("c", ended.append)
    assert a == "a"
    r.forget("b")                       # ended by itself
    r.end("c")
    r.end("c")                          # a second end does nothing
    assert ended == ["c"]
    r.keep("d", ended.append)
    r.close()
    r.close()
    assert ended == ["c", "d", "a"]
    p = r.keep(subprocess.Popen(["sleep", "30"]), bench.kill)
    r.close()
    assert p.returncode == -9
