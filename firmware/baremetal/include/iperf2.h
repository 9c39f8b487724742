/* iperf2.h - iperf 2 wire formats (encode/decode only, no I/O).
 *
 * Facts from iperf 2.1.8 include/payloads.h and src/Settings.cpp,
 * Listener.cpp, Server.cpp, Reports.c.  All fields are big-endian 32-bit
 * words unless noted; structures are packed on 4-byte alignment.
 *
 *   UDP datagram (every UDP payload starts with it), 16 bytes:
 *     0 id (seq low 32)  4 tv_sec  8 tv_usec  12 id2 (seq high 32, only
 *     with HEADER_SEQNO64B; 2.0.x peers use a signed 32-bit id).
 *     A negative sequence number marks the client's FIN datagram.
 *   client_hdr_v1, 24 bytes: flags numThreads mPort mBufLen mWinBand mAmount
 *     (mAmount < 0: time in 10 ms units; >= 0: bytes).  This is also the
 *     lwiperf "settings" header.  TCP: at offset 0 of the stream; UDP: at
 *     offset 16 of every datagram.
 *   client_hdrext, 36 bytes (after v1 when HEADER_EXTEND): type length
 *     upperflags:16 lowerflags:16 version_u version_l reserved:16 tos:16
 *     lRate uRate TCPWritePrefetch.
 *   server_hdr (the UDP server's report, after a 16-byte UDP datagram
 *     header in the server's FIN-ack), 112 bytes: v1 (flags total_len1
 *     total_len2 stop_sec stop_usec error_cnt outorder_cnt datagrams
 *     jitter1 jitter2), extension (15 words of transit statistics),
 *     extension2 (error_cnt2 outorder_cnt2 datagrams2, high words).
 *
 * Known limitations: permit keys, isochronous, trip-time, bounceback and
 * small-header (HEADER32_SMALL_TRIPTIMES) variants are recognised only far
 * enough to be rejected or ignored.
 */
#ifndef GEMLAB_IPERF2_H
#define GEMLAB_IPERF2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* client_hdr_v1.flags, payloads.h */
#define IPERF2_HDR_VERSION1     0x80000000u   /* dual/tradeoff test requested */
#define IPERF2_HDR_EXTEND       0x40000000u   /* client_hdrext follows */
#define IPERF2_HDR_UDPTESTS     0x20000000u
#define IPERF2_HDR_KEYCHECK     0x10000000u
#define IPERF2_HDR_SEQNO64B     0x08000000u   /* id2 carries seq bits 63..32 */
#define IPERF2_HDR_VERSION2     0x04000000u
#define IPERF2_HDR_V2PEERDETECT 0x02000000u
#define IPERF2_HDR_BOUNCEBACK   0x00800000u
#define IPERF2_HDR_SMALL_TRIPTIMES 0x00020000u
#define IPERF2_HDR_LEN_BIT      0x00010000u   /* bits 8..1 hold the header length */
#define IPERF2_HDR_LEN_MASK     0x000001FEu
#define IPERF2_HDR_LEN_SHIFT    1
#define IPERF2_RUN_NOW          0x00000001u   /* with VERSION1: dual test */
/* client_hdrext.upperflags */
#define IPERF2_UPPER_REVERSE    0x0400u
#define IPERF2_UPPER_FULLDUPLEX 0x0800u
/* server_hdr flags */
#define IPERF2_SRV_EXTEND       0x40000000u

#define IPERF2_UDP_HDR_LEN      16
#define IPERF2_UDP_HDR32_LEN    12    /* id, tv_sec, tv_usec of 2.0.x */
#define IPERF2_CLIENT_V1_LEN    24
#define IPERF2_CLIENT_EXT_LEN   36
#define IPERF2_CLIENT_MAX_LEN   256   /* MAX_HEADER_LEN */
#define IPERF2_SERVER_HDR_LEN   112
#define IPERF2_FIN_ACK_LEN      (IPERF2_UDP_HDR_LEN + IPERF2_SERVER_HDR_LEN)
#define IPERF2_DEFAULT_PORT     5001

struct iperf2_client_hdr {
    uint32_t flags;
    int32_t num_threads;
    int32_t port;
    int32_t buf_len;
    int32_t win_band;
    int32_t amount;         /* < 0: -time in 10 ms units; >= 0: bytes */
    /* valid when flags & IPERF2_HDR_EXTEND */
    uint16_t upper_flags;
    uint16_t lower_flags;
    uint32_t version_u;
    uint32_t version_l;
    uint16_t tos;
    uint64_t rate_bps;      /* lRate | (uRate >> 8) << 32, as the 2.1 client packs it */
};

struct iperf2_dgram {
    int64_t seq;            /* signed: negative = client FIN */
    uint32_t tv_sec;
    uint32_t tv_usec;
};

struct iperf2_server_report {
    uint32_t flags;
    uint64_t total_bytes;
    uint32_t stop_sec;      /* test duration as the server measured it */
    uint32_t stop_usec;
    uint64_t lost;          /* error_cnt */
    uint64_t out_of_order;
    uint64_t datagrams;
    uint32_t jitter_sec;    /* jitter = jitter_sec + jitter_usec / 1e6 s */
    uint32_t jitter_usec;
};

/* Encode h in iperf 2 layout: 24 bytes, or 60 with IPERF2_HDR_EXTEND in
 * h->flags.  Returns bytes written, 0 if cap is too small. */
size_t iperf2_client_hdr_encode(const struct iperf2_client_hdr *h, uint8_t *buf, size_t cap);

/* Decode a client header from the first len bytes of a TCP stream (or of
 * a UDP payload after its 16-byte datagram header).
 * Returns the header length the peer announced (>= 24), 0 when the flags
 * announce no header (plain data, e.g. a 2.0 client without -d/-r), or
 * -EMSGSIZE when more bytes are needed / the datagram is truncated,
 * -EINVAL when the announced length is impossible. */
int iperf2_client_hdr_decode(const uint8_t *buf, size_t len, struct iperf2_client_hdr *h);

/* A client header's test time: mAmount < 0 is the time in 10 ms units
 * (Settings.cpp).  Returns it in ms, at most max_ms (computed in 64 bits:
 * -INT32_MIN * 10 does not fit 32), or 0 when amount >= 0 (a byte count). */
uint32_t iperf2_amount_time_ms(int32_t amount, uint32_t max_ms);

/* Fill a client header as the 2.1 client would for a plain test from us:
 * HEADER_EXTEND with the length bit, seq64 for UDP, time in ms (rounded
 * up to 10 ms) or byte amount, rate for UDP. */
void iperf2_client_hdr_init(struct iperf2_client_hdr *h, bool udp, uint16_t port,
                            uint32_t buf_len, uint32_t time_ms, uint64_t rate_bps);

/* Datagram header: 16 bytes (seq64) into buf[0..15].  Returns 0 or
 * -EMSGSIZE when cap < 16. */
int iperf2_dgram_encode(const struct iperf2_dgram *d, uint8_t *buf, size_t cap);
/* Returns 0, or -EMSGSIZE for a datagram too short to hold the header
 * (12 bytes without seq64, 16 with). */
int iperf2_dgram_decode(const uint8_t *buf, size_t len, bool seq64, struct iperf2_dgram *d);

/* Server report after a datagram header; buf must hold IPERF2_FIN_ACK_LEN.
 * Returns bytes written or 0 if cap is too small. */
size_t iperf2_fin_ack_encode(const struct iperf2_dgram *d, const struct iperf2_server_report *r,
                             uint8_t *buf, size_t cap);
/* Parse a FIN-ack.  Accepts the 40-byte v1 report of old servers (then
 * the 64-bit high words read as 0).  Returns 0 or -EMSGSIZE. */
int iperf2_fin_ack_decode(const uint8_t *buf, size_t len, struct iperf2_server_report *r);

/* Whether a test's last, partial interval (from the last -i boundary at
 * @start_us to the end of the test at @end_us) gets a progress line of
 * its own: when it lasted at least a tenth of the interval, iperf3's
 * threshold (iperf_print_intermediate, src/iperf_api.c).  Without it the
 * intervals of a test that ends between two boundaries missed its tail:
 * a 1 s test had none, a 3 s UDP test two.  A shorter tail (a TCP test's
 * last segments, 0.4 ms after the boundary) is left out, unlike iperf3,
 * which keeps one that carried data: a line for 0.04 % of a second would
 * plot as a whole interval.  Its bytes count in the result line.  False
 * when @interval_s is 0 (no -i) or @end_us is not after @start_us (a
 * boundary's line already covers the end). */
bool iperf2_last_interval_kept(uint64_t start_us, uint64_t end_us, uint32_t interval_s);

#endif /* GEMLAB_IPERF2_H */
