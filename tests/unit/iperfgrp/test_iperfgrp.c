/* test_iperfgrp.c - the iperf TCP server's test accounting (iperfgrp.h):
 * the connections of one -P N client that overlap in time are one test,
 * reported once, when the last one ends, with the sum over the span from
 * the first accept to the last end (iperf 2's [SUM]) and each stream's
 * bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "iperfgrp.h"

static void test_one_connection_is_a_test_of_one_stream(void **state)
{
    struct iperf_grp g;
    uint64_t sb[IPERF_GRP_MAX], sum, us;
    bool first = false;
    (void)state;
    memset(&g, 0, sizeof(g));
    unsigned i = iperf_grp_join(&g, 1000, &first);
    assert_true(first);
    assert_int_equal(i, 0);
    assert_true(iperf_grp_leave(&g, i, true, 5000, false, 3000));
    assert_int_equal(iperf_grp_sum(&g, sb, &sum, &us), 1);
    assert_true(sb[0] == 5000 && sum == 5000 && us == 2000);
    assert_false(g.aborted);
}

/* -P 4: four accepts, ends in another order; one report, at the last end */
static void test_four_overlapping_streams_report_once_with_the_sum(void **state)
{
    struct iperf_grp g;
    uint64_t sb[IPERF_GRP_MAX], sum, us;
    unsigned idx[4];
    bool first;
    (void)state;
    memset(&g, 0, sizeof(g));
    for (unsigned k = 0; k < 4; k++) {
        idx[k] = iperf_grp_join(&g, 100 + k * 10, &first);
        assert_int_equal(idx[k], k);
        assert_int_equal(first, k == 0);
    }
    assert_false(iperf_grp_leave(&g, idx[2], true, 300, false, 9000));
    assert_false(iperf_grp_leave(&g, idx[0], true, 100, false, 9100));
    assert_false(iperf_grp_leave(&g, idx[3], true, 400, false, 9050));
    assert_true(iperf_grp_leave(&g, idx[1], true, 200, false, 9200));
    assert_int_equal(iperf_grp_sum(&g, sb, &sum, &us), 4);
    assert_true(sb[0] == 100 && sb[1] == 200 && sb[2] == 300 && sb[3] == 400);
    assert_true(sum == 1000);
    assert_true(us == 9200 - 100);      /* first accept to the last end */
}

/* a connection after the last one ended opens a new test */
static void test_a_later_connection_opens_a_new_test(void **state)
{
    struct iperf_grp g;
    uint64_t sb[IPERF_GRP_MAX], sum, us;
    bool first;
    (void)state;
    memset(&g, 0, sizeof(g));
    unsigned a = iperf_grp_join(&g, 0, &first);
    unsigned b = iperf_grp_join(&g, 10, &first);
    assert_false(iperf_grp_leave(&g, a, true, 7, true, 50));      /* aborted */
    assert_true(iperf_grp_leave(&g, b, true, 8, false, 60));
    assert_true(g.aborted);
    unsigned c = iperf_grp_join(&g, 1000, &first);
    assert_true(first);
    assert_int_equal(c, 0);
    assert_false(g.aborted);
    assert_true(iperf_grp_leave(&g, c, true, 42, false, 1500));
    assert_int_equal(iperf_grp_sum(&g, sb, &sum, &us), 1);
    assert_true(sum == 42 && us == 500);
}

/* a connection handed to the -R sender has no receive result */
static void test_reverse_handoff_leaves_without_a_stream(void **state)
{
    struct iperf_grp g;
    uint64_t sb[IPERF_GRP_MAX], sum, us;
    bool first;
    (void)state;
    memset(&g, 0, sizeof(g));
    unsigned a = iperf_grp_join(&g, 0, &first);
    assert_false(iperf_grp_leave(&g, a, false, 0, false, 5));   /* alone: no line at all */
    a = iperf_grp_join(&g, 10, &first);
    unsigned b = iperf_grp_join(&g, 11, &first);
    assert_false(iperf_grp_leave(&g, a, false, 0, false, 12));
    assert_true(iperf_grp_leave(&g, b, true, 99, false, 20));
    assert_int_equal(iperf_grp_sum(&g, sb, &sum, &us), 1);
    assert_true(sb[0] == 99 && sum == 99);
}

/* more connections over one test than entries: counted in the last one,
 * nothing written past the arrays; a bad index changes nothing */
static void test_more_connections_than_entries_add_to_the_last(void **state)
{
    struct iperf_grp g;
    uint64_t sb[IPERF_GRP_MAX], sum, us;
    bool first;
    (void)state;
    memset(&g, 0, sizeof(g));
    unsigned keep = iperf_grp_join(&g, 0, &first);
    for (unsigned k = 1; k < IPERF_GRP_MAX + 3; k++) {
        unsigned i = iperf_grp_join(&g, k, &first);
        assert_int_equal(i, k < IPERF_GRP_MAX ? k : IPERF_GRP_MAX - 1);
        assert_false(iperf_grp_leave(&g, i, true, 1, false, 100 + k));
    }
    assert_false(iperf_grp_leave(&g, IPERF_GRP_MAX + 5, true, 1000, false, 1));
    assert_true(iperf_grp_leave(&g, keep, true, 10, false, 500));
    assert_int_equal(iperf_grp_sum(&g, sb, &sum, &us), IPERF_GRP_MAX);
    assert_true(sb[IPERF_GRP_MAX - 1] == 4);
    assert_true(sum == 10 + IPERF_GRP_MAX + 2);
    assert_true(us == 500);
    assert_false(iperf_grp_leave(&g, keep, true, 10, false, 600));   /* no test: nothing */
}

/* A connection that comes more than IPERF_GRP_JOIN_US after the test's
 * first one does not join it (the soak's host runs, each a new test,
 * overlapped a straggler whose FIN a flap lost, and one group swallowed
 * five of them for 125 s); one within it, or with no test running, does. */
static void test_late_connection_is_its_own_test(void **state)
{
    struct iperf_grp g = { 0 };
    bool first;
    (void)state;
    assert_true(iperf_grp_joins(&g, 5000000));
    iperf_grp_join(&g, 5000000, &first);
    assert_true(first);
    assert_true(iperf_grp_joins(&g, 5000000 + IPERF_GRP_JOIN_US));
    assert_false(iperf_grp_joins(&g, 5000001 + IPERF_GRP_JOIN_US));
    assert_false(iperf_grp_joins(&g, 125000000));
    iperf_grp_leave(&g, 0, true, 10, false, 6000000);
    assert_true(iperf_grp_joins(&g, 125000000));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_late_connection_is_its_own_test),
        cmocka_unit_test(test_one_connection_is_a_test_of_one_stream),
        cmocka_unit_test(test_four_overlapping_streams_report_once_with_the_sum),
        cmocka_unit_test(test_a_later_connection_opens_a_new_test),
        cmocka_unit_test(test_reverse_handoff_leaves_without_a_stream),
        cmocka_unit_test(test_more_connections_than_entries_add_to_the_last),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
