/* emu/runner/results.c: the flaps the Linux agent missed, from the
 * kernel's carrier_changes on two link lines (the guest's word: any
 * number may come). */
#include "run_priv.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static void test_flaps_between_two_link_lines(void **state)
{
    (void)state;
    /* down then up: 2 -> 3 is the one transition shown, none missed */
    assert_int_equal(rs_flaps_between(2, 3, true), 0);
    /* up, up again, 4 changes between: two flaps unseen */
    assert_int_equal(rs_flaps_between(3, 7, false), 2);
    /* down -> up with 5 changes: the shown one, then two flaps */
    assert_int_equal(rs_flaps_between(3, 8, true), 2);
    /* an odd change left over is half a flap: not counted */
    assert_int_equal(rs_flaps_between(3, 6, false), 1);
    /* no previous line, or none on this one */
    assert_int_equal(rs_flaps_between(NAN, 7, false), 0);
    assert_int_equal(rs_flaps_between(3, NAN, false), 0);
}

static void test_flaps_between_refuses_what_no_kernel_counts(void **state)
{
    (void)state;
    /* gone down (a reboot, or a lie) */
    assert_int_equal(rs_flaps_between(9, 3, false), 0);
    /* negative, fractional, infinite, beyond two 32-bit counters */
    assert_int_equal(rs_flaps_between(-5, 7, false), 0);
    assert_int_equal(rs_flaps_between(1, 7.5, false), 0);
    assert_int_equal(rs_flaps_between(0, INFINITY, false), 0);
    assert_int_equal(rs_flaps_between(-INFINITY, 3, false), 0);
    assert_int_equal(rs_flaps_between(0, 1e300, false), 0);
    assert_int_equal(rs_flaps_between(0, 2.0 * UINT32_MAX + 2, false), 0);
    /* the largest honest gap saturates at INT_MAX, never wraps */
    assert_int_equal(rs_flaps_between(0, 2.0 * UINT32_MAX, false), INT_MAX);
    assert_int_equal(rs_flaps_between(0, (double)INT_MAX * 2, false), INT_MAX);
    assert_int_equal(rs_flaps_between(0, (double)INT_MAX * 2 - 2, false), INT_MAX - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flaps_between_two_link_lines),
        cmocka_unit_test(test_flaps_between_refuses_what_no_kernel_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
