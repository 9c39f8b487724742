/* test_runner_merge.c - JUnit parsing, totals and the merged verdict of
 * `gemlab merge` (emu/runner/merge.c) on synthetic shard outputs; crafted
 * run directories escaped in index.html/report.md (docs/SECURITY.md R6); incomplete
 * run directories flagged (docs/SECURITY.md D1). */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include "../../common/rm_tree.h"
#include "../../common/slurp.h"

#include "merge.h"

#define SUITE(k, n, body) \
    "<?xml version=\"1.0\"?>\n<testsuite name=\"qemu-test-" #k "-of-" #n "\" tests=\"9\" time=\"12\">\n" body \
    "</testsuite>\n"
#define PASS(x) "  <testcase classname=\"qemu-test.baremetal\" name=\"" x "\" time=\"3\"/>\n"
#define FAIL(x) "  <testcase classname=\"qemu-test.baremetal\" name=\"" x "\" time=\"3\"><failure message=\"exit 1\">a &lt; b</failure></testcase>\n"
#define SKIP(x) "  <testcase classname=\"qemu-test.linux\" name=\"" x "\" time=\"0\"><skipped message=\"missing build\"/></testcase>\n"
#define TODO(x) "  <testcase classname=\"qemu-test.linux\" name=\"" x "\" time=\"0\"><skipped message=\"TODO: known gap\"/></testcase>\n"

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
    /* "-K-of-N" needs its '-': x3-of-4 is a name, not shard 3 of 4 */
    memset(&m, 0, sizeof(m));
    assert_int_equal(mg_add_junit(&m, "<testsuite name=\"x3-of-4\">" PASS("a") "</testsuite>", "qemu-test.xml",
                                  stderr), 0);
    assert_int_equal(m.suites[0].k, 1);
    assert_int_equal(m.suites[0].n, 1);
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

/* mg_add_junit of @xml read from @file; its messages in @msg */
static int add_junit_msg(struct mg *m, const char *xml, const char *file, char *msg, size_t len)
{
    FILE *err = tmpfile();
    size_t n;
    int rc;

    assert_non_null(err);
    rc = mg_add_junit(m, xml, file, err);
    rewind(err);
    n = fread(msg, 1, len - 1, err);
    msg[n] = '\0';
    fclose(err);
    return rc;
}

/* explore27 #15: a suite that calls itself shard 3 of 2, or whose numbers
 * overflowed int inside sscanf, was taken as shard 1 of 1 and the merge
 * passed.  Refused, naming the file and the suite; so is a file named so. */
static void test_shard_out_of_range_is_refused(void **state)
{
    static const char *const bad[] = {
        "s-3-of-2", "s-0-of-2", "s-1-of-0", "s-1-of-257", "s-99999999999999-of-2", "s-1-of-4294967298",
        "s-1-of-99999999999999999999999",
    };
    char xml[256], msg[512];
    struct mg m = { 0 };

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(xml, sizeof(xml), "<testsuite name=\"%s\">" PASS("a") "</testsuite>", bad[i]);
        assert_int_equal(add_junit_msg(&m, xml, "out/g.xml", msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "out/g.xml"));
        assert_non_null(strstr(msg, bad[i]));
        assert_non_null(strstr(msg, "K-of-N"));
    }
    assert_int_equal(add_junit_msg(&m, "<testsuite name=\"x\"/>", "out/qemu-test-3-of-2.xml", msg, sizeof(msg)),
                     -EINVAL);
    assert_non_null(strstr(msg, "out/qemu-test-3-of-2.xml"));
    assert_int_equal(m.nsuites, 0);    /* nothing half-added */
    /* in range, and not shard names at all, as before */
    assert_int_equal(mg_add_junit(&m, "<testsuite name=\"qemu-test-256-of-256\"/>", "a.xml", stderr), 0);
    assert_int_equal(m.suites[0].k, 256);
    assert_int_equal(mg_add_junit(&m, "<testsuite name=\"a-of-b-02-of-03\"/>", "b.xml", stderr), 0);
    assert_int_equal(m.suites[1].k, 2);
    assert_int_equal(m.suites[1].n, 3);
    assert_int_equal(mg_add_junit(&m, "<testsuite name=\"1-of-2\"/>", "c.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, "<testsuite name=\"s-x-of-2\"/>", "d.xml", stderr), 0);
    assert_int_equal(m.suites[3].k, 1);
    assert_int_equal(m.suites[3].n, 1);
    mg_free(&m);
}

/* explore27 #15: time="-5" or "inf" went into the totals (index.json
 * time_s).  A suite's or a case's time must be seconds 0..1e9; absent or
 * empty is unknown, as before. */
static void test_time_must_be_seconds(void **state)
{
    static const char *const bad[] = { "-5", "inf", "nan", "INF", "1e308", "1e400", "0x10", " 5", "+5", "12abc", "." };
    static const char *const good[] = { "0", "12", "3.250", ".5", "1e-05", "1e9", "" };
    char xml[256], msg[512];
    struct mg m = { 0 };

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(xml, sizeof(xml), "<testsuite name=\"qemu-test\" time=\"%s\">" PASS("a") "</testsuite>", bad[i]);
        assert_int_equal(add_junit_msg(&m, xml, "s.xml", msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "s.xml: <testsuite name=\"qemu-test\"> time=\""));
        assert_non_null(strstr(msg, bad[i]));
        snprintf(xml, sizeof(xml), "<testsuite name=\"qemu-test\"><testcase classname=\"c\" name=\"n1\" "
                 "time=\"%s\"/></testsuite>", bad[i]);
        assert_int_equal(add_junit_msg(&m, xml, "t.xml", msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "t.xml: <testcase name=\"n1\"> time=\""));
    }
    assert_int_equal(m.ncases, 0);
    mg_free(&m);
    memset(&m, 0, sizeof(m));
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        snprintf(xml, sizeof(xml), "<testsuite name=\"qemu-test-%zu-of-%zu\" time=\"%s\"><testcase classname=\"c\" "
                 "name=\"n%zu\" time=\"%s\"/></testsuite>", i + 1, sizeof(good) / sizeof(good[0]), good[i], i,
                 good[i]);
        assert_int_equal(mg_add_junit(&m, xml, "g.xml", stderr), 0);
    }
    mg_evaluate(&m);
    assert_true(m.pass);
    assert_float_equal(m.time, 0 + 12 + 3.25 + .5 + 1e-05 + 1e9, 1e-3);
    assert_true(isnan(m.cases[6].time));
    mg_free(&m);
}

/* qemu-test.sh slices the scenarios by a hash of their names, so a shard
 * can draw none (55 scenarios over up to 256 shards): an empty suite is a
 * shard that ran, not a problem. */
static void test_empty_shard_counts(void **state)
{
    struct mg m = { 0 };

    (void)state;
    assert_int_equal(mg_add_junit(&m, SUITE(1, 2, PASS("a")), "s1.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, SUITE(2, 2, ""), "s2.xml", stderr), 0);
    mg_evaluate(&m);
    assert_true(m.pass);
    assert_int_equal(m.nsuites, 2);
    assert_int_equal(m.tests, 1);
    mg_free(&m);
    /* but shards that all ran nothing are no pass */
    memset(&m, 0, sizeof(m));
    assert_int_equal(mg_add_junit(&m, SUITE(1, 2, ""), "s1.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, SUITE(2, 2, ""), "s2.xml", stderr), 0);
    mg_evaluate(&m);
    assert_false(m.pass);
    assert_string_equal(cJSON_GetArrayItem(m.problems, 0)->valuestring, "no test case in any shard: nothing ran");
    mg_free(&m);
}

/* The duplicate check names, for each case, the first earlier case of the
 * same classname and name in another shard, in input order; the same name
 * under another classname, or twice in one shard, is no duplicate. */
static void test_duplicate_problems_name_the_first_shard(void **state)
{
    struct mg m = { 0 };

    (void)state;
    assert_int_equal(mg_add_junit(&m, SUITE(1, 3, PASS("a") PASS("a") PASS("z")), "s1.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, SUITE(2, 3, PASS("b") PASS("a") SKIP("z")), "s2.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, SUITE(3, 3, PASS("a") PASS("b")), "s3.xml", stderr), 0);
    mg_evaluate(&m);
    assert_false(m.pass);
    assert_int_equal(cJSON_GetArraySize(m.problems), 3);
    assert_string_equal(cJSON_GetArrayItem(m.problems, 0)->valuestring,
                        "a (qemu-test.baremetal) ran in qemu-test-1-of-3 and in qemu-test-2-of-3");
    assert_string_equal(cJSON_GetArrayItem(m.problems, 1)->valuestring,
                        "a (qemu-test.baremetal) ran in qemu-test-1-of-3 and in qemu-test-3-of-3");
    assert_string_equal(cJSON_GetArrayItem(m.problems, 2)->valuestring,
                        "b (qemu-test.baremetal) ran in qemu-test-2-of-3 and in qemu-test-3-of-3");
    mg_free(&m);
}

/* Names are compared whole: pytest's parametrized ids run long, and two
 * that shared their first 127 bytes were read as one case run twice. */
#define LONG150 "test_boot[linux-zc702-iperf3-tcp-reverse-parallel-4-window-256k-duration-30s-interval-1s-omit-2s-affinity-cpu0-mtu-1500-" \
                "rx-bds-64-tx-bds-64-pbufs-512-"
static void test_long_names_are_compared_whole(void **state)
{
    struct mg m = { 0 };

    (void)state;
    assert_true(strlen(LONG150) > 127);
    assert_int_equal(mg_add_junit(&m, SUITE(1, 2, PASS(LONG150 "a]")), "s1.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, SUITE(2, 2, PASS(LONG150 "b]")), "s2.xml", stderr), 0);
    mg_evaluate(&m);
    assert_true(m.pass);
    assert_int_equal(cJSON_GetArraySize(m.problems), 0);
    assert_string_equal(m.cases[1].name, LONG150 "b]");
    mg_free(&m);
}

/* explore27 #5: the duplicate check compared every case with every earlier
 * one: 80 000 cases took 10 s (52 s with SAN=1), and a 64 MiB input holds
 * over a million.  120 000 distinct cases and one duplicate: the one is
 * found.  No CPU-time bound: speed goals belong in `make bench`, and one
 * failed here under SAN on a loaded host. */
static void test_many_cases_one_duplicate_found(void **state)
{
    enum { PER = 60000 };
    char *xml[2];
    struct mg m = { 0 };

    (void)state;
    for (int k = 0; k < 2; k++) {
        size_t cap = (size_t)PER * 64 + 256, o;
        xml[k] = malloc(cap);
        assert_non_null(xml[k]);
        o = (size_t)snprintf(xml[k], cap, "<testsuite name=\"qemu-test-%d-of-2\">\n", k + 1);
        for (int i = 0; i < PER; i++)   /* shard 2's last case repeats shard 1's s0-17 */
            o += (size_t)snprintf(xml[k] + o, cap - o, "<testcase classname=\"c\" name=\"s%d-%d\"/>\n",
                                  k && i == PER - 1 ? 0 : k, k && i == PER - 1 ? 17 : i);
        snprintf(xml[k] + o, cap - o, "</testsuite>\n");
    }
    assert_int_equal(mg_add_junit(&m, xml[0], "s1.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, xml[1], "s2.xml", stderr), 0);
    free(xml[0]);
    free(xml[1]);
    mg_evaluate(&m);
    assert_int_equal(m.tests, 2 * PER);
    assert_int_equal(cJSON_GetArraySize(m.problems), 1);
    assert_string_equal(cJSON_GetArrayItem(m.problems, 0)->valuestring,
                        "s0-17 (c) ran in qemu-test-1-of-2 and in qemu-test-2-of-2");
    mg_free(&m);
}

/* Found while testing the above: the reader looked for each suite's
 * testcases with strstr() to the end of the text, so a file of many suites
 * took time quadratic in its size (20 000 suites before 16 MB without a
 * testcase: over 10^11 bytes compared).  Each search now stays inside its
 * suite. */
static void test_many_suites_are_all_read(void **state)
{
    enum { SUITES = 20000, PAD = 16 << 20 };
    size_t cap = (size_t)SUITES * 16 + PAD + 128, o = 0;
    char *xml = malloc(cap);
    struct mg m = { 0 };

    (void)state;
    assert_non_null(xml);
    o += (size_t)snprintf(xml + o, cap - o, "<testsuites>\n");
    for (int i = 0; i < SUITES; i++)
        o += (size_t)snprintf(xml + o, cap - o, "<testsuite/>\n");
    memset(xml + o, ' ', PAD);
    o += PAD;
    snprintf(xml + o, cap - o, "</testsuites>\n");
    assert_int_equal(mg_add_junit(&m, xml, "many.xml", stderr), 0);
    assert_int_equal(m.nsuites, SUITES);
    assert_int_equal(m.ncases, 0);
    free(xml);
    mg_free(&m);
}

/* What a blind audit of the old hand-made reader found: each of these
 * lost a failing test case (or counted a commented-out one) and the merge
 * said PASS.  libxml2 reads them as XML 1.0 has them. */
static void test_junit_read_as_xml(void **state)
{
    char msg[512];
    struct mg m = { 0 };

    (void)state;
    /* a </testsuite> inside a comment ended the suite; a commented-out
     * <testcase> with a <failure> was counted */
    assert_int_equal(mg_add_junit(&m, "<testsuite name=\"qemu-test\">" PASS("a")
                                      "<!-- end of block </testsuite> -->" FAIL("b")
                                      "<!-- <testcase classname=\"k\" name=\"ghost\"><failure/></testcase> -->"
                                      "<![CDATA[ <testcase name=\"cdata\"/> ]]>"
                                      "</testsuite>", "c.xml", stderr), 0);
    /* a TAB or CR after the element name, white space around '=', a '>'
     * inside an attribute value, a character reference */
    assert_int_equal(mg_add_junit(&m, "<testsuites>\r\n<testsuite\r\n\tname = 'qemu-test-x'>"
                                      "<testcase classname=\"k\" name=\"a>b\" time=\"1\"/>"
                                      "<testcase classname=\"k\" name=\"c&#38;d\"><failure message=\"x\"/></testcase>"
                                      "<testcase classname=\"k\" name=\"e\"><skipped message=\"TODO: cpus > 1\"/></testcase>"
                                      "</testsuite></testsuites>", "t.xml", stderr), 0);
    assert_int_equal(m.nsuites, 2);
    assert_int_equal(m.ncases, 5);
    assert_string_equal(m.cases[0].name, "a");
    assert_string_equal(m.cases[1].name, "b");
    assert_int_equal(m.cases[1].status, MG_FAIL);
    assert_string_equal(m.suites[1].name, "qemu-test-x");
    assert_string_equal(m.cases[2].name, "a>b");
    assert_int_equal(m.cases[2].status, MG_PASS);
    assert_string_equal(m.cases[3].name, "c&d");
    assert_int_equal(m.cases[3].status, MG_FAIL);
    assert_string_equal(m.cases[4].why, "TODO: cpus > 1");
    assert_int_equal(m.cases[4].status, MG_TODO);
    /* what goes into our junit.xml is well-formed: the comment is whole */
    assert_non_null(strstr(m.suites[0].xml, "<!-- end of block </testsuite> -->"));
    mg_free(&m);

    /* a suite inside a suite: the outer one's later cases were lost */
    memset(&m, 0, sizeof(m));
    assert_int_equal(add_junit_msg(&m, "<testsuites><testsuite name=\"qemu-test-1-of-1\">\n"
                                       "<testsuite name=\"inner\">" PASS("a") "</testsuite>\n" FAIL("b")
                                       "</testsuite></testsuites>", "nest.xml", msg, sizeof(msg)), -EINVAL);
    assert_string_equal(msg, "nest.xml:2: a <testsuite> inside <testsuite name=\"qemu-test-1-of-1\">: nested "
                             "suites are not read; put each under <testsuites>\n");
    mg_free(&m);
    /* not XML, with the line; a DOCTYPE (its entities could expand) */
    memset(&m, 0, sizeof(m));
    assert_int_equal(add_junit_msg(&m, "<testsuite name=\"a\">\n<testcase name=\"b\">\n", "y.xml", msg,
                                   sizeof(msg)), -EINVAL);
    assert_non_null(strstr(msg, "y.xml:3: not well-formed XML: "));
    assert_int_equal(add_junit_msg(&m, "<!DOCTYPE testsuite [<!ENTITY x \"y\">]><testsuite name=\"&x;\"/>", "d.xml",
                                   msg, sizeof(msg)), -EINVAL);
    assert_string_equal(msg, "d.xml: a <!DOCTYPE>: JUnit files have none, and its entities are not expanded here\n");
    assert_int_equal(m.nsuites, 0);
    mg_free(&m);
}

/* A suite that says it failed more than its cases show lost some: the
 * merge says so instead of passing */
static void test_declared_failures_must_be_there(void **state)
{
    struct mg m = { 0 };

    (void)state;
    assert_int_equal(mg_add_junit(&m, "<testsuite name=\"qemu-test\" tests=\"5\" failures=\"2\" errors=\"1\">"
                                      FAIL("a") PASS("b") "</testsuite>", "s.xml", stderr), 0);
    mg_evaluate(&m);
    assert_false(m.pass);
    assert_int_equal(m.failed, 1);
    assert_int_equal(cJSON_GetArraySize(m.problems), 1);
    assert_string_equal(cJSON_GetArrayItem(m.problems, 0)->valuestring,
                        "qemu-test (s.xml) declares 3 failures and errors, but 1 of its test cases failed");
    mg_free(&m);
    /* as many as declared, or none declared: no problem */
    memset(&m, 0, sizeof(m));
    assert_int_equal(mg_add_junit(&m, "<testsuite name=\"qemu-test-1-of-2\" failures=\"1\">" FAIL("a")
                                      "</testsuite>", "s1.xml", stderr), 0);
    assert_int_equal(mg_add_junit(&m, "<testsuite name=\"qemu-test-2-of-2\" failures=\"many\">" PASS("b")
                                      "</testsuite>", "s2.xml", stderr), 0);
    mg_evaluate(&m);
    assert_int_equal(cJSON_GetArraySize(m.problems), 0);
    mg_free(&m);
}

/* docs/SECURITY.md R7: a shard's <failure> holding a guest's raw console bytes (an
 * OSC title sequence, BEL, 0xff) is copied into junit.xml only as XML 1.0
 * characters; line ends stay. */
static void test_control_chars_and_bad_utf8_in_a_shard_are_cleaned(void **state)
{
    (void)state;
    struct mg m = { 0 };
    const char *xml = SUITE(1, 1, "  <testcase classname=\"qemu-test.baremetal\" name=\"a\" time=\"3\">"
                                  "<failure message=\"exit 1\">\x1b]0;x\x07\xff\nnext</failure></testcase>\n");
    assert_int_equal(mg_add_junit(&m, xml, "qemu-test.xml", stderr), 0);
    assert_int_equal(m.nsuites, 1);
    assert_non_null(strstr(m.suites[0].xml, "^[]0;x^G\xEF\xBF\xBD\nnext</failure>"));
    for (const unsigned char *c = (const unsigned char *)m.suites[0].xml; *c; c++)
        assert_true(*c >= 0x20 || *c == '\n' || *c == '\t' || *c == '\r');
    assert_null(strchr(m.suites[0].xml, '\xff'));
    mg_evaluate(&m);
    assert_false(m.pass);
    mg_free(&m);
}

/* ---- gemlab merge on crafted run directories ---- */

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *get(const char *path)
{
    char *buf = slurp(path);

    assert_non_null(buf);
    return buf;
}

/* mg_merge of one INPUT into @out, as `gemlab merge --out OUT INPUT`
 * (cmd_merge.c): its exit code, 0 PASS, 1 FAIL, 2 bad input. */
static int merge(const char *in, const char *out, bool skips_fail)
{
    const char *inputs[] = { in };
    struct mg_opts o = { .inputs = inputs, .ninputs = 1, .out = out, .skips_fail = skips_fail };
    bool pass;

    return mg_merge(&o, &pass, stdout, stderr) ? 2 : pass ? 0 : 1;
}

/* A shard's output directory keeps earlier runs' directories (`make
 * qemu-test SCENARIO=x` leaves the others): the report lists only the
 * runs its JUnit names, so an old FAIL does not stand under a PASS. */
static void test_merge_leaves_out_runs_no_junit_names(void **state)
{
    char top[64], run[128], path[256];
    char *md;

    (void)state;
    snprintf(top, sizeof(top), "/tmp/gemlab-mg-XXXXXX");
    assert_non_null(mkdtemp(top));
    for (int i = 0; i < 2; i++) {
        snprintf(run, sizeof(run), "%s/%s-baremetal", top, i ? "stale" : "a");
        assert_int_equal(mkdir(run, 0700), 0);
        snprintf(path, sizeof(path), "%s/results.json", run);
        put(path, i ? "{\"schema\":\"gemlab-results-2\",\"scenario\":{\"name\":\"stale\"},"
                      "\"conditions\":{\"firmware\":\"baremetal\"},\"verdict\":{\"result\":\"FAIL\",\"reason\":\"old\"}}"
                    : "{\"schema\":\"gemlab-results-2\",\"scenario\":{\"name\":\"a\"},"
                      "\"conditions\":{\"firmware\":\"baremetal\"},\"verdict\":{\"result\":\"PASS\",\"reason\":\"\"}}");
    }
    snprintf(path, sizeof(path), "%s/qemu-test.xml", top);
    put(path, SUITE(1, 1, PASS("a")));
    assert_int_equal(merge(top, top, false), 0);
    snprintf(path, sizeof(path), "%s/report.md", top);
    md = get(path);
    assert_non_null(strstr(md, "a-baremetal"));
    assert_null(strstr(md, "stale"));
    free(md);
    rm_tree(top);
}

static void test_merge_escapes_crafted_runs(void **state)
{
    char top[64], run[128], path[256];
    char *html, *md;
    int rc;

    (void)state;
    snprintf(top, sizeof(top), "/tmp/gemlab-mg-XXXXXX");
    assert_non_null(mkdtemp(top));
    /* a run directory named like a URL scheme, results with markup */
    snprintf(run, sizeof(run), "%s/javascript:alert(1)", top);
    assert_int_equal(mkdir(run, 0700), 0);
    snprintf(path, sizeof(path), "%s/results.json", run);
    put(path, "{\"schema\":\"gemlab-results-2\",\"scenario\":{\"name\":\"<img src=x onerror=1>\"},\"conditions\":{\"firmware\":\"b|`\"},"
              "\"verdict\":{\"result\":\"x\\\"><script>alert(1)</script>\",\"reason\":\"\"},"
              "\"iperf\":{\"throughput_bps\":1e6}}");
    snprintf(path, sizeof(path), "%s/qemu-test.xml", top);
    /* its case, so that the run is in the report (runs_in_junit) */
    put(path, SUITE(1, 1, "  <testcase classname=\"qemu-test.b|`\" name=\"&lt;img src=x onerror=1&gt;\" time=\"3\"/>\n"));
    /* --out the input directory: the run's link is "javascript:alert(1)/..." */
    rc = merge(top, top, false);
    assert_int_equal(rc, 0);
    snprintf(path, sizeof(path), "%s/index.html", top);
    html = get(path);
    snprintf(path, sizeof(path), "%s/report.md", top);
    md = get(path);
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "<img"));
    assert_null(strstr(html, "href=\"javascript:"));
    assert_non_null(strstr(html, "href=\"javascript%3Aalert%281%29/results.json\""));
    for (const char *p = html; (p = strstr(p, "class=\"")); p++)
        for (const char *v = p + 7; *v && *v != '"'; v++)
            if (!(isalpha((unsigned char)*v) || *v == '_'))
                fail_msg("class attribute with '%c': %.40s", *v, p);
    for (const char *p = md; (p = strchr(p, '<')); p++)
        if (p == md || p[-1] != '\\')
            fail_msg("unescaped '<' in report.md: %.40s", p);
    assert_null(strstr(md, "](javascript:"));
    free(html);
    free(md);
    rm_tree(top);
}

/* A merge into a directory it walks (its own --out under an INPUT, or
 * --out the INPUT itself) read its own junit.xml the second time and
 * counted every shard twice: "shard 1 of 1 given more than once".  A NUL
 * byte ended the text early and the suites after it went unread. */
static void test_merge_again_and_nul(void **state)
{
    char top[64], path[256], out[128];
    static const char nul[] = "<testsuites><testsuite name=\"qemu-test-1-of-2\">" PASS("a") "</testsuite>\0"
                              "<testsuite name=\"qemu-test-2-of-2\">" FAIL("b") "</testsuite></testsuites>";
    FILE *f, *err;
    const char *inputs[1];
    struct mg_opts o = { .inputs = inputs, .ninputs = 1 };
    char msg[512];
    size_t n;
    bool pass;

    (void)state;
    snprintf(top, sizeof(top), "/tmp/gemlab-mg-XXXXXX");
    assert_non_null(mkdtemp(top));
    snprintf(path, sizeof(path), "%s/s1", top);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/s1/qemu-test-1-of-1.xml", top);
    put(path, SUITE(1, 1, PASS("a")));
    snprintf(out, sizeof(out), "%s/merged", top);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(merge(top, out, false), 0);
        snprintf(path, sizeof(path), "%s/s1", top);
        assert_int_equal(merge(path, path, false), 0);
    }
    /* a run whose results.json is cut: the merge says so, not PASS */
    snprintf(path, sizeof(path), "%s/s1/cut", top);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/s1/cut/results.json", top);
    put(path, "{\"schema\":\"gemlab-results-2\",\"scen");
    assert_int_equal(merge(top, out, false), 1);
    unlink(path);
    snprintf(path, sizeof(path), "%s/s1/cut", top);
    rmdir(path);
    /* the NUL: refused, at its offset */
    snprintf(path, sizeof(path), "%s/nul.xml", top);
    assert_non_null(f = fopen(path, "w"));
    assert_int_equal(fwrite(nul, 1, sizeof(nul) - 1, f), sizeof(nul) - 1);
    fclose(f);
    inputs[0] = path;
    o.out = out;
    assert_non_null(err = tmpfile());
    assert_int_equal(mg_merge(&o, &pass, stdout, err), -EINVAL);
    rewind(err);
    n = fread(msg, 1, sizeof(msg) - 1, err);
    msg[n] = '\0';
    fclose(err);
    assert_non_null(strstr(msg, "nul.xml: a NUL byte at offset "));
    assert_false(pass);
    rm_tree(top);
}

/* A test name holding an XML entity is text once read: the reports
 * escape it once for their own format (it came out "&amp;amp;") */
static void test_merge_escapes_a_test_name_once(void **state)
{
    char top[64], path[256], out[128];
    char *html;

    (void)state;
    snprintf(top, sizeof(top), "/tmp/gemlab-mg-XXXXXX");
    assert_non_null(mkdtemp(top));
    snprintf(path, sizeof(path), "%s/qemu-test.xml", top);
    put(path, SUITE(1, 1, PASS("a&amp;b &lt;c&gt;")));
    snprintf(out, sizeof(out), "%s/merged", top);
    assert_int_equal(merge(path, out, false), 0);
    snprintf(path, sizeof(path), "%s/index.html", out);
    html = get(path);
    assert_non_null(strstr(html, "<td>a&amp;b &lt;c&gt;</td>"));
    assert_null(strstr(html, "&amp;amp;"));
    assert_null(strstr(html, "&amp;lt;"));
    free(html);
    rm_tree(top);
}

static void test_merge_flags_incomplete_run(void **state)
{
    char top[64], run[128], path[256], out[128];
    char *idx;

    (void)state;
    snprintf(top, sizeof(top), "/tmp/gemlab-mg-XXXXXX");
    assert_non_null(mkdtemp(top));
    snprintf(run, sizeof(run), "%s/clean_1g", top);
    assert_int_equal(mkdir(run, 0700), 0);
    /* an earlier run's PASS next to the marker of a re-run that was killed */
    snprintf(path, sizeof(path), "%s/results.json", run);
    put(path, "{\"schema\":\"gemlab-results-2\",\"scenario\":{\"name\":\"clean_1g\"},\"verdict\":{\"result\":\"PASS\"}}");
    snprintf(path, sizeof(path), "%s/run.in-progress", run);
    put(path, "2026-12-01T15:00:00Z pid 1\n");
    snprintf(path, sizeof(path), "%s/qemu-test.xml", top);
    put(path, SUITE(1, 1, PASS("clean_1g")));
    snprintf(out, sizeof(out), "%s/merged", top);
    assert_int_equal(merge(top, out, false), 1);
    snprintf(path, sizeof(path), "%s/index.json", out);
    idx = get(path);
    assert_non_null(strstr(idx, "\"verdict\":\t\"FAIL\""));
    assert_non_null(strstr(idx, "clean_1g is incomplete"));
    free(idx);
    rm_tree(top);
}


/* ---- skips (issue 20, "a skip is not a pass") ---- */

/* One shard file in a fresh directory; gemlab merge over it as with CI
 * set to @ci (NULL: unset), which cmd_merge.c turns into skips_fail when
 * it is "true".  Returns the exit code; *idx, *md get index.json and
 * report.md (caller frees). */
static int merge_one(const char *junit, const char *ci, char **idx, char **md, char **junit_out)
{
    char top[64], path[256], out[128];
    int rc;

    snprintf(top, sizeof(top), "/tmp/gemlab-mg-XXXXXX");
    assert_non_null(mkdtemp(top));
    snprintf(path, sizeof(path), "%s/qemu-test.xml", top);
    put(path, junit);
    snprintf(out, sizeof(out), "%s/merged", top);
    rc = merge(path, out, ci && !strcmp(ci, "true"));
    snprintf(path, sizeof(path), "%s/index.json", out);
    *idx = get(path);
    snprintf(path, sizeof(path), "%s/report.md", out);
    *md = get(path);
    if (junit_out) {
        snprintf(path, sizeof(path), "%s/junit.xml", out);
        *junit_out = get(path);
    }
    rm_tree(top);
    return rc;
}

/* Outside CI a skip is counted on its own (not as passed) and listed with
 * its reason; the merge passes. */
static void test_skip_counted_apart_outside_ci(void **state)
{
    char *idx, *md;

    (void)state;
    assert_int_equal(merge_one(SUITE(1, 1, PASS("a") SKIP("b")), NULL, &idx, &md, NULL), 0);
    assert_non_null(strstr(idx, "\"passed\":\t1,"));
    assert_non_null(strstr(idx, "\"skipped\":\t1,"));
    assert_non_null(strstr(md, "1 passed, 0 failed, 1 skipped"));
    assert_non_null(strstr(md, "## Skipped"));
    assert_non_null(strstr(md, "- b (qemu-test.linux, shard 1/1): missing build"));
    free(idx);
    free(md);
}

/* CI=true: the same skip fails the merge, and the problem names the case,
 * its reason and how to mark a known gap todo. */
static void test_skip_fails_the_merge_under_ci(void **state)
{
    char *idx, *md, *junit;

    (void)state;
    assert_int_equal(merge_one(SUITE(1, 1, PASS("a") SKIP("b")), "true", &idx, &md, &junit), 1);
    assert_non_null(strstr(idx, "\"verdict\":\t\"FAIL\""));
    assert_non_null(strstr(idx, "\"skipped\":\t1,"));
    assert_non_null(strstr(idx, "b (qemu-test.linux, shard 1/1) was skipped (missing build): under CI=true"));
    assert_non_null(strstr(idx, "todo = REASON"));
    assert_non_null(strstr(md, "b (qemu-test.linux, shard 1/1) was skipped"));
    /* the merged JUnit carries it as a failing case */
    assert_non_null(strstr(junit, "failures=\"1\""));
    free(idx);
    free(md);
    free(junit);
}

/* A case qemu-test.sh marked TODO (scenario `todo`) is counted as todo, not
 * as skipped or passed, and is allowed under CI=true. */
static void test_todo_counted_apart_and_allowed_under_ci(void **state)
{
    char *idx, *md;

    (void)state;
    assert_int_equal(merge_one(SUITE(1, 1, PASS("a") TODO("t")), "true", &idx, &md, NULL), 0);
    assert_non_null(strstr(idx, "\"verdict\":\t\"PASS\""));
    assert_non_null(strstr(idx, "\"passed\":\t1,"));
    assert_non_null(strstr(idx, "\"skipped\":\t0,"));
    assert_non_null(strstr(idx, "\"todo\":\t1,"));
    assert_non_null(strstr(md, "1 passed, 0 failed, 0 skipped, 1 todo"));
    assert_non_null(strstr(md, "- t (qemu-test.linux, shard 1/1): TODO: known gap"));
    free(idx);
    free(md);
    /* CI=false (or anything but "true") is not CI */
    assert_int_equal(merge_one(SUITE(1, 1, SKIP("b")), "false", &idx, &md, NULL), 0);
    free(idx);
    free(md);
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
        cmocka_unit_test(test_shard_out_of_range_is_refused),
        cmocka_unit_test(test_time_must_be_seconds),
        cmocka_unit_test(test_empty_shard_counts),
        cmocka_unit_test(test_duplicate_problems_name_the_first_shard),
        cmocka_unit_test(test_long_names_are_compared_whole),
        cmocka_unit_test(test_many_cases_one_duplicate_found),
        cmocka_unit_test(test_many_suites_are_all_read),
        cmocka_unit_test(test_junit_read_as_xml),
        cmocka_unit_test(test_declared_failures_must_be_there),
        cmocka_unit_test(test_control_chars_and_bad_utf8_in_a_shard_are_cleaned),
        cmocka_unit_test(test_merge_escapes_crafted_runs),
        cmocka_unit_test(test_merge_leaves_out_runs_no_junit_names),
        cmocka_unit_test(test_merge_escapes_a_test_name_once),
        cmocka_unit_test(test_merge_again_and_nul),
        cmocka_unit_test(test_merge_flags_incomplete_run),
        cmocka_unit_test(test_skip_counted_apart_outside_ci),
        cmocka_unit_test(test_skip_fails_the_merge_under_ci),
        cmocka_unit_test(test_todo_counted_apart_and_allowed_under_ci),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
