#!/usr/bin/env python3
"""iperf_junk.py HOST PORT - bad input for the firmware's iperf UDP server.

Run by test_ourqemu.py inside the test's netns.  Two sockets:

1. "stranger": OUTSIDE_N datagrams too short to hold an iperf datagram
   header (0, 3 and 11 bytes) while no test runs.  The server must count
   them (malformed_outside_test) and not start a test.
2. "client": a minimal iperf 2 UDP test in 32-bit sequence mode (16-byte
   datagrams, flags word 0): ids 1..N, with INSIDE_SHORT truncated
   datagrams (5 bytes) and INSIDE_ZERO datagrams numbered 0 mixed in,
   then the FIN (negative id) repeated every 10 ms until the FIN-ack,
   and LATE_FINS more FINs after it, as a client whose ack was lost
   would send.  The server must count the 5 + 2 as malformed, report 0
   lost of N, and answer the late FINs with the same report instead of
   taking them for the start of a new test (test_ourqemu.py checks the next
   real test).  Then LATE_DATA data datagrams of that test (ids N-2..N),
   as a reordering link delivers them after the FIN: the server must count
   them (late_outside_test) and start no test.

Prints one JSON object: what was sent and the decoded FIN-ack (or null).
"""
import json
import socket
import struct
import sys
import time

N = 1000
OUTSIDE = [b"", b"\x00" * 3, b"\x01" * 11]
INSIDE_SHORT = 5            # 5-byte datagrams
INSIDE_ZERO = 2             # header-sized datagrams with id 0
LATE_FINS = 3
LATE_DATA = 3


def dgram(seq):
    now = time.time()
    return struct.pack("!iIII", seq, int(now), int((now % 1) * 1e6), 0)


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    out = {"n": N, "outside": len(OUTSIDE), "inside_short": INSIDE_SHORT,
           "inside_zero": INSIDE_ZERO, "fin_ack": None}
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for d in OUTSIDE:
            s.sendto(d, (host, port))
    time.sleep(0.2)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect((host, port))
        for seq in range(1, N + 1):
            s.send(dgram(seq))
            if seq % 150 == 0 and seq // 150 <= INSIDE_SHORT:
                s.send(b"\x7f" * 5)
            if seq % 400 == 0 and seq // 400 <= INSIDE_ZERO:
                s.send(dgram(0))
            if seq % 20 == 0:
                time.sleep(0.002)        # <= 10k datagrams/s
        s.settimeout(0.01)
        seq = N
        for _ in range(200):             # iperf 2.1.8: 10 ms, up to 2 s
            seq += 1
            s.send(dgram(-seq))
            try:
                ack = s.recv(2048)
            except socket.timeout:
                continue
            if len(ack) >= 56:
                f = struct.unpack("!10I", ack[16:56])
                out["fin_ack"] = {"len": len(ack), "flags": f[0],
                                  "total_bytes": (f[1] << 32) | f[2], "lost": f[5],
                                  "out_of_order": f[6], "datagrams": f[7]}
                break
        s.settimeout(0.2)
        late = []
        for _ in range(LATE_FINS):
            seq += 1
            s.send(dgram(-seq))
            try:
                late.append(len(s.recv(2048)))
            except socket.timeout:
                late.append(0)
        out["late_fin_acks"] = late
        for seq in range(N - LATE_DATA + 1, N + 1):
            s.send(dgram(seq))
        out["late_data"] = LATE_DATA
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
