/* tests/common/slurp.h - the whole of a file a test's code under test
 * wrote, read by the test itself.  It is compiled in the test's own unit,
 * so under cmocka its calloc is cmocka's (test_calloc) and the test's
 * free() matches it, which the runner's runner_read_file (emu/runner/
 * util.h, real malloc) would not. */
#ifndef GEMLAB_TESTS_SLURP_H
#define GEMLAB_TESTS_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/* @path's bytes, NUL-terminated; NULL when it cannot be opened or read */
static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    long n;
    char *buf = NULL;

    if (!f) {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = calloc(1, (size_t)n + 1)) != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

#endif
