/*
 * fuzz_pcapng.c - libFuzzer target: the pcapng writer (models/src/pcapng.c).
 *
 * Input: the cap (4096 + a 20-bit value, so the range's low end and the
 * refusal path are reached fast), the snaplen (whole frames, or one in
 * [64, 65535]), then per frame: a length selector
 * (lengths past the snaplen included), direction, CRC-error bit, a 64-bit
 * timestamp, and an optional comment taken from the input.
 *
 * Checked after the run:
 *  - each call returns what a shadow model predicts: -EINVAL for a frame
 *    over 65535 bytes, -ENOSPC once a frame does not fit (and for every
 *    frame after it), else 0;
 *  - the file never exceeds the cap, and its size equals p.bytes;
 *  - the file parses back (draft-ietf-opsawg-pcapng 3.1, 4.1-4.3): SHB,
 *    IDB (with the snaplen), then one EPB per accepted frame with its
 *    timestamp, captured length min(length, snaplen), original length,
 *    payload, epb_flags (4.3.1) and comment, every block 32-bit aligned
 *    with a matching trailer.
 */
#include "gemlab/pcapng.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FRAMES 256u
#define CAP_SPAN (1u << 20)
#define BUF_SIZE (4096u + CAP_SPAN + 2u * GL_PCAPNG_SNAPLEN)

struct shadow {
    uint64_t ts;
    uint32_t len, caplen, flags;
    uint8_t fill;
    bool has_comment;
    size_t clen;
    char comment[256];
};

static uint8_t buf[BUF_SIZE];
static uint8_t frame[GL_PCAPNG_SNAPLEN + 1];
static struct shadow sh[MAX_FRAMES];

static uint32_t rd32(const uint8_t *b)
{
    return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint16_t rd16(const uint8_t *b)
{
    return (uint16_t)(b[0] | b[1] << 8);
}

static void check_epb(const uint8_t *p, uint32_t len, const struct shadow *s,
                      unsigned k)
{
    uint32_t q, pad = (4 - (s->caplen & 3)) & 3;
    bool flags = false, comment = false;

    if (rd32(p) != GL_PCAPNG_EPB || rd32(p + 8) != 0 ||
        ((uint64_t)rd32(p + 12) << 32 | rd32(p + 16)) != s->ts ||
        rd32(p + 20) != s->caplen || rd32(p + 24) != s->len ||
        28 + s->caplen + pad + 8 > len) {
        fz_fail("EPB %u: header fields", k);
    }
    for (uint32_t i = 0; i < s->caplen; i++) {
        if (p[28 + i] != (uint8_t)(s->fill + i)) {
            fz_fail("EPB %u: payload byte %u", k, i);
        }
    }
    for (q = 28 + s->caplen; q < 28 + s->caplen + pad; q++) {
        if (p[q]) {
            fz_fail("EPB %u: padding not zero", k);
        }
    }
    for (;;) {
        if (q + 4 > len - 4) {
            fz_fail("EPB %u: options run past the block", k);
        }
        uint16_t code = rd16(p + q), olen = rd16(p + q + 2);
        if (code == GL_PCAPNG_OPT_END) {
            if (olen || q + 8 != len) {
                fz_fail("EPB %u: opt_endofopt not last", k);
            }
            break;
        }
        uint32_t step = 4 + olen + ((4u - (olen & 3u)) & 3u);
        if (q + step > len - 4) {
            fz_fail("EPB %u: option %u too long", k, code);
        }
        if (code == GL_PCAPNG_OPT_EPB_FLAGS) {
            if (flags || olen != 4 || rd32(p + q + 4) != s->flags) {
                fz_fail("EPB %u: epb_flags 0x%x, want 0x%x", k,
                        rd32(p + q + 4), s->flags);
            }
            flags = true;
        } else if (code == GL_PCAPNG_OPT_COMMENT) {
            if (comment || !s->has_comment || olen != s->clen ||
                memcmp(p + q + 4, s->comment, s->clen)) {
                fz_fail("EPB %u: comment", k);
            }
            comment = true;
        } else {
            fz_fail("EPB %u: unexpected option %u", k, code);
        }
        q += step;
    }
    if (!flags || comment != s->has_comment) {
        fz_fail("EPB %u: options missing", k);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz in;
    struct gl_pcapng p;
    struct gl_err err;
    unsigned n = 0, calls = 0;
    uint64_t cap;
    uint32_t snaplen;
    bool full = false;
    FILE *f;
    long end;
    size_t o;

    fz_init(&in, data, size);
    cap = GL_PCAPNG_MAX_MIN + (fz_u32(&in) & (CAP_SPAN - 1));
    snaplen = fz_u8(&in) & 1 ? GL_PCAPNG_SNAPLEN
              : GL_PCAPNG_SNAPLEN_MIN + fz_u16(&in) % (GL_PCAPNG_SNAPLEN -
                                                      GL_PCAPNG_SNAPLEN_MIN + 1);
    f = fmemopen(buf, sizeof(buf), "w");
    if (!f) {
        fz_fail("fmemopen");
    }
    setvbuf(f, NULL, _IONBF, 0);
    if (gl_pcapng_start(&p, f, cap, snaplen, &err)) {
        fz_fail("start: %s", err.msg);
    }
    while (!fz_empty(&in) && calls++ < 4 * MAX_FRAMES) {
        struct shadow *s = &sh[n < MAX_FRAMES ? n : MAX_FRAMES - 1];
        uint8_t sel = fz_u8(&in);
        uint32_t len;
        bool inbound = sel & 1, bad = sel & 2;
        int rc, want;

        switch ((sel >> 2) & 3) {
        case 0:
            len = fz_u8(&in);
            break;
        case 1:
            len = fz_u16(&in) % 1600u;
            break;
        case 2:
            len = GL_PCAPNG_SNAPLEN - (fz_u8(&in) & 3u) + (fz_u8(&in) & 3u);
            break;
        default:
            len = fz_u16(&in);
            break;
        }
        s->ts = fz_u64(&in);
        s->len = len;
        s->caplen = len < snaplen ? len : snaplen;
        s->fill = fz_u8(&in);
        s->has_comment = sel & 16;
        s->clen = s->has_comment ? fz_str(&in, s->comment, 255) : 0;
        if (s->has_comment) {
            /* the writer stops at the first NUL, like strlen */
            s->clen = strlen(s->comment);
        }
        s->flags = (inbound ? GL_PCAPNG_FLAG_INBOUND : GL_PCAPNG_FLAG_OUTBOUND) |
                   (bad ? GL_PCAPNG_FLAG_CRC_ERR : 0);
        for (uint32_t i = 0; i < len && i < sizeof(frame); i++) {
            frame[i] = (uint8_t)(s->fill + i);
        }
        if (len > GL_PCAPNG_SNAPLEN) {
            want = -EINVAL;
        } else if (full || p.bytes + gl_pcapng_epb_size(s->caplen, s->has_comment,
                                                        (uint32_t)s->clen) > cap) {
            want = -ENOSPC;
            full = true;
        } else {
            want = 0;
        }
        if (want == 0 && n >= MAX_FRAMES) {
            break;                      /* shadow full: stop before writing */
        }
        rc = gl_pcapng_frame(&p, s->ts, inbound, frame, len, bad,
                             s->has_comment ? s->comment : NULL, &err);
        if (rc != want) {
            fz_fail("frame %u (len %u): rc %d, want %d", n, len, rc, want);
        }
        if (rc == 0) {
            n++;
        }
        if (p.bytes > cap) {
            fz_fail("%llu bytes written, cap %llu",
                    (unsigned long long)p.bytes, (unsigned long long)cap);
        }
    }
    end = ftell(f);
    fclose(f);
    if (end < 0 || (uint64_t)end != p.bytes || p.frames != n) {
        fz_fail("file %ld bytes, writer says %llu, frames %llu/%u", end,
                (unsigned long long)p.bytes, (unsigned long long)p.frames, n);
    }
    if (memcmp(buf, "\x0a\x0d\x0d\x0a\x1c\0\0\0\x4d\x3c\x2b\x1a", 12) ||
        rd32(buf + 28) != GL_PCAPNG_IDB || rd32(buf + 32) != 32 ||
        rd32(buf + 40) != snaplen ||
        rd32(buf + 56) != 32) {
        fz_fail("SHB/IDB");
    }
    o = GL_PCAPNG_HEADER_BYTES;
    for (unsigned k = 0; k < n; k++) {
        uint32_t len;
        if ((size_t)end - o < 32) {
            fz_fail("EPB %u missing at %zu", k, o);
        }
        len = rd32(buf + o + 4);
        if (len % 4 || len < 32 || len > (size_t)end - o ||
            rd32(buf + o + len - 4) != len) {
            fz_fail("EPB %u: block length %u", k, len);
        }
        check_epb(buf + o, len, &sh[k], k);
        o += len;
    }
    if (o != (size_t)end) {
        fz_fail("%zu bytes after the last EPB", (size_t)end - o);
    }
    return 0;
}
