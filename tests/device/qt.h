/*
 * qt.h - a small qtest + QMP client for gemlab's device tests.
 *
 * It starts our qemu-system-arm with `-accel qtest`, listening itself on
 * two unix sockets that QEMU connects to: one for the qtest text protocol
 * (docs/devel/qtest.rst: "writel ADDR VAL", "readl ADDR",
 * "clock_step NS", answered "OK ..." / "FAIL ..."), one for QMP.  Guest
 * time only moves when a test calls qt_step(), so every timing assertion
 * is exact.
 *
 * Errors: a broken connection or a FAIL answer is a harness failure; it
 * is reported through qt_failed() and the test that hit it fails.
 */
#ifndef GEMLAB_TESTS_DEVICE_QT_H
#define GEMLAB_TESTS_DEVICE_QT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define QT_RESP_MAX 8192

struct qt {
    pid_t pid;
    int qtest_fd;
    int qmp_fd;
    char dir[64];          /* private temp dir: sockets, stderr log */
    char rbuf[QT_RESP_MAX];/* qtest line buffer */
    size_t rlen;
    uint64_t now_ns;       /* virtual clock, as the last step reported */
    bool failed;           /* a protocol error happened */
    char events[QT_RESP_MAX]; /* QMP events seen since the last check */
    /* qt_event_count(): events containing count_needle, and the last */
    const char *count_needle;
    unsigned count_hits;
    char count_last[512];
    char last_err[512];
    /* Running totals of the GEM statistics registers (0x100..0x1B0),
     * which clear on read: tests read them the way a driver does. */
    uint64_t gem_stats[0x60];
};

/* QEMU binary (from $QEMU, set by the Makefile). */
const char *qt_qemu(void);

/*
 * Start QEMU on xilinx-zynq-a9 (flash=off) with @extra appended to the
 * command line (split on spaces).  Returns 0, or -1 if it did not come
 * up; qt_stderr() then holds what it printed.
 */
int qt_start(struct qt *q, const char *extra);

/* Stop QEMU (QMP quit, then SIGKILL) and remove the temp dir.  Safe to
 * call twice. */
void qt_stop(struct qt *q);

/* Stop every QEMU still running (a test that failed early). */
void qt_stop_all(void);

/*
 * Run QEMU to completion with @extra, expecting it to exit at startup.
 * Returns its exit status (or -1) and its stderr in @err.
 */
int qt_run_expect_exit(const char *extra, char *err, size_t errlen);

/* What QEMU printed on stderr so far. */
const char *qt_stderr(struct qt *q, char *buf, size_t len);

uint32_t qt_readl(struct qt *q, uint64_t addr);
void qt_writel(struct qt *q, uint64_t addr, uint32_t val);
/* Guest memory block write / read (qtest "write"/"read", hex). */
void qt_memwrite(struct qt *q, uint64_t addr, const void *buf, size_t len);
void qt_memread(struct qt *q, uint64_t addr, void *buf, size_t len);
/* Advance virtual time by @ns; returns the new virtual time. */
uint64_t qt_step(struct qt *q, uint64_t ns);

/*
 * Send one QMP command (a JSON object).  Returns 0 on {"return": ...},
 * 1 on {"error": ...}, -1 on a broken connection.  The full answer is
 * copied to @resp when non-NULL.
 */
int qt_qmp(struct qt *q, char *resp, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* qom-get of a number / bool / string property. */
int qt_qom_get_u64(struct qt *q, const char *path, const char *prop,
                   uint64_t *val);
int qt_qom_get_bool(struct qt *q, const char *path, const char *prop,
                    bool *val);
int qt_qom_get_str(struct qt *q, const char *path, const char *prop,
                   char *buf, size_t len);
/* qom-set with @json_value as given; returns like qt_qmp, @resp holds
 * the answer (the error description on failure). */
int qt_qom_set(struct qt *q, const char *path, const char *prop,
               const char *json_value, char *resp, size_t len);

/* The "desc" string of a QMP error answer, or "" */
const char *qt_qmp_desc(const char *resp, char *buf, size_t len);

/*
 * True when one QMP event line containing every string of the
 * NULL-terminated list arrived since the last call (a query-status round
 * trip collects the pending ones); clears the log.
 */
bool qt_event_seen(struct qt *q, const char *needle, ...)
    __attribute__((sentinel));

/*
 * How many QMP events containing @needle QEMU has sent since the last
 * call (a query-status round trip collects them all, however many); the
 * last such event line is copied to @last (may be NULL).  Clears the log
 * of qt_event_seen() too.
 */
unsigned qt_event_count(struct qt *q, const char *needle, char *last,
                        size_t len);

/* "running", or how QEMU ended ("killed by signal 11", "exited 1"). */
const char *qt_status(struct qt *q, char *buf, size_t len);

/* QEMU's resident set size (VmRSS) in KiB, or 0 if unknown. */
unsigned long qt_rss_kib(struct qt *q);

bool qt_failed(const struct qt *q);

#endif /* GEMLAB_TESTS_DEVICE_QT_H */
