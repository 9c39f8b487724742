"""tests/bench/Makefile's script benchmarks and bench_bases.py's argument
checks (no benchmark runs, < 2 s; make test-runner runs it with the
aggregate suite).  Every DIR/bench_NAME.py is a bench named NAME, so one
directory can hold two: tests/bench/qemu has `qemu` and `bases`."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BASES = os.path.join(HERE, "qemu", "bench_bases.py")


def make(*args):
    """make in tests/bench; only `list` (echo) and `-n` of a target whose
    recipe has no $(MAKE) - never `run`, whose loop `make -n` executes."""
    r = subprocess.run(["make", "-s", "--no-print-directory", "-C", HERE] + list(args),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_each_script_is_a_bench_named_after_its_file():
    for name, script in (("bases", "qemu/bench_bases.py"), ("qemu", "qemu/bench_qemu.py"),
                         ("baremetal", "baremetal/bench_baremetal.py"), ("vt", "vt/bench_vt.py"),
                         ("calibration", "calibration/bench_calibration.py")):
        out = make("-n", "run-" + name)
        assert re.search(r"BENCH_JSON=\S*/bench/%s\.json \./%s\b" % (name, re.escape(script)), out), out


def test_b_selects_one_script_bench_of_a_shared_directory():
    assert make("list", "B=bases").split() == ["bases"]
    assert make("list", "B=qemu").split() == ["qemu"]
    every = make("list").split()
    assert {"models", "bases", "qemu", "baremetal", "linux", "vt", "calibration"} <= set(every), every
    assert len(every) == len(set(every)), every


def bases(**env):
    e = dict(os.environ, BUILD="0", **env)
    r = subprocess.run([sys.executable, BASES], capture_output=True, text=True, env=e, timeout=60)
    return r.returncode, r.stdout + r.stderr


def test_bases_refuses_bad_settings_naming_them():
    for k, v in (("SMP", "3"), ("ROUNDS", "0"), ("SECS", "x"), ("PERF", "-1")):
        rc, out = bases(**{k: v})
        assert rc != 0 and "%s=" % k in out, (k, v, rc, out)


def test_calibration_refuses_bad_settings_naming_them():
    script = os.path.join(HERE, "calibration", "bench_calibration.py")
    for k, v in (("TARGET_MBPS", "x"), ("SECS", "1"), ("MAX_PROBES", "0"), ("MIPS", "-5")):
        r = subprocess.run([sys.executable, script], capture_output=True, text=True,
                           env=dict(os.environ, **{k: v}), timeout=60)
        assert r.returncode == 2 and "%s=%r" % (k, v) in r.stderr, (k, v, r.returncode, r.stderr)
