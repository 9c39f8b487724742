/*
 * campaign.c - `gemlab campaign`: random scenarios from the fault space,
 * run, diagnosed blind, scored against the injected faults.
 *
 * Precision and recall follow the usual definitions (per code c, over all
 * samples): precision = TP / (TP + FP), recall = TP / (TP + FN), where a
 * sample is a true positive for c when c was injected (expected) and
 * named, a false negative when expected and not named, and a false
 * positive when named although neither expected nor allowed.  "Allowed"
 * codes are consequences a real bench would also show (loss makes TCP
 * retransmit; a forced 100 Mb/s partner is also a speed below the board's
 * maximum); naming them is neither rewarded nor punished.
 */
#include "campaign.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gemlab/prng.h"

#include "diagnose.h"
#include "results_schema.h"
#include "run.h"
#include "util.h"

#define BIT(c) (UINT64_C(1) << (c))

/* ---- the fault space ---------------------------------------------------- */

/* What a fault occupies, for combining two in one sample: a pair is drawn
 * only when neither fault's `conflicts` meets the other's `claims`. */
enum {
    K_NEG = 1u << 0,      /* sets what autonegotiation resolves (partner, cable) */
    K_NOLINK = 1u << 1,   /* no link at all */
    K_TRAFFIC = 1u << 2,  /* its evidence needs traffic that flows */
    K_NOTRAF = 1u << 3,   /* traffic does not flow (tool mismatch, MAC speed) */
    K_LOSSY = 1u << 4,    /* frames are lost or corrupted */
    K_1G = 1u << 5,       /* only shows at 1000 Mb/s */
    K_RTT = 1u << 6,      /* sets the path's latency */
    K_ALL = 0xff,
};

/* Traffic the fault needs. */
enum proto_need { P_ANY, P_TCP, P_UDP };

/* INI being built, one buffer per section. */
enum { S_BOARD, S_LINK, S_TIMELINE, S_TRAFFIC, S_EXPECT, S_N };
static const char *const sect_name[S_N] = { "board", "link", "timeline", "traffic", "expect" };

struct ctx {
    struct gl_prng *r;
    struct cp_sample *s;
    unsigned min_duration_s;    /* traffic a fault needs to show */
    bool vt;                    /* the sample runs in virtual time */
    char sect[S_N][512];
};

static void put(struct ctx *c, int sect, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(struct ctx *c, int sect, const char *fmt, ...)
{
    size_t n = strlen(c->sect[sect]);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(c->sect[sect] + n, sizeof(c->sect[sect]) - n, fmt, ap);
    va_end(ap);
}

static unsigned pick(struct ctx *c, unsigned lo, unsigned hi)
{
    return lo + (unsigned)gl_prng_below(c->r, (uint64_t)hi - lo + 1);
}

static const char *pick_str(struct ctx *c, const char *const *v, unsigned n)
{
    return v[gl_prng_below(c->r, n)];
}

#define E(code) BIT(DG_##code)

/* struct fault.fw: the fault also runs in virtual time (--clock virtual),
 * bare metal only: the peer plays iperf 2 TCP/UDP with -P, -w, -d
 * (docs/PEER.md), and a timeline runs at its virtual times during the
 * traffic (docs/VIRTUAL_TIME.md) */
#define CP_VT 0x100u
#define CP_FW_ANY (CP_FW_BAREMETAL | CP_FW_LINUX)

/* Each apply() writes its keys and adds its expected/allowed codes. */
static void f_clean(struct ctx *c) { (void)c; }

static void f_partner_slow(struct ctx *c)
{
    static const char *const ab[] = { "100FD,100HD", "100FD", "10FD,10HD", "100FD,100HD,10FD,10HD" };
    put(c, S_LINK, "partner = %s\n", pick_str(c, ab, 4));
    c->s->expect |= E(PHY_SPEED_BELOW_EXPECTED);
}

/* A partner with autonegotiation off: our PHY parallel-detects its speed
 * and must assume half duplex (IEEE 802.3 28.2.3.1), so a full-duplex
 * partner is a duplex mismatch and a half-duplex one is not. */
static void f_partner_forced_full(struct ctx *c)
{
    put(c, S_LINK, "partner_autoneg = off\npartner_speed = %u\npartner_duplex = full\n",
        gl_prng_below(c->r, 2) ? 100u : 10u);
    c->s->expect |= E(PHY_SPEED_BELOW_EXPECTED);
    c->s->allow |= E(PHY_FCS_ERRORS) | E(PROTO_RETRANSMITS) | E(PROTO_UDP_LOSS);
    /* The mismatch shows only when both ends transmit (a collision needs
     * the half-duplex end to send while it receives, IEEE 802.3 4.1.2.2):
     * TCP's data and ACKs do; one-way UDP into the board leaves the half
     * end silent, and in virtual time nothing else does either, so there
     * the code is a consequence a bench may or may not show. */
    if (c->s->udp)
        c->s->allow |= E(PHY_DUPLEX_MISMATCH);
    else
        c->s->expect |= E(PHY_DUPLEX_MISMATCH);
}

static void f_partner_forced_half(struct ctx *c)
{
    put(c, S_LINK, "partner_autoneg = off\npartner_speed = %u\npartner_duplex = half\n",
        gl_prng_below(c->r, 2) ? 100u : 10u);
    c->s->expect |= E(PHY_SPEED_BELOW_EXPECTED);
}

/* Two pairs: 1000BASE-T needs four (40.1.3); the 88E1116R downshifts. */
static void f_downshift(struct ctx *c)
{
    put(c, S_LINK, "cable = 2pair\ndownshift = on\ndownshift_attempts = %u\n", pick(c, 1, 4));
    c->s->expect |= E(PHY_DOWNSHIFT) | E(PHY_SPEED_BELOW_EXPECTED);
}

static void f_no_link(struct ctx *c)
{
    if (gl_prng_below(c->r, 2))
        put(c, S_LINK, "cable = none\n");
    else
        put(c, S_LINK, "cable = 2pair\ndownshift = off\n");
    put(c, S_EXPECT, "link = down\n");
    c->s->expect |= E(PHY_NO_LINK);
}

/* Flaps early in the run, so that after the last one autonegotiation
 * (up to ~3 s at 1000BASE-T, 28.2.3 + 40.5) has relinked well before the
 * runner reads the final link state. */
static void f_flaps(struct ctx *c)
{
    unsigned n = pick(c, 1, 3);
    put(c, S_TIMELINE, "at = 1s flap %ums %u 1500ms\n", pick(c, 2, 5) * 100, n);
    if (c->min_duration_s < 10)
        c->min_duration_s = 10;
    c->s->expect |= E(PHY_LINK_FLAPS);
    c->s->allow |= E(PROTO_RETRANSMITS) | E(PROTO_UDP_LOSS) | E(MAC_RX_STALL);
}

static void f_loss(struct ctx *c)
{
    if (gl_prng_below(c->r, 2))
        put(c, S_LINK, "loss = random %u.%u%%\n", pick(c, 1, 4), pick(c, 0, 9));
    else /* bursts: p 1..3 %, r 20..40 %, loss 100 % in Bad */
        put(c, S_LINK, "loss = gemodel %u%% %u%%\n", pick(c, 1, 3), pick(c, 20, 40));
    c->s->expect |= c->s->udp ? E(PROTO_UDP_LOSS) : E(PROTO_RETRANSMITS);
}

static void f_corrupt(struct ctx *c)
{
    put(c, S_LINK, "corrupt = %u%%\n", pick(c, 1, 4));
    c->s->expect |= E(PHY_FCS_ERRORS);
    c->s->allow |= E(PROTO_RETRANSMITS) | E(PROTO_UDP_LOSS);
}

/* phy-mode "rgmii" on a board without PCB delays: the PHY adds no clock
 * delay (page 2 reg 21 bits 5/4 clear), so setup/hold fail at 125 MHz DDR
 * only (RGMII v2.0 table 2).  The PHY model decides that from the bits the
 * guest wrote; rgmii_skew only says how many frames it then corrupts. */
static void f_rgmii(struct ctx *c)
{
    put(c, S_BOARD, "phy_mode = rgmii\n");
    put(c, S_LINK, "rgmii_skew = %u%%\n", pick(c, 1, 4));
    c->s->expect |= E(PHY_RGMII_DELAY) | E(PHY_FCS_ERRORS);
    c->s->allow |= E(PROTO_RETRANSMITS) | E(PROTO_UDP_LOSS);
}

/* The driver never writes NWCFG's speed bits after link-up (UG585 16.3.x
 * "Configure the PHY ... then the controller"), so the GEM keeps the
 * 1000/full of its init: a fault only when the link resolves lower, so the
 * partner is 10/100-only too. */
static void f_mac_unprogrammed(struct ctx *c)
{
    static const char *const ab[] = { "100FD,100HD", "100FD", "10FD,10HD" };
    put(c, S_BOARD, "mac_speed = unprogrammed\n");
    put(c, S_LINK, "partner = %s\n", pick_str(c, ab, 3));
    c->s->expect |= E(MAC_SPEED_MISMATCH) | E(PHY_SPEED_BELOW_EXPECTED);
    c->s->allow |= E(PHY_FCS_ERRORS) | E(PROTO_RETRANSMITS) | E(PROTO_UDP_LOSS) | E(MAC_RX_STALL);
}

static void f_rx_ring(struct ctx *c)
{
    static const char *const n[] = { "2", "4", "8" };
    put(c, S_BOARD, "rx_bds = %s\n", pick_str(c, n, 3));
    put(c, S_TRAFFIC, "bandwidth = 200M\nlength = 256\n");
    c->s->expect |= E(MAC_RX_RESOURCE_ERRORS) | E(PROTO_UDP_LOSS);
    c->s->allow |= E(PROTO_UDP_JITTER); /* drops in bursts spread the arrivals */
}

/* A long path: 16..40 ms RTT.  No -w: what binds is the receiver's window
 * (lwIP TCP_WND on bare-metal; over slirp, the host's TCP ends in QEMU, so
 * the host's -w never reaches the wire). */
static void f_rtt(struct ctx *c)
{
    put(c, S_LINK, "latency = %ums\n", pick(c, 8, 20));
    c->s->expect |= E(PROTO_WINDOW_LIMITED);
    c->s->allow |= E(METHOD_WINDOW_BELOW_BDP);
}

/* -w 16..64 KiB over 16..40 ms RTT, end to end over a tap (so the host's
 * socket buffer is the window on the wire; socket(7): Linux doubles the
 * requested SO_SNDBUF/SO_RCVBUF). */
static void f_window(struct ctx *c)
{
    static const char *const w[] = { "16K", "32K", "64K" };
    put(c, S_LINK, "latency = %ums\n", pick(c, 8, 20));
    put(c, S_TRAFFIC, "window = %s\n", pick_str(c, w, 3));
    /* real time: the host's iperf -w needs a socket of its own (a tap);
     * virtual time: the peer's client takes -w */
    if (!c->vt)
        snprintf(c->s->net, sizeof(c->s->net), "tap");
    c->s->expect |= E(PROTO_WINDOW_LIMITED) | E(METHOD_WINDOW_BELOW_BDP);
}

/* A path that reorders (netem's reorder: 2-10 % of frames skip a 1-3 ms
 * delay).  TCP at the line's rate, so that frames are close enough to
 * overtake one another; the tap at the board's port sees the partner's
 * late originals by their IPv4 numbers (capture.c).  The delay alone
 * may bind the window, and a resend drawn by duplicate ACKs may count. */
static void f_reorder(struct ctx *c)
{
    put(c, S_LINK, "latency = %ums\nreorder = %u%%\n", pick(c, 1, 3), pick(c, 2, 10));
    c->s->expect |= E(PROTO_REORDERING);
    c->s->allow |= E(PROTO_WINDOW_LIMITED) | E(METHOD_WINDOW_BELOW_BDP) | E(PROTO_RETRANSMITS);
}

/* A path that copies 2-10 % of frames (netem's duplicate): TCP into the
 * board, the same IPv4 number and length twice at its port. */
static void f_duplicate(struct ctx *c)
{
    put(c, S_LINK, "duplicate = %u%%\n", pick(c, 2, 10));
    c->s->expect |= E(PROTO_DUPLICATES);
    c->s->allow |= E(PROTO_RETRANSMITS);
}

/* A hop slower than the board's 1G link between it and the sender (a
 * 100 Mb/s port, a shaper): 20-80 Mb/s, TCP into the board, whose
 * frames the tap at its port sees spaced at the hop's rate (capture.c,
 * packet dispersion).  Under 100: in real time the emulated Linux board
 * takes about 95 Mb/s before its CPU is the limit (2026-12-07: a 150 Mb/s
 * hop carried 95.16, one core 95.9 % busy, and the hop was rightly not
 * named).  A queue the hop overflows may cost resends. */
static void f_bottleneck(struct ctx *c)
{
    put(c, S_LINK, "rate = %uM\n", pick(c, 2, 8) * 10);
    c->s->expect |= E(PROTO_PATH_BOTTLENECK);
    c->s->allow |= E(PROTO_RETRANSMITS);
}

static void f_version_mismatch(struct ctx *c)
{
    put(c, S_TRAFFIC, "tool = iperf3\nboard_tool = iperf2\n");
    c->s->expect |= E(METHOD_IPERF_VERSION_MISMATCH);
}

static void f_irq_cpu0(struct ctx *c)
{
    put(c, S_BOARD, "cpus = 2\nirq_affinity = cpu0\n");
    put(c, S_TRAFFIC, "parallel = 4\n");
    c->s->expect |= E(MAC_IRQ_SINGLE_CPU);
}

struct fault {
    const char *name;
    const char *what;             /* for campaign.md */
    unsigned fw;                  /* CP_FW_* it runs on */
    enum proto_need proto;
    unsigned claims, conflicts;
    unsigned weight;              /* relative draw weight */
    void (*apply)(struct ctx *c);
};

static const struct fault faults[] = {
    { "clean", "no fault (negative sample)", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_ANY, K_ALL, K_ALL, 3, f_clean },
    { "partner_slow", "partner advertises 10/100 only", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_ANY, K_NEG, K_NEG | K_1G, 1, f_partner_slow },
    /* the mismatch shows as collisions and FCS errors: it needs traffic */
    { "partner_forced_full", "partner forced 10/100 full duplex, autoneg off", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_ANY,
      K_NEG | K_LOSSY, K_NEG | K_1G | K_NOTRAF, 1, f_partner_forced_full },
    { "partner_forced_half", "partner forced 10/100 half duplex, autoneg off", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_ANY,
      K_NEG, K_NEG | K_1G, 1, f_partner_forced_half },
    { "downshift", "2-pair cable, downshift on", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_ANY, K_NEG, K_NEG | K_1G, 1, f_downshift },
    { "no_link", "no cable, or 2 pairs with downshift off", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_ANY, K_ALL, K_ALL, 1, f_no_link },
    { "flaps", "1-3 link flaps of 200-500 ms, 1.5 s apart", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_ANY, K_LOSSY, 0, 1, f_flaps },
    { "loss", "random 1-5 % or Gilbert-Elliott loss", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_ANY, K_LOSSY | K_TRAFFIC, K_NOTRAF, 1,
      f_loss },
    { "corrupt", "1-4 % corrupted frames", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_ANY, K_LOSSY | K_TRAFFIC, K_NOTRAF, 1, f_corrupt },
    { "rgmii", "phy-mode rgmii (no PHY delay, no PCB delay), 1-4 % CRC at 1000", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_ANY,
      K_LOSSY | K_TRAFFIC | K_1G, K_NEG | K_NOTRAF, 1, f_rgmii },
    { "mac_unprogrammed", "driver never writes the MAC speed; partner 10/100 only", CP_FW_BAREMETAL | CP_VT, P_ANY,
      K_NOTRAF | K_NEG, K_TRAFFIC | K_NOTRAF | K_NEG, 1,
      f_mac_unprogrammed },
    { "rx_ring", "2-8 RX descriptors at 200 Mb/s of 256-byte UDP", CP_FW_BAREMETAL | CP_VT, P_UDP, K_TRAFFIC | K_1G,
      K_NEG | K_NOTRAF, 1, f_rx_ring },
    { "rtt", "16-40 ms RTT, default window", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_TCP, K_TRAFFIC | K_RTT,
      K_LOSSY | K_NOTRAF | K_RTT | K_NEG, 1, f_rtt },
    /* as rtt: on a 10 Mb/s link W/RTT can exceed the line, and neither
     * window code is then true */
    { "window", "-w 16-64K over 16-40 ms RTT (real time: --net tap, root)", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_TCP,
      K_TRAFFIC | K_RTT, K_LOSSY | K_NOTRAF | K_RTT | K_NEG, 1, f_window },
    /* the delay sets the path's latency, as rtt's does */
    { "reorder", "2-10 % of frames reordered over a 1-3 ms delay", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_TCP,
      K_TRAFFIC | K_RTT, K_LOSSY | K_NOTRAF | K_RTT | K_NEG, 1, f_reorder },
    /* too few frames under a mismatch or flaps to count copies in */
    { "duplicate", "2-10 % of frames copied on the path", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_TCP,
      K_TRAFFIC, K_LOSSY | K_NOTRAF | K_RTT, 1, f_duplicate },
    /* the hop sets the traffic's rate: nothing else that needs traffic
     * of its own strength, nor a link under 1000 */
    { "bottleneck", "a 20-80 Mb/s hop on the path into the 1G board", CP_FW_BAREMETAL | CP_FW_LINUX | CP_VT, P_TCP,
      K_TRAFFIC | K_1G, K_TRAFFIC | K_LOSSY | K_NOTRAF | K_RTT | K_NEG, 1, f_bottleneck },
    { "version_mismatch", "host iperf3 against the board's iperf 2", CP_FW_BAREMETAL, P_ANY, K_NOTRAF,
      K_TRAFFIC | K_NOTRAF, 1, f_version_mismatch },
    { "irq_cpu0", "2 CPUs, GEM IRQ on CPU0 only, -P 4", CP_FW_LINUX, P_TCP, K_TRAFFIC, K_NOTRAF, 1, f_irq_cpu0 },
};
#define NFAULTS ((int)(sizeof(faults) / sizeof(faults[0])))

int cp_nfaults(void) { return NFAULTS; }

const char *cp_fault_name(int i)
{
    return i >= 0 && i < NFAULTS ? faults[i].name : NULL;
}

bool cp_fault_vt(int i)
{
    return i >= 0 && i < NFAULTS && (faults[i].fw & CP_VT);
}

int cp_fault_lookup(const char *name)
{
    for (int i = 0; i < NFAULTS; i++)
        if (!strcmp(faults[i].name, name))
            return i;
    return -1;
}

static bool compatible(const struct fault *a, const struct fault *b)
{
    if (a == b || (a->claims & b->conflicts) || (b->claims & a->conflicts) || !(a->fw & b->fw & CP_FW_ANY))
        return false;
    return a->proto == P_ANY || b->proto == P_ANY || a->proto == b->proto;
}

/* Draw one row among those @o allows that fit @with (NULL: any) and the
 * firmware mask; weighted.  -1 when none. */
static int draw_fault(struct gl_prng *r, const struct cp_opts *o, const struct fault *with)
{
    unsigned total = 0, x = 0;
    int i;

    for (int pass = 0; pass < 2; pass++) {
        for (i = 0; i < NFAULTS; i++) {
            const struct fault *f = &faults[i];
            if ((o->fault_mask && !(o->fault_mask & BIT(i))) || !(f->fw & o->fw_mask) || (o->vt && !(f->fw & CP_VT)))
                continue;
            /* with --pairs, clean and no_link (which pair with nothing)
             * are not drawn; a fault that finds no compatible second
             * (rtt on bare metal) runs alone */
            if (with ? !compatible(with, f) : (o->pairs && f->claims == K_ALL))
                continue;
            if (pass == 0) {
                total += f->weight;
            } else if (x < f->weight) {
                return i;
            } else {
                x -= f->weight;
            }
        }
        if (pass == 0) {
            if (!total)
                return -1;
            x = (unsigned)gl_prng_below(r, total);
        }
    }
    return -1;
}

int cp_sample_draw(const struct cp_opts *o, unsigned index, struct cp_sample *s, FILE *err)
{
    struct gl_prng r;
    struct ctx c;
    enum proto_need need = P_ANY;
    unsigned fwm;
    size_t n = 0;
    int a, b = -1;

    memset(s, 0, sizeof(*s));
    memset(&c, 0, sizeof(c));
    /* sample i's stream depends only on (seed, i): a miss reproduces with
     * --seed S --only i whatever --runs was */
    gl_prng_seed(&r, o->seed ^ (UINT64_C(0x9E3779B97F4A7C15) * ((uint64_t)index + 1)));
    s->index = index;
    s->seed = gl_prng_u64(&r) >> 33; /* fits the scenario's seed key */
    a = draw_fault(&r, o, NULL);
    if (a < 0) {
        if (err)
            fprintf(err, "gemlab campaign: --faults and --firmware%s leave no fault to draw%s\n",
                    o->vt ? " with --clock virtual" : "",
                    o->vt ? " (those `gemlab campaign --help` marks * run in real time only)" : "");
        return -EINVAL;
    }
    s->fault[s->nfaults++] = a;
    /* clean and no_link stand alone; otherwise a second fault with --pairs */
    if (o->pairs && !(faults[a].claims == K_ALL)) {
        b = draw_fault(&r, o, &faults[a]);
        if (b >= 0)
            s->fault[s->nfaults++] = b;
    }
    fwm = faults[a].fw & (b >= 0 ? faults[b].fw : ~0u) & o->fw_mask & (o->vt ? CP_FW_BAREMETAL : CP_FW_ANY);
    s->fw = (fwm & CP_FW_BAREMETAL) && (!(fwm & CP_FW_LINUX) || gl_prng_below(&r, 2)) ? CP_FW_BAREMETAL : CP_FW_LINUX;
    for (int i = 0; i < s->nfaults; i++)
        if (faults[s->fault[i]].proto != P_ANY)
            need = faults[s->fault[i]].proto;
    s->udp = need == P_UDP || (need == P_ANY && gl_prng_below(&r, 4) == 0);

    c.r = &r;
    c.s = s;
    c.vt = o->vt;
    for (int i = 0; i < s->nfaults; i++)
        faults[s->fault[i]].apply(&c);
    /* method codes a clean bench may show: iperf3 without -O really is
     * the method's fault; a baseline is not given here */
    s->allow |= E(METHOD_NO_OMIT);
    s->allow &= ~s->expect;

    n += (size_t)snprintf(s->scenario + n, sizeof(s->scenario) - n,
                          "; gemlab campaign seed %" PRIu64 " sample %u:", o->seed, index);
    for (int i = 0; i < s->nfaults; i++)
        n += (size_t)snprintf(s->scenario + n, sizeof(s->scenario) - n, " %s", faults[s->fault[i]].name);
    n += (size_t)snprintf(s->scenario + n, sizeof(s->scenario) - n,
                          "\n[scenario]\nname = campaign_%u\ndescription = campaign sample %u\n"
                          "todo = campaign sample: scored by gemlab campaign, not by its verdict\n",
                          index, index);
    put(&c, S_BOARD, "firmware = %s\n", s->fw == CP_FW_LINUX ? "linux" : "baremetal");
    if (o->vt)
        put(&c, S_BOARD, "clock = virtual\n");
    put(&c, S_LINK, "seed = %" PRIu64 "\n", s->seed);
    put(&c, S_TRAFFIC, "protocol = %s\nduration = %us\n", s->udp ? "udp" : "tcp",
        o->duration_s > c.min_duration_s ? o->duration_s : c.min_duration_s);
    /* UDP at 20 Mb/s: in real time the emulated board still drains its
     * ring at 50 Mb/s only with bursts of RX resource errors (a clean
     * sample named MAC_RX_RESOURCE_ERRORS there), at 20 it keeps up */
    if (s->udp && !strstr(c.sect[S_TRAFFIC], "bandwidth"))
        put(&c, S_TRAFFIC, "bandwidth = 20M\n");
    for (int i = 0; i < S_N; i++)
        if (c.sect[i][0])
            n += (size_t)snprintf(s->scenario + n, sizeof(s->scenario) - n, "\n[%s]\n%s", sect_name[i], c.sect[i]);
    if (n >= sizeof(s->scenario)) {
        if (err)
            fprintf(err, "gemlab campaign: sample %u: scenario longer than %d bytes\n", index, CP_SCENARIO_MAX);
        return -EOVERFLOW;
    }
    return 0;
}

/* ---- blind diagnosis and scoring ----------------------------------------- */

uint64_t cp_blind_codes(const cJSON *results)
{
    cJSON *blind = cJSON_Duplicate(results, true);
    struct dg_in *in = malloc(sizeof(*in));
    struct dg_report rep;
    uint64_t found = 0;

    if (!blind || !in) {
        cJSON_Delete(blind);
        free(in);
        return 0;
    }
    /* the evidence only: what the scenario asked and the models' internals
     * are ground truth (emu/runner/RESULTS.md, `gemlab diagnose --blind`) */
    dg_make_blind(blind);
    dg_in_from_json(blind, in);
    dg_run(in, &rep);
    for (int i = 0; i < rep.n; i++)
        found |= BIT(rep.f[i].code);
    dg_report_free(&rep);
    cJSON_Delete(blind);
    free(in);
    return found;
}

static bool is_clean(const struct cp_sample *s)
{
    return s->nfaults == 1 && !strcmp(faults[s->fault[0]].name, "clean");
}

void cp_score_add(struct cp_score *sc, const struct cp_sample *s, uint64_t found)
{
    sc->samples++;
    for (int c = 0; c < DG_NCODES; c++) {
        bool e = s->expect & BIT(c), f = found & BIT(c);
        if (e && f)
            sc->tp[c]++;
        else if (e)
            sc->fn[c]++;
        else if (f && !(s->allow & BIT(c)))
            sc->fp[c]++;
    }
    if ((found & s->expect) == s->expect)
        sc->all_named++;
    if (is_clean(s)) {
        uint64_t alarm = 0;
        sc->clean++;
        for (int c = 0; c < DG_NCODES; c++) {
            enum dg_layer l = dg_code_layer((enum dg_code)c);
            if (l == DG_LAYER_PHYSICAL || l == DG_LAYER_MAC || l == DG_LAYER_PROTOCOL)
                alarm |= BIT(c);
        }
        if (found & alarm)
            sc->clean_false_alarms++;
    }
}

double cp_precision(const struct cp_score *sc, enum dg_code c)
{
    unsigned d = sc->tp[c] + sc->fp[c];
    return d ? 100.0 * sc->tp[c] / d : NAN;
}

double cp_recall(const struct cp_score *sc, enum dg_code c)
{
    unsigned d = sc->tp[c] + sc->fn[c];
    return d ? 100.0 * sc->tp[c] / d : NAN;
}

/* ---- the campaign ------------------------------------------------------- */

struct outcome {
    struct cp_sample s;
    uint64_t found;
    int rc;                  /* gemlab run's exit status */
    char verdict[8];         /* PASS/FAIL/ERROR, "" when no results.json */
    double bps;
};

static volatile sig_atomic_t stop_sig;
static void on_signal(int sig) { stop_sig = sig; }

static void codes_json(cJSON *o, const char *name, uint64_t set)
{
    cJSON *a = cJSON_AddArrayToObject(o, name);
    for (int c = 0; c < DG_NCODES; c++)
        if (set & BIT(c))
            cJSON_AddItemToArray(a, cJSON_CreateString(dg_code_name((enum dg_code)c)));
}

static void codes_text(FILE *f, uint64_t set)
{
    int n = 0;
    for (int c = 0; c < DG_NCODES; c++)
        if (set & BIT(c))
            fprintf(f, "%s%s", n++ ? ", " : "", dg_code_name((enum dg_code)c));
    if (!n)
        fputs("-", f);
}

static void fault_names(FILE *f, const struct cp_sample *s)
{
    for (int i = 0; i < s->nfaults; i++)
        fprintf(f, "%s%s", i ? "+" : "", faults[s->fault[i]].name);
}

static bool missed(const struct outcome *o)
{
    return !o->verdict[0] || !strcmp(o->verdict, "ERROR") || (o->found & o->s.expect) != o->s.expect ||
           (o->found & ~(o->s.expect | o->s.allow));
}

/* The command that reruns sample @x alone: every option that decides its
 * draw (--faults: the draw is among them; --runs does not, but keeps the
 * command the campaign's), into a directory of its own below the campaign's @dir (its
 * default out, the campaign's own, would be replaced by a one-sample
 * campaign). */
static void repro(FILE *f, const struct cp_campaign_opts *co, const struct outcome *x, const char *argv0,
                  const char *dir)
{
    const struct cp_opts *o = &co->o;

    fprintf(f, "%s campaign --seed %" PRIu64 " --runs %u --only %u%s%s%s --duration %u", argv0, o->seed, o->runs,
            x->s.index, o->vt ? " --clock virtual" : "", o->pairs ? " --pairs" : "",
            o->fw_mask == (CP_FW_BAREMETAL | CP_FW_LINUX) ? " --firmware all"
            : o->fw_mask == CP_FW_LINUX                   ? " --firmware linux"
                                                          : "",
            o->duration_s);
    if (o->fault_mask) {
        const char *sep = " --faults ";
        for (int i = 0; i < NFAULTS; i++)
            if (o->fault_mask & BIT(i)) {
                fprintf(f, "%s%s", sep, faults[i].name);
                sep = ",";
            }
    }
    /* how it ran, too: as root gemlab runs no QEMU from the tree */
    if (co->qemu)
        fprintf(f, " --qemu %s", co->qemu);
    if (co->timeout_s)
        fprintf(f, " --timeout %u", co->timeout_s);
    fprintf(f, " --out %s/repro-%u", dir, x->s.index);
}

/* campaign.json: everything, rewritten after every sample so a killed
 * campaign keeps what it measured. */
static int write_json(const char *dir, const struct cp_opts *o, const struct outcome *x, unsigned n,
                      const struct cp_score *sc, const char *cmdline)
{
    cJSON *root = cJSON_CreateObject(), *a, *codes;
    char path[PATH_MAX], *text;
    int rc;

    cJSON_AddStringToObject(root, "schema", "gemlab-campaign-1");
    cJSON_AddStringToObject(root, "command", cmdline);
    cJSON_AddItemToObject(root, "seed", rs_json_u64(o->seed));
    cJSON_AddNumberToObject(root, "runs", o->runs);
    cJSON_AddBoolToObject(root, "pairs", o->pairs);
    cJSON_AddNumberToObject(root, "samples_done", n);
    /* a signal stopped it: the scores cover the samples_done finished ones */
    cJSON_AddBoolToObject(root, "interrupted", stop_sig != 0);
    cJSON_AddNumberToObject(root, "errors", sc->errors);
    cJSON_AddNumberToObject(root, "clean_samples", sc->clean);
    cJSON_AddNumberToObject(root, "clean_false_alarms", sc->clean_false_alarms);
    cJSON_AddNumberToObject(root, "all_faults_named", sc->all_named);
    a = cJSON_AddArrayToObject(root, "samples");
    for (unsigned i = 0; i < n; i++) {
        cJSON *e = cJSON_CreateObject(), *fl = cJSON_AddArrayToObject(e, "faults");
        cJSON_AddItemToArray(a, e);
        cJSON_AddNumberToObject(e, "index", x[i].s.index);
        cJSON_AddNumberToObject(e, "seed", (double)x[i].s.seed);
        for (int k = 0; k < x[i].s.nfaults; k++)
            cJSON_AddItemToArray(fl, cJSON_CreateString(faults[x[i].s.fault[k]].name));
        cJSON_AddStringToObject(e, "firmware", x[i].s.fw == CP_FW_LINUX ? "linux" : "baremetal");
        cJSON_AddStringToObject(e, "protocol", x[i].s.udp ? "udp" : "tcp");
        cJSON_AddStringToObject(e, "net", x[i].s.net[0] ? x[i].s.net : o->vt ? "sim" : "user");
        cJSON_AddStringToObject(e, "verdict", x[i].verdict);
        cJSON_AddNumberToObject(e, "run_exit", x[i].rc);
        if (isfinite(x[i].bps))
            cJSON_AddNumberToObject(e, "throughput_bps", x[i].bps);
        codes_json(e, "expected", x[i].s.expect);
        codes_json(e, "allowed", x[i].s.allow);
        codes_json(e, "named", x[i].found);
        cJSON_AddBoolToObject(e, "miss", missed(&x[i]));
    }
    codes = cJSON_AddObjectToObject(root, "codes");
    for (int c = 0; c < DG_NCODES; c++) {
        cJSON *e;
        double p = cp_precision(sc, c), r = cp_recall(sc, c);
        if (!sc->tp[c] && !sc->fp[c] && !sc->fn[c])
            continue;
        e = cJSON_AddObjectToObject(codes, dg_code_name((enum dg_code)c));
        cJSON_AddNumberToObject(e, "tp", sc->tp[c]);
        cJSON_AddNumberToObject(e, "fp", sc->fp[c]);
        cJSON_AddNumberToObject(e, "fn", sc->fn[c]);
        if (isfinite(p))
            cJSON_AddNumberToObject(e, "precision_pct", p);
        else
            cJSON_AddNullToObject(e, "precision_pct");
        if (isfinite(r))
            cJSON_AddNumberToObject(e, "recall_pct", r);
        else
            cJSON_AddNullToObject(e, "recall_pct");
    }
    text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return -ENOMEM;
    snprintf(path, sizeof(path), "%s/campaign.json", dir);
    rc = runner_write_text(path, text);
    free(text);
    return rc;
}

static void pct(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.1f", v);
    else
        fputs("-", f);
}

/* Rows: faults drawn; columns: codes named anywhere or expected anywhere;
 * a cell counts the samples of that fault in which the code was named. */
static void matrix(const struct outcome *x, unsigned n, unsigned cnt[][DG_NCODES], unsigned rows[], uint64_t *cols)
{
    *cols = 0;
    for (unsigned i = 0; i < n; i++) {
        *cols |= x[i].found | x[i].s.expect;
        for (int k = 0; k < x[i].s.nfaults; k++) {
            int fi = x[i].s.fault[k];
            rows[fi]++;
            for (int c = 0; c < DG_NCODES; c++)
                if (x[i].found & BIT(c))
                    cnt[fi][c]++;
        }
    }
}

static int write_md_html(const char *dir, const struct cp_campaign_opts *co, const struct outcome *x, unsigned n,
                         const struct cp_score *sc, const char *argv0)
{
    const struct cp_opts *o = &co->o;
    const char *cmdline = co->cmdline;
    static unsigned cnt[NFAULTS][DG_NCODES];
    unsigned rows[NFAULTS] = { 0 };
    uint64_t cols;
    struct runner_out md, html;
    char path[PATH_MAX];
    int rc;

    memset(cnt, 0, sizeof(cnt));
    matrix(x, n, cnt, rows, &cols);

    snprintf(path, sizeof(path), "%s/campaign.md", dir);
    if ((rc = runner_out_open(&md, path)))
        return rc;
    fprintf(md.f, "# Fault campaign\n\n`%s`\n\n", cmdline);
    {
        char each[96];
        unsigned single = 0;
        for (unsigned i = 0; i < n; i++)
            single += x[i].s.nfaults < 2;
        if (!o->pairs)
            snprintf(each, sizeof(each), "one fault each");
        else if (single)
            snprintf(each, sizeof(each), "two faults each but %u with one, which fits with no other", single);
        else
            snprintf(each, sizeof(each), "two faults each");
        fprintf(md.f, "%u samples (seed %" PRIu64 ", %s), %u errors; every injected fault named in %u; "
                      "%u clean samples, %u with a physical/MAC/protocol code.\n\n",
                n, o->seed, each, sc->errors, sc->all_named, sc->clean, sc->clean_false_alarms);
    }
    if (stop_sig)
        fprintf(md.f, "**Interrupted** (signal %d) after %u of %u samples: the figures below cover the %u that "
                      "finished; the sample the signal cut short is not scored.\n\n",
                (int)stop_sig, n, o->runs, n);
    fputs("Each sample is diagnosed blind (results.json without `scenario` and `truth`). A code is a true "
          "positive when the sample injected it, a false positive when it was neither injected nor an "
          "allowed consequence.\n\n| code | TP | FP | FN | precision % | recall % |\n|---|---|---|---|---|---|\n",
          md.f);
    for (int c = 0; c < DG_NCODES; c++) {
        if (!sc->tp[c] && !sc->fp[c] && !sc->fn[c])
            continue;
        fprintf(md.f, "| %s | %u | %u | %u | ", dg_code_name(c), sc->tp[c], sc->fp[c], sc->fn[c]);
        pct(md.f, cp_precision(sc, c));
        fputs(" | ", md.f);
        pct(md.f, cp_recall(sc, c));
        fputs(" |\n", md.f);
    }
    fputs("\n## Faults and the codes named (samples)\n\n| fault | samples |", md.f);
    for (int c = 0; c < DG_NCODES; c++)
        if (cols & BIT(c))
            fprintf(md.f, " %s |", dg_code_name(c));
    fputs("\n|---|---|", md.f);
    for (int c = 0; c < DG_NCODES; c++)
        if (cols & BIT(c))
            fputs("---|", md.f);
    fputc('\n', md.f);
    for (int fi = 0; fi < NFAULTS; fi++) {
        if (!rows[fi])
            continue;
        fprintf(md.f, "| %s | %u |", faults[fi].name, rows[fi]);
        for (int c = 0; c < DG_NCODES; c++)
            if (cols & BIT(c))
                fprintf(md.f, " %u |", cnt[fi][c]);
        fputc('\n', md.f);
    }
    fputs("\n## Misses (reproduce each with its command)\n\n", md.f);
    for (unsigned i = 0; i < n; i++) {
        if (!missed(&x[i]))
            continue;
        fprintf(md.f, "- sample %u (", x[i].s.index);
        fault_names(md.f, &x[i].s);
        fprintf(md.f, ", %s %s, verdict %s): expected ", x[i].s.fw == CP_FW_LINUX ? "linux" : "baremetal",
                x[i].s.udp ? "udp" : "tcp", x[i].verdict[0] ? x[i].verdict : "none");
        codes_text(md.f, x[i].s.expect);
        fputs(", named ", md.f);
        codes_text(md.f, x[i].found);
        fputs(": `", md.f);
        repro(md.f, co, &x[i], argv0, dir);
        fputs("`\n", md.f);
    }
    if ((rc = runner_out_commit(&md)))
        return rc;

    snprintf(path, sizeof(path), "%s/campaign.html", dir);
    if ((rc = runner_out_open(&html, path)))
        return rc;
    fputs("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>gemlab fault campaign</title>\n"
          "<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #999;"
          "padding:2px 6px;text-align:right}th{background:#eee}td.l{text-align:left}.z{color:#bbb}"
          ".e{background:#dfd}.x{background:#fdd}</style></head><body>\n<h1>Fault campaign</h1>\n<p><code>",
          html.f);
    runner_html_esc(html.f, cmdline);
    fputs("</code></p>\n", html.f);
    if (stop_sig)
        fprintf(html.f, "<p><strong>Interrupted</strong> (signal %d) after %u of %u samples: the figures cover "
                        "those that finished.</p>\n", (int)stop_sig, n, o->runs);
    fprintf(html.f, "<p>%u samples, %u errors, every injected fault named in %u; %u clean samples, "
                    "%u false alarms.</p>\n<h2>Per code</h2>\n<table><tr><th>code</th><th>TP</th><th>FP</th>"
                    "<th>FN</th><th>precision %%</th><th>recall %%</th></tr>\n",
            n, sc->errors, sc->all_named, sc->clean, sc->clean_false_alarms);
    for (int c = 0; c < DG_NCODES; c++) {
        if (!sc->tp[c] && !sc->fp[c] && !sc->fn[c])
            continue;
        fprintf(html.f, "<tr><td class=\"l\">%s</td><td>%u</td><td>%u</td><td>%u</td><td>", dg_code_name(c),
                sc->tp[c], sc->fp[c], sc->fn[c]);
        pct(html.f, cp_precision(sc, c));
        fputs("</td><td>", html.f);
        pct(html.f, cp_recall(sc, c));
        fputs("</td></tr>\n", html.f);
    }
    fputs("</table>\n<h2>Confusion matrix: injected fault (rows) against codes named (columns)</h2>\n"
          "<p>Green: the fault must produce the code. Red: named although not expected.</p>\n"
          "<table><tr><th>fault</th><th>samples</th>",
          html.f);
    for (int c = 0; c < DG_NCODES; c++)
        if (cols & BIT(c))
            fprintf(html.f, "<th>%s</th>", dg_code_name(c));
    fputs("</tr>\n", html.f);
    for (int fi = 0; fi < NFAULTS; fi++) {
        struct cp_sample probe;
        uint64_t exp = 0;
        if (!rows[fi])
            continue;
        /* the codes this fault expects, from any of its samples */
        for (unsigned i = 0; i < n; i++)
            for (int k = 0; k < x[i].s.nfaults; k++)
                if (x[i].s.fault[k] == fi && x[i].s.nfaults == 1)
                    exp |= x[i].s.expect;
        (void)probe;
        fprintf(html.f, "<tr><td class=\"l\">%s</td><td>%u</td>", faults[fi].name, rows[fi]);
        for (int c = 0; c < DG_NCODES; c++)
            if (cols & BIT(c))
                fprintf(html.f, "<td class=\"%s\">%u</td>",
                        exp & BIT(c) ? "e" : cnt[fi][c] ? "x" : "z", cnt[fi][c]);
        fputs("</tr>\n", html.f);
    }
    fputs("</table>\n<h2>Misses</h2>\n<ul>\n", html.f);
    for (unsigned i = 0; i < n; i++) {
        FILE *m;
        char *buf = NULL;
        size_t blen = 0;
        if (!missed(&x[i]))
            continue;
        m = open_memstream(&buf, &blen);
        if (!m)
            break;
        fprintf(m, "sample %u (", x[i].s.index);
        fault_names(m, &x[i].s);
        fputs("): expected ", m);
        codes_text(m, x[i].s.expect);
        fputs(", named ", m);
        codes_text(m, x[i].found);
        fputs(" -- ", m);
        repro(m, co, &x[i], argv0, dir);
        fclose(m);
        fputs("<li><code>", html.f);
        runner_html_esc(html.f, buf);
        fputs("</code></li>\n", html.f);
        free(buf);
    }
    fputs("</ul>\n</body></html>\n", html.f);
    return runner_out_commit(&html);
}

static int run_sample(const char *self, const char *sdir, const struct outcome *x, const char *qemu,
                      unsigned timeout_s)
{
    char ini[PATH_MAX + 16], rdir[PATH_MAX + 16], log[PATH_MAX + 16], seed[32], tmo[16];
    char *argv[16];
    int k = 0, st = 0, rc;
    pid_t pid;

    snprintf(ini, sizeof(ini), "%s/scenario.ini", sdir);
    snprintf(rdir, sizeof(rdir), "%s/run", sdir);
    snprintf(log, sizeof(log), "%s/run.log", sdir);
    snprintf(seed, sizeof(seed), "%" PRIu64, x->s.seed);
    argv[k++] = (char *)self;
    argv[k++] = "run";
    argv[k++] = ini;
    argv[k++] = "--out";
    argv[k++] = rdir;
    argv[k++] = "--seed";
    argv[k++] = seed;
    if (qemu) {
        argv[k++] = "--qemu";
        argv[k++] = (char *)qemu;
    }
    if (x->s.net[0]) {
        argv[k++] = "--net";
        argv[k++] = (char *)x->s.net;
    }
    if (timeout_s) {
        snprintf(tmo, sizeof(tmo), "%u", timeout_s);
        argv[k++] = "--timeout";
        argv[k++] = tmo;
    }
    argv[k] = NULL;
    if ((rc = runner_spawn(&pid, argv, log, NULL)))
        return -rc;
    for (;;) {
        pid_t w = waitpid(pid, &st, 0);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return -errno;
        if (stop_sig)
            kill(-pid, SIGTERM); /* the run cleans up its QEMU and writes what it has */
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int cp_campaign(const struct cp_campaign_opts *co, FILE *out, FILE *err)
{
    const struct cp_opts *o = &co->o;
    const char *dir = co->out;
    char self[PATH_MAX];
    struct outcome *x;
    struct cp_score sc;
    struct sigaction sa;
    ssize_t sl;
    int rc = RUN_EXIT_PASS, e0 = 0;
    unsigned n = 0, first, last;

    sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (sl <= 0) {
        fprintf(err, "gemlab campaign: /proc/self/exe: %s\n", strerror(errno));
        return RUN_EXIT_MISSING;
    }
    self[sl] = '\0';
    if ((e0 = runner_take_out_dir(dir, "campaign", "campaign.json", 0700))) {
        fprintf(err, "gemlab campaign: --out %s: %s\n", dir,
                e0 == -EEXIST ? "holds other files and no campaign: give a new or empty directory" : strerror(-e0));
        return RUN_EXIT_INPUT;
    }
    first = co->only >= 0 ? (unsigned)co->only : 0;
    last = co->only >= 0 ? (unsigned)co->only + 1 : o->runs;
    x = calloc(last - first, sizeof(*x));
    if (!x) {
        fprintf(err, "gemlab campaign: out of memory\n");
        return RUN_EXIT_FAIL;
    }
    memset(&sc, 0, sizeof(sc));
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    for (unsigned i = first; i < last && !stop_sig; i++) {
        struct outcome *e = &x[n];
        char sdir[PATH_MAX], path[PATH_MAX + 32];
        cJSON *res = NULL;

        if (cp_sample_draw(o, i, &e->s, err)) {
            rc = RUN_EXIT_INPUT;
            break;
        }
        e->bps = NAN;
        snprintf(sdir, sizeof(sdir), "%s/sample-%03u", dir, i);
        snprintf(path, sizeof(path), "%s/scenario.ini", sdir);
        if ((e0 = runner_mkdir_p(sdir, 0700)) || runner_write_text(path, e->s.scenario)) {
            fprintf(err, "gemlab campaign: %s: %s\n", sdir, e0 ? strerror(-e0) : "cannot write scenario.ini");
            rc = RUN_EXIT_FAIL;
            break;
        }
        n++;
        if (co->dry)
            continue;
        /* the sample's own number (its directory's, campaign.md's, --only's),
         * then where it is in the run */
        fprintf(out, "campaign: sample %u (%u of %u): ", i, i - first + 1, last - first);
        fault_names(out, &e->s);
        fprintf(out, " (%s, %s) ...", e->s.fw == CP_FW_LINUX ? "linux" : "baremetal", e->s.udp ? "udp" : "tcp");
        fflush(out);
        e->rc = run_sample(self, sdir, e, co->qemu, co->timeout_s);
        if (stop_sig) {
            /* the signal cut this sample short: what it named is no
             * verdict on the diagnosis, so it is not scored (its
             * directory stays); the reports say the campaign stopped */
            n--;
            fprintf(out, " interrupted (signal %d): not scored\n", (int)stop_sig);
            break;
        }
        snprintf(path, sizeof(path), "%s/run/results.json", sdir);
        if (access(path, F_OK) == 0 && dg_load_results(path, &res, err) == 0) {
            const cJSON *vr = runner_json_path(res, RS(VERDICT_RESULT)), *b = runner_json_path(res, RS(IPERF_THROUGHPUT_BPS));
            snprintf(e->verdict, sizeof(e->verdict), "%s", cJSON_IsString(vr) ? vr->valuestring : "?");
            if (cJSON_IsNumber(b))
                e->bps = b->valuedouble;
            e->found = cp_blind_codes(res);
            cJSON_Delete(res);
        }
        if (!e->verdict[0] || !strcmp(e->verdict, "ERROR") || e->rc >= 2) {
            sc.errors++;
            sc.samples++;
        } else {
            cp_score_add(&sc, &e->s, e->found);
        }
        if (!e->verdict[0]) {
            char log[PATH_MAX + 16], line[256] = "", lastline[256] = "";
            FILE *lf;
            snprintf(log, sizeof(log), "%s/run.log", sdir);
            if ((lf = fopen(log, "r"))) {
                while (fgets(line, sizeof(line), lf))
                    if (line[0] != '\n')
                        snprintf(lastline, sizeof(lastline), "%s", line);
                fclose(lf);
            }
            lastline[strcspn(lastline, "\n")] = '\0';
            fprintf(out, " no results (gemlab run exit %d: %s)", e->rc, lastline[0] ? lastline : "no output");
        }
        fprintf(out, " %s, named ", e->verdict[0] ? e->verdict : "");
        codes_text(out, e->found);
        if (missed(e)) {
            fputs("\n  miss: expected ", out);
            codes_text(out, e->s.expect);
            fputs("; reproduce: ", out);
            repro(out, co, e, "gemlab", dir);
        }
        fputc('\n', out);
        fflush(out);
        if (write_json(dir, o, x, n, &sc, co->cmdline))
            rc = RUN_EXIT_FAIL;
    }
    if (co->dry) {
        fprintf(out, "campaign: %u scenarios in %s/sample-*/scenario.ini\n", n, dir);
        free(x);
        return rc;
    }
    if (write_json(dir, o, x, n, &sc, co->cmdline) || write_md_html(dir, co, x, n, &sc, "gemlab"))
        rc = RUN_EXIT_FAIL;
    if (stop_sig)
        fprintf(out, "campaign: interrupted after %u of %u samples; the scores cover those\n", n, o->runs);
    fprintf(out, "campaign: %u samples, %u errors, all faults named in %u, %u/%u clean samples with a false alarm; "
                 "%s/campaign.md\n",
            n, sc.errors, sc.all_named, sc.clean_false_alarms, sc.clean, dir);
    if (sc.errors && rc == RUN_EXIT_PASS)
        rc = RUN_EXIT_FAIL;
    /* issue 20's bar: a clean run names no physical, MAC or protocol code */
    if (sc.clean_false_alarms) {
        fprintf(out, "campaign: %u of %u clean samples named a physical, MAC or protocol code\n",
                sc.clean_false_alarms, sc.clean);
        rc = RUN_EXIT_FAIL;
    }
    for (int c = 0; c < DG_NCODES; c++) {
        double p = cp_precision(&sc, c), r = cp_recall(&sc, c);
        if (isfinite(co->min_recall) && isfinite(r) && r < co->min_recall) {
            fprintf(out, "campaign: %s recall %.1f %% < --min-recall %.0f\n", dg_code_name(c), r, co->min_recall);
            rc = RUN_EXIT_FAIL;
        }
        if (isfinite(co->min_precision) && isfinite(p) && p < co->min_precision) {
            fprintf(out, "campaign: %s precision %.1f %% < --min-precision %.0f\n", dg_code_name(c), p,
                    co->min_precision);
            rc = RUN_EXIT_FAIL;
        }
    }
    free(x);
    if (stop_sig)
        return RUN_EXIT_INTERRUPTED;
    return rc;
}
