/* emu/runner/provenance.c: which QEMU build a run used, from the binary's
 * path in the emu/qemu cache (emu/qemu/build.sh: VER-KEY/build/ for 7.2,
 * VER-KEY/bin/FULL/ for 10.0).  The 10.0 layout was not read, so every
 * run had qemu_build and qemu_patch "" and a baseline never saw the QEMU
 * build change. */
#include "provenance.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

static void check(const char *qemu, const char *build, const char *patch)
{
    char b[256], p[128];

    prov_qemu_build(qemu, b, sizeof(b), p, sizeof(p));
    if (strcmp(b, build) || strcmp(p, patch))
        fail_msg("%s: got '%s' '%s', want '%s' '%s'", qemu, b, p, build, patch);
}

static void test_qemu_build_of_both_cache_layouts(void **state)
{
    (void)state;
    check("/root/.cache/gemlab/qemu/10.0.13+ds-0+deb13u1-54a265918df9/bin/e38e07fca92e/qemu-system-arm",
          "10.0.13+ds-0+deb13u1-54a265918df9", "54a265918df9/e38e07fca92e");
    check("/home/u/.cache/gemlab/qemu/7.2+dfsg-7+deb12u18-500351a9ae1f/build/qemu-system-arm",
          "7.2+dfsg-7+deb12u18-500351a9ae1f", "500351a9ae1f");
}

static void test_qemu_build_of_other_paths_is_empty(void **state)
{
    static const char *const other[] = {
        "/usr/bin/qemu-system-arm",          /* Debian's: bin/ but no VER-KEY above */
        "qemu-system-arm",
        "/bin/x/qemu-system-arm",            /* nothing above bin/ */
        "/a/nodash/bin/x/qemu-system-arm",   /* no KEY in the directory name */
        "/a/v-k/build/qemu-system-arm-extra",
        "/a/v-k/build/",
        "",
    };
    (void)state;
    for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
        check(other[i], "", "");
    /* the runner's own build tree: 7.2's layout without the cache */
    check("/a/v-k/build/qemu-system-arm", "v-k", "k");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qemu_build_of_both_cache_layouts),
        cmocka_unit_test(test_qemu_build_of_other_paths_is_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
