/* test_lathist.c - log2 buckets, min/avg/max, nearest-rank percentiles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lathist.h"

static void test_bucket_edges_are_powers_of_two(void **state)
{
    (void)state;
    assert_int_equal(lathist_bucket_of(0), 0);
    assert_int_equal(lathist_bucket_of(1), 1);
    assert_int_equal(lathist_bucket_of(2), 2);
    assert_int_equal(lathist_bucket_of(3), 2);
    assert_int_equal(lathist_bucket_of(4), 3);
    assert_int_equal(lathist_bucket_of(1023), 10);
    assert_int_equal(lathist_bucket_of(1024), 11);
    assert_int_equal(lathist_bucket_lo(11), 1024);
    assert_int_equal(lathist_bucket_lo(0), 0);
}

static void test_huge_rtt_lands_in_last_bucket(void **state)
{
    (void)state;
    assert_int_equal(lathist_bucket_of(UINT32_MAX), LATHIST_BUCKETS - 1);
    assert_int_equal(lathist_bucket_of(1u << 20), LATHIST_BUCKETS - 1);
    assert_int_equal(lathist_bucket_of((1u << 20) - 1), LATHIST_BUCKETS - 2);
}

static void test_min_avg_max_and_counts(void **state)
{
    struct lathist h;
    uint32_t samples[8];
    (void)state;
    lathist_init(&h, samples, 8);
    lathist_add(&h, 300);
    lathist_add(&h, 100);
    lathist_add(&h, 200);
    assert_int_equal(h.min_us, 100);
    assert_int_equal(h.max_us, 300);
    assert_int_equal(lathist_avg(&h), 200);
    assert_int_equal(h.bucket[lathist_bucket_of(100)], 1);
    assert_int_equal(h.bucket[lathist_bucket_of(200)], 1);   /* [128,256) */
    assert_int_equal(h.bucket[lathist_bucket_of(300)], 1);   /* [256,512) */
    assert_int_equal(h.count, 3);
    /* the mean is rounded, not truncated: 6,7,7 -> 6.67 -> 7 */
    lathist_init(&h, samples, 8);
    lathist_add(&h, 6);
    lathist_add(&h, 7);
    lathist_add(&h, 7);
    assert_int_equal(lathist_avg(&h), 7);
    lathist_add(&h, 6);     /* 6.5 rounds up */
    assert_int_equal(lathist_avg(&h), 7);
    lathist_add(&h, 6);     /* 6.4 */
    assert_int_equal(lathist_avg(&h), 6);
}

static void test_p99_of_1_to_100_is_99_and_p100_is_max(void **state)
{
    struct lathist h;
    uint32_t samples[100];
    bool exact = false;
    (void)state;
    lathist_init(&h, samples, 100);
    for (uint32_t v = 100; v >= 1; v--)      /* reverse order: sorting matters */
        lathist_add(&h, v);
    assert_int_equal(lathist_percentile(&h, 99, &exact), 99);
    assert_true(exact);
    assert_int_equal(lathist_percentile(&h, 50, NULL), 50);
    assert_int_equal(lathist_percentile(&h, 100, NULL), 100);
    assert_int_equal(lathist_percentile(&h, 1, NULL), 1);
}

static void test_p99_with_one_outlier_in_200_picks_the_nearest_rank(void **state)
{
    struct lathist h;
    uint32_t samples[200];
    (void)state;
    lathist_init(&h, samples, 200);
    for (int i = 0; i < 197; i++)
        lathist_add(&h, 50);
    lathist_add(&h, 70);
    lathist_add(&h, 80);
    lathist_add(&h, 5000);
    /* rank ceil(0.99*200) = 198 -> 70 */
    assert_int_equal(lathist_percentile(&h, 99, NULL), 70);
}

static void test_overflowing_sample_store_falls_back_to_bucket_upper_edge(void **state)
{
    struct lathist h;
    uint32_t samples[4];
    bool exact = true;
    (void)state;
    lathist_init(&h, samples, 4);
    for (int i = 0; i < 99; i++)
        lathist_add(&h, 100);          /* bucket [64,128) */
    lathist_add(&h, 3000);             /* bucket [2048,4096) */
    assert_int_equal(lathist_percentile(&h, 99, &exact), 128);
    assert_false(exact);
    /* the top rank never reports more than the true maximum */
    assert_int_equal(lathist_percentile(&h, 100, NULL), 3000);
}

static void test_empty_histogram_reports_zero(void **state)
{
    struct lathist h;
    (void)state;
    lathist_init(&h, NULL, 0);
    assert_int_equal(lathist_percentile(&h, 99, NULL), 0);
    assert_int_equal(lathist_avg(&h), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bucket_edges_are_powers_of_two),
        cmocka_unit_test(test_huge_rtt_lands_in_last_bucket),
        cmocka_unit_test(test_min_avg_max_and_counts),
        cmocka_unit_test(test_p99_of_1_to_100_is_99_and_p100_is_max),
        cmocka_unit_test(test_p99_with_one_outlier_in_200_picks_the_nearest_rank),
        cmocka_unit_test(test_overflowing_sample_store_falls_back_to_bucket_upper_edge),
        cmocka_unit_test(test_empty_histogram_reports_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
