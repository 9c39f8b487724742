/* test_udpstats.c - loss / out-of-order / jitter accounting on known
 * sequences, matching iperf 2.1.8's server arithmetic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "udpstats.h"

static void feed(struct udpstats *s, const uint64_t *seq, size_t n)
{
    for (size_t i = 0; i < n; i++)
        udpstats_rx(s, seq[i], 1000, 0, 0);
}

static void test_in_order_sequence_has_no_loss_or_reorder(void **state)
{
    struct udpstats s;
    const uint64_t seq[] = { 1, 2, 3, 4, 5 };
    (void)state;
    udpstats_init(&s);
    feed(&s, seq, 5);
    assert_int_equal(udpstats_lost(&s), 0);
    assert_int_equal(s.out_of_order, 0);
    assert_int_equal(udpstats_expected(&s), 5);
    assert_int_equal(s.bytes, 5000);
}

static void test_gaps_count_as_lost(void **state)
{
    struct udpstats s;
    const uint64_t seq[] = { 1, 2, 5, 6, 10 };      /* 3,4 and 7,8,9 missing */
    (void)state;
    udpstats_init(&s);
    feed(&s, seq, 5);
    assert_int_equal(udpstats_lost(&s), 5);
    assert_int_equal(udpstats_expected(&s), 10);
    assert_true(udpstats_loss_pct(&s) > 49.99 && udpstats_loss_pct(&s) < 50.01);
}

static void test_late_datagram_is_out_of_order_and_not_lost(void **state)
{
    struct udpstats s;
    const uint64_t seq[] = { 1, 3, 2, 4 };
    (void)state;
    udpstats_init(&s);
    feed(&s, seq, 4);
    assert_int_equal(s.out_of_order, 1);
    assert_int_equal(udpstats_lost(&s), 0);
    assert_int_equal(udpstats_expected(&s), 4);
}

static void test_duplicate_counts_out_of_order_and_loss_clamps_at_zero(void **state)
{
    struct udpstats s;
    const uint64_t seq[] = { 1, 2, 2, 3 };
    (void)state;
    udpstats_init(&s);
    feed(&s, seq, 4);
    assert_int_equal(s.out_of_order, 1);
    assert_int_equal(udpstats_lost(&s), 0);     /* gaps 0 - ooo 1 clamps */
    assert_int_equal(s.received, 4);
}

static void test_first_datagram_missing_counts_as_lost(void **state)
{
    struct udpstats s;
    const uint64_t seq[] = { 3, 4 };
    (void)state;
    udpstats_init(&s);
    feed(&s, seq, 2);
    assert_int_equal(udpstats_lost(&s), 2);
}

static void test_seq_zero_is_malformed_and_ignored(void **state)
{
    struct udpstats s;
    (void)state;
    udpstats_init(&s);
    udpstats_rx(&s, 0, 100, 0, 0);
    udpstats_malformed(&s);
    assert_int_equal(s.malformed, 2);
    assert_int_equal(s.received, 0);
    assert_int_equal(udpstats_expected(&s), 0);
    assert_true(udpstats_loss_pct(&s) == 0.0);
}

/* The FIN (its id made positive, iperf 2.1.8 ReadPacketID): its id shows
 * the datagrams lost before it and is the datagram total; its bytes and
 * transit are not counted (udpstats.h). */
static void test_fin_counts_its_id_only(void **state)
{
    struct udpstats s;
    (void)state;
    udpstats_init(&s);
    udpstats_rx(&s, 1, 1000, 0, 100);
    udpstats_rx(&s, 2, 1000, 10, 110);
    udpstats_rx_fin(&s, 5);                     /* 3 and 4 lost */
    assert_int_equal(s.received, 2);
    assert_int_equal(s.bytes, 2000);
    assert_int_equal(udpstats_expected(&s), 5);
    assert_int_equal(udpstats_lost(&s), 2);
    assert_true(s.jitter_us == 0.0);
    udpstats_rx_fin(&s, 0);                     /* id 0: not a datagram */
    assert_int_equal(s.malformed, 1);
    assert_int_equal(udpstats_expected(&s), 5);
}

static void test_constant_transit_gives_zero_jitter(void **state)
{
    struct udpstats s;
    (void)state;
    udpstats_init(&s);
    for (uint64_t i = 1; i <= 100; i++)
        udpstats_rx(&s, i, 100, i * 1000, i * 1000 + 250);
    assert_true(s.jitter_us == 0.0);
}

static void test_jitter_follows_rfc1889_recurrence(void **state)
{
    struct udpstats s;
    (void)state;
    udpstats_init(&s);
    /* transits 100, 116, 100 us: |D| = 16 then 16.
     * J1 = 0 + (16 - 0)/16 = 1;  J2 = 1 + (16 - 1)/16 = 1.9375 */
    udpstats_rx(&s, 1, 100, 0, 100);
    udpstats_rx(&s, 2, 100, 1000, 1116);
    assert_true(s.jitter_us == 1.0);
    udpstats_rx(&s, 3, 100, 2000, 2100);
    assert_true(s.jitter_us == 1.9375);
}

static void test_jitter_tolerates_clock_offset_between_sender_and_receiver(void **state)
{
    struct udpstats s;
    (void)state;
    udpstats_init(&s);
    /* receiver clock 1e9 us behind the sender's: transit is negative but constant */
    for (uint64_t i = 1; i <= 10; i++)
        udpstats_rx(&s, i, 100, 1000000000ull + i * 1000, i * 1000);
    assert_true(s.jitter_us == 0.0);
}

/* Ids above 2^53: the ratio 100 * lost / max used to round past 100 %. */
static void test_loss_pct_never_exceeds_100_for_huge_sequence_ids(void **state)
{
    struct udpstats s;
    (void)state;
    udpstats_init(&s);
    udpstats_rx(&s, 1, 1000, 0, 0);
    udpstats_rx(&s, (1ULL << 62) + 12345, 1000, 0, 0);
    double pct = udpstats_loss_pct(&s);
    assert_true(udpstats_lost(&s) < udpstats_expected(&s));
    assert_true(pct <= 100.0);
    assert_true(pct > 99.999);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order_sequence_has_no_loss_or_reorder),
        cmocka_unit_test(test_gaps_count_as_lost),
        cmocka_unit_test(test_late_datagram_is_out_of_order_and_not_lost),
        cmocka_unit_test(test_duplicate_counts_out_of_order_and_loss_clamps_at_zero),
        cmocka_unit_test(test_first_datagram_missing_counts_as_lost),
        cmocka_unit_test(test_seq_zero_is_malformed_and_ignored),
        cmocka_unit_test(test_fin_counts_its_id_only),
        cmocka_unit_test(test_constant_transit_gives_zero_jitter),
        cmocka_unit_test(test_jitter_follows_rfc1889_recurrence),
        cmocka_unit_test(test_jitter_tolerates_clock_offset_between_sender_and_receiver),
        cmocka_unit_test(test_loss_pct_never_exceeds_100_for_huge_sequence_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
