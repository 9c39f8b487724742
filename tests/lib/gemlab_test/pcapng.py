"""The pcapng reader of gemlab's tests (draft-ietf-opsawg-pcapng, the
format models/src/pcapng.c writes: 3.1 block structure, 3.5 options,
4.1 SHB, 4.2 IDB with if_tsresol, 4.3 EPB with epb_flags and
opt_comment).  Either byte order (the SHB's magic says which).  A block
cut short at the end of the file (QEMU still writing it) ends the read;
anything else malformed raises ValueError naming the offset."""
import struct

SHB, IDB, EPB = 0x0A0D0D0A, 0x00000001, 0x00000006
BOM = 0x1A2B3C4D
OPT_END, OPT_COMMENT, OPT_EPB_FLAGS, OPT_IF_TSRESOL = 0, 1, 2, 9
FLAG_INBOUND, FLAG_OUTBOUND, FLAG_CRC_ERR = 1, 2, 1 << 24


class Packet:
    """One EPB: .data, .origlen, .t_ns (None without an IDB), .flags,
    .comment ("" without one), .iface; .direction "in"/"out"/None;
    .crc_error."""
    __slots__ = ("data", "origlen", "t_ns", "flags", "comment", "iface")

    def __init__(self, data, origlen, t_ns, flags, comment, iface):
        self.data, self.origlen, self.t_ns = data, origlen, t_ns
        self.flags, self.comment, self.iface = flags, comment, iface

    @property
    def direction(self):
        return {FLAG_INBOUND: "in", FLAG_OUTBOUND: "out"}.get(self.flags & 3)

    @property
    def crc_error(self):
        return bool(self.flags & FLAG_CRC_ERR)

    def __repr__(self):
        return "Packet(%d bytes, %s, flags %#x, %r)" % (len(self.data), self.direction, self.flags, self.comment)


def _options(data, o, end, e):
    while o + 4 <= end:
        code, ln = struct.unpack_from(e + "HH", data, o)
        if code == OPT_END:
            return
        if o + 4 + ln > end:
            raise ValueError("option %d at offset %d runs past its block" % (code, o))
        yield code, data[o + 4:o + 4 + ln]
        o += 4 + ln + (-ln % 4)


def read(path):
    """The EPBs of the pcapng file @path, in file order."""
    with open(path, "rb") as f:
        return parse(f.read())


def parse(data):
    out = []
    e = "<"
    tsres = []                  # per interface: ns per timestamp unit
    off = 0
    while off + 12 <= len(data):
        is_shb = struct.unpack_from("<I", data, off)[0] == SHB      # a palindrome in either order
        if off == 0 and not is_shb:
            raise ValueError("offset 0: not a pcapng file (no Section Header Block)")
        if is_shb:
            bom = struct.unpack_from("<I", data, off + 8)[0]
            e = "<" if bom == BOM else ">" if bom == 0x4D3C2B1A else None
            if e is None:
                raise ValueError("offset %d: bad byte-order magic %#x" % (off, bom))
            tsres = []
        btype, blen = struct.unpack_from(e + "II", data, off)
        if blen < 12 or blen % 4:
            raise ValueError("offset %d: block length %d" % (off, blen))
        if off + blen > len(data):
            break                   # a block still being written
        if struct.unpack_from(e + "I", data, off + blen - 4)[0] != blen:
            raise ValueError("offset %d: trailing block length differs" % off)
        end = off + blen - 4
        if btype == IDB:
            res = 1000              # default 10^-6 s
            for code, val in _options(data, off + 16, end, e):
                if code == OPT_IF_TSRESOL and val:
                    v = val[0]
                    res = 1e9 / (2 ** (v & 0x7F) if v & 0x80 else 10 ** v)
            tsres.append(res)
        elif btype == EPB:
            iface, hi, lo, cap, orig = struct.unpack_from(e + "IIIII", data, off + 8)
            if off + 28 + cap > end:
                raise ValueError("offset %d: captured length %d runs past the block" % (off, cap))
            flags, comment = 0, ""
            for code, val in _options(data, off + 28 + cap + (-cap % 4), end, e):
                if code == OPT_EPB_FLAGS and len(val) == 4:
                    flags = struct.unpack(e + "I", val)[0]
                elif code == OPT_COMMENT:
                    comment = val.decode("utf-8", "replace")
            ts = (hi << 32) | lo
            t_ns = int(ts * tsres[iface]) if iface < len(tsres) else None
            out.append(Packet(data[off + 28:off + 28 + cap], orig, t_ns, flags, comment, iface))
        off += blen
    return out


def decisions(packets):
    """Per direction, "caplen:decision" in file order: the wire model's
    comment (dropped: loss, duplicate, ...), else "fcs" for a CRC error,
    else "ok"."""
    seq = {"in": [], "out": []}
    for p in packets:
        dec = p.comment or ("fcs" if p.crc_error else "ok")
        seq["in" if p.direction == "in" else "out"].append("%d:%s" % (len(p.data), dec))
    return seq
