/* test_runner_merge.c - JUnit parsing, totals and the merged verdict of
 * `gemlab merge` (emu/runner/merge.c) on synthetic shard outputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "merge.h"

#define SUITE(k, n, body) \
    "<?xml version=\"1.0\"?>\n<testsuite name=\"qemu-test-" #k "-of-" #n "\" tests=\"9\" time=\"12\">\n" body \
    "</testsuite>\n"
#define PASS(x) "  <testcase classname=\"qemu-test.baremetal\" name=\"" x "\" time=\"3\"/>\n"
#define FAIL(x) "  <testcase classname=\"qemu-test.baremetal\" name=\"" x "\" time=\"3\"><failure message=\"exit 1\">a &lt; b</failure></testcase>\n"
#define SKIP(x) "  <testcase classname=\"qemu-test.linux\" name=\"" x "\" time=\"0\"><skipped message=\"missing build\"/></testcase>\n"

static void test_totals_pass(void **state)
{
    (void)state;
    struct mg m = { 0 };
    assert_int_equal(mg_add_junit(&m, SUITE(1, 2, PASS("a") SKIP("b")), "s1.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, SUITE(2, 2, PASS("c") PASS("d") PASS("e")), "s2.xml", stderr), 0);
    mg_evaluate(&m);
    assert_int_equal(m.nsuites, 2);
    assert_int_equal(m.n, 2);
    assert_int_equal(m.tests, 5);
    assert_int_equal(m.passed, 4);
    assert_int_equal(m.skipped, 1);
    assert_int_equal(m.failed, 0);
    assert_float_equal(m.time, 24, 1e-9);
    assert_true(m.pass);
    assert_string_equal(m.cases[1].name, "b");
    assert_string_equal(m.cases[1].classname, "qemu-test.linux");
    mg_free(&m);
}

static void test_failed_shard(void **state)
{
    (void)state;
    struct mg m = { 0 };
    assert_int_equal(mg_add_junit(&m, SUITE(1, 2, PASS("a")), "s1.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, SUITE(2, 2, FAIL("c") PASS("d")), "s2.xml", stderr), 0);
    mg_evaluate(&m);
    assert_int_equal(m.tests, 3);
    assert_int_equal(m.failed, 1);
    assert_false(m.pass);
    mg_free(&m);
}

static void test_missing_shard(void **state)
{
    (void)state;
    struct mg m = { 0 };
    assert_int_equal(mg_add_junit(&m, SUITE(1, 3, PASS("a")), "s1.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, SUITE(3, 3, PASS("c")), "s3.xml", stderr), 0);
    mg_evaluate(&m);
    assert_false(m.pass);
    assert_int_equal(cJSON_GetArraySize(m.problems), 1);
    assert_non_null(strstr(cJSON_GetArrayItem(m.problems, 0)->valuestring, "shard 2 of 3 is missing"));
    /* --expect-shards beyond what the suites say */
    m.expect_n = 4;
    mg_add_junit(&m, SUITE(2, 3, PASS("b")), "s2.xml", stderr);
    mg_evaluate(&m);
    assert_false(m.pass); /* N disagrees and shard 4 is missing */
    mg_free(&m);
}

static void test_duplicates(void **state)
{
    (void)state;
    struct mg m = { 0 };
    assert_int_equal(mg_add_junit(&m, SUITE(1, 2, PASS("a")), "s1.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, SUITE(2, 2, PASS("a")), "s2.xml", stderr), 0);
    mg_evaluate(&m);
    assert_false(m.pass); /* a scenario in two shards */
    mg_free(&m);
    memset(&m, 0, sizeof(m));
    mg_add_junit(&m, SUITE(1, 2, PASS("a")), "s1.xml", stderr);
    mg_add_junit(&m, SUITE(1, 2, PASS("a")), "s1-again.xml", stderr);
    mg_add_junit(&m, SUITE(2, 2, PASS("b")), "s2.xml", stderr);
    mg_evaluate(&m);
    assert_false(m.pass); /* shard 1 twice */
    mg_free(&m);
}

static void test_unsharded_and_file_names(void **state)
{
    (void)state;
    struct mg m = { 0 };
    const char *plain = "<testsuite name=\"qemu-test\" time=\"5\">" PASS("a") "</testsuite>";
    const char *byfile = "<testsuite name=\"whatever\">" PASS("a") "</testsuite>";
    assert_int_equal(mg_add_junit(&m, plain, "qemu-test.xml", stderr), 0);
    mg_evaluate(&m);
    assert_int_equal(m.suites[0].k, 1);
    assert_int_equal(m.suites[0].n, 1);
    assert_true(m.pass);
    mg_free(&m);
    memset(&m, 0, sizeof(m));
    assert_int_equal(mg_add_junit(&m, byfile, "out/qemu-test-2-of-2.xml", stderr), 0);
    assert_int_equal(m.suites[0].k, 2);
    assert_int_equal(m.suites[0].n, 2);
    mg_free(&m);
}

static void test_bad_junit(void **state)
{
    (void)state;
    struct mg m = { 0 };
    assert_int_not_equal(mg_add_junit(&m, "<html></html>", "x.xml", stderr), 0);
    assert_int_not_equal(mg_add_junit(&m, "<testsuite name=\"a\"><testcase name=\"b\">", "y.xml", stderr), 0);
    assert_int_not_equal(mg_add_junit(&m, "<testsuite name=\"a\"", "z.xml", stderr), 0);
    mg_free(&m);
    /* no shards at all */
    memset(&m, 0, sizeof(m));
    mg_evaluate(&m);
    assert_false(m.pass);
    mg_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_totals_pass),
        cmocka_unit_test(test_failed_shard),
        cmocka_unit_test(test_missing_shard),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_unsharded_and_file_names),
        cmocka_unit_test(test_bad_junit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
