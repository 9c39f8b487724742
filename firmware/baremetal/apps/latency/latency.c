/* latency.c - UDP round-trip probe against an echo server (RFC 862; the
 * host runs one, or another target runs `echo`).
 *
 * Each probe carries magic, sequence number and the send time in us
 * (big-endian, 16 bytes, zero padding to -l LEN), so replies need no table
 * and reordered replies still time correctly.  Probes go out every -i ms;
 * with -i 0 the next probe leaves when the previous reply arrives (or its
 * -w timeout expires): a ping-pong that measures unloaded RTT.
 * The run ends when every reply is in, or -w ms after the last probe;
 * replies arriving later are not counted.  Duplicated replies are ignored.
 *
 * Statistics: min/avg/max, p50/p90/p99 nearest-rank over all samples (up
 * to LATENCY_SAMPLES, beyond that from the log2 histogram, see lathist.h),
 * and the histogram as [bucket lower edge us, count] pairs.
 */
#include <errno.h>
#include <string.h>

#include "lwip/pbuf.h"
#include "lwip/udp.h"

#include "shell.h"
#include "appargs.h"
#include "lathist.h"
#include "../apps.h"
#include "../common/appnet.h"

#define LATENCY_MAGIC   0x474C4C50u     /* "GLLP" */
#define LATENCY_SAMPLES 4096

static uint32_t samples[LATENCY_SAMPLES];
static uint8_t seen[(LATENCY_MAX_COUNT + 7) / 8];

static struct {
    bool running;
    struct udp_pcb *pcb;
    struct latency_args a;
    ip_addr_t ip;
    uint32_t sent;
    uint32_t received;
    uint32_t dup;
    uint32_t next_send_ms;
    uint32_t last_send_ms;
    bool waiting;               /* -i 0: a probe is outstanding */
    struct lathist h;
} lat;

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void lat_finish(void)
{
    char buf[1024], ps[APP_PEER_STR];
    struct glout g;
    bool exact;
    uint32_t p50, p90, p99;

    p50 = lathist_percentile(&lat.h, 50, NULL);
    p90 = lathist_percentile(&lat.h, 90, NULL);
    p99 = lathist_percentile(&lat.h, 99, &exact);
    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "test", "latency");
    glout_str(&g, "proto", "udp");
    glout_str(&g, "peer", app_peer_str(ps, &lat.ip, lat.a.port));
    glout_u64(&g, "len", lat.a.len);
    glout_u64(&g, "interval_ms", lat.a.interval_ms);
    glout_u64(&g, "sent", lat.sent);
    glout_u64(&g, "received", lat.received);
    glout_u64(&g, "lost", lat.sent - lat.received);
    glout_u64(&g, "duplicates", lat.dup);
    if (lat.received) {
        glout_u64(&g, "min_us", lat.h.min_us);
        glout_u64(&g, "avg_us", lathist_avg(&lat.h));
        glout_u64(&g, "max_us", lat.h.max_us);
        glout_u64(&g, "p50_us", p50);
        glout_u64(&g, "p90_us", p90);
        glout_u64(&g, "p99_us", p99);
        glout_bool(&g, "exact", exact);
        glout_obj_begin(&g, "hist");
        glout_str(&g, "scale", "log2_us");
        glout_arr_begin(&g, "buckets");
        for (unsigned k = 0; k < LATHIST_BUCKETS; k++) {
            if (!lat.h.bucket[k])
                continue;
            glout_arr_begin(&g, NULL);
            glout_u64(&g, NULL, lathist_bucket_lo(k));
            glout_u64(&g, NULL, lat.h.bucket[k]);
            glout_arr_end(&g);
        }
        glout_arr_end(&g);
        glout_obj_end(&g);
    }
    glout_emit(&g);
    glout_textf("latency %s: %lu/%lu replies, rtt min/avg/max %lu/%lu/%lu us, p50 %lu p99 %lu us",
                ps, (unsigned long)lat.received, (unsigned long)lat.sent,
                (unsigned long)(lat.received ? lat.h.min_us : 0), (unsigned long)lathist_avg(&lat.h),
                (unsigned long)lat.h.max_us, (unsigned long)p50, (unsigned long)p99);
    for (unsigned k = 0; k < LATHIST_BUCKETS; k++)
        if (lat.h.bucket[k])
            glout_textf("  [%7lu us, %7lu us) %lu", (unsigned long)lathist_bucket_lo(k),
                        (unsigned long)lathist_bucket_lo(k + 1), (unsigned long)lat.h.bucket[k]);
    udp_remove(lat.pcb);
    lat.pcb = NULL;
    lat.running = false;
}

static void lat_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p,
                     const ip_addr_t *addr, u16_t port)
{
    uint8_t b[16];
    uint64_t now = app_now_us(), t;
    uint32_t seq;

    (void)arg;
    (void)pcb;
    (void)addr;
    (void)port;
    if (pbuf_copy_partial(p, b, sizeof(b), 0) != sizeof(b) || get32(b) != LATENCY_MAGIC)
        goto out;                   /* not ours / truncated */
    seq = get32(b + 4);
    if (!lat.running || seq >= lat.sent)
        goto out;
    if (seen[seq / 8] & (1u << (seq % 8))) {
        lat.dup++;
        goto out;
    }
    seen[seq / 8] |= (uint8_t)(1u << (seq % 8));
    t = (uint64_t)get32(b + 8) << 32 | get32(b + 12);
    lathist_add(&lat.h, now - t > UINT32_MAX ? UINT32_MAX : (uint32_t)(now - t));
    lat.received++;
    if (seq + 1 == lat.sent)
        lat.waiting = false;
out:
    pbuf_free(p);
}

static void lat_send(void)
{
    struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, (u16_t)lat.a.len, PBUF_RAM);
    uint64_t now;
    uint8_t *b;

    if (!p)
        return;                     /* retried at the next poll */
    b = p->payload;
    memset(b, 0, lat.a.len);
    now = app_now_us();
    put32(b, LATENCY_MAGIC);
    put32(b + 4, lat.sent);
    put32(b + 8, (uint32_t)(now >> 32));
    put32(b + 12, (uint32_t)now);
    if (udp_sendto(lat.pcb, p, &lat.ip, lat.a.port) == ERR_OK) {
        lat.sent++;
        lat.last_send_ms = app_now_ms();
        lat.waiting = true;
    }
    pbuf_free(p);
}

static void lat_poll(uint32_t now_ms)
{
    if (!lat.running)
        return;
    if (lat.sent < lat.a.count) {
        if (lat.a.interval_ms == 0) {
            if (!lat.waiting || (int32_t)(now_ms - lat.last_send_ms) >= (int32_t)lat.a.timeout_ms)
                lat_send();
        } else if ((int32_t)(now_ms - lat.next_send_ms) >= 0) {
            lat_send();
            lat.next_send_ms += lat.a.interval_ms;
        }
        return;
    }
    if (lat.received == lat.sent || (int32_t)(now_ms - lat.last_send_ms) >= (int32_t)lat.a.timeout_ms)
        lat_finish();
}

static int cmd_latency(int argc, char **argv)
{
    struct latency_args a;
    err_t err;

    if (argc == 2 && strcmp(argv[1], "stop") == 0) {
        if (lat.running)
            lat_finish();
        return 0;
    }
    if (latency_args_parse(argc, argv, &a) != 0)
        return -EINVAL;
    if (lat.running) {
        app_error("latency", "already running", ERR_ALREADY);
        return 0;
    }
    memset(&lat, 0, sizeof(lat));
    memset(seen, 0, sizeof(seen));
    lat.a = a;
    app_ip_set(&lat.ip, a.host);
    lathist_init(&lat.h, samples, LATENCY_SAMPLES);
    lat.pcb = udp_new_ip_type(IPADDR_TYPE_V4);
    if (!lat.pcb) {
        app_error("latency", "no udp pcb", ERR_MEM);
        return 0;
    }
    err = udp_bind(lat.pcb, IP4_ADDR_ANY, 0);
    if (err != ERR_OK) {
        udp_remove(lat.pcb);
        lat.pcb = NULL;
        app_error("latency", "bind failed", err);
        return 0;
    }
    udp_recv(lat.pcb, lat_recv, NULL);
    lat.next_send_ms = app_now_ms();
    lat.running = true;
    app_status("latency", "started", "udp", a.port);
    return 0;
}

static const struct shell_cmd latency_cmd = {
    .name = "latency",
    .usage = "latency -c A.B.C.D [-p PORT(7)] [-n COUNT(1000)] [-l LEN(64)] [-i MS(10), 0=ping-pong] "
             "[-w TIMEOUT_MS(1000)] | latency stop",
    .fn = cmd_latency,
};

void latency_register(void)
{
    shell_register(&latency_cmd);
    shell_register_poll(lat_poll);
}
