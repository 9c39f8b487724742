"""Issue 18: virtual time (`gemlab run --clock virtual`, docs/VIRTUAL_TIME.md).

The bare-metal firmware runs under `-icount mips=N,sleep=off` (our QEMU
10.0 patch 0040) and every console input goes through the gemlab-gate
chardev, so it lands at a defined virtual time.  The scenario
(fixtures/vt_idle.ini, run with --net idle) boots, waits for the link, types `phy` and starts
the iperf server over the console, flaps the link from the timeline, types
`phy` again from the timeline, and ends with `stats`; there is no network
peer, so nothing from the host reaches the guest.

  - rerun: the same scenario twice, the second time beside a CPU hog (a
    busy loop per host core, always killed), gives byte-identical
    results.json minus its wall_clock_fields, diagnosis.json,
    console.log and wire.pcapng;
  - the same for the Linux image (fixtures/vt_linux.ini, --net idle);
  - mips: [board] mips = 250 and 667 change the virtual time of the boot
    in proportion (a rational rate: 667 is not a power of two);
  - options: bad values are refused naming the option (QEMU's -icount,
    gemlab's --clock, the scenario's [board] clock/mips with file:line);
  - --net sim (the in-emulator peer, docs/PEER.md): the TCP 1G scenario
    twice, once beside the hog, gives identical files and the peer's
    results, with goodput at 1000 x 1460/1538; the UDP one reaches
    1000 x 1470/1536 at the board with nothing lost; -P 4 both ways sums
    four streams that each carry traffic to the same ceiling; what the
    peer cannot do is refused with file:line;
  - the Linux image's iperf 2.1.8 against the peer, TCP both ways and UDP
    with -P 2 (issue 19); a kernel panic ends the run at once.

Without the gate (GEMLAB_CONSOLE_GATE=off: the runner types into the
socket as in real time) the rerun test fails: the link events' virtual
times and the transcript differ between runs.  Run by make test-runner
("virtual-time: N passed, M failed"); the run directories stay under
$O/test-results/virtual-time/.
"""
import json
import os
import subprocess
import time

import pytest

from gemlab_test import paths, results

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO = os.path.join(HERE, "fixtures", "vt_idle.ini")
GEMLAB = os.environ.get("GEMLAB") or os.path.join(paths.build_dir(), "host", "bin", "gemlab")
COMPARED = ["results.json", "diagnosis.json", "console.log", "wire.pcapng"]


@pytest.fixture(scope="module")
def vt_qemu(our_qemu):
    """Our QEMU, which must have the gate chardev and -icount mips=."""
    r = subprocess.run([our_qemu, "-M", "none", "-chardev", "help"], capture_output=True, text=True, timeout=30)
    if "gemlab-gate" not in r.stdout:
        pytest.fail("%s has no gemlab-gate chardev: virtual time needs QEMU_BASE=10.0 "
                    "(make -C emu/qemu QEMU_BASE=10.0)" % our_qemu, pytrace=False)
    return our_qemu


def gemlab_run(qemu, fw, out, scenario=SCENARIO, extra=(), env=None, text=None):
    """`gemlab run` of @scenario, or of @text written to OUT.ini."""
    if text is not None:
        scenario = out + ".ini"
        with open(scenario, "w") as f:
            f.write(text)
    if scenario == SCENARIO and "--net" not in extra:
        extra = ["--net", "idle"] + list(extra)   # the link and timeline only, no peer
    r = subprocess.run([GEMLAB, "run", "--qemu", qemu, "--fw", fw, "--out", out] + list(extra) + [scenario],
                       capture_output=True, text=True, timeout=600, env=env)
    return r


def run_ok(qemu, fw, out, **kw):
    """gemlab_run that must exit 0: its results.json."""
    r = gemlab_run(qemu, fw, out, **kw)
    assert r.returncode == 0, r.stdout + r.stderr
    return results.load(out)


def without_wall_clock(doc):
    """results.json less every field it lists as wall-clock."""
    for path in doc.get("wall_clock_fields", []):
        node, keys = doc, path.split(".")
        for k in keys[:-1]:
            node = node.get(k, {})
        node.pop(keys[-1], None)
    return doc


def start_hog():
    """One busy loop per host core (at the lowest priority: the lead's
    real-time suites share this machine)."""
    n = os.cpu_count() or 2
    return [subprocess.Popen(["nice", "-n", "19", "sh", "-c", "while :; do :; done"]) for _ in range(n)]


def stop_hog(procs):
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def quiet_and_loaded_runs(qemu, fw, tmp_path, scenario=SCENARIO, extra=()):
    """Run @scenario twice: alone, then beside the hog; both must pass.
    Returns the two run directories (quiet, loaded)."""
    assert os.access(GEMLAB, os.X_OK), "no gemlab at %s (make runner)" % GEMLAB
    quiet, loaded = str(tmp_path / "quiet"), str(tmp_path / "loaded")
    r = gemlab_run(qemu, fw, quiet, scenario=scenario, extra=extra)
    assert r.returncode == 0, r.stdout + r.stderr
    hog = start_hog()
    try:
        r2 = gemlab_run(qemu, fw, loaded, scenario=scenario, extra=extra)
    finally:
        stop_hog(hog)
    assert r2.returncode == 0, r2.stdout + r2.stderr
    return quiet, loaded


def test_rerun_identical_under_cpu_hog(tmp_path, vt_qemu, fw):
    quiet, loaded = quiet_and_loaded_runs(vt_qemu, fw, tmp_path)
    res = results.load(quiet)
    clock = res["clock"]
    assert clock["mode"] == "virtual" and clock["mips"] == 500 and clock["mips_default"], clock
    assert clock["console_gate"]["unsynced_inputs"] == 0, clock
    assert clock["console_gate"]["timeouts"] == 0, clock
    assert 0 < clock["ready_s"] < clock["link_up_s"] < clock["end_s"], clock
    assert res["wall_clock_fields"] == ["wall_clock"], res["wall_clock_fields"]
    assert res["wall_clock"]["s_per_virtual_s"] > 0, res["wall_clock"]
    # the flap from the timeline reached the guest: down, then up again
    assert [e["up"] for e in res["link_events"]] == [True, False, True], res["link_events"]
    with open(os.path.join(quiet, "console.log")) as f:
        con = f.read()
    assert con.count("\"type\":\"phy_regs\"") == 2 and "\"type\":\"stats\"" in con, con[-2000:]
    assert_same_runs(quiet, loaded)


def assert_same_runs(quiet, loaded, peer=False):
    """The files of two runs are the same, less wall-clock fields and the
    run directories' names; with @peer the in-emulator peer's results
    (peer.jsonl) too."""
    for name in COMPARED + (["peer.jsonl"] if peer else []):
        a, b = os.path.join(quiet, name), os.path.join(loaded, name)
        if name == "results.json":
            with open(a) as fa, open(b) as fb:
                ja, jb = without_wall_clock(json.load(fa)), without_wall_clock(json.load(fb))
            ja, jb = (json.dumps(j, sort_keys=True).replace(d, "RUN") for j, d in ((ja, quiet), (jb, loaded)))
            assert ja == jb, "results.json differs beyond wall_clock"
        else:
            with open(a, "rb") as fa, open(b, "rb") as fb:
                da, db = fa.read(), fb.read()
            assert da.replace(quiet.encode(), b"RUN") == db.replace(loaded.encode(), b"RUN"), \
                "%s differs between the quiet and the loaded run" % name


def linux_zimage():
    zimage = os.path.join(paths.build_dir(), "linux", "zImage")
    assert os.path.exists(zimage), "no Linux image at %s (make -C firmware/linux)" % zimage
    return zimage


def linux_run(qemu, tmp_path, name, text):
    """`gemlab run` of the Linux image on a scenario of @text (written to
    TMP/NAME.ini); it must succeed.  (run directory, results.json)."""
    out = str(tmp_path / name)
    return out, run_ok(qemu, linux_zimage(), out, text=text)


def test_linux_rerun_identical_under_cpu_hog(tmp_path, vt_qemu):
    """The Linux image in virtual time (its clock event device is the TTC:
    patch 0041), the same way: a quiet run and one beside the hog."""
    zimage = linux_zimage()
    sc = os.path.join(HERE, "fixtures", "vt_linux.ini")
    quiet, loaded = quiet_and_loaded_runs(vt_qemu, zimage, tmp_path, scenario=sc, extra=["--net", "idle"])
    res = results.load(quiet)
    c = res["clock"]
    assert 0 < c["ready_s"] <= c["link_up_s"] < c["end_s"] and c["console_gate"]["timeouts"] == 0, c
    assert [e["up"] for e in res["link_events"]][-2:] == [False, True], res["link_events"]
    assert_same_runs(quiet, loaded)


def boot_ready_s(qemu, fw, out, mips):
    text = open(SCENARIO).read().replace("clock = virtual", "clock = virtual\nmips = %d" % mips)
    c = run_ok(qemu, fw, out, text=text.replace("name = vt_idle", "name = vt_mips%d" % mips),
               extra=["--net", "idle"])["clock"]
    assert c["mips"] == mips and not c["mips_default"], c
    return c["ready_s"]


def test_mips_scales_boot_time(tmp_path, vt_qemu, fw):
    """The boot to the ready line is CPU work: its virtual time goes as
    1/mips (patch 0040: ns = count * 1000 / mips, a rational rate)."""
    t = {m: boot_ready_s(vt_qemu, fw, str(tmp_path / ("m%d" % m)), m) for m in (250, 500, 667)}
    assert t[250] / t[500] == pytest.approx(2.0, rel=0.02), t
    assert t[667] / t[500] == pytest.approx(500 / 667, rel=0.02), t


@pytest.mark.parametrize("opt,words", [
    ("mips=0", "Invalid mips value '0'"),
    ("mips=fast", "Invalid mips value 'fast'"),
    ("mips=1000001", "Invalid mips value '1000001'"),
    ("shift=1,mips=500", "either shift or mips"),
])
def test_qemu_icount_mips_refused(vt_qemu, opt, words):
    r = subprocess.run([vt_qemu, "-M", "none", "-display", "none", "-icount", opt, "-S"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode != 0 and words in r.stderr and "-icount " + opt in r.stderr, r.stderr


def test_bad_clock_options_refused(tmp_path, vt_qemu, fw):
    r = gemlab_run(vt_qemu, fw, str(tmp_path / "x"), extra=["--clock", "fast"])
    assert r.returncode == 2 and "--clock: 'fast' is not real|virtual" in r.stderr, r.stderr
    # host networking in virtual time is refused, naming the flag
    r = gemlab_run(vt_qemu, fw, str(tmp_path / "y"), scenario=TCP_1G, extra=["--net", "user"])
    assert r.returncode == 2 and "--net" in r.stderr and "--clock real" in r.stderr, r.stderr
    sc = str(tmp_path / "z")
    r = gemlab_run(vt_qemu, fw, sc, text="[scenario]\nname = bad\n[board]\nclock = fast\nmips = 0\n")
    assert r.returncode == 2, r.stderr
    assert "%s.ini:4: [board] clock" % sc in r.stderr and "%s.ini:5: [board] mips" % sc in r.stderr, r.stderr


# ---- --net sim: traffic against the in-emulator peer (docs/PEER.md) ------

SCENARIOS = os.path.join(HERE, "..", "..", "..", "scenarios")
TCP_1G = os.path.join(SCENARIOS, "vt_baremetal_tcp_1g.ini")
UDP_1G = os.path.join(SCENARIOS, "vt_baremetal_udp_1g.ini")


def ceiling_bps(payload, wire, seconds):
    """1G line rate x payload/wire (IEEE 802.3 clause 4.4.2: preamble,
    FCS and inter-packet gap counted in @wire), and the most a receiver
    that times first to last arrival can report over @seconds: one frame's
    wire time more."""
    c = 1e9 * payload / wire
    return c, c * (1 + wire * 8 / (1e9 * seconds))


def test_traffic_rerun_identical_under_cpu_hog(tmp_path, vt_qemu, fw):
    """The firmware's TCP client against the peer's server: the goodput
    sits at the Ethernet ceiling (1000 x 1460/1538), and a second run beside
    a busy loop per core gives the same files, the peer's results too."""
    quiet, loaded = quiet_and_loaded_runs(vt_qemu, fw, tmp_path, scenario=TCP_1G)
    res = results.load(quiet)
    ip = res["iperf"]
    assert ip["ok"] and ip["measured_by"] == "peer" and "virtual_idle" not in ip, ip
    assert ip["peer_result"]["src"] == "peer" and ip["peer_result"]["role"] == "server", ip
    lo, hi = ceiling_bps(1460, 1538, 3)
    assert lo * 0.999 <= ip["throughput_bps"] <= hi, (ip["throughput_bps"], lo, hi)
    assert ip["tx_bps"] == ip["throughput_bps"], ip
    assert results.codes(quiet) == [], "a clean link named a fault"
    assert res["clock"]["console_gate"]["unsynced_inputs"] == 0, res["clock"]
    # the evidence the diagnosis reads: the firmware's whole stats line
    # (a ~3 KB line the gate once cut at its start, so "gem" was missing)
    assert res["gem"]["rx_frames"] > 100 and res["gem"]["rx_resource_errors"] == 0, res.get("gem")
    assert_same_runs(quiet, loaded, peer=True)


def test_udp_peer_to_board_rerun_identical_under_cpu_hog(tmp_path, vt_qemu, fw):
    """The peer's UDP client at -b 1000M, the board's server counts: line
    rate for 1470-byte datagrams (1000 x 1470/1536), nothing lost; and a
    second run beside a busy loop per core gives the same files.  The
    board idles in WFI between frames here, so this is the direction that
    caught the main loop's clock warp racing the vCPU's instruction count
    (patch 0043: runs parted by 768 ns after 1861 frames) and the runner
    reading peer.jsonl before the gate's hold."""
    quiet, loaded = quiet_and_loaded_runs(vt_qemu, fw, tmp_path, scenario=UDP_1G)
    ip = results.load(quiet)["iperf"]
    assert ip["ok"] and ip["measured_by"] == "board" and ip["udp_lost_pct"] == 0, ip
    lo, hi = ceiling_bps(1470, 1536, 3)
    assert lo * 0.999 <= ip["throughput_bps"] <= hi, (ip["throughput_bps"], lo, hi)
    assert ip["peer_result"]["role"] == "client" and ip["peer_result"]["server"]["lost"] == 0, ip
    # the board's server's progress lines, one a second, as for TCP: each
    # at the ceiling (a virtual-time UDP run once had no intervals)
    assert len(ip["intervals_bps"]) >= 2 and all(abs(x / lo - 1) < 1e-3 for x in ip["intervals_bps"]), ip
    assert_same_runs(quiet, loaded, peer=True)


def test_last_partial_interval_is_reported(tmp_path, vt_qemu, fw):
    """A test that ends between two -i boundaries keeps its tail: the
    peer's UDP client at 37M for 3 s stops 1 ms before the board's third
    boundary, and the board's server printed two intervals; a 1 s TCP
    test printed none.  Each interval now, the last one too, at the rate
    offered (TCP: at the line)."""
    u = run_ok(vt_qemu, fw, str(tmp_path / "u"), text="[board]\nclock = virtual\n[traffic]\nprotocol = udp\n"
               "bandwidth = 37M\nlength = 1000\nduration = 3s\n")["iperf"]
    assert u["measured_by"] == "board" and len(u["intervals_bps"]) == 3, u
    assert all(abs(x / 37e6 - 1) < 2e-3 for x in u["intervals_bps"]), u["intervals_bps"]
    t = run_ok(vt_qemu, fw, str(tmp_path / "t"), text="[board]\nclock = virtual\n[traffic]\nprotocol = tcp\n"
               "duration = 1s\n")["iperf"]
    lo = ceiling_bps(1460, 1538, 1)[0]
    assert len(t["intervals_bps"]) == 1 and abs(t["intervals_bps"][0] / lo - 1) < 1e-3, t


@pytest.mark.parametrize("name,board_tx", [("vt_baremetal_tcp_1g_p4", True), ("vt_baremetal_tcp_1g_p4_rx", False)])
def test_parallel_streams_sum_at_ceiling(tmp_path, vt_qemu, fw, name, board_tx):
    """-P 4 (issue 18): the client opens four iperf 2 streams (the board's
    with `iperf -c -P 4`, or the peer's), the server sums them into one
    result line: every stream carries traffic, the streams add up to the
    sum, and the sum sits at the one-stream ceiling, 1000 x 1460/1538."""
    out = str(tmp_path / "run")    # short: the run's unix sockets live in it (108 bytes)
    res = run_ok(vt_qemu, fw, out, scenario=os.path.join(SCENARIOS, name + ".ini"))
    ip = res["iperf"]
    assert ip["ok"] and ip["measured_by"] == ("peer" if board_tx else "board"), ip
    assert ip["method"]["streams"] == 4 and res["truth"]["conditions"]["parallel"] == 4, ip
    assert "-P 4" in (ip["board_command"] if board_tx else ip["peer_command"]), ip
    # the receiver's per-stream bytes: four streams, each with traffic, and
    # a fair part of it (before the client split its send queue between
    # the streams two of them sent their 60-byte header only:
    # [257259300, 98435132, 60, 60])
    sb = ip["stream_bytes"]
    assert len(sb) == 4 and min(sb) >= 0.2 * sum(sb), sb
    # the peer's line (the server or the client): four streams too
    pr = ip["peer_result"]
    assert pr["streams"] == 4 and pr["role"] == ("server" if board_tx else "client"), pr
    assert len(pr["stream_bytes"]) == 4 and min(pr["stream_bytes"]) >= 0.2 * pr["bytes"], pr
    fw_res = results.messages(out, type="result", test="iperf")
    assert len(fw_res) == 1, fw_res       # one result line per test, the [SUM]
    assert fw_res[0]["streams"] == 4 and len(fw_res[0]["stream_bytes"]) == 4, fw_res
    rx = pr if board_tx else fw_res[0]
    assert sum(rx["stream_bytes"]) == rx["bytes"], rx
    lo, hi = ceiling_bps(1460, 1538, 3)
    assert lo * 0.999 <= ip["throughput_bps"] <= hi, (ip["throughput_bps"], lo, hi)
    # the receiver's per-second count, its `iperf -s -i 1` progress lines
    # summed over the streams (the board's, or with board_tx the peer's,
    # in peer.jsonl): each second at the ceiling, to a frame at an
    # interval's edge
    ceil = 1e9 * 1460 / 1538
    assert len(ip["intervals_bps"]) >= 2 and all(abs(x / ceil - 1) < 1e-3 for x in ip["intervals_bps"]), ip
    if board_tx:
        assert ip["peer_command"] == "iperf -s -i 1", ip
        prog = results.messages(out, "peer.jsonl", type="progress", role="server")
        assert len(prog) == len(ip["intervals_bps"]), prog     # one line a second, the streams' sum
    assert results.codes(out) == [], "a clean link named a fault"
    # 3 s at the line is ~365k frames (data and ACKs): with 96 bytes of
    # each (tcpdump -s 96) the 64 MiB cap holds all of them
    cap = res["capture"]
    assert cap["truncated"] is False and cap["max_bytes"] == 64 << 20 and cap["frames"] > 300000, cap


def test_board_client_asks_R_and_the_peer_server_sends(tmp_path, vt_qemu, fw):
    """`[traffic] client = board` without reverse: the firmware's client
    asks iperf 2.1's -R, the peer's server sends on the board's connection
    and the board's client counts it.  The roles are checked on both ends'
    own lines, not only the figure, which a peer client sending as usual
    would also give."""
    out = str(tmp_path / "run")
    res = run_ok(vt_qemu, fw, out, scenario=os.path.join(SCENARIOS, "vt_baremetal_tcp_1g_rx_client.ini"))
    ip = res["iperf"]
    assert ip["board_command"].startswith("iperf -c 10.0.2.2 ") and ip["board_command"].endswith(" -R"), ip
    assert ip["peer_command"] == "iperf -s -i 1", ip
    assert ip["method"]["client"] == "board" and ip["method"]["iperf_reverse"] is True, ip["method"]
    assert ip["method"]["reverse"] is False and ip["measured_by"] == "board", ip
    assert res["truth"]["conditions"]["client"] == "board", res["truth"]["conditions"]
    pr = ip["peer_result"]
    assert pr["role"] == "server" and pr["reverse"] is True, pr
    fw_res = results.messages(out, type="result", test="iperf")
    assert len(fw_res) == 1 and fw_res[0]["role"] == "client" and fw_res[0]["reverse"] is True, fw_res
    # what the peer's server sent is what the board's client received
    assert fw_res[0]["bytes"] == pr["bytes"] and ip["rx_bps"] == fw_res[0]["bps"], (fw_res, pr)
    lo, hi = ceiling_bps(1460, 1538, 3)
    assert lo * 0.999 <= ip["throughput_bps"] <= hi, (ip["throughput_bps"], lo, hi)


def test_parallel_sweep_runs_one_test_per_count(tmp_path, vt_qemu, fw):
    """A sweep against the peer: one test per count in one run, the board
    sending (its client `-P 1`, then `-P 2`) to the peer's one server.
    Each entry must be its own test's figure: the runner takes the peer's
    result line newer than the previous test's."""
    out = str(tmp_path / "run")
    res = run_ok(vt_qemu, fw, out, text="[scenario]\nname = ps\n[board]\nclock = virtual\n"
                 "[traffic]\nreverse = yes\nparallel_sweep = 1, 2\nduration = 1s\n")
    lines = results.messages(out, "peer.jsonl", type="result", test="iperf")
    srv = [x for x in lines if x["role"] == "server"]
    assert [x.get("streams", 1) for x in srv] == [1, 2], srv
    ps = res["parallel_sweep"]
    assert [e["parallel"] for e in ps] == [1, 2], ps
    lo, hi = ceiling_bps(1460, 1538, 1)
    for e, line in zip(ps, srv):
        assert lo * 0.999 <= e["throughput_bps"] <= hi, (e, lo, hi)
        assert e["throughput_bps"] == pytest.approx(line["bps"], rel=1e-6), (e, line)
    ip = res["iperf"]           # the last test's
    assert ip["method"]["streams"] == 2 and ip["peer_result"]["streams"] == 2, ip
    assert "-P 2" in ip["board_command"], ip
    assert results.codes(out) == [], "a clean link named a fault"


def test_udp_parallel_streams_sum_at_ceiling(tmp_path, vt_qemu, fw):
    """UDP -P 4 (issue 18): the peer's client opens four sockets at 250
    Mb/s each (iperf 2's -b per stream); the board's server sums them in
    one line and acks each; the sum meets the UDP ceiling, 1000 x
    1470/1536, with nothing lost."""
    out = str(tmp_path / "run")
    ip = run_ok(vt_qemu, fw, out, scenario=os.path.join(SCENARIOS, "vt_baremetal_udp_1g_p4.ini"))["iperf"]
    assert ip["ok"] and ip["measured_by"] == "board" and ip["method"]["streams"] == 4, ip
    assert "-u" in ip["peer_command"] and "-P 4" in ip["peer_command"], ip
    sb = ip["stream_bytes"]
    assert len(sb) == 4 and min(sb) >= 0.2 * sum(sb), sb
    pr = ip["peer_result"]
    assert pr["role"] == "client" and pr["streams"] == 4 and pr["server"]["lost"] == 0, pr
    # the peer's copy of the board's reports (one per stream, summed) is
    # the board's line
    assert pr["server"]["bytes"] == sum(sb), (pr, sb)
    lo, hi = ceiling_bps(1470, 1536, 3)
    assert lo * 0.999 <= ip["throughput_bps"] <= hi, (ip["throughput_bps"], lo, hi)
    assert results.codes(out) == [], "a clean link named a fault"


def test_sim_bad_combinations_refused(tmp_path, vt_qemu, fw):
    # the peer, and --net idle, run in virtual time only
    for extra, words in ((["--net", "sim", "--clock", "real"], ("--net sim", "virtual time")),
                         (["--net", "idle", "--clock", "real"], ("--net idle", "virtual time"))):
        r = gemlab_run(vt_qemu, fw, str(tmp_path / "a"), scenario=TCP_1G, extra=extra)
        assert r.returncode == 2 and all(w in r.stderr for w in words), r.stderr
    # what the peer cannot do yet, named with file:line (BAD.ini:LINE: ...)
    vt = "clock = virtual\n"
    for body, where, also in (
            (vt + "[traffic]\nparallel_sweep = 1,9\n", "6: [traffic] parallel_sweep = 9", ""),
            # a sweep is several tests: a timeline's times are one test's
            (vt + "[timeline]\nat = 1s restart-aneg\n[traffic]\nprotocol = udp\nsweep = 64, 1472\n",
             "9: [traffic] sweep with a [timeline]", ""),
            # UDP -l: 20..8972 bytes in the firmware's and the peer's iperf
            (vt + "[traffic]\nprotocol = udp\nsweep = 16, 1472\n", "7: [traffic] sweep length 16", "20..8972"),
            (vt + "[traffic]\nprotocol = udp\nlength = 9000\n", "7: [traffic] length = 9000", ""),
            # -P N: 1..8 streams (the firmware's iperf)
            (vt + "[traffic]\nparallel = 9\n", "6: [traffic] parallel = 9", "1..8"),
            # -w: the TCP client's send buffer; UDP paces by -b
            (vt + "[traffic]\nprotocol = udp\nwindow = 64K\n", "7: [traffic] window", "TCP only"),
            # -d: one stream from the peer's client
            (vt + "[traffic]\nparallel = 2\nbidir = yes\n", "7: [traffic] bidir", "-d"),
            # -R (the client is not the sending end): one stream ...
            (vt + "[traffic]\nparallel = 2\nclient = board\n",
             "7: [traffic] client = board with reverse = no is iperf 2's -R", ""),
            # ... and no -w in the firmware's (or the peer's) -R client
            (vt + "[traffic]\nwindow = 64K\nclient = board\n",
             "6: [traffic] window with client = board (iperf 2's -R)", ""),
            # the roles are the peer's to swap: not in real time (host
            # tools); the scenario's own check says so, as `check` does
            ("clock = real\n[traffic]\nclient = board\n",
             "6: [traffic] client: only against the in-emulator peer", "clock = virtual")):
        out = str(tmp_path / "bad")
        r = gemlab_run(vt_qemu, fw, out, text="[scenario]\nname = bad\n[board]\n" + body)
        assert r.returncode == 2 and "%s.ini:%s" % (out, where) in r.stderr and also in r.stderr, r.stderr


def test_build_options_the_elf_lacks_are_refused(tmp_path, vt_qemu, fw):
    """[board] pbufs and tx_bds are bare-metal build options: the ELF's
    ready line says what it has, and a scenario asking for other values
    is refused by file:line (exit 2, verdict ERROR) before any traffic;
    the values it has are reported (board.pbufs, conditions.pbufs)."""
    head = "[scenario]\nname = opts\n[board]\nclock = virtual\n"
    for key, value, make in (("pbufs", 8, "LWIP_OPTS=-DPBUF_POOL_SIZE=8"), ("tx_bds", 16, "GEM_TXBD=16")):
        out = str(tmp_path / key)
        r = gemlab_run(vt_qemu, fw, out, extra=["--net", "idle"],
                       text=head + "%s = %d\n[traffic]\nduration = 1s\n" % (key, value))
        assert r.returncode == 2, r.stdout + r.stderr
        want = "%s.ini:5: board.%s = %d, but this ELF was built with" % (out, key, value)
        assert want in r.stderr and make in r.stderr, r.stderr
        assert results.load(out)["verdict"]["result"] == "ERROR"
        assert "\nERROR opts (" in "\n" + r.stdout, r.stdout   # the summary line says what results.json says
    out = str(tmp_path / "same")
    doc = run_ok(vt_qemu, fw, out, extra=["--net", "idle"],
                 text=head + "pbufs = 512\ntx_bds = 64\n[traffic]\nduration = 1s\n")
    assert doc["board"]["pbufs"] == 512 and doc["truth"]["conditions"]["pbufs"] == 512, doc["board"]
    # what [board] asked is in the truth only when it asked: tx_bds, not rx_bds
    tc = doc["truth"]["conditions"]
    assert tc["tx_bds_asked"] == 64 and "rx_bds_asked" not in tc, tc


@pytest.mark.parametrize("name, text, said", [
    # the line is the refused command's own, not the first fw_cmd's
    ("fwc", "fw_cmd = stats\nfw_cmd = frobnicate --now\n",
     "fwc.ini:8: [traffic] fw_cmd = frobnicate --now: the firmware does not know it"),
    ("fwt", "[timeline]\nat = 200ms fw frobnicate --now\n",
     "fwt.ini:8: [timeline] at: fw frobnicate --now: the firmware does not know it"),
])
def test_fw_command_the_firmware_does_not_know_is_an_error(tmp_path, vt_qemu, fw, name, text, said):
    """A [traffic] fw_cmd or a [timeline] `fw` command the shell answers
    with "unknown command" would leave the experiment without it: the run
    is an ERROR (exit 2) naming the line in the file and the firmware's
    answer, not a PASS (with the event listed as applied)."""
    out = str(tmp_path / name)
    r = gemlab_run(vt_qemu, fw, out, extra=["--net", "idle"],
                   text=f"[scenario]\nname = {name}\n[board]\nclock = virtual\n[traffic]\nduration = 1s\n" + text)
    assert r.returncode == 2, r.stdout + r.stderr
    assert said in r.stderr, r.stderr
    assert "unknown command 'frobnicate'" in r.stderr, r.stderr
    assert results.load(out)["verdict"]["result"] == "ERROR"


def test_timeline_during_traffic_rerun_identical_under_cpu_hog(tmp_path, vt_qemu, fw):
    """The idle fixture's timeline (link down at 200 ms, up at 300 ms, the
    firmware's `phy` at 3.5 s) during the peer's TCP test: each action is
    applied with the VM held at its virtual time, so a second run beside a
    busy loop per core gives the same files.  Before patch 0043 the hold
    landed 2..9 us late while the guest was busy (the main loop's clock
    warp), and the runs parted at the first action."""
    quiet, loaded = quiet_and_loaded_runs(vt_qemu, fw, tmp_path, extra=["--net", "sim"])
    res = results.load(quiet)
    ip = res["iperf"]
    assert ip["ok"] and ip["measured_by"] == "board" and "virtual_idle" not in ip, ip
    applied = [(e["t_s"], e["applied"]) for e in res["truth"]["timeline_applied"]]
    assert applied == [(0.2, "set_link down"), (0.3, "set_link up"), (3.5, "console")], applied
    assert "error" not in json.dumps(res["truth"]["timeline_applied"]), res["truth"]["timeline_applied"]
    # the board saw the drop during the test, and relinked (1000BASE-T
    # autonegotiation and training, about 2.5 s) before its end
    ev = res["link_events"]
    assert [e["up"] for e in ev] == [True, False, True] and res["link"]["flaps"] == 1, ev
    assert ev[1]["t_s"] > ev[0]["t_s"] and ev[2]["t_s"] - ev[1]["t_s"] > 2.0, ev
    # TCP lost what was on the wire while the link was down: the board
    # received less than the ceiling gives for 4 s
    lo, _ = ceiling_bps(1460, 1538, 4)
    assert 0 < ip["throughput_bps"] < 0.5 * lo, ip["throughput_bps"]
    with open(os.path.join(quiet, "console.log")) as f:
        con = f.read()
    assert con.count("\"type\":\"phy_regs\"") == 2, con[-2000:]
    codes = results.codes(quiet)
    assert "PHY_LINK_FLAPS" in codes, codes
    assert res["clock"]["console_gate"]["unsynced_inputs"] == 0, res["clock"]
    assert_same_runs(quiet, loaded, peer=True)


def test_fault_refused_in_virtual_time(tmp_path, vt_qemu, fw):
    """`gemlab fault` against a run in virtual time: refused, exit 2,
    naming the [timeline] (a wall-clock moment is no virtual time), and
    the run goes on untouched to its PASS."""
    out = str(tmp_path / "run")
    p = subprocess.Popen([GEMLAB, "run", "--qemu", vt_qemu, "--fw", fw, "--out", out, "--net", "idle", SCENARIO],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        sock = os.path.join(out, "fault.sock")
        for _ in range(600):
            if os.path.exists(sock) or p.poll() is not None:
                break
            time.sleep(0.1)
        assert os.path.exists(sock), "no fault.sock: %s" % (p.communicate()[0] if p.poll() is not None else "")
        r = subprocess.run([GEMLAB, "fault", out, "link", "down"], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and "virtual time" in r.stderr and "[timeline]" in r.stderr, r.stdout + r.stderr
        assert "fault applied" not in r.stdout, r.stdout
        log, _ = p.communicate(timeout=600)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0, log
    assert results.load(out)["link"]["flaps"] == 1      # the timeline's own flap, no other


def test_window_caps_the_senders_bytes_in_flight(tmp_path, vt_qemu, fw):
    """[traffic] window = 16K on high_rtt_small_window (20 ms RTT): the
    peer's client runs `iperf -c ... -w 16384`, which caps its queued and
    unacknowledged bytes as SO_SNDBUF does, below the board's 64240-byte
    receive window.  The capture shows at most 16384 bytes in flight (11
    full segments, 16060), the goodput is bound by 16 KB / RTT, not the
    64 KB the board advertises, and the diagnosis names the -w it read
    from the client's result line.  The RTT probe runs against the peer's
    echo."""
    with open(os.path.join(SCENARIOS, "high_rtt_small_window.ini")) as f:
        text = f.read()
    assert "\nwindow = 64K\n" in text
    out = str(tmp_path / "run")
    r = gemlab_run(vt_qemu, fw, out, text=text.replace("\nwindow = 64K\n", "\nwindow = 16K\n"))
    # the scenario's own bounds are the 64 KB window's: this run is below them
    assert r.returncode == 1 and "throughput" in r.stdout, r.stdout + r.stderr
    res = results.load(out)
    ip = res["iperf"]
    assert "-w 16384" in ip["peer_command"] and ip["method"]["window_bytes"] == 16384, ip
    assert ip["peer_result"]["window_bytes"] == 16384, ip["peer_result"]
    sender = [d for fl in res["capture"]["tcp_flows"] for d in fl["directions"] if d["sender"] == "partner"]
    assert sender and 8000 < sender[0]["inflight_max_bytes"] <= 16384, sender
    assert sender[0]["peer_rwnd_max_bytes"] == 64240, sender     # the board's window did not bind
    assert res["capture"]["truncated"] is False, res["capture"]     # 6 Mb/s: all of it captured
    rtt = res["capture"]["rtt_min_us"] / 1e6
    assert 0.020 <= rtt < 0.0201, rtt
    # the runner's probe before the test: the board's latency app against
    # the peer's RFC 862 echo, 20 round trips of the 2 x 10 ms path
    probe = res["rtt"]
    assert probe["sent"] == 20 and probe["received"] == 20 and "peer's echo" in probe["source"], probe
    assert 20000 <= probe["min_us"] <= probe["p50_us"] < 20100, probe
    assert 0.8 * 16384 * 8 / rtt < ip["throughput_bps"] <= 16384 * 8 / rtt, (ip["throughput_bps"], rtt)
    with open(os.path.join(out, "diagnosis.json")) as f:
        found = {x["code"]: x for x in json.load(f)["findings"]}
    assert found["PROTO_WINDOW_LIMITED"]["evidence"]["window_bytes"] == 16384, found
    assert found["METHOD_WINDOW_BELOW_BDP"]["evidence"]["tool_window_bytes"] == 16384, found


def test_udp_dual_carries_the_offered_rate_both_ways(tmp_path, vt_qemu, fw):
    """bidir = yes with UDP at 200 Mb/s: the peer's client runs iperf 2's
    -d, the board's server sends back at the rate in the header to the
    peer's UDP server.  Each way carries the offered rate (1470-byte
    datagrams, far below 1000 x 1470/1536), nothing is lost, and
    throughput_bps is the sum, as with the host's -d."""
    out = str(tmp_path / "run")
    ip = run_ok(vt_qemu, fw, out, text="[scenario]\nname = udpd\ndescription = UDP -d\n[board]\nclock = virtual\n"
                "[traffic]\nprotocol = udp\nbidir = yes\nbandwidth = 200M\nduration = 2s\n")["iperf"]
    assert ip["ok"] and ip["method"]["bidir"] and ip["peer_command"].endswith(" -d"), ip
    for k in ("rx_bps", "tx_bps"):
        assert abs(ip[k] - 200e6) < 0.005 * 200e6, (k, ip)
    assert ip["throughput_bps"] == ip["rx_bps"] + ip["tx_bps"] and ip["udp_lost_pct"] == 0, ip
    assert results.codes(out) == [], "a clean link named a fault"


def test_wire_store_overflow_is_reported(tmp_path, vt_qemu, fw):
    """The board sending 100-byte UDP datagrams over 100 ms of latency
    holds more frames in flight than the wire model's 5120 per direction:
    it drops the rest (dropped_store) though no fault was asked.  The run
    says so, on stderr and in truth.model_note, instead of passing it off
    as loss."""
    out = str(tmp_path / "store")
    r = gemlab_run(vt_qemu, fw, out, text="[board]\nclock = virtual\n[link]\nlatency = 100ms\n[traffic]\n"
                   "protocol = udp\nreverse = yes\nlength = 100\nbandwidth = 300M\nduration = 2s\n")
    assert r.returncode in (0, 1), r.stdout + r.stderr
    truth = results.load(out)["truth"]
    dropped = truth["model"]["stat_tx_wire_dropped_store"] + truth["model"]["stat_rx_wire_dropped_store"]
    assert dropped > 0, truth["model"]
    assert "the wire model dropped %d frames" % dropped in truth["model_note"], truth
    assert "warning: the wire model dropped" in r.stderr, r.stderr


def test_loss_variant_names_retransmits(tmp_path, vt_qemu, fw):
    """1 % random loss under the TCP scenario: blind diagnosis names
    PROTO_RETRANSMITS (the clean scenario, its control, names nothing:
    test_traffic_rerun_identical_under_cpu_hog), and the peer's count is
    far below the ceiling."""
    out = str(tmp_path / "loss")
    r = gemlab_run(vt_qemu, fw, out, scenario=os.path.join(SCENARIOS, "vt_baremetal_tcp_loss_1pct.ini"))
    assert r.returncode == 0, r.stdout + r.stderr
    codes = results.codes(out)
    assert "PROTO_RETRANSMITS" in codes, codes
    res = results.load(out)
    ip = res["iperf"]
    assert ip["ok"] and ip["measured_by"] == "peer" and ip["throughput_bps"] < 0.99 * ceiling_bps(1460, 1538, 3)[0], ip
    # every frame the wire dropped is one resend in the capture: a dropped
    # frame stamped level with the one before it once read as two (126/64)
    cap, model = res["capture"], res["truth"]["model"]
    assert cap["tcp_retransmits"] == model["stat_tx_wire_dropped_loss"] > 0, (cap, model)


@pytest.mark.parametrize("proto,board_tx", [("tcp", False), ("tcp", True), ("udp", False)],
                         ids=["tcp_peer_to_board", "tcp_board_to_peer", "udp_peer_to_board"])
def test_linux_iperf2_against_the_peer(tmp_path, vt_qemu, proto, board_tx):
    """Issue 19: the Linux image's iperf 2.1.8 against the in-emulator
    peer with -P 2.  The board's server runs per test through the agent's
    `run` (its -y C output is the agent's answer), or its client sends to
    the peer's server.  Both ends count the same bytes per stream; a
    receiving board at 500 MIPS keeps up with the 1G line, a sending one
    keeps its one core busy and stays under it; UDP's loss comes from the
    board's Server Report (its armhf CSV misprints the counters)."""
    out, res = linux_run(vt_qemu, tmp_path, "lx",
                         "[scenario]\nname = lx\n[board]\nfirmware = linux\nclock = virtual\n[traffic]\n"
                         "protocol = %s\nparallel = 2\nduration = 3s\n%s%s" %
                         (proto, "bandwidth = 300M\n" if proto == "udp" else "", "reverse = yes\n" if board_tx else ""))
    ip = res["iperf"]
    assert ip["ok"] and ip["measured_by"] == ("peer" if board_tx else "board"), ip
    assert ip["method"]["tool"] == "iperf2" and ip["method"]["streams"] == 2, ip
    assert res["truth"]["conditions"]["board_tool"] == "iperf2", res["truth"]["conditions"]
    assert ip["board_command"].startswith("run iperf -c 10.0.2.2" if board_tx else "run -b iperf -s"), ip
    assert "-P 2" in (ip["board_command"] if board_tx else ip["peer_command"]), ip
    br, pr = ip["board_result"], ip["peer_result"]
    assert br["exit"] == 0 and len(br["stream_bytes"]) == 2 and min(br["stream_bytes"]) >= 0.3 * sum(br["stream_bytes"])
    if not board_tx:
        # the board prints each stream's own time, no [SUM]: the sum is the
        # smaller of its bytes over the longest stream's time and, over the
        # peer client's span (one start, the last stream's end), the bytes
        # the board had acknowledged by then (TCP; what was still in flight
        # arrived after the span)
        span_s = pr["duration_us"] / 1e6
        got = min(sum(br["stream_bytes"]), pr.get("bytes_acked", float("inf")))
        assert ip["throughput_bps"] == pytest.approx(min(br["bps"], got * 8 / span_s), rel=1e-12), (ip, span_s)
        if proto == "tcp":
            assert 0 < sum(br["stream_bytes"]) - pr["bytes_acked"] <= 256 * 1024, pr
            # the board's own -i 1 rows, the two streams added per second:
            # each of the 3 s at the ceiling, to a frame at an interval's edge
            ceil = 1e9 * 1460 / 1538
            assert len(ip["intervals_bps"]) == 3 and all(abs(x / ceil - 1) < 1e-3 for x in ip["intervals_bps"]), ip
    if proto == "tcp":
        # what one end sent, the other received, stream by stream
        assert sorted(br["stream_bytes"]) == sorted(pr["stream_bytes"]), (br, pr)
        lo, hi = ceiling_bps(1460, 1538, 3)
        if board_tx:
            assert 0.5 * lo <= ip["throughput_bps"] < 0.99 * lo, ip["throughput_bps"]
        else:
            assert lo * 0.999 <= ip["throughput_bps"] <= hi, (ip["throughput_bps"], lo, hi)
    else:
        assert ip["throughput_bps"] == pytest.approx(600e6, rel=1e-3), ip
        # the board's own counts, as its Server Report gave them to the peer
        assert pr["server"]["bytes"] == sum(br["stream_bytes"]), (pr, br)
        assert ip["udp_lost_pct"] == pytest.approx(100.0 * pr["server"]["lost"] / pr["server"]["datagrams"]), ip
        assert ip["udp_lost_pct"] < 0.1 and "Server Report" in ip["udp_loss_from"], ip
    # the agent's stats over the traffic, in virtual time: from the
    # client's start to its end (a receiving board's server still listens
    # then, in the background: `run -b`), not over the server's 3 s tail
    c = res["cpu"]
    assert c["source"].startswith("Linux agent") and len(c["busy_pct"]) >= 1, c
    assert 3.0 <= c["window_s"] < 3.3, c
    if proto == "tcp":
        assert max(c["busy_pct"]) >= 90, c           # 1G TCP keeps a 500 MIPS A9 busy both ways
    runs = results.messages(out, cmd="run")
    assert [(m["type"], m.get("background", False)) for m in runs] == \
        ([("result", False)] if board_tx else [("status", True), ("result", True)]), runs


def test_linux_board_client_window_is_in_the_method(tmp_path, vt_qemu):
    """[traffic] window on the Linux board's iperf 2 client: its -y C rows
    do not say -w, so iperf.method.window_bytes comes from the command
    line the runner gave it (the window rules read it); it was missing."""
    out, res = linux_run(vt_qemu, tmp_path, "lxw",
                         "[scenario]\nname = lxw\n[board]\nfirmware = linux\nclock = virtual\n[traffic]\n"
                         "protocol = tcp\nreverse = yes\nwindow = 64K\nduration = 2s\n")
    ip = res["iperf"]
    assert ip["ok"] and ip["board_command"].startswith("run iperf -c 10.0.2.2") and "-w 65536" in ip["board_command"], ip
    assert ip["method"]["client"] == "board" and ip["method"]["window_bytes"] == 65536, ip["method"]


def test_linux_iperf3_against_the_peer(tmp_path, vt_qemu):
    """tool = iperf3: the peer's iperf3 client (docs/PEER.md "iperf3")
    against the Linux image's iperf 3.12, run by the agent as a one-off
    server with -J.  The figures are the board's own JSON: its omit, its
    intervals after the omitted one, its receiver's sum; the server's
    results reach the peer's client through the protocol's results
    exchange, byte for byte."""
    out, res = linux_run(vt_qemu, tmp_path, "lx3",
                         "[scenario]\nname = lx3\n[board]\nfirmware = linux\nclock = virtual\n[traffic]\n"
                         "tool = iperf3\nparallel = 2\nomit = 1s\nduration = 2s\n")
    ip = res["iperf"]
    assert ip["ok"] and ip["source"].startswith("sim: peer iperf3 client"), ip
    m = ip["method"]
    assert (m["tool"], m["version"], m["omit_s"], m["streams"], m["duration_s"], m["client"]) == \
        ("iperf3", "iperf 3.12", 1, 2, 2, "peer"), m
    assert ip["board_command"] == "run -b iperf3 -s -1 -J -p 5202", ip
    assert res["truth"]["conditions"]["board_tool"] == "iperf3", res["truth"]["conditions"]
    assert ip["peer_command"] == "iperf3 -c 10.0.2.15 -p 5202 -t 2 -O 1 -P 2", ip
    js = results.load(out, "iperf.json")
    rec = js["end"]["sum_received"]
    pr = ip["peer_result"]
    # the server's count after the omit, as it sent it to the client
    assert not pr["aborted"] and pr["streams"] == 2 and pr["server_bytes"] == rec["bytes"], (pr, rec)
    # what the client wrote after its omit is what the board received
    # after its own: the two omits end half an RTT apart, and what was in
    # flight at TEST_END never counted (0.05 % at 886 Mb/s)
    assert pr["bytes_measured"] == pytest.approx(rec["bytes"], rel=1e-3), (pr, rec)
    assert ip["sent_bps"] == pr["bps"], ip
    # the client's line has no receiver's figures of its own (the iperf 2
    # engines' throughput_bps/tx_bps/rx_bps: docs/PEER.md "Results")
    assert not {"throughput_bps", "tx_bps", "rx_bps"} & set(pr), pr
    # the omitted second is marked in the JSON and not in intervals_bps
    om = [i["sum"]["omitted"] for i in js["intervals"]]
    assert om[0] is True and om.count(True) == 1, om
    assert len(ip["intervals_bps"]) == om.count(False) >= 2, (ip["intervals_bps"], om)
    assert ip["throughput_bps"] == rec["bits_per_second"], ip
    # the board's iperf3 server keeps its one 500 MIPS core busy and stays
    # under the line (886 Mb/s), where iperf 2.1.8's server reaches it
    # (test_linux_iperf2_against_the_peer); the agent's figure covers
    # -O + -t
    lo, hi = ceiling_bps(1460, 1538, 2)
    assert 0.5 * lo <= ip["throughput_bps"] <= hi, (ip["throughput_bps"], lo, hi)
    assert 3.0 <= res["cpu"]["window_s"] < 3.3 and max(res["cpu"]["busy_pct"]) >= 90, res["cpu"]
    codes = results.codes(out)
    assert "METHOD_NO_OMIT" not in codes, codes


def test_linux_iperf2_dual_against_the_peer(tmp_path, vt_qemu):
    """bidir = yes: the peer's client runs iperf 2's -d and the Linux
    image's iperf 2.1.8 server connects back and sends while it receives.
    The board's -y C output holds both streams to port 5001; what it
    received is the one addressed to it.  Each direction is counted by its
    receiver: rx_bps by the board, tx_bps by the peer's server, which saw
    the bytes the board says it sent."""
    out = str(tmp_path / "run")
    res = run_ok(vt_qemu, linux_zimage(), out, scenario=os.path.join(SCENARIOS, "vt_linux_tcp_dual.ini"))
    ip = res["iperf"]
    assert ip["ok"] and ip["method"]["bidir"] and ip["peer_command"].endswith(" -d"), ip
    assert ip["board_command"].startswith("run -b iperf -s"), ip
    assert ip["rx_bps"] == ip["board_result"]["bps"], ip
    assert ip["throughput_bps"] == ip["rx_bps"] + ip["tx_bps"], ip
    # the board's own account of what it sent, against the peer's count
    assert abs(ip["tx_sent_bps"] - ip["tx_bps"]) < 0.01 * ip["tx_bps"], ip
    lo = ceiling_bps(1460, 1538, 3)[0]
    for k in ("rx_bps", "tx_bps"):
        assert 0.3 * lo < ip[k] < lo, (k, ip)
    assert res["cpu"]["window_s"] >= 3.0 and max(res["cpu"]["busy_pct"]) >= 95, res["cpu"]


def test_linux_two_cpus_in_parallel_virtual_time(tmp_path, vt_qemu):
    """cpus = 2 runs the two A9s in parallel virtual time (patch 0045,
    -icount quantum=): one stream from the peer keeps the core that takes
    the GEM interrupt busy while the other idles, the diagnosis names the
    single stream from those per-core figures, and a rerun beside the hog
    is identical (before the patch, two vCPUs on one count parted run to
    run, and the waiting core read busy)."""
    sc = os.path.join(SCENARIOS, "vt_linux_single_stream.ini")
    quiet, loaded = quiet_and_loaded_runs(vt_qemu, linux_zimage(), tmp_path, scenario=sc)
    res = results.load(quiet)
    c = res["clock"]
    assert c["quantum_ns"] == 10000 and c["icount"] == "mips=150,sleep=off,align=off,quantum=10000", c
    busy = res["cpu"]["busy_pct"]
    assert len(busy) == 2 and max(busy) >= 75 and min(busy) <= 30, busy
    # softirq per core (/proc/stat's seventh column): the core that takes
    # the GEM interrupt does the NAPI and protocol work; its share is part
    # of its busy time and larger than the other core's
    sirq, irqs = res["cpu"]["softirq_pct"], res["irq"]["gem_per_cpu"]
    hot = irqs.index(max(irqs))
    assert len(sirq) == 2 and all(0 <= s <= b + 0.1 for s, b in zip(sirq, busy)), (sirq, busy)
    assert sirq[hot] > 2 * sirq[1 - hot] and sirq[hot] >= 20, (sirq, irqs)
    assert res["iperf"]["ok"] and res["iperf"]["method"]["streams"] == 1, res["iperf"]
    codes = results.codes(quiet)
    assert "METHOD_SINGLE_STREAM" in codes, codes
    assert_same_runs(quiet, loaded, peer=True)


def test_linux_parallel_sweep_has_each_tests_core_load(tmp_path, vt_qemu):
    """A -P sweep into the two-A9 Linux board: each test's entry carries
    its own per-core load and softirq share (the agent's /proc/stat from that test's start
    to its end, not the run's last), and the report's -P table shows it.
    The two tests differ in streams, so their loads are two measurements,
    not one copied."""
    out, res = linux_run(vt_qemu, tmp_path, "lps",
                         "[scenario]\nname = lps\n[board]\nfirmware = linux\nclock = virtual\ncpus = 2\n"
                         "mips = 150\n[traffic]\nparallel_sweep = 1, 4\nduration = 2s\n")
    ps = res["parallel_sweep"]
    assert [e["parallel"] for e in ps] == [1, 4], ps
    for e in ps:
        b, sq = e["cpu_busy_pct"], e["cpu_softirq_pct"]
        assert len(b) == 2 and all(0 <= x <= 100 for x in b), e
        assert len(sq) == 2 and all(0 <= s <= x + 0.1 for s, x in zip(sq, b)), e
    assert ps[0]["cpu_busy_pct"] != ps[1]["cpu_busy_pct"], ps
    assert ps[1]["cpu_busy_pct"] == res["cpu"]["busy_pct"], (ps, res["cpu"])   # the last test's is the run's
    assert ps[1]["cpu_softirq_pct"] == res["cpu"]["softirq_pct"], (ps, res["cpu"])
    r = subprocess.run([GEMLAB, "report", out], capture_output=True, text=True)
    assert r.returncode in (0, 3), r.stdout + r.stderr    # 3: no gnuplot, the tables are written
    with open(os.path.join(out, "report.md")) as f:
        md = f.read()
    for e in ps:
        row = "| %d | %.1f |" % (e["parallel"], e["throughput_bps"] / 1e6)
        busy = " / ".join("%.1f" % x for x in e["cpu_busy_pct"])
        sirq = " / ".join("%.1f" % x for x in e["cpu_softirq_pct"])
        cells = "| %s | %s |" % (busy, sirq)
        assert any(line.startswith(row) and line.rstrip().endswith(cells) for line in md.splitlines()), \
            (row, cells, md[md.find("## -P sweep"):][:400])


def test_linux_dma_line_cost_lands_on_the_readers_core(tmp_path, vt_qemu):
    """[board] dma_line (patch 0046, -icount dmaline=NS): a core's first
    load of each 32-byte line the GEM wrote by DMA costs it NS ns.  At
    500 MIPS the instruction count alone carries one stream at the line;
    with 580 ns a line the stream is bounded by the copy to user space,
    so the core that does not take the GEM interrupt (the iperf reader's)
    is the saturated one, in process context, and the interrupt's core is
    not.  A rerun beside the hog is identical (the TLB entries of pages
    with marked lines are flushed at a slice's start, never on the host's
    timing)."""
    text = ("[scenario]\nname = %s\n[board]\nfirmware = linux\nclock = virtual\ncpus = 2\nmips = 500\n%s"
            "[traffic]\nprotocol = tcp\nduration = 2s\n")
    plain, base = linux_run(vt_qemu, tmp_path, "plain", text % ("plain", ""))
    sc = str(tmp_path / "dl.ini")
    with open(sc, "w") as f:
        f.write(text % ("dl", "dma_line = 580ns\n"))
    quiet, loaded = quiet_and_loaded_runs(vt_qemu, linux_zimage(), tmp_path, scenario=sc)
    res = results.load(quiet)
    assert base["clock"]["dma_line_ns"] == 0 and "dmaline" not in base["clock"]["icount"], base["clock"]
    assert res["clock"]["dma_line_ns"] == 580, res["clock"]
    assert res["clock"]["icount"] == "mips=500,sleep=off,align=off,quantum=10000,dmaline=580", res["clock"]
    g0, g1 = base["iperf"]["throughput_bps"], res["iperf"]["throughput_bps"]
    assert g0 > 0.95 * ceiling_bps(1460, 1538, 2)[0], g0               # 949.28 Mb/s: the wire
    assert 0 < g1 < 0.6 * g0, (g0, g1)
    irqs = res["irq"]["gem_per_cpu"]
    hot = irqs.index(max(irqs))
    busy, sirq = res["cpu"]["busy_pct"], res["cpu"]["softirq_pct"]
    assert busy[1 - hot] >= 90 and busy[hot] < busy[1 - hot] - 30, (busy, irqs)
    assert sirq[1 - hot] < 5, (sirq, busy)              # the copy, not the NAPI poll
    assert busy[1 - hot] > base["cpu"]["busy_pct"][1 - hot] + 20, (busy, base["cpu"]["busy_pct"])
    assert_same_runs(quiet, loaded, peer=True)


def test_linux_link_change_during_the_test_is_seen(tmp_path, vt_qemu):
    """The board sends; at 1 s the partner drops to 100 and renegotiates.
    The agent's loop blocks while the board's client runs, so it sees no
    carrier edge; the kernel's carrier_changes moved by two, so its next
    link line says 100 and the runner counts the flap it missed.  Before,
    link.speed_mbps stayed at the start's 1000 while the GEM's NWCFG read
    100, and a false MAC_SPEED_MISMATCH was named."""
    out = str(tmp_path / "pc")
    doc = run_ok(vt_qemu, linux_zimage(), out, text="[scenario]\nname = pc\n[board]\nfirmware = linux\n"
                 "clock = virtual\n[traffic]\nreverse = yes\nduration = 3s\n[timeline]\n"
                 "at = 1s set partner 100FD,100HD\nat = 1s restart-aneg\n")
    link = doc["link"]
    assert link["speed_mbps"] == 100 and link["mac_speed_mbps"] == 100 and link["flaps"] == 1, link
    assert any(e.get("flaps_between") == 1 for e in doc["link_events"]), doc["link_events"]
    with open(os.path.join(out, "diagnosis.json")) as f:
        codes = {x["code"] for x in json.load(f)["findings"]}
    assert "MAC_SPEED_MISMATCH" not in codes and {"PHY_LINK_FLAPS", "PHY_SPEED_BELOW_EXPECTED"} <= codes, codes


def test_linux_sim_refusals(tmp_path, vt_qemu):
    """What the Linux image cannot do against the peer yet is refused with
    file:line before QEMU starts."""
    out = str(tmp_path / "lx")
    for body, where in (("board_tool = iperf2\ntool = iperf3\n", "7: [traffic] board_tool = iperf2 with tool = iperf3"),
                        ("tool = iperf3\nprotocol = udp\n", "8: [traffic] protocol = udp with tool = iperf3"),
                        ("tool = iperf3\nparallel_sweep = 1,2\n", "8: [traffic] parallel_sweep with tool = iperf3"),
                        ("parallel = 2\nbidir = yes\n", "8: [traffic] bidir"),
                        ("duration = 1s\n", "7: [traffic] duration"),
                        ("protocol = udp\nclient = board\n", "8: [traffic] client = board with protocol = udp")):
        r = gemlab_run(vt_qemu, linux_zimage(), out,
                       text="[scenario]\nname = lx\n[board]\nfirmware = linux\nclock = virtual\n[traffic]\n" + body)
        assert r.returncode == 2 and "%s.ini:%s" % (out, where) in r.stderr, r.stderr


def test_linux_kernel_panic_ends_the_run(tmp_path, vt_qemu):
    """The kernel and its DTB without the initramfs panic mounting root:
    the run ends at once, naming the panic, instead of waiting out its
    watchdog."""
    lone = tmp_path / "img"
    lone.mkdir()
    os.symlink(linux_zimage(), str(lone / "zImage"))
    os.symlink(os.path.join(os.path.dirname(linux_zimage()), "zynq-zc702-qemu.dtb"), str(lone / "zynq-zc702-qemu.dtb"))
    out = str(tmp_path / "run")
    r = gemlab_run(vt_qemu, str(lone / "zImage"), out, scenario=os.path.join(HERE, "fixtures", "vt_linux.ini"),
                   extra=["--net", "idle"])
    assert r.returncode == 1, r.stdout + r.stderr
    res = results.load(out)
    assert "the guest kernel panicked during boot: Kernel panic - not syncing" in res["verdict"]["reason"], res["verdict"]
