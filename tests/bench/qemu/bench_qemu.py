#!/usr/bin/env python3
"""bench_qemu.py - our patched qemu-system-arm against Debian's stock one,
measured side by side in one run on the same guest.

1. Frame throughput.  The bare-metal firmware (firmware/baremetal) sends
   UDP to the host's iperf 2 server through slirp: `iperf -c 10.0.2.2 -u
   -l 64 -b 1000M`.  64-byte datagrams are 106-byte frames, which 1G
   carries at ~990 kfps, so the emulated CPU, not the line, is the limit
   in both QEMUs.  Figures per run: frames the firmware sent per second
   (tx_pps), frames the host received per second (the server's pps), and
   the QEMU process's host CPU time per frame sent (utime+stime from
   /proc over the test).  Runs alternate stock/patched so host load
   drifts hit both.
   Host -> firmware too: the host's iperf offers RX_RATE (default 20M,
   ~39 kfps) of 64-byte datagrams through hostfwd and the firmware's
   server reports what it took.  This is above what either QEMU's guest
   can take, so it measures RX capacity under overload, where our GEM
   drops at the ring as silicon does and stock holds frames in the netdev
   queue: the two differ in drop policy as well as speed.
2. Startup to the first guest instruction (emu/qemu/bench/startup_time.py):
   stock, patched with the default machine, patched with flash=off.

Prints a table and writes JSON to $BENCH_JSON.
Environment: QEMU (patched), STOCK_QEMU (default /usr/bin/qemu-system-arm),
FW (default build/baremetal/qemu-zynq/gemlab-fw.elf), ROUNDS (3), SECS (5),
STARTUP_N (7), LEN (64).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(TOP, "emu", "qemu", "bench"))
sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
import startup_time  # noqa: E402
from gemlab_test import bench, board, net, proc  # noqa: E402
from gemlab_test.bench import mmm  # noqa: E402


def booted(qemu, fw, netdev):
    """A Board on slirp, link up (our PHY negotiates for ~2.9 s of guest
    time; stock's is up at once)."""
    rd = tempfile.mkdtemp(prefix="gemlab-benchq.")
    b = board.Board(fw, rd, qemu, netdev=netdev)
    try:
        if not b.con.expect_json("ready", 90) or not b.con.expect_json("link", 90, lambda o: o.get("up")):
            raise RuntimeError("%s: no ready/link line within 90 s" % qemu)
    except BaseException:
        stop(b)
        raise
    return b


def stop(b):
    b.stop()
    shutil.rmtree(b.rundir, ignore_errors=True)


def iperf_result(b, role, timeout):
    res = b.con.expect_json("result", timeout, lambda o: o.get("test") == "iperf" and o.get("role") == role)
    if res is None:
        raise RuntimeError("no iperf %s result within %d s" % (role, timeout))
    return res


def throughput_once(qemu, fw, secs, length):
    port = net.free_port()
    srv = subprocess.Popen(["iperf", "-s", "-u", "-B", "127.0.0.1", "-p", str(port)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    b = None
    try:
        b = booted(qemu, fw, board.netdev_user())
        time.sleep(0.5)
        pid = b.qemu_pid()
        c0 = proc.cpu_s(pid)
        t0 = time.monotonic()
        b.con.send("iperf -c 10.0.2.2 -u -p %d -b 1000M -l %d -t %d" % (port, length, secs))
        res = iperf_result(b, "client", secs * 6 + 30)
        c1 = proc.cpu_s(pid)
        wall = time.monotonic() - t0
    finally:
        if b:
            stop(b)
        srv.kill()
        srv.wait()
    sent = res.get("tx_datagrams", 0)
    server = res.get("server") or {}
    return {
        "tx_pps": res.get("tx_pps"),
        "rx_pps": server.get("pps"),
        "tx_datagrams": sent,
        "rx_datagrams": (server.get("datagrams", 0) - server.get("lost", 0)) if server else None,
        "cpu_s": round(c1 - c0, 3),
        "wall_s": round(wall, 3),
        "cpu_us_per_frame": round((c1 - c0) * 1e6 / sent, 3) if sent else None,
    }


def rx_once(qemu, fw, secs, length, rate):
    """Host -> firmware: the host's iperf 2 offers @rate of @length-byte
    datagrams through slirp's hostfwd; the firmware's server reports what
    its stack received.  Frames per second the guest took in."""
    port = net.free_port()
    b = cli = None
    try:
        b = booted(qemu, fw, board.netdev_user([("udp", port, 5001)]))
        b.con.send("iperf -s -u")
        time.sleep(1.0)
        pid = b.qemu_pid()
        c0 = proc.cpu_s(pid)
        cli = subprocess.Popen(["iperf", "-u", "-c", "127.0.0.1", "-p", str(port),
                                "-l", str(length), "-b", rate, "-t", str(secs)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        res = iperf_result(b, "server", secs * 6 + 30)
        c1 = proc.cpu_s(pid)
    except (RuntimeError, EOFError, OSError):
        return {"rx_fps": None, "received": None, "offered": None, "cpu_us_per_frame": None}
    finally:
        if b:
            stop(b)
        if cli:
            cli.kill()
            cli.wait()
    got = res.get("received")
    if got is None:
        got = res.get("datagrams", 0) - res.get("lost", 0)
    dur = res.get("duration_us") or 0
    return {
        "rx_fps": round(got * 1e6 / dur) if dur else None,
        "received": got, "offered": res.get("datagrams"),
        "cpu_us_per_frame": round((c1 - c0) * 1e6 / got, 3) if got else None,
    }


def startup(qemu, n, extra):
    img = os.path.join(os.environ.get("TMPDIR", "/tmp"), "gemlab-startup-%d.bin" % os.getpid())
    with open(img, "wb") as f:
        for w in startup_time.GUEST:
            f.write(w.to_bytes(4, "little"))
    try:
        return sorted(startup_time.once(qemu, img, extra) for _ in range(n))
    finally:
        os.unlink(img)


def main():
    patched = os.environ.get("QEMU") or subprocess.run(
        ["make", "-s", "--no-print-directory", "-C", os.path.join(TOP, "emu", "qemu"), "path"],
        capture_output=True, text=True).stdout.strip()
    stock = os.environ.get("STOCK_QEMU", "/usr/bin/qemu-system-arm")
    fw = os.environ.get("FW", os.path.join(TOP, "build", "baremetal", "qemu-zynq", "gemlab-fw.elf"))
    rounds = int(os.environ.get("ROUNDS", "3"))
    secs = int(os.environ.get("SECS", "5"))
    length = int(os.environ.get("LEN", "64"))
    sn = int(os.environ.get("STARTUP_N", "7"))
    if not os.environ.get("QEMU") and not os.path.exists(patched):
        subprocess.run(["make", "-C", os.path.join(TOP, "emu", "qemu")], check=False)
    if not os.environ.get("FW") and not os.path.exists(fw):
        subprocess.run(["make", "-C", os.path.join(TOP, "firmware", "baremetal")], check=False)
    for what, path in (("patched QEMU", patched), ("stock QEMU", stock), ("firmware", fw)):
        if not path or not os.path.exists(path):
            print("bench qemu: no %s at '%s'" % (what, path), file=sys.stderr)
            return 3

    runs = {"stock": [], "patched": []}
    for r in range(rounds):
        order = ("stock", "patched") if r % 2 == 0 else ("patched", "stock")
        for name in order:
            res = throughput_once(stock if name == "stock" else patched, fw, secs, length)
            runs[name].append(res)
            print("  round %d %-7s tx %8.0f fps  rx %8s fps  %.2f us CPU/frame" %
                  (r + 1, name, res["tx_pps"] or 0, res["rx_pps"], res["cpu_us_per_frame"] or 0))
            sys.stdout.flush()

    rx_rate = os.environ.get("RX_RATE", "20M")
    rxruns = {"stock": [], "patched": []}
    for r in range(rounds):
        order = ("stock", "patched") if r % 2 == 0 else ("patched", "stock")
        for name in order:
            res = rx_once(stock if name == "stock" else patched, fw, secs, length, rx_rate)
            rxruns[name].append(res)
            print("  round %d %-7s host->fw: guest took %8s fps of %s offered" %
                  (r + 1, name, res["rx_fps"], res["offered"]))
            sys.stdout.flush()
    rx = {}
    for name in rxruns:
        rx[name] = {k: mmm([x[k] for x in rxruns[name]]) for k in ("rx_fps", "cpu_us_per_frame")}
        rx[name]["runs"] = rxruns[name]
    rx_ratio = None
    if rx["stock"]["rx_fps"] and rx["patched"]["rx_fps"]:
        rx_ratio = round(rx["patched"]["rx_fps"]["median"] / rx["stock"]["rx_fps"]["median"], 3)

    thr = {}
    for name in runs:
        thr[name] = {k: mmm([x[k] for x in runs[name]])
                     for k in ("tx_pps", "rx_pps", "cpu_us_per_frame")}
        thr[name]["runs"] = runs[name]

    def ratio(k, inverse=False):
        a, b = thr["patched"][k], thr["stock"][k]
        if not a or not b or not b["median"] or not a["median"]:
            return None
        return round(b["median"] / a["median"] if inverse else a["median"] / b["median"], 3)

    ratios = {"tx_pps": ratio("tx_pps"), "rx_pps": ratio("rx_pps"),
              "cpu_per_frame_efficiency": ratio("cpu_us_per_frame", inverse=True)}

    st = {"stock": startup(stock, sn, []),
          "patched": startup(patched, sn, []),
          "patched_flash_off": startup(patched, sn, ["-M", "xilinx-zynq-a9,flash=off"])}
    # startup_time's command line already has -M xilinx-zynq-a9; a second -M
    # merges its options, so flash=off applies.
    start = {k: {"min": round(v[0], 4), "median": round(statistics.median(v), 4),
                 "max": round(v[-1], 4), "n": len(v)} for k, v in st.items()}
    start_ratio = round(start["patched_flash_off"]["median"] / start["stock"]["median"], 3)

    print()
    print("QEMU frame throughput, firmware UDP -> host, %d-byte datagrams, %d s x %d rounds"
          % (length, secs, rounds))
    print("%-22s %12s %12s %12s %8s" % ("", "min", "median", "max", "ratio"))
    for k, label in (("tx_pps", "sent fps"), ("rx_pps", "host recv fps"),
                     ("cpu_us_per_frame", "host CPU us/frame")):
        for name in ("stock", "patched"):
            m = thr[name][k]
            if m is None:
                continue
            rk = {"tx_pps": "tx_pps", "rx_pps": "rx_pps",
                  "cpu_us_per_frame": "cpu_per_frame_efficiency"}[k]
            print("%-22s %12.2f %12.2f %12.2f %8s" % (
                "%s %s" % (label, name), m["min"], m["median"], m["max"],
                ratios[rk] if name == "patched" else ""))
    print()
    print("host -> firmware UDP, %d-byte datagrams offered at %s: frames the guest took" %
          (length, rx_rate))
    for name in ("stock", "patched"):
        m = rx[name]["rx_fps"]
        if m:
            print("%-22s %12.2f %12.2f %12.2f %8s" % ("guest recv fps " + name, m["min"],
                  m["median"], m["max"], rx_ratio if name == "patched" else ""))
    print()
    print("startup to first guest instruction (s), n=%d" % sn)
    for k in ("stock", "patched", "patched_flash_off"):
        m = start[k]
        print("%-22s %12.4f %12.4f %12.4f" % (k, m["min"], m["median"], m["max"]))
    print("patched (flash=off) / stock median: %.3f" % start_ratio)

    out = {
        "schema": "gemlab-bench-qemu-1",
        "stock": stock, "patched": patched, "firmware": fw,
        "guest": "iperf -c 10.0.2.2 -u -l %d -b 1000M -t %d" % (length, secs),
        "throughput": thr, "ratio_patched_over_stock": ratios,
        "goal": "tx_pps ratio >= 0.95",
        "goal_met": ratios["tx_pps"] is not None and ratios["tx_pps"] >= 0.95,
        "rx_direction": {"offered": "host iperf -u -l %d -b %s" % (length, rx_rate),
                         "results": rx, "ratio_patched_over_stock": rx_ratio},
        "startup_s": start, "startup_ratio_flash_off_over_stock": start_ratio,
    }
    path = bench.write_json(out)
    if path:
        print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
