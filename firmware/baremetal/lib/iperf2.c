/* iperf2.c - iperf 2 wire formats; layouts documented in iperf2.h. */
#include "iperf2.h"

#include <errno.h>
#include <string.h>

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

/* client_hdrext field offsets, relative to the start of client_hdr_v1 */
enum {
    EXT_TYPE = 24, EXT_LENGTH = 28, EXT_UPPER = 32, EXT_LOWER = 34,
    EXT_VER_U = 36, EXT_VER_L = 40, EXT_RESERVED = 44, EXT_TOS = 46,
    EXT_LRATE = 48, EXT_URATE = 52, EXT_PREFETCH = 56,
};

size_t iperf2_client_hdr_encode(const struct iperf2_client_hdr *h, uint8_t *buf, size_t cap)
{
    size_t n = (h->flags & IPERF2_HDR_EXTEND) ? IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN
                                              : IPERF2_CLIENT_V1_LEN;
    if (cap < n)
        return 0;
    memset(buf, 0, n);
    put32(buf + 0, h->flags);
    put32(buf + 4, (uint32_t)h->num_threads);
    put32(buf + 8, (uint32_t)h->port);
    put32(buf + 12, (uint32_t)h->buf_len);
    put32(buf + 16, (uint32_t)h->win_band);
    put32(buf + 20, (uint32_t)h->amount);
    if (n > IPERF2_CLIENT_V1_LEN) {
        /* type and length stay 0: the 2.1.8 client leaves them unset */
        put16(buf + EXT_UPPER, h->upper_flags);
        put16(buf + EXT_LOWER, h->lower_flags);
        put32(buf + EXT_VER_U, h->version_u);
        put32(buf + EXT_VER_L, h->version_l);
        put16(buf + EXT_TOS, h->tos);
        put32(buf + EXT_LRATE, (uint32_t)h->rate_bps);
        put32(buf + EXT_URATE, (uint32_t)(h->rate_bps >> 32) << 8);
    }
    return n;
}

int iperf2_client_hdr_decode(const uint8_t *buf, size_t len, struct iperf2_client_hdr *h)
{
    uint32_t flags;
    int announced;

    memset(h, 0, sizeof(*h));
    if (len < 4)
        return -EMSGSIZE;
    flags = get32(buf);
    /* Listener.cpp: only these bits say a header is present at all */
    if (!(flags & (IPERF2_HDR_VERSION1 | IPERF2_HDR_VERSION2 | IPERF2_HDR_EXTEND)))
        return 0;
    if (flags & IPERF2_HDR_LEN_BIT) {
        announced = (int)((flags & IPERF2_HDR_LEN_MASK) >> IPERF2_HDR_LEN_SHIFT);
        if (announced < IPERF2_CLIENT_V1_LEN)
            return -EINVAL;
    } else {
        announced = IPERF2_CLIENT_V1_LEN;
        if (flags & (IPERF2_HDR_VERSION2 | IPERF2_HDR_EXTEND))
            announced += IPERF2_CLIENT_EXT_LEN;
    }
    if (len < IPERF2_CLIENT_V1_LEN)
        return -EMSGSIZE;
    h->flags = flags;
    h->num_threads = (int32_t)get32(buf + 4);
    h->port = (int32_t)get32(buf + 8);
    h->buf_len = (int32_t)get32(buf + 12);
    h->win_band = (int32_t)get32(buf + 16);
    h->amount = (int32_t)get32(buf + 20);
    if (flags & IPERF2_HDR_EXTEND) {
        if (len < IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN)
            return -EMSGSIZE;
        h->upper_flags = get16(buf + EXT_UPPER);
        h->lower_flags = get16(buf + EXT_LOWER);
        h->version_u = get32(buf + EXT_VER_U);
        h->version_l = get32(buf + EXT_VER_L);
        h->tos = get16(buf + EXT_TOS);
        h->rate_bps = (uint64_t)get32(buf + EXT_LRATE) |
                      (uint64_t)(get32(buf + EXT_URATE) >> 8) << 32;
    }
    return announced;
}

uint32_t iperf2_amount_time_ms(int32_t amount, uint32_t max_ms)
{
    uint64_t ms;

    if (amount >= 0)
        return 0;
    ms = (uint64_t)(-(int64_t)amount) * 10u;
    return ms > max_ms ? max_ms : (uint32_t)ms;
}

void iperf2_client_hdr_init(struct iperf2_client_hdr *h, bool udp, uint16_t port,
                            uint32_t buf_len, uint32_t time_ms, uint64_t rate_bps)
{
    uint32_t len = IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN;

    memset(h, 0, sizeof(*h));
    h->flags = IPERF2_HDR_EXTEND;
    if (udp) {
        h->flags |= IPERF2_HDR_SEQNO64B;
        len += IPERF2_UDP_HDR_LEN;   /* the UDP length counts the datagram header */
        h->rate_bps = rate_bps;
    }
    h->flags |= IPERF2_HDR_LEN_BIT | ((len << IPERF2_HDR_LEN_SHIFT) & IPERF2_HDR_LEN_MASK);
    h->num_threads = 1;
    h->port = port;
    h->buf_len = (int32_t)buf_len;
    /* time mode: negative amount in 10 ms units (Settings.cpp) */
    h->amount = -(int32_t)((time_ms + 9) / 10);
}

int iperf2_dgram_encode(const struct iperf2_dgram *d, uint8_t *buf, size_t cap)
{
    uint64_t s = (uint64_t)d->seq;
    if (cap < IPERF2_UDP_HDR_LEN)
        return -EMSGSIZE;
    put32(buf + 0, (uint32_t)s);
    put32(buf + 4, d->tv_sec);
    put32(buf + 8, d->tv_usec);
    put32(buf + 12, (uint32_t)(s >> 32));
    return 0;
}

int iperf2_dgram_decode(const uint8_t *buf, size_t len, bool seq64, struct iperf2_dgram *d)
{
    if (len < (seq64 ? IPERF2_UDP_HDR_LEN : IPERF2_UDP_HDR32_LEN))
        return -EMSGSIZE;
    if (seq64)
        d->seq = (int64_t)((uint64_t)get32(buf) | (uint64_t)get32(buf + 12) << 32);
    else
        d->seq = (int32_t)get32(buf);
    d->tv_sec = get32(buf + 4);
    d->tv_usec = get32(buf + 8);
    return 0;
}

/* server_hdr word offsets after the 16-byte datagram header */
enum {
    SRV_FLAGS = 0, SRV_LEN1 = 4, SRV_LEN2 = 8, SRV_STOP_SEC = 12, SRV_STOP_USEC = 16,
    SRV_ERR = 20, SRV_OOO = 24, SRV_DGRAMS = 28, SRV_JIT1 = 32, SRV_JIT2 = 36,
    SRV_V1_END = 40,
    SRV_EXT2 = 100, SRV_ERR2 = 100, SRV_OOO2 = 104, SRV_DGRAMS2 = 108,
};

size_t iperf2_fin_ack_encode(const struct iperf2_dgram *d, const struct iperf2_server_report *r,
                             uint8_t *buf, size_t cap)
{
    uint8_t *s = buf + IPERF2_UDP_HDR_LEN;
    if (cap < IPERF2_FIN_ACK_LEN)
        return 0;
    memset(buf, 0, IPERF2_FIN_ACK_LEN);
    iperf2_dgram_encode(d, buf, cap);
    put32(s + SRV_FLAGS, r->flags);
    put32(s + SRV_LEN1, (uint32_t)(r->total_bytes >> 32));
    put32(s + SRV_LEN2, (uint32_t)r->total_bytes);
    put32(s + SRV_STOP_SEC, r->stop_sec);
    put32(s + SRV_STOP_USEC, r->stop_usec);
    put32(s + SRV_ERR, (uint32_t)r->lost);
    put32(s + SRV_OOO, (uint32_t)r->out_of_order);
    put32(s + SRV_DGRAMS, (uint32_t)r->datagrams);
    put32(s + SRV_JIT1, r->jitter_sec);
    put32(s + SRV_JIT2, r->jitter_usec);
    if (r->flags & IPERF2_HDR_SEQNO64B) {
        put32(s + SRV_ERR2, (uint32_t)(r->lost >> 32));
        put32(s + SRV_OOO2, (uint32_t)(r->out_of_order >> 32));
        put32(s + SRV_DGRAMS2, (uint32_t)(r->datagrams >> 32));
    }
    return IPERF2_FIN_ACK_LEN;
}

int iperf2_fin_ack_decode(const uint8_t *buf, size_t len, struct iperf2_server_report *r)
{
    const uint8_t *s = buf + IPERF2_UDP_HDR_LEN;
    bool hi;

    memset(r, 0, sizeof(*r));
    if (len < IPERF2_UDP_HDR_LEN + SRV_V1_END)
        return -EMSGSIZE;
    r->flags = get32(s + SRV_FLAGS);
    hi = (r->flags & IPERF2_HDR_SEQNO64B) && len >= IPERF2_FIN_ACK_LEN;
    r->total_bytes = (uint64_t)get32(s + SRV_LEN1) << 32 | get32(s + SRV_LEN2);
    r->stop_sec = get32(s + SRV_STOP_SEC);
    r->stop_usec = get32(s + SRV_STOP_USEC);
    r->lost = (hi ? (uint64_t)get32(s + SRV_ERR2) << 32 : 0) | get32(s + SRV_ERR);
    r->out_of_order = (hi ? (uint64_t)get32(s + SRV_OOO2) << 32 : 0) | get32(s + SRV_OOO);
    r->datagrams = (hi ? (uint64_t)get32(s + SRV_DGRAMS2) << 32 : 0) | get32(s + SRV_DGRAMS);
    r->jitter_sec = get32(s + SRV_JIT1);
    r->jitter_usec = get32(s + SRV_JIT2);
    return 0;
}

bool iperf2_last_interval_kept(uint64_t start_us, uint64_t end_us, uint32_t interval_s)
{
    return interval_s && end_us > start_us && (end_us - start_us) * 10 >= (uint64_t)interval_s * 1000000u;
}
