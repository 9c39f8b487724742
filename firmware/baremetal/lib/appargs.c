/* appargs.c - strict parsers for the apps' shell arguments (appargs.h). */
#include "appargs.h"

#include <errno.h>
#include <string.h>

#define RATE_MAX_BPS  100000000000ull   /* 100 Gb/s: anything above is a typo */
#define SIZE_MAX_BYTES (1ull << 40)

/* Decimal digits of s into *v; stops at the first non-digit, whose
 * position is returned in *end.  -EINVAL without digits or above limit. */
static int digits(const char *s, uint64_t limit, uint64_t *v, const char **end)
{
    uint64_t x = 0;
    const char *p = s;
    if (*p < '0' || *p > '9')
        return -EINVAL;
    for (; *p >= '0' && *p <= '9'; p++) {
        x = x * 10 + (uint64_t)(*p - '0');
        if (x > limit)
            return -EINVAL;
    }
    *v = x;
    *end = p;
    return 0;
}

int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
    uint64_t v;
    const char *end;
    if (!s || digits(s, UINT32_MAX, &v, &end) || *end || v < min || v > max)
        return -EINVAL;
    *out = (uint32_t)v;
    return 0;
}

/* Number with optional fraction and one suffix from mult[]. */
static int scaled(const char *s, uint64_t k, uint64_t limit, uint64_t *out)
{
    uint64_t ip, fp = 0, fscale = 1, mult = 1, v;
    const char *p;

    if (!s || digits(s, limit, &ip, &p))
        return -EINVAL;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return -EINVAL;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (fscale < 1000000) {         /* keep 6 fractional digits */
                fp = fp * 10 + (uint64_t)(*p - '0');
                fscale *= 10;
            }
        }
    }
    switch (*p) {
    case '\0': break;
    case 'k': case 'K': mult = k; p++; break;
    case 'm': case 'M': mult = k * k; p++; break;
    case 'g': case 'G': mult = k * k * k; p++; break;
    default: return -EINVAL;
    }
    if (*p)
        return -EINVAL;
    if (ip > limit / mult)
        return -EINVAL;
    v = ip * mult + fp * mult / fscale;
    if (v > limit)
        return -EINVAL;
    *out = v;
    return 0;
}

int parse_rate(const char *s, uint64_t *out_bps)
{
    uint64_t v;
    if (scaled(s, 1000, RATE_MAX_BPS, &v) || v == 0)
        return -EINVAL;
    *out_bps = v;
    return 0;
}

int parse_size(const char *s, uint64_t *out_bytes)
{
    uint64_t v;
    if (scaled(s, 1024, SIZE_MAX_BYTES, &v) || v == 0)
        return -EINVAL;
    *out_bytes = v;
    return 0;
}

int parse_ipv4(const char *s, uint32_t *out)
{
    uint32_t a = 0;
    const char *p = s;
    if (!s)
        return -EINVAL;
    for (int i = 0; i < 4; i++) {
        uint64_t part;
        if (digits(p, 255, &part, &p))
            return -EINVAL;
        a = a << 8 | (uint32_t)part;
        if (i < 3 && *p++ != '.')
            return -EINVAL;
    }
    if (*p)
        return -EINVAL;
    *out = a;
    return 0;
}

/* ---- per-command parsers ---- */

/* Value of option argv[*i] (which needs one): advances *i. NULL if missing. */
static const char *optval(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static int port_arg(const char *v, uint16_t *port)
{
    uint32_t p;
    if (parse_u32(v, 1, 65535, &p))
        return -EINVAL;
    *port = (uint16_t)p;
    return 0;
}

int iperf_args_parse(int argc, char **argv, struct iperf_args *a)
{
    bool server = false, client = false, have_t = false, have_n = false, have_b = false,
         have_l = false, have_p = false, have_w = false;
    uint32_t v32;
    uint64_t v64;

    memset(a, 0, sizeof(*a));
    a->port = 5001;
    a->time_s = IPERF_DEFAULT_TIME_S;
    a->parallel = 1;
    if (argc == 2 && strcmp(argv[1], "stop") == 0) {
        a->action = IPERF_STOP;
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v;
        if (strcmp(o, "-s") == 0) {
            server = true;
        } else if (strcmp(o, "-u") == 0) {
            a->udp = true;
        } else if (strcmp(o, "-c") == 0) {
            if (!(v = optval(argc, argv, &i)) || parse_ipv4(v, &a->host)) {
                a->err = "-c: the server's IPv4 address, a.b.c.d";
                return -EINVAL;
            }
            client = true;
        } else if (strcmp(o, "-p") == 0) {
            if (port_arg(optval(argc, argv, &i), &a->port)) {
                a->err = "-p: a port, 1..65535";
                return -EINVAL;
            }
        } else if (strcmp(o, "-t") == 0) {
            if (parse_u32(optval(argc, argv, &i), 1, IPERF_MAX_TIME_S, &a->time_s)) {
                a->err = "-t: whole seconds, 1..86400";
                return -EINVAL;
            }
            have_t = true;
        } else if (strcmp(o, "-n") == 0) {
            if (parse_size(optval(argc, argv, &i), &a->amount_bytes)) {
                a->err = "-n: a byte count (K and M suffixes)";
                return -EINVAL;
            }
            have_n = true;
        } else if (strcmp(o, "-b") == 0) {
            if (parse_rate(optval(argc, argv, &i), &a->rate_bps)) {
                a->err = "-b: a rate in bit/s (K, M and G suffixes)";
                return -EINVAL;
            }
            have_b = true;
        } else if (strcmp(o, "-l") == 0) {
            if (parse_size(optval(argc, argv, &i), &v64) || v64 > UINT32_MAX) {
                a->err = "-l: a length in bytes (K and M suffixes)";
                return -EINVAL;
            }
            a->len = (uint32_t)v64;
            have_l = true;
        } else if (strcmp(o, "-i") == 0) {
            if (parse_u32(optval(argc, argv, &i), 1, 3600, &v32)) {
                a->err = "-i: the report interval in whole seconds, 1..3600";
                return -EINVAL;
            }
            a->interval_s = v32;
        } else if (strcmp(o, "-P") == 0) {
            if (parse_u32(optval(argc, argv, &i), 1, IPERF_MAX_PARALLEL, &a->parallel)) {
                a->err = "-P: streams must be 1..8";
                return -EINVAL;
            }
            have_p = true;
        } else if (strcmp(o, "-w") == 0) {
            if (parse_size(optval(argc, argv, &i), &v64) || v64 < IPERF_MIN_WINDOW || v64 > IPERF_MAX_WINDOW) {
                a->err = "-w: the window must be 2K..16M bytes";
                return -EINVAL;
            }
            a->window_bytes = (uint32_t)v64;
            have_w = true;
        } else if (strcmp(o, "-d") == 0) {
            a->dual = true;
        } else if (strcmp(o, "-r") == 0) {
            a->tradeoff = true;
        } else if (strcmp(o, "-R") == 0) {
            a->reverse = true;
        } else {
            return -EINVAL;
        }
    }
    if (server == client) {
        a->err = "give one of -s (server) and -c HOST (client)";
        return -EINVAL;
    }
    if (server && have_p) {
        a->err = "-P is a client option (the server takes up to 8 connections)";
        return -EINVAL;
    }
    if (server && have_w) {
        a->err = "-w is a client option here (the receive window is lwIP's TCP_WND)";
        return -EINVAL;
    }
    if (server && a->dual) {
        a->err = "-d is a client option (the server connects back when a client asks)";
        return -EINVAL;
    }
    if (server && a->tradeoff) {
        a->err = "-r is a client option (the server connects back when a client asks)";
        return -EINVAL;
    }
    if (a->tradeoff && (a->parallel > 1 || a->dual || a->reverse)) {
        a->err = "-r takes one stream here (no -P, -d or -R with -r)";
        return -EINVAL;
    }
    if (server && a->reverse) {
        a->err = "-R is a client option (the server sends when a client asks)";
        return -EINVAL;
    }
    if (a->reverse && (a->parallel > 1 || a->dual || have_w)) {
        a->err = "-R takes one stream here (no -P, -d or -w with -R)";
        return -EINVAL;
    }
    if (a->dual && a->parallel > 1) {
        a->err = "-d takes one stream here (no -P with -d)";
        return -EINVAL;
    }
    if (a->udp && have_w) {
        a->err = "-w is TCP only here (the UDP client paces by -b)";
        return -EINVAL;
    }
    if (server && (have_t || have_n || have_b || have_l)) {
        a->err = "-t, -n, -b and -l are client options (the client decides the test)";
        return -EINVAL;
    }
    if (have_t && have_n) {
        a->err = "-t and -n both end the test: give one";
        return -EINVAL;
    }
    if (have_b && !a->udp) {
        a->err = "-b paces UDP (-u); TCP is not rate-limited here";
        return -EINVAL;
    }
    if (a->udp) {
        if (!have_l)
            a->len = IPERF_DEFAULT_UDP_LEN;
        if (a->len < IPERF_MIN_UDP_LEN || a->len > IPERF_MAX_UDP_LEN) {
            /* the datagram carries iperf 2's 20-byte header and fits a
             * 9000-byte jumbo frame (IP 20 + UDP 8) */
            a->err = "-l: a UDP datagram is 20..8972 bytes";
            return -EINVAL;
        }
        if (!have_b)
            a->rate_bps = IPERF_DEFAULT_UDP_RATE;
    }
    if (have_n)
        a->time_s = 0;
    a->action = server ? IPERF_SERVER : IPERF_CLIENT;
    return 0;
}

int echo_args_parse(int argc, char **argv, struct echo_args *a)
{
    memset(a, 0, sizeof(*a));
    a->port = ECHO_DEFAULT_PORT;
    a->idle_s = ECHO_DEFAULT_IDLE_S;
    if (argc == 2 && strcmp(argv[1], "stop") == 0) {
        a->stop = true;
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-p") == 0) {
            if (port_arg(optval(argc, argv, &i), &a->port))
                return -EINVAL;
        } else if (strcmp(argv[i], "-T") == 0) {
            if (parse_u32(optval(argc, argv, &i), 1, ECHO_MAX_IDLE_S, &a->idle_s))
                return -EINVAL;
        } else {
            return -EINVAL;
        }
    }
    return 0;
}

int latency_args_parse(int argc, char **argv, struct latency_args *a)
{
    bool have_host = false;
    uint64_t v64;

    memset(a, 0, sizeof(*a));
    a->port = ECHO_DEFAULT_PORT;
    a->count = LATENCY_DEFAULT_COUNT;
    a->len = LATENCY_DEFAULT_LEN;
    a->interval_ms = LATENCY_DEFAULT_INTERVAL;
    a->timeout_ms = LATENCY_DEFAULT_TIMEOUT;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v;
        if (strcmp(o, "-c") == 0) {
            if (!(v = optval(argc, argv, &i)) || parse_ipv4(v, &a->host))
                return -EINVAL;
            have_host = true;
        } else if (strcmp(o, "-p") == 0) {
            if (port_arg(optval(argc, argv, &i), &a->port))
                return -EINVAL;
        } else if (strcmp(o, "-n") == 0) {
            if (parse_u32(optval(argc, argv, &i), 1, LATENCY_MAX_COUNT, &a->count))
                return -EINVAL;
        } else if (strcmp(o, "-l") == 0) {
            if (parse_size(optval(argc, argv, &i), &v64) || v64 < LATENCY_MIN_LEN ||
                v64 > IPERF_MAX_UDP_LEN)
                return -EINVAL;
            a->len = (uint32_t)v64;
        } else if (strcmp(o, "-i") == 0) {
            if (parse_u32(optval(argc, argv, &i), 0, 60000, &a->interval_ms))
                return -EINVAL;
        } else if (strcmp(o, "-w") == 0) {
            if (parse_u32(optval(argc, argv, &i), 1, 60000, &a->timeout_ms))
                return -EINVAL;
        } else {
            return -EINVAL;
        }
    }
    return have_host ? 0 : -EINVAL;
}

int sweep_args_parse(int argc, char **argv, struct sweep_args *a)
{
    bool have_host = false;

    memset(a, 0, sizeof(*a));
    a->port = 5001;
    a->time_s = SWEEP_DEFAULT_TIME_S;
    a->rate_bps = SWEEP_DEFAULT_RATE;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v;
        if (strcmp(o, "-c") == 0) {
            if (!(v = optval(argc, argv, &i)) || parse_ipv4(v, &a->host))
                return -EINVAL;
            have_host = true;
        } else if (strcmp(o, "-p") == 0) {
            if (port_arg(optval(argc, argv, &i), &a->port))
                return -EINVAL;
        } else if (strcmp(o, "-t") == 0) {
            if (parse_u32(optval(argc, argv, &i), 1, 600, &a->time_s))
                return -EINVAL;
        } else if (strcmp(o, "-b") == 0) {
            if (parse_rate(optval(argc, argv, &i), &a->rate_bps))
                return -EINVAL;
        } else if (strcmp(o, "-j") == 0) {
            a->jumbo = true;
        } else {
            return -EINVAL;
        }
    }
    return have_host ? 0 : -EINVAL;
}
