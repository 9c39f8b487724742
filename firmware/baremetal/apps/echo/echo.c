/* echo.c - TCP and UDP echo servers (RFC 862), default port 7.
 *
 * The host side measures round trips against them: a UDP/TCP echo on the
 * target, the timing on the host.
 * TCP: received data is queued back with tcp_write(COPY); when the send
 * buffer is full the pbuf is refused (the recv callback returns ERR_MEM
 * without freeing it) and lwIP re-delivers it later, so back-pressure
 * reaches the sender through the receive window.
 * UDP: the received pbuf is sent back as is to the source address/port.
 */
#include <errno.h>
#include <string.h>

#include "lwip/tcp.h"
#include "lwip/udp.h"

#include "shell.h"
#include "appargs.h"
#include "../apps.h"
#include "../common/appnet.h"

#define ECHO_POLL_COARSE 4      /* tcp_poll: every 2 s retry a failed close */

static struct {
    struct tcp_pcb *listen;
    struct udp_pcb *udp;
    uint16_t port;
    uint64_t tcp_bytes;
    uint64_t udp_datagrams;
    uint64_t udp_errors;
    uint32_t conns;
} echo;

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
    (void)arg;
    if (p == NULL || err != ERR_OK) {
        if (p)
            pbuf_free(p);
        tcp_arg(pcb, NULL);
        tcp_recv(pcb, NULL);
        tcp_poll(pcb, NULL, 0);
        if (tcp_close(pcb) != ERR_OK) {
            tcp_abort(pcb);
            return ERR_ABRT;
        }
        return ERR_OK;
    }
    if (tcp_sndbuf(pcb) < p->tot_len)
        return ERR_MEM;             /* lwIP keeps p and retries */
    for (struct pbuf *q = p; q; q = q->next) {
        err_t werr = tcp_write(pcb, q->payload, q->len, TCP_WRITE_FLAG_COPY);
        if (werr != ERR_OK) {
            /* part of p may be queued already: drop the connection rather
             * than echo a corrupted stream */
            pbuf_free(p);
            tcp_abort(pcb);
            return ERR_ABRT;
        }
    }
    tcp_output(pcb);
    echo.tcp_bytes += p->tot_len;
    tcp_recved(pcb, p->tot_len);
    pbuf_free(p);
    return ERR_OK;
}

static err_t echo_tcp_accept(void *arg, struct tcp_pcb *pcb, err_t err)
{
    (void)arg;
    if (err != ERR_OK || !pcb)
        return ERR_VAL;
    echo.conns++;
    tcp_recv(pcb, echo_tcp_recv);
    return ERR_OK;
}

static void echo_stop(void)
{
    if (echo.listen) {
        tcp_close(echo.listen);
        echo.listen = NULL;
    }
    if (echo.udp) {
        udp_remove(echo.udp);
        echo.udp = NULL;
    }
}

static err_t echo_start(uint16_t port)
{
    struct tcp_pcb *pcb;
    err_t err;

    if (echo.listen || echo.udp)
        return ERR_ALREADY;
    memset(&echo, 0, sizeof(echo));
    echo.port = port;
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
        glout_u64(&g, "tcp_bytes", echo.tcp_bytes);
        glout_u64(&g, "udp_datagrams", echo.udp_datagrams);
        glout_u64(&g, "udp_errors", echo.udp_errors);
        glout_emit(&g);
        echo_stop();
        app_status("echo", "stopped", NULL, 0);
        return 0;
    }
    err = echo_start(a.port);
    if (err != ERR_OK)
        app_error("echo", "start failed", err);
    else
        app_status("echo", "listening", "tcp+udp", a.port);
    return 0;
}

static const struct shell_cmd echo_cmd = {
    .name = "echo",
    .usage = "echo [-p PORT] | echo stop   (TCP+UDP echo server, default port 7)",
    .fn = cmd_echo,
};

void echo_register(void)
{
    shell_register(&echo_cmd);
}
