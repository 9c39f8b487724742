"""The Zynq-7000 QEMU command line of gemlab's tests, and a booted board.

zynq_argv() is the one place the tests build it.  It follows the runner's
qemu_build_argv() (emu/runner/qemu.c) option for option: xilinx-zynq-a9,
256M for bare metal / 512M for Linux, started paused (-S) with QMP and
the console on unix sockets in the run directory, the console on UART0
(bare metal) or UART1 (Linux: console=ttyPS0 is QEMU's second serial),
one cadence_gem NIC on netdev n0, model properties as -global of its
gemlab-link (emu/qemu/include/hw/net/gemlab_link.h).  The tests
cannot call the runner for it: `gemlab boot` keeps the console to itself.
tests/qemu/runner/test_board_argv.py compares the two (the runner writes
RUN_DIR/qemu.argv), so neither drifts alone.  firmware/baremetal/boards/qemu-zynq/qemu.sh stays the human
entry point (`make run-qemu`, console on stdio).

Board boots one QEMU from that argv (inside a net.Netns when given),
connects QMP (qmp.Qmp) and the console (console.Console), then lets it
run (`cont`): nothing the firmware prints is lost.  stop() ends it and
everything it started, whatever state it is in.
"""
import os
import signal
import subprocess
import time

from . import proc
from .console import Console
from .qmp import Qmp

NETDEV_ID = "n0"
LINUX_FILES = ("zImage", "zynq-zc702-qemu.dtb", "initramfs.cpio.gz")
LINUX_APPEND = "console=ttyPS0,115200 earlycon"


GATE_ID = "con0"            # emu/runner/qemu.h QEMU_GATE_ID
LINK_DRIVER = "gemlab-link"  # emu/runner/qemu.h QEMU_LINK_DRIVER: the model


def _esc(path):
    """A path inside a QemuOpts value: ',' is doubled (QEMU's opts syntax)."""
    return path.replace(",", ",,")


def netdev_user(hostfwd=(), ipv6=True, board_ip="10.0.2.15"):
    """slirp on 10.0.2.0/24; hostfwd: (proto, host_port, guest_port)
    tuples, bound on 127.0.0.1 only."""
    s = "user,id=%s,net=10.0.2.0/24" % NETDEV_ID
    if not ipv6:
        s += ",ipv6=off"
    for proto, hport, gport in hostfwd:
        s += ",hostfwd=%s:127.0.0.1:%d-%s:%d" % (proto, hport, board_ip, gport)
    return s


def netdev_tap(ifname):
    return "tap,id=%s,ifname=%s,script=no,downscript=no" % (NETDEV_ID, ifname)


def zynq_argv(qemu, fw, qmp=None, serial=None, firmware="baremetal", netdev=None, gem=None,
              machine_opts="", smp=None, append="", dtb=None, paused=True, mips=None, extra=()):
    """argv for @qemu booting @fw (a bare-metal ELF, or for firmware
    "linux" a directory holding LINUX_FILES).  qmp/serial: unix socket
    paths QEMU serves; netdev: netdev_user()/netdev_tap() or None (no
    network); gem: {gemlab-link property: value} as -global; append:
    more Linux command line (the agent's gemlab.ip=..., see
    firmware/linux); dtb: the Linux DTB's file name in @fw (default
    LINUX_FILES[1], the zc702 board with QEMU's overlay); mips: virtual
    time as the runner's --clock virtual gives it (emu/runner/qemu.c):
    -icount mips=N,sleep=off,align=off and the console through the
    gemlab-gate chardev GATE_ID, so the guest's output never waits on the
    socket (docs/VIRTUAL_TIME.md)."""
    linux = firmware == "linux"
    a = [qemu, "-M", "xilinx-zynq-a9" + ("," + machine_opts if machine_opts else ""),
         "-m", "512M" if linux else "256M", "-display", "none", "-monitor", "none"]
    if paused:
        a.append("-S")
    if qmp:
        a += ["-qmp", "unix:%s,server=on,wait=off" % _esc(qmp)]
    ser = ["chardev:ser0"] if serial else ["null"]
    if serial:
        a += ["-chardev", "socket,id=ser0,path=%s,server=on,wait=off" % _esc(serial)]
    if mips:
        a += ["-icount", "mips=%d,sleep=off,align=off" % mips]
        if serial:
            a += ["-chardev", "gemlab-gate,id=%s,chardev=ser0" % GATE_ID]
            ser = ["chardev:" + GATE_ID]
    a += ["-serial", "null", "-serial", ser[0]] if linux else ["-serial", ser[0], "-serial", "null"]
    if linux and smp and smp > 1:
        a += ["-smp", str(smp)]
    if linux:
        z, dt, initrd = (os.path.join(fw, f) for f in (LINUX_FILES[0], dtb or LINUX_FILES[1], LINUX_FILES[2]))
        a += ["-kernel", z, "-dtb", dt, "-initrd", initrd, "-append", (LINUX_APPEND + " " + append).strip()]
    else:
        a += ["-kernel", fw]
    if netdev:
        a += ["-netdev", netdev, "-net", "nic,netdev=%s,model=cadence_gem" % NETDEV_ID]
    else:
        a += ["-net", "none"]
    for k, v in (gem or {}).items():
        a += ["-global", "%s.%s=%s" % (LINK_DRIVER, k, v)]
    return a + list(extra)


class Board:
    """One booted QEMU.  rundir: where its sockets and logs go (console.log,
    qemu.log, qemu.argv).  net: a net.Netns to run it in (its tap becomes
    the netdev unless one is given).  Other keywords go to zynq_argv."""

    def __init__(self, fw, rundir, qemu, net=None, netdev=None, firmware="baremetal", qmp_timeout=10,
                 console_deadline=None, **kw):
        self.rundir = rundir
        self.proc = self.qmp = self.con = None
        self.qmp_path = os.path.join(rundir, "qmp.sock")
        self.serial_path = os.path.join(rundir, "serial.sock")
        if net is not None and netdev is None:
            netdev = netdev_tap(net.tap)
        self.argv = zynq_argv(qemu, fw, qmp=self.qmp_path, serial=self.serial_path, firmware=firmware,
                              netdev=netdev, **kw)
        with open(os.path.join(rundir, "qemu.argv"), "w") as f:
            f.write("\n".join(self.argv) + "\n")
        argv = net.cmd(self.argv) if net is not None else self.argv
        with open(os.path.join(rundir, "qemu.log"), "w") as log:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        try:
            self.qmp = Qmp.connect(self.qmp_path, qmp_timeout)
            self.con = Console.connect(self.serial_path, os.path.join(rundir, "console.log"),
                                       deadline=console_deadline)
            self.qmp.execute("cont")
        except BaseException:
            self.stop()
            raise

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def qemu_pid(self):
        return proc.find_comm(self.proc.pid, "qemu-system") if self.proc else None

    def sched_wait_ns(self):
        pid = self.qemu_pid()
        return None if pid is None else proc.sched_wait_ns(pid)

    def tail(self, n=40):
        return self.con.tail(n) if self.con else []

    def qemu_log_tail(self, n=10):
        try:
            with open(os.path.join(self.rundir, "qemu.log"), errors="replace") as f:
                return f.read().splitlines()[-n:]
        except OSError:
            return []

    def stop(self):
        """Quit QEMU (QMP quit, then SIGTERM, then SIGKILL to its process
        group) and close the sockets; safe to call twice."""
        if self.proc is not None and self.proc.poll() is None and self.qmp is not None:
            try:
                self.qmp.execute("quit", timeout=2)
            except Exception:      # noqa: BLE001 - it may already be gone
                pass
        if self.proc is not None:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    self.proc.wait(3)
                    break
                except subprocess.TimeoutExpired:
                    try:
                        os.killpg(self.proc.pid, sig)
                    except OSError:
                        pass
            self.proc.wait()
        if self.qmp:
            self.qmp.close()
        if self.con:
            self.con.close()
        for p in (self.qmp_path, self.serial_path):
            try:
                os.unlink(p)
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def settle(get, quiet_s=1.0, poll_s=0.1, timeout=30.0):
    """Wait until get() returns the same value for @quiet_s (counters
    stopped moving); the value, or TimeoutError."""
    last, since, end = None, time.monotonic(), time.monotonic() + timeout
    while time.monotonic() - since < quiet_s:
        cur = get()
        if cur != last:
            last, since = cur, time.monotonic()
        if time.monotonic() > end:
            raise TimeoutError("still changing after %.0f s: %r" % (timeout, cur))
        time.sleep(poll_s)
    return last


class Starve:
    """How long a board's QEMU threads waited for a host CPU between
    creation and stop(), as a percentage of the wall time
    (Board.sched_wait_ns).  A firmware that is too slow keeps QEMU busy,
    not waiting: a high figure says the host starved the guest."""

    def __init__(self, b, limit_pct=10.0):
        self.b = b
        self.limit = limit_pct
        self.w0 = b.sched_wait_ns()
        self.t0 = time.monotonic()
        self.pct = None

    def stop(self):
        w = self.b.sched_wait_ns()
        if w is not None and self.w0 is not None:
            self.pct = (w - self.w0) / 1e9 / (time.monotonic() - self.t0) * 100
        return self

    def starved(self):
        return self.pct is not None and self.pct > self.limit

    def __str__(self):
        return "?" if self.pct is None else "%.0f %%" % self.pct
