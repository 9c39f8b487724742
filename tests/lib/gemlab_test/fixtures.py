"""Helpers for pytest fixtures and tests of gemlab's suites (tests/conftest.py
registers the hooks that go with them)."""
import os

import pytest

from . import paths
from .board import Board

TIMING = "timing, not a pass"
WARNINGS = []          # GitHub ::warning lines, printed at the end of the run


def timing_skip(suite, name, why):
    """A real-time check the host's scheduling decided, not the firmware:
    skipped with a reason that says it is not a pass, raised as a GitHub
    warning under CI (where it stays a skip: without virtual time a
    real-time rate cannot be made deterministic on a shared host)."""
    if paths.ci():      # printed by pytest_terminal_summary: test output is captured
        WARNINGS.append(paths.gh_warning("%s: timing check not counted" % suite, "%s: %s" % (name, why), False))
    pytest.skip("%s: %s: %s" % (TIMING, name, why))


def boot(request, tmp_path_factory, fw, qemu, name, **kw):
    """A Board for a module- or class-scoped fixture: started in a fresh
    run directory (kept under pytest's --basetemp), set as the module's
    GEMLAB_BOARD (its console tail goes into failure reports), stopped when the
    fixture's scope ends."""
    if not os.path.exists(fw):
        pytest.fail("no firmware at %s (make -C firmware/baremetal, or firmware/linux)" % fw, pytrace=False)
    b = Board(fw, str(tmp_path_factory.mktemp(name)), qemu, **kw)
    request.module.GEMLAB_BOARD = b
    request.addfinalizer(b.stop)
    return b
