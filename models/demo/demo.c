/*
 * gemlab-model-demo - negotiate the PHY model against a link partner over a
 * cable, then push frames through the wire model and trace what arrives.
 *
 * It drives the library exactly as the emulator does: time is a number of
 * nanoseconds handed to every call, and the loop jumps from one deadline
 * the models report to the next.  Output is what a driver would read
 * (registers 0, 1, 4, 5, 9, 10, 17, 20) and one line per delivered frame.
 *
 * Exit status: 0 on success, 2 on a bad flag or value (the message names
 * the flag), 1 when the link never came up within --timeout-ms.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemlab/m88e1116r.h"
#include "gemlab/mii.h"
#include "gemlab/phy.h"
#include "gemlab/time.h"
#include "gemlab/wire.h"

struct demo_opts {
    struct gl_phy_params phy;
    struct gl_wire_params wire;
    unsigned force_speed;       /* 0: autonegotiate (BMCR AN enable) */
    bool force_full;
    unsigned frames;
    unsigned len;
    bool bidir;
    uint64_t timeout_ns;
};

static void usage(FILE *f)
{
    fputs(
"usage: gemlab-model-demo [options]\n"
"  PHY and partner\n"
"    --partner ABIL        partner abilities, e.g. 1000FD,100FD,100HD (default all)\n"
"    --partner-forced SD   partner with autoneg off at SD: 100FD 100HD 10FD 10HD\n"
"    --force SD            our PHY with autoneg off at SD (100FD, 10HD, ...)\n"
"    --cable C             none | 4pair | 2pair (default 4pair)\n"
"    --downshift N         enable Marvell downshift after N 1000BASE-T attempts [1, 8]\n"
"    --aneg-ms MS          autonegotiation time (default 1500)\n"
"    --train-ms MS         extra 1000BASE-T training time (default 1000)\n"
"    --timeout-ms MS       give up waiting for link (default 30000)\n"
"  wire (direction A->B)\n"
"    --loss SPEC           'random 1%', 'gemodel 1 30 70 0.1', 'state ...'\n"
"    --corrupt PCT  --dup PCT  --reorder PCT  --skew PCT\n"
"    --latency-us US  --jitter-us US  --dist uniform|normal|pareto|paretonormal\n"
"    --rate-bps BPS        rate cap below line rate\n"
"    --frames N            frames to send back to back (default 10, max 100000)\n"
"    --bidir               send the same traffic B->A too, with no impairment\n"
"                          (duplex mismatch needs it); counters for both\n"
"    --len BYTES           frame length without FCS (default 1514)\n"
"    --seed N              seed for both models (default 1)\n"
"    --help\n", f);
}

static int bad(const char *flag, const char *val, const char *why)
{
    fprintf(stderr, "gemlab-model-demo: %s '%s': %s\n", flag, val, why);
    return 2;
}

/* Parse an unsigned decimal in [lo, hi]; 0 or 2 (bad flag). */
static int parse_u64(const char *flag, const char *s, uint64_t lo, uint64_t hi,
                     uint64_t *out)
{
    char *end;
    if (*s == '-' || *s == '\0') {
        return bad(flag, s, "expected a non-negative integer");
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0') {
        return bad(flag, s, "expected a non-negative integer");
    }
    if (v < lo || v > hi) {
        char why[96];
        snprintf(why, sizeof(why), "out of range [%" PRIu64 ", %" PRIu64 "]", lo, hi);
        return bad(flag, s, why);
    }
    *out = v;
    return 0;
}

static int parse_pct(const char *flag, const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || (*end != '\0' && strcmp(end, "%") != 0) || !(v >= 0.0 && v <= 100.0)) {
        return bad(flag, s, "expected a percentage in [0, 100]");
    }
    *out = v;
    return 0;
}

/* "100FD" -> 100, true.  0 or 2. */
static int parse_sd(const char *flag, const char *s, unsigned *speed, bool *full)
{
    uint32_t abil;
    if (gl_phy_parse_abilities(s, &abil, NULL) == 0) {
        switch (abil) {
        case GL_ABIL_10HD:  *speed = 10;  *full = false; return 0;
        case GL_ABIL_10FD:  *speed = 10;  *full = true;  return 0;
        case GL_ABIL_100HD: *speed = 100; *full = false; return 0;
        case GL_ABIL_100FD: *speed = 100; *full = true;  return 0;
        default: break;
        }
    }
    return bad(flag, s, "expected one of 10HD 10FD 100HD 100FD (1000BASE-T cannot be forced)");
}

static int parse_opts(int argc, char **argv, struct demo_opts *o)
{
    enum { O_PARTNER = 256, O_PFORCED, O_FORCE, O_CABLE, O_DOWNSHIFT, O_ANEG,
           O_TRAIN, O_TIMEOUT, O_LOSS, O_CORRUPT, O_DUP, O_REORDER, O_SKEW,
           O_LAT, O_JIT, O_DIST, O_RATE, O_FRAMES, O_BIDIR, O_LEN, O_SEED, O_HELP };
    static const struct option lo[] = {
        { "partner", required_argument, NULL, O_PARTNER },
        { "partner-forced", required_argument, NULL, O_PFORCED },
        { "force", required_argument, NULL, O_FORCE },
        { "cable", required_argument, NULL, O_CABLE },
        { "downshift", required_argument, NULL, O_DOWNSHIFT },
        { "aneg-ms", required_argument, NULL, O_ANEG },
        { "train-ms", required_argument, NULL, O_TRAIN },
        { "timeout-ms", required_argument, NULL, O_TIMEOUT },
        { "loss", required_argument, NULL, O_LOSS },
        { "corrupt", required_argument, NULL, O_CORRUPT },
        { "dup", required_argument, NULL, O_DUP },
        { "reorder", required_argument, NULL, O_REORDER },
        { "skew", required_argument, NULL, O_SKEW },
        { "latency-us", required_argument, NULL, O_LAT },
        { "jitter-us", required_argument, NULL, O_JIT },
        { "dist", required_argument, NULL, O_DIST },
        { "rate-bps", required_argument, NULL, O_RATE },
        { "frames", required_argument, NULL, O_FRAMES },
        { "len", required_argument, NULL, O_LEN },
        { "bidir", no_argument, NULL, O_BIDIR },
        { "seed", required_argument, NULL, O_SEED },
        { "help", no_argument, NULL, O_HELP },
        { NULL, 0, NULL, 0 },
    };
    struct gl_err e = { "" };
    uint64_t v;
    int c, rc = 0;

    gl_phy_params_default(&o->phy);
    gl_wire_params_default(&o->wire);
    o->force_speed = 0;
    o->force_full = true;
    o->frames = 10;
    o->len = 1514;
    o->bidir = false;
    o->timeout_ns = 30 * GL_NS_PER_S;

    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        const char *flag = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
        switch (c) {
        case O_PARTNER:
            o->phy.partner.autoneg = true;
            if (gl_phy_parse_abilities(optarg, &o->phy.partner.abilities, &e)) {
                rc = bad("--partner", optarg, e.msg);
            }
            break;
        case O_PFORCED:
            o->phy.partner.autoneg = false;
            rc = parse_sd("--partner-forced", optarg,
                          &o->phy.partner.forced_speed_mbps,
                          &o->phy.partner.forced_full_duplex);
            break;
        case O_FORCE:
            rc = parse_sd("--force", optarg, &o->force_speed, &o->force_full);
            break;
        case O_CABLE:
            if (gl_phy_parse_cable(optarg, &o->phy.cable, &e)) {
                rc = bad("--cable", optarg, e.msg);
            }
            break;
        case O_DOWNSHIFT:
            rc = parse_u64("--downshift", optarg, 1, 8, &v);
            o->phy.downshift_enable = true;
            o->phy.downshift_attempts = (unsigned)v;
            break;
        case O_ANEG:
            rc = parse_u64("--aneg-ms", optarg, 1, 60000, &v);
            o->phy.aneg_ns = v * GL_NS_PER_MS;
            break;
        case O_TRAIN:
            rc = parse_u64("--train-ms", optarg, 0, 60000, &v);
            o->phy.train_1000_ns = v * GL_NS_PER_MS;
            break;
        case O_TIMEOUT:
            rc = parse_u64("--timeout-ms", optarg, 1, 3600000, &v);
            o->timeout_ns = v * GL_NS_PER_MS;
            break;
        case O_LOSS:
            if (gl_wire_parse_loss(optarg, &o->wire, &e)) {
                rc = bad("--loss", optarg, e.msg);
            }
            break;
        case O_CORRUPT: rc = parse_pct("--corrupt", optarg, &o->wire.corrupt_pct); break;
        case O_DUP:     rc = parse_pct("--dup", optarg, &o->wire.dup_pct); break;
        case O_REORDER: rc = parse_pct("--reorder", optarg, &o->wire.reorder_pct); break;
        case O_SKEW:    rc = parse_pct("--skew", optarg, &o->wire.skew_crc_pct); break;
        case O_LAT:
            rc = parse_u64("--latency-us", optarg, 0, 60000000, &v);
            o->wire.latency_ns = v * GL_NS_PER_US;
            break;
        case O_JIT:
            rc = parse_u64("--jitter-us", optarg, 0, 60000000, &v);
            o->wire.jitter_ns = v * GL_NS_PER_US;
            break;
        case O_DIST:
            if (gl_wire_parse_jitter_dist(optarg, &o->wire.jitter_dist, &e)) {
                rc = bad("--dist", optarg, e.msg);
            }
            break;
        case O_RATE:
            rc = parse_u64("--rate-bps", optarg, 1000, 100000000000ULL, &v);
            o->wire.rate_bps = v;
            break;
        case O_FRAMES:
            rc = parse_u64("--frames", optarg, 1, 100000, &v);
            o->frames = (unsigned)v;
            break;
        case O_LEN:
            rc = parse_u64("--len", optarg, 1, GL_WIRE_LEN_MAX, &v);
            o->len = (unsigned)v;
            break;
        case O_BIDIR:
            o->bidir = true;
            break;
        case O_SEED:
            rc = parse_u64("--seed", optarg, 0, UINT64_MAX, &v);
            o->phy.seed = v;
            break;
        case O_HELP:
            usage(stdout);
            exit(0);
        default:
            fprintf(stderr, "gemlab-model-demo: unknown or incomplete option '%s'\n", flag);
            usage(stderr);
            return 2;
        }
    }
    if (rc == 0 && optind < argc) {
        fprintf(stderr, "gemlab-model-demo: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (rc == 0 && gl_phy_params_validate(&o->phy, &e)) {
        fprintf(stderr, "gemlab-model-demo: %s\n", e.msg);
        return 2;
    }
    if (rc == 0 && gl_wire_params_validate(&o->wire, &e)) {
        fprintf(stderr, "gemlab-model-demo: %s\n", e.msg);
        return 2;
    }
    return rc;
}

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

/* Registers a driver reads after link-up, each with the bits that matter. */
static void dump_registers(struct gl_phy *phy, uint64_t now)
{
    uint16_t bmsr1 = gl_phy_read(phy, MII_BMSR, now);
    uint16_t bmsr2 = gl_phy_read(phy, MII_BMSR, now);
    uint16_t ssr = gl_phy_peek(phy, M88E1116R_SSR);
    static const char *const speed_name[4] = { "10", "100", "1000", "reserved" };

    printf("registers (MDIO reads at %.3f ms):\n", ms(now));
    printf("  0 BMCR      0x%04x  AN %s\n", gl_phy_peek(phy, MII_BMCR),
           gl_phy_peek(phy, MII_BMCR) & BMCR_ANENABLE ? "enabled" : "disabled");
    printf("  1 BMSR      0x%04x then 0x%04x  link %s (latched-low bit re-armed by the first read), AN %s\n",
           bmsr1, bmsr2, bmsr2 & BMSR_LSTATUS ? "up" : "down",
           bmsr2 & BMSR_ANEGCOMPLETE ? "complete" : "not complete");
    printf("  4 ANAR      0x%04x\n", gl_phy_peek(phy, MII_ADVERTISE));
    printf("  5 ANLPAR    0x%04x\n", gl_phy_peek(phy, MII_LPA));
    printf("  9 1000CTRL  0x%04x\n", gl_phy_peek(phy, MII_CTRL1000));
    printf(" 10 1000STAT  0x%04x\n", gl_phy_peek(phy, MII_STAT1000));
    printf(" 17 SPECSTAT  0x%04x  %s, %s duplex, resolved %s, link %s%s\n", ssr,
           speed_name[(ssr & M88E1116R_SSR_SPEED_MASK) >> M88E1116R_SSR_SPEED_SHIFT],
           ssr & M88E1116R_SSR_DUPLEX ? "full" : "half",
           ssr & M88E1116R_SSR_RESOLVED ? "yes" : "no",
           ssr & M88E1116R_SSR_LINK ? "up" : "down",
           ssr & M88E1116R_SSR_DOWNSHIFT ? ", downshifted" : "");
    printf(" 16 CSCR      0x%04x  (downshift: bit 11, attempts - 1: 14:12)\n",
           gl_phy_peek(phy, M88E1116R_CSCR));
}

static int negotiate(const struct demo_opts *o, struct gl_phy *phy,
                     struct gl_phy_link *link, uint64_t *t_up)
{
    struct gl_err e = { "" };
    char abil[96];
    uint64_t now = 0;
    enum gl_phy_state last;

    if (gl_phy_init(phy, &o->phy, &e)) {
        fprintf(stderr, "gemlab-model-demo: %s\n", e.msg);
        return 2;
    }
    gl_phy_format_abilities(o->phy.partner.abilities, abil, sizeof(abil));
    if (o->phy.partner.autoneg) {
        printf("partner: autonegotiation, advertising %s, %s\n", abil,
               gl_phy_ms_name(o->phy.partner.ms));
    } else {
        printf("partner: autonegotiation off, forced %u Mb/s %s duplex\n",
               o->phy.partner.forced_speed_mbps,
               o->phy.partner.forced_full_duplex ? "full" : "half");
    }
    printf("cable:   %s; downshift %s", gl_phy_cable_name(o->phy.cable),
           o->phy.downshift_enable ? "enabled" : "disabled");
    if (o->phy.downshift_enable) {
        printf(" after %u attempts", o->phy.downshift_attempts);
    }
    printf("\n");

    if (o->force_speed) {
        /* What `ethtool -s eth0 speed S duplex D autoneg off` writes. */
        uint16_t bmcr = (uint16_t)((o->force_speed == 100 ? BMCR_SPEED_100 : 0) |
                                   (o->force_full ? BMCR_FULLDPLX : 0));
        gl_phy_write(phy, MII_BMCR, bmcr, 0);
        printf("local:   autonegotiation off, forced %u Mb/s %s duplex (BMCR 0x%04x)\n",
               o->force_speed, o->force_full ? "full" : "half", bmcr);
    } else {
        printf("local:   autonegotiation, advertising 10/100/1000 HD+FD\n");
    }

    printf("timeline:\n");
    last = gl_phy_state(phy);
    printf("  %10.3f ms  %s\n", ms(now), gl_phy_state_name(last));
    for (;;) {
        uint64_t next = gl_phy_step(phy, now);
        enum gl_phy_state st = gl_phy_state(phy);
        if (st != last) {
            printf("  %10.3f ms  %s\n", ms(now), gl_phy_state_name(st));
            last = st;
        }
        gl_phy_get_link(phy, link);
        if (link->up || next == GL_NEVER || next > o->timeout_ns) {
            break;
        }
        now = next;
    }
    *t_up = now;
    dump_registers(phy, now);
    if (!link->up) {
        printf("result:  NO LINK after %.0f ms (state %s, %u autoneg rounds)\n",
               ms(o->timeout_ns), gl_phy_state_name(gl_phy_state(phy)), link->aneg_rounds);
        return 1;
    }
    printf("result:  link up at %.3f ms: %u Mb/s %s duplex%s%s; partner %s duplex%s\n",
           ms(now), link->speed_mbps, link->full_duplex ? "full" : "half",
           link->downshifted ? ", DOWNSHIFTED" : "",
           link->speed_mbps == 1000 ? (link->master ? ", MASTER" : ", SLAVE") : "",
           link->partner_full_duplex ? "full" : "half",
           link->duplex_mismatch ? " -> DUPLEX MISMATCH" : "");
    return 0;
}

static void trace_wire(const struct demo_opts *o, const struct gl_phy_link *link,
                       uint64_t t0)
{
    static struct gl_link wl; /* 350 KiB: not on the stack */
    struct gl_err e = { "" };
    struct gl_wire_params back;
    struct gl_wire_counters c;
    struct gl_delivery d;
    uint64_t now = t0, tx_done = t0;
    unsigned shown = 0;
    const unsigned show_max = 40;

    gl_wire_params_default(&back);
    if (gl_link_init(&wl, &o->wire, &back, o->phy.seed, &e) ||
        gl_link_set_phy(&wl, true, link->speed_mbps, link->full_duplex,
                        link->partner_full_duplex, t0, &e)) {
        fprintf(stderr, "gemlab-model-demo: %s\n", e.msg);
        return;
    }
    printf("wire A->B: %u frames of %u bytes back to back at %u Mb/s "
           "(%u on-wire bytes, %.3f us each), loss %s\n",
           o->frames, o->len, link->speed_mbps, gl_wire_frame_bytes(o->len),
           (double)gl_wire_frame_ns(o->len, link->speed_mbps) / 1e3,
           gl_wire_loss_model_name(o->wire.loss_model));
    printf("  %6s %14s %14s  %s\n", "frame", "tx_done(us)", "arrival(us)", "fate");
    for (unsigned i = 0; i < o->frames; i++) {
        now = tx_done; /* the MAC starts the next frame when the last left */
        int v = gl_link_send(&wl, GL_LINK_A_TO_B, now, o->len, i, &tx_done);
        if (o->bidir) {
            /* Same load the other way; its deliveries only feed the
             * counters (duplex mismatch errors depend on it). */
            struct gl_delivery back_d;
            gl_link_send(&wl, GL_LINK_B_TO_A, now, o->len, i, NULL);
            while (gl_link_poll(&wl, GL_LINK_B_TO_A, tx_done, &back_d) == 1) {
            }
        }
        if (v != GL_WIRE_QUEUED && shown < show_max) {
            printf("  %6u %14.3f %14s  %s\n", i, (double)(tx_done - t0) / 1e3, "-",
                   gl_wire_verdict_name(v));
            shown++;
        }
        while (gl_link_poll(&wl, GL_LINK_A_TO_B, tx_done, &d) == 1) {
            if (shown < show_max) {
                printf("  %6" PRIu64 " %14.3f %14.3f  %s%s%s%s\n", d.cookie,
                       (double)(d.tx_done_ns - t0) / 1e3,
                       (double)(d.arrival_ns - t0) / 1e3,
                       d.flags & GL_DELIV_DROPPED ? "dropped in flight" :
                       d.flags & GL_DELIV_FCS_ERROR ? "FCS ERROR" : "delivered",
                       d.flags & GL_DELIV_DUPLICATE ? " (duplicate)" : "",
                       d.flags & GL_DELIV_REORDERED ? " (reordered)" : "",
                       d.flags & GL_DELIV_DUPLEX ? " (duplex mismatch)" :
                       d.flags & GL_DELIV_SKEW ? " (RGMII skew)" : "");
                shown++;
            }
        }
    }
    while (gl_link_poll(&wl, GL_LINK_A_TO_B, GL_NEVER - 1, &d) == 1) {
        if (shown < show_max) {
            printf("  %6" PRIu64 " %14.3f %14.3f  %s%s\n", d.cookie,
                   (double)(d.tx_done_ns - t0) / 1e3, (double)(d.arrival_ns - t0) / 1e3,
                   d.flags & GL_DELIV_FCS_ERROR ? "FCS ERROR" : "delivered",
                   d.flags & GL_DELIV_DUPLICATE ? " (duplicate)" : "");
            shown++;
        }
    }
    if (shown >= show_max) {
        printf("  ... (trace cut at %u lines)\n", show_max);
    }
    for (int dir = 0; dir < (o->bidir ? 2 : 1); dir++) {
        gl_link_get_counters(&wl, dir, &c);
        printf("counters%s: sent %" PRIu64 " delivered %" PRIu64 " fcs_errors %" PRIu64
               " lost %" PRIu64 " queue_drops %" PRIu64 " duplicated %" PRIu64
               " reordered %" PRIu64 " collisions %" PRIu64 "\n",
               o->bidir ? (dir == GL_LINK_A_TO_B ? " A->B" : " B->A") : "",
               c.sent, c.delivered, c.fcs_errors, c.dropped_loss, c.dropped_queue,
               c.duplicated, c.reordered, c.collisions);
    }
    printf("goodput: %u frames in %.3f us of wire time\n", o->frames,
           (double)(tx_done - t0) / 1e3);
}

int main(int argc, char **argv)
{
    struct demo_opts o;
    struct gl_phy phy;
    struct gl_phy_link link;
    uint64_t t_up;
    int rc = parse_opts(argc, argv, &o);

    if (rc) {
        return rc;
    }
    rc = negotiate(&o, &phy, &link, &t_up);
    if (rc) {
        return rc;
    }
    trace_wire(&o, &link, t_up);
    return 0;
}
