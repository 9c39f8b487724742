/*
 * fuzz_iperf2.c - libFuzzer target: the bare-metal firmware's iperf 2 wire
 * format decoders and UDP accounting (firmware/baremetal/lib/iperf2.c,
 * udpstats.c), compiled for the host.
 *
 * Input: [selector][bytes...].  The bytes are fed to every decoder the
 * firmware runs on network data, each from an exactly sized heap copy so
 * ASan sees any read past the end.  Checked:
 *  - client header: every prefix of the stream (the TCP server decodes as
 *    bytes trickle in) gives -EMSGSIZE, -EINVAL, 0 or a length in
 *    [24, 255]; once a prefix gives anything but -EMSGSIZE, every longer
 *    prefix gives the same answer and the same fields;
 *  - datagram and FIN-ack decoders accept exactly the documented lengths;
 *  - encode -> decode round-trips a header, a datagram and a server report
 *    built from the bytes (rates below 2^56, which the 2.1 layout carries);
 *  - udpstats over the decoded datagrams, driven the way iperf_udp.c does
 *    (FIN skipped, sender time tv_sec * 1e6 + tv_usec): lost <= expected,
 *    loss in [0, 100] % (rounding past 100 was a bug, fixed: crashes-found/),
 *    jitter finite and >= 0, counts add up.
 */
#include <errno.h>
#include <math.h>

#include "iperf2.h"
#include "udpstats.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t *dup_bytes(const uint8_t *p, size_t n)
{
    uint8_t *b = malloc(n ? n : 1);
    if (b && n) {
        memcpy(b, p, n);
    }
    return b;
}

static void client_hdr_stream(const uint8_t *data, size_t size)
{
    struct iperf2_client_hdr first, h;
    int settled = -EMSGSIZE;
    size_t max = size < IPERF2_CLIENT_MAX_LEN ? size : IPERF2_CLIENT_MAX_LEN;

    for (size_t len = 0; len <= max; len++) {
        uint8_t *b = dup_bytes(data, len);
        if (!b) {
            return;
        }
        int rc = iperf2_client_hdr_decode(b, len, &h);
        free(b);
        if (rc != -EMSGSIZE && rc != -EINVAL && rc != 0 &&
            (rc < IPERF2_CLIENT_V1_LEN || rc > 255)) {
            fz_fail("client_hdr_decode(len %zu) = %d", len, rc);
        }
        if (settled == -EMSGSIZE) {
            settled = rc;
            first = h;
        } else if (rc != settled ||
                   (rc > 0 && memcmp(&h, &first, sizeof(h)) != 0)) {
            fz_fail("client_hdr_decode: %d at len %zu after %d", rc, len,
                    settled);
        }
    }
}

static void client_hdr_roundtrip(struct fz *f)
{
    struct iperf2_client_hdr h, back;
    uint8_t buf[IPERF2_CLIENT_MAX_LEN];

    memset(&h, 0, sizeof(h));
    h.flags = fz_u32(f) | IPERF2_HDR_VERSION1;  /* a header is present */
    h.flags &= ~IPERF2_HDR_LEN_BIT;             /* length from the flags */
    h.num_threads = (int32_t)fz_u32(f);
    h.port = (int32_t)fz_u32(f);
    h.buf_len = (int32_t)fz_u32(f);
    h.win_band = (int32_t)fz_u32(f);
    h.amount = (int32_t)fz_u32(f);
    if (h.flags & IPERF2_HDR_EXTEND) {
        h.upper_flags = fz_u16(f);
        h.lower_flags = fz_u16(f);
        h.version_u = fz_u32(f);
        h.version_l = fz_u32(f);
        h.tos = fz_u16(f);
        h.rate_bps = fz_u64(f) & ((1ull << 56) - 1);
    }
    size_t n = iperf2_client_hdr_encode(&h, buf, sizeof(buf));
    size_t want = (h.flags & IPERF2_HDR_EXTEND) ?
                  IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN :
                  IPERF2_CLIENT_V1_LEN;
    if (n != want || iperf2_client_hdr_encode(&h, buf, n - 1) != 0) {
        fz_fail("client_hdr_encode: %zu bytes, want %zu", n, want);
    }
    uint8_t *b = dup_bytes(buf, n);
    if (!b) {
        return;
    }
    int rc = iperf2_client_hdr_decode(b, n, &back);
    free(b);
    /* Without the length bit a VERSION2/EXTEND header announces 60. */
    int announced = (h.flags & (IPERF2_HDR_VERSION2 | IPERF2_HDR_EXTEND)) ?
                    IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN :
                    IPERF2_CLIENT_V1_LEN;
    if (rc != announced || memcmp(&h, &back, sizeof(h)) != 0) {
        fz_fail("client header round trip: rc %d, flags 0x%08x", rc, h.flags);
    }
}

static void dgram(const uint8_t *data, size_t size)
{
    for (int seq64 = 0; seq64 < 2; seq64++) {
        size_t need = seq64 ? IPERF2_UDP_HDR_LEN : IPERF2_UDP_HDR32_LEN;
        size_t len = size < 64 ? size : 64;
        uint8_t *b = dup_bytes(data, len);
        struct iperf2_dgram d;
        if (!b) {
            return;
        }
        int rc = iperf2_dgram_decode(b, len, seq64, &d);
        if ((len >= need) != (rc == 0) || (rc != 0 && rc != -EMSGSIZE)) {
            fz_fail("dgram_decode(len %zu, seq64 %d) = %d", len, seq64, rc);
        }
        if (rc == 0) {
            uint8_t enc[IPERF2_UDP_HDR_LEN];
            struct iperf2_dgram back;
            if (iperf2_dgram_encode(&d, enc, sizeof(enc)) != 0 ||
                iperf2_dgram_encode(&d, enc, sizeof(enc) - 1) != -EMSGSIZE ||
                iperf2_dgram_decode(enc, sizeof(enc), seq64, &back) != 0 ||
                back.seq != d.seq || back.tv_sec != d.tv_sec ||
                back.tv_usec != d.tv_usec) {
                fz_fail("dgram round trip (seq64 %d)", seq64);
            }
        }
        free(b);
    }
}

static void fin_ack(const uint8_t *data, size_t size)
{
    size_t len = size < 2 * IPERF2_FIN_ACK_LEN ? size : 2 * IPERF2_FIN_ACK_LEN;
    uint8_t *b = dup_bytes(data, len);
    struct iperf2_server_report r, back;
    struct iperf2_dgram d = { 0 };
    uint8_t enc[IPERF2_FIN_ACK_LEN];

    if (!b) {
        return;
    }
    int rc = iperf2_fin_ack_decode(b, len, &r);
    free(b);
    if ((len >= IPERF2_UDP_HDR_LEN + 40) != (rc == 0) ||
        (rc != 0 && rc != -EMSGSIZE)) {
        fz_fail("fin_ack_decode(len %zu) = %d", len, rc);
    }
    if (rc != 0) {
        return;
    }
    if (!(r.flags & IPERF2_HDR_SEQNO64B) || len < IPERF2_FIN_ACK_LEN) {
        /* 32-bit counters only: the re-encoded report says the same */
        if ((r.lost | r.out_of_order | r.datagrams) >> 32) {
            fz_fail("fin_ack_decode: high words without seq64");
        }
    }
    d.seq = -1;
    if (iperf2_fin_ack_encode(&d, &r, enc, sizeof(enc)) != IPERF2_FIN_ACK_LEN ||
        iperf2_fin_ack_encode(&d, &r, enc, sizeof(enc) - 1) != 0 ||
        iperf2_fin_ack_decode(enc, sizeof(enc), &back) != 0 ||
        memcmp(&r, &back, sizeof(r)) != 0) {
        fz_fail("fin_ack round trip, flags 0x%08x", r.flags);
    }
}

static void udp_session(struct fz *f, bool seq64)
{
    struct udpstats s;
    uint64_t now_us = fz_u32(f), calls = 0, accepted = 0, bad = 0;
    size_t need = seq64 ? IPERF2_UDP_HDR_LEN : IPERF2_UDP_HDR32_LEN;

    udpstats_init(&s);
    while (!fz_empty(f)) {
        uint8_t step = fz_u8(f);
        size_t len = step & 0x10u ? need - 1 : need; /* some truncated */
        uint8_t head[IPERF2_UDP_HDR_LEN] = { 0 };
        struct iperf2_dgram d;

        now_us += (uint64_t)(step >> 5) * (step & 0x0Fu) * 37u;
        for (size_t i = 0; i < len; i++) {
            head[i] = fz_u8(f);
        }
        calls++;
        if (iperf2_dgram_decode(head, len, seq64, &d) != 0) {
            udpstats_malformed(&s);
            bad++;
            continue;
        }
        if (d.seq < 0) {
            continue;       /* FIN: the session would end here */
        }
        udpstats_rx(&s, (uint64_t)d.seq, 1470u,
                    (uint64_t)d.tv_sec * 1000000u + d.tv_usec, now_us);
        if (d.seq == 0) {
            bad++;
        } else {
            accepted++;
        }
    }
    (void)calls;
    uint64_t lost = udpstats_lost(&s), exp = udpstats_expected(&s);
    double pct = udpstats_loss_pct(&s);
    if (s.received != accepted || s.malformed != bad) {
        fz_fail("udpstats: received %llu/%llu malformed %llu/%llu",
                (unsigned long long)s.received, (unsigned long long)accepted,
                (unsigned long long)s.malformed, (unsigned long long)bad);
    }
    /* Regression: above 2^53 ids the loss used to round past 100 %
     * (crashes-found/repro_udpstats_loss_pct.c); it is fixed. */
    if (lost > exp || !(pct >= 0.0 && pct <= 100.0) ||
        !isfinite(s.jitter_us) || s.jitter_us < 0.0) {
        fz_fail("udpstats: lost %llu of %llu (%g %%), jitter %g",
                (unsigned long long)lost, (unsigned long long)exp, pct,
                s.jitter_us);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz f;

    if (size < 1) {
        return 0;
    }
    fz_init(&f, data + 1, size - 1);
    switch (data[0] % 4u) {
    case 0:
        client_hdr_stream(data + 1, size - 1);
        client_hdr_roundtrip(&f);
        break;
    case 1:
        dgram(data + 1, size - 1);
        fin_ack(data + 1, size - 1);
        break;
    default:
        udp_session(&f, data[0] & 1u);
        break;
    }
    return 0;
}
