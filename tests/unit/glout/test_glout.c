/* test_glout.c - JSON-line writer: envelope, escaping, numbers, nesting,
 * overflow refusal. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "glout.h"

static char printed[1024];
static int printed_count;

/* strong definition overrides the weak console hook */
void glout_putline(const char *line)
{
    strncpy(printed, line, sizeof(printed) - 1);
    printed_count++;
}

static int reset(void **state)
{
    (void)state;
    printed[0] = '\0';
    printed_count = 0;
    return 0;
}

static void test_envelope_has_marker_version_src_and_type(void **state)
{
    char buf[128];
    struct glout g;
    (void)state;
    glout_begin(&g, buf, sizeof(buf), "ready");
    assert_int_equal(glout_end(&g), 0);
    assert_string_equal(buf, "@gemlab {\"v\":1,\"src\":\"baremetal\",\"type\":\"ready\"}");
}

static void test_string_escaping_quotes_backslash_and_controls(void **state)
{
    char buf[256];
    struct glout g;
    (void)state;
    glout_begin(&g, buf, sizeof(buf), "t");
    glout_str(&g, "s", "a\"b\\c\nd\te\x01" "f\x1f");
    assert_int_equal(glout_end(&g), 0);
    assert_non_null(strstr(buf, ",\"s\":\"a\\\"b\\\\c\\nd\\te\\u0001f\\u001f\"}"));
}

static void test_integers_extremes_are_exact(void **state)
{
    char buf[256];
    struct glout g;
    (void)state;
    glout_begin(&g, buf, sizeof(buf), "t");
    glout_int(&g, "min", INT64_MIN);
    glout_int(&g, "neg", -42);
    glout_int(&g, "zero", 0);
    glout_u64(&g, "max", UINT64_MAX);
    assert_int_equal(glout_end(&g), 0);
    assert_non_null(strstr(buf, "\"min\":-9223372036854775808,\"neg\":-42,\"zero\":0,"
                                "\"max\":18446744073709551615}"));
}

static void test_double_fixed_precision_rounds_half_away_from_zero(void **state)
{
    char buf[256];
    struct glout g;
    (void)state;
    glout_begin(&g, buf, sizeof(buf), "t");
    glout_dbl(&g, "a", 94.93, 3);
    glout_dbl(&g, "b", 0.0005, 3);
    glout_dbl(&g, "c", -1.25, 1);
    glout_dbl(&g, "d", 7.0, 0);
    glout_dbl(&g, "e", -0.0004, 3);
    assert_int_equal(glout_end(&g), 0);
    assert_non_null(strstr(buf, "\"a\":94.930,\"b\":0.001,\"c\":-1.3,\"d\":7,\"e\":0.000}"));
}

static void test_double_nan_inf_and_huge_become_null(void **state)
{
    char buf[256];
    struct glout g;
    (void)state;
    glout_begin(&g, buf, sizeof(buf), "t");
    glout_dbl(&g, "nan", NAN, 2);
    glout_dbl(&g, "inf", -INFINITY, 2);
    glout_dbl(&g, "big", 1e30, 2);
    assert_int_equal(glout_end(&g), 0);
    assert_non_null(strstr(buf, "\"nan\":null,\"inf\":null,\"big\":null}"));
}

static void test_nested_object_and_array_are_comma_separated(void **state)
{
    char buf[256];
    struct glout g;
    (void)state;
    glout_begin(&g, buf, sizeof(buf), "result");
    glout_obj_begin(&g, "hist");
    glout_u64(&g, "lo", 1);
    glout_arr_begin(&g, "n");
    glout_u64(&g, NULL, 3);
    glout_u64(&g, NULL, 4);
    glout_arr_end(&g);
    glout_obj_end(&g);
    glout_bool(&g, "ok", true);
    glout_null(&g, "x");
    assert_int_equal(glout_end(&g), 0);
    assert_non_null(strstr(buf, ",\"hist\":{\"lo\":1,\"n\":[3,4]},\"ok\":true,\"x\":null}"));
}

static void test_unclosed_containers_are_closed_by_end(void **state)
{
    char buf[256];
    struct glout g;
    (void)state;
    glout_begin(&g, buf, sizeof(buf), "t");
    glout_obj_begin(&g, "o");
    glout_arr_begin(&g, "a");
    glout_u64(&g, NULL, 1);
    assert_int_equal(glout_end(&g), 0);
    assert_non_null(strstr(buf, "\"o\":{\"a\":[1]}}"));
}

static void test_mismatched_close_refuses_line(void **state)
{
    char buf[256];
    struct glout g;
    (void)state;
    glout_begin(&g, buf, sizeof(buf), "t");
    glout_obj_begin(&g, "o");
    glout_arr_end(&g);
    assert_int_equal(glout_emit(&g), -ENOSPC);
    assert_int_equal(printed_count, 0);
}

static void test_overflow_is_sticky_and_nothing_is_printed(void **state)
{
    char buf[48];
    struct glout g;
    (void)state;
    glout_begin(&g, buf, sizeof(buf), "t");
    glout_str(&g, "long", "0123456789012345678901234567890123456789");
    glout_u64(&g, "n", 1);  /* would fit alone, must not be appended after a drop */
    assert_int_equal(glout_emit(&g), -ENOSPC);
    assert_int_equal(printed_count, 0);
    assert_true(strlen(buf) < sizeof(buf));
}

static void test_emit_prints_exactly_the_built_line(void **state)
{
    char buf[128];
    struct glout g;
    (void)state;
    glout_begin(&g, buf, sizeof(buf), "link");
    glout_bool(&g, "up", true);
    assert_int_equal(glout_emit(&g), 0);
    assert_int_equal(printed_count, 1);
    assert_string_equal(printed, "@gemlab {\"v\":1,\"src\":\"baremetal\",\"type\":\"link\",\"up\":true}");
}

static void test_textf_formats_and_prints(void **state)
{
    (void)state;
    glout_textf("iperf: %u Mb/s %s", 95u, "ok");
    assert_string_equal(printed, "iperf: 95 Mb/s ok");
}

static void test_fmt_fixed_too_small_buffer_gives_empty(void **state)
{
    char out[4];
    (void)state;
    glout_fmt_fixed(out, sizeof(out), 123.456, 2);
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_envelope_has_marker_version_src_and_type, reset),
        cmocka_unit_test_setup(test_string_escaping_quotes_backslash_and_controls, reset),
        cmocka_unit_test_setup(test_integers_extremes_are_exact, reset),
        cmocka_unit_test_setup(test_double_fixed_precision_rounds_half_away_from_zero, reset),
        cmocka_unit_test_setup(test_double_nan_inf_and_huge_become_null, reset),
        cmocka_unit_test_setup(test_nested_object_and_array_are_comma_separated, reset),
        cmocka_unit_test_setup(test_unclosed_containers_are_closed_by_end, reset),
        cmocka_unit_test_setup(test_mismatched_close_refuses_line, reset),
        cmocka_unit_test_setup(test_overflow_is_sticky_and_nothing_is_printed, reset),
        cmocka_unit_test_setup(test_emit_prints_exactly_the_built_line, reset),
        cmocka_unit_test_setup(test_textf_formats_and_prints, reset),
        cmocka_unit_test_setup(test_fmt_fixed_too_small_buffer_gives_empty, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
