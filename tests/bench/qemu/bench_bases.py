#!/usr/bin/env python3
"""bench_bases.py - our QEMU on the 10.0 base against our QEMU on the 7.2
base, measured side by side in one run (issue 17, "Bars": benchmarks).

Both of ours come from emu/qemu/build.sh (`path` and `QEMU_BASE=10.0 ...
path`); the same bare-metal ELF and the same Linux zImage/DTB/initramfs
run on both.  Each round runs every figure once per base, the two bases
back to back, and the order alternates from round to round (7.2 first in
odd rounds, 10.0 first in even ones), so a drift in host load hits both
alike: the ratios of medians are the figures to compare.

Per round and base:
1. Bare-metal TCP over a private-netns tap (root), against the host's
   iperf 2 (as tests/bench/baremetal): RX = host `iperf -c` -> firmware
   `iperf -s` (the firmware's own result line), TX = firmware `iperf -c`
   -> host `iperf -s` (the host server's figure).  Then, in the same boot,
   the UDP sender: firmware `iperf -c -u -l 1470 -b 1000M` (above what
   the emulated CPU sends, so unpaced in effect) against the host's
   `iperf -s -u`: the firmware's own send rate is a CPU-bound figure.
2. Linux over a tap: host iperf3 -> guest `iperf3 -s` and `-R` (as
   tests/bench/linux), -smp SMP (default 1, the runner's default
   `[board] cpus`), plus the boot to the agent's ready line.
3. Startup (stdio serial, no QMP): exec to the first guest instruction
   (emu/qemu/bench/startup_time.py's 7-instruction guest) and exec to the
   bare-metal firmware's `ready` line, STARTUP_N runs each.
4. Stock against stock on the UDP sender, same ELF, same tap: Debian's
   qemu-system-arm (7.2) and `QEMU_BASE=10.0 emu/qemu/build.sh
   stock-path`, when that build exists (it is never built here: a cold
   compile; the table says when the row is left out).

A benchmark, not a test: nothing passes or fails on a figure.  It exits
non-zero naming what failed when a tool or binary is missing (root, ip,
iperf, iperf3, a QEMU, the ELF, the Linux image) or a board does not
boot; every exit path (also SIGINT/SIGTERM/SIGHUP) stops its QEMUs and
iperfs and deletes its netns and tap.  Prints one table; JSON to
$BENCH_JSON (`make -C tests/bench run B=bases`).

Environment: QEMU72, QEMU10 (ours; default the emu/qemu builds, built
with `make -C emu/qemu` when BUILD=1 and stale), STOCK72 (default
/usr/bin/qemu-system-arm), STOCK10 (default build.sh stock-path; empty:
no stock rows), ROUNDS (3), SECS (5), SMP (1), STARTUP_N (5), BUILD (1:
make the firmware, the Linux image and our QEMUs first; 0: use them as
they are), FW (the ELF), LINUX_OUT (build/linux), PERF (0; N > 0: after
the rounds, `perf record` N s of each of our QEMUs during a Linux
host->guest run and during the UDP sender, top symbols in the JSON).
"""
import contextlib
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(TOP, "emu", "qemu", "bench"))
sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
import startup_time  # noqa: E402
from gemlab_test import bench, board, console, iperf, net, paths, proc  # noqa: E402


def env_int(name, default):
    v = os.environ.get(name, default)
    try:
        return int(v)
    except ValueError:
        sys.exit("bench bases: %s=%r: not a whole number" % (name, v))


ROUNDS = env_int("ROUNDS", "3")
SECS = env_int("SECS", "5")
SMP = env_int("SMP", "1")
STARTUP_N = env_int("STARTUP_N", "5")
PERF = env_int("PERF", "0")
UDP_LEN = 1470
LINUX_NET = ("192.168.77.1", "192.168.77.2", 24)
BASES = ("7.2", "10.0")

reaper = bench.Reaper()   # what to end on exit: boards, netns, iperf


def die(msg):
    raise RuntimeError(msg)


def netns(tag, **kw):
    return reaper.keep(net.Netns(tag, **kw), net.Netns.close).create()


def host_iperf(args, ns, prog="iperf"):
    return reaper.keep(iperf.Iperf(args, net=ns, prog=prog), bench.kill)


def reap(p, timeout):
    out = p.wait(timeout)
    reaper.forget(p)
    return out


def boot(qemu, fw, label, ns, firmware="baremetal", link=True, **kw):
    """A Board in @ns, up to its ready line (and link up for bare metal);
    RuntimeError naming @label and the console tail when it does not boot."""
    rd = tempfile.mkdtemp(prefix="gemlab-bases.")
    try:
        b = board.Board(fw, rd, qemu, net=ns, firmware=firmware, **kw)
    except BaseException:
        shutil.rmtree(rd, ignore_errors=True)
        raise
    reaper.keep(b, bench.stop_board)
    t0 = time.monotonic()
    ok = b.con.expect_json("ready", 90)
    t = time.monotonic() - t0
    if ok and link and firmware == "baremetal":
        ok = b.con.expect_json("link", 30, lambda j: j.get("up") is True)
    if not ok:
        tail = "\n  ".join(b.tail(15) + b.qemu_log_tail(5))
        reaper.end(b)
        die("%s did not boot (no ready%s line within 90 s); console and QEMU log tail:\n  %s"
            % (label, "/link" if link and firmware == "baremetal" else "", tail))
    return b, t


class Waited:
    """% of a session's wall time its QEMU's threads waited for a host CPU
    (schedstat run_delay, proc.sched_wait_ns): the host load's share."""

    def __init__(self, b):
        self.b, self.w0, self.t0 = b, b.sched_wait_ns(), time.monotonic()

    def pct(self):
        w = self.b.sched_wait_ns()
        if w is None or self.w0 is None:
            return None
        return round((w - self.w0) / 1e9 / (time.monotonic() - self.t0) * 100, 1)


def cpu_cores(pid, fn):
    """fn()'s result and the host cores @pid used meanwhile."""
    c0, t0 = proc.cpu_s(pid), time.monotonic()
    r = fn()
    c1, dt = proc.cpu_s(pid), time.monotonic() - t0
    return r, (round((c1 - c0) / dt, 2) if c0 is not None and c1 is not None and dt > 0 else None)


# --- bare metal --------------------------------------------------------------
def bm_tcp_rx(b, ns):
    b.con.send("iperf -s")
    if not b.con.expect_json("status", 5):
        die("bare-metal: no status line after `iperf -s`")
    cl = host_iperf(["-c", net.BOARD_IP, "-t", str(SECS), "-y", "C"], ns)
    reap(cl, SECS + 20)
    r = b.con.expect_json("result", 10, lambda j: j.get("proto") == "tcp" and j.get("role") == "server")
    return r["mbps"] if r else None


def bm_tcp_tx(b, ns):
    srv = host_iperf(["-s", "-p", "5002", "-y", "C"], ns)
    time.sleep(0.3)
    b.con.send("iperf -c %s -p 5002 -t %d" % (net.HOST_IP, SECS))
    r = b.con.expect_json("result", SECS + 20, lambda j: j.get("proto") == "tcp")
    time.sleep(0.5)
    srv.kill()
    rows = iperf.parse_csv(reap(srv, 5))
    return rows[-1]["bps"] / 1e6 if r and rows else None


def bm_udp_tx(b, ns):
    """The firmware's unpaced UDP sender: (its own send rate Mb/s, what the
    host received Mb/s)."""
    srv = host_iperf(["-s", "-u", "-p", "5003", "-w", "4M"], ns)
    time.sleep(0.3)
    b.con.send("iperf -c %s -u -p 5003 -l %d -b 1000M -t %d" % (net.HOST_IP, UDP_LEN, SECS))
    r = b.con.expect_json("result", SECS * 6 + 30,
                          lambda j: j.get("proto") == "udp" and j.get("role") == "client")
    srv.kill()
    reap(srv, 5)
    if not r:
        return None, None
    s = r.get("server") or {}
    return r.get("mbps"), s.get("mbps")


def baremetal_session(qemu, fw, label, ours):
    with guest(qemu, fw, label, "bb", machine_opts="flash=off" if ours else "") as (b, _, ns):
        pid = b.qemu_pid()
        wait = Waited(b)
        res = {}
        if ours:
            res["tcp_rx_mbps"], res["tcp_rx_qemu_cores"] = cpu_cores(pid, lambda: bm_tcp_rx(b, ns))
            res["tcp_tx_mbps"], res["tcp_tx_qemu_cores"] = cpu_cores(pid, lambda: bm_tcp_tx(b, ns))
        (res["udp_tx_mbps"], res["udp_host_rx_mbps"]), res["udp_tx_qemu_cores"] = \
            cpu_cores(pid, lambda: bm_udp_tx(b, ns))
        res["bm_qemu_wait_pct"] = wait.pct()
        return res


# --- Linux -------------------------------------------------------------------
def host_iperf3(ns, args):
    """(Mb/s at the receiver, error); iperf3 3.12's server briefly refuses
    right after a test, so up to 3 tries (as tests/bench/linux)."""
    err = None
    for _ in range(3):
        p = host_iperf(["-J", "-t", str(SECS)] + args, ns, prog="iperf3")
        out = reap(p, SECS + 40)
        try:
            return iperf.iperf3_summary(out)["mbps"], None
        except (ValueError, KeyError) as e:
            err = str(e)[:200]
            time.sleep(1.5)
    return None, err


@contextlib.contextmanager
def guest(qemu, img, label, tag, ns_kw=None, **kw):
    """IMG booted (boot(..., **kw)) on the tap of a new netns TAG: yields
    (board, seconds to its ready line, netns); QEMU is stopped and the
    netns dropped on the way out."""
    ns = netns(tag, **(ns_kw or {}))
    try:
        b, t = boot(qemu, img, label, ns, **kw)
        try:
            yield b, t, ns
        finally:
            reaper.end(b)
    finally:
        reaper.end(ns)


def linux_guest(qemu, out, label, tag):
    """The Linux image as guest() on LINUX_NET."""
    host, addr, plen = LINUX_NET
    return guest(qemu, out, label, tag, {"tap": "gl0", "host_ip": host}, firmware="linux",
                 machine_opts="flash=off", smp=SMP,
                 append="gemlab.ip=%s/%d gemlab.gw=%s" % (addr, plen, host))


def linux_session(qemu, out, label):
    guest = LINUX_NET[1]
    with linux_guest(qemu, out, label, "bl") as (b, t, ns):
        pid = b.qemu_pid()
        wait = Waited(b)
        res = {"boot_to_ready_s": round(t, 3), "errors": []}
        time.sleep(1.0)     # the agent's start-up link event
        for key, extra in (("h2g", []), ("g2h", ["-R"])):
            time.sleep(1.0)
            (mbps, err), cores = cpu_cores(pid, lambda: host_iperf3(ns, ["-c", guest] + extra))
            res[key + "_mbps"], res[key + "_qemu_cores"] = round(mbps, 1) if mbps else None, cores
            if err:
                res["errors"].append("%s: %s" % (key, err))
        res["lx_qemu_wait_pct"] = wait.pct()
        return res


# --- startup -----------------------------------------------------------------
def to_ready(qemu, fw, machine_opts, timeout=60):
    """Seconds from exec to the bare-metal firmware's ready line on a
    -serial stdio console (no QMP, not paused, no network)."""
    argv = board.zynq_argv(qemu, fw, machine_opts=machine_opts, paused=False)
    argv[argv.index("-serial") + 1] = "stdio"
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    reaper.keep(p, bench.kill)
    buf = b""
    try:
        while True:
            left = t0 + timeout - time.monotonic()
            if left <= 0 or not select.select([p.stdout], [], [], left)[0]:
                die("%s: no bare-metal ready line within %d s" % (qemu, timeout))
            chunk = os.read(p.stdout.fileno(), 4096)
            if not chunk:
                die("%s exited before the firmware's ready line" % qemu)
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                j = console.parse_line(line.decode("utf-8", "replace"))
                if j and j.get("type") == "ready":
                    return time.monotonic() - t0
    finally:
        reaper.end(p)


def startup(qemu, fw, img):
    first = [startup_time.once(qemu, img, ["-M", "xilinx-zynq-a9,flash=off"]) for _ in range(STARTUP_N)]
    ready = [to_ready(qemu, fw, "flash=off") for _ in range(STARTUP_N)]
    return first, ready


# --- perf ----------------------------------------------------------------------
PERF_GROUPS = (  # name, symbol prefixes/substrings (QEMU 7.2 and 10.0 names)
    ("io_recompile", ("cpu_io_recompile", "cpu_restore_state", "cpu_unwind_data_from_tb",
                      "cpu_loop_exit", "siglongjmp", "__longjmp")),
    ("mmio", ("iotlb_to_section", "memory_region_dispatch", "access_with_adjusted_size",
              "memory_region_write_accessor", "memory_region_read_accessor", "l2x0",
              "unassigned", "io_writex", "io_readx", "do_st_mmio", "do_ld_mmio", "int_st_mmio",
              "int_ld_mmio", "io_prepare")),
    ("l2x0", ("l2x0",)),
    ("translate", ("tcg_", "gen_", "translator_", "disas_", "tb_gen_code", "arm_tr_",
                   "liveness_pass", "la_", "reachable_code", "temp_", "fold_", "finish_folding")),
    ("tb_lookup", ("helper_lookup_tb_ptr", "qht_lookup", "tb_lookup", "tb_htable_lookup",
                   "tcg_flush_jmp_cache", "tb_tc_cmp", "tb_jmp_cache")),
    ("mutex", ("pthread_mutex", "qemu_mutex", "bql_", "qemu_cond", "futex")),
)


def perf_top(pid, secs, n=15):
    """`perf record` @secs s of @pid, then the top @n symbols by self
    samples (perf-report(1) --sort sym) and the share of symbol groups
    (PERF_GROUPS: the I/O recompile of a mid-TB MMIO access, the MMIO
    path, QEMU's l2x0 model hw/misc/arm_l2x0.c, translation, TB lookup,
    mutexes), % of the process's samples."""
    fd, data = tempfile.mkstemp(prefix="gemlab-bases-perf.", suffix=".data")
    os.close(fd)
    try:
        r = subprocess.run(["perf", "record", "-q", "-F", "999", "-o", data, "-p", str(pid), "--",
                            "sleep", str(secs)], capture_output=True, text=True)
        if r.returncode != 0:
            return {"error": "perf record: " + r.stderr.strip()[-300:]}
        r = subprocess.run(["perf", "report", "-q", "-i", data, "--stdio", "--sort", "sym",
                            "--percent-limit", "0.01"], capture_output=True, text=True)
    finally:
        os.unlink(data)
    rows = []
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) >= 3 and f[0].endswith("%"):
            try:
                rows.append((float(f[0][:-1]), f[1], " ".join(f[2:])))
            except ValueError:
                continue
    groups = {g: round(sum(p for p, _, sym in rows if any(w in sym for w in words)), 2)
              for g, words in PERF_GROUPS}
    groups["kernel"] = round(sum(p for p, k, _ in rows if k == "[k]"), 2)
    return {"top": [{"pct": p, "sym": sym} for p, _, sym in rows[:n]], "groups_pct": groups}


def perf_linux(qemu, out, label):
    with linux_guest(qemu, out, label, "bp") as (b, _, ns):
        time.sleep(2.0)
        cl = host_iperf(["-J", "-t", str(PERF + 4), "-c", LINUX_NET[1]], ns, prog="iperf3")
        time.sleep(2.0)
        top = perf_top(b.qemu_pid(), PERF)
        reap(cl, PERF + 40)
        return top


def perf_udp(qemu, fw, label):
    with guest(qemu, fw, label, "bq", machine_opts="flash=off") as (b, _, ns):
        srv = host_iperf(["-s", "-u", "-p", "5003", "-w", "4M"], ns)
        time.sleep(0.3)
        b.con.send("iperf -c %s -u -p 5003 -l %d -b 1000M -t %d" % (net.HOST_IP, UDP_LEN, PERF + 4))
        time.sleep(1.5)
        top = perf_top(b.qemu_pid(), PERF)
        b.con.expect_json("result", PERF * 6 + 30, lambda j: j.get("proto") == "udp")
        srv.kill()
        reap(srv, 5)
        return top


# --- set-up ------------------------------------------------------------------
def make(args, what):
    r = subprocess.run(["nice", "-n", "5", "make", "-s", "--no-print-directory"] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        die("%s failed (make %s, exit %d):\n%s" % (what, " ".join(args), r.returncode, r.stdout[-2000:]))


def build_sh(base, cmd):
    r = subprocess.run([os.path.join(TOP, "emu", "qemu", "build.sh"), cmd],
                       env=dict(os.environ, QEMU_BASE=base), capture_output=True, text=True)
    return r.stdout.strip().splitlines()[-1] if r.returncode == 0 and r.stdout.strip() else ""


def setup():
    """Checks (and with BUILD=1 builds) everything; the paths, or RuntimeError naming what is missing."""
    for name, v, lo, hi in (("ROUNDS", ROUNDS, 1, 100), ("SECS", SECS, 1, 600), ("SMP", SMP, 1, 2),
                            ("STARTUP_N", STARTUP_N, 1, 100), ("PERF", PERF, 0, 600)):
        if not lo <= v <= hi:
            die("%s=%d: must be %d..%d" % (name, v, lo, hi))
    if os.geteuid() != 0:
        die("needs root (a private network namespace and tap per board)")
    for tool in ("ip", "iperf", "iperf3") + (("perf",) if PERF else ()):
        if not shutil.which(tool):
            die("%s not found on PATH (scripts/deps.sh installs it)" % tool)
    building = os.environ.get("BUILD", "1") == "1"
    fw = os.environ.get("FW") or paths.baremetal_elf()
    lout = os.path.abspath(os.environ.get("LINUX_OUT") or os.path.join(paths.build_dir(), "linux"))
    if building:
        if not os.environ.get("FW"):
            make(["-C", os.path.join(TOP, "firmware", "baremetal"), "-j2", "BOARD=qemu-zynq", "all"],
                 "the bare-metal firmware")
        if not os.environ.get("LINUX_OUT"):
            make(["-C", os.path.join(TOP, "firmware", "linux"), "O=" + os.path.dirname(lout)],
                 "the Linux image")
    if not os.path.isfile(fw):
        die("no bare-metal ELF at %s (make -C firmware/baremetal, or FW=)" % fw)
    for f in board.LINUX_FILES:
        if not os.path.isfile(os.path.join(lout, f)):
            die("no %s in %s (make -C firmware/linux, or LINUX_OUT=)" % (f, lout))
    ours = {}
    for base, var in (("7.2", "QEMU72"), ("10.0", "QEMU10")):
        q = os.environ.get(var)
        if not q:
            if building:
                make(["-C", os.path.join(TOP, "emu", "qemu"), "QEMU_BASE=" + base], "our QEMU %s" % base)
            q = build_sh(base, "path")
        if not q or not os.access(q, os.X_OK):
            die("no QEMU %s of ours at '%s' (%s=, or make -C emu/qemu QEMU_BASE=%s)" % (base, q, var, base))
        if not paths.is_patched(q):
            die("%s (%s) is not gemlab's patched QEMU (its cadence_gem has no partner-abilities)" % (q, var))
        ours[base] = q
    stock = {"7.2": os.environ.get("STOCK72", "/usr/bin/qemu-system-arm")}
    stock["10.0"] = os.environ["STOCK10"] if "STOCK10" in os.environ else build_sh("10.0", "stock-path")
    notes = []
    for base in BASES:
        q = stock[base]
        if not q or not os.access(q, os.X_OK):
            notes.append("stock %s: no binary at '%s'; stock rows left out" % (base, q))
            stock[base] = None
    if not all(stock.values()):
        stock = {}
    return fw, lout, ours, stock, notes


def mmm(xs):
    return bench.mmm(xs, 3, runs=True)


def ratio(a, b):
    return round(a["median"] / b["median"], 3) if a and b and b["median"] else None


FIGS = (  # key, label
    ("tcp_rx_mbps", "bare-metal TCP RX, host -> fw (Mb/s)"),
    ("tcp_tx_mbps", "bare-metal TCP TX, fw -> host (Mb/s)"),
    ("udp_tx_mbps", "bare-metal UDP sender, 1470 B (fw Mb/s)"),
    ("udp_host_rx_mbps", "  the same, host received (Mb/s)"),
    ("h2g_mbps", "Linux tap TCP host -> guest (Mb/s)"),
    ("g2h_mbps", "Linux tap TCP guest -> host (Mb/s)"),
    ("boot_to_ready_s", "Linux boot to agent ready (s)"),
    ("first_insn_s", "startup to first guest instruction (s)"),
    ("fw_ready_s", "startup to bare-metal ready line (s)"),
    ("tcp_rx_qemu_cores", "  host cores, bare-metal TCP RX"),
    ("tcp_tx_qemu_cores", "  host cores, bare-metal TCP TX"),
    ("udp_tx_qemu_cores", "  host cores, UDP sender"),
    ("h2g_qemu_cores", "  host cores, Linux host -> guest"),
    ("g2h_qemu_cores", "  host cores, Linux guest -> host"),
    ("bm_qemu_wait_pct", "  QEMU waiting for a CPU, bare metal (%)"),
    ("lx_qemu_wait_pct", "  QEMU waiting for a CPU, Linux (%)"),
)


def main():
    proc.exit_on_signals()
    t_start = time.monotonic()
    fw, lout, ours, stock, notes = setup()
    out = {"schema": "gemlab-bench-bases-1", "qemu": ours, "stock_qemu": stock or None,
           "firmware": fw, "linux_out": lout, "rounds": ROUNDS, "secs": SECS, "smp": SMP,
           "startup_n": STARTUP_N, "udp_sender": "iperf -c HOST -u -l %d -b 1000M -t %d" % (UDP_LEN, SECS),
           "date_start": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "loadavg_start": list(os.getloadavg()), "notes": notes}
    for n in notes:
        print("bench bases: " + n)
    img = os.path.join(tempfile.gettempdir(), "gemlab-bases-startup-%d.bin" % os.getpid())
    with open(img, "wb") as f:
        for w in startup_time.GUEST:
            f.write(w.to_bytes(4, "little"))
    runs = {b: {k: [] for k, _ in FIGS} for b in BASES}
    srun = {b: [] for b in BASES}
    lx_err = []
    load_rounds = []
    try:
        for r in range(ROUNDS):
            order = BASES if r % 2 == 0 else BASES[::-1]
            load_rounds.append(round(os.getloadavg()[0], 2))
            for base in order:
                res = baremetal_session(ours[base], fw, "ours %s (bare metal)" % base, True)
                for k, v in res.items():
                    runs[base][k].append(v)
                print("  round %d %-4s bare metal: TCP RX %s, TX %s, UDP sender %s (host got %s) Mb/s"
                      % (r + 1, base, res["tcp_rx_mbps"], res["tcp_tx_mbps"], res["udp_tx_mbps"],
                         res["udp_host_rx_mbps"]), flush=True)
            for base in order:
                res = linux_session(ours[base], lout, "ours %s (Linux -smp %d)" % (base, SMP))
                lx_err += ["round %d %s %s" % (r + 1, base, e) for e in res.pop("errors")]
                for k, v in res.items():
                    runs[base][k].append(v)
                print("  round %d %-4s Linux: host->guest %s, guest->host %s Mb/s, ready in %.2f s"
                      % (r + 1, base, res["h2g_mbps"], res["g2h_mbps"], res["boot_to_ready_s"]), flush=True)
            for base in order:
                first, ready = startup(ours[base], fw, img)
                runs[base]["first_insn_s"] += first
                runs[base]["fw_ready_s"] += ready
                print("  round %d %-4s startup: first instruction %.3f, ready %.3f s (medians of %d)"
                      % (r + 1, base, statistics.median(first), statistics.median(ready), STARTUP_N),
                      flush=True)
            for base in (order if stock else ()):
                res = baremetal_session(stock[base], fw, "stock %s (bare metal)" % base, False)
                srun[base].append(res)
                print("  round %d %-4s stock UDP sender %s (host got %s) Mb/s"
                      % (r + 1, base, res["udp_tx_mbps"], res["udp_host_rx_mbps"]), flush=True)
        if PERF:
            out["perf"] = {}
            for base in BASES:
                out["perf"]["linux_h2g_" + base] = perf_linux(ours[base], lout, "ours %s (perf)" % base)
                out["perf"]["udp_sender_" + base] = perf_udp(ours[base], fw, "ours %s (perf)" % base)
    finally:
        os.unlink(img)

    figs = {}
    for k, label in FIGS:
        figs[k] = {"label": label, "7.2": mmm(runs["7.2"][k]), "10.0": mmm(runs["10.0"][k])}
        figs[k]["ratio_10_over_7_2"] = ratio(figs[k]["10.0"], figs[k]["7.2"])
    out["figures"] = figs
    if stock:
        st = {}
        for k in ("udp_tx_mbps", "udp_host_rx_mbps", "udp_tx_qemu_cores"):
            st[k] = {"7.2": mmm([x[k] for x in srun["7.2"]]), "10.0": mmm([x[k] for x in srun["10.0"]])}
            st[k]["ratio_10_over_7_2"] = ratio(st[k]["10.0"], st[k]["7.2"])
        out["stock_udp_sender"] = st
    out["linux_iperf3_errors"] = lx_err
    out["loadavg_by_round"] = load_rounds
    out["loadavg_end"] = list(os.getloadavg())
    out["wall_s"] = round(time.monotonic() - t_start, 1)

    # ---- the table
    def cell(m, fmt):
        return "%s / %s / %s" % (fmt % m["min"], fmt % m["median"], fmt % m["max"]) if m else "-"
    print()
    print("ours on QEMU 10.0 against ours on 7.2: %d alternating rounds, %d s per throughput run, "
          "Linux -smp %d; %s s" % (ROUNDS, SECS, SMP, out["wall_s"]))
    print("load average (1/5/15 min) %s at start, %s at the end, 1-min per round %s"
          % ("/".join("%.2f" % x for x in out["loadavg_start"]),
             "/".join("%.2f" % x for x in out["loadavg_end"]), load_rounds))
    w = 42
    print("%-*s %-26s %-26s %s" % (w, "figure (min / median / max)", "7.2", "10.0", "10.0/7.2"))
    for k, label in FIGS:
        f = figs[k]
        fmt = "%.3f" if k.endswith("_s") else "%.2f" if "cores" in k else "%.1f"
        print("%-*s %-26s %-26s %s" % (w, label, cell(f["7.2"], fmt), cell(f["10.0"], fmt),
                                       f["ratio_10_over_7_2"] if f["ratio_10_over_7_2"] is not None else "-"))
    if stock:
        for k, label in (("udp_tx_mbps", "stock UDP sender, 1470 B (fw Mb/s)"),
                         ("udp_host_rx_mbps", "  the same, host received (Mb/s)"),
                         ("udp_tx_qemu_cores", "  host cores, stock UDP sender")):
            f = out["stock_udp_sender"][k]
            fmt = "%.2f" if "cores" in k else "%.1f"
            print("%-*s %-26s %-26s %s" % (w, label, cell(f["7.2"], fmt), cell(f["10.0"], fmt),
                                           f["ratio_10_over_7_2"] or "-"))
    else:
        print("stock UDP sender: left out (%s)" % "; ".join(notes))
    for e in lx_err:
        print("Linux iperf3 error: " + e)
    for k, v in out.get("perf", {}).items():
        if "error" in v:
            print("perf %s: %s" % (k, v["error"]))
            continue
        print("perf %s, %% of QEMU's samples: %s; top: %s" % (
            k, ", ".join("%s %.1f" % kv for kv in v["groups_pct"].items()),
            ", ".join("%s %.1f" % (t["sym"], t["pct"]) for t in v["top"][:6])))
    path = bench.write_json(out)
    if path:
        print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    bench.run_main(main, "bench bases", cleanup=reaper.close)
