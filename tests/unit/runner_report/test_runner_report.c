/* test_runner_report.c - per-stream interval parsing behind the report's
 * charts (emu/runner/report.c): iperf 2 CSV and iperf3 JSON; escaping of
 * crafted results in report.md/report.html (docs/SECURITY.md R6); incomplete runs
 * refused (docs/SECURITY.md D1); the line-rate ceiling on every throughput chart
 * (issue 21). */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "../../common/rm_tree.h"
#include "../../common/slurp.h"
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "util.h"

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

/* docs/SECURITY.md R10: stream id 4294967295 went through atoi(), which glibc
 * wraps to -1, the id of iperf 2's sum line. */
static void test_iperf2_stream_id_beyond_int_is_no_sum(void **state)
{
    (void)state;
    static struct rp_streams st;
    memset(&st, 0, sizeof(st));
    rp_parse_iperf2_csv("1,a,1,b,2,4294967295,0.0-1.0,100,800\n", "iperf.csv", &st);
    assert_int_equal(st.n, 1);
    assert_string_equal(st.s[0].label, "iperf.csv #2147483647");
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

/* docs/SECURITY.md R10: a "socket" that is no number (a hand-edited or truncated
 * iperf3 file) was cast from NaN to int - undefined behaviour, and on x86
 * every such stream got the label "#-2147483648".  It is "#unknown" now. */
static void test_iperf3_stream_without_a_numeric_socket_is_labelled_unknown(void **state)
{
    (void)state;
    static struct rp_streams st;
    const char *json =
        "{\"intervals\":[{\"streams\":[{\"socket\":\"x\",\"end\":1,\"bits_per_second\":1e8},"
        "{\"socket\":1e300,\"end\":1,\"bits_per_second\":2e8}],\"sum\":{}}]}";
    memset(&st, 0, sizeof(st));
    rp_parse_iperf3_json(json, "iperf3.json", &st);
    assert_true(st.n >= 1);
    for (int i = 0; i < st.n; i++)
        assert_string_equal(st.s[i].label, "iperf3.json #unknown");
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


/* ---- R6: crafted results.json / diagnosis.json / baseline-compare.json --- */

#define EVIL_VERDICT "x\"><script>alert(1)</script>"
#define EVIL_CELL "<img src=x onerror=1>"

static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *get(const char *dir, const char *name)
{
    char path[512];
    char *buf;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    buf = slurp(path);
    assert_non_null(buf);
    return buf;
}

/* a run directory whose JSON carries markup in every string a report shows */
static void evil_run(char *dir, size_t len, bool evidence_array)
{
    snprintf(dir, len, "/tmp/gemlab-rp-XXXXXX");
    assert_non_null(mkdtemp(dir));
    put(dir, "results.json",
        "{\"schema\":\"gemlab-results-1\",\"scenario\":{\"name\":\"s`|<u>x\\r# h\"},"
        "\"verdict\":{\"result\":\"x\\\"><script>alert(1)</script>\",\"reason\":\"r\"},"
        "\"conditions\":{\"firmware\":\"baremetal\"},"
        "\"iperf\":{\"throughput_bps\":1e8,\"retransmits\":\"<img src=x onerror=1>\","
        "\"udp_lost_pct\":\"<img src=x onerror=1>\"}}");
    put(dir, "diagnosis.json",
        evidence_array
            ? "{\"findings\":[{\"code\":\"C\",\"layer\":\"l\",\"summary\":\"s\",\"evidence\":[1,\"<img src=x>\"]}]}"
            : "{\"findings\":[{\"code\":\"C\",\"layer\":\"l\",\"summary\":\"s\",\"evidence\":{\"<k>\":\"<img>\"}}]}");
    put(dir, "baseline-compare.json",
        "{\"verdict\":\"x\\\"><script>alert(2)</script>\",\"name\":\"n`x\",\"throughput_bps\":1e8,"
        "\"conditions_differ\":[{\"key\":\"<img src=y onerror=2>\",\"baseline\":1,\"run\":2}],"
        "\"changed\":[{\"key\":\"k|*\",\"baseline\":\"<img>\",\"run\":\"<script>\"}]}");
}

/* every class="..." value holds only [A-Za-z_ ] */
static void assert_classes_clean(const char *html)
{
    for (const char *p = html; (p = strstr(p, "class=\"")); p++) {
        const char *v = p + 7;
        while (*v && *v != '"') {
            if (!(isalpha((unsigned char)*v) || *v == '_' || *v == ' '))
                fail_msg("class attribute with '%c': %.40s", *v, p);
            v++;
        }
    }
}

/* no tag the data brought survives in HTML */
static void assert_html_clean(const char *html)
{
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "<img"));
    assert_null(strstr(html, "<u>"));
    assert_classes_clean(html);
}

/* in Markdown every '<' of the data is backslash-escaped (ours are
 * <details> and <summary>) and no line starts with the data's '#' */
static void assert_md_clean(const char *md)
{
    for (const char *p = md; (p = strchr(p, '<')); p++)
        if (p == md || p[-1] != '\\')
            if (strncmp(p, "<details>", 9) && strncmp(p, "</details>", 10) && strncmp(p, "<summary>", 9) &&
                strncmp(p, "</summary>", 10))
                fail_msg("unescaped '<' in report.md: %.40s", p);
    assert_null(strchr(md, '\r'));
    assert_null(strstr(md, "\n# h"));
}

static void test_report_escapes_crafted_results(void **state)
{
    char dir[64];
    char *html, *md;

    (void)state;
    evil_run(dir, sizeof(dir), false);
    /* 0, or 3 without gnuplot */
    assert_true(rp_run_report(dir) == 0 || rp_run_report(dir) == 3);
    html = get(dir, "report.html");
    md = get(dir, "report.md");
    assert_html_clean(html);
    assert_non_null(strstr(html, "&lt;k&gt;=&lt;img&gt;"));     /* shown, as text */
    assert_non_null(strstr(html, "x&quot;&gt;&lt;script&gt;"));
    assert_md_clean(md);
    free(html);
    free(md);
    rm_tree(dir);
}

static void test_report_evidence_array_does_not_crash(void **state)
{
    char dir[64];
    char *html, *md;

    (void)state;
    evil_run(dir, sizeof(dir), true);
    assert_true(rp_run_report(dir) == 0 || rp_run_report(dir) == 3);
    html = get(dir, "report.html");
    md = get(dir, "report.md");
    assert_html_clean(html);
    assert_md_clean(md);
    free(html);
    free(md);
    rm_tree(dir);
}

/* Case @k: a finished run whose results.json is a PASS of scenario "t"
 * plus @members (",\"key\":..." JSON), no findings; its report.md must
 * hold @want. */
static void assert_report_md_has(size_t k, const char *members, const char *want)
{
    char dir[64], json[768];
    char *md;

    snprintf(dir, sizeof(dir), "/tmp/gemlab-rp-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(json, sizeof(json),
             "{\"schema\":\"gemlab-results-1\",\"scenario\":{\"name\":\"t\"},"
             "\"verdict\":{\"result\":\"PASS\",\"reason\":\"\"}%s}", members);
    put(dir, "results.json", json);
    put(dir, "diagnosis.json", "{\"findings\":[]}");
    assert_true(rp_run_report(dir) == 0 || rp_run_report(dir) == 3);
    md = get(dir, "report.md");
    if (!strstr(md, want))
        fail_msg("case %zu: no '%s' in report.md:\n%.300s", k, want, md);
    free(md);
    rm_tree(dir);
}

/* The conditions' "traffic" row: which end ran the client (and -R) as the
 * run's iperf.source says it (--net sim/pair), else the direction asked. */
static void test_report_traffic_row_says_the_direction(void **state)
{
    static const struct { const char *iperf, *cond, *row; } cases[] = {
        { "\"source\":\"sim: board client -R <- peer server (virtual time)\"", "\"reverse\":false",
          "| traffic | sim: board client -R \\<- peer server (virtual time) |" },
        { "\"retransmits\":0", "\"reverse\":true,\"bidir\":false", "| traffic | board -\\> host |" },
        { "\"retransmits\":0", "\"reverse\":false,\"bidir\":false", "| traffic | host -\\> board |" },
        { "\"retransmits\":0", "\"reverse\":false,\"bidir\":true", "| traffic | host \\<-\\> board, both at once |" },
    };
    (void)state;
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char members[256];
        snprintf(members, sizeof(members), ",\"truth\":{\"conditions\":{\"firmware\":\"baremetal\",%s}},"
                 "\"iperf\":{\"throughput_bps\":1e8,%s}", cases[k].cond, cases[k].iperf);
        assert_report_md_has(k, members, cases[k].row);
    }
}

/* Retransmissions in the summary line: the sender's own count, else the
 * capture's lost-and-resent ones (less the spurious), said to be cut when
 * the capture stopped at its size cap; nothing when neither is known. */
static void test_report_retransmits_from_tool_or_capture(void **state)
{
    static const struct { const char *members, *says; } cases[] = {
        { ",\"iperf\":{\"throughput_bps\":1e8,\"retransmits\":17}", "; 17 retransmits**" },
        { ",\"iperf\":{\"throughput_bps\":1e8},\"capture\":{\"tcp_retransmits\":71,"
          "\"tcp_spurious_retransmits\":9,\"tcp_out_of_order\":40}", "; 62 resent on the wire (capture)**" },
        { ",\"iperf\":{\"throughput_bps\":1e8},\"capture\":{\"tcp_retransmits\":71,"
          "\"tcp_spurious_retransmits\":9}", "; 71 resent on the wire (capture)**" },
        { ",\"iperf\":{\"throughput_bps\":1e8},\"capture\":{\"tcp_retransmits\":0,\"truncated\":true}",
          "; 0 resent on the wire (capture, cut at its size cap)**" },
        { ",\"iperf\":{\"throughput_bps\":1e8}", "flap(s)**" },
    };
    (void)state;
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char members[384];
        snprintf(members, sizeof(members), ",\"link\":{\"up\":true,\"speed_mbps\":100,\"full_duplex\":true,"
                 "\"flaps\":0}%s", cases[k].members);
        assert_report_md_has(k, members, cases[k].says);
    }
}

static void test_side_by_side_escapes_crafted_results(void **state)
{
    char a[64], b[64], out[80];
    char *html, *md;
    int rc;

    (void)state;
    evil_run(a, sizeof(a), false);
    evil_run(b, sizeof(b), true);
    snprintf(out, sizeof(out), "%s/cmp", a);
    const char *dirs[] = { a, b };
    struct rp_opts o = { .dirs = dirs, .n = 2, .out = out, .html = true };
    rc = rp_report(&o);
    assert_true(rc == 0 || rc == 3);
    html = get(out, "report.html");
    md = get(out, "report.md");
    assert_html_clean(html);
    assert_non_null(strstr(html, "<td>&lt;img src=x onerror=1&gt;</td>"));
    assert_md_clean(md);
    free(html);
    free(md);
    rm_tree(a);
    rm_tree(b);
}

/* --out at one of the runs would replace its own report.md: refused
 * before anything is written */
static void test_side_by_side_refuses_a_run_dir_as_out(void **state)
{
    char a[64], b[64], probe[96];
    struct stat st;

    (void)state;
    evil_run(a, sizeof(a), false);
    evil_run(b, sizeof(b), true);
    const char *dirs[] = { a, b };
    struct rp_opts o = { .dirs = dirs, .n = 2, .out = a, .html = false };
    assert_int_equal(rp_report(&o), 2);
    snprintf(probe, sizeof(probe), "%s/report.md", a);
    assert_int_equal(stat(probe, &st), -1);
    snprintf(probe, sizeof(probe), "%s/report.md", b);
    assert_int_equal(stat(probe, &st), -1);
    rm_tree(a);
    rm_tree(b);
}

/* an artifact's RUN_DIR/report -> elsewhere: no chart file lands there */
static void test_report_refuses_symlinked_chart_dir(void **state)
{
    char dir[64], victim[64], link[128];
    DIR *d;
    struct dirent *e;
    int n = 0;

    (void)state;
    evil_run(dir, sizeof(dir), false);
    snprintf(victim, sizeof(victim), "/tmp/gemlab-rp-XXXXXX");
    assert_non_null(mkdtemp(victim));
    snprintf(link, sizeof(link), "%s/report", dir);
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(rp_run_report(dir), 2);
    d = opendir(victim);
    assert_non_null(d);
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(n, 0);
    rm_tree(dir);
    rm_tree(victim);
}

/* ---- D1: a run that did not finish is not reported ---------------------- */

static void test_report_refuses_incomplete_run(void **state)
{
    char dir[64], path[128];
    struct stat st;

    (void)state;
    evil_run(dir, sizeof(dir), false);
    put(dir, "run.in-progress", "2026-12-01T15:00:00Z pid 1\n");
    assert_int_equal(rp_run_report(dir), 2);
    snprintf(path, sizeof(path), "%s/report.md", dir);
    assert_int_not_equal(stat(path, &st), 0);
    rm_tree(dir);
}

/* ---- issue 21: every throughput chart draws the line-rate ceiling ------- */

/* a finished run at @speed Mb/s (@proto, @extra conditions JSON) */
static void speed_run(char *dir, size_t len, int speed, const char *proto, const char *extra)
{
    char json[1024];

    snprintf(dir, len, "/tmp/gemlab-rp-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(json, sizeof(json),
             "{\"schema\":\"gemlab-results-1\",\"scenario\":{\"name\":\"s%d\"},"
             "\"verdict\":{\"result\":\"PASS\",\"reason\":\"\"},"
             "\"conditions\":{\"firmware\":\"baremetal\",\"protocol\":\"%s\",\"duration_s\":3%s},"
             "\"link\":{\"up\":true,\"speed_mbps\":%d,\"full_duplex\":true},"
             "\"iperf\":{\"throughput_bps\":%d,\"intervals_bps\":[%d,%d,%d]}}",
             speed, proto, extra, speed, speed * 900000, speed * 880000, speed * 900000, speed * 920000);
    put(dir, "results.json", json);
}

/* report/NAME.gp of a run reported with rp_run_report (0, or 3 without
 * gnuplot: the script is written before gnuplot is looked for) */
static char *chart_gp(const char *dir, const char *name)
{
    char sub[128];
    int rc = rp_run_report(dir);

    assert_true(rc == 0 || rc == 3);
    snprintf(sub, sizeof(sub), "%s/report", dir);
    return get(sub, name);
}

static void assert_has(const char *text, const char *what)
{
    if (!strstr(text, what))
        fail_msg("'%s' not in:\n%s", what, text);
}

/* 100 Mb/s, TCP with timestamps: 100 x 1448/1538 = 94.148 Mb/s (IEEE 802.3 clause 4.4.2 framing: preamble 8, FCS 4, IPG 12; RFC 7323 timestamps 12) */
static void test_throughput_chart_ceiling_100_tcp(void **state)
{
    char dir[64];
    char *gp;

    (void)state;
    speed_run(dir, sizeof(dir), 100, "tcp", ",\"tcp_timestamps\":true");
    gp = chart_gp(dir, "throughput.gp");
    assert_has(gp, ", 94.1482 with lines");                     /* the line, at the ceiling */
    assert_has(gp, "title 'line-rate ceiling 94.15 Mb/s = 100 x 1448/1538 (TCP, MSS 1448: with timestamps)'");
    assert_null(strstr(gp, "941.48"));
    free(gp);
    rm_tree(dir);
}

/* -d: the intervals are the board's receiving half, not a sum of both;
 * a blind user read an RX of 0.4 Mb/s labelled "sum" under a headline of
 * 949 Mb/s.  The ceiling is per direction. */
static void test_throughput_chart_of_a_bidir_run_names_its_half(void **state)
{
    char dir[64];
    char *gp;

    (void)state;
    speed_run(dir, sizeof(dir), 1000, "tcp", ",\"tcp_timestamps\":true,\"bidir\":true");
    gp = chart_gp(dir, "throughput.gp");
    assert_has(gp, "title 'board RX (-d: the TX half is not sampled)'");
    assert_null(strstr(gp, "title 'sum'"));
    assert_has(gp, "per direction");
    free(gp);
    rm_tree(dir);
    speed_run(dir, sizeof(dir), 1000, "tcp", ",\"tcp_timestamps\":true");
    gp = chart_gp(dir, "throughput.gp");
    assert_has(gp, "title 'sum'");
    free(gp);
    rm_tree(dir);
}

/* a hand-edited speed no PHY negotiates draws no ceiling; its 130-digit
 * legend once ran past the legend buffer (ASan: stack-buffer-overflow) */
static void test_throughput_chart_no_ceiling_for_absurd_speed(void **state)
{
    char dir[64];
    char *gp;

    (void)state;
    speed_run(dir, sizeof(dir), 1000, "tcp", ",\"tcp_timestamps\":true");
    put(dir, "results.json",
        "{\"schema\":\"gemlab-results-1\",\"scenario\":{\"name\":\"huge\"},"
        "\"verdict\":{\"result\":\"PASS\",\"reason\":\"\"},"
        "\"conditions\":{\"firmware\":\"baremetal\",\"protocol\":\"udp\",\"duration_s\":3,\"length_bytes\":1000},"
        "\"link\":{\"up\":true,\"speed_mbps\":1e130,\"full_duplex\":true},"
        "\"iperf\":{\"throughput_bps\":9e8,\"intervals_bps\":[9e8,9e8,9e8]}}");
    gp = chart_gp(dir, "throughput.gp");
    assert_null(strstr(gp, "line-rate ceiling"));
    free(gp);
    rm_tree(dir);
}

/* the same run at 1000 Mb/s gets the 1000 Mb/s ceiling */
static void test_throughput_chart_ceiling_1000_tcp(void **state)
{
    char dir[64];
    char *gp;

    (void)state;
    speed_run(dir, sizeof(dir), 1000, "tcp", ",\"tcp_timestamps\":true");
    gp = chart_gp(dir, "throughput.gp");
    assert_has(gp, ", 941.482 with lines");
    assert_has(gp, "line-rate ceiling 941.48 Mb/s = 1000 x 1448/1538 (TCP");
    free(gp);
    rm_tree(dir);
}

/* lwIP without timestamps: MSS 1460; unknown timestamps say "assumed" */
static void test_throughput_chart_ceiling_no_timestamps(void **state)
{
    char dir[64];
    char *gp;

    (void)state;
    speed_run(dir, sizeof(dir), 100, "tcp", ",\"tcp_timestamps\":false");
    gp = chart_gp(dir, "throughput.gp");
    assert_has(gp, ", 94.9285 with lines");
    assert_has(gp, "94.93 Mb/s = 100 x 1460/1538 (TCP, MSS 1460: no timestamps)'");
    free(gp);
    rm_tree(dir);
    speed_run(dir, sizeof(dir), 10, "tcp", "");
    gp = chart_gp(dir, "throughput.gp");
    assert_has(gp, "9.49 Mb/s = 10 x 1460/1538 (TCP, MSS 1460: no timestamps assumed)'");
    free(gp);
    rm_tree(dir);
}

/* UDP, 1470-byte datagrams: R x 1470/1536 (docs/BENCHMARKS.md); an 8000-byte
 * datagram is 6 IP fragments: 8008 + 6 x 58 = 8356 bytes of wire */
static void test_throughput_chart_ceiling_udp(void **state)
{
    char dir[64];
    char *gp;

    (void)state;
    speed_run(dir, sizeof(dir), 100, "udp", ",\"length_bytes\":1470");
    gp = chart_gp(dir, "throughput.gp");
    assert_has(gp, ", 95.7031 with lines");
    assert_has(gp, "line-rate ceiling 95.70 Mb/s = 100 x 1470/1536 (UDP, 1470-byte datagrams)'");
    free(gp);
    rm_tree(dir);
    speed_run(dir, sizeof(dir), 1000, "udp", ",\"length_bytes\":8000");
    gp = chart_gp(dir, "throughput.gp");
    assert_has(gp, "= 1000 x 8000/8356 (UDP, 8000-byte datagrams in 6 IP fragments");
    free(gp);
    rm_tree(dir);
    /* no length: the largest unfragmented datagram, said so */
    speed_run(dir, sizeof(dir), 1000, "udp", "");
    gp = chart_gp(dir, "throughput.gp");
    assert_has(gp, ", 957.087 with lines");
    assert_has(gp, "1000 x 1472/1538 (UDP, 1472-byte datagrams assumed");
    free(gp);
    rm_tree(dir);
    /* no length in the scenario, but the tool's own (iperf 2's default
     * 1470, iperf.method.length_bytes): that one, not 1472 assumed */
    snprintf(dir, sizeof(dir), "/tmp/gemlab-rp-XXXXXX");
    assert_non_null(mkdtemp(dir));
    put(dir, "results.json",
        "{\"schema\":\"gemlab-results-1\",\"scenario\":{\"name\":\"u\"},\"verdict\":{\"result\":\"PASS\"},"
        "\"conditions\":{\"firmware\":\"baremetal\",\"protocol\":\"udp\",\"duration_s\":3},"
        "\"link\":{\"up\":true,\"speed_mbps\":1000,\"full_duplex\":true},"
        "\"iperf\":{\"throughput_bps\":9e8,\"intervals_bps\":[9e8,9e8,9e8],\"method\":{\"length_bytes\":1470}}}");
    gp = chart_gp(dir, "throughput.gp");
    assert_has(gp, "line-rate ceiling 957.03 Mb/s = 1000 x 1470/1536 (UDP, 1470-byte datagrams)'");
    free(gp);
    rm_tree(dir);
}

/* the size sweep (UDP: a curve over the datagram length) and the -P sweep */
static void test_sweep_charts_ceiling(void **state)
{
    char dir[64];
    char *gp;

    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/gemlab-rp-XXXXXX");
    assert_non_null(mkdtemp(dir));
    put(dir, "results.json",
        "{\"schema\":\"gemlab-results-1\",\"scenario\":{\"name\":\"sw\"},\"verdict\":{\"result\":\"PASS\"},"
        "\"conditions\":{\"firmware\":\"baremetal\",\"protocol\":\"udp\"},"
        "\"link\":{\"up\":true,\"speed_mbps\":100,\"full_duplex\":true},\"iperf\":{\"throughput_bps\":9e7},"
        "\"sweep\":[{\"length_bytes\":64,\"throughput_bps\":4e7},{\"length_bytes\":1470,\"throughput_bps\":9.5e7}],"
        "\"parallel_sweep\":[{\"parallel\":1,\"throughput_bps\":9e7},{\"parallel\":2,\"throughput_bps\":9.4e7,"
        "\"retransmits\":0,\"cpu_busy_pct\":[98.04,30.26],\"cpu_softirq_pct\":[61.2,0.4]}]}");
    gp = chart_gp(dir, "sweep.gp");
    assert_has(gp, ", 100*x/(x+8+ceil((x+8)/1480.0)*58) with lines");
    assert_has(gp, "line-rate ceiling 100 x L/(L+8+58 x IP fragments)");
    free(gp);
    gp = chart_gp(dir, "psweep.gp");
    assert_has(gp, ", 95.7087 with lines");
    free(gp);
    /* the -P table: each test's per-core load when the run had it */
    gp = get(dir, "report.md");
    assert_has(gp, "| 1 | 90.0 | - | - | - |\n");
    assert_has(gp, "| 2 | 94.0 | 0 | 98.0 / 30.3 | 61.2 / 0.4 |\n");
    /* no per-core section without cpu or irq figures */
    assert_null(strstr(gp, "## Per core"));
    free(gp);
    rm_tree(dir);
}

/* An 11-size UDP sweep writes iperf-1.csv .. iperf-11.csv; the charts
 * label series i with size i, and alphasort's order (iperf-1, iperf-10,
 * iperf-11, iperf-2, ...) put the 1280-byte data under "128-byte test".
 * A figure the run does not have is "-", never "nan". */
static void test_sweep_series_in_size_order_and_no_nan(void **state)
{
    char dir[64], sweep[2048], json[4096], name[32], csv[160];
    size_t o = 0;
    char *dat, *md;

    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/gemlab-rp-XXXXXX");
    assert_non_null(mkdtemp(dir));
    for (int i = 1; i <= 11; i++) {
        /* size 100 i bytes at i Mb/s: each file's data is its own */
        o += (size_t)snprintf(sweep + o, sizeof(sweep) - o, "%s{\"length_bytes\":%d,\"throughput_bps\":%d}",
                              i > 1 ? "," : "", 100 * i, i * 1000000);
        snprintf(name, sizeof(name), "iperf-%d.csv", i);
        snprintf(csv, sizeof(csv), "20261130151318,10.0.2.15,5001,10.0.2.2,41786,1,0.0-1.0,1,%d,0.125,10,4253,0.235,0\n",
                 i * 1000000);
        put(dir, name, csv);
    }
    snprintf(json, sizeof(json),
             "{\"schema\":\"gemlab-results-1\",\"scenario\":{\"name\":\"sw\"},\"verdict\":{\"result\":\"PASS\"},"
             "\"conditions\":{\"firmware\":\"baremetal\",\"protocol\":\"udp\"},"
             "\"link\":{\"up\":true,\"speed_mbps\":100,\"full_duplex\":true},\"iperf\":{\"throughput_bps\":9e7},"
             "\"sweep\":[%s]}", sweep);
    put(dir, "results.json", json);
    /* a comparison without a throughput, as `baseline compare` writes it
     * for a run that measured none */
    put(dir, "baseline-compare.json", "{\"name\":\"clean_1g\",\"verdict\":\"no_data\",\"throughput_bps\":null,"
                                      "\"median_bps\":1.01e8,\"runs\":2,\"delta_pct\":null,\"tolerance_pct\":5}");
    assert_true(rp_run_report(dir) == 0 || rp_run_report(dir) == 3);
    for (int i = 0; i < 11; i++) {
        char sub[128], want[64];
        snprintf(sub, sizeof(sub), "%s/report", dir);
        snprintf(name, sizeof(name), "tput_%d.dat", i);
        dat = get(sub, name);
        snprintf(want, sizeof(want), "(%d-byte test)\n1 %d ", 100 * (i + 1), i + 1);
        assert_has(dat, want);
        free(dat);
    }
    md = get(dir, "report.md");
    assert_has(md, "no\\_data** against `clean_1g`: - Mb/s vs median 101.0 Mb/s of 2 run(s), -% (tolerance 5.0%)");
    assert_null(strstr(md, "nan"));
    free(md);
    rm_tree(dir);
}

/* The per-core table of a Linux run: busy, softirq and GEM interrupts per
 * CPU, "-" where one list is shorter (an agent without softirq). */
static void test_report_per_core_table(void **state)
{
    char dir[64];
    char *md, *html;

    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/gemlab-rp-XXXXXX");
    assert_non_null(mkdtemp(dir));
    put(dir, "results.json",
        "{\"schema\":\"gemlab-results-1\",\"scenario\":{\"name\":\"pc\"},\"verdict\":{\"result\":\"PASS\"},"
        "\"iperf\":{\"throughput_bps\":5.2446e8},\"cpu\":{\"busy_pct\":[99.5,40.25],\"softirq_pct\":[61.3]},"
        "\"irq\":{\"gem_per_cpu\":[90210,3]}}");
    put(dir, "diagnosis.json", "{\"findings\":[]}");
    assert_true(rp_run_report(dir) == 0 || rp_run_report(dir) == 3);
    md = get(dir, "report.md");
    assert_has(md, "| core | busy % | softirq % | GEM interrupts |\n|---|---:|---:|---:|\n"
                   "| CPU0 | 99.5 | 61.3 | 90210 |\n| CPU1 | 40.2 | - | 3 |\n");
    html = get(dir, "report.html");
    assert_has(html, "<tr><td>CPU1</td><td>40.2</td><td>-</td><td>3</td></tr>\n</table>");
    free(md);
    free(html);
    rm_tree(dir);
    {
        /* a crafted list of 5000 cores: 16 rows, no more */
        size_t cap = 64 + 5000 * 4 + 256, n;
        char *js = malloc(cap);
        assert_non_null(js);
        n = (size_t)snprintf(js, cap, "{\"schema\":\"gemlab-results-1\",\"scenario\":{\"name\":\"pc\"},"
                                      "\"verdict\":{\"result\":\"PASS\"},\"cpu\":{\"busy_pct\":[1");
        for (int k = 1; k < 5000; k++)
            n += (size_t)snprintf(js + n, cap - n, ",1");
        snprintf(js + n, cap - n, "]}}");
        snprintf(dir, sizeof(dir), "/tmp/gemlab-rp-XXXXXX");
        assert_non_null(mkdtemp(dir));
        put(dir, "results.json", js);
        put(dir, "diagnosis.json", "{\"findings\":[]}");
        assert_true(rp_run_report(dir) == 0 || rp_run_report(dir) == 3);
        md = get(dir, "report.md");
        assert_has(md, "| CPU15 | 1.0 | - | - |\n");
        assert_null(strstr(md, "| CPU16 |"));
        free(md);
        free(js);
        rm_tree(dir);
    }
}

/* side by side: each distinct ceiling once, on the bars and over time */
static void test_side_by_side_charts_ceilings(void **state)
{
    char a[64], b[64], c2[64], out[80];
    char *gp, *p;
    int rc, n = 0;

    (void)state;
    speed_run(a, sizeof(a), 100, "tcp", ",\"tcp_timestamps\":true");
    speed_run(b, sizeof(b), 100, "tcp", ",\"tcp_timestamps\":true");
    speed_run(c2, sizeof(c2), 1000, "tcp", ",\"tcp_timestamps\":true");
    snprintf(out, sizeof(out), "%s/cmp", a);
    const char *dirs[] = { a, b, c2 };
    struct rp_opts o = { .dirs = dirs, .n = 3, .out = out, .html = true };
    rc = rp_report(&o);
    assert_true(rc == 0 || rc == 3);
    gp = get(out, "runs.gp");
    assert_has(gp, ", 94.1482 with lines");
    assert_has(gp, ", 941.482 with lines");
    for (p = gp; (p = strstr(p, "94.1482 with lines")); p++)
        n++;
    assert_int_equal(n, 1);
    free(gp);
    gp = get(out, "overtime.gp");
    assert_has(gp, "941.48 Mb/s = 1000 x 1448/1538");
    free(gp);
    rm_tree(a);
    rm_tree(b);
    rm_tree(c2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iperf2_tcp_parallel),
        cmocka_unit_test(test_iperf2_udp_server),
        cmocka_unit_test(test_iperf2_stream_id_beyond_int_is_no_sum),
        cmocka_unit_test(test_iperf3_json),
        cmocka_unit_test(test_iperf3_stream_without_a_numeric_socket_is_labelled_unknown),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_report_escapes_crafted_results),
        cmocka_unit_test(test_report_evidence_array_does_not_crash),
        cmocka_unit_test(test_report_traffic_row_says_the_direction),
        cmocka_unit_test(test_report_retransmits_from_tool_or_capture),
        cmocka_unit_test(test_report_per_core_table),
        cmocka_unit_test(test_side_by_side_escapes_crafted_results),
        cmocka_unit_test(test_report_refuses_incomplete_run),
        cmocka_unit_test(test_report_refuses_symlinked_chart_dir),
        cmocka_unit_test(test_throughput_chart_ceiling_100_tcp),
        cmocka_unit_test(test_throughput_chart_of_a_bidir_run_names_its_half),
        cmocka_unit_test(test_throughput_chart_ceiling_1000_tcp),
        cmocka_unit_test(test_side_by_side_refuses_a_run_dir_as_out),
        cmocka_unit_test(test_throughput_chart_no_ceiling_for_absurd_speed),
        cmocka_unit_test(test_throughput_chart_ceiling_no_timestamps),
        cmocka_unit_test(test_throughput_chart_ceiling_udp),
        cmocka_unit_test(test_sweep_charts_ceiling),
        cmocka_unit_test(test_sweep_series_in_size_order_and_no_nan),
        cmocka_unit_test(test_side_by_side_charts_ceilings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
