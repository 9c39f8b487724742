"""The serial console reader of gemlab's tests.

A reader thread drains the console all the time (a socket or a pty), so
the firmware never blocks on a full UART FIFO while the test is busy
elsewhere.  Bytes become lines: CR is dropped, other C0 control
characters but TAB (the shell's bell, an escape sequence) are dropped
from the line too but kept in the log.  A line holding "@gemlab {...}"
is also parsed as a message (the JSON-lines protocol of docs/schema.md);
a garbled one is a console glitch, not an error, and is only a line.

Two ways to wait:
  expect(pred) / expect_json(type)  consume lines in order: each call
      looks only at lines after the last one it returned, and send()
      skips everything printed before the command;
  wait_json(pred, since)            search the messages from line
      `since` (a mark()) on, consuming nothing: for code that polls
      the same stream from several places.
"""
import json
import os
import re
import select
import threading
import time

from .qmp import connect_unix

MARK = "@gemlab "
_CTRL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def parse_line(line):
    """The @gemlab JSON object in @line, or None."""
    i = line.find(MARK + "{")
    if i < 0:
        return None
    try:
        j = json.loads(line[i + len(MARK):])
    except ValueError:
        return None
    return j if isinstance(j, dict) else None


class Console:
    """Console(fd_owner) on a connected socket or an open pty master (any
    object with fileno(), or an int fd); Console.connect(path) for a
    unix socket.  log: a file the raw text is written to."""

    def __init__(self, f, log=None, deadline=None):
        self.f = f
        self.fd = f if isinstance(f, int) else f.fileno()
        self.log = open(log, "w", buffering=1, errors="replace") if log else None
        self.deadline = deadline
        self.lines = []
        self.msgs = []           # (line index, object)
        self.pos = 0             # first line expect() has not consumed
        self.closed = False
        self._buf = ""
        self._stop = False
        self.cv = threading.Condition()
        self.t = threading.Thread(target=self._reader, daemon=True)
        self.t.start()

    @classmethod
    def connect(cls, path, log=None, timeout=10.0, deadline=None):
        return cls(connect_unix(path, timeout), log, deadline)

    def _reader(self):
        while not self._stop:
            try:
                r, _, _ = select.select([self.fd], [], [], 0.2)
                if not r:
                    continue
                data = os.read(self.fd, 65536)
            except (OSError, ValueError):
                data = b""          # EIO: a pty whose other side closed
            if not data:
                break
            self._feed(data.decode("utf-8", "replace"))
        with self.cv:
            self.closed = True
            self.cv.notify_all()

    def _feed(self, text):
        text = text.replace("\r", "")
        if self.log:
            self.log.write(text)
        with self.cv:
            self._buf += text
            *done, self._buf = self._buf.split("\n")
            for raw in done:
                line = _CTRL.sub("", raw)
                j = parse_line(line)
                if j is not None:
                    self.msgs.append((len(self.lines), j))
                self.lines.append(line)
            if done:
                self.cv.notify_all()

    def send(self, line, eol="\r"):
        """Type @line and Enter; later expect() calls see only what comes
        after it."""
        with self.cv:
            self.pos = len(self.lines)
        data = (line + eol).encode()
        while data:
            data = data[os.write(self.fd, data):]

    def _end(self, timeout):
        end = time.monotonic() + timeout
        return min(end, self.deadline) if self.deadline else end

    def expect(self, pred, timeout):
        """The first unconsumed line for which pred(line) holds, or None
        after @timeout; EOFError when the console closed first."""
        end = self._end(timeout)
        with self.cv:
            while True:
                while self.pos < len(self.lines):
                    line = self.lines[self.pos]
                    self.pos += 1
                    if pred(line):
                        return line
                if self.closed:
                    raise EOFError("console closed (QEMU exited?)")
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self.cv.wait(min(left, 0.5))

    def expect_json(self, typ, timeout, cond=lambda j: True):
        """The next unconsumed @gemlab message of type @typ with cond(j)."""
        line = self.expect(lambda ln: (lambda j: j is not None and j.get("type") == typ and cond(j))
                           (parse_line(ln)), timeout)
        return None if line is None else parse_line(line)

    def mark(self):
        with self.cv:
            return len(self.lines)

    def wait_json(self, pred, since=0, timeout=10.0):
        """The first message at or after line @since with pred(j); None
        after @timeout or when the console closed.  Consumes nothing."""
        end = self._end(timeout)
        with self.cv:
            k = 0
            while True:
                while k < len(self.msgs):
                    idx, j = self.msgs[k]
                    k += 1
                    if idx >= since and pred(j):
                        return j
                if self.closed:
                    return None
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self.cv.wait(min(left, 0.5))

    def messages(self, start=0, end=None):
        """The messages printed on lines [start, end) (marks)."""
        with self.cv:
            return [j for i, j in self.msgs if i >= start and (end is None or i < end)]

    def command(self, line, pred, timeout):
        """send(@line), then wait_json(pred) over what it printed."""
        m = self.mark()
        self.send(line)
        return self.wait_json(pred, m, timeout)

    def tail(self, n=40):
        with self.cv:
            return self.lines[-n:] + ([self._buf] if self._buf else [])

    def close(self):
        self._stop = True
        self.t.join(2)
        if not isinstance(self.f, int):
            try:
                self.f.close()
            except OSError:
                pass
        if self.log:
            self.log.close()


def is_type(t):
    """A wait_json() predicate: the message's type is @t."""
    return lambda m: m.get("type") == t
