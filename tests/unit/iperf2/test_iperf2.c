/* test_iperf2.c - iperf 2 wire formats against references built from the
 * iperf 2.1.8 structure layout (include/payloads.h), big-endian. */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "iperf2.h"

/* Reference layouts, field for field as iperf 2.1.8 declares them
 * (client_hdr_v1 + client_hdrext; UDP_datagram + server_hdr), packed(4). */
#pragma pack(push, 4)
struct ref_client_hdr {
    int32_t flags, numThreads, mPort, mBufLen, mWinBand, mAmount;
    int32_t type, length;
    int16_t upperflags, lowerflags;
    uint32_t version_u, version_l;
    uint16_t reserved, tos;
    uint32_t lRate, uRate, TCPWritePrefetch;
};
struct ref_dgram { uint32_t id, tv_sec, tv_usec, id2; };
struct ref_server_hdr {
    int32_t flags, total_len1, total_len2, stop_sec, stop_usec, error_cnt, outorder_cnt,
            datagrams, jitter1, jitter2;
    int32_t ext[15];
    int32_t error_cnt2, outorder_cnt2, datagrams2;
};
#pragma pack(pop)

static void test_reference_layout_sizes_match_iperf_2_1_8(void **state)
{
    (void)state;
    assert_int_equal(sizeof(struct ref_client_hdr), IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN);
    assert_int_equal(sizeof(struct ref_dgram), IPERF2_UDP_HDR_LEN);
    assert_int_equal(sizeof(struct ref_server_hdr), IPERF2_SERVER_HDR_LEN);
}

static void test_tcp_ext_header_encodes_byte_exact(void **state)
{
    struct iperf2_client_hdr h;
    struct ref_client_hdr ref;
    uint8_t buf[128];
    (void)state;

    iperf2_client_hdr_init(&h, false, 5001, 0, 10000, 0);
    memset(&ref, 0, sizeof(ref));
    /* what a 2.1.8 "iperf -c X -t 10" sends first: EXTEND | LEN_BIT | 60<<1 */
    ref.flags = (int32_t)htonl(0x40000000u | 0x00010000u | (60u << 1));
    ref.numThreads = (int32_t)htonl(1);
    ref.mPort = (int32_t)htonl(5001);
    ref.mAmount = (int32_t)htonl((uint32_t)-1000);
    assert_int_equal(iperf2_client_hdr_encode(&h, buf, sizeof(buf)), 60);
    assert_memory_equal(buf, &ref, 60);
    assert_int_equal(buf[0], 0x40);
    assert_int_equal(buf[3], 0x78);
}

static void test_udp_header_carries_seq64_length_and_split_rate(void **state)
{
    struct iperf2_client_hdr h, back;
    struct ref_client_hdr ref;
    uint8_t buf[128];
    uint64_t rate = 0x123456789ull;     /* > 32 bits: uRate holds high word << 8 */
    (void)state;

    iperf2_client_hdr_init(&h, true, 5001, 1470, 5000, rate);
    memset(&ref, 0, sizeof(ref));
    ref.flags = (int32_t)htonl(0x40000000u | 0x08000000u | 0x00010000u | (76u << 1));
    ref.numThreads = (int32_t)htonl(1);
    ref.mPort = (int32_t)htonl(5001);
    ref.mBufLen = (int32_t)htonl(1470);
    ref.mAmount = (int32_t)htonl((uint32_t)-500);
    ref.lRate = htonl(0x23456789u);
    ref.uRate = htonl(0x1u << 8);
    assert_int_equal(iperf2_client_hdr_encode(&h, buf, sizeof(buf)), 60);
    assert_memory_equal(buf, &ref, 60);
    assert_int_equal(iperf2_client_hdr_decode(buf, 60, &back), 76);
    assert_int_equal(back.rate_bps, rate);
    assert_int_equal(back.amount, -500);
    assert_int_equal(back.buf_len, 1470);
}

static void test_v1_dual_header_decodes_flags_and_length_24(void **state)
{
    struct ref_client_hdr ref;
    struct iperf2_client_hdr h;
    (void)state;
    memset(&ref, 0, sizeof(ref));
    ref.flags = (int32_t)htonl(0x80000001u);      /* 2.0 client -d: VERSION1 | RUN_NOW */
    ref.numThreads = (int32_t)htonl(1);
    ref.mPort = (int32_t)htonl(5002);
    ref.mAmount = (int32_t)htonl((uint32_t)-1000);
    assert_int_equal(iperf2_client_hdr_decode((const uint8_t *)&ref, 24, &h), 24);
    assert_true(h.flags & IPERF2_HDR_VERSION1);
    assert_true(h.flags & IPERF2_RUN_NOW);
    assert_int_equal(h.port, 5002);
    assert_int_equal(h.amount, -1000);
}

static void test_plain_data_without_header_flags_decodes_as_no_header(void **state)
{
    const uint8_t data[] = "0123456789012345678901234567890123456789";
    struct iperf2_client_hdr h;
    (void)state;
    assert_int_equal(iperf2_client_hdr_decode(data, sizeof(data), &h), 0);
}

static void test_truncated_headers_report_emsgsize(void **state)
{
    struct iperf2_client_hdr h;
    uint8_t buf[128];
    (void)state;
    iperf2_client_hdr_init(&h, false, 5001, 0, 10000, 0);
    iperf2_client_hdr_encode(&h, buf, sizeof(buf));
    assert_int_equal(iperf2_client_hdr_decode(buf, 3, &h), -EMSGSIZE);
    assert_int_equal(iperf2_client_hdr_decode(buf, 23, &h), -EMSGSIZE);
    assert_int_equal(iperf2_client_hdr_decode(buf, 59, &h), -EMSGSIZE);
    assert_int_equal(iperf2_client_hdr_decode(buf, 60, &h), 60);
}

static void test_announced_length_below_v1_is_einval(void **state)
{
    uint8_t buf[64] = { 0 };
    struct iperf2_client_hdr h;
    (void)state;
    buf[0] = 0x40;                 /* EXTEND */
    buf[1] = 0x01;                 /* LEN_BIT */
    buf[3] = 10 << 1;              /* claims 10 bytes */
    assert_int_equal(iperf2_client_hdr_decode(buf, sizeof(buf), &h), -EINVAL);
}

static void test_encode_into_small_buffer_writes_nothing(void **state)
{
    struct iperf2_client_hdr h;
    uint8_t buf[59];
    (void)state;
    memset(buf, 0xAA, sizeof(buf));
    iperf2_client_hdr_init(&h, false, 5001, 0, 1000, 0);
    assert_int_equal(iperf2_client_hdr_encode(&h, buf, sizeof(buf)), 0);
    assert_int_equal(buf[0], 0xAA);
}

static void test_dgram_seq64_roundtrip_and_layout(void **state)
{
    struct iperf2_dgram d = { .seq = 0x0000000500000007ll, .tv_sec = 100, .tv_usec = 999999 }, back;
    struct ref_dgram ref = { htonl(7), htonl(100), htonl(999999), htonl(5) };
    uint8_t buf[16];
    (void)state;
    assert_int_equal(iperf2_dgram_encode(&d, buf, sizeof(buf)), 0);
    assert_memory_equal(buf, &ref, 16);
    assert_int_equal(iperf2_dgram_decode(buf, 16, true, &back), 0);
    assert_true(back.seq == d.seq);
    assert_int_equal(back.tv_usec, 999999);
}

static void test_negative_seq_is_fin_in_both_widths(void **state)
{
    struct iperf2_dgram d = { .seq = -12345 }, back;
    uint8_t buf[16];
    (void)state;
    iperf2_dgram_encode(&d, buf, sizeof(buf));
    assert_int_equal(iperf2_dgram_decode(buf, 16, true, &back), 0);
    assert_true(back.seq == -12345);
    /* a 2.0 peer sends a signed 32-bit id only */
    assert_int_equal(iperf2_dgram_decode(buf, 12, false, &back), 0);
    assert_true(back.seq == -12345);
}

static void test_truncated_datagram_is_rejected(void **state)
{
    struct iperf2_dgram back = { .seq = 77 };
    uint8_t buf[16] = { 0 };
    (void)state;
    assert_int_equal(iperf2_dgram_decode(buf, 15, true, &back), -EMSGSIZE);
    assert_int_equal(iperf2_dgram_decode(buf, 11, false, &back), -EMSGSIZE);
    assert_int_equal(iperf2_dgram_decode(buf, 0, true, &back), -EMSGSIZE);
    assert_true(back.seq == 77);
}

static void test_fin_ack_layout_matches_server_hdr(void **state)
{
    struct iperf2_dgram d = { .seq = -1001, .tv_sec = 1, .tv_usec = 2 };
    struct iperf2_server_report r = {
        .flags = IPERF2_HDR_VERSION1 | IPERF2_HDR_SEQNO64B,
        .total_bytes = 0x100000002ull, .stop_sec = 10, .stop_usec = 500000,
        .lost = 0x200000003ull, .out_of_order = 4, .datagrams = 0x300000005ull,
        .jitter_sec = 0, .jitter_usec = 1234,
    }, back;
    struct { struct ref_dgram d; struct ref_server_hdr s; } ref;
    uint8_t buf[IPERF2_FIN_ACK_LEN];
    (void)state;

    memset(&ref, 0, sizeof(ref));
    ref.d.id = htonl((uint32_t)-1001);
    ref.d.tv_sec = htonl(1);
    ref.d.tv_usec = htonl(2);
    ref.d.id2 = htonl(0xFFFFFFFFu);
    ref.s.flags = (int32_t)htonl(0x88000000u);
    ref.s.total_len1 = (int32_t)htonl(1);
    ref.s.total_len2 = (int32_t)htonl(2);
    ref.s.stop_sec = (int32_t)htonl(10);
    ref.s.stop_usec = (int32_t)htonl(500000);
    ref.s.error_cnt = (int32_t)htonl(3);
    ref.s.outorder_cnt = (int32_t)htonl(4);
    ref.s.datagrams = (int32_t)htonl(5);
    ref.s.jitter2 = (int32_t)htonl(1234);
    ref.s.error_cnt2 = (int32_t)htonl(2);
    ref.s.datagrams2 = (int32_t)htonl(3);
    assert_int_equal(iperf2_fin_ack_encode(&d, &r, buf, sizeof(buf)), IPERF2_FIN_ACK_LEN);
    assert_memory_equal(buf, &ref, IPERF2_FIN_ACK_LEN);
    assert_int_equal(iperf2_fin_ack_decode(buf, sizeof(buf), &back), 0);
    assert_true(back.lost == r.lost);
    assert_true(back.datagrams == r.datagrams);
    assert_true(back.total_bytes == r.total_bytes);
    assert_int_equal(back.jitter_usec, 1234);
}

static void test_fin_ack_v1_only_reads_low_words_and_short_is_rejected(void **state)
{
    struct iperf2_dgram d = { .seq = -3 };
    struct iperf2_server_report r = { .flags = IPERF2_HDR_VERSION1, .lost = 9, .datagrams = 10 }, back;
    uint8_t buf[IPERF2_FIN_ACK_LEN];
    (void)state;
    iperf2_fin_ack_encode(&d, &r, buf, sizeof(buf));
    assert_int_equal(iperf2_fin_ack_decode(buf, 16 + 40, &back), 0);
    assert_true(back.lost == 9);
    assert_true(back.datagrams == 10);
    assert_int_equal(iperf2_fin_ack_decode(buf, 16 + 39, &back), -EMSGSIZE);
    assert_int_equal(iperf2_fin_ack_encode(&d, &r, buf, IPERF2_FIN_ACK_LEN - 1), 0);
}

/* xorshift32: seeded, so a failure reproduces (no rand()) */
static uint32_t prng(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void test_random_bytes_of_every_length_never_crash_and_keep_contracts(void **state)
{
    uint8_t buf[300];
    uint32_t seed = 0x1234567u;
    (void)state;
    for (int iter = 0; iter < 20000; iter++) {
        size_t len = prng(&seed) % sizeof(buf);
        struct iperf2_client_hdr h;
        struct iperf2_dgram d;
        struct iperf2_server_report r;
        int rc;
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)prng(&seed);
        if (iter & 1)   /* half the time, make the header flags plausible */
            buf[0] = (uint8_t)((buf[0] & 0x3F) | 0x40);
        rc = iperf2_client_hdr_decode(buf, len, &h);
        assert_true(rc == 0 || rc == -EMSGSIZE || rc == -EINVAL ||
                    (rc >= IPERF2_CLIENT_V1_LEN && rc <= IPERF2_CLIENT_MAX_LEN));
        if (rc > 0)     /* a header is only accepted when its fixed part was there */
            assert_true(len >= ((h.flags & IPERF2_HDR_EXTEND) ? 60u : 24u));
        rc = iperf2_dgram_decode(buf, len, iter & 2, &d);
        assert_true(rc == 0 ? len >= ((iter & 2) ? 16u : 12u) : rc == -EMSGSIZE);
        rc = iperf2_fin_ack_decode(buf, len, &r);
        assert_true(rc == 0 ? len >= 56u : rc == -EMSGSIZE);
    }
}

/* docs/SECURITY.md F3: mAmount < 0 times 10 ms overflowed 32 bits
 * (INT32_MIN gave 0 ms, -429496730 gave 4 ms); now clamped to max_ms. */
static void test_amount_time_ms_clamps_large_times_instead_of_wrapping(void **state)
{
    (void)state;
    assert_int_equal(iperf2_amount_time_ms(INT32_MIN, 86400000u), 86400000u);
    assert_int_equal(iperf2_amount_time_ms(-429496730, 86400000u), 86400000u);
    assert_int_equal(iperf2_amount_time_ms(-429496730, UINT32_MAX), UINT32_MAX);
    assert_int_equal(iperf2_amount_time_ms(-8640000, 86400000u), 86400000u);
    assert_int_equal(iperf2_amount_time_ms(-8640001, 86400000u), 86400000u);
    assert_int_equal(iperf2_amount_time_ms(-1000, 86400000u), 10000u);
    assert_int_equal(iperf2_amount_time_ms(-1, 86400000u), 10u);
    assert_int_equal(iperf2_amount_time_ms(0, 86400000u), 0u);
    assert_int_equal(iperf2_amount_time_ms(1000000, 86400000u), 0u);   /* a byte amount */
}

/* a last interval is kept when it lasted a tenth of -i (iperf3's
 * threshold); never without -i */
static void test_last_interval_kept_from_a_tenth(void **state)
{
    (void)state;
    assert_false(iperf2_last_interval_kept(5000, 5395, 1));        /* a TCP tail of 395 us */
    assert_true(iperf2_last_interval_kept(5000, 105000, 1));
    assert_false(iperf2_last_interval_kept(5000, 104999, 1));
    assert_true(iperf2_last_interval_kept(5000, 1004826, 1));      /* a UDP test's last second */
    assert_true(iperf2_last_interval_kept(5000, 205000, 2));
    assert_false(iperf2_last_interval_kept(5000, 204999, 2));
    assert_false(iperf2_last_interval_kept(5000, 1005000, 0));
    /* the end before the last boundary: a boundary's line covers it */
    assert_false(iperf2_last_interval_kept(1005000, 1004000, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_layout_sizes_match_iperf_2_1_8),
        cmocka_unit_test(test_last_interval_kept_from_a_tenth),
        cmocka_unit_test(test_tcp_ext_header_encodes_byte_exact),
        cmocka_unit_test(test_udp_header_carries_seq64_length_and_split_rate),
        cmocka_unit_test(test_v1_dual_header_decodes_flags_and_length_24),
        cmocka_unit_test(test_plain_data_without_header_flags_decodes_as_no_header),
        cmocka_unit_test(test_truncated_headers_report_emsgsize),
        cmocka_unit_test(test_announced_length_below_v1_is_einval),
        cmocka_unit_test(test_encode_into_small_buffer_writes_nothing),
        cmocka_unit_test(test_dgram_seq64_roundtrip_and_layout),
        cmocka_unit_test(test_negative_seq_is_fin_in_both_widths),
        cmocka_unit_test(test_truncated_datagram_is_rejected),
        cmocka_unit_test(test_fin_ack_layout_matches_server_hdr),
        cmocka_unit_test(test_fin_ack_v1_only_reads_low_words_and_short_is_rejected),
        cmocka_unit_test(test_random_bytes_of_every_length_never_crash_and_keep_contracts),
        cmocka_unit_test(test_amount_time_ms_clamps_large_times_instead_of_wrapping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
