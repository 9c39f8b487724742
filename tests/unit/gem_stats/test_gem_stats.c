/* test_gem_stats.c - GEM statistics registers into 64-bit totals.
 * The "hardware" is a register file with the UG585 16.3.9 semantics (each
 * statistics register clears when read) or stock QEMU's (never clears),
 * and frames that land at a chosen register read, as they do on silicon
 * while the driver is part-way through reading the counters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gem_stats.h"
#include "gem_regs.h"

#define R_FRAMES_RX 0x158u
#define R_FRAMES_TX 0x108u

static uint32_t regs[0x200 / 4];
static int sticky;              /* 1: stock QEMU, counters never clear */
static unsigned reads;          /* register reads so far */
static unsigned land_at_read;   /* 0: none; n: a frame lands after read n */
static uint32_t land_len;
static unsigned landed;         /* frames that landed that way */

static void octets_add(uint32_t bot, uint32_t len)
{
    uint64_t v = ((uint64_t)(regs[(bot + 4) / 4] & 0xFFFF) << 32) | regs[bot / 4];
    v += len;
    regs[bot / 4] = (uint32_t)v;
    regs[(bot + 4) / 4] = (uint32_t)(v >> 32) & 0xFFFF;
}

/* What the MAC does for one good received frame (UG585 B.18). */
static void hw_rx_frame(uint32_t len)
{
    regs[R_FRAMES_RX / 4]++;
    octets_add(GEM_OCTRXL, len);
}

static void hw_tx_frame(uint32_t len)
{
    regs[R_FRAMES_TX / 4]++;
    octets_add(GEM_OCTTXL, len);
}

static uint32_t fake_rd(uint32_t off)
{
    assert_true(off >= 0x100 && off <= 0x1B0 && off % 4 == 0);
    uint32_t v = regs[off / 4];
    if (!sticky)
        regs[off / 4] = 0;
    if (++reads == land_at_read) {
        hw_rx_frame(land_len);
        landed++;
    }
    return v;
}

static int setup(void **state)
{
    (void)state;
    memset(regs, 0, sizeof regs);
    sticky = 0;
    reads = 0;
    land_at_read = 0;
    landed = 0;
    return 0;
}

static unsigned idx_of(const char *name)
{
    for (unsigned i = 0; i < gem_counter_count; i++)
        if (strcmp(gem_counters[i].name, name) == 0)
            return i;
    fail_msg("no counter %s", name);
    return 0;
}

static void test_table_matches_ug585_offsets(void **state)
{
    (void)state;
    assert_int_equal(gem_counters[idx_of("frames_tx")].offset, 0x108);
    assert_int_equal(gem_counters[idx_of("frames_rx")].offset, 0x158);
    assert_int_equal(gem_counters[idx_of("fcs_errors")].offset, 0x190);
    assert_int_equal(gem_counters[idx_of("rx_resource_errors")].offset, 0x1A0);
    assert_int_equal(gem_counters[gem_counter_count - 1].offset, 0x1B0);
    assert_true(gem_counter_count <= GEM_COUNTERS_MAX);
}

static void test_clear_on_read_totals_sum_every_read(void **state)
{
    (void)state;
    struct gem_stats s;
    gem_stats_init(&s, fake_rd);
    unsigned rx = idx_of("frames_rx");
    for (int i = 0; i < 3; i++)
        hw_rx_frame(60);
    assert_int_equal(gem_stats_counter(&s, rx), 3);
    assert_int_equal(s.mode, GEM_STATS_CLEAR_ON_READ);
    assert_int_equal(gem_stats_counter(&s, rx), 3);     /* nothing new */
    for (int i = 0; i < 5; i++)
        hw_rx_frame(60);
    assert_int_equal(gem_stats_counter(&s, rx), 8);
}

static void test_mode_probe_keeps_a_frame_landing_between_its_reads(void **state)
{
    (void)state;
    struct gem_stats s;
    gem_stats_init(&s, fake_rd);
    hw_rx_frame(60);
    hw_rx_frame(60);
    land_at_read = 1;           /* one more frame after the first read */
    land_len = 60;
    assert_int_equal(gem_stats_counter(&s, idx_of("frames_rx")), 3);
    assert_int_equal(s.mode, GEM_STATS_CLEAR_ON_READ);
    assert_int_equal(reads, 2);
}

static void test_zero_counter_leaves_mode_unknown(void **state)
{
    (void)state;
    struct gem_stats s;
    gem_stats_init(&s, fake_rd);
    assert_int_equal(gem_stats_counter(&s, idx_of("fcs_errors")), 0);
    assert_int_equal(s.mode, GEM_STATS_UNKNOWN);
    assert_int_equal(reads, 1);
}

static void test_sticky_counters_are_the_total(void **state)
{
    (void)state;
    struct gem_stats s;
    sticky = 1;
    gem_stats_init(&s, fake_rd);
    unsigned rx = idx_of("frames_rx");
    for (int i = 0; i < 4; i++)
        hw_rx_frame(100);
    assert_int_equal(gem_stats_counter(&s, rx), 4);
    assert_int_equal(s.mode, GEM_STATS_STICKY);
    assert_int_equal(gem_stats_counter(&s, rx), 4);
    hw_rx_frame(100);
    assert_int_equal(gem_stats_counter(&s, rx), 5);
    uint64_t tx, rxo;
    gem_stats_octets(&s, &tx, &rxo);
    gem_stats_octets(&s, &tx, &rxo);
    assert_int_equal(rxo, 500);
    assert_int_equal(tx, 0);
}

static void test_octets_are_48_bits_bot_then_top(void **state)
{
    (void)state;
    struct gem_stats s;
    gem_stats_init(&s, fake_rd);
    hw_rx_frame(64);
    (void)gem_stats_counter(&s, idx_of("frames_rx"));   /* mode known */
    regs[GEM_OCTRXL / 4] = 5;
    regs[GEM_OCTRXH / 4] = 0xFFFF0001u;     /* bits above 47 are not the count */
    hw_tx_frame(1514);
    uint64_t tx, rx;
    gem_stats_octets(&s, &tx, &rx);
    assert_int_equal(rx, (1ull << 32) + 5);
    assert_int_equal(tx, 1514);
    assert_int_equal(s.octets_raw[GEM_OCT_RX_BOT], 5);
    assert_int_equal(s.octets_raw[GEM_OCT_RX_TOP], 0xFFFF0001u);
    assert_int_equal(s.octets_raw[GEM_OCT_TX_BOT], 1514);
    hw_rx_frame(60);
    gem_stats_octets(&s, &tx, &rx);
    assert_int_equal(rx, (1ull << 32) + 65);
    assert_int_equal(tx, 1514);
}

/* The driver's `stats` command reads every counter, then the octets, then
 * prints the raw halves.  A frame that lands anywhere in that sequence is
 * in the next totals, in frames and in bytes alike: nothing but
 * gem_stats_counter() and gem_stats_octets() reads a register, so no read
 * takes counts out of the totals (a separate re-read for the raw halves
 * lost a frame's 60 bytes in a soak). */
static void test_frame_landing_mid_snapshot_is_counted_once_in_bytes(void **state)
{
    (void)state;
    struct gem_stats s;
    gem_stats_init(&s, fake_rd);
    uint64_t want_frames = 0, want_bytes = 0, tx, rx = 0;
    unsigned rxi = idx_of("frames_rx");
    hw_rx_frame(1514);
    want_frames++, want_bytes += 1514;
    /* every position: each counter, and each of the four octet halves */
    for (unsigned k = 1; k <= gem_counter_count + 4; k++) {
        unsigned r0 = reads;
        land_at_read = r0 + k;  /* the k-th read of this snapshot */
        land_len = 60;
        want_frames++, want_bytes += 60;
        uint64_t frames = 0;
        for (unsigned i = 0; i < gem_counter_count; i++) {
            uint64_t v = gem_stats_counter(&s, i);
            if (i == rxi)
                frames = v;
        }
        gem_stats_octets(&s, &tx, &rx);
        assert_int_equal(landed, k);
        assert_true(frames <= want_frames && rx <= want_bytes);
    }
    land_at_read = 0;
    /* one more snapshot at rest: everything has been read exactly once */
    uint64_t frames = gem_stats_counter(&s, rxi);
    gem_stats_octets(&s, &tx, &rx);
    assert_int_equal(frames, want_frames);
    assert_int_equal(rx, want_bytes);
    assert_int_equal(tx, 0);
}

static void test_index_out_of_range_reads_nothing(void **state)
{
    (void)state;
    struct gem_stats s;
    gem_stats_init(&s, fake_rd);
    assert_int_equal(gem_stats_counter(&s, gem_counter_count), 0);
    assert_int_equal(gem_stats_counter(&s, 1000), 0);
    assert_int_equal(reads, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_table_matches_ug585_offsets, setup),
        cmocka_unit_test_setup(test_clear_on_read_totals_sum_every_read, setup),
        cmocka_unit_test_setup(test_mode_probe_keeps_a_frame_landing_between_its_reads, setup),
        cmocka_unit_test_setup(test_zero_counter_leaves_mode_unknown, setup),
        cmocka_unit_test_setup(test_sticky_counters_are_the_total, setup),
        cmocka_unit_test_setup(test_octets_are_48_bits_bot_then_top, setup),
        cmocka_unit_test_setup(test_frame_landing_mid_snapshot_is_counted_once_in_bytes, setup),
        cmocka_unit_test_setup(test_index_out_of_range_reads_nothing, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
