"""The QMP client of gemlab's tests (QEMU docs/interop/qmp-spec.txt).

One JSON object a line each way.  The server greets with {"QMP": ...};
the client negotiates with qmp_capabilities; every command gets exactly
one {"return": ...} or {"error": {"class", "desc"}}; {"event": ...}
objects may arrive at any time and are queued for wait_event().

Why not QEMU's python/qemu/qmp: in QEMU 7.2 it is an asyncio library
that is not installed by Debian's packages; the tests only need this
blocking subset, and one thread-safe object that a soak's fault thread
and its main loop can share.
"""
import json
import socket
import threading
import time

GEM = "/machine/gem0"       # the cadence_gem's QOM path on xilinx-zynq-a9
LINK = GEM + "/gemlab-link"  # its gemlab-link object (the model's properties)


class QmpError(RuntimeError):
    """A command QEMU answered with an error: .cmd, .cmd_args, .cls, .desc."""

    def __init__(self, cmd, args, cls, desc):
        self.cmd, self.cmd_args, self.cls, self.desc = cmd, args, cls, desc
        super().__init__("QMP %s%s: %s: %s" % (cmd, " %s" % json.dumps(args) if args else "", cls, desc))


class QmpTimeout(TimeoutError):
    pass


class QmpClosed(ConnectionError):
    pass


def connect_unix(path, timeout=10.0):
    """A stream socket connected to the unix socket @path, retried until
    @timeout (QEMU creates it a moment after it starts)."""
    end = time.monotonic() + timeout
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError as e:
            s.close()
            if time.monotonic() > end:
                raise ConnectionError("%s: cannot connect within %.0f s: %s" % (path, timeout, e)) from None
            time.sleep(0.05)


class Qmp:
    """Qmp(sock) on a connected socket, or Qmp.connect(path)."""

    def __init__(self, sock, timeout=10.0, what="QMP"):
        self.s = sock
        self.what = what
        self.timeout = timeout
        self.buf = b""
        self.events = []
        self.lock = threading.RLock()
        g = self._read(timeout)
        if "QMP" not in g:
            raise QmpError("greeting", None, "Protocol", "%s: expected the QMP greeting, got %.200r" % (what, g))
        self.greeting = g["QMP"]
        self.execute("qmp_capabilities")

    @classmethod
    def connect(cls, path, timeout=10.0):
        return cls(connect_unix(path, timeout), what=path)

    def _read(self, timeout):
        end = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = end - time.monotonic()
            if left <= 0:
                raise QmpTimeout("%s: no answer within %.1f s" % (self.what, timeout))
            self.s.settimeout(left)
            try:
                d = self.s.recv(65536)
            except socket.timeout:
                continue
            except OSError as e:
                raise QmpClosed("%s: %s" % (self.what, e)) from None
            if not d:
                raise QmpClosed("%s: QEMU closed the connection (exited?)" % self.what)
            self.buf += d
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            raise QmpError("read", None, "Protocol", "%s: not JSON: %.200r" % (self.what, line)) from None

    def execute(self, cmd, timeout=None, **args):
        """Run @cmd with @args; its "return" value, or QmpError."""
        msg = {"execute": cmd}
        if args:
            msg["arguments"] = args
        t = self.timeout if timeout is None else timeout
        with self.lock:
            try:
                self.s.sendall(json.dumps(msg).encode() + b"\n")
            except OSError as e:
                raise QmpClosed("%s: %s: %s" % (self.what, cmd, e)) from None
            end = time.monotonic() + t
            while True:
                try:
                    r = self._read(max(0.0, end - time.monotonic()))
                except QmpTimeout:
                    raise QmpTimeout("%s: %s: no answer within %.1f s" % (self.what, cmd, t)) from None
                if "event" in r:
                    self.events.append(r)
                    continue
                if "error" in r:
                    e = r["error"]
                    raise QmpError(cmd, args, e.get("class", "?"), e.get("desc", "?"))
                if "return" in r:
                    return r["return"]
                raise QmpError(cmd, args, "Protocol", "unexpected %.200r" % r)

    def wait_event(self, name, timeout):
        """The first queued or arriving event called @name (removed from
        the queue); None after @timeout."""
        end = time.monotonic() + timeout
        with self.lock:
            while True:
                for i, e in enumerate(self.events):
                    if e.get("event") == name:
                        return self.events.pop(i)
                left = end - time.monotonic()
                if left <= 0:
                    return None
                try:
                    r = self._read(left)
                except QmpTimeout:
                    return None
                self.events.append(r)

    def qom_get(self, prop, path=LINK):
        return self.execute("qom-get", path=path, property=prop)

    def qom_set(self, prop, value, path=LINK):
        return self.execute("qom-set", path=path, property=prop, value=value)

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass
