"""The tests' Zynq QEMU command line (gemlab_test.board.zynq_argv) is the
runner's (emu/runner/qemu.c qemu_build_argv): `gemlab boot --fw ELF`
writes RUN_DIR/qemu.argv, and zynq_argv for the same sockets and image
must give the same words, less what only the runner adds (the second
QMP socket for `gemlab fault`, and -sandbox / -runas hardening).  A
change to either side that the other lacks fails here.  Run by make
test-runner ("board-argv: N passed, M failed")."""
import os
import subprocess

from gemlab_test import board, paths

GEMLAB = os.environ.get("GEMLAB") or os.path.join(paths.build_dir(), "host", "bin", "gemlab")
RUNNER_ONLY = ("-sandbox", "-runas")


def runner_only(argv, fault_sock):
    """@argv without the runner-only options and their values."""
    out, skip = [], False
    for k, w in enumerate(argv):
        if skip:
            skip = False
            continue
        if w in RUNNER_ONLY or (w == "-qmp" and argv[k + 1].startswith("unix:" + fault_sock)):
            skip = True
            continue
        out.append(w)
    return out


def test_zynq_argv_is_the_runners(tmp_path, fw, our_qemu):
    assert os.access(GEMLAB, os.X_OK), "no gemlab at %s (make runner)" % GEMLAB
    rd = str(tmp_path / "boot")
    r = subprocess.run([GEMLAB, "boot", "--qemu", our_qemu, "--fw", fw, "--out", rd, "--hold", "0",
                        "--timeout", "30"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    with open(os.path.join(rd, "qemu.argv")) as f:
        theirs = f.read().splitlines()
    ours = board.zynq_argv(our_qemu, fw, qmp=os.path.join(rd, "qmp.sock"), serial=os.path.join(rd, "serial.sock"))
    assert runner_only(theirs, os.path.join(rd, "fault.sock")) == ours, "runner %s\ntests  %s" % (theirs, ours)
