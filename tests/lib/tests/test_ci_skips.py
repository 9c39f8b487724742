"""tests/conftest.py's rules (issue 20: a skip is not a pass): the closing
'NAME: N passed, M failed[, K skipped]' line, a skip that fails under
CI=true unless marked todo or a timing skip, a run of no test failing,
and the netns suites skipping (then failing under CI) without root.
Each case runs pytest on a small test file in a copy of tests/'s
pytest.ini, conftest.py and lib/."""
import os
import re
import pathlib
import shutil
import subprocess
import sys
import tempfile

import pytest

from gemlab_test.paths import TOP

TESTS = os.path.join(TOP, "tests")


@pytest.fixture
def tree(tmp_path):
    t = tmp_path / "tests"
    shutil.copytree(os.path.join(TESTS, "lib"), str(t / "lib"), ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("pytest.ini", "conftest.py"):
        shutil.copy(os.path.join(TESTS, f), str(t / f))
    return t


def pytest_run(tree, body, ci, name="demo"):
    (tree / "test_demo.py").write_text(body)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("CI", None)
    if ci:
        env["CI"] = "true"
    r = subprocess.run([sys.executable, "-m", "pytest", "-c", str(tree / "pytest.ini"), "--suite=" + name,
                        "-p", "no:cacheprovider", str(tree / "test_demo.py")],
                       capture_output=True, text=True, env=env, cwd=str(tree))
    return r.returncode, r.stdout + r.stderr


@pytest.fixture
def nobody_dir():
    """A directory nobody can write to (pytest's tmp_path is below a 0700
    directory)."""
    d = tempfile.mkdtemp(prefix="gemlab-nobody.")
    os.chmod(d, 0o777)
    yield pathlib.Path(d)
    shutil.rmtree(d, ignore_errors=True)


SKIP = "import pytest\ndef test_a():\n    pass\ndef test_b():\n    pytest.skip('no gnuplot')\n"


def test_a_skip_is_counted_apart_outside_ci(tree):
    rc, out = pytest_run(tree, SKIP, ci=False)
    assert rc == 0 and "demo: 1 passed, 0 failed, 1 skipped" in out, out


def test_a_skip_fails_under_ci_naming_why(tree):
    rc, out = pytest_run(tree, SKIP, ci=True)
    assert rc == 1 and "demo: 1 passed, 1 failed" in out, out
    assert "skipped under CI=true, and a skip is not a pass" in out and "no gnuplot" in out, out


def test_a_todo_skip_stays_a_skip_under_ci(tree):
    rc, out = pytest_run(tree, "import pytest\n@pytest.mark.todo\ndef test_b():\n    pytest.skip('later')\n",
                         ci=True)
    assert rc == 0 and "demo: 0 passed, 0 failed, 1 skipped" in out, out


def test_a_timing_skip_stays_a_skip_under_ci_with_a_github_warning(tree):
    body = ("from gemlab_test.fixtures import timing_skip\ndef test_t():\n"
            "    timing_skip('bm', '100M TCP', '90.1 Mb/s, QEMU waited 59 %')\n")
    rc, out = pytest_run(tree, body, ci=True)
    assert rc == 0 and "demo: 0 passed, 0 failed, 1 skipped" in out, out
    assert "::warning title=bm: timing check not counted::100M TCP: 90.1 Mb/s, QEMU waited 59 %25" in out, out
    rc, out = pytest_run(tree, body, ci=False)
    assert rc == 0 and "::warning" not in out, out


def test_errors_count_as_failed(tree):
    body = "import pytest\n@pytest.fixture\ndef f():\n    raise OSError('x')\ndef test_e(f):\n    pass\n"
    rc, out = pytest_run(tree, body, ci=False)
    assert rc == 1 and "demo: 0 passed, 1 failed" in out, out


def test_a_run_of_no_test_fails(tree):
    rc, out = pytest_run(tree, "X = 1\n", ci=False)
    assert rc != 0 and "demo: no test ran" in out and "demo: 0 passed, 1 failed" in out, out


@pytest.mark.parametrize("suite,least", [("ourqemu", 37), ("rxcsum", 10)])
def test_netns_suites_without_root_skip_then_fail_under_ci(nobody_dir, suite, least):
    """As root the suite runs as nobody (setpriv) from a world-readable
    copy; it must skip every case it collects (at least @least) for want
    of root, never pass one, and under CI=true fail them."""
    user = []
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.fail("setpriv missing (util-linux)")
        user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    tmp_path = nobody_dir
    # a copy nobody can read, wherever the checkout is (CI's may be private)
    t = tmp_path / "tests"
    shutil.copytree(os.path.join(TESTS, "lib"), str(t / "lib"), ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(os.path.join(TESTS, "qemu", "baremetal"), str(t / "qemu" / "baremetal"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("pytest.ini", "conftest.py"):
        shutil.copy(os.path.join(TESTS, f), str(t / f))
    subprocess.run(["chmod", "-R", "a+rX", str(t)], check=True)
    test = str(t / "qemu" / "baremetal" / ("test_%s.py" % suite))
    for ci in (False, True):
        bt = tmp_path / ("bt-ci" if ci else "bt")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONDONTWRITEBYTECODE": "1"}
        if ci:
            env["CI"] = "true"
        r = subprocess.run(user + ["/usr/bin/python3", "-m", "pytest", "-c", str(t / "pytest.ini"),
                                   "--suite=" + suite, "--basetemp=%s" % bt, "--fw=/nonexistent.elf", test],
                           capture_output=True, text=True, env=env, cwd=str(tmp_path))
        out = r.stdout + r.stderr
        m = re.search(r"collected (\d+) items", out)
        assert m and int(m.group(1)) >= least, out[-2000:]
        n = int(m.group(1))
        if ci:
            assert r.returncode == 1 and "%s: 0 passed, %d failed" % (suite, n) in out, out[-2000:]
            assert "needs root" in out and "skipped under CI=true" in out, out[-2000:]
        else:
            assert r.returncode == 0 and "%s: 0 passed, 0 failed, %d skipped" % (suite, n) in out, out[-2000:]
