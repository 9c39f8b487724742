/* gem_stats.c - see gem_stats.h. */
#include "gem_stats.h"
#include "gem_regs.h"

/* Statistics registers, UG585 B.18 names. */
const struct gem_counter gem_counters[] = {
    { "frames_tx", 0x108 },        { "broadcast_frames_tx", 0x10C },
    { "multi_frames_tx", 0x110 },  { "pause_frames_tx", 0x114 },
    { "frames_64b_tx", 0x118 },    { "frames_65to127b_tx", 0x11C },
    { "frames_128to255b_tx", 0x120 }, { "frames_256to511b_tx", 0x124 },
    { "frames_512to1023b_tx", 0x128 }, { "frames_1024to1518b_tx", 0x12C },
    { "frames_1519b_plus_tx", 0x130 }, { "tx_under_runs", 0x134 },
    { "single_collisn_frames", 0x138 }, { "multi_collisn_frames", 0x13C },
    { "excessive_collisns", 0x140 }, { "late_collisns", 0x144 },
    { "deferred_tx_frames", 0x148 }, { "carrier_sense_errs", 0x14C },
    { "frames_rx", 0x158 },        { "bdcast_fr_rx", 0x15C },
    { "multi_fr_rx", 0x160 },      { "pause_rx", 0x164 },
    { "frames_64b_rx", 0x168 },    { "frames_65to127b_rx", 0x16C },
    { "frames_128to255b_rx", 0x170 }, { "frames_256to511b_rx", 0x174 },
    { "frames_512to1023b_rx", 0x178 }, { "frames_1024to1518b_rx", 0x17C },
    { "frames_1519b_plus_rx", 0x180 }, { "undersz_rx", 0x184 },
    { "oversz_rx", 0x188 },        { "jab_rx", 0x18C },
    { "fcs_errors", 0x190 },       { "length_field_errors", 0x194 },
    { "rx_symbol_errors", 0x198 }, { "align_errors", 0x19C },
    { "rx_resource_errors", 0x1A0 }, { "rx_overrun_errors", 0x1A4 },
    { "rx_ip_hdr_csum_errors", 0x1A8 }, { "rx_tcp_csum_errors", 0x1AC },
    { "rx_udp_csum_errors", 0x1B0 },
};
const unsigned gem_counter_count = sizeof(gem_counters) / sizeof(gem_counters[0]);
_Static_assert(sizeof(gem_counters) / sizeof(gem_counters[0]) <= GEM_COUNTERS_MAX,
               "GEM_COUNTERS_MAX below the table");

void gem_stats_init(struct gem_stats *s, uint32_t (*rd)(uint32_t offset))
{
    *s = (struct gem_stats)GEM_STATS_INIT(rd);
}

uint64_t gem_stats_counter(struct gem_stats *s, unsigned i)
{
    if (i >= gem_counter_count)
        return 0;
    uint32_t v = s->rd(gem_counters[i].offset);
    if (s->mode == GEM_STATS_UNKNOWN && v != 0) {
        uint32_t v2 = s->rd(gem_counters[i].offset);
        s->mode = v2 >= v ? GEM_STATS_STICKY : GEM_STATS_CLEAR_ON_READ;
        if (s->mode == GEM_STATS_CLEAR_ON_READ)
            v += v2;            /* what arrived between the two reads */
    }
    if (s->mode == GEM_STATS_STICKY)
        s->acc[i] = v;
    else
        s->acc[i] += v;
    return s->acc[i];
}

static uint64_t octets_value(uint32_t bot, uint32_t top)
{
    return ((uint64_t)(top & 0xFFFFu) << 32) | bot;
}

void gem_stats_octets(struct gem_stats *s, uint64_t *tx, uint64_t *rx)
{
    uint32_t *h = s->octets_raw;
    h[GEM_OCT_TX_BOT] = s->rd(GEM_OCTTXL);
    h[GEM_OCT_TX_TOP] = s->rd(GEM_OCTTXH);
    h[GEM_OCT_RX_BOT] = s->rd(GEM_OCTRXL);
    h[GEM_OCT_RX_TOP] = s->rd(GEM_OCTRXH);
    uint64_t t = octets_value(h[GEM_OCT_TX_BOT], h[GEM_OCT_TX_TOP]);
    uint64_t r = octets_value(h[GEM_OCT_RX_BOT], h[GEM_OCT_RX_TOP]);
    if (s->mode == GEM_STATS_STICKY) {
        s->octets_tx = t;
        s->octets_rx = r;
    } else {
        s->octets_tx += t;
        s->octets_rx += r;
    }
    *tx = s->octets_tx;
    *rx = s->octets_rx;
}
