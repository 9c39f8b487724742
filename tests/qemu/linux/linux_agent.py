"""linux_agent.py - checks on the Linux guest's @gemlab agent answers
(firmware/linux/agent, docs/schema.md) and on the FIT image listing, for
test_boot.py.  Each check returns a one-line summary or raises
CheckFailed with the reason."""
import re


class CheckFailed(AssertionError):
    pass


def fail(msg):
    raise CheckFailed(msg)


def envelope(o, typ):
    if o.get("v") != 1 or o.get("src") != "linux" or o.get("type") != typ:
        fail("bad envelope: %r" % {k: o.get(k) for k in ("v", "src", "type")})


def check(kind, o):
    """The agent line @o is a valid KIND answer (ready, link, stats, help,
    run, error, irq, sockbuf): a one-line summary, or CheckFailed."""
    if kind == "ready":
        envelope(o, "ready")
        for k in ("iface", "kernel", "cpus", "uptime_s", "ip", "mac"):
            if k not in o:
                fail("ready: missing " + k)
        return ("kernel %s cpus %d ip %s model %r uptime %.2fs" % (
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
        return ("%d/%s autoneg=%s phy@%s id=%s partner=%s" % (
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
        return ("%d ethtool counters, fcs=%d irq %s per_cpu=%s aff=%s cpufreq=%s idle=%s%%" % (
            len(eth), eth["rx_frame_check_sequence_errors"], irqs[0]["irq"],
            irqs[0]["per_cpu"], irqs[0]["smp_affinity"],
            "null" if o["cpufreq"] is None else o["cpufreq"][0].get("governor"),
            cpu[0]["idle_pct"]))
    elif kind == "help":
        envelope(o, "result")
        if o.get("cmd") != "help" or len(o.get("commands", [])) < 6:
            fail("help: bad result")
        return ("%d commands" % len(o["commands"]))
    elif kind == "run":
        envelope(o, "result")
        if o.get("cmd") != "run" or o.get("exit") != 0:
            fail("run: exit %r output %r" % (o.get("exit"), (o.get("output") or "")[-300:]))
        if "-J" in o.get("argv", []):
            j = o.get("json")
            if not isinstance(j, dict) or "end" not in j:
                fail("run: iperf3 -J result has no embedded json.end")
            s = j["end"].get("sum_sent") or j["end"].get("sum") or {}
            return ("exit 0, %.1f Mb/s (guest iperf3 %s)" % (s.get("bits_per_second", 0) / 1e6,
                                                         " ".join(o["argv"])))
        else:
            if not o.get("output"):
                fail("run: empty output")
            return ("exit 0, %d bytes of output" % len(o["output"]))
    elif kind == "error":
        envelope(o, "error")
        if not o.get("what") or not isinstance(o.get("err"), int) or o.get("app") != "agent":
            fail("error: app/what/err missing")
        return ("error for %r: %s (err %d)" % (o.get("cmd"), o["what"], o["err"]))
    elif kind == "irq":
        envelope(o, "result")
        if o.get("cmd") != "irq-affinity" or not o.get("irqs"):
            fail("irq-affinity: bad result")
        return ("irqs %s" % o["irqs"])
    elif kind == "sockbuf":
        envelope(o, "result")
        if o.get("cmd") != "sockbuf" or len(o.get("set", {})) != 4:
            fail("sockbuf: bad result")
        return ("set %s" % o["set"])
    raise ValueError("unknown kind " + kind)


def irq_columns(o, n):
    """Every GEM IRQ in an agent stats answer has @n per-CPU counts."""
    cols = [len(i["per_cpu"]) for i in o["irqs"]]
    if not cols or any(c != n for c in cols):
        fail("per_cpu columns %s, expected %d" % (cols, n))
    return "per_cpu columns %s" % cols


def irq_moved(a, b):
    """Between stats answers @a and @b the GEM IRQ counted on CPU1 only."""
    d = [y - x for x, y in zip(a["irqs"][0]["per_cpu"], b["irqs"][0]["per_cpu"])]
    s = "irq %s affinity %s, per-CPU delta over the run %s" % (b["irqs"][0]["irq"], b["irqs"][0]["smp_affinity"], d)
    if not (len(d) == 2 and d[0] == 0 and d[1] > 0):
        fail(s)
    return s


FIT_WANT = {
    "kernel-1": {"Type": "Kernel Image", "Compression": "uncompressed", "OS": "Linux",
                 "Architecture": "ARM", "Load Address": "0x00200000", "Entry Point": "0x00200000"},
    "fdt-zc702": {"Type": "Flat Device Tree", "Compression": "uncompressed", "Architecture": "ARM"},
    "fdt-zc706": {"Type": "Flat Device Tree", "Compression": "uncompressed", "Architecture": "ARM"},
    "ramdisk-1": {"Type": "RAMDisk Image", "Compression": "uncompressed", "OS": "Linux", "Architecture": "ARM"},
}


def fit_list(txt):
    """image.its's four images and two configurations in `dumpimage -l`
    output (u-boot-tools), with a sha256 each: {name: (index, sha256)},
    or CheckFailed naming every difference."""
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
    if bad:
        fail("; ".join(bad))
    return {name: (i, f.get("Hash value", "")) for name, (i, f) in imgs.items()}
