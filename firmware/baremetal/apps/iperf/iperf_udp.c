/* iperf_udp.c - iperf 2 compatible UDP server and rate-paced client on the
 * lwIP RAW API.
 *
 * Wire protocol (iperf2.h): every datagram starts with id/tv_sec/tv_usec/id2;
 * the client header follows at offset 16.  The client ends with a datagram
 * whose sequence number is negative (a FIN) and repeats it every
 * UDP_FIN_RETRY_MS until the server answers with a FIN-ack carrying its
 * report (server_hdr), at most UDP_FIN_TRIES times (iperf 2.1.8: 10 ms, 2 s).
 *
 * Server: one test at a time (iperf runs one listener thread per client;
 * ours serves the first peer and counts datagrams from others as "foreign"
 * until that test ends or has been silent for UDP_IDLE_MS).  Every FIN from
 * the peer of the test just finished is answered with the same report, so
 * a lost FIN-ack is recovered by the client's retries.  An iperf 2 -P
 * client's streams are sockets of one host that start together: up to
 * UDP_MAX_XS more sockets from the test's host within IPERF_GRP_JOIN_US
 * of its first datagram join it (us.xs), each with its own count and
 * FIN-ack, and the test's line is their sum once the last one ends.  The
 * first socket keeps the one-stream path (us.rx), so a -P 1 test costs
 * the board no more instructions per datagram than before.
 *
 * Client: `-t SEC` or `-n BYTES` (stops once that much payload is sent,
 * whole datagrams).  It first waits, at most UDP_ARP_WAIT_MS, until the
 * next hop's Ethernet address is known (apps/common/apparp.c: lwIP keeps
 * only 3 datagrams per unresolved neighbour and drops the rest with
 * ERR_OK, which the server would count as loss); the test's clock starts
 * when sending does.  Pacing by pace.h from the main-loop poll hook (1 ms credit steps;
 * see pace.h for the burst granularity), at most UDP_TX_BURST datagrams
 * per poll so received traffic is still serviced.  A datagram the driver
 * refuses (ERR_MEM) is not numbered: it is retried at the next poll and
 * counted in tx_errors, so driver back-pressure shows as a lower rate, not
 * as loss at the server.  -P N: N sockets, each an iperf 2 test of its
 * own at -b (iperf 2's threads: -b is per thread) with its own header
 * (numThreads = N), FIN and FIN-ack.  Stream 0 runs in `uc`, the
 * one-stream client, unchanged; the others wait in ucg.s[] and are swapped
 * into `uc` for their turn (ucg_swap), the first turn rotating each poll.
 * The result line is their sum, once the last one is done.
 *
 * Dual (-d) and tradeoff (-r) tests (client header HEADER_VERSION1 in the
 * first datagram, as iperf 2.1.8 sends them): the server starts the UDP
 * client towards the peer's address at the header's port (the host's -L,
 * default 5001) with its datagram length, time/amount and rate (the
 * extended header's rate, else 1 Mb/s, at most UDP_PEER_MAX_RATE) - at
 * once for -d, UDP_BACK_DELAY_MS
 * after the forward test's FIN for -r (the host opens its listener when
 * its own test is done).  The back test is an ordinary client run: its
 * result line and the host's report arrive as with `iperf -c -u`.
 *
 * Reverse (-R, iperf 2.1: the extended header's upper flag REVERSE): the
 * client sends its header in a first datagram, again every
 * UDP_REQ_RETRY_MS until data arrives (Client.cpp StartSynch), and counts
 * what the server sends to its socket until the server's FIN.  The
 * server sends with the client engine from its own socket (port 5001) to
 * the client's, at the header's rate, length and time; what the client
 * sends meanwhile (copies of its request) the server drops.  iperf 2.1.8 reads
 * the reverse flag only in a HEADER_VERSION2 header, and runs both ends
 * with no-udp-fin (Listener.cpp apply_client_settings_udp): no FIN-ack,
 * so the server sends UDP_NOFIN_TRIES FINs and waits for nothing.  Result
 * lines: the client's is a receiver's (role client, "reverse"), the
 * server's a sender's (role server, "reverse", "server":null).
 *
 * Known limitations: IPv4 only; --full-duplex (upper flag FULLDUPLEX) is
 * refused with an error line and the test runs as a normal receive test;
 * one client engine, so a dual/tradeoff back test or a -R request cannot
 * start while `iperf -c -u` or a sweep runs (error line); -P is one
 * stream with -d, -r and -R; a -R client prints no interval lines; the
 * server's transit-time extension (SERVER_HEADER_EXTEND) is not sent.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "lwip/pbuf.h"
#include "lwip/udp.h"

#include "appargs.h"
#include "iperf_app.h"
#include "../common/appnet.h"
#include "iperf2.h"
#include "iperfgrp.h"
#include "pace.h"
#include "udpstats.h"

#define UDP_FIN_RETRY_MS 10
#define UDP_FIN_TRIES    200
#define UDP_NOFIN_TRIES  3       /* -R sender: FINs sent, no report awaited */
#define UDP_IDLE_MS      10000   /* server: a test with no datagram for this long ends */
#define UDP_TX_BURST     256     /* datagrams per poll at most (QEMU polls can be ~15 ms apart) */
#define UDP_BACK_DELAY_MS 300    /* -r: start the back test this long after the forward FIN */
#define UDP_LATE_MS      2000    /* server: data from the last test's socket this soon after its end is late, not a new test */
#define UDP_ARP_WAIT_MS  3000    /* client: send anyway when the next hop is still unresolved after this */
#define UDP_ARP_RETRY_MS 250     /* client: an ARP request this often while waiting */
#define UDP_REQ_RETRY_MS 10      /* -R client: the request again this often until data arrives */
#define UDP_REQ_TRIES    100     /* ... this many times (Client.cpp StartSynch: 100 tries, < 20 ms apart) */

/* ------------------------------------------------------------ receiving */

/* One receiving end's count of a test: the server's, or a -R client's
 * (iperf 2.1's reverse test, where the client receives). */
struct udp_rx {
    ip_addr_t peer;
    uint16_t peer_port;
    bool seq64;                  /* the sender's ids are 64-bit (its first datagram's flags) */
    struct udpstats st;
    uint64_t start_us;
    uint64_t last_us;
};

static void rx_begin(struct udp_rx *rx, const ip_addr_t *addr, uint16_t port, bool seq64)
{
    memset(&rx->st, 0, sizeof(rx->st));
    udpstats_init(&rx->st);
    ip_addr_copy(rx->peer, *addr);
    rx->peer_port = port;
    rx->seq64 = seq64;
    rx->start_us = rx->last_us = app_now_us();
}

/* The receiver's result line: role "server", or "client" with "reverse"
 * for a -R client; @foreign, @malformed_idle and @late_idle are the
 * server's counts of datagrams outside the test (0 for a client). */
static void rx_emit(const struct udp_rx *rx, const char *role, bool reverse, bool fin,
                    uint64_t foreign, uint64_t malformed_idle, uint64_t late_idle,
                    unsigned streams, const uint64_t *sbytes)
{
    char buf[GLOUT_LINE_MAX], ps[APP_PEER_STR], mb[24], lp[24], jit[24];
    struct glout g;
    uint64_t dur = rx->last_us - rx->start_us;

    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "test", "iperf");
    glout_str(&g, "proto", "udp");
    glout_str(&g, "role", role);
    glout_str(&g, "peer", app_peer_str(ps, &rx->peer, rx->peer_port));
    app_put_rate(&g, rx->st.bytes, dur);
    glout_u64(&g, "datagrams", udpstats_expected(&rx->st));
    glout_u64(&g, "received", rx->st.received);
    glout_u64(&g, "lost", udpstats_lost(&rx->st));
    glout_dbl(&g, "loss_pct", udpstats_loss_pct(&rx->st), 3);
    glout_u64(&g, "out_of_order", rx->st.out_of_order);
    glout_dbl(&g, "jitter_us", rx->st.jitter_us, 1);
    glout_u64(&g, "malformed", rx->st.malformed);
    glout_u64(&g, "foreign", foreign);
    glout_u64(&g, "malformed_outside_test", malformed_idle);
    glout_u64(&g, "late_outside_test", late_idle);
    glout_bool(&g, "fin", fin);
    if (reverse)
        glout_bool(&g, "reverse", true);
    if (streams > 1) {          /* -P: the sum, and each stream's bytes */
        glout_u64(&g, "streams", streams);
        glout_arr_begin(&g, "stream_bytes");
        for (unsigned k = 0; k < streams; k++)
            glout_u64(&g, NULL, sbytes[k]);
        glout_arr_end(&g);
    }
    glout_emit(&g);
    glout_textf("iperf udp %s%s %s: %s%s Mb/s, %lu/%lu lost (%s%%), jitter %s us, %lu out-of-order",
                role, reverse ? " (reverse)" : "", ps, streams > 1 ? "[SUM] " : "",
                glout_fmt_fixed(mb, sizeof(mb), (double)app_bps(rx->st.bytes, dur) / 1e6, 2),
                (unsigned long)udpstats_lost(&rx->st), (unsigned long)udpstats_expected(&rx->st),
                glout_fmt_fixed(lp, sizeof(lp), udpstats_loss_pct(&rx->st), 3),
                glout_fmt_fixed(jit, sizeof(jit), rx->st.jitter_us, 1),
                (unsigned long)rx->st.out_of_order);
}

/* The report a receiver returns in its FIN-ack (iperf 2's server_hdr). */
static void rx_report(const struct udp_rx *rx, struct iperf2_server_report *r)
{
    uint64_t dur = rx->last_us - rx->start_us;

    memset(r, 0, sizeof(*r));
    r->flags = IPERF2_HDR_VERSION1 | IPERF2_HDR_SEQNO64B;
    r->total_bytes = rx->st.bytes;
    r->stop_sec = (uint32_t)(dur / 1000000u);
    r->stop_usec = (uint32_t)(dur % 1000000u);
    r->lost = udpstats_lost(&rx->st);
    r->out_of_order = rx->st.out_of_order;
    r->datagrams = udpstats_expected(&rx->st);
    /* the report's fields hold 2^32 - 1 s at most: a sender's timestamps
     * (its own to choose) can make the jitter larger, and converting an
     * out-of-range double to an integer is undefined (C11 6.3.1.4) */
    if (rx->st.jitter_us < 4294967295e6) {
        r->jitter_sec = (uint32_t)(rx->st.jitter_us / 1e6);
        r->jitter_usec = (uint32_t)(rx->st.jitter_us - (double)r->jitter_sec * 1e6);
    } else {
        r->jitter_sec = UINT32_MAX;
    }
}

static void send_fin_ack(struct udp_pcb *pcb, const struct iperf2_server_report *rep,
                         const ip_addr_t *to, uint16_t port)
{
    struct iperf2_dgram d = { 0 };   /* iperf leaves the ack's datagram header zero */
    struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, IPERF2_FIN_ACK_LEN, PBUF_RAM);
    if (!p)
        return;                      /* the sender's next FIN retries */
    iperf2_fin_ack_encode(&d, rep, p->payload, p->len);
    udp_sendto(pcb, p, to, port);
    pbuf_free(p);
}

/* Listener.cpp: a datagram's own flags word (after the 16-byte datagram
 * header) says whether its ids are 64-bit; a datagram too short to carry
 * one is a 32-bit client's. */
static bool dgram_seq64(const uint8_t *head, uint16_t n)
{
    uint32_t flags;

    if (n < IPERF2_UDP_HDR_LEN + 4)
        return false;
    flags = (uint32_t)head[16] << 24 | (uint32_t)head[17] << 16 | (uint32_t)head[18] << 8 | head[19];
    return (flags & IPERF2_HDR_SEQNO64B) != 0;
}

/* ---------------------------------------------------------------- server */

/* A -P client's further stream (socket) in the running test; once ended,
 * its report, sent again on its repeated FINs. */
struct udp_xs {
    bool active;
    bool have_last;              /* ended: @last is its FIN-ack */
    bool fin;                    /* it ended with its FIN */
    struct udp_rx rx;
    uint32_t last_ms;            /* its last datagram */
    uint32_t end_ms;
    struct iperf2_server_report last;
};

#define UDP_MAX_XS (IPERF_MAX_PARALLEL - 1)
#if IPERF_UDP_MAX_STREAMS != IPERF_MAX_PARALLEL || IPERF_GRP_MAX < IPERF_MAX_PARALLEL
#error "iperf_app.h, iperfgrp.h: room for IPERF_MAX_PARALLEL (appargs.h) streams"
#endif

static struct {
    struct udp_pcb *pcb;
    uint32_t interval_s;
    uint32_t next_report_ms;
    bool active;
    struct udp_rx rx;
    uint32_t last_ms;
    uint64_t ivl_bytes;
    uint64_t ivl_start_us;
    uint64_t foreign;
    uint64_t malformed_idle;     /* unparsable datagrams outside a test, since start */
    uint64_t late_idle;          /* data datagrams of a finished test arriving after it (reordered past the FIN), since start */
    /* dual/tradeoff back test requested by the running test's header */
    bool back_pending;           /* -r: start when the test ends with a FIN */
    struct iperf_udp_client_cfg back;
    bool back_armed;             /* -r: FIN seen, start at back_at_ms */
    uint32_t back_at_ms;
    /* the report of the last finished test, re-sent on repeated FINs */
    bool have_last;
    ip_addr_t last_peer;
    uint16_t last_port;
    uint32_t last_end_ms;
    struct iperf2_server_report last;
    /* the socket of the last -R client: its late request resends (sent
     * every few ms until data arrives) must not start a second test */
    bool have_rev;
    ip_addr_t rev_peer;
    uint16_t rev_port;
    uint32_t rev_last_ms;
    /* -P: the test's further streams (its first one is rx above) */
    unsigned nxs;                /* slots used in this test (active or ended) */
    unsigned xs_open;            /* ... of which still running */
    bool first_fin;              /* the first stream ended with its FIN */
    struct udp_xs xs[UDP_MAX_XS];
} us;

/* Add one stream's count to a sum: totals add, jitter is the worst
 * stream's (iperf 2's [SUM] line prints no jitter of its own). */
static void udp_sum(struct udpstats *sum, const struct udpstats *st)
{
    sum->max_seq += st->max_seq;
    sum->received += st->received;
    sum->bytes += st->bytes;
    sum->gaps += st->gaps;
    sum->out_of_order += st->out_of_order;
    sum->malformed += st->malformed;
    if (st->jitter_us > sum->jitter_us)
        sum->jitter_us = st->jitter_us;
}

/* The server's interval line: what arrived since the last one, up to
 * @end_us. */
static void us_progress(uint64_t end_us)
{
    char buf[GLOUT_LINE_MAX], ps[APP_PEER_STR];
    struct glout g;

    glout_begin(&g, buf, sizeof(buf), "progress");
    glout_str(&g, "test", "iperf");
    glout_str(&g, "proto", "udp");
    glout_str(&g, "role", "server");
    glout_str(&g, "peer", app_peer_str(ps, &us.rx.peer, us.rx.peer_port));
    app_put_rate(&g, us.ivl_bytes, end_us - us.ivl_start_us);
    glout_u64(&g, "lost", udpstats_lost(&us.rx.st));
    glout_u64(&g, "datagrams", udpstats_expected(&us.rx.st));
    glout_emit(&g);
    us.ivl_bytes = 0;
    us.ivl_start_us = end_us;
}

/* The test's last stream has ended: its last, partial interval (up to the
 * latest datagram, when iperf2_last_interval_kept), its line (the sum over
 * the span from the first stream's first datagram to the latest last one,
 * iperf 2's [SUM], when there were more), and a pending -r back test. */
static void srv_end(void)
{
    bool fin = us.first_fin;
    uint64_t end_us = us.rx.last_us;

    for (unsigned k = 0; k < us.nxs; k++)
        if (us.xs[k].rx.last_us > end_us)
            end_us = us.xs[k].rx.last_us;
    if (iperf2_last_interval_kept(us.ivl_start_us, end_us, us.interval_s))
        us_progress(end_us);

    if (us.nxs == 0) {
        rx_emit(&us.rx, "server", false, fin, us.foreign, us.malformed_idle, us.late_idle, 1, NULL);
    } else {
        struct udp_rx all = us.rx;
        uint64_t sb[IPERF_MAX_PARALLEL];

        sb[0] = us.rx.st.bytes;
        for (unsigned k = 0; k < us.nxs; k++) {
            const struct udp_xs *x = &us.xs[k];
            udp_sum(&all.st, &x->rx.st);
            if (x->rx.last_us > all.last_us)
                all.last_us = x->rx.last_us;
            fin &= x->fin;
            sb[k + 1] = x->rx.st.bytes;
        }
        rx_emit(&all, "server", false, fin, us.foreign, us.malformed_idle, us.late_idle, us.nxs + 1, sb);
    }
    if (us.back_pending && fin) {
        us.back_armed = true;
        us.back_at_ms = app_now_ms() + UDP_BACK_DELAY_MS;
    }
    us.back_pending = false;
}

/* The first stream ends: keep its FIN-ack contents; the line waits for
 * the test's other streams (-P). */
static void srv_finish(bool fin)
{
    rx_report(&us.rx, &us.last);
    ip_addr_copy(us.last_peer, us.rx.peer);
    us.last_port = us.rx.peer_port;
    us.have_last = true;
    us.last_end_ms = app_now_ms();
    us.active = false;
    us.first_fin = fin;
    if (!us.xs_open)
        srv_end();
}

/* A further stream ends; the last of the test prints the line. */
static void xs_finish(struct udp_xs *x, bool fin)
{
    rx_report(&x->rx, &x->last);
    x->active = false;
    x->have_last = true;
    x->fin = fin;
    x->end_ms = app_now_ms();
    us.xs_open--;
    if (!us.active && !us.xs_open)
        srv_end();
}

/* End every stream of the running test: at their last datagram (a new
 * client after silence), or now (@stop). */
static void srv_finish_all(bool stop)
{
    for (unsigned k = 0; k < us.nxs; k++)
        if (us.xs[k].active) {
            if (stop)
                us.xs[k].rx.last_us = app_now_us();
            xs_finish(&us.xs[k], false);
        }
    if (us.active) {
        if (stop)
            us.rx.last_us = app_now_us();
        srv_finish(false);
    }
}

/* A datagram from a further stream's socket, running or ended (its FIN
 * retries, data the link reordered past its FIN).  Returns false when
 * @src:@port is none of them. */
static bool xs_recv(const ip_addr_t *src, uint16_t port, const uint8_t *head, uint16_t n,
                    uint32_t len, uint64_t now_us)
{
    struct iperf2_dgram d;
    struct udp_xs *x = NULL;

    for (unsigned k = 0; k < us.nxs && !x; k++)
        if (ip_addr_cmp(src, &us.xs[k].rx.peer) && port == us.xs[k].rx.peer_port)
            x = &us.xs[k];
    if (!x)
        return false;
    if (iperf2_dgram_decode(head, n, x->rx.seq64, &d) != 0) {
        if (x->active)
            udpstats_malformed(&x->rx.st);
        else
            us.malformed_idle++;
        return true;
    }
    if (d.seq < 0) {
        if (x->active) {            /* its id counted, as the first stream's */
            udpstats_rx_fin(&x->rx.st, 0u - (uint64_t)d.seq);
            x->rx.last_us = now_us;
            xs_finish(x, true);
        }
        send_fin_ack(us.pcb, &x->last, src, port);
        return true;
    }
    if (!x->active) {
        us.late_idle++;             /* reordered past its FIN: not a new test */
        return true;
    }
    udpstats_rx(&x->rx.st, (uint64_t)d.seq, len, (uint64_t)d.tv_sec * 1000000u + d.tv_usec, now_us);
    us.ivl_bytes += len;
    x->rx.last_us = now_us;
    x->last_ms = app_now_ms();
    return true;
}

/* A new socket while the first stream runs: another stream of the same
 * -P client when it comes from the test's host within IPERF_GRP_JOIN_US
 * of the test's first datagram and a slot is free (iperf 2's -P threads
 * start back to back); else false. */
static bool xs_join(const ip_addr_t *src, uint16_t port, const uint8_t *head, uint16_t n,
                    uint32_t len, uint64_t now_us)
{
    struct udp_xs *x;

    if (us.nxs >= UDP_MAX_XS || !ip_addr_cmp(src, &us.rx.peer) ||
        now_us - us.rx.start_us > IPERF_GRP_JOIN_US)
        return false;
    x = &us.xs[us.nxs++];
    memset(x, 0, sizeof(*x));
    rx_begin(&x->rx, src, port, dgram_seq64(head, n));
    x->active = true;
    x->last_ms = app_now_ms();
    us.xs_open++;
    glout_textf("iperf udp server: stream %u of the test from %s:%u", us.nxs + 1, ipaddr_ntoa(src), port);
    return xs_recv(src, port, head, n, len, now_us);
}

/* A socket outside the running test: counted as foreign while any of
 * the test's streams was heard from within the last second; else the
 * test ends here and the socket may start the next one (returns false). */
static bool srv_foreign(void)
{
    uint32_t now = app_now_ms();
    bool live = us.active && (int32_t)(now - us.last_ms) < 1000;

    for (unsigned k = 0; k < us.nxs && !live; k++)
        live = us.xs[k].active && (int32_t)(now - us.xs[k].last_ms) < 1000;
    if (live) {
        us.foreign++;
        return true;
    }
    srv_finish_all(false);
    return false;
}

static void back_start(void)
{
    err_t err = iperf_udp_client_start(&us.back);
    if (err != ERR_OK)
        app_error("iperf", "udp dual/tradeoff back test cannot start", err);
    else
        glout_textf("iperf udp: back test to %s:%u, %lu-byte datagrams", ipaddr_ntoa(&us.rx.peer),
                    us.back.port, (unsigned long)us.back.len);
}

/* The first datagram's client header: dual/tradeoff requests (see top). */

/*
 * A rate the other end's header asks of us (a dual, tradeoff or -R test)
 * is held to the GEM's top speed, 1000 Mb/s (UG585 ch. 16): a faster one
 * cannot reach the wire, and each poll would build and drop up to
 * UDP_TX_BURST datagrams (IP fragments report no back-pressure), which in
 * gemlab's traffic peer is host CPU a guest could ask for (docs/SECURITY.md
 * P3).  Our own -b is the user's and is not held.
 */
#define UDP_PEER_MAX_RATE 1000000000ull

static uint64_t peer_rate(uint64_t bps)
{
    return bps < UDP_PEER_MAX_RATE ? bps : UDP_PEER_MAX_RATE;
}

static void srv_header(const uint8_t *head, uint16_t n)
{
    struct iperf2_client_hdr h;
    int rc;

    if (n <= IPERF2_UDP_HDR_LEN)
        return;
    rc = iperf2_client_hdr_decode(head + IPERF2_UDP_HDR_LEN, n - IPERF2_UDP_HDR_LEN, &h);
    if (rc <= 0)
        return;                     /* no header (or one too short to use): a plain test */
    if ((h.flags & IPERF2_HDR_VERSION2) && (h.upper_flags & IPERF2_UPPER_FULLDUPLEX)) {
        app_error("iperf", "udp --full-duplex not supported; receiving only", -EINVAL);
        return;
    }
    if ((h.flags & IPERF2_HDR_VERSION1) && !(h.flags & IPERF2_HDR_VERSION2)) {
        struct iperf_udp_client_cfg *b = &us.back;
        memset(b, 0, sizeof(*b));
        b->host = lwip_ntohl(ip4_addr_get_u32(ip_2_ip4(&us.rx.peer)));
        b->port = (uint16_t)h.port;
        /* amount < 0: time in 10 ms units; else bytes (Settings.cpp);
         * the peer's time is held to the shell's own limit */
        b->time_ms = iperf2_amount_time_ms(h.amount, IPERF_MAX_TIME_S * 1000u);
        b->amount_bytes = h.amount > 0 ? (uint64_t)h.amount : 0;
        b->rate_bps = peer_rate((h.flags & IPERF2_HDR_EXTEND) && h.rate_bps ? h.rate_bps : IPERF_DEFAULT_UDP_RATE);
        b->len = h.buf_len < IPERF_MIN_UDP_LEN ? IPERF_DEFAULT_UDP_LEN
               : h.buf_len > IPERF_MAX_UDP_LEN ? IPERF_MAX_UDP_LEN : (uint32_t)h.buf_len;
        b->test = "iperf";
        if (b->port == 0 || (b->time_ms == 0 && b->amount_bytes == 0)) {
            app_error("iperf", "udp dual/tradeoff header without port or length (ignored)", -EINVAL);
        } else if (h.flags & IPERF2_RUN_NOW) {
            back_start();
        } else {
            us.back_pending = true;
        }
    }
}

/* 2.1's -R (the extended header's reverse flag, without full duplex): the
 * client asks us to send to its socket from ours, for its time or amount,
 * at its rate and length (iperf 2.1.8 runs a "server reverse" client on the
 * listener's connected socket).  The client engine sends through us.pcb;
 * the client's FIN-ack comes back to us.pcb and srv_recv() hands it over.
 * The client resends its request every few ms until data arrives
 * (Client.cpp StartSynch), so later copies are dropped (us.rev_*).
 * Returns true when @head was such a request: handled, not a test. */
static bool srv_reverse(const ip_addr_t *src, uint16_t port, const uint8_t *head, uint16_t n)
{
    struct iperf2_client_hdr h;
    struct iperf_udp_client_cfg c;
    err_t err;

    if (n <= IPERF2_UDP_HDR_LEN ||
        iperf2_client_hdr_decode(head + IPERF2_UDP_HDR_LEN, n - IPERF2_UDP_HDR_LEN, &h) <= 0)
        return false;
    /* Listener.cpp reads the upper flags' REVERSE only in a VERSION2 header */
    if (!(h.flags & IPERF2_HDR_VERSION2) || (h.upper_flags & IPERF2_UPPER_FULLDUPLEX) ||
        !(h.upper_flags & IPERF2_UPPER_REVERSE))
        return false;
    us.have_rev = true;
    ip_addr_copy(us.rev_peer, *src);
    us.rev_port = port;
    us.rev_last_ms = app_now_ms();
    memset(&c, 0, sizeof(c));
    c.host = lwip_ntohl(ip4_addr_get_u32(ip_2_ip4(src)));
    c.port = port;
    /* amount < 0: time in 10 ms units; else bytes (Settings.cpp), the
     * time held to the shell's own limit, as for a dual test */
    c.time_ms = iperf2_amount_time_ms(h.amount, IPERF_MAX_TIME_S * 1000u);
    c.amount_bytes = h.amount > 0 ? (uint64_t)h.amount : 0;
    c.rate_bps = peer_rate(h.rate_bps ? h.rate_bps : IPERF_DEFAULT_UDP_RATE);
    c.len = h.buf_len < IPERF_MIN_UDP_LEN ? IPERF_DEFAULT_UDP_LEN
          : h.buf_len > IPERF_MAX_UDP_LEN ? IPERF_MAX_UDP_LEN : (uint32_t)h.buf_len;
    c.interval_s = us.interval_s;
    c.test = "iperf";
    c.via = us.pcb;
    err = c.time_ms || c.amount_bytes ? iperf_udp_client_start(&c) : ERR_VAL;
    if (err != ERR_OK)
        app_error("iperf", "udp reverse (-R) test cannot start", err);
    else
        glout_textf("iperf udp server: reverse test, sending to %s:%u", ipaddr_ntoa(src), port);
    return true;
}

static void srv_start(const ip_addr_t *addr, uint16_t port, const uint8_t *head, uint16_t n)
{
    /* Listener.cpp: the first datagram's flags word decides the id width */
    rx_begin(&us.rx, addr, port, dgram_seq64(head, n));
    us.active = true;
    us.nxs = us.xs_open = 0;
    us.ivl_start_us = us.rx.start_us;
    us.last_ms = app_now_ms();
    us.ivl_bytes = 0;
    us.foreign = 0;
    us.next_report_ms = us.last_ms + us.interval_s * 1000u;   /* intervals start with the test */
    glout_textf("iperf udp server: test from %s:%u (seq%s)", ipaddr_ntoa(addr), port,
                us.rx.seq64 ? "64" : "32");
}

static void srv_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p,
                     const ip_addr_t *addr, u16_t port)
{
    uint8_t head[IPERF2_UDP_HDR_LEN + IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN];
    struct iperf2_dgram d;
    uint16_t n;
    uint64_t now_us = app_now_us();
    bool from_peer;
    ip_addr_t src;

    (void)arg;
    (void)pcb;
    ip_addr_copy(src, *addr);         /* addr points into p */
    n = pbuf_copy_partial(p, head, sizeof(head), 0);
    if (us.have_rev && ip_addr_cmp(&src, &us.rev_peer) && port == us.rev_port) {
        /* the -R client's socket: its request resends are no new test
         * while they keep coming */
        bool recent = (int32_t)(app_now_ms() - us.rev_last_ms) < UDP_LATE_MS;
        us.rev_last_ms = app_now_ms();
        if (recent)
            goto out;
        us.have_rev = false;
    }
    from_peer = us.active && ip_addr_cmp(&src, &us.rx.peer) && port == us.rx.peer_port;

    if (!from_peer && us.nxs && xs_recv(&src, port, head, n, p->tot_len, now_us))
        goto out;                     /* -P: one of the test's further streams */
    if (!from_peer && (us.active ||
        (us.xs_open && !(us.have_last && ip_addr_cmp(&src, &us.last_peer) && port == us.last_port)))) {
        /* a different socket: a -P client's next stream, or another
         * client, which takes over only if the running test went silent */
        if (us.active && xs_join(&src, port, head, n, p->tot_len, now_us))
            goto out;
        if (srv_foreign())
            goto out;
    }
    /* The id width of a datagram from outside the running test comes from
     * the datagram itself, before the FIN check: a 32-bit client's FIN
     * retries, arriving after its test ended, read as 64-bit would be a
     * large positive id and start a bogus test with a negative one. */
    if (iperf2_dgram_decode(head, n, from_peer ? us.rx.seq64 : dgram_seq64(head, n), &d) != 0) {
        if (from_peer)
            udpstats_malformed(&us.rx.st);
        else
            us.malformed_idle++;
        goto out;
    }
    if (d.seq < 0) {                  /* FIN */
        if (from_peer) {
            /* iperf 2.1.8 counts the first FIN as a datagram with its id
             * made positive (Server.cpp ReadPacketID), so datagrams lost
             * at the test's end show as the gap before it (udpstats.h) */
            udpstats_rx_fin(&us.rx.st, 0u - (uint64_t)d.seq);
            us.rx.last_us = now_us;
            srv_finish(true);
        }
        if (us.have_last && ip_addr_cmp(&src, &us.last_peer) && port == us.last_port)
            send_fin_ack(us.pcb, &us.last, &src, port);
        goto out;
    }
    /* A data datagram from the socket of the test that just ended: a link
     * that reorders (netem-style jitter) delivers some after the FIN.  It
     * belongs to that test, whose report is sent; it must not start a new
     * one (a new iperf 2 client test comes from a new socket, so another
     * source port).  Counted, like malformed datagrams outside a test. */
    if (!us.active && us.have_last && ip_addr_cmp(&src, &us.last_peer) && port == us.last_port &&
        (us.xs_open || (int32_t)(app_now_ms() - us.last_end_ms) < UDP_LATE_MS)) {
        us.late_idle++;
        goto out;
    }
    if (!us.active && srv_reverse(&src, port, head, n))
        goto out;
    if (!us.active) {
        srv_start(&src, port, head, n);   /* same id width as decoded above */
        srv_header(head, n);
    }
    udpstats_rx(&us.rx.st, (uint64_t)d.seq, p->tot_len,
                (uint64_t)d.tv_sec * 1000000u + d.tv_usec, now_us);
    us.ivl_bytes += p->tot_len;
    us.rx.last_us = now_us;
    us.last_ms = app_now_ms();
out:
    pbuf_free(p);
}

err_t iperf_udp_server_start(uint16_t port, uint32_t interval_s)
{
    err_t err;

    if (us.pcb)
        return ERR_ALREADY;
    memset(&us, 0, sizeof(us));
    us.pcb = udp_new_ip_type(IPADDR_TYPE_V4);
    if (!us.pcb)
        return ERR_MEM;
    err = udp_bind(us.pcb, IP4_ADDR_ANY, port);
    if (err != ERR_OK) {
        udp_remove(us.pcb);
        us.pcb = NULL;
        return err;
    }
    us.interval_s = interval_s;
    us.next_report_ms = app_now_ms() + interval_s * 1000u;
    udp_recv(us.pcb, srv_recv, NULL);
    return ERR_OK;
}

/* ---------------------------------------------------------------- client */

/* Client states.  UC_IDLE -> UC_ARP on start, -> UC_SENDING once the next
 * hop is resolved (at once when it already is); UC_SENDING -> UC_FIN when
 * the test time is over (or -> UC_IDLE on stop); UC_FIN -> UC_IDLE when the
 * FIN-ack arrives or after UDP_FIN_TRIES unanswered FINs.  A -R client
 * goes UC_ARP -> UC_REQ (its request resent every UDP_REQ_RETRY_MS) ->
 * UC_RECV at the server's first datagram -> UC_IDLE at its FIN (or after
 * UDP_REQ_TRIES requests, or UDP_IDLE_MS of silence).  Every exit to
 * UC_IDLE goes through uc_done(): result line, pcb removed (or, for a -R
 * client, kept a while to answer repeated FINs: ul), done callback. */
enum uc_state { UC_IDLE, UC_ARP, UC_SENDING, UC_FIN, UC_REQ, UC_RECV };

/* One client stream: the whole one-stream client. */
struct udp_client {
    enum uc_state state;
    struct udp_pcb *pcb;
    struct iperf_udp_client_cfg cfg;
    ip_addr_t ip;
    struct pace pace;
    int64_t seq;                 /* last sequence number sent */
    uint32_t start_ms;
    uint64_t start_us;
    uint32_t arp_since_ms;       /* UC_ARP: when the wait began */
    uint32_t next_arp_ms;        /* UC_ARP: the next ARP request */
    uint32_t fin_tries;
    uint32_t next_fin_ms;
    uint32_t next_report_ms;
    uint64_t ivl_bytes;
    uint64_t ivl_start_us;
    bool held;                   /* the driver refused the last datagram tried */
    uint8_t hdr[IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN];
    uint16_t hdr_len;
    struct iperf_udp_result res;
    bool borrowed;               /* pcb is cfg.via, the server's: not ours to remove */
    /* -R: what arrives from the server */
    struct udp_rx rx;
    bool rx_fin;                 /* the server's FIN ended the test */
    uint32_t req_tries;
    uint32_t next_req_ms;
    uint32_t rx_last_ms;
};

/* The stream being run: the only one, or -P's stream 0, or another one
 * swapped in for its turn. */
static struct udp_client uc;

/* -P N > 1: the group.  Streams 1..n-1 wait in s[k - 1] while stream 0
 * is in uc; the streams' own cfg is quiet, without interval lines or
 * done callback, and the group's line and callback use cfg. */
static struct {
    unsigned n;                  /* streams; 0: no group, uc runs alone */
    unsigned first;              /* the stream that polls first this time */
    struct iperf_udp_client_cfg cfg;
    uint32_t next_report_ms;
    uint64_t ivl_start_us;
    bool ivl_last_done;          /* every stream has sent: its last interval is out */
    struct udp_client s[IPERF_MAX_PARALLEL - 1];
} ucg;

/* Exchange uc with stream @k (k >= 1): call again to put both back. */
static void ucg_swap(unsigned k)
{
    struct udp_client t = uc;

    uc = ucg.s[k - 1];
    ucg.s[k - 1] = t;
}

void iperf_udp_emit_result(const char *test, const struct iperf_udp_client_cfg *cfg,
                           const struct iperf_udp_result *r)
{
    char buf[GLOUT_LINE_MAX], ps[APP_PEER_STR], mb[24], lp[24], jit[24];
    struct glout g;
    ip_addr_t ip;
    double loss = r->rx_datagrams ? 100.0 * (double)r->lost / (double)r->rx_datagrams : 0.0;

    app_ip_set(&ip, cfg->host);
    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "test", test);
    glout_str(&g, "proto", "udp");
    /* the server's side of a -R test sends: role server, "reverse" */
    glout_str(&g, "role", cfg->via ? "server" : "client");
    glout_str(&g, "peer", app_peer_str(ps, &ip, cfg->port));
    glout_u64(&g, "len", r->len);
    glout_u64(&g, "offered_bps", cfg->rate_bps);
    glout_u64(&g, "tx_datagrams", r->tx_datagrams);
    glout_u64(&g, "tx_errors", r->tx_errors);
    app_put_rate(&g, r->tx_bytes, r->duration_us);
    glout_u64(&g, "tx_pps", r->duration_us ? r->tx_datagrams * 1000000u / r->duration_us : 0);
    if (r->server_report) {
        uint64_t rx_pps = r->rx_duration_us
            ? (r->rx_datagrams - r->lost) * 1000000u / r->rx_duration_us : 0;
        glout_obj_begin(&g, "server");
        app_put_rate(&g, r->rx_bytes, r->rx_duration_us);
        glout_u64(&g, "datagrams", r->rx_datagrams);
        glout_u64(&g, "lost", r->lost);
        glout_dbl(&g, "loss_pct", loss, 3);
        glout_u64(&g, "out_of_order", r->out_of_order);
        glout_u64(&g, "jitter_us", r->jitter_us);
        glout_u64(&g, "pps", rx_pps);
        glout_obj_end(&g);
    } else {
        glout_null(&g, "server");
    }
    if (cfg->via)
        glout_bool(&g, "reverse", true);
    if (r->streams > 1) {       /* -P: the sum, and what each stream sent */
        glout_u64(&g, "streams", r->streams);
        glout_arr_begin(&g, "stream_bytes");
        for (unsigned k = 0; k < r->streams; k++)
            glout_u64(&g, NULL, r->stream_bytes[k]);
        glout_arr_end(&g);
    }
    glout_emit(&g);
    glout_textf("%s udp client -> %s: len %lu, sent %lu datagrams, %s Mb/s", test, ps,
                (unsigned long)r->len, (unsigned long)r->tx_datagrams,
                glout_fmt_fixed(mb, sizeof(mb), (double)app_bps(r->tx_bytes, r->duration_us) / 1e6, 2));
    if (r->server_report)
        glout_textf("%s udp server report: %s Mb/s, %lu/%lu lost (%s%%), jitter %s ms, %lu out-of-order",
                    test, glout_fmt_fixed(mb, sizeof(mb), (double)app_bps(r->rx_bytes, r->rx_duration_us) / 1e6, 2),
                    (unsigned long)r->lost, (unsigned long)r->rx_datagrams,
                    glout_fmt_fixed(lp, sizeof(lp), loss, 3),
                    glout_fmt_fixed(jit, sizeof(jit), r->jitter_us / 1000.0, 3),
                    (unsigned long)r->out_of_order);
    else
        glout_textf("%s udp client: no server report (FIN not acknowledged)", test);
}

static void uc_done(void)
{
    struct iperf_udp_result r = uc.res;
    struct iperf_udp_client_cfg cfg = uc.cfg;

    if (uc.pcb && !uc.borrowed)
        udp_remove(uc.pcb);
    uc.pcb = NULL;
    uc.borrowed = false;
    uc.state = UC_IDLE;
    if (cfg.reverse) {
        if (!uc.rx.st.received)
            app_error("iperf", "udp -R: no data from the server", -ETIMEDOUT);
        rx_emit(&uc.rx, "client", true, uc.rx_fin, 0, 0, 0, 1, NULL);
    } else if (!cfg.quiet) {
        iperf_udp_emit_result(cfg.test ? cfg.test : "iperf", &cfg, &r);
    }
    if (cfg.done)
        cfg.done(&r, cfg.arg);      /* may start the next test */
}

/* -R: a datagram on our socket from the server: its data, then its FIN.
 * No FIN-ack: iperf 2.1.8 runs both ends of a reverse UDP test with
 * no-udp-fin (Listener.cpp, Client.cpp), so its server sends one FIN and
 * waits for nothing. */
static void uc_rx(struct pbuf *p, const ip_addr_t *addr, uint16_t port)
{
    uint8_t head[IPERF2_UDP_HDR_LEN];
    struct iperf2_dgram d;
    uint16_t n = pbuf_copy_partial(p, head, sizeof(head), 0);
    uint64_t now_us = app_now_us();
    uint32_t len = p->tot_len;

    pbuf_free(p);
    if (!ip_addr_cmp(addr, &uc.ip) || port != uc.cfg.port)
        return;                     /* not the server's socket */
    if (uc.state != UC_REQ && uc.state != UC_RECV)
        return;
    /* our header said 64-bit ids (SEQNO64B), so the sender writes them */
    if (iperf2_dgram_decode(head, n, true, &d) != 0) {
        if (uc.state == UC_RECV)
            udpstats_malformed(&uc.rx.st);
        return;
    }
    if (d.seq < 0) {
        if (uc.state != UC_RECV)
            return;                 /* a FIN before any data: keep asking */
        /* counted as the server's are (iperf 2.1.8 ReadPacketID) */
        udpstats_rx_fin(&uc.rx.st, 0u - (uint64_t)d.seq);
        uc.rx.last_us = now_us;
        uc.rx_fin = true;
        uc_done();
        return;
    }
    if (uc.state == UC_REQ) {
        rx_begin(&uc.rx, addr, port, true);
        uc.state = UC_RECV;
    }
    udpstats_rx(&uc.rx.st, (uint64_t)d.seq, len, (uint64_t)d.tv_sec * 1000000u + d.tv_usec, now_us);
    uc.rx.last_us = now_us;
    uc.rx_last_ms = app_now_ms();
}

/* A datagram on the running stream's socket: -R data, or its FIN-ack. */
static void uc_recv_one(struct pbuf *p, const ip_addr_t *addr, u16_t port)
{
    uint8_t buf[IPERF2_FIN_ACK_LEN];
    struct iperf2_server_report r;
    uint16_t n;

    if (uc.cfg.reverse) {
        uc_rx(p, addr, port);
        return;
    }
    n = pbuf_copy_partial(p, buf, sizeof(buf), 0);
    pbuf_free(p);
    if (uc.state != UC_FIN || iperf2_fin_ack_decode(buf, n, &r) != 0)
        return;                     /* stale or malformed: keep waiting */
    uc.res.server_report = true;
    uc.res.rx_bytes = r.total_bytes;
    uc.res.rx_datagrams = r.datagrams;
    uc.res.lost = r.lost;
    uc.res.out_of_order = r.out_of_order;
    uc.res.rx_duration_us = (uint64_t)r.stop_sec * 1000000u + r.stop_usec;
    uc.res.jitter_us = (uint64_t)r.jitter_sec * 1000000u + r.jitter_usec;
    uc_done();
}

static void ucg_check(void);

/* @arg: the stream's index in a -P group (NULL: stream 0, or alone) */
static void uc_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p,
                    const ip_addr_t *addr, u16_t port)
{
    unsigned k = (unsigned)(uintptr_t)arg;

    (void)pcb;
    if (k)
        ucg_swap(k);
    uc_recv_one(p, addr, port);
    if (k)
        ucg_swap(k);
    if (ucg.n)
        ucg_check();
}

/* One datagram with sequence number seq (negative for a FIN), of
 * @len bytes, the client header truncated to fit. */
static err_t uc_send_len(int64_t seq, uint32_t len)
{
    struct iperf2_dgram d;
    struct pbuf *p;
    uint64_t now = app_now_us();
    uint32_t h;
    uint8_t *pl;
    err_t err;

    p = pbuf_alloc(PBUF_TRANSPORT, (u16_t)len, PBUF_RAM);
    if (!p)
        return ERR_MEM;
    pl = p->payload;
    d.seq = seq;
    d.tv_sec = (uint32_t)(now / 1000000u);
    d.tv_usec = (uint32_t)(now % 1000000u);
    iperf2_dgram_encode(&d, pl, len);
    /* the client header rides in every datagram (UDP is stateless),
     * truncated when the datagram is shorter, as iperf does */
    h = len - IPERF2_UDP_HDR_LEN < uc.hdr_len ? len - IPERF2_UDP_HDR_LEN : uc.hdr_len;
    memcpy(pl + IPERF2_UDP_HDR_LEN, uc.hdr, h);
    /* the rest is the pattern; len may exceed app_pattern (up to
     * IPERF_MAX_UDP_LEN), so it is filled in whole-period chunks rather
     * than copied in one piece (docs/SECURITY.md F1: that read past
     * app_pattern and sent up to 704 bytes of .bss) */
    if (len > IPERF2_UDP_HDR_LEN + h)
        app_pattern_fill(pl + IPERF2_UDP_HDR_LEN + h, len - IPERF2_UDP_HDR_LEN - h);
    err = udp_sendto(uc.pcb, p, &uc.ip, uc.cfg.port);
    pbuf_free(p);
    return err;
}

static err_t uc_send(int64_t seq)
{
    return uc_send_len(seq, uc.cfg.len);
}

/* -R: (re)send the request, the first datagram with our header (iperf
 * numbers it 1 and does not count it). */
static void uc_request(uint32_t now_ms)
{
    /* the whole header, however short -l is (Client.cpp SendFirstPayload) */
    uint32_t len = IPERF2_UDP_HDR_LEN + uc.hdr_len;
    uc_send_len(1, uc.cfg.len > len ? uc.cfg.len : len);
    uc.req_tries++;
    uc.next_req_ms = now_ms + UDP_REQ_RETRY_MS;
}

/* The next hop is resolved (or the wait is over): the test starts now. */
static void uc_begin(void)
{
    if (uc.cfg.reverse) {
        uc.state = UC_REQ;
        uc_request(app_now_ms());
        return;
    }
    /* the test's clock starts on the millisecond the pacing's does, so
     * that -t of it is -t of credit (starting 0.17 ms into it, a 1 s test
     * timed 0.999826 s) */
    uc.start_us = app_now_us();
    uc.start_ms = (uint32_t)(uc.start_us / 1000u);     /* app_now_ms() of the same reading */
    uc.start_us -= uc.start_us % 1000u;
    uc.ivl_start_us = uc.start_us;
    uc.next_report_ms = uc.start_ms + uc.cfg.interval_s * 1000u;
    pace_init(&uc.pace, uc.cfg.rate_bps, uc.cfg.len, 0, uc.start_ms);
    uc.state = UC_SENDING;
}

/* Send what the pacing's credit allows, at most UDP_TX_BURST datagrams. */
static void uc_send_paced(void)
{
    for (int i = 0; i < UDP_TX_BURST && !(uc.cfg.amount_bytes && uc.res.tx_bytes >= uc.cfg.amount_bytes) &&
                    pace_take(&uc.pace, uc.cfg.len); i++) {
        err_t err = uc_send(uc.seq + 1);
        uc.held = err != ERR_OK;
        if (err != ERR_OK) {
            uc.res.tx_errors++;
            break;          /* back-pressure: retry next poll */
        }
        uc.seq++;
        uc.res.tx_datagrams++;
        uc.res.tx_bytes += uc.cfg.len;
        uc.ivl_bytes += uc.cfg.len;
    }
}

/* The client's interval line: what it sent since the last one, up to
 * @end_us. */
static void uc_progress(uint64_t end_us)
{
    char buf[GLOUT_LINE_MAX], ps[APP_PEER_STR];
    struct glout g;

    glout_begin(&g, buf, sizeof(buf), "progress");
    glout_str(&g, "test", uc.cfg.test ? uc.cfg.test : "iperf");
    glout_str(&g, "proto", "udp");
    glout_str(&g, "role", "client");
    glout_str(&g, "peer", app_peer_str(ps, &uc.ip, uc.cfg.port));
    app_put_rate(&g, uc.ivl_bytes, end_us - uc.ivl_start_us);
    glout_emit(&g);
    uc.ivl_bytes = 0;
    uc.ivl_start_us = end_us;
}

static void uc_poll(uint32_t now_ms)
{
    if (uc.state == UC_ARP) {
        bool ask = (int32_t)(now_ms - uc.next_arp_ms) >= 0;

        if (ask)
            uc.next_arp_ms = now_ms + UDP_ARP_RETRY_MS;
        if (app_nexthop_ready(&uc.ip, ask)) {
            uc_begin();
        } else if ((int32_t)(now_ms - uc.arp_since_ms) >= UDP_ARP_WAIT_MS) {
            glout_textf("iperf udp: no ARP reply from the next hop to %s in %u ms; sending anyway",
                        ipaddr_ntoa(&uc.ip), (unsigned)UDP_ARP_WAIT_MS);
            uc_begin();
        } else {
            return;
        }
    }
    if (uc.state == UC_REQ && (int32_t)(now_ms - uc.next_req_ms) >= 0) {
        if (uc.req_tries >= UDP_REQ_TRIES)
            uc_done();              /* the server never answered */
        else
            uc_request(now_ms);
        return;
    }
    if (uc.state == UC_RECV && (int32_t)(now_ms - uc.rx_last_ms) >= UDP_IDLE_MS) {
        uc_done();                  /* the server went silent without a FIN */
        return;
    }
    if (uc.state == UC_SENDING) {
        bool over = uc.cfg.amount_bytes ? uc.res.tx_bytes >= uc.cfg.amount_bytes
                                        : (int32_t)(now_ms - uc.start_ms - uc.cfg.time_ms) >= 0;
        if (over) {
            uint64_t now_us;

            /* -t: the datagrams due in its last millisecond too, for a
             * sender that kept its pace; one its driver or its CPU held
             * back is behind by more, and a last burst of that backlog
             * filled the queue behind it (the peer at -b 1000M: drained
             * 4.7 ms past the end) or stretched the board's own test
             * (vt_baremetal_udp_1g_tx: 914.93 Mb/s, not 915.63) */
            if (!uc.cfg.amount_bytes && !uc.held &&
                pace_refill_before(&uc.pace, uc.start_ms + uc.cfg.time_ms, uc.cfg.len))
                uc_send_paced();
            now_us = app_now_us();
            uc.res.duration_us = now_us - uc.start_us;
            /* the last, partial interval (a -P group's streams have none
             * of their own: ucg_poll) */
            if (iperf2_last_interval_kept(uc.ivl_start_us, now_us, uc.cfg.interval_s))
                uc_progress(now_us);
            uc.state = UC_FIN;
            uc.fin_tries = 0;
            uc.next_fin_ms = now_ms;
        } else {
            pace_refill(&uc.pace, now_ms);
            uc_send_paced();
            if (uc.cfg.interval_s && (int32_t)(now_ms - uc.next_report_ms) >= 0) {
                uc_progress(app_now_us());
                uc.next_report_ms += uc.cfg.interval_s * 1000u;
            }
            return;
        }
    }
    if (uc.state == UC_FIN && (int32_t)(now_ms - uc.next_fin_ms) >= 0) {
        /* the server's side of a -R test waits for no report (iperf
         * 2.1.8 sets no-udp-fin there); a few FINs ride out a lost one */
        if (uc.fin_tries >= (uc.borrowed ? UDP_NOFIN_TRIES : UDP_FIN_TRIES)) {
            uc_done();              /* no report: server_report stays false */
            return;
        }
        /* Client.cpp: every FIN retry carries the next (negated) id */
        uc.seq++;
        uc_send(-uc.seq);
        uc.fin_tries++;
        uc.next_fin_ms = now_ms + UDP_FIN_RETRY_MS;
    }
}

/* Start the stream in uc, the group's stream @k (0: alone, or the first):
 * its socket, header and first state. */
static err_t uc_start(const struct iperf_udp_client_cfg *cfg, unsigned k)
{
    struct iperf2_client_hdr h;
    err_t err;

    memset(&uc, 0, sizeof(uc));
    uc.cfg = *cfg;
    app_ip_set(&uc.ip, cfg->host);
    iperf2_client_hdr_init(&h, true, cfg->port, cfg->len, cfg->time_ms, cfg->rate_bps);
    if (cfg->streams > 1)           /* -P: every stream's header says how many */
        h.num_threads = (int32_t)cfg->streams;
    if (cfg->amount_bytes)          /* -n: iperf sends the byte count, positive */
        h.amount = cfg->amount_bytes > INT32_MAX ? INT32_MAX : (int32_t)cfg->amount_bytes;
    if (cfg->dual)                  /* a version 1 header, "run now" (iperf 2 Settings.cpp) */
        h.flags |= IPERF2_HDR_VERSION1 | IPERF2_RUN_NOW;
    if (cfg->tradeoff)              /* -r: a version 1 header, the server's test after ours */
        h.flags |= IPERF2_HDR_VERSION1;
    if (cfg->reverse) {             /* -R: the 2.1 reverse flag, read only with VERSION2 */
        h.flags |= IPERF2_HDR_VERSION2;
        h.upper_flags |= IPERF2_UPPER_REVERSE;
    }
    uc.hdr_len = (uint16_t)iperf2_client_hdr_encode(&h, uc.hdr, sizeof(uc.hdr));
    uc.res.len = cfg->len;

    if (cfg->via) {
        /* the server's side of a -R test: send from the server's socket
         * (its receive callback hands the client's FIN-ack over), and
         * no client header in the data */
        uc.pcb = cfg->via;
        uc.borrowed = true;
        uc.hdr_len = 0;
    } else {
        uc.pcb = udp_new_ip_type(IPADDR_TYPE_V4);
        if (!uc.pcb)
            return ERR_MEM;
        err = udp_bind(uc.pcb, IP4_ADDR_ANY, 0);    /* ephemeral port per test (stream) */
        if (err != ERR_OK) {
            udp_remove(uc.pcb);
            uc.pcb = NULL;
            return err;
        }
        udp_recv(uc.pcb, uc_recv, (void *)(uintptr_t)k);
    }
    /* -R: the count starts at the server's first datagram; until then the
     * result names the server we asked */
    rx_begin(&uc.rx, &uc.ip, cfg->port, true);
    uc.arp_since_ms = app_now_ms();
    uc.next_arp_ms = uc.arp_since_ms + UDP_ARP_RETRY_MS;
    if (app_nexthop_ready(&uc.ip, true))
        uc_begin();
    else
        uc.state = UC_ARP;
    return ERR_OK;
}

/* Stop the stream in uc: its line (unless quiet), no callback. */
static void uc_stop(void)
{
    if (uc.state != UC_IDLE) {
        uc.cfg.done = NULL;          /* a stopped sweep does not continue */
        if (uc.state == UC_SENDING)
            uc.res.duration_us = app_now_us() - uc.start_us;
        uc_done();
    }
}

/* The streams' sum: totals add; times and jitter are the longest and the
 * worst; a server report only when every stream had one. */
static void ucg_sum(struct iperf_udp_result *r)
{
    *r = uc.res;
    r->streams = ucg.n;
    r->stream_bytes[0] = uc.res.tx_bytes;
    for (unsigned k = 1; k < ucg.n; k++) {
        const struct iperf_udp_result *x = &ucg.s[k - 1].res;
        r->stream_bytes[k] = x->tx_bytes;
        r->tx_datagrams += x->tx_datagrams;
        r->tx_bytes += x->tx_bytes;
        r->tx_errors += x->tx_errors;
        if (x->duration_us > r->duration_us)
            r->duration_us = x->duration_us;
        r->server_report &= x->server_report;
        r->rx_bytes += x->rx_bytes;
        r->rx_datagrams += x->rx_datagrams;
        r->lost += x->lost;
        r->out_of_order += x->out_of_order;
        if (x->rx_duration_us > r->rx_duration_us)
            r->rx_duration_us = x->rx_duration_us;
        if (x->jitter_us > r->jitter_us)
            r->jitter_us = x->jitter_us;
    }
}

/* The group ends when its last stream is done: the sum's line and the
 * caller's callback (uc is stream 0 here: never called swapped). */
static void ucg_check(void)
{
    struct iperf_udp_result r;
    struct iperf_udp_client_cfg cfg = ucg.cfg;

    if (uc.state != UC_IDLE)
        return;
    for (unsigned k = 1; k < ucg.n; k++)
        if (ucg.s[k - 1].state != UC_IDLE)
            return;
    ucg_sum(&r);
    ucg.n = 0;
    if (!cfg.quiet)
        iperf_udp_emit_result(cfg.test ? cfg.test : "iperf", &cfg, &r);
    if (cfg.done)
        cfg.done(&r, cfg.arg);      /* may start the next test */
}

/* One poll of every stream, the first turn rotating; the sum's interval
 * lines. */
/* What the group's streams sent since the last interval line; @take
 * zeroes it. */
static uint64_t ucg_ivl_bytes(bool take)
{
    uint64_t bytes = uc.ivl_bytes;

    if (take)
        uc.ivl_bytes = 0;
    for (unsigned k = 1; k < ucg.n; k++) {
        bytes += ucg.s[k - 1].ivl_bytes;
        if (take)
            ucg.s[k - 1].ivl_bytes = 0;
    }
    return bytes;
}

/* The group's interval line, up to @end_us: the streams' sum. */
static void ucg_progress(uint64_t end_us)
{
    char buf[GLOUT_LINE_MAX], ps[APP_PEER_STR];
    struct glout g;
    ip_addr_t ip;
    uint64_t bytes = ucg_ivl_bytes(true);

    app_ip_set(&ip, ucg.cfg.host);
    glout_begin(&g, buf, sizeof(buf), "progress");
    glout_str(&g, "test", ucg.cfg.test ? ucg.cfg.test : "iperf");
    glout_str(&g, "proto", "udp");
    glout_str(&g, "role", "client");
    glout_str(&g, "peer", app_peer_str(ps, &ip, ucg.cfg.port));
    glout_u64(&g, "streams", ucg.n);
    app_put_rate(&g, bytes, end_us - ucg.ivl_start_us);
    glout_emit(&g);
    ucg.ivl_start_us = end_us;
}

static void ucg_poll(uint32_t now_ms)
{
    unsigned n = ucg.n;

    for (unsigned i = 0; i < n; i++) {
        unsigned k = (ucg.first + i) % n;
        if (k)
            ucg_swap(k);
        uc_poll(now_ms);
        if (k)
            ucg_swap(k);
    }
    ucg.first = (ucg.first + 1) % n;
    if (ucg.cfg.interval_s && !ucg.ivl_last_done) {
        /* every stream past sending: the last, partial interval, up to
         * the latest stream's end */
        bool sending = uc.state == UC_ARP || uc.state == UC_SENDING;
        uint64_t end_us = uc.start_us + uc.res.duration_us;

        for (unsigned k = 1; k < n; k++) {
            const struct udp_client *c = &ucg.s[k - 1];
            sending |= c->state == UC_ARP || c->state == UC_SENDING;
            if (c->start_us + c->res.duration_us > end_us)
                end_us = c->start_us + c->res.duration_us;
        }
        if (!sending) {
            ucg.ivl_last_done = true;
            if (iperf2_last_interval_kept(ucg.ivl_start_us, end_us, ucg.cfg.interval_s))
                ucg_progress(end_us);
        } else if ((int32_t)(now_ms - ucg.next_report_ms) >= 0) {
            ucg_progress(app_now_us());
            ucg.next_report_ms += ucg.cfg.interval_s * 1000u;
        }
    }
    ucg_check();
}

err_t iperf_udp_client_start(const struct iperf_udp_client_cfg *cfg)
{
    struct iperf_udp_client_cfg one;
    unsigned n = cfg->streams ? cfg->streams : 1;
    err_t err = ERR_OK;

    if (iperf_udp_client_busy())
        return ERR_ALREADY;
    if (cfg->len < IPERF2_UDP_HDR_LEN || cfg->len > IPERF_MAX_UDP_LEN || cfg->rate_bps == 0)
        return ERR_VAL;
    if ((cfg->dual || cfg->tradeoff) && (cfg->dual + cfg->tradeoff + cfg->reverse > 1 || cfg->via))
        return ERR_VAL;
    if (n > IPERF_MAX_PARALLEL || (n > 1 && (cfg->dual || cfg->tradeoff || cfg->reverse || cfg->via)))
        return ERR_VAL;             /* -P N: 1..8, one stream with -d, -r, -R */
    if (cfg->dual || cfg->tradeoff) {
        /* -d, -r: our UDP server on the header's port takes the server's
         * back test (kept running after, as any `iperf -s -u`) */
        err = iperf_udp_server_start(cfg->port, cfg->interval_s);
        if (err != ERR_OK && err != ERR_ALREADY)
            return err;
    }
    app_pattern_init();
    if (n == 1)
        return uc_start(cfg, 0);
    /* -P N: streams N-1 .. 1 into their slots, stream 0 last, into uc */
    one = *cfg;
    one.quiet = true;
    one.interval_s = 0;
    one.done = NULL;
    one.arg = NULL;
    ucg.cfg = *cfg;
    ucg.n = n;
    ucg.first = 0;
    for (unsigned k = n - 1; k >= 1 && err == ERR_OK; k--) {
        ucg_swap(k);
        err = uc_start(&one, k);
        ucg_swap(k);
    }
    if (err == ERR_OK)
        err = uc_start(&one, 0);
    else
        memset(&uc, 0, sizeof(uc));
    if (err != ERR_OK) {             /* undo: the started streams, quietly */
        ucg.cfg.quiet = true;
        ucg.cfg.done = NULL;
        for (unsigned k = 1; k < n; k++) {
            ucg_swap(k);
            uc_stop();
            ucg_swap(k);
        }
        ucg_check();
        return err;
    }
    ucg.ivl_start_us = app_now_us();
    ucg.next_report_ms = app_now_ms() + cfg->interval_s * 1000u;
    ucg.ivl_last_done = false;
    return ERR_OK;
}

bool iperf_udp_client_busy(void)
{
    return uc.state != UC_IDLE || ucg.n;
}

/* ---------------------------------------------------------------- common */

void iperf_udp_stop(void)
{
    us.back_armed = false;           /* a pending -r back test is dropped too */
    us.back_pending = false;
    if (uc.borrowed)
        iperf_udp_client_stop();     /* a -R sender uses the server's socket */
    us.have_rev = false;
    if (us.pcb) {
        srv_finish_all(true);
        udp_remove(us.pcb);
        us.pcb = NULL;
    }
    iperf_udp_client_stop();
}

void iperf_udp_client_stop(void)
{
    if (ucg.n) {
        ucg.cfg.done = NULL;         /* a stopped sweep does not continue */
        for (unsigned k = 1; k < ucg.n; k++) {
            ucg_swap(k);
            uc_stop();
            ucg_swap(k);
        }
    }
    uc_stop();
    if (ucg.n)
        ucg_check();
}

void iperf_udp_poll(uint32_t now_ms)
{
    if (us.back_armed && (int32_t)(now_ms - us.back_at_ms) >= 0) {
        us.back_armed = false;
        back_start();
    }
    if (ucg.n)
        ucg_poll(now_ms);
    else
        uc_poll(now_ms);
    for (unsigned k = 0; us.xs_open && k < us.nxs; k++)
        if (us.xs[k].active && (int32_t)(now_ms - us.xs[k].last_ms) >= UDP_IDLE_MS)
            xs_finish(&us.xs[k], false);    /* a -P stream vanished without a FIN */
    if (!us.pcb || !us.active)
        return;
    if ((int32_t)(now_ms - us.last_ms) >= UDP_IDLE_MS) {
        srv_finish(false);          /* the client vanished without a FIN */
        return;
    }
    if (us.interval_s && (int32_t)(now_ms - us.next_report_ms) >= 0) {
        us_progress(app_now_us());
        us.next_report_ms += us.interval_s * 1000u;
    }
}
