/* echo.c - TCP and UDP echo servers (RFC 862), default port 7.
 *
 * The host side measures round trips against them: a UDP/TCP echo on the
 * target, the timing on the host.
 * TCP: received data is queued back with tcp_write(COPY); when the send
 * buffer is full the pbuf is refused (the recv callback returns ERR_MEM
 * without freeing it) and lwIP re-delivers it later, so back-pressure
 * reaches the sender through the receive window.
 * UDP: the received pbuf is sent back as is to the source address/port.
 *
 * The other end is untrusted (in gemlab's peer, docs/PEER.md, it is the
 * guest), so TCP holds at most ECHO_TCP_MAX_CONNS connections, each in a
 * slot until lwIP frees its pcb, closing ones too; one more is aborted at
 * accept (counted in tcp_refused).  A
 * connection that has had nothing echoed for -T seconds (a client that
 * vanished, or one that never reads its echo so the send buffer stays
 * full) is aborted, freeing its slot and pcb: lwIP's keepalive would take
 * 2 h (TCP_KEEPIDLE_DEFAULT, lwip/opt.h), and in the peer lwIP takes its
 * pcbs from the heap (MEMP_MEM_MALLOC), which nothing else bounds.
 */
#include <errno.h>
#include <string.h>

#include "lwip/tcp.h"
#include "lwip/udp.h"

#include "shell.h"
#include "appargs.h"
#include "../apps.h"
#include "../common/appnet.h"

#define ECHO_POLL_COARSE 2      /* tcp_poll: every 2 x 500 ms, the idle check */
#define ECHO_TCP_MAX_CONNS 8

struct echo_conn {
    struct tcp_pcb *pcb;            /* NULL when the slot is free */
    uint32_t last_ms;               /* accept, or the last data echoed */
};

static struct {
    struct tcp_pcb *listen;
    struct udp_pcb *udp;
    uint16_t port;
    uint32_t idle_ms;
    uint64_t tcp_bytes;
    uint64_t udp_datagrams;
    uint64_t udp_errors;
    uint32_t conns;
    uint32_t tcp_refused;           /* accepts over ECHO_TCP_MAX_CONNS */
    uint32_t tcp_idle_aborts;
    struct echo_conn conn[ECHO_TCP_MAX_CONNS];
} echo;

/* Forget @pcb's callbacks and free its slot (before a close or abort). */
static void conn_detach(struct echo_conn *c, struct tcp_pcb *pcb)
{
    tcp_arg(pcb, NULL);
    tcp_recv(pcb, NULL);
    tcp_err(pcb, NULL);
    tcp_poll(pcb, NULL, 0);
    if (c)
        c->pcb = NULL;
}

static void echo_udp_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p,
                          const ip_addr_t *addr, u16_t port)
{
    ip_addr_t src;
    (void)arg;
    ip_addr_copy(src, *addr);       /* addr points into p's headers */
    if (udp_sendto(pcb, p, &src, port) == ERR_OK)
        echo.udp_datagrams++;
    else
        echo.udp_errors++;
    pbuf_free(p);
}

static err_t echo_tcp_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
    struct echo_conn *c = arg;

    if (p == NULL && err == ERR_OK && c) {
        /* The client closed its side.  Send our FIN after what is queued
         * but keep the slot until lwIP frees the pcb: closing only the
         * TX side keeps the err callback, which lwIP calls when our FIN
         * is acknowledged (ERR_CLSD, tcp_in.c tcp_input_delayed_close)
         * or LAST_ACK times out (tcp.c tcp_slowtmr), and the idle abort
         * still applies.  tcp_close() freed the slot at once and left
         * the pcb in LAST_ACK for up to 2 MSL: a client that never
         * acknowledged our FIN held any number of them (16 000 in a
         * hostile-guest review, 2026-12-07). */
        tcp_recv(pcb, NULL);
        if (tcp_shutdown(pcb, 0, 1) != ERR_OK) {
            conn_detach(c, pcb);
            tcp_abort(pcb);
            return ERR_ABRT;
        }
        return ERR_OK;
    }
    if (p == NULL || err != ERR_OK) {
        if (p)
            pbuf_free(p);
        conn_detach(c, pcb);
        if (tcp_close(pcb) != ERR_OK) {
            tcp_abort(pcb);
            return ERR_ABRT;
        }
        return ERR_OK;
    }
    if (tcp_sndbuf(pcb) < p->tot_len)
        return ERR_MEM;             /* lwIP keeps p and retries */
    for (struct pbuf *q = p; q; q = q->next) {
        err_t werr = app_tcp_write(pcb, q->payload, q->len, TCP_WRITE_FLAG_COPY);
        if (werr != ERR_OK) {
            /* part of p may be queued already: drop the connection rather
             * than echo a corrupted stream */
            pbuf_free(p);
            conn_detach(c, pcb);
            tcp_abort(pcb);
            return ERR_ABRT;
        }
    }
    tcp_output(pcb);
    echo.tcp_bytes += p->tot_len;
    if (c)
        c->last_ms = app_now_ms();
    tcp_recved(pcb, p->tot_len);
    pbuf_free(p);
    return ERR_OK;
}

/* lwIP has freed the pcb (RST, retransmissions given up, or, after the
 * client closed, our FIN acknowledged): free the slot. */
static void echo_tcp_err(void *arg, err_t err)
{
    struct echo_conn *c = arg;
    (void)err;
    if (c)
        c->pcb = NULL;
}

/* Every ECHO_POLL_COARSE: abort a connection with nothing echoed for -T s. */
static err_t echo_tcp_poll(void *arg, struct tcp_pcb *pcb)
{
    struct echo_conn *c = arg;

    if (!c || (uint32_t)(app_now_ms() - c->last_ms) < echo.idle_ms)
        return ERR_OK;
    echo.tcp_idle_aborts++;
    conn_detach(c, pcb);
    tcp_abort(pcb);
    return ERR_ABRT;
}

static err_t echo_tcp_accept(void *arg, struct tcp_pcb *pcb, err_t err)
{
    struct echo_conn *c = NULL;
    (void)arg;

    if (err != ERR_OK || !pcb)
        return ERR_VAL;
    for (int i = 0; i < ECHO_TCP_MAX_CONNS && !c; i++)
        if (!echo.conn[i].pcb)
            c = &echo.conn[i];
    if (!c) {
        echo.tcp_refused++;
        tcp_abort(pcb);
        return ERR_ABRT;
    }
    echo.conns++;
    c->pcb = pcb;
    c->last_ms = app_now_ms();
    tcp_arg(pcb, c);
    tcp_recv(pcb, echo_tcp_recv);
    tcp_err(pcb, echo_tcp_err);
    tcp_poll(pcb, echo_tcp_poll, ECHO_POLL_COARSE);
    return ERR_OK;
}

static void echo_stop(void)
{
    for (int i = 0; i < ECHO_TCP_MAX_CONNS; i++) {
        struct tcp_pcb *pcb = echo.conn[i].pcb;
        if (pcb) {
            conn_detach(&echo.conn[i], pcb);
            tcp_abort(pcb);
        }
    }
    if (echo.listen) {
        tcp_close(echo.listen);
        echo.listen = NULL;
    }
    if (echo.udp) {
        udp_remove(echo.udp);
        echo.udp = NULL;
    }
}

static err_t echo_start(uint16_t port, uint32_t idle_s)
{
    struct tcp_pcb *pcb;
    err_t err;

    if (echo.listen || echo.udp)
        return ERR_ALREADY;
    memset(&echo, 0, sizeof(echo));
    echo.port = port;
    echo.idle_ms = idle_s * 1000u;
    pcb = tcp_new_ip_type(IPADDR_TYPE_V4);
    if (!pcb)
        return ERR_MEM;
    err = tcp_bind(pcb, IP4_ADDR_ANY, port);
    if (err == ERR_OK) {
        echo.listen = tcp_listen_with_backlog_and_err(pcb, 4, &err);
        if (!echo.listen)
            tcp_close(pcb);
    } else {
        tcp_close(pcb);
    }
    if (err != ERR_OK)
        return err;
    tcp_accept(echo.listen, echo_tcp_accept);

    echo.udp = udp_new_ip_type(IPADDR_TYPE_V4);
    if (!echo.udp) {
        echo_stop();
        return ERR_MEM;
    }
    err = udp_bind(echo.udp, IP4_ADDR_ANY, port);
    if (err != ERR_OK) {
        echo_stop();
        return err;
    }
    udp_recv(echo.udp, echo_udp_recv, NULL);
    return ERR_OK;
}

static int cmd_echo(int argc, char **argv)
{
    struct echo_args a;
    err_t err;

    if (echo_args_parse(argc, argv, &a) != 0)
        return -EINVAL;
    if (a.stop) {
        char buf[GLOUT_LINE_MAX];
        struct glout g;
        glout_begin(&g, buf, sizeof(buf), "result");
        glout_str(&g, "test", "echo");
        glout_u64(&g, "port", echo.port);
        glout_u64(&g, "tcp_connections", echo.conns);
        glout_u64(&g, "tcp_refused", echo.tcp_refused);
        glout_u64(&g, "tcp_idle_aborts", echo.tcp_idle_aborts);
        glout_u64(&g, "tcp_bytes", echo.tcp_bytes);
        glout_u64(&g, "udp_datagrams", echo.udp_datagrams);
        glout_u64(&g, "udp_errors", echo.udp_errors);
        glout_emit(&g);
        echo_stop();
        app_status("echo", "stopped", NULL, 0);
        return 0;
    }
    err = echo_start(a.port, a.idle_s);
    if (err != ERR_OK)
        app_error("echo", "start failed", err);
    else
        app_status("echo", "listening", "tcp+udp", a.port);
    return 0;
}

static const struct shell_cmd echo_cmd = {
    .name = "echo",
    .usage = "echo [-p PORT] [-T IDLE_S] | echo stop   (TCP+UDP echo server, default port 7, -T 30)",
    .fn = cmd_echo,
};

void echo_register(void)
{
    shell_register(&echo_cmd);
}
