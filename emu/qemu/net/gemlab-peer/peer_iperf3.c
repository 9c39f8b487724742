/*
 * peer_iperf3.c - an iperf3 client for the traffic peer, on lwIP's raw
 * API: enough of iperf3's protocol for a TCP test into an iperf 3.x
 * server (the Linux image's iperf 3.12, `iperf3 -s -1 -J`), so that the
 * board's server measures and prints what it does against a PC.
 *
 * The protocol, as iperf3's src/iperf_client_api.c and iperf_api.c
 * (ESnet, 3.12) run it, and as docs/PEER.md "iperf3" lists it:
 *  - a control connection to port 5201; the client sends a cookie of
 *    COOKIE_SIZE (37) bytes: 36 characters of [a-z2-7] and a NUL;
 *  - the server answers with one-byte states (iperf_api.h):
 *    PARAM_EXCHANGE (9): the client sends its parameters as JSON, a
 *    32-bit big-endian length and the text (JSON_write);
 *    CREATE_STREAMS (10): the client opens -P data connections to the
 *    same port, each sending the cookie first;
 *    TEST_START (1), TEST_RUNNING (2): the client writes;
 *  - after -O + -t seconds the client sends TEST_END (4);
 *    EXCHANGE_RESULTS (13): the client sends its results (JSON: CPU
 *    figures, sender_has_retransmits and per stream id, bytes,
 *    retransmits, jitter, errors, packets; get_results() refuses a
 *    result without them) and reads the server's;
 *    DISPLAY_RESULTS (14): the client sends IPERF_DONE (16).
 *  - SERVER_ERROR (-2), ACCESS_DENIED (-1) and SERVER_TERMINATE (11)
 *    end the test with an error.
 * Stream ids are iperf_add_stream()'s: 1 for the first stream, then 3,
 * 4, ... (the server numbers its streams the same way).
 *
 * The peer's CPU costs nothing (it is outside the guest's virtual
 * time), so its CPU figures are 0, and lwIP keeps no retransmission
 * total, so sender_has_retransmits is 0: the server's report then has no
 * retransmission count, as against a sender that cannot tell.
 *
 * One result line ("type":"result","test":"iperf3") ends each test,
 * through glout like the iperf 2 engines' (peer_stack.c put_json).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lwip/ip_addr.h"
#include "lwip/tcp.h"

#include "glout.h"
#include "fw/apps/common/appnet.h"

#include "peer_iperf3.h"
#include "peer_stack.h"

#define IP3_PORT          5201
#define IP3_COOKIE_SIZE   37        /* iperf_api.h COOKIE_SIZE, with the NUL */
#define IP3_MAX_STREAMS   8         /* the runner's -P at most; lwIP's pools */
#define IP3_DEFAULT_LEN   131072    /* iperf3's TCP -l (DEFAULT_TCP_BLKSIZE) */
#define IP3_MAX_TIME_S    3600
#define IP3_CTL_IN_MAX    16384     /* the server's results JSON, with room */
#define IP3_SETUP_MS      10000     /* connect to TEST_START */
#define IP3_END_MS        30000     /* TEST_END to DISPLAY_RESULTS */
#define IP3_USAGE "iperf3 -c A.B.C.D [-p PORT] [-t SEC] [-O SEC] [-P N] [-l LEN]"

/* iperf_api.h: the control connection's states */
enum ip3_msg {
    IP3_TEST_START = 1,
    IP3_TEST_RUNNING = 2,
    IP3_TEST_END = 4,
    IP3_PARAM_EXCHANGE = 9,
    IP3_CREATE_STREAMS = 10,
    IP3_SERVER_TERMINATE = 11,
    IP3_EXCHANGE_RESULTS = 13,
    IP3_DISPLAY_RESULTS = 14,
    IP3_IPERF_DONE = 16,
    IP3_ACCESS_DENIED = -1,
    IP3_SERVER_ERROR = -2,
};

/* the client's side of the test */
enum ip3_state {
    IP3_IDLE,
    IP3_SETUP,      /* control connected, waiting for TEST_START */
    IP3_RUNNING,    /* writing until -O + -t */
    IP3_ENDING,     /* TEST_END sent, until DISPLAY_RESULTS */
    IP3_CLOSING,    /* the result is out; the poll closes the connections */
};

struct ip3_args {
    ip_addr_t host;
    uint16_t port;
    uint32_t time_s, omit_s, streams, len;
};

struct ip3_stream {
    struct tcp_pcb *pcb;
    int id;
    bool connected;             /* data_connected() ran: nothing is written before */
    bool cookie_sent;
    uint64_t written, written_at_omit;
};

static struct {
    enum ip3_state state;
    struct ip3_args a;
    char cookie[IP3_COOKIE_SIZE];
    struct tcp_pcb *ctl;
    struct ip3_stream st[IP3_MAX_STREAMS];
    uint64_t t_setup_us, t_start_us, t_end_us;
    uint64_t t_measure_us;  /* the omit's end: where the reported time starts */
    bool omitting;
    /* the control connection's input not yet consumed */
    uint8_t in[IP3_CTL_IN_MAX + 1];
    size_t n_in;
    bool failed;
    bool want_json;         /* the server's results come next */
    bool results_sent;      /* EXCHANGE_RESULTS came once */
    uint64_t server_bytes;
    bool have_server_bytes;
} c3;

/* ---- arguments ------------------------------------------------------ */

static int parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end;
    unsigned long v;

    if (!s || !*s || *s == '-') {
        return -1;
    }
    v = strtoul(s, &end, 10);
    if (*end == 'K' || *end == 'k') {
        v *= 1024;
        end++;
    }
    if (*end || v < lo || v > hi) {
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static int args_parse(int argc, char **argv, struct ip3_args *a, char *err, size_t errlen)
{
    bool have_host = false;

    memset(a, 0, sizeof(*a));
    a->port = IP3_PORT;
    a->time_s = 10;
    a->streams = 1;
    a->len = IP3_DEFAULT_LEN;
    for (int i = 1; i < argc; i += 2) {     /* every option takes a value */
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint32_t u;

        if (!strcmp(o, "-c") && v && ipaddr_aton(v, &a->host) && IP_IS_V4(&a->host)) {
            have_host = true;
        } else if (!strcmp(o, "-p") && !parse_u32(v, 1, 65535, &u)) {
            a->port = (uint16_t)u;
        } else if (!strcmp(o, "-t") && !parse_u32(v, 1, IP3_MAX_TIME_S, &u)) {
            a->time_s = u;
        } else if (!strcmp(o, "-O") && !parse_u32(v, 0, IP3_MAX_TIME_S, &u)) {
            a->omit_s = u;
        } else if (!strcmp(o, "-P") && !parse_u32(v, 1, IP3_MAX_STREAMS, &u)) {
            a->streams = u;
        } else if (!strcmp(o, "-l") && !parse_u32(v, 1, 1048576, &u)) {
            a->len = u;
        } else {
            snprintf(err, errlen, "'%s%s%s': not an option this client takes, or a bad value "
                     "(-t 1..%d s, -O 0..%d s, -P 1..%d, -l 1..1M)", o, v ? " " : "", v ? v : "",
                     IP3_MAX_TIME_S, IP3_MAX_TIME_S, IP3_MAX_STREAMS);
            return -1;
        }
    }
    if (!have_host) {
        snprintf(err, errlen, "-c A.B.C.D is required (this client connects; it is no server)");
        return -1;
    }
    return 0;
}

int iperf3_check(int argc, char **argv, char *err, size_t errlen)
{
    struct ip3_args a;

    return args_parse(argc, argv, &a, err, errlen);
}

/* ---- the end of a test ---------------------------------------------- */

static void pcb_drop(struct tcp_pcb **pp, bool graceful)
{
    struct tcp_pcb *pcb = *pp;

    if (!pcb) {
        return;
    }
    *pp = NULL;
    tcp_arg(pcb, NULL);
    tcp_recv(pcb, NULL);
    tcp_sent(pcb, NULL);
    tcp_err(pcb, NULL);
    tcp_poll(pcb, NULL, 0);
    if (!graceful || tcp_close(pcb) != ERR_OK) {
        tcp_abort(pcb);
    }
}

static void drop_all(bool graceful)
{
    for (unsigned i = 0; i < IP3_MAX_STREAMS; i++) {
        pcb_drop(&c3.st[i].pcb, graceful);
    }
    pcb_drop(&c3.ctl, graceful);
    c3.state = IP3_IDLE;
}

/* The result line: what this client wrote (after -O), over the test's
 * -t, and the server's count from its results.  The connections are
 * closed by the next poll, outside lwIP's callbacks (a callback may only
 * free its own pcb, and then must say so with ERR_ABRT). */
static void finish(const char *error)
{
    char buf[GLOUT_LINE_MAX], host[IPADDR_STRLEN_MAX + 8];
    struct glout g;
    uint64_t total = 0, measured = 0;
    uint64_t span_us = c3.t_end_us > c3.t_start_us ? c3.t_end_us - c3.t_start_us : 0;

    for (unsigned i = 0; i < c3.a.streams; i++) {
        total += c3.st[i].written;
        measured += c3.st[i].written - c3.st[i].written_at_omit;
    }
    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "test", "iperf3");
    glout_str(&g, "proto", "tcp");
    glout_str(&g, "role", "client");
    snprintf(host, sizeof(host), "%s:%u", ipaddr_ntoa(&c3.a.host), (unsigned)c3.a.port);
    glout_str(&g, "peer", host);
    glout_u64(&g, "streams", c3.a.streams);
    glout_u64(&g, "time_s", c3.a.time_s);
    glout_u64(&g, "omit_s", c3.a.omit_s);
    glout_u64(&g, "len", c3.a.len);
    glout_u64(&g, "bytes", total);
    glout_u64(&g, "bytes_measured", measured);
    glout_u64(&g, "duration_us", span_us);
    if (!error && c3.a.time_s) {
        glout_u64(&g, "bps", measured * 8 / c3.a.time_s);
    }
    if (c3.have_server_bytes) {
        glout_u64(&g, "server_bytes", c3.server_bytes);
    }
    glout_bool(&g, "aborted", error != NULL);
    if (error) {
        glout_str(&g, "error", error);
    }
    glout_emit(&g);
    c3.failed = error != NULL;
    c3.state = IP3_CLOSING;
}

void iperf3_stop(void)
{
    drop_all(false);
}

/* ---- the control connection ----------------------------------------- */

static int ctl_write(const void *data, size_t len)
{
    if (!c3.ctl || len > tcp_sndbuf(c3.ctl) ||
        app_tcp_write(c3.ctl, data, (u16_t)len, TCP_WRITE_FLAG_COPY) != ERR_OK) {
        return -1;
    }
    tcp_output(c3.ctl);
    return 0;
}

static int ctl_state(enum ip3_msg m)
{
    int8_t b = (int8_t)m;

    return ctl_write(&b, 1);
}

/* JSON_write: a 32-bit big-endian length, then the text */
static int ctl_json(const char *text)
{
    size_t n = strlen(text);
    uint8_t len[4] = { (uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n };

    return ctl_write(len, 4) || ctl_write(text, n) ? -1 : 0;
}

static int send_params(void)
{
    char j[256];

    /* send_parameters(): the keys a TCP test sets; "omit" and "time" are
     * whole seconds, as iperf3's -O and -t */
    snprintf(j, sizeof(j), "{\"tcp\":true,\"omit\":%u,\"time\":%u,\"parallel\":%u,\"len\":%u,"
             "\"pacing_timer\":1000,\"client_version\":\"3.12\"}",
             (unsigned)c3.a.omit_s, (unsigned)c3.a.time_s, (unsigned)c3.a.streams, (unsigned)c3.a.len);
    return ctl_json(j);
}

static int send_results(void)
{
    char j[256 + IP3_MAX_STREAMS * 160];
    size_t n;
    /* iperf3's send_results: end_time from the omit's end (iperf_reset_stats
     * restarts the stream's clock), as the bytes are: a board server divides
     * one by the other */
    double t = (double)(c3.t_end_us - c3.t_measure_us) / 1e6;

    n = (size_t)snprintf(j, sizeof(j), "{\"cpu_util_total\":0,\"cpu_util_user\":0,\"cpu_util_system\":0,"
                         "\"sender_has_retransmits\":0,\"streams\":[");
    for (unsigned i = 0; i < c3.a.streams && n < sizeof(j); i++) {
        const struct ip3_stream *s = &c3.st[i];
        n += (size_t)snprintf(j + n, sizeof(j) - n, "%s{\"id\":%d,\"bytes\":%llu,\"retransmits\":-1,"
                              "\"jitter\":0,\"errors\":0,\"packets\":0,\"start_time\":0,\"end_time\":%.6f}",
                              i ? "," : "", s->id, (unsigned long long)(s->written - s->written_at_omit), t);
    }
    if (n + 3 > sizeof(j)) {
        return -1;
    }
    memcpy(j + n, "]}", 3);
    return ctl_json(j);
}

/* The streams' "bytes" in the server's results (send_results(): one
 * object per stream).  A plain scan: the values are what we report. */
static void server_results(const char *text)
{
    const char *p = strstr(text, "\"streams\"");

    c3.server_bytes = 0;
    c3.have_server_bytes = false;
    while (p && (p = strstr(p, "\"bytes\":")) != NULL) {
        p += 8;
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        c3.server_bytes += strtoull(p, NULL, 10);
        c3.have_server_bytes = true;
    }
}

static void stream_fill(struct ip3_stream *s);
static err_t data_connected(void *arg, struct tcp_pcb *pcb, err_t err);
static err_t data_sent(void *arg, struct tcp_pcb *pcb, u16_t len);
static err_t data_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err);
static void data_err(void *arg, err_t err);

static int open_streams(void)
{
    for (unsigned i = 0; i < c3.a.streams; i++) {
        struct ip3_stream *s = &c3.st[i];
        s->id = i == 0 ? 1 : (int)i + 2;     /* iperf_add_stream() */
        s->pcb = tcp_new_ip_type(IPADDR_TYPE_V4);
        if (!s->pcb) {
            return -1;
        }
        tcp_arg(s->pcb, s);
        tcp_recv(s->pcb, data_recv);
        tcp_sent(s->pcb, data_sent);
        tcp_err(s->pcb, data_err);
        if (tcp_connect(s->pcb, &c3.a.host, c3.a.port, data_connected) != ERR_OK) {
            return -1;
        }
    }
    return 0;
}

/* One state byte from the server; returns the error text or NULL. */
static const char *on_state(int8_t m)
{
    switch (m) {
    case IP3_PARAM_EXCHANGE:
        return send_params() ? "cannot send the parameters" : NULL;
    case IP3_CREATE_STREAMS:
        if (c3.st[0].id) {     /* a server that asks twice: not iperf3 */
            return "the server sent CREATE_STREAMS twice";
        }
        return open_streams() ? "cannot open the data connections" : NULL;
    case IP3_TEST_START:
        if (c3.state != IP3_SETUP || !c3.st[0].id) {
            return "the server sent TEST_START out of order";
        }
        c3.state = IP3_RUNNING;
        c3.t_start_us = c3.t_measure_us = gp_now_us();
        c3.omitting = c3.a.omit_s > 0;
        for (unsigned i = 0; i < c3.a.streams; i++) {
            stream_fill(&c3.st[i]);
        }
        return NULL;
    case IP3_TEST_RUNNING:
        return NULL;
    case IP3_EXCHANGE_RESULTS:
        if (c3.state != IP3_ENDING || c3.results_sent) {
            return "the server ended the test early (EXCHANGE_RESULTS before TEST_END)";
        }
        c3.want_json = c3.results_sent = true;
        return send_results() ? "cannot send the results" : NULL;
    case IP3_DISPLAY_RESULTS:
        if (c3.state != IP3_ENDING || !c3.results_sent || c3.want_json) {
            return "the server sent DISPLAY_RESULTS before its results";
        }
        if (ctl_state(IP3_IPERF_DONE)) {
            return "cannot send IPERF_DONE";
        }
        finish(NULL);
        return NULL;
    case IP3_ACCESS_DENIED:
        return "the server is busy with another test (ACCESS_DENIED)";
    case IP3_SERVER_ERROR:
        return "the server failed the test (SERVER_ERROR)";
    case IP3_SERVER_TERMINATE:
        return "the server terminated the test (SERVER_TERMINATE)";
    default:
        return "the server sent a state this client does not know";
    }
}

/* Consume the control input: state bytes, or the server's results. */
static const char *ctl_consume(void)
{
    size_t off = 0;
    const char *e = NULL;

    while (!e && c3.state != IP3_IDLE && c3.state != IP3_CLOSING && off < c3.n_in) {
        if (c3.want_json) {
            uint32_t len;
            if (c3.n_in - off < 4) {
                break;
            }
            len = (uint32_t)c3.in[off] << 24 | (uint32_t)c3.in[off + 1] << 16 |
                  (uint32_t)c3.in[off + 2] << 8 | c3.in[off + 3];
            if (len >= IP3_CTL_IN_MAX - 4) {
                e = "the server's results are too long";
                break;
            }
            if (c3.n_in - off < 4 + (size_t)len) {
                break;
            }
            {
                /* in place: the byte after the text is saved (the
                 * buffer has one spare byte at its end) */
                uint8_t *t = c3.in + off + 4, saved = t[len];
                t[len] = 0;
                server_results((const char *)t);
                t[len] = saved;
            }
            off += 4 + (size_t)len;
            c3.want_json = false;
        } else {
            e = on_state((int8_t)c3.in[off++]);
        }
    }
    if (c3.state == IP3_IDLE || c3.state == IP3_CLOSING) {
        c3.n_in = 0;
    } else if (off) {
        memmove(c3.in, c3.in + off, c3.n_in - off);
        c3.n_in -= off;
    }
    return e;
}

static err_t ctl_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
    const char *e;

    (void)arg;
    if (!p || err != ERR_OK) {
        if (p) {
            pbuf_free(p);
        }
        if (c3.state != IP3_IDLE && c3.state != IP3_CLOSING) {
            finish("the server closed the control connection");
        }
        return ERR_OK;
    }
    tcp_recved(pcb, p->tot_len);
    if (c3.state == IP3_IDLE || c3.state == IP3_CLOSING) {
        pbuf_free(p);
        return ERR_OK;
    }
    if (c3.n_in + p->tot_len > IP3_CTL_IN_MAX) {
        pbuf_free(p);
        finish("the server sent more than this client buffers");
        return ERR_OK;
    }
    pbuf_copy_partial(p, c3.in + c3.n_in, p->tot_len, 0);
    c3.n_in += p->tot_len;
    pbuf_free(p);
    e = ctl_consume();
    if (e) {
        finish(e);
    }
    return ERR_OK;
}

static void ctl_err(void *arg, err_t err)
{
    (void)arg;
    (void)err;
    c3.ctl = NULL;          /* lwIP has freed it */
    if (c3.state != IP3_IDLE && c3.state != IP3_CLOSING) {
        finish("the control connection failed (refused or reset)");
    }
}

static err_t ctl_connected(void *arg, struct tcp_pcb *pcb, err_t err)
{
    (void)arg;
    (void)pcb;
    if (err != ERR_OK || ctl_write(c3.cookie, IP3_COOKIE_SIZE)) {
        finish("cannot send the cookie");
    }
    return ERR_OK;
}

/* ---- the data connections ------------------------------------------- */

/* Write what this stream's share of lwIP's send queue takes: with -P N
 * each stream gets TCP_SND_BUF / N (the pools are sized for one full
 * send buffer, lwipopts.h; the bare-metal client shares it the same way,
 * apps/iperf/iperf_tcp.c). */
static void stream_fill(struct ip3_stream *s)
{
    struct tcp_pcb *pcb = s->pcb;
    bool wrote = false;

    /*
     * Not before the SYN-ACK: lwIP accepts writes in SYN_SENT and cuts
     * them at the initial MSS (536), and a SYN-ACK with a window under
     * twice that then fails tcp_write()'s "mss_local is too small"
     * assertion (lwIP 2.1.3 src/core/tcp_out.c), which aborts QEMU.  A
     * server (the guest) can send TEST_START before the data connections
     * are up (docs/SECURITY.md P4).
     */
    if (!pcb || !s->connected) {
        return;
    }
    if (!s->cookie_sent) {
        if (tcp_sndbuf(pcb) < IP3_COOKIE_SIZE ||
            app_tcp_write(pcb, c3.cookie, IP3_COOKIE_SIZE, TCP_WRITE_FLAG_COPY) != ERR_OK) {
            return;
        }
        s->cookie_sent = true;
        wrote = true;
    }
    while (c3.state == IP3_RUNNING) {
        u16_t room = tcp_sndbuf(pcb), held = (u16_t)(TCP_SND_BUF - room);
        u16_t share = (u16_t)(TCP_SND_BUF / c3.a.streams), n;
        room = held >= share ? 0 : (u16_t)(share - held);
        n = room < APP_PATTERN_LEN ? room : APP_PATTERN_LEN;
        if (n < TCP_MSS || app_tcp_write(pcb, app_pattern, n, TCP_WRITE_FLAG_MORE) != ERR_OK) {
            break;
        }
        s->written += n;
        wrote = true;
    }
    if (wrote) {
        tcp_output(pcb);
    }
}

static err_t data_sent(void *arg, struct tcp_pcb *pcb, u16_t len)
{
    (void)pcb;
    (void)len;
    stream_fill(arg);
    return ERR_OK;
}

static err_t data_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
    struct ip3_stream *s = arg;

    (void)err;
    (void)s;
    if (!p) {
        /* the server closes the data connections at TEST_END; ours
         * close with the test (the poll, IP3_CLOSING) */
        return ERR_OK;
    }
    tcp_recved(pcb, p->tot_len);
    pbuf_free(p);
    return ERR_OK;
}

static void data_err(void *arg, err_t err)
{
    struct ip3_stream *s = arg;

    (void)err;
    s->pcb = NULL;          /* freed by lwIP: a reset after TEST_END is normal */
    if (c3.state == IP3_SETUP || c3.state == IP3_RUNNING) {
        finish("a data connection failed (refused or reset)");
    }
}

static err_t data_connected(void *arg, struct tcp_pcb *pcb, err_t err)
{
    struct ip3_stream *s = arg;

    if (err != ERR_OK) {
        return ERR_OK;
    }
    s->connected = true;
    tcp_nagle_disable(pcb);     /* the cookie goes at once */
    stream_fill(s);
    return ERR_OK;
}

/* ---- the command and its clock -------------------------------------- */

static int cmd_iperf3(int argc, char **argv)
{
    char err[160];
    static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";

    if (c3.state != IP3_IDLE) {
        glout_textf("iperf3: a test is running or closing");
        return -1;
    }
    if (args_parse(argc, argv, &c3.a, err, sizeof(err))) {
        glout_textf("iperf3: %s", err);
        return -1;
    }
    memset(c3.st, 0, sizeof(c3.st));
    c3.n_in = 0;
    c3.want_json = c3.results_sent = c3.have_server_bytes = false;
    c3.t_start_us = c3.t_end_us = c3.t_measure_us = 0;
    for (unsigned i = 0; i < IP3_COOKIE_SIZE - 1; i++) {   /* make_cookie() */
        c3.cookie[i] = b32[gemlab_peer_rand() % 32];
    }
    c3.cookie[IP3_COOKIE_SIZE - 1] = 0;
    app_pattern_init();
    c3.ctl = tcp_new_ip_type(IPADDR_TYPE_V4);
    if (!c3.ctl) {
        glout_textf("iperf3: out of TCP PCBs");
        return -1;
    }
    c3.state = IP3_SETUP;
    c3.t_setup_us = gp_now_us();
    tcp_nagle_disable(c3.ctl);  /* one-byte states go at once, as iperf3's */
    tcp_recv(c3.ctl, ctl_recv);
    tcp_err(c3.ctl, ctl_err);
    if (tcp_connect(c3.ctl, &c3.a.host, c3.a.port, ctl_connected) != ERR_OK) {
        drop_all(false);
        glout_textf("iperf3: cannot connect");
        return -1;
    }
    return 0;
}

void iperf3_poll(uint32_t now_ms)
{
    uint64_t now = gp_now_us();

    (void)now_ms;
    switch (c3.state) {
    case IP3_SETUP:
        if (now - c3.t_setup_us > IP3_SETUP_MS * 1000ull) {
            finish("no TEST_START from the server in 10 s");
        }
        break;
    case IP3_RUNNING:
        if (c3.omitting && now - c3.t_start_us >= c3.a.omit_s * 1000000ull) {
            /* iperf_reset_stats() at the omit's end: counted from here */
            c3.omitting = false;
            c3.t_measure_us = now;
            for (unsigned i = 0; i < c3.a.streams; i++) {
                c3.st[i].written_at_omit = c3.st[i].written;
            }
        }
        if (now - c3.t_start_us >= (c3.a.omit_s + (uint64_t)c3.a.time_s) * 1000000ull) {
            c3.state = IP3_ENDING;
            c3.t_end_us = now;
            if (ctl_state(IP3_TEST_END)) {
                finish("cannot send TEST_END");
            }
            break;
        }
        for (unsigned i = 0; i < c3.a.streams; i++) {
            stream_fill(&c3.st[i]);
        }
        break;
    case IP3_ENDING:
        if (now - c3.t_end_us > IP3_END_MS * 1000ull) {
            finish("no DISPLAY_RESULTS from the server in 30 s");
        }
        break;
    case IP3_CLOSING:
        drop_all(!c3.failed);
        break;
    case IP3_IDLE:
        break;
    }
}

const struct shell_cmd iperf3_cmd = {
    .name = "iperf3",
    .usage = IP3_USAGE,
    .fn = cmd_iperf3,
};
