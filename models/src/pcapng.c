/*
 * pcapng.c - the pcapng writer (format references in gemlab/pcapng.h).
 *
 * A block is written piecewise and flushed at its end; callers sharing
 * one FILE serialize their calls (QEMU: under the BQL), so records
 * interleave whole.  The bytes are the ones QEMU's cadence_gem wrote
 * before this writer moved here.
 */
#include "gemlab/pcapng.h"

#include <string.h>

static void le16(uint8_t *b, uint16_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
}

static void le32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}

static uint32_t pad4(uint32_t n)
{
    return (4 - (n & 3)) & 3;
}

static int put(struct gl_pcapng *p, const void *b, size_t n,
               struct gl_err *err)
{
    if (n && fwrite(b, 1, n, p->f) != n) {
        return gl_err_set(err, -EIO, "pcap: write failed");
    }
    return 0;
}

int gl_pcapng_start(struct gl_pcapng *p, FILE *f, uint64_t max_bytes,
                    uint32_t snaplen, struct gl_err *err)
{
    uint8_t h[GL_PCAPNG_HEADER_BYTES];
    int rc;

    memset(p, 0, sizeof(*p));
    if (!f) {
        return gl_err_set(err, -EINVAL, "pcap: no file");
    }
    rc = gl_check_u64(err, "pcap-max-bytes", max_bytes, GL_PCAPNG_MAX_MIN,
                      GL_PCAPNG_MAX_MAX, "bytes");
    if (!rc) {
        rc = gl_check_u64(err, "pcap-snaplen", snaplen, GL_PCAPNG_SNAPLEN_MIN,
                          GL_PCAPNG_SNAPLEN, "bytes");
    }
    if (rc) {
        return rc;
    }
    /* SHB (4.1): type, length 28, magic, version 1.0, section length -1,
     * no options, length again. */
    le32(h + 0, GL_PCAPNG_SHB);
    le32(h + 4, 28);
    le32(h + 8, GL_PCAPNG_BOM);
    le16(h + 12, 1);
    le16(h + 14, 0);
    memset(h + 16, 0xFF, 8);
    le32(h + 24, 28);
    /* IDB (4.2): Ethernet, reserved, snaplen, if_tsresol 9 (one byte,
     * padded to 4), opt_endofopt, length again. */
    le32(h + 28, GL_PCAPNG_IDB);
    le32(h + 32, 32);
    le16(h + 36, GL_PCAPNG_LINKTYPE_ETHERNET);
    le16(h + 38, 0);
    le32(h + 40, snaplen);
    le16(h + 44, GL_PCAPNG_OPT_IF_TSRESOL);
    le16(h + 46, 1);
    le32(h + 48, 9);
    le32(h + 52, 0);
    le32(h + 56, 32);
    p->f = f;
    p->max_bytes = max_bytes;
    p->snaplen = snaplen;
    p->bytes = sizeof(h);
    rc = put(p, h, sizeof(h), err);
    if (!rc && fflush(f)) {
        rc = gl_err_set(err, -EIO, "pcap: write failed");
    }
    return rc;
}

uint32_t gl_pcapng_epb_size(uint32_t len, bool has_comment, uint32_t clen)
{
    /* header 28 (type, length, if id, ts hi, ts lo, caplen, origlen),
     * data + pad, epb_flags 8, [comment 4 + clen + pad], end 4, length 4 */
    return 28 + len + pad4(len) + 8 +
           (has_comment ? 4 + clen + pad4(clen) : 0) + 4 + 4;
}

int gl_pcapng_frame(struct gl_pcapng *p, uint64_t t_ns, bool inbound,
                    const void *data, uint32_t len, bool bad_fcs,
                    const char *comment, struct gl_err *err)
{
    static const uint8_t zero[4];
    uint8_t h[28], o[12];
    size_t clen = comment ? strlen(comment) : 0;
    uint32_t total, caplen;
    int rc;

    if (len > GL_PCAPNG_SNAPLEN || (!data && len)) {
        return gl_err_set(err, -EINVAL, "pcap: frame length %u is over the "
                          "snaplen %u", len, GL_PCAPNG_SNAPLEN);
    }
    if (clen > GL_PCAPNG_COMMENT_MAX) {
        return gl_err_set(err, -EINVAL, "pcap: comment of %zu bytes is over "
                          "%u", clen, GL_PCAPNG_COMMENT_MAX);
    }
    caplen = len < p->snaplen ? len : p->snaplen;
    total = gl_pcapng_epb_size(caplen, comment != NULL, (uint32_t)clen);
    if (p->full || p->bytes + total > p->max_bytes) {
        p->full = true;
        p->refused++;
        return gl_err_set(err, -ENOSPC, "pcap-max-bytes (%llu) reached: "
                          "frame not captured",
                          (unsigned long long)p->max_bytes);
    }
    p->bytes += total;
    p->frames++;
    le32(h + 0, GL_PCAPNG_EPB);
    le32(h + 4, total);
    le32(h + 8, 0);                              /* interface 0 */
    le32(h + 12, (uint32_t)(t_ns >> 32));
    le32(h + 16, (uint32_t)t_ns);
    le32(h + 20, caplen);
    le32(h + 24, len);
    le16(o + 0, GL_PCAPNG_OPT_EPB_FLAGS);
    le16(o + 2, 4);
    le32(o + 4, (inbound ? GL_PCAPNG_FLAG_INBOUND : GL_PCAPNG_FLAG_OUTBOUND) |
                (bad_fcs ? GL_PCAPNG_FLAG_CRC_ERR : 0));
    if ((rc = put(p, h, sizeof(h), err)) ||
        (caplen && (rc = put(p, data, caplen, err))) ||
        (rc = put(p, zero, pad4(caplen), err)) ||
        (rc = put(p, o, 8, err))) {
        return rc;
    }
    if (comment) {
        le16(o + 0, GL_PCAPNG_OPT_COMMENT);
        le16(o + 2, (uint16_t)clen);
        if ((rc = put(p, o, 4, err)) ||
            (clen && (rc = put(p, comment, clen, err))) ||
            (rc = put(p, zero, pad4((uint32_t)clen), err))) {
            return rc;
        }
    }
    le32(o + 0, 0);                              /* opt_endofopt */
    le32(o + 4, total);
    if ((rc = put(p, o, 8, err))) {
        return rc;
    }
    return fflush(p->f) ? gl_err_set(err, -EIO, "pcap: write failed") : 0;
}
