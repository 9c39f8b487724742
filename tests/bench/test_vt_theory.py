"""tests/bench/vt/bench_vt.py's theory arithmetic and ceiling flags (no
run, < 1 s; make test-runner runs it with the aggregate suite).  The
expected figures are worked by hand from IEEE 802.3 framing: 8 bytes of
preamble and SFD and a 12-byte inter-packet gap per frame (clause
4.4.2), a 14-byte header and 4-byte FCS, frames padded to 64 bytes
(clause 3); so a wrong overhead, a missing pad or a tolerance off by a
factor fails here.  Also: bad settings exit non-zero naming the
variable, and a failed `gemlab run` (a stand-in that exits 3) fails the
bench naming the run directory it keeps."""
import importlib.util
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("bench_vt", os.path.join(HERE, "vt", "bench_vt.py"))
vt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vt)


def test_tcp_goodput_is_r_times_1460_over_1538():
    # MSS 1460 + 40 IP/TCP + 14 + 4 = 1518-byte frame, + 20 = 1538 on the wire
    assert vt.tcp_goodput_bps(1000) == pytest.approx(1e9 * 1460 / 1538, rel=1e-12)
    assert vt.tcp_goodput_bps(1000) / 1e6 == pytest.approx(949.2848, abs=5e-5)
    assert vt.tcp_goodput_bps(100) / 1e6 == pytest.approx(94.92848, abs=5e-6)
    assert vt.tcp_goodput_bps(10) / 1e6 == pytest.approx(9.492848, abs=5e-7)


def test_udp_goodput_is_r_times_l_over_l_plus_66():
    assert vt.udp_goodput_bps(1000) == pytest.approx(1e9 * 1470 / 1536, rel=1e-12)
    assert vt.udp_goodput_bps(1000) / 1e6 == pytest.approx(957.03125, abs=1e-9)
    assert vt.udp_goodput_bps(100, 1472) == pytest.approx(1e8 * 1472 / 1538, rel=1e-12)
    assert vt.udp_goodput_bps(1000, 64) == pytest.approx(1e9 * 64 / 130, rel=1e-12)


def test_line_rate_packets_per_second():
    # 64-byte datagram: 64 + 28 + 18 = 110-byte frame, 130 on the wire
    assert vt.line_pps(1000, 64) == pytest.approx(1e9 / (8 * 130), rel=1e-12)
    assert round(vt.line_pps(1000, 64)) == 961538
    # 1472: the largest unfragmented datagram, a 1518-byte frame
    assert vt.frame_bytes(1472) == 1518
    assert round(vt.line_pps(1000, 1472)) == 81274
    # short datagrams are padded to the 64-byte minimum frame: 84 on the wire
    assert vt.frame_bytes(18) == 64 and vt.frame_bytes(17) == 64 and vt.frame_bytes(1) == 64
    assert vt.line_pps(1000, 1) == pytest.approx(1e9 / (8 * 84), rel=1e-12)
    assert round(vt.line_pps(1000, 1)) == 1488095
    assert vt.frame_bytes(19) == 65


def test_upper_bound_is_one_frame_over_the_test():
    th = vt.tcp_goodput_bps(1000)
    # 1538 bytes = 12.304 us at 1 Gb/s; over 3 s: +0.0039 Mb/s (the vt scenarios' 949.30M bound)
    up = vt.upper_bound_bps(th, 1000, 3, "tcp")
    assert up - th == pytest.approx(th * 12.304e-6 / (3 - 12.304e-6), rel=1e-9)
    assert 949.288e6 < up < 949.290e6
    # at 10 Mb/s one frame is 1.2304 ms: +0.0615 % over 2 s
    assert vt.upper_bound_bps(vt.tcp_goodput_bps(10), 10, 2, "tcp") / vt.tcp_goodput_bps(10) == \
        pytest.approx(2 / (2 - 1.2304e-3), rel=1e-9)
    assert vt.upper_bound_bps(vt.udp_goodput_bps(1000), 1000, 3, "udp") / vt.udp_goodput_bps(1000) == \
        pytest.approx(3 / (3 - 12.288e-6), rel=1e-9)


def test_ceiling_flags():
    tcp, udp = vt.tcp_goodput_bps(1000), vt.udp_goodput_bps(1000)
    assert vt.ceiling_flag("tcp", 1000, 3, tcp) == "ceiling"
    assert vt.ceiling_flag("tcp", 1000, 3, tcp * 0.991) == "ceiling"          # within 1 %
    assert vt.ceiling_flag("tcp", 1000, 3, tcp * 0.989, tcp) == "below"       # sender at the line
    assert vt.ceiling_flag("udp", 1000, 3, udp * 0.996) == "ceiling"          # within 0.5 %
    assert vt.ceiling_flag("udp", 1000, 3, udp * 0.994, udp) == "below"       # 0.6 % is out
    assert vt.ceiling_flag("udp", 1000, 3, 919.79e6, 919.78e6, 0, 0) == "sender-bound"
    assert vt.ceiling_flag("udp", 1000, 3, 900e6, 961e6, 6.0, 12345) == "receiver-bound"
    assert vt.ceiling_flag("tcp", 1000, 3, 949.290e6) == "ABOVE"
    assert vt.ceiling_flag("tcp", 1000, 3, 949.288e6) == "ceiling"            # inside one frame
    assert vt.ceiling_flag("udp", 10, 3, vt.udp_goodput_bps(10) * 1.01) == "ABOVE"


def test_pbuf_builds_turn_off_lwips_window_check_only_below_the_window():
    # lwIP init.c: TCP_WND (64240) > N x (1516 - 54) is an #error; 44 pbufs hold it
    assert vt.pbuf_opts(44) == "-DPBUF_POOL_SIZE=44"
    assert vt.pbuf_opts(43) == "-DPBUF_POOL_SIZE=43 -DLWIP_DISABLE_TCP_SANITY_CHECKS=1"
    assert vt.pbuf_opts(512) == "-DPBUF_POOL_SIZE=512"


def test_scenario_text_names_the_speed_and_direction():
    t = vt.scenario_text("x", "d", 100, "udp", True, 3, "200M", 64, "0.1%")
    for line in ("partner = 100FD", "reverse = yes", "bandwidth = 200M", "length = 64", "loss = 0.1%",
                 "clock = virtual", "duration = 3s", "speed = 100"):
        assert line in t.splitlines(), (line, t)


def bench(tmp_path, **env):
    import subprocess
    import sys
    e = dict(os.environ, BUILD="0", BENCH_JSON=str(tmp_path / "vt.json"), TMPDIR=str(tmp_path), **env)
    r = subprocess.run([sys.executable, os.path.join(HERE, "vt", "bench_vt.py")], capture_output=True, text=True,
                       env=e, timeout=60)
    return r.returncode, r.stdout + r.stderr


def test_bad_settings_exit_non_zero_naming_them(tmp_path):
    for k, v in (("SPEEDS", "7"), ("SIZES", "1473"), ("PARTS", "ceilings,bogus"), ("SECS", "x"),
                 ("RXBDS", "1"), ("PBUFS", "")):
        rc, out = bench(tmp_path, **{k: v})
        assert rc != 0 and k in out, (k, v, rc, out)


def test_a_failed_run_fails_the_bench_naming_its_run_dir(tmp_path):
    """A gemlab whose `run` exits 3: the bench stops with exit 1 and names
    the run directory, which it keeps (no silent skip)."""
    fake = tmp_path / "gemlab"
    fake.write_text("#!/bin/sh\n[ \"$1\" = check ] && exit 0\necho 'no QEMU here' >&2\nexit 3\n")
    fake.chmod(0o755)
    rc, out = bench(tmp_path, GEMLAB=str(fake), QEMU="/bin/true", FW="/bin/true", PARTS="ceilings", SPEEDS="10")
    assert rc == 1, out
    assert "gemlab run exited 3" in out and "no QEMU here" in out, out
    run_dir = out.split("(run dir ")[1].split(")")[0]
    assert run_dir.startswith(str(tmp_path)) and run_dir.endswith("ceil_tcp_10_tx"), out
    assert os.path.isfile(os.path.join(os.path.dirname(os.path.dirname(run_dir)), "scenarios", "ceil_tcp_10_tx.ini"))
