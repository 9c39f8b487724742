/* tests/common/bench_time.h - what the C micro-benchmarks
 * (tests/bench/models, tests/bench/phy) share: a monotonic clock in
 * seconds, a qsort(3) comparator for their samples, and one case's
 * instruction count under valgrind's callgrind (valgrind(1),
 * --tool=callgrind; the "totals:"/"summary:" lines of the
 * callgrind_annotate file format).  The includer defines _POSIX_C_SOURCE
 * 200809L (or _GNU_SOURCE) before its first include, for clock_gettime,
 * mkstemp and system. */
#ifndef GEMLAB_TESTS_BENCH_TIME_H
#define GEMLAB_TESTS_BENCH_TIME_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Total instructions of `self --count CASE N` under callgrind, or 0 when
 * valgrind is missing or the run fails. */
static inline unsigned long long callgrind_ir(const char *self, const char *name, uint64_t n)
{
    char out[] = "/tmp/gemlab-bench-cg-XXXXXX";
    char cmd[1024], line[512];
    unsigned long long ir = 0;
    int fd = mkstemp(out);
    FILE *f;

    if (fd < 0) {
        return 0;
    }
    close(fd);
    snprintf(cmd, sizeof(cmd),
             "valgrind --tool=callgrind --callgrind-out-file=%s %s --count %s %llu "
             ">/dev/null 2>&1",
             out, self, name, (unsigned long long)n);
    if (system(cmd) == 0 && (f = fopen(out, "r")) != NULL) {
        while (fgets(line, sizeof(line), f)) {
            if (sscanf(line, "totals: %llu", &ir) == 1 ||
                sscanf(line, "summary: %llu", &ir) == 1) {
                break;
            }
        }
        fclose(f);
    }
    unlink(out);
    return ir;
}

#endif
