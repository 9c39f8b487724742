#!/usr/bin/env python3
"""mkseeds.py DIR - write fuzz_peer_stack's seed inputs (its operation
format is in fuzz_peer_stack.c): a TCP echo, an iperf 2 TCP test, an iperf
2 UDP test, the peer's iperf3 client against a board that answers, and
the peer's ping answered with an ICMP echo reply."""
import os
import struct
import sys

RAW, IP, TCP, UDP, TIME, CMD = range(6)
SYN, FIN, PSH, ACK = 0x02, 0x01, 0x08, 0x10


def blob(b):
    return struct.pack("<H", len(b)) + b


def tcp(k, flags, payload=b"", wnd=0xFFFF):
    return bytes([TCP, k, flags, 0]) + struct.pack("<H", wnd) + blob(b"") + blob(payload)


def time_ms(ms):
    return bytes([TIME]) + struct.pack("<H", ms)


def iperf2_hdr(port=5001):
    # iperf 2 client header: flags, numThreads, mPort, bufferlen, mWinBand,
    # mAmount (negative: time in 10 ms units, 1 s)
    return struct.pack(">iiiiii", 0, 1, port, 0, 0, -100)


def ip_frag(frag, payload, ident=0x1234):
    """An IP op: a UDP fragment (flags and offset in @frag) from the board."""
    return bytes([IP, 0]) + struct.pack("<HHBB", ident, frag, 64, 17) + blob(b"") + blob(payload)


def seeds():
    # two fragments of a datagram that never completes: left queued at the
    # input's end they were reported leaked (see teardown() in the target)
    yield "ip_fragments_never_completed", ip_frag(0x2000, bytes(64)) + ip_frag(0x2000 | 8, bytes(64))
    data = bytes(1460)
    # 40 connections to the echo server, none closed: the peer held every
    # one before echo.c's cap (this target's MAX_TCP_PCBS fails on it)
    # (each handshake completes before the next SYN: the listen backlog is 4)
    yield "regress_echo_flood", b"".join(tcp(48 + i, SYN) + tcp(48 + i, ACK) for i in range(40)) + time_ms(1)
    # 40 connections to the echo server, each half-closed by the board,
    # which never acknowledges the peer's FIN: the echo freed its slot at
    # the board's FIN and its pcb waited in LAST_ACK, so the 8-slot cap
    # bounded nothing (a hostile-guest review held 16 000 of them)
    yield "regress_echo_half_close", b"".join(tcp(48 + i, SYN) + tcp(48 + i, ACK) + tcp(48 + i, ACK | FIN)
                                              for i in range(40)) + time_ms(1)
    yield "tcp_echo", (tcp(48, SYN) + time_ms(1) + tcp(48, ACK) + tcp(48, ACK | PSH, b"hello, echo")
                       + time_ms(10) + tcp(48, ACK | FIN) + time_ms(100))
    yield "iperf2_tcp", (tcp(0, SYN) + time_ms(1) + tcp(0, ACK) + tcp(0, ACK | PSH, iperf2_hdr() + data[:1436])
                         + tcp(0, ACK, data) + tcp(0, ACK, data) + time_ms(1000) + tcp(0, ACK | FIN)
                         + time_ms(100))
    udp = b""
    for seq in list(range(5)) + [-5]:
        udp += bytes([UDP, 0]) + blob(struct.pack(">iII", seq, 1, 0) + iperf2_hdr() + bytes(100))
        udp += time_ms(1)
    yield "iperf2_udp", udp + time_ms(1000)
    # the peer's iperf3 client (commands[4], port 5202): flow 0 is its
    # connection once it has sent a SYN; the board answers with states
    ip3 = bytes([CMD, 4]) + time_ms(1) + tcp(0, SYN | ACK) + time_ms(1)
    for state in (9, 10, 1, 2):
        ip3 += tcp(0, ACK | PSH, bytes([state])) + time_ms(50)
    yield "iperf3_client", ip3 + time_ms(1000) + tcp(0, ACK | PSH, bytes([4])) + time_ms(100)
    # ping (commands[6]) and an echo reply: type 0, id/seq, 8-byte time
    icmp = struct.pack(">BBHHH", 0, 0, 0, 0x6c70, 0) + bytes(8) + bytes(48)
    yield "ping_reply", bytes([CMD, 6]) + time_ms(1) + bytes([IP, 0]) + struct.pack("<HHBB", 1, 0, 64, 1) \
        + blob(b"") + blob(icmp) + time_ms(100)


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    for name, b in seeds():
        with open(os.path.join(d, name), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    main()
