/*
 * diagnose.c - the layered rule engine (see diagnose.h, RESULTS.md).
 *
 * Each rule is a row: code, a test that fills the evidence when the rule
 * fires, and the likely cause and remedy the field notes give.  The rows are in
 * the order of field note 001 §5 (summarised with every cited section in
 * docs/SOURCES.md): physical link first, then the driver/MAC, then
 * the protocol, then the way it was measured, then the baseline.
 *
 * Known limitations:
 *  - Thresholds are fixed (listed in RESULTS.md), not per scenario, except
 *    the baseline tolerance.  An [expect] bound (jitter_max, ...) is the
 *    engineer's requirement: it decides the verdict, never a cause.
 *  - MAC_PPS_LIMIT needs a sweep; it does not infer PPS bounds from a
 *    single run.
 */
#include "diagnose.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "results_schema.h"
#include "util.h"

/* ---- thresholds (documented in RESULTS.md) ------------------------------ */
#define TH_IRQ_SHARE        0.95   /* one CPU took >= 95 % of GEM IRQs */
#define TH_IRQ_MIN          100    /* ... of at least this many */
#define TH_ASYM_RATIO       0.7    /* slower direction < 70 % of faster */
#define TH_PPS_RATIO        0.5    /* smallest size < 50 % of largest's share of its line */
#define TH_DATA_FLOW_SHARE  0.01   /* a data stream: >= 1 % of the bytes the board sent */
#define TH_UDP_LOSS_PCT     0.05
#define TH_RX_DROP_PCT      TH_UDP_LOSS_PCT /* frames the MAC dropped, % of those that arrived */
#define TH_DROPS_OF_LOSSES  0.5    /* ... or fewer, but half of TCP's lost segments */
#define TH_JITTER_MS        0.5    /* docs/SOURCES.md note 000: 1.2 ms bad, 0.4 ms good */
#define TH_NEAR_CEILING     0.9    /* "at line rate" */
#define TH_WINDOW_EXPLAINS  1.3    /* measured <= 1.3 x window/RTT */
#define TH_WINDOW_FLOOR     0.2    /* ... and >= 0.2 x window/RTT: the receiver's
                                      window (lwIP TCP_WND) may be below -w */
#define TH_WINDOW_LOSSY     0.7    /* with lost segments resent: >= 0.7 x window/RTT,
                                      below it loss limits first (Mathis et al. 1997) */
#define TH_PATH_SHARE       0.001  /* reordered or copied: >= 0.1 % of what arrived ... */
#define TH_PATH_MIN         10     /* ... and at least this many */
#define TH_PATH_NARROW      0.9    /* the path into the board < 90 % of the link's rate ... */
#define TH_PATH_PAIRS       100    /* ... timed over at least this many frame pairs, */
#define TH_PATH_EXPLAINS    0.5    /* the goodput >= half of what that rate carries, */
#define TH_PATH_OFFER       1.1    /* and a UDP sender offered > 1.1 x that rate */
#define TH_OMIT_DEFICIT     0.8
#define TH_RTT_JITTERY      1.25   /* the ping's median > 1.25 x the minimum RTT: a path with jitter */
#define TH_BASELINE_TOL_PCT 5.0
#define TH_STALL_INTERVALS  3      /* empty trailing intervals = a stall */
#define TH_PROBE_MIN        10     /* the runner's ping: at least this many sent ... */
#define TH_PROBE_LOSS       0.1    /* ... and this share unanswered: the path loses packets */
#define TH_CORE_BUSY_PCT    75.0   /* single stream: the busiest core at least this busy */
#define TH_CORE_SPREAD_PCT  30.0   /* ... and this many points above the idlest */
#define TH_TX_BELOW         0.01   /* the board's sending rate > 1 % below the ceiling (and the offered rate) */
#define TH_TX_RING_PER_S    10.0   /* TX ring full (or client refusals) per second of the test */
#define TH_CPU_SATURATED    95.0   /* a core this busy over the test has no time left */
#define TH_CPU_BELOW        0.02   /* the goodput > 2 % below the ceiling (and a UDP offer) */

/* ---- JSON access: missing or mistyped gives unknown --------------------- */

static const cJSON *jget(const cJSON *o, const char *path)
{
    char key[64];

    while (o && *path) {
        const char *dot = strchr(path, '.');
        size_t len = dot ? (size_t)(dot - path) : strlen(path);
        if (len >= sizeof(key))
            return NULL;
        memcpy(key, path, len);
        key[len] = '\0';
        o = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
        path += len + (dot ? 1 : 0);
    }
    return o;
}

static double jnum(const cJSON *o, const char *path)
{
    const cJSON *v = jget(o, path);

    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

static int jbool(const cJSON *o, const char *path)
{
    const cJSON *v = jget(o, path);

    return cJSON_IsBool(v) ? cJSON_IsTrue(v) : -1;
}

static void jstr(const cJSON *o, const char *path, char *buf, size_t len)
{
    const cJSON *v = jget(o, path);

    snprintf(buf, len, "%s", cJSON_IsString(v) && v->valuestring ? v->valuestring : "");
}

static double nsum(double a, double b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return a + b;
}

/* PHY register @reg (decimal) from results.json "phy.regs", NAN unknown */
static double phy_reg(const cJSON *root, const char *reg)
{
    const cJSON *regs = jget(root, RS(PHY_REGS));

    return cJSON_IsObject(regs) ? rs_reg16(jnum(regs, reg)) : NAN;
}

/* The best speed the PHY can do, from its own status registers: BMSR
 * (reg 1, 22.2.4.2) bit 8 says extended status (reg 15, 22.2.4.4) exists,
 * whose bits 13/12 are 1000BASE-T full/half; else BMSR 15..11. */
static double phy_max_speed(const cJSON *root)
{
    double bmsr = phy_reg(root, "1"), esr = phy_reg(root, "15");

    if (isnan(bmsr))
        return NAN;
    if (((unsigned)bmsr & 0x0100u) && !isnan(esr) && ((unsigned)esr & 0x3000u))
        return 1000;
    if ((unsigned)bmsr & 0x0100u && isnan(esr))
        return NAN;
    if ((unsigned)bmsr & 0x6000u)
        return 100;
    return (unsigned)bmsr & 0x1800u ? 10 : NAN;
}

/* A per-CPU list (cpu.busy_pct, cpu.softirq_pct, irq.gem_per_cpu) into
 * out[DG_MAX_CPUS], up to its first entry that is not a finite number;
 * how many were stored (0: no list). */
static int jnums(const cJSON *a, double out[DG_MAX_CPUS])
{
    const cJSON *e;
    int n = 0;

    if (!cJSON_IsArray(a))
        return 0;
    cJSON_ArrayForEach(e, a) {
        if (n == DG_MAX_CPUS || !cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            break;
        out[n++] = e->valuedouble;
    }
    return n;
}

void dg_in_from_json(const cJSON *root, struct dg_in *in)
{
    const cJSON *a;
    int i;

    /* Evidence only (RESULTS.md "What the diagnosis reads").  Nothing here
     * may read "truth.*" or "scenario.*": tests/unit/runner_diagnose
     * scrambles both and expects the same findings. */
    memset(in, 0, sizeof(*in));
    jstr(root, RS(BOARD_FIRMWARE), in->firmware, sizeof(in->firmware));
    in->cpus = jnum(root, RS(BOARD_CPUS));
    in->rx_bds = jnum(root, RS(BOARD_RX_BDS));
    in->tx_bds = jnum(root, RS(BOARD_TX_BDS));
    jstr(root, RS(BOARD_PHY_MODE), in->phy_mode, sizeof(in->phy_mode));
    in->board_max_speed_mbps = phy_max_speed(root);
    {
        double r9 = phy_reg(root, "9"), r10 = phy_reg(root, "10");
        if (isnan(r9))
            r9 = rs_reg16(jnum(root, RS(LINK_CTRL1000)));
        in->adv_1000 = isnan(r9) ? NAN : ((unsigned)r9 & 0x0300u) != 0;
        in->lp_1000 = isnan(r10) ? NAN : ((unsigned)r10 & 0x0C00u) != 0;
        in->common_modes = in->partner_modes = in->our_modes = -1;
        {
            /* Linux marvell.c MII_M1011_PHY_SSR_DOWNSHIFT */
            double r17 = phy_reg(root, "17");
            in->ssr_downshift = isnan(r17) ? -1 : ((unsigned)r17 & 0x20u) != 0;
        }
        {
            /* ANER (reg 6) bit 1, page received (28.2.4.1.5); ANAR/LPA
             * bits 5..8 are 10HD 10FD 100HD 100FD (28.2.1.2.3) */
            double r4 = phy_reg(root, "4"), r5 = phy_reg(root, "5"), r6 = phy_reg(root, "6");
            if (!isnan(r4) && !isnan(r5) && !isnan(r6) && ((unsigned)r6 & 0x2u)) {
                unsigned ours = ((unsigned)r4 >> 5) & 0xFu, theirs = ((unsigned)r5 >> 5) & 0xFu;
                unsigned g_ours = isnan(r9) ? 0 : ((unsigned)r9 >> 8) & 0x3u;
                unsigned g_theirs = isnan(r10) ? 0 : ((unsigned)r10 >> 10) & 0x3u;
                /* words' bits: 10HD 10FD 100HD 100FD 1000HD 1000FD = 0..5 */
                in->partner_modes = (int)(theirs | (g_theirs << 4));
                in->our_modes = (int)(ours | (g_ours << 4));
                in->common_modes = (int)((ours & theirs) | ((g_ours & g_theirs) << 4));
            }
        }
    }
    in->tcp_timestamps = jbool(root, RS(BENCH_TCP_TIMESTAMPS));
    jstr(root, RS(IPERF_METHOD_TOOL), in->tool, sizeof(in->tool));
    jstr(root, RS(IPERF_METHOD_VERSION), in->tool_version, sizeof(in->tool_version));
    jstr(root, RS(BOARD_IPERF_SERVER_TOOL), in->board_tool, sizeof(in->board_tool));
    {
        char proto[8];
        jstr(root, RS(IPERF_METHOD_PROTOCOL), proto, sizeof(proto));
        in->udp = strcmp(proto, "udp") == 0;
    }
    in->parallel = jnum(root, RS(IPERF_METHOD_STREAMS));
    in->window_bytes = jnum(root, RS(IPERF_METHOD_WINDOW_BYTES));
    in->reverse = jbool(root, RS(IPERF_METHOD_REVERSE));
    in->bidir = jbool(root, RS(IPERF_METHOD_BIDIR));
    in->board_rcv_wnd = jnum(root, RS(BOARD_TCP_WND));
    in->rtt_probe_us = jnum(root, RS(RTT_MIN_US));
    in->rtt_probe_p50_us = jnum(root, RS(RTT_P50_US));
    in->rtt_probe_sent = jnum(root, RS(RTT_SENT));
    in->rtt_probe_received = jnum(root, RS(RTT_RECEIVED));
    in->omit_s = jnum(root, RS(IPERF_METHOD_OMIT_S));
    in->duration_s = jnum(root, RS(IPERF_METHOD_DURATION_S));
    in->reference_bps = jnum(root, RS(EXPECT_REFERENCE_BPS));
    in->throughput_min_bps = jnum(root, RS(EXPECT_THROUGHPUT_MIN_BPS));

    in->link_up = jbool(root, RS(LINK_UP));
    in->full_duplex = jbool(root, RS(LINK_FULL_DUPLEX));
    in->downshift = jbool(root, RS(LINK_DOWNSHIFT));
    in->partner_autoneg = jbool(root, RS(LINK_PARTNER_AUTONEG));
    in->local_autoneg = jbool(root, RS(LINK_LOCAL_AUTONEG));
    in->speed_mbps = jnum(root, RS(LINK_SPEED_MBPS));
    in->mac_speed_mbps = jnum(root, RS(LINK_MAC_SPEED_MBPS));
    in->flaps = jnum(root, RS(LINK_FLAPS));
    in->rgmii_rx_delay = jbool(root, RS(PHY_RGMII_DELAY_RX));
    in->rgmii_tx_delay = jbool(root, RS(PHY_RGMII_DELAY_TX));

    in->rx_frames = jnum(root, RS(GEM_RX_FRAMES));
    in->tx_frames = jnum(root, RS(GEM_TX_FRAMES));
    in->fcs_errors = jnum(root, RS(GEM_RX_FCS_ERRORS));
    in->symbol_errors = jnum(root, RS(GEM_RX_SYMBOL_ERRORS));
    in->length_errors = jnum(root, RS(GEM_RX_LENGTH_ERRORS));
    in->rx_resource_errors = jnum(root, RS(GEM_RX_RESOURCE_ERRORS));
    in->rx_overruns = jnum(root, RS(GEM_RX_OVERRUNS));
    in->collisions = jnum(root, RS(GEM_COLLISIONS));
    in->late_collisions = jnum(root, RS(GEM_LATE_COLLISIONS));
    in->excessive_collisions = jnum(root, RS(GEM_EXCESSIVE_COLLISIONS));
    in->tx_ring_full = jnum(root, RS(FIRMWARE_STATS_GEM_DRV_TX_RING_FULL));
    in->sender_tx_errors = jnum(root, RS(IPERF_SENDER_TX_ERRORS));

    in->ncpu_busy = jnums(jget(root, RS(CPU_BUSY_PCT)), in->cpu_busy);
    for (i = 0; i < DG_MAX_CPUS; i++)
        in->cpu_softirq[i] = NAN;
    jnums(jget(root, RS(CPU_SOFTIRQ_PCT)), in->cpu_softirq);
    in->cpu_window_s = jnum(root, RS(CPU_WINDOW_S));
    in->nirq = jnums(jget(root, RS(IRQ_GEM_PER_CPU)), in->irq);

    in->iperf_ok = jbool(root, RS(IPERF_OK));
    jstr(root, RS(IPERF_ERROR), in->iperf_error, sizeof(in->iperf_error));
    in->bps = jnum(root, RS(IPERF_THROUGHPUT_BPS));
    in->retransmits = jnum(root, RS(IPERF_RETRANSMITS));
    in->cap_retransmits = jnum(root, RS(CAPTURE_TCP_RETRANSMITS));
    in->cap_crc_out = jnum(root, RS(CAPTURE_CRC_ERRORS_OUT));
    in->cap_spurious = jnum(root, RS(CAPTURE_TCP_SPURIOUS_RETRANSMITS));
    in->cap_out_of_order = jnum(root, RS(CAPTURE_TCP_OUT_OF_ORDER));
    in->cap_duplicates = jnum(root, RS(CAPTURE_TCP_DUPLICATES));
    in->cap_tcp_segments = jnum(root, RS(CAPTURE_TCP_SEGMENTS));
    in->cap_udp_datagrams = jnum(root, RS(CAPTURE_UDP_DATAGRAMS));
    in->cap_udp_duplicates = jnum(root, RS(CAPTURE_UDP_DUPLICATES));
    in->cap_udp_out_of_order = jnum(root, RS(CAPTURE_UDP_OUT_OF_ORDER));
    in->cap_unanswered = jnum(root, RS(CAPTURE_TCP_UNANSWERED));
    in->cap_hole_bytes = jnum(root, RS(CAPTURE_TCP_HOLE_AT_END_BYTES));
    in->cap_truncated = jbool(root, RS(CAPTURE_TRUNCATED));
    in->cap_partner_rwnd = NAN;
    in->cap_board_rwnd = NAN;
    for (int side = 0; side < 2; side++) {
        /* the streams that carried one side's data: a direction with at
         * least TH_DATA_FLOW_SHARE of that side's bytes (iperf3's control
         * connection carries a few hundred bytes of JSON, not data); the
         * other side's largest advertised window on each, summed: the
         * partner's to the board's data, the board's to the partner's */
        const char *sender = side == 0 ? "board" : "partner";
        double *sum = side == 0 ? &in->cap_partner_rwnd : &in->cap_board_rwnd;
        const cJSON *fl, *d;
        double total = 0;
        for (int pass = 0; pass < 2; pass++)
            cJSON_ArrayForEach(fl, jget(root, RS(CAPTURE_TCP_FLOWS)))
                cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(fl, "directions")) {
                    double w = jnum(d, "peer_rwnd_max_bytes"), b = jnum(d, "bytes");
                    const cJSON *who = cJSON_GetObjectItemCaseSensitive(d, "sender");
                    if (!cJSON_IsString(who) || strcmp(who->valuestring, sender) || !(b > 0))
                        continue;
                    if (pass == 0) {
                        total += b;
                        continue;
                    }
                    if (b < TH_DATA_FLOW_SHARE * total || !(w > 0) ||
                        !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "window_scale_known")))
                        continue;
                    *sum = (isnan(*sum) ? 0 : *sum) + w;
                }
    }
    in->cap_rtt_min_us = jnum(root, RS(CAPTURE_RTT_MIN_US));
    in->cap_path_bps = jnum(root, RS(CAPTURE_PATH_IN_BPS));
    in->cap_path_pairs = jnum(root, RS(CAPTURE_PATH_IN_PAIRS));
    in->rtt_us = jnum(root, RS(IPERF_RTT_US));
    in->rtt_min_us = jnum(root, RS(IPERF_RTT_MIN_US));
    in->lost_pct = jnum(root, RS(IPERF_UDP_LOST_PCT));
    in->jitter_ms = jnum(root, RS(IPERF_UDP_JITTER_MS));
    in->tx_bps = jnum(root, RS(IPERF_TX_BPS));
    in->rx_bps = jnum(root, RS(IPERF_RX_BPS));
    in->sent_bps = jnum(root, RS(IPERF_SENT_BPS));
    /* iperf's -b paces each stream (iperf 2 and iperf3 alike): the
     * streams together offered -P times it */
    in->offered_bps = jnum(root, RS(IPERF_METHOD_OFFERED_BPS));
    if (in->parallel > 1)
        in->offered_bps *= in->parallel;
    in->length_bytes = jnum(root, RS(IPERF_METHOD_LENGTH_BYTES));
    a = jget(root, RS(IPERF_INTERVALS_BPS));
    if (cJSON_IsArray(a)) {
        const cJSON *e;
        cJSON_ArrayForEach(e, a) {
            if (in->nintervals == DG_MAX_INTERVALS || !cJSON_IsNumber(e) || !isfinite(e->valuedouble))
                break;
            in->intervals[in->nintervals++] = e->valuedouble;
        }
    }
    a = jget(root, RS(SWEEP));
    if (cJSON_IsArray(a)) {
        const cJSON *e;
        cJSON_ArrayForEach(e, a) {
            double l = jnum(e, "length_bytes"), b = jnum(e, "throughput_bps");
            if (in->nsweep == DG_MAX_SWEEP)
                break;
            if (isnan(l) || isnan(b) || l <= 0)
                continue;
            in->sweep_len[in->nsweep] = l;
            in->sweep_bps[in->nsweep++] = b;
        }
    }
    in->baseline_bps = jnum(root, RS(BASELINE_THROUGHPUT_BPS));
    in->baseline_tol_pct = jnum(root, RS(BASELINE_TOLERANCE_PCT));
    jstr(root, RS(BASELINE_NAME), in->baseline_name, sizeof(in->baseline_name));
    for (i = in->nirq; i < DG_MAX_CPUS; i++)
        in->irq[i] = NAN;
}

double dg_ceiling_bps(double speed_mbps, bool udp, bool timestamps)
{
    double payload = udp ? 1472.0 : timestamps ? 1448.0 : 1460.0;

    return speed_mbps * 1e6 * payload / 1538.0;
}

/* Timestamps (RFC 7323): Linux sends them (net.ipv4.tcp_timestamps = 1,
 * Documentation/networking/ip-sysctl.rst), lwIP 2.1 does not
 * (LWIP_TCP_TIMESTAMPS 0 in src/include/lwip/opt.h). */

/* UDP goodput ceiling for @len-byte datagrams: around each IP packet the
 * wire carries 38 bytes (preamble + SFD 8, MAC header 14, FCS 4: IEEE
 * 802.3 clause 3.1.1; the 96-bit-time gap, 12: clause 4.4.2); IP fragments
 * beyond the MTU each pay their own IPv4 header and those 38 bytes; a tiny
 * datagram is padded to the minimum frame. */
double dg_udp_ceiling_bps(double speed_mbps, double len, int *frags, double *wire)
{
    double data = len + DG_UDP_HDR, per = DG_IP_MTU - DG_IPV4_HDR;     /* 1480 per fragment */
    int n = (int)ceil(data / per);
    double last = data - (n - 1) * per, w;

    w = data + n * (double)(DG_IPV4_HDR + DG_WIRE_OVERHEAD);
    if (last + DG_IPV4_HDR < DG_MIN_IP_PACKET)
        w += DG_MIN_IP_PACKET - (last + DG_IPV4_HDR);
    if (frags)
        *frags = n;
    if (wire)
        *wire = w;
    return speed_mbps * 1e6 * len / w;
}

/* UDP with the client's datagram length when it says it (-l), else 1472
 * per 1538. */
static double ceiling(const struct dg_in *in)
{
    bool ts = in->tcp_timestamps == 1 ||
              (in->tcp_timestamps < 0 && strcmp(in->firmware, "linux") == 0);
    double len = in->length_bytes;

    if (in->udp && !isnan(len) && len >= 1 && len <= 65507)
        return dg_udp_ceiling_bps(in->speed_mbps, len, NULL, NULL);
    return dg_ceiling_bps(in->speed_mbps, in->udp, ts);
}

/* What the goodput in->bps can reach: one direction's ceiling, or both
 * directions' when the test ran both at once over a full-duplex link (each
 * direction its own channel, IEEE 802.3 clause 4 full-duplex operation);
 * half duplex shares one. */
static double total_ceiling(const struct dg_in *in)
{
    return ceiling(in) * (in->bidir == 1 && in->full_duplex == 1 ? 2 : 1);
}

static int cmp_double(const void *a, const void *b);

/* The goodput is under the line by more than TH_CPU_BELOW, and so is the
 * steady part of the test: the median of its per-second intervals after
 * the first (which holds slow start: iperf 2 has no -O, docs/SOURCES.md
 * 000 §4.1), when there are at least two of them.  A blind tester's -P 8
 * run read 796 Mb/s in its first second and 947-949 in the seven after:
 * 929.75 on average, 2.1 % under, and the line, not a core, bound it. */
static bool below_line(const struct dg_in *in)
{
    double ceil = total_ceiling(in), v[DG_MAX_INTERVALS];
    int n = 0;

    if (isnan(in->bps) || in->bps >= ceil * (1 - TH_CPU_BELOW))
        return false;
    if (in->bidir == 1 || in->nintervals < 3)
        return true;
    for (int i = 1; i < in->nintervals; i++)
        v[n++] = in->intervals[i];
    qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
    return (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) < ceil * (1 - TH_CPU_BELOW);
}

/* The path RTT for BDP questions, as measured: iperf3's minimum RTT (the
 * mean under load includes the queue the test builds itself), else the
 * runner's ping of the board (rtt.min_us), else the capture's minimum (a
 * segment the board sent until the frame acking it, at the board's end of
 * the cable), else iperf3's mean.  On a path with jitter the minimum is a
 * rare best case: a window-bound sender waits the typical RTT for each
 * window, so where the ping's median (before the traffic, with no queue
 * of the test's own) is over TH_RTT_JITTERY x that minimum, the median is
 * the RTT.  2 ms +- 1 ms each way gave a ping of 2.10 ms minimum, 4.40 ms
 * median, and a 63 KB window carried 99.3 Mb/s: 85 % of window / median,
 * 41 % of window / minimum.  *median says which was taken. */
static double rtt_s(const struct dg_in *in, bool *median)
{
    double r = NAN;

    if (!isnan(in->rtt_min_us) && in->rtt_min_us > 0)
        r = in->rtt_min_us;
    else if (!isnan(in->rtt_probe_us) && in->rtt_probe_us > 0)
        r = in->rtt_probe_us;
    else if (!isnan(in->cap_rtt_min_us) && in->cap_rtt_min_us > 0)
        r = in->cap_rtt_min_us;
    else if (!isnan(in->rtt_us) && in->rtt_us > 0)
        r = in->rtt_us;
    *median = !isnan(r) && in->rtt_probe_p50_us > TH_RTT_JITTERY * r;
    if (*median)
        r = in->rtt_probe_p50_us;
    return r / 1e6;
}

/* "; the RTT is the ping's median, its minimum 2.10 ms: the path jitters"
 * after an RTT rtt_s() took from the median, else "" */
static const char *rtt_note(const struct dg_in *in, bool median, char *buf, size_t len)
{
    if (!median)
        return "";
    snprintf(buf, len, "; the RTT is the ping's median, its minimum %.2f ms: the path jitters", in->rtt_probe_us / 1e3);
    return buf;
}

/* The TCP window that bounds the transfer: the sender's -w as the tool
 * reports it, and the receiver's advertised window, the smaller, over all
 * the test's streams: -w and a stack's window are per connection, so -P N
 * streams have N of them.  When the board receives, the window its stack
 * advertises (board.tcp_wnd, lwIP's TCP_WND: no scaling); when it sends,
 * the partner's as the capture shows it (RFC 7323 2.2 scaled), already
 * summed over the streams. */
static double tcp_window(const struct dg_in *in)
{
    double n = !isnan(in->parallel) && in->parallel >= 1 ? in->parallel : 1;
    double w = in->window_bytes * n, rcv = in->reverse == 0 ? in->board_rcv_wnd * n
                                       : in->reverse == 1 ? in->cap_partner_rwnd : NAN;

    if (!isnan(rcv) && rcv > 0)
        w = isnan(w) ? rcv : fmin(w, rcv);
    return w;
}

/* ---- evidence helpers ----------------------------------------------------- */

static void ev(struct dg_finding *f, const char *name, double v)
{
    if (!f->evidence)
        f->evidence = cJSON_CreateObject();
    if (isnan(v))
        cJSON_AddNullToObject(f->evidence, name);
    else
        cJSON_AddNumberToObject(f->evidence, name, v);
}

static void evs(struct dg_finding *f, const char *name, const char *v)
{
    if (!f->evidence)
        f->evidence = cJSON_CreateObject();
    cJSON_AddStringToObject(f->evidence, name, v);
}

static void __attribute__((format(printf, 2, 3))) say(struct dg_finding *f, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(f->summary, sizeof(f->summary), fmt, ap);
    va_end(ap);
}

static double fcs_total(const struct dg_in *in)
{
    return nsum(nsum(in->fcs_errors, in->symbol_errors), in->length_errors);
}

/* ---- rules ------------------------------------------------------------------
 * Each returns true when it fires, having filled summary and evidence. */

/* Segments the captured wire shows sent again because something was lost.
 * A spurious retransmission (of bytes the board had acknowledged) lost
 * nothing when the path reorders or copies segments (the capture counts
 * them): duplicate ACKs from those misled the sender (RFC 5681 3.2), so
 * they are left out.  Without either, the acknowledgment itself was lost
 * on its way to the sender (the capture is the board's end of the cable):
 * they count.  NaN: not known, as none in a capture cut at its size cap
 * is (the rest went uncounted). */
static double cap_lost_resent(const struct dg_in *in)
{
    bool misled = in->cap_out_of_order > 0 || in->cap_duplicates > 0;
    double n = in->cap_retransmits - (misled && !isnan(in->cap_spurious) ? in->cap_spurious : 0);

    return in->cap_truncated == 1 && !(n > 0) ? NAN : n;
}

/* TCP sent segments again: the sender's own count (iperf3 TCP_INFO) or a
 * lost segment sent again on the captured wire (NaN compares false) */
static bool tcp_resent(const struct dg_in *in)
{
    return in->retransmits > 0 || cap_lost_resent(in) > 0;
}

/* @modes (dg_in.common_modes bits) as words, "none" when empty */
static const char *mode_words(int modes, char *buf, size_t n)
{
    static const char *const w[6] = { "10HD", "10FD", "100HD", "100FD", "1000HD", "1000FD" };
    size_t o = 0;

    buf[0] = '\0';
    for (int i = 5; i >= 0; i--)
        if (modes & (1 << i))
            o += (size_t)snprintf(buf + o, o < n ? n - o : 0, "%s%s", o ? "," : "", w[i]);
    if (!buf[0])
        snprintf(buf, n, "none");
    return buf;
}

static bool r_no_link(const struct dg_in *in, struct dg_finding *f)
{
    char ours[48], theirs[48];

    if (in->link_up != 0)
        return false;
    evs(f, "link", "down");
    if (in->local_autoneg != 0 && in->common_modes == 0 && in->partner_modes > 0) {
        /* both pages exchanged and no mode in both: priority resolution
         * (IEEE 802.3 Annex 28B.3) has nothing to choose; the partner is
         * there, the cable carries its pages */
        evs(f, "we_offer", mode_words(in->our_modes, ours, sizeof(ours)));
        evs(f, "partner_offers", mode_words(in->partner_modes, theirs, sizeof(theirs)));
        say(f, "no link: autonegotiation found no mode both sides offer: we advertise %s, the partner %s (its page "
               "arrived: ANER bit 1)", ours, theirs);
        return true;
    }
    if (in->local_autoneg != 0 && in->ssr_downshift == 1) {
        /* the PHY gave up on 1000BASE-T and left it out of its pages
         * (28.2.3.4): a cable with two good pairs; a partner that offers
         * 1000BASE-T only then has no mode in common (its reg 5 page
         * holds no 10/100 ability) */
        evs(f, "downshift", "yes (reg 17 bit 5)");
        if (in->partner_modes == 0)
            say(f, "no link: the PHY downshifted after failed 1000BASE-T attempts (88E1116R reg 17 bit 5) and "
                   "offers 10/100 only, and the partner's page offers no 10/100 mode (reg 5): a cable with two "
                   "good pairs to a partner that offers 1000BASE-T only");
        else
            say(f, "no link at the end of the run; the PHY had downshifted after failed 1000BASE-T attempts "
                   "(88E1116R reg 17 bit 5): a cable with two good pairs");
        return true;
    }
    say(f, "no link at the end of the run");
    return true;
}

static bool r_speed_below(const struct dg_in *in, struct dg_finding *f)
{
    if (in->link_up != 1 || isnan(in->speed_mbps) || isnan(in->board_max_speed_mbps) ||
        in->speed_mbps >= in->board_max_speed_mbps)
        return false;
    ev(f, "speed_mbps", in->speed_mbps);
    ev(f, "board_max_speed_mbps", in->board_max_speed_mbps);
    ev(f, "board_advertises_1000", in->adv_1000);
    ev(f, "partner_offers_1000", in->lp_1000);
    if (in->partner_autoneg >= 0)
        ev(f, "partner_autoneg", in->partner_autoneg);
    /* which side left 1000BASE-T out, from the two registers a bench
     * reads (`ethtool eth0`: advertised and link partner modes) */
    if (in->local_autoneg == 0)
        /* BMCR bit 12 clear: no pages exchanged (28.2.1.1), so reg 10
         * says nothing of the partner; the speed is the forced one */
        say(f, "link came up at %.0f Mb/s on a %.0f Mb/s board: our side does not autonegotiate (BMCR bit 12 "
            "clear) and is forced to that speed", in->speed_mbps, in->board_max_speed_mbps);
    else if (in->board_max_speed_mbps >= 1000 && in->adv_1000 == 0)
        say(f, "link negotiated %.0f Mb/s on a %.0f Mb/s board: the board does not advertise 1000BASE-T "
            "(1000BASE-T control, reg 9 bits 9:8 clear)", in->speed_mbps, in->board_max_speed_mbps);
    else if (in->partner_autoneg == 0 && in->local_autoneg != 0)
        /* IEEE 802.3 28.2.3.1: against a partner that does not negotiate,
         * parallel detection finds 10 or 100 only, and half duplex */
        say(f, "link came up at %.0f Mb/s on a %.0f Mb/s board: the partner does not autonegotiate (ANER, reg 6 "
            "bit 0 clear), so the speed came from parallel detection, which finds 10 or 100 only",
            in->speed_mbps, in->board_max_speed_mbps);
    else if (in->downshift == 1)
        /* a downshifted PHY leaves 1000BASE-T out of its pages: no
         * 1000BASE-T pages are exchanged (IEEE 802.3 28.2.3.4), so reg 10
         * is clear whatever the partner offers */
        say(f, "link came up at %.0f Mb/s on a %.0f Mb/s board: the PHY downshifted after failed 1000BASE-T "
            "attempts (88E1116R reg 17 bit 5), so reg 10 cannot say whether the partner offers 1000BASE-T",
            in->speed_mbps, in->board_max_speed_mbps);
    else if (in->board_max_speed_mbps >= 1000 && in->adv_1000 == 1 && in->lp_1000 == 0)
        say(f, "link negotiated %.0f Mb/s on a %.0f Mb/s board: the partner does not offer 1000BASE-T "
            "(1000BASE-T status, reg 10 bits 11:10 clear)", in->speed_mbps, in->board_max_speed_mbps);
    else if (in->board_max_speed_mbps >= 1000 && in->adv_1000 == 1 && in->lp_1000 == 1)
        say(f, "link negotiated %.0f Mb/s on a %.0f Mb/s board although both sides offer 1000BASE-T: "
            "the pairs or the PHY's downshift", in->speed_mbps, in->board_max_speed_mbps);
    else
        say(f, "link negotiated %.0f Mb/s on a %.0f Mb/s board", in->speed_mbps, in->board_max_speed_mbps);
    return true;
}

static bool r_downshift(const struct dg_in *in, struct dg_finding *f)
{
    if (in->downshift != 1)
        return false;
    ev(f, "speed_mbps", in->speed_mbps);
    evs(f, "downshift", "true");
    if (isnan(in->speed_mbps))
        say(f, "PHY reports a downshift after failed 1000BASE-T attempts, and no link at a lower speed yet");
    else
        say(f, "PHY downshifted to %.0f Mb/s after failed 1000BASE-T attempts", in->speed_mbps);
    return true;
}

static bool r_flaps(const struct dg_in *in, struct dg_finding *f)
{
    if (isnan(in->flaps) || in->flaps < 1)
        return false;
    ev(f, "flaps", in->flaps);
    say(f, "link went down %.0f time(s) during the run", in->flaps);
    return true;
}

/* NWCFG's speed bits (UG585 16.3, gem.net_cfg 0xE000B004) differ from the
 * speed the PHY resolved: the GEM samples the MII/RGMII lines at the
 * wrong rate, so nothing it receives is whole. */
static bool mac_speed_wrong(const struct dg_in *in)
{
    return in->link_up == 1 && !isnan(in->mac_speed_mbps) && !isnan(in->speed_mbps) &&
           in->mac_speed_mbps != in->speed_mbps;
}

static bool r_fcs(const struct dg_in *in, struct dg_finding *f)
{
    double n = fcs_total(in);

    /* with the MAC at the wrong speed every frame fails its FCS: the
     * count says nothing about the cable (MAC_SPEED_MISMATCH names it) */
    if (mac_speed_wrong(in))
        return false;
    if ((isnan(n) || n <= 0) && in->cap_crc_out > 0) {
        /* the board's own frames corrupted on the way out: its receiver
         * counts nothing, the partner's does (its rx_crc_errors, or a
         * tap on the cable: the capture).  A board that sends UDP gets
         * no frame back to fail: a blind user's 2 % corruption showed
         * only as UDP loss, 692 datagrams, every one of them bad FCS. */
        ev(f, "capture_crc_errors_out", in->cap_crc_out);
        ev(f, "link_flaps", in->flaps);
        say(f, "%.0f of the board's frames reached the wire with a bad FCS (capture; the partner counts them in "
            "its rx_crc_errors)", in->cap_crc_out);
        return true;
    }
    if (isnan(n) || n <= 0)
        return false;
    if (in->cap_crc_out > 0)
        ev(f, "capture_crc_errors_out", in->cap_crc_out);
    ev(f, "rx_fcs_errors", in->fcs_errors);
    ev(f, "rx_symbol_errors", in->symbol_errors);
    ev(f, "rx_length_errors", in->length_errors);
    ev(f, "rx_frames", in->rx_frames);
    ev(f, "link_flaps", in->flaps);
    if (!isnan(in->rx_frames) && in->rx_frames > 0) {
        /* a link that went down cuts the frame on the wire, and one that
         * came back at another speed fails the MAC's FCS until the driver
         * rewrites NWCFG (UG585 16.3): a blind tester's 100 -> 10 Mb/s
         * change gave 40 such, read as the cable's */
        ev(f, "error_rate", n / (in->rx_frames + n));
        say(f, "%.0f received frames with FCS/symbol/length errors (%.3g%% of %.0f)%s", n,
            100.0 * n / (in->rx_frames + n), in->rx_frames + n,
            in->flaps > 0 ? "; the link went down in the run: frames it cut, or before the driver set a new "
                            "speed in the MAC, fail FCS too" : "");
    } else {
        say(f, "%.0f received frames with FCS/symbol/length errors", n);
    }
    return true;
}

/* IEEE 802.3 28.2.3.1: a negotiating PHY facing a forced partner can only
 * parallel-detect its speed and must assume half duplex; ANER (reg 6) bit
 * 0 = 0 shows the partner did not negotiate (28.2.4.1.5).  The half side
 * counts late collisions (GEM 0x144, UG585 16.x), the full side FCS errors
 * and runts.  Case 1: we resolved half against a non-negotiating partner,
 * with late or excessive collisions counted; FCS errors alone do not
 * count there: the partner's frames reach a half-duplex receiver intact
 * (it is our frames the full side cuts), so at the half end they point
 * at the cable, and a half end that hardly transmits shows no collision
 * either way.  Case 2: our side is forced full
 * (BMCR bit 12 off) and counts FCS errors: an autonegotiating partner
 * parallel-detected us and runs half. */
/* Half duplex against a partner that does not defer (it runs full
 * duplex) shows in our MAC's collision counters: late collisions (a data
 * frame cut after the slot time) and excessive collisions (16 attempts,
 * IEEE 802.3 4.2.3.2.5), which a legitimate two-station half-duplex link
 * almost never reaches: there collisions happen only when both start
 * together after the IFG and one backoff resolves them (a 100 Mb/s
 * half/half run here: 12 % single collisions, 0 multiple, 0 excessive;
 * the mismatch: 176 multiple, 428 excessive). */
static bool r_duplex(const struct dg_in *in, struct dg_finding *f)
{
    double errs = fcs_total(in), late = in->late_collisions, excess = in->excessive_collisions;
    bool counted_late = !isnan(late) && late > 0, counted_fcs = !isnan(errs) && errs > 0;
    bool counted_excess = !isnan(excess) && excess > 0;
    bool ours_half = in->full_duplex == 0 && in->local_autoneg != 0 && in->partner_autoneg == 0 &&
                     (counted_late || counted_excess);
    /* half duplex, however it was reached (our side forced half, or the
     * partner's autoneg state unknown), with late or excessive collisions:
     * the other end does not defer, it runs full */
    bool half_late = in->full_duplex == 0 && (counted_late || counted_excess);
    /* parallel detection finds 10 and 100 only (28.2.3.1), and 1000BASE-T
     * needs autonegotiation (40.5.1): at 1000 no partner fell back to half */
    bool ours_forced_full = in->full_duplex == 1 && in->local_autoneg == 0 && counted_fcs &&
                            !(in->speed_mbps >= 1000);

    if (in->link_up != 1 || (!ours_half && !half_late && !ours_forced_full))
        return false;
    evs(f, "duplex", in->full_duplex == 1 ? "full" : "half");
    evs(f, "local_autoneg", in->local_autoneg == 1 ? "on" : in->local_autoneg == 0 ? "off" : "unknown");
    evs(f, "partner_autoneg", in->partner_autoneg == 1 ? "on (ANER bit 0)"
                              : in->partner_autoneg == 0 ? "off (ANER bit 0 clear)" : "unknown");
    ev(f, "late_collisions", late);
    ev(f, "excessive_collisions", excess);
    ev(f, "collisions", in->collisions);
    ev(f, "rx_fcs_errors", in->fcs_errors);
    if (ours_half)
        say(f, "duplex mismatch: we resolved half duplex by parallel detection (partner does not autonegotiate), "
               "%.0f late and %.0f excessive collisions, %.0f FCS errors", isnan(late) ? 0 : late,
            isnan(excess) ? 0 : excess, isnan(errs) ? 0 : errs);
    else if (half_late)
        say(f, "duplex mismatch: we run half duplex%s and count %.0f late and %.0f excessive collisions: the "
               "partner does not defer, it runs full", in->local_autoneg == 0 ? " (autoneg off)" : "",
            isnan(late) ? 0 : late, isnan(excess) ? 0 : excess);
    else
        say(f, "duplex mismatch suspected: our side is forced full duplex (autoneg off) and counts %.0f FCS "
               "errors; an autonegotiating partner falls back to half", errs);
    return true;
}

static const char *onoff(double bit)
{
    return bit == 1 ? "on" : bit == 0 ? "off" : "?";
}

/* The device-tree phy-mode that makes the PHY add these delays (kernel
 * Documentation/devicetree/bindings/net/ethernet-controller.yaml: "rgmii-id"
 * both, "rgmii-rxid" RX only, "rgmii-txid" TX only, "rgmii" none), or NULL
 * when a bit is unknown. */
static const char *rgmii_mode_of(const struct dg_in *in)
{
    static const char *const mode[2][2] = { { "rgmii", "rgmii-txid" }, { "rgmii-rxid", "rgmii-id" } };
    if ((in->rgmii_rx_delay != 0 && in->rgmii_rx_delay != 1) || (in->rgmii_tx_delay != 0 && in->rgmii_tx_delay != 1))
        return NULL;
    return mode[in->rgmii_rx_delay == 1][in->rgmii_tx_delay == 1];
}

/* The transmit half of r_rgmii: the board's own frames fail FCS at the
 * partner, whose counters the board cannot read, so its receiver counts
 * nothing.  What a bench reads instead: the 88E1116R's TX delay bit (page
 * 2 reg 21 bit 4) clear, and the board's frames lost at 1000 full duplex
 * while it sends (UDP loss at the receiver, or TCP segments resent), or
 * its frames on the wire with a bad FCS (a tap, or the partner's
 * rx_crc_errors): also its ACKs while it receives, which cost TCP nothing
 * a goodput shows (ACKs are cumulative). */
static bool rgmii_tx(const struct dg_in *in, struct dg_finding *f)
{
    bool crc_out = in->cap_crc_out > 0;
    bool lost = crc_out || (in->reverse == 1 && (in->udp ? in->lost_pct > TH_UDP_LOSS_PCT
                                                         : in->retransmits > 0 || cap_lost_resent(in) > 0));
    /* the bit unread (the Linux agent reads no PHY page 2): the device
     * tree's phy-mode says what the driver programmed (marvell.c
     * m88e1121_config_aneg_rgmii_delays: TX delay for "rgmii-id" and
     * "rgmii-txid" only) */
    bool mode_off = in->rgmii_tx_delay != 1 && (!strcmp(in->phy_mode, "rgmii") || !strcmp(in->phy_mode, "rgmii-rxid"));

    if ((in->rgmii_tx_delay != 0 && !mode_off) || !lost)
        return false;
    ev(f, "speed_mbps", in->speed_mbps);
    ev(f, "udp_lost_pct", in->udp ? in->lost_pct : NAN);
    ev(f, "retransmits", in->retransmits);
    ev(f, "capture_retransmits", in->cap_retransmits);
    ev(f, "capture_crc_errors_out", in->cap_crc_out);
    evs(f, "phy_mode", in->phy_mode[0] ? in->phy_mode : "unknown");
    evs(f, "rgmii_rx_delay", in->rgmii_rx_delay == 1 ? "on" : in->rgmii_rx_delay == 0 ? "off" : "unknown");
    evs(f, "rgmii_tx_delay", in->rgmii_tx_delay == 0 ? "off" : "unknown");
    if (crc_out && in->rgmii_tx_delay == 0)
        say(f, "%.0f of the board's frames on the wire with a bad FCS at 1000 Mb/s (capture), the PHY's RGMII TX "
            "delay off%s%s%s: RGMII clock delay suspected",
            in->cap_crc_out, in->phy_mode[0] ? " (phy-mode \"" : "", in->phy_mode, in->phy_mode[0] ? "\")" : "");
    else if (crc_out)
        say(f, "%.0f of the board's frames on the wire with a bad FCS at 1000 Mb/s (capture), phy-mode \"%s\" "
            "(no PHY TX delay): RGMII clock delay suspected unless the PCB delays the clock", in->cap_crc_out,
            in->phy_mode);
    else if (in->rgmii_tx_delay == 0)
        say(f, "the board's frames are lost at 1000 Mb/s while it sends, with the PHY's RGMII TX delay off%s%s%s: "
            "the partner's receiver sees them with CRC errors; RGMII clock delay suspected",
            in->phy_mode[0] ? " (phy-mode \"" : "", in->phy_mode, in->phy_mode[0] ? "\")" : "");
    else
        say(f, "the board's frames are lost at 1000 Mb/s while it sends, and its device tree's phy-mode \"%s\" "
            "asks the PHY for no RGMII TX delay: the partner's receiver sees them with CRC errors unless the PCB "
            "delays the clock; RGMII clock delay suspected", in->phy_mode);
    return true;
}

/* RGMII at 1000 Mb/s is 125 MHz DDR: without a ~2 ns clock delay (PCB,
 * MAC or PHY; the ZC702 routes none) frames fail FCS at 1000 only.  The
 * evidence: FCS errors at 1000 full duplex, with the 88E1116R's RGMII
 * timing bits (page 2 reg 21 bits 5 RX / 4 TX) read clear, or the guest's
 * device tree phy-mode "rgmii" (no internal delay) and no bits read set. */
static bool r_rgmii(const struct dg_in *in, struct dg_finding *f)
{
    double n = fcs_total(in);
    bool bits_clear = in->rgmii_rx_delay == 0 || in->rgmii_tx_delay == 0;
    bool bits_set = in->rgmii_rx_delay == 1 && in->rgmii_tx_delay == 1;
    bool mode_suspect = in->phy_mode[0] && strncmp(in->phy_mode, "rgmii", 5) == 0 &&
                        strcmp(in->phy_mode, "rgmii-id") != 0;

    if (in->speed_mbps != 1000 || in->full_duplex != 1)
        return false;
    if (isnan(n) || n <= 0)
        return rgmii_tx(in, f);
    if (!bits_clear && !(mode_suspect && !bits_set))
        return false;
    ev(f, "speed_mbps", in->speed_mbps);
    ev(f, "rx_fcs_errors", n);
    evs(f, "phy_mode", in->phy_mode[0] ? in->phy_mode : "unknown");
    evs(f, "rgmii_rx_delay", in->rgmii_rx_delay == 1 ? "on" : in->rgmii_rx_delay == 0 ? "off" : "unknown");
    evs(f, "rgmii_tx_delay", in->rgmii_tx_delay == 1 ? "on" : in->rgmii_tx_delay == 0 ? "off" : "unknown");
    if (in->phy_mode[0])
        say(f, "CRC errors at 1000 Mb/s with phy-mode \"%s\", PHY RGMII delays RX %s / TX %s: RGMII clock delay "
               "suspected", in->phy_mode, onoff(in->rgmii_rx_delay), onoff(in->rgmii_tx_delay));
    else {
        const char *mode = rgmii_mode_of(in);
        say(f, "CRC errors at 1000 Mb/s with the PHY's RGMII delays RX %s / TX %s%s%s%s: RGMII clock delay suspected",
            onoff(in->rgmii_rx_delay), onoff(in->rgmii_tx_delay), mode ? " (what phy-mode \"" : "", mode ? mode : "",
            mode ? "\" programs)" : "");
    }
    return true;
}

/* GEM NWCFG (UG585 16.3, reg 0xE000B004) speed bits against the speed the
 * PHY resolved. */
static bool r_mac_speed(const struct dg_in *in, struct dg_finding *f)
{
    if (!mac_speed_wrong(in))
        return false;
    ev(f, "phy_speed_mbps", in->speed_mbps);
    ev(f, "mac_speed_mbps", in->mac_speed_mbps);
    say(f, "GEM NWCFG is set for %.0f Mb/s while the PHY resolved %.0f Mb/s", in->mac_speed_mbps,
        in->speed_mbps);
    return true;
}

/* Each RX resource error (GEM 0x1A0, UG585 16.3.x: no free descriptor)
 * or overrun (0x1A4) is one frame dropped before the driver saw it.  A
 * drop rate under TH_RX_DROP_PCT of the frames that arrived is the odd
 * frame a busy receiver loses at the line rate (two in 160k, which costs
 * TCP one retransmission): true, and the cause of nothing; the UDP loss
 * rule draws its line at the same rate.  Without a frame count every
 * drop is named. */
/* Few drops still matter to TCP when they are its losses: each one is a
 * segment the partner must resend, and a window cut (RFC 5681 3.1): the
 * board's drops are at least half of the segments lost and resent (the
 * sender's count, else the capture's). */
static bool drops_are_tcp_losses(const struct dg_in *in, double n)
{
    double lost = in->retransmits > 0 ? in->retransmits : cap_lost_resent(in);

    return !in->udp && lost > 0 && n >= TH_DROPS_OF_LOSSES * lost;
}

static bool r_rx_resource(const struct dg_in *in, struct dg_finding *f)
{
    double n = nsum(in->rx_resource_errors, in->rx_overruns);
    bool counted = !isnan(in->rx_frames) && in->rx_frames + n > 0;
    double pct = counted ? 100.0 * n / (in->rx_frames + n) : NAN;

    if (isnan(n) || n <= 0 || (counted && pct < TH_RX_DROP_PCT && !drops_are_tcp_losses(in, n)))
        return false;
    ev(f, "rx_resource_errors", in->rx_resource_errors);
    ev(f, "rx_overruns", in->rx_overruns);
    ev(f, "rx_bds", in->rx_bds);
    ev(f, "rx_frames", in->rx_frames);
    ev(f, "drop_pct", pct);
    if (!isnan(in->rx_bds))
        say(f, "%.0f RX resource errors/overruns with %.0f RX descriptors", n, in->rx_bds);
    else
        say(f, "%.0f RX resource errors/overruns", n);
    if (counted) {
        size_t len = strlen(f->summary);
        snprintf(f->summary + len, sizeof(f->summary) - len, " (%.3g%% of %.0f frames dropped)", pct,
                 in->rx_frames + n);
    }
    return true;
}

/* The first run of TH_STALL_INTERVALS empty intervals after the first,
 * with the link up and no flap: at the end of the test, or in its middle
 * (RX descriptors withheld for a while, then handed back).  *@first_zero
 * its first interval, *@zeros its length, *@before the highest interval
 * before it. */
static bool stalled(const struct dg_in *in, int *first_zero, int *zeros, double *before)
{
    *first_zero = -1;
    *zeros = 0;
    *before = 0;
    if (in->link_up != 1 || (!isnan(in->flaps) && in->flaps > 0) || in->nintervals < 4)
        return false;
    for (int i = 1; i < in->nintervals && *zeros < TH_STALL_INTERVALS; i++) {
        if (in->intervals[i] >= 1e3) {
            *zeros = 0;
            continue;
        }
        if (!*zeros)
            *first_zero = i;
        (*zeros)++;
    }
    if (*zeros < TH_STALL_INTERVALS || *first_zero <= 0)
        return false;
    while (*first_zero + *zeros < in->nintervals && in->intervals[*first_zero + *zeros] < 1e3)
        (*zeros)++;
    for (int i = 0; i < *first_zero; i++)
        *before = fmax(*before, in->intervals[i]);
    return true;
}

/* TCP into the board, and the board answered every segment that reached
 * it (the capture: no data after its last frame) with its MAC dropping
 * nothing: a stall then is the sender or the path going quiet, not the
 * receiver stopping */
static bool board_answered_all(const struct dg_in *in)
{
    return !in->udp && in->reverse == 0 && in->bidir != 1 && in->cap_unanswered == 0 &&
           !(in->rx_resource_errors > 0) && !(in->rx_overruns > 0);
}

/* Traffic died while the link stayed up: the last intervals carry nothing
 * after earlier ones did, and the link never went down. */
static bool r_rx_stall(const struct dg_in *in, struct dg_finding *f)
{
    int first_zero, zeros;
    double before;
    bool resumed;

    if (!stalled(in, &first_zero, &zeros, &before))
        return false;
    resumed = first_zero + zeros < in->nintervals;
    /* the sender retransmitting on the wire while the MAC counts no RX
     * resource error or overrun is TCP waiting on its retransmission
     * timer (RFC 6298 5.5 doubles it), not a receiver that stopped */
    if (cap_lost_resent(in) > 0 && !(in->rx_resource_errors > 0) && !(in->rx_overruns > 0))
        return false;
    /* ... nor a board that answered everything that reached it (a loss
     * burst that took the resends too, before any reached the board:
     * campaign --clock virtual seed 1 sample 6 of 2026-12-07) */
    if (board_answered_all(in))
        return false;
    if (before < 1e6)
        return false;
    ev(f, "stalled_from_interval", first_zero);
    ev(f, "zero_intervals", zeros);
    ev(f, "resumed", resumed);
    ev(f, "peak_bps_before", before);
    ev(f, "rx_resource_errors", in->rx_resource_errors);
    say(f, "traffic stopped after interval %d (peak %.1f Mb/s before, %d empty intervals%s) with the link up",
        first_zero, before / 1e6, zeros, resumed ? ", then it resumed" : "");
    return true;
}

/* The test ran and failed with the link up, the board's MAC sent frames
 * (GEM frames_tx, 0x108) and received none (frames_rx, 0x158), and it
 * counted no receive error of any kind (0x190..0x1A4).  A frame for the
 * board that reached its PHY, however damaged, lands in one of those
 * counters (UG585 16.3.9 statistics registers), so none arrived: the
 * partner did not send (no ARP reply to the board's requests, a wrong
 * address, a port that forwards nothing) or its frames were lost before
 * the board's PHY.  With the MAC at the wrong speed nothing it receives
 * is whole either, but that shows as FCS errors (MAC_SPEED_MISMATCH). */
static bool r_no_rx_frames(const struct dg_in *in, struct dg_finding *f)
{
    double errors = nsum(fcs_total(in), nsum(in->rx_resource_errors, in->rx_overruns));

    if (in->link_up != 1 || in->iperf_ok != 0 || in->rx_frames != 0 || !(in->tx_frames > 0) ||
        errors > 0 || mac_speed_wrong(in))
        return false;
    ev(f, "rx_frames", in->rx_frames);
    ev(f, "tx_frames", in->tx_frames);
    ev(f, "rx_errors", errors);
    ev(f, "speed_mbps", in->speed_mbps);
    say(f, "the link is up at %.0f Mb/s and the board sent %.0f frames, but its MAC received none and counted "
        "no receive error", in->speed_mbps, in->tx_frames);
    return true;
}

/* The GEM's interrupts all land on one core AND that core is the limit.
 * A GICv2 delivers an SPI to one CPU of its affinity mask (kernel
 * drivers/irqchip/irq-gic.c gic_set_affinity), so on a Zynq without
 * irqbalance one core takes them all on every run: that alone is how the
 * chip works, not a cause (docs/SOURCES.md 001 §5.2 moves them to speed a
 * test up).  It is one when, over a window that covers the test, the
 * interrupts' core is saturated (TH_CPU_SATURATED) while another has room
 * (TH_CORE_SPREAD_PCT points less) and the goodput is under the ceiling
 * (TH_CPU_BELOW): moving work off that core is then what would help.
 * Without the agent's per-CPU load nothing is said. */
static bool r_irq_one_cpu(const struct dg_in *in, struct dg_finding *f)
{
    double total = 0, top = 0, lo = NAN;
    int topi = 0;

    if (in->nirq < 2 || (!isnan(in->cpus) && in->cpus < 2))
        return false;
    for (int i = 0; i < in->nirq; i++) {
        total += in->irq[i];
        if (in->irq[i] > top) {
            top = in->irq[i];
            topi = i;
        }
    }
    if (total < TH_IRQ_MIN || top / total < TH_IRQ_SHARE)
        return false;
    if (topi >= in->ncpu_busy || isnan(in->bps) || isnan(in->speed_mbps) || isnan(in->cpu_window_s) ||
        isnan(in->duration_s) || in->cpu_window_s < in->duration_s)
        return false;
    for (int i = 0; i < in->ncpu_busy; i++)
        if (i != topi)
            lo = isnan(lo) ? in->cpu_busy[i] : fmin(lo, in->cpu_busy[i]);
    if (in->cpu_busy[topi] < TH_CPU_SATURATED || isnan(lo) || in->cpu_busy[topi] - lo < TH_CORE_SPREAD_PCT ||
        !below_line(in))
        return false;
    ev(f, "cpu", topi);
    ev(f, "share", top / total);
    ev(f, "gem_irqs_total", total);
    ev(f, "irq_cpu_busy_pct", in->cpu_busy[topi]);
    if (!isnan(in->cpu_softirq[topi]))
        ev(f, "irq_cpu_softirq_pct", in->cpu_softirq[topi]);
    ev(f, "idlest_cpu_pct", lo);
    ev(f, "throughput_bps", in->bps);
    ev(f, "ceiling_bps", total_ceiling(in));
    say(f, "%.1f%% of %.0f GEM interrupts were handled on CPU%d, which was %.1f%% busy while another core was "
        "%.1f%%, at %.2f of %.2f Mb/s", 100.0 * top / total, total, topi, in->cpu_busy[topi], lo, in->bps / 1e6,
        total_ceiling(in) / 1e6);
    return true;
}

/* Both directions at once (-d), one far slower than the other.  On a path
 * that loses segments (TCP retransmits, the sender's count or the same
 * segment twice in the capture) the two ends' TCP stacks recover each at
 * its own pace (lwIP 2.1 has no SACK, Linux has, RFC 2018), so a lossy
 * path alone makes the directions differ: there the asymmetry is named
 * only when the slower direction's own ring shows it, RX resource errors
 * or overruns when the board receives slower, the driver's TX ring full
 * when it sends slower.  A 1 % loss both ways with Linux sending gave
 * 34.9 Mb/s against 2.6 with clean MAC counters. */

static bool r_asymmetry(const struct dg_in *in, struct dg_finding *f)
{
    double lo, hi;
    bool lossy = tcp_resent(in);

    if (isnan(in->tx_bps) || isnan(in->rx_bps) || in->tx_bps <= 0 || in->rx_bps <= 0)
        return false;
    lo = fmin(in->tx_bps, in->rx_bps);
    hi = fmax(in->tx_bps, in->rx_bps);
    if (lo / hi >= TH_ASYM_RATIO)
        return false;
    if (lossy && !(in->rx_bps < in->tx_bps ? nsum(in->rx_resource_errors, in->rx_overruns) > 0
                                           : in->tx_ring_full > 0))
        return false;
    ev(f, "board_tx_bps", in->tx_bps);
    ev(f, "board_rx_bps", in->rx_bps);
    ev(f, "tx_bds", in->tx_bds);
    if (lossy) {
        ev(f, "rx_resource_errors", in->rx_resource_errors);
        ev(f, "tx_ring_full", in->tx_ring_full);
    }
    say(f, "board TX %.1f Mb/s vs RX %.1f Mb/s (%.0f%%)", in->tx_bps / 1e6, in->rx_bps / 1e6,
        100.0 * in->tx_bps / in->rx_bps);
    return true;
}

/* The board sends (the tool's direction) below the line: its own rate is
 * more than 1 % under the goodput ceiling of the negotiated speed, and
 * under the rate its client offered when it says so (-b: a paced sender
 * below the line is not held back), while its driver found the TX ring
 * full (bare-metal `stats` tx_ring_full; unknown: the client's refused
 * datagrams) at least 10 times per second of the test.  A full ring with
 * the wire below the line means the sender refills it too late: 64
 * descriptors hold 787 us of 1538-byte frames at 1000 Mb/s, and the
 * firmware's client refills it from its 1 ms main-loop poll
 * (docs/BENCHMARKS.md "1G tables in virtual time").  A few events over a
 * test are a sender that fell behind once, not a ring that bounds it. */
/* The board sends at a known speed and rate: true, with its own rate
 * (the client's, else the goodput), the TX-ring-full count (the driver's,
 * else the client's refused datagrams; NAN unknown) and that count per
 * second of the test (all of it when the duration is unknown). */
static bool board_sends(const struct dg_in *in, double *sent, double *events, double *per_s)
{
    bool timed = !isnan(in->duration_s) && in->duration_s > 0;

    *sent = !isnan(in->sent_bps) ? in->sent_bps : in->bps;
    *events = !isnan(in->tx_ring_full) ? in->tx_ring_full : in->sender_tx_errors;
    *per_s = timed ? *events / in->duration_s : *events;
    return in->reverse == 1 && !isnan(in->speed_mbps) && in->speed_mbps > 0 && !isnan(*sent) && *sent > 0;
}

static bool r_tx_ring_full(const struct dg_in *in, struct dg_finding *f)
{
    double sent, events, per_s, ceil;
    char offered[48] = "", bds[32] = "";

    if (!board_sends(in, &sent, &events, &per_s) || isnan(events) || per_s < TH_TX_RING_PER_S)
        return false;
    ceil = ceiling(in);
    if (sent >= ceil * (1 - TH_TX_BELOW) ||
        (!isnan(in->offered_bps) && sent >= in->offered_bps * (1 - TH_TX_BELOW)))
        return false;
    ev(f, "sent_bps", sent);
    ev(f, "ceiling_bps", ceil);
    ev(f, "speed_mbps", in->speed_mbps);
    ev(f, "offered_bps", in->offered_bps);
    ev(f, "length_bytes", in->length_bytes);
    ev(f, "tx_ring_full", in->tx_ring_full);
    ev(f, "sender_tx_errors", in->sender_tx_errors);
    ev(f, "tx_bds", in->tx_bds);
    ev(f, "duration_s", in->duration_s);
    if (!isnan(in->offered_bps))
        snprintf(offered, sizeof(offered), ", offered %.2f", in->offered_bps / 1e6);
    if (!isnan(in->tx_bds))
        snprintf(bds, sizeof(bds), " (%.0f TX BDs)", in->tx_bds);
    say(f, "board sent %.2f Mb/s, %.1f%% under the %.2f Mb/s ceiling%s: %s %.0f times%s", sent / 1e6,
        100.0 * (1 - sent / ceil), ceil / 1e6, offered,
        !isnan(in->tx_ring_full) ? "TX ring full" : "client tx_errors", events, bds);
    return true;
}

/* The board's UDP client sends (the tool's direction) below what it
 * offered and below the line, and its TX ring was not what held it back:
 * the driver's count (bare-metal `stats` tx_ring_full; unknown: the
 * client's refused datagrams) is known and under 10 per second of the
 * test.  The MAC took every frame it was given and the wire had room, so
 * the client produced too few: its CPU (per-datagram cost through the
 * stack and driver, and the main loop that runs it) is the limit.  An
 * unknown count says nothing (the ring could be the limit); TCP offers
 * no rate to fall short of.  Nor does a link that went down during the
 * run (PHY_LINK_FLAPS): the time without one explains the gap, and the
 * CPU is named only when nothing else can, so the flap count must be
 * known (the runner always writes link.flaps). */
static bool r_tx_cpu_limit(const struct dg_in *in, struct dg_finding *f)
{
    double sent, events, per_s, ceil, pps;

    if (!board_sends(in, &sent, &events, &per_s) || !in->udp || isnan(in->offered_bps) || isnan(events) ||
        per_s >= TH_TX_RING_PER_S || !(in->flaps == 0))
        return false;
    ceil = ceiling(in);
    if (sent >= ceil * (1 - TH_TX_BELOW) || sent >= in->offered_bps * (1 - TH_TX_BELOW))
        return false;
    ev(f, "sent_bps", sent);
    ev(f, "offered_bps", in->offered_bps);
    ev(f, "ceiling_bps", ceil);
    ev(f, "speed_mbps", in->speed_mbps);
    ev(f, "length_bytes", in->length_bytes);
    ev(f, "tx_ring_full", in->tx_ring_full);
    ev(f, "sender_tx_errors", in->sender_tx_errors);
    ev(f, "duration_s", in->duration_s);
    if (isnan(in->length_bytes) || in->length_bytes < 1) {
        say(f, "board sent %.2f Mb/s of %.2f offered, %.1f%% under the %.2f Mb/s ceiling, its TX ring full %.0f "
            "times: the sender's CPU is the limit", sent / 1e6, in->offered_bps / 1e6, 100.0 * (1 - sent / ceil),
            ceil / 1e6, events);
        return true;
    }
    pps = sent / (in->length_bytes * 8);
    ev(f, "sent_pps", pps);
    say(f, "board sent %.2f Mb/s (%.0f datagrams/s of %.0f B) of %.2f offered, %.1f%% under the %.2f Mb/s "
        "ceiling, its TX ring full %.0f times: the sender's CPU is the limit", sent / 1e6, pps, in->length_bytes,
        in->offered_bps / 1e6, 100.0 * (1 - sent / ceil), ceil / 1e6, events);
    return true;
}

static bool r_pps(const struct dg_in *in, struct dg_finding *f)
{
    int lo = 0, hi = 0;

    if (in->nsweep < 2)
        return false;
    for (int i = 1; i < in->nsweep; i++) {
        if (in->sweep_len[i] < in->sweep_len[lo])
            lo = i;
        if (in->sweep_len[i] > in->sweep_len[hi])
            hi = i;
    }
    if (lo == hi || in->sweep_bps[hi] <= 0)
        return false;
    /* each size against its own line: L / (max(L + 46, 64) + 20) of the
     * bit rate is all a wire can carry (dg_udp_ceiling_bps), so 64 B at
     * the line is 49 % of 1472 B at the line and no per-packet cost */
    if (!isnan(in->speed_mbps) && in->speed_mbps > 0) {
        double share_lo = in->sweep_bps[lo] / dg_udp_ceiling_bps(in->speed_mbps, in->sweep_len[lo], NULL, NULL);
        double share_hi = in->sweep_bps[hi] / dg_udp_ceiling_bps(in->speed_mbps, in->sweep_len[hi], NULL, NULL);

        ev(f, "small_line_share", share_lo);
        ev(f, "large_line_share", share_hi);
        if (share_lo >= TH_PPS_RATIO * share_hi)
            return false;
    } else if (in->sweep_bps[lo] / in->sweep_bps[hi] >= TH_PPS_RATIO) {
        return false;
    }
    ev(f, "small_length_bytes", in->sweep_len[lo]);
    ev(f, "small_bps", in->sweep_bps[lo]);
    ev(f, "small_pps", in->sweep_bps[lo] / (in->sweep_len[lo] * 8));
    ev(f, "large_length_bytes", in->sweep_len[hi]);
    ev(f, "large_bps", in->sweep_bps[hi]);
    ev(f, "large_pps", in->sweep_bps[hi] / (in->sweep_len[hi] * 8));
    say(f, "%.0f B datagrams reach %.1f Mb/s (%.0f pps) vs %.1f Mb/s at %.0f B: per-packet cost bound",
        in->sweep_len[lo], in->sweep_bps[lo] / 1e6, in->sweep_bps[lo] / (in->sweep_len[lo] * 8),
        in->sweep_bps[hi] / 1e6, in->sweep_len[hi]);
    return true;
}

static bool r_window_limited(const struct dg_in *in, struct dg_finding *f)
{
    bool median;
    double rtt = rtt_s(in, &median), cap, ceil, win = tcp_window(in);
    char note[96];

    /* a board whose receive window the firmware does not say (Linux
     * autotunes its own): the largest it advertised on the wire, which a
     * partner without window scaling (RFC 7323 2.2) holds to 64 KB */
    if (in->reverse == 0 && !(in->board_rcv_wnd > 0) && in->cap_board_rwnd > 0)
        win = isnan(win) ? in->cap_board_rwnd : fmin(win, in->cap_board_rwnd);

    /* both directions at once: the sum says nothing of one window */
    if (in->udp || in->bidir == 1 || isnan(in->bps) || isnan(rtt) || isnan(win) || isnan(in->speed_mbps))
        return false;
    cap = win * 8.0 / rtt;
    ceil = ceiling(in);
    /* window-bound means measured ~ window/RTT: far below it, something
     * else (CPU, loss) limits first */
    if (in->bps >= TH_NEAR_CEILING * ceil || cap >= ceil || in->bps > TH_WINDOW_EXPLAINS * cap ||
        in->bps < TH_WINDOW_FLOOR * cap)
        return false;
    /* A path that loses segments holds TCP near MSS/(RTT sqrt(p)) (Mathis,
     * Semke, Mahdavi, Ott, CCR 27(3), 1997) and lwIP's retransmission
     * timeouts below it: well under window/RTT with segments resent, the
     * window is not what binds (PROTO_RETRANSMITS names the loss). */
    if (tcp_resent(in) && in->bps < TH_WINDOW_LOSSY * cap)
        return false;
    ev(f, "throughput_bps", in->bps);
    ev(f, "window_bytes", win);
    ev(f, "tool_window_bytes", in->window_bytes);
    ev(f, "board_rcv_wnd", in->board_rcv_wnd);
    ev(f, "partner_rcv_wnd", in->cap_partner_rwnd);
    ev(f, "board_rcv_wnd_on_wire", in->cap_board_rwnd);
    ev(f, "rtt_ms", rtt * 1e3);
    ev(f, "rtt_is_ping_median", median);
    ev(f, "window_over_rtt_bps", cap);
    ev(f, "ceiling_bps", ceil);
    say(f, "TCP %.1f Mb/s is what a %.0f KiB window allows at %.2f ms RTT (%.1f Mb/s), ceiling %.1f%s",
        in->bps / 1e6, win / 1024, rtt * 1e3, cap / 1e6, ceil / 1e6, rtt_note(in, median, note, sizeof(note)));
    return true;
}

/* TCP lost segments though no resend of them reached the tap: a hole in
 * what the partner sent was never filled; or the traffic stopped while
 * the board answered all that reached it; or the runner's ping lost
 * packets.  The path lost the segments, and their resends. */
static bool lost_unseen(const struct dg_in *in, struct dg_finding *f)
{
    int first_zero, zeros;
    double before, ping_lost = in->rtt_probe_sent - in->rtt_probe_received;
    bool quiet = stalled(in, &first_zero, &zeros, &before) && board_answered_all(in);
    bool probe = in->link_up == 1 && in->rtt_probe_sent >= TH_PROBE_MIN &&
                 ping_lost >= TH_PROBE_LOSS * in->rtt_probe_sent;
    char ping[96] = "";

    if (!(in->cap_hole_bytes > 0) && !quiet && !probe)
        return false;
    ev(f, "capture_hole_at_end_bytes", in->cap_hole_bytes);
    ev(f, "capture_retransmits", in->cap_retransmits);
    ev(f, "capture_tcp_unanswered", in->cap_unanswered);
    ev(f, "probe_sent", in->rtt_probe_sent);
    ev(f, "probe_received", in->rtt_probe_received);
    ev(f, "throughput_bps", in->bps);
    if (probe)
        snprintf(ping, sizeof(ping), "; the runner's ping of the board lost %.0f of %.0f", ping_lost,
                 in->rtt_probe_sent);
    if (in->cap_hole_bytes > 0)
        say(f, "a segment into the board never arrived, nor any resend of it (capture: the board's last ACK stops "
               "at a hole %.0f bytes below the highest byte that arrived)%s: segments are being lost on the path",
            in->cap_hole_bytes, ping);
    else if (quiet)
        say(f, "traffic into the board stopped after interval %d with the link up, while the board answered every "
               "segment that reached it and its MAC dropped none (capture, GEM)%s: the sender's segments and its "
               "resends are lost before the board", first_zero, ping);
    else
        say(f, "no TCP segment was seen resent, but the runner's ping of the board lost %.0f of %.0f: packets are "
               "being lost on the path", ping_lost, in->rtt_probe_sent);
    return true;
}

static bool r_retransmits(const struct dg_in *in, struct dg_finding *f)
{
    /* the sender's own count (iperf3 sum_sent.retransmits, from TCP_INFO);
     * iperf 2 -y C and a sender behind slirp show none, but the wire
     * capture does: the same segment sent twice on the cable */
    bool tool = in->retransmits > 0;

    if (in->udp)
        return false;
    if (!tcp_resent(in))
        return lost_unseen(in, f);
    ev(f, "retransmits", in->retransmits);
    ev(f, "capture_retransmits", in->cap_retransmits);
    ev(f, "capture_spurious_retransmits", in->cap_spurious);
    ev(f, "capture_out_of_order", in->cap_out_of_order);
    ev(f, "capture_duplicates", in->cap_duplicates);
    ev(f, "throughput_bps", in->bps);
    if (in->cap_duplicates > 0) {
        /* the path copies segments: each copy draws a duplicate ACK, and
         * enough of them make the sender resend data that had arrived
         * (RFC 5681 3.2), so "lost" is not the whole story */
        say(f, "%.0f TCP %s and %.0f segments copied on the path (capture): duplicate ACKs of the copies resend "
               "data that arrived (RFC 5681 3.2); the path duplicates frames",
            tool ? in->retransmits : cap_lost_resent(in), tool ? "retransmits" : "segments sent again",
            in->cap_duplicates);
    } else {
        /* the board's own MAC dropping received frames (no RX buffer,
         * GEM 0x1A0) loses segments too, after the cable */
        char where[128] = "on the path";
        if (in->rx_resource_errors > 0)
            snprintf(where, sizeof(where), "on the path or by the board's MAC (%.0f frames dropped for want of RX "
                     "buffers)", in->rx_resource_errors);
        else if (in->flaps > 0)
            snprintf(where, sizeof(where), "while the link was down (%.0f time(s) during the test) or on the path",
                     in->flaps);
        if (tool)
            say(f, "%.0f TCP retransmits: segments are being lost %s", in->retransmits, where);
        else
            say(f, "%.0f TCP segments sent again on the wire (capture): segments are being lost %s",
                cap_lost_resent(in), where);
    }
    ev(f, "rx_resource_errors", in->rx_resource_errors);
    return true;
}

static bool r_udp_loss(const struct dg_in *in, struct dg_finding *f)
{
    if (!in->udp || isnan(in->lost_pct) || in->lost_pct <= TH_UDP_LOSS_PCT)
        return false;
    ev(f, "lost_pct", in->lost_pct);
    ev(f, "rx_resource_errors", in->rx_resource_errors);
    ev(f, "rx_fcs_errors", in->fcs_errors);
    ev(f, "sender_tx_errors", in->sender_tx_errors);
    ev(f, "link_flaps", in->flaps);
    /* the datagrams the client wrote, from its own rate, -l and -t */
    double sent = in->sent_bps * in->duration_s / (8 * in->length_bytes);
    double refused_pct = sent > 0 ? 100.0 * in->sender_tx_errors / (sent + in->sender_tx_errors) : NAN;
    if (in->sender_tx_errors > 0 && refused_pct < in->lost_pct / 2)
        /* a blind tester's 1G UDP into the Linux board: 2882 refused, 1.2 %,
         * of 11.1 % lost, the rest the board's socket (the GEM took every
         * frame): the refusals are not the story */
        say(f, "UDP lost %.3g%% of datagrams; the sender's stack refused %.0f writes (about %.2g%%), so most were "
               "lost after the sender", in->lost_pct, in->sender_tx_errors, refused_pct);
    else if (in->sender_tx_errors > 0)
        /* iperf 2 numbers a datagram before it writes it (src/Client.cpp
         * WritePacketID(packetID++)): one its stack refused is a gap the
         * server counts as lost, though it never reached the wire */
        say(f, "UDP lost %.3g%% of datagrams; the sender's stack refused %.0f writes, and a refused datagram's "
               "number reads as lost too", in->lost_pct, in->sender_tx_errors);
    else if (in->flaps > 0)
        /* what was sent while the link was down is lost (no carrier):
         * the loss is the flaps' first, not the path's */
        say(f, "UDP lost %.3g%% of datagrams, with the link down %.0f time(s) during the test: what was sent "
               "while it was down is among them", in->lost_pct, in->flaps);
    else
        say(f, "UDP lost %.3g%% of datagrams", in->lost_pct);
    return true;
}

/* A fixed bound, not the scenario's jitter_max: a requirement tighter
 * than a clean link meets fails its expectation (the verdict) without
 * naming a cause, and a loose one hides none. */
static bool r_udp_jitter(const struct dg_in *in, struct dg_finding *f)
{
    const double th = TH_JITTER_MS;

    if (!in->udp || isnan(in->jitter_ms) || in->jitter_ms <= th)
        return false;
    ev(f, "jitter_ms", in->jitter_ms);
    ev(f, "threshold_ms", th);
    say(f, "UDP jitter %.3f ms exceeds %.3f ms", in->jitter_ms, th);
    return true;
}

/* What arrived at the board's end of the cable out of order (TCP
 * segments and UDP datagrams the partner sent; capture.c tells a late
 * original from a resend by its IPv4 number, RFC 4737 3.3 calls it a
 * reordered packet) or twice (the same datagram, RFC 5560's duplicate):
 * at least TH_PATH_SHARE of what arrived and TH_PATH_MIN.  A tap at the
 * board sees its own frames in the order sent, so a path that reorders
 * or copies only what the board sends shows neither here. */
static bool path_share(const struct dg_in *in, double n, struct dg_finding *f)
{
    double arrived = nsum(in->cap_tcp_segments, in->cap_udp_datagrams);

    if (!(n >= TH_PATH_MIN) || !(arrived > 0) || n < TH_PATH_SHARE * arrived)
        return false;
    ev(f, "capture_tcp_segments", in->cap_tcp_segments);
    ev(f, "capture_udp_datagrams", in->cap_udp_datagrams);
    ev(f, "share_pct", 100.0 * n / arrived);
    return true;
}

static bool r_reordering(const struct dg_in *in, struct dg_finding *f)
{
    double n = nsum(in->cap_out_of_order, in->cap_udp_out_of_order);

    if (!path_share(in, n, f))
        return false;
    ev(f, "capture_tcp_out_of_order", in->cap_out_of_order);
    ev(f, "capture_udp_out_of_order", in->cap_udp_out_of_order);
    ev(f, "capture_spurious_retransmits", in->cap_spurious);
    if (in->cap_spurious > 0)
        say(f, "%.0f segments or datagrams arrived after later ones (capture, by their IPv4 numbers); %.0f TCP "
               "segments were resent though their first copy arrived", n, in->cap_spurious);
    else
        say(f, "%.0f segments or datagrams arrived after later ones (capture, by their IPv4 numbers)", n);
    return true;
}

static bool r_duplicates(const struct dg_in *in, struct dg_finding *f)
{
    double n = nsum(in->cap_duplicates, in->cap_udp_duplicates);

    if (!path_share(in, n, f))
        return false;
    ev(f, "capture_tcp_duplicates", in->cap_duplicates);
    ev(f, "capture_udp_duplicates", in->cap_udp_duplicates);
    if (in->udp && in->cap_udp_duplicates > 0)
        say(f, "%.0f datagrams arrived twice (capture: the same IPv4 number and length); the receiver's "
               "goodput counts the copies", n);
    else
        say(f, "%.0f segments or datagrams arrived twice (capture: the same IPv4 number and length)", n);
    return true;
}

/* A hop on the path into the board is slower than the board's link (with
 * -d / --bidir, judged on what the board received, iperf.rx_bps): the
 * partner's full-size frames arrive no closer together than a link of
 * capture.path_in_bps sends them (capture.c, packet dispersion), under
 * TH_PATH_NARROW of the negotiated rate, and the goodput into the board
 * is at least TH_PATH_EXPLAINS of what that rate carries: the hop binds
 * first (its queue may drop and cost resends: in real time slirp's TCP
 * through a 20 Mb/s hop carried 0.77 of it); further below, a window or
 * losses of another cause set the goodput, and the hop is no cause.  A sender that paces itself spaces
 * its frames as much, so a UDP client must have offered more than
 * TH_PATH_OFFER x the path.  Only data into the board: the tap is at the
 * board's end of the cable, where its own frames leave at its own pace. */
static bool r_path_bottleneck(const struct dg_in *in, struct dg_finding *f)
{
    /* both directions at once: what the board received is the half that
     * crossed the path into it */
    double line, carried, path = in->cap_path_bps, into = in->bidir == 1 ? in->rx_bps : in->bps;

    if ((in->reverse != 0 && in->bidir != 1) || in->link_up == 0 || isnan(into) || isnan(in->speed_mbps) ||
        !(in->speed_mbps > 0) || !(path > 0) || !(in->cap_path_pairs >= TH_PATH_PAIRS))
        return false;
    line = in->speed_mbps * 1e6;
    carried = ceiling(in) * path / line;
    if (path >= TH_PATH_NARROW * line || into < TH_PATH_EXPLAINS * carried ||
        (in->udp && !(in->offered_bps > TH_PATH_OFFER * path)))
        return false;
    ev(f, "path_in_bps", path);
    ev(f, "path_in_pairs", in->cap_path_pairs);
    ev(f, "speed_mbps", in->speed_mbps);
    ev(f, "throughput_bps", into);
    ev(f, "path_carries_bps", carried);
    if (in->udp)
        ev(f, "offered_bps", in->offered_bps);
    /* (the figure that path carries, then what arrived: the summary gave
     * the goodput as what the path carries, 27.25 for a 50 Mb/s hop) */
    say(f, "full-size frames reach the board at %.2f Mb/s back to back (capture, %.0f pairs) on a %.0f Mb/s link; "
           "that carries %.2f Mb/s of goodput, and %.2f Mb/s%s arrived", path / 1e6, in->cap_path_pairs,
        in->speed_mbps, carried / 1e6, into / 1e6, in->bidir == 1 ? " into the board" : "");
    return true;
}

/* One TCP stream (the tool's own stream count) on a board with >= 2 CPUs,
 * below line rate; where the agent reports per-CPU load for the test
 * (/proc/stat), one core must be busy and another idle. */
static bool r_single_stream(const struct dg_in *in, struct dg_finding *f)
{
    double hi = NAN, lo = NAN;

    /* -d runs two connections, one each way (iperf 2 "dual"): not one
     * stream (a blind tester's bidir run was told "one TCP stream") */
    if (in->udp || in->parallel != 1 || in->bidir == 1 || isnan(in->cpus) || in->cpus < 2 || in->iperf_ok == 0)
        return false;
    if (!isnan(in->bps) && !isnan(in->speed_mbps) && in->bps >= TH_NEAR_CEILING * total_ceiling(in))
        return false;
    for (int i = 0; i < in->ncpu_busy; i++) {
        hi = isnan(hi) ? in->cpu_busy[i] : fmax(hi, in->cpu_busy[i]);
        lo = isnan(lo) ? in->cpu_busy[i] : fmin(lo, in->cpu_busy[i]);
    }
    if (in->ncpu_busy >= 2 && (hi < TH_CORE_BUSY_PCT || hi - lo < TH_CORE_SPREAD_PCT))
        return false;
    ev(f, "streams", in->parallel);
    ev(f, "cpus", in->cpus);
    ev(f, "throughput_bps", in->bps);
    ev(f, "busiest_cpu_pct", hi);
    ev(f, "idlest_cpu_pct", lo);
    if (in->ncpu_busy >= 2)
        say(f, "one TCP stream on a %.0f-CPU board: one core %.0f%% busy, another %.0f%%", in->cpus, hi, lo);
    else
        say(f, "one TCP stream on a %.0f-CPU board%s", in->cpus, isnan(in->bps) ? "" : ": only one core carries it");
    return true;
}

/* The board's CPU bounds the goodput: the agent's per-CPU load over a
 * window that covers the test (cpu.window_s >= the test's duration) has a
 * core at least TH_CPU_SATURATED busy, and the goodput is more than
 * TH_CPU_BELOW under the link's ceiling (and under a UDP client's -b).
 * A saturated core has no time left for more packets: the stack's
 * per-packet work (softirq, TCP/IP, copies) on it is the limit, whichever
 * way the traffic goes.  Only saturation is read: below it the tick
 * sampling of /proc/stat can miss bursty work (docs/VIRTUAL_TIME.md).
 * No per-CPU figures (the bare-metal firmware): nothing is said. */
static bool r_cpu_limit(const struct dg_in *in, struct dg_finding *f)
{
    double ceil = total_ceiling(in), hi = -1;
    int top = -1;

    if (in->ncpu_busy < 1 || isnan(in->bps) || isnan(in->speed_mbps) || isnan(in->cpu_window_s) ||
        isnan(in->duration_s) || in->cpu_window_s < in->duration_s)
        return false;
    for (int i = 0; i < in->ncpu_busy; i++)
        if (in->cpu_busy[i] > hi) {
            hi = in->cpu_busy[i];
            top = i;
        }
    if (hi < TH_CPU_SATURATED || !below_line(in) ||
        (in->udp && !isnan(in->offered_bps) && in->bps >= in->offered_bps * (1 - TH_CPU_BELOW)))
        return false;
    ev(f, "throughput_bps", in->bps);
    ev(f, "ceiling_bps", ceil);
    ev(f, "speed_mbps", in->speed_mbps);
    ev(f, "busiest_cpu", top);
    ev(f, "busiest_cpu_pct", hi);
    if (!isnan(in->cpu_softirq[top]))  /* how much of it the network's softirq took */
        ev(f, "busiest_cpu_softirq_pct", in->cpu_softirq[top]);
    ev(f, "cpus", in->ncpu_busy);
    ev(f, "cpu_window_s", in->cpu_window_s);
    ev(f, "duration_s", in->duration_s);
    if (in->ncpu_busy == 1)
        say(f, "%.2f Mb/s, %.1f%% under the %.2f Mb/s ceiling%s, with the board's one core %.1f%% busy over %.2f s: "
            "the CPU is the limit", in->bps / 1e6, 100.0 * (1 - in->bps / ceil), ceil / 1e6,
            in->bidir == 1 ? " of both directions" : "", hi, in->cpu_window_s);
    else
        say(f, "%.2f Mb/s, %.1f%% under the %.2f Mb/s ceiling%s, with CPU%d %.1f%% busy over %.2f s: that core is "
            "the limit", in->bps / 1e6, 100.0 * (1 - in->bps / ceil), ceil / 1e6,
            in->bidir == 1 ? " of both directions" : "", top, hi, in->cpu_window_s);
    return true;
}

/* Errors a tool prints when the other end speaks another protocol:
 * iperf3's "received an unknown control message" and "bad magic"
 * (iperf_error.c), iperf 2's "no ACK"/"did not receive ack" for a UDP
 * peer that is not iperf 2.  Generic resets and timeouts are not: an
 * iperf3 server busy with the previous test gives those too. */
static bool version_error(const char *e)
{
    static const char *const sigs[] = {
        "unknown control message", "bad magic", "incompatible",
    };

    char low[sizeof(((struct dg_in *)0)->iperf_error)];
    size_t n = 0;

    /* the tools' wording varies in case ("Bad magic"): match it lowered */
    for (; e[n] && n + 1 < sizeof(low); n++)
        low[n] = (char)tolower((unsigned char)e[n]);
    low[n] = '\0';
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        if (strstr(low, sigs[i]))
            return true;
    return false;
}

/* The host tool's banner (iperf3 -J start.version, `iperf --version`)
 * names one major version and the board's console shows a server of the
 * other (bare-metal lwiperf is iperf 2; on Linux, what listens on the port
 * the test used); or the test failed with a protocol error.  The two
 * protocols do not interoperate (iperf3's control channel, iperf 2's
 * per-stream header), so a test that "passed" across them measured
 * nothing: an iperf 2 client streams into an iperf3 server until the
 * server drops the connection it cannot parse. */
static bool r_version(const struct dg_in *in, struct dg_finding *f)
{
    bool differ = in->tool[0] && in->board_tool[0] && strcasecmp(in->tool, in->board_tool) != 0;
    bool failed = in->iperf_ok == 0;
    bool err = failed && version_error(in->iperf_error);

    if (!differ && !err)
        return false;
    evs(f, "host_tool", in->tool[0] ? in->tool : "unknown");
    if (in->tool_version[0])
        evs(f, "host_tool_banner", in->tool_version);
    evs(f, "board_server", in->board_tool[0] ? in->board_tool : "unknown");
    if (in->iperf_error[0])
        evs(f, "iperf_error", in->iperf_error);
    if (failed)
        say(f, "host runs %s, the board serves %s, and the test failed%s%s", in->tool[0] ? in->tool : "?",
            in->board_tool[0] ? in->board_tool : "?", in->iperf_error[0] ? ": " : "", in->iperf_error);
    else
        say(f, "host runs %s, the board serves %s: the %.2f Mb/s it reported is not a measurement", in->tool,
            in->board_tool, isnan(in->bps) ? 0.0 : in->bps / 1e6);
    return true;
}

/* The bottleneck bandwidth of the data's path (RFC 6349 3.2: the BDP is
 * the RTT times it): the goodput a hop narrower than the link carries,
 * where the capture timed the partner's frames into the board
 * (r_path_bottleneck's measure), else the link's ceiling.  *@hop says
 * which.  A 50 Mb/s hop on a 1G link made a 16 KB window's BDP 469 KB,
 * twenty times the 24 KB the hop needs. */
static double bottleneck_bps(const struct dg_in *in, bool *hop)
{
    double line = in->speed_mbps * 1e6, path = in->cap_path_bps;

    *hop = in->reverse != 1 && line > 0 && path > 0 && in->cap_path_pairs >= TH_PATH_PAIRS &&
           path < TH_PATH_NARROW * line;
    return *hop ? ceiling(in) * path / line : ceiling(in);
}

static bool r_window_bdp(const struct dg_in *in, struct dg_finding *f)
{
    bool median, hop;
    double rtt = rtt_s(in, &median), bdp, win = tcp_window(in), bb;
    char note[96];

    if (in->udp || in->bidir == 1 || isnan(win) || isnan(rtt) || isnan(in->speed_mbps))
        return false;
    bb = bottleneck_bps(in, &hop);
    bdp = bb * rtt / 8.0;
    if (win >= bdp)
        return false;
    /* a method finding: the test asked for too little (-w), or took the
     * partner's receive buffer as it came.  The board's own advertised
     * window (lwIP TCP_WND, a firmware build option) binding with no -w,
     * or with one the BDP fits in, is the firmware's: PROTO_WINDOW_LIMITED
     * names that, and -w would not change it. */
    if (in->reverse != 1 && (isnan(in->window_bytes) || in->window_bytes >= bdp))
        return false;
    ev(f, "window_bytes", win);
    ev(f, "tool_window_bytes", in->window_bytes);
    ev(f, "board_rcv_wnd", in->board_rcv_wnd);
    ev(f, "partner_rcv_wnd", in->cap_partner_rwnd);
    ev(f, "bdp_bytes", bdp);
    ev(f, "bottleneck_bps", bb);
    ev(f, "rtt_ms", rtt * 1e3);
    ev(f, "rtt_is_ping_median", median);
    say(f, "the %.0f KiB TCP window%s is below the BDP %.0f KiB (%.1f Mb/s%s x %.2f ms)%s", win / 1024,
        win == in->window_bytes ? " (-w)"
        : in->reverse == 1 ? " (the partner's advertised window, capture)" : " (the board's advertised window)",
        bdp / 1024, bb / 1e6, hop ? " through the narrower hop" : "", rtt * 1e3,
        rtt_note(in, median, note, sizeof(note)));
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The tool reports it omitted nothing (iperf3 -J start.test_start.omit 0)
 * and its first interval is well below the median of the rest: slow start
 * and warm-up are averaged in. */
static bool r_no_omit(const struct dg_in *in, struct dg_finding *f)
{
    double rest[DG_MAX_INTERVALS], med;
    int n = in->nintervals - 1;

    if (strcmp(in->tool, "iperf3") != 0 || isnan(in->omit_s) || in->omit_s > 0 || in->nintervals < 3)
        return false;
    memcpy(rest, in->intervals + 1, (size_t)n * sizeof(double));
    qsort(rest, (size_t)n, sizeof(double), cmp_double);
    med = rest[n / 2];
    if (!(med > 0) || in->intervals[0] >= TH_OMIT_DEFICIT * med)
        return false;
    ev(f, "omit_s", in->omit_s);
    ev(f, "first_interval_bps", in->intervals[0]);
    ev(f, "median_interval_bps", med);
    say(f, "no -O: the first interval (%.1f Mb/s) is %.0f%% below the median %.1f Mb/s and is averaged in",
        in->intervals[0] / 1e6, 100.0 * (1 - in->intervals[0] / med), med / 1e6);
    return true;
}

static bool r_wrong_reference(const struct dg_in *in, struct dg_finding *f)
{
    double ceil, ref;

    if (isnan(in->speed_mbps) || in->speed_mbps <= 0)
        return false;
    ceil = total_ceiling(in);
    ref = !isnan(in->reference_bps) ? in->reference_bps : in->throughput_min_bps;
    if (isnan(ref) || ref <= ceil * 1.001)
        return false;
    /* On a link below what the board can do (PHY_SPEED_BELOW_EXPECTED's
     * finding) a reference above this link's ceiling may be right for the
     * board: it is a method error only up to this link's line rate (100
     * Mb/s judged at 100), or above the board's best ceiling. */
    if (!isnan(in->board_max_speed_mbps) && in->board_max_speed_mbps > in->speed_mbps) {
        double line = in->speed_mbps * 1e6 * (ceil / ceiling(in));

        if (ref > line * 1.001 && ref <= ceil * in->board_max_speed_mbps / in->speed_mbps * 1.001)
            return false;
    }
    ev(f, "reference_bps", ref);
    ev(f, "ceiling_bps", ceil);
    ev(f, "throughput_bps", in->bps);
    say(f, "judged against %.2f Mb/s, but %s goodput at %.0f Mb/s cannot exceed %.2f Mb/s", ref / 1e6,
        in->udp ? "UDP" : "TCP", in->speed_mbps, ceil / 1e6);
    return true;
}

static bool r_baseline(const struct dg_in *in, struct dg_finding *f)
{
    double tol = isnan(in->baseline_tol_pct) ? TH_BASELINE_TOL_PCT : in->baseline_tol_pct;

    if (isnan(in->baseline_bps) || isnan(in->bps) || in->baseline_bps <= 0 ||
        in->bps >= in->baseline_bps * (1 - tol / 100))
        return false;
    ev(f, "throughput_bps", in->bps);
    ev(f, "baseline_bps", in->baseline_bps);
    ev(f, "tolerance_pct", tol);
    if (in->baseline_name[0])
        evs(f, "baseline", in->baseline_name);
    say(f, "%.1f Mb/s is %.1f%% below the baseline %.1f Mb/s (tolerance %.1f%%)", in->bps / 1e6,
        100.0 * (1 - in->bps / in->baseline_bps), in->baseline_bps / 1e6, tol);
    return true;
}

/* ---- the table -------------------------------------------------------------- */

struct dg_rule {
    enum dg_code code;
    bool (*test)(const struct dg_in *in, struct dg_finding *f);
    const char *cause;
    const char *remedy;
    const char *source;
};

static const struct dg_rule rules[] = {
    { DG_PHY_NO_LINK, r_no_link,
      "no signal (cable unplugged, partner off, the PHY powered down, 2 pairs with downshift off), or "
      "autonegotiation found no mode both sides advertise",
      "check the cable and the partner port; `ethtool eth0` must say \"Link detected: yes\", with a mode in both "
      "\"Advertised link modes\" and \"Link partner advertised link modes\"",
      "docs/SOURCES.md 001 §5.1" },
    { DG_PHY_SPEED_BELOW_EXPECTED, r_speed_below,
      "one side does not offer 1000: the partner or its port (switch port forced to 100M), or the board's own "
      "advertisement; or a 4-wire cable, and the PHY downshifted",
      "`ethtool eth0`: Speed must read 1000Mb/s, and 1000baseT/Full must be in both Advertised and Link partner "
      "advertised link modes; use a Cat5e-or-better 8-wire cable and a gigabit port, then check the PHY config and "
      "the DT phy-mode",
      "docs/SOURCES.md 001 §4.4, §5.1" },
    { DG_PHY_DOWNSHIFT, r_downshift,
      "1000BASE-T needs all four pairs; with two the PHY gives up 1000 and downshifts",
      "replace the cable with a 4-pair Cat5e or better; do not use 4-wire patch cords",
      "docs/SOURCES.md 001 §4.4" },
    { DG_PHY_LINK_FLAPS, r_flaps,
      "the link dropped during the run: connector, cable, or partner port trouble",
      "run `ethtool eth0` three times 1 s apart and watch Speed; reseat or replace the cable, try another port",
      "docs/SOURCES.md 001 §5.1" },
    { DG_PHY_FCS_ERRORS, r_fcs,
      "frames arrive corrupted: cable quality, PHY termination, duplex or RGMII timing",
      "watch `ifconfig eth0` RX errors; if they keep growing, check the cable and PHY termination; try `ethtool -s eth0 speed 1000 duplex full autoneg off` to localize",
      "docs/SOURCES.md 001 §5.1" },
    { DG_PHY_DUPLEX_MISMATCH, r_duplex,
      "one side is forced (autoneg off) and the other falls back to half duplex by parallel detection",
      "configure both ends the same: autoneg on both, or force the same speed and duplex on both",
      "docs/SOURCES.md 001 §4.4, §5.1" },
    { DG_PHY_RGMII_DELAY, r_rgmii,
      "the RGMII clock delay is wrong: the phy-mode (\"rgmii\", \"rgmii-rxid\" or \"rgmii-txid\") leaves out a delay the board's traces do not add (errors only at 1000, where RGMII runs at 125 MHz DDR)",
      "read the PHY datasheet for the MAC-PHY interface mode and set phy-mode = \"rgmii-id\" (or the matching -rxid/-txid) in the device tree",
      "docs/SOURCES.md 001 §5.6" },
    { DG_MAC_SPEED_MISMATCH, r_mac_speed,
      "the driver did not program the GEM's NWCFG speed bits (and the clock) after the PHY resolved",
      "update NWCFG speed/gigabit bits and the GEM reference clock on every link change, from the PHY's resolved speed",
      "docs/SOURCES.md 001 §5.1" },
    { DG_MAC_RX_RESOURCE_ERRORS, r_rx_resource,
      "the RX descriptor ring or pbuf pool ran dry: at this packet rate, or while the driver did not hand buffers back",
      "if drops are steady, raise the RX BD count (e.g. 32 -> 128, 256 -> 1024), PBUF_POOL_SIZE, enable descriptor "
      "prefetch and interrupt coalescing; if they came in one burst, find what kept the driver from refilling the "
      "ring then",
      "docs/SOURCES.md 003 §2.1, §4.2; 000 §3.1" },
    { DG_MAC_RX_STALL, r_rx_stall,
      "the data path stopped with the link up: RX descriptors not handed back, an interrupt lost, or a wedged queue",
      "check the RX ring refill and the 'RX used'/BNA handling in the ISR (re-kick RX after a buffer-not-available); compare GEM frames_rx with the driver's count",
      "docs/SOURCES.md 003 §4.2 (case 2: descriptors exhausted, prefetch)" },
    { DG_MAC_NO_RX_FRAMES, r_no_rx_frames,
      "nothing reaches the board: the partner does not answer (ARP requests unanswered: a wrong IP address or "
      "subnet, a firewall, a switch port or VLAN that forwards nothing), or its frames are lost before the "
      "board's PHY; a frame that arrived damaged would have been counted as an error",
      "ping the partner while watching `ethtool -S eth0` (rx_frames, tx_frames) and `tcpdump -e` on the partner: "
      "if the partner sees the board's ARP requests and answers, find where its replies are lost (switch, cable, "
      "the partner's port); if it sees nothing, check its address, its RX counters and the switch",
      "docs/SOURCES.md 001 §5.1" },
    { DG_MAC_IRQ_SINGLE_CPU, r_irq_one_cpu,
      "all GEM interrupts and their softirq work land on one core, which is saturated while another has room",
      "check /proc/interrupts; the Zynq's GICv2 delivers an SPI to one core whatever the mask (kernel "
      "drivers/irqchip/irq-gic.c gic_set_affinity takes the first CPU of it), so a mask of 3 changes nothing: give "
      "the GEM IRQ the core the iperf threads do not saturate (`echo 2 > /proc/irq/N/smp_affinity`), or spread "
      "the protocol work with RPS (/sys/class/net/eth0/queues/rx-0/rps_cpus, kernel Documentation/networking/"
      "scaling.rst)",
      "docs/SOURCES.md 001 §5.2" },
    { DG_MAC_TX_RX_ASYMMETRY, r_asymmetry,
      "one direction is starved: too few TX descriptors or poor interrupt coalescing on that path",
      "always test both directions and -d/--bidir; raise TX BDs and tune interrupt coalescing",
      "docs/SOURCES.md 001 §3.2, §4.3" },
    { DG_MAC_TX_RING_FULL, r_tx_ring_full,
      "the board's TX descriptor ring filled and its sender refills it only when polled: the ring holds less "
      "than one poll period of frames at line rate, so the wire idles until the next poll",
      "more TX descriptors (bare-metal: build with GEM_TXBD=256; Linux: ethtool -G eth0 tx N), and refill the "
      "ring from the TX-complete interrupt rather than a periodic poll",
      "docs/SOURCES.md 000 §3.1; 001 §3.2, §5.3" },
    { DG_MAC_TX_CPU_LIMIT, r_tx_cpu_limit,
      "the board's sender cannot produce what it offers: the MAC took every frame and the wire had room, so the "
      "CPU's per-datagram cost (stack, driver, the loop that runs the client) bounds the rate",
      "larger datagrams (-l 1470) for a link test; for the small-packet rate: fewer instructions per packet "
      "(zero-copy pbufs, checksum offload, sending more per main-loop pass), a faster CPU clock; judge it in "
      "datagrams/s",
      "docs/SOURCES.md 003 §2.3, §4.1" },
    { DG_MAC_PPS_LIMIT, r_pps,
      "small packets are bound by per-packet cost (interrupts, descriptors, stack), not by the wire",
      "more BDs, interrupt coalescing, zero-copy pbufs; judge small-packet results in packets/s",
      "docs/SOURCES.md 003 §2.3, §4.1" },
    { DG_PROTO_WINDOW_LIMITED, r_window_limited,
      "TCP is bound by window / RTT, not by the link (UDP would be clean)",
      "raise the window that binds to at least the BDP: the tool's -w (e.g. -w 256K), or the receiver's buffer "
      "(bare-metal lwIP: TCP_WND in lwipopts.h, at most 64 KB without TCP_WND_SCALE; Linux: net.ipv4.tcp_rmem); "
      "a sending board's buffer binds as well (lwIP TCP_SND_BUF, 44 x MSS here; Linux: net.ipv4.tcp_wmem); "
      "check the RTT, then compare with a UDP run",
      "docs/SOURCES.md 001 §2.4, §5.3" },
    { DG_PROTO_RETRANSMITS, r_retransmits,
      "segments are lost on the path (cable, duplex, RX drops, impairment)",
      "check the cable and negotiated speed; correlate with FCS and RX resource counters",
      "docs/SOURCES.md 000 §4.1" },
    { DG_PROTO_UDP_LOSS, r_udp_loss,
      "datagrams are lost between the sender and the receiving socket",
      "compare with `ethtool -S eth0` rx_missed_errors/rx_over_errors: MAC counters say FIFO/descriptor drops, clean counters say the wire or the stack",
      "docs/SOURCES.md 000 §4.2; 001 §5.3" },
    { DG_PROTO_UDP_JITTER, r_udp_jitter,
      "delivery time varies: queueing, interrupt latency, or path jitter",
      "run iperf3 -u -b 200M -t 300 and track the jitter spread; reduce interrupt latency and background load",
      "docs/SOURCES.md 000 §4.2" },
    { DG_PROTO_REORDERING, r_reordering,
      "the path delivers frames out of order (parallel links or a LAG, a queue or shaper that reorders, jitter "
      "wider than the frame spacing); TCP reads three duplicate ACKs as a loss and resends data that arrived",
      "find the element that reorders (capture at both ends); Linux receivers tolerate more with "
      "net.ipv4.tcp_reordering, lwIP has no such knob; UDP applications must order by their own sequence",
      "RFC 4737 (reordering metrics); RFC 5681 3.2 (fast retransmit)" },
    { DG_PROTO_DUPLICATES, r_duplicates,
      "the path copies frames (a bridging loop, a misconfigured mirror port, a link layer that resends); each TCP "
      "copy draws a duplicate ACK, and UDP receivers count the copies as data",
      "find the element that duplicates (capture at both ends, check STP and port mirroring); do not judge UDP "
      "goodput above the offered rate as headroom",
      "RFC 5560 (one-way duplication); RFC 5681 3.2" },
    { DG_PROTO_PATH_BOTTLENECK, r_path_bottleneck,
      "a hop between the sender and the board is slower than the board's link (a switch port or the PC's NIC at a "
      "lower speed, a USB adapter, a shaper or policer), or the sender cannot send faster: the board takes what "
      "arrives",
      "check the speed of every hop (ethtool on the PC, the switch's port status) and measure PC to PC first; "
      "the board's own link and stack are not the limit here",
      "docs/SOURCES.md 001 §1.2, §4.4; Dovrolis et al., IEEE INFOCOM 2001 (packet dispersion)" },
    { DG_PROTO_CPU_LIMIT, r_cpu_limit,
      "a core of the board's CPU was saturated for the whole test: the stack's per-packet work on it (interrupt, "
      "softirq, TCP/IP, copies to and from the socket) bounds the goodput, not the link",
      "spread the work over the A9s (with both online: -P 4, and the GEM IRQ on another core than the iperf thread: "
      "smp_affinity; with one online, bring up the second: no maxcpus=1 on the kernel command line), "
      "the CPU at its top clock (cpufreq governor performance), fewer packets per byte (-l, GRO, checksum "
      "offload); judge a single stream against 350-450 Mb/s on a 667 MHz A9",
      "docs/SOURCES.md 001 §1.1, §2.1, §4.5" },
    { DG_METHOD_SINGLE_STREAM, r_single_stream,
      "a single TCP connection is processed on one Cortex-A9; the other core idles",
      "measure with -P 4 (4 streams reach 850-930 Mb/s on Zynq); 8 adds nothing",
      "docs/SOURCES.md 001 §1.1, §2.2" },
    { DG_METHOD_IPERF_VERSION_MISMATCH, r_version,
      "iperf 2 and iperf 3 speak different protocols; the handshake fails or falls back",
      "use the same major version on both ends (iperf 2 on Zynq is the seed's choice)",
      "docs/SOURCES.md 001 §1.3, §4.1" },
    { DG_METHOD_WINDOW_BELOW_BDP, r_window_bdp,
      "the requested TCP window is smaller than bandwidth x RTT",
      "set -w to at least the BDP; -w 256K is the seed's fixed condition",
      "docs/SOURCES.md 001 §2.4" },
    { DG_METHOD_NO_OMIT, r_no_omit,
      "the warm-up (slow start, CPU frequency ramp) is averaged into the result",
      "add -O 3 to skip the first seconds",
      "docs/SOURCES.md 000 §4.1" },
    { DG_METHOD_WRONG_REFERENCE, r_wrong_reference,
      "1000/100 Mb/s is the line rate; preamble, IFG and headers leave less of TCP goodput: 949.3/94.93 Mb/s "
      "with 1460-byte segments, 941.5/94.15 with TCP timestamps (Linux's default)",
      "judge TCP against the ceiling the finding names for this stack and speed; above ~900 Mb/s at 1G the link "
      "and driver are fine",
      "docs/SOURCES.md 001 §2.3; 004" },
    { DG_BASELINE_REGRESSION, r_baseline,
      "this run is below the stored baseline for the same board and conditions",
      "`gemlab baseline compare RUN_DIR` lists what differs from the stored runs (firmware options, versions, "
      "conditions); measure the same way each time (the seed's table: 4 streams, -w 256K, direct link) and bisect "
      "the change that caused it",
      "docs/SOURCES.md 001 §5.5" },
};

void dg_run(const struct dg_in *in, struct dg_report *rep)
{
    memset(rep, 0, sizeof(*rep));
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
        struct dg_finding *f = &rep->f[rep->n];
        memset(f, 0, sizeof(*f));
        if (rules[i].test(in, f)) {
            f->code = rules[i].code;
            f->cause = rules[i].cause;
            f->remedy = rules[i].remedy;
            f->source = rules[i].source;
            rep->n++;
        } else {
            cJSON_Delete(f->evidence);
            f->evidence = NULL;
        }
    }
}

void dg_report_free(struct dg_report *rep)
{
    for (int i = 0; i < rep->n; i++)
        cJSON_Delete(rep->f[i].evidence);
    rep->n = 0;
}

bool dg_report_has(const struct dg_report *rep, enum dg_code c)
{
    for (int i = 0; i < rep->n; i++)
        if (rep->f[i].code == c)
            return true;
    return false;
}

void dg_print(FILE *out, const struct dg_report *rep)
{
    int last = -1;

    if (!rep->n) {
        fprintf(out, "diagnosis: no findings\n");
        return;
    }
    fprintf(out, "diagnosis: %d finding(s)\n", rep->n);
    for (int i = 0; i < rep->n; i++) {
        const struct dg_finding *f = &rep->f[i];
        int layer = (int)dg_code_layer(f->code);
        if (layer != last)
            fprintf(out, "  [%s]\n", dg_layer_name((enum dg_layer)layer));
        last = layer;
        fprintf(out, "    %s: %s\n", dg_code_name(f->code), f->summary);
        fprintf(out, "      cause:  %s\n", f->cause);
        fprintf(out, "      remedy: %s (%s)\n", f->remedy, f->source);
    }
}

cJSON *dg_to_json(const struct dg_report *rep)
{
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_CreateArray();

    cJSON_AddStringToObject(root, "schema", "gemlab-diagnosis-1");
    for (int i = 0; i < rep->n; i++) {
        const struct dg_finding *f = &rep->f[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "code", dg_code_name(f->code));
        cJSON_AddStringToObject(o, "layer", dg_layer_name(dg_code_layer(f->code)));
        cJSON_AddStringToObject(o, "summary", f->summary);
        cJSON_AddItemToObject(o, "evidence", f->evidence ? cJSON_Duplicate(f->evidence, 1) : cJSON_CreateObject());
        cJSON_AddStringToObject(o, "cause", f->cause);
        cJSON_AddStringToObject(o, "remedy", f->remedy);
        cJSON_AddStringToObject(o, "source", f->source);
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddItemToObject(root, "findings", arr);
    return root;
}

/* ---- expectations -------------------------------------------------------- */

static int __attribute__((format(printf, 3, 4))) fail(FILE *out, int *nfail, const char *fmt, ...)
{
    va_list ap;

    (*nfail)++;
    if (!out)
        return 0;
    fputs("  FAIL ", out);
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    return 0;
}

int dg_check_expect(const cJSON *root, const struct dg_report *rep, FILE *out, int *checks)
{
    const cJSON *e = jget(root, RS(EXPECT));
    int nfail = 0, n = 0;
    double x, got;
    char s[16];

    if (checks)
        *checks = 0;
    if (!cJSON_IsObject(e))
        return 0;
    jstr(e, "link", s, sizeof(s));
    if (s[0]) {
        int up = jbool(root, RS(LINK_UP));
        n++;
        if (up != (strcmp(s, "up") == 0))
            fail(out, &nfail, "link: expected %s, got %s", s, up == 1 ? "up" : up == 0 ? "down" : "unknown");
    }
    x = jnum(e, "speed_mbps");
    if (!isnan(x)) {
        n++;
        got = jnum(root, RS(LINK_SPEED_MBPS));
        if (isnan(got))
            fail(out, &nfail, "speed: expected %.0f Mb/s, got none (no link)", x);
        else if (got != x)
            fail(out, &nfail, "speed: expected %.0f Mb/s, got %.0f", x, got);
    }
    jstr(e, "duplex", s, sizeof(s));
    if (s[0]) {
        int fd = jbool(root, RS(LINK_FULL_DUPLEX));
        n++;
        if (fd != (strcmp(s, "full") == 0))
            fail(out, &nfail, "duplex: expected %s, got %s", s, fd == 1 ? "full" : fd == 0 ? "half" : "unknown");
    }
    got = jnum(root, RS(IPERF_THROUGHPUT_BPS));
    x = jnum(e, "throughput_min_bps");
    if (!isnan(x)) {
        n++;
        if (isnan(got))
            fail(out, &nfail, "throughput: no figure (no traffic result), the minimum is %.2f Mb/s", x / 1e6);
        else if (got < x)
            fail(out, &nfail, "throughput: %.2f Mb/s below the minimum %.2f", got / 1e6, x / 1e6);
    }
    x = jnum(e, "throughput_max_bps");
    if (!isnan(x)) {
        n++;
        if (isnan(got))
            fail(out, &nfail, "throughput: no figure (no traffic result), the maximum is %.2f Mb/s", x / 1e6);
        else if (got > x)
            fail(out, &nfail, "throughput: %.2f Mb/s above the maximum %.2f", got / 1e6, x / 1e6);
    }
    got = jnum(root, RS(IPERF_UDP_LOST_PCT));
    x = jnum(e, "loss_min_pct");
    if (!isnan(x)) {
        n++;
        if (isnan(got))
            fail(out, &nfail, "loss: no UDP loss figure (no UDP result), the minimum is %.3g%%", x);
        else if (got < x)
            fail(out, &nfail, "loss: %.3g%% below the minimum %.3g%%", got, x);
    }
    x = jnum(e, "loss_max_pct");
    if (!isnan(x)) {
        n++;
        if (isnan(got))
            fail(out, &nfail, "loss: no UDP loss figure (no UDP result), the maximum is %.3g%%", x);
        else if (got > x)
            fail(out, &nfail, "loss: %.3g%% above the maximum %.3g%%", got, x);
    }
    x = jnum(e, "retransmits_max");
    if (!isnan(x)) {
        got = jnum(root, RS(IPERF_RETRANSMITS));
        n++;
        if (isnan(got))
            fail(out, &nfail, "retransmits: no count (the sender reported none), the maximum is %.0f", x);
        else if (got > x)
            fail(out, &nfail, "retransmits: %.0f above the maximum %.0f", got, x);
    }
    x = jnum(root, RS(BOARD_RESTARTS));
    if (x > 0) {
        /* what was measured after a restart is not the run the scenario
         * set up (its commands, server and link settings are gone) */
        n++;
        fail(out, &nfail, "board: restarted %.0f time(s) during the run (its console printed its ready line "
                          "again): what came after is not the run asked for", x);
    }
    x = jnum(e, "flaps");
    if (!isnan(x)) {
        /* the link's down transitions after the first link-up, as the
         * board reported them (link.flaps): exactly what was injected */
        got = jnum(root, RS(LINK_FLAPS));
        n++;
        if (isnan(got))
            fail(out, &nfail, "flaps: not reported by the board, %.0f expected", x);
        else if (got != x)
            fail(out, &nfail, "flaps: %.0f counted, %.0f expected", got, x);
    }
    x = jnum(e, "jitter_max_ms");
    if (!isnan(x)) {
        got = jnum(root, RS(IPERF_UDP_JITTER_MS));
        n++;
        if (isnan(got))
            fail(out, &nfail, "jitter: no figure (no UDP result), the maximum is %.3f ms", x);
        else if (got > x)
            fail(out, &nfail, "jitter: %.3f ms above the maximum %.3f ms", got, x);
    }
    {
        /* traffic must run unless the scenario expects it to fail
         * (`traffic = fail`) or is about iperf not talking */
        const cJSON *ok = jget(root, RS(IPERF_OK)), *d = jget(e, "diag"), *c;
        bool expected = false;
        char want[8];
        jstr(e, "traffic", want, sizeof(want));
        cJSON_ArrayForEach(c, d)
            if (cJSON_IsString(c) && strcmp(c->valuestring, "METHOD_IPERF_VERSION_MISMATCH") == 0)
                expected = true;
        const cJSON *verdict = jget(root, RS(VERDICT_RESULT));
        if (cJSON_IsString(jget(root, RS(SCHEMA))) && !ok && !jget(root, RS(IPERF_SKIPPED)) &&
            !(cJSON_IsString(verdict) && !strcmp(verdict->valuestring, "ERROR"))) {
            /* a run that ended (no ERROR verdict: that one says why it
             * stopped) wrote "iperf": a result or a failure (iperf.ok) or
             * why it was skipped.  None means its evidence was lost */
            n++;
            fail(out, &nfail, "traffic: results.json holds no traffic result (\"iperf\")");
        } else if (strcmp(want, "fail") == 0) {
            n++;
            if (!cJSON_IsFalse(ok))
                fail(out, &nfail, "traffic: expected to fail (nothing arrives), got %s at %.2f Mb/s",
                     cJSON_IsTrue(ok) ? "a result" : "no verdict", jnum(root, RS(IPERF_THROUGHPUT_BPS)) / 1e6);
        } else if (cJSON_IsBool(ok) && !expected) {
            char err[160];
            jstr(root, RS(IPERF_ERROR), err, sizeof(err));
            n++;
            if (cJSON_IsFalse(ok))
                fail(out, &nfail, "traffic: iperf failed: %s", err[0] ? err : "no result");
        }
    }
    {
        /* traffic skipped for want of a link (run.c): expected only when
         * the scenario expects link = down.  A virtual-time run with
         * --net idle has no traffic peer (iperf.virtual_idle): not a
         * failure. */
        const cJSON *sk = jget(root, RS(IPERF_SKIPPED)), *el = jget(e, "link");
        if (cJSON_IsString(sk) && !cJSON_IsTrue(jget(root, RS(IPERF_VIRTUAL_IDLE)))) {
            n++;
            if (!cJSON_IsString(el) || strcmp(el->valuestring, "down") != 0)
                fail(out, &nfail, "traffic: skipped (%s)", sk->valuestring);
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        const cJSON *a = jget(e, pass ? "diag_absent" : "diag"), *c;
        if (!cJSON_IsArray(a))
            continue;
        cJSON_ArrayForEach(c, a) {
            int code = cJSON_IsString(c) ? dg_code_lookup(c->valuestring) : -1;
            n++;
            if (code < 0)
                fail(out, &nfail, "expect.%s: unknown code", pass ? "diag_absent" : "diag");
            else if (!pass && !dg_report_has(rep, (enum dg_code)code))
                fail(out, &nfail, "diagnosis %s expected but not produced", c->valuestring);
            else if (pass && dg_report_has(rep, (enum dg_code)code))
                fail(out, &nfail, "diagnosis %s produced but must be absent", c->valuestring);
        }
    }
    if (checks)
        *checks = n;
    return nfail;
}

/* ---- files ------------------------------------------------------------------ */

/* How deep the arrays and objects are open at byte @n of @text (strings
 * skipped): cJSON refuses more than CJSON_NESTING_LIMIT. */
static int json_depth(const char *text, size_t n)
{
    int depth = 0, max = 0;
    bool in_str = false;

    for (size_t i = 0; i < n; i++) {
        char c = text[i];

        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (c == '[' || c == '{') {
            max = ++depth > max ? depth : max;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return max;
}

int dg_load_json(const char *path, cJSON **root, FILE *err)
{
    struct stat st;
    char *buf;
    size_t got;

    *root = NULL;
    /* stat first: a FIFO or a directory is refused before it is opened */
    if (stat(path, &st)) {
        int rc = -errno;
        fprintf(err, "%s: cannot open: %s\n", path, strerror(errno));
        return rc;
    }
    if (!S_ISREG(st.st_mode) || !(buf = runner_read_file(path, 64u << 20, &got))) {
        int rc = S_ISREG(st.st_mode) && errno != EFBIG ? -errno : -EINVAL;
        if (rc == -EINVAL)
            fprintf(err, "%s: not a regular file of at most 64 MiB\n", path);
        else
            fprintf(err, "%s: cannot open: %s\n", path, strerror(-rc));
        return rc;
    }
    /* JSON text has no NUL (RFC 8259 section 7: U+0000 only as \u0000);
     * cJSON would end a string at one and read a shorter name */
    {
        const char *nul = memchr(buf, '\0', got);

        if (nul) {
            fprintf(err, "%s: a NUL byte at byte %ld: not JSON text\n", path, (long)(nul - buf));
            free(buf);
            return -EINVAL;
        }
    }
    *root = cJSON_ParseWithLength(buf, got);
    if (!*root) {
        const char *at = cJSON_GetErrorPtr();
        long off = at && at >= buf && at <= buf + got ? (long)(at - buf) : -1L;

        if (off >= 0 && json_depth(buf, (size_t)off) >= CJSON_NESTING_LIMIT)
            fprintf(err, "%s: arrays and objects nested more than %d deep near byte %ld\n", path,
                    CJSON_NESTING_LIMIT, off);
        else
            fprintf(err, "%s: invalid JSON near byte %ld\n", path, off);
        free(buf);
        return -EINVAL;
    }
    free(buf);
    if (!cJSON_IsObject(*root)) {
        fprintf(err, "%s: top level is not an object\n", path);
        cJSON_Delete(*root);
        *root = NULL;
        return -EINVAL;
    }
    return 0;
}

/* Every field results_schema.h describes has its type there: a value of
 * another type (a count written as a string, a flag as a number) would
 * read as unknown and silently disable the rules that need it, so it is
 * refused, naming the field.  null is "unknown" in every type; a GEM
 * counter is a count, never negative; a number is finite. */
static int check_field_types(const char *path, const cJSON *root, FILE *err)
{
    for (int i = 0; i < RS_COUNT; i++) {
        const struct rs_field *fd = &rs_fields[i];
        const cJSON *v = jget(root, fd->path);
        const char *want = NULL;

        if (!v || cJSON_IsNull(v))
            continue;
        switch (fd->type) {
        case RS_NUM:
            if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
                want = "a finite number";
            else if (!strncmp(fd->path, "gem.", 4) && v->valuedouble < 0)
                want = "a count (a number >= 0)";
            break;
        case RS_STR:
            want = cJSON_IsString(v) ? NULL : "a string";
            break;
        case RS_BOOL:
            want = cJSON_IsBool(v) ? NULL : "true or false";
            break;
        case RS_ARR:
            want = cJSON_IsArray(v) ? NULL : "an array";
            break;
        case RS_TREE:
            want = cJSON_IsObject(v) || cJSON_IsArray(v) ? NULL : "an object or an array";
            break;
        }
        if (want) {
            fprintf(err, "%s: \"%s\" is not %s (emu/runner/RESULTS.md, docs/schema.md)\n", path, fd->path, want);
            return -EINVAL;
        }
    }
    return 0;
}

int dg_load_results(const char *path, cJSON **root, FILE *err)
{
    const cJSON *s;
    int rc = dg_load_json(path, root, err);

    if (rc)
        return rc;
    s = cJSON_GetObjectItemCaseSensitive(*root, "schema");
    if (cJSON_IsString(s) && !strcmp(s->valuestring, RESULTS_SCHEMA_V1))
        return 0;
    if (cJSON_IsString(s) && !strcmp(s->valuestring, RESULTS_SCHEMA)) {
        if (!check_field_types(path, *root, err))
            return 0;
        cJSON_Delete(*root);
        *root = NULL;
        return -EINVAL;
    }
    if (cJSON_IsString(s))
        fprintf(err, "%s: schema '%.60s' is not " RESULTS_SCHEMA_V1 " or " RESULTS_SCHEMA
                     ": not a gemlab run's results\n",
                path, s->valuestring);
    else if (s)
        fprintf(err, "%s: \"schema\" is not a string: not a gemlab run's results (" RESULTS_SCHEMA ")\n", path);
    else
        fprintf(err, "%s: no \"schema\": not a gemlab run's results (" RESULTS_SCHEMA ")\n", path);
    cJSON_Delete(*root);
    *root = NULL;
    return -EINVAL;
}

int dg_diagnose_dir(const char *run_dir, FILE *out, FILE *err, int *failed)
{
    return dg_diagnose_dir_baseline(run_dir, NULL, out, err, failed);
}

void dg_make_blind(cJSON *root)
{
    cJSON_DeleteItemFromObjectCaseSensitive(root, "scenario");
    cJSON_DeleteItemFromObjectCaseSensitive(root, "truth");
}

int dg_diagnose_dir_baseline(const char *run_dir, const cJSON *baseline, FILE *out, FILE *err, int *failed)
{
    return dg_diagnose_dir_opts(run_dir, baseline, false, out, err, failed);
}

int dg_diagnose_dir_opts(const char *run_dir, const cJSON *baseline, bool blind, FILE *out, FILE *err,
                         int *failed)
{
    char path[4096];
    cJSON *root, *dj;
    struct dg_in in;
    struct dg_report rep;
    char *text;
    int rc, checks = 0;

    *failed = 0;
    snprintf(path, sizeof(path), "%s/results.json", run_dir);
    rc = dg_load_results(path, &root, err);
    if (rc)
        return rc;
    if (baseline) { /* `gemlab diagnose --baseline`: the stored baseline's median and tolerance */
        cJSON_DeleteItemFromObjectCaseSensitive(root, "baseline");
        cJSON_AddItemToObject(root, "baseline", cJSON_Duplicate(baseline, 1));
    }
    if (blind) {
        dg_make_blind(root);
        fprintf(out, "blind: \"scenario\" and \"truth\" removed before diagnosing\n");
    }
    dg_in_from_json(root, &in);
    dg_run(&in, &rep);
    dg_print(out, &rep);
    *failed = dg_check_expect(root, &rep, out, &checks);
    {
        /* a run that could not judge (verdict ERROR: interrupted, a
         * watchdog, an input refused after boot) has no results for some
         * expectations, which are then skipped: it fails as one more */
        const cJSON *v = jget(root, RS(VERDICT_RESULT));
        if (cJSON_IsString(v) && !strcmp(v->valuestring, "ERROR")) {
            const cJSON *why = jget(root, RS(VERDICT_REASON));
            fprintf(out, "  FAIL the run's verdict is ERROR%s%s: its expectations cannot all be checked\n",
                    cJSON_IsString(why) && why->valuestring[0] ? ": " : "",
                    cJSON_IsString(why) ? why->valuestring : "");
            checks++;
            (*failed)++;
        }
    }
    if (checks)
        fprintf(out, "expectations: %d checked, %d failed\n", checks, *failed);
    dj = dg_to_json(&rep);
    cJSON_AddNumberToObject(dj, "expectations_checked", checks);
    cJSON_AddNumberToObject(dj, "expectations_failed", *failed);
    if (blind)
        cJSON_AddBoolToObject(dj, "blind", true);
    text = cJSON_Print(dj);
    snprintf(path, sizeof(path), "%s/%s", run_dir, blind ? "diagnosis-blind.json" : "diagnosis.json");
    rc = runner_write_text(path, text);     /* atomic, checked (docs/SECURITY.md D1) */
    free(text);
    cJSON_Delete(dj);
    dg_report_free(&rep);
    cJSON_Delete(root);
    return rc;
}
