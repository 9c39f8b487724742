/* test_shell.c - the bare-metal UART shell's line editor (apps/shell/shell.c)
 * on the host: what runs when a line is too long for its 160-byte buffer.
 *
 * docs/SECURITY.md F3: characters beyond 159 were dropped (with a bell) and
 * the truncated line was then executed as if it had been typed that way -
 * "iperf -c HOST ... -t 5<lost>0" runs a different test than asked.  An
 * over-long line is now refused with an error and nothing runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "bsp.h"
#include "shell.h"
#include "shell_priv.h"

int uart_getc(void)
{
    return -1;
}

static unsigned runs;
static char last_arg[256];

static int cmd_rec(int argc, char **argv)
{
    runs++;
    snprintf(last_arg, sizeof(last_arg), "%s", argc > 1 ? argv[1] : "");
    return 0;
}

static const struct shell_cmd rec_cmd = { .name = "rec", .usage = "rec [ARG]", .fn = cmd_rec };

/* The shell prints to stdout: during a test, fd 1 goes to a temporary
 * file (cmocka prints its own lines before setup and after teardown). */
static FILE *out_file;
static int saved_fd = -1;
static char out_text[8192];

static int setup(void **state)
{
    static bool registered;
    (void)state;
    if (!registered) {
        shell_register(&rec_cmd);
        registered = true;
    }
    runs = 0;
    last_arg[0] = '\0';
    fflush(stdout);
    out_file = tmpfile();
    assert_non_null(out_file);
    saved_fd = dup(1);
    assert_true(saved_fd >= 0);
    assert_true(dup2(fileno(out_file), 1) == 1);
    shell_input(0x15);                  /* Ctrl-U: start from an empty line */
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fflush(stdout);
    dup2(saved_fd, 1);
    close(saved_fd);
    fclose(out_file);
    return 0;
}

static const char *output(void)
{
    size_t n;
    fflush(stdout);
    rewind(out_file);
    n = fread(out_text, 1, sizeof(out_text) - 1, out_file);
    out_text[n] = '\0';
    return out_text;
}

static void type_line(const char *s)
{
    for (; *s; s++)
        shell_input((unsigned char)*s);
    shell_input('\r');
}

/* "rec " + an argument of n - 4 characters: an n-character line. */
static void type_rec_line(size_t n)
{
    char buf[400];
    assert_true(n >= 5 && n < sizeof(buf));
    memcpy(buf, "rec ", 4);
    memset(buf + 4, 'a', n - 4);
    buf[n] = '\0';
    type_line(buf);
}

static void test_line_of_159_chars_runs(void **state)
{
    (void)state;
    type_rec_line(159);
    assert_int_equal(runs, 1);
    assert_int_equal(strlen(last_arg), 155);
}

static void test_line_of_160_chars_is_refused_and_not_run(void **state)
{
    (void)state;
    type_rec_line(160);
    assert_int_equal(runs, 0);
    assert_non_null(strstr(output(), "error: line too long"));
}

static void test_line_of_300_chars_is_refused_and_not_run(void **state)
{
    (void)state;
    type_rec_line(300);
    assert_int_equal(runs, 0);
    assert_non_null(strstr(output(), "error: line too long"));
}

static void test_next_line_after_refused_one_runs(void **state)
{
    (void)state;
    type_rec_line(200);
    type_line("rec ok");
    assert_int_equal(runs, 1);
    assert_string_equal(last_arg, "ok");
}

static void test_ctrl_u_after_overflow_starts_a_clean_line(void **state)
{
    (void)state;
    for (int i = 0; i < 200; i++)
        shell_input('z');
    shell_input(0x15);
    type_line("rec fresh");
    assert_int_equal(runs, 1);
    assert_string_equal(last_arg, "fresh");
    assert_null(strstr(output(), "error: line too long"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_line_of_159_chars_runs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_line_of_160_chars_is_refused_and_not_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_line_of_300_chars_is_refused_and_not_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_next_line_after_refused_one_runs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ctrl_u_after_overflow_starts_a_clean_line, setup, teardown),
    };
    return cmocka_run_group_tests_name("shell", tests, NULL, NULL);
}
