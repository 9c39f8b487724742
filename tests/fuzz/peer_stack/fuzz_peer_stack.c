/*
 * fuzz_peer_stack.c - libFuzzer target: gemlab's in-emulator traffic peer
 * (emu/qemu/net/gemlab-peer/: peer_stack.c, peer_iperf3.c, lwIP 2.1.3 and
 * the firmware's iperf 2, echo and latency engines it runs, docs/PEER.md),
 * fed what an untrusted guest can put on the wire (docs/SECURITY.md).
 * It links the files QEMU links (fuzz.mk reads the peer's meson.build).
 *
 * The input is a list of operations, each picked by one byte:
 *   RAW   an Ethernet frame exactly as given (any ethertype, runts, bad
 *         checksums);
 *   IP    an IPv4 packet from the board to the peer: IHL with options,
 *         ID, flags and fragment offset, TTL, protocol and the payload come
 *         from the input; the header checksum (RFC 791) and, for an
 *         unfragmented TCP, UDP or ICMP packet, the transport checksum
 *         (RFC 793, 768, 792) are filled in so that lwIP reads further;
 *   TCP   a segment on one of FLOWS connections, with the sequence number
 *         the flow has reached and acknowledging what the peer last sent
 *         on it, so handshakes complete and payload reaches the servers
 *         (an iperf 2 header, the echo) and the peer's clients (iperf 2,
 *         iperf3's control protocol) once a CMD has started them;
 *   UDP   a datagram to one of the peer's ports (iperf 2 UDP, echo, the
 *         latency client's replies);
 *   TIME  advance the virtual clock by up to 1 s (2 s in all) and run
 *         the peer's timers and polls;
 *   CMD   start one of the commands the runner gives the peer (run.c).
 *
 * Checked: no crash, no lwIP assertion (they abort, arch/cc.h), no ASan or
 * UBSan report, and after each input the peer holds at most
 * MAX_TCP_PCBS connections (the bound its apps promise: echo 8, the iperf
 * server 8, a client's 8 streams, iperf3's control and data).
 *
 * lwIP's state is global (peer_stack.h), so each input ends with its apps
 * stopped, its connections aborted and its fragments timed out
 * (teardown()), and the next starts on a stack brought up again 10 min of
 * virtual time later, its servers started as the runner starts them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lwip/tcp.h"
#include "lwip/priv/tcp_priv.h"
#include "lwip/timeouts.h"

#include "peer_stack.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PEER_IP   0x0A000202u       /* 10.0.2.2, as the runner sets it */
#define BOARD_IP  0x0A00020Fu       /* 10.0.2.15 */
#define FLOWS     48           /* k / FLOWS picks among the 6 peer_ports */
#define FRAME_MAX 1600
#define MAX_TCP_PCBS 32
/*
 * The NIC the peer sends into: a 100 Mb/s line behind a queue of 512
 * frames, as gemlab_peer.c's queue is drained at the wire's rate.  A full
 * queue refuses the frame (peer_stack.h), so a client the guest starts
 * (an iperf 2 dual test at any -b) costs at most the line's frames per
 * virtual second, and each input at most INPUT_BUDGET_US of virtual time.
 */
#define LINE_BYTES_PER_US 12.5          /* 100 Mb/s */
#define WIRE_OVERHEAD 24                /* preamble 8, FCS 4, gap 12 (IEEE 802.3 cl. 4) */
#define QUEUE_BYTES (512.0 * 1538)
#define INPUT_BUDGET_US 2000000ull

static const uint8_t peer_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x02 };
static const uint8_t board_mac[6] = { 0x00, 0x0a, 0x35, 0x00, 0x01, 0x22 };

/* the peer's ports the board can reach, and the commands run.c gives it */
static const uint16_t peer_ports[] = { 5001, 7, 5002, 5201, 5202, 9 };
static const char *const commands[] = {
    "iperf -c 10.0.2.15 -t 1 -i 1",
    "iperf -c 10.0.2.15 -t 1 -P 2 -i 1",
    "iperf -c 10.0.2.15 -t 1 -u -b 10M -i 1",
    "iperf -c 10.0.2.15 -t 1 -R -i 1",
    "iperf3 -c 10.0.2.15 -p 5202 -t 1",
    "iperf3 -c 10.0.2.15 -p 5202 -t 1 -R",
    "ping -c 2 -i 10 10.0.2.15",
    "latency -c 10.0.2.15 -p 7 -n 3 -i 0 -w 500",
};

static uint64_t now_us = 1000000;
static uint64_t input_end_us;           /* now_us may not pass it in this input */
static double queue_credit = QUEUE_BYTES;
static uint64_t credit_us;

uint64_t gp_now_us(void)
{
    return now_us;
}

/* One TCP connection between the board (port bport) and the peer. */
struct flow {
    bool used;
    uint16_t bport, pport;
    uint32_t snd_nxt;       /* the board's next sequence number */
    uint32_t rcv_nxt;       /* what the board acknowledges: the peer's next */
    bool peer_seen;         /* rcv_nxt is known */
};

static struct flow flows[FLOWS];
static bool arp_asked;      /* the peer asked who has BOARD_IP */

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)(v >> 16));
    put16(p + 2, (uint16_t)v);
}

/* RFC 1071 one's-complement sum */
static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
    for (size_t i = 0; i + 1 < n; i += 2) {
        s += get16(p + i);
    }
    if (n & 1) {
        s += (uint32_t)p[n - 1] << 8;
    }
    return s;
}

static uint16_t fold(uint32_t s)
{
    while (s >> 16) {
        s = (s & 0xffff) + (s >> 16);
    }
    return (uint16_t)~s;
}

static struct flow *flow_find(uint16_t bport, uint16_t pport)
{
    for (int i = 0; i < FLOWS; i++) {
        if (flows[i].used && flows[i].bport == bport && flows[i].pport == pport) {
            return &flows[i];
        }
    }
    return NULL;
}

/* The peer's frames: learn what each TCP flow's board end acknowledges. */
static int peer_tx(void *opaque, const uint8_t *f, size_t n)
{
    size_t ihl, off, plen;
    uint32_t seq, end;
    uint8_t flags;
    struct flow *fl;

    (void)opaque;
    if (n > FRAME_MAX) {
        fz_fail("the peer sent a %zu-byte frame", n);
    }
    queue_credit += (double)(now_us - credit_us) * LINE_BYTES_PER_US;
    credit_us = now_us;
    if (queue_credit > QUEUE_BYTES) {
        queue_credit = QUEUE_BYTES;
    }
    if (queue_credit < (double)(n + WIRE_OVERHEAD)) {
        return -1;                      /* the queue is full */
    }
    queue_credit -= (double)(n + WIRE_OVERHEAD);
    if (n >= 14 + 28 && get16(f + 12) == 0x0806 && get16(f + 20) == 1 && get32(f + 38) == BOARD_IP) {
        arp_asked = true;       /* answered after this operation (no re-entry into lwIP here) */
        return 0;
    }
    if (n < 14 + 20 || get16(f + 12) != 0x0800 || f[14 + 9] != 6) {
        return 0;
    }
    ihl = (size_t)(f[14] & 0x0f) * 4;
    off = 14 + ihl;
    if (ihl < 20 || n < off + 20 || get16(f + 16) < ihl + 20 || 14 + (size_t)get16(f + 16) > n) {
        return 0;
    }
    plen = get16(f + 16) - ihl - (size_t)(f[off + 12] >> 4) * 4;
    seq = get32(f + off + 4);
    flags = f[off + 13];
    end = seq + (uint32_t)plen + ((flags & TCP_SYN) ? 1 : 0) + ((flags & TCP_FIN) ? 1 : 0);
    fl = flow_find(get16(f + off + 2), get16(f + off));
    if (!fl && (flags & TCP_SYN)) {
        /* the peer's client connecting to the board: a new flow */
        for (int i = 0; i < FLOWS && !fl; i++) {
            if (!flows[i].used) {
                fl = &flows[i];
                memset(fl, 0, sizeof(*fl));
                fl->used = true;
                fl->bport = get16(f + off + 2);
                fl->pport = get16(f + off);
                fl->snd_nxt = 0x10000000u * (uint32_t)(i + 1);
            }
        }
    }
    if (fl && (!fl->peer_seen || (int32_t)(end - fl->rcv_nxt) > 0)) {
        fl->rcv_nxt = end;
        fl->peer_seen = true;
    }
    return 0;
}

/* The board's ARP @op (1 request, 2 reply) for the peer (RFC 826). */
static void send_arp(uint16_t op)
{
    uint8_t f[60] = { 0 };

    memcpy(f, op == 1 ? (const uint8_t *)"\xff\xff\xff\xff\xff\xff" : peer_mac, 6);
    memcpy(f + 6, board_mac, 6);
    put16(f + 12, 0x0806);
    put16(f + 14, 1);
    put16(f + 16, 0x0800);
    f[18] = 6;
    f[19] = 4;
    put16(f + 20, op);
    memcpy(f + 22, board_mac, 6);
    put32(f + 28, BOARD_IP);
    if (op == 2) {
        memcpy(f + 32, peer_mac, 6);
    }
    put32(f + 38, PEER_IP);
    gp_stack_input(f, sizeof(f));
}

static void eth_header(uint8_t *f)
{
    memcpy(f, peer_mac, 6);
    memcpy(f + 6, board_mac, 6);
    put16(f + 12, 0x0800);
}

/*
 * An IPv4 packet from the board (the header at f + 14, @optlen bytes of
 * options after it, @plen of payload after those); fills in the lengths
 * and checksums and hands it to the peer.
 */
static void send_ip(uint8_t *f, size_t optlen, size_t plen, uint8_t proto,
                    uint16_t id, uint16_t frag, uint8_t ttl)
{
    uint8_t *ip = f + 14, *l4 = ip + 20 + optlen;
    size_t ihl = 20 + optlen, tot = ihl + plen;
    uint32_t ph;

    eth_header(f);
    ip[0] = (uint8_t)(0x40 | (ihl / 4));
    ip[1] = 0;
    put16(ip + 2, (uint16_t)tot);
    put16(ip + 4, id);
    put16(ip + 6, frag);
    ip[8] = ttl;
    ip[9] = proto;
    put16(ip + 10, 0);
    put32(ip + 12, BOARD_IP);
    put32(ip + 16, PEER_IP);
    put16(ip + 10, fold(sum16(ip, ihl, 0)));
    if ((frag & 0x3fff) == 0) {         /* not a fragment: the transport checksum */
        ph = sum16(ip + 12, 8, 0) + proto + (uint32_t)plen;
        if (proto == 6 && plen >= 20) {
            put16(l4 + 16, 0);
            put16(l4 + 16, fold(sum16(l4, plen, ph)));
        } else if (proto == 17 && plen >= 8) {
            put16(l4 + 4, (uint16_t)plen);
            put16(l4 + 6, 0);
            put16(l4 + 6, fold(sum16(l4, plen, ph)));
        } else if (proto == 1 && plen >= 4) {
            put16(l4 + 2, 0);
            put16(l4 + 2, fold(sum16(l4, plen, 0)));
        }
    }
    gp_stack_input(f, 14 + tot < 60 ? 60 : 14 + tot);
}

static size_t take(struct fz *in, uint8_t *to, size_t max)
{
    size_t n = fz_u16(in) % (max + 1);

    if (n > in->n) {
        n = in->n;
    }
    memcpy(to, in->p, n);
    in->p += n;
    in->n -= n;
    return n;
}

static void op_ip(struct fz *in)
{
    static uint8_t f[FRAME_MAX];
    size_t optlen = (size_t)(fz_u8(in) % 11) * 4;
    uint16_t id = fz_u16(in), frag = fz_u16(in);
    uint8_t ttl = fz_u8(in), proto = fz_u8(in);
    size_t plen;

    memset(f, 0, sizeof(f));
    take(in, f + 14 + 20, optlen);
    plen = take(in, f + 14 + 20 + optlen, 1500 - 20 - optlen);
    send_ip(f, optlen, plen, proto, id, frag, ttl);
}

static void op_tcp(struct fz *in)
{
    static uint8_t f[FRAME_MAX];
    uint8_t k = fz_u8(in), flags = fz_u8(in), hopt = (uint8_t)(fz_u8(in) % 11);
    uint16_t wnd = fz_u16(in);
    struct flow *fl = &flows[k % FLOWS];
    uint8_t *t = f + 14 + 20;
    size_t optlen = (size_t)hopt * 4, plen;

    if (!fl->used) {
        memset(fl, 0, sizeof(*fl));
        fl->used = true;
        fl->bport = (uint16_t)(40000 + k % FLOWS);
        fl->pport = peer_ports[(k / FLOWS) % (sizeof(peer_ports) / sizeof(peer_ports[0]))];
        fl->snd_nxt = 0x01000000u * (uint32_t)(k % FLOWS + 1);
    }
    memset(f, 0, sizeof(f));
    put16(t, fl->bport);
    put16(t + 2, fl->pport);
    put32(t + 4, fl->snd_nxt);
    put32(t + 8, fl->peer_seen ? fl->rcv_nxt : 0);
    if (!fl->peer_seen) {
        flags &= (uint8_t)~TCP_ACK;
    } else if (!(flags & TCP_RST)) {
        flags |= TCP_ACK;
    }
    t[12] = (uint8_t)((5 + hopt) << 4);
    t[13] = flags;
    put16(t + 14, wnd ? wnd : 1);
    take(in, t + 20, optlen);
    plen = take(in, t + 20 + optlen, 1460);
    fl->snd_nxt += (uint32_t)plen + ((flags & TCP_SYN) ? 1 : 0) + ((flags & TCP_FIN) ? 1 : 0);
    send_ip(f, 0, 20 + optlen + plen, 6, 0, 0x4000, 64);
}

static void op_udp(struct fz *in)
{
    static uint8_t f[FRAME_MAX];
    uint8_t k = fz_u8(in);
    uint8_t *u = f + 14 + 20;
    size_t plen;

    memset(f, 0, sizeof(f));
    put16(u, (uint16_t)(40000 + (k & 7)));
    put16(u + 2, peer_ports[(k >> 3) % (sizeof(peer_ports) / sizeof(peer_ports[0]))]);
    plen = take(in, u + 8, 1472);
    send_ip(f, 0, 8 + plen, 17, 0, 0x4000, 64);
}

static void op_raw(struct fz *in)
{
    static uint8_t f[FRAME_MAX];
    size_t n = take(in, f, sizeof(f));

    gp_stack_input(f, n);
}

static void advance(uint64_t us)
{
    /* the peer's timers as QEMU runs them: at most a millisecond apart
     * while an app is busy (gp_stack_next_ms), else when lwIP's are due */
    uint64_t end = now_us + us < input_end_us ? now_us + us : input_end_us;

    while (now_us < end) {
        uint32_t ms = gp_stack_next_ms();
        uint64_t step = ms == UINT32_MAX ? end - now_us : (uint64_t)(ms ? ms : 1) * 1000u;

        now_us += step < end - now_us ? step : end - now_us;
        gp_stack_poll();
    }
}

static void run(const char *cmd)
{
    char err[GP_ERR_MAX];

    /* "already running" and the like are answers, not findings */
    (void)gp_stack_run(cmd, err, sizeof(err));
}

static void abort_all(struct tcp_pcb **list)
{
    while (*list) {
        tcp_abort(*list);
    }
}

/*
 * After an input: its apps stopped, its connections aborted, and its IP
 * fragments timed out (IP_REASS_MAXAGE, 15 ticks of lwIP's 1 s
 * reassembly timer).  Nothing of the input is then held, which
 * libFuzzer's leak check needs: lwIP chains a datagram's fragments
 * through a pointer it keeps inside each pbuf at the IP header
 * (src/core/ipv4/ip4_frag.c, struct ip_reass_helper, packed), 2 bytes off
 * alignment after the Ethernet header, where LeakSanitizer cannot see
 * it, so a chain still queued would be reported as leaked.
 */
static void teardown(void)
{
    run("echo stop");
    run("latency stop");
    gp_stack_fini();
    abort_all(&tcp_active_pcbs);
    abort_all(&tcp_tw_pcbs);
    for (int i = 0; i < 20; i++) {
        now_us += 1000000u;
        sys_check_timeouts();
    }
}

/* A fresh peer, as the runner starts it. */
static void restart(void)
{
    struct gp_stack_cfg cfg = {
        .ip = PEER_IP, .netmask = 0xFFFFFF00u, .board_ip = BOARD_IP, .seed = 1,
        .tx = peer_tx,
    };
    char err[GP_ERR_MAX];

    memcpy(cfg.mac, peer_mac, sizeof(cfg.mac));
    now_us += 600000000ull;
    input_end_us = now_us + INPUT_BUDGET_US;
    if (gp_stack_init(&cfg, err, sizeof(err)) != 0) {
        fz_fail("gp_stack_init: %s", err);
    }
    memset(flows, 0, sizeof(flows));
    arp_asked = false;
    send_arp(1);                /* the peer learns the board's address */
    run("echo");
    run("iperf -s -i 1");
    run("iperf -s -u -i 1");
    gp_stack_poll();
}

static unsigned count(const struct tcp_pcb *p)
{
    unsigned n = 0;

    for (; p; p = p->next) {
        n++;
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz in;
    unsigned n;

    fz_init(&in, data, size);
    restart();
    while (!fz_empty(&in)) {
        switch (fz_u8(&in) % 6) {
        case 0:
            op_raw(&in);
            break;
        case 1:
            op_ip(&in);
            break;
        case 2:
            op_tcp(&in);
            break;
        case 3:
            op_udp(&in);
            break;
        case 4:
            advance((uint64_t)(fz_u16(&in) % 1001u) * 1000u);
            break;
        default:
            run(commands[fz_u8(&in) % (sizeof(commands) / sizeof(commands[0]))]);
            break;
        }
        gp_stack_poll();
        if (arp_asked) {
            arp_asked = false;
            send_arp(2);
        }
    }
    n = count(tcp_active_pcbs);
    if (n > MAX_TCP_PCBS) {
        fz_fail("the peer holds %u TCP connections (bound %d)", n, MAX_TCP_PCBS);
    }
    teardown();
    return 0;
}
