/* iperf_tcp.c - iperf 2 compatible TCP server and client on the lwIP RAW API.
 *
 * Server: accepts up to IPERF_TCP_MAX_SESS connections (iperf -P), reads the
 * client header (iperf2.h) off the front of the stream, sinks the data and
 * reports one result line per connection when the client closes.
 * Client: sends a 2.1-style header (HEADER_EXTEND, 60 bytes) then iperf's
 * "0123456789" pattern, zero-copy from app_pattern, for -t seconds or -n
 * bytes, then closes.  The host's iperf server accepts it as a normal test.
 *
 * Dual (-d) and tradeoff (-r) tests (HEADER_VERSION1, as lwiperf does them):
 * the server connects back to the client's listener, at once or after the
 * client's test; the reverse stream is reported as a "client" result.
 *
 * Known limitations:
 * 2.1's -R (HEADER_EXTEND + upper flag REVERSE): the server sends on the
 * accepted connection for the client's time; result role "server" with
 * "reverse":true.
 *
 * Known limitations:
 * - --full-duplex is reported as an error line; the server only receives.
 * - One sending engine: a dual/reverse test while `iperf -c` runs (or two
 *   at once) cannot start and says so.
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

#define IPERF_TCP_MAX_SESS 4
#define TCP_POLL_COARSE    2        /* tcp_poll interval: 2 x 500 ms */

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
} srv;

/* Client states.  CLI_IDLE -> CLI_CONNECTING on `iperf -c` (tcp_connect);
 * CLI_CONNECTING -> CLI_SENDING when connected, -> CLI_IDLE on connect
 * error (error line); CLI_SENDING -> CLI_IDLE when the time/amount is done,
 * the server closes, an error resets the pcb or `iperf stop` (result line,
 * then close/abort).  The pcb is owned by lwIP again once CLI_IDLE. */
enum cli_state { CLI_IDLE, CLI_CONNECTING, CLI_SENDING };

static struct {
    enum cli_state state;
    struct tcp_pcb *pcb;
    ip_addr_t ip;
    uint16_t port;
    uint32_t time_ms;
    uint64_t amount;                /* 0: time mode */
    uint32_t interval_s;
    uint64_t start_us;
    uint32_t start_ms;
    uint32_t next_report_ms;
    uint64_t written;
    uint64_t acked;
    uint64_t ivl_start_us;
    uint64_t ivl_acked;
    uint8_t hdr[IPERF2_CLIENT_V1_LEN + IPERF2_CLIENT_EXT_LEN];
    uint16_t hdr_len;
    uint16_t hdr_sent;
    bool reverse;                   /* sending on a connection we accepted (-R) */
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

static void emit_result(const char *role, const ip_addr_t *peer, uint16_t port,
                        uint64_t bytes, uint64_t us, uint64_t acked, bool aborted)
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
    if (acked != UINT64_MAX && strcmp(role, "server") == 0)
        glout_bool(&g, "reverse", true);   /* a server that sent: -R */
    glout_bool(&g, "aborted", aborted);
    glout_emit(&g);
    glout_textf("iperf tcp %s %s: %s bytes in %lu ms = %s Mb/s%s", role, ps,
                glout_fmt_u64(by, bytes), (unsigned long)(us / 1000),
                glout_fmt_fixed(mb, sizeof(mb), (double)app_bps(bytes, us) / 1e6, 2),
                aborted ? " (aborted)" : "");
}

/* ---------------------------------------------------------------- server */

static err_t cli_start(const ip_addr_t *ip, uint16_t port, uint32_t time_ms,
                       uint64_t amount, uint32_t interval_s, bool send_hdr);
static err_t cli_adopt(struct tcp_pcb *pcb, uint32_t time_ms, uint64_t amount);
static err_t cli_step(void);

/* Dual (-d) and tradeoff (-r) tests: the server opens a second connection
 * to the client's listener (port from the header, same address) and sends
 * for the client's time or amount.  The client's listener runs in iperf's
 * "compat" mode, so the reverse stream carries no header. */
static void connect_back(const ip_addr_t *ip, uint16_t port, uint32_t time_ms, uint64_t amount)
{
    err_t err = cli_start(ip, port, time_ms, amount, 0, false);
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

/* End of a server session; the pcb is closed (or aborted) by the caller. */
static void sess_finish(struct tcp_sess *s, bool aborted)
{
    emit_result("server", &s->peer, s->peer_port, s->bytes,
                app_now_us() - s->start_us, UINT64_MAX, aborted);
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
    if (rc > 0 && (h.flags & IPERF2_HDR_EXTEND) && (h.upper_flags & IPERF2_UPPER_FULLDUPLEX)) {
        app_error("iperf", "full-duplex (--full-duplex) not supported; receiving only", 0);
    } else if (rc > 0 && (h.flags & IPERF2_HDR_EXTEND) && (h.upper_flags & IPERF2_UPPER_REVERSE)) {
        /* 2.1 -R: the client reads, we send on this connection */
        uint32_t time_ms = iperf2_amount_time_ms(h.amount, IPERF_MAX_TIME_S * 1000u);
        uint64_t amount = h.amount >= 0 ? (uint64_t)h.amount : 0;
        err_t err = (time_ms || amount) ? cli_adopt(s->pcb, time_ms, amount) : ERR_VAL;
        if (err == ERR_OK) {
            s->pcb = NULL;          /* slot free, callbacks are the sender's now; no receive result */
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
        return cli_step();          /* may close the connection already */
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
    {
        bool others = false;
        for (int i = 0; i < IPERF_TCP_MAX_SESS; i++)
            others |= (&srv.sess[i] != s && srv.sess[i].pcb != NULL);
        if (!others)                /* intervals start with the (first) connection */
            srv.next_report_ms = app_now_ms() + srv.interval_s * 1000u;
    }
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

static void cli_detach(void)
{
    if (cli.pcb) {
        tcp_arg(cli.pcb, NULL);
        tcp_recv(cli.pcb, NULL);
        tcp_sent(cli.pcb, NULL);
        tcp_err(cli.pcb, NULL);
        tcp_poll(cli.pcb, NULL, 0);
    }
    cli.pcb = NULL;
    cli.state = CLI_IDLE;
}

/* Test over (deadline, amount, peer close or error): report, then close. */
static err_t cli_finish(bool aborted)
{
    struct tcp_pcb *pcb = cli.pcb;
    err_t ret = ERR_OK;

    if (cli.state == CLI_SENDING)
        emit_result(cli.reverse ? "server" : "client", &cli.ip, cli.port, cli.written, app_now_us() - cli.start_us,
                    cli.acked, aborted);
    cli_detach();
    if (pcb && tcp_close(pcb) != ERR_OK) {
        tcp_abort(pcb);
        ret = ERR_ABRT;
    }
    return ret;
}

static bool cli_done(void)
{
    if (cli.amount)
        return cli.written >= cli.amount;
    return (int32_t)(app_now_ms() - cli.start_ms - cli.time_ms) >= 0;
}

/* Queue as much as the send buffer takes.  Data comes zero-copy from the
 * constant pattern (apiflags without TCP_WRITE_FLAG_COPY). */
static err_t cli_fill(void)
{
    struct tcp_pcb *pcb = cli.pcb;
    err_t err = ERR_OK;

    while (cli.state == CLI_SENDING && !cli_done()) {
        u16_t room = tcp_sndbuf(pcb);
        u16_t n;
        if (cli.hdr_sent < cli.hdr_len) {
            n = (u16_t)(cli.hdr_len - cli.hdr_sent);
            if (room < n)
                break;
            err = tcp_write(pcb, cli.hdr + cli.hdr_sent, n, TCP_WRITE_FLAG_COPY | TCP_WRITE_FLAG_MORE);
            if (err == ERR_OK)
                cli.hdr_sent = (uint16_t)(cli.hdr_sent + n);
        } else {
            n = room < APP_PATTERN_LEN ? room : APP_PATTERN_LEN;
            if (cli.amount && cli.amount - cli.written < n)
                n = (u16_t)(cli.amount - cli.written);
            /* wait for a segment's worth of room rather than dribble */
            if (n == 0 || (n == room && n < TCP_MSS))
                break;
            err = tcp_write(pcb, app_pattern, n, TCP_WRITE_FLAG_MORE);
        }
        if (err == ERR_MEM) {       /* queue full: sent() calls us again */
            err = ERR_OK;
            break;
        }
        if (err != ERR_OK)
            break;
        cli.written += n;
    }
    if (err == ERR_OK)
        tcp_output(pcb);
    return err;
}

/* Common step from sent/poll callbacks and the main-loop hook. */
static err_t cli_step(void)
{
    err_t err;
    if (cli.state != CLI_SENDING)
        return ERR_OK;
    if (cli_done())
        return cli_finish(false);
    err = cli_fill();
    if (err != ERR_OK) {
        app_error("iperf", "tcp_write failed", err);
        return cli_finish(true);
    }
    return ERR_OK;
}

static err_t cli_sent(void *arg, struct tcp_pcb *pcb, u16_t len)
{
    (void)arg;
    (void)pcb;
    cli.acked += len;
    cli.ivl_acked += len;
    return cli_step();
}

static err_t cli_poll(void *arg, struct tcp_pcb *pcb)
{
    (void)arg;
    (void)pcb;
    return cli_step();
}

static err_t cli_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
    (void)arg;
    (void)err;
    if (p) {                        /* the iperf server sends nothing we need */
        tcp_recved(pcb, p->tot_len);
        pbuf_free(p);
        return ERR_OK;
    }
    return cli_finish(false);       /* server closed early */
}

static void cli_err(void *arg, err_t err)
{
    (void)arg;
    cli.pcb = NULL;                 /* freed by lwIP */
    if (cli.state == CLI_CONNECTING)
        app_error("iperf", "tcp connect failed", err);
    else if (cli.state == CLI_SENDING)
        emit_result(cli.reverse ? "server" : "client", &cli.ip, cli.port, cli.written, app_now_us() - cli.start_us,
                    cli.acked, true);
    cli.state = CLI_IDLE;
}

static err_t cli_connected(void *arg, struct tcp_pcb *pcb, err_t err)
{
    (void)arg;
    (void)pcb;
    if (err != ERR_OK) {
        app_error("iperf", "tcp connect failed", err);
        cli_detach();
        return ERR_OK;
    }
    cli.state = CLI_SENDING;
    cli.start_us = cli.ivl_start_us = app_now_us();
    cli.start_ms = app_now_ms();
    cli.next_report_ms = cli.start_ms + cli.interval_s * 1000u;
    tcp_sent(cli.pcb, cli_sent);
    tcp_poll(cli.pcb, cli_poll, TCP_POLL_COARSE);
    glout_textf("iperf tcp client: connected to %s, sending", ipaddr_ntoa(&cli.ip));
    return cli_step();
}

static err_t cli_start(const ip_addr_t *ip, uint16_t port, uint32_t time_ms,
                       uint64_t amount, uint32_t interval_s, bool send_hdr)
{
    struct iperf2_client_hdr h;
    err_t err;

    if (cli.state != CLI_IDLE)
        return ERR_ALREADY;
    app_pattern_init();
    memset(&cli, 0, sizeof(cli));
    ip_addr_copy(cli.ip, *ip);
    cli.port = port;
    cli.time_ms = time_ms;
    cli.amount = amount;
    cli.interval_s = interval_s;
    if (send_hdr) {
        iperf2_client_hdr_init(&h, false, port, 0, cli.time_ms, 0);
        if (amount)
            h.amount = (int32_t)(amount & 0x7FFFFFFF);   /* Settings.cpp: byte mode */
        cli.hdr_len = (uint16_t)iperf2_client_hdr_encode(&h, cli.hdr, sizeof(cli.hdr));
    }

    cli.pcb = tcp_new_ip_type(IPADDR_TYPE_V4);
    if (!cli.pcb)
        return ERR_MEM;
    tcp_arg(cli.pcb, NULL);
    tcp_recv(cli.pcb, cli_recv);
    tcp_err(cli.pcb, cli_err);
    cli.state = CLI_CONNECTING;
    err = tcp_connect(cli.pcb, &cli.ip, port, cli_connected);
    if (err != ERR_OK) {
        struct tcp_pcb *pcb = cli.pcb;
        cli_detach();
        tcp_abort(pcb);
    }
    return err;
}

/* Send on an accepted connection (2.1's -R): same engine as the client,
 * no header, from now for time_ms or amount bytes. */
static err_t cli_adopt(struct tcp_pcb *pcb, uint32_t time_ms, uint64_t amount)
{
    if (cli.state != CLI_IDLE)
        return ERR_ALREADY;
    app_pattern_init();
    memset(&cli, 0, sizeof(cli));
    ip_addr_copy(cli.ip, pcb->remote_ip);
    cli.port = pcb->remote_port;
    cli.time_ms = time_ms;
    cli.amount = amount;
    cli.reverse = true;
    cli.pcb = pcb;
    tcp_arg(pcb, NULL);
    tcp_recv(pcb, cli_recv);
    tcp_err(pcb, cli_err);
    tcp_sent(pcb, cli_sent);
    tcp_poll(pcb, cli_poll, TCP_POLL_COARSE);
    cli.state = CLI_SENDING;
    cli.start_us = cli.ivl_start_us = app_now_us();
    cli.start_ms = app_now_ms();
    glout_textf("iperf tcp server: reverse test, sending to %s:%u", ipaddr_ntoa(&cli.ip), cli.port);
    return ERR_OK;
}

err_t iperf_tcp_client_start(uint32_t host, uint16_t port, uint32_t time_s,
                             uint64_t amount_bytes, uint32_t interval_s)
{
    ip_addr_t ip;
    app_ip_set(&ip, host);
    return cli_start(&ip, port, time_s * 1000u, amount_bytes, interval_s, true);
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
    if (cli.state != CLI_IDLE) {
        struct tcp_pcb *pcb = cli.pcb;
        if (cli.state == CLI_SENDING)
            emit_result(cli.reverse ? "server" : "client", &cli.ip, cli.port, cli.written,
                        app_now_us() - cli.start_us, cli.acked, true);
        cli_detach();
        if (pcb)
            tcp_abort(pcb);
    }
}

void iperf_tcp_poll(uint32_t now_ms)
{
    uint64_t now_us;

    if (cli.state == CLI_SENDING) {
        cli_step();                 /* deadline check between ACKs */
        if (cli.state == CLI_SENDING && cli.interval_s &&
            (int32_t)(now_ms - cli.next_report_ms) >= 0) {
            now_us = app_now_us();
            emit_progress("client", &cli.ip, cli.port, cli.ivl_acked, now_us - cli.ivl_start_us);
            cli.ivl_acked = 0;
            cli.ivl_start_us = now_us;
            cli.next_report_ms += cli.interval_s * 1000u;
        }
    }
    if (srv.listen && srv.interval_s && (int32_t)(now_ms - srv.next_report_ms) >= 0) {
        now_us = app_now_us();
        for (int i = 0; i < IPERF_TCP_MAX_SESS; i++) {
            struct tcp_sess *s = &srv.sess[i];
            if (!s->pcb)
                continue;
            emit_progress("server", &s->peer, s->peer_port, s->ivl_bytes, now_us - s->ivl_start_us);
            s->ivl_bytes = 0;
            s->ivl_start_us = now_us;
        }
        srv.next_report_ms += srv.interval_s * 1000u;
    }
}
