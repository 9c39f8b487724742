"""Fixtures the bare-metal suites share: the netns, and the firmware's
ready and first link-up lines of the module's board (fixture `b`)."""
import pytest

from gemlab_test import net


@pytest.fixture(scope="module")
def ns(root, request):
    """A private netns + tap for the module's board (root only)."""
    n = net.Netns(request.module.__name__[5:12]).create()
    yield n
    n.close()


@pytest.fixture(scope="module")
def ready(b):
    j = b.con.expect_json("ready", 30)
    assert j, "no ready line within 30 s"
    return j


@pytest.fixture(scope="module")
def link(b, ready):
    """The first link-up line, None if none came within 20 s."""
    return b.con.expect_json("link", 20, lambda j: j.get("up") is True)
