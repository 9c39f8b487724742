/* gem_stats.h - the GEM statistics registers read into 64-bit totals.
 *
 * Hardware independent (the register read is a callback) so it is unit
 * tested on the host (tests/unit/gem_stats).
 *
 * UG585 16.3.9 "Statistics Registers": each register 0x100..0x1B0 resets
 * to zero when it is read, so a total is the sum of every read, and a
 * register read anywhere else takes its count out of the total.  Stock
 * QEMU's counters never clear; the first non-zero counter read tells the
 * two apart (a second read right away is smaller only if the first one
 * cleared it).  Octets (UG585 B.18): octets_*_bot (0x100/0x150) holds bits
 * 31:0, octets_*_top (0x104/0x154) bits 47:32.
 */
#ifndef GEM_STATS_H
#define GEM_STATS_H

#include <stdint.h>

/* One hardware statistics register (UG585 B.18). */
struct gem_counter {
    const char *name;
    uint16_t offset;
};
extern const struct gem_counter gem_counters[];
extern const unsigned gem_counter_count;
#define GEM_COUNTERS_MAX 48u

enum gem_stats_mode {
    GEM_STATS_UNKNOWN,          /* no non-zero counter read yet */
    GEM_STATS_CLEAR_ON_READ,    /* silicon, and gemlab's QEMU */
    GEM_STATS_STICKY,           /* stock QEMU */
};

/* The four octet halves in the order gem_stats_octets() reads them. */
enum { GEM_OCT_TX_BOT, GEM_OCT_TX_TOP, GEM_OCT_RX_BOT, GEM_OCT_RX_TOP, GEM_OCT_HALVES };

struct gem_stats {
    uint32_t (*rd)(uint32_t offset);
    enum gem_stats_mode mode;
    uint64_t acc[GEM_COUNTERS_MAX];
    uint64_t octets_tx, octets_rx;
    uint32_t octets_raw[GEM_OCT_HALVES];   /* as the last octets read saw them */
};

/* Totals zero, mode unknown, registers read through `rd`: as a static
 * initializer, or at run time by gem_stats_init(). */
#define GEM_STATS_INIT(rd_fn) { .rd = (rd_fn), .mode = GEM_STATS_UNKNOWN }
void gem_stats_init(struct gem_stats *s, uint32_t (*rd)(uint32_t offset));
/* Read counter `index` of gem_counters[] once (twice while the mode is
 * unknown) and return its total; 0 for an index out of range. */
uint64_t gem_stats_counter(struct gem_stats *s, unsigned index);
/* Read the four octet halves once each, into totals and octets_raw.  Call
 * after at least one gem_stats_counter() so the mode is known. */
void gem_stats_octets(struct gem_stats *s, uint64_t *tx, uint64_t *rx);

#endif
