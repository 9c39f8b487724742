"""What the bench scripts (tests/bench/*/bench_*.py) share."""
import json
import os
import shutil
import statistics
import sys


def mmm(xs, ndigits=None, runs=False):
    """min / median / max / n of the numbers in @xs (None left out), each
    rounded to @ndigits when given, plus the list itself with runs=True;
    None when nothing is left."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return None
    r = {"min": min(xs), "median": statistics.median(xs), "max": max(xs)}
    if ndigits is not None:
        r = {k: round(v, ndigits) for k, v in r.items()}
    r["n"] = len(xs)
    if runs:
        r["runs"] = xs
    return r


def write_json(obj):
    """@obj to $BENCH_JSON (the file tests/bench/Makefile names; nothing
    when unset); the path, or None."""
    path = os.environ.get("BENCH_JSON")
    if path:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as f:
            json.dump(obj, f, indent=1)
            f.write("\n")
    return path


class Reaper:
    """What a bench script has started and must end however it stops:
    each thing with the call that ends it.  keep() returns the thing,
    end() ends one now, forget() drops one that ended by itself, and
    close() (run_main's cleanup) ends the rest, the last kept first."""

    def __init__(self):
        self._kept = []                 # [(thing, end)]

    def keep(self, thing, end):
        self._kept.append((thing, end))
        return thing

    def forget(self, thing):
        self._kept = [(t, e) for t, e in self._kept if t is not thing]

    def end(self, thing):
        ends = [e for t, e in self._kept if t is thing]
        self.forget(thing)
        for e in ends:
            e(thing)

    def close(self):
        while self._kept:
            thing, end = self._kept.pop()
            end(thing)


def kill(p):
    """End a Popen, or what holds one in .proc (iperf.Iperf), and reap it."""
    p = getattr(p, "proc", p)
    if p.poll() is None:
        p.kill()
        p.wait()


def stop_board(b):
    """Stop a board.Board and remove its run directory."""
    b.stop()
    shutil.rmtree(b.rundir, ignore_errors=True)


def run_main(main, name, errors=(RuntimeError,), cleanup=None):
    """sys.exit(main()) for a bench script @name: an exception in @errors
    is printed as "NAME: error" (exit 1), a signal's exit
    (proc.exit_on_signals) is said, and @cleanup runs however it ends."""
    rc = 1
    try:
        rc = main()
    except errors as e:
        print("%s: %s" % (name, e), file=sys.stderr)
    except SystemExit as e:
        if not (isinstance(e.code, int) and e.code > 128):
            raise                   # sys.exit(...) of the script's own
        rc = e.code
        print("%s: stopped by signal %d; cleaning up" % (name, rc - 128), file=sys.stderr)
    finally:
        if cleanup:
            cleanup()
    sys.exit(rc)
