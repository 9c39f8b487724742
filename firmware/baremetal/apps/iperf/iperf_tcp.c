/* iperf_tcp.c - iperf 2 compatible TCP server and client on the lwIP RAW API.
 *
 * Server: accepts up to IPERF_TCP_MAX_SESS connections (iperf -P), reads the
 * client header (iperf2.h) off the front of the stream and sinks the data.
 * Connections that overlap in time form one test, as the streams of one
 * iperf 2 -P client do; when the last of them closes, one result line
 * carries the sum (bytes over first accept to last close, iperf 2's [SUM])
 * and the per-stream bytes.
 * Client: -P N (1..IPERF_MAX_PARALLEL) connections, each an iperf 2 stream:
 * a 2.1-style header (HEADER_EXTEND, 60 bytes, numThreads = N as iperf 2.1.8's
 * Settings_GenerateClientHdr() fills it) then iperf's "0123456789" pattern,
 * zero-copy from app_pattern, for -t seconds or -n bytes each, then closes.
 * As iperf 2's client threads wait at a barrier until all are connected,
 * the streams start sending together once all N have connected.  One result
 * line with the sum and the per-stream bytes.  The host's iperf server
 * accepts it as a normal test.
 *
 * Dual (-d) and tradeoff (-r) tests (HEADER_VERSION1, as lwiperf does them):
 * the server connects back to the client's listener, at once or after the
 * client's test; the reverse stream is reported as a "client" result.
 *
 * 2.1's -R (HEADER_EXTEND + upper flag REVERSE): the server sends on the
 * accepted connection for the client's time; result role "server" with
 * "reverse":true.
 *
 * The client asks for both: -d sends a version 1 header with RUN_NOW and
 * starts the TCP server on its port for the connection back (-r: the same
 * without RUN_NOW, so the server connects back when our test is over); -R sets the
 * reverse flag, sends the header only and counts what arrives until the
 * server closes (result role "client" with "reverse":true).
 *
 * Known limitations:
 * - --full-duplex is reported as an error line; the server only receives.
 * - One sending engine: a dual/reverse test while `iperf -c` runs (or two
 *   at once) cannot start and says so; -R takes one stream (a -R -P N
 *   client's other connections are received only).
 * - The client reports bytes written into lwIP (as iperf's client does);
 *   the host's server report is the authoritative goodput.
 */
#include <errno.h>
#include <string.h>

#include "lwip/tcp.h"

#include "appargs.h"
#include "iperf_app.h"
#include "../common/appnet.h"
#include "iperf2.h"
#include "iperfgrp.h"

/* Server: one slot per connection, enough for an iperf 2 client's -P 8. */
#define IPERF_TCP_MAX_SESS IPERF_MAX_PARALLEL
#if IPERF_GRP_MAX < IPERF_MAX_PARALLEL
#error "iperfgrp.h: IPERF_GRP_MAX must cover IPERF_MAX_PARALLEL streams"
#endif
#define IPERF_TCP_MAX_STREAMS IPERF_MAX_PARALLEL
#define TCP_POLL_COARSE    2        /* tcp_poll interval: 2 x 500 ms */
#define IPERF_TCP_RX_GRACE_MS 10000 /* -R: how long past -t a client waits for the server's close */

/* Server idle timeout: a connection that has received nothing for this many
 * seconds is aborted (result line with "aborted":true) and its slot freed.
 * Without it a client that vanished without a FIN/RST (host iperf killed,
 * slirp giving up on a socket while the link flapped) holds one of the
 * IPERF_TCP_MAX_SESS slots and its pcb forever: lwIP's keepalive default is
 * 2 h.  Build with -DIPERF_TCP_SRV_IDLE_S=N to change it; 0 disables it.
 * Keepalive is also switched on for accepted pcbs (IPERF_TCP_KEEPIDLE_S,
 * IPERF_TCP_KEEPINTVL_S x IPERF_TCP_KEEPCNT probes) so a dead peer of an
 * otherwise quiet connection is found by TCP too. */
#ifndef IPERF_TCP_SRV_IDLE_S
#define IPERF_TCP_SRV_IDLE_S 30
#endif
#ifndef IPERF_TCP_KEEPIDLE_S
#define IPERF_TCP_KEEPIDLE_S 10
#endif
#ifndef IPERF_TCP_KEEPINTVL_S
#define IPERF_TCP_KEEPINTVL_S 2
#endif
#ifndef IPERF_TCP_KEEPCNT
#define IPERF_TCP_KEEPCNT 5
#endif
#define SRV_POLL_INTERVAL  2        /* server idle check: every 2 x 500 ms */

struct tcp_sess {
    struct tcp_pcb *pcb;            /* NULL when the slot is free */
    ip_addr_t peer;
    uint16_t peer_port;
    uint64_t start_us;
    uint64_t bytes;
    uint64_t ivl_bytes;
    uint64_t ivl_start_us;
    uint32_t last_rx_ms;            /* last data (or accept) for the idle timeout */
    uint8_t hdr[IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN];
    uint8_t hdr_len;
    bool hdr_done;
    uint8_t gidx;                   /* index in the server's current test (group) */
    /* tradeoff (-r): connect back when this test ends */
    bool back_pending;
    uint16_t back_port;
    uint32_t back_time_ms;
    uint64_t back_amount;
};

static struct {
    struct tcp_pcb *listen;
    uint16_t port;
    uint32_t interval_s;
    uint32_t next_report_ms;
    struct tcp_sess sess[IPERF_TCP_MAX_SESS];
    /* the current test: connections that overlap in time (an iperf 2
     * client's -P streams), summed into one result line when the last
     * one ends (iperfgrp.h) */
    struct iperf_grp grp;
    ip_addr_t grp_peer;             /* the first connection's */
    uint16_t grp_peer_port;
    /* the current test's bytes from connections that ended since the last
     * interval line, and the earliest start of those intervals */
    uint64_t ivl_done_bytes;
    uint64_t ivl_done_start_us;
    bool ivl_done;
} srv;

/* Client stream states.  CLI_IDLE -> CLI_CONNECTING on `iperf -c`
 * (tcp_connect); CLI_CONNECTING -> CLI_READY when connected; all streams
 * CLI_READY -> CLI_SENDING together; any connect error aborts the test
 * (error line, no result).  CLI_SENDING -> CLI_IDLE when the time/amount
 * is done, the server closes, an error resets the pcb or `iperf stop`;
 * when the last stream is CLI_IDLE the result line is printed.  The pcb is
 * owned by lwIP again once CLI_IDLE. */
enum cli_state { CLI_IDLE, CLI_CONNECTING, CLI_READY, CLI_SENDING };

struct cli_stream {
    enum cli_state state;
    struct tcp_pcb *pcb;
    uint64_t written;
    uint64_t acked;
    uint64_t ivl_acked;
    uint64_t end_us;                /* when it stopped sending */
    uint16_t hdr_sent;
    bool aborted;
};

static struct {
    bool active;                    /* a test (connecting or sending) holds the engine */
    bool started;                   /* all streams connected, sending */
    uint8_t n;                      /* streams (-P) */
    uint32_t window;                /* -w: per-stream cap on queued + unacked bytes, 0 = TCP_SND_BUF */
    ip_addr_t ip;
    uint16_t port;
    uint32_t time_ms;
    uint64_t amount;                /* per stream; 0: time mode */
    uint32_t interval_s;
    uint64_t start_us;
    uint32_t start_ms;
    uint32_t next_report_ms;
    uint64_t ivl_start_us;
    uint8_t hdr[IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN];
    uint16_t hdr_len;
    bool reverse;                   /* sending on a connection we accepted (-R) */
    bool rx;                        /* client -R: the server sends, "written" counts what arrived */
    struct cli_stream st[IPERF_TCP_MAX_STREAMS];
} cli;

static void emit_progress(const char *role, const ip_addr_t *peer, uint16_t port,
                          uint64_t bytes, uint64_t us)
{
    char buf[GLOUT_LINE_MAX], ps[APP_PEER_STR], mb[24];
    struct glout g;

    glout_begin(&g, buf, sizeof(buf), "progress");
    glout_str(&g, "test", "iperf");
    glout_str(&g, "proto", "tcp");
    glout_str(&g, "role", role);
    glout_str(&g, "peer", app_peer_str(ps, peer, port));
    app_put_rate(&g, bytes, us);
    glout_emit(&g);
    glout_textf("iperf tcp %s %s: %s Mb/s", role, ps,
                glout_fmt_fixed(mb, sizeof(mb), (double)app_bps(bytes, us) / 1e6, 2));
}

/* One test's result line: the sum over its n streams ("bytes" over the
 * test's duration, as iperf 2's [SUM] line) with "streams" and each
 * stream's bytes ("stream_bytes"), and a client's -w ("window_bytes");
 * with n > 1 the text twin lists each
 * stream first, as iperf 2 prints [  N] lines before [SUM]. */
static void emit_result(const char *role, const ip_addr_t *peer, uint16_t port,
                        uint64_t bytes, uint64_t us, uint64_t acked, bool aborted,
                        unsigned n, const uint64_t *sbytes, uint32_t window, bool reverse)
{
    char buf[GLOUT_LINE_MAX], ps[APP_PEER_STR], mb[24], by[21];
    struct glout g;

    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "test", "iperf");
    glout_str(&g, "proto", "tcp");
    glout_str(&g, "role", role);
    glout_str(&g, "peer", app_peer_str(ps, peer, port));
    app_put_rate(&g, bytes, us);
    if (acked != UINT64_MAX)
        glout_u64(&g, "bytes_acked", acked);
    if (reverse)            /* -R: a server that sent, or a client that received */
        glout_bool(&g, "reverse", true);
    glout_bool(&g, "aborted", aborted);
    if (window)             /* the client's -w, as iperf 2 prints "TCP window size" */
        glout_u64(&g, "window_bytes", window);
    glout_u64(&g, "streams", n);
    glout_arr_begin(&g, "stream_bytes");
    for (unsigned k = 0; k < n; k++)
        glout_u64(&g, NULL, sbytes[k]);
    glout_arr_end(&g);
    glout_emit(&g);
    for (unsigned k = 0; n > 1 && k < n; k++)
        glout_textf("iperf tcp %s %s: [%2u] %s bytes", role, ps, k + 1, glout_fmt_u64(by, sbytes[k]));
    glout_textf("iperf tcp %s %s: %s%s bytes in %lu ms = %s Mb/s%s", role, ps, n > 1 ? "[SUM] " : "",
                glout_fmt_u64(by, bytes), (unsigned long)(us / 1000),
                glout_fmt_fixed(mb, sizeof(mb), (double)app_bps(bytes, us) / 1e6, 2),
                aborted ? " (aborted)" : "");
}

/* ---------------------------------------------------------------- server */

/* What a client stream sends first: nothing (the server's connection
 * back, iperf 2's compat mode), or the iperf 2 header of a plain, a dual
 * (-d) or a reverse (-R) test. */
enum cli_hdr { CLI_HDR_NONE, CLI_HDR_PLAIN, CLI_HDR_DUAL, CLI_HDR_TRADEOFF, CLI_HDR_REVERSE };

static err_t cli_start(const ip_addr_t *ip, uint16_t port, uint32_t time_ms,
                       uint64_t amount, uint32_t interval_s, enum cli_hdr hdr, unsigned streams,
                       uint32_t window);
static err_t cli_adopt(struct tcp_pcb *pcb, uint32_t time_ms, uint64_t amount);
static err_t cli_step_adopted(void);

/* Dual (-d) and tradeoff (-r) tests: the server opens a second connection
 * to the client's listener (port from the header, same address) and sends
 * for the client's time or amount.  The client's listener runs in iperf's
 * "compat" mode, so the reverse stream carries no header. */
static void connect_back(const ip_addr_t *ip, uint16_t port, uint32_t time_ms, uint64_t amount)
{
    err_t err = cli_start(ip, port, time_ms, amount, 0, CLI_HDR_NONE, 1, 0);
    if (err != ERR_OK)
        app_error("iperf", "dual/tradeoff connect-back failed", err);
    else
        glout_textf("iperf tcp: connecting back to %s:%u", ipaddr_ntoa(ip), port);
}

static void sess_detach(struct tcp_sess *s)
{
    if (s->pcb) {
        tcp_arg(s->pcb, NULL);
        tcp_recv(s->pcb, NULL);
        tcp_err(s->pcb, NULL);
        tcp_poll(s->pcb, NULL, 0);
    }
    s->pcb = NULL;
}

/* A connection joins the server's current test, or opens a new one when
 * none is running (iperf 2's server sums the streams of one client). */
#define GIDX_SOLO 0xffu               /* a test of its own (iperf_grp_joins) */

static void grp_join(struct tcp_sess *s)
{
    bool first;

    if (!iperf_grp_joins(&srv.grp, s->start_us)) {
        s->gidx = GIDX_SOLO;
        return;
    }
    s->gidx = (uint8_t)iperf_grp_join(&srv.grp, s->start_us, &first);
    if (first) {
        ip_addr_copy(srv.grp_peer, s->peer);
        srv.grp_peer_port = s->peer_port;
    }
}

/* A connection of the current test ends (counted: it received; else it
 * was handed to the -R sender); the last one prints the test's line. */
static void grp_leave(struct tcp_sess *s, bool counted, bool aborted)
{
    uint64_t sb[IPERF_GRP_MAX], sum, us, now_us = app_now_us();
    unsigned n;

    /* the test's last, partial interval gets its line before the result
     * (iperf2_last_interval_kept) */
    if (s->gidx == GIDX_SOLO) {
        if (counted) {
            if (iperf2_last_interval_kept(s->ivl_start_us, now_us, srv.interval_s))
                emit_progress("server", &s->peer, s->peer_port, s->ivl_bytes, now_us - s->ivl_start_us);
            emit_result("server", &s->peer, s->peer_port, s->bytes, now_us - s->start_us, UINT64_MAX,
                        aborted, 1, &s->bytes, 0, false);
        }
        s->ivl_bytes = 0;
        return;
    }
    if (counted && (!srv.ivl_done || s->ivl_start_us < srv.ivl_done_start_us))
        srv.ivl_done_start_us = s->ivl_start_us;
    srv.ivl_done |= counted;
    srv.ivl_done_bytes += counted ? s->ivl_bytes : 0;
    s->ivl_bytes = 0;
    if (!iperf_grp_leave(&srv.grp, s->gidx, counted, s->bytes, aborted, now_us))
        return;
    if (srv.ivl_done && iperf2_last_interval_kept(srv.ivl_done_start_us, now_us, srv.interval_s))
        emit_progress("server", &srv.grp_peer, srv.grp_peer_port, srv.ivl_done_bytes,
                      now_us - srv.ivl_done_start_us);
    srv.ivl_done = false;
    srv.ivl_done_bytes = 0;
    n = iperf_grp_sum(&srv.grp, sb, &sum, &us);
    emit_result("server", &srv.grp_peer, srv.grp_peer_port, sum, us, UINT64_MAX, srv.grp.aborted, n, sb, 0, false);
}

/* End of a server session; the pcb is closed (or aborted) by the caller. */
static void sess_finish(struct tcp_sess *s, bool aborted)
{
    grp_leave(s, true, aborted);
    if (s->back_pending && !aborted)
        connect_back(&s->peer, s->back_port, s->back_time_ms, s->back_amount);
    s->back_pending = false;
}

/* Parse the iperf header off the front of the stream once enough arrived.
 * Returns true when the connection was handed to the sender (-R): the
 * session slot is then free and s must not be used. */
static bool sess_header(struct tcp_sess *s, struct pbuf *p)
{
    struct iperf2_client_hdr h;
    int rc;
    u16_t want = (u16_t)(sizeof(s->hdr) - s->hdr_len);

    if (want > p->tot_len)
        want = p->tot_len;
    s->hdr_len = (uint8_t)(s->hdr_len + pbuf_copy_partial(p, s->hdr + s->hdr_len, want, 0));
    rc = iperf2_client_hdr_decode(s->hdr, s->hdr_len, &h);
    if (rc == -EMSGSIZE && s->hdr_len < sizeof(s->hdr))
        return false;               /* need more bytes */
    s->hdr_done = true;
    if (rc < 0) {
        app_error("iperf", "malformed tcp client header (ignored)", rc);
        return false;
    }
    if (rc > 0 && (h.flags & IPERF2_HDR_VERSION1) && !(h.flags & IPERF2_HDR_VERSION2)) {
        /* mAmount < 0: time in 10 ms units; else bytes (Settings.cpp);
         * the peer's time is held to the shell's own limit */
        uint32_t time_ms = iperf2_amount_time_ms(h.amount, IPERF_MAX_TIME_S * 1000u);
        uint64_t amount = h.amount >= 0 ? (uint64_t)h.amount : 0;
        uint16_t port = (uint16_t)h.port;
        if (port == 0 || (time_ms == 0 && amount == 0)) {
            app_error("iperf", "dual/tradeoff header without port or length (ignored)", -EINVAL);
        } else if (h.flags & IPERF2_RUN_NOW) {
            connect_back(&s->peer, port, time_ms, amount);
        } else {
            s->back_pending = true;
            s->back_port = port;
            s->back_time_ms = time_ms;
            s->back_amount = amount;
        }
    }
    /* iperf 2.1.8's Listener.cpp reads these two upper flags only in a
     * HEADER_VERSION2 header */
    if (rc > 0 && (h.flags & IPERF2_HDR_VERSION2) && (h.upper_flags & IPERF2_UPPER_FULLDUPLEX)) {
        app_error("iperf", "full-duplex (--full-duplex) not supported; receiving only", 0);
    } else if (rc > 0 && (h.flags & IPERF2_HDR_VERSION2) && (h.upper_flags & IPERF2_UPPER_REVERSE)) {
        /* 2.1 -R: the client reads, we send on this connection */
        uint32_t time_ms = iperf2_amount_time_ms(h.amount, IPERF_MAX_TIME_S * 1000u);
        uint64_t amount = h.amount >= 0 ? (uint64_t)h.amount : 0;
        err_t err = (time_ms || amount) ? cli_adopt(s->pcb, time_ms, amount) : ERR_VAL;
        if (err == ERR_OK) {
            s->pcb = NULL;          /* slot free, callbacks are the sender's now; no receive result */
            grp_leave(s, false, false);
            return true;
        }
        app_error("iperf", "reverse (-R) test cannot start; receiving only", err);
    }
    return false;
}

static err_t srv_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
    struct tcp_sess *s = arg;

    if (!s) {                       /* session already finished */
        if (p)
            pbuf_free(p);
        return ERR_OK;
    }
    if (p == NULL || err != ERR_OK) {   /* client closed: the test is over */
        sess_finish(s, false);
        sess_detach(s);
        if (p)
            pbuf_free(p);
        if (tcp_close(pcb) != ERR_OK) {
            tcp_abort(pcb);
            return ERR_ABRT;
        }
        return ERR_OK;
    }
    if (!s->hdr_done && sess_header(s, p)) {
        tcp_recved(pcb, p->tot_len);
        pbuf_free(p);
        return cli_step_adopted();  /* may close the connection already */
    }
    s->bytes += p->tot_len;
    s->ivl_bytes += p->tot_len;
    s->last_rx_ms = app_now_ms();
    tcp_recved(pcb, p->tot_len);
    pbuf_free(p);
    return ERR_OK;
}

/* Every SRV_POLL_INTERVAL: abort a session idle for IPERF_TCP_SRV_IDLE_S. */
static err_t srv_poll(void *arg, struct tcp_pcb *pcb)
{
    struct tcp_sess *s = arg;

    if (!s || IPERF_TCP_SRV_IDLE_S == 0)
        return ERR_OK;
    if ((uint32_t)(app_now_ms() - s->last_rx_ms) < IPERF_TCP_SRV_IDLE_S * 1000u)
        return ERR_OK;
    app_error("iperf", "tcp server: connection idle too long, aborted", ERR_TIMEOUT);
    sess_finish(s, true);
    sess_detach(s);
    tcp_abort(pcb);
    return ERR_ABRT;
}

static void srv_err(void *arg, err_t err)
{
    struct tcp_sess *s = arg;
    (void)err;
    if (!s)
        return;
    s->pcb = NULL;                  /* lwIP has freed it */
    sess_finish(s, true);
}

static err_t srv_accept(void *arg, struct tcp_pcb *pcb, err_t err)
{
    struct tcp_sess *s = NULL;
    (void)arg;

    if (err != ERR_OK || pcb == NULL)
        return ERR_VAL;
    for (int i = 0; i < IPERF_TCP_MAX_SESS; i++) {
        if (srv.sess[i].pcb == NULL) {
            s = &srv.sess[i];
            break;
        }
    }
    if (!s) {
        app_error("iperf", "tcp server: too many connections", ERR_MEM);
        tcp_abort(pcb);
        return ERR_ABRT;
    }
    memset(s, 0, sizeof(*s));
    s->pcb = pcb;
    ip_addr_copy(s->peer, pcb->remote_ip);
    s->peer_port = pcb->remote_port;
    s->start_us = s->ivl_start_us = app_now_us();
    s->last_rx_ms = app_now_ms();
    if (srv.grp.open == 0)          /* intervals start with the (first) connection */
        srv.next_report_ms = app_now_ms() + srv.interval_s * 1000u;
    grp_join(s);
    tcp_arg(pcb, s);
    tcp_recv(pcb, srv_recv);
    tcp_err(pcb, srv_err);
    tcp_poll(pcb, srv_poll, SRV_POLL_INTERVAL);
#if LWIP_TCP_KEEPALIVE
    ip_set_option(pcb, SOF_KEEPALIVE);
    pcb->keep_idle = IPERF_TCP_KEEPIDLE_S * 1000u;
    pcb->keep_intvl = IPERF_TCP_KEEPINTVL_S * 1000u;
    pcb->keep_cnt = IPERF_TCP_KEEPCNT;
#endif
    return ERR_OK;
}

err_t iperf_tcp_server_start(uint16_t port, uint32_t interval_s)
{
    struct tcp_pcb *pcb;
    err_t err;

    if (srv.listen)
        return ERR_ALREADY;
    pcb = tcp_new_ip_type(IPADDR_TYPE_V4);
    if (!pcb)
        return ERR_MEM;
    err = tcp_bind(pcb, IP4_ADDR_ANY, port);
    if (err != ERR_OK) {
        tcp_close(pcb);
        return err;
    }
    srv.listen = tcp_listen_with_backlog_and_err(pcb, IPERF_TCP_MAX_SESS, &err);
    if (!srv.listen) {
        tcp_close(pcb);
        return err;
    }
    srv.port = port;
    srv.interval_s = interval_s;
    srv.next_report_ms = app_now_ms() + interval_s * 1000u;
    tcp_accept(srv.listen, srv_accept);
    return ERR_OK;
}

/* ---------------------------------------------------------------- client */

static void st_detach(struct cli_stream *st)
{
    if (st->pcb) {
        tcp_arg(st->pcb, NULL);
        tcp_recv(st->pcb, NULL);
        tcp_sent(st->pcb, NULL);
        tcp_err(st->pcb, NULL);
        tcp_poll(st->pcb, NULL, 0);
    }
    st->pcb = NULL;
}

/* The test's result line: the sum over the streams (bytes from the common
 * start to the last stream's end) and each stream's bytes. */
static void cli_report(bool aborted)
{
    uint64_t written = 0, acked = 0, end_us = cli.start_us, sb[IPERF_TCP_MAX_STREAMS];

    for (unsigned k = 0; k < cli.n; k++) {
        const struct cli_stream *st = &cli.st[k];
        written += st->written;
        acked += st->acked;
        sb[k] = st->written;
        if (st->end_us > end_us)
            end_us = st->end_us;
        aborted |= st->aborted;
    }
    if (cli.interval_s) {           /* the last, partial interval (iperf2_last_interval_kept) */
        uint64_t ivl = 0;
        for (unsigned k = 0; k < cli.n; k++) {
            ivl += cli.st[k].ivl_acked;
            cli.st[k].ivl_acked = 0;
        }
        if (iperf2_last_interval_kept(cli.ivl_start_us, end_us, cli.interval_s))
            emit_progress("client", &cli.ip, cli.port, ivl, end_us - cli.ivl_start_us);
    }
    emit_result(cli.reverse ? "server" : "client", &cli.ip, cli.port, written, end_us - cli.start_us,
                cli.rx ? UINT64_MAX : acked, aborted, cli.n, sb, cli.reverse ? 0 : cli.window,
                cli.reverse || cli.rx);
}

/* All streams done: report (when they were sending) and free the engine. */
static void cli_check_done(void)
{
    for (unsigned k = 0; k < cli.n; k++)
        if (cli.st[k].state != CLI_IDLE)
            return;
    if (cli.active && cli.started)
        cli_report(false);
    cli.active = false;
    cli.started = false;
}

/* A stream's test is over (deadline, amount, peer close or error): close
 * it.  Returns ERR_ABRT when its pcb had to be aborted. */
static err_t st_finish(struct cli_stream *st, bool aborted)
{
    struct tcp_pcb *pcb = st->pcb;
    err_t ret = ERR_OK;

    if (st->state == CLI_SENDING) {
        st->end_us = app_now_us();
        st->aborted = aborted;
    }
    st_detach(st);
    st->state = CLI_IDLE;
    cli_check_done();               /* the last one reports, then closes (as before -P) */
    if (pcb && tcp_close(pcb) != ERR_OK) {
        tcp_abort(pcb);
        ret = ERR_ABRT;
    }
    return ret;
}

/* A stream failed to connect: the test cannot run as asked; the streams
 * already connected are aborted (no result line, as iperf 2's client
 * gives none for a test it could not start).  @self is the stream in
 * whose callback we are (its pcb is lwIP's to free). */
static void cli_fail_connect(struct cli_stream *self, err_t err)
{
    app_error("iperf", "tcp connect failed", err);
    for (unsigned k = 0; k < cli.n; k++) {
        struct cli_stream *st = &cli.st[k];
        struct tcp_pcb *pcb = st->pcb;
        st_detach(st);
        st->state = CLI_IDLE;
        if (pcb && st != self)
            tcp_abort(pcb);
    }
    cli.active = false;
    cli.started = false;
}

static bool cli_done(const struct cli_stream *st)
{
    if (cli.amount)
        return st->written >= cli.amount;
    return (int32_t)(app_now_ms() - cli.start_ms - cli.time_ms) >= 0;
}

/* Queue as much as the send buffer takes.  Data comes zero-copy from the
 * constant pattern (apiflags without TCP_WRITE_FLAG_COPY). */
static err_t st_fill(struct cli_stream *st)
{
    struct tcp_pcb *pcb = st->pcb;
    err_t err = ERR_OK;

    while (st->state == CLI_SENDING && !cli_done(st)) {
        u16_t room = tcp_sndbuf(pcb);
        u16_t n;
        if (cli.n > 1) {
            /* -P N: the streams share one TCP_SND_BUF of queue, each
             * TCP_SND_BUF / N.  lwIP's pools are global (MEMP_NUM_PBUF
             * zero-copy pbufs, MEMP_NUM_TCP_SEG; lwipopts.h), sized for
             * one full send buffer: with a whole one each, the first
             * streams took every pbuf and the others, nothing in flight,
             * got ERR_MEM and sent their 60-byte header only. */
            u16_t held = (u16_t)(TCP_SND_BUF - room), share = (u16_t)(TCP_SND_BUF / cli.n);
            room = held >= share ? 0 : (u16_t)(share - held);
        }
        if (cli.window && cli.window < TCP_SND_BUF) {
            /* -w: what SO_SNDBUF bounds on a host, the bytes written and
             * not yet acknowledged (lwIP's snd_buf counts both down) */
            u16_t held = (u16_t)(TCP_SND_BUF - tcp_sndbuf(pcb));
            u16_t cap = held >= cli.window ? 0 : (u16_t)(cli.window - held);
            if (cap < room)
                room = cap;
        }
        if (st->hdr_sent < cli.hdr_len) {
            n = (u16_t)(cli.hdr_len - st->hdr_sent);
            if (room < n)
                break;
            err = app_tcp_write(pcb, cli.hdr + st->hdr_sent, n, TCP_WRITE_FLAG_COPY | TCP_WRITE_FLAG_MORE);
            if (err == ERR_OK)
                st->hdr_sent = (uint16_t)(st->hdr_sent + n);
        } else if (cli.rx) {
            break;                  /* -R: the header is all we send */
        } else {
            n = room < APP_PATTERN_LEN ? room : APP_PATTERN_LEN;
            if (cli.amount && cli.amount - st->written < n)
                n = (u16_t)(cli.amount - st->written);
            /* wait for a segment's worth of room rather than dribble */
            if (n == 0 || (n == room && n < TCP_MSS))
                break;
            err = app_tcp_write(pcb, app_pattern, n, TCP_WRITE_FLAG_MORE);
        }
        if (err == ERR_MEM) {       /* queue full: sent() calls us again */
            err = ERR_OK;
            break;
        }
        if (err != ERR_OK)
            break;
        if (!cli.rx)                /* -R: "written" counts what arrives, not our header */
            st->written += n;
    }
    if (err == ERR_OK)
        tcp_output(pcb);
    return err;
}

/* Common step from sent/poll callbacks and the main-loop hook. */
static err_t st_step(struct cli_stream *st)
{
    err_t err;
    if (st->state != CLI_SENDING)
        return ERR_OK;
    if (cli.rx && st->hdr_sent >= cli.hdr_len) {
        /* -R: the server ends the test by closing; one that does not is
         * given IPERF_TCP_RX_GRACE_MS past the test's time */
        if (!cli.amount &&
            (int32_t)(app_now_ms() - cli.start_ms - cli.time_ms - IPERF_TCP_RX_GRACE_MS) >= 0)
            return st_finish(st, true);
        return ERR_OK;
    }
    if (!cli.rx && cli_done(st))
        return st_finish(st, false);
    err = st_fill(st);
    if (err != ERR_OK) {
        app_error("iperf", "tcp_write failed", err);
        return st_finish(st, true);
    }
    return ERR_OK;
}

/* Step every stream; returns what @self's step returned (ERR_ABRT only
 * concerns the pcb of the callback we are in). */
static err_t cli_step_all(struct cli_stream *self)
{
    err_t ret = ERR_OK;
    for (unsigned k = 0; k < cli.n && cli.active; k++) {
        err_t e = st_step(&cli.st[k]);
        if (&cli.st[k] == self)
            ret = e;
    }
    return ret;
}

static err_t cli_sent(void *arg, struct tcp_pcb *pcb, u16_t len)
{
    struct cli_stream *st = arg;
    (void)pcb;
    if (!st)
        return ERR_OK;
    st->acked += len;
    st->ivl_acked += len;
    return st_step(st);
}

static err_t cli_poll(void *arg, struct tcp_pcb *pcb)
{
    struct cli_stream *st = arg;
    (void)pcb;
    return st ? st_step(st) : ERR_OK;
}

static err_t cli_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
    struct cli_stream *st = arg;
    (void)err;
    if (p) {                        /* the iperf server sends nothing we need, except with -R */
        if (st && cli.rx && st->state == CLI_SENDING) {
            st->written += p->tot_len;
            st->ivl_acked += p->tot_len;
        }
        tcp_recved(pcb, p->tot_len);
        pbuf_free(p);
        return ERR_OK;
    }
    if (!st)
        return ERR_OK;
    if (st->state == CLI_READY) {   /* closed before the test started: as a failed connect */
        cli_fail_connect(st, ERR_CLSD);
        tcp_abort(pcb);
        return ERR_ABRT;
    }
    return st_finish(st, false);    /* server closed early */
}

static void cli_err(void *arg, err_t err)
{
    struct cli_stream *st = arg;
    if (!st)
        return;
    st->pcb = NULL;                 /* freed by lwIP */
    if (st->state == CLI_CONNECTING || st->state == CLI_READY) {
        cli_fail_connect(st, err);
        return;
    }
    if (st->state == CLI_SENDING) {
        st->end_us = app_now_us();
        st->aborted = true;
    }
    st->state = CLI_IDLE;
    cli_check_done();
}

/* Start sending on every stream at one instant (iperf 2's client barrier). */
static err_t cli_go(struct cli_stream *self)
{
    cli.started = true;
    cli.start_us = cli.ivl_start_us = app_now_us();
    cli.start_ms = app_now_ms();
    cli.next_report_ms = cli.start_ms + cli.interval_s * 1000u;
    for (unsigned k = 0; k < cli.n; k++) {
        struct cli_stream *st = &cli.st[k];
        st->state = CLI_SENDING;
        tcp_sent(st->pcb, cli_sent);
        tcp_poll(st->pcb, cli_poll, TCP_POLL_COARSE);
    }
    if (cli.n > 1)
        glout_textf("iperf tcp client: %u streams connected to %s, sending", cli.n, ipaddr_ntoa(&cli.ip));
    else
        glout_textf("iperf tcp client: connected to %s, sending", ipaddr_ntoa(&cli.ip));
    return cli_step_all(self);
}

static err_t cli_connected(void *arg, struct tcp_pcb *pcb, err_t err)
{
    struct cli_stream *st = arg;
    (void)pcb;
    if (!st)
        return ERR_OK;
    if (err != ERR_OK) {
        cli_fail_connect(st, err);
        tcp_abort(pcb);
        return ERR_ABRT;
    }
    st->state = CLI_READY;
    for (unsigned k = 0; k < cli.n; k++)
        if (cli.st[k].state != CLI_READY)
            return ERR_OK;          /* wait for the others */
    return cli_go(st);
}

static void cli_reset(const ip_addr_t *ip, uint16_t port, uint32_t time_ms, uint64_t amount,
                      uint32_t interval_s, unsigned streams, uint32_t window)
{
    app_pattern_init();
    memset(&cli, 0, sizeof(cli));
    ip_addr_copy(cli.ip, *ip);
    cli.port = port;
    cli.time_ms = time_ms;
    cli.amount = amount;
    cli.interval_s = interval_s;
    cli.n = (uint8_t)streams;
    cli.window = window;
    cli.active = true;
}

static err_t cli_start(const ip_addr_t *ip, uint16_t port, uint32_t time_ms,
                       uint64_t amount, uint32_t interval_s, enum cli_hdr hdr, unsigned streams,
                       uint32_t window)
{
    struct iperf2_client_hdr h;
    err_t err = ERR_OK;

    if (cli.active)
        return ERR_ALREADY;
    if (streams < 1 || streams > IPERF_TCP_MAX_STREAMS)
        return ERR_VAL;
    cli_reset(ip, port, time_ms, amount, interval_s, streams, window);
    cli.rx = hdr == CLI_HDR_REVERSE;
    if (hdr != CLI_HDR_NONE) {
        iperf2_client_hdr_init(&h, false, port, 0, cli.time_ms, 0);
        h.num_threads = (int32_t)streams;       /* every stream's header says -P */
        if (hdr == CLI_HDR_DUAL)    /* -d: a version 1 header, "run now" (iperf 2 Settings.cpp) */
            h.flags |= IPERF2_HDR_VERSION1 | IPERF2_RUN_NOW;
        if (hdr == CLI_HDR_TRADEOFF) /* -r: a version 1 header, the server's test after ours */
            h.flags |= IPERF2_HDR_VERSION1;
        if (hdr == CLI_HDR_REVERSE) /* -R: the 2.1 reverse flag, read only with VERSION2 (Listener.cpp) */
            h.flags |= IPERF2_HDR_VERSION2, h.upper_flags |= IPERF2_UPPER_REVERSE;
        if (amount)
            h.amount = (int32_t)(amount & 0x7FFFFFFF);   /* Settings.cpp: byte mode */
        cli.hdr_len = (uint16_t)iperf2_client_hdr_encode(&h, cli.hdr, sizeof(cli.hdr));
    }

    for (unsigned k = 0; k < streams && err == ERR_OK; k++) {
        struct cli_stream *st = &cli.st[k];
        st->pcb = tcp_new_ip_type(IPADDR_TYPE_V4);
        if (!st->pcb) {
            err = ERR_MEM;
            break;
        }
        tcp_arg(st->pcb, st);
        tcp_recv(st->pcb, cli_recv);
        tcp_err(st->pcb, cli_err);
        st->state = CLI_CONNECTING;
        err = tcp_connect(st->pcb, &cli.ip, port, cli_connected);
    }
    if (err != ERR_OK) {            /* undo every stream (none has connected yet) */
        for (unsigned k = 0; k < streams; k++) {
            struct cli_stream *st = &cli.st[k];
            struct tcp_pcb *pcb = st->pcb;
            st_detach(st);
            st->state = CLI_IDLE;
            if (pcb)
                tcp_abort(pcb);
        }
        cli.active = false;
    }
    return err;
}

/* Send on an accepted connection (2.1's -R): same engine as the client,
 * one stream, no header, from now for time_ms or amount bytes. */
static err_t cli_adopt(struct tcp_pcb *pcb, uint32_t time_ms, uint64_t amount)
{
    struct cli_stream *st = &cli.st[0];

    if (cli.active)
        return ERR_ALREADY;
    cli_reset(&pcb->remote_ip, pcb->remote_port, time_ms, amount, 0, 1, 0);
    cli.reverse = true;
    st->pcb = pcb;
    tcp_arg(pcb, st);
    tcp_recv(pcb, cli_recv);
    tcp_err(pcb, cli_err);
    tcp_sent(pcb, cli_sent);
    tcp_poll(pcb, cli_poll, TCP_POLL_COARSE);
    st->state = CLI_SENDING;
    cli.started = true;
    cli.start_us = cli.ivl_start_us = app_now_us();
    cli.start_ms = app_now_ms();
    glout_textf("iperf tcp server: reverse test, sending to %s:%u", ipaddr_ntoa(&cli.ip), cli.port);
    return ERR_OK;
}

/* The accepted connection's callback returns this after cli_adopt(). */
static err_t cli_step_adopted(void)
{
    return st_step(&cli.st[0]);
}

err_t iperf_tcp_client_start(uint32_t host, uint16_t port, uint32_t time_s,
                             uint64_t amount_bytes, uint32_t interval_s, uint32_t streams,
                             uint32_t window_bytes, bool dual, bool tradeoff, bool reverse)
{
    ip_addr_t ip;
    err_t err;

    if ((dual || tradeoff || reverse) && (streams != 1 || dual + tradeoff + reverse > 1))
        return ERR_VAL;                 /* one stream, one of -d / -r / -R */
    if (dual || tradeoff) {
        /* the server connects back to the port in our header: the TCP
         * server is that listener (kept running after the test, as any
         * `iperf -s`; already listening is fine) */
        err = iperf_tcp_server_start(port, interval_s);
        if (err != ERR_OK && err != ERR_ALREADY)
            return err;
        if (err == ERR_ALREADY && srv.port != port)
            return ERR_USE;
    }
    app_ip_set(&ip, host);
    return cli_start(&ip, port, time_s * 1000u, amount_bytes, interval_s,
                     dual ? CLI_HDR_DUAL : tradeoff ? CLI_HDR_TRADEOFF : reverse ? CLI_HDR_REVERSE
                     : CLI_HDR_PLAIN, streams, window_bytes);
}

/* ---------------------------------------------------------------- common */

void iperf_tcp_stop(void)
{
    for (int i = 0; i < IPERF_TCP_MAX_SESS; i++) {
        struct tcp_sess *s = &srv.sess[i];
        if (s->pcb) {
            struct tcp_pcb *pcb = s->pcb;
            sess_finish(s, true);
            sess_detach(s);
            tcp_abort(pcb);
        }
    }
    if (srv.listen) {
        tcp_close(srv.listen);      /* a listening pcb closes without error */
        srv.listen = NULL;
    }
    if (cli.active) {
        uint64_t now_us = app_now_us();
        for (unsigned k = 0; k < cli.n; k++) {
            struct cli_stream *st = &cli.st[k];
            struct tcp_pcb *pcb = st->pcb;
            if (st->state == CLI_SENDING) {
                st->end_us = now_us;
                st->aborted = true;
            }
            st_detach(st);
            st->state = CLI_IDLE;
            if (pcb)
                tcp_abort(pcb);
        }
        if (cli.started)
            cli_report(true);
        cli.active = cli.started = false;
    }
}

void iperf_tcp_poll(uint32_t now_ms)
{
    uint64_t now_us, sum, first_us;

    if (cli.active && cli.started) {
        cli_step_all(NULL);         /* deadline check between ACKs */
        if (cli.active && cli.interval_s && (int32_t)(now_ms - cli.next_report_ms) >= 0) {
            now_us = app_now_us();
            sum = 0;
            for (unsigned k = 0; k < cli.n; k++) {
                sum += cli.st[k].ivl_acked;
                cli.st[k].ivl_acked = 0;
            }
            emit_progress("client", &cli.ip, cli.port, sum, now_us - cli.ivl_start_us);
            cli.ivl_start_us = now_us;
            cli.next_report_ms += cli.interval_s * 1000u;
        }
    }
    if (srv.listen && srv.interval_s && (int32_t)(now_ms - srv.next_report_ms) >= 0) {
        /* one line for the test: the sum over its open connections */
        bool any = srv.ivl_done;   /* connections of the test that ended meanwhile */
        now_us = app_now_us();
        sum = srv.ivl_done_bytes;
        first_us = srv.ivl_done && srv.ivl_done_start_us < now_us ? srv.ivl_done_start_us : now_us;
        srv.ivl_done = false;
        srv.ivl_done_bytes = 0;
        for (int i = 0; i < IPERF_TCP_MAX_SESS; i++) {
            struct tcp_sess *s = &srv.sess[i];
            if (!s->pcb)
                continue;
            any = true;
            sum += s->ivl_bytes;
            if (s->ivl_start_us < first_us)
                first_us = s->ivl_start_us;
            s->ivl_bytes = 0;
            s->ivl_start_us = now_us;
        }
        if (any)
            emit_progress("server", &srv.grp_peer, srv.grp_peer_port, sum, now_us - first_us);
        srv.next_report_ms += srv.interval_s * 1000u;
    }
}
