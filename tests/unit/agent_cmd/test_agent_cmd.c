/* Unit tests for firmware/linux/agent/agent_cmd.c: console line splitting,
 * command lookup, argument validation and iperf3 -J output extraction. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "agent_cmd.h"

static void test_split_blanks_and_crlf_give_words(void **state)
{
    char line[] = "  run\tiperf3  -c 10.0.2.2 -J\r\n";
    struct agent_argv a;

    (void)state;
    assert_int_equal(agent_split(line, &a), 0);
    assert_int_equal(a.argc, 5);
    assert_string_equal(a.argv[0], "run");
    assert_string_equal(a.argv[1], "iperf3");
    assert_string_equal(a.argv[3], "10.0.2.2");
    assert_string_equal(a.argv[4], "-J");
    assert_null(a.argv[5]);
}

static void test_split_blank_line_is_empty_command(void **state)
{
    char line[] = " \t\r\n";
    struct agent_argv a;

    (void)state;
    assert_int_equal(agent_split(line, &a), 0);
    assert_int_equal(a.argc, 0);
    assert_int_equal(agent_cmd_lookup(&a), AGENT_CMD_EMPTY);
}

static void test_split_too_many_words_is_e2big(void **state)
{
    char line[4 * (AGENT_MAX_ARGS + 1) + 1];
    struct agent_argv a;
    size_t n = 0;

    (void)state;
    for (int i = 0; i < AGENT_MAX_ARGS + 1; i++)
        n += (size_t)sprintf(line + n, "x%d ", i % 10);
    assert_int_equal(agent_split(line, &a), -E2BIG);
    assert_int_equal(a.argc, 0);
}

static void test_split_exactly_max_words_fits(void **state)
{
    char line[4 * AGENT_MAX_ARGS + 1];
    struct agent_argv a;
    size_t n = 0;

    (void)state;
    for (int i = 0; i < AGENT_MAX_ARGS; i++)
        n += (size_t)sprintf(line + n, "x%d ", i % 10);
    assert_int_equal(agent_split(line, &a), 0);
    assert_int_equal(a.argc, AGENT_MAX_ARGS);
}

static void test_lookup_every_command_and_unknown(void **state)
{
    static const struct {
        const char *word;
        enum agent_cmd cmd;
    } rows[] = {
        { "help", AGENT_CMD_HELP }, { "stats", AGENT_CMD_STATS },
        { "link", AGENT_CMD_LINK }, { "run", AGENT_CMD_RUN },
        { "irq-affinity", AGENT_CMD_IRQ_AFFINITY },
        { "sockbuf", AGENT_CMD_SOCKBUF }, { "tcp-port", AGENT_CMD_TCP_PORT },
        { "advertise", AGENT_CMD_ADVERTISE },
        { "ring", AGENT_CMD_RING },
        { "downshift", AGENT_CMD_DOWNSHIFT },
        { "rps", AGENT_CMD_RPS },
        { "STATS", AGENT_CMD_UNKNOWN },
        { "reboot", AGENT_CMD_UNKNOWN }, { "runx", AGENT_CMD_UNKNOWN },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char buf[32];
        struct agent_argv a;

        strcpy(buf, rows[i].word);
        assert_int_equal(agent_split(buf, &a), 0);
        assert_int_equal(agent_cmd_lookup(&a), rows[i].cmd);
    }
}

static void test_tool_path_only_iperf_tools(void **state)
{
    (void)state;
    assert_string_equal(agent_tool_path("iperf3"), "/usr/bin/iperf3");
    assert_string_equal(agent_tool_path("iperf"), "/usr/bin/iperf");
    assert_null(agent_tool_path("sh"));
    assert_null(agent_tool_path("/usr/bin/iperf3"));
    assert_null(agent_tool_path("iperf33"));
}

static void test_want_json_on_J_or_long_option_only(void **state)
{
    char *with_j[] = { "-c", "1.2.3.4", "-J", NULL };
    char *with_long[] = { "--json", NULL };
    char *without[] = { "-c", "-Jx", "J", NULL };

    (void)state;
    assert_true(agent_args_want_json(3, with_j));
    assert_true(agent_args_want_json(1, with_long));
    assert_false(agent_args_want_json(3, without));
}

static void test_mask_hex_accepted_zero_and_junk_rejected(void **state)
{
    unsigned long m = 0;

    (void)state;
    assert_int_equal(agent_parse_mask("2", &m), 0);
    assert_int_equal(m, 2);
    assert_int_equal(agent_parse_mask("0x3", &m), 0);
    assert_int_equal(m, 3);
    assert_int_equal(agent_parse_mask("ffffffff", &m), 0);
    assert_int_equal(m, 0xFFFFFFFFUL);
    assert_int_equal(agent_parse_mask("0", &m), -EINVAL);
    assert_int_equal(agent_parse_mask("", &m), -EINVAL);
    assert_int_equal(agent_parse_mask("-1", &m), -EINVAL);
    assert_int_equal(agent_parse_mask("3g", &m), -EINVAL);
    assert_int_equal(agent_parse_mask("100000000", &m), -EINVAL);
}

/* `ring RX TX` (ethtool -G): decimal counts, 0 keeps that ring. */
static void test_ring_sizes_decimal_and_junk(void **state)
{
    unsigned n = 7;

    (void)state;
    assert_int_equal(agent_parse_ring("128", &n), 0);
    assert_int_equal(n, 128);
    assert_int_equal(agent_parse_ring("0", &n), 0);
    assert_int_equal(n, 0);
    n = 7;
    assert_int_equal(agent_parse_ring("65536", &n), -EINVAL);
    assert_int_equal(agent_parse_ring("-1", &n), -EINVAL);
    assert_int_equal(agent_parse_ring("0x40", &n), -EINVAL);
    assert_int_equal(agent_parse_ring("64;reboot", &n), -EINVAL);
    assert_int_equal(agent_parse_ring("", &n), -EINVAL);
    assert_int_equal(agent_parse_ring(NULL, &n), -EINVAL);
    assert_int_equal(n, 7);
}

/* `downshift off|on [N]`: ETHTOOL_PHY_DOWNSHIFT's count, 0 = off. */
static void test_downshift_words_and_counts(void **state)
{
    char *off[] = { "downshift", "off", NULL }, *on[] = { "downshift", "on", NULL };
    char *on2[] = { "downshift", "on", "2", NULL }, *on9[] = { "downshift", "on", "9", NULL };
    char *on0[] = { "downshift", "on", "0", NULL }, *bad[] = { "downshift", "maybe", NULL };
    char *offn[] = { "downshift", "off", "3", NULL };
    unsigned n = 77;

    (void)state;
    assert_int_equal(agent_parse_downshift(2, off, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(agent_parse_downshift(2, on, &n), 0);
    assert_int_equal(n, 8);
    assert_int_equal(agent_parse_downshift(3, on2, &n), 0);
    assert_int_equal(n, 2);
    n = 77;
    assert_int_equal(agent_parse_downshift(3, on9, &n), -EINVAL);
    assert_int_equal(agent_parse_downshift(3, on0, &n), -EINVAL);
    assert_int_equal(agent_parse_downshift(2, bad, &n), -EINVAL);
    assert_int_equal(agent_parse_downshift(3, offn, &n), -EINVAL);
    assert_int_equal(agent_parse_downshift(1, off, &n), -EINVAL);
    assert_int_equal(n, 77);
}

/* `advertise HEXMASK` (issue 20): ethtool(8) advertise bits only. */
static void test_advertise_mask_bits_and_junk(void **state)
{
    unsigned long m = 7;

    (void)state;
    assert_int_equal(agent_parse_advertise("0xc", &m), 0);
    assert_int_equal(m, 0xc);
    assert_int_equal(agent_parse_advertise("602f", &m), 0);
    assert_int_equal(m, 0x602f);
    m = 7;
    assert_int_equal(agent_parse_advertise("0x2000", &m), -EINVAL);   /* no speed */
    assert_int_equal(agent_parse_advertise("0x80", &m), -EINVAL);     /* 10000baseT */
    assert_int_equal(agent_parse_advertise("0x8008", &m), -EINVAL);
    assert_int_equal(agent_parse_advertise("0", &m), -EINVAL);
    assert_int_equal(agent_parse_advertise("", &m), -EINVAL);
    assert_int_equal(agent_parse_advertise("c;reboot", &m), -EINVAL);
    assert_int_equal(agent_parse_advertise(NULL, &m), -EINVAL);
    assert_int_equal(m, 7);
}

static void test_bytes_suffixes_and_bounds(void **state)
{
    unsigned long b = 0;

    (void)state;
    assert_int_equal(agent_parse_bytes("262144", &b), 0);
    assert_int_equal(b, 262144);
    assert_int_equal(agent_parse_bytes("256K", &b), 0);
    assert_int_equal(b, 262144);
    assert_int_equal(agent_parse_bytes("4m", &b), 0);
    assert_int_equal(b, 4UL << 20);
    assert_int_equal(agent_parse_bytes("4096", &b), 0);
    assert_int_equal(agent_parse_bytes("256M", &b), 0);
    assert_int_equal(agent_parse_bytes("4095", &b), -EINVAL);
    assert_int_equal(agent_parse_bytes("257M", &b), -EINVAL);
    assert_int_equal(agent_parse_bytes("1G", &b), -EINVAL);
    assert_int_equal(agent_parse_bytes("-4096", &b), -EINVAL);
    assert_int_equal(agent_parse_bytes("12KB", &b), -EINVAL);
}

static void test_json_flatten_finds_object_and_joins_lines(void **state)
{
    char out[] = "warning: x\n{\n\t\"start\": {\"a\": [1,\n2]},\n\t\"s\": \"}{\\\"\"\n}\ntrailer";
    size_t s, e;

    (void)state;
    assert_true(agent_json_object_flatten(out, &s, &e));
    assert_int_equal(s, strlen("warning: x\n"));
    assert_int_equal(out[e - 1], '}');
    assert_string_equal(out + e, "\ntrailer");
    for (size_t i = s; i < e; i++)
        assert_true(out[i] != '\n' && out[i] != '\t');
}

/* Brackets match by kind: a ']' does not close a '{' (found by fuzzing). */
static void test_json_flatten_rejects_mismatched_bracket(void **state)
{
    char bad[] = "x {\"a\": [1, 2} ] tail";
    char good[] = "x {\"a\": [1, {\"b\": 2}]} tail";
    size_t s, e;
    (void)state;
    assert_false(agent_json_object_flatten(bad, &s, &e));
    assert_true(agent_json_object_flatten(good, &s, &e));
    assert_int_equal(s, 2);
    assert_int_equal(good[e - 1], '}');
    assert_int_equal(e, strlen(good) - 5);
}

static void test_json_flatten_rejects_truncated_or_raw_newline_in_string(void **state)
{
    char truncated[] = "{\"a\": {\"b\": 1}";
    char raw_nl[] = "{\"a\": \"x\ny\"}";
    char none[] = "iperf3: error - unable to connect";
    size_t s, e;

    (void)state;
    assert_false(agent_json_object_flatten(truncated, &s, &e));
    assert_false(agent_json_object_flatten(raw_nl, &s, &e));
    assert_false(agent_json_object_flatten(none, &s, &e));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_blanks_and_crlf_give_words),
        cmocka_unit_test(test_split_blank_line_is_empty_command),
        cmocka_unit_test(test_split_too_many_words_is_e2big),
        cmocka_unit_test(test_split_exactly_max_words_fits),
        cmocka_unit_test(test_lookup_every_command_and_unknown),
        cmocka_unit_test(test_tool_path_only_iperf_tools),
        cmocka_unit_test(test_want_json_on_J_or_long_option_only),
        cmocka_unit_test(test_mask_hex_accepted_zero_and_junk_rejected),
        cmocka_unit_test(test_bytes_suffixes_and_bounds),
        cmocka_unit_test(test_advertise_mask_bits_and_junk),
        cmocka_unit_test(test_ring_sizes_decimal_and_junk),
        cmocka_unit_test(test_downshift_words_and_counts),
        cmocka_unit_test(test_json_flatten_finds_object_and_joins_lines),
        cmocka_unit_test(test_json_flatten_rejects_truncated_or_raw_newline_in_string),
        cmocka_unit_test(test_json_flatten_rejects_mismatched_bracket),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
