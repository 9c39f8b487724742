/* relpath() in emu/runner/merge.c (the links from merged reports to run
 * directories) with a run directory whose real path is PATH_MAX - 1 bytes
 * long, the longest realpath() returns: relpath appends a '/' to it
 * (docs/SECURITY.md R10: one byte past a PATH_MAX buffer; ASan with SAN=1).
 * The module is included (`#include "module.c"`) to reach its static
 * functions. */
#include "../../../emu/runner/merge.c"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

static void test_relpath_to_a_path_max_long_directory_stays_in_bounds(void **state)
{
    static char top[64], deep[PATH_MAX], out[2 * PATH_MAX];
    size_t n;
    (void)state;

    snprintf(top, sizeof(top), "/tmp/gemlab-mgp-XXXXXX");
    assert_non_null(mkdtemp(top));
    /* components of up to 200 bytes until the path is PATH_MAX - 1 long */
    n = (size_t)snprintf(deep, sizeof(deep), "%s", top);
    while (n < PATH_MAX - 1) {
        size_t part = PATH_MAX - 1 - n - 1 > 200 ? 200 : PATH_MAX - 1 - n - 1;
        if (part == 0)      /* one byte left: make the last component longer */
            break;
        deep[n++] = '/';
        memset(deep + n, 'd', part);
        n += part;
        deep[n] = '\0';
        assert_int_equal(mkdir(deep, 0700), 0);
    }
    assert_int_equal(strlen(deep), PATH_MAX - 1);
    relpath(top, deep, out, sizeof(out));
    assert_int_equal(strncmp(out, "ddd", 3), 0);    /* relative to @top */
    assert_int_equal(strlen(out), PATH_MAX - 1 - strlen(top) - 1);
    relpath(deep, top, out, sizeof(out));
    assert_int_equal(strncmp(out, "../", 3), 0);
    /* clean up, deepest first */
    while (strlen(deep) > strlen(top)) {
        assert_int_equal(rmdir(deep), 0);
        *strrchr(deep, '/') = '\0';
    }
    assert_int_equal(rmdir(top), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relpath_to_a_path_max_long_directory_stays_in_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
