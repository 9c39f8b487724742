/* The wire capture as evidence (emu/runner/capture.c): synthetic TCP
 * conversations written with the models' pcapng writer, read back, and
 * the retransmissions, RTTs and windows a bench engineer would count. */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
/* the code under test allocates with libc (cJSON) */
#undef malloc
#undef calloc
#undef realloc
#undef free

#include "capture.h"
#include "gemlab/pcapng.h"

#define US 1000ull
#define MS 1000000ull

static const uint8_t board_ip[4] = { 10, 0, 2, 15 }, host_ip[4] = { 10, 0, 2, 2 };

struct w {
    char path[64];
    FILE *f;
    struct gl_pcapng p;
};

static void w_open(struct w *w)
{
    snprintf(w->path, sizeof(w->path), "/tmp/gl-cap-XXXXXX");
    int fd = mkstemp(w->path);
    assert_true(fd >= 0);
    w->f = fdopen(fd, "wb");
    assert_non_null(w->f);
    assert_int_equal(gl_pcapng_start(&w->p, w->f, GL_PCAPNG_MAX_DEFAULT, GL_PCAPNG_SNAPLEN, NULL), 0);
}

static void put16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)(v >> 8); b[1] = (uint8_t)v; }
static void put32(uint8_t *b, uint32_t v) { put16(b, (uint16_t)(v >> 16)); put16(b + 2, (uint16_t)v); }

/* The IPv4 identification of the next frame: each datagram its own, as
 * lwIP (ip4.c ip_id) and Linux (ip_select_ident_segs) number them; a test
 * sets same_ipid to send the previous datagram's again (a network copy). */
static uint16_t next_ipid = 1;
static int same_ipid;
/* every datagram numbered 0 (RFC 6864 4.1): the time and duplicate-ACK
 * rules decide, not the numbers */
static int zero_ipid;
/* the opt_comment QEMU gives the next frame (gemlab_link.c), or NULL */
static const char *comment;

/* One IPv4/TCP frame: @from_board decides addresses, ports and direction. */
static uint16_t ip_frag;   /* IPv4 flags and fragment offset of the next seg() */

static void seg(struct w *w, uint64_t t, int from_board, uint16_t bport, uint8_t flags, uint32_t seq,
                uint32_t ack, uint16_t win, uint32_t len, int ws, int mss, int bad_fcs)
{
    uint8_t f[1600] = { 0 };
    uint32_t thl = 20 + (ws >= 0 ? 4 : 0) + (mss >= 0 ? 4 : 0), o = 14 + 20 + 20;
    uint32_t iplen = 20 + thl + len;

    put16(f + 12, 0x0800);
    f[14] = 0x45;
    put16(f + 16, (uint16_t)iplen);
    put16(f + 18, zero_ipid ? 0 : same_ipid ? (uint16_t)(next_ipid - 1) : next_ipid++);
    put16(f + 20, ip_frag);
    f[22] = 64;
    f[23] = 6;
    memcpy(f + 26, from_board ? board_ip : host_ip, 4);
    memcpy(f + 30, from_board ? host_ip : board_ip, 4);
    put16(f + 34, from_board ? bport : 5001);
    put16(f + 36, from_board ? 5001 : bport);
    put32(f + 38, seq);
    put32(f + 42, ack);
    f[46] = (uint8_t)((thl / 4) << 4);
    f[47] = flags;
    put16(f + 48, win);
    if (mss >= 0) {
        f[o] = 2; f[o + 1] = 4; put16(f + o + 2, (uint16_t)mss);
        o += 4;
    }
    if (ws >= 0) {
        f[o] = 1; f[o + 1] = 3; f[o + 2] = 3; f[o + 3] = (uint8_t)ws;
        o += 4;
    }
    assert_int_equal(gl_pcapng_frame(&w->p, t, !from_board, f, 14 + iplen, bad_fcs, comment, NULL), 0);
}

#define SYN 0x02
#define ACK 0x10
#define PSH 0x08

/* The partner's SYN, the board's SYN-ACK 100 us on, the partner's ACK
 * 1 ms after that: a handshake RTT of 1 ms, no window scale. */
static void handshake_1ms(struct w *w)
{
    seg(w, 0, 0, 40000, SYN, 1000, 0, 65535, 0, -1, 1460, 0);
    seg(w, 100 * US, 1, 40000, SYN | ACK, 5000, 1001, 65535, 0, -1, 1460, 0);
    seg(w, 1100 * US, 0, 40000, ACK, 1001, 5001, 65535, 0, -1, -1, 0);
}

static cJSON *analyse(struct w *w)
{
    cJSON *o = NULL;
    fclose(w->f);
    assert_int_equal(cap_analyse(w->path, &o, stderr), 0);
    unlink(w->path);
    assert_non_null(o);
    return o;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!cJSON_IsNumber(v))
        fail_msg("no number '%s'", k);
    return v->valuedouble;
}

static const cJSON *dir_of(const cJSON *o, int flow, const char *sender)
{
    const cJSON *fl = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, "tcp_flows"), flow), *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(fl, "directions"))
        if (!strcmp(cJSON_GetObjectItemCaseSensitive(d, "sender")->valuestring, sender))
            return d;
    fail_msg("flow %d has no direction sent by %s", flow, sender);
    return NULL;
}

/* Host -> board (iperf client on the host): the RTT comes from the
 * handshake only (SYN-ACK out, ACK back); a repeated segment is one
 * retransmission; the board's window is scaled by its own shift. */
static void test_host_to_board_handshake_rtt_retransmit_window(void **state)
{
    struct w w;
    cJSON *o;
    const cJSON *h;
    (void)state;
    w_open(&w);
    seg(&w, 0, 0, 40000, SYN, 1000, 0, 65535, 0, 7, 1460, 0);
    seg(&w, 100 * US, 1, 40000, SYN | ACK, 5000, 1001, 1000, 0, 2, 1460, 0);
    seg(&w, 10100 * US, 0, 40000, ACK, 1001, 5001, 512, 0, -1, -1, 0);   /* RTT 10 ms */
    for (uint32_t i = 0; i < 10; i++) {
        seg(&w, 11 * MS + i * US, 0, 40000, ACK | PSH, 1001 + i * 1000, 5001, 512, 1000, -1, -1, 0);
        seg(&w, 11 * MS + i * US + 1, 1, 40000, ACK, 5001, 2001 + i * 1000, 1000, 0, -1, -1, 0);
    }
    seg(&w, 20 * MS, 0, 40000, ACK | PSH, 3001, 5001, 512, 1000, -1, -1, 0);      /* retransmission */
    seg(&w, 21 * MS, 0, 40000, ACK | PSH, 11000, 5001, 512, 1, -1, -1, 0);        /* keepalive */
    seg(&w, 22 * MS, 0, 40000, ACK | PSH, 11001, 5001, 512, 1000, -1, -1, 1);     /* bad FCS: ignored */
    o = analyse(&w);
    assert_int_equal(num(o, "frames"), 26);
    assert_int_equal(num(o, "crc_errors"), 1);
    assert_int_equal(num(o, "crc_errors_out"), 0);      /* the partner's frame */
    assert_int_equal(num(o, "tcp_retransmits"), 1);
    assert_true(fabs(num(o, "rtt_min_us") - 10000.0) < 0.01);
    h = dir_of(o, 0, "partner");
    assert_int_equal(num(h, "retransmits"), 1);
    assert_int_equal(num(h, "bytes"), 10 * 1000 + 1000 + 1);
    assert_int_equal(num(h, "peer_rwnd_max_bytes"), 4000);  /* 1000 << 2 */
    assert_int_equal(num(h, "mss"), 1460);
    assert_false(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(h, "rtt_min_us")));
    h = dir_of(o, 0, "board");
    assert_int_equal(num(h, "rtt_samples"), 1);
    assert_int_equal(num(h, "retransmits"), 0);
    cJSON_Delete(o);
}

/* Board -> host: RTT from the SYN and from data acked once (Karn: not
 * from a retransmitted segment); in-flight bytes; zero windows. */
static void test_board_sender_rtt_karn_inflight_zero_window(void **state)
{
    struct w w;
    cJSON *o;
    const cJSON *b;
    (void)state;
    w_open(&w);
    seg(&w, 0, 1, 50000, SYN, 100, 0, 5840, 0, -1, 1460, 0);
    seg(&w, 3 * MS, 0, 50000, SYN | ACK, 900, 101, 8192, 0, -1, 1460, 0);         /* RTT 3 ms */
    seg(&w, 3 * MS + 1, 1, 50000, ACK, 101, 901, 5840, 0, -1, -1, 0);
    seg(&w, 4 * MS, 1, 50000, ACK | PSH, 101, 901, 5840, 1460, -1, -1, 0);
    seg(&w, 4 * MS + 10, 1, 50000, ACK | PSH, 1561, 901, 5840, 1460, -1, -1, 0);
    seg(&w, 4 * MS + 20, 1, 50000, ACK | PSH, 3021, 901, 5840, 1460, -1, -1, 0);  /* 4380 in flight */
    seg(&w, 6 * MS + 20, 0, 50000, ACK, 901, 4481, 0, 0, -1, -1, 0);             /* RTT 2 ms; window 0 */
    seg(&w, 7 * MS, 1, 50000, ACK | PSH, 4481, 901, 5840, 100, -1, -1, 0);
    seg(&w, 8 * MS, 1, 50000, ACK | PSH, 4481, 901, 5840, 100, -1, -1, 0);        /* retransmitted */
    seg(&w, 8 * MS + 500 * US, 0, 50000, ACK, 901, 4581, 8192, 0, -1, -1, 0);     /* 0.5 ms: no sample */
    o = analyse(&w);
    b = dir_of(o, 0, "board");
    assert_int_equal(num(b, "rtt_samples"), 2);
    assert_true(fabs(num(b, "rtt_min_us") - 2000.0) < 0.01);
    assert_int_equal(num(b, "retransmits"), 1);
    assert_int_equal(num(b, "inflight_max_bytes"), 4380);
    assert_int_equal(num(b, "peer_zero_windows"), 1);
    assert_int_equal(num(b, "peer_rwnd_max_bytes"), 8192);
    cJSON_Delete(o);
}

/* The tap is at the board's end of the cable: a segment the board sent
 * and the wire garbled after the tap (written outbound with the CRC-error
 * flag) was sent whole, so its resend is a retransmission; an inbound one
 * the board's MAC discards is no evidence. */
static void test_board_segment_garbled_on_the_wire_was_sent(void **state)
{
    struct w w;
    cJSON *o;
    const cJSON *b;
    (void)state;
    w_open(&w);
    seg(&w, 0, 1, 50000, SYN, 100, 0, 5840, 0, -1, 1460, 0);
    seg(&w, 2 * MS, 0, 50000, SYN | ACK, 900, 101, 8192, 0, -1, 1460, 0);
    seg(&w, 2 * MS + 1, 1, 50000, ACK, 101, 901, 5840, 0, -1, -1, 0);
    seg(&w, 3 * MS, 1, 50000, ACK | PSH, 101, 901, 5840, 1460, -1, -1, 1);       /* garbled after the tap */
    seg(&w, 203 * MS, 1, 50000, ACK | PSH, 101, 901, 5840, 1460, -1, -1, 0);     /* RTO: sent again */
    seg(&w, 205 * MS, 0, 50000, ACK, 901, 1561, 8192, 0, -1, -1, 0);
    o = analyse(&w);
    assert_int_equal(num(o, "crc_errors"), 1);
    assert_int_equal(num(o, "crc_errors_out"), 1);      /* the board's own frame */
    assert_int_equal(num(o, "tcp_retransmits"), 1);
    b = dir_of(o, 0, "board");
    assert_int_equal(num(b, "segments"), 2);
    assert_int_equal(num(b, "retransmits"), 1);
    assert_int_equal(num(b, "rtt_samples"), 1);       /* the handshake's; Karn: none from the resend */
    cJSON_Delete(o);
}

/* A new connection on the same 4-tuple (a client that reuses its port)
 * is a new flow: read with the old one's sequence state, its first
 * bytes were below snd_max and counted as sent again. */
static void test_new_connection_on_a_reused_4_tuple_is_a_new_flow(void **state)
{
    struct w w;
    cJSON *o;
    (void)state;
    w_open(&w);
    handshake_1ms(&w);
    seg(&w, 2 * MS, 0, 40000, ACK, 1001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 3 * MS, 0, 40000, ACK, 2001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 4 * MS, 1, 40000, ACK, 5001, 3001, 65535, 0, -1, -1, 0);
    /* the same port again, a new initial sequence number below the old */
    seg(&w, 50 * MS, 0, 40000, SYN, 200, 0, 65535, 0, -1, 1460, 0);
    seg(&w, 50 * MS + 100 * US, 1, 40000, SYN | ACK, 7000, 201, 65535, 0, -1, 1460, 0);
    seg(&w, 51 * MS + 100 * US, 0, 40000, ACK, 201, 7001, 65535, 0, -1, -1, 0);
    seg(&w, 52 * MS, 0, 40000, ACK, 201, 7001, 65535, 1000, -1, -1, 0);
    seg(&w, 53 * MS, 0, 40000, ACK, 1201, 7001, 65535, 1000, -1, -1, 0);
    o = analyse(&w);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(o, "tcp_flows")), 2);
    assert_int_equal(num(o, "tcp_retransmits"), 0);
    assert_int_equal(num(o, "tcp_out_of_order"), 0);
    cJSON_Delete(o);

    /* the same SYN sent again is the same connection */
    w_open(&w);
    seg(&w, 0, 0, 40000, SYN, 1000, 0, 65535, 0, -1, 1460, 0);
    seg(&w, 1000 * MS, 0, 40000, SYN, 1000, 0, 65535, 0, -1, 1460, 0);
    seg(&w, 1000 * MS + 100 * US, 1, 40000, SYN | ACK, 5000, 1001, 65535, 0, -1, 1460, 0);
    o = analyse(&w);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(o, "tcp_flows")), 1);
    cJSON_Delete(o);
}

/* A SYN the board sent again (the first lost, or answered late): which
 * copy the SYN-ACK answers is unknown, so the handshake gives no RTT
 * (Karn's rule, RFC 6298 3).  The resent SYN was timed from itself and
 * gave a 50 us RTT over a 2 ms path. */
static void test_resent_syn_gives_no_rtt(void **state)
{
    struct w w;
    cJSON *o;
    const cJSON *b;
    (void)state;
    w_open(&w);
    seg(&w, 0, 1, 50000, SYN, 100, 0, 5840, 0, -1, 1460, 0);
    seg(&w, 1000 * MS, 1, 50000, SYN, 100, 0, 5840, 0, -1, 1460, 0);             /* resent */
    seg(&w, 1000 * MS + 50 * US, 0, 50000, SYN | ACK, 900, 101, 8192, 0, -1, 1460, 0);
    seg(&w, 1000 * MS + 51 * US, 1, 50000, ACK, 101, 901, 5840, 0, -1, -1, 0);
    seg(&w, 1001 * MS, 1, 50000, ACK | PSH, 101, 901, 5840, 1460, -1, -1, 0);
    seg(&w, 1003 * MS, 0, 50000, ACK, 901, 1561, 8192, 0, -1, -1, 0);            /* RTT 2 ms */
    o = analyse(&w);
    b = dir_of(o, 0, "board");
    assert_int_equal(num(b, "rtt_samples"), 1);
    assert_true(fabs(num(b, "rtt_min_us") - 2000.0) < 0.01);
    cJSON_Delete(o);
}

/* The board's own segments reach the tap (at its end of the cable) in
 * the order it sent them: bytes it sends again are a retransmission even
 * when their first copy has left the ring of the last 512 segments (600
 * segments in flight here); they were counted as out of order. */
static void test_board_resend_past_the_ring_is_a_retransmission(void **state)
{
    struct w w;
    cJSON *o;
    const cJSON *b;
    (void)state;
    w_open(&w);
    seg(&w, 0, 1, 50000, SYN, 100, 0, 5840, 0, -1, 1460, 0);
    seg(&w, 3 * MS, 0, 50000, SYN | ACK, 900, 101, 65535, 0, -1, 1460, 0);
    seg(&w, 3 * MS + 1, 1, 50000, ACK, 101, 901, 5840, 0, -1, -1, 0);
    for (uint32_t i = 0; i < 600; i++)
        seg(&w, 4 * MS + i * US, 1, 50000, ACK | PSH, 101 + 1000 * i, 901, 5840, 1000, -1, -1, 0);
    seg(&w, 4 * MS + 600 * US, 1, 50000, ACK | PSH, 101 + 1000 * 4, 901, 5840, 1000, -1, -1, 0);
    o = analyse(&w);
    b = dir_of(o, 0, "board");
    assert_int_equal(num(b, "retransmits"), 1);
    assert_int_equal(num(b, "out_of_order"), 0);
    cJSON_Delete(o);
}

/* Not every segment below the highest sequence is a retransmission
 * (Wireshark's tcp.analysis): a segment reordered on the path comes
 * within a round trip of the stream moving on, and a datagram the network
 * copied comes again with its own identification; a hole filled after a
 * round trip, or after duplicate ACKs, is a retransmission. */
static void test_reorder_and_duplicates_are_not_retransmissions(void **state)
{
    struct w w;
    cJSON *o;
    const cJSON *h;
    (void)state;
    zero_ipid = 1;
    w_open(&w);
    handshake_1ms(&w);
    /* reordered: 2001 after 3001, 10 us later */
    seg(&w, 2 * MS, 0, 40000, ACK, 1001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 2 * MS + 10 * US, 0, 40000, ACK, 3001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 2 * MS + 20 * US, 0, 40000, ACK, 2001, 5001, 65535, 1000, -1, -1, 0);
    /* the network's copy of 4001: the same datagram 12 us later */
    seg(&w, 3 * MS, 0, 40000, ACK, 4001, 5001, 65535, 1000, -1, -1, 0);
    same_ipid = 1;
    seg(&w, 3 * MS + 12 * US, 0, 40000, ACK, 4001, 5001, 65535, 1000, -1, -1, 0);
    same_ipid = 0;
    /* 5001 lost before the capture: it fills its hole 5 ms later */
    seg(&w, 4 * MS, 0, 40000, ACK, 6001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 9 * MS, 0, 40000, ACK, 5001, 5001, 65535, 1000, -1, -1, 0);
    /* 7001 lost: three ACKs of it (two duplicates), then it comes at once */
    seg(&w, 10 * MS, 0, 40000, ACK, 8001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 10 * MS + 10 * US, 1, 40000, ACK, 5001, 7001, 65535, 0, -1, -1, 0);
    seg(&w, 10 * MS + 20 * US, 1, 40000, ACK, 5001, 7001, 65535, 0, -1, -1, 0);
    seg(&w, 10 * MS + 30 * US, 1, 40000, ACK, 5001, 7001, 65535, 0, -1, -1, 0);
    seg(&w, 10 * MS + 40 * US, 0, 40000, ACK, 7001, 5001, 65535, 1000, -1, -1, 0);
    o = analyse(&w);
    h = dir_of(o, 0, "partner");
    assert_int_equal(num(h, "out_of_order"), 1);
    assert_int_equal(num(h, "duplicates"), 1);
    assert_int_equal(num(h, "retransmits"), 2);
    assert_int_equal(num(o, "tcp_retransmits"), 2);
    assert_int_equal(num(o, "tcp_out_of_order"), 1);
    assert_int_equal(num(o, "tcp_duplicates"), 1);
    cJSON_Delete(o);

    /* without the handshake the threshold is Wireshark's 3 ms: a hole
     * filled 2 ms on is out of order, 4 ms on a retransmission */
    w_open(&w);
    seg(&w, 0, 0, 40000, ACK, 1001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 10 * US, 0, 40000, ACK, 3001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 2 * MS, 0, 40000, ACK, 2001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 3 * MS, 0, 40000, ACK, 5001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 7 * MS + 1, 0, 40000, ACK, 4001, 5001, 65535, 1000, -1, -1, 0);
    o = analyse(&w);
    h = dir_of(o, 0, "partner");
    assert_int_equal(num(h, "out_of_order"), 1);
    assert_int_equal(num(h, "retransmits"), 1);
    assert_int_equal(num(h, "duplicates"), 0);
    cJSON_Delete(o);
    zero_ipid = 0;
}

/* A fresh connection: 20 segments of 1000 bytes numbered from @id0,
 * then three numbered from @id_over that overtake the next one, each
 * drawing an ACK of it from the board.  Returns the held segment's
 * sequence number. */
/* A new capture: the handshake, then 20 segments of 1000 bytes from the
 * partner, numbered @id0 on in turn; returns the next sequence number. */
static uint32_t twenty_in_turn(struct w *w, uint16_t id0)
{
    uint32_t seq = 1001;

    w_open(w);
    handshake_1ms(w);
    for (int i = 0; i < 20; i++, seq += 1000) {
        next_ipid = (uint16_t)(id0 + i);
        seg(w, 2 * MS + (uint64_t)i * 10 * US, 0, 40000, ACK, seq, 5001, 65535, 1000, -1, -1, 0);
    }
    return seq;
}

static uint32_t hole_behind_three(struct w *w, uint16_t id0, uint16_t id_over)
{
    uint32_t seq = twenty_in_turn(w, id0);

    for (int i = 0; i < 3; i++) {
        next_ipid = (uint16_t)(id_over + i);
        seg(w, 3 * MS + (uint64_t)i * 10 * US, 0, 40000, ACK, seq + 1000 + (uint32_t)i * 1000, 5001, 65535, 1000,
            -1, -1, 0);
        seg(w, 3 * MS + (uint64_t)i * 10 * US + 1 * US, 1, 40000, ACK, 5001, seq, 65535, 0, -1, -1, 0);
    }
    return seq;
}

/* A path that holds some frames back (netem's reorder: the others skip
 * the delay) makes the board send duplicate ACKs of the hole; the held
 * frames then fill it.  Their IPv4 numbers are older than those of the
 * frames that overtook them, so they are originals arriving late, not
 * the fast retransmission the duplicate ACKs ask for (Wireshark: 0 of
 * 29540 such in a 3 s run; we read 250 as resent).  A resend the
 * duplicate ACKs did draw carries a new number: a retransmission. */
static void test_late_originals_after_duplicate_acks_are_out_of_order(void **state)
{
    struct w w;
    cJSON *o;
    const cJSON *h;
    uint32_t seq = 1001;
    (void)state;
    for (int rising = 0; rising <= 1; rising++) {
        w_open(&w);
        handshake_1ms(&w);
        /* 20 segments in order, numbered in turn (or all 0: RFC 6864) */
        for (int i = 0; i < 20; i++, seq += 1000) {
            next_ipid = rising ? (uint16_t)(100 + i) : 0;
            seg(&w, 2 * MS + (uint64_t)i * 10 * US, 0, 40000, ACK, seq, 5001, 65535, 1000, -1, -1, 0);
        }
        /* 140..142 overtake 120..121, three ACKs of the hole */
        for (int i = 0; i < 3; i++) {
            next_ipid = rising ? (uint16_t)(140 + i) : 0;
            seg(&w, 3 * MS + (uint64_t)i * 10 * US, 0, 40000, ACK, seq + 2000 + (uint32_t)i * 1000, 5001, 65535,
                1000, -1, -1, 0);
            seg(&w, 3 * MS + (uint64_t)i * 10 * US + 1 * US, 1, 40000, ACK, 5001, seq, 65535, 0, -1, -1, 0);
        }
        next_ipid = rising ? 120 : 0;
        seg(&w, 3 * MS + 100 * US, 0, 40000, ACK, seq, 5001, 65535, 1000, -1, -1, 0);
        seg(&w, 3 * MS + 110 * US, 0, 40000, ACK, seq + 1000, 5001, 65535, 1000, -1, -1, 0);
        o = analyse(&w);
        h = dir_of(o, 0, "partner");
        /* numbered in turn: out of order; all 0, no number to read: the
         * duplicate ACKs' resend, as before */
        assert_int_equal(num(h, "out_of_order"), rising ? 2 : 1);
        assert_int_equal(num(h, "retransmits"), rising ? 0 : 1);
        cJSON_Delete(o);
        seq = 1001;
    }

    /* the resend the duplicate ACKs drew: a number past the newest */
    seq = hole_behind_three(&w, 65530, 14);   /* across the 16-bit wrap */
    next_ipid = 17;
    seg(&w, 5 * MS, 0, 40000, ACK, seq, 5001, 65535, 1000, -1, -1, 0);
    o = analyse(&w);
    h = dir_of(o, 0, "partner");
    assert_int_equal(num(h, "out_of_order"), 0);
    assert_int_equal(num(h, "retransmits"), 1);
    cJSON_Delete(o);

    /* the FIN overtakes the last segment on the path (seen in a 3 s run
     * over 150 us of jitter that reorders): the segment's number is
     * before the FIN's, so it came late, it was not sent again */
    seq = twenty_in_turn(&w, 400);
    next_ipid = 421;
    seg(&w, 3 * MS, 0, 40000, ACK | 0x01, seq + 1000, 5001, 65535, 0, -1, -1, 0);
    next_ipid = 420;
    seg(&w, 3 * MS + 5 * US, 0, 40000, ACK, seq, 5001, 65535, 1000, -1, -1, 0);
    o = analyse(&w);
    h = dir_of(o, 0, "partner");
    assert_int_equal(num(h, "out_of_order"), 1);
    assert_int_equal(num(h, "retransmits"), 0);
    cJSON_Delete(o);

    /* a hole filled 50 us on, before any duplicate ACK, by a new number:
     * sent after the bytes above it, so a resend (by time alone, within
     * the handshake's RTT, it would read as out of order) */
    seq = twenty_in_turn(&w, 300);
    next_ipid = 320;
    seg(&w, 3 * MS, 0, 40000, ACK, seq + 1000, 5001, 65535, 1000, -1, -1, 0);
    next_ipid = 321;
    seg(&w, 3 * MS + 50 * US, 0, 40000, ACK, seq, 5001, 65535, 1000, -1, -1, 0);
    o = analyse(&w);
    h = dir_of(o, 0, "partner");
    assert_int_equal(num(h, "out_of_order"), 0);
    assert_int_equal(num(h, "retransmits"), 1);
    cJSON_Delete(o);

    /* held back longer than the three duplicate ACKs: the fast resend
     * (a new number) fills the hole, the board acknowledges it all, and
     * the original (its older number) comes after: nothing was lost, the
     * resend was spurious and the original is out of order (a campaign's
     * reorder of 9 % over 2 ms read one such resend as a loss) */
    seq = hole_behind_three(&w, 500, 521);    /* 521..523 overtake 520 */
    next_ipid = 524;                    /* the fast retransmission */
    seg(&w, 4 * MS, 0, 40000, ACK, seq, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 4 * MS + 1 * US, 1, 40000, ACK, 5001, seq + 4000, 65535, 0, -1, -1, 0);
    next_ipid = 520;                    /* the original, late */
    seg(&w, 5 * MS, 0, 40000, ACK, seq, 5001, 65535, 1000, -1, -1, 0);
    o = analyse(&w);
    h = dir_of(o, 0, "partner");
    assert_int_equal(num(h, "retransmits"), 1);
    assert_int_equal(num(h, "spurious_retransmits"), 1);
    assert_int_equal(num(h, "out_of_order"), 1);
    cJSON_Delete(o);

    /* the same, the original arriving just before the resend, which comes
     * before the board's ACK of it: spurious all the same */
    seq = hole_behind_three(&w, 600, 621);
    next_ipid = 620;
    seg(&w, 4 * MS, 0, 40000, ACK, seq, 5001, 65535, 1000, -1, -1, 0);
    next_ipid = 624;
    seg(&w, 4 * MS + 5 * US, 0, 40000, ACK, seq, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 4 * MS + 6 * US, 1, 40000, ACK, 5001, seq + 4000, 65535, 0, -1, -1, 0);
    o = analyse(&w);
    h = dir_of(o, 0, "partner");
    assert_int_equal(num(h, "retransmits"), 1);
    assert_int_equal(num(h, "spurious_retransmits"), 1);
    assert_int_equal(num(h, "out_of_order"), 1);
    cJSON_Delete(o);

    /* a connection's first segment held back behind the next two, drawing
     * two duplicate ACKs: three numbers in turn already tell it from a
     * resend (a campaign's reorder read it as the one loss of its run) */
    for (int resend = 0; resend <= 1; resend++) {
        w_open(&w);
        handshake_1ms(&w);
        next_ipid = 701;
        seg(&w, 2 * MS, 0, 40000, ACK, 2001, 5001, 65535, 1000, -1, -1, 0);
        seg(&w, 2 * MS + 10 * US, 0, 40000, ACK, 3001, 5001, 65535, 1000, -1, -1, 0);
        seg(&w, 2 * MS + 20 * US, 1, 40000, ACK, 5001, 1001, 65535, 0, -1, -1, 0);
        seg(&w, 2 * MS + 30 * US, 1, 40000, ACK, 5001, 1001, 65535, 0, -1, -1, 0);
        seg(&w, 2 * MS + 40 * US, 1, 40000, ACK, 5001, 1001, 65535, 0, -1, -1, 0);
        next_ipid = resend ? 703 : 700;
        seg(&w, 4 * MS, 0, 40000, ACK, 1001, 5001, 65535, 1000, -1, -1, 0);
        o = analyse(&w);
        h = dir_of(o, 0, "partner");
        assert_int_equal(num(h, "out_of_order"), resend ? 0 : 1);
        assert_int_equal(num(h, "retransmits"), resend ? 1 : 0);
        cJSON_Delete(o);
    }
    next_ipid = 1;
}

/* One IPv4/UDP datagram of @len payload bytes from the partner (the
 * peer's iperf client) to the board, numbered @ipid. */
static void udp_in(struct w *w, uint64_t t, uint16_t ipid, uint32_t len)
{
    uint8_t f[1600] = { 0 };
    uint32_t iplen = 20 + 8 + len;

    put16(f + 12, 0x0800);
    f[14] = 0x45;
    put16(f + 16, (uint16_t)iplen);
    put16(f + 18, ipid);
    f[22] = 64;
    f[23] = 17;
    memcpy(f + 26, host_ip, 4);
    memcpy(f + 30, board_ip, 4);
    put16(f + 34, 52812);
    put16(f + 36, 5001);
    put16(f + 38, (uint16_t)(8 + len));
    assert_int_equal(gl_pcapng_frame(&w->p, t, 1, f, 14 + iplen, 0, NULL, NULL), 0);
}

/* UDP from the partner as it arrived: the same number and length again
 * is the network's copy, a number older than the newest seen came late
 * (reordered); a sender that numbers every datagram 0 (RFC 6864 4.1)
 * shows neither.  What the board sends is not read. */
static void test_udp_copies_and_reordering_by_ip_identification(void **state)
{
    struct w w;
    cJSON *o;
    (void)state;
    for (int zero = 0; zero <= 1; zero++) {
        w_open(&w);
        for (uint16_t i = 0; i < 20; i++)
            udp_in(&w, i * 12 * US, zero ? 0 : (uint16_t)(100 + i), 1470);
        /* 119 again: a copy; then 121 overtakes 120 */
        udp_in(&w, 240 * US, zero ? 0 : 119, 1470);
        udp_in(&w, 252 * US, zero ? 0 : 121, 1470);
        udp_in(&w, 264 * US, zero ? 0 : 120, 1470);
        /* the board's own frame, with an old number: not evidence */
        next_ipid = 5;
        seg(&w, 270 * US, 1, 40000, ACK, 5001, 1001, 65535, 0, -1, -1, 0);
        o = analyse(&w);
        assert_int_equal(num(o, "udp_datagrams"), 23);
        assert_int_equal(num(o, "udp_duplicates"), zero ? 0 : 1);
        assert_int_equal(num(o, "udp_out_of_order"), zero ? 0 : 1);
        assert_int_equal(num(o, "tcp_segments"), 1);
        cJSON_Delete(o);
    }
    next_ipid = 1;
}

/* A path that copies many datagrams (netem duplicate 30 %): each copy
 * follows its original with the same number.  The copies say nothing of
 * how the sender numbers, so they are all still found; 15 % of copies
 * once made the sender look unnumbered and hid them all.  The first
 * datagram is not copied: one number alone does not show numbering. */
static void test_udp_many_copies_are_all_found(void **state)
{
    struct w w;
    cJSON *o;
    unsigned copies = 0;
    uint64_t t = 0;
    (void)state;
    w_open(&w);
    for (uint16_t i = 0; i < 200; i++) {
        udp_in(&w, t, (uint16_t)(500 + i), 1470);
        t += 12 * US;
        if (i % 10 >= 1 && i % 10 <= 3) {
            udp_in(&w, t, (uint16_t)(500 + i), 1470);
            t += 12 * US;
            copies++;
        }
    }
    o = analyse(&w);
    assert_int_equal(num(o, "udp_datagrams"), 200 + copies);
    assert_int_equal(num(o, "udp_duplicates"), copies);
    assert_int_equal(num(o, "udp_out_of_order"), 0);
    cJSON_Delete(o);
}

/* An outage that loses more than half the 16-bit number space: the
 * numbers after it read, in serial arithmetic, as older than the newest
 * seen, but are the sender's next ones; one held back by a few places
 * after the gap is still late. */
static void test_udp_numbers_after_a_long_gap_are_not_late(void **state)
{
    struct w w;
    cJSON *o;
    uint16_t id = 65000;
    (void)state;
    w_open(&w);
    for (int i = 0; i < 20; i++)
        udp_in(&w, (uint64_t)i * 12 * US, id++, 1470);
    id = (uint16_t)(id + 33333);
    /* the 18th after the gap is held back behind the 19th and 20th */
    for (int i = 0; i < 20; i++)
        if (i != 17)
            udp_in(&w, 1000000 * US + (uint64_t)i * 12 * US, (uint16_t)(id + i), 1470);
    udp_in(&w, 1000240 * US, (uint16_t)(id + 17), 1470);
    o = analyse(&w);
    assert_int_equal(num(o, "udp_datagrams"), 40);
    assert_int_equal(num(o, "udp_out_of_order"), 1);
    assert_int_equal(num(o, "udp_duplicates"), 0);
    cJSON_Delete(o);
}

/* An outage that loses more than three quarters of the space (a 300 ms
 * flap and 2.5 s of autonegotiation lost 52 084 datagrams at 200 Mb/s):
 * the next numbers sit 13 452 behind the newest, inside the quarter
 * space, but nothing held them back 2.8 s on the path: they are the
 * sender's next ones.  One held back by a few places after that is
 * still late. */
static void test_udp_numbers_after_a_long_outage_are_not_late(void **state)
{
    struct w w;
    cJSON *o;
    uint16_t id = 1000;
    (void)state;
    w_open(&w);
    for (int i = 0; i < 20; i++)
        udp_in(&w, (uint64_t)i * 60 * US, id++, 1200);
    id = (uint16_t)(id + 52084);
    for (int i = 0; i < 20; i++)
        if (i != 17)
            udp_in(&w, 2800000 * US + (uint64_t)i * 60 * US, (uint16_t)(id + i), 1200);
    udp_in(&w, 2801200 * US, (uint16_t)(id + 17), 1200);
    o = analyse(&w);
    assert_int_equal(num(o, "udp_datagrams"), 40);
    assert_int_equal(num(o, "udp_out_of_order"), 1);
    assert_int_equal(num(o, "udp_duplicates"), 0);
    cJSON_Delete(o);
}

/* RFC 5681 2: an ACK that moves the advertised window is a window
 * update, not a duplicate ACK, and neither is an ACK with nothing
 * outstanding: neither makes the hole that follows a retransmission. */
static void test_window_updates_are_not_duplicate_acks(void **state)
{
    struct w w;
    cJSON *o;
    (void)state;
    zero_ipid = 1;
    for (int moved = 0; moved <= 1; moved++) {
        w_open(&w);
        handshake_1ms(&w);
        seg(&w, 2 * MS, 0, 40000, ACK, 1001, 5001, 65535, 1000, -1, -1, 0);
        seg(&w, 2 * MS + 10 * US, 0, 40000, ACK, 3001, 5001, 65535, 1000, -1, -1, 0);
        /* three ACKs of 2001; the last two advertise new windows if moved */
        seg(&w, 2 * MS + 20 * US, 1, 40000, ACK, 5001, 2001, 65535, 0, -1, -1, 0);
        seg(&w, 2 * MS + 30 * US, 1, 40000, ACK, 5001, 2001, moved ? 60000 : 65535, 0, -1, -1, 0);
        seg(&w, 2 * MS + 40 * US, 1, 40000, ACK, 5001, 2001, moved ? 55000 : 65535, 0, -1, -1, 0);
        seg(&w, 2 * MS + 50 * US, 0, 40000, ACK, 2001, 5001, 65535, 1000, -1, -1, 0);
        o = analyse(&w);
        assert_int_equal(num(dir_of(o, 0, "partner"), "out_of_order"), moved ? 1 : 0);
        assert_int_equal(num(dir_of(o, 0, "partner"), "retransmits"), moved ? 0 : 1);
        cJSON_Delete(o);
    }

    /* every byte acknowledged: repeated ACKs (a pure ACK stream) are
     * not duplicates, and a late old segment stays out of order */
    w_open(&w);
    handshake_1ms(&w);
    seg(&w, 2 * MS, 0, 40000, ACK, 1001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 2 * MS + 10 * US, 1, 40000, ACK, 5001, 2001, 65535, 0, -1, -1, 0);
    seg(&w, 2 * MS + 20 * US, 1, 40000, ACK, 5001, 2001, 65535, 0, -1, -1, 0);
    seg(&w, 2 * MS + 30 * US, 1, 40000, ACK, 5001, 2001, 65535, 0, -1, -1, 0);
    seg(&w, 2 * MS + 40 * US, 0, 40000, ACK, 3001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 2 * MS + 50 * US, 0, 40000, ACK, 2001, 5001, 65535, 1000, -1, -1, 0);
    o = analyse(&w);
    assert_int_equal(num(dir_of(o, 0, "partner"), "out_of_order"), 1);
    assert_int_equal(num(dir_of(o, 0, "partner"), "retransmits"), 0);
    cJSON_Delete(o);
    zero_ipid = 0;
}

/* QEMU also writes the frames the wire lost, with a "dropped:" comment
 * (gemlab_link.c).  One the partner sent, stamped when it left the
 * partner 5 ms before the frames ahead of it arrived, never reached the
 * board's end: read as evidence it made 1001 look out of order.  The tap
 * saw 2001 first when it was resent, a retransmission.  One the board
 * sent did pass the tap and counts. */
static void test_frames_lost_before_the_board_are_not_seen(void **state)
{
    struct w w;
    cJSON *o;
    const cJSON *h;
    (void)state;
    w_open(&w);
    seg(&w, 0, 0, 40000, SYN, 1000, 0, 65535, 0, -1, 1460, 0);
    seg(&w, 5 * MS, 1, 40000, SYN | ACK, 5000, 1001, 65535, 0, -1, 1460, 0);
    seg(&w, 10 * MS, 0, 40000, ACK, 1001, 5001, 65535, 0, -1, -1, 0);          /* RTT 10 ms */
    comment = "dropped: loss";
    seg(&w, 10 * MS + 20 * US, 0, 40000, ACK, 2001, 5001, 65535, 1000, -1, -1, 0);
    comment = NULL;
    seg(&w, 15 * MS + 10 * US, 0, 40000, ACK, 1001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 15 * MS + 30 * US, 0, 40000, ACK, 3001, 5001, 65535, 1000, -1, -1, 0);
    seg(&w, 40 * MS, 0, 40000, ACK, 2001, 5001, 65535, 1000, -1, -1, 0);
    /* the board's data the wire lost, and sent again */
    comment = "dropped: loss";
    seg(&w, 41 * MS, 1, 40000, ACK, 5001, 4001, 65535, 500, -1, -1, 0);
    comment = NULL;
    seg(&w, 70 * MS, 1, 40000, ACK, 5001, 4001, 65535, 500, -1, -1, 0);
    o = analyse(&w);
    h = dir_of(o, 0, "partner");
    assert_int_equal(num(h, "out_of_order"), 0);
    assert_int_equal(num(h, "retransmits"), 1);
    assert_int_equal(num(h, "segments"), 3);
    h = dir_of(o, 0, "board");
    assert_int_equal(num(h, "retransmits"), 1);
    assert_int_equal(num(o, "tcp_segments"), 8);
    assert_int_equal(num(o, "frames"), 9);
    cJSON_Delete(o);
}

/* Packet dispersion into the board, and what the board left unanswered
 * (data, SYN or FIN after its last frame): the partner's full-size segments
 * (1514-byte frames, 1538 bytes on the wire) 246.08 us apart are a
 * 50 Mb/s hop; the board's ACKs between them change nothing.  Bursts at
 * the line (12.304 us apart) between idle gaps read as the line: the
 * 90th percentile, not the mean. */
static void test_path_rate_from_full_size_frame_spacing(void **state)
{
    struct w w;
    cJSON *o;
    uint64_t t = 2 * MS;
    uint32_t seq = 1001;
    (void)state;
    w_open(&w);
    handshake_1ms(&w);
    for (int i = 0; i < 200; i++, seq += 1460, t += 246080) {
        seg(&w, t, 0, 40000, ACK, seq, 5001, 65535, 1460, -1, -1, 0);
        if (i % 2)
            seg(&w, t + 1000, 1, 40000, ACK, 5001, seq + 1460, 65535, 0, -1, -1, 0);
    }
    o = analyse(&w);
    assert_int_equal(num(o, "path_in_pairs"), 199);
    assert_int_equal(num(o, "path_in_bps"), 50000000);
    /* the board acked the last two: every segment answered */
    assert_int_equal(num(o, "tcp_unanswered"), 0);
    cJSON_Delete(o);

    w_open(&w);
    handshake_1ms(&w);
    for (int b = 0; b < 20; b++, t += 1 * MS)
        for (int i = 0; i < 10; i++, seq += 1460, t += 12304)
            seg(&w, t, 0, 40000, ACK, seq, 5001, 65535, 1460, -1, -1, 0);
    o = analyse(&w);
    /* 199 pairs: 180 inside bursts, 19 across an idle ms */
    assert_int_equal(num(o, "path_in_pairs"), 199);
    assert_int_equal(num(o, "path_in_bps"), 1000000000);
    cJSON_Delete(o);

    /* a small frame between two full-size ones breaks the pair; no pair, no rate */
    w_open(&w);
    handshake_1ms(&w);
    seg(&w, t, 0, 40000, ACK, seq, 5001, 65535, 1460, -1, -1, 0);
    seg(&w, t + 1000, 0, 40000, ACK, seq + 1460, 5001, 65535, 10, -1, -1, 0);
    seg(&w, t + 13304, 0, 40000, ACK, seq + 1470, 5001, 65535, 1460, -1, -1, 0);
    o = analyse(&w);
    /* three segments with data after the board's SYN-ACK, none answered
     * (the handshake's pure ACK needs no answer) */
    assert_int_equal(num(o, "tcp_unanswered"), 3);
    assert_int_equal(num(o, "path_in_pairs"), 0);
    assert_null(cJSON_GetObjectItemCaseSensitive(o, "path_in_bps"));
    cJSON_Delete(o);
}

/* QEMU writes a sent frame when the wire delivers it, stamped when it
 * left the MAC (gemlab_link.c): reordered on the path, the board's
 * segments come in the file out of timestamp order.  The tap at the
 * board's end saw them in order: nothing is resent or out of order. */
static void test_file_in_delivery_order_is_read_in_time_order(void **state)
{
    struct w w;
    cJSON *o;
    const cJSON *b;
    (void)state;
    w_open(&w);
    seg(&w, 0, 1, 50000, SYN, 100, 0, 5840, 0, -1, 1460, 0);
    seg(&w, 400 * US, 0, 50000, SYN | ACK, 900, 101, 8192, 0, -1, 1460, 0);
    seg(&w, 400 * US + 1, 1, 50000, ACK, 101, 901, 5840, 0, -1, -1, 0);
    /* sent at 1.000, 1.012, 1.024 ms; the first is delayed on the wire,
     * so it is written last */
    seg(&w, 1 * MS + 12 * US, 1, 50000, ACK, 1561, 901, 5840, 1460, -1, -1, 0);
    seg(&w, 1 * MS + 24 * US, 1, 50000, ACK, 3021, 901, 5840, 1460, -1, -1, 0);
    seg(&w, 1 * MS, 1, 50000, ACK, 101, 901, 5840, 1460, -1, -1, 0);
    seg(&w, 1 * MS + 600 * US, 0, 50000, ACK, 901, 4481, 8192, 0, -1, -1, 0);
    o = analyse(&w);
    b = dir_of(o, 0, "board");
    assert_int_equal(num(b, "segments"), 3);
    assert_int_equal(num(b, "retransmits"), 0);
    assert_int_equal(num(b, "spurious_retransmits"), 0);
    assert_int_equal(num(b, "out_of_order"), 0);
    assert_int_equal(num(b, "inflight_max_bytes"), 4380);
    assert_int_equal(num(o, "tcp_retransmits"), 0);
    cJSON_Delete(o);
}

/* The partner sends, window-bound: at the board's end of the cable its
 * data arrives in bursts one RTT apart and the board acknowledges at once,
 * so snd_max - una there is only the delayed ACK's share.  Its flight is
 * what arrived within one handshake RTT: 11 segments of 1460 (16060 B,
 * a 16 KB -w), not the 2920 the board had left unacknowledged. */
static void test_partner_flight_is_what_arrives_in_one_rtt(void **state)
{
    struct w w;
    cJSON *o;
    const cJSON *p;
    uint64_t t = 20 * MS + 10 * US;
    (void)state;
    w_open(&w);
    seg(&w, 0, 0, 40000, SYN, 1000, 0, 65535, 0, -1, 1460, 0);
    seg(&w, 10 * US, 1, 40000, SYN | ACK, 5000, 1001, 64240, 0, -1, 1460, 0);
    seg(&w, t, 0, 40000, ACK, 1001, 5001, 65535, 0, -1, -1, 0);         /* RTT 20 ms */
    for (unsigned b = 0; b < 3; b++) {
        uint64_t t0 = t + 10 * US + b * (20 * MS + 200 * US);
        for (unsigned k = 0; k < 11; k++) {
            uint32_t seq = 1001 + (b * 11 + k) * 1460;
            seg(&w, t0 + k * 12 * US, 0, 40000, ACK, seq, 5001, 65535, 1460, -1, -1, 0);
            if (k & 1)
                seg(&w, t0 + k * 12 * US + 1 * US, 1, 40000, ACK, 5001, seq + 1460, 64240, 0, -1, -1, 0);
        }
        seg(&w, t0 + 11 * 12 * US, 1, 40000, ACK, 5001, 1001 + (b + 1) * 11 * 1460, 64240, 0, -1, -1, 0);
    }
    o = analyse(&w);
    p = dir_of(o, 0, "partner");
    assert_int_equal(num(p, "segments"), 33);
    assert_int_equal(num(p, "inflight_max_bytes"), 16060);
    assert_int_equal(num(p, "retransmits"), 0);
    cJSON_Delete(o);
}

/* A new capture: the handshake, the partner's first segment (1001..2461)
 * at 2 ms and the board's ACK of it. */
static void first_segment_acked(struct w *w)
{
    w_open(w);
    handshake_1ms(w);
    seg(w, 2 * MS, 0, 40000, ACK, 1001, 5001, 65535, 1460, -1, -1, 0);
    seg(w, 2 * MS + 10 * US, 1, 40000, ACK, 5001, 2461, 65535, 0, -1, -1, 0);
}

/* A hole the board was still acknowledging at the end: the segment at
 * 1001 + 1460 never arrived, three above it did (dup ACKs of it): 5840
 * bytes from the hole to the highest that arrived.  A board that stops
 * acknowledging what arrived leaves none: the bytes at its last ACK are
 * there. */
static void test_hole_never_filled_at_the_end(void **state)
{
    struct w w;
    cJSON *o;
    (void)state;
    first_segment_acked(&w);
    for (uint32_t i = 1; i <= 3; i++) {
        seg(&w, 2 * MS + 20 * US * (i + 1), 0, 40000, ACK, 2461 + 1460 * i, 5001, 65535, 1460, -1, -1, 0);
        seg(&w, 2 * MS + 20 * US * (i + 1) + 5 * US, 1, 40000, ACK, 5001, 2461, 65535, 0, -1, -1, 0);
    }
    o = analyse(&w);
    assert_int_equal(num(o, "tcp_hole_at_end_bytes"), 5840);
    assert_int_equal(num(dir_of(o, 0, "partner"), "hole_at_end_bytes"), 5840);
    assert_int_equal(num(o, "tcp_unanswered"), 0);
    cJSON_Delete(o);

    first_segment_acked(&w);
    for (uint32_t i = 0; i < 3; i++)
        seg(&w, 3 * MS + 20 * US * i, 0, 40000, ACK, 2461 + 1460 * i, 5001, 65535, 1460, -1, -1, 0);
    o = analyse(&w);
    assert_int_equal(num(o, "tcp_hole_at_end_bytes"), 0);
    assert_int_equal(num(o, "tcp_unanswered"), 3);
    cJSON_Delete(o);

    /* everything acknowledged, then the partner's FIN, which the run
     * ended before the board answered: no hole, nothing unanswered */
    first_segment_acked(&w);
    seg(&w, 3 * MS, 0, 40000, ACK | 0x01, 2461, 5001, 65535, 0, -1, -1, 0);
    o = analyse(&w);
    assert_int_equal(num(o, "tcp_hole_at_end_bytes"), 0);
    assert_int_equal(num(o, "tcp_unanswered"), 0);
    cJSON_Delete(o);
}

/* Frames that are not TCP over IPv4/IPv6 are counted as frames only;
 * a malformed file is an error naming it. */
static void test_non_tcp_and_bad_file(void **state)
{
    struct w w;
    cJSON *o = NULL;
    uint8_t arp[60] = { 0 };
    FILE *f;
    char path[] = "/tmp/gl-cap-bad-XXXXXX";
    char msg[512] = "";
    FILE *err;
    (void)state;
    w_open(&w);
    arp[12] = 0x08; arp[13] = 0x06;
    assert_int_equal(gl_pcapng_frame(&w.p, 1, true, arp, 60, false, NULL, NULL), 0);
    o = analyse(&w);
    assert_int_equal(num(o, "frames"), 1);
    assert_int_equal(num(o, "tcp_segments"), 0);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(o, "tcp_flows")), 0);
    cJSON_Delete(o);

    /* RFC 791: a first fragment (MF, offset 0) holds only part of the
     * segment, its IP length is not the segment's: skipped like the
     * rest of the fragments; DF alone is a whole datagram */
    w_open(&w);
    ip_frag = 0x2000;
    seg(&w, 0, 0, 40000, ACK, 1001, 5001, 65535, 1000, -1, -1, 0);
    ip_frag = 0x2000 | 185;
    seg(&w, 1, 0, 40000, ACK, 1001, 5001, 65535, 1000, -1, -1, 0);
    ip_frag = 0x4000;
    seg(&w, 2, 0, 40000, ACK, 2001, 5001, 65535, 1000, -1, -1, 0);
    ip_frag = 0;
    o = analyse(&w);
    assert_int_equal(num(o, "frames"), 3);
    assert_int_equal(num(o, "tcp_segments"), 1);
    cJSON_Delete(o);

    int fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "wb");
    fputs("not a capture", f);
    fclose(f);
    err = fmemopen(msg, sizeof(msg), "w");
    assert_int_equal(cap_analyse(path, &o, err), -EINVAL);
    fclose(err);
    assert_null(o);
    assert_non_null(strstr(msg, path));
    assert_non_null(strstr(msg, "not a pcapng file"));
    unlink(path);
    assert_true(cap_analyse("/nonexistent/wire.pcapng", &o, stderr) == -ENOENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_to_board_handshake_rtt_retransmit_window),
        cmocka_unit_test(test_reorder_and_duplicates_are_not_retransmissions),
        cmocka_unit_test(test_late_originals_after_duplicate_acks_are_out_of_order),
        cmocka_unit_test(test_udp_copies_and_reordering_by_ip_identification),
        cmocka_unit_test(test_udp_numbers_after_a_long_gap_are_not_late),
        cmocka_unit_test(test_udp_many_copies_are_all_found),
        cmocka_unit_test(test_udp_numbers_after_a_long_outage_are_not_late),
        cmocka_unit_test(test_window_updates_are_not_duplicate_acks),
        cmocka_unit_test(test_board_segment_garbled_on_the_wire_was_sent),
        cmocka_unit_test(test_new_connection_on_a_reused_4_tuple_is_a_new_flow),
        cmocka_unit_test(test_file_in_delivery_order_is_read_in_time_order),
        cmocka_unit_test(test_partner_flight_is_what_arrives_in_one_rtt),
        cmocka_unit_test(test_board_sender_rtt_karn_inflight_zero_window),
        cmocka_unit_test(test_resent_syn_gives_no_rtt),
        cmocka_unit_test(test_board_resend_past_the_ring_is_a_retransmission),
        cmocka_unit_test(test_frames_lost_before_the_board_are_not_seen),
        cmocka_unit_test(test_path_rate_from_full_size_frame_spacing),
        cmocka_unit_test(test_hole_never_filled_at_the_end),
        cmocka_unit_test(test_non_tcp_and_bad_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
