/* iperf_app.h - internal interface between the iperf command and its
 * TCP/UDP engines (iperf_tcp.c, iperf_udp.c) and the sweep app. */
#ifndef GEMLAB_IPERF_APP_H
#define GEMLAB_IPERF_APP_H

#include <stdbool.h>
#include <stdint.h>

#include "lwip/err.h"

/* TCP (iperf_tcp.c).  Starters return ERR_OK, ERR_ALREADY when that role
 * already runs, or the lwIP error that stopped them. */
err_t iperf_tcp_server_start(uint16_t port, uint32_t interval_s);
/* streams: -P, 1..IPERF_MAX_PARALLEL concurrent connections, each sending
 * for time_s or amount_bytes; one result line with the sum.  window_bytes:
 * -w, each stream's cap on queued + unacknowledged bytes (0: TCP_SND_BUF).
 * dual: -d, one stream; the TCP server listens on @port for the server's
 * connection back (ERR_USE when it already listens on another port).
 * tradeoff: -r, the same, the server connecting back after our test.
 * reverse: -R, one stream; the server sends on it and the result line
 * (role client, "reverse":true) counts the bytes that arrived. */
err_t iperf_tcp_client_start(uint32_t host, uint16_t port, uint32_t time_s,
                             uint64_t amount_bytes, uint32_t interval_s, uint32_t streams,
                             uint32_t window_bytes, bool dual, bool tradeoff, bool reverse);
void iperf_tcp_stop(void);
void iperf_tcp_poll(uint32_t now_ms);

/* UDP (iperf_udp.c) */
#define IPERF_UDP_MAX_STREAMS 8     /* -P; iperf_udp.c checks it against IPERF_MAX_PARALLEL */
struct udp_pcb;
struct iperf_udp_result {
    uint32_t len;               /* datagram payload size */
    uint64_t tx_datagrams;
    uint64_t tx_bytes;
    uint64_t tx_errors;         /* pbuf or send failures (not retried) */
    uint64_t duration_us;       /* local send time */
    bool server_report;         /* a FIN-ack arrived */
    /* from the server's report (valid with server_report) */
    uint64_t rx_bytes;
    uint64_t rx_datagrams;      /* highest sequence number the server saw */
    uint64_t lost;
    uint64_t out_of_order;
    uint64_t rx_duration_us;
    uint64_t jitter_us;         /* the report's 32-bit seconds + microseconds */
    /* -P N: the streams (the fields above are their sum; times and
     * jitter the longest and the worst) and what each one sent */
    unsigned streams;
    uint64_t stream_bytes[IPERF_UDP_MAX_STREAMS];
};
struct iperf_udp_client_cfg {
    uint32_t host;
    uint16_t port;
    uint32_t time_ms;           /* time mode (-t); 0 with amount_bytes */
    uint64_t amount_bytes;      /* -n: stop after this many payload bytes; 0: time mode */
    uint64_t rate_bps;
    uint32_t len;               /* datagram payload, IPERF2_UDP_HDR_LEN..IPERF_MAX_UDP_LEN, else ERR_VAL */
    uint32_t interval_s;
    const char *test;           /* "iperf" or "sweep": result line's "test" */
    bool quiet;                 /* no result line (the caller reports) */
    bool dual;                  /* -d: the server sends back at once to our UDP server on @port */
    bool tradeoff;              /* -r: ... after our test (its FIN) */
    bool reverse;               /* -R (2.1): ask the server to send to us; count what arrives */
    unsigned streams;           /* -P: 1..IPERF_MAX_PARALLEL sockets, each a test at rate_bps (0: 1) */
    struct udp_pcb *via;        /* the server's side of a -R test: send from this (the
                                 * server's) socket; result role server, "reverse" */
    void (*done)(const struct iperf_udp_result *r, void *arg);
    void *arg;
};
err_t iperf_udp_server_start(uint16_t port, uint32_t interval_s);
err_t iperf_udp_client_start(const struct iperf_udp_client_cfg *cfg);
bool iperf_udp_client_busy(void);
/* Stop the client only (no done callback); its result line is still printed. */
void iperf_udp_client_stop(void);
void iperf_udp_stop(void);
void iperf_udp_poll(uint32_t now_ms);

/* Emit the client's UDP result line (shared with sweep). */
void iperf_udp_emit_result(const char *test, const struct iperf_udp_client_cfg *cfg,
                           const struct iperf_udp_result *r);

#endif /* GEMLAB_IPERF_APP_H */
