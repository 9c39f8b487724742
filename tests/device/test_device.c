/*
 * test_device.c - gemlab's QEMU device tests, driven through qtest (no
 * firmware): MMIO on GEM0 and the SLCR, guest RAM for descriptors and
 * buffers, QMP for properties and counters, a loopback UDP socket netdev
 * for frames.  Virtual time moves only in qt_step(), so timing asserts
 * are exact.
 *
 * Usage: test_device [NAME-SUBSTRING]   (QEMU comes from $QEMU)
 * Prints one line per test and "device: N passed, M failed".
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gemlab/mii.h"
#include "gemlab/m88e1116r.h"

#include "gem_regs.h"
#include "qt.h"

/*
 * GEM0's link model: its child gemlab-link (include/hw/net/gemlab_link.h
 * in emu/qemu); -global gemlab-link.NAME=VALUE sets it (and GEM1's).
 */
#define LINK0_QOM GEM0_QOM "/gemlab-link"

#define NS_PER_US 1000ull
#define NS_PER_MS 1000000ull
#define NS_PER_S  1000000000ull

/* Guest RAM layout for the tests. */
#define TXD_BASE   0x00100000u
#define TXBUF_BASE 0x00110000u
#define RXD_BASE   0x00200000u
#define RXBUF_BASE 0x00210000u
#define BUF_STRIDE 0x800u

/* A frame of this length (no FCS) occupies 1538 byte times on the wire. */
#define FULL_FRAME_LEN 1514u
#define FULL_FRAME_WIRE_BYTES 1538u

/* Long enough for autonegotiation plus 1000BASE-T training (defaults
 * 1.5 s + 1.0 s). */
#define LINK_SETTLE_NS (3 * NS_PER_S)

static int g_fail_line;
static char g_fail_msg[512];

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            g_fail_line = __LINE__;                                       \
            snprintf(g_fail_msg, sizeof(g_fail_msg), __VA_ARGS__);        \
            return -1;                                                    \
        }                                                                 \
    } while (0)

#define CHECK_EQ(a, b)                                                    \
    CHECK((uint64_t)(a) == (uint64_t)(b), "%s == %s: got %" PRIu64        \
          " (0x%" PRIx64 "), want %" PRIu64, #a, #b, (uint64_t)(a),       \
          (uint64_t)(a), (uint64_t)(b))

/* ---- GEM helpers ---------------------------------------------------- */

/* Statistics block (UG585 B.18: 0x100 octets_tx_lo .. 0x1B0 udp checksum
 * errors), clear on read. */
#define GEM_STATS_FIRST 0x100u
#define GEM_STATS_LAST  0x1B0u

/* Read a GEM register.  A statistics register clears on read, so like
 * Linux's gem_update_stats() this returns the running total of every read
 * of it since the machine started, kept in q->gem_stats. */
static uint32_t gem_rd(struct qt *q, uint32_t off)
{
    uint32_t v = qt_readl(q, GEM0_BASE + off);

    if (off >= GEM_STATS_FIRST && off <= GEM_STATS_LAST) {
        uint64_t *acc = &q->gem_stats[(off - GEM_STATS_FIRST) / 4];
        *acc += v;
        return (uint32_t)*acc;
    }
    return v;
}

static void gem_wr(struct qt *q, uint32_t off, uint32_t v)
{
    qt_writel(q, GEM0_BASE + off, v);
}

/* One MDIO frame; steps virtual time until the management port is idle.
 * Returns the PHYMNTNC value after completion, or ~0u on a timeout. */
static uint32_t mdio_op(struct qt *q, uint32_t op, unsigned reg, uint16_t data)
{
    gem_wr(q, GEM_PHYMNTNC, GEM_PHYMNTNC_C22 | op |
           GEM_PHYMNTNC_PHY(GEM0_PHY_ADDR) | GEM_PHYMNTNC_REG(reg) |
           GEM_PHYMNTNC_MUST10 | data);
    for (int i = 0; i < 200; i++) {
        if (gem_rd(q, GEM_NWSR) & GEM_NWSR_MGMT_IDLE) {
            return gem_rd(q, GEM_PHYMNTNC);
        }
        qt_step(q, NS_PER_US);
    }
    return ~0u;
}

static uint16_t mdio_read(struct qt *q, unsigned reg)
{
    return (uint16_t)mdio_op(q, GEM_PHYMNTNC_OP_RD, reg, 0);
}

static void mdio_write(struct qt *q, unsigned reg, uint16_t val)
{
    mdio_op(q, GEM_PHYMNTNC_OP_WR, reg, val);
}

static uint64_t qom_u64(struct qt *q, const char *prop)
{
    uint64_t v = ~0ull;

    qt_qom_get_u64(q, LINK0_QOM, prop, &v);
    return v;
}

static bool qom_bool(struct qt *q, const char *prop)
{
    bool v = false;

    qt_qom_get_bool(q, LINK0_QOM, prop, &v);
    return v;
}

/* MAC configuration for @speed_mbps full duplex, promiscuous, rings set. */
static void gem_setup(struct qt *q, unsigned speed_mbps, bool fdx)
{
    uint32_t cfg = GEM_NWCFG_MDC_DIV32 | GEM_NWCFG_PROMISC;

    if (speed_mbps == 1000) {
        cfg |= GEM_NWCFG_GIGE;
    } else if (speed_mbps == 100) {
        cfg |= GEM_NWCFG_SPEED100;
    }
    if (fdx) {
        cfg |= GEM_NWCFG_FDX;
    }
    gem_wr(q, GEM_NWCFG, cfg);
    gem_wr(q, GEM_DMACFG, GEM_DMACFG_RXBUF_1536);
    gem_wr(q, GEM_RXQBASE, RXD_BASE);
    gem_wr(q, GEM_TXQBASE, TXD_BASE);
}

static void gem_enable(struct qt *q, uint32_t extra)
{
    gem_wr(q, GEM_NWCTRL, GEM_NWCTRL_MDEN | GEM_NWCTRL_TXEN |
           GEM_NWCTRL_RXEN | extra);
}

/* @n hardware-owned RX descriptors, the last one wrapping. */
static void rx_ring(struct qt *q, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint32_t d[2] = { RXBUF_BASE + i * BUF_STRIDE, 0 };

        if (i == n - 1) {
            d[0] |= RXD_W0_WRAP;
        }
        qt_memwrite(q, RXD_BASE + 8 * i, d, sizeof(d));
    }
}

/* @n frames of @len bytes ready to send, then a used descriptor. */
static void tx_ring(struct qt *q, unsigned n, unsigned len)
{
    static uint8_t frame[2048];

    memset(frame, 0xFF, 6);                        /* broadcast */
    memcpy(frame + 6, "\x02\x00\x00\x00\x00\x01", 6);
    frame[12] = 0x88;                              /* local experimental */
    frame[13] = 0xB5;
    for (unsigned i = 14; i < len; i++) {
        frame[i] = (uint8_t)i;
    }
    for (unsigned i = 0; i <= n; i++) {
        uint32_t d[2] = { TXBUF_BASE + i * BUF_STRIDE,
                          TXD_W1_LAST | (len & 0x3FFFu) };

        if (i < n) {
            frame[14] = (uint8_t)i;
            qt_memwrite(q, TXBUF_BASE + i * BUF_STRIDE, frame, len);
        } else {
            d[1] = TXD_W1_USED | TXD_W1_WRAP;
        }
        qt_memwrite(q, TXD_BASE + 8 * i, d, sizeof(d));
    }
}

/* QEMU with a 100FD partner, the GEM at 100 full, the link settled, a
 * ring of @n full-size frames and TSTART written: what the TX timing,
 * statistics and halt tests start from.  qt_start's result. */
static int tx_start_100(struct qt *q, unsigned n)
{
    if (qt_start(q, "-global gemlab-link.partner-abilities=100FD") != 0) {
        return -1;
    }
    gem_setup(q, 100, true);
    gem_enable(q, 0);
    qt_step(q, LINK_SETTLE_NS);
    tx_ring(q, n, FULL_FRAME_LEN);
    gem_enable(q, GEM_NWCTRL_TSTART);
    return 0;
}

static bool tx_desc_used(struct qt *q, unsigned i)
{
    uint32_t d[2];

    qt_memread(q, TXD_BASE + 8 * i, d, sizeof(d));
    return d[1] & TXD_W1_USED;
}

/* ---- the partner side: a UDP socket netdev on loopback ------------- */

struct partner {
    int fd;            /* we receive the GEM's frames here */
    uint16_t qemu_port;/* QEMU receives our frames here */
    char netdev[256];  /* command-line fragment */
};

static uint16_t free_udp_port(int *keep)
{
    struct sockaddr_in sa = { .sin_family = AF_INET };
    socklen_t sl = sizeof(sa);
    int fd = socket(AF_INET, SOCK_DGRAM, 0);

    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &sl) < 0) {
        return 0;
    }
    if (keep) {
        *keep = fd;
    } else {
        close(fd);
    }
    return ntohs(sa.sin_port);
}

/* The open partner, closed by the runner if a test fails early. */
static struct partner *g_partner;

static int partner_open(struct partner *p)
{
    uint16_t mine = free_udp_port(&p->fd);

    g_partner = p;

    p->qemu_port = free_udp_port(NULL);
    if (!mine || !p->qemu_port) {
        return -1;
    }
    snprintf(p->netdev, sizeof(p->netdev),
             "-netdev socket,id=n0,udp=127.0.0.1:%u,localaddr=127.0.0.1:%u "
             "-net nic,netdev=n0,model=cadence_gem", mine, p->qemu_port);
    return 0;
}

static void partner_close(struct partner *p)
{
    if (p->fd >= 0) {
        close(p->fd);
    }
    p->fd = -1;
    g_partner = NULL;
}

static void partner_send(struct partner *p, unsigned n, unsigned len)
{
    struct sockaddr_in sa = { .sin_family = AF_INET };
    uint8_t frame[2048] = { 0 };

    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = htons(p->qemu_port);
    memcpy(frame, "\x02\x00\x00\x00\x00\x02", 6);
    memcpy(frame + 6, "\x02\x00\x00\x00\x00\x03", 6);
    frame[12] = 0x88;
    frame[13] = 0xB5;
    for (unsigned i = 0; i < n; i++) {
        frame[14] = (uint8_t)i;
        sendto(p->fd, frame, len, 0, (struct sockaddr *)&sa, sizeof(sa));
    }
}

/* Ones'-complement sum (RFC 1071) of @len bytes, added to @sum. */
static uint32_t csum_add(uint32_t sum, const uint8_t *b, size_t len)
{
    for (size_t i = 0; i + 1 < len; i += 2) {
        sum += (uint32_t)b[i] << 8 | b[i + 1];
    }
    if (len & 1) {
        sum += (uint32_t)b[len - 1] << 8;
    }
    return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return (uint16_t)~sum;
}

/*
 * An Ethernet/IPv4 frame to the partner's usual addresses carrying
 * @payload bytes of TCP (proto 6) or UDP (17), both checksums correct.
 * Returns its length.
 */
static unsigned ipv4_frame(uint8_t *f, uint8_t proto, unsigned payload)
{
    unsigned l4 = (proto == 6 ? 20 : 8) + payload, tot = 20 + l4;
    uint8_t *ip = f + 14, *t = ip + 20;
    uint32_t sum;

    memset(f, 0, 14 + tot);
    memcpy(f, "\x02\x00\x00\x00\x00\x02", 6);
    memcpy(f + 6, "\x02\x00\x00\x00\x00\x03", 6);
    f[12] = 0x08;
    ip[0] = 0x45;
    ip[2] = (uint8_t)(tot >> 8);
    ip[3] = (uint8_t)tot;
    ip[6] = 0x40;                                  /* DF */
    ip[8] = 64;
    ip[9] = proto;
    memcpy(ip + 12, "\xc0\xa8\x4d\x01\xc0\xa8\x4d\x02", 8);
    t[0] = 0x13; t[1] = 0x89; t[2] = 0xc3; t[3] = 0x50;   /* 5001 -> 50000 */
    if (proto == 6) {
        t[12] = 5 << 4;                            /* data offset */
        t[13] = 0x18;                              /* PSH ACK */
    } else {
        t[4] = (uint8_t)(l4 >> 8);
        t[5] = (uint8_t)l4;
    }
    for (unsigned i = 0; i < payload; i++) {
        t[l4 - payload + i] = (uint8_t)(i * 7);
    }
    sum = csum_add(0, ip, 20);
    ip[10] = (uint8_t)(csum_fold(sum) >> 8);
    ip[11] = (uint8_t)csum_fold(sum);
    sum = csum_add(proto + l4, ip + 12, 8);
    sum = csum_add(sum, t, l4);
    t[proto == 6 ? 16 : 6] = (uint8_t)(csum_fold(sum) >> 8);
    t[proto == 6 ? 17 : 7] = (uint8_t)csum_fold(sum);
    return 14 + tot;
}

static void partner_send_frame(struct partner *p, const uint8_t *f, unsigned len)
{
    struct sockaddr_in sa = { .sin_family = AF_INET };

    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = htons(p->qemu_port);
    sendto(p->fd, f, len, 0, (struct sockaddr *)&sa, sizeof(sa));
}

/* Frames that reached the partner within @ms milliseconds of host time. */
static unsigned partner_count(struct partner *p, int ms)
{
    uint8_t buf[4096];
    unsigned n = 0;
    struct pollfd pf = { .fd = p->fd, .events = POLLIN };

    while (poll(&pf, 1, ms) > 0) {
        if (recv(p->fd, buf, sizeof(buf), 0) > 0) {
            n++;
        }
    }
    return n;
}

/* Wait (host time) until QEMU has taken @n frames from the socket. */
static int wait_rx_offered(struct qt *q, uint64_t n)
{
    for (int i = 0; i < 1000; i++) {
        if (qom_u64(q, "stat-rx-wire-sent") >= n) {
            return 0;
        }
        usleep(2000);
    }
    return -1;
}

/*
 * The RX tests' common start: the partner socket, QEMU with it plus
 * @globals (more command-line options, or NULL), the MAC at @speed_mbps
 * full duplex with @nwcfg_extra set as well, 8 RX descriptors, RX and TX
 * on, and the link settled.  A failed CHECK inside returns -1 with the
 * message set, as in a test.
 */
static int rx_start(struct qt *q, struct partner *p, const char *globals,
                    unsigned speed_mbps, uint32_t nwcfg_extra)
{
    char args[1024];

    CHECK(partner_open(p) == 0, "no UDP ports");
    snprintf(args, sizeof(args), "%s %s", p->netdev, globals ? globals : "");
    CHECK(qt_start(q, args) == 0, "QEMU did not start");
    gem_setup(q, speed_mbps, true);
    if (nwcfg_extra) {
        gem_wr(q, GEM_NWCFG, gem_rd(q, GEM_NWCFG) | nwcfg_extra);
    }
    rx_ring(q, 8);
    gem_enable(q, 0);
    qt_step(q, LINK_SETTLE_NS);
    return 0;
}

/* ---- tests ---------------------------------------------------------- */

static int test_smp2_machine_has_two_cpus(void)
{
    struct qt q;
    char resp[QT_RESP_MAX];
    int cpus = 0;

    CHECK(qt_start(&q, "-smp 2") == 0, "QEMU did not start with -smp 2");
    CHECK(qt_qmp(&q, resp, sizeof(resp),
                 "{\"execute\": \"query-cpus-fast\"}") == 0, "query failed");
    qt_stop(&q);
    for (const char *p = resp; (p = strstr(p, "\"cpu-index\"")); p++) {
        cpus++;
    }
    CHECK_EQ(cpus, 2);
    return 0;
}

static int test_mdio_phy_id_reads_88e1116r(void)
{
    struct qt q;
    uint16_t id1, id2;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_enable(&q, 0);
    id1 = mdio_read(&q, MII_PHYSID1);
    id2 = mdio_read(&q, MII_PHYSID2);
    qt_stop(&q);
    CHECK_EQ(id1, M88E1116R_PHYSID1);
    CHECK_EQ(id2 & 0xFFF0u, M88E1116R_PHYSID2);
    return 0;
}

static int test_mdio_busy_until_frame_shifted_out(void)
{
    struct qt q;
    uint32_t busy, done;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_enable(&q, 0);
    gem_wr(&q, GEM_PHYMNTNC, GEM_PHYMNTNC_C22 | GEM_PHYMNTNC_OP_RD |
           GEM_PHYMNTNC_PHY(GEM0_PHY_ADDR) | GEM_PHYMNTNC_REG(MII_PHYSID1) |
           GEM_PHYMNTNC_MUST10);
    busy = gem_rd(&q, GEM_NWSR);
    /* 64 MDC cycles at cpu_1x/32: 64 * 32 * 9 ns = 18.432 us */
    qt_step(&q, 18431);
    CHECK(!(gem_rd(&q, GEM_NWSR) & GEM_NWSR_MGMT_IDLE),
          "idle before the frame was shifted out");
    qt_step(&q, 1);
    done = gem_rd(&q, GEM_NWSR);
    qt_stop(&q);
    CHECK(!(busy & GEM_NWSR_MGMT_IDLE), "idle right after the write");
    CHECK(done & GEM_NWSR_MGMT_IDLE, "not idle after 64 MDC cycles");
    return 0;
}

static int test_mdio_without_mden_does_nothing(void)
{
    struct qt q;
    uint32_t v;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_wr(&q, GEM_NWCTRL, 0);      /* MDEN clear */
    v = mdio_op(&q, GEM_PHYMNTNC_OP_RD, MII_PHYSID1, 0);
    qt_stop(&q);
    CHECK((v & 0xFFFFu) != M88E1116R_PHYSID1,
          "PHY answered with MDEN clear (0x%08x)", v);
    return 0;
}

static int test_aneg_default_partner_resolves_1000_full(void)
{
    struct qt q;
    uint16_t ssr;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    ssr = mdio_read(&q, M88E1116R_SSR);
    CHECK_EQ(qom_u64(&q, "link-speed"), 1000);
    CHECK(qom_bool(&q, "link-full-duplex"), "not full duplex");
    qt_stop(&q);
    CHECK_EQ(ssr & M88E1116R_SSR_SPEED_MASK, M88E1116R_SSR_SPEED_1000);
    CHECK(ssr & M88E1116R_SSR_DUPLEX, "SSR says half duplex");
    CHECK(ssr & M88E1116R_SSR_LINK, "SSR says link down");
    return 0;
}

static int test_aneg_partner_100_only_resolves_100_full(void)
{
    struct qt q;
    uint16_t bmsr_early, ssr;

    CHECK(qt_start(&q, "-global gemlab-link.partner-abilities=100HD,100FD")
          == 0, "QEMU did not start");
    gem_enable(&q, 0);
    /* autonegotiation takes aneg-ns (1.5 s): not complete after 1 s */
    qt_step(&q, NS_PER_S);
    mdio_read(&q, MII_BMSR);
    bmsr_early = mdio_read(&q, MII_BMSR);
    qt_step(&q, LINK_SETTLE_NS);
    ssr = mdio_read(&q, M88E1116R_SSR);
    CHECK_EQ(qom_u64(&q, "link-speed"), 100);
    CHECK(qom_bool(&q, "link-full-duplex"), "not full duplex");
    qt_stop(&q);
    CHECK(!(bmsr_early & BMSR_ANEGCOMPLETE), "AN complete after 1 s");
    CHECK_EQ(ssr & M88E1116R_SSR_SPEED_MASK, M88E1116R_SSR_SPEED_100);
    return 0;
}

static int test_mdio_advertising_100_only_renegotiates_to_100(void)
{
    struct qt q;
    uint16_t bmcr;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    CHECK_EQ(qom_u64(&q, "link-speed"), 1000);
    /* what a driver does to limit the link: advertise 100FD only */
    mdio_write(&q, MII_ADVERTISE, ADVERTISE_CSMA | ADVERTISE_100FULL);
    mdio_write(&q, MII_CTRL1000, 0);
    bmcr = mdio_read(&q, MII_BMCR);
    mdio_write(&q, MII_BMCR, bmcr | BMCR_ANENABLE | BMCR_ANRESTART);
    qt_step(&q, LINK_SETTLE_NS);
    CHECK_EQ(qom_u64(&q, "link-speed"), 100);
    CHECK_EQ(mdio_read(&q, MII_ADVERTISE) & ADVERTISE_ALL, ADVERTISE_100FULL);
    qt_stop(&q);
    return 0;
}

static int test_aneg_partner_forced_100_parallel_detects_half(void)
{
    struct qt q;

    CHECK(qt_start(&q, "-global gemlab-link.partner-autoneg=off "
                       "-global gemlab-link.partner-speed=100 "
                       "-global gemlab-link.partner-full-duplex=on") == 0,
          "QEMU did not start");
    qt_step(&q, LINK_SETTLE_NS);
    CHECK_EQ(qom_u64(&q, "link-speed"), 100);
    /* parallel detection cannot learn the duplex: 802.3 28.2.3.1 */
    CHECK(!qom_bool(&q, "link-full-duplex"), "full duplex");
    qt_stop(&q);
    return 0;
}

/*
 * The GEM's collision statistics after 20 full-size frames from the partner
 * and 8 of ours offered at the same instant, at 100 Mb/s.  @regs gets
 * 0x138 single, 0x13C multiple, 0x140 excessive, 0x144 late collision
 * frames and 0x148 deferred frames (UG585 appendix B); @model the wire
 * model's deferred and late counts for our direction.
 */
static int collision_run(const char *globals, uint32_t regs[5], uint64_t model[2])
{
    struct qt q;
    struct partner p;

    if (rx_start(&q, &p, globals, 100, 0)) {
        return -1;
    }
    CHECK_EQ(qom_u64(&q, "link-speed"), 100);
    partner_send(&p, 20, FULL_FRAME_LEN);
    CHECK(wait_rx_offered(&q, 20) == 0, "QEMU did not take the frames");
    tx_ring(&q, 8, FULL_FRAME_LEN);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, 200 * NS_PER_MS);
    for (unsigned i = 0; i < 5; i++) {
        regs[i] = gem_rd(&q, 0x138u + 4u * i);
    }
    model[0] = qom_u64(&q, "stat-tx-wire-deferred");
    model[1] = qom_u64(&q, "stat-tx-wire-late-collisions");
    qt_stop(&q);
    partner_close(&p);
    return 0;
}

/*
 * Duplex mismatch: the partner is forced to 100 full, so our PHY
 * parallel-detects 100 half (IEEE 802.3 28.2.3.1).  Our half-duplex MAC
 * starts together with the partner's burst and collides (CSMA/CD,
 * 4.2.3.2; the partner, full duplex, never defers), and the collision
 * statistics show it.  With both sides at 100 full nothing is counted.
 */
static int test_half_duplex_mismatch_counts_collisions(void)
{
    uint32_t r[5], c[5];
    uint64_t m[2], mc[2];

    if (collision_run("-global gemlab-link.partner-autoneg=off "
                      "-global gemlab-link.partner-speed=100 "
                      "-global gemlab-link.partner-full-duplex=on", r, m)) {
        return -1;
    }
    if (collision_run("-global gemlab-link.partner-abilities=100FD", c, mc)) {
        return -1;
    }
    CHECK(r[0] + r[1] + r[2] + r[3] >= 1,
          "no collision counted: single %u multi %u excessive %u late %u",
          r[0], r[1], r[2], r[3]);
    CHECK_EQ(r[4], m[0]);
    CHECK_EQ(r[3], m[1]);
    for (unsigned i = 0; i < 5; i++) {
        CHECK(c[i] == 0, "full duplex: 0x%x counts %u", 0x138u + 4u * i, c[i]);
    }
    CHECK_EQ(mc[0] + mc[1], 0);
    return 0;
}

static int test_bmsr_link_latches_low_until_read(void)
{
    struct qt q;
    uint16_t first, second, up1;
    char resp[512];

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    mdio_read(&q, MII_BMSR);
    up1 = mdio_read(&q, MII_BMSR);
    CHECK(qt_qom_set(&q, LINK0_QOM, "link", "false", resp, sizeof(resp)) == 0,
          "qom-set link: %.300s", resp);
    qt_step(&q, NS_PER_MS);
    CHECK(qt_qom_set(&q, LINK0_QOM, "link", "true", resp, sizeof(resp)) == 0,
          "qom-set link: %.300s", resp);
    qt_step(&q, LINK_SETTLE_NS);
    CHECK(qom_bool(&q, "link-up"), "link did not come back");
    first = mdio_read(&q, MII_BMSR);
    second = mdio_read(&q, MII_BMSR);
    qt_stop(&q);
    CHECK(up1 & BMSR_LSTATUS, "link not up before the flap");
    CHECK(!(first & BMSR_LSTATUS), "first read after the flap shows up");
    CHECK(second & BMSR_LSTATUS, "second read still shows down");
    return 0;
}

static int test_link_flap_via_qom_set_renegotiates(void)
{
    struct qt q;
    char resp[512];
    uint64_t changes0;
    bool down, early;

    CHECK(qt_start(&q, "-global gemlab-link.partner-abilities=100FD") == 0,
          "QEMU did not start");
    qt_step(&q, LINK_SETTLE_NS);
    CHECK(qom_bool(&q, "link-up"), "link not up at start");
    changes0 = qom_u64(&q, "link-changes");
    qt_qom_set(&q, LINK0_QOM, "link", "false", resp, sizeof(resp));
    qt_step(&q, 1);
    down = !qom_bool(&q, "link-up");
    qt_qom_set(&q, LINK0_QOM, "link", "true", resp, sizeof(resp));
    qt_step(&q, NS_PER_S);               /* shorter than aneg-ns */
    early = qom_bool(&q, "link-up");
    qt_step(&q, NS_PER_S);
    CHECK(qom_bool(&q, "link-up"), "link not back after 2 s");
    CHECK_EQ(qom_u64(&q, "link-changes"), changes0 + 2);
    qt_stop(&q);
    CHECK(down, "link still up after link=false");
    CHECK(!early, "link back before autonegotiation could finish");
    return 0;
}

/* UG585 B.18: the statistics registers clear when read, so a driver
 * accumulates them (Linux gem_update_stats); a second read returns 0. */
static int test_stats_registers_clear_on_read(void)
{
    enum { N = 4 };
    const uint64_t t = (uint64_t)FULL_FRAME_WIRE_BYTES * 80;
    struct qt q;
    uint32_t first, second;

    CHECK(tx_start_100(&q, N) == 0, "QEMU did not start");
    qt_step(&q, (N + 2) * t);
    first = qt_readl(&q, GEM0_BASE + GEM_FRAMES_TX);
    second = qt_readl(&q, GEM0_BASE + GEM_FRAMES_TX);
    qt_stop(&q);
    CHECK_EQ(first, N);
    CHECK_EQ(second, 0);
    return 0;
}

/*
 * Statistics registers (UG585 B.18): read only unless network_control bit
 * 7 is set; bit 5 clears them all (Linux macb_reset_hw() on every open),
 * bit 6 adds one to each.  Raw reads: each clears the register.
 */
static int test_stats_clear_increment_and_write_enable(void)
{
    enum { N = 3 };
    struct qt q;
    uint32_t before, cleared, written, incremented, enabled;

    CHECK(tx_start_100(&q, N) == 0, "QEMU did not start");
    qt_step(&q, (N + 2) * (uint64_t)FULL_FRAME_WIRE_BYTES * 80);
    before = qt_readl(&q, GEM0_BASE + GEM_OCTETS_TX_LO);
    tx_ring(&q, N, FULL_FRAME_LEN);
    gem_wr(&q, GEM_TXQBASE, TXD_BASE);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, (N + 2) * (uint64_t)FULL_FRAME_WIRE_BYTES * 80);
    gem_enable(&q, GEM_NWCTRL_CLRSTAT);
    cleared = qt_readl(&q, GEM0_BASE + GEM_FRAMES_TX);
    gem_wr(&q, GEM_FRAMES_TX, 0x1234);
    written = qt_readl(&q, GEM0_BASE + GEM_FRAMES_TX);
    gem_enable(&q, GEM_NWCTRL_INCSTAT);
    incremented = qt_readl(&q, GEM0_BASE + GEM_OVERSIZE_RX);
    gem_enable(&q, GEM_NWCTRL_WESTAT);
    gem_wr(&q, GEM_FRAMES_TX, 7);
    enabled = qt_readl(&q, GEM0_BASE + GEM_FRAMES_TX);
    qt_stop(&q);
    CHECK_EQ(before, N * FULL_FRAME_LEN);
    CHECK_EQ(cleared, 0);
    CHECK_EQ(written, 0);
    CHECK_EQ(incremented, 1);
    CHECK_EQ(enabled, 7);
    return 0;
}

/*
 * Multicast is the destination's I/G bit (IEEE 802.3 3.2.3.1) without
 * broadcast: an IPv6 group (33:33:...) counts in tx/rx multicast (0x110,
 * 0x160) as an IPv4 one (01:00:5e:...) does; a broadcast does not.
 */
static int test_multicast_counters_follow_the_group_bit(void)
{
    static const uint8_t dst[3][6] = {
        { 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 },
        { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },
        { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
    };
    struct qt q;
    uint32_t mtx, mrx, frx;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_setup(&q, 100, true);
    rx_ring(&q, 8);
    tx_ring(&q, 3, 100);
    for (unsigned i = 0; i < 3; i++) {
        qt_memwrite(&q, TXBUF_BASE + i * BUF_STRIDE, dst[i], 6);
    }
    gem_enable(&q, GEM_NWCTRL_LOOPBACK_LOCAL);
    gem_enable(&q, GEM_NWCTRL_LOOPBACK_LOCAL | GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    mtx = gem_rd(&q, GEM_MCAST_TX);
    mrx = gem_rd(&q, GEM_MCAST_RX);
    frx = gem_rd(&q, GEM_FRAMES_RX);
    qt_stop(&q);
    CHECK_EQ(frx, 3);
    CHECK_EQ(mtx, 2);
    CHECK_EQ(mrx, 2);
    return 0;
}

/*
 * A frame longer than NWCFG allows (1518 here) is dropped and counted in
 * "oversize frames received" (0x188).  ISR bit 6 is the transmit path's
 * AHB error, which Linux answers with a TX ring reset (macb_interrupt,
 * MACB_TX_ERR_FLAGS): a frame from the wire must not raise it.
 */
static int test_rx_oversize_frame_counted_without_tx_error(void)
{
    struct qt q;
    struct partner p;
    uint32_t isr, over, rxcnt;

    if (rx_start(&q, &p, NULL, 1000, 0)) {
        return -1;
    }
    gem_wr(&q, GEM_IER, GEM_ISR_TX_AHB_ERR);
    partner_send(&p, 1, 1600);
    partner_send(&p, 1, 200);
    CHECK(wait_rx_offered(&q, 2) == 0, "QEMU did not take the frames");
    qt_step(&q, NS_PER_MS);
    isr = qt_readl(&q, GEM0_BASE + GEM_ISR);
    over = gem_rd(&q, GEM_OVERSIZE_RX);
    rxcnt = gem_rd(&q, GEM_FRAMES_RX);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(isr & GEM_ISR_TX_AHB_ERR, 0);
    CHECK_EQ(over, 1);
    CHECK_EQ(rxcnt, 1);
    return 0;
}

/*
 * A clause 45 frame (ST = 00, IEEE 802.3 45.3) is not for the 88E1116R, a
 * clause 22 PHY (22.2.4.5): a write to "register 4" changes nothing, a
 * read returns all ones.
 */
static int test_mdio_clause45_frames_leave_the_phy_alone(void)
{
    struct qt q;
    uint16_t anar_before, anar_after;
    uint32_t c45_read;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_setup(&q, 1000, true);
    gem_enable(&q, 0);
    anar_before = mdio_read(&q, 4);
    gem_wr(&q, GEM_PHYMNTNC, GEM_PHYMNTNC_OP_WR | GEM_PHYMNTNC_PHY(GEM0_PHY_ADDR) |
           GEM_PHYMNTNC_REG(4) | GEM_PHYMNTNC_MUST10 | 0x0001);
    qt_step(&q, 100 * NS_PER_US);
    gem_wr(&q, GEM_PHYMNTNC, GEM_PHYMNTNC_OP_RD | GEM_PHYMNTNC_PHY(GEM0_PHY_ADDR) |
           GEM_PHYMNTNC_REG(2) | GEM_PHYMNTNC_MUST10);
    qt_step(&q, 100 * NS_PER_US);
    c45_read = gem_rd(&q, GEM_PHYMNTNC) & 0xFFFFu;
    anar_after = mdio_read(&q, 4);
    qt_stop(&q);
    CHECK(anar_before != 0x0001, "ANAR reads 0x0001 before the test");
    CHECK_EQ(anar_after, anar_before);
    CHECK_EQ(c45_read, 0xFFFF);
    return 0;
}

/*
 * Interrupt enable and disable are write only (read 0); the mask holds
 * bits 26:0 (UG585 B.18).
 */
static int test_interrupt_enable_disable_read_zero_mask_27_bits(void)
{
    struct qt q;
    uint32_t ier, idr, imr;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_wr(&q, GEM_IDR, 0xFFFFFFFFu);
    imr = gem_rd(&q, GEM_IMR);
    gem_wr(&q, GEM_IER, 0xFFFFFFFFu);
    ier = gem_rd(&q, GEM_IER);
    idr = gem_rd(&q, GEM_IDR);
    qt_stop(&q);
    CHECK_EQ(imr, 0x07FFFFFF);
    CHECK_EQ(ier, 0);
    CHECK_EQ(idr, 0);
    return 0;
}

/*
 * Linux's macb_halt_tx(): THALT, then poll transmit go (TXSTATUS bit 3)
 * until the frame on the wire has finished, then rewrite the ring.  TGO
 * reads 1 while the DMA runs; after THALT the frame being sent completes
 * and no further one starts; TSTART goes on from the next descriptor.
 */
static int test_tx_halt_finishes_the_frame_and_clears_tgo(void)
{
    enum { N = 4 };
    const uint64_t t = (uint64_t)FULL_FRAME_WIRE_BYTES * 80;   /* 100 Mb/s */
    struct qt q;
    uint32_t tgo_running, tgo_halting, tgo_halted, tgo_idle;
    bool first, second_after_halt;
    uint64_t sent_halted, sent_all;

    CHECK(tx_start_100(&q, N) == 0, "QEMU did not start");
    qt_step(&q, t / 2);
    tgo_running = qt_readl(&q, GEM0_BASE + GEM_TXSR) & GEM_TXSR_TGO;
    gem_enable(&q, GEM_NWCTRL_THALT);
    tgo_halting = qt_readl(&q, GEM0_BASE + GEM_TXSR) & GEM_TXSR_TGO;
    qt_step(&q, t / 2 + 1);
    first = tx_desc_used(&q, 0);
    tgo_halted = qt_readl(&q, GEM0_BASE + GEM_TXSR) & GEM_TXSR_TGO;
    qt_step(&q, 3 * t);
    second_after_halt = tx_desc_used(&q, 1);
    sent_halted = qom_u64(&q, "stat-tx-frames");
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, N * t);
    sent_all = qom_u64(&q, "stat-tx-frames");
    tgo_idle = qt_readl(&q, GEM0_BASE + GEM_TXSR) & GEM_TXSR_TGO;
    qt_stop(&q);
    CHECK(tgo_running, "TGO reads 0 while a frame is on the wire");
    CHECK(tgo_halting, "TGO reads 0 before the halted frame has finished");
    CHECK(first, "the frame on the wire at THALT was not handed back");
    CHECK(!tgo_halted, "TGO still 1 after the halt took effect");
    CHECK(!second_after_halt, "a frame was sent after THALT");
    CHECK_EQ(sent_halted, 1);
    CHECK_EQ(sent_all, N);
    CHECK(!tgo_idle, "TGO reads 1 with the ring sent");
    return 0;
}

static int test_tx_100m_frames_leave_at_line_rate(void)
{
    enum { N = 8 };
    const uint64_t t = (uint64_t)FULL_FRAME_WIRE_BYTES * 80; /* 123040 ns */
    struct qt q;
    bool used_at_start, used_before_first, first_done;
    uint64_t before_last, after_last;

    CHECK(tx_start_100(&q, N) == 0, "QEMU did not start");
    CHECK_EQ(qom_u64(&q, "link-speed"), 100);     /* a QOM read: no virtual time passes */
    used_at_start = tx_desc_used(&q, 0);
    qt_step(&q, t - 1);
    used_before_first = tx_desc_used(&q, 0);
    qt_step(&q, 1);
    first_done = tx_desc_used(&q, 0) && !tx_desc_used(&q, 1);
    qt_step(&q, (N - 1) * t - 1);
    before_last = qom_u64(&q, "stat-tx-frames");
    qt_step(&q, 1);
    after_last = qom_u64(&q, "stat-tx-frames");
    CHECK_EQ(gem_rd(&q, GEM_FRAMES_TX), N);
    qt_stop(&q);
    CHECK(!used_at_start, "descriptor handed back inside the TSTART write");
    CHECK(!used_before_first, "frame 0 done before 1538 byte times");
    CHECK(first_done, "frame 0 not done at exactly 1538 byte times");
    CHECK_EQ(before_last, N - 1);
    CHECK_EQ(after_last, N);
    return 0;
}

static int test_tx_link_down_frames_lost_but_completed(void)
{
    struct qt q;
    struct partner p;
    char resp[512];
    unsigned got;

    CHECK(partner_open(&p) == 0, "no UDP ports");
    CHECK(qt_start(&q, p.netdev) == 0, "QEMU did not start");
    gem_setup(&q, 1000, true);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    qt_qom_set(&q, LINK0_QOM, "link", "false", resp, sizeof(resp));
    tx_ring(&q, 3, 100);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    CHECK_EQ(qom_u64(&q, "stat-tx-frames"), 3);
    CHECK_EQ(qom_u64(&q, "stat-tx-wire-dropped-link-down"), 3);
    got = partner_count(&p, 200);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(got, 0);
    return 0;
}

static int test_rx_matching_mac_config_receives(void)
{
    struct qt q;
    struct partner p;
    uint32_t rxcnt, fcs;

    if (rx_start(&q, &p, NULL, 1000, 0)) {
        return -1;
    }
    partner_send(&p, 3, 200);
    CHECK(wait_rx_offered(&q, 3) == 0, "QEMU did not take the frames");
    qt_step(&q, NS_PER_MS);
    rxcnt = gem_rd(&q, GEM_FRAMES_RX);
    fcs = gem_rd(&q, GEM_FCS_ERRORS);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(rxcnt, 3);
    CHECK_EQ(fcs, 0);
    return 0;
}

/*
 * Receiver off (NWCTRL.RXEN clear): the GEM ignores arriving frames and no
 * GEM counter moves (as on silicon); the model counts each one in
 * stat-rx-disabled-drops, so every frame the wire delivered is accounted
 * for.  Turning RX on again receives normally and the count stays.
 */
static int test_rx_disabled_frames_counted_by_model_only(void)
{
    struct qt q;
    struct partner p;
    uint32_t rx_off, fcs_off, res_off, rx_on;
    uint64_t drops_off, drops_on, deliv;

    if (rx_start(&q, &p, NULL, 1000, 0)) {
        return -1;
    }
    /* QEMU holds netdev frames while RX is off (gem_can_receive), so the
     * frames go onto the wire with RX on and the driver turns RX off
     * while they are in flight (virtual time stands still until qt_step) */
    partner_send(&p, 5, 200);
    CHECK(wait_rx_offered(&q, 5) == 0, "QEMU did not take the frames");
    gem_wr(&q, GEM_NWCTRL, GEM_NWCTRL_MDEN | GEM_NWCTRL_TXEN);
    qt_step(&q, NS_PER_MS);
    rx_off = gem_rd(&q, GEM_FRAMES_RX);
    fcs_off = gem_rd(&q, GEM_FCS_ERRORS);
    res_off = gem_rd(&q, GEM_RX_RESOURCE_ERRORS);
    drops_off = qom_u64(&q, "stat-rx-disabled-drops");
    gem_enable(&q, 0);
    partner_send(&p, 3, 200);
    CHECK(wait_rx_offered(&q, 8) == 0, "QEMU did not take the frames");
    qt_step(&q, NS_PER_MS);
    rx_on = gem_rd(&q, GEM_FRAMES_RX);
    drops_on = qom_u64(&q, "stat-rx-disabled-drops");
    deliv = qom_u64(&q, "stat-rx-wire-delivered");
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(rx_off, 0);
    CHECK_EQ(fcs_off, 0);
    CHECK_EQ(res_off, 0);
    CHECK_EQ(drops_off, 5);
    CHECK_EQ(rx_on, 3);
    CHECK_EQ(drops_on, 5);
    CHECK_EQ(deliv, 8);
    return 0;
}

/*
 * Octet counters in the silicon layout (UG585 B.18): 0x150 holds bits
 * 31:0 of octets received, 0x154 bits 47:32; 0x100/0x104 the same for
 * transmit.  Stock QEMU swapped the halves (0x150 = bits 63:32).
 */
static int test_octet_counters_low_word_first_like_silicon(void)
{
    struct qt q;
    struct partner p;
    uint32_t rx_lo, rx_hi, tx_lo, tx_hi, rxcnt, txcnt;

    CHECK(partner_open(&p) == 0, "no UDP ports");
    CHECK(qt_start(&q, p.netdev) == 0, "QEMU did not start");
    gem_setup(&q, 1000, true);
    rx_ring(&q, 8);
    tx_ring(&q, 2, 300);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    partner_send(&p, 3, 200);
    CHECK(wait_rx_offered(&q, 3) == 0, "QEMU did not take the frames");
    qt_step(&q, NS_PER_MS);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    rxcnt = gem_rd(&q, GEM_FRAMES_RX);
    txcnt = gem_rd(&q, GEM_FRAMES_TX);
    rx_lo = qt_readl(&q, GEM0_BASE + GEM_OCTETS_RX_LO);
    rx_hi = qt_readl(&q, GEM0_BASE + GEM_OCTETS_RX_HI);
    tx_lo = qt_readl(&q, GEM0_BASE + GEM_OCTETS_TX_LO);
    tx_hi = qt_readl(&q, GEM0_BASE + GEM_OCTETS_TX_HI);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(rxcnt, 3);
    CHECK_EQ(txcnt, 2);
    CHECK_EQ(rx_hi, 0);
    CHECK_EQ(tx_hi, 0);
    CHECK(rx_lo == 3 * 200 || rx_lo == 3 * 204, "octets rx low %u, want 600 or 612", rx_lo);
    CHECK(tx_lo == 2 * 300 || tx_lo == 2 * 304, "octets tx low %u, want 600 or 608", tx_lo);
    return 0;
}

static int test_rx_starved_ring_drops_and_counts_resource_errors(void)
{
    struct qt q;
    struct partner p;
    uint32_t rxcnt, res, rxsr;

    CHECK(partner_open(&p) == 0, "no UDP ports");
    CHECK(qt_start(&q, p.netdev) == 0, "QEMU did not start");
    gem_setup(&q, 1000, true);
    rx_ring(&q, 2);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    partner_send(&p, 5, 200);
    CHECK(wait_rx_offered(&q, 5) == 0, "QEMU did not take the frames");
    qt_step(&q, NS_PER_MS);
    rxcnt = gem_rd(&q, GEM_FRAMES_RX);
    res = gem_rd(&q, GEM_RX_RESOURCE_ERRORS);
    rxsr = gem_rd(&q, GEM_RXSR);
    CHECK_EQ(qom_u64(&q, "stat-rx-resource-drops"), 3);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(rxcnt, 2);
    CHECK_EQ(res, 3);
    CHECK(rxsr & GEM_RXSR_BNA, "RXSTATUS buffer-not-available clear");
    return 0;
}

/*
 * Refill an 8-descriptor ring and offer @n frames in batches of 8, each
 * batch received before the next; returns the frames the GEM stored.
 */
static unsigned rx_batches(struct qt *q, struct partner *p, unsigned n,
                           unsigned len)
{
    uint32_t before = gem_rd(q, GEM_FRAMES_RX);
    uint64_t offered = qom_u64(q, "stat-rx-wire-sent");

    for (unsigned done = 0; done < n; done += 8) {
        unsigned k = n - done < 8 ? n - done : 8;

        rx_ring(q, 8);
        gem_wr(q, GEM_RXQBASE, RXD_BASE);
        gem_enable(q, 0);
        partner_send(p, k, len);
        offered += k;
        if (wait_rx_offered(q, offered) != 0) {
            break;
        }
        qt_step(q, NS_PER_MS);
    }
    return gem_rd(q, GEM_FRAMES_RX) - before;
}

/*
 * Loss changed while frames flow (gemlab fault set loss): frames keep
 * arriving, about the configured fraction is lost, and setting it back
 * to none restores every frame.
 */
static int test_rx_loss_changed_at_runtime_keeps_frames_flowing(void)
{
    struct qt q;
    struct partner p;
    char resp[1024];
    unsigned got0, got50, got_after;
    uint64_t sent, deliv, lost;

    CHECK(partner_open(&p) == 0, "no UDP ports");
    CHECK(qt_start(&q, p.netdev) == 0, "QEMU did not start");
    gem_setup(&q, 1000, true);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    got0 = rx_batches(&q, &p, 40, 300);
    CHECK(qt_qom_set(&q, LINK0_QOM, "wire-loss", "\"50\"", resp,
                     sizeof(resp)) == 0, "qom-set wire-loss: %.200s", resp);
    got50 = rx_batches(&q, &p, 400, 300);
    sent = qom_u64(&q, "stat-rx-wire-sent");
    deliv = qom_u64(&q, "stat-rx-wire-delivered");
    lost = qom_u64(&q, "stat-rx-wire-dropped-loss");
    CHECK(qt_qom_set(&q, LINK0_QOM, "rx-loss-pct", "0", resp,
                     sizeof(resp)) == 0, "qom-set rx-loss-pct: %.200s", resp);
    CHECK(qt_qom_set(&q, LINK0_QOM, "wire-loss", "\"none\"", resp,
                     sizeof(resp)) == 0, "qom-set wire-loss none: %.200s", resp);
    got_after = rx_batches(&q, &p, 40, 300);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(got0, 40);
    CHECK_EQ(sent, 440);
    CHECK_EQ(deliv + lost, 440);
    /* 400 frames at 50 %: 200 +- 5 sigma (sigma 10) */
    CHECK(lost >= 150 && lost <= 250, "lost %" PRIu64 " of 400 at 50%%",
          lost);
    CHECK_EQ(got50, 400 - lost);
    CHECK_EQ(got_after, 40);
    return 0;
}

/*
 * rx-starve-ns at run time: during the burst every frame is dropped as
 * with an exhausted ring (0x1A0, RXSTATUS BNA) although the ring has
 * free descriptors; after it frames are stored again.
 */
static int test_rx_starve_ns_burst_drops_then_recovers(void)
{
    struct qt q;
    struct partner p;
    char resp[1024];
    unsigned before, during, after;
    uint32_t res, rxsr, isr;
    uint64_t left, starve_drops, res_drops;

    CHECK(partner_open(&p) == 0, "no UDP ports");
    CHECK(qt_start(&q, p.netdev) == 0, "QEMU did not start");
    gem_setup(&q, 1000, true);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    gem_wr(&q, GEM_IER, GEM_ISR_RX_USED);
    before = rx_batches(&q, &p, 8, 200);
    gem_rd(&q, GEM_ISR);                         /* clear on read */
    CHECK(qt_qom_set(&q, LINK0_QOM, "rx-starve-ns", "10000000", resp,
                     sizeof(resp)) == 0, "qom-set rx-starve-ns: %.200s",
          resp);
    left = qom_u64(&q, "rx-starve-ns");
    during = rx_batches(&q, &p, 16, 200);        /* 2 ms of the 10 */
    res = gem_rd(&q, GEM_RX_RESOURCE_ERRORS);
    rxsr = gem_rd(&q, GEM_RXSR);
    isr = gem_rd(&q, GEM_ISR);
    starve_drops = qom_u64(&q, "stat-rx-starve-drops");
    res_drops = qom_u64(&q, "stat-rx-resource-drops");
    qt_step(&q, 10 * NS_PER_MS);                 /* the burst ends */
    CHECK_EQ(qom_u64(&q, "rx-starve-ns"), 0);
    after = rx_batches(&q, &p, 8, 200);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(before, 8);
    CHECK_EQ(left, 10000000);
    CHECK_EQ(during, 0);
    CHECK_EQ(res, 16);
    CHECK_EQ(starve_drops, 16);
    CHECK_EQ(res_drops, 16);
    CHECK(rxsr & GEM_RXSR_BNA, "RXSTATUS buffer-not-available clear");
    CHECK(isr & GEM_ISR_RX_USED, "ISR RX used not raised");
    CHECK_EQ(after, 8);
    return 0;
}

static int test_rx_backpressure_on_holds_frames_like_stock(void)
{
    struct qt q;
    struct partner p;
    uint32_t res, rxcnt_full, rxcnt_after;

    char extra[400];

    CHECK(partner_open(&p) == 0, "no UDP ports");
    snprintf(extra, sizeof(extra),
             "%s -global gemlab-link.rx-backpressure=on", p.netdev);
    CHECK(qt_start(&q, extra) == 0, "QEMU did not start");
    gem_setup(&q, 1000, true);
    rx_ring(&q, 2);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    partner_send(&p, 4, 200);
    usleep(200000);
    qt_step(&q, NS_PER_MS);
    rxcnt_full = gem_rd(&q, GEM_FRAMES_RX);
    res = gem_rd(&q, GEM_RX_RESOURCE_ERRORS);
    /* hand both buffers back and re-enable RX: the held frames arrive */
    rx_ring(&q, 2);
    gem_enable(&q, 0);
    usleep(200000);
    qt_step(&q, NS_PER_MS);
    rxcnt_after = gem_rd(&q, GEM_FRAMES_RX);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(rxcnt_full, 2);
    CHECK_EQ(res, 0);
    CHECK_EQ(rxcnt_after, 4);
    return 0;
}

static int test_rx_corruption_counts_fcs_errors_and_discards(void)
{
    struct qt q;
    struct partner p;
    uint32_t rxcnt, fcs;

    if (rx_start(&q, &p, "-global gemlab-link.rx-corrupt-pct=100", 1000, 0)) {
        return -1;
    }
    partner_send(&p, 4, 300);
    CHECK(wait_rx_offered(&q, 4) == 0, "QEMU did not take the frames");
    qt_step(&q, NS_PER_MS);
    rxcnt = gem_rd(&q, GEM_FRAMES_RX);
    fcs = gem_rd(&q, GEM_FCS_ERRORS);
    CHECK_EQ(qom_u64(&q, "stat-rx-wire-corrupted"), 4);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(fcs, 4);
    CHECK_EQ(rxcnt, 0);
    return 0;
}

/*
 * RGMII timing from registers (models/gemlab/phy.h rgmii_timing): on a
 * board without PCB delays (the default pcb-*-delay=off, as the ZC702) the
 * PHY's power-on page 2 register 21 (no delay, phy-mode "rgmii") skews RX
 * at 1000, so frames fail FCS at the skew rate (100 % here); once the
 * guest sets the RX delay bit over MDIO (as Linux does for "rgmii-id",
 * marvell.c m88e1121_config_aneg_rgmii_delays) they arrive intact.  The
 * skew percentage alone corrupts nothing (rgmii-timing off: the control).
 */
static int rgmii_rx_run(const char *globals, bool set_delay, uint32_t *fcs, uint32_t *rx)
{
    struct qt q;
    struct partner p;

    if (rx_start(&q, &p, globals, 1000, 0)) {
        return -1;
    }
    if (set_delay) {
        mdio_write(&q, 22, 2);
        mdio_write(&q, 21, 0x0030);
        mdio_write(&q, 22, 0);
    }
    partner_send(&p, 4, 300);
    CHECK(wait_rx_offered(&q, 4) == 0, "QEMU did not take the frames");
    qt_step(&q, NS_PER_MS);
    *rx = gem_rd(&q, GEM_FRAMES_RX);
    *fcs = gem_rd(&q, GEM_FCS_ERRORS);
    qt_stop(&q);
    partner_close(&p);
    return 0;
}

static int test_rgmii_delay_from_phy_bits_corrupts_rx_at_1000(void)
{
    static const char on[] = "-global gemlab-link.rgmii-timing=on "
                             "-global gemlab-link.rx-skew-crc-pct=100";
    uint32_t fcs, rx;

    if (rgmii_rx_run(on, false, &fcs, &rx)) {
        return -1;
    }
    CHECK(fcs == 4 && rx == 0, "no RX delay: fcs %u rx %u (want 4, 0)", fcs, rx);
    if (rgmii_rx_run(on, true, &fcs, &rx)) {
        return -1;
    }
    CHECK(fcs == 0 && rx == 4, "RX delay set: fcs %u rx %u (want 0, 4)", fcs, rx);
    if (rgmii_rx_run("-global gemlab-link.rx-skew-crc-pct=100", false, &fcs, &rx)) {
        return -1;
    }
    CHECK(fcs == 0 && rx == 4, "timing not modelled: fcs %u rx %u (want 0, 4)", fcs, rx);
    return 0;
}

/*
 * Receive checksum offload (NWCFG bit 24, UG585 16.2.4): good TCP and UDP
 * frames land with descriptor word 1 bits 23:22 = 2 and 3; a frame with a
 * bad TCP checksum and one with a bad IPv4 header checksum are discarded,
 * each counted in its own GEM register (0x1AC, 0x1A8) and by the model,
 * and use no descriptor.  Sent in the order good TCP, bad TCP, bad IP,
 * good UDP, so the good UDP frame must be in descriptor 1.
 */
static int test_rx_csum_offload_marks_good_and_discards_bad(void)
{
    struct qt q;
    struct partner p;
    uint8_t f[4][2048];
    unsigned len[4];
    uint32_t d0[2], d1[2], d2[2], rxcnt, ipe, tcpe, udpe;

    len[0] = ipv4_frame(f[0], 6, 1000);
    len[1] = ipv4_frame(f[1], 6, 1000);
    f[1][14 + 20 + 20 + 5] ^= 0x01;                 /* a payload bit */
    len[2] = ipv4_frame(f[2], 6, 100);
    f[2][14 + 8] = 63;                             /* TTL, header sum stale */
    len[3] = ipv4_frame(f[3], 17, 500);
    if (rx_start(&q, &p, NULL, 1000, GEM_NWCFG_RX_CSUM)) {
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        partner_send_frame(&p, f[i], len[i]);
    }
    CHECK(wait_rx_offered(&q, 4) == 0, "QEMU did not take the frames");
    qt_step(&q, NS_PER_MS);
    rxcnt = gem_rd(&q, GEM_FRAMES_RX);
    ipe = gem_rd(&q, GEM_RX_IP_CSUM_ERRORS);
    tcpe = gem_rd(&q, GEM_RX_TCP_CSUM_ERRORS);
    udpe = gem_rd(&q, GEM_RX_UDP_CSUM_ERRORS);
    qt_memread(&q, RXD_BASE, d0, sizeof(d0));
    qt_memread(&q, RXD_BASE + 8, d1, sizeof(d1));
    qt_memread(&q, RXD_BASE + 16, d2, sizeof(d2));
    CHECK_EQ(qom_u64(&q, "stat-rx-csum-drops"), 2);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(rxcnt, 2);
    CHECK_EQ(ipe, 1);
    CHECK_EQ(tcpe, 1);
    CHECK_EQ(udpe, 0);
    CHECK(d0[0] & RXD_W0_OWNED_SW, "descriptor 0 not used");
    CHECK_EQ(RXD_W1_CSUM(d0[1]), 2);
    CHECK_EQ(d0[1] & RXD_W1_LEN_MASK, len[0] + 4);      /* FCS kept */
    CHECK(d1[0] & RXD_W0_OWNED_SW, "descriptor 1 not used");
    CHECK_EQ(RXD_W1_CSUM(d1[1]), 3);
    CHECK_EQ(d1[1] & RXD_W1_LEN_MASK, len[3] + 4);
    CHECK(!(d2[0] & RXD_W0_OWNED_SW), "a discarded frame used descriptor 2");
    return 0;
}

/*
 * Offload off (the reset value): nothing is checked, so the same bad-TCP
 * frame is received like any other, with bits 23:22 = 0, and the checksum
 * counters stay 0 - the guest's stack is the one to reject it.
 */
static int test_rx_csum_offload_off_passes_bad_checksum_unmarked(void)
{
    struct qt q;
    struct partner p;
    uint8_t f[2048];
    unsigned len = ipv4_frame(f, 6, 1000);
    uint32_t d0[2], rxcnt, tcpe;

    f[14 + 20 + 20 + 5] ^= 0x01;
    if (rx_start(&q, &p, NULL, 1000, 0)) {
        return -1;
    }
    partner_send_frame(&p, f, len);
    CHECK(wait_rx_offered(&q, 1) == 0, "QEMU did not take the frame");
    qt_step(&q, NS_PER_MS);
    rxcnt = gem_rd(&q, GEM_FRAMES_RX);
    tcpe = gem_rd(&q, GEM_RX_TCP_CSUM_ERRORS);
    qt_memread(&q, RXD_BASE, d0, sizeof(d0));
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(rxcnt, 1);
    CHECK_EQ(tcpe, 0);
    CHECK_EQ(RXD_W1_CSUM(d0[1]), 0);
    return 0;
}

static int test_mac_100_on_phy_1000_fails_and_counts(void)
{
    struct qt q;
    struct partner p;
    uint32_t rxcnt, fcs;
    unsigned got;

    if (rx_start(&q, &p, NULL, 100, 0)) {    /* firmware forgot GIGE */
        return -1;
    }
    CHECK_EQ(qom_u64(&q, "link-speed"), 1000);
    CHECK(!qom_bool(&q, "mac-matches-phy"), "mismatch not detected");
    partner_send(&p, 3, 200);
    CHECK(wait_rx_offered(&q, 3) == 0, "QEMU did not take the frames");
    tx_ring(&q, 2, 200);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    rxcnt = gem_rd(&q, GEM_FRAMES_RX);
    fcs = gem_rd(&q, GEM_FCS_ERRORS);
    CHECK_EQ(qom_u64(&q, "stat-tx-mismatch-drops"), 2);
    got = partner_count(&p, 200);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(rxcnt, 0);
    CHECK_EQ(fcs, 3);
    CHECK_EQ(got, 0);
    return 0;
}

static int test_bad_property_at_startup_exits_naming_range(void)
{
    char err[4096];
    int rc;

    rc = qt_run_expect_exit("-global gemlab-link.rx-loss-pct=150", err,
                            sizeof(err));
    CHECK(rc > 0, "QEMU did not exit with an error (rc %d)", rc);
    CHECK(strstr(err, "rx-loss-pct") && strstr(err, "[0, 100]"),
          "message lacks the name or range: %.300s", err);
    rc = qt_run_expect_exit("-global gemlab-link.partner-abilities=100XD",
                            err, sizeof(err));
    CHECK(rc > 0, "bad abilities accepted");
    CHECK(strstr(err, "partner-abilities") != NULL, "message: %.300s", err);
    return 0;
}

/*
 * The link is a QOM object of its own: each GEM's child "gemlab-link"
 * holds the model's properties (-global gemlab-link.NAME reaches both
 * GEMs' links at creation, qom-set one of them); the GEM has none.
 */
static int test_link_object_is_each_gems_own_child(void)
{
    struct qt q;
    char resp[QT_RESP_MAX];
    uint64_t a0 = 0, a1 = 0;
    int rc_gem, rc_list;

    CHECK(qt_start(&q, "-global gemlab-link.aneg-ns=12345678") == 0,
          "QEMU did not start");
    CHECK(qt_qom_set(&q, LINK0_QOM, "aneg-ns", "5000000", resp,
                     sizeof(resp)) == 0, "qom-set: %.200s", resp);
    qt_qom_get_u64(&q, LINK0_QOM, "aneg-ns", &a0);
    qt_qom_get_u64(&q, "/machine/gem1/gemlab-link", "aneg-ns", &a1);
    rc_gem = qt_qmp(&q, resp, sizeof(resp), "{\"execute\": \"qom-get\", "
                    "\"arguments\": {\"path\": \"" GEM0_QOM "\", "
                    "\"property\": \"aneg-ns\"}}");
    rc_list = qt_qmp(&q, resp, sizeof(resp), "{\"execute\": \"qom-list\", "
                     "\"arguments\": {\"path\": \"" GEM0_QOM "\"}}");
    qt_stop(&q);
    CHECK_EQ(a0, 5000000);
    CHECK_EQ(a1, 12345678);
    CHECK(rc_gem == 1, "the GEM still has the model's aneg-ns");
    CHECK(rc_list == 0 && strstr(resp, "\"child<gemlab-link>\""),
          "no child<gemlab-link> under the GEM: %.300s", resp);
    return 0;
}

/* A link comes only with its GEM: -device gemlab-link is refused. */
static int test_link_object_alone_is_refused(void)
{
    char err[4096];
    int rc;

    rc = qt_run_expect_exit("-device gemlab-link", err, sizeof(err));
    CHECK(rc > 0, "-device gemlab-link accepted (rc %d)", rc);
    CHECK(strstr(err, "gemlab-link") != NULL, "message: %.300s", err);
    return 0;
}

static int test_bad_property_at_runtime_rejected_machine_runs(void)
{
    struct qt q;
    char resp[QT_RESP_MAX], desc[512];
    int rc;
    uint64_t aneg = 0;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    rc = qt_qom_set(&q, LINK0_QOM, "tx-loss-pct", "150", resp, sizeof(resp));
    qt_qmp_desc(resp, desc, sizeof(desc));
    CHECK(rc == 1, "qom-set of 150 %% accepted: %.300s", resp);
    CHECK(strstr(desc, "tx-loss-pct") && strstr(desc, "[0, 100]"),
          "error lacks the name or range: %.300s", desc);
    rc = qt_qom_set(&q, LINK0_QOM, "aneg-ns", "0", resp, sizeof(resp));
    CHECK(rc == 1, "aneg-ns=0 accepted");
    CHECK(qt_qom_set(&q, LINK0_QOM, "tx-loss-pct", "2.5", resp,
                     sizeof(resp)) == 0, "good value refused: %.300s", resp);
    CHECK(qt_qmp(&q, resp, sizeof(resp), "{\"execute\": \"query-status\"}")
          == 0, "QEMU gone after the rejected value");
    qt_qom_get_u64(&q, LINK0_QOM, "aneg-ns", &aneg);
    qt_stop(&q);
    CHECK(aneg > 0, "aneg-ns changed by a rejected set");
    return 0;
}

static int test_qmp_set_link_off_forces_phy_link_down(void)
{
    struct qt q;
    char resp[QT_RESP_MAX];
    uint16_t bmsr;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    CHECK(qom_bool(&q, "link-up"), "link not up");
    CHECK(qt_qmp(&q, resp, sizeof(resp), "{\"execute\": \"set_link\", "
                 "\"arguments\": {\"name\": \"cadence_gem.0\", \"up\": false}}")
          == 0, "set_link: %.300s", resp);
    qt_step(&q, NS_PER_MS);
    mdio_read(&q, MII_BMSR);
    bmsr = mdio_read(&q, MII_BMSR);
    CHECK(!qom_bool(&q, "link-up"), "PHY link still up");
    qt_stop(&q);
    CHECK(!(bmsr & BMSR_LSTATUS), "BMSR still shows link");
    return 0;
}

static int test_rx_100m_frames_arrive_at_line_rate(void)
{
    enum { N = 5 };
    const uint64_t t = (uint64_t)FULL_FRAME_WIRE_BYTES * 80;
    struct qt q;
    struct partner p;
    uint32_t before, first, all;

    if (rx_start(&q, &p, "-global gemlab-link.partner-abilities=100FD", 100, 0)) {
        return -1;
    }
    partner_send(&p, N, FULL_FRAME_LEN);
    CHECK(wait_rx_offered(&q, N) == 0, "QEMU did not take the frames");
    qt_step(&q, t - 1);
    before = gem_rd(&q, GEM_FRAMES_RX);
    qt_step(&q, 1);
    first = gem_rd(&q, GEM_FRAMES_RX);
    qt_step(&q, (N - 1) * t);
    all = gem_rd(&q, GEM_FRAMES_RX);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(before, 0);
    CHECK_EQ(first, 1);
    CHECK_EQ(all, N);
    return 0;
}

/*
 * docs/SECURITY.md Q9: a TX buffer the guest placed in the linear QSPI
 * window (0xFC000000, UG585 table 4-1) 3 bytes before the end of a 1 KiB
 * line.  gem_transmit()'s DMA read reaches xilinx_spips's lqspi_read(),
 * whose 4-byte access there never fitted its 1 KiB cache: it reloaded
 * the same line forever and QEMU hung (generic-fuzz, CI 2026-12-02).
 * Patch 0044 reads such an access a byte at a time: the frame goes out.
 */
static int test_tx_buffer_at_qspi_cache_line_end_does_not_hang(void)
{
    const uint32_t d[4] = { 0xFC0003FDu, TXD_W1_LAST | 100u, 0, TXD_W1_USED | TXD_W1_WRAP };
    struct qt q;
    uint64_t sent;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_setup(&q, 1000, true);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    qt_memwrite(&q, TXD_BASE, d, sizeof(d));
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    sent = qom_u64(&q, "stat-tx-frames");
    CHECK(tx_desc_used(&q, 0), "descriptor not back: the DMA read did not return");
    qt_stop(&q);
    CHECK_EQ(sent, 1);
    return 0;
}

static int test_tx_latency_delays_delivery_to_partner(void)
{
    const uint64_t lat = 2 * NS_PER_MS;
    struct qt q;
    uint64_t early, late;

    CHECK(qt_start(&q, "-global gemlab-link.tx-latency-ns=2000000") == 0,
          "QEMU did not start");
    gem_setup(&q, 1000, true);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    tx_ring(&q, 1, 100);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, lat);                 /* tx done + latency > lat */
    early = qom_u64(&q, "stat-tx-wire-delivered");
    CHECK(tx_desc_used(&q, 0), "descriptor not back after the frame left");
    qt_step(&q, NS_PER_MS);
    late = qom_u64(&q, "stat-tx-wire-delivered");
    qt_stop(&q);
    CHECK_EQ(early, 0);
    CHECK_EQ(late, 1);
    return 0;
}

static int test_tx_dup_100_delivers_every_frame_twice(void)
{
    struct qt q;
    struct partner p;
    char extra[400];
    unsigned got;

    CHECK(partner_open(&p) == 0, "no UDP ports");
    snprintf(extra, sizeof(extra), "%s -global gemlab-link.tx-dup-pct=100",
             p.netdev);
    CHECK(qt_start(&q, extra) == 0, "QEMU did not start");
    gem_setup(&q, 1000, true);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    tx_ring(&q, 3, 100);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    got = partner_count(&p, 300);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(got, 6);
    return 0;
}

/* Walk a pcapng file: count EPBs by direction, CRC-error flag, comment. */
struct pcap_summary {
    unsigned epb, inbound_crc, outbound_dropped, outbound_ok;
};

static int pcap_scan(const char *path, struct pcap_summary *ps)
{
    static uint8_t buf[1 << 20];
    FILE *f = fopen(path, "rb");
    size_t n, off = 0;

    memset(ps, 0, sizeof(*ps));
    if (!f) {
        return -1;
    }
    n = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    while (off + 12 <= n) {
        uint32_t type, len;

        memcpy(&type, buf + off, 4);
        memcpy(&len, buf + off + 4, 4);
        if (len < 12 || off + len > n) {
            return -1;
        }
        if (type == 6) {
            uint32_t caplen, flags = 0;
            size_t o;
            bool dropped = false;

            memcpy(&caplen, buf + off + 20, 4);
            o = off + 28 + ((caplen + 3) & ~3u);
            while (o + 4 <= off + len - 4) {
                uint16_t code, olen;

                memcpy(&code, buf + o, 2);
                memcpy(&olen, buf + o + 2, 2);
                if (code == 0) {
                    break;
                }
                if (code == 2) {
                    memcpy(&flags, buf + o + 4, 4);
                } else if (code == 1) {
                    dropped = olen >= 8 && !memcmp(buf + o + 4, "dropped:", 8);
                }
                o += 4 + ((olen + 3u) & ~3u);
            }
            ps->epb++;
            if ((flags & 3) == 1 && (flags & BITU(24))) {  /* CRC error */
                ps->inbound_crc++;
            }
            if ((flags & 3) == 2) {
                if (dropped) {
                    ps->outbound_dropped++;
                } else {
                    ps->outbound_ok++;
                }
            }
        }
        off += len;
    }
    return 0;
}

static int test_pcap_flags_corrupted_and_dropped_frames(void)
{
    struct qt q;
    struct partner p;
    char extra[600], path[64], dir[] = "/tmp/gemlab-pcap-XXXXXX";
    struct pcap_summary ps;
    bool offered, scanned;

    /* QEMU creates the file (it refuses an existing one) */
    CHECK(mkdtemp(dir), "mkdtemp");
    snprintf(path, sizeof(path), "%s/wire.pcapng", dir);
    snprintf(extra, sizeof(extra), "-global gemlab-link.pcap=%s "
                                   "-global gemlab-link.rx-corrupt-pct=100", path);
    if (rx_start(&q, &p, extra, 1000, 0)) {
        rmdir(dir);
        return -1;
    }
    /* 2 frames out intact, then 2 lost (tx-loss-pct=100), 3 in corrupted */
    tx_ring(&q, 2, 100);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    qt_qom_set(&q, LINK0_QOM, "tx-loss-pct", "100", NULL, 0);
    tx_ring(&q, 2, 100);
    gem_wr(&q, GEM_TXQBASE, TXD_BASE);
    gem_wr(&q, GEM_NWCTRL, 0);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    partner_send(&p, 3, 200);
    offered = wait_rx_offered(&q, 3) == 0;
    qt_step(&q, NS_PER_MS);
    qt_stop(&q);
    partner_close(&p);
    scanned = pcap_scan(path, &ps) == 0;
    /* removed before any check can return: a failing run leaves no
     * /tmp/gemlab-pcap-* behind */
    unlink(path);
    rmdir(dir);
    CHECK(offered, "QEMU did not take the frames");
    CHECK(scanned, "pcapng unreadable");
    CHECK_EQ(ps.outbound_ok, 2);
    CHECK_EQ(ps.outbound_dropped, 2);
    CHECK_EQ(ps.inbound_crc, 3);
    CHECK_EQ(ps.epb, 7);
    return 0;
}

static int test_phy_loopback_returns_tx_frames_to_rx(void)
{
    struct qt q;
    char resp[512];
    uint32_t rxcnt;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_setup(&q, 1000, true);
    rx_ring(&q, 8);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    CHECK(qt_qom_set(&q, LINK0_QOM, "phy-loopback", "true", resp,
                     sizeof(resp)) == 0, "phy-loopback: %.300s", resp);
    qt_step(&q, NS_PER_MS);
    tx_ring(&q, 2, 100);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    rxcnt = gem_rd(&q, GEM_FRAMES_RX);
    CHECK_EQ(qom_u64(&q, "stat-tx-wire-sent"), 0);
    qt_stop(&q);
    CHECK_EQ(rxcnt, 2);
    return 0;
}

static int test_cable_2pair_without_downshift_never_links(void)
{
    struct qt q;
    bool up;

    CHECK(qt_start(&q, "-global gemlab-link.cable=2pair") == 0,
          "QEMU did not start");
    qt_step(&q, 10 * NS_PER_S);
    up = qom_bool(&q, "link-up");
    qt_stop(&q);
    CHECK(!up, "1000BASE-T linked over two pairs");
    return 0;
}

static int test_cable_2pair_with_downshift_links_at_100(void)
{
    struct qt q;

    CHECK(qt_start(&q, "-global gemlab-link.cable=2pair "
                       "-global gemlab-link.downshift=on "
                       "-global gemlab-link.downshift-attempts=2") == 0,
          "QEMU did not start");
    /* 2 failed 1000BASE-T rounds (2 x 2.5 s), then 100 (1.5 s) */
    qt_step(&q, 10 * NS_PER_S);
    CHECK(qom_bool(&q, "link-up"), "no link after downshift");
    CHECK_EQ(qom_u64(&q, "link-speed"), 100);
    CHECK(qom_bool(&q, "link-downshifted"), "not reported as downshifted");
    qt_stop(&q);
    return 0;
}

/* max-speed=100: a 10/100 PHY (no 1000BASE-T, BMSR bit 8 clear, no
 * register 15) links at 100 full with the default 1000-capable partner,
 * without a downshift. */
static int test_phy_max_speed_100_links_at_100_without_1000_registers(void)
{
    struct qt q;
    uint16_t bmsr, esr;

    CHECK(qt_start(&q, "-global gemlab-link.max-speed=100") == 0, "QEMU did not start");
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    bmsr = mdio_read(&q, MII_BMSR);
    esr = mdio_read(&q, 15);
    CHECK(qom_bool(&q, "link-up"), "no link");
    CHECK_EQ(qom_u64(&q, "link-speed"), 100);
    CHECK(!qom_bool(&q, "link-downshifted"), "reported as downshifted");
    qt_stop(&q);
    CHECK(!(bmsr & 0x0100), "BMSR 0x%04x claims extended status", bmsr);
    CHECK(bmsr & 0x6000, "BMSR 0x%04x lost its 100BASE-TX abilities", bmsr);
    CHECK_EQ(esr, 0);
    return 0;
}

static int test_cable_plugged_at_runtime_brings_link_up(void)
{
    struct qt q;
    char resp[512], state[64];
    bool up_before;

    CHECK(qt_start(&q, "-global gemlab-link.cable=none") == 0,
          "QEMU did not start");
    qt_step(&q, LINK_SETTLE_NS);
    up_before = qom_bool(&q, "link-up");
    qt_qom_get_str(&q, LINK0_QOM, "phy-state", state, sizeof(state));
    CHECK(qt_qom_set(&q, LINK0_QOM, "cable", "\"4pair\"", resp,
                     sizeof(resp)) == 0, "cable: %.300s", resp);
    qt_step(&q, LINK_SETTLE_NS);
    CHECK(qom_bool(&q, "link-up"), "no link after plugging the cable");
    qt_stop(&q);
    CHECK(!up_before, "link up without a cable");
    CHECK(!strcmp(state, "no-signal"), "phy-state '%s'", state);
    return 0;
}

/* guest/smp_release.S, assembled (see there). */
static const uint32_t smp_release_guest[] = {
    0xe3a00000, 0xe28f1058, 0xe28f2070, 0xe4913004,
    0xe4803004, 0xe1510002, 0x3afffffb, 0xe3000000,
    0xe34f0800, 0xe30d1f0d, 0xe5801008, 0xe3002244,
    0xe3a01022, 0xe7801002, 0xe3a01020, 0xe7801002,
    0xe3a01000, 0xe7801002, 0xe3000000, 0xe34e0000,
    0xe3001114, 0xe5801000, 0xe3a01041, 0xe5801030,
    0xeafffffe, 0xe3000000, 0xe34e0000, 0xe3001114,
    0xe5801000, 0xe3a01042, 0xe5801030, 0xeafffffe,
};
/* the three "str r1, [r0, r2]" to A9_CPU_RST_CTRL */
static const unsigned smp_release_slcr_writes[] = { 13, 15, 17 };
#define ARM_NOP 0xe320f000u

/*
 * Run @words as a raw image under TCG with -smp 2 until the UART shows
 * @want characters (or @ms of host time pass), then @linger_ms more; the
 * UART output in @out.
 */
static int run_tcg_guest(const uint32_t *words, size_t n, size_t want,
                         int ms, int linger_ms, char *out, size_t outlen)
{
    char img[] = "/tmp/gemlab-guest-XXXXXX";
    char ser[] = "/tmp/gemlab-serial-XXXXXX";
    char serarg[64];
    int fi = mkstemp(img), fs = mkstemp(ser);
    size_t got = 0;
    pid_t pid;

    out[0] = '\0';
    if (fi < 0 || fs < 0 || write(fi, words, n * 4) != (ssize_t)(n * 4)) {
        return -1;
    }
    close(fi);
    close(fs);
    snprintf(serarg, sizeof(serarg), "file:%s", ser);
    pid = fork();
    if (pid == 0) {
        int nul = open("/dev/null", O_RDWR);

        dup2(nul, 0);
        dup2(nul, 1);
        dup2(nul, 2);
        execlp(qt_qemu(), qt_qemu(), "-M", "xilinx-zynq-a9,flash=off",
               "-smp", "2", "-display", "none", "-nodefaults", "-m", "64M",
               "-serial", serarg, "-kernel", img, (char *)NULL);
        _exit(127);
    }
    for (int t = 0; t < ms + linger_ms; t += 20) {
        FILE *f;

        if (got >= want && linger_ms <= 0) {
            break;
        }
        if (got >= want) {
            linger_ms -= 20;
        }
        usleep(20000);
        f = fopen(ser, "r");
        if (f) {
            got = fread(out, 1, outlen - 1, f);
            out[got] = '\0';
            fclose(f);
        }
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    unlink(img);
    unlink(ser);
    return 0;
}

/*
 * Runs a TCG guest until it has printed as many bytes as @want, 10 s at
 * most, and checks that it printed exactly @want.  @why says what each
 * answer means, for the failure message.
 */
static int guest_prints(const uint32_t *words, size_t n, const char *want,
                        const char *why)
{
    char out[64];

    CHECK(run_tcg_guest(words, n, strlen(want), 10000, 0, out, sizeof(out))
          == 0, "cannot run the guest");
    CHECK(!strcmp(out, want), "the guest printed '%s': want '%s' (%s)", out,
          want, why);
    return 0;
}

#define GUEST_PRINTS(guest, want, why) \
    guest_prints(guest, sizeof(guest) / sizeof(guest[0]), want, why)

static int test_smp_cpu1_runs_only_after_slcr_release(void)
{
    uint32_t held[sizeof(smp_release_guest) / 4];
    char out[64];
    size_t n = sizeof(held) / 4;

    CHECK(run_tcg_guest(smp_release_guest, n, 2, 10000, 0, out, sizeof(out))
          == 0, "cannot run the guest");
    CHECK(strchr(out, 'A') && strchr(out, 'B') && strlen(out) == 2,
          "with the SLCR release the UART shows '%s', want A and B once",
          out);
    /* same guest without the SLCR writes: CPU1 must stay parked */
    memcpy(held, smp_release_guest, sizeof(held));
    for (size_t i = 0; i < 3; i++) {
        held[smp_release_slcr_writes[i]] = ARM_NOP;
    }
    CHECK(run_tcg_guest(held, n, 1, 10000, 500, out, sizeof(out)) == 0,
          "cannot run the guest");
    CHECK(!strcmp(out, "A"), "without the release the UART shows '%s'", out);
    return 0;
}

/* guest/dma_cpu_private.S, assembled (see there). */
static const uint32_t dma_cpu_private_guest[] = {
    0xe3a00811, 0xe59f1094, 0xe3a02010, 0xe4801004,
    0xe2522001, 0x1afffffc, 0xe3a00601, 0xe3a01811,
    0xe5801000, 0xe59f1078, 0xe5801004, 0xe59f1074,
    0xe5801008, 0xe59f1070, 0xe580100c, 0xe3a03812,
    0xe59f1068, 0xe5831000, 0xe3a01000, 0xe5831004,
    0xe59f205c, 0xe59f105c, 0xe5821004, 0xe5823018,
    0xe582001c, 0xe59f1050, 0xe5821000, 0xe3a03401,
    0xe2533001, 0x1afffffd, 0xe59f0040, 0xe5904000,
    0xe3a0020e, 0xe3a01f45, 0xe5801000, 0xe3540000,
    0x03a01041, 0x13a01058, 0xe5801030, 0xeafffffe,
    0x01010101, 0x00008040, 0xf8f00100, 0x40008010,
    0xf8f00202, 0xe000b000, 0x00080010, 0x0000020e,
    0xf8f00208,
};

/*
 * A guest points GEM0's DMA at the MPCore private region (a TX buffer at
 * the GIC CPU interface, a loopback RX buffer at the global timer).  Only
 * the CPUs reach that region (ARM DDI 0407 1.5, UG585 4.1 Table 4-1), and
 * the device's DMA runs from timers on the main loop, where the GIC and
 * global timer found no CPU: QEMU died of SIGSEGV.  Under TCG (qtest
 * answers for CPU 0, so it cannot show this), the guest must live on, and
 * the frame written to the global timer must not have reached it.
 */
static int test_dma_to_cpu_private_region_is_refused(void)
{
    return GUEST_PRINTS(dma_cpu_private_guest, "A",
                        "QEMU alive, the global timer untouched; 'X': the "
                        "DMA reached it, nothing: QEMU died or hung");
}

/* guest/dma_sdhci_private.S, assembled (see there). */
static const uint32_t dma_sdhci_private_guest[] = {
    0xe3a00601, 0xe3a01001, 0xe3a02000, 0xe5801000,
    0xe5802004, 0xe5801008, 0xe580200c, 0xe5801010,
    0xe5802014, 0xe5801018, 0xe580201c, 0xe3a01031,
    0xe5801020, 0xe59f105c, 0xe5801024, 0xe59f2058,
    0xe59f1058, 0xe582102c, 0xe3a01010, 0xe5821028,
    0xe5820058, 0xe59f1048, 0xe5821004, 0xe59f1044,
    0xe582100c, 0xe3a03401, 0xe2533001, 0x1afffffd,
    0xe5924054, 0xe2044003, 0xe3a0020e, 0xe3a01f45,
    0xe5801000, 0xe3540001, 0x03a01041, 0x13a01058,
    0xe5801030, 0xeafffffe, 0xf8f00200, 0xe0100000,
    0x000e0005, 0x00010200, 0x18200001,
};

/* guest/dma_ehci_private.S, assembled (see there). */
static const uint32_t dma_ehci_private_guest[] = {
    0xe59f2050, 0xe59f1050, 0xe5821018, 0xe59f104c,
    0xe5821000, 0xe3a03401, 0xe2533001, 0x1afffffd,
    0xe5924004, 0xe5925000, 0xe2044a01, 0xe2055001,
    0xe2244a01, 0xe1844005, 0xe3a0020e, 0xe3a01f45,
    0xe5801000, 0xe3540000, 0x03a01041, 0x13a01058,
    0xe5801030, 0xeafffffe, 0xe0002140, 0xf8f00200,
    0x00080021,
};

/*
 * The same region through the board's other bus masters (docs/SECURITY.md
 * Q11): an SDHCI ADMA2 chain that links into the global timer, and an
 * EHCI asynchronous list that starts there.  Both devices fetch from a
 * timer or bottom half on the main loop, and QEMU died of SIGSEGV.  The
 * board's gate (patch 0048) answers them with a bus error: the guest
 * lives, and the fetch did happen: SDHCI stopped in ST_FDS, and EHCI,
 * which read no queue head there, reset itself.
 */
static int test_sdhci_adma_to_cpu_private_region_is_refused(void)
{
    return GUEST_PRINTS(dma_sdhci_private_guest, "A",
                        "QEMU alive, the ADMA stopped fetching a "
                        "descriptor; 'X': it did not, nothing: QEMU died or "
                        "hung");
}

static int test_ehci_async_list_in_cpu_private_region_is_refused(void)
{
    return GUEST_PRINTS(dma_ehci_private_guest, "A",
                        "QEMU alive, the controller fetched the list and "
                        "reset itself; 'X': it did not, nothing: QEMU died "
                        "or hung");
}

/* guest/cpu_private.S, assembled (see there). */
static const uint32_t cpu_private_guest[] = {
    0xe59f2040, 0xe3a01001, 0xe5821008, 0xe3a03601,
    0xe2533001, 0x1afffffd, 0xe5924000, 0xe5925008,
    0xe3a0020e, 0xe3a01f45, 0xe5801000, 0xe3540000,
    0x03a01030, 0x13a01031, 0xe5801030, 0xe2851040,
    0xe5801030, 0xeafffffe, 0xf8f00200,
};

/* The control: the CPU itself still reaches the region through the gate. */
static int test_cpu_reaches_its_private_region(void)
{
    return GUEST_PRINTS(cpu_private_guest, "1A",
                        "the global timer it enabled counts, its control "
                        "reads back 1");
}

/*
 * Stock devices of the board that a guest hung or aborted
 * (docs/SECURITY.md Q12, patches 0049-0051).  Each guest checks the
 * device's own answer after it: the PL330 channel still executing its
 * endless program, SDHCI's ADMA error for a block size of 0, the QSPI
 * RX overflow flag.
 */
/* guest/pl330_loop.S, assembled (see there). */
static const uint32_t pl330_loop_guest[] = {
    0xe3a00601, 0xe3a01028, 0xe5801000, 0xe59f2044,
    0xe3a018a2, 0xe5821d08, 0xe5820d0c, 0xe3a01000,
    0xe5821d04, 0xe3a03601, 0xe2533001, 0x1afffffd,
    0xe5924100, 0xe204400f, 0xe3a0020e, 0xe3a01f45,
    0xe5801000, 0xe3540001, 0x03a01041, 0x13a01058,
    0xe5801030, 0xeafffffe, 0xf8003000,
};

static int test_pl330_endless_program_leaves_qemu_alive(void)
{
    return GUEST_PRINTS(pl330_loop_guest, "A",
                        "QEMU alive, channel 0 still executing; 'X': it is "
                        "not, nothing: QEMU hung");
}

/* guest/sdhci_adma_bs0.S, assembled (see there). */
static const uint32_t sdhci_adma_bs0_guest[] = {
    0xe3a00601, 0xe3a01031, 0xe5801000, 0xe5800004,
    0xe59f2078, 0xe59f1078, 0xe582102c, 0xe3a01010,
    0xe5821028, 0xe5820058, 0xe3a01c02, 0xe5821004,
    0xe59f1060, 0xe582100c, 0xe3a03601, 0xe2533001,
    0x1afffffd, 0xe3a01000, 0xe5821004, 0xe59f1048,
    0xe3a04602, 0xe5804004, 0xe5801000, 0xe3a03401,
    0xe2533001, 0x1afffffd, 0xe5924054, 0xe2044007,
    0xe3a0020e, 0xe3a01f45, 0xe5801000, 0xe3540007,
    0x03a01041, 0x13a01058, 0xe5801030, 0xeafffffe,
    0xe0100000, 0x000e0005, 0x18200001, 0x02000021,
};

static int test_sdhci_adma_block_size_0_stops(void)
{
    return GUEST_PRINTS(sdhci_adma_bs0_guest, "A",
                        "QEMU alive, an ADMA length mismatch in ST_TFR; "
                        "'X': not that, nothing: QEMU hung");
}

/* guest/qspi_stripe.S, assembled (see there). */
static const uint32_t qspi_stripe_guest[] = {
    0xe59f2068, 0xe3a01206, 0xe58210a0, 0xe3a01b1e,
    0xe5821000, 0xe3a01001, 0xe5821014, 0xe3a0100b,
    0xe5821080, 0xe3a01000, 0xe5821080, 0xe5821080,
    0xe5821080, 0xe5821080, 0xe3a03e19, 0xe5821080,
    0xe2533001, 0x1afffffc, 0xe5924004, 0xe2044001,
    0xe3a0020e, 0xe3a01f45, 0xe5801000, 0xe3540001,
    0x03a01041, 0x13a01058, 0xe5801030, 0xeafffffe,
    0xe000d000,
};

static int test_qspi_striped_rx_overflow_is_flagged(void)
{
    return GUEST_PRINTS(qspi_stripe_guest, "A",
                        "QEMU alive, RX overflow flagged; 'X': not flagged, "
                        "nothing: QEMU aborted");
}

static int test_link_change_emits_qmp_event(void)
{
    struct qt q;
    char resp[512];
    bool up_event, down_event;

    CHECK(qt_start(&q, "-global gemlab-link.partner-abilities=100FD") == 0,
          "QEMU did not start");
    qt_step(&q, LINK_SETTLE_NS);
    up_event = qt_event_seen(&q, "\"GEMLAB_LINK_CHANGE\"",
                             "\"device\": \"/machine/gem0\"",
                             "\"up\": true", "\"speed\": 100", NULL);
    qt_qom_set(&q, LINK0_QOM, "link", "false", resp, sizeof(resp));
    down_event = qt_event_seen(&q, "\"GEMLAB_LINK_CHANGE\"",
                               "\"device\": \"/machine/gem0\"",
                               "\"up\": false", NULL);
    qt_stop(&q);
    CHECK(up_event, "no link-up event for gem0 at 100");
    CHECK(down_event, "no link-down event");
    return 0;
}

/* ---- docs/SECURITY.md: guest-reachable device bugs (Q1-Q7) ---------- */

/* A TX descriptor of 64-bit addressing: address low, control, address
 * high, unused (UG585 16.3.6 with dma_cfg bit 30). */
#define Q1_DSCP 0x2Eu

/*
 * docs/SECURITY.md Q1: a type 1 screener routes DSCP 0x2E to queue @qn on a GEM
 * with one queue, 64-bit descriptors, PROMISC | FCS_REMOVE, local
 * loopback.  The TX descriptor's words 2-3 are guest data (0x41414141),
 * followed by 16 zero bytes: stock 7.2 read "queue 8"'s RX descriptor
 * from tx_desc_addr[0] into rx_desc[8], over the device's state pointer.
 * Returns 0 when the frame was dropped and counted and QEMU still works.
 */
static int screener_queue_case(unsigned qn)
{
    struct qt q;
    uint8_t frame[64] = { 0 };
    uint32_t txd[8] = { TXBUF_BASE, TXD_W1_WRAP | TXD_W1_LAST | 64u, 0,
                        0x41414141u, 0, 0, 0, 0 };
    uint32_t rxd[4] = { RXBUF_BASE | RXD_W0_WRAP, 0, 0, 0 };
    uint32_t back[4], rx_used;
    uint64_t drops = ~0ull;
    bool up;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    memset(frame, 0xFF, 6);
    memcpy(frame + 6, "\x02\x00\x00\x00\x00\x01", 6);
    frame[12] = 0x08;                          /* IPv4 */
    frame[14] = 0x45;
    frame[15] = Q1_DSCP;                       /* IPv4 DS field */
    qt_memwrite(&q, TXBUF_BASE, frame, sizeof(frame));
    qt_memwrite(&q, TXD_BASE, txd, sizeof(txd));
    qt_memwrite(&q, RXD_BASE, rxd, sizeof(rxd));
    gem_wr(&q, GEM_DMACFG, GEM_DMACFG_RXBUF_1536 | GEM_DMACFG_ADDR64);
    gem_wr(&q, GEM_TXQBASE, TXD_BASE);
    gem_wr(&q, GEM_RXQBASE, RXD_BASE);
    gem_wr(&q, GEM_SCREEN_T1_0, GEM_SCREEN_T1_DSTC_EN |
           GEM_SCREEN_T1_DSTC(Q1_DSCP) | qn);
    gem_wr(&q, GEM_NWCFG, GEM_NWCFG_MDC_DIV32 | GEM_NWCFG_PROMISC |
           GEM_NWCFG_FCS_REMOVE);
    gem_wr(&q, GEM_NWCTRL, GEM_NWCTRL_RXEN | GEM_NWCTRL_TXEN |
           GEM_NWCTRL_LOOPBACK_LOCAL);
    gem_wr(&q, GEM_NWCTRL, GEM_NWCTRL_RXEN | GEM_NWCTRL_TXEN |
           GEM_NWCTRL_LOOPBACK_LOCAL | GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);        /* 64 bytes at 10 Mb/s: 70.4 us */
    if (qt_qom_get_bool(&q, LINK0_QOM, "link-up", &up) != 0) {
        char st[64];

        usleep(100000);
        CHECK(0, "queue %u: QEMU no longer answers QOM after the frame "
              "(QEMU %s)", qn, qt_status(&q, st, sizeof(st)));
    }
    CHECK(qt_qom_get_u64(&q, LINK0_QOM, "stat-rx-queue-drops", &drops) == 0,
          "queue %u: %.200s", qn, q.last_err);
    rx_used = gem_rd(&q, GEM_FRAMES_RX);
    qt_memread(&q, TXD_BASE, back, sizeof(back));
    qt_memread(&q, RXD_BASE, rxd, sizeof(rxd));
    qt_stop(&q);
    CHECK(drops == 1, "queue %u: stat-rx-queue-drops %" PRIu64 ", want 1",
          qn, drops);
    CHECK(rx_used == 0, "queue %u: frames_rx %u, want 0", qn, rx_used);
    CHECK(!(rxd[0] & RXD_W0_OWNED_SW), "queue %u: the frame went to queue 0",
          qn);
    CHECK(back[1] & TXD_W1_USED, "queue %u: TX descriptor not handed back",
          qn);
    CHECK(back[0] == TXBUF_BASE && back[3] == 0x41414141u,
          "queue %u: TX descriptor overwritten by RX DMA (0x%08x .. 0x%08x)",
          qn, back[0], back[3]);
    return 0;
}

static int test_rx_screener_queue_out_of_range(void)
{
    for (unsigned qn = 8; qn <= 15; qn++) {
        if (screener_queue_case(qn)) {
            return -1;
        }
    }
    return 0;
}

/* @len-byte frame looped back (local loopback) into RX descriptor 0,
 * whose buffer is pre-filled with 0xA5; @nwcfg_extra adds to NWCFG. */
static void loopback_one(struct qt *q, unsigned len, uint32_t nwcfg_extra)
{
    uint8_t fill[128];

    gem_setup(q, 100, true);
    if (nwcfg_extra) {
        gem_wr(q, GEM_NWCFG, gem_rd(q, GEM_NWCFG) | nwcfg_extra);
    }
    rx_ring(q, 8);
    memset(fill, 0xA5, sizeof(fill));
    qt_memwrite(q, RXBUF_BASE, fill, sizeof(fill));
    tx_ring(q, 1, len);
    gem_enable(q, GEM_NWCTRL_LOOPBACK_LOCAL);
    gem_enable(q, GEM_NWCTRL_LOOPBACK_LOCAL | GEM_NWCTRL_TSTART);
    qt_step(q, NS_PER_MS);
}

/*
 * docs/SECURITY.md Q2: a 1-byte frame looped back with FCS stripping off.  Stock
 * 7.2 padded the length to 60 but copied 60 bytes out of a 1-byte heap
 * buffer into guest RAM; the MAC pads short frames with zeros (IEEE
 * 802.3 clause 4.2.3.3), so bytes 1..59 must read 0.
 */
static int test_rx_short_loopback_frame_is_zero_padded(void)
{
    struct qt q;
    uint8_t buf[64];
    uint32_t d[2];

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    loopback_one(&q, 1, 0);
    qt_memread(&q, RXD_BASE, d, sizeof(d));
    qt_memread(&q, RXBUF_BASE, buf, sizeof(buf));
    qt_stop(&q);
    CHECK(d[0] & RXD_W0_OWNED_SW, "the looped-back frame was not received");
    CHECK_EQ(d[1] & RXD_W1_LEN_MASK, 64);     /* 60 + FCS */
    CHECK_EQ(buf[0], 0xFF);
    for (unsigned i = 1; i < 60; i++) {
        CHECK(buf[i] == 0, "byte %u of the received frame is 0x%02x, not "
              "zero padding (QEMU heap leaked into guest RAM)", i, buf[i]);
    }
    return 0;
}

/*
 * One frame of @len bytes sent with TX checksum offload (DMACFG bit 11,
 * UG585 16.2.4) and looped back (NWCTRL bit 1); the received bytes go to
 * @out (@len of them) and the RX descriptor's word 1 is returned.
 */
static uint32_t tx_csum_loop(struct qt *q, const uint8_t *f, unsigned len,
                             uint8_t *out)
{
    uint32_t txd[4] = { TXBUF_BASE, TXD_W1_LAST | len,
                        0, TXD_W1_USED | TXD_W1_WRAP };
    uint32_t rxd[2];

    gem_setup(q, 100, true);
    gem_wr(q, GEM_DMACFG, gem_rd(q, GEM_DMACFG) | GEM_DMACFG_TX_CSUM);
    rx_ring(q, 8);
    qt_memwrite(q, TXBUF_BASE, f, len);
    qt_memwrite(q, TXD_BASE, txd, sizeof(txd));
    gem_enable(q, GEM_NWCTRL_LOOPBACK_LOCAL);
    gem_enable(q, GEM_NWCTRL_LOOPBACK_LOCAL | GEM_NWCTRL_TSTART);
    qt_step(q, NS_PER_MS);
    qt_memread(q, RXD_BASE, rxd, sizeof(rxd));
    qt_memread(q, RXBUF_BASE, out, len);
    return rxd[0] & RXD_W0_OWNED_SW ? rxd[1] : 0;
}

/*
 * docs/SECURITY.md Q8: an IPv4 header whose total length (20) is shorter
 * than its IHL (15 words, 60 bytes).  Stock QEMU's net_checksum_calculate()
 * made the UDP length negative and summed 64 KiB past the frame, off the
 * end of the device state (generic-fuzz found it).  RFC 791 3.1: such a
 * header is not a datagram; the offload leaves the frame as it is, and
 * the frame is still sent.
 */
static int test_tx_csum_offload_ihl_past_total_length_left_alone(void)
{
    struct qt q;
    uint8_t f[100], got[100];
    uint32_t w1;

    memset(f, 0x5A, sizeof(f));
    memcpy(f, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x08\x00", 14);
    f[14] = 0x4F;                                  /* IPv4, IHL 15 */
    f[16] = 0; f[17] = 20;                         /* total length 20 */
    f[14 + 6] = 0; f[14 + 7] = 0;                  /* not a fragment */
    f[14 + 9] = 17;                                /* UDP */
    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    w1 = tx_csum_loop(&q, f, sizeof(f), got);
    qt_stop(&q);
    CHECK(w1 != 0, "the frame was not looped back");
    CHECK_EQ(w1 & RXD_W1_LEN_MASK, sizeof(f) + 4);
    for (unsigned i = 0; i < sizeof(f); i++) {
        if (i == 14 + 10 || i == 14 + 11) {
            continue;       /* the IP header sum is the offload's to write */
        }
        CHECK(got[i] == f[i], "byte %u changed: 0x%02x, sent 0x%02x", i,
              got[i], f[i]);
    }
    return 0;
}

/*
 * An IPv4 header with one option word (IHL 6, four NOPs) and UDP: the
 * offload writes the UDP checksum into the UDP header, which starts after
 * the options (RFC 791 3.1, RFC 768); stock wrote it 4 bytes early, over
 * the UDP length.  The received UDP datagram must check out to 0.
 */
static int test_tx_csum_offload_udp_after_ip_options(void)
{
    struct qt q;
    uint8_t f[14 + 24 + 8 + 64], got[sizeof(f)];
    uint8_t *ip = got + 14, *udp = ip + 24;
    unsigned ulen = 8 + 64;
    uint32_t w1, sum;

    memset(f, 0, sizeof(f));
    memcpy(f, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x08\x00", 14);
    f[14] = 0x46;                                  /* IPv4, IHL 6 */
    f[16] = (uint8_t)((24 + ulen) >> 8);
    f[17] = (uint8_t)(24 + ulen);
    f[14 + 8] = 64;
    f[14 + 9] = 17;
    memcpy(f + 14 + 12, "\xc0\xa8\x4d\x01\xc0\xa8\x4d\x02", 8);
    memset(f + 14 + 20, 0x01, 4);                  /* NOP options */
    f[14 + 24 + 0] = 0x13; f[14 + 24 + 1] = 0x89;  /* 5001 */
    f[14 + 24 + 2] = 0xc3; f[14 + 24 + 3] = 0x50;  /* 50000 */
    f[14 + 24 + 4] = 0; f[14 + 24 + 5] = (uint8_t)ulen;
    for (unsigned i = 0; i < 64; i++) {
        f[14 + 24 + 8 + i] = (uint8_t)(i * 3 + 1);
    }
    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    w1 = tx_csum_loop(&q, f, sizeof(f), got);
    qt_stop(&q);
    CHECK(w1 != 0, "the frame was not looped back");
    CHECK_EQ(udp[4] << 8 | udp[5], ulen);          /* length not overwritten */
    CHECK(memcmp(ip + 20, "\x01\x01\x01\x01", 4) == 0, "options changed");
    CHECK(udp[6] != 0 || udp[7] != 0, "no UDP checksum written");
    CHECK_EQ(csum_fold(csum_add(0, ip, 24)), 0);
    sum = csum_add(17 + ulen, ip + 12, 8);
    CHECK_EQ(csum_fold(csum_add(sum, udp, ulen)), 0);
    return 0;
}

/* docs/SECURITY.md Q2: a frame shorter than an Ethernet header from the netdev is
 * dropped and counted before the MAC filter reads its addresses. */
static int test_rx_runt_from_netdev_dropped_and_counted(void)
{
    static const uint8_t runt[5] = { 0x02, 0, 0, 0, 0 };
    struct qt q;
    struct partner p;
    uint32_t d[2], frames;
    uint64_t runts = ~0ull;

    if (rx_start(&q, &p, NULL, 1000, 0)) {
        return -1;
    }
    partner_send_frame(&p, runt, sizeof(runt));
    CHECK(wait_rx_offered(&q, 1) == 0, "QEMU did not take the frame");
    qt_step(&q, NS_PER_MS);
    frames = gem_rd(&q, GEM_FRAMES_RX);
    qt_memread(&q, RXD_BASE, d, sizeof(d));
    qt_qom_get_u64(&q, LINK0_QOM, "stat-rx-runt-drops", &runts);
    qt_stop(&q);
    partner_close(&p);
    CHECK(!(d[0] & RXD_W0_OWNED_SW), "a 5-byte frame was received "
          "(descriptor 0: 0x%08x 0x%08x)", d[0], d[1]);
    CHECK_EQ(frames, 0);
    CHECK_EQ(runts, 1);
    return 0;
}

/*
 * docs/SECURITY.md Q3: the guest toggles BMCR loopback over MDIO (each write moves
 * the link up or down) thousands of times without anyone reading QMP.
 * GEMLAB_LINK_CHANGE is throttled per device like QEMU's other
 * guest-triggerable events (monitor/monitor.c, 1 s), so only a handful
 * are queued, and the last state still arrives.
 */
static int test_link_change_events_throttled(void)
{
    enum { TOGGLES = 4000 };
    struct qt q;
    char last[512];
    unsigned during, after;
    uint16_t bmcr;

    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_wr(&q, GEM_NWCFG, 0);            /* MDC divisor 8: 4.6 us frames */
    gem_enable(&q, 0);
    bmcr = mdio_read(&q, MII_BMCR) & (uint16_t)~BMCR_LOOPBACK;
    qt_event_count(&q, "GEMLAB_LINK_CHANGE", NULL, 0);
    for (unsigned i = 0; i < TOGGLES; i++) {
        uint16_t v = (i & 1) ? bmcr : (uint16_t)(bmcr | BMCR_LOOPBACK);

        gem_wr(&q, GEM_PHYMNTNC, GEM_PHYMNTNC_C22 | GEM_PHYMNTNC_OP_WR |
               GEM_PHYMNTNC_PHY(GEM0_PHY_ADDR) | GEM_PHYMNTNC_REG(MII_BMCR) |
               GEM_PHYMNTNC_MUST10 | v);
        qt_step(&q, 5 * NS_PER_US);
    }
    CHECK(!qt_failed(&q), "harness: %.200s", q.last_err);
    during = qt_event_count(&q, "GEMLAB_LINK_CHANGE", NULL, 0);
    qt_step(&q, NS_PER_S);               /* the throttle period ends */
    after = qt_event_count(&q, "GEMLAB_LINK_CHANGE", last, sizeof(last));
    qt_stop(&q);
    CHECK(during <= 2, "%u GEMLAB_LINK_CHANGE events queued for %u BMCR "
          "writes (unthrottled)", during, TOGGLES);
    CHECK(after == 1 && strstr(last, "\"up\": false"),
          "%u events after the burst, last '%.200s' (want the final "
          "link-down)", after, last);
    return 0;
}

/*
 * docs/SECURITY.md Q4: RX descriptor 0's buffer is the GEM's own register block.
 * The looped-back frame's bytes would write NWCTRL (0: everything off)
 * and the type 1 screener at 0x500.  The DMA runs from a timer, which
 * must engage the device's re-entrancy guard (CVE-2023-3019): the
 * registers keep their values and QEMU keeps running.
 */
static int test_rx_dma_into_own_registers_is_blocked(void)
{
    enum { LEN = 1400 };
    static uint8_t frame[LEN];
    const uint32_t screen = GEM_SCREEN_T1_DSTC_EN |
                            GEM_SCREEN_T1_DSTC(Q1_DSCP) | 8u;
    const uint32_t ctrl = GEM_NWCTRL_MDEN | GEM_NWCTRL_TXEN |
                          GEM_NWCTRL_RXEN | GEM_NWCTRL_LOOPBACK_LOCAL;
    uint32_t rxd[2] = { GEM0_BASE | RXD_W0_WRAP, 0 };
    uint32_t txd[4] = { TXBUF_BASE, TXD_W1_LAST | LEN,
                        0, TXD_W1_USED | TXD_W1_WRAP };
    struct qt q;
    uint32_t nwctrl, nwcfg, scr, cfg_before;
    bool up;

    memset(frame, 0, sizeof(frame));         /* bytes 0..3 -> NWCTRL */
    for (unsigned i = 0; i < 4; i++) {       /* bytes 0x500.. -> screener */
        frame[0x500 + i] = (uint8_t)(screen >> (8 * i));
    }
    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    gem_setup(&q, 100, true);
    cfg_before = gem_rd(&q, GEM_NWCFG);
    qt_memwrite(&q, RXD_BASE, rxd, sizeof(rxd));
    qt_memwrite(&q, TXBUF_BASE, frame, sizeof(frame));
    qt_memwrite(&q, TXD_BASE, txd, sizeof(txd));
    gem_wr(&q, GEM_NWCTRL, ctrl);
    gem_wr(&q, GEM_NWCTRL, ctrl | GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);            /* 1400 bytes at 100 Mb/s: 114 us */
    CHECK(qt_qom_get_bool(&q, LINK0_QOM, "link-up", &up) == 0,
          "QEMU no longer answers QOM (%.200s)", q.last_err);
    nwctrl = gem_rd(&q, GEM_NWCTRL);
    nwcfg = gem_rd(&q, GEM_NWCFG);
    scr = gem_rd(&q, GEM_SCREEN_T1_0);
    CHECK(tx_desc_used(&q, 0), "the frame was not sent");
    qt_stop(&q);
    CHECK((nwctrl & ctrl) == ctrl, "NWCTRL 0x%08x after the frame, was "
          "0x%08x: the RX DMA wrote the GEM's own registers", nwctrl, ctrl);
    CHECK(nwcfg == cfg_before, "NWCFG 0x%08x, was 0x%08x (written by DMA)",
          nwcfg, cfg_before);
    CHECK(scr == 0, "screener 0x500 = 0x%08x (written by DMA)", scr);
    return 0;
}

/*
 * docs/SECURITY.md Q6: a DMA "quine".  The RX buffer lies over the rings: TX
 * descriptor D at BASE, RX descriptors R1/R2 at BASE + 16/24.  D sends a
 * 64-byte template holding the rings' pristine image (D unused, R1 and R2
 * owned by the hardware), so each looped-back frame hands D back to the
 * DMA and both RX descriptors back to the hardware: frames keep going
 * with no CPU.  After GEM_LOOP_RUN_MAX
 * (4096) loopback frames without a register access the model paces them
 * to one per ms of virtual time: the count per virtual-time step is
 * bounded, and QMP keeps answering.
 */
static int test_loopback_dma_quine_paced_without_cpu(void)
{
    enum { LEN = 64, RUN_MAX = 4096 };
    const uint32_t base = 0x00300000u, tpl = 0x00301000u;
    uint32_t img[LEN / 4] = { 0 };
    struct qt q;
    uint64_t f1, f2;

    img[0] = tpl;                                /* D: sends the template */
    img[1] = TXD_W1_WRAP | TXD_W1_LAST | LEN;    /* used = 0 */
    img[4] = base;                               /* R1: buffer = the rings */
    img[6] = base | RXD_W0_WRAP;                 /* R2: the same, wrap */
    CHECK(qt_start(&q, "") == 0, "QEMU did not start");
    qt_memwrite(&q, base, img, sizeof(img));
    qt_memwrite(&q, tpl, img, sizeof(img));
    gem_wr(&q, GEM_NWCFG, GEM_NWCFG_MDC_DIV32 | GEM_NWCFG_GIGE |
           GEM_NWCFG_FDX | GEM_NWCFG_PROMISC | GEM_NWCFG_FCS_REMOVE);
    gem_wr(&q, GEM_DMACFG, GEM_DMACFG_RXBUF_1536);
    gem_wr(&q, GEM_TXQBASE, base);
    gem_wr(&q, GEM_RXQBASE, base + 16);
    gem_enable(&q, GEM_NWCTRL_LOOPBACK_LOCAL);
    gem_enable(&q, GEM_NWCTRL_LOOPBACK_LOCAL | GEM_NWCTRL_TSTART);
    /* 64-byte frames at 1000 Mb/s: 704 ns each, 14204 per 10 ms */
    qt_step(&q, 10 * NS_PER_MS);
    f1 = qom_u64(&q, "stat-tx-frames");
    qt_step(&q, 10 * NS_PER_MS);
    f2 = qom_u64(&q, "stat-tx-frames");
    for (int i = 0; i < 100; i++) {
        bool up;

        CHECK(qt_qom_get_bool(&q, LINK0_QOM, "link-up", &up) == 0,
              "qom-get %d failed: %.200s", i, q.last_err);
    }
    qt_stop(&q);
    CHECK(f1 >= RUN_MAX, "the quine did not run: %" PRIu64 " frames", f1);
    CHECK(f1 <= RUN_MAX + 11, "%" PRIu64 " frames in the first 10 ms "
          "with no CPU access, want at most %u", f1, RUN_MAX + 11);
    CHECK(f2 - f1 <= 11, "%" PRIu64 " frames in the next 10 ms, want at "
          "most 11 (one per ms)", f2 - f1);
    return 0;
}

/*
 * docs/SECURITY.md Q7: rx-backpressure switched on while frames are on the wire
 * (rx-latency 1 ms).  8 descriptors, 10 frames: the two that find the
 * ring full cannot be held any more (they crossed the wire) and must be
 * counted as resource errors, so wire-delivered = frames_rx + 0x1A0.
 */
static int test_rx_backpressure_toggled_in_flight_drops_counted(void)
{
    struct qt q;
    struct partner p;
    char resp[512];
    uint64_t delivered;
    uint32_t frames, res;

    if (rx_start(&q, &p, "-global gemlab-link.rx-latency-ns=1000000", 1000,
                 0)) {
        return -1;
    }
    partner_send(&p, 10, 100);
    CHECK(wait_rx_offered(&q, 10) == 0, "QEMU did not take the frames");
    CHECK(qt_qom_set(&q, LINK0_QOM, "rx-backpressure", "true", resp,
                     sizeof(resp)) == 0, "rx-backpressure: %.300s", resp);
    qt_step(&q, 5 * NS_PER_MS);
    delivered = qom_u64(&q, "stat-rx-wire-delivered");
    frames = gem_rd(&q, GEM_FRAMES_RX);
    res = gem_rd(&q, GEM_RX_RESOURCE_ERRORS);
    qt_stop(&q);
    partner_close(&p);
    CHECK_EQ(delivered, 10);
    CHECK_EQ(frames, 8);
    CHECK(frames + res == delivered, "wire delivered %" PRIu64 " but "
          "frames_rx %u + resource errors %u: frames lost uncounted",
          delivered, frames, res);
    return 0;
}

/*
 * A stream netdev (-netdev socket,connect=, length-prefixed frames) as the
 * partner, with @globals, and the MAC at 1000 full duplex with 8 RX
 * descriptors; then @n frames of @len bytes written to it at once.  QEMU
 * reads them in one go, so what the device refuses waits in QEMU's net
 * queue.  *@cfd is the partner's end.
 */
static int stream_burst_start(struct qt *q, int *cfd, const char *globals,
                              unsigned n, unsigned len)
{
    static uint8_t burst[256 * (4 + 128)];
    struct sockaddr_in sa = { .sin_family = AF_INET };
    socklen_t sl = sizeof(sa);
    size_t size = (size_t)n * (4 + len);
    char args[512];
    int lfd;

    CHECK(size <= sizeof(burst) && len >= 15 && len <= 128, "burst size");
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    CHECK(lfd >= 0 && bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
          listen(lfd, 1) == 0 &&
          getsockname(lfd, (struct sockaddr *)&sa, &sl) == 0, "TCP listen");
    snprintf(args, sizeof(args), "-netdev socket,id=n0,connect=127.0.0.1:%u "
             "-net nic,netdev=n0,model=cadence_gem %s", ntohs(sa.sin_port),
             globals ? globals : "");
    if (qt_start(q, args) != 0) {
        close(lfd);
        CHECK(0, "QEMU did not start");
    }
    *cfd = accept(lfd, NULL, NULL);
    close(lfd);
    if (*cfd < 0) {
        qt_stop(q);
        CHECK(0, "QEMU did not connect");
    }
    gem_setup(q, 1000, true);
    rx_ring(q, 8);
    gem_enable(q, 0);
    qt_step(q, LINK_SETTLE_NS);
    for (unsigned i = 0; i < n; i++) {
        uint8_t *f = burst + i * (4 + len);

        f[0] = f[1] = 0;
        f[2] = (uint8_t)(len >> 8);              /* big-endian length */
        f[3] = (uint8_t)len;
        memset(f + 4, 0, len);
        memcpy(f + 4, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x03"
               "\x88\xB5", 14);
        f[4 + 14] = (uint8_t)i;
    }
    if (write(*cfd, burst, size) != (ssize_t)size) {
        qt_stop(q);
        close(*cfd);
        CHECK(0, "write");
    }
    return 0;
}

/*
 * docs/SECURITY.md Q7: the partner's MAC transmit queue holds at most 64
 * frames not yet serialized (gemlab_link_can_receive).  A stream netdev
 * hands QEMU a whole burst at once, so the rest wait in QEMU's net queue;
 * qemu_flush_queued_packets() does not ask can_receive, so the device
 * itself must refuse past the queue, or one flush puts the whole net
 * queue into the partner's MAC at once.  A 100-byte frame takes 992 ns
 * at 1000 Mb/s (124 bytes on the wire): after T ns at most 64 + T / 992
 * frames can have been offered to the wire, plus the one in progress.
 */
static int test_rx_flush_keeps_partner_queue(void)
{
    enum { N = 200, LEN = 100, CAP = 64, FRAME_NS = 992 };
    struct qt q;
    uint64_t sent, worst = 0;
    int cfd;

    if (stream_burst_start(&q, &cfd, NULL, N, LEN)) {
        return -1;
    }
    if (wait_rx_offered(&q, CAP) != 0) {
        qt_stop(&q);
        close(cfd);
        CHECK(0, "QEMU did not take %u frames", CAP);
    }
    usleep(200000);                 /* let QEMU read the whole burst */
    /* each frame sent frees a place and flushes QEMU's queue */
    for (int i = 1; i <= 20; i++) {
        qt_step(&q, NS_PER_US);
        sent = qom_u64(&q, "stat-rx-wire-sent");
        /* frames beyond what the queue and the line allow by now */
        uint64_t allowed = CAP + 1 + (uint64_t)i * NS_PER_US / FRAME_NS;

        if (sent > allowed && sent - allowed > worst) {
            worst = sent - allowed;
        }
    }
    qt_step(&q, 10 * NS_PER_MS);
    sent = qom_u64(&q, "stat-rx-wire-sent");
    qt_stop(&q);
    close(cfd);
    CHECK(worst == 0, "%" PRIu64 " frames more than the partner's queue "
          "(%u) and the line allow after a flush", worst, CAP);
    CHECK_EQ(sent, N);              /* all went out in the end */
    return 0;
}

/*
 * The partner's queue bounds frames waiting to be sent, not frames on
 * the cable: with 1 ms of latency a 1000 Mb/s line holds about 1000
 * 100-byte frames in flight.  200 frames offered at once are all on the
 * wire 300 us later (200 x 992 ns) and none has arrived; at 2 ms all
 * have.  (A cap on frames in flight throttled the partner to 64 frames
 * per latency: 7.5 Mb/s of UDP over 100 ms.)
 */
static int test_rx_latency_holds_more_than_the_partner_queue(void)
{
    enum { N = 200, LEN = 100 };
    struct qt q;
    uint64_t sent, inflight, arrived;
    int cfd;

    if (stream_burst_start(&q, &cfd,
                           "-global gemlab-link.rx-latency-ns=1000000", N,
                           LEN)) {
        return -1;
    }
    if (wait_rx_offered(&q, 64) != 0) {
        qt_stop(&q);
        close(cfd);
        CHECK(0, "QEMU did not take 64 frames");
    }
    usleep(200000);                 /* let QEMU read the whole burst */
    for (int i = 0; i < 300; i++) { /* flushes run from the wire timer */
        qt_step(&q, NS_PER_US);
    }
    sent = qom_u64(&q, "stat-rx-wire-sent");
    inflight = qom_u64(&q, "stat-rx-wire-in-flight");
    qt_step(&q, 2 * NS_PER_MS);
    arrived = qom_u64(&q, "stat-rx-wire-delivered");
    qt_stop(&q);
    close(cfd);
    CHECK_EQ(sent, N);
    CHECK_EQ(inflight, N);
    CHECK_EQ(arrived, N);
    return 0;
}

/*
 * docs/SECURITY.md Q7: QMP device-list-properties creates and destroys an
 * unrealized cadence_gem; without instance_finalize each call leaked the
 * gemlab state.  Resident memory must not grow with the calls.
 */
static int test_device_list_properties_does_not_leak(void)
{
    enum { WARM = 200, N = 6000 };
    struct qt q;
    char resp[256];
    unsigned long rss0 = 0, rss1;
    const char *asan = getenv("ASAN_OPTIONS");
    char *saved = asan ? strdup(asan) : NULL;
    char opts[1024];
    int started;

    /* An ASan QEMU (make -C tests/device run SAN=1) keeps freed memory in
     * quarantine, which would look like growth: turn that off for this
     * QEMU; LeakSanitizer at its exit still reports a real leak. */
    snprintf(opts, sizeof(opts), "%s%squarantine_size_mb=0:"
             "thread_local_quarantine_size_kb=0", asan ? asan : "",
             asan && *asan ? ":" : "");
    setenv("ASAN_OPTIONS", opts, 1);
    started = qt_start(&q, "");
    if (saved) {
        setenv("ASAN_OPTIONS", saved, 1);
        free(saved);
    } else {
        unsetenv("ASAN_OPTIONS");
    }
    CHECK(started == 0, "QEMU did not start");
    for (int i = 0; i < WARM + N; i++) {
        if (i == WARM) {
            rss0 = qt_rss_kib(&q);
        }
        CHECK(qt_qmp(&q, resp, sizeof(resp), "{\"execute\": "
                     "\"device-list-properties\", \"arguments\": "
                     "{\"typename\": \"cadence_gem\"}}") == 0,
              "call %d: %.200s", i, resp);
    }
    rss1 = qt_rss_kib(&q);
    qt_stop(&q);
    CHECK(rss0 > 0 && rss1 > 0, "no VmRSS");
    CHECK(rss1 < rss0 + 1024, "VmRSS grew by %lu KiB over %d "
          "device-list-properties calls", rss1 - rss0, N);
    return 0;
}

/* docs/SECURITY.md Q7: a bad num-priority-queues is rejected before anything is
 * set up, naming the property and its range. */
static int test_bad_num_priority_queues_exits_naming_range(void)
{
    char err[4096];
    int rc;

    rc = qt_run_expect_exit("-global cadence_gem.num-priority-queues=9", err,
                            sizeof(err));
    CHECK(rc > 0, "QEMU did not exit with an error (rc %d)", rc);
    CHECK(strstr(err, "cadence_gem.num-priority-queues") &&
          strstr(err, "[1, 8]"), "message lacks the name or range: %.300s",
          err);
    return 0;
}

/*
 * docs/SECURITY.md Q7: the pcap is created, never opened through a symlink (any
 * QMP client can set the property; QEMU may be root).  A symlink at the
 * path is refused with an error naming the property, and the link's
 * target is not created.
 */
static int test_pcap_symlink_refused_naming_property(void)
{
    char dir[] = "/tmp/gemlab-pcap-XXXXXX";
    char target[64], link[64], args[200], err[4096];
    bool created;
    int rc;

    CHECK(mkdtemp(dir), "mkdtemp");
    snprintf(target, sizeof(target), "%s/target", dir);
    snprintf(link, sizeof(link), "%s/link.pcapng", dir);
    if (symlink(target, link) != 0) {
        rmdir(dir);
        CHECK(0, "symlink");
    }
    snprintf(args, sizeof(args), "-global gemlab-link.pcap=%s", link);
    rc = qt_run_expect_exit(args, err, sizeof(err));
    created = access(target, F_OK) == 0;
    unlink(target);
    unlink(link);
    rmdir(dir);
    CHECK(!created, "QEMU created %s through the symlink", target);
    CHECK(rc > 0, "QEMU did not exit with an error (rc %d)", rc);
    CHECK(strstr(err, "gemlab-link.pcap") != NULL,
          "message does not name the property: %.300s", err);
    return 0;
}

/* docs/SECURITY.md Q7: pcap-max-bytes caps the capture file. */
static int test_pcap_size_capped_by_pcap_max_bytes(void)
{
    char dir[] = "/tmp/gemlab-pcap-XXXXXX";
    char path[64], args[200];
    struct qt q;
    struct stat st;
    uint64_t sent;
    int rc;

    CHECK(mkdtemp(dir), "mkdtemp");
    snprintf(path, sizeof(path), "%s/cap.pcapng", dir);
    snprintf(args, sizeof(args), "-global gemlab-link.pcap=%s "
                                 "-global gemlab-link.pcap-max-bytes=4096", path);
    if (qt_start(&q, args) != 0) {
        rmdir(dir);
        CHECK(0, "QEMU did not start with pcap-max-bytes");
    }
    gem_setup(&q, 1000, true);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    tx_ring(&q, 60, 100);                    /* 60 EPBs of 144 bytes */
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    sent = qom_u64(&q, "stat-tx-wire-delivered");
    qt_stop(&q);
    rc = stat(path, &st);
    unlink(path);
    rmdir(dir);
    CHECK(rc == 0, "no pcap file");
    CHECK_EQ(sent, 60);
    CHECK(st.st_size > 2048 && st.st_size <= 4096, "pcap is %lld bytes, "
          "cap 4096", (long long)st.st_size);
    return 0;
}

/* pcap-snaplen keeps each frame's first bytes and its original length
 * (pcapng EPB, draft-ietf-opsawg-pcapng 4.3), as tcpdump -s does; the IDB
 * says the snaplen (4.2).  Below 64 bytes is refused by name. */
static int test_pcap_snaplen_keeps_headers_only(void)
{
    char dir[] = "/tmp/gemlab-pcap-XXXXXX";
    char path[64], args[200], resp[QT_RESP_MAX], desc[512];
    uint8_t b[200];
    struct qt q;
    struct stat st;
    FILE *f;
    size_t n = 0;
    int rc, bad;

    CHECK(mkdtemp(dir), "mkdtemp");
    snprintf(path, sizeof(path), "%s/cap.pcapng", dir);
    snprintf(args, sizeof(args), "-global gemlab-link.pcap=%s "
                                 "-global gemlab-link.pcap-snaplen=64", path);
    if (qt_start(&q, args) != 0) {
        rmdir(dir);
        CHECK(0, "QEMU did not start with pcap-snaplen");
    }
    bad = qt_qom_set(&q, LINK0_QOM, "pcap-snaplen", "63", resp, sizeof(resp));
    qt_qmp_desc(resp, desc, sizeof(desc));
    gem_setup(&q, 1000, true);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);
    tx_ring(&q, 10, 300);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    qt_step(&q, NS_PER_MS);
    qt_stop(&q);
    rc = stat(path, &st);
    f = fopen(path, "rb");
    if (f) {
        n = fread(b, 1, sizeof(b), f);
        fclose(f);
    }
    unlink(path);
    rmdir(dir);
    CHECK(bad == 1 && strstr(desc, "pcap-snaplen") && strstr(desc, "[64, 65535]"),
          "pcap-snaplen=63: %.300s", resp);
    CHECK(rc == 0 && n == sizeof(b), "no pcap file");
    /* SHB + IDB 60, then 10 EPBs of 28 + 64 + epb_flags 8 + end 4 + 4 */
    CHECK_EQ(st.st_size, 60 + 10 * 108);
    CHECK_EQ(b[40] | b[41] << 8, 64);                /* IDB snaplen */
    CHECK_EQ(b[60 + 20] | b[60 + 21] << 8, 64);      /* captured length */
    CHECK_EQ(b[60 + 24] | b[60 + 25] << 8, 300);     /* original length */
    return 0;
}

/*
 * QEMU 10.0: our link hooks into stock cadence_gem only when the GEM's
 * "gemlab" property is on (docs/QEMU_SEAM.md); other boards keep the
 * stock device.  With it off, an MDIO frame completes within the register
 * write (no 64 MDC cycles, no MAN_PORT_EN needed) and the PHY is stock
 * QEMU's 88E1111-style register set, not the 88E1116R model.
 */
/* PHYID2 of stock QEMU's PHY (hw/net/cadence_gem.c, gem_phy_reset()) */
#define QEMU_STOCK_PHYSID2 0x0CC2u

static int test_gemlab_off_mdio_completes_at_once_with_stock_phy(void)
{
    struct qt q;
    uint32_t v, nwsr;

    CHECK(qt_start(&q, "-global cadence_gem.gemlab=off") == 0,
          "QEMU did not start");
    gem_wr(&q, GEM_NWCTRL, 0);      /* MDEN clear: stock does not care */
    gem_wr(&q, GEM_PHYMNTNC, GEM_PHYMNTNC_C22 | GEM_PHYMNTNC_OP_RD |
           GEM_PHYMNTNC_PHY(GEM0_PHY_ADDR) | GEM_PHYMNTNC_REG(MII_PHYSID2) |
           GEM_PHYMNTNC_MUST10);
    nwsr = gem_rd(&q, GEM_NWSR);
    v = gem_rd(&q, GEM_PHYMNTNC);
    qt_stop(&q);
    CHECK(nwsr & GEM_NWSR_MGMT_IDLE, "MDIO busy with gemlab off");
    CHECK_EQ(v & 0xFFFFu, QEMU_STOCK_PHYSID2);
    return 0;
}

/*
 * The statistics fixes are stock patches (0010, 0011), not gemlab code:
 * with gemlab off, a frame the stock TX path sends at TSTART counts its
 * octets in 0x100 (bits 31:0; 0x104 stays 0) and 0x108 reads 0 the
 * second time.  Stock 10.0 gave 0x100 = 0, 0x104 = the octets, and kept
 * every count.
 */
static int test_gemlab_off_stock_tx_stats_low_first_and_clear_on_read(void)
{
    struct qt q;
    uint32_t frames, frames2, lo, hi;

    CHECK(qt_start(&q, "-global cadence_gem.gemlab=off") == 0,
          "QEMU did not start");
    gem_setup(&q, 1000, true);
    tx_ring(&q, 2, 300);
    gem_enable(&q, GEM_NWCTRL_TSTART);
    frames = qt_readl(&q, GEM0_BASE + GEM_FRAMES_TX);
    frames2 = qt_readl(&q, GEM0_BASE + GEM_FRAMES_TX);
    lo = qt_readl(&q, GEM0_BASE + GEM_OCTETS_TX_LO);
    hi = qt_readl(&q, GEM0_BASE + GEM_OCTETS_TX_HI);
    qt_stop(&q);
    CHECK_EQ(frames, 2);
    CHECK_EQ(frames2, 0);
    CHECK_EQ(hi, 0);
    CHECK_EQ(lo, 2 * 300);
    return 0;
}

/* ---- the traffic peer netdev (QEMU 10.0, docs/PEER.md) --------------- */

#define PEER_NETDEV "-netdev gemlab-peer,id=p0 -net nic,netdev=p0,model=cadence_gem "
static const uint8_t board_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
static const uint8_t board_ip[4] = { 10, 0, 2, 15 };
static const uint8_t peer_ip[4] = { 10, 0, 2, 2 };

/* Send one frame from TX descriptor @slot (the GEM's queue pointer is
 * there: every earlier slot was sent), the next slot marked used. */
static void peer_tx_frame(struct qt *q, unsigned slot, const uint8_t *f,
                          unsigned len)
{
    uint32_t d[2] = { TXBUF_BASE + slot * BUF_STRIDE, TXD_W1_LAST | len };
    uint32_t end[2] = { TXBUF_BASE, TXD_W1_USED };

    qt_memwrite(q, TXBUF_BASE + slot * BUF_STRIDE, f, len);
    qt_memwrite(q, TXD_BASE + 8 * (slot + 1), end, sizeof(end));
    qt_memwrite(q, TXD_BASE + 8 * slot, d, sizeof(d));
    gem_wr(q, GEM_NWCTRL, gem_rd(q, GEM_NWCTRL) | GEM_NWCTRL_TSTART);
}

/* Find a received frame (RX descriptors 0..n-1 owned by software) for
 * which @match returns true; copies it to @f, returns its length or 0. */
static unsigned peer_rx_find(struct qt *q, unsigned n,
                             bool (*match)(const uint8_t *f, unsigned len),
                             uint8_t *f)
{
    for (unsigned i = 0; i < n; i++) {
        uint32_t d[2];
        unsigned len;

        qt_memread(q, RXD_BASE + 8 * i, d, sizeof(d));
        if (!(d[0] & RXD_W0_OWNED_SW)) {
            continue;
        }
        len = d[1] & RXD_W1_LEN_MASK;
        if (len < 14 || len > BUF_STRIDE) {
            continue;
        }
        qt_memread(q, RXBUF_BASE + i * BUF_STRIDE, f, len);
        if (match(f, len)) {
            return len;
        }
    }
    return 0;
}

static bool is_arp_reply_to_board(const uint8_t *f, unsigned len)
{
    return len >= 42 && f[12] == 0x08 && f[13] == 0x06 &&
           f[20] == 0 && f[21] == 2 &&                     /* op: reply */
           !memcmp(f, board_mac, 6) &&
           !memcmp(f + 22, peer_mac, 6) && !memcmp(f + 28, peer_ip, 4) &&
           !memcmp(f + 32, board_mac, 6) && !memcmp(f + 38, board_ip, 4);
}

static bool is_echo_reply_to_board(const uint8_t *f, unsigned len)
{
    return len >= 14 + 20 + 8 + 56 && f[12] == 0x08 && f[13] == 0x00 &&
           f[14 + 9] == 1 && !memcmp(f + 14 + 12, peer_ip, 4) &&
           !memcmp(f + 14 + 16, board_ip, 4) && f[34] == 0;  /* echo reply */
}

/* ARP request (RFC 826) from the board for the peer's address */
static unsigned arp_request(uint8_t *f)
{
    memset(f, 0, 60);
    memset(f, 0xFF, 6);
    memcpy(f + 6, board_mac, 6);
    f[12] = 0x08; f[13] = 0x06;
    f[14] = 0; f[15] = 1; f[16] = 0x08; f[17] = 0; f[18] = 6; f[19] = 4;
    f[21] = 1;
    memcpy(f + 22, board_mac, 6);
    memcpy(f + 28, board_ip, 4);
    memcpy(f + 38, peer_ip, 4);
    return 60;
}

/* ICMP echo request (RFC 792) with 56 bytes of data, id 0x4242 seq 7 */
static unsigned echo_request(uint8_t *f)
{
    uint8_t *ip = f + 14, *ic = ip + 20;
    unsigned tot = 20 + 8 + 56;
    uint32_t sum;

    memset(f, 0, 14 + tot);
    memcpy(f, peer_mac, 6);
    memcpy(f + 6, board_mac, 6);
    f[12] = 0x08;
    ip[0] = 0x45;
    ip[2] = (uint8_t)(tot >> 8);
    ip[3] = (uint8_t)tot;
    ip[8] = 64;
    ip[9] = 1;
    memcpy(ip + 12, board_ip, 4);
    memcpy(ip + 16, peer_ip, 4);
    sum = csum_add(0, ip, 20);
    ip[10] = (uint8_t)(csum_fold(sum) >> 8);
    ip[11] = (uint8_t)csum_fold(sum);
    ic[0] = 8;
    ic[4] = 0x42; ic[5] = 0x42; ic[7] = 7;
    for (unsigned i = 0; i < 56; i++) {
        ic[8 + i] = (uint8_t)(i * 3 + 1);
    }
    sum = csum_add(0, ic, 8 + 56);
    ic[2] = (uint8_t)(csum_fold(sum) >> 8);
    ic[3] = (uint8_t)csum_fold(sum);
    return 14 + tot;
}

/*
 * The peer is a host on the wire: the GEM's ARP request through a TX
 * descriptor is answered into an RX buffer with the peer's MAC, and an
 * ICMP echo request comes back as an echo reply with the same id,
 * sequence and data.  Everything happens in virtual time: nothing moves
 * between qt_step() calls.
 */
static int test_peer_answers_arp_and_icmp_echo(void)
{
    struct qt q;
    uint8_t f[2048], req[128], r[2048];
    unsigned len, rlen;

    CHECK(qt_start(&q, PEER_NETDEV) == 0, "QEMU did not start: %s",
          qt_stderr(&q, (char *)r, sizeof(r)));
    gem_setup(&q, 1000, true);
    rx_ring(&q, 8);
    gem_enable(&q, 0);
    qt_step(&q, LINK_SETTLE_NS);

    len = arp_request(f);
    peer_tx_frame(&q, 0, f, len);
    qt_step(&q, 100 * NS_PER_US);
    rlen = peer_rx_find(&q, 8, is_arp_reply_to_board, r);
    CHECK(rlen > 0, "no ARP reply from the peer in the RX ring");

    len = echo_request(req);
    peer_tx_frame(&q, 1, req, len);
    qt_step(&q, 100 * NS_PER_US);
    rlen = peer_rx_find(&q, 8, is_echo_reply_to_board, r);
    qt_stop(&q);
    CHECK(rlen > 0, "no ICMP echo reply from the peer in the RX ring");
    CHECK(rlen >= len, "echo reply of %u bytes, request %u", rlen, len);
    CHECK(r[34 + 4] == 0x42 && r[34 + 5] == 0x42 && r[34 + 7] == 7,
          "echo reply with another id/sequence");
    CHECK(!memcmp(r + 34 + 8, req + 34 + 8, 56), "echo reply data differs");
    return 0;
}

/* Bad gemlab-peer options stop QEMU at startup, naming the option (and,
 * for the script, the file and line). */
static int test_peer_bad_options_exit_naming_property(void)
{
    /* @want: our message (QEMU echoes the option itself before it) */
    static const struct { const char *opt, *want; } bad[] = {
        { "ip=10.0.2.300", "ip=10.0.2.300: not an IPv4 address" },
        { "ip=10.0.2.255", "ip=10.0.2.255: a network or broadcast address" },
        { "netmask=255.0.255.0", "netmask=255.0.255.0: not a contiguous netmask" },
        { "board-ip=board", "board-ip=board: not an IPv4 address" },
        { "mac=02:00:00:00:00", "mac=02:00:00:00:00: not a MAC address" },
        { "mac=01:00:00:00:00:01", "mac=01:00:00:00:00:01: a multicast address" },
        { "rate-mbps=0", "rate-mbps=0: out of range (1..100000)" },
        { "rate-mbps=fast", "Parameter 'rate-mbps' expects" },
        { "results=/nonexistent/dir/r.json",
          "results=/nonexistent/dir/r.json: No such file" },
        { "script=/nonexistent/s.txt", "script=/nonexistent/s.txt: Failed to open" },
    };
    char err[4096], args[1024], dir[] = "/tmp/gemlab-peer-XXXXXX", path[64];
    FILE *fp;
    int rc;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(args, sizeof(args), "-netdev gemlab-peer,id=p0,%s "
                 "-net nic,netdev=p0,model=cadence_gem", bad[i].opt);
        rc = qt_run_expect_exit(args, err, sizeof(err));
        CHECK(rc > 0, "%s: QEMU did not exit with an error (rc %d)",
              bad[i].opt, rc);
        CHECK(strstr(err, bad[i].want) != NULL, "%s: message: %.300s",
              bad[i].opt, err);
    }
    /* a bad line 4, after good ones: the message names FILE:4 and why */
    static const struct { const char *line4, *want; } scripts[] = {
        { "200:iperf -c 10.0.2.15 -x", "bad arguments: iperf -c 10.0.2.15 -x" },
        { "200:ping -c 0 10.0.2.15", "bad arguments: ping -c 0" },
        { "200:console nosuch help", "console: no chardev 'nosuch'" },
        { "200:reboot", "unknown command 'reboot'" },
        { "50:iperf stop", "time 50 ms is before the previous line's 100 ms" },
        { "soon:iperf stop", "expected AT_MS:COMMAND" },
    };

    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    /* the results file is never opened through a symlink */
    snprintf(path, sizeof(path), "%s/results", dir);
    CHECK(symlink("/dev/null", path) == 0, "symlink");
    snprintf(args, sizeof(args), "-netdev gemlab-peer,id=p0,results=%s "
             "-net nic,netdev=p0,model=cadence_gem", path);
    rc = qt_run_expect_exit(args, err, sizeof(err));
    unlink(path);
    if (rc <= 0 || !strstr(err, "results=")) {
        rmdir(dir);
    }
    CHECK(rc > 0, "results= through a symlink accepted (rc %d)", rc);
    CHECK(strstr(err, "results=") != NULL, "message: %.300s", err);
    snprintf(path, sizeof(path), "%s/script", dir);
    for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
        char want[80];

        fp = fopen(path, "w");
        CHECK(fp != NULL, "cannot write the script file");
        fprintf(fp, "# a comment\n100:iperf -s\n\n%s\n", scripts[i].line4);
        fclose(fp);
        snprintf(args, sizeof(args), "-netdev gemlab-peer,id=p0,script=%s "
                 "-net nic,netdev=p0,model=cadence_gem", path);
        rc = qt_run_expect_exit(args, err, sizeof(err));
        snprintf(want, sizeof(want), "%s:4: ", path);
        if (rc <= 0 || !strstr(err, want) || !strstr(err, scripts[i].want)) {
            unlink(path);
            rmdir(dir);
        }
        CHECK(rc > 0, "%s: bad script accepted (rc %d)", scripts[i].line4, rc);
        CHECK(strstr(err, want) != NULL, "%s: message lacks FILE:4: %.300s",
              scripts[i].line4, err);
        CHECK(strstr(err, scripts[i].want) != NULL, "%s: message: %.300s",
              scripts[i].line4, err);
    }
    unlink(path);
    rmdir(dir);
    return 0;
}

/* ---- runner --------------------------------------------------------- */

struct test {
    const char *name;
    int (*fn)(void);
    bool q10;           /* a QEMU 10.0 feature: run only on that base */
};

#define T(fn) { #fn, fn, false }
#define T10(fn) { #fn, fn, true }
static const struct test tests[] = {
    T(test_smp2_machine_has_two_cpus),
    T(test_smp_cpu1_runs_only_after_slcr_release),
    T(test_dma_to_cpu_private_region_is_refused),
    T(test_sdhci_adma_to_cpu_private_region_is_refused),
    T(test_ehci_async_list_in_cpu_private_region_is_refused),
    T(test_cpu_reaches_its_private_region),
    T(test_pl330_endless_program_leaves_qemu_alive),
    T(test_sdhci_adma_block_size_0_stops),
    T(test_qspi_striped_rx_overflow_is_flagged),
    T(test_mdio_phy_id_reads_88e1116r),
    T(test_mdio_busy_until_frame_shifted_out),
    T(test_mdio_without_mden_does_nothing),
    T(test_aneg_default_partner_resolves_1000_full),
    T(test_aneg_partner_100_only_resolves_100_full),
    T(test_mdio_advertising_100_only_renegotiates_to_100),
    T(test_aneg_partner_forced_100_parallel_detects_half),
    T(test_half_duplex_mismatch_counts_collisions),
    T(test_bmsr_link_latches_low_until_read),
    T(test_link_flap_via_qom_set_renegotiates),
    T(test_tx_100m_frames_leave_at_line_rate),
    T(test_stats_registers_clear_on_read),
    T(test_stats_clear_increment_and_write_enable),
    T(test_multicast_counters_follow_the_group_bit),
    T(test_rx_oversize_frame_counted_without_tx_error),
    T(test_mdio_clause45_frames_leave_the_phy_alone),
    T(test_interrupt_enable_disable_read_zero_mask_27_bits),
    T(test_tx_halt_finishes_the_frame_and_clears_tgo),
    T(test_tx_link_down_frames_lost_but_completed),
    T(test_rx_matching_mac_config_receives),
    T(test_rx_starved_ring_drops_and_counts_resource_errors),
    T(test_rx_disabled_frames_counted_by_model_only),
    T(test_octet_counters_low_word_first_like_silicon),
    T(test_rx_backpressure_on_holds_frames_like_stock),
    T(test_rx_loss_changed_at_runtime_keeps_frames_flowing),
    T(test_rx_starve_ns_burst_drops_then_recovers),
    T(test_rx_corruption_counts_fcs_errors_and_discards),
    T(test_rgmii_delay_from_phy_bits_corrupts_rx_at_1000),
    T(test_rx_csum_offload_marks_good_and_discards_bad),
    T(test_rx_csum_offload_off_passes_bad_checksum_unmarked),
    T(test_mac_100_on_phy_1000_fails_and_counts),
    T(test_qmp_set_link_off_forces_phy_link_down),
    T(test_link_change_emits_qmp_event),
    T(test_rx_100m_frames_arrive_at_line_rate),
    T(test_tx_latency_delays_delivery_to_partner),
    T(test_tx_dup_100_delivers_every_frame_twice),
    T(test_pcap_flags_corrupted_and_dropped_frames),
    T(test_phy_loopback_returns_tx_frames_to_rx),
    T(test_cable_2pair_without_downshift_never_links),
    T(test_cable_2pair_with_downshift_links_at_100),
    T(test_phy_max_speed_100_links_at_100_without_1000_registers),
    T(test_cable_plugged_at_runtime_brings_link_up),
    T(test_bad_property_at_startup_exits_naming_range),
    T(test_bad_property_at_runtime_rejected_machine_runs),
    T(test_link_object_is_each_gems_own_child),
    T(test_link_object_alone_is_refused),
    T(test_rx_screener_queue_out_of_range),
    T(test_rx_short_loopback_frame_is_zero_padded),
    T(test_tx_csum_offload_ihl_past_total_length_left_alone),
    T(test_tx_csum_offload_udp_after_ip_options),
    T(test_rx_runt_from_netdev_dropped_and_counted),
    T(test_link_change_events_throttled),
    T(test_rx_dma_into_own_registers_is_blocked),
    T(test_tx_buffer_at_qspi_cache_line_end_does_not_hang),
    T(test_loopback_dma_quine_paced_without_cpu),
    T(test_rx_backpressure_toggled_in_flight_drops_counted),
    T(test_rx_flush_keeps_partner_queue),
    T(test_rx_latency_holds_more_than_the_partner_queue),
    T(test_device_list_properties_does_not_leak),
    T(test_bad_num_priority_queues_exits_naming_range),
    T(test_pcap_symlink_refused_naming_property),
    T(test_pcap_size_capped_by_pcap_max_bytes),
    T(test_pcap_snaplen_keeps_headers_only),
    T10(test_gemlab_off_mdio_completes_at_once_with_stock_phy),
    T10(test_gemlab_off_stock_tx_stats_low_first_and_clear_on_read),
    T10(test_peer_answers_arp_and_icmp_echo),
    T10(test_peer_bad_options_exit_naming_property),
};

int main(int argc, char **argv)
{
    unsigned passed = 0, failed = 0;
    /* tests/device/Makefile passes the base the QEMU was built on */
    const char *base = getenv("QEMU_BASE");
    bool q10 = base && !strcmp(base, "10.0");

    /* a QEMU that crashed must fail the test, not kill the runner */
    signal(SIGPIPE, SIG_IGN);
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) {
            continue;
        }
        if (tests[i].q10 && !q10) {
            continue;       /* the 7.2 device has no such feature */
        }
        g_fail_line = 0;
        if (tests[i].fn() == 0) {
            printf("  PASS %s\n", tests[i].name);
            passed++;
        } else {
            printf("  FAIL %s (line %d): %s\n", tests[i].name, g_fail_line,
                   g_fail_msg);
            failed++;
        }
        qt_stop_all();          /* QEMUs a failed CHECK left running */
        if (g_partner) {
            partner_close(g_partner);
        }
        fflush(stdout);
    }
    printf("device: %u passed, %u failed\n", passed, failed);
    if (passed + failed == 0) {
        fprintf(stderr, "test_device: no test name contains '%s'\n",
                argc > 1 ? argv[1] : "");
        return 1;
    }
    return failed ? 1 : 0;
}
