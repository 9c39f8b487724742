#!/usr/bin/env python3
"""bench_calibration.py - the guest CPU's speed in virtual time, fitted to
ONE published figure, then every other figure predicted without refitting
(issue 19; docs/CALIBRATION.md holds the committed output).

The fit.  docs/SOURCES.md 001 §2.2 (docs/SOURCES.md) measures one TCP stream from a
PC into a 667 MHz dual Cortex-A9 running Linux and iperf 2 at 350-450
Mb/s; its median, TARGET (400 Mb/s), is the one figure fitted.  The model
is the Linux image with both A9s in parallel virtual time (`cpus = 2`,
`quantum` 10 us, -icount quantum=NS, docs/VIRTUAL_TIME.md "Two A9s"),
receiving one stream from the in-emulator peer's iperf 2 for SECS
virtual seconds.  The one free parameter is `[board] mips`: the
instructions each A9 retires per virtual microsecond, an effective-IPC
figure (instruction counting has no caches, no DDR latency, no PL310).
Goodput grows with it until the wire is the limit, so the fit is a
bracketed search on integers: the first probe at MIPS_START, the next
scaled by TARGET over what it gave, then regula falsi inside the bracket
until the bracket is one MIPS wide, or a probe is within TOL_PCT of
TARGET, or MAX_PROBES have run.  The fitted value is the probe nearest
TARGET.  Every figure is virtual time, so a rerun gives the same bytes.

The predictions, at the fitted value, with nothing refitted:
  lx_psweep     Linux, -P 1/2/4/8 host -> board in one boot (docs/SOURCES.md 001 §2.2:
                350-450, 650-750, 850-930, -P 8 like -P 4), per-core busy and softirq
  lx_p4_irq_cpu1  -P 4 with the GEM IRQ on CPU1 (docs/SOURCES.md 001 §5.2: move it off
                CPU0; the seed gives no figure)
  lx_reverse    Linux board -> host, one stream (docs/SOURCES.md 001 §1.1: one stream
                300-500; §3.2: the directions need not match)
  lx_udp        Linux, UDP -b 1000M -l 1470 host -> board (docs/SOURCES.md 001 §5.3: a
                healthy board carries UDP above 900 Mb/s with little loss)
  bm_udp_sizes  bare-metal lwIP UDP client, -b 1000M, 64/256/1024/1472 B
                (docs/SOURCES.md 003 §2.3: 148, 487, 812, 922 Mb/s)
  bm_tcp_rx/tx  bare-metal lwIP TCP both ways (docs/SOURCES.md 003 §4.1: 942 Mb/s tuned)

Not a test: nothing passes or fails on a figure; it prints the table
docs/CALIBRATION.md quotes and writes JSON to $BENCH_JSON: the fit's
probes, each prediction with `ratio_to_seed` (the model's figure over
the middle of the seed's range; tests/bench/aggregate.py lists it), and
`run_wall_s` (min/median/max wall seconds of a `gemlab run`: the host's
figure, the only one here that is not exact).

The memory cost.  `[board] dma_line` (QEMU patch 0046, -icount dmaline=NS)
charges a core for each 32-byte line the GEM wrote by DMA, at its first
load of it.  DMA_LINE=NS sets it in every run (0: none).  FIT=dma_line
fits it instead of mips: MIPS stays as given (the profile's 500 by
default), and the search runs on whole ns from DMA_LINE_START (600),
goodput falling as the line costs more.

Environment: QEMU (default: our build), GEMLAB (build/host/bin/gemlab),
LINUX (build/linux/zImage), FW (the bare-metal ELF), TARGET_MBPS (400),
MIPS_START (150), TOL_PCT (0.5), MAX_PROBES (8), SECS (3), MIPS (skip the
fit and predict at this value), DMA_LINE (0), FIT (mips or dma_line),
DMA_LINE_START (600).
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
from gemlab_test import bench, paths, results  # noqa: E402

O = paths.build_dir()
WALLS = []                            # every run's wall seconds (a host figure, not the model's)
DMA_LINE_NS = 0                       # [board] dma_line in every run (0: none)
WORK = os.path.join(O, "bench", "calibration")
LINK = "[link]\npartner = 1000FD,1000HD,100FD,100HD,10FD,10HD\ncable = 4pair\nseed = 1\n"

# the seed's figures each prediction is set beside (docs/SOURCES.md)
SEED = {
    "lx_p1": ("001 §2.2", 350, 450), "lx_p2": ("001 §2.2", 650, 750),
    "lx_p4": ("001 §2.2", 850, 930), "lx_p8": ("001 §2.2 (like -P 4)", 850, 930),
    "lx_p4_irq_cpu1": ("001 §5.2 (IRQ moved to CPU1)", None, None),
    "lx_reverse": ("001 §1.1 (one stream)", 300, 500),
    "lx_udp": ("001 §5.3 (healthy: > 900, little loss)", 900, 1000),
    "bm_udp_64": ("003 §2.3", 148, 148), "bm_udp_256": ("003 §2.3", 487, 487),
    "bm_udp_1024": ("003 §2.3", 812, 812), "bm_udp_1472": ("003 §2.3", 922, 922),
    "bm_tcp_rx": ("003 §4.1 (tuned)", 942, 942), "bm_tcp_tx": ("003 §4.1 (tuned)", 942, 942),
}


def env_num(name, default, lo):
    """$name as the type of @default, at least @lo; a bad value exits 2
    naming it."""
    v = os.environ.get(name)
    try:
        x = type(default)(v) if v else default
    except ValueError:
        x = None
    if x is None or x < lo:
        print("bench_calibration: %s=%r: want a number >= %s" % (name, v, lo), file=sys.stderr)
        sys.exit(2)
    return x


def scenario(name, firmware, mips, traffic, cpus=None, board_extra=""):
    board = "[board]\nfirmware = %s\nclock = virtual\nmips = %d\n" % (firmware, mips)
    if cpus:
        board += "cpus = %d\n" % cpus
    if DMA_LINE_NS:
        board += "dma_line = %dns\n" % DMA_LINE_NS
    board += board_extra
    return ("; generated by tests/bench/calibration/bench_calibration.py\n"
            "[scenario]\nname = %s\ndescription = calibration: %s at %d MIPS\n%s%s[traffic]\n%s"
            "[expect]\nlink = up\n" % (name, name, mips, board, LINK, traffic))


def run(gemlab, qemu, name, text, fw):
    """One `gemlab run`; (results, wall seconds).  A run that wrote no
    results.json stops the bench with gemlab's last words."""
    os.makedirs(WORK, exist_ok=True)
    ini = os.path.join(WORK, name + ".ini")
    out = os.path.join(WORK, name)
    with open(ini, "w") as f:
        f.write(text)
    t0 = time.monotonic()
    p = subprocess.run([gemlab, "run", ini, "--out", out, "--qemu", qemu, "--fw", fw],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    wall = time.monotonic() - t0
    WALLS.append(round(wall, 1))
    try:
        return results.load(out), wall
    except (OSError, ValueError) as e:
        sys.exit("bench_calibration: %s: %s; gemlab said: %s" % (name, e, p.stdout.strip()[-600:]))


def mbps(res, dotted="iperf.throughput_bps"):
    v = results.get(res, dotted)
    return None if v is None else round(v / 1e6, 2)


def busy(res, key="cpu.busy_pct"):
    b = results.get(res, key)
    return [round(x, 1) for x in b] if b else None


def sirq(res):
    return busy(res, "cpu.softirq_pct")


def search(probe, target, start, tol_pct, max_probes, rising=True):
    """The bracketed integer search: @probe(m) gives the goodput at m
    (rising with m, or falling when not @rising).  Returns ({m: goodput}
    of every probe, the m nearest @target).  Stops when a probe is within
    @tol_pct of the target, the bracket is one unit wide, or @max_probes
    have run."""
    probes = {}
    lo = hi = None                      # the bracket's ends: lo's goodput under TARGET, hi's at or above
    m = start
    for _ in range(max_probes):
        y = probes[m] if m in probes else probes.setdefault(m, probe(m))
        if y < target:
            lo = m if lo is None or (m > lo) == rising else lo
        else:
            hi = m if hi is None or (m < hi) == rising else hi
        if abs(y - target) / target * 100 < tol_pct or (lo is not None and hi is not None and abs(hi - lo) <= 1):
            break
        if lo is None or hi is None:    # no bracket yet: scale by the ratio (nothing moved: double)
            ratio = target / y if y > 0 else 2.0
            nxt = max(1, round(m * (ratio if rising else 1 / ratio)))
            if nxt == m:
                nxt = m + (1 if (y < target) == rising else -1)
        else:                           # regula falsi inside the bracket
            ylo, yhi = probes[lo], probes[hi]
            nxt = round(lo + (target - ylo) * (hi - lo) / (yhi - ylo)) if yhi != ylo else (lo + hi) // 2
            nxt = min(max(nxt, min(lo, hi) + 1), max(lo, hi) - 1)
        m = nxt
    return probes, min(probes, key=lambda k: (abs(probes[k] - target), k))


def fit(gemlab, qemu, linux, target, start, tol_pct, max_probes, secs, param="mips", mips=None):
    """The probes [{@param, mbps, busy_pct, wall_s}], the fitted value,
    and whether the goodput moved one way over the probes (up with mips,
    down with dma_line, at @mips)."""
    seen = {}
    unit = "MIPS" if param == "mips" else "ns/line"

    def probe(v):
        res, wall = run(gemlab, qemu, "fit_%s_%d" % (param, v), scenario(
            "fit_%s_%d" % (param, v), "linux", v if param == "mips" else mips,
            "protocol = tcp\nparallel = 1\nduration = %ds\n" % secs, 2,
            "dma_line = %dns\n" % v if param == "dma_line" else ""), linux)
        seen[v] = (mbps(res), busy(res), round(wall, 1))
        print("  fit: %4d %s -> %s Mb/s, busy %s (%.0f s)" % (v, unit, seen[v][0], seen[v][1], wall), flush=True)
        if seen[v][0] is None:
            sys.exit("bench_calibration: %d %s: no goodput" % (v, unit))
        return seen[v][0]

    rising = param == "mips"
    probes, best = search(probe, target, start, tol_pct, max_probes, rising)
    # goodput must not fall as the CPU gets faster, nor rise as memory gets
    # slower: say so if a probe shows it
    order = sorted(probes)
    sign = 1 if rising else -1
    monotonic = all(sign * (probes[b] - probes[a]) >= 0 for a, b in zip(order, order[1:]))
    return [{param: k, "mbps": seen[k][0], "busy_pct": seen[k][1], "wall_s": seen[k][2]}
            for k in order], best, monotonic


def predict(gemlab, qemu, linux, fw, mips, secs):
    rows = {}
    res, _ = run(gemlab, qemu, "lx_psweep", scenario(
        "lx_psweep", "linux", mips, "protocol = tcp\nparallel_sweep = 1,2,4,8\nduration = %ds\n" % secs, 2), linux)
    for e in results.get(res, "parallel_sweep", []):
        rows["lx_p%d" % e["parallel"]] = {"mbps": round(e["throughput_bps"] / 1e6, 2),
                                          "busy_pct": [round(x, 1) for x in e.get("cpu_busy_pct") or []],
                                          "softirq_pct": [round(x, 1) for x in e.get("cpu_softirq_pct") or []]}
    res, _ = run(gemlab, qemu, "lx_p4_irq_cpu1", scenario(
        "lx_p4_irq_cpu1", "linux", mips, "protocol = tcp\nparallel = 4\nduration = %ds\n" % secs, 2,
        "irq_affinity = cpu1\n"), linux)
    rows["lx_p4_irq_cpu1"] = {"mbps": mbps(res), "busy_pct": busy(res), "softirq_pct": sirq(res),
                              "gem_irqs_per_cpu": results.get(res, "irq.gem_per_cpu")}
    res, _ = run(gemlab, qemu, "lx_reverse", scenario(
        "lx_reverse", "linux", mips, "protocol = tcp\nreverse = yes\nduration = %ds\n" % secs, 2), linux)
    rows["lx_reverse"] = {"mbps": mbps(res), "busy_pct": busy(res), "softirq_pct": sirq(res)}
    res, _ = run(gemlab, qemu, "lx_udp", scenario(
        "lx_udp", "linux", mips, "protocol = udp\nbandwidth = 1000M\nlength = 1470\nduration = %ds\n" % secs, 2),
        linux)
    rows["lx_udp"] = {"mbps": mbps(res), "busy_pct": busy(res), "softirq_pct": sirq(res),
                      "lost_pct": results.get(res, "iperf.udp_lost_pct")}
    res, _ = run(gemlab, qemu, "bm_udp_sizes", scenario(
        "bm_udp_sizes", "baremetal", mips,
        "protocol = udp\nreverse = yes\nbandwidth = 1000M\nsweep = 64,256,1024,1472\nduration = 1s\n"), fw)
    for e in results.sweep(res):
        rows["bm_udp_%d" % e["length_bytes"]] = {"mbps": round(e["throughput_bps"] / 1e6, 2)}
    for name, rev in (("bm_tcp_rx", "no"), ("bm_tcp_tx", "yes")):
        res, _ = run(gemlab, qemu, name, scenario(
            name, "baremetal", mips, "protocol = tcp\nreverse = %s\nduration = 2s\n" % rev), fw)
        rows[name] = {"mbps": mbps(res)}
    return rows


def main():
    target = env_num("TARGET_MBPS", 400.0, 1.0)
    secs = env_num("SECS", 3, 2)        # the Linux image's iperf 2 against the peer needs 2 s
    start = env_num("MIPS_START", 150, 1)
    tol, max_probes = env_num("TOL_PCT", 0.5, 0.0), env_num("MAX_PROBES", 8, 1)
    mips = env_num("MIPS", 0, 1) if os.environ.get("MIPS") else None
    global DMA_LINE_NS
    DMA_LINE_NS = env_num("DMA_LINE", 0, 0)
    param = os.environ.get("FIT") or "mips"
    if param not in ("mips", "dma_line"):
        sys.exit("bench_calibration: FIT=%r: want mips or dma_line" % param)
    if param == "dma_line":
        mips = mips or 500
        if DMA_LINE_NS:
            sys.exit("bench_calibration: FIT=dma_line fits the line cost: give it or DMA_LINE, not both")
    gemlab = os.environ.get("GEMLAB") or os.path.join(O, "host", "bin", "gemlab")
    qemu = paths.our_qemu()
    linux = os.environ.get("LINUX") or os.path.join(O, "linux", "zImage")
    fw = os.environ.get("FW") or paths.baremetal_elf()
    for what, p in (("gemlab", gemlab), ("QEMU", qemu), ("the Linux image", linux), ("the firmware", fw)):
        if not p or not os.path.exists(p):
            sys.exit("bench_calibration: %s not found (%s): `make all` builds it" % (what, p))
    out = {"target_mbps": target, "target_source": "docs/SOURCES.md 001 §2.2, -P 1 350-450 Mb/s (median)",
           "model": "Linux, 2 x A9, quantum 10 us, one TCP stream peer -> board, %d s" % secs}
    if param == "dma_line":
        print("fit: -P 1 into the Linux board to %.0f Mb/s with dma_line, at %d MIPS" % (target, mips),
              flush=True)
        probes, DMA_LINE_NS, mono = fit(gemlab, qemu, linux, target, env_num("DMA_LINE_START", 600, 1),
                                        tol, max_probes, secs, "dma_line", mips)
        out["fit"] = {"param": "dma_line", "probes": probes, "monotonic": mono}
    elif mips:
        out["fit"] = None
    else:
        print("fit: -P 1 into the Linux board to %.0f Mb/s" % target, flush=True)
        probes, mips, mono = fit(gemlab, qemu, linux, target, start, tol, max_probes, secs)
        out["fit"] = {"param": "mips", "probes": probes, "monotonic": mono}
    out["mips"] = mips
    out["dma_line_ns"] = DMA_LINE_NS
    print("predictions at %d MIPS, dma_line %d ns" % (mips, DMA_LINE_NS), flush=True)
    rows = predict(gemlab, qemu, linux, fw, mips, secs)
    for k, v in rows.items():           # model / the seed's figure (the middle of its range)
        src, a, b = SEED.get(k, ("", None, None))
        if a is not None and v.get("mbps") is not None:
            v["ratio_to_seed"] = round(v["mbps"] / ((a + b) / 2), 3)
    out["predictions"] = rows
    out["run_wall_s"] = bench.mmm(WALLS, 1)
    print("\n| figure | model Mb/s | seed | seed Mb/s | CPU busy % | softirq % |\n|---|---:|---|---:|---:|---:|")
    for k, v in rows.items():
        src, a, b = SEED.get(k, ("", None, None))
        rng = "-" if a is None else ("%d" % a if a == b else "%d-%d" % (a, b))
        bz = " / ".join("%.1f" % x for x in v.get("busy_pct") or []) or "-"
        sq = " / ".join("%.1f" % x for x in v.get("softirq_pct") or []) or "-"
        extra = " (%.2f %% lost)" % v["lost_pct"] if v.get("lost_pct") is not None else ""
        print("| %s | %s%s | %s | %s | %s | %s |" % (k, v["mbps"], extra, src, rng, bz, sq))
    bench.write_json(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
