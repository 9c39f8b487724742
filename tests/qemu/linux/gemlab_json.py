#!/usr/bin/env python3
"""gemlab_json.py - checks on the Linux guest's @gemlab JSON lines and on
host iperf3 -J reports, for tests/qemu/linux/boot.sh.

  gemlab_json.py line LOG TYPE [FROM_LINE]  print the first '@gemlab' JSON
                                            line of TYPE at/after FROM_LINE
  gemlab_json.py check KIND FILE            validate one agent event
                                            (ready|link|stats|help|run|error|
                                            irq|sockbuf); prints a summary,
                                            exit 1 with the reason if invalid
  gemlab_json.py iperf3 FILE                print the receiver's Mb/s and the
                                            retransmits (TCP) or sent/received/
                                            lost % (UDP) of a host iperf3 -J report
  gemlab_json.py get FILE PATH              print one value of a JSON file; PATH
                                            is dotted, list indices are numbers
                                            (ethtool.rx_frame_check_sequence_errors,
                                            irqs.0.per_cpu); lists/objects as JSON
  gemlab_json.py qmp SOCK CMD [ARGS_JSON]   run one QMP command on QEMU's QMP
                                            unix socket; print its "return" as
                                            JSON (exit 1 with the error)
  gemlab_json.py irq-columns FILE N         every GEM IRQ in an agent stats
                                            line has N per-CPU counts
  gemlab_json.py irq-moved BEFORE AFTER     between two agent stats lines the
                                            GEM IRQ counted on CPU1 only
  gemlab_json.py fit-list FILE              `dumpimage -l image.ub` output: the
                                            four images, types, load address,
                                            sha256, configs; writes FILE.idx
                                            (name, index, hash per image)
  gemlab_json.py free-port                  a port free on 127.0.0.1 for TCP
                                            and UDP (gemlab_test.net.free_port)

On the test library (tests/lib/gemlab_test: console, iperf, qmp, results).
Exit status 0 = ok, 1 = check failed, 2 = usage.
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from gemlab_test import iperf, net, results  # noqa: E402
from gemlab_test.console import parse_line  # noqa: E402
from gemlab_test.qmp import Qmp  # noqa: E402


def fail(msg):
    print(msg)
    sys.exit(1)


def find_line(log, typ, start):
    with open(log, errors="replace") as f:
        for n, text in enumerate(f, 1):
            obj = parse_line(text) if n >= start else None
            if obj is not None and obj.get("type") == typ:
                print(json.dumps(obj))
                return 0
    return 1


def envelope(o, typ):
    if o.get("v") != 1 or o.get("src") != "linux" or o.get("type") != typ:
        fail("bad envelope: %r" % {k: o.get(k) for k in ("v", "src", "type")})


def check(kind, path):
    with open(path) as f:
        o = json.load(f)
    if kind == "ready":
        envelope(o, "ready")
        for k in ("iface", "kernel", "cpus", "uptime_s", "ip", "mac"):
            if k not in o:
                fail("ready: missing " + k)
        print("kernel %s cpus %d ip %s model %r uptime %.2fs" % (
            o["kernel"], o["cpus"], o["ip"], o.get("model"), o["uptime_s"]))
    elif kind == "link":
        envelope(o, "link")
        if o.get("up") is not True:
            fail("link: not up")
        if not isinstance(o.get("speed_mbps"), int) or o.get("duplex") not in ("full", "half"):
            fail("link: speed/duplex missing")
        for k in ("autoneg", "advertising", "partner", "supported", "t_ms"):
            if k not in o:
                fail("link: missing " + k)
        phy = o.get("phy") or {}
        if not isinstance(phy.get("regs"), list) or len(phy["regs"]) != 32:
            fail("link: phy.regs is not 32 registers")
        print("%d/%s autoneg=%s phy@%s id=%s partner=%s" % (
            o["speed_mbps"], o["duplex"], o["autoneg"], phy.get("addr"),
            phy.get("id"), ",".join(o["partner"])))
    elif kind == "stats":
        envelope(o, "stats")
        eth = o.get("ethtool")
        if not isinstance(eth, dict) or not eth:
            fail("stats: no ethtool counters")
        for k in ("rx_frame_check_sequence_errors", "rx_resource_errors", "rx_overruns",
                  "tx_octets", "rx_octets"):
            if k not in eth:
                fail("stats: ethtool lacks " + k)
        nd = o.get("netdev") or {}
        for k in ("rx_errs", "rx_drop", "rx_fifo", "rx_frame", "tx_errs", "tx_drop"):
            if k not in nd:
                fail("stats: netdev lacks " + k)
        irqs = o.get("irqs")
        if not irqs or not all(isinstance(i.get("per_cpu"), list) and i["per_cpu"]
                               and i.get("smp_affinity") for i in irqs):
            fail("stats: no GEM irq with per-CPU counts and smp_affinity")
        if "cpufreq" not in o:
            fail("stats: cpufreq key missing (must be null or a list)")
        cpu = o.get("cpu")
        if not cpu or "idle_pct" not in cpu[0]:
            fail("stats: cpu idle missing")
        print("%d ethtool counters, fcs=%d irq %s per_cpu=%s aff=%s cpufreq=%s idle=%s%%" % (
            len(eth), eth["rx_frame_check_sequence_errors"], irqs[0]["irq"],
            irqs[0]["per_cpu"], irqs[0]["smp_affinity"],
            "null" if o["cpufreq"] is None else o["cpufreq"][0].get("governor"),
            cpu[0]["idle_pct"]))
    elif kind == "help":
        envelope(o, "result")
        if o.get("cmd") != "help" or len(o.get("commands", [])) < 6:
            fail("help: bad result")
        print("%d commands" % len(o["commands"]))
    elif kind == "run":
        envelope(o, "result")
        if o.get("cmd") != "run" or o.get("exit") != 0:
            fail("run: exit %r output %r" % (o.get("exit"), (o.get("output") or "")[-300:]))
        if "-J" in o.get("argv", []):
            j = o.get("json")
            if not isinstance(j, dict) or "end" not in j:
                fail("run: iperf3 -J result has no embedded json.end")
            s = j["end"].get("sum_sent") or j["end"].get("sum") or {}
            print("exit 0, %.1f Mb/s (guest iperf3 %s)" % (s.get("bits_per_second", 0) / 1e6,
                                                         " ".join(o["argv"])))
        else:
            if not o.get("output"):
                fail("run: empty output")
            print("exit 0, %d bytes of output" % len(o["output"]))
    elif kind == "error":
        envelope(o, "error")
        if not o.get("what") or not isinstance(o.get("err"), int) or o.get("app") != "agent":
            fail("error: app/what/err missing")
        print("error for %r: %s (err %d)" % (o.get("cmd"), o["what"], o["err"]))
    elif kind == "irq":
        envelope(o, "result")
        if o.get("cmd") != "irq-affinity" or not o.get("irqs"):
            fail("irq-affinity: bad result")
        print("irqs %s" % o["irqs"])
    elif kind == "sockbuf":
        envelope(o, "result")
        if o.get("cmd") != "sockbuf" or len(o.get("set", {})) != 4:
            fail("sockbuf: bad result")
        print("set %s" % o["set"])
    else:
        print("unknown kind " + kind)
        sys.exit(2)
    return 0


def iperf3(path):
    with open(path) as f:
        try:
            r = iperf.iperf3_summary(f.read())
        except ValueError as e:
            fail(str(e))
    if r["protocol"] == "UDP":
        print("sent %.1f received %.1f Mb/s, lost %.2f%%" % (r["sent_mbps"], r["mbps"], r["lost_pct"] or 0.0))
    else:
        print("%.1f Mb/s, %d retransmits" % (r["mbps"], r["retransmits"] or 0))
    return 0


def get(path, key):
    with open(path) as f:
        o = results.get(json.load(f), key)
    if o is None:
        fail("%s: no %s" % (path, key))
    print(o if isinstance(o, str) else json.dumps(o))
    return 0


def qmp(sock, cmd, args):
    q = Qmp.connect(sock)
    try:
        print(json.dumps(q.execute(cmd, **(json.loads(args) if args else {}))))
    except (RuntimeError, OSError) as e:
        fail(str(e))
    finally:
        q.close()
    return 0


def irq_columns(path, n):
    with open(path) as f:
        o = json.load(f)
    cols = [len(i["per_cpu"]) for i in o["irqs"]]
    print("per_cpu columns %s" % cols)
    return 0 if cols and all(c == n for c in cols) else 1


def irq_moved(before, after):
    with open(before) as f:
        a = json.load(f)
    with open(after) as f:
        b = json.load(f)
    d = [y - x for x, y in zip(a["irqs"][0]["per_cpu"], b["irqs"][0]["per_cpu"])]
    print("irq %s affinity %s, per-CPU delta over the run %s" % (
        b["irqs"][0]["irq"], b["irqs"][0]["smp_affinity"], d))
    return 0 if len(d) == 2 and d[0] == 0 and d[1] > 0 else 1


FIT_WANT = {
    "kernel-1": {"Type": "Kernel Image", "Compression": "uncompressed", "OS": "Linux",
                 "Architecture": "ARM", "Load Address": "0x00200000", "Entry Point": "0x00200000"},
    "fdt-zc702": {"Type": "Flat Device Tree", "Compression": "uncompressed", "Architecture": "ARM"},
    "fdt-zc706": {"Type": "Flat Device Tree", "Compression": "uncompressed", "Architecture": "ARM"},
    "ramdisk-1": {"Type": "RAMDisk Image", "Compression": "uncompressed", "OS": "Linux", "Architecture": "ARM"},
}


def fit_list(path):
    """image.its's four images and two configurations in `dumpimage -l`
    output (u-boot-tools), with a sha256 each; PATH.idx for extraction."""
    with open(path) as f:
        txt = f.read()
    imgs = {}
    for m in re.finditer(r"^ Image (\d+) \((\S+)\)\n((?:  .*\n?)*)", txt, re.M):
        imgs[m.group(2)] = (int(m.group(1)), dict(re.findall(r"^  ([A-Za-z ]+?):\s+(.*)$", m.group(3), re.M)))
    bad = []
    for name, fields in FIT_WANT.items():
        if name not in imgs:
            bad.append("no image %s" % name)
            continue
        bad += ["%s %s = %r, expected %r" % (name, k, imgs[name][1].get(k), v)
                for k, v in fields.items() if imgs[name][1].get(k) != v]
        if imgs[name][1].get("Hash algo") != "sha256":
            bad.append("%s has no sha256 hash" % name)
    if not re.search(r"^ Default Configuration: 'zc702'$", txt, re.M):
        bad.append("default configuration is not zc702")
    for c, fdt in (("zc702", "fdt-zc702"), ("zc706", "fdt-zc706")):
        m = re.search(r"^ Configuration \d+ \(%s\)\n((?:  .*\n?)*)" % c, txt, re.M)
        f = dict(re.findall(r"^  ([A-Za-z ]+?):\s+(.*)$", m.group(1), re.M)) if m else {}
        if (f.get("Kernel"), f.get("FDT"), f.get("Init Ramdisk")) != ("kernel-1", fdt, "ramdisk-1"):
            bad.append("configuration %s is %s" % (c, f or "missing"))
    with open(path + ".idx", "w") as o:
        for name, (i, f) in imgs.items():
            o.write("%s %d %s\n" % (name, i, f.get("Hash value", "")))
    if bad:
        fail("; ".join(bad))
    print("4 images, kernel load/entry 0x00200000, all uncompressed, sha256, default zc702")
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "line":
        return find_line(argv[2], argv[3], int(argv[4]) if len(argv) > 4 else 1)
    if len(argv) == 4 and argv[1] == "check":
        return check(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "iperf3":
        return iperf3(argv[2])
    if len(argv) == 4 and argv[1] == "get":
        return get(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "irq-columns":
        return irq_columns(argv[2], int(argv[3]))
    if len(argv) == 4 and argv[1] == "irq-moved":
        return irq_moved(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "fit-list":
        return fit_list(argv[2])
    if len(argv) == 2 and argv[1] == "free-port":
        print(net.free_port())
        return 0
    if len(argv) in (4, 5) and argv[1] == "qmp":
        return qmp(argv[2], argv[3], argv[4] if len(argv) == 5 else None)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
