/* test_appargs.c - number parsers and every command's argument checks:
 * a bad argument must give -EINVAL (the shell then prints usage). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "appargs.h"

#define ARGV(...) (char *[]){ __VA_ARGS__ }
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define CALL(fn, out, ...) fn(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), out)

static void test_parse_rate_si_suffixes_are_powers_of_1000(void **state)
{
    uint64_t v = 0;
    (void)state;
    assert_int_equal(parse_rate("50M", &v), 0);
    assert_true(v == 50000000ull);
    assert_int_equal(parse_rate("1.5m", &v), 0);
    assert_true(v == 1500000ull);
    assert_int_equal(parse_rate("2G", &v), 0);
    assert_true(v == 2000000000ull);
    assert_int_equal(parse_rate("64k", &v), 0);
    assert_true(v == 64000ull);
    assert_int_equal(parse_rate("1234", &v), 0);
    assert_true(v == 1234ull);
}

static void test_parse_rate_rejects_junk_zero_and_overflow(void **state)
{
    uint64_t v = 7;
    (void)state;
    assert_int_equal(parse_rate("", &v), -EINVAL);
    assert_int_equal(parse_rate("M", &v), -EINVAL);
    assert_int_equal(parse_rate("50MB", &v), -EINVAL);
    assert_int_equal(parse_rate("50X", &v), -EINVAL);
    assert_int_equal(parse_rate("-5M", &v), -EINVAL);
    assert_int_equal(parse_rate("0", &v), -EINVAL);
    assert_int_equal(parse_rate("1.", &v), -EINVAL);
    assert_int_equal(parse_rate("999999G", &v), -EINVAL);
    assert_int_equal(parse_rate("99999999999999999999999", &v), -EINVAL);
    assert_int_equal(parse_rate(NULL, &v), -EINVAL);
    assert_true(v == 7);
}

static void test_parse_size_suffixes_are_powers_of_1024(void **state)
{
    uint64_t v = 0;
    (void)state;
    assert_int_equal(parse_size("64K", &v), 0);
    assert_true(v == 65536ull);
    assert_int_equal(parse_size("1M", &v), 0);
    assert_true(v == 1048576ull);
    assert_int_equal(parse_size("1470", &v), 0);
    assert_true(v == 1470ull);
}

static void test_parse_ipv4_accepts_quads_and_rejects_malformed(void **state)
{
    uint32_t a = 0;
    (void)state;
    assert_int_equal(parse_ipv4("10.0.2.2", &a), 0);
    assert_int_equal(a, 0x0A000202u);
    assert_int_equal(parse_ipv4("255.255.255.255", &a), 0);
    assert_int_equal(a, 0xFFFFFFFFu);
    assert_int_equal(parse_ipv4("256.0.0.1", &a), -EINVAL);
    assert_int_equal(parse_ipv4("10.0.2", &a), -EINVAL);
    assert_int_equal(parse_ipv4("10.0.2.2.1", &a), -EINVAL);
    assert_int_equal(parse_ipv4("10..2.2", &a), -EINVAL);
    assert_int_equal(parse_ipv4("10.0.2.2 ", &a), -EINVAL);
    assert_int_equal(parse_ipv4("host", &a), -EINVAL);
}

static void test_parse_u32_enforces_range(void **state)
{
    uint32_t v = 0;
    (void)state;
    assert_int_equal(parse_u32("65535", 1, 65535, &v), 0);
    assert_int_equal(v, 65535);
    assert_int_equal(parse_u32("65536", 1, 65535, &v), -EINVAL);
    assert_int_equal(parse_u32("0", 1, 65535, &v), -EINVAL);
    assert_int_equal(parse_u32("4294967296", 0, UINT32_MAX, &v), -EINVAL);
    assert_int_equal(parse_u32("12a", 0, 100, &v), -EINVAL);
}

static void test_iperf_udp_client_with_rate_parses(void **state)
{
    struct iperf_args a;
    (void)state;
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-u", "-c", "10.0.2.2", "-b", "50M", "-t", "5"), 0);
    assert_int_equal(a.action, IPERF_CLIENT);
    assert_true(a.udp);
    assert_int_equal(a.host, 0x0A000202u);
    assert_true(a.rate_bps == 50000000ull);
    assert_int_equal(a.time_s, 5);
    assert_int_equal(a.len, IPERF_DEFAULT_UDP_LEN);
    assert_int_equal(a.port, 5001);
}

static void test_iperf_defaults_for_tcp_server_and_udp_client(void **state)
{
    struct iperf_args a;
    (void)state;
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-s"), 0);
    assert_int_equal(a.action, IPERF_SERVER);
    assert_false(a.udp);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-u"), 0);
    assert_true(a.rate_bps == IPERF_DEFAULT_UDP_RATE);
    assert_int_equal(a.time_s, IPERF_DEFAULT_TIME_S);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "stop"), 0);
    assert_int_equal(a.action, IPERF_STOP);
}

static void test_iperf_bad_arguments_are_rejected(void **state)
{
    struct iperf_args a;
    (void)state;
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf"), -EINVAL);                     /* neither -s nor -c */
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-s", "-c", "1.2.3.4"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c"), -EINVAL);               /* missing value */
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3.4", "-b", "5M"), -EINVAL); /* -b without -u */
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3.4", "-u", "-b", "fast"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3.4", "-t", "0"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3.4", "-t", "5", "-n", "1M"), -EINVAL);
    /* UDP -n: a datagram count's worth of bytes, no time */
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3.4", "-u", "-n", "1M"), 0);
    assert_true(a.udp);
    assert_int_equal(a.amount_bytes, 1024 * 1024);
    assert_int_equal(a.time_s, 0);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3.4", "-u", "-n", "1M", "-t", "3"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3.4", "-u", "-l", "10"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3.4", "-u", "-l", "9000"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3.4", "-p", "0"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "1.2.3.4", "-p", "70000"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-s", "-t", "5"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-s", "-x"), -EINVAL);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "stop", "now"), -EINVAL);
}

/* Every refusal a user can fix says what was wrong, naming the flag (the
 * firmware prints it as an app error before the usage); only an option
 * the command does not have falls back to the plain usage. */
static void test_iperf_refusals_name_what_was_wrong(void **state)
{
    static const struct {
        const char *argv[10];
        const char *says;       /* a substring of err; NULL: no err (plain usage) */
    } cases[] = {
        { { "iperf" }, "one of -s" },
        { { "iperf", "-s", "-c", "1.2.3.4" }, "one of -s" },
        { { "iperf", "-c" }, "-c:" },
        { { "iperf", "-c", "1.2.3" }, "-c:" },
        { { "iperf", "-c", "1.2.3.4", "-b", "5M" }, "-b paces UDP" },
        { { "iperf", "-c", "1.2.3.4", "-u", "-b", "fast" }, "-b:" },
        { { "iperf", "-c", "1.2.3.4", "-t", "0" }, "-t:" },
        { { "iperf", "-c", "1.2.3.4", "-t", "5", "-n", "1M" }, "-t and -n" },
        { { "iperf", "-c", "1.2.3.4", "-n", "lots" }, "-n:" },
        { { "iperf", "-c", "1.2.3.4", "-u", "-l", "10" }, "20..8972" },
        { { "iperf", "-c", "1.2.3.4", "-u", "-l", "9000" }, "20..8972" },
        { { "iperf", "-c", "1.2.3.4", "-l", "x" }, "-l:" },
        { { "iperf", "-c", "1.2.3.4", "-p", "0" }, "-p:" },
        { { "iperf", "-c", "1.2.3.4", "-p", "70000" }, "-p:" },
        { { "iperf", "-c", "1.2.3.4", "-i", "0" }, "-i:" },
        { { "iperf", "-s", "-t", "5" }, "client options" },
        { { "iperf", "-s", "-u", "-l", "100" }, "client options" },
        { { "iperf", "-s", "-x" }, NULL },
        { { "iperf", "-c", "1.2.3.4", "--bogus" }, NULL },
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct iperf_args a;
        int argc = 0;

        while (argc < 10 && cases[i].argv[argc])
            argc++;
        assert_int_equal(iperf_args_parse(argc, (char **)cases[i].argv, &a), -EINVAL);
        if (!cases[i].says) {
            assert_null(a.err);
        } else if (!a.err || !strstr(a.err, cases[i].says)) {
            fail_msg("case %zu (%s %s): err \"%s\", wanted \"%s\"", i, cases[i].argv[1] ? cases[i].argv[1] : "",
                     argc > 2 ? cases[i].argv[2] : "", a.err ? a.err : "(none)", cases[i].says);
        }
    }
}

static void test_echo_args_default_port_7_and_bad_options(void **state)
{
    struct echo_args a;
    (void)state;
    assert_int_equal(CALL(echo_args_parse, &a, "echo"), 0);
    assert_int_equal(a.port, 7);
    assert_int_equal(a.idle_s, ECHO_DEFAULT_IDLE_S);
    assert_false(a.stop);
    assert_int_equal(CALL(echo_args_parse, &a, "echo", "-p", "7007"), 0);
    assert_int_equal(a.port, 7007);
    assert_int_equal(CALL(echo_args_parse, &a, "echo", "-T", "2", "-p", "9"), 0);
    assert_int_equal(a.idle_s, 2);
    assert_int_equal(a.port, 9);
    assert_int_equal(CALL(echo_args_parse, &a, "echo", "-T", "0"), -EINVAL);
    assert_int_equal(CALL(echo_args_parse, &a, "echo", "-T", "3601"), -EINVAL);
    assert_int_equal(CALL(echo_args_parse, &a, "echo", "-T"), -EINVAL);
    assert_int_equal(CALL(echo_args_parse, &a, "echo", "stop"), 0);
    assert_true(a.stop);
    assert_int_equal(CALL(echo_args_parse, &a, "echo", "-p"), -EINVAL);
    assert_int_equal(CALL(echo_args_parse, &a, "echo", "start"), -EINVAL);
    assert_int_equal(CALL(echo_args_parse, &a, "echo", "-p", "x"), -EINVAL);
}

static void test_latency_args_defaults_and_bad_options(void **state)
{
    struct latency_args a;
    (void)state;
    assert_int_equal(CALL(latency_args_parse, &a, "latency", "-c", "10.0.2.2"), 0);
    assert_int_equal(a.count, LATENCY_DEFAULT_COUNT);
    assert_int_equal(a.len, LATENCY_DEFAULT_LEN);
    assert_int_equal(a.port, 7);
    assert_int_equal(CALL(latency_args_parse, &a, "latency", "-c", "10.0.2.2", "-n", "10", "-l", "1K", "-i", "0"), 0);
    assert_int_equal(a.len, 1024);
    assert_int_equal(a.interval_ms, 0);
    assert_int_equal(CALL(latency_args_parse, &a, "latency"), -EINVAL);                  /* no host */
    assert_int_equal(CALL(latency_args_parse, &a, "latency", "-c", "10.0.2.2", "-n", "0"), -EINVAL);
    assert_int_equal(CALL(latency_args_parse, &a, "latency", "-c", "10.0.2.2", "-l", "8"), -EINVAL);
    assert_int_equal(CALL(latency_args_parse, &a, "latency", "-c", "10.0.2.2", "-w", "0"), -EINVAL);
    assert_int_equal(CALL(latency_args_parse, &a, "latency", "-c", "10.0.2.2", "-q"), -EINVAL);
}

static void test_sweep_args_defaults_and_bad_options(void **state)
{
    struct sweep_args a;
    (void)state;
    assert_int_equal(CALL(sweep_args_parse, &a, "sweep", "-c", "10.0.2.2", "-j", "-b", "200M"), 0);
    assert_true(a.jumbo);
    assert_true(a.rate_bps == 200000000ull);
    assert_int_equal(a.time_s, SWEEP_DEFAULT_TIME_S);
    assert_int_equal(CALL(sweep_args_parse, &a, "sweep"), -EINVAL);
    assert_int_equal(CALL(sweep_args_parse, &a, "sweep", "-c", "10.0.2.2", "-t", "0"), -EINVAL);
    assert_int_equal(CALL(sweep_args_parse, &a, "sweep", "-c", "10.0.2.2", "-b"), -EINVAL);
    assert_int_equal(CALL(sweep_args_parse, &a, "sweep", "-c", "10.0.2.2", "extra"), -EINVAL);
}

/* -P N: 1..8 TCP streams on the client; anything else is refused with a
 * message naming -P (the shell and the peer print it). */
static void test_iperf_parallel_streams_parse_and_bad_ones_name_the_flag(void **state)
{
    struct iperf_args a;
    (void)state;
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2"), 0);
    assert_int_equal(a.parallel, 1);                        /* default: one stream */
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-P", "4", "-t", "3"), 0);
    assert_int_equal(a.parallel, 4);
    assert_int_equal(a.time_s, 3);
    assert_null(a.err);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-P", "8", "-n", "1M"), 0);
    assert_int_equal(a.parallel, 8);
    assert_true(a.amount_bytes == 1048576ull);              /* per stream, as iperf 2 */
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-P", "1"), 0);
    assert_int_equal(a.parallel, 1);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-u", "-P", "1"), 0);

    static const char *const bad[] = { "0", "9", "-1", "4x", "", "99999999999" };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        char *v = (char *)bad[k];
        assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-P", v), -EINVAL);
        assert_non_null(a.err);
        assert_non_null(strstr(a.err, "-P"));
    }
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-P"), -EINVAL);   /* no value */
    assert_non_null(a.err);
    assert_non_null(strstr(a.err, "-P"));
    /* UDP -P: N sockets, each a test at -b (iperf 2's threads) */
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-u", "-P", "2", "-b", "10M"), 0);
    assert_true(a.udp && a.parallel == 2 && a.rate_bps == 10000000u);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-u", "-P", "9"), -EINVAL);
    assert_non_null(a.err);
    assert_non_null(strstr(a.err, "-P"));
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-s", "-P", "4"), -EINVAL);
    assert_non_null(a.err);
    assert_non_null(strstr(a.err, "-P"));
    /* an error that is not -P's leaves err unset (plain usage) */
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-x"), -EINVAL);
    assert_null(a.err);
}

/* -w SIZE: the TCP client's send buffer (iperf 2 sizes SO_SNDBUF with it),
 * K/M suffixes in powers of 1024, 2K..16M; the server, UDP and sizes out
 * of range are refused naming -w. */
static void test_iperf_window_parses_on_tcp_client_only(void **state)
{
    struct iperf_args a;
    (void)state;
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2"), 0);
    assert_int_equal(a.window_bytes, 0);                    /* default: the stack's TCP_SND_BUF */
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-w", "64K"), 0);
    assert_int_equal(a.window_bytes, 65536);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-P", "2", "-w", "8000"), 0);
    assert_int_equal(a.window_bytes, 8000);                 /* per stream */
    assert_int_equal(a.parallel, 2);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-w", "2K"), 0);
    assert_int_equal(a.window_bytes, 2048);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-w", "16M"), 0);
    assert_int_equal(a.window_bytes, 16u << 20);

    static const char *const bad[] = { "2047", "0", "17M", "64Q", "", "-1" };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        char *v = (char *)bad[k];
        assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-w", v), -EINVAL);
        assert_non_null(a.err);
        assert_non_null(strstr(a.err, "-w"));
    }
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-w"), -EINVAL);
    assert_non_null(a.err);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-s", "-w", "64K"), -EINVAL);
    assert_non_null(a.err);
    assert_non_null(strstr(a.err, "client"));
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-u", "-w", "64K"), -EINVAL);
    assert_non_null(a.err);
    assert_non_null(strstr(a.err, "TCP only"));
}

/* -d: iperf 2's dual test, one stream from the client, TCP or UDP; the
 * server and -P N > 1 are refused naming -d. */
static void test_iperf_dual_is_a_one_stream_tcp_client_option(void **state)
{
    struct iperf_args a;
    (void)state;
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2"), 0);
    assert_false(a.dual);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-d", "-t", "3"), 0);
    assert_true(a.dual);
    assert_int_equal(a.time_s, 3);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-s", "-d"), -EINVAL);
    assert_non_null(a.err);
    assert_non_null(strstr(a.err, "-d"));
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-u", "-d", "-b", "10M"), 0);
    assert_true(a.dual && a.udp);
    assert_true(a.rate_bps == 10000000ull);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-d", "-P", "2"), -EINVAL);
    assert_non_null(a.err);
    assert_non_null(strstr(a.err, "-d"));
}

/* @opt on a client with each of @extra (an option and its value or NULL),
 * and on the server, is refused naming @opt. */
static void assert_one_stream_option_refuses(const char *opt, const char *const extra[][2], size_t n)
{
    struct iperf_args a;

    for (size_t k = 0; k < n; k++) {
        char *o = (char *)extra[k][0], *v = (char *)extra[k][1];
        int rc = v ? CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", (char *)opt, o, v)
                   : CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", (char *)opt, o);
        assert_int_equal(rc, -EINVAL);
        assert_non_null(a.err);
        assert_non_null(strstr(a.err, opt));
    }
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-s", (char *)opt), -EINVAL);
    assert_non_null(a.err);
    assert_non_null(strstr(a.err, opt));
}

/* -R: iperf 2.1's reverse test, one TCP or UDP stream from the client;
 * the server, -P, -d and -w are refused naming -R. */
static void test_iperf_reverse_is_a_one_stream_client_option(void **state)
{
    struct iperf_args a;
    (void)state;
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2"), 0);
    assert_false(a.reverse);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-R", "-t", "2"), 0);
    assert_true(a.reverse);
    assert_int_equal(a.time_s, 2);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-u", "-R", "-b", "200M"), 0);
    assert_true(a.reverse && a.udp);
    assert_int_equal(a.rate_bps, 200000000u);
    static const char *const extra[][2] = { { "-P", "2" }, { "-d", NULL }, { "-w", "64K" } };
    assert_one_stream_option_refuses("-R", extra, sizeof(extra) / sizeof(extra[0]));
}

/* -r: iperf 2's tradeoff test, one TCP or UDP stream; the server, -P,
 * -d and -R are refused naming -r. */
static void test_iperf_tradeoff_is_a_one_stream_client_option(void **state)
{
    struct iperf_args a;
    (void)state;
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-r"), 0);
    assert_true(a.tradeoff && !a.dual && !a.reverse);
    assert_int_equal(CALL(iperf_args_parse, &a, "iperf", "-c", "10.0.2.2", "-u", "-r", "-b", "50M"), 0);
    assert_true(a.tradeoff && a.udp);
    static const char *const extra[][2] = { { "-P", "2" }, { "-d", NULL }, { "-R", NULL } };
    assert_one_stream_option_refuses("-r", extra, sizeof(extra) / sizeof(extra[0]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_rate_si_suffixes_are_powers_of_1000),
        cmocka_unit_test(test_parse_rate_rejects_junk_zero_and_overflow),
        cmocka_unit_test(test_parse_size_suffixes_are_powers_of_1024),
        cmocka_unit_test(test_parse_ipv4_accepts_quads_and_rejects_malformed),
        cmocka_unit_test(test_parse_u32_enforces_range),
        cmocka_unit_test(test_iperf_udp_client_with_rate_parses),
        cmocka_unit_test(test_iperf_defaults_for_tcp_server_and_udp_client),
        cmocka_unit_test(test_iperf_bad_arguments_are_rejected),
        cmocka_unit_test(test_iperf_refusals_name_what_was_wrong),
        cmocka_unit_test(test_iperf_parallel_streams_parse_and_bad_ones_name_the_flag),
        cmocka_unit_test(test_iperf_window_parses_on_tcp_client_only),
        cmocka_unit_test(test_iperf_dual_is_a_one_stream_tcp_client_option),
        cmocka_unit_test(test_iperf_reverse_is_a_one_stream_client_option),
        cmocka_unit_test(test_iperf_tradeoff_is_a_one_stream_client_option),
        cmocka_unit_test(test_echo_args_default_port_7_and_bad_options),
        cmocka_unit_test(test_latency_args_defaults_and_bad_options),
        cmocka_unit_test(test_sweep_args_defaults_and_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
