"""gemlab_test.qmp against a fake QMP server on a socketpair."""
import json
import socket
import threading

import pytest

from gemlab_test.qmp import Qmp, QmpClosed, QmpError, QmpTimeout

GREETING = {"QMP": {"version": {"qemu": {"major": 7, "minor": 2, "micro": 0}}, "capabilities": []}}


class FakeQemu:
    """Answers each command line with script[cmd] (a list of objects to
    send, or None to stay silent); records what it received."""

    def __init__(self, script, greeting=GREETING):
        self.c, self.s = socket.socketpair()
        self.script = dict(script)
        self.got = []
        self.s.sendall(json.dumps(greeting).encode() + b"\n")
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        f = self.s.makefile("rb")
        for line in f:
            req = json.loads(line)
            self.got.append(req)
            cmd = req["execute"]
            ans = self.script.get(cmd, [{"return": {}}])
            if ans is None:
                continue
            if ans == "close":
                self.s.close()
                return
            for a in ans:
                self.s.sendall(json.dumps(a).encode() + b"\n")


def test_negotiates_then_returns_the_commands_value():
    q = FakeQemu({"query-status": [{"return": {"status": "running"}}]})
    m = Qmp(q.c)
    assert m.greeting["version"]["qemu"]["major"] == 7
    assert m.execute("query-status") == {"status": "running"}
    assert [r["execute"] for r in q.got] == ["qmp_capabilities", "query-status"]


def test_arguments_are_sent_as_the_arguments_member():
    q = FakeQemu({"qom-get": [{"return": 42}]})
    m = Qmp(q.c)
    assert m.qom_get("stat-rx-wire-sent") == 42
    assert q.got[1] == {"execute": "qom-get", "arguments": {"path": "/machine/gem0/gemlab-link", "property": "stat-rx-wire-sent"}}


def test_error_raises_with_class_and_desc():
    q = FakeQemu({"qom-set": [{"error": {"class": "GenericError", "desc": "tx-loss-pct: 200 > 100"}}]})
    m = Qmp(q.c)
    with pytest.raises(QmpError) as e:
        m.qom_set("tx-loss-pct", 200)
    assert e.value.cls == "GenericError" and "tx-loss-pct: 200 > 100" in str(e.value)
    assert "qom-set" in str(e.value)


def test_events_before_the_answer_are_queued_not_returned():
    ev = {"event": "NIC_RX_FILTER_CHANGED", "data": {}, "timestamp": {"seconds": 1, "microseconds": 0}}
    q = FakeQemu({"cont": [ev, {"return": {}}], "stop": [{"event": "STOP"}, {"return": {}}]})
    m = Qmp(q.c)
    assert m.execute("cont") == {}
    assert m.execute("stop") == {}
    assert m.wait_event("STOP", 1)["event"] == "STOP"
    assert m.wait_event("NIC_RX_FILTER_CHANGED", 1) == ev
    assert m.wait_event("STOP", 0.1) is None


def test_silent_qemu_times_out_naming_the_command():
    q = FakeQemu({"query-status": None})
    m = Qmp(q.c)
    with pytest.raises(QmpTimeout, match="query-status"):
        m.execute("query-status", timeout=0.2)


def test_closed_connection_is_reported():
    q = FakeQemu({"quit": "close"})
    m = Qmp(q.c)
    with pytest.raises(QmpClosed, match="closed"):
        m.execute("quit")


def test_a_server_that_is_not_qmp_is_refused():
    q = FakeQemu({}, greeting={"hello": 1})
    with pytest.raises(QmpError, match="greeting"):
        Qmp(q.c)


def test_connect_to_a_missing_socket_fails_naming_it(tmp_path):
    with pytest.raises(ConnectionError, match="nothing.sock"):
        Qmp.connect(str(tmp_path / "nothing.sock"), timeout=0.2)
