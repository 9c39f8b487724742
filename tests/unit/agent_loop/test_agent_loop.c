/* test_agent_loop.c - the Linux guest agent's console loop (agent.c main):
 * commands on stdin (a pipe here), JSON lines on stdout (a temporary file).
 *
 * docs/SECURITY.md F3: the loop found line ends with strchr(), which stops
 * at a NUL byte, so after a NUL on the console no later command ran until
 * 4 KiB had piled up and were dropped as one over-long line.  Line ends
 * are now found over the bytes actually read, and a line holding a NUL is
 * refused with an error line. */
int agent_main(int argc, char **argv);
#define main agent_main
#include "agent.c"          /* before cmocka.h, which redefines malloc() */
#undef main

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static char out[65536];

/* Run the agent (interface "lo") on input[0..n), return its output. */
static const char *run_agent(const char *input, size_t n)
{
    int in[2], saved_in, saved_out;
    FILE *tmp = tmpfile();
    char *argv[] = { "gemlab-agent", "lo", NULL };
    size_t got;

    assert_non_null(tmp);
    assert_int_equal(pipe(in), 0);
    assert_true(write(in[1], input, n) == (ssize_t)n);
    close(in[1]);                       /* EOF after the input: the agent returns */
    saved_in = dup(STDIN_FILENO);
    saved_out = dup(STDOUT_FILENO);
    fflush(stdout);
    dup2(in[0], STDIN_FILENO);
    dup2(fileno(tmp), STDOUT_FILENO);
    int rc = agent_main(2, argv);
    dup2(saved_in, STDIN_FILENO);
    dup2(saved_out, STDOUT_FILENO);
    close(saved_in);
    close(saved_out);
    close(in[0]);
    assert_int_equal(rc, 0);
    rewind(tmp);
    got = fread(out, 1, sizeof(out) - 1, tmp);
    out[got] = '\0';
    fclose(tmp);
    return out;
}

static bool has_help_result(const char *o)
{
    return strstr(o, "\"type\":\"result\",\"cmd\":\"help\"") != NULL;
}

static void test_plain_help_is_answered(void **state)
{
    static const char in[] = "help\n";
    (void)state;
    assert_true(has_help_result(run_agent(in, sizeof(in) - 1)));
}

static void test_nul_line_is_refused_and_next_command_runs(void **state)
{
    static const char in[] = "\0\nhelp\n";
    (void)state;
    const char *o = run_agent(in, sizeof(in) - 1);
    assert_true(has_help_result(o));
    assert_non_null(strstr(o, "NUL"));
}

static void test_nul_inside_a_command_is_not_run_truncated(void **state)
{
    static const char in[] = "help\0 stats\nlink\n";
    (void)state;
    const char *o = run_agent(in, sizeof(in) - 1);
    assert_false(has_help_result(o));              /* "help" before the NUL did not run */
    assert_non_null(strstr(o, "\"reason\":\"request\""));
}

/* `run -b`: the tool runs in the background while the agent answers the
 * next command; its result line, "background":true, comes when it exits
 * (here at the latest when the console closes).  /usr/bin/iperf is on the
 * host (scripts/deps/baremetal.list); `iperf -v` prints its version on
 * stderr and exits 1. */
static void test_background_run_answers_when_the_tool_exits(void **state)
{
    static const char in[] = "run -b iperf -v\nhelp\n";
    const char *o, *st, *res;
    (void)state;
    o = run_agent(in, sizeof(in) - 1);
    st = strstr(o, "\"type\":\"status\",\"cmd\":\"run\",\"tool\":\"iperf\",\"background\":true,\"pid\":");
    res = strstr(o, "\"type\":\"result\",\"cmd\":\"run\",\"tool\":\"iperf\",\"argv\":[\"-v\"],"
                    "\"background\":true,\"exit\":1,");
    assert_non_null(st);
    assert_non_null(res);
    assert_true(st < res);
    assert_true(has_help_result(o));
    assert_non_null(strstr(res, "iperf version 2."));
}

/* one background tool at a time; a tool not on the list is refused */
static void test_second_background_run_is_refused(void **state)
{
    static const char in[] = "run -b iperf -v\nrun -b iperf -v\nrun -b sh -c id\nrun -b\n";
    const char *o;
    (void)state;
    o = run_agent(in, sizeof(in) - 1);
    assert_non_null(strstr(o, "a background run is still going"));
    assert_non_null(strstr(o, "tool not allowed"));
    assert_non_null(strstr(o, "usage: run [-b]"));
    /* the first one still answers, once */
    assert_non_null(strstr(o, "\"background\":true,\"exit\":1,"));
    assert_null(strstr(strstr(o, "\"background\":true,\"exit\":1,") + 1, "\"background\":true,\"exit\""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_help_is_answered),
        cmocka_unit_test(test_nul_line_is_refused_and_next_command_runs),
        cmocka_unit_test(test_nul_inside_a_command_is_not_run_truncated),
        cmocka_unit_test(test_background_run_answers_when_the_tool_exits),
        cmocka_unit_test(test_second_background_run_is_refused),
    };
    return cmocka_run_group_tests_name("agent_loop", tests, NULL, NULL);
}
