/* appargs.h - shell argument parsing for the apps, kept free of lwIP so
 * the host tests can drive every command's bad-argument path.
 *
 * Number syntax:
 *   rate  "50M" = 50 000 000 bit/s: SI suffixes k/K, m/M, g/G are powers
 *         of 1000, as iperf 2's -b; an optional fraction ("1.5M") is allowed.
 *   size  "64K" = 65 536 bytes: k/K, m/M are powers of 1024, as iperf's -l/-n.
 *   ipv4  dotted quad, every part 0..255, nothing trailing.
 * Each parser returns 0 or -EINVAL and leaves *out untouched on error.
 */
#ifndef GEMLAB_APPARGS_H
#define GEMLAB_APPARGS_H

#include <stdbool.h>
#include <stdint.h>

int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
int parse_rate(const char *s, uint64_t *out_bps);
int parse_size(const char *s, uint64_t *out_bytes);
/* a.b.c.d -> 0xaabbccdd (host order). */
int parse_ipv4(const char *s, uint32_t *out);

/* ---- per-command argument sets ---- */

enum iperf_action { IPERF_SERVER, IPERF_CLIENT, IPERF_STOP };

#define IPERF_DEFAULT_TIME_S      10
#define IPERF_DEFAULT_UDP_RATE    1000000ull   /* iperf 2's kDefault_UDPRate */
#define IPERF_DEFAULT_UDP_LEN     1470         /* iperf 2's UDP default -l */
#define IPERF_MIN_UDP_LEN         20           /* datagram header + flags word */
#define IPERF_MAX_UDP_LEN         8972         /* 9000-byte jumbo MTU - IP - UDP */
#define IPERF_MAX_TIME_S          86400
#define IPERF_MAX_PARALLEL        8            /* -P: concurrent streams, TCP or UDP (docs/PEER.md limits) */
#define IPERF_MIN_WINDOW          2048u        /* -w: the bounds of [traffic] window (emu/runner/scenario.c) */
#define IPERF_MAX_WINDOW          (16u << 20)

struct iperf_args {
    enum iperf_action action;
    bool udp;
    uint16_t port;
    uint32_t host;          /* client: server address, host order */
    uint32_t time_s;        /* client: test length (0 with -n) */
    uint64_t amount_bytes;  /* client -n: bytes instead of time (TCP only) */
    uint64_t rate_bps;      /* client UDP -b */
    uint32_t len;           /* UDP datagram payload / TCP write size */
    uint32_t interval_s;    /* -i: progress report period, 0 = none */
    uint32_t parallel;      /* client -P: streams, 1..IPERF_MAX_PARALLEL (1 without -P) */
    uint32_t window_bytes;  /* client -w: TCP send buffer per stream (SO_SNDBUF), 0 = the stack's */
    bool dual;              /* client -d: the server sends back at once, to our listener on -p */
    bool tradeoff;          /* client -r: the server sends back after our test, to our listener on -p */
    bool reverse;           /* client -R (2.1): the server sends to us (TCP or UDP), we count */
    const char *err;        /* on -EINVAL, what was wrong when known (names the flag), else NULL */
};

/*   iperf -s [-u] [-p PORT] [-i SEC]
 *   iperf -c HOST [-u] [-p PORT] [-t SEC | -n BYTES] [-b RATE] [-l LEN] [-i SEC] [-P N] [-w SIZE] [-d | -r | -R]
 *   iperf stop
 * -b needs -u; -P (1..8, TCP or UDP) applies -t / -n (and UDP's -b) to every stream,
 * as iperf 2's -P does.  -w (TCP client, IPERF_MIN_WINDOW..IPERF_MAX_WINDOW
 * bytes) caps each stream's queued and unacknowledged bytes, as iperf 2's
 * -w sizes SO_SNDBUF; lwIP's TCP_SND_BUF stays the upper bound.  -d (one
 * stream, TCP or UDP) asks the server to send back to our server on -p at
 * once (iperf 2's dual test; the TCP or UDP server engine listens); -r the
 * same after the client's test is over (iperf 2's tradeoff test).  -R (one
 * stream, iperf 2.1's reverse) asks the server to send on the client's
 * connection (UDP: to the client's socket, at -b with -l datagrams) for
 * -t / -n; the client counts what arrives.
 * Returns 0 or -EINVAL. */
int iperf_args_parse(int argc, char **argv, struct iperf_args *a);

#define ECHO_DEFAULT_PORT 7
#define ECHO_DEFAULT_IDLE_S 30      /* a TCP connection silent this long is aborted */
#define ECHO_MAX_IDLE_S 3600
struct echo_args { bool stop; uint16_t port; uint32_t idle_s; };
/*   echo [-p PORT] [-T IDLE_S] | echo stop
 * -T: seconds (1..ECHO_MAX_IDLE_S) after which a TCP connection that has
 * had nothing echoed is aborted (apps/echo/echo.c). */
int echo_args_parse(int argc, char **argv, struct echo_args *a);

#define LATENCY_DEFAULT_COUNT      1000
#define LATENCY_DEFAULT_LEN        64
#define LATENCY_DEFAULT_INTERVAL   10     /* ms */
#define LATENCY_DEFAULT_TIMEOUT    1000   /* ms */
#define LATENCY_MIN_LEN            16     /* probe header: magic, seq, t_us */
#define LATENCY_MAX_COUNT          100000
struct latency_args {
    uint32_t host;
    uint16_t port;
    uint32_t count;
    uint32_t len;
    uint32_t interval_ms;
    uint32_t timeout_ms;
};
/*   latency -c HOST [-p PORT] [-n COUNT] [-l LEN] [-i MS] [-w MS] */
int latency_args_parse(int argc, char **argv, struct latency_args *a);

#define SWEEP_DEFAULT_TIME_S  2
#define SWEEP_DEFAULT_RATE    1000000000ull
struct sweep_args {
    uint32_t host;
    uint16_t port;
    uint32_t time_s;        /* per size */
    uint64_t rate_bps;      /* offered load per size */
    bool jumbo;             /* add the 8972-byte step */
};
/*   sweep -c HOST [-p PORT] [-t SEC] [-b RATE] [-j] */
int sweep_args_parse(int argc, char **argv, struct sweep_args *a);

#endif /* GEMLAB_APPARGS_H */
