/*
 * peer_stack.c - the traffic peer's TCP/IP stack: lwIP 2.1.3 (NO_SYS=1,
 * raw API, lwIP doc/NO_SYS_SampleCode.c) on one Ethernet netif, and the
 * bare-metal firmware's own iperf 2 engines (firmware/baremetal/apps/
 * iperf/ in the gemlab repository, copied next to this file by
 * emu/qemu/build.sh) compiled for the host.
 *
 * This file is the shim those engines expect from the firmware: the
 * shell's registration calls (shell.h), the microsecond clock
 * (timer_now_us(), here QEMU_CLOCK_VIRTUAL through gp_now_us()), the
 * "status" line (apps.h) and glout_putline(), which sends every JSON
 * line to the results file instead of a UART.
 *
 * No QEMU header is included here, and no lwIP header in gemlab_peer.c:
 * peer_stack.h is the whole interface.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lwip/init.h"
#include "lwip/netif.h"
#include "lwip/pbuf.h"
#include "lwip/sys.h"
#include "lwip/timeouts.h"
#include "lwip/etharp.h"
#include "lwip/inet_chksum.h"
#include "lwip/prot/icmp.h"
#include "lwip/raw.h"
#include "lwip/tcp.h"
#include "lwip/priv/tcp_priv.h"
#include "netif/ethernet.h"

#include "glout.h"
#include "shell.h"
#include "fw/apps/apps.h"

#include "peer_iperf3.h"
#include "peer_stack.h"

static struct {
    struct gp_stack_cfg cfg;
    struct netif nif;
    bool up;
    uint64_t rand;
    /* shell.h registrations: the commands and their poll hooks */
    const struct shell_cmd *cmds[8];
    unsigned n_cmds;
    void (*polls[8])(uint32_t now_ms);
    unsigned n_polls;
    /* the last glout line that was no JSON (error text for a command) */
    char text[GLOUT_LINE_MAX];
} gp;

static bool lwip_started;
static bool cmds_registered;
static const struct shell_cmd ping_cmd;
static void ping_poll(uint32_t now_ms);

/* The command table (shell.h): iperf_register() only records. */
static void register_cmds(void)
{
    if (!cmds_registered) {
        iperf_register();
        echo_register();        /* RFC 862 server: the board's latency probe in virtual time */
        latency_register();     /* the echo client, against the board's `echo` */
        shell_register(&ping_cmd);
        shell_register_poll(ping_poll);
        shell_register(&iperf3_cmd);   /* peer_iperf3.c: against the Linux image's iperf3 -s */
        shell_register_poll(iperf3_poll);
        cmds_registered = true;
    }
}

/* ---- platform for lwIP (arch/cc.h, lwipopts.h, lwip/sys.h) ---------- */

u32_t sys_now(void)
{
    return (u32_t)(gp_now_us() / 1000u);
}

/*
 * xorshift64* (Vigna, "An experimental exploration of Marsaglia's
 * xorshift generators", 2016): ports and initial sequence numbers come
 * from the seed property, so reruns are identical.
 */
uint32_t gemlab_peer_rand(void)
{
    uint64_t x = gp.rand ? gp.rand : 1;

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    gp.rand = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

void gemlab_peer_lwip_assert(const char *msg, const char *file, int line)
{
    fprintf(stderr, "gemlab-peer: lwIP assertion \"%s\" failed at %s:%d\n",
            msg, file, line);
    abort();
}

void gemlab_peer_diag(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

/* ---- the firmware's platform hooks, for its iperf code -------------- */

uint64_t timer_now_us(void)
{
    return gp_now_us();
}

void shell_register(const struct shell_cmd *cmd)
{
    if (gp.n_cmds < sizeof(gp.cmds) / sizeof(gp.cmds[0])) {
        gp.cmds[gp.n_cmds++] = cmd;
    }
}

void shell_register_poll(void (*poll)(uint32_t now_ms))
{
    if (gp.n_polls < sizeof(gp.polls) / sizeof(gp.polls[0])) {
        gp.polls[gp.n_polls++] = poll;
    }
}

/* apps/apps.c's status line, the same fields */
void app_status(const char *app, const char *state, const char *proto,
                unsigned port)
{
    char buf[GLOUT_LINE_MAX];
    struct glout g;

    glout_begin(&g, buf, sizeof(buf), "status");
    glout_str(&g, "app", app);
    glout_str(&g, "state", state);
    if (proto) {
        glout_str(&g, "proto", proto);
    }
    if (port) {
        glout_u64(&g, "port", port);
    }
    glout_emit(&g);
}

/*
 * The number after "KEY": in @json, or -1 when absent.
 * The engines' lines are flat apart from a UDP client's "server" object.
 */
static double json_num(const char *json, const char *key)
{
    char pat[40];
    const char *p;

    snprintf(pat, sizeof(pat), "\"%s\":", key);
    p = strstr(json, pat);
    return p ? strtod(p + strlen(pat), NULL) : -1;
}

static void json_add(char *out, size_t cap, const char *key, double v,
                     int prec)
{
    size_t n = strlen(out);

    if (v >= 0 && n < cap) {
        snprintf(out + n, cap - n, ",\"%s\":%.*f", key, prec, v);
    }
}

/*
 * One JSON line of the engines to the results file, closed with the
 * virtual time it was written at ("t_us") and, on a result, the fields
 * of the runner's host-iperf results (emu/runner/iperf.c) that it has:
 * throughput_bps as the receiving side measured it, the board's view of
 * the direction (tx_bps: the board sent, to the peer's server or -R
 * client; rx_bps: the peer sent, as a client or a -R test's server),
 * udp_lost_pct and udp_jitter_ms.  A UDP sender's figures are the board's
 * report, absent without one (a -R test has none: no-udp-fin).  Only the
 * iperf 2 engines' results get them: the iperf3 client's "bps" is what it
 * sent, and the board's server reports what arrived (peer_iperf3.c). */
static void put_json(const char *json)
{
    char out[GLOUT_LINE_MAX + 256];
    size_t n = strlen(json);
    const char *rx = json;
    bool server, udp, peer_sends;
    double bps;

    if (n < 2 || json[n - 1] != '}' || n >= GLOUT_LINE_MAX) {
        return;
    }
    memcpy(out, json, n - 1);
    out[n - 1] = 0;
    json_add(out, sizeof(out), "t_us", (double)gp_now_us(), 0);
    if (strstr(json, "\"type\":\"result\"") && strstr(json, "\"test\":\"iperf\"")) {
        server = strstr(json, "\"role\":\"server\"") != NULL;
        udp = strstr(json, "\"proto\":\"udp\"") != NULL;
        /* the client sends, or with -R ("reverse") the server does */
        peer_sends = server == (strstr(json, "\"reverse\":true") != NULL);
        if (peer_sends && udp) {
            /* a UDP sender: the board's report, when it came */
            rx = strstr(json, "\"server\":{");
        }
        bps = rx ? json_num(rx, "bps") : -1;
        json_add(out, sizeof(out), "throughput_bps", bps, 0);
        json_add(out, sizeof(out), peer_sends ? "rx_bps" : "tx_bps", bps, 0);
        if (udp && rx) {
            json_add(out, sizeof(out), "udp_lost_pct",
                     json_num(rx, "loss_pct"), 3);
            json_add(out, sizeof(out), "udp_jitter_ms",
                     json_num(rx, "jitter_us") / 1000.0, 4);
        }
    }
    n = strlen(out);
    if (n + 1 < sizeof(out)) {
        out[n] = '}';
        out[n + 1] = 0;
        gp.cfg.result(gp.cfg.opaque, out);
    }
}

/*
 * Every line the engines print: JSON lines (behind the marker) go to the
 * results file; the human-readable twin lines are dropped (the last one
 * is kept for an error message).
 */
void glout_putline(const char *line)
{
    size_t n = strlen(GLOUT_MARKER);

    if (strncmp(line, GLOUT_MARKER, n) == 0) {
        if (gp.cfg.result) {
            put_json(line + n);
        }
    } else {
        snprintf(gp.text, sizeof(gp.text), "%s", line);
    }
}

/* ---- the netif ------------------------------------------------------ */

static err_t gp_linkoutput(struct netif *nif, struct pbuf *p)
{
    uint8_t frame[1600];
    u16_t len;

    (void)nif;
    if (p->tot_len > sizeof(frame)) {
        return ERR_BUF;
    }
    len = pbuf_copy_partial(p, frame, p->tot_len, 0);
    if (gp.cfg.tx(gp.cfg.opaque, frame, len) != 0) {
        return ERR_MEM;
    }
    return ERR_OK;
}

static err_t gp_netif_init(struct netif *nif)
{
    nif->name[0] = 'g';
    nif->name[1] = 'p';
    nif->mtu = 1500;
    nif->hwaddr_len = ETH_HWADDR_LEN;
    memcpy(nif->hwaddr, gp.cfg.mac, ETH_HWADDR_LEN);
    nif->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP |
                 NETIF_FLAG_ETHERNET | NETIF_FLAG_LINK_UP;
    nif->output = etharp_output;
    nif->linkoutput = gp_linkoutput;
    return ERR_OK;
}

int gp_stack_init(const struct gp_stack_cfg *cfg, char *err, size_t errlen)
{
    ip4_addr_t ip, mask, gw;

    if (gp.up) {
        snprintf(err, errlen,
                 "only one gemlab-peer per QEMU (lwIP's state is global)");
        return -1;
    }
    register_cmds();
    gp.cfg = *cfg;
    gp.rand = cfg->seed ? cfg->seed : 1;
    if (!lwip_started) {
        lwip_init();
        lwip_started = true;
    }
    ip4_addr_set_u32(&ip, lwip_htonl(cfg->ip));
    ip4_addr_set_u32(&mask, lwip_htonl(cfg->netmask));
    ip4_addr_set_zero(&gw);
    if (!netif_add(&gp.nif, &ip, &mask, &gw, NULL, gp_netif_init,
                   ethernet_input)) {
        snprintf(err, errlen, "lwIP netif_add failed");
        return -1;
    }
    netif_set_default(&gp.nif);
    netif_set_up(&gp.nif);
    gp.up = true;
    return 0;
}

void gp_stack_fini(void)
{
    char a0[] = "iperf", a1[] = "stop";
    char *argv[] = { a0, a1, NULL };

    if (!gp.up) {
        return;
    }
    /* what is stopped at exit (a wall-clock moment) is not a result */
    gp.cfg.result = NULL;
    iperf3_stop();
    for (unsigned i = 0; i < gp.n_cmds; i++) {
        if (strcmp(gp.cmds[i]->name, "iperf") == 0) {
            gp.cmds[i]->fn(2, argv);
        }
    }
    netif_set_down(&gp.nif);
    netif_remove(&gp.nif);
    gp.up = false;
    gp.cfg.result = NULL;
}

/*
 * The peer's lwIP takes pcbs from the heap (MEMP_MEM_MALLOC, lwipopts.h),
 * so the pool pressure that makes lwIP drop its oldest closing connection
 * never comes (tcp.c tcp_alloc -> tcp_kill_state, LAST_ACK then CLOSING).
 * The apps cap the connections they hold open, but one they have closed
 * waits in LAST_ACK or CLOSING for the board to acknowledge the peer's
 * FIN, up to 2 MSL (tcp.c tcp_slowtmr): a board that never does made any
 * number (16 000 in a hostile-guest review, 2026-12-07).  Past
 * MEMP_NUM_TCP_PCB active pcbs, the one closing longest is aborted, as
 * tcp_kill_state does when the pool is short.
 */
static void gp_bound_closing(void)
{
    unsigned n = 0;

    for (struct tcp_pcb *q = tcp_active_pcbs; q; q = q->next) {
        n++;
    }
    while (n > MEMP_NUM_TCP_PCB) {
        static const enum tcp_state closing[] = { LAST_ACK, CLOSING };
        struct tcp_pcb *oldest = NULL;

        for (unsigned i = 0; i < 2 && !oldest; i++) {
            uint32_t age = 0;

            for (struct tcp_pcb *q = tcp_active_pcbs; q; q = q->next) {
                if (q->state == closing[i] && (!oldest || tcp_ticks - q->tmr >= age)) {
                    oldest = q;
                    age = tcp_ticks - q->tmr;
                }
            }
        }
        if (!oldest) {
            return;
        }
        tcp_abort(oldest);
        n--;
    }
}

void gp_stack_input(const uint8_t *frame, size_t len)
{
    struct pbuf *p;

    if (!gp.up || len == 0 || len > 0xFFFF) {
        return;
    }
    p = pbuf_alloc(PBUF_RAW, (u16_t)len, PBUF_POOL);
    if (!p) {
        return;
    }
    pbuf_take(p, frame, (u16_t)len);
    if (gp.nif.input(p, &gp.nif) != ERR_OK) {
        pbuf_free(p);
    }
    gp_bound_closing();
}

/*
 * The engines' poll hooks pace clients and time out servers; while one
 * runs they want calling every millisecond (the firmware's main loop
 * calls them on every pass).
 */
static bool apps_busy(void);

void gp_stack_poll(void)
{
    uint32_t now = sys_now();

    if (!gp.up) {
        return;
    }
    sys_check_timeouts();
    for (unsigned i = 0; i < gp.n_polls; i++) {
        gp.polls[i](now);
    }
}

uint32_t gp_stack_next_ms(void)
{
    uint32_t t;

    if (!gp.up) {
        return UINT32_MAX;
    }
    t = sys_timeouts_sleeptime();
    if (apps_busy() && t > 1) {
        t = 1;
    }
    return t == SYS_TIMEOUTS_SLEEPTIME_INFINITE ? UINT32_MAX : t;
}

/* ---- commands ------------------------------------------------------- */

static bool busy;

static bool apps_busy(void)
{
    return busy;
}

#define GP_MAX_ARGS 24

/* Split cmd into words (in buf) and find its shell command. */
static const struct shell_cmd *split(const char *cmd, char *buf, size_t cap,
                                     int *argc, char **argv,
                                     char *err, size_t errlen)
{
    char *save = NULL, *w;

    if (strlen(cmd) >= cap) {
        snprintf(err, errlen, "command too long (at most %zu characters)",
                 cap - 1);
        return NULL;
    }
    strcpy(buf, cmd);
    *argc = 0;
    for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (*argc == GP_MAX_ARGS) {
            snprintf(err, errlen, "too many words (at most %d)", GP_MAX_ARGS);
            return NULL;
        }
        argv[(*argc)++] = w;
    }
    argv[*argc] = NULL;
    if (*argc == 0) {
        snprintf(err, errlen, "empty command");
        return NULL;
    }
    for (unsigned i = 0; i < gp.n_cmds; i++) {
        if (strcmp(gp.cmds[i]->name, argv[0]) == 0) {
            return gp.cmds[i];
        }
    }
    snprintf(err, errlen, "unknown command '%s' (have: iperf, iperf3, echo, latency, ping, console)",
             argv[0]);
    return NULL;
}

#include "appargs.h"
#include "fw/apps/common/appnet.h"

/* ---- ping: ICMP echo client (RFC 792) ------------------------------- */

#define PING_ID          0x6770      /* "gp" */
#define PING_MAX_COUNT   100000
#define PING_MAX_LEN     1472        /* data bytes: a 1500-byte MTU */
#define PING_TIMEOUT_MS  1000        /* after the last request */
#define PING_USAGE "ping [-c COUNT] [-i MS] [-s LEN] A.B.C.D"

struct ping_args {
    uint32_t host, count, interval_ms, len;
};

static struct {
    struct raw_pcb *pcb;
    struct ping_args a;
    bool active;
    uint16_t seq;
    uint32_t sent, received, dup;
    uint32_t next_ms, last_ms;
    uint64_t rtt_min, rtt_max, rtt_sum;
    uint64_t start_us;      /* gp_now_us() at `ping`: no reply was sent before */
} png;

/*
 * ping [-c COUNT] [-i MS] [-s LEN] A.B.C.D; data of at least 8 bytes
 * holds the send time
 */
static int ping_args_parse(int argc, char **argv, struct ping_args *a)
{
    struct ping_args r = { 0, 4, 1000, 56 };
    bool have_host = false;

    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];

        if (o[0] == '-' && i + 1 < argc) {
            const char *v = argv[++i];

            if ((!strcmp(o, "-c") &&
                 parse_u32(v, 1, PING_MAX_COUNT, &r.count)) ||
                (!strcmp(o, "-i") && parse_u32(v, 1, 60000, &r.interval_ms)) ||
                (!strcmp(o, "-s") && parse_u32(v, 8, PING_MAX_LEN, &r.len)) ||
                (strcmp(o, "-c") && strcmp(o, "-i") && strcmp(o, "-s"))) {
                return -EINVAL;
            }
        } else if (!have_host && o[0] != '-' && parse_ipv4(o, &r.host) == 0) {
            have_host = true;
        } else {
            return -EINVAL;
        }
    }
    if (!have_host) {
        return -EINVAL;
    }
    *a = r;
    return 0;
}

static void ping_result(void)
{
    char buf[GLOUT_LINE_MAX];
    char ps[APP_PEER_STR];
    struct glout g;
    ip_addr_t ip;

    app_ip_set(&ip, png.a.host);
    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "test", "ping");
    glout_str(&g, "proto", "icmp");
    glout_str(&g, "role", "client");
    glout_str(&g, "peer", ipaddr_ntoa_r(&ip, ps, sizeof(ps)));
    glout_u64(&g, "len", png.a.len);
    glout_u64(&g, "sent", png.sent);
    glout_u64(&g, "received", png.received);
    glout_u64(&g, "lost", png.sent - png.received);
    glout_u64(&g, "duplicates", png.dup);
    if (png.received) {
        glout_u64(&g, "rtt_min_us", png.rtt_min);
        glout_u64(&g, "rtt_avg_us", png.rtt_sum / png.received);
        glout_u64(&g, "rtt_max_us", png.rtt_max);
    } else {
        glout_null(&g, "rtt_avg_us");
    }
    glout_emit(&g);
    png.active = false;
}

static u8_t ping_recv(void *arg, struct raw_pcb *pcb, struct pbuf *p,
                      const ip_addr_t *addr)
{
    struct icmp_echo_hdr h;
    uint64_t t_sent, rtt, now = gp_now_us();
    uint16_t seq;
    uint8_t vhl = 0;
    u16_t hlen;

    (void)arg;
    (void)pcb;
    /* a raw pcb sees the IP header, options included (RFC 791 IHL) */
    if (!png.active || pbuf_copy_partial(p, &vhl, 1, 0) != 1 ||
        ip_addr_get_ip4_u32(addr) != lwip_htonl(png.a.host)) {
        return 0;
    }
    hlen = (u16_t)((vhl & 0x0f) * 4);
    if (hlen < IP_HLEN || p->tot_len < hlen + sizeof(h) + 8) {
        return 0;
    }
    pbuf_copy_partial(p, &h, sizeof(h), hlen);
    if (h.type != ICMP_ER || h.id != lwip_htons(PING_ID)) {
        return 0;
    }
    seq = lwip_ntohs(h.seqno);
    pbuf_copy_partial(p, &t_sent, sizeof(t_sent), hlen + sizeof(h));
    pbuf_free(p);
    /* the guest echoes the send time back: one we did not send is not a
     * reply (nor is a time before `ping` or after now, which would give a
     * negative RTT) */
    if ((uint16_t)(png.seq - seq) > png.sent || seq == png.seq ||
        t_sent < png.start_us || t_sent > now) {
        return 1;
    }
    rtt = now - t_sent;
    if (png.received + png.dup >= png.sent) {
        png.dup++;
        return 1;
    }
    png.received++;
    png.rtt_sum += rtt;
    png.rtt_min = png.received == 1 || rtt < png.rtt_min ? rtt : png.rtt_min;
    png.rtt_max = rtt > png.rtt_max ? rtt : png.rtt_max;
    if (png.received == png.a.count) {
        ping_result();
    }
    return 1;
}

static void ping_send(void)
{
    struct pbuf *p = pbuf_alloc(PBUF_IP, sizeof(struct icmp_echo_hdr) +
                                png.a.len, PBUF_RAM);
    struct icmp_echo_hdr *h;
    uint64_t now = gp_now_us();
    ip_addr_t dst;
    uint8_t *d;

    if (!p) {
        return;
    }
    h = p->payload;
    d = (uint8_t *)(h + 1);
    memset(h, 0, sizeof(*h));
    ICMPH_TYPE_SET(h, ICMP_ECHO);
    h->id = lwip_htons(PING_ID);
    h->seqno = lwip_htons(png.seq);
    memcpy(d, &now, sizeof(now));
    app_pattern_fill(d + sizeof(now), png.a.len - sizeof(now));
    h->chksum = inet_chksum(h, p->len);
    app_ip_set(&dst, png.a.host);
    raw_sendto(png.pcb, p, &dst);
    pbuf_free(p);
    png.seq++;
    png.sent++;
}

static void ping_poll(uint32_t now_ms)
{
    if (!png.active) {
        return;
    }
    if (png.sent < png.a.count && (int32_t)(now_ms - png.next_ms) >= 0) {
        ping_send();
        png.last_ms = now_ms;
        png.next_ms += png.a.interval_ms;
    } else if (png.sent == png.a.count &&
               (int32_t)(now_ms - png.last_ms) >= PING_TIMEOUT_MS) {
        ping_result();
    }
}

static int cmd_ping(int argc, char **argv)
{
    struct ping_args a;

    if (ping_args_parse(argc, argv, &a) != 0) {
        return -EINVAL;
    }
    if (png.active) {
        app_error("ping", "already running", -EBUSY);
        return 0;
    }
    if (!png.pcb) {
        png.pcb = raw_new(IP_PROTO_ICMP);
        if (!png.pcb) {
            app_error("ping", "no raw pcb", ERR_MEM);
            return 0;
        }
        raw_recv(png.pcb, ping_recv, NULL);
    }
    app_pattern_init();
    memset(&png.a, 0, sizeof(png.a));
    png.a = a;
    png.sent = png.received = png.dup = 0;
    png.rtt_min = png.rtt_max = png.rtt_sum = 0;
    png.next_ms = sys_now();
    png.start_us = gp_now_us();
    png.active = true;
    app_status("ping", "started", "icmp", 0);
    return 0;
}

static const struct shell_cmd ping_cmd = {
    .name = "ping",
    .usage = PING_USAGE,
    .fn = cmd_ping,
};

/*
 * Checking a command means parsing its arguments (appargs.c and
 * ping_args_parse() have no side effects); the usage is the command's
 * own (shell.h), as the firmware's shell prints it.
 */
int gp_stack_check(const char *cmd, char *err, size_t errlen)
{
    char buf[512];
    char *argv[GP_MAX_ARGS + 1];
    int argc, rc;
    const char *why = NULL;
    const struct shell_cmd *c;

    register_cmds();
    c = split(cmd, buf, sizeof(buf), &argc, argv, err, errlen);
    if (!c) {
        return -1;
    }
    if (!strcmp(argv[0], "ping")) {
        struct ping_args pa;
        rc = ping_args_parse(argc, argv, &pa);
    } else if (!strcmp(argv[0], "iperf3")) {
        char why3[160];
        rc = iperf3_check(argc, argv, why3, sizeof(why3));
        if (rc != 0) {
            snprintf(err, errlen, "bad arguments: %s: %s (usage: %s)", cmd, why3, c->usage);
            return -1;
        }
    } else if (!strcmp(argv[0], "echo")) {
        struct echo_args ea;
        rc = echo_args_parse(argc, argv, &ea);
    } else if (!strcmp(argv[0], "latency")) {
        struct latency_args la;
        rc = latency_args_parse(argc, argv, &la);
    } else {
        struct iperf_args a;
        rc = iperf_args_parse(argc, argv, &a);
        why = a.err;
    }
    if (rc != 0) {
        snprintf(err, errlen, "bad arguments: %s%s%s (usage: %s)", cmd,
                 why ? ": " : "", why ? why : "", c->usage);
        return -1;
    }
    return 0;
}

int gp_stack_run(const char *cmd, char *err, size_t errlen)
{
    char buf[512];
    char *argv[GP_MAX_ARGS + 1];
    int argc;
    const struct shell_cmd *c;

    if (!gp.up) {
        snprintf(err, errlen, "the peer is not up");
        return -1;
    }
    if (gp_stack_check(cmd, err, errlen) != 0) {
        return -1;
    }
    c = split(cmd, buf, sizeof(buf), &argc, argv, err, errlen);
    if (!c) {
        return -1;
    }
    if (c->fn(argc, argv) != 0) {
        snprintf(err, errlen, "%s failed", argv[0]);
        return -1;
    }
    busy = true;
    return 0;
}
