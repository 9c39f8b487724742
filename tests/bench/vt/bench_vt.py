#!/usr/bin/env python3
"""bench_vt.py - issue 18's 1G tables in virtual time (docs/VIRTUAL_TIME.md):
the bare-metal firmware against the in-emulator iperf 2 peer (--net sim),
QEMU's virtual clock at the board profile's `mips`.  Figures are exact and
deterministic, so every point runs ONCE; one point runs twice and the two
results.json (less their wall_clock_fields) and diagnosis.json must be
identical.

  1. Link ceilings: 10, 100, 1000 Mb/s full duplex (the partner advertises
     only that ability), TCP and UDP (1470 B), board -> peer and peer ->
     board, beside the theory; each figure flagged: within 1 % (TCP) /
     0.5 % (UDP) of theory and not above it (plus one frame's wire time
     over the test: the receiver times first to last arrival), or CPU-bound
     (the sender's own rate, or the receiver's losses, say which side).
  2. Packet-size sweep at 1G: UDP, the sender unpaced (-b 2000M, above
     line rate at every length), lengths SIZES, both directions: packets/s
     and Mb/s at the receiver beside the line-rate packets/s; board ->
     peer once more with the firmware built GEM_TXBD=SWEEP_TXBD (0: not),
     which tells the sender's CPU from its 64-descriptor TX ring.
  3. Tuning: 1G receive goodput (peer -> board: TCP, and UDP 1470 B at
     -b 2000M) for firmware built with GEM_RXBD=RXBDS and, separately,
     LWIP_OPTS=-DPBUF_POOL_SIZE=N for N in PBUFS (each built with O= in
     this bench's temp dir), with the GEM's rx_resource_errors and lwIP's
     PBUF_POOL errors.  Where those change nothing, the setting where the
     knob matters: the RXBD builds also take 64-byte UDP (the peer sends
     line-rate bursts), the PBUF builds TCP over a link with LOSS random
     frame loss (out-of-order segments wait in pool pbufs).

Theory (IEEE 802.3 clause 3 framing: 14-byte header + 4-byte FCS, frame at
least 64 bytes; clause 4.4.2: 8 bytes preamble/SFD + 12 bytes inter-packet
gap on the wire per frame):
  TCP goodput  R x 1460 / 1538   (MSS 1460, no timestamps: lwIP on both ends)
  UDP goodput  R x L / (L + 66)  = R x 1470 / 1536 for L = 1470
  line pps     R / (8 x (max(L + 8 + 20 + 18, 64) + 20))

Each scenario is generated into the temp dir and validated with `gemlab
check`.  A run whose `gemlab run` exits non-zero, or that has no figure,
fails the bench, naming its run directory (kept).  The temp dir is removed
at the end unless something failed or KEEP=1.

Environment: GEMLAB (default $O/host/bin/gemlab), QEMU (default: make -s
-C emu/qemu path), FW (default $O/baremetal/qemu-zynq/gemlab-fw.elf, built
with make -C firmware/baremetal unless BUILD=0), SECS_CEIL (3), SECS (2),
SPEEDS (10,100,1000), SIZES (64,128,256,512,768,1024,1280,1472), SWEEP_TXBD
(256), RXBDS (16,32,64,128,256,512), PBUFS (4,8,16,32,44,512), LOSS (0.1%), PARTS
(ceilings,sweep,tuning), JOBS (make -j, 2), NICE (0: gemlab run and the
variant builds under nice -n NICE), KEEP (0).
Prints markdown tables on stdout and writes JSON to $BENCH_JSON.
Not a test: nothing passes or fails on a figure (but on a failed run).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
O = os.environ.get("O", os.path.join(TOP, "build"))

# ---------------------------------------------------------------- theory
PREAMBLE_IPG = 8 + 12        # IEEE 802.3 clause 4.4.2: preamble + SFD, inter-packet gap
MAC_OVERHEAD = 14 + 4        # clause 3.1.1: destination, source, type; FCS
MIN_FRAME = 64               # clause 4.4.2 minFrameSize, FCS included
MTU = 1500
IP_UDP = 20 + 8
IP_TCP = 20 + 20             # lwIP sends no TCP options on data segments (no timestamps)
TCP_MSS = MTU - IP_TCP       # 1460
UDP_LEN = 1470
SMALL_LEN = 64


def frame_bytes(payload, l4=IP_UDP):
    """A frame's length (header and FCS included, padded to 64) carrying
    @payload bytes over IPv4 + @l4 header bytes."""
    return max(payload + l4 + MAC_OVERHEAD, MIN_FRAME)


def wire_bytes(payload, l4=IP_UDP):
    """What one frame costs on the wire, preamble and gap included."""
    return frame_bytes(payload, l4) + PREAMBLE_IPG


def line_pps(speed_mbps, payload, l4=IP_UDP):
    """Frames per second at line rate."""
    return speed_mbps * 1e6 / (8.0 * wire_bytes(payload, l4))


def udp_goodput_bps(speed_mbps, length=UDP_LEN):
    """UDP payload bits per second at line rate: R x L / (L + 66) for
    L >= 18 (shorter datagrams are padded to the 64-byte minimum frame)."""
    return line_pps(speed_mbps, length) * length * 8


def tcp_goodput_bps(speed_mbps, mss=TCP_MSS):
    """TCP payload bits per second with full-size segments: R x 1460/1538."""
    return line_pps(speed_mbps, mss, IP_TCP) * mss * 8


def tolerance(proto):
    """Issue 18's bar: within 1 % (TCP) or 0.5 % (UDP) of theory."""
    return 0.01 if proto == "tcp" else 0.005


def upper_bound_bps(theory_bps, speed_mbps, secs, proto):
    """Theory plus one frame's wire time over the test: a receiver times
    from the first arrival to the last, so it leaves out one frame."""
    wire = wire_bytes(TCP_MSS, IP_TCP) if proto == "tcp" else wire_bytes(UDP_LEN)
    t_frame = wire * 8 / (speed_mbps * 1e6)
    return theory_bps * secs / (secs - t_frame)


def ceiling_flag(proto, speed_mbps, secs, goodput_bps, sender_bps=None, lost_pct=None, rx_resource_errors=0):
    """'ceiling' (within the tolerance, not above the bound), 'ABOVE'
    (beyond theory plus one frame: the model is wrong), 'sender-bound'
    (the sender's own rate is below the bar too: it cannot offer the
    line), 'receiver-bound' (the sender offered the line, the receiver
    lost what it could not take), or 'below' (none of these explains it)."""
    th = tcp_goodput_bps(speed_mbps) if proto == "tcp" else udp_goodput_bps(speed_mbps)
    lo = th * (1 - tolerance(proto))
    if goodput_bps > upper_bound_bps(th, speed_mbps, secs, proto):
        return "ABOVE"
    if goodput_bps >= lo:
        return "ceiling"
    if sender_bps is not None and sender_bps < lo:
        return "sender-bound"
    if (lost_pct or 0) > 0 or (rx_resource_errors or 0) > 0:
        return "receiver-bound"
    return "below"


# ---------------------------------------------------------------- running
class BenchError(RuntimeError):
    pass


def sh(args, what, cwd=None, env=None):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd, env=env)
    if r.returncode != 0:
        raise BenchError("%s failed (exit %d): %s\n%s" % (what, r.returncode, " ".join(args), r.stdout[-3000:]))
    return r.stdout


def env_list(name, default, conv=int):
    raw = os.environ.get(name, default)
    try:
        vals = [conv(x) for x in raw.split(",") if x.strip()]
    except ValueError:
        raise BenchError("%s=%s: not a comma-separated list of numbers" % (name, raw)) from None
    if not vals:
        raise BenchError("%s=%s: empty" % (name, raw))
    return vals


def env_int(name, default, lo, hi):
    raw = os.environ.get(name, str(default))
    try:
        v = int(raw)
    except ValueError:
        raise BenchError("%s=%s: not a number" % (name, raw)) from None
    if not lo <= v <= hi:
        raise BenchError("%s=%d: must be %d..%d" % (name, v, lo, hi))
    return v


def scenario_text(name, desc, speed, proto, board_tx, secs, bandwidth=None, length=None, loss=None):
    lines = ["; generated by tests/bench/vt/bench_vt.py", "[scenario]", "name = %s" % name,
             "description = %s" % desc, "[board]", "firmware = baremetal", "clock = virtual",
             "[link]", "partner = %dFD" % speed, "cable = 4pair", "seed = 1"]
    if loss:
        lines.append("loss = %s" % loss)
    lines += ["[traffic]", "protocol = %s" % proto, "reverse = %s" % ("yes" if board_tx else "no"),
              "duration = %ds" % secs]
    if bandwidth:
        lines.append("bandwidth = %s" % bandwidth)
    if length:
        lines.append("length = %d" % length)
    lines += ["[expect]", "link = up", "speed = %d" % speed, "duplex = full", ""]
    return "\n".join(lines)


class Runner:
    def __init__(self, gemlab, qemu, tmp):
        self.gemlab, self.qemu, self.tmp = gemlab, qemu, tmp
        self.sdir = os.path.join(tmp, "scenarios")
        self.rdir = os.path.join(tmp, "runs")
        os.makedirs(self.sdir, exist_ok=True)
        os.makedirs(self.rdir, exist_ok=True)
        self.runs = []
        self.keep_capture_of = None

    def run(self, name, fw, text, again=False):
        """`gemlab run` of one generated scenario (again=True: the same file
        once more, into NAME_again); the figures of interest.  BenchError
        naming the run dir when the run fails or has no figure."""
        ini = os.path.join(self.sdir, name + ".ini")
        if not again:
            with open(ini, "w") as f:
                f.write(text)
            sh([self.gemlab, "check", ini], "gemlab check " + ini)
        out = os.path.join(self.rdir, name + ("_again" if again else ""))
        shutil.rmtree(out, ignore_errors=True)
        t0 = time.monotonic()
        p = subprocess.run(["nice", "-n", os.environ.get("NICE", "0"), self.gemlab, "run", ini, "--out", out,
                            "--qemu", self.qemu, "--fw", fw],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wall = time.monotonic() - t0
        if p.returncode != 0:
            raise BenchError("run %s: gemlab run exited %d (run dir %s):\n%s"
                             % (name, p.returncode, out, p.stdout[-2000:]))
        try:
            with open(os.path.join(out, "results.json")) as f:
                res = json.load(f)
            with open(os.path.join(out, "diagnosis.json")) as f:
                diag = json.load(f)
        except (OSError, ValueError) as e:
            raise BenchError("run %s: %s (run dir %s)" % (name, e, out)) from None
        ip = res.get("iperf") or {}
        if not ip.get("ok") or ip.get("throughput_bps") is None:
            raise BenchError("run %s: no iperf figure (%s; run dir %s)" % (name, ip.get("error"), out))
        gem = res.get("gem") or {}
        lw = ((res.get("firmware_stats") or {}).get("lwip") or {})
        drv = (((res.get("firmware_stats") or {}).get("gem") or {}).get("drv") or {})
        pool = next((m for m in lw.get("memp", []) if m.get("name") == "PBUF_POOL"), {})
        clock, wc = res.get("clock") or {}, res.get("wall_clock") or {}
        fig = {
            "name": name + ("_again" if again else ""), "run_dir": out, "scenario": ini, "fw": fw,
            "throughput_bps": ip.get("throughput_bps"), "sent_bps": ip.get("sent_bps"),
            "udp_lost_pct": ip.get("udp_lost_pct"), "measured_by": ip.get("measured_by"),
            "peer_command": ip.get("peer_command"), "board_command": ip.get("board_command"),
            "link_speed_mbps": (res.get("link") or {}).get("speed_mbps"),
            "rx_frames": gem.get("rx_frames"), "tx_frames": gem.get("tx_frames"),
            "rx_resource_errors": gem.get("rx_resource_errors"),
            "fw_link_memerr": (lw.get("link") or {}).get("memerr"),
            "fw_tx_ring_full": drv.get("tx_ring_full"), "board_tx_bds": drv.get("txbd"),
            "pbuf_pool": {k: pool.get(k) for k in ("avail", "max", "err")} if pool else None,
            "tcp_retransmits": (res.get("capture") or {}).get("tcp_retransmits"),
            "board_rx_bds": (res.get("board") or {}).get("rx_bds"),
            "board_fw": (res.get("board") or {}).get("fw"),
            "mips": clock.get("mips"), "virtual_end_s": clock.get("end_s"),
            "wall_s": round(wall, 2), "wall_s_per_virtual_s": wc.get("s_per_virtual_s"),
            "diagnosis": [x.get("code") for x in diag.get("findings", [])],
            "verdict": (res.get("verdict") or {}).get("result"),
        }
        if fig["link_speed_mbps"] is None:
            raise BenchError("run %s: no link speed in results.json (run dir %s)" % (name, out))
        pr = ip.get("peer_result") or {}
        if pr.get("received") is not None and pr.get("duration_us"):
            fig["peer_rx_pps"] = pr["received"] / (pr["duration_us"] / 1e6)
        if name != self.keep_capture_of:
            try:
                os.unlink(os.path.join(out, "wire.pcapng"))     # up to 64 MiB each
            except OSError:
                pass
        self.runs.append(fig)
        print("  %-34s %9.3f Mb/s  virtual %6.3f s  wall %6.1f s (%.1f s per virtual s)"
              % (name, fig["throughput_bps"] / 1e6, fig["virtual_end_s"] or 0, wall,
                 fig["wall_s_per_virtual_s"] or 0), flush=True)
        return fig


def comparable(run_dir):
    """results.json less its wall_clock_fields members, and diagnosis.json."""
    with open(os.path.join(run_dir, "results.json")) as f:
        r = json.load(f)
    for k in r.get("wall_clock_fields", []):
        r.pop(k, None)
    with open(os.path.join(run_dir, "diagnosis.json")) as f:
        d = json.load(f)
    return r, d


# ---------------------------------------------------------------- parts
def ceilings(rn, fw, speeds, secs):
    rows = []
    for speed in speeds:
        for proto in ("tcp", "udp"):
            for board_tx in (True, False):
                name = "ceil_%s_%d_%s" % (proto, speed, "tx" if board_tx else "rx")
                bw = "%dM" % (2 * speed) if proto == "udp" else None
                f = rn.run(name, fw, scenario_text(
                    name, "vt bench: %s %s at %d Mb/s" % (proto, "board -> peer" if board_tx else "peer -> board",
                                                          speed), speed, proto, board_tx, secs, bw,
                    UDP_LEN if proto == "udp" else None))
                if f["link_speed_mbps"] != speed:
                    raise BenchError("run %s: link at %s Mb/s, not %d (run dir %s)"
                                     % (name, f["link_speed_mbps"], speed, f["run_dir"]))
                th = tcp_goodput_bps(speed) if proto == "tcp" else udp_goodput_bps(speed)
                # the sender's own rate: the firmware's when it sends; the
                # peer's client when it does (it is never CPU-bound)
                flag = ceiling_flag(proto, speed, secs, f["throughput_bps"], f["sent_bps"], f["udp_lost_pct"],
                                    f["rx_resource_errors"])
                rows.append(dict(f, speed_mbps=speed, proto=proto,
                                 direction="board -> peer" if board_tx else "peer -> board",
                                 theory_bps=th, error_pct=(f["throughput_bps"] - th) / th * 100,
                                 upper_bps=upper_bound_bps(th, speed, secs, proto),
                                 lower_bps=th * (1 - tolerance(proto)), flag=flag))
    return rows


def sweep(rn, fw, sizes, secs, txbd_elf=None, txbd=None):
    """Both directions with the default firmware; board -> peer again with
    the GEM_TXBD=@txbd build when given (is the sender's limit the CPU or
    its 64-descriptor TX ring?)."""
    rows = []
    for board_tx, elf, tag in ((True, fw, ""), (False, fw, ""), (True, txbd_elf, "_txbd%s" % txbd)):
        if not elf:
            continue
        for L in sizes:
            name = "sweep_%s_%d%s" % ("tx" if board_tx else "rx", L, tag)
            f = rn.run(name, elf, scenario_text(
                name, "vt bench: UDP %d B unpaced, %s, 1G" % (L, "board -> peer" if board_tx else "peer -> board"),
                1000, "udp", board_tx, secs, "2000M", L))
            pps = f.get("peer_rx_pps") or f["throughput_bps"] / (8.0 * L)
            rows.append(dict(f, length=L, direction="board -> peer" if board_tx else "peer -> board", firmware=tag[1:] or "default",
                             pps=pps, sent_pps=(f["sent_bps"] or 0) / (8.0 * L),
                             line_pps=line_pps(1000, L), line_bps=udp_goodput_bps(1000, L),
                             pct_of_line=100.0 * pps / line_pps(1000, L)))
    return rows


TCP_WND = 44 * TCP_MSS       # firmware/baremetal/port/lwipopts.h
POOL_BUF_PAYLOAD = 1516 - 54  # lwIP init.c's check: PBUF_POOL_BUFSIZE less protocol headers


def pbuf_opts(n):
    """LWIP_OPTS for a PBUF_POOL_SIZE=@n build.  lwIP's init.c refuses
    (#error) a pool whose buffers cannot hold TCP_WND (n < 44 here) unless
    LWIP_DISABLE_TCP_SANITY_CHECKS=1: that is the starved regime the table
    is after, so it is set for those builds only (it adds no code)."""
    opts = "-DPBUF_POOL_SIZE=%d" % n
    if n * POOL_BUF_PAYLOAD < TCP_WND:
        opts += " -DLWIP_DISABLE_TCP_SANITY_CHECKS=1"
    return opts


def build_variant(tmp, label, args, jobs):
    """make -C firmware/baremetal O=TMP/fw-LABEL ARGS; the ELF."""
    o = os.path.join(tmp, "fw-" + label)
    t0 = time.monotonic()
    sh(["nice", "-n", os.environ.get("NICE", "0"), "make", "-s", "--no-print-directory", "-j%d" % jobs, "-C",
        os.path.join(TOP, "firmware", "baremetal"), "O=" + o, "BOARD=qemu-zynq", "all"] + args,
       "firmware variant %s" % label)
    elf = os.path.join(o, "baremetal", "qemu-zynq", "gemlab-fw.elf")
    if not os.path.isfile(elf):
        raise BenchError("firmware variant %s: no ELF at %s" % (label, elf))
    print("  built %-12s (%s) in %.0f s" % (label, " ".join(args), time.monotonic() - t0), flush=True)
    return elf


def tuning(rn, tmp, rxbds, pbufs, secs, loss, jobs):
    variants = [("rxbd%d" % n, "GEM_RXBD", n, ["GEM_RXBD=%d" % n]) for n in rxbds]
    variants += [("pbuf%d" % n, "PBUF_POOL_SIZE", n, ["LWIP_OPTS=" + pbuf_opts(n)]) for n in pbufs]
    elfs = {label: build_variant(tmp, label, args, jobs) for label, _, _, args in variants}
    rows = []
    for label, knob, n, _ in variants:
        # (proto, length, link loss): full-size frames at line rate for both
        # knobs; bursty small datagrams for the ring (the peer's client sends
        # 256 per 1 ms poll, line-rate bursts); a lossy link for the pool
        cases = [("tcp", None, None), ("udp", UDP_LEN, None)]
        if knob == "GEM_RXBD":
            cases.append(("udp", SMALL_LEN, None))
        if knob == "PBUF_POOL_SIZE" and loss:
            cases.append(("tcp", None, loss))
        for proto, length, lo in cases:
            name = "tune_%s_%s%s%s" % (label, proto, length or "", "_loss" if lo else "")
            f = rn.run(name, elfs[label], scenario_text(
                name, "vt bench: %s=%d, %s%s peer -> board at 1G%s" % (
                    knob, n, proto, " %d B" % length if length else "", ", loss " + lo if lo else ""),
                1000, proto, False, secs, "2000M" if proto == "udp" else None, length, lo))
            if knob == "GEM_RXBD" and f["board_rx_bds"] != n:
                raise BenchError("run %s: the firmware reports %s RX BDs, built with %d (run dir %s)"
                                 % (name, f["board_rx_bds"], n, f["run_dir"]))
            if knob == "PBUF_POOL_SIZE" and (f["pbuf_pool"] or {}).get("avail") != n:
                raise BenchError("run %s: PBUF_POOL avail %s, built with %d (run dir %s)"
                                 % (name, (f["pbuf_pool"] or {}).get("avail"), n, f["run_dir"]))
            th = tcp_goodput_bps(1000) if proto == "tcp" else udp_goodput_bps(1000, length)
            rows.append(dict(f, knob=knob, value=n, proto=proto, length=length or TCP_MSS, loss=lo, theory_bps=th,
                             pct_of_theory=100.0 * f["throughput_bps"] / th))
    return rows


# ---------------------------------------------------------------- output
def mbps(x):
    return "-" if x is None else "%.3f" % (x / 1e6)


def md_ceilings(rows, secs):
    out = ["| link | proto | direction | goodput Mb/s | theory Mb/s | formula | error % | sender's rate Mb/s "
           "| lost % | GEM rx_resource_errors | board TX ring full | flag | diagnosis | wall s |",
           "|---:|---|---|---:|---:|---|---:|---:|---:|---:|---:|---|---|---:|"]
    for r in rows:
        formula = ("%d x 1460/1538" if r["proto"] == "tcp" else "%d x 1470/1536") % r["speed_mbps"]
        out.append("| %d | %s | %s | %s | %s | %s | %+.3f | %s | %s | %s | %s | %s | %s | %.1f |" % (
            r["speed_mbps"], r["proto"].upper(), r["direction"], mbps(r["throughput_bps"]), mbps(r["theory_bps"]),
            formula, r["error_pct"], mbps(r["sent_bps"]),
            "-" if r["udp_lost_pct"] is None else "%g" % r["udp_lost_pct"], r["rx_resource_errors"],
            r["fw_tx_ring_full"] if r["direction"] == "board -> peer" else "-",
            r["flag"], ", ".join(r["diagnosis"]) or "none", r["wall_s"]))
    return out


def md_sweep(rows):
    out = ["| direction | firmware | UDP length B | frame B | received pps | line-rate pps | % of line "
           "| received Mb/s | line-rate Mb/s | sender's pps | lost % | GEM rx_resource_errors | board TX ring full "
           "| wall s |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append("| %s | %s | %d | %d | %.0f | %.0f | %.1f | %s | %s | %.0f | %s | %s | %s | %.1f |" % (
            r["direction"], r["firmware"], r["length"], frame_bytes(r["length"]), r["pps"], r["line_pps"],
            r["pct_of_line"], mbps(r["throughput_bps"]), mbps(r["line_bps"]), r["sent_pps"],
            "-" if r["udp_lost_pct"] is None else "%g" % r["udp_lost_pct"], r["rx_resource_errors"],
            r["fw_tx_ring_full"] if r["direction"] == "board -> peer" else "-", r["wall_s"]))
    return out


def md_tuning(rows):
    out = ["| knob | value | proto | length B | link loss | goodput Mb/s | % of theory | sender's Mb/s | lost % "
           "| GEM rx_resource_errors | lwIP link memerr | PBUF_POOL max / err | TCP retransmits (capture) | wall s |",
           "|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for r in rows:
        pp = r["pbuf_pool"] or {}
        out.append("| %s | %d | %s | %d | %s | %s | %.2f | %s | %s | %s | %s | %s / %s | %s | %.1f |" % (
            r["knob"], r["value"], r["proto"].upper(), r["length"], r["loss"] or "-", mbps(r["throughput_bps"]),
            r["pct_of_theory"], mbps(r["sent_bps"]), "-" if r["udp_lost_pct"] is None else "%g" % r["udp_lost_pct"],
            r["rx_resource_errors"], r["fw_link_memerr"], pp.get("max"), pp.get("err"),
            "-" if r["proto"] == "udp" else r["tcp_retransmits"], r["wall_s"]))
    return out


def git_rev():
    r = subprocess.run(["git", "-C", TOP, "describe", "--always", "--dirty", "--abbrev=12"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def main():
    t_start = time.monotonic()
    parts = os.environ.get("PARTS", "ceilings,sweep,tuning").split(",")
    for p in parts:
        if p not in ("ceilings", "sweep", "tuning"):
            raise BenchError("PARTS: %s is not ceilings, sweep or tuning" % p)
    secs_ceil = env_int("SECS_CEIL", 3, 1, 60)
    secs = env_int("SECS", 2, 1, 60)
    jobs = env_int("JOBS", 2, 1, 64)
    speeds = env_list("SPEEDS", "10,100,1000")
    for s in speeds:
        if s not in (10, 100, 1000):
            raise BenchError("SPEEDS: %d is not 10, 100 or 1000" % s)
    sizes = env_list("SIZES", "64,128,256,512,768,1024,1280,1472")
    for L in sizes:
        if not 16 <= L <= 1472:
            raise BenchError("SIZES: %d is not 16..1472 (MTU 1500, no jumbo frames in the peer)" % L)
    rxbds = env_list("RXBDS", "16,32,64,128,256,512")
    for n in rxbds:
        if not 2 <= n <= 1024:
            raise BenchError("RXBDS: %d is not 2..1024 (firmware/baremetal/drivers/gem/gem.h)" % n)
    pbufs = env_list("PBUFS", "4,8,16,32,44,512")
    for n in pbufs:
        if not 1 <= n <= 4096:
            raise BenchError("PBUFS: %d is not 1..4096" % n)
    loss = os.environ.get("LOSS", "0.1%")
    sweep_txbd = env_int("SWEEP_TXBD", 256, 0, 1024)
    gemlab = os.environ.get("GEMLAB", os.path.join(O, "host", "bin", "gemlab"))
    if not os.access(gemlab, os.X_OK):
        raise BenchError("GEMLAB=%s: not an executable (make runner)" % gemlab)
    qemu = os.environ.get("QEMU") or subprocess.run(
        ["make", "-s", "--no-print-directory", "-C", os.path.join(TOP, "emu", "qemu"), "path"],
        capture_output=True, text=True).stdout.strip()
    if not qemu or not os.access(qemu, os.X_OK):
        raise BenchError("QEMU=%s: no QEMU 10.0 of ours there (make qemu)" % qemu)
    fw = os.environ.get("FW") or os.path.join(O, "baremetal", "qemu-zynq", "gemlab-fw.elf")
    if not os.environ.get("FW") and os.environ.get("BUILD", "1") == "1":
        sh(["make", "-s", "--no-print-directory", "-j%d" % jobs, "-C", os.path.join(TOP, "firmware", "baremetal"),
            "BOARD=qemu-zynq", "all"], "the bare-metal firmware")
    if not os.path.isfile(fw):
        raise BenchError("FW=%s: no bare-metal ELF (make baremetal)" % fw)
    tmp = tempfile.mkdtemp(prefix="gemlab-bench-vt.")
    rn = Runner(gemlab, qemu, tmp)
    if "ceilings" in parts and 1000 in speeds:
        rn.keep_capture_of = "ceil_udp_1000_tx"     # the rerun's point: its capture is compared too
    out = {"schema": "gemlab-bench-vt-1", "qemu": qemu, "firmware": fw, "git_rev": git_rev(),
           "date_start": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "loadavg_start": list(os.getloadavg()),
           "secs_ceilings": secs_ceil, "secs": secs, "tmp_dir": tmp,
           "formulas": {"tcp": "R x 1460 / 1538", "udp": "R x L / (L + 66)",
                        "line_pps": "R / (8 x (max(L + 46, 64) + 20))",
                        "ceiling_bounds": "theory x (1 - 1 %% TCP | 0.5 %% UDP) .. theory x T / (T - one frame's "
                                          "wire time)"}}
    ok = False
    try:
        if "ceilings" in parts:
            print("link ceilings (%d s each):" % secs_ceil, flush=True)
            out["ceilings"] = ceilings(rn, fw, speeds, secs_ceil)
        if "sweep" in parts:
            print("packet-size sweep at 1G (%d s each):" % secs, flush=True)
            elf = build_variant(tmp, "txbd%d" % sweep_txbd, ["GEM_TXBD=%d" % sweep_txbd], jobs) if sweep_txbd else None
            out["sweep"] = sweep(rn, fw, sizes, secs, elf, sweep_txbd)
        if "tuning" in parts:
            print("tuning (firmware variants, %d s each):" % secs, flush=True)
            out["tuning"] = tuning(rn, tmp, rxbds, pbufs, secs, loss, jobs)
        # determinism: one point again (the CPU-bound UDP sender at 1G when
        # it ran, else the first run), compared with the first time
        first = next((r for r in rn.runs if r["name"] == "ceil_udp_1000_tx"), rn.runs[0])
        again = rn.run(first["name"], first["fw"], None, again=True)
        a, b = comparable(first["run_dir"]), comparable(again["run_dir"])
        same = a == b
        caps = [os.path.join(d, "wire.pcapng") for d in (first["run_dir"], again["run_dir"])]
        if all(os.path.isfile(c) for c in caps):
            with open(caps[0], "rb") as f1, open(caps[1], "rb") as f2:
                same_cap = f1.read() == f2.read()
            same = same and same_cap
        out["rerun"] = {"run": first["name"], "identical": same,
                        "throughput_bps": [first["throughput_bps"], again["throughput_bps"]],
                        "wall_s": [first["wall_s"], again["wall_s"]],
                        "compared": "results.json less its wall_clock_fields, diagnosis.json"
                                    + (" and wire.pcapng" if all(os.path.isfile(c) for c in caps) else "")}
        print("rerun of %s: %s (%s vs %s b/s)" % (first["name"], "identical" if same else "DIFFERENT",
                                                first["throughput_bps"], again["throughput_bps"]), flush=True)
        if not same:
            raise BenchError("rerun of %s differs from the first run (run dirs %s and %s)"
                             % (first["name"], first["run_dir"], again["run_dir"]))
        ok = True
    finally:
        out["runs"] = len(rn.runs)
        out["wall_s"] = round(time.monotonic() - t_start, 1)
        out["run_wall_s_total"] = round(sum(r["wall_s"] for r in rn.runs), 1)
        out["loadavg_end"] = list(os.getloadavg())
        out["date_end"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        fws = sorted({r["board_fw"] for r in rn.runs if r.get("board_fw")})
        out["firmware_rev"] = fws
        out["mips"] = sorted({r["mips"] for r in rn.runs if r.get("mips")})
        out["ok"] = ok
        if ok and os.environ.get("KEEP", "0") != "1":
            shutil.rmtree(tmp, ignore_errors=True)
            out["tmp_dir_removed"] = True
        path = write_json(out)
    print()
    print("## 1G tables in virtual time: %s .. %s, git %s, firmware %s, mips %s, %d runs, %.0f s wall"
          % (out["date_start"], out["date_end"], out["git_rev"], ",".join(fws), out["mips"], out["runs"],
             out["wall_s"]))
    if "ceilings" in out:
        print()
        print("### Link ceilings (%d virtual s per run)" % secs_ceil)
        print()
        print("\n".join(md_ceilings(out["ceilings"], secs_ceil)))
    if "sweep" in out:
        print()
        print("### UDP packet-size sweep at 1000 Mb/s, sender unpaced (-b 2000M), %d virtual s per run" % secs)
        print()
        print("\n".join(md_sweep(out["sweep"])))
    if "tuning" in out:
        print()
        print("### Tuning: 1G receive goodput (peer -> board), %d virtual s per run" % secs)
        print()
        print("\n".join(md_tuning(out["tuning"])))
    print()
    print("rerun identical: %s (%s)" % (out["rerun"]["identical"], out["rerun"]["run"]))
    if path:
        print("wrote %s" % path)
    return 0


def write_json(obj):
    sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
    from gemlab_test import bench
    return bench.write_json(obj)


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
    from gemlab_test import proc
    proc.exit_on_signals()
    try:
        rc = main()
    except BenchError as e:
        print("bench vt: %s" % e, file=sys.stderr)
        rc = 1
    sys.exit(rc)
