/* test_runner_report.c - per-stream interval parsing behind the report's
 * charts (emu/runner/report.c): iperf 2 CSV and iperf3 JSON. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report.h"

static void test_iperf2_tcp_parallel(void **state)
{
    (void)state;
    static struct rp_streams st;
    const char *csv =
        "20261130151232,127.0.0.1,52100,127.0.0.1,5001,3,0.0-1.0,1000,100000000\n"
        "20261130151232,127.0.0.1,52102,127.0.0.1,5001,4,0.0-1.0,1000,200000000\n"
        "20261130151232,127.0.0.1,0,127.0.0.1,5001,-1,0.0-1.0,2000,300000000\n"
        "20261130151233,127.0.0.1,52100,127.0.0.1,5001,3,1.0-2.0,1000,110000000\n"
        "20261130151233,127.0.0.1,52102,127.0.0.1,5001,4,1.0-2.0,1000,190000000\n"
        "garbage line\n"
        "20261130151242,127.0.0.1,52100,127.0.0.1,5001,3,0.0-10.0,1000,105000000\n"; /* summary: skipped */
    memset(&st, 0, sizeof(st));
    rp_parse_iperf2_csv(csv, "dir/iperf.csv", &st);
    assert_int_equal(st.n, 3);
    assert_string_equal(st.s[0].label, "iperf.csv #3");
    assert_string_equal(st.s[2].label, "iperf.csv sum");
    assert_int_equal(st.s[0].n, 2);
    assert_float_equal(st.s[0].t[1], 2.0, 1e-9);
    assert_float_equal(st.s[0].bps[1], 110e6, 1);
    assert_float_equal(st.s[1].bps[0], 200e6, 1);
    assert_true(isnan(st.s[0].jitter_ms[0]));
}

static void test_iperf2_udp_server(void **state)
{
    (void)state;
    static struct rp_streams st;
    const char *csv = "20261130151318,10.0.2.15,5001,10.0.2.2,41786,1,0.0-1.0,6251910,50015280,0.125,10,4253,0.235,0\n";
    memset(&st, 0, sizeof(st));
    rp_parse_iperf2_csv(csv, "iperf.csv", &st);
    assert_int_equal(st.n, 1);
    assert_float_equal(st.s[0].jitter_ms[0], 0.125, 1e-9);
    assert_float_equal(st.s[0].lost_pct[0], 0.235, 1e-9);
}

static void test_iperf3_json(void **state)
{
    (void)state;
    static struct rp_streams st;
    const char *json =
        "{\"intervals\":["
        "{\"streams\":[{\"socket\":5,\"start\":0,\"end\":1,\"bits_per_second\":1e8,\"omitted\":true}],"
        "\"sum\":{\"omitted\":true}},"
        "{\"streams\":[{\"socket\":5,\"start\":1,\"end\":2,\"bits_per_second\":2e8},"
        "{\"socket\":7,\"start\":1,\"end\":2,\"bits_per_second\":3e8,\"jitter_ms\":0.5,\"lost_percent\":1.5}],"
        "\"sum\":{\"omitted\":false}}]}";
    memset(&st, 0, sizeof(st));
    rp_parse_iperf3_json(json, "iperf3.json", &st);
    assert_int_equal(st.n, 2);
    assert_int_equal(st.s[0].n, 1); /* the omitted second is not plotted */
    assert_float_equal(st.s[0].t[0], 2, 1e-9);
    assert_float_equal(st.s[1].bps[0], 3e8, 1);
    assert_float_equal(st.s[1].lost_pct[0], 1.5, 1e-9);
    /* not JSON: nothing, no crash */
    rp_parse_iperf3_json("{", "bad.json", &st);
    assert_int_equal(st.n, 2);
}

static void test_limits(void **state)
{
    (void)state;
    static struct rp_streams st;
    char *csv = malloc(64 * 1024);
    size_t o = 0;
    assert_non_null(csv);
    /* more streams and points than the chart keeps: capped, no overflow */
    for (int id = 0; id < RP_MAX_STREAMS + 4; id++)
        for (int t = 0; t < 3; t++)
            o += (size_t)snprintf(csv + o, 64 * 1024 - o, "1,a,1,b,2,%d,%d.0-%d.0,1,%d\n", id, t, t + 1, id);
    memset(&st, 0, sizeof(st));
    rp_parse_iperf2_csv(csv, "x\"'$(evil).csv", &st);
    assert_int_equal(st.n, RP_MAX_STREAMS);
    /* labels are safe to quote in a gnuplot script */
    assert_null(strchr(st.s[0].label, '\''));
    assert_null(strchr(st.s[0].label, '"'));
    assert_null(strchr(st.s[0].label, '$'));
    free(csv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iperf2_tcp_parallel),
        cmocka_unit_test(test_iperf2_udp_server),
        cmocka_unit_test(test_iperf3_json),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
