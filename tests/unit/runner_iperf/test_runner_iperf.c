/* iperf output ingestion (real iperf 3.12 / 2.1.8 output captured on
 * loopback) and argv construction: scenario values stay single argv
 * elements, and the QEMU command line binds hostfwd to 127.0.0.1 only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

#include "iperf.h"
#include "qemu.h"
#include "scenario.h"

static char *fixture(const char *name)
{
    char path[512];
    FILE *f;
    char *buf = calloc(1, 1 << 20);
    size_t n;

    snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
    f = fopen(path, "r");
    assert_non_null(f);
    n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void test_iperf3_tcp_sums_received_and_skips_omitted(void **state)
{
    char *t = fixture("iperf3_tcp_P2_O1.json");
    cJSON *o = iperf3_parse(t);
    (void)state;
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "ok")));
    assert_true(fabs(num(o, "throughput_bps") - 3102954800.648583) < 1);
    assert_int_equal((int)num(o, "retransmits"), 5);
    assert_true(num(o, "rtt_us") > 0);
    assert_true(num(o, "rtt_min_us") > 0 && num(o, "rtt_min_us") <= num(o, "rtt_us"));
    /* three intervals, the first omitted (-O 1) */
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o, "intervals_bps")), 2);
    assert_true(num(o, "rx_bps") == num(o, "throughput_bps"));
    cJSON_Delete(o);
    free(t);
}

static void test_iperf3_udp_reads_receiver_jitter_and_loss(void **state)
{
    char *t = fixture("iperf3_udp_10M.json");
    cJSON *o = iperf3_parse(t);
    (void)state;
    assert_true(fabs(num(o, "throughput_bps") - 10069113.173644928) < 1);
    assert_true(fabs(num(o, "udp_jitter_ms") - 2.26686997634795) < 1e-9);
    assert_true(num(o, "udp_lost_pct") == 0);
    assert_null(cJSON_GetObjectItem(o, "retransmits"));
    cJSON_Delete(o);
    free(t);
}

static void test_iperf3_error_is_reported_not_ok(void **state)
{
    char *t = fixture("iperf3_refused.json");
    cJSON *o = iperf3_parse(t);
    (void)state;
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(o, "ok")));
    assert_string_equal(cJSON_GetObjectItem(o, "error")->valuestring,
                        "unable to connect to server: Connection refused");
    cJSON_Delete(o);
    free(t);
}

static void test_iperf3_garbage_and_empty(void **state)
{
    static const char *junk[] = { "", "{", "[1,2]", "{\"end\":5,\"intervals\":{}}", "null",
                                  "{\"end\":{\"sum_received\":{\"bits_per_second\":\"x\"}}}" };
    (void)state;
    for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
        cJSON *o = iperf3_parse(junk[i]);
        assert_non_null(o);
        assert_true(isnan(num(o, "throughput_bps")));
        cJSON_Delete(o);
    }
    cJSON_Delete(iperf3_parse(NULL));
}

static void test_iperf2_tcp_P2_sums_streams_and_intervals(void **state)
{
    char *t = fixture("iperf2_tcp_P2.csv");
    cJSON *o = iperf2_parse(t, "", 0, 2.0), *iv;
    (void)state;
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "ok")));
    /* no [SUM] line: both streams' bytes over the longer one's
     * 478806076 x 8 / 1883416229 s (not the rates added up) */
    assert_true(fabs(num(o, "throughput_bps") - (478806076.0 + 448921660.0) * 1883416229.0 / 478806076.0) < 1);
    iv = cJSON_GetObjectItem(o, "intervals_bps");
    assert_int_equal(cJSON_GetArraySize(iv), 2);
    assert_true(fabs(cJSON_GetArrayItem(iv, 0)->valuedouble - (2187330016.0 + 1954546144.0)) < 1);
    cJSON_Delete(o);
    free(t);
}

static void test_iperf2_udp_client_without_server_report_has_no_loss(void **state)
{
    char *t = fixture("iperf2_udp_client.csv");
    cJSON *o = iperf2_parse(t, "", 1, 2.0);
    (void)state;
    assert_true(fabs(num(o, "throughput_bps") - 10496942) < 1);
    assert_true(isnan(num(o, "udp_lost_pct")));   /* total = -1: unknown, not 0 */
    cJSON_Delete(o);
    free(t);
}

static void test_iperf2_udp_server_report_gives_loss(void **state)
{
    const char *csv = "1,10.0.2.15,5001,10.0.2.2,4000,3,0.0-10.0,12500000,10000000,0.350,120,8500,1.412,0\n";
    cJSON *o = iperf2_parse(csv, "", 1, 10.0);
    (void)state;
    assert_true(fabs(num(o, "udp_lost_pct") - 1.412) < 1e-9);
    assert_true(fabs(num(o, "udp_jitter_ms") - 0.350) < 1e-9);
    cJSON_Delete(o);
}

/* iperf 2.1.8 `-s -u -y C -i 1` against `-c -u -P 2 -b 10M -t 2` on
 * loopback: two stream reports and no [SUM] line.  The test's loss is the
 * streams' lost over their total datagrams, 1 / (1787 + 1787), not the
 * last stream's 0.056 %; the jitter is the worst stream's. */
static void test_iperf2_udp_server_P2_sums_the_streams_loss(void **state)
{
    char *t = fixture("iperf2_udp_server_P2.csv");
    cJSON *o = iperf2_parse(t, "", 1, 2.0), *sb;
    (void)state;
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "ok")));
    assert_true(fabs(num(o, "throughput_bps") - (2628360.0 + 2625420.0) * 10503603.0 / 2628360.0) < 1);
    assert_true(fabs(num(o, "udp_lost_pct") - 100.0 / 3574.0) < 1e-9);
    assert_true(fabs(num(o, "udp_jitter_ms") - 0.003) < 1e-12);
    sb = cJSON_GetObjectItem(o, "stream_bytes");
    assert_int_equal(cJSON_GetArraySize(sb), 2);
    assert_true(cJSON_GetArrayItem(sb, 0)->valuedouble == 2628360.0);
    assert_true(cJSON_GetArrayItem(sb, 1)->valuedouble == 2625420.0);
    cJSON_Delete(o);
    free(t);
}

/* The same from the Linux image's iperf 2.1.8 (armhf) against the peer's
 * -P 2 client: its CSV prints lost and total (intmax_t) with %d, so on
 * armhf total reads 0 and the fields after it are garbage.  The rate is
 * right (PRIdMAX); the loss is unknown, never 0 %. */
static void test_iperf2_udp_server_armhf_misprint_leaves_loss_unknown(void **state)
{
    char *t = fixture("iperf2_udp_server_P2_armhf.csv");
    cJSON *o = iperf2_parse(t, "", 1, 3.0);
    (void)state;
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "ok")));
    assert_true(fabs(num(o, "throughput_bps") - (112465290.0 + 112388850.0) * 300021548.0 / 112465290.0) < 1);
    assert_true(isnan(num(o, "udp_lost_pct")));
    assert_true(isnan(num(o, "udp_jitter_ms")));
    cJSON_Delete(o);
    free(t);
}

/* The agent's `run` answer as the runner keeps it: console strings are
 * cleaned, so the output's newlines are "^J" (inst.c). */
static cJSON *agent_run_msg(const char *csv, int exit_status)
{
    cJSON *m = cJSON_CreateObject();
    char *out = calloc(1, 2 * strlen(csv) + 1), *o = out;

    for (const char *p = csv; *p; p++) {
        if (*p == '\n') {
            *o++ = '^';
            *o++ = 'J';
        } else {
            *o++ = *p;
        }
    }
    cJSON_AddStringToObject(m, "type", "result");
    cJSON_AddStringToObject(m, "cmd", "run");
    cJSON_AddStringToObject(m, "output", out);
    cJSON_AddNumberToObject(m, "exit", exit_status);
    free(out);
    return m;
}

static void test_agent_result_reads_the_run_output(void **state)
{
    char *t = fixture("iperf2_udp_server_P2.csv");
    cJSON *m = agent_run_msg(t, 0), *r = iperf2_agent_result(m, "server", true, 2.0, NULL, 0);
    (void)state;
    assert_string_equal(cJSON_GetObjectItem(r, "role")->valuestring, "server");
    assert_string_equal(cJSON_GetObjectItem(r, "test")->valuestring, "iperf");
    assert_true(fabs(num(r, "bps") - (2628360.0 + 2625420.0) * 10503603.0 / 2628360.0) < 1);
    assert_true(fabs(num(r, "loss_pct") - 100.0 / 3574.0) < 1e-9);
    assert_true(fabs(num(r, "jitter_us") - 3.0) < 1e-9);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r, "stream_bytes")), 2);
    /* the two -i 1 rows of each second, added (the 0.0-2.0 rows are the
     * streams' totals, not an interval) */
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r, "intervals_bps")), 2);
    assert_true(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "intervals_bps"), 0)->valuedouble == 10513440.0 * 2);
    assert_true(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "intervals_bps"), 1)->valuedouble == 10489920.0 + 10478160.0);
    assert_null(cJSON_GetObjectItem(r, "error"));
    cJSON_Delete(r);
    cJSON_Delete(m);
    /* the same output without its "^J": one line, no summary */
    m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "output", "connect failed: Connection refused^Jmore^J");
    cJSON_AddNumberToObject(m, "exit", 1);
    r = iperf2_agent_result(m, "client", false, 2.0, NULL, 0);
    assert_true(isnan(num(r, "bps")));
    assert_string_equal(cJSON_GetObjectItem(r, "error")->valuestring, "connect failed: Connection refused");
    assert_true(num(r, "exit") == 1);
    cJSON_Delete(r);
    cJSON_Delete(m);
    assert_null(iperf2_agent_result(NULL, "server", false, 2.0, NULL, 0));
    free(t);
}

/* The Linux image's iperf 2.1.8 server in a dual test (-d) against the
 * peer's client, as the agent returned it (3 s, virtual time): its
 * received stream is the one to 10.0.2.15:5001, the other is the stream it
 * connected back with.  Both show destination port 5001, so the port alone
 * cannot tell them apart. */
static void test_agent_result_splits_a_dual_server(void **state)
{
    char *t = fixture("iperf2_linux_server_dual.csv");
    cJSON *m = agent_run_msg(t, 0), *r = iperf2_agent_result(m, "server", false, 3.0, "10.0.2.15", 5001);
    (void)state;
    assert_true(fabs(num(r, "bps") - 544658088.0) < 1);      /* 0.0-3.0 of 10.0.2.2:59049 -> :5001 */
    assert_true(fabs(num(r, "tx_bps") - 585957006.0) < 1);   /* 0.0-3.0 of 10.0.2.15:41288 -> :5001 */
    assert_null(cJSON_GetObjectItem(r, "error"));
    assert_null(cJSON_GetObjectItem(r, "intervals_bps"));    /* -d's rows mix both directions */
    cJSON_Delete(r);
    /* without the address every line matches the port: both streams
     * would count as received */
    r = iperf2_agent_result(m, "server", false, 3.0, NULL, 5001);
    assert_true(num(r, "bps") > 1.1e9);
    assert_true(isnan(num(r, "tx_bps")));
    cJSON_Delete(r);
    cJSON_Delete(m);
    free(t);
}

/* found by tests/fuzz/runner_iperf: infinities must not reach results.json */
static void test_infinities_are_unknown(void **state)
{
    const char *csv = "1,a,1,b,2,3,0.0-10.0,100,400000,1e999,0,5,21e3080,0\n";
    cJSON *o = iperf2_parse(csv, "", 1, 10.0);
    cJSON *j = iperf3_parse("{\"end\":{\"sum_received\":{\"bits_per_second\":1e999},"
                            "\"sum_sent\":{\"retransmits\":-1e999}},\"intervals\":[{\"sum\":{\"bits_per_second\":1e999}}]}");
    char *text;
    (void)state;
    assert_true(isnan(num(o, "udp_lost_pct")));
    assert_true(isnan(num(o, "udp_jitter_ms")));
    assert_true(isnan(num(j, "throughput_bps")));
    assert_true(isnan(num(j, "retransmits")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "intervals_bps")), 0);
    text = cJSON_PrintUnformatted(j);
    assert_null(strstr(text, "inf"));
    free(text);
    cJSON_Delete(o);
    cJSON_Delete(j);
}

/* found by tests/fuzz/runner_iperf: two finite per-stream rates of 1e308
 * sum to inf; the summed summary and interval are unknown, never inf */
static void test_iperf2_stream_sum_overflow_is_unknown(void **state)
{
    const char *csv = "1,a,1,b,2,3,0.0-10.0,100,1e308\n"
                      "1,a,1,b,2,4,0.0-10.0,100,1e308\n"
                      "1,a,1,b,2,3,0.0-1.0,100,1e308\n"
                      "1,a,1,b,2,4,0.0-1.0,100,1e308\n"
                      "1,a,1,b,2,3,1.0-2.0,100,5\n";
    cJSON *o = iperf2_parse(csv, "", 0, 10.0), *iv;
    char *text;
    (void)state;
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(o, "ok")));
    assert_true(isnan(num(o, "throughput_bps")));
    iv = cJSON_GetObjectItem(o, "intervals_bps");
    assert_int_equal(cJSON_GetArraySize(iv), 1);
    assert_true(cJSON_GetArrayItem(iv, 0)->valuedouble == 5.0);
    text = cJSON_PrintUnformatted(o);
    assert_null(strstr(text, "inf"));
    assert_null(strstr(text, "null"));
    free(text);
    cJSON_Delete(o);
}

/* docs/SECURITY.md R10: a stream id beyond int (a corrupt or hostile CSV) went
 * through atoi(), which glibc wraps: 4294967295 became -1, the id of the
 * sum line, and that stream alone was taken as the total. */
static void test_iperf2_stream_id_beyond_int_is_no_sum_line(void **state)
{
    const char *csv = "1,a,1,b,2,4294967295,0.0-10.0,100,800\n"
                      "1,a,1,b,2,3,0.0-10.0,100,100\n";
    cJSON *o = iperf2_parse(csv, "", 0, 10.0);
    (void)state;
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "ok")));
    assert_true(num(o, "throughput_bps") == 900);
    cJSON_Delete(o);
}

static void test_iperf2_no_summary_keeps_stderr(void **state)
{
    cJSON *o = iperf2_parse("garbage\n,,,\n1,2,3\n", "connect failed: Connection refused\nmore", 0, 10.0);
    (void)state;
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(o, "ok")));
    assert_string_equal(cJSON_GetObjectItem(o, "error")->valuestring, "connect failed: Connection refused");
    cJSON_Delete(o);
}

/* iperf 2 -d: the board's stream is the one to the host's -L port (field
 * 4); each half is parsed on its own, throughput is their sum. */
static void test_iperf2_dual_splits_by_listen_port_and_sums(void **state)
{
    const char *csv = "20261201,127.0.0.1,40000,127.0.0.1,5001,3,0.0-10.0,1000,800\n"
                      "20261201,127.0.0.1,5001,127.0.0.1,47000,4,0.0-10.0,1000,300\n";
    cJSON *o = iperf2_parse_dual(csv, "", 0, 10.0, 47000);
    (void)state;
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "ok")));
    assert_true(num(o, "rx_bps") == 800);
    assert_true(num(o, "tx_bps") == 300);
    assert_true(num(o, "throughput_bps") == 1100);
    cJSON_Delete(o);
}

/* Found by fuzz_runner_iperf (corpus/regress_iperf2_dual_sum_inf): each
 * half finite, their sum not.  Refused with an error; no inf reaches
 * results.json, where cJSON would print it as null and the report as a
 * rate. */
static void test_iperf2_dual_halves_whose_sum_overflows_are_refused(void **state)
{
    const char *csv = "20261201,127.0.0.1,40000,127.0.0.1,5001,3,0.0-10.0,1000,1e308\n"
                      "20261201,127.0.0.1,5001,127.0.0.1,47000,4,0.0-10.0,1000,1.7e308\n";
    cJSON *o = iperf2_parse_dual(csv, "", 0, 10.0, 47000);
    (void)state;
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(o, "ok")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "throughput_bps")));
    assert_non_null(strstr(cJSON_GetObjectItem(o, "error")->valuestring, "no finite number"));
    cJSON_Delete(o);
}

/* R2 (docs/SECURITY.md): a CSV cut off without its final newline (iperf
 * killed at the traffic deadline, or the 32 MB read cap) whose lines all
 * land in one half used to be appended with its "\n" into an n+1 buffer:
 * one byte written past the heap block (ASan, SAN=1).  The input is an
 * exact-size heap copy so ASan sees the block ends. */
static void test_iperf2_dual_csv_without_final_newline_stays_in_bounds(void **state)
{
    static const char *const inputs[] = {
        "1,2,3,4,5,6,0.0-10.0,100,800",                     /* R2's example */
        "a",
        "1,2,3,4,5001,6,0.0-10.0,100,800",                  /* all to the TX half */
        "1,2,3,4,5,6,0.0-10.0,100,800\n1,2,3,4,7,6,0.0-10.0,100,900",
    };
    (void)state;
    for (size_t k = 0; k < sizeof(inputs) / sizeof(inputs[0]); k++) {
        char *csv = strdup(inputs[k]);
        cJSON *o = iperf2_parse_dual(csv, "", 0, 10.0, 5001);
        assert_non_null(o);
        assert_true(cJSON_IsBool(cJSON_GetObjectItem(o, "ok")));
        cJSON_Delete(o);
        free(csv);
    }
    cJSON *o = iperf2_parse_dual("1,2,3,4,5,6,0.0-10.0,100,800", "", 0, 10.0, 5001);
    assert_true(num(o, "throughput_bps") == 800);
    cJSON_Delete(o);
}

static bool has_arg(const struct argv_buf *a, const char *s)
{
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->v[i], s) == 0)
            return true;
    return false;
}

/* --net sim (run.c sim_traffic): the receiver's count is the goodput.
 * The lines are the shapes of the firmware's and the peer's result
 * messages (docs/PEER.md "Results"). */
static void test_sim_result_board_receives_udp(void **state)
{
    cJSON *fw = cJSON_Parse("{\"type\":\"result\",\"test\":\"iperf\",\"role\":\"server\",\"bps\":50000603,"
                            "\"loss_pct\":0.000,\"jitter_us\":18}");
    cJSON *peer = cJSON_Parse("{\"type\":\"result\",\"role\":\"client\",\"bps\":49983920}");
    cJSON *r = iperf_sim_result(false, true, peer, fw, 3);

    (void)state;
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(r, "ok")));
    assert_float_equal(cJSON_GetObjectItem(r, "throughput_bps")->valuedouble, 50000603, 0);
    assert_float_equal(cJSON_GetObjectItem(r, "rx_bps")->valuedouble, 50000603, 0);
    assert_float_equal(cJSON_GetObjectItem(r, "udp_lost_pct")->valuedouble, 0, 0);
    assert_float_equal(cJSON_GetObjectItem(r, "udp_jitter_ms")->valuedouble, 0.018, 1e-12);
    assert_float_equal(cJSON_GetObjectItem(r, "sent_bps")->valuedouble, 49983920, 0);
    assert_string_equal(cJSON_GetObjectItem(r, "measured_by")->valuestring, "board");
    assert_null(cJSON_GetObjectItem(r, "error"));
    cJSON_Delete(r);
    cJSON_Delete(fw);
    cJSON_Delete(peer);
}

/* The link went down 1 s into an 8 s UDP test and stayed down: the
 * board's server never got the FIN, so its line covers 1 s and counts no
 * loss.  The loss and goodput are its datagrams and bytes against the
 * peer client's count and time (the blind pass of 2026-12-05 read 50 Mb/s
 * and 0 % lost).  With the FIN, the server's own figures stand. */
static void test_sim_result_udp_server_without_fin_uses_the_clients_count(void **state)
{
    cJSON *fw = cJSON_Parse("{\"type\":\"result\",\"test\":\"iperf\",\"proto\":\"udp\",\"role\":\"server\","
                            "\"bytes\":6250440,\"duration_us\":999036,\"bps\":50051769,\"datagrams\":4252,"
                            "\"received\":4252,\"lost\":0,\"loss_pct\":0.000,\"jitter_us\":18.4,\"fin\":false}");
    cJSON *peer = cJSON_Parse("{\"type\":\"result\",\"role\":\"client\",\"len\":1470,\"tx_datagrams\":34010,"
                              "\"bytes\":49994700,\"duration_us\":7999826,\"bps\":49995787}");
    cJSON *r = iperf_sim_result(false, true, peer, fw, 8), *r2;

    (void)state;
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(r, "ok")));
    assert_float_equal(cJSON_GetObjectItem(r, "udp_lost_pct")->valuedouble, 100.0 * 29758 / 34010, 1e-9);
    assert_float_equal(cJSON_GetObjectItem(r, "throughput_bps")->valuedouble, 6250440 * 8 / 7.999826, 1e-3);
    assert_non_null(strstr(cJSON_GetObjectItem(r, "receiver")->valuestring, "FIN never came"));
    cJSON_ReplaceItemInObject(fw, "fin", cJSON_CreateTrue());
    r2 = iperf_sim_result(false, true, peer, fw, 8);
    assert_float_equal(cJSON_GetObjectItem(r2, "udp_lost_pct")->valuedouble, 0, 0);
    assert_float_equal(cJSON_GetObjectItem(r2, "throughput_bps")->valuedouble, 50051769, 0);
    assert_null(cJSON_GetObjectItem(r2, "receiver"));
    cJSON_Delete(r);
    cJSON_Delete(r2);
    cJSON_Delete(fw);
    cJSON_Delete(peer);
}

/* -P 8 -w 64K into the Linux board at 500 MIPS: the board's server lines
 * (bytes per stream, each over its own time) summed to 950.24 Mb/s, over
 * the 1G ceiling 949.28; the peer's client span (one start, the last
 * stream's end) gives the same bytes 949.12. */
static void test_sim_group_span_takes_the_peer_clients_span(void **state)
{
    cJSON *fw = cJSON_Parse("{\"bps\":950238475.2,\"stream_bytes\":[29000710,29356950,30732270,28889750,"
                            "30222730,30927910,29040130,29032830]}");
    cJSON *peer = cJSON_Parse("{\"role\":\"client\",\"bytes\":237203280,\"duration_us\":1999343}");
    cJSON *r = iperf_sim_result(false, false, peer, fw, 2);
    cJSON *one = cJSON_Parse("{\"bps\":500e6,\"stream_bytes\":[125000000]}");
    cJSON *r1 = iperf_sim_result(false, false, peer, one, 2);
    cJSON *longer = cJSON_Parse("{\"role\":\"client\",\"duration_us\":1900000}");
    cJSON *r2 = iperf_sim_result(false, false, longer, fw, 2);
    cJSON *bad = cJSON_Parse("{\"bps\":950e6,\"stream_bytes\":[1000,\"x\"]}");
    cJSON *r3 = iperf_sim_result(false, false, peer, bad, 2);

    (void)state;
    iperf_sim_group_span(r, peer, fw);
    assert_float_equal(cJSON_GetObjectItem(r, "throughput_bps")->valuedouble, 237203280 * 8.0 / 1.999343, 1e-3);
    assert_float_equal(cJSON_GetObjectItem(r, "rx_bps")->valuedouble, 237203280 * 8.0 / 1.999343, 1e-3);
    assert_true(cJSON_GetObjectItem(r, "throughput_bps")->valuedouble < 949.2848e6);
    /* one stream: its own line's time is the test's */
    iperf_sim_group_span(r1, peer, one);
    assert_float_equal(cJSON_GetObjectItem(r1, "throughput_bps")->valuedouble, 500e6, 0);
    /* a span shorter than the longest stream's time: that time stays */
    iperf_sim_group_span(r2, longer, fw);
    assert_float_equal(cJSON_GetObjectItem(r2, "throughput_bps")->valuedouble, 950238475.2, 0);
    /* a malformed byte count or no span: left as it was */
    iperf_sim_group_span(r3, peer, bad);
    assert_float_equal(cJSON_GetObjectItem(r3, "throughput_bps")->valuedouble, 950e6, 0);
    iperf_sim_group_span(r2, NULL, fw);
    assert_float_equal(cJSON_GetObjectItem(r2, "throughput_bps")->valuedouble, 950238475.2, 0);
    {
        /* -P 2 at 100 Mb/s (vt_linux_parallel_sweep's control): 64240 bytes
         * written before the span's end reached the board after it; the
         * bytes it had acknowledged by then give 94.92, under the 94.93
         * line, where all it received read 95.09 */
        cJSON *fw2 = cJSON_Parse("{\"bps\":95.1e6,\"stream_bytes\":[17880620,17778420]}");
        cJSON *pk = cJSON_Parse("{\"role\":\"client\",\"bytes\":35659040,\"duration_us\":2999960,"
                                "\"bytes_acked\":35594800}");
        cJSON *r4 = iperf_sim_result(false, false, pk, fw2, 3);
        iperf_sim_group_span(r4, pk, fw2);
        assert_float_equal(cJSON_GetObjectItem(r4, "throughput_bps")->valuedouble, 35594800 * 8.0 / 2.99996, 1e-3);
        assert_true(cJSON_GetObjectItem(r4, "rx_bps")->valuedouble < 100e6 * 1460 / 1538);
        cJSON_Delete(r4);
        cJSON_Delete(pk);
        cJSON_Delete(fw2);
    }
    cJSON_Delete(r);
    cJSON_Delete(r1);
    cJSON_Delete(r2);
    cJSON_Delete(r3);
    cJSON_Delete(fw);
    cJSON_Delete(one);
    cJSON_Delete(bad);
    cJSON_Delete(peer);
    cJSON_Delete(longer);
}

/* A receiver that reported nothing counted nothing: goodput 0, not
 * unknown.  Before, throughput_bps was missing, so the bound
 * `throughput_max = 0` of mac_speed_unprogrammed (traffic = fail) read
 * "nan Mb/s above the maximum 0.00" and the run failed in virtual time. */
static void test_sim_result_silent_receiver_counted_nothing(void **state)
{
    cJSON *peer = cJSON_Parse("{\"type\":\"result\",\"role\":\"client\",\"bps\":0}");
    cJSON *fw = cJSON_Parse("{\"type\":\"result\",\"role\":\"client\",\"bps\":\"12.5e6\"}");
    cJSON *r = iperf_sim_result(false, false, peer, NULL, 2);
    cJSON *t = iperf_sim_result(true, false, NULL, fw, 2);

    (void)state;
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(r, "ok")));
    assert_non_null(strstr(cJSON_GetObjectItem(r, "error")->valuestring, "receiving board within 2 s + 10 s"));
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(r, "throughput_bps")));
    assert_float_equal(cJSON_GetObjectItem(r, "throughput_bps")->valuedouble, 0, 0);
    assert_float_equal(cJSON_GetObjectItem(r, "rx_bps")->valuedouble, 0, 0);
    assert_string_equal(cJSON_GetObjectItem(r, "receiver")->valuestring, "board: no result line");
    /* the other way: the peer heard nothing, the board's client sent */
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(t, "ok")));
    assert_float_equal(cJSON_GetObjectItem(t, "throughput_bps")->valuedouble, 0, 0);
    assert_float_equal(cJSON_GetObjectItem(t, "tx_bps")->valuedouble, 0, 0);
    assert_float_equal(cJSON_GetObjectItem(t, "sent_bps")->valuedouble, 12.5e6, 0);
    assert_string_equal(cJSON_GetObjectItem(t, "measured_by")->valuestring, "peer");
    cJSON_Delete(r);
    cJSON_Delete(t);
    cJSON_Delete(fw);
    cJSON_Delete(peer);
}

/* The firmware client's own account (its `result` line, docs/schema.md)
 * goes where the diagnosis reads it: the direction and -t it ran, its -l
 * and -b, and the datagrams its stack refused (MAC_TX_RING_FULL). */
static void test_fw_sender_method_from_client_line(void **state)
{
    cJSON *cli = cJSON_Parse("{\"type\":\"result\",\"role\":\"client\",\"proto\":\"udp\",\"len\":1470,"
                             "\"offered_bps\":1000000000,\"tx_datagrams\":233900,\"tx_errors\":1999,"
                             "\"bps\":916779296}");
    /* run.c's sim_traffic says the direction itself too: one key stays */
    cJSON *r = cJSON_Parse("{\"ok\":true,\"method\":{\"tool\":\"iperf2\",\"protocol\":\"udp\",\"reverse\":false}}");
    cJSON *t = cJSON_Parse("{\"ok\":false}");
    const cJSON *m;

    (void)state;
    iperf_fw_sender_method(r, cli, true, 3);
    m = cJSON_GetObjectItem(r, "method");
    assert_string_equal(cJSON_GetObjectItem(m, "tool")->valuestring, "iperf2");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(m, "reverse")));
    {
        int nrev = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, m)
            nrev += !strcmp(e->string, "reverse");
        assert_int_equal(nrev, 1);
    }
    assert_float_equal(cJSON_GetObjectItem(m, "duration_s")->valuedouble, 3, 0);
    assert_float_equal(cJSON_GetObjectItem(m, "length_bytes")->valuedouble, 1470, 0);
    assert_float_equal(cJSON_GetObjectItem(m, "offered_bps")->valuedouble, 1e9, 0);
    assert_float_equal(cJSON_GetObjectItem(r, "sender_tx_errors")->valuedouble, 1999, 0);
    /* no client line (a TCP client says no len or rate): only what is known */
    iperf_fw_sender_method(t, NULL, false, NAN);
    m = cJSON_GetObjectItem(t, "method");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(m, "reverse")));
    assert_null(cJSON_GetObjectItem(m, "duration_s"));
    assert_null(cJSON_GetObjectItem(m, "length_bytes"));
    assert_null(cJSON_GetObjectItem(m, "offered_bps"));
    assert_null(cJSON_GetObjectItem(t, "sender_tx_errors"));
    cJSON_Delete(r);
    cJSON_Delete(t);
    cJSON_Delete(cli);
}

static void test_client_argv_maps_traffic_keys(void **state)
{
    static struct scenario s;
    struct argv_buf a;
    (void)state;
    assert_int_equal(scn_load_string("t.ini", "[board]\nfirmware = linux\n[traffic]\nparallel = 4\nwindow = 256K\n"
                                              "omit = 2s\nduration = 10s\nreverse = yes\n", &s, stderr), 0);
    iperf_client_argv(&s, "127.0.0.1", 4242, 0, &a);
    assert_string_equal(a.v[0], "iperf3");
    assert_true(has_arg(&a, "-J"));
    assert_true(has_arg(&a, "262144"));
    assert_true(has_arg(&a, "-O"));
    assert_true(has_arg(&a, "-R"));
    assert_true(has_arg(&a, "4242"));
    assert_null(a.v[a.n]);
    av_free(&a);
    assert_int_equal(scn_load_string("t.ini", "[traffic]\nprotocol = udp\nbandwidth = 200M\n", &s, stderr), 0);
    iperf_client_argv(&s, "127.0.0.1", 1, 1470, &a);
    assert_string_equal(a.v[0], "iperf");     /* bare-metal board speaks iperf 2 */
    assert_true(has_arg(&a, "-u"));
    assert_true(has_arg(&a, "200000000"));
    assert_true(has_arg(&a, "1470"));
    assert_true(has_arg(&a, "C"));
    av_free(&a);
}

/* The host client's -l, -b and -w go into the method where its output
 * lacks them; what the tool said stays. */
static void test_client_method_from_the_command_line(void **state)
{
    static struct scenario s;
    cJSON *m = cJSON_CreateObject();
    (void)state;
    assert_int_equal(scn_load_string("t.ini", "[traffic]\nprotocol = udp\nbandwidth = 200M\nlength = 512\n"
                                              "window = 64K\n", &s, stderr), 0);
    iperf_client_method(&s, 0, m);
    assert_float_equal(cJSON_GetObjectItem(m, "length_bytes")->valuedouble, 512, 0);
    assert_float_equal(cJSON_GetObjectItem(m, "offered_bps")->valuedouble, 200e6, 0);
    assert_float_equal(cJSON_GetObjectItem(m, "window_bytes")->valuedouble, 65536, 0);
    cJSON_Delete(m);
    /* a sweep's length wins over [traffic] length; the tool's own -w stays */
    m = cJSON_CreateObject();
    cJSON_AddNumberToObject(m, "window_bytes", 131072);
    iperf_client_method(&s, 1470, m);
    assert_float_equal(cJSON_GetObjectItem(m, "length_bytes")->valuedouble, 1470, 0);
    assert_float_equal(cJSON_GetObjectItem(m, "window_bytes")->valuedouble, 131072, 0);
    cJSON_Delete(m);
    /* TCP: no offered rate; nothing given, nothing added */
    assert_int_equal(scn_load_string("t.ini", "[traffic]\nprotocol = tcp\n", &s, stderr), 0);
    m = cJSON_CreateObject();
    iperf_client_method(&s, 0, m);
    assert_null(m->child);
    cJSON_Delete(m);
    iperf_client_method(&s, 0, NULL);
}

/* [board] profile reaches the PHY model: its top speed and the RGMII
 * delays the board's traces add (the model decides what they mean); a
 * QEMU without those properties gets the key reported, not guessed. */
static void test_qemu_argv_board_profile_sets_phy_props(void **state)
{
    static struct scenario s;
    struct argv_buf a;
    char unapplied[256];
    struct qemu_opts o = { .qemu = "/q", .firmware = "baremetal", .fw_path = "/fw.elf",
                           .qmp_path = "/r/qmp.sock", .serial_path = "/r/serial.sock", .net = "none",
                           .props = "  max-speed=<uint32>\n  rgmii-timing=<bool>\n  rgmii-pcb-rx-delay=<bool>\n"
                                    "  rgmii-pcb-tx-delay=<bool>\n" };
    (void)state;
    assert_int_equal(scn_load_string("t.ini", "[board]\nprofile = zc702-100m\n", &s, stderr), 0);
    qemu_build_argv(&s, &o, &a, unapplied, sizeof(unapplied));
    assert_true(has_arg(&a, "cadence_gem.max-speed=100"));
    assert_true(has_arg(&a, "cadence_gem.rgmii-timing=on"));
    assert_true(has_arg(&a, "cadence_gem.rgmii-pcb-rx-delay=off"));
    assert_true(has_arg(&a, "cadence_gem.rgmii-pcb-tx-delay=off"));
    assert_string_equal(unapplied, "");
    av_free(&a);
    assert_int_equal(scn_load_string("t.ini", "[board]\nphy_mode = rgmii\n", &s, stderr), 0);
    qemu_build_argv(&s, &o, &a, unapplied, sizeof(unapplied));
    assert_true(has_arg(&a, "cadence_gem.max-speed=1000"));     /* zc702 */
    assert_true(has_arg(&a, "cadence_gem.rgmii-timing=on"));
    av_free(&a);
    o.props = "  wire-seed=<uint64>\n";
    qemu_build_argv(&s, &o, &a, unapplied, sizeof(unapplied));
    assert_false(has_arg(&a, "cadence_gem.rgmii-timing=on"));
    assert_string_equal(unapplied, "board.phy_mode");
    av_free(&a);
}

static void test_qemu_argv_binds_loopback_and_keeps_values_whole(void **state)
{
    static struct scenario s;
    struct argv_buf a;
    char unapplied[256];
    struct qemu_opts o = { .qemu = "/q", .firmware = "baremetal", .fw_path = "/fw with space.elf",
                           .qmp_path = "/r/qmp.sock", .serial_path = "/r/serial.sock", .net = "user",
                           .host_port = 40000, .board_ip = "10.0.2.15", .board_port = 5001,
                           .props = "  partner-abilities=<str>\n  wire-loss=<str>\n  wire-seed=<uint64>\n" };
    (void)state;
    assert_int_equal(scn_load_string("t.ini", "[link]\npartner = 100FD,100HD\nloss = gemodel 1% 50% 10% 0%\n"
                                              "cable = 2pair\n", &s, stderr), 0);
    qemu_build_argv(&s, &o, &a, unapplied, sizeof(unapplied));
    assert_true(has_arg(&a, "/fw with space.elf"));
    assert_true(has_arg(&a, "cadence_gem.partner-abilities=100FD,100HD"));
    assert_true(has_arg(&a, "cadence_gem.wire-loss=gemodel 1% 50% 10% 0%"));
    assert_true(has_arg(&a, "cadence_gem.wire-seed=1"));
    assert_string_equal(unapplied, "cable");    /* this QEMU lacks it: reported, not guessed */
    /* our 10.0: the model's properties are the GEM's child gemlab-link's */
    struct argv_buf b;
    o.props = "cadence_gem options:\n  gemlab=<bool>\ngemlab-link options:\n  partner-abilities=<str>\n"
              "  wire-seed=<uint64>\n";
    qemu_build_argv(&s, &o, &b, unapplied, sizeof(unapplied));
    assert_true(has_arg(&b, "gemlab-link.partner-abilities=100FD,100HD"));
    assert_true(has_arg(&b, "gemlab-link.wire-seed=1"));
    assert_false(has_arg(&b, "cadence_gem.wire-seed=1"));
    assert_string_equal(unapplied, "cable,loss");
    av_free(&b);
    for (int i = 0; i < a.n; i++) {
        if (strstr(a.v[i], "hostfwd")) {
            assert_non_null(strstr(a.v[i], "hostfwd=tcp:127.0.0.1:40000-10.0.2.15:5001"));
            assert_non_null(strstr(a.v[i], "hostfwd=udp:127.0.0.1:40000-10.0.2.15:5001"));
        }
    }
    av_free(&a);
}

/* docs/SECURITY.md R9: QemuOpts and keyval split at ',' and take ",," as a comma
 * inside a value (qemu-options.hx, "-chardev"; util/qemu-option.c
 * get_opt_value): a run directory with a comma (--out a,server=off) must not
 * add option keys. */
static void test_qemu_argv_doubles_commas_in_socket_paths(void **state)
{
    struct argv_buf a;
    char unapplied[64];
    struct qemu_opts o = { .qemu = "/q", .firmware = "baremetal", .qmp_path = "/r,x=1/qmp.sock",
                           .serial_path = "/r,x=1/serial.sock", .fault_path = "/r,x=1/fault.sock", .net = "pair",
                           .pair_sock = "/r,x=1/pair.sock", .pair_server = true };
    (void)state;
    qemu_build_argv(NULL, &o, &a, unapplied, sizeof(unapplied));
    assert_true(has_arg(&a, "unix:/r,,x=1/qmp.sock,server=on,wait=off"));
    assert_true(has_arg(&a, "unix:/r,,x=1/fault.sock,server=on,wait=off"));
    assert_true(has_arg(&a, "socket,id=ser0,path=/r,,x=1/serial.sock,server=on,wait=off"));
    assert_true(has_arg(&a, "stream,id=net0,server=on,addr.type=unix,addr.path=/r,,x=1/pair.sock"));
    av_free(&a);
    char buf[32];
    assert_string_equal(qemu_opt_esc("a,,b,", buf, sizeof(buf)), "a,,,,b,,");
    assert_null(qemu_opt_esc("a,b", buf, 4));      /* does not fit: refused, not cut */
}

static void test_free_port_is_bindable(void **state)
{
    int p = free_port();
    (void)state;
    assert_true(p > 0 && p < 65536);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iperf3_tcp_sums_received_and_skips_omitted),
        cmocka_unit_test(test_iperf3_udp_reads_receiver_jitter_and_loss),
        cmocka_unit_test(test_iperf3_error_is_reported_not_ok),
        cmocka_unit_test(test_iperf3_garbage_and_empty),
        cmocka_unit_test(test_iperf2_tcp_P2_sums_streams_and_intervals),
        cmocka_unit_test(test_iperf2_udp_client_without_server_report_has_no_loss),
        cmocka_unit_test(test_iperf2_udp_server_report_gives_loss),
        cmocka_unit_test(test_iperf2_udp_server_P2_sums_the_streams_loss),
        cmocka_unit_test(test_iperf2_udp_server_armhf_misprint_leaves_loss_unknown),
        cmocka_unit_test(test_agent_result_reads_the_run_output),
        cmocka_unit_test(test_agent_result_splits_a_dual_server),
        cmocka_unit_test(test_iperf2_no_summary_keeps_stderr),
        cmocka_unit_test(test_iperf2_stream_id_beyond_int_is_no_sum_line),
        cmocka_unit_test(test_iperf2_dual_splits_by_listen_port_and_sums),
        cmocka_unit_test(test_iperf2_dual_halves_whose_sum_overflows_are_refused),
        cmocka_unit_test(test_iperf2_dual_csv_without_final_newline_stays_in_bounds),
        cmocka_unit_test(test_infinities_are_unknown),
        cmocka_unit_test(test_iperf2_stream_sum_overflow_is_unknown),
        cmocka_unit_test(test_sim_result_board_receives_udp),
        cmocka_unit_test(test_sim_result_udp_server_without_fin_uses_the_clients_count),
        cmocka_unit_test(test_sim_group_span_takes_the_peer_clients_span),
        cmocka_unit_test(test_sim_result_silent_receiver_counted_nothing),
        cmocka_unit_test(test_fw_sender_method_from_client_line),
        cmocka_unit_test(test_client_argv_maps_traffic_keys),
        cmocka_unit_test(test_qemu_argv_binds_loopback_and_keeps_values_whole),
        cmocka_unit_test(test_client_method_from_the_command_line),
        cmocka_unit_test(test_qemu_argv_board_profile_sets_phy_props),
        cmocka_unit_test(test_qemu_argv_doubles_commas_in_socket_paths),
        cmocka_unit_test(test_free_port_is_bindable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
