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
 * a lost FIN-ack is recovered by the client's retries.
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
 * as loss at the server.
 *
 * Dual (-d) and tradeoff (-r) tests (client header HEADER_VERSION1 in the
 * first datagram, as iperf 2.1.8 sends them): the server starts the UDP
 * client towards the peer's address at the header's port (the host's -L,
 * default 5001) with its datagram length, time/amount and rate (the
 * extended header's rate, else 1 Mb/s) - at once for -d, UDP_BACK_DELAY_MS
 * after the forward test's FIN for -r (the host opens its listener when
 * its own test is done).  The back test is an ordinary client run: its
 * result line and the host's report arrive as with `iperf -c -u`.
 *
 * Known limitations: IPv4 only; 2.1's -R and --full-duplex for UDP
 * (upper flags REVERSE/FULLDUPLEX: the server would send from its own
 * port 5001 to the client's connected socket) are refused with an error
 * line and the test runs as a normal receive test; one client engine, so
 * a dual/tradeoff back test cannot start while `iperf -c -u` or a sweep
 * runs (error line); the server's transit-time extension
 * (SERVER_HEADER_EXTEND) is not sent.
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
#include "pace.h"
#include "udpstats.h"

#define UDP_FIN_RETRY_MS 10
#define UDP_FIN_TRIES    200
#define UDP_IDLE_MS      10000   /* server: a test with no datagram for this long ends */
#define UDP_TX_BURST     256     /* datagrams per poll at most (QEMU polls can be ~15 ms apart) */
#define UDP_BACK_DELAY_MS 300    /* -r: start the back test this long after the forward FIN */
#define UDP_LATE_MS      2000    /* server: data from the last test's socket this soon after its end is late, not a new test */
#define UDP_ARP_WAIT_MS  3000    /* client: send anyway when the next hop is still unresolved after this */
#define UDP_ARP_RETRY_MS 250     /* client: an ARP request this often while waiting */

/* ---------------------------------------------------------------- server */

static struct {
    struct udp_pcb *pcb;
    uint32_t interval_s;
    uint32_t next_report_ms;
    bool active;
    ip_addr_t peer;
    uint16_t peer_port;
    bool seq64;
    struct udpstats st;
    uint64_t start_us;
    uint64_t last_us;
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
} us;

static void srv_emit(bool fin)
{
    char buf[GLOUT_LINE_MAX], ps[APP_PEER_STR], mb[24], lp[24], jit[24];
    struct glout g;
    uint64_t dur = us.last_us - us.start_us;

    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "test", "iperf");
    glout_str(&g, "proto", "udp");
    glout_str(&g, "role", "server");
    glout_str(&g, "peer", app_peer_str(ps, &us.peer, us.peer_port));
    app_put_rate(&g, us.st.bytes, dur);
    glout_u64(&g, "datagrams", udpstats_expected(&us.st));
    glout_u64(&g, "received", us.st.received);
    glout_u64(&g, "lost", udpstats_lost(&us.st));
    glout_dbl(&g, "loss_pct", udpstats_loss_pct(&us.st), 3);
    glout_u64(&g, "out_of_order", us.st.out_of_order);
    glout_dbl(&g, "jitter_us", us.st.jitter_us, 1);
    glout_u64(&g, "malformed", us.st.malformed);
    glout_u64(&g, "foreign", us.foreign);
    glout_u64(&g, "malformed_outside_test", us.malformed_idle);
    glout_u64(&g, "late_outside_test", us.late_idle);
    glout_bool(&g, "fin", fin);
    glout_emit(&g);
    glout_textf("iperf udp server %s: %s Mb/s, %lu/%lu lost (%s%%), jitter %s us, %lu out-of-order",
                ps, glout_fmt_fixed(mb, sizeof(mb), (double)app_bps(us.st.bytes, dur) / 1e6, 2),
                (unsigned long)udpstats_lost(&us.st), (unsigned long)udpstats_expected(&us.st),
                glout_fmt_fixed(lp, sizeof(lp), udpstats_loss_pct(&us.st), 3),
                glout_fmt_fixed(jit, sizeof(jit), us.st.jitter_us, 1),
                (unsigned long)us.st.out_of_order);
}

/* End the current test: report, and keep the FIN-ack contents. */
static void srv_finish(bool fin)
{
    uint64_t dur = us.last_us - us.start_us;
    struct iperf2_server_report *r = &us.last;

    srv_emit(fin);
    memset(r, 0, sizeof(*r));
    r->flags = IPERF2_HDR_VERSION1 | IPERF2_HDR_SEQNO64B;
    r->total_bytes = us.st.bytes;
    r->stop_sec = (uint32_t)(dur / 1000000u);
    r->stop_usec = (uint32_t)(dur % 1000000u);
    r->lost = udpstats_lost(&us.st);
    r->out_of_order = us.st.out_of_order;
    r->datagrams = udpstats_expected(&us.st);
    r->jitter_sec = (uint32_t)(us.st.jitter_us / 1e6);
    r->jitter_usec = (uint32_t)(us.st.jitter_us - (double)r->jitter_sec * 1e6);
    ip_addr_copy(us.last_peer, us.peer);
    us.last_port = us.peer_port;
    us.have_last = true;
    us.last_end_ms = app_now_ms();
    us.active = false;
    if (us.back_pending && fin) {
        us.back_armed = true;
        us.back_at_ms = app_now_ms() + UDP_BACK_DELAY_MS;
    }
    us.back_pending = false;
}

static void back_start(void)
{
    err_t err = iperf_udp_client_start(&us.back);
    if (err != ERR_OK)
        app_error("iperf", "udp dual/tradeoff back test cannot start", err);
    else
        glout_textf("iperf udp: back test to %s:%u, %lu-byte datagrams", ipaddr_ntoa(&us.peer),
                    us.back.port, (unsigned long)us.back.len);
}

/* The first datagram's client header: dual/tradeoff requests (see top). */
static void srv_header(const uint8_t *head, uint16_t n)
{
    struct iperf2_client_hdr h;
    int rc;

    if (n <= IPERF2_UDP_HDR_LEN)
        return;
    rc = iperf2_client_hdr_decode(head + IPERF2_UDP_HDR_LEN, n - IPERF2_UDP_HDR_LEN, &h);
    if (rc <= 0)
        return;                     /* no header (or one too short to use): a plain test */
    if ((h.flags & IPERF2_HDR_EXTEND) && (h.upper_flags & (IPERF2_UPPER_REVERSE | IPERF2_UPPER_FULLDUPLEX))) {
        app_error("iperf", "udp -R / --full-duplex not supported; receiving only", -EINVAL);
        return;
    }
    if ((h.flags & IPERF2_HDR_VERSION1) && !(h.flags & IPERF2_HDR_VERSION2)) {
        struct iperf_udp_client_cfg *b = &us.back;
        memset(b, 0, sizeof(*b));
        b->host = lwip_ntohl(ip4_addr_get_u32(ip_2_ip4(&us.peer)));
        b->port = (uint16_t)h.port;
        /* amount < 0: time in 10 ms units; else bytes (Settings.cpp);
         * the peer's time is held to the shell's own limit */
        b->time_ms = iperf2_amount_time_ms(h.amount, IPERF_MAX_TIME_S * 1000u);
        b->amount_bytes = h.amount > 0 ? (uint64_t)h.amount : 0;
        b->rate_bps = (h.flags & IPERF2_HDR_EXTEND) && h.rate_bps ? h.rate_bps : IPERF_DEFAULT_UDP_RATE;
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

static void srv_send_fin_ack(const ip_addr_t *to, uint16_t port)
{
    struct iperf2_dgram d = { 0 };   /* iperf leaves the ack's datagram header zero */
    struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, IPERF2_FIN_ACK_LEN, PBUF_RAM);
    if (!p)
        return;                      /* the client's next FIN retries */
    iperf2_fin_ack_encode(&d, &us.last, p->payload, p->len);
    udp_sendto(us.pcb, p, to, port);
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

static void srv_start(const ip_addr_t *addr, uint16_t port, const uint8_t *head, uint16_t n)
{
    memset(&us.st, 0, sizeof(us.st));
    udpstats_init(&us.st);
    us.active = true;
    ip_addr_copy(us.peer, *addr);
    us.peer_port = port;
    us.start_us = us.last_us = us.ivl_start_us = app_now_us();
    us.last_ms = app_now_ms();
    us.ivl_bytes = 0;
    us.foreign = 0;
    us.next_report_ms = us.last_ms + us.interval_s * 1000u;   /* intervals start with the test */
    /* Listener.cpp: the first datagram's flags word decides the id width */
    us.seq64 = dgram_seq64(head, n);
    glout_textf("iperf udp server: test from %s:%u (seq%s)", ipaddr_ntoa(addr), port,
                us.seq64 ? "64" : "32");
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
    from_peer = us.active && ip_addr_cmp(&src, &us.peer) && port == us.peer_port;

    if (us.active && !from_peer) {
        /* a different client: take over only if the current test went silent */
        if ((int32_t)(app_now_ms() - us.last_ms) < 1000) {
            us.foreign++;
            goto out;
        }
        srv_finish(false);
    }
    /* The id width of a datagram from outside the running test comes from
     * the datagram itself, before the FIN check: a 32-bit client's FIN
     * retries, arriving after its test ended, read as 64-bit would be a
     * large positive id and start a bogus test with a negative one. */
    if (iperf2_dgram_decode(head, n, from_peer ? us.seq64 : dgram_seq64(head, n), &d) != 0) {
        if (from_peer)
            udpstats_malformed(&us.st);
        else
            us.malformed_idle++;
        goto out;
    }
    if (d.seq < 0) {                  /* FIN */
        if (from_peer) {
            us.last_us = now_us;
            srv_finish(true);
        }
        if (us.have_last && ip_addr_cmp(&src, &us.last_peer) && port == us.last_port)
            srv_send_fin_ack(&src, port);
        goto out;
    }
    /* A data datagram from the socket of the test that just ended: a link
     * that reorders (netem-style jitter) delivers some after the FIN.  It
     * belongs to that test, whose report is sent; it must not start a new
     * one (a new iperf 2 client test comes from a new socket, so another
     * source port).  Counted, like malformed datagrams outside a test. */
    if (!us.active && us.have_last && ip_addr_cmp(&src, &us.last_peer) && port == us.last_port &&
        (int32_t)(app_now_ms() - us.last_end_ms) < UDP_LATE_MS) {
        us.late_idle++;
        goto out;
    }
    if (!us.active) {
        srv_start(&src, port, head, n);   /* same id width as decoded above */
        srv_header(head, n);
    }
    udpstats_rx(&us.st, (uint64_t)d.seq, p->tot_len,
                (uint64_t)d.tv_sec * 1000000u + d.tv_usec, now_us);
    us.ivl_bytes += p->tot_len;
    us.last_us = now_us;
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
 * FIN-ack arrives or after UDP_FIN_TRIES unanswered FINs.  Every exit to
 * UC_IDLE goes through uc_done(): result line, pcb removed, done callback. */
enum uc_state { UC_IDLE, UC_ARP, UC_SENDING, UC_FIN };

static struct {
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
    uint8_t hdr[IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN];
    uint16_t hdr_len;
    struct iperf_udp_result res;
} uc;

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
    glout_str(&g, "role", "client");
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

    if (uc.pcb) {
        udp_remove(uc.pcb);
        uc.pcb = NULL;
    }
    uc.state = UC_IDLE;
    if (!cfg.quiet)
        iperf_udp_emit_result(cfg.test ? cfg.test : "iperf", &cfg, &r);
    if (cfg.done)
        cfg.done(&r, cfg.arg);      /* may start the next test */
}

static void uc_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p,
                    const ip_addr_t *addr, u16_t port)
{
    uint8_t buf[IPERF2_FIN_ACK_LEN];
    struct iperf2_server_report r;
    uint16_t n;

    (void)arg;
    (void)pcb;
    (void)addr;
    (void)port;
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

/* One datagram with sequence number seq (negative for a FIN). */
static err_t uc_send(int64_t seq)
{
    struct iperf2_dgram d;
    struct pbuf *p;
    uint64_t now = app_now_us();
    uint32_t len = uc.cfg.len;
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

/* The next hop is resolved (or the wait is over): the test starts now. */
static void uc_begin(void)
{
    uc.start_ms = app_now_ms();
    uc.start_us = uc.ivl_start_us = app_now_us();
    uc.next_report_ms = uc.start_ms + uc.cfg.interval_s * 1000u;
    pace_init(&uc.pace, uc.cfg.rate_bps, uc.cfg.len, 0, uc.start_ms);
    uc.state = UC_SENDING;
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
    if (uc.state == UC_SENDING) {
        bool over = uc.cfg.amount_bytes ? uc.res.tx_bytes >= uc.cfg.amount_bytes
                                        : (int32_t)(now_ms - uc.start_ms - uc.cfg.time_ms) >= 0;
        if (over) {
            uc.res.duration_us = app_now_us() - uc.start_us;
            uc.state = UC_FIN;
            uc.fin_tries = 0;
            uc.next_fin_ms = now_ms;
        } else {
            pace_refill(&uc.pace, now_ms);
            for (int i = 0; i < UDP_TX_BURST && !(uc.cfg.amount_bytes &&
                            uc.res.tx_bytes >= uc.cfg.amount_bytes) &&
                            pace_take(&uc.pace, uc.cfg.len); i++) {
                err_t err = uc_send(uc.seq + 1);
                if (err != ERR_OK) {
                    uc.res.tx_errors++;
                    break;          /* back-pressure: retry next poll */
                }
                uc.seq++;
                uc.res.tx_datagrams++;
                uc.res.tx_bytes += uc.cfg.len;
                uc.ivl_bytes += uc.cfg.len;
            }
            if (uc.cfg.interval_s && (int32_t)(now_ms - uc.next_report_ms) >= 0) {
                char buf[GLOUT_LINE_MAX], ps[APP_PEER_STR];
                struct glout g;
                uint64_t now_us = app_now_us();
                glout_begin(&g, buf, sizeof(buf), "progress");
                glout_str(&g, "test", uc.cfg.test ? uc.cfg.test : "iperf");
                glout_str(&g, "proto", "udp");
                glout_str(&g, "role", "client");
                glout_str(&g, "peer", app_peer_str(ps, &uc.ip, uc.cfg.port));
                app_put_rate(&g, uc.ivl_bytes, now_us - uc.ivl_start_us);
                glout_emit(&g);
                uc.ivl_bytes = 0;
                uc.ivl_start_us = now_us;
                uc.next_report_ms += uc.cfg.interval_s * 1000u;
            }
            return;
        }
    }
    if (uc.state == UC_FIN && (int32_t)(now_ms - uc.next_fin_ms) >= 0) {
        if (uc.fin_tries >= UDP_FIN_TRIES) {
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

err_t iperf_udp_client_start(const struct iperf_udp_client_cfg *cfg)
{
    struct iperf2_client_hdr h;
    err_t err;

    if (uc.state != UC_IDLE)
        return ERR_ALREADY;
    if (cfg->len < IPERF2_UDP_HDR_LEN || cfg->len > IPERF_MAX_UDP_LEN || cfg->rate_bps == 0)
        return ERR_VAL;
    if (cfg->dual) {
        /* -d: our UDP server on the header's port takes the server's back
         * test (kept running after, as any `iperf -s -u`) */
        err = iperf_udp_server_start(cfg->port, cfg->interval_s);
        if (err != ERR_OK && err != ERR_ALREADY)
            return err;
    }
    app_pattern_init();
    memset(&uc, 0, sizeof(uc));
    uc.cfg = *cfg;
    app_ip_set(&uc.ip, cfg->host);
    iperf2_client_hdr_init(&h, true, cfg->port, cfg->len, cfg->time_ms, cfg->rate_bps);
    if (cfg->amount_bytes)          /* -n: iperf sends the byte count, positive */
        h.amount = cfg->amount_bytes > INT32_MAX ? INT32_MAX : (int32_t)cfg->amount_bytes;
    if (cfg->dual)                  /* a version 1 header, "run now" (iperf 2 Settings.cpp) */
        h.flags |= IPERF2_HDR_VERSION1 | IPERF2_RUN_NOW;
    uc.hdr_len = (uint16_t)iperf2_client_hdr_encode(&h, uc.hdr, sizeof(uc.hdr));
    uc.res.len = cfg->len;

    uc.pcb = udp_new_ip_type(IPADDR_TYPE_V4);
    if (!uc.pcb)
        return ERR_MEM;
    err = udp_bind(uc.pcb, IP4_ADDR_ANY, 0);    /* ephemeral port per test */
    if (err != ERR_OK) {
        udp_remove(uc.pcb);
        uc.pcb = NULL;
        return err;
    }
    udp_recv(uc.pcb, uc_recv, NULL);
    uc.arp_since_ms = app_now_ms();
    uc.next_arp_ms = uc.arp_since_ms + UDP_ARP_RETRY_MS;
    if (app_nexthop_ready(&uc.ip, true))
        uc_begin();
    else
        uc.state = UC_ARP;
    return ERR_OK;
}

bool iperf_udp_client_busy(void)
{
    return uc.state != UC_IDLE;
}

/* ---------------------------------------------------------------- common */

void iperf_udp_stop(void)
{
    us.back_armed = false;           /* a pending -r back test is dropped too */
    us.back_pending = false;
    if (us.pcb) {
        if (us.active) {
            us.last_us = app_now_us();
            srv_finish(false);
        }
        udp_remove(us.pcb);
        us.pcb = NULL;
    }
    iperf_udp_client_stop();
}

void iperf_udp_client_stop(void)
{
    if (uc.state != UC_IDLE) {
        uc.cfg.done = NULL;          /* a stopped sweep does not continue */
        if (uc.state == UC_SENDING)
            uc.res.duration_us = app_now_us() - uc.start_us;
        uc_done();
    }
}

void iperf_udp_poll(uint32_t now_ms)
{
    if (us.back_armed && (int32_t)(now_ms - us.back_at_ms) >= 0) {
        us.back_armed = false;
        back_start();
    }
    uc_poll(now_ms);
    if (!us.pcb || !us.active)
        return;
    if ((int32_t)(now_ms - us.last_ms) >= UDP_IDLE_MS) {
        srv_finish(false);          /* the client vanished without a FIN */
        return;
    }
    if (us.interval_s && (int32_t)(now_ms - us.next_report_ms) >= 0) {
        char buf[GLOUT_LINE_MAX], ps[APP_PEER_STR];
        struct glout g;
        uint64_t now_us = app_now_us();
        glout_begin(&g, buf, sizeof(buf), "progress");
        glout_str(&g, "test", "iperf");
        glout_str(&g, "proto", "udp");
        glout_str(&g, "role", "server");
        glout_str(&g, "peer", app_peer_str(ps, &us.peer, us.peer_port));
        app_put_rate(&g, us.ivl_bytes, now_us - us.ivl_start_us);
        glout_u64(&g, "lost", udpstats_lost(&us.st));
        glout_u64(&g, "datagrams", udpstats_expected(&us.st));
        glout_emit(&g);
        us.ivl_bytes = 0;
        us.ivl_start_us = now_us;
        us.next_report_ms += us.interval_s * 1000u;
    }
}
