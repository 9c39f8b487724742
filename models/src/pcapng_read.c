/*
 * pcapng_read.c - the pcapng reader (format references in gemlab/pcapng.h;
 * draft-ietf-opsawg-pcapng sections cited per block).
 *
 * The whole block is read into r->blk before anything in it is looked at,
 * and every field offset is checked against the block's stated length, so
 * a hostile file can only produce an error.
 */
#include "gemlab/pcapng.h"

#include <string.h>

static uint16_t rd16(const struct gl_pcapng_reader *r, const uint8_t *b)
{
    return r->swap ? (uint16_t)(b[0] << 8 | b[1]) : (uint16_t)(b[1] << 8 | b[0]);
}

static uint32_t rd32(const struct gl_pcapng_reader *r, const uint8_t *b)
{
    return r->swap ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]
                   : (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

int gl_pcapng_read_open(struct gl_pcapng_reader *r, FILE *f, struct gl_err *err)
{
    if (!r || !f) {
        return gl_err_set(err, -EINVAL, "pcap: no file");
    }
    r->f = f;
    r->offset = 0;
    r->in_section = false;
    r->swap = false;
    r->nif = 0;
    return 0;
}

/* Timestamp units to ns: if_tsresol bit 7 clear is 10^-v s, set is 2^-v s (4.2). */
static uint64_t to_ns(uint64_t ts, uint8_t res)
{
    unsigned v = res & 0x7Fu;

    if (!(res & 0x80u)) {
        uint64_t m = 1;
        if (v <= 9) {
            for (unsigned i = v; i < 9; i++) {
                m *= 10;
            }
            return ts * m;
        }
        for (unsigned i = 9; i < v && i < 29; i++) {
            m *= 10;
        }
        return v >= 29 ? 0 : ts / m;
    }
    if (v == 0) {
        return ts * 1000000000ull;
    }
    if (v >= 64) {
        return 0;
    }
    {
        /* a time past 2^64 ns (584 years) saturates: converting an
         * out-of-range floating value to an integer is undefined (C11
         * 6.3.1.4) */
        long double ns = (long double)ts * 1e9L / (long double)(UINT64_C(1) << v);
        return ns >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)ns;
    }
}

/* Options of a block body from @p to @end: if_tsresol (IDB), epb_flags
 * and opt_comment (EPB); @code is the option wanted. */
static int find_opt(const struct gl_pcapng_reader *r, const uint8_t *p, const uint8_t *end,
                    uint16_t code, const uint8_t **val, uint16_t *vlen)
{
    while (end - p >= 4) {
        uint16_t c = rd16(r, p), l = rd16(r, p + 2);
        uint32_t step = 4u + l + ((4u - (l & 3u)) & 3u);
        if (c == GL_PCAPNG_OPT_END) {
            return 0;
        }
        if ((size_t)(end - p) < step) {
            return -1;
        }
        if (c == code) {
            *val = p + 4;
            *vlen = l;
            return 1;
        }
        p += step;
    }
    return 0;
}

int gl_pcapng_read_next(struct gl_pcapng_reader *r, struct gl_pcapng_packet *pk,
                        struct gl_err *err)
{
    for (;;) {
        uint8_t h[12];
        size_t n = fread(h, 1, 8, r->f);
        uint32_t type, total;
        const uint64_t at = r->offset;

        if (n == 0 && feof(r->f)) {
            return 0;
        }
        if (n != 8) {
            return ferror(r->f) ? gl_err_set(err, -EIO, "pcap: read error at offset %llu", (unsigned long long)at)
                                : gl_err_set(err, -EINVAL, "pcap: truncated block header at offset %llu",
                                             (unsigned long long)at);
        }
        type = (uint32_t)h[3] << 24 | (uint32_t)h[2] << 16 | (uint32_t)h[1] << 8 | h[0];
        if (type == GL_PCAPNG_SHB) {
            /* 4.1: the byte-order magic decides how to read the rest,
             * the block length included */
            if (fread(h + 8, 1, 4, r->f) != 4) {
                return gl_err_set(err, -EINVAL, "pcap: truncated section header at offset %llu",
                                  (unsigned long long)at);
            }
            if (h[8] == 0x4D && h[9] == 0x3C && h[10] == 0x2B && h[11] == 0x1A) {
                r->swap = false;
            } else if (h[8] == 0x1A && h[9] == 0x2B && h[10] == 0x3C && h[11] == 0x4D) {
                r->swap = true;
            } else {
                return gl_err_set(err, -EINVAL, "pcap: section header at offset %llu has no byte-order magic",
                                  (unsigned long long)at);
            }
            r->in_section = true;
            r->nif = 0;
            n = 12;
        } else if (!r->in_section) {
            return gl_err_set(err, -EINVAL, "pcap: offset %llu: not a pcapng file (no section header first)",
                              (unsigned long long)at);
        } else {
            type = rd32(r, h);
        }
        total = rd32(r, h + 4);
        if (total < 12 || (total & 3u) || total > GL_PCAPNG_READ_BLOCK_MAX) {
            return gl_err_set(err, -EINVAL, "pcap: block at offset %llu has length %u (12..%u, a multiple of 4)",
                              (unsigned long long)at, total, GL_PCAPNG_READ_BLOCK_MAX);
        }
        memcpy(r->blk, h, n);
        if (fread(r->blk + n, 1, total - n, r->f) != total - n) {
            return gl_err_set(err, -EINVAL, "pcap: block at offset %llu is cut short", (unsigned long long)at);
        }
        r->offset += total;
        if (rd32(r, r->blk + total - 4) != total) {
            return gl_err_set(err, -EINVAL, "pcap: block at offset %llu: trailing length differs",
                              (unsigned long long)at);
        }
        const uint8_t *b = r->blk + 8, *end = r->blk + total - 4;

        if (type == GL_PCAPNG_SHB) {
            if (total < 28) {
                return gl_err_set(err, -EINVAL, "pcap: section header at offset %llu too short",
                                  (unsigned long long)at);
            }
            if (rd16(r, b + 4) != 1) {
                return gl_err_set(err, -EINVAL, "pcap: section at offset %llu is version %u, not 1",
                                  (unsigned long long)at, rd16(r, b + 4));
            }
            continue;
        }
        if (type == GL_PCAPNG_IDB) {
            const uint8_t *v;
            uint16_t vl;
            if (end - b < 8) {
                return gl_err_set(err, -EINVAL, "pcap: interface block at offset %llu too short",
                                  (unsigned long long)at);
            }
            if (r->nif == GL_PCAPNG_READ_IF_MAX) {
                return gl_err_set(err, -EINVAL, "pcap: more than %u interfaces in a section (offset %llu)",
                                  GL_PCAPNG_READ_IF_MAX, (unsigned long long)at);
            }
            r->ifs[r->nif].linktype = rd16(r, b);
            r->ifs[r->nif].snaplen = rd32(r, b + 4);
            r->ifs[r->nif].tsresol = 6;
            switch (find_opt(r, b + 8, end, GL_PCAPNG_OPT_IF_TSRESOL, &v, &vl)) {
            case 1:
                if (vl == 1) {
                    r->ifs[r->nif].tsresol = v[0];
                }
                break;
            case -1:
                return gl_err_set(err, -EINVAL, "pcap: interface block at offset %llu: option overruns the block",
                                  (unsigned long long)at);
            default:
                break;
            }
            r->nif++;
            continue;
        }
        if (type == GL_PCAPNG_EPB || type == GL_PCAPNG_SPB) {
            const bool epb = type == GL_PCAPNG_EPB;
            const uint32_t hdr = epb ? 20 : 4;
            uint32_t ifc = epb ? rd32(r, b) : 0, caplen, len;
            const uint8_t *v;
            uint16_t vl;

            if ((size_t)(end - b) < hdr) {
                return gl_err_set(err, -EINVAL, "pcap: packet block at offset %llu too short",
                                  (unsigned long long)at);
            }
            if (ifc >= r->nif) {
                return gl_err_set(err, -EINVAL, "pcap: packet at offset %llu names interface %u of %u",
                                  (unsigned long long)at, ifc, r->nif);
            }
            len = epb ? rd32(r, b + 16) : rd32(r, b);
            /* 4.4: an SPB's captured length is min(len, snaplen), the
             * rest of the body */
            caplen = epb ? rd32(r, b + 12) : (uint32_t)(end - b - hdr);
            if (!epb && r->ifs[0].snaplen && caplen > r->ifs[0].snaplen) {
                caplen = r->ifs[0].snaplen;
            }
            if (!epb && caplen > len) {
                caplen = len;
            }
            if (caplen > (uint32_t)(end - b - hdr)) {
                return gl_err_set(err, -EINVAL, "pcap: packet at offset %llu: %u captured bytes in a %u-byte block",
                                  (unsigned long long)at, caplen, total);
            }
            if (r->ifs[ifc].linktype != GL_PCAPNG_LINKTYPE_ETHERNET) {
                continue;
            }
            memset(pk, 0, sizeof(*pk));
            pk->interface = ifc;
            pk->caplen = caplen;
            pk->len = len;
            pk->data = b + hdr;
            if (epb) {
                uint64_t ts = (uint64_t)rd32(r, b + 4) << 32 | rd32(r, b + 8);
                pk->t_ns = to_ns(ts, r->ifs[ifc].tsresol);
                const uint8_t *o = b + hdr + caplen + ((4u - (caplen & 3u)) & 3u);
                if (o <= end && find_opt(r, o, end, GL_PCAPNG_OPT_EPB_FLAGS, &v, &vl) == 1 && vl == 4) {
                    pk->flags = rd32(r, v);
                }
                if (o <= end && find_opt(r, o, end, GL_PCAPNG_OPT_COMMENT, &v, &vl) == 1) {
                    pk->comment = v;
                    pk->comment_len = vl;
                }
            }
            return 1;
        }
        /* any other block (name resolution, statistics, custom): skipped */
    }
}
