"""/proc readers (proc(5)): CPU time, resident memory, scheduler wait."""
import os


def cpu_s(pid):
    """User + system CPU seconds of @pid so far (/proc/PID/stat fields 14
    and 15, in clock ticks); None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            rest = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid):
    """VmRSS of @pid in kB (/proc/PID/status), None when unknown."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def children(pid):
    """Direct children of @pid (/proc/PID/task/PID/children)."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        return []


def find_comm(pid, prefix):
    """@pid or its first descendant whose comm starts with @prefix (the
    process behind `ip netns exec` or a wrapper); None."""
    todo = [pid]
    while todo:
        p = todo.pop(0)
        try:
            with open("/proc/%d/comm" % p) as f:
                if f.read().startswith(prefix):
                    return p
        except OSError:
            continue
        todo += children(p)
    return None


def sched_wait_ns(pid):
    """Nanoseconds all threads of @pid spent runnable but waiting for a CPU
    (schedstat run_delay, field 2 of /proc/PID/task/TID/schedstat), summed;
    None when unknown.  Its growth over a run divided by the wall time says
    how much the host starved the process."""
    total = 0
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return total


def exit_on_signals():
    """SIGINT/SIGTERM/SIGHUP raise SystemExit(128 + signal), so a script's
    finally blocks tear down what it started (signal(7))."""
    import signal

    def h(sig, _frm):
        raise SystemExit(128 + sig)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, h)
