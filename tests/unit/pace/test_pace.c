/* test_pace.c - token-bucket arithmetic: long-run rate, burst cap, wrap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "pace.h"

/* Run the sender for ms milliseconds, one poll per ms; return datagrams sent. */
static uint64_t run(struct pace *p, uint32_t start_ms, uint32_t ms, uint32_t len)
{
    uint64_t sent = 0;
    for (uint32_t t = 1; t <= ms; t++) {
        pace_refill(p, start_ms + t);
        while (pace_take(p, len))
            sent++;
    }
    return sent;
}

static void test_50M_with_1470_byte_datagrams_sends_4251_per_second(void **state)
{
    struct pace p;
    (void)state;
    pace_init(&p, 50000000, 1470, 0, 0);
    /* 50e6 / (1470*8) = 4251.7/s; plus the one datagram of initial credit */
    uint64_t n = run(&p, 0, 1000, 1470);
    assert_true(n >= 4251 && n <= 4253);
}

/* A timed test's last refill (pace_refill_before its deadline): R x T
 * exactly, the datagram due at T itself not sent; without it the last
 * millisecond's credit was lost (4621 at 37M for 1 s, 1000-byte) */
static void test_timed_test_sends_rate_times_time(void **state)
{
    struct pace p;
    uint64_t n;
    (void)state;
    pace_init(&p, 37000000, 1000, 0, 5000);
    n = run(&p, 5000, 999, 1000);
    assert_int_equal(n, 4621);
    assert_true(pace_refill_before(&p, 6000, 1000));
    while (pace_take(&p, 1000))
        n++;
    assert_int_equal(n, 4625);          /* 37e6 x 1 s / 8000 bits */
    /* not a whole number of datagrams: 50M, 1470 B -> 4251.7: the 4252
     * due at 0 .. 4251 x 235.2 us, all before 1 s */
    pace_init(&p, 50000000, 1470, 0, 0);
    n = run(&p, 0, 999, 1470);
    assert_true(pace_refill_before(&p, 1000, 1470));
    while (pace_take(&p, 1470))
        n++;
    assert_int_equal(n, 4252);
    /* behind its pace (the driver took nothing for 5 ms: a full bucket
     * of the backlog): the end adds no credit */
    pace_init(&p, 50000000, 1470, 0, 0);
    pace_refill(&p, 995);
    n = p.credit_mbit;
    assert_false(pace_refill_before(&p, 1000, 1470));
    assert_int_equal(p.credit_mbit, n);
}

static void test_low_rate_1M_sends_85_per_second(void **state)
{
    struct pace p;
    (void)state;
    pace_init(&p, 1000000, 1470, 0, 0);
    uint64_t n = run(&p, 0, 1000, 1470);   /* 1e6/11760 = 85.03 */
    assert_true(n >= 85 && n <= 86);
}

static void test_no_time_elapsed_means_only_initial_credit(void **state)
{
    struct pace p;
    int n = 0;
    (void)state;
    pace_init(&p, 1000000000, 1000, 0, 500);
    pace_refill(&p, 500);
    while (pace_take(&p, 1000))
        n++;
    assert_int_equal(n, 1);
}

static void test_stall_is_capped_at_burst_not_a_flood(void **state)
{
    struct pace p;
    int n = 0;
    (void)state;
    /* 100 kb/s: PACE_BURST_MS (40) of credit is 500 bytes, below 2 datagrams
     * -> the cap is 2 datagrams however long the stall */
    pace_init(&p, 100000, 1470, 0, 0);
    pace_refill(&p, 5000);            /* 5 s stall */
    while (pace_take(&p, 1470))
        n++;
    assert_int_equal(n, 2);
}

static void test_default_cap_is_40ms_of_rate_at_high_rate(void **state)
{
    struct pace p;
    int n = 0;
    (void)state;
    /* 100 Mb/s: 40 ms = 500000 bytes = 500 datagrams of 1000 */
    pace_init(&p, 100000000, 1000, 0, 0);
    pace_refill(&p, 60000);
    while (pace_take(&p, 1000))
        n++;
    assert_int_equal(n, 500);
}

static void test_stale_clock_reading_adds_no_credit(void **state)
{
    struct pace p;
    int n = 0;
    (void)state;
    pace_init(&p, 100000000, 1000, 0, 1000);
    pace_refill(&p, 999);             /* sampled before the init */
    while (pace_take(&p, 1000))
        n++;
    assert_int_equal(n, 1);           /* only the initial datagram */
}

static void test_explicit_burst_bytes_caps_credit(void **state)
{
    struct pace p;
    int n = 0;
    (void)state;
    pace_init(&p, 1000000000, 100, 1000, 0);
    pace_refill(&p, 100);
    while (pace_take(&p, 100))
        n++;
    assert_int_equal(n, 10);
}

static void test_ms_clock_wrap_keeps_refilling(void **state)
{
    struct pace p;
    (void)state;
    pace_init(&p, 50000000, 1470, 0, UINT32_MAX - 500);
    uint64_t n = run(&p, UINT32_MAX - 500, 1000, 1470);   /* crosses 2^32 */
    assert_true(n >= 4251 && n <= 4253);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_50M_with_1470_byte_datagrams_sends_4251_per_second),
        cmocka_unit_test(test_low_rate_1M_sends_85_per_second),
        cmocka_unit_test(test_timed_test_sends_rate_times_time),
        cmocka_unit_test(test_no_time_elapsed_means_only_initial_credit),
        cmocka_unit_test(test_stall_is_capped_at_burst_not_a_flood),
        cmocka_unit_test(test_default_cap_is_40ms_of_rate_at_high_rate),
        cmocka_unit_test(test_stale_clock_reading_adds_no_credit),
        cmocka_unit_test(test_explicit_burst_bytes_caps_credit),
        cmocka_unit_test(test_ms_clock_wrap_keeps_refilling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
