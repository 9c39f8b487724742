"""Host iperf 2 and iperf 3: a process driver and the output parsers.

iperf 2.1.8 (Debian `iperf`): -y C prints CSV rows (ts, src, sport, dst,
dport, id, interval, bytes, bps; a UDP server report adds jitter_ms,
lost, total, loss_pct, out-of-order); its human output carries the
"Server Report" of a UDP client.  iperf 3.12 (`iperf3 -J`): one JSON
document, end.sum_received / end.sum_sent (iperf3(1))."""
import json
import re
import subprocess

SERVER_RE = re.compile(r"(\d+\.\d+)-(\d+\.\d+) sec\s+\S+ \S+\s+(\S+) (\S)bits/sec\s+"
                       r"(\S+) ms\s+(\d+)/\s*(\d+)\s+\(")


def parse_csv(text):
    """iperf 2 -y C lines -> list of dicts: start, end, bytes, bps (and for
    a UDP server report jitter_ms, lost, total, loss_pct, ooo)."""
    rows = []
    for line in text.splitlines():
        f = line.strip().split(",")
        if len(f) < 9 or not f[0].isdigit():
            continue
        try:
            a, b = f[6].split("-")
            r = {"start": float(a), "end": float(b), "bytes": int(f[7]), "bps": float(f[8])}
            if len(f) >= 14:
                r.update(jitter_ms=float(f[9]), lost=int(f[10]), total=int(f[11]),
                         loss_pct=float(f[12]), ooo=int(f[13]))
        except ValueError:
            continue
        rows.append(r)
    return rows


def udp_reports(text):
    """Every iperf 2 UDP report line in human output -> [(mbps, lost, total)]."""
    out = []
    for line in text.splitlines():
        m = SERVER_RE.search(line)
        if m:
            scale = {"K": 1e-3, "M": 1.0, "G": 1e3}.get(m.group(4), 1e-6)
            out.append((float(m.group(3)) * scale, int(m.group(6)), int(m.group(7))))
    return out


def udp_report(text):
    """The last UDP report (mbps, lost, total), None without one."""
    r = udp_reports(text)
    return r[-1] if r else None


def iperf3_began(doc):
    """Whether an iperf3 -J document shows a test that began: a data
    stream connected (start.connected) or an interval was reported.  A
    client whose control connection was refused or reset before the
    server sent its first state has neither (3.12 prints "start" with
    "connected": [] and an empty "intervals"), and nothing was measured.
    Unparseable output counts as begun, so that it is never retried."""
    try:
        o = json.loads(doc) if isinstance(doc, str) else doc
        return bool(o.get("start", {}).get("connected") or o.get("intervals"))
    except (ValueError, AttributeError):
        return True


def iperf3_summary(doc):
    """An iperf3 -J document (str or dict) -> dict: mbps (received),
    sent_mbps, retransmits (TCP), lost_pct (UDP), protocol; ValueError
    with iperf3's own message when it reports an error."""
    o = json.loads(doc) if isinstance(doc, str) else doc
    if "error" in o:
        raise ValueError("iperf3: %s" % o["error"])
    end = o["end"]
    proto = o["start"]["test_start"]["protocol"]
    sent = end.get("sum_sent", end.get("sum", {}))
    rcvd = end.get("sum_received", end.get("sum", {}))
    r = {"protocol": proto, "sent_mbps": sent.get("bits_per_second", 0) / 1e6,
         "retransmits": sent.get("retransmits"), "lost_pct": rcvd.get("lost_percent")}
    if proto == "UDP":
        # 3.12's server duration for UDP can exceed the sender's: received
        # bytes over the sender's time
        r["mbps"] = rcvd.get("bytes", 0) * 8 / (sent.get("seconds") or 1.0) / 1e6
    else:
        r["mbps"] = rcvd.get("bits_per_second", 0) / 1e6
    return r


class Iperf:
    """A host iperf process (argv[0] "iperf" or "iperf3"), in @net (a
    net.Netns) when given; wait() returns its output, kill() ends it."""

    def __init__(self, args, net=None, log=None, prog="iperf"):
        argv = [prog] + list(args)
        if net is not None:
            argv = net.cmd(argv)
        self.log = log
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, text=True, start_new_session=True)
        self.text = None

    def wait(self, timeout):
        try:
            out, _ = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            out, _ = self.proc.communicate()
        self.text = out
        if self.log:
            with open(self.log, "a") as f:
                f.write(out)
        return out

    def kill(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
