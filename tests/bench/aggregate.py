#!/usr/bin/env python3
"""aggregate.py - the `make bench` summary: build/bench/results.json and one
combined table.

    aggregate.py start DIR                  machine state before the first
                                            bench -> DIR/.start.json
    aggregate.py status DIR NAME RC T0      one bench's exit code and wall
                                            time since epoch T0 (date +%s.%N)
                                            -> DIR/NAME.status.json
    aggregate.py finish DIR NAME...         DIR/results.json + the table;
                                            exits 1 when any bench failed or
                                            wrote no JSON
    aggregate.py table [--md] RESULTS.json  the table again (--md: Markdown,
                                            what docs/BENCHMARKS.md quotes)

results.json (schema gemlab-bench-results-1):
    machine   CPU model, cores, RAM, kernel, OS, git rev, date and load
              average at start and end
    benches   NAME -> {status: ok|failed|missing, rc, wall_s, result}
              (result = the JSON the bench wrote to $BENCH_JSON, or null)
    recorded  figures read, not measured, by this run: the wall time of the
              last `make qemu-test` from its JUnit file (with the file's
              date and how many scenarios it ran)

Every bench stays in the aggregate: one that exits non-zero is "failed",
one that exits 0 without writing its JSON is "missing"; both are in the
table and make `finish` exit 1.  Nothing here judges a figure.
"""
import glob, json, os, platform, subprocess, sys, time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
SCHEMA = "gemlab-bench-results-1"


def rel(p):
    """A path relative to the top when it is inside the tree."""
    p = os.path.abspath(p)
    return os.path.relpath(p, TOP) if p.startswith(TOP + os.sep) else p


def now_iso():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def ram_mib():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    return None


def os_name():
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return None


def git(*args):
    try:
        return subprocess.run(["git", "-C", TOP] + list(args), capture_output=True,
                              text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine_start():
    return {
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "ram_mib": ram_mib(),
        "kernel": platform.release(),
        "os": os_name(),
        "git_rev": git("rev-parse", "--short=12", "HEAD") or None,
        "git_dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
        "date_start": now_iso(),
        "loadavg_start": loadavg(),
    }


def qemu_test_recorded():
    """The last `make qemu-test` JUnit file(s): wall time as recorded."""
    out = []
    for p in sorted(glob.glob(os.path.join(TOP, "build", "test-results", "qemu-test*.xml"))):
        try:
            root = ET.parse(p).getroot()
        except (ET.ParseError, OSError) as e:
            out.append({"file": rel(p), "error": str(e)})
            continue
        cases = root.findall("testcase")
        out.append({
            "file": rel(p),
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.path.getmtime(p))),
            "tests": int(root.get("tests", len(cases))),
            "failures": int(root.get("failures", 0)),
            "skipped": int(root.get("skipped", 0)),
            "wall_s": float(root.get("time", 0)),
            "scenarios_in_tree": len(glob.glob(os.path.join(TOP, "scenarios", "*.ini"))),
            "cases_s": {c.get("name"): float(c.get("time", 0)) for c in cases},
        })
    return out


def finish(d, names):
    try:
        with open(os.path.join(d, ".start.json")) as f:
            machine = json.load(f)
    except (OSError, ValueError):
        machine = machine_start()
        machine["note"] = "no start record: start figures taken at the end"
    machine["date_end"] = now_iso()
    machine["loadavg_end"] = loadavg()
    benches = {}
    for n in names:
        ent = {"status": "missing", "rc": None, "wall_s": None, "result": None}
        try:
            with open(os.path.join(d, n + ".status.json")) as f:
                st = json.load(f)
            ent["rc"], ent["wall_s"] = st["rc"], st["wall_s"]
        except (OSError, ValueError, KeyError):
            ent["error"] = "the bench never ran (no status record)"
        p = os.path.join(d, n + ".json")
        if ent["rc"] is not None:
            try:
                with open(p) as f:
                    ent["result"] = json.load(f)
            except OSError:
                ent["error"] = "exited %d without writing %s" % (ent["rc"], rel(p))
            except ValueError as e:
                ent["error"] = "%s is not JSON: %s" % (rel(p), e)
            if ent["rc"] != 0:
                ent["status"] = "failed"
                ent.setdefault("error", "exit %d" % ent["rc"])
            elif ent["result"] is not None:
                ent["status"] = "ok"
        benches[n] = ent
    res = {"schema": SCHEMA, "machine": machine, "benches": benches,
           "recorded": {"qemu_test": qemu_test_recorded()}}
    out = os.path.join(d, "results.json")
    with open(out + ".tmp", "w") as f:
        json.dump(res, f, indent=1)
        f.write("\n")
    os.replace(out + ".tmp", out)
    print(table(res, md=False))
    print("wrote %s" % rel(out))
    bad = [n for n, e in benches.items() if e["status"] != "ok"]
    if bad:
        print("make bench: %d of %d benchmarks did not produce results: %s"
              % (len(bad), len(benches), ", ".join("%s (%s)" % (n, benches[n]["status"]) for n in bad)),
              file=sys.stderr)
        return 1
    return 0


# ---- the table: every min/median/max triple a bench wrote ------------------

def triples(obj, path=""):
    """Yield (path, min, median, max, n) for {min,median,max} objects and for
    sibling keys X_min/X_median/X_max; skip per-run lists."""
    if isinstance(obj, dict):
        if all(k in obj for k in ("min", "median", "max")):
            yield path, obj["min"], obj["median"], obj["max"], obj.get("n")
            return
        done = set()
        for k in obj:
            if k.endswith("_median"):
                base = k[:-len("_median")]
                if base + "_min" in obj and base + "_max" in obj:
                    yield ((path + "." if path else "") + base, obj[base + "_min"], obj[k],
                           obj[base + "_max"], obj.get(base + "_n"))
                    done.update((base + "_min", k, base + "_max"))
        for k, v in obj.items():
            if k in done or k == "runs" or k == "repeats":
                continue
            yield from triples(v, (path + "." if path else "") + k)


def singles(obj, path="", wanted=False):
    """Scalars worth a row: ratios (and every number under a ratio key),
    instructions, theory."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            p = (path + "." if path else "") + k
            if k in ("runs", "repeats"):
                continue
            w = wanted or any(x in k for x in ("ratio", "instructions", "theory"))
            if isinstance(v, (int, float)) and not isinstance(v, bool) and w:
                yield p, v
            elif isinstance(v, dict):
                yield from singles(v, p, w and "ratio" in p)


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, float):
        if abs(x) >= 1e6:
            return "%.4g" % x
        return "%.4g" % x if abs(x) < 1000 else "%.0f" % x
    return str(x)


def table(res, md):
    rows = []
    for n, e in res["benches"].items():
        if e["status"] != "ok":
            rows.append((n, "** %s ** %s" % (e["status"].upper(), e.get("error", "")), "", "", "", ""))
            continue
        for p, lo, med, hi, cnt in triples(e["result"]):
            rows.append((n, p, fmt(lo), fmt(med), fmt(hi), fmt(cnt)))
        for p, v in singles(e["result"]):
            rows.append((n, p, "", fmt(v), "", ""))
    for q in res.get("recorded", {}).get("qemu_test", []):
        if "error" in q:
            continue
        rows.append(("qemu-test (recorded)", "%s: %d scenario runs of %d scenarios, %s"
                     % (q["file"], q["tests"], q["scenarios_in_tree"], q["date"]),
                     "", fmt(q["wall_s"]) + " s", "", ""))
    hdr = ("bench", "figure", "min", "median", "max", "n")
    m = res["machine"]
    head = ("machine: %s, %s cores, %s MiB, kernel %s, git %s%s; load %s -> %s"
            % (m.get("cpu_model"), m.get("cores"), m.get("ram_mib"), m.get("kernel"), m.get("git_rev"),
               "+dirty" if m.get("git_dirty") else "",
               "/".join("%.2f" % x for x in m.get("loadavg_start", [])),
               "/".join("%.2f" % x for x in m.get("loadavg_end", []))))
    if md:
        lines = ["| " + " | ".join(hdr) + " |", "|" + "---|" * len(hdr)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return head + "\n\n" + "\n".join(lines)
    w = [max(len(r[i]) for r in rows + [hdr]) for i in range(len(hdr))]
    w[1] = min(w[1], 72)
    lines = [head, "  ".join(h.ljust(w[i]) for i, h in enumerate(hdr))]
    lines += ["  ".join(c.ljust(w[i]) for i, c in enumerate(r)) for r in rows]
    return "\n".join(lines)


def main(argv):
    if len(argv) >= 3 and argv[1] == "start":
        os.makedirs(argv[2], exist_ok=True)
        for p in glob.glob(os.path.join(argv[2], "*.status.json")):
            os.remove(p)
        with open(os.path.join(argv[2], ".start.json"), "w") as f:
            json.dump(machine_start(), f, indent=1)
        return 0
    if len(argv) == 6 and argv[1] == "status":
        try:
            st = {"rc": int(argv[4]), "wall_s": round(time.time() - float(argv[5]), 3)}
        except ValueError:
            print("aggregate.py status: RC and T0 must be numbers, got %r %r" % (argv[4], argv[5]),
                  file=sys.stderr)
            return 2
        with open(os.path.join(argv[2], argv[3] + ".status.json"), "w") as f:
            json.dump(st, f)
        return 0
    if len(argv) >= 3 and argv[1] == "finish":
        return finish(argv[2], argv[3:])
    if len(argv) >= 3 and argv[1] == "table":
        md = "--md" in argv[2:]
        files = [a for a in argv[2:] if a != "--md"]
        if len(files) != 1:
            print("usage: aggregate.py table [--md] RESULTS.json", file=sys.stderr)
            return 2
        try:
            with open(files[0]) as f:
                res = json.load(f)
        except (OSError, ValueError) as e:
            print("aggregate.py: %s: %s" % (files[0], e), file=sys.stderr)
            return 2
        if res.get("schema") != SCHEMA:
            print("aggregate.py: %s: schema is %r, want %s" % (files[0], res.get("schema"), SCHEMA),
                  file=sys.stderr)
            return 2
        print(table(res, md))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
