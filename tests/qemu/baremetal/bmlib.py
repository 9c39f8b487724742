"""bmlib.py - shared pieces for the bare-metal QEMU tests and benchmarks.

- Netns: a private network namespace holding a tap (host side 10.0.2.2/24,
  the firmware is 10.0.2.15), removed on close().  Needs root.
- Board: one qemu-zynq QEMU running the bare-metal ELF inside that netns
  (or on slirp), serial console on a unix socket (smoke.Console), QMP on
  another; stop() kills it.
- Qmp: minimal QMP client (qom-set / qom-get).
- iperf(): the host's iperf 2 inside the netns, CSV output parsed.

Everything started here is recorded and torn down by close()/stop(), which
the callers run from finally blocks (SIGINT/SIGTERM are turned into
SystemExit by install_signal_handlers()).
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
from smoke import Console  # noqa: E402  (the console reader is shared)

QEMU_SH = os.path.join(TOP, "firmware", "baremetal", "boards", "qemu-zynq", "qemu.sh")
BOARD_IP = "10.0.2.15"
HOST_IP = "10.0.2.2"


def install_signal_handlers():
    def h(sig, _frm):
        raise SystemExit(128 + sig)
    signal.signal(signal.SIGINT, h)
    signal.signal(signal.SIGTERM, h)
    signal.signal(signal.SIGHUP, h)


def ci():
    """True under CI=true (GitHub Actions sets it in every step): there a
    check that cannot run is a failure, not a skip (issue 20)."""
    return os.environ.get("CI") == "true"


def gh_warning(title, text):
    """A GitHub Actions warning annotation (workflow command `::warning`,
    docs.github.com "Workflow commands for GitHub Actions"), so that a
    check that did not count shows on the run's page; its data escapes
    '%', CR and LF as %25, %0D, %0A."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    title = title.replace("%", "%25").replace(",", "%2C").replace("::", ": :")
    print("::warning title=%s::%s" % (title, text), flush=True)


def needs_root(suite):
    """None as root.  Otherwise the whole suite cannot run (a private netns
    and tap need root): outside CI it is one skip, counted as such and
    exit 0; under CI=true it fails.  Prints the summary line and returns
    the exit status."""
    if os.geteuid() == 0:
        return None
    why = "needs root for a private netns + tap"
    if ci():
        print("FAIL %s: skipped under CI=true, and a skip is not a pass: %s "
              "(CI runs as root in a --privileged container)" % (suite, why))
        print("%s: 0 passed, 1 failed" % suite)
        return 1
    print("SKIP %s: %s" % (suite, why))
    print("%s: 0 passed, 0 failed, 1 skipped" % suite)
    return 0


def is_patched(qemu):
    """True when qemu's cadence_gem has gemlab's partner-abilities property."""
    try:
        r = subprocess.run([qemu, "-M", "none", "-device", "cadence_gem,help"],
                           capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return "partner-abilities" in r.stdout


def our_qemu():
    """gemlab's patched qemu-system-arm: $QEMU when it is that one, else
    emu/qemu's build (`make -s -C emu/qemu path`); None if neither is."""
    cands = []
    if os.environ.get("QEMU"):
        cands.append(os.environ["QEMU"])
    r = subprocess.run(["make", "-s", "--no-print-directory", "-C", os.path.join(TOP, "emu", "qemu"),
                        "path"], capture_output=True, text=True, check=False)
    if r.stdout.strip():
        cands.append(r.stdout.strip())
    for q in cands:
        if is_patched(q):
            return q
    return None


class Netns:
    def __init__(self, tag):
        self.name = "glbm-%s-%d" % (tag, os.getpid())
        self.tap = "gltap0"
        self.up = False

    def create(self):
        def ip(*a):
            subprocess.run(["ip"] + list(a), check=True, capture_output=True)
        ip("netns", "add", self.name)
        self.up = True
        ip("-n", self.name, "tuntap", "add", "dev", self.tap, "mode", "tap")
        ip("-n", self.name, "addr", "add", HOST_IP + "/24", "dev", self.tap)
        ip("-n", self.name, "link", "set", self.tap, "up")
        ip("-n", self.name, "link", "set", "lo", "up")
        return self

    def cmd(self, argv):
        return ["ip", "netns", "exec", self.name] + list(argv)

    def close(self):
        if self.up:
            subprocess.run(["ip", "netns", "del", self.name], check=False, capture_output=True)
            self.up = False


class Qmp:
    def __init__(self, path, timeout=10):
        end = time.monotonic() + timeout
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                if time.monotonic() > end:
                    raise
                time.sleep(0.05)
        self.s.settimeout(10)
        self.f = self.s.makefile("rb")
        self._read()                       # greeting
        self.execute("qmp_capabilities")

    def _read(self):
        while True:
            line = self.f.readline()
            if not line:
                raise EOFError("QMP closed")
            j = json.loads(line)
            if "event" not in j:
                return j

    def execute(self, cmd, **args):
        msg = {"execute": cmd}
        if args:
            msg["arguments"] = args
        self.s.sendall(json.dumps(msg).encode() + b"\n")
        j = self._read()
        if "error" in j:
            raise RuntimeError("QMP %s %r: %s" % (cmd, args, j["error"].get("desc")))
        return j.get("return")

    def qom_set(self, prop, value, path="/machine/gem0"):
        return self.execute("qom-set", path=path, property=prop, value=value)

    def qom_get(self, prop, path="/machine/gem0"):
        return self.execute("qom-get", path=path, property=prop)

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


class Board:
    """One QEMU running the ELF.  net: a Netns (tap) or None (slirp)."""

    def __init__(self, elf, tmp, qemu, net=None, qemu_args=(), timeout=300, qmp=True):
        self.tmp = tmp
        self.proc = None
        self.qmp = None
        sock = os.path.join(tmp, "console.sock")
        qsock = os.path.join(tmp, "qmp.sock")
        env = dict(os.environ, QEMU=qemu, GEMLAB_SERIAL="chardev:con")
        if net is not None:
            env["GEMLAB_NETDEV"] = "tap,id=n0,ifname=%s,script=no,downscript=no" % net.tap
        args = [QEMU_SH, elf, "-chardev", "socket,id=con,path=%s,server=on,wait=on" % sock]
        args += ["-name", "gemlab-bm,debug-threads=on"]    # "CPU 0/TCG" thread names
        if qmp:
            args += ["-qmp", "unix:%s,server=on,wait=off" % qsock]
        args += list(qemu_args)
        if net is not None:
            args = net.cmd(args)
        self.out = open(os.path.join(tmp, "qemu.out"), "w")
        self.proc = subprocess.Popen(args, env=env, stdout=self.out, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.con = Console(sock, os.path.join(tmp, "console.log"), time.monotonic() + timeout)
        if qmp:
            self.qmp = Qmp(qsock)

    def qemu_pid(self):
        """PID of the qemu-system-arm process (Popen's, or its child when
        `ip netns exec` or a wrapper forked)."""
        todo = [self.proc.pid]
        while todo:
            pid = todo.pop(0)
            try:
                with open("/proc/%d/comm" % pid) as f:
                    if f.read().startswith("qemu-system"):
                        return pid
                with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
                    todo += [int(x) for x in f.read().split()]
            except OSError:
                continue
        return None

    def sched_wait_ns(self):
        """Nanoseconds QEMU's threads (vCPU "CPU 0/TCG", main loop, ...)
        have spent runnable but waiting for a host CPU (schedstat
        run_delay), summed; None when unknown.  Its growth over a test
        divided by the wall time says how much the host starved the guest:
        a firmware that is too slow keeps QEMU busy, not waiting."""
        pid = self.qemu_pid()
        if pid is None:
            return None
        total = 0
        try:
            for tid in os.listdir("/proc/%d/task" % pid):
                with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                    total += int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            return None
        return total

    def stop(self):
        if self.qmp:
            self.qmp.close()
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.out.close()

    def console_tail(self, n=40):
        try:
            with open(os.path.join(self.tmp, "console.log"), errors="replace") as f:
                return f.read().splitlines()[-n:]
        except OSError:
            return []


def parse_iperf_csv(text):
    """iperf 2 -y C lines -> list of dicts (interval rows and the summary).
    TCP: ts,src,sport,dst,dport,id,interval,bytes,bps
    UDP server report adds: jitter_ms,lost,total,loss_pct,ooo."""
    rows = []
    for line in text.splitlines():
        f = line.strip().split(",")
        if len(f) < 9 or not f[0].isdigit():
            continue
        try:
            a, b = f[6].split("-")
            r = {"start": float(a), "end": float(b), "bytes": int(f[7]), "bps": float(f[8])}
            if len(f) >= 14:
                r.update(jitter_ms=float(f[9]), lost=int(f[10]), total=int(f[11]),
                         loss_pct=float(f[12]), ooo=int(f[13]))
        except ValueError:
            continue
        rows.append(r)
    return rows


class Iperf:
    """A host iperf 2 process (in the netns when given)."""

    def __init__(self, args, net=None, log=None):
        argv = ["iperf"] + list(args)
        if net is not None:
            argv = net.cmd(argv)
        self.log = log
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, start_new_session=True)
        self.text = None

    def wait(self, timeout):
        try:
            out, _ = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            out, _ = self.proc.communicate()
        self.text = out
        if self.log:
            with open(self.log, "a") as f:
                f.write(out)
        return out

    def kill(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
