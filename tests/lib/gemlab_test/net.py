"""Free ports, network namespaces and taps.

Free ports: a port found by binding port 0 is free only while that socket
stays bound; whoever binds it next (QEMU's hostfwd, iperf) may lose a
race with another process.  Where the test itself is the user, keep the
socket (bound()); where another program must bind, free_port() returns a
port that was free for TCP and UDP alike, the narrowest window possible
without passing a file descriptor.
"""
import os
import re
import socket
import subprocess

BOARD_IP = "10.0.2.15"      # the firmware's default address (slirp and tap)
HOST_IP = "10.0.2.2"        # the host side of slirp / of our tap


def bound(kind=socket.SOCK_DGRAM, host="127.0.0.1"):
    """A socket of @kind bound to a free port on @host (no race)."""
    s = socket.socket(socket.AF_INET, kind)
    s.bind((host, 0))
    return s


def free_port(host="127.0.0.1", tries=50, exclude=()):
    """A port number free on @host for TCP and UDP alike, not in @exclude."""
    for _ in range(tries):
        t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            t.bind((host, 0))
            port = t.getsockname()[1]
            if port in exclude:
                continue
            u.bind((host, port))
            return port
        except OSError:
            continue
        finally:
            u.close()
            t.close()
    raise OSError("no port free for TCP and UDP on %s in %d tries" % (host, tries))


# HMP `info usernet` (libslirp misc.c, slirp_connection_info()): a row
# per socket, "TCP[STATE]  FD  src-addr src-port  dst-addr dst-port
# RecvQ SendQ", the state a BSD TCP state name (tcp_fsm.h), HOST_FORWARD
# for a hostfwd listener, NONE for a socket without a TCP control block.
_USERNET_TCP = re.compile(r"\s*TCP\[([A-Z_0-9]+)\]\s+(-?\d+)\s+(\S+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)")
# states in which slirp sends nothing more to the guest
SLIRP_TCP_QUIET = ("HOST_FORWARD", "LISTEN", "CLOSED", "TIME_WAIT", "NONE")


def slirp_tcp(usernet):
    """The TCP rows of `info usernet` text, as dicts."""
    rows = []
    for line in usernet.splitlines():
        m = _USERNET_TCP.match(line)
        if m:
            rows.append({"state": m.group(1), "fd": int(m.group(2)), "src": m.group(3), "sport": int(m.group(4)),
                         "dst": m.group(5), "dport": int(m.group(6)), "recvq": int(m.group(7)),
                         "sendq": int(m.group(8))})
    return rows


def slirp_tcp_live(usernet):
    """The rows of connections slirp still drives towards the guest: a SYN
    it retries, data it retransmits, a FIN not yet acknowledged.  Behind a
    hostfwd the host client has long finished while these go on."""
    return [r for r in slirp_tcp(usernet) if r["state"] not in SLIRP_TCP_QUIET]


def _ip(*args):
    r = subprocess.run(["ip"] + list(args), capture_output=True, text=True, check=False)
    if r.returncode:
        raise RuntimeError("ip %s: %s" % (" ".join(args), (r.stderr or r.stdout).strip()))
    return r.stdout


class Netns:
    """A private network namespace holding one tap (host side HOST_IP/24),
    for QEMU's -netdev tap; close() (or leaving a with block) deletes it,
    and the tap with it.  Needs root (ip-netns(8))."""

    def __init__(self, tag, tap="gltap0", host_ip=HOST_IP):
        self.name = "glt-%s-%d" % (tag, os.getpid())
        self.tap = tap
        self.host_ip = host_ip
        self.up = False

    def create(self):
        _ip("netns", "add", self.name)
        self.up = True
        try:
            _ip("-n", self.name, "tuntap", "add", "dev", self.tap, "mode", "tap")
            _ip("-n", self.name, "addr", "add", self.host_ip + "/24", "dev", self.tap)
            _ip("-n", self.name, "link", "set", self.tap, "up")
            _ip("-n", self.name, "link", "set", "lo", "up")
        except RuntimeError:
            self.close()
            raise
        return self

    def cmd(self, argv):
        """@argv run inside the namespace."""
        return ["ip", "netns", "exec", self.name] + list(argv)

    def run(self, argv, **kw):
        return subprocess.run(self.cmd(argv), **kw)

    def tap_counter(self, name):
        """/sys/class/net/TAP/statistics/@name inside the namespace
        (tx_dropped: frames the kernel dropped with the tap queue full)."""
        out = self.run(["cat", "/sys/class/net/%s/statistics/%s" % (self.tap, name)],
                       capture_output=True, text=True, check=True).stdout
        return int(out.strip() or 0)

    def close(self):
        if self.up:
            subprocess.run(["ip", "netns", "del", self.name], check=False, capture_output=True)
            self.up = False

    def __enter__(self):
        return self.create()

    def __exit__(self, *exc):
        self.close()
