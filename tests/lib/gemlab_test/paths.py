"""Where things are: the tree, the build output, our patched QEMU."""
import os
import subprocess

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


def build_dir():
    """$O (make's output tree) or TOP/build."""
    return os.environ.get("O") or os.path.join(TOP, "build")


def baremetal_elf(variant=None):
    """The qemu-zynq firmware ELF; variant "csum-offload" is the
    GEM_CSUM_OFFLOAD=1 build (firmware/baremetal/Makefile CSUM_O)."""
    parts = [build_dir()] + ([variant] if variant else []) + ["baremetal", "qemu-zynq", "gemlab-fw.elf"]
    return os.path.join(*parts)


def device_help(qemu, driver):
    """`-device DRIVER,help` of @qemu, "" when it does not run."""
    try:
        r = subprocess.run([qemu, "-M", "none", "-device", driver + ",help"],
                           capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return r.stdout if r.returncode == 0 else ""


def gem_props(qemu):
    """The properties of @qemu's GEM and of its link model, as `-device
    cadence_gem,help` and `-device gemlab-link,help` list them (our QEMU
    10.0 puts the model's on the gemlab-link, 7.2 on the GEM: the
    runner's qemu_gem_props, emu/runner/qemu.c); "" when it does not run."""
    return device_help(qemu, "cadence_gem") + device_help(qemu, "gemlab-link")


def is_patched(qemu):
    """True when @qemu's GEM has gemlab's link model (its partner-abilities property)."""
    return "partner-abilities" in gem_props(qemu)


def our_qemu():
    """gemlab's patched qemu-system-arm: $QEMU when it is that one, else
    emu/qemu's build (`make -s -C emu/qemu path`); None if neither is."""
    cands = [os.environ["QEMU"]] if os.environ.get("QEMU") else []
    r = subprocess.run(["make", "-s", "--no-print-directory", "-C", os.path.join(TOP, "emu", "qemu"), "path"],
                       capture_output=True, text=True, check=False)
    if r.stdout.strip():
        cands.append(r.stdout.strip())
    for q in cands:
        if is_patched(q):
            return q
    return None


def ci():
    """True under CI=true: there a check that cannot run is a failure,
    not a skip (issue 20)."""
    return os.environ.get("CI") == "true"


def gh_warning(title, text, print_it=True):
    """A GitHub Actions warning annotation (workflow command `::warning`,
    docs.github.com "Workflow commands for GitHub Actions"): a check that
    did not count shows on the run's page.  Data escapes '%', CR and LF
    as %25, %0D, %0A.  Returns the line; prints it too unless print_it
    is False (pytest captures test output: conftest prints it at the end)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    title = title.replace("%", "%25").replace(",", "%2C").replace("::", ": :")
    line = "::warning title=%s::%s" % (title, text)
    if print_it:
        print(line, flush=True)
    return line
