"""Shared pytest hooks and fixtures of gemlab's Python suites.

  --suite=NAME   the closing line is "NAME: N passed, M failed[, K skipped]"
                 (make test's plain summary; errors count as failed);
  (pass options as --opt=VALUE: pytest parses the command line once before
  this file registers them)
  CI=true        a skip fails, unless the test is marked todo or skipped
                 as a timing check (gemlab_test.fixtures.timing_skip);
  root           fixture: skip without root (fails under CI=true, where
                 CI runs as root in a --privileged container);
  our_qemu       fixture: gemlab's patched QEMU, or the test fails saying
                 how to build it.
"""
import os

import pytest

from gemlab_test import paths
from gemlab_test.board import Board
from gemlab_test.fixtures import TIMING, WARNINGS


def pytest_addoption(parser):
    parser.addoption("--suite", default=None, help="name of the closing 'N passed, M failed' line")
    parser.addoption("--fw", default=None, help="firmware image (default: the qemu-zynq ELF under $O)")


def pytest_configure(config):
    # --basetemp DIR: pytest creates DIR but not its parent, which a fresh
    # clone does not have yet (build/test-results/ before the first suite)
    bt = config.option.basetemp
    if bt:
        os.makedirs(os.path.dirname(os.path.abspath(str(bt))), exist_ok=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    out = yield
    rep = out.get_result()
    if rep.failed and call.when == "call":
        b = next((v for v in item.funcargs.values() if isinstance(v, Board)), None)
        if b is None:
            b = getattr(item.module, "GEMLAB_BOARD", None)
        if b is not None:
            rep.sections.append(("last 40 console lines", "\n".join(ln[:300] for ln in b.tail(40))))
            rep.sections.append(("qemu output", "\n".join(b.qemu_log_tail(10))))
    if rep.skipped and paths.ci() and not hasattr(rep, "wasxfail") and item.get_closest_marker("todo") is None:
        reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) else str(rep.longrepr)
        if TIMING not in reason:
            rep.outcome = "failed"
            rep.longrepr = "skipped under CI=true, and a skip is not a pass: %s" % reason


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    for w in WARNINGS:
        terminalreporter.write_line(w)
    name = config.getoption("--suite")
    if not name:
        return
    st = terminalreporter.stats
    n = {k: len([r for r in st.get(k, []) if getattr(r, "when", "call") in ("call", "setup", "teardown")])
         for k in ("passed", "failed", "error", "skipped")}
    passed = len([r for r in st.get("passed", []) if r.when == "call"])
    failed = n["failed"] + n["error"]
    if passed + failed + n["skipped"] == 0:
        failed = 1
        terminalreporter.write_line("%s: no test ran (a suite that runs nothing is a failure)" % name)
    line = "%s: %d passed, %d failed" % (name, passed, failed)
    if n["skipped"]:
        line += ", %d skipped" % n["skipped"]
    terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def fw(request):
    """--fw, else the build's qemu-zynq ELF."""
    return request.config.getoption("--fw") or paths.baremetal_elf()


@pytest.fixture(scope="session")
def root():
    if os.geteuid() != 0:
        pytest.skip("needs root for a private netns + tap")


@pytest.fixture(scope="session")
def any_qemu():
    """$QEMU, else the system's qemu-system-arm (stock QEMU will do)."""
    return os.environ.get("QEMU") or "qemu-system-arm"


@pytest.fixture(scope="session")
def our_qemu():
    q = paths.our_qemu()
    if not q:
        pytest.fail("neither $QEMU nor emu/qemu's build is gemlab's patched QEMU (no cadence_gem "
                    "partner-abilities): build it with make -C emu/qemu", pytrace=False)
    return q
