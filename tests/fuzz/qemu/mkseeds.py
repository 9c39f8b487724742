#!/usr/bin/env python3
"""mkseeds.py [DIR] - write the seed corpus of the QEMU generic-fuzz target.

Each seed is a generic-fuzz input (QEMU 7.2 tests/qtest/fuzz/generic_fuzz.c):
commands separated by the 4 bytes "FUZZ", the first byte of each command is
the opcode modulo 10, the rest its operands, little endian:

  2 read   {u8 size; u8 base; u32 offset}            size 0..3 = 1/2/4/8 B
  3 write  {u8 size; u8 base; u32 offset; u64 value}  (C struct, 16 bytes)
  7 add DMA pattern {u8 index; u8 stride; data...}
  9 clock_step (to the next QEMU_CLOCK_VIRTUAL deadline: runs one timer)

"base" picks the matched MMIO region by index, in address order (gem.env
matches both GEMs): 0 = GEM0 at 0xE000B000, 1 = GEM1 at 0xE000C000.  A DMA
read by the device from guest RAM that was not filled since the last command
gets the next pattern repeated (patterns are used round-robin), so a seed
adds, in order, what the GEM will fetch next (see loopback()).  Registers and bits: UG585 appendix B.18 (gem), QEMU
hw/net/cadence_gem.c; MDIO frame: IEEE 802.3 clause 22.3.4.

The sequences follow tests/device (gem_enable, rx_start, loopback, MDIO).
The fuzzer mutates from here; the seeds only make the deep paths (TX DMA,
loopback, RX delivery, screeners, checksum offload, PHY over MDIO, the hub
to the other GEM) reachable from the first executions.
"""
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from gemlab_test import gemregs  # noqa: E402

SEP = b"FUZZ"
# The register map of the device tests (tests/device/gem_regs.h), not a copy.
R = gemregs.load()
NWCTRL, NWCFG, NWSR, DMACFG = R["GEM_NWCTRL"], R["GEM_NWCFG"], R["GEM_NWSR"], R["GEM_DMACFG"]
TXSTATUS, RXQBASE, TXQBASE, RXSTATUS = R["GEM_TXSR"], R["GEM_RXQBASE"], R["GEM_TXQBASE"], R["GEM_RXSR"]
ISR, IER, PHYMNTNC = R["GEM_ISR"], R["GEM_IER"], R["GEM_PHYMNTNC"]
ST1R0, ST2R0, ST2_ETHTYPE0 = R["GEM_SCREEN_T1_0"], R["GEM_SCREEN_T2_0"], R["GEM_SCREEN_T2_ETHTYPE_0"]
RXEN, TXEN, LOCALLOOP = R["GEM_NWCTRL_RXEN"], R["GEM_NWCTRL_TXEN"], R["GEM_NWCTRL_LOOPBACK_LOCAL"]
MDEN, TSTART = R["GEM_NWCTRL_MDEN"], R["GEM_NWCTRL_TSTART"]
PROMISC, STRIP_FCS, RX_CSUM = R["GEM_NWCFG_PROMISC"], R["GEM_NWCFG_FCS_REMOVE"], R["GEM_NWCFG_RX_CSUM"]
TX_LAST, TX_WRAP = R["TXD_W1_LAST"], R["TXD_W1_WRAP"]
RX_WRAP = R["RXD_W0_WRAP"]
RBUF_1536 = R["GEM_DMACFG_RXBUF_1536"]
TX_CSUM = R["GEM_DMACFG_TX_CSUM"]
FRAMES_RX = R["GEM_FRAMES_RX"]

TXDESC, RXDESC, TXBUF, RXBUF = 0x00310000, 0x00300000, 0x00100000, 0x00200000


def wr(off, val, base=0):
    return bytes([3]) + struct.pack("<BBxxIQ", 2, base, off, val)


def rd(off, base=0):
    return bytes([2]) + struct.pack("<BBxxI", 2, base, off)


def pattern(data):
    return bytes([7]) + struct.pack("<BB", 0, 0) + data


def step(n=1):
    return [bytes([9])] * n


def seed(*cmds):
    out = []
    for c in cmds:
        out.extend(c if isinstance(c, list) else [c])
    blob = SEP.join(out)
    assert all(SEP not in c for c in out), "an operand contains the separator"
    return blob


def frame(n=64, ethertype=0x0800, tos=0, proto=17):
    """Broadcast frame; IPv4 + UDP header with valid IPv4 checksum."""
    eth = b"\xff" * 6 + bytes([0x02, 0, 0, 0, 0, 0x01]) + struct.pack(">H", ethertype)
    if ethertype != 0x0800:
        return (eth + bytes(range(n - 14)))[:n]
    tot = n - 14
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, tos, tot, 1, 0, 64, proto, 0,
                     bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    s = sum(struct.unpack(">10H", ip))
    s = (s & 0xFFFF) + (s >> 16)
    s = (s & 0xFFFF) + (s >> 16)
    ip = ip[:10] + struct.pack(">H", ~s & 0xFFFF) + ip[12:]
    udp = struct.pack(">HHHH", 5001, 5001, tot - 20, 0)   # checksum 0 = none
    body = eth + ip + udp
    return body + bytes(i & 0xFF for i in range(n - len(body)))


def bad_ihl_frame(n=100):
    """IPv4/UDP whose IHL (15 words, 60 bytes) exceeds its total length (20)."""
    eth = b"\xff" * 6 + bytes([0x02, 0, 0, 0, 0, 0x01]) + b"\x08\x00"
    ip = struct.pack(">BBHHHBBH4s4s", 0x4F, 0, 20, 1, 0, 64, 17, 0,
                     bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    return eth + ip + bytes(0x5A for _ in range(n - len(eth) - len(ip)))


def txdesc(length):
    return struct.pack("<IIII", TXBUF, TX_WRAP | TX_LAST | length, 0, 0)


def rxdesc():
    return struct.pack("<IIII", RXBUF | RX_WRAP, 0, 0, 0)


def loopback(nwcfg, f, extra=()):
    """GEM0 sends @f to itself: local loopback (NWCTRL bit 1).

    The enable write reads the RX descriptor before any pattern exists
    (guest RAM is zero: a free descriptor, buffer at 0).  The TSTART write
    then re-reads it (NWCTRL with RXEN set, as stock gem_write does), reads
    the TX descriptor and the TX buffer: patterns 0, 1, 2.  The per-frame
    RX descriptor read of the patched RX path wraps round to pattern 0.
    """
    return seed(wr(DMACFG, RBUF_1536 | 0x4), wr(NWCFG, nwcfg), *extra,
                wr(IER, 0x7FFFEFF), wr(RXQBASE, RXDESC), wr(TXQBASE, TXDESC),
                wr(NWCTRL, RXEN | TXEN | LOCALLOOP),
                pattern(rxdesc()), pattern(txdesc(len(f))), pattern(f),
                wr(NWCTRL, RXEN | TXEN | LOCALLOOP | TSTART),
                step(8), rd(TXSTATUS), rd(RXSTATUS), rd(ISR), rd(FRAMES_RX))


def mdio(op, reg, data=0):
    return (1 << 30) | (op << 28) | (7 << 23) | (reg << 18) | (2 << 16) | data


SEEDS = {
    # TX DMA -> local loopback -> RX screeners/filter/DMA, FCS stripped
    "loopback_fcs_strip": loopback(PROMISC | STRIP_FCS, frame(64)),
    # the same with the FCS kept (the RX path pads and appends it)
    "loopback_fcs_kept": loopback(PROMISC, frame(60)),
    # a full-size frame
    "loopback_1514": loopback(PROMISC | STRIP_FCS, frame(1514)),
    # receive checksum offload (NWCFG bit 24) on an IPv4/UDP frame
    "loopback_rx_csum": loopback(PROMISC | STRIP_FCS | RX_CSUM, frame(128)),
    # type 1 (IP TOS byte, frame byte 15, = 0x2E; stock get_queue_from_screen
    # compares the whole byte) and type 2 (ethertype 0x0800) screeners, queue 0
    "loopback_screeners": loopback(
        PROMISC | STRIP_FCS, frame(96, tos=0x2E),
        extra=(wr(ST1R0, R["GEM_SCREEN_T1_DSTC_EN"] | (0x2E << 4) | 0),
               wr(ST2_ETHTYPE0, 0x0800),
               wr(ST2R0, R["GEM_SCREEN_T2_ETHT_EN"] | (0 << 9) | 0))),
    # regression (docs/SECURITY.md Q1): a type 1 screener sends the frame to queue 8,
    # which the GEM does not have (the patch before 99b921f indexed
    # rx_desc[8]: UBSan index out of bounds, heap overflow past the state)
    "regress_q1_screener_queue_8": loopback(
        PROMISC | STRIP_FCS, frame(96, tos=0x2E),
        extra=(wr(ST1R0, R["GEM_SCREEN_T1_DSTC_EN"] | (0x2E << 4) | 8),)),
    # regression (docs/SECURITY.md Q2): a 1-byte frame looped back with the FCS kept
    # (before 99b921f: ASan heap-buffer-overflow READ of size 60 in
    # gem_rx_deliver, QEMU heap copied into guest RAM)
    "regress_q2_short_frame_fcs_kept": loopback(PROMISC, b"\xff"),
    # regression (docs/SECURITY.md Q8): TX checksum offload (DMACFG bit 11)
    # on an IPv4 header of 15 words whose total length is 20 (before patch
    # 0042: ASan heap-buffer-overflow READ in net_checksum_add_cont, 33 KB
    # past the device state, from net_checksum_calculate in gem_transmit)
    "regress_q8_tx_csum_ihl_past_total_length": loopback(
        PROMISC | STRIP_FCS, bad_ihl_frame(),
        extra=(wr(DMACFG, RBUF_1536 | 0x4 | TX_CSUM),)),
    # GEM1 transmits; the hub (gem.env) delivers it to GEM0 through the
    # wire model (serialisation, link state, MAC/PHY speed check, pcap)
    "hub_gem1_to_gem0": seed(
        wr(DMACFG, RBUF_1536 | 0x4), wr(NWCFG, PROMISC | STRIP_FCS),
        wr(RXQBASE, RXDESC), wr(NWCTRL, RXEN), step(4),
        wr(TXQBASE, TXDESC, base=1), wr(NWCTRL, TXEN, base=1),
        pattern(txdesc(64)), pattern(frame(64)), pattern(rxdesc()),
        wr(NWCTRL, TXEN | TSTART, base=1), step(12),
        rd(RXSTATUS), rd(ISR), rd(FRAMES_RX), rd(TXSTATUS, base=1)),
    # PHY over MDIO: read BMSR and PHYID, restart autoneg, set BMCR
    # loopback, advance the PHY's timers
    "mdio_phy": seed(
        wr(NWCTRL, MDEN), wr(PHYMNTNC, mdio(2, 1)), step(2), rd(NWSR),
        rd(PHYMNTNC), wr(PHYMNTNC, mdio(2, 2)), step(2), rd(PHYMNTNC),
        wr(PHYMNTNC, mdio(1, 0, 0x1340)), step(6),
        wr(PHYMNTNC, mdio(2, 17)), step(2), rd(PHYMNTNC),
        wr(PHYMNTNC, mdio(1, 0, 0x4140)), step(3),
        wr(PHYMNTNC, mdio(2, 19)), step(2), rd(PHYMNTNC)),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(out, exist_ok=True)
    for name, blob in sorted(SEEDS.items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(blob)
        print(f"{name}: {len(blob)} bytes")


if __name__ == "__main__":
    main()
