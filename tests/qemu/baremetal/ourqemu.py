#!/usr/bin/env python3
"""ourqemu.py [ELF] - the bare-metal firmware on gemlab's patched QEMU, over
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
     host's two reports equal the firmware's; -R (unsupported for UDP)
     gets an error line and the server keeps serving;
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
pass): it prints "SKIP (timing, not a pass)", the last line says
"K skipped (timing...)", and under CI=true it is also raised as a GitHub
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
Prints PASS/FAIL lines and "baremetal-ourqemu: N passed, M failed".
Everything it starts (QEMU, host iperf, the netns) is removed on exit,
failure and SIGINT/SIGTERM.  OURQEMU_KEEP=1 keeps the logs.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bmlib  # noqa: E402

LINE_100 = 100e6 * 1460 / 1538          # 94.93 Mb/s TCP goodput, no timestamps
SERVER_RE = re.compile(r"(\d+\.\d+)-(\d+\.\d+) sec\s+\S+ \S+\s+(\S+) (\S)bits/sec\s+"
                       r"(\S+) ms\s+(\d+)/\s*(\d+)\s+\(")


def parse_udp_report(text):
    """Last iperf 2 UDP report line with lost/total -> (mbps, lost, total)."""
    last = None
    for line in text.splitlines():
        m = SERVER_RE.search(line)
        if m:
            scale = {"K": 1e-3, "M": 1.0, "G": 1e3}.get(m.group(4), 1e-6)
            last = (float(m.group(3)) * scale, int(m.group(6)), int(m.group(7)))
    return last


STARVED_PCT = 10.0     # QEMU threads waited for a host CPU > this % of a run: host starved it


class Test:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def timing_skip(self, name, why):
        """A real-time check the host's scheduling decided, not the
        firmware: counted apart from passed and failed, and shown."""
        self.skipped += 1
        print("SKIP (timing, not a pass) %s: %s" % (name, why), flush=True)
        if bmlib.ci():
            bmlib.gh_warning("baremetal-ourqemu: timing check not counted",
                             "%s: %s (see tests/qemu/baremetal/ourqemu.py, Host starvation)" % (name, why))

    def check(self, name, err):
        if err is None:
            self.passed += 1
            print("PASS %s" % name, flush=True)
        else:
            self.failed += 1
            print("FAIL %s: %s" % (name, err), flush=True)
        return err is None


class Starve:
    """How long QEMU's threads waited for a host CPU during a run, as a
    percentage of its wall time (Board.sched_wait_ns)."""

    def __init__(self, board):
        self.b = board
        self.w0 = board.sched_wait_ns()
        self.t0 = time.monotonic()
        self.pct = None

    def stop(self):
        w = self.b.sched_wait_ns()
        if w is not None and self.w0 is not None:
            self.pct = (w - self.w0) / 1e9 / (time.monotonic() - self.t0) * 100

    def starved(self):
        return self.pct is not None and self.pct > STARVED_PCT

    def __str__(self):
        return "?" if self.pct is None else "%.0f %%" % self.pct


def tap_drops(net):
    """Frames the host kernel dropped at the tap (its queue full while QEMU,
    held by rx-backpressure, did not read)."""
    out = subprocess.run(net.cmd(["cat", "/sys/class/net/%s/statistics/tx_dropped" % net.tap]),
                         capture_output=True, text=True, check=True).stdout
    return int(out.strip() or 0)


def qom_sum(qmp, props):
    return sum(int(qmp.qom_get(p)) for p in props)


def run(t, b, net, tmp):
    c, q = b.con, b.qmp
    ready = c.expect_json("ready", 30)
    if not t.check("boot: ready line", None if ready else "no ready line within 30 s"):
        return
    link = c.expect_json("link", 20, lambda j: j.get("up") is True)
    if not t.check("link up 1000/full (88E1116R model)",
                   None if link and (link["speed_mbps"], link["duplex"]) == (1000, "full")
                   else "got %r" % link):
        return

    # ---- 2. UDP host -> board
    c.send("iperf -s -u")
    st = c.expect_json("status", 5, lambda j: j.get("app") == "iperf")
    t.check("udp server listening", None if st and st.get("state") == "listening" else "got %r" % st)
    # bad input first: truncated datagrams outside a test, then a test with
    # truncated and id-0 datagrams mixed in (iperf_junk.py)
    q.qom_set("rx-backpressure", True)      # a descheduled vCPU must not cost datagrams here
    jr = subprocess.run(net.cmd([sys.executable, os.path.join(bmlib.HERE, "iperf_junk.py"),
                                 bmlib.BOARD_IP, "5001"]), capture_output=True, text=True, timeout=30)
    res = c.expect_json("result", 10, lambda j: j.get("proto") == "udp" and j.get("role") == "server")
    q.qom_set("rx-backpressure", False)
    try:
        junk = json.loads(jr.stdout)
    except ValueError:
        junk = None
    if t.check("junk datagrams: test result and FIN-ack",
               None if junk and junk["fin_ack"] and res
               else "junk %r (%s), result %r" % (junk, jr.stderr.strip()[-200:], res)):
        fa = junk["fin_ack"]
        print("  firmware: %d received, %d lost, malformed %d, outside a test %d; FIN-ack %r"
              % (res["received"], res["lost"], res["malformed"], res["malformed_outside_test"], fa))
        t.check("junk datagrams: truncated/id-0 ones counted as malformed, the rest intact",
                None if (res["received"], res["lost"], res["malformed"]) ==
                (junk["n"], 0, junk["inside_short"] + junk["inside_zero"])
                else "received %d lost %d malformed %d" % (res["received"], res["lost"], res["malformed"]))
        t.check("junk datagrams: short ones outside a test counted, no test started",
                None if res["malformed_outside_test"] == junk["outside"]
                and res["datagrams"] == junk["n"] else "outside %d, datagrams %d"
                % (res["malformed_outside_test"], res["datagrams"]))
        t.check("junk datagrams: FIN-ack reports 0 lost of %d" % junk["n"],
                None if (fa["lost"], fa["datagrams"]) == (0, junk["n"]) else "%r" % fa)
        t.check("junk datagrams: late FINs answered with the report again, no new test",
                None if all(x >= 56 for x in junk["late_fin_acks"])
                and not c.expect_json("result", 0.5, lambda j: j.get("role") == "server")
                else "late FIN-acks %r" % junk["late_fin_acks"])

    drops = ("stat-rx-resource-drops", "stat-rx-fcs-drops", "stat-rx-csum-drops", "stat-rx-mismatch-drops",
             "stat-rx-wire-dropped-loss", "stat-rx-wire-dropped-queue", "stat-rx-wire-dropped-link-down")
    q.qom_set("rx-backpressure", True)
    d0 = qom_sum(q, drops) + tap_drops(net)
    cl = bmlib.Iperf(["-u", "-c", bmlib.BOARD_IP, "-b", "20M", "-l", "1470", "-t", "3"], net=net,
                     log=os.path.join(tmp, "iperf-udp-rx.txt"))
    out = cl.wait(25)
    res = c.expect_json("result", 10, lambda j: j.get("proto") == "udp" and j.get("role") == "server")
    dropped = qom_sum(q, drops) + tap_drops(net) - d0
    q.qom_set("rx-backpressure", False)
    host = parse_udp_report(out)
    if t.check("udp host->board 20M: firmware result and host's Server Report",
               None if res and host else "result %r, host report %r" % (res, host)):
        print("  firmware: %.2f Mb/s, %d/%d lost, jitter %.1f us; host: %r; GEM/wire drops %d"
              % (res["mbps"], res["lost"], res["datagrams"], res["jitter_us"], host, dropped))
        late_n = junk["late_data"] if junk else None
        t.check("junk datagrams: %r data datagrams of the finished test after its FIN counted late, "
                "no test started" % late_n,
                None if late_n is not None and res.get("late_outside_test") == late_n
                and res["datagrams"] == host[2]
                else "late_outside_test %r (sent %r), datagrams %r, host total %r"
                % (res.get("late_outside_test"), late_n, res.get("datagrams"), host[2]))
        t.check("udp host->board: host report == firmware result (lost/total)",
                None if (host[1], host[2]) == (res["lost"], res["datagrams"])
                else "host %d/%d, firmware %d/%d" % (host[1], host[2], res["lost"], res["datagrams"]))
        t.check("udp host->board: every lost datagram is a counted GEM/wire/tap drop",
                None if res["lost"] <= dropped <= res["lost"] + 3
                else "lost %d, dropped frames %d" % (res["lost"], dropped))
        t.check("udp host->board: 0 lost at 20 Mb/s",
                None if res["lost"] == 0 else "%d lost (%.3f %%)" % (res["lost"], res["loss_pct"]))
        t.check("udp host->board: rate 19..22 Mb/s",
                None if 19.0 <= res["mbps"] <= 22.0 else "%.2f Mb/s" % res["mbps"])
        t.check("udp host->board: no malformed datagrams",
                None if res["malformed"] == 0 else "malformed %d" % res["malformed"])

    # ---- 2b. UDP dual (-d) and reverse (-R) from the host client
    q.qom_set("rx-backpressure", True)
    cl = bmlib.Iperf(["-u", "-c", bmlib.BOARD_IP, "-b", "10M", "-t", "2", "-d", "-L", "5010"], net=net,
                     log=os.path.join(tmp, "iperf-udp-dual.txt"))
    out = cl.wait(25)
    fwd = back = None                   # the two result lines come in either order
    for _ in range(2):
        j = c.expect_json("result", 10, lambda j: j.get("proto") == "udp")
        if j and j.get("role") == "server":
            fwd = j
        elif j and j.get("role") == "client":
            back = j
    q.qom_set("rx-backpressure", False)
    reps = [m for m in (SERVER_RE.search(x) for x in out.splitlines()) if m]
    if t.check("udp -d (dual): forward and back test, both reported by the host",
               None if fwd and back and back.get("server") and len(reps) == 2
               else "forward %r, back %r, host reports %d" % (fwd, back, len(reps))):
        host_pairs = sorted((int(m.group(6)), int(m.group(7))) for m in reps)
        fw_pairs = sorted([(fwd["lost"], fwd["datagrams"]),
                           (back["server"]["lost"], back["server"]["datagrams"])])
        print("  forward %.2f Mb/s %d/%d lost; back %.2f Mb/s %d/%d lost (%s:%s); host %r"
              % (fwd["mbps"], fwd["lost"], fwd["datagrams"], back["server"]["mbps"],
                 back["server"]["lost"], back["server"]["datagrams"], back["peer"], back["len"], host_pairs))
        t.check("udp -d: back test went to the host's -L port at the client's rate",
                None if back["peer"].endswith(":5010") and abs(back["offered_bps"] - 10485760) < 1000
                else "peer %s offered %d" % (back["peer"], back["offered_bps"]))
        t.check("udp -d: the host's two reports == the firmware's two (lost/total)",
                None if host_pairs == fw_pairs else "host %r firmware %r" % (host_pairs, fw_pairs))
        t.check("udp -d: both directions >= 1000 datagrams, 0 lost",
                None if all(tot >= 1000 and lost == 0 for lost, tot in fw_pairs) else "%r" % fw_pairs)
    cl = bmlib.Iperf(["-u", "-c", bmlib.BOARD_IP, "-b", "1M", "-t", "1", "-R"], net=net)
    err = c.expect_json("error", 10, lambda j: "-R" in j.get("what", ""))
    cl.wait(15)
    c.expect_json("result", 10, lambda j: j.get("role") == "server")
    t.check("udp -R: refused with an error line (documented limitation), server still serving",
            None if err else "no error line")

    # ---- 3. UDP board -> host
    def board_to_host(rate, length, amount, name):
        srv = bmlib.Iperf(["-s", "-u", "-p", "5003", "-w", "4M"], net=net,
                          log=os.path.join(tmp, "iperf-%s.txt" % name))
        time.sleep(0.3)
        starve[0] = Starve(b)
        tw0 = [int(q.qom_get(p)) for p in ("stat-tx-wire-sent", "stat-tx-wire-dropped-loss")]
        c.send("iperf -c %s -u -p 5003 -b %s -l %d %s" % (bmlib.HOST_IP, rate, length, amount))
        r = c.expect_json("result", 40,
                          lambda j: j.get("proto") == "udp" and j.get("role") == "client")
        time.sleep(0.3)
        srv.kill()
        text = srv.wait(5)
        tw = [int(q.qom_get(p)) for p in ("stat-tx-wire-sent", "stat-tx-wire-dropped-loss")]
        starve[0].stop()
        return r, parse_udp_report(text), tw[0] - tw0[0], tw[1] - tw0[1]

    starve = [None]

    r, host, sent, wloss = board_to_host("20M", 1470, "-t 3", "udp-tx")
    if t.check("udp board->host 20M: firmware result with the host server's report",
               None if r and r.get("server") and host else "result %r, host %r" % (r, host)):
        s = r["server"]
        print("  firmware sent %d (%.2f Mb/s); server: %.2f Mb/s, %d/%d lost; host printed %r"
              % (r["tx_datagrams"], r["mbps"], s["mbps"], s["lost"], s["datagrams"], host))
        t.check("udp board->host: firmware's server report == host server output",
                None if (host[1], host[2]) == (s["lost"], s["datagrams"])
                else "host %d/%d, firmware %d/%d" % (host[1], host[2], s["lost"], s["datagrams"]))
        t.check("udp board->host: 0 lost at 20 Mb/s",
                None if s["lost"] == 0 else "%d lost" % s["lost"])
        name = "udp board->host: rate 14..21 Mb/s (70..105 %%) [QEMU waited %s]" % starve[0]
        if s["mbps"] < 14.0 and starve[0].starved():
            t.timing_skip(name, "%.2f Mb/s, but the host starved QEMU" % s["mbps"])
        else:
            t.check(name, None if 14.0 <= s["mbps"] <= 21.0 else "%.2f Mb/s" % s["mbps"])

    # ---- 4. 1 % random loss, >= 100k datagrams
    q.qom_set("tx-loss-pct", 1.0)
    try:
        r, host, sent, wloss = board_to_host("50M", 512, "-n 50M", "udp-loss")
    finally:
        q.qom_set("tx-loss-pct", 0.0)
    if t.check("1% loss: firmware result with the host server's report",
               None if r and r.get("server") and host else "result %r, host %r" % (r, host)):
        s = r["server"]
        print("  %d datagrams, %d lost (%.3f %%), wire dropped %d of %d frames; host %r"
              % (s["datagrams"], s["lost"], s["loss_pct"], wloss, sent, host))
        t.check("1% loss: >= 100k datagrams", None if s["datagrams"] >= 100000
                else "only %d (firmware sent %.1f Mb/s)" % (s["datagrams"], r["mbps"]))
        t.check("1% loss: reported loss within 1 +- 0.3 %",
                None if abs(s["loss_pct"] - 1.0) <= 0.3 else "%.3f %%" % s["loss_pct"])
        # The wire also carries the test's FIN retries and ARP (sent -
        # datagrams frames), which the same 1 % may drop: every lost datagram
        # is a wire drop, and every other wire drop is one of those extras.
        extra = max(0, sent - s["datagrams"])
        t.check("1% loss: lost == wire loss drops (nothing else dropped)",
                None if s["lost"] <= wloss <= s["lost"] + extra
                else "lost %d, wire dropped %d, frames beyond the datagrams %d" % (s["lost"], wloss, extra))
        t.check("1% loss: host and firmware agree",
                None if (host[1], host[2]) == (s["lost"], s["datagrams"])
                else "host %r" % (host,))

    # ---- 5. 100M partner
    q.qom_set("partner-abilities", "100FD,100HD,10FD,10HD")
    l100 = c.expect_json("link", 20, lambda j: j.get("up") is True)
    t.check("100M partner: firmware reports link 100/full",
            None if l100 and (l100["speed_mbps"], l100["duplex"]) == (100, "full") else "got %r" % l100)
    c.send("gem")
    g = c.expect_json("gem_config", 5)
    t.check("100M partner: NWCFG programmed 100/full, MAC matches PHY",
            None if g and g.get("nwcfg_speed_mbps") == 100 and g.get("nwcfg_duplex") == "full"
            and q.qom_get("mac-matches-phy") is True else "gem_config %r" % g)
    # board -> host, goodput from the host server's intervals; a second
    # attempt (at most 3) only when the last found no 1 s stretch at line rate
    waits = []
    for attempt in (1, 2, 3):
        srv = bmlib.Iperf(["-s", "-p", "5002", "-i", "0.5", "-y", "C"], net=net,
                          log=os.path.join(tmp, "iperf-tcp100-%d.txt" % attempt))
        time.sleep(0.3)
        sv = Starve(b)
        c.send("iperf -c %s -p 5002 -t 8" % bmlib.HOST_IP)
        r = c.expect_json("result", 25, lambda j: j.get("proto") == "tcp")
        sv.stop()
        waits.append(sv)
        time.sleep(0.5)
        srv.kill()
        rows = [x for x in bmlib.parse_iperf_csv(srv.wait(5)) if x["end"] - x["start"] < 0.6]
        steady = [x for x in rows if x["start"] >= 1.0 and x["end"] <= 8.0]
        if not t.check("100M TCP board->host: host server intervals (attempt %d)" % attempt,
                       None if r and len(steady) >= 8 else "result %r, %d intervals" % (r, len(steady))):
            return
        win = [sum(x["bytes"] for x in steady[i:i + 2]) * 8 / (steady[i + 1]["end"] - steady[i]["start"])
               for i in range(len(steady) - 1)]
        best = max(win)
        mean = sum(x["bytes"] for x in steady) * 8 / (steady[-1]["end"] - steady[0]["start"])
        peak = max(x["bps"] for x in steady)
        print("  attempt %d, goodput 1..8 s: best 1 s %.3f Mb/s, mean %.3f, peak 0.5 s %.3f "
              "(line %.3f); firmware %.3f; QEMU waited %s; intervals %s"
              % (attempt, best / 1e6, mean / 1e6, peak / 1e6, LINE_100 / 1e6, r["mbps"], sv,
                 " ".join("%.1f" % (x["bps"] / 1e6) for x in steady)), flush=True)
        t.check("100M TCP: no 0.5 s interval above line rate + 1 %% (attempt %d)" % attempt,
                None if peak <= LINE_100 * 1.01 else "%.3f Mb/s" % (peak / 1e6))
        ok = abs(best / LINE_100 - 1) <= 0.01
        name = "100M TCP: best 1 s goodput within 1 %% of 94.93 Mb/s (attempt %d)" % attempt
        if ok:
            t.check(name, None)
            return
        if attempt == 3:
            if all(w.starved() for w in waits):
                t.timing_skip(name, "%.3f Mb/s at best, but in every attempt the host starved QEMU "
                       "(waited %s for a CPU)" % (best / 1e6, ", ".join(str(w) for w in waits)))
            else:
                t.check(name, "%.3f Mb/s at best in 3 attempts, QEMU waited %s"
                        % (best / 1e6, ", ".join(str(w) for w in waits)))
            return


def main():
    bmlib.install_signal_handlers()
    rc = bmlib.needs_root("baremetal-ourqemu")
    if rc is not None:
        return rc
    elf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get("O", os.path.join(bmlib.TOP, "build")), "baremetal", "qemu-zynq", "gemlab-fw.elf")
    t = Test()
    if not os.path.isfile(elf):
        t.check("firmware ELF", "no ELF at %s" % elf)
        print("baremetal-ourqemu: 0 passed, 1 failed")
        return 1
    qemu = bmlib.our_qemu()
    if not qemu:
        t.check("patched QEMU", "neither $QEMU nor emu/qemu's build is gemlab's patched QEMU "
                "(no cadence_gem partner-abilities); build it with make -C emu/qemu")
        print("baremetal-ourqemu: 0 passed, 1 failed")
        return 1
    tmp = tempfile.mkdtemp(prefix="gemlab-bmq.")
    net = b = None
    try:
        net = bmlib.Netns("t").create()
        b = bmlib.Board(elf, tmp, qemu, net=net, timeout=150,
                        qemu_args=["-M", "xilinx-zynq-a9,flash=off",
                                   "-global", "cadence_gem.wire-seed=11"])
        run(t, b, net, tmp)
    except (EOFError, OSError, RuntimeError, subprocess.SubprocessError) as e:
        t.check("harness", "%s: %s" % (type(e).__name__, e))
    except SystemExit:
        print("baremetal-ourqemu: interrupted, cleaning up", flush=True)
        raise
    finally:
        if b:
            b.stop()
            if t.failed:
                print("---- last 40 console lines ----")
                print("\n".join(b.console_tail(40)))
        if net:
            net.close()
        if os.environ.get("OURQEMU_KEEP"):
            print("ourqemu: kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("baremetal-ourqemu: %d passed, %d failed%s" % (t.passed, t.failed,
          ", %d skipped (timing: the host starved QEMU; not counted as passed)" % t.skipped
          if t.skipped else ""))
    return 0 if t.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
