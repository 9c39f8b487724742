/* emu/runner/util.c: the runner's one mkdir -p, parent creation and file
 * reader (issue 21: five private copies before, with drifting limits and
 * error reporting), against a real temporary directory. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../../common/rm_tree.h"
/* util.c allocates with the C library, so the test frees with it */
#undef malloc
#undef calloc
#undef realloc
#undef free

#include "util.h"

static char root[64];

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof(root), "/tmp/gemlab-util-XXXXXX");
    return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return rm_tree(root);
}

static bool is_dir(const char *p, mode_t *mode)
{
    struct stat st;
    if (stat(p, &st) || !S_ISDIR(st.st_mode))
        return false;
    if (mode)
        *mode = st.st_mode & 07777;
    return true;
}

static void write_file(const char *p, const char *text, size_t n)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void test_mkdir_p_creates_every_level_with_mode(void **state)
{
    char p[PATH_MAX], q[PATH_MAX];
    mode_t m, old = umask(0);
    (void)state;
    snprintf(p, sizeof(p), "%s/a/b//c/", root);
    assert_int_equal(runner_mkdir_p(p, 0700), 0);
    umask(old);
    snprintf(q, sizeof(q), "%s/a/b/c", root);
    assert_true(is_dir(q, &m));
    assert_int_equal(m, 0700);
    snprintf(q, sizeof(q), "%s/a", root);
    assert_true(is_dir(q, &m));
    assert_int_equal(m, 0700);
    /* again: everything exists, still 0 */
    assert_int_equal(runner_mkdir_p(p, 0700), 0);
}

static void test_mkdir_p_refuses_a_file_in_the_way(void **state)
{
    char f[PATH_MAX], p[PATH_MAX];
    (void)state;
    snprintf(f, sizeof(f), "%s/plain", root);
    write_file(f, "x", 1);
    /* the last component is a file: EEXIST from mkdir, but not a directory */
    assert_int_equal(runner_mkdir_p(f, 0755), -ENOTDIR);
    snprintf(p, sizeof(p), "%s/plain/sub", root);
    assert_int_equal(runner_mkdir_p(p, 0755), -ENOTDIR);
    assert_int_equal(runner_mkdir_p("", 0755), -ENOENT);
}

static void test_mkdir_p_too_long_is_enametoolong(void **state)
{
    char *p = malloc(PATH_MAX + 10);
    (void)state;
    assert_non_null(p);
    memset(p, 'a', PATH_MAX + 9);
    p[0] = '/';
    p[PATH_MAX + 9] = '\0';
    assert_int_equal(runner_mkdir_p(p, 0755), -ENAMETOOLONG);
    assert_int_equal(runner_mkdir_parents(p), -ENAMETOOLONG);
    free(p);
}

static void test_mkdir_parents_makes_parents_not_the_leaf(void **state)
{
    char p[PATH_MAX], q[PATH_MAX];
    (void)state;
    snprintf(p, sizeof(p), "%s/x/y/results.json", root);
    assert_int_equal(runner_mkdir_parents(p), 0);
    snprintf(q, sizeof(q), "%s/x/y", root);
    assert_true(is_dir(q, NULL));
    assert_false(is_dir(p, NULL));
    assert_int_equal(access(p, F_OK), -1);
    /* a bare name or a file in / has no parent to make */
    assert_int_equal(runner_mkdir_parents("name"), 0);
    assert_int_equal(runner_mkdir_parents("/name"), 0);
}

static void test_read_file_whole_text_and_length(void **state)
{
    char p[PATH_MAX];
    size_t n = 0, big = 10000;
    char *want = malloc(big), *got;
    (void)state;
    for (size_t i = 0; i < big; i++)
        want[i] = (char)('a' + i % 26);
    snprintf(p, sizeof(p), "%s/f.txt", root);
    write_file(p, want, big);
    got = runner_read_file(p, big, &n);     /* exactly the limit is fine */
    assert_non_null(got);
    assert_int_equal(n, big);
    assert_memory_equal(got, want, big);
    assert_int_equal(got[big], '\0');
    free(got);
    write_file(p, "", 0);
    got = runner_read_file(p, 16, &n);
    assert_non_null(got);
    assert_int_equal(n, 0);
    assert_string_equal(got, "");
    free(got);
    free(want);
}

static void test_read_file_over_limit_and_missing_set_errno(void **state)
{
    char p[PATH_MAX];
    (void)state;
    snprintf(p, sizeof(p), "%s/g.txt", root);
    write_file(p, "0123456789", 10);
    errno = 0;
    assert_null(runner_read_file(p, 9, NULL));
    assert_int_equal(errno, EFBIG);
    snprintf(p, sizeof(p), "%s/none.txt", root);
    errno = 0;
    assert_null(runner_read_file(p, 100, NULL));
    assert_int_equal(errno, ENOENT);
    /* a directory is not read */
    errno = 0;
    assert_null(runner_read_file(root, 100, NULL));
    assert_int_equal(errno, EINVAL);
    /* nor is a FIFO, and opening it does not wait for a writer */
    snprintf(p, sizeof(p), "%s/fifo", root);
    assert_int_equal(mkfifo(p, 0600), 0);
    errno = 0;
    assert_null(runner_read_file(p, 100, NULL));
    assert_int_equal(errno, EINVAL);
    unlink(p);
}

static void test_appendf_never_passes_the_end(void **state)
{
    char b[16];
    size_t o;
    (void)state;
    o = runner_appendf(b, sizeof(b), 0, "%s", "abc");
    assert_int_equal(o, 3);
    o = runner_appendf(b, sizeof(b), o, "%.2f", 1e30);   /* 33 characters */
    assert_int_equal(o, sizeof(b) - 1);
    assert_int_equal(strlen(b), sizeof(b) - 1);
    assert_memory_equal(b, "abc100000000000", 16);
    /* once full, further text is dropped and the offset stays */
    o = runner_appendf(b, sizeof(b), o, "more");
    assert_int_equal(o, sizeof(b) - 1);
    assert_int_equal(strlen(b), sizeof(b) - 1);
    /* an offset past the end (a caller's snprintf sum) writes nothing */
    assert_int_equal(runner_appendf(b, sizeof(b), 400, "x"), sizeof(b) - 1);
    assert_int_equal(b[15], '\0');
}

/* The traffic a run does after boot (run.c).  No link means no traffic
 * in either clock: with --net sim the peer's client used to start anyway
 * and the run failed on its virtual timeout ("no iperf result from the
 * receiving board"), so no_cable in virtual time could not pass. */
static void test_traffic_path_no_link_skips_in_both_clocks(void **state)
{
    (void)state;
    assert_int_equal(runner_traffic_path(true, true, false), RUNNER_TRAFFIC_NO_LINK);
    assert_int_equal(runner_traffic_path(false, false, false), RUNNER_TRAFFIC_NO_LINK);
}

static void test_traffic_path_with_link(void **state)
{
    (void)state;
    assert_int_equal(runner_traffic_path(true, true, true), RUNNER_TRAFFIC_SIM);
    assert_int_equal(runner_traffic_path(false, false, true), RUNNER_TRAFFIC_HOST);
    /* virtual time without the peer (Linux, --net idle) stays idle for
     * [traffic] duration, link or not, so its timeline still runs */
    assert_int_equal(runner_traffic_path(false, true, true), RUNNER_TRAFFIC_VT_IDLE);
    assert_int_equal(runner_traffic_path(false, true, false), RUNNER_TRAFFIC_VT_IDLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mkdir_p_creates_every_level_with_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mkdir_p_refuses_a_file_in_the_way, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mkdir_p_too_long_is_enametoolong, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mkdir_parents_makes_parents_not_the_leaf, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_file_whole_text_and_length, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_file_over_limit_and_missing_set_errno, setup, teardown),
        cmocka_unit_test(test_appendf_never_passes_the_end),
        cmocka_unit_test(test_traffic_path_no_link_skips_in_both_clocks),
        cmocka_unit_test(test_traffic_path_with_link),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
