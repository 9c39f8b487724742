#!/usr/bin/env python3
"""rawudp.py - host side of test_rxcsum.py, run inside the test's netns.

  rawudp.py echo HOST PORT
      Sends UDP datagrams to the firmware's echo server (RFC 862) through a
      raw IPv4 socket (IP_HDRINCL: raw(7); the kernel fills in the IP
      header checksum and total length, and keeps our fragment offset and
      MF bit), and waits for each echo on an ordinary UDP socket bound to
      the source port.  Cases, each with its own payload so a late reply
      cannot be confused with another case's:
        plain-good   one frame, correct UDP checksum
        plain-bad    one frame, UDP checksum off by one
        frag-good    the same datagram in two IPv4 fragments (RFC 791),
                     correct checksum
        frag-bad     two fragments, checksum off by one
      Prints one JSON object {case: true if echoed, ...}.

  rawudp.py sink PORT COUNT TIMEOUT
      Receives up to COUNT datagrams on 0.0.0.0:PORT (stops after TIMEOUT
      seconds, or 1 s of silence after the first) and prints a JSON list
      of [length, first offset at or after 76 that breaks iperf's
      "0123456789" payload pattern (null if none)] per datagram.  76 is
      where the firmware's UDP client starts the pattern: 16-byte datagram
      header plus its 60-byte client header (apps/iperf/iperf_udp.c).
"""
import json
import select
import socket
import struct
import sys
import time

PATTERN_START = 76
BOARD_IP_DEFAULT = "10.0.2.15"
SRC_IP = "10.0.2.2"


def csum16(data):
    """RFC 1071 Internet checksum."""
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def udp_datagram(src, dst, sport, dport, payload, corrupt):
    length = 8 + len(payload)
    pseudo = socket.inet_aton(src) + socket.inet_aton(dst) + struct.pack("!BBH", 0, 17, length)
    hdr = struct.pack("!HHHH", sport, dport, length, 0)
    c = csum16(pseudo + hdr + payload)
    if c == 0:
        c = 0xFFFF                        # RFC 768: a computed 0 is sent as all ones
    if corrupt:
        c = c + 1 if c < 0xFFFE else 1    # wrong, and never 0 ("no checksum")
    return struct.pack("!HHHH", sport, dport, length, c) + payload


def ip_packet(src, dst, ident, frag_off8, more, payload):
    """IPv4 header (RFC 791) + payload; checksum and total length are
    filled in by the kernel for IP_HDRINCL sockets (raw(7))."""
    flags = (0x2000 if more else 0) | frag_off8
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, flags, 64, 17, 0,
                      socket.inet_aton(src), socket.inet_aton(dst))
    return hdr + payload


def send_case(raw, host, sport, dport, payload, corrupt, frag, ident):
    dg = udp_datagram(SRC_IP, host, sport, dport, payload, corrupt)
    if not frag:
        raw.sendto(ip_packet(SRC_IP, host, ident, 0, False, dg), (host, 0))
        return
    cut = 512                             # a multiple of 8 (fragment offsets are in 8-byte units)
    raw.sendto(ip_packet(SRC_IP, host, ident, 0, True, dg[:cut]), (host, 0))
    raw.sendto(ip_packet(SRC_IP, host, ident, cut // 8, False, dg[cut:]), (host, 0))


def echo(host, port):
    cases = [("plain-good", False, False), ("plain-bad", True, False),
             ("frag-good", False, True), ("frag-bad", True, True)]
    out = {}
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.bind((SRC_IP, 0))
    sport = rx.getsockname()[1]
    raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    # resolve ARP first with an ordinary datagram and its echo
    rx.sendto(b"arp-warmup", (host, port))
    rx.settimeout(2.0)
    try:
        rx.recvfrom(2048)
    except socket.timeout:
        pass
    for i, (name, corrupt, frag) in enumerate(cases):
        payload = (name.encode() + b":") * 100           # 1000+ bytes: fragmentable
        send_case(raw, host, sport, port, payload, corrupt, frag, 0x4700 + i)
        got = False
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            r, _, _ = select.select([rx], [], [], max(0.0, end - time.monotonic()))
            if not r:
                break
            data, _ = rx.recvfrom(4096)
            if data == payload:
                got = True
                break
        out[name] = got
    print(json.dumps(out))
    return 0


def sink(port, count, timeout):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind(("0.0.0.0", port))
    print("listening", file=sys.stderr, flush=True)
    res = []
    end = time.monotonic() + timeout
    while len(res) < count:
        left = end - time.monotonic()
        if res:
            left = min(left, 1.0)
        if left <= 0:
            break
        r, _, _ = select.select([s], [], [], left)
        if not r:
            break
        d, _ = s.recvfrom(65536)
        brk = None
        for k in range(PATTERN_START, len(d)):
            if d[k] != 0x30 + (k - PATTERN_START) % 10:
                brk = k
                break
        res.append([len(d), brk])
    print(json.dumps(res))
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "echo":
        return echo(sys.argv[2], int(sys.argv[3]))
    if len(sys.argv) == 5 and sys.argv[1] == "sink":
        return sink(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
    print("usage: rawudp.py echo HOST PORT | rawudp.py sink PORT COUNT TIMEOUT", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
