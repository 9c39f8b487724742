#!/bin/sh
# determinism.sh - issue 9: the same scenario and seed give the same model
# decisions.  Three boots of the bare-metal firmware on our QEMU, each with
# the same impairments (Gilbert-Elliott loss, duplication, FCS corruption
# in both directions): seed A, seed A again, then seed B.
#
# The traffic is made deterministic: after a clean warm-up (ARP learnt both
# ways, boot-time frames over, no impairment so no PRNG draw), the host sends
# N UDP datagrams to the firmware's echo server one at a time, each only
# after the model has seen the previous one (lockstep on the model's
# stat-rx-wire-sent), with slirp's IPv6 off (no router advertisements).  The
# frames offered to the wire model are then the same sequence in every run,
# whatever the host's timing, and so must be every drop/corrupt/dup
# decision.
#
# Compared per run: (1) every model counter (qom-get stat-*) over the
# impaired window; (2) the per-frame decision sequence of each direction
# from the pcapng the QEMU patch writes (EPB flags: direction, CRC error;
# comment: dropped: loss / fcs error: corrupt / duplicate).
# Pass: run 1 == run 2 on both, and run 3 (other seed) differs on both
# (so a seed that were ignored fails the test).
#
# Exit: 0 pass, 1 fail, 3 QEMU/firmware not built (message names the make).
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
qemu=${QEMU:-$(make -s -C "$top/emu/qemu" path 2>/dev/null)}
fw=${FW:-$top/build/baremetal/qemu-zynq/gemlab-fw.elf}
if [ -z "$qemu" ] || [ ! -x "$qemu" ]; then
    echo "determinism: our QEMU is not built (make -C emu/qemu)" >&2; exit 3
fi
[ -r "$fw" ] || { echo "determinism: $fw missing (make -C firmware/baremetal)" >&2; exit 3; }
out=${OUT:-$top/build/test-results/determinism}
rm -rf "$out"
mkdir -p "$out" && chmod 700 "$out"
exec python3 - "$top" "$qemu" "$fw" "$out" "${DET_FRAMES:-300}" <<'EOF'
import json, os, signal, socket, struct, subprocess, sys, time
top, qemu, fw, out, nframes = sys.argv[1:5] + [int(sys.argv[5])]
sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(top, "tests", "soak"))
from soak import Qmp, Console, free_port, is_type, GEM   # noqa: E402

IMPAIR = [("wire-loss", "gemodel 5 30"), ("wire-dup-pct", 3.0), ("wire-corrupt-pct", 3.0)]
procs = []


def cleanup(*_):
    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            p.wait()
    if _:
        sys.exit(130)


signal.signal(signal.SIGINT, cleanup)
signal.signal(signal.SIGTERM, cleanup)


def pcap_decisions(path):
    """Per direction, the sequence of (frame length, decision) in file order."""
    seq = {"in": [], "out": []}
    with open(path, "rb") as f:
        data = f.read()
    off = 0
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from("<II", data, off)
        if blen < 12 or off + blen > len(data):
            break                       # a block still being written
        if btype == 6:
            caplen = struct.unpack_from("<I", data, off + 20)[0]
            o = off + 28 + caplen + ((4 - caplen % 4) % 4)
            flags, comment = 0, ""
            while o + 4 <= off + blen - 4:
                code, ln = struct.unpack_from("<HH", data, o)
                if code == 0:
                    break
                val = data[o + 4:o + 4 + ln]
                if code == 2:
                    flags = struct.unpack("<I", val)[0]
                elif code == 1:
                    comment = val.decode(errors="replace")
                o += 4 + ln + ((4 - ln % 4) % 4)
            d = "in" if flags & 3 == 1 else "out"
            dec = comment or ("fcs" if flags & (1 << 24) else "ok")
            seq[d].append("%d:%s" % (caplen, dec))
        off += blen
    return seq


def one_run(tag, seed):
    rd = os.path.join(out, tag)
    os.makedirs(rd, mode=0o700)
    port = free_port()
    argv = [qemu, "-M", "xilinx-zynq-a9", "-m", "256M", "-display", "none", "-monitor", "none", "-S",
            "-qmp", "unix:%s/qmp.sock,server=on,wait=off" % rd,
            "-chardev", "socket,id=ser0,path=%s/serial.sock,server=on,wait=off" % rd,
            "-serial", "chardev:ser0", "-serial", "null", "-kernel", fw,
            "-netdev", "user,id=net0,net=10.0.2.0/24,ipv6=off,"
            "hostfwd=udp:127.0.0.1:%d-10.0.2.15:7" % port,
            "-net", "nic,netdev=net0,model=cadence_gem",
            "-global", "cadence_gem.wire-seed=%d" % seed, "-global", "cadence_gem.phy-seed=%d" % seed]
    log = open(os.path.join(rd, "qemu.log"), "w")
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                         start_new_session=True)
    procs.append(p)
    q = Qmp(os.path.join(rd, "qmp.sock"))
    con = Console(os.path.join(rd, "serial.sock"), os.path.join(rd, "console.log"))
    try:
        q.cmd("cont")
        if not con.wait(lambda m: m.get("type") == "link" and m.get("up"), 0, 30):
            raise RuntimeError("%s: link not up within 30 s" % tag)
        if not con.command("echo", lambda m: m.get("type") == "status" and m.get("app") == "echo", 10):
            raise RuntimeError("%s: echo server did not start" % tag)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.connect(("127.0.0.1", port))
        s.settimeout(2)
        for i in range(3):              # clean warm-up: ARP both ways
            s.send(b"warm %d" % i)
            s.recv(2048)
        # quiet: no frame in either direction for 1 s
        last, since = None, time.monotonic()
        while time.monotonic() - since < 1.0:
            cur = (q.get("stat-rx-wire-sent"), q.get("stat-tx-wire-sent"))
            if cur != last:
                last, since = cur, time.monotonic()
            time.sleep(0.1)
        q.set("pcap", os.path.join(rd, "wire.pcapng"))
        names = [x["name"] for x in q.cmd("qom-list", path=GEM) if x["name"].startswith("stat-")]
        before = {n: q.get(n) for n in names}
        for prop, val in IMPAIR:
            q.set(prop, val)
        base = before["stat-rx-wire-sent"]
        s.setblocking(False)
        for i in range(nframes):
            s.send(b"det %06d " % i + bytes(range(48)))
            t0 = time.monotonic()
            while q.get("stat-rx-wire-sent") < base + i + 1:
                if time.monotonic() - t0 > 5:
                    raise RuntimeError("%s: datagram %d never reached the model" % (tag, i))
                time.sleep(0.001)
            try:
                while s.recv(2048):
                    pass
            except BlockingIOError:
                pass
        # drain: nothing in flight, tx count stable for 1 s
        last, since = None, time.monotonic()
        while time.monotonic() - since < 1.0:
            cur = (q.get("stat-tx-wire-sent"), q.get("stat-tx-wire-in-flight"), q.get("stat-rx-wire-in-flight"))
            if cur != last:
                last, since = cur, time.monotonic()
            time.sleep(0.1)
        after = {n: q.get(n) for n in names}
        q.set("pcap", "")               # closes the file
        s.close()
        delta = {n: after[n] - before[n] for n in names}
        seq = pcap_decisions(os.path.join(rd, "wire.pcapng"))
        return delta, seq
    finally:
        try:
            q.cmd("quit")
        except Exception:
            pass
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
        q.close()
        con.close()
        for n in ("qmp.sock", "serial.sock"):
            try:
                os.unlink(os.path.join(rd, n))
            except OSError:
                pass


def show(tag, seed, d, seq):
    keys = ["stat-rx-wire-sent", "stat-rx-wire-dropped-loss", "stat-rx-wire-corrupted", "stat-rx-wire-duplicated",
            "stat-rx-fcs-drops", "stat-tx-wire-sent", "stat-tx-wire-dropped-loss", "stat-tx-wire-corrupted",
            "stat-tx-wire-duplicated", "stat-tx-partner-fcs-drops"]
    print("  %s seed %-5d %s; pcap frames in/out %d/%d" % (tag, seed, " ".join(
        "%s=%s" % (k.replace("stat-", "").replace("wire-", ""), d.get(k)) for k in keys),
        len(seq["in"]), len(seq["out"])))


t = time.monotonic()
fails = []
try:
    runs = [("a1", 1234), ("a2", 1234), ("b", 4321)]
    res = {}
    print("determinism: %d UDP echo datagrams in lockstep, impairments %s" % (nframes, IMPAIR))
    for tag, seed in runs:
        res[tag] = one_run(tag, seed)
        show(tag, seed, *res[tag])
except Exception as e:            # noqa: BLE001
    cleanup()
    print("not ok - determinism: %s" % e)
    sys.exit(1)
cleanup()
(da, sa), (da2, sa2), (db, sb) = res["a1"], res["a2"], res["b"]
if da != da2:
    fails.append("same seed, counters differ: %s" % {k: (da[k], da2[k]) for k in da if da[k] != da2.get(k)})
if sa != sa2:
    for d in ("in", "out"):
        n = next((i for i, (x, y) in enumerate(zip(sa[d], sa2[d])) if x != y), min(len(sa[d]), len(sa2[d])))
        if sa[d] != sa2[d]:
            fails.append("same seed, %s decision sequence differs from frame %d (%s vs %s)"
                         % (d, n, sa[d][n:n + 3], sa2[d][n:n + 3]))
decided = sum(da[k] for k in da if "dropped-loss" in k or "corrupted" in k or "duplicated" in k)
if decided < 20:
    fails.append("only %d impairment decisions: the test would not see a difference" % decided)
if db == da:
    fails.append("seed %d and seed %d gave the same counters: the seed is ignored" % (runs[0][1], runs[2][1]))
if sb == sa:
    fails.append("seed %d and seed %d gave the same decision sequence: the seed is ignored"
                 % (runs[0][1], runs[2][1]))
if da["stat-rx-wire-sent"] != nframes or da2["stat-rx-wire-sent"] != nframes:
    fails.append("the model saw %d/%d frames towards the GEM, not exactly the %d sent"
                 % (da["stat-rx-wire-sent"], da2["stat-rx-wire-sent"], nframes))
# every datagram the GEM accepted was echoed exactly once: the traffic is
# the closed sequence the comparison assumes
for tag, (d, _) in res.items():
    acc = d["stat-rx-wire-sent"] - d["stat-rx-wire-dropped-loss"] + d["stat-rx-wire-duplicated"] - d["stat-rx-fcs-drops"]
    if d["stat-tx-wire-sent"] != acc:
        fails.append("%s: %d echoes offered to the wire, %d datagrams accepted by the GEM"
                     % (tag, d["stat-tx-wire-sent"], acc))
with open(os.path.join(out, "determinism.json"), "w") as f:
    json.dump({"runs": {k: {"counters": v[0], "sequence": v[1]} for k, v in res.items()},
               "fails": fails, "seconds": round(time.monotonic() - t, 1)}, f, indent=1)
print("  identical counters: %s (%d counters, %d impairment decisions); identical per-frame sequence: %s"
      % (da == da2, len(da), decided, sa == sa2))
print("  other seed differs: counters %s, sequence %s; %.1f s"
      % (db != da, sb != sa, time.monotonic() - t))
for m in fails:
    print("  FAIL: %s" % m)
print("%s - determinism (same seed twice identical, other seed differs)" % ("not ok" if fails else "ok"))
sys.exit(1 if fails else 0)
EOF
