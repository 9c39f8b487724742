"""gemlab_test.console on a socketpair and on a pty."""
import os
import pty
import socket
import time

import pytest

from gemlab_test.console import Console, is_type


@pytest.fixture
def pair(tmp_path):
    a, b = socket.socketpair()
    c = Console(a, log=str(tmp_path / "console.log"))
    yield c, b
    b.close()
    c.close()


def test_lines_are_assembled_across_reads_and_cr_dropped(pair):
    c, b = pair
    b.sendall(b"hel")
    b.sendall(b"lo\r\nwor")
    b.sendall(b"ld\r\n")
    assert c.expect(lambda ln: ln == "hello", 2) == "hello"
    assert c.expect(lambda ln: ln == "world", 2) == "world"


def test_control_characters_are_dropped_from_lines_kept_in_log(pair, tmp_path):
    c, b = pair
    b.sendall(b"\x07error: line too long\x1b[0m\n")
    assert c.expect(lambda ln: ln == "error: line too long[0m", 2)
    c.close()
    assert "\x07error" in (tmp_path / "console.log").read_text()


def test_expect_consumes_and_times_out(pair):
    c, b = pair
    b.sendall(b"a\nb\n")
    assert c.expect(lambda ln: ln == "b", 2) == "b"
    assert c.expect(lambda ln: ln == "a", 0.2) is None      # already passed


def test_send_writes_cr_and_skips_earlier_output(pair):
    c, b = pair
    b.sendall(b"usage: old\n")
    assert c.expect(lambda ln: ln == "usage: old", 2)
    b.sendall(b"usage: phy\n")
    time.sleep(0.2)                     # the reader has the line before send()
    c.send("phy bogus")
    assert b.recv(100) == b"phy bogus\r"
    assert c.expect(lambda ln: ln.startswith("usage:"), 0.2) is None
    b.sendall(b"usage: phy force\n")
    assert c.expect(lambda ln: ln.startswith("usage:"), 2) == "usage: phy force"


def test_gemlab_json_lines_are_messages_and_garbage_is_not(pair):
    c, b = pair
    b.sendall(b'x @gemlab {"type":"link","up":false}\n@gemlab {"type":"link", garbage\n'
              b'@gemlab {"type":"link","up":true,"speed_mbps":1000}\n')
    j = c.expect_json("link", 2, lambda j: j.get("up") is True)
    assert j == {"type": "link", "up": True, "speed_mbps": 1000}
    assert c.wait_json(is_type("link"), 0, 1) == {"type": "link", "up": False}


def test_wait_json_looks_only_after_the_mark(pair):
    c, b = pair
    b.sendall(b'@gemlab {"type":"stats","n":1}\n')
    assert c.wait_json(is_type("stats"), 0, 2)["n"] == 1
    m = c.mark()
    assert c.wait_json(is_type("stats"), m, 0.2) is None
    b.sendall(b'@gemlab {"type":"stats","n":2}\n')
    assert c.wait_json(is_type("stats"), m, 2)["n"] == 2


def test_eof_raises_in_expect_and_ends_wait_json(pair):
    c, b = pair
    b.sendall(b"last\n")
    b.close()
    assert c.expect(lambda ln: ln == "last", 2) == "last"
    with pytest.raises(EOFError):
        c.expect(lambda ln: False, 2)
    assert c.wait_json(is_type("x"), 0, 2) is None


def test_reads_a_pty():
    master, slave = pty.openpty()
    c = Console(master)
    try:
        os.write(slave, b'@gemlab {"type":"ready"}\n')
        assert c.expect_json("ready", 2) == {"type": "ready"}
    finally:
        os.close(slave)
        c.close()
        os.close(master)
