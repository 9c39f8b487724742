/*
 * qt.c - qtest + QMP client (see qt.h).
 */
#include "qt.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define QT_ARGV_MAX 96
#define QT_TIMEOUT_MS 20000
#define QT_LIVE_MAX 8
#define MIN_SZ(a, b) ((a) < (b) ? (a) : (b))

/* Every started, not yet stopped instance (for qt_stop_all). */
static struct qt *live[QT_LIVE_MAX];

static void qt_track(struct qt *q, bool on)
{
    for (int i = 0; i < QT_LIVE_MAX; i++) {
        if (on ? live[i] == NULL : live[i] == q) {
            live[i] = on ? q : NULL;
            return;
        }
    }
}

void qt_stop_all(void)
{
    for (int i = 0; i < QT_LIVE_MAX; i++) {
        if (live[i]) {
            qt_stop(live[i]);
        }
    }
}

const char *qt_qemu(void)
{
    const char *p = getenv("QEMU");

    return p && *p ? p : "qemu-system-arm";
}

static void qt_fail(struct qt *q, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void qt_fail(struct qt *q, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(q->last_err, sizeof(q->last_err), fmt, ap);
    va_end(ap);
    if (!q->failed) {
        fprintf(stderr, "    harness: %s\n", q->last_err);
    }
    q->failed = true;
}

bool qt_event_seen(struct qt *q, const char *needle, ...)
{
    bool seen = false;
    char *save = NULL;

    qt_qmp(q, NULL, 0, "{\"execute\": \"query-status\"}");
    for (char *line = strtok_r(q->events, "\n", &save); line && !seen;
         line = strtok_r(NULL, "\n", &save)) {
        va_list ap;
        const char *n = needle;

        seen = true;
        va_start(ap, needle);
        for (; n; n = va_arg(ap, const char *)) {
            if (!strstr(line, n)) {
                seen = false;
                break;
            }
        }
        va_end(ap);
    }
    q->events[0] = '\0';
    return seen;
}

unsigned qt_event_count(struct qt *q, const char *needle, char *last,
                        size_t len)
{
    unsigned n;

    q->count_needle = needle;
    q->count_hits = 0;
    q->count_last[0] = '\0';
    qt_qmp(q, NULL, 0, "{\"execute\": \"query-status\"}");
    n = q->count_hits;
    if (last && len) {
        snprintf(last, len, "%s", q->count_last);
    }
    q->count_needle = NULL;
    q->events[0] = '\0';
    return n;
}

const char *qt_status(struct qt *q, char *buf, size_t len)
{
    int st;

    if (q->pid <= 0) {
        snprintf(buf, len, "gone");
    } else if (waitpid(q->pid, &st, WNOHANG) != q->pid) {
        snprintf(buf, len, "running");
    } else {
        q->pid = -1;
        if (WIFSIGNALED(st)) {
            snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(st),
                     strsignal(WTERMSIG(st)));
        } else {
            snprintf(buf, len, "exited %d", WEXITSTATUS(st));
        }
    }
    return buf;
}

unsigned long qt_rss_kib(struct qt *q)
{
    char path[64], line[256];
    unsigned long kib = 0;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%d/status", (int)q->pid);
    f = fopen(path, "r");
    if (!f) {
        return 0;
    }
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "VmRSS: %lu", &kib) == 1) {
            break;
        }
    }
    fclose(f);
    return kib;
}

bool qt_failed(const struct qt *q)
{
    return q->failed;
}

static int qt_listen(const char *path)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

    if (fd < 0) {
        return -1;
    }
    snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 1) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Accept one connection within the timeout, unless the child died. */
static int qt_accept(struct qt *q, int lfd)
{
    for (int waited = 0; waited < QT_TIMEOUT_MS; waited += 50) {
        struct pollfd p = { .fd = lfd, .events = POLLIN };

        if (poll(&p, 1, 50) > 0) {
            return accept(lfd, NULL, NULL);
        }
        if (waitpid(q->pid, NULL, WNOHANG) == q->pid) {
            q->pid = -1;
            return -1;
        }
    }
    return -1;
}

/* Split @extra on spaces into argv after the fixed part. */
static int qt_build_argv(char *buf, char **argv, int n, const char *extra)
{
    char *save = NULL;

    for (char *t = strtok_r(buf, " ", &save); t && n < QT_ARGV_MAX - 1;
         t = strtok_r(NULL, " ", &save)) {
        argv[n++] = t;
    }
    (void)extra;
    argv[n] = NULL;
    return n;
}

static pid_t qt_spawn(const char *dir, const char *extra, const char *qtest,
                      const char *qmp)
{
    static char buf[4096];
    char *argv[QT_ARGV_MAX];
    char errpath[128];
    pid_t pid;
    int n = 0;

    argv[n++] = (char *)qt_qemu();
    argv[n++] = "-machine";
    argv[n++] = "xilinx-zynq-a9,flash=off";
    argv[n++] = "-accel";
    argv[n++] = "qtest";
    argv[n++] = "-display";
    argv[n++] = "none";
    argv[n++] = "-nodefaults";
    argv[n++] = "-m";
    argv[n++] = "64M";
    if (qtest) {
        argv[n++] = "-qtest";
        argv[n++] = (char *)qtest;
        argv[n++] = "-qmp";
        argv[n++] = (char *)qmp;
    }
    snprintf(buf, sizeof(buf), "%s", extra ? extra : "");
    qt_build_argv(buf, argv, n, extra);

    snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
    pid = fork();
    if (pid == 0) {
        int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int nul = open("/dev/null", O_RDWR);

        if (fd >= 0) {
            dup2(fd, 2);
        }
        if (nul >= 0) {
            dup2(nul, 0);
            dup2(nul, 1);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

static int qt_mkdir(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/gemlab-qt-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static void qt_rmdir(const char *dir)
{
    static const char *const names[] = { "qtest.sock", "qmp.sock", "stderr" };
    char p[128];

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

static int qt_read_line(struct qt *q, int fd, char *line, size_t len)
{
    for (;;) {
        char *nl = memchr(q->rbuf, '\n', q->rlen);

        if (nl) {
            size_t n = (size_t)(nl - q->rbuf);
            size_t c = n < len - 1 ? n : len - 1;

            memcpy(line, q->rbuf, c);
            line[c] = '\0';
            memmove(q->rbuf, nl + 1, q->rlen - n - 1);
            q->rlen -= n + 1;
            return 0;
        }
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (q->rlen == sizeof(q->rbuf) || poll(&p, 1, QT_TIMEOUT_MS) <= 0) {
            return -1;
        }
        ssize_t r = read(fd, q->rbuf + q->rlen, sizeof(q->rbuf) - q->rlen);
        if (r <= 0) {
            return -1;
        }
        q->rlen += (size_t)r;
    }
}

static int qt_write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);

        if (w <= 0) {
            return -1;
        }
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* One qtest command; the "OK ..." answer (without "OK ") in @out. */
static int qt_cmd(struct qt *q, char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int qt_cmd(struct qt *q, char *out, size_t len, const char *fmt, ...)
{
    static char cmd[2 * 65536 + 128];
    char line[QT_RESP_MAX];
    va_list ap;
    int n;

    if (q->failed || q->qtest_fd < 0) {
        return -1;
    }
    va_start(ap, fmt);
    n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(cmd) ||
        qt_write_all(q->qtest_fd, cmd, (size_t)n) < 0) {
        qt_fail(q, "qtest: cannot send '%.40s'", cmd);
        return -1;
    }
    for (;;) {
        if (qt_read_line(q, q->qtest_fd, line, sizeof(line)) < 0) {
            qt_fail(q, "qtest: no answer to '%.40s'", cmd);
            return -1;
        }
        if (!strncmp(line, "IRQ", 3)) {
            continue;   /* asynchronous IRQ notifications */
        }
        break;
    }
    if (strncmp(line, "OK", 2) != 0) {
        qt_fail(q, "qtest: '%.40s' -> '%s'", cmd, line);
        return -1;
    }
    if (out) {
        snprintf(out, len, "%s", line[2] == ' ' ? line + 3 : "");
    }
    return 0;
}

/* QMP: read one line that is not an event. */
static int qt_qmp_read(struct qt *q, char *resp, size_t len)
{
    /* one line may be long: device-list-properties, an event backlog */
    static char buf[1 << 20];
    static size_t blen;

    for (;;) {
        char *nl = memchr(buf, '\n', blen);

        if (nl) {
            size_t n = (size_t)(nl - buf);
            size_t c = n < len - 1 ? n : len - 1;
            bool event = strstr(buf, "\"event\"") != NULL &&
                         strstr(buf, "\"event\"") < nl;

            if (!event) {
                memcpy(resp, buf, c);
                resp[c] = '\0';
            } else {
                size_t have = strlen(q->events);

                *nl = '\0';
                if (q->count_needle && strstr(buf, q->count_needle)) {
                    q->count_hits++;
                    size_t k = MIN_SZ(n, sizeof(q->count_last) - 1);

                    memcpy(q->count_last, buf, k);
                    q->count_last[k] = '\0';
                }
                *nl = '\n';

                if (have + n + 2 < sizeof(q->events)) {
                    memcpy(q->events + have, buf, n);
                    q->events[have + n] = '\n';
                    q->events[have + n + 1] = '\0';
                }
            }
            memmove(buf, nl + 1, blen - n - 1);
            blen -= n + 1;
            if (!event) {
                return 0;
            }
            continue;
        }
        struct pollfd p = { .fd = q->qmp_fd, .events = POLLIN };
        if (blen == sizeof(buf) || poll(&p, 1, QT_TIMEOUT_MS) <= 0) {
            return -1;
        }
        ssize_t r = read(q->qmp_fd, buf + blen, sizeof(buf) - blen);
        if (r <= 0) {
            return -1;
        }
        blen += (size_t)r;
    }
}

int qt_qmp(struct qt *q, char *resp, size_t len, const char *fmt, ...)
{
    char cmd[2048];
    char ans[QT_RESP_MAX];
    va_list ap;
    int n;

    if (q->qmp_fd < 0) {
        return -1;
    }
    va_start(ap, fmt);
    n = vsnprintf(cmd, sizeof(cmd) - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(cmd) - 1) {
        return -1;
    }
    cmd[n++] = '\n';
    if (qt_write_all(q->qmp_fd, cmd, (size_t)n) < 0 ||
        qt_qmp_read(q, ans, sizeof(ans)) < 0) {
        qt_fail(q, "qmp: no answer to %.60s", cmd);
        return -1;
    }
    if (resp) {
        snprintf(resp, len, "%s", ans);
    }
    if (strstr(ans, "\"return\"")) {
        return 0;
    }
    return strstr(ans, "\"error\"") ? 1 : -1;
}

const char *qt_qmp_desc(const char *resp, char *buf, size_t len)
{
    const char *d = strstr(resp, "\"desc\": \"");
    size_t n = 0;

    if (len == 0) {
        return buf;
    }
    if (d) {
        for (d += 9; *d && *d != '"' && n < len - 1; d++) {
            buf[n++] = *d;
        }
    }
    buf[n] = '\0';
    return buf;
}

/* The text after {"return": in @resp. */
static const char *qt_ret(const char *resp)
{
    const char *r = strstr(resp, "\"return\":");

    if (!r) {
        return NULL;
    }
    r += 9;
    while (*r == ' ') {
        r++;
    }
    return r;
}

/* qom-get @path.@prop: the value's text in @resp (QT_RESP_MAX), or NULL
 * after qt_fail() naming the property and QEMU's answer. */
static const char *qom_get(struct qt *q, const char *path, const char *prop, char *resp)
{
    const char *r;

    if (qt_qmp(q, resp, QT_RESP_MAX, "{\"execute\": \"qom-get\", "
               "\"arguments\": {\"path\": \"%s\", \"property\": \"%s\"}}",
               path, prop) != 0 || !(r = qt_ret(resp))) {
        qt_fail(q, "qom-get %s.%s: %s", path, prop, resp);
        return NULL;
    }
    return r;
}

int qt_qom_get_u64(struct qt *q, const char *path, const char *prop,
                   uint64_t *val)
{
    char resp[QT_RESP_MAX];
    const char *r = qom_get(q, path, prop, resp);

    if (!r) {
        return -1;
    }
    *val = strtoull(r, NULL, 0);
    return 0;
}

int qt_qom_get_bool(struct qt *q, const char *path, const char *prop,
                    bool *val)
{
    char resp[QT_RESP_MAX];
    const char *r = qom_get(q, path, prop, resp);

    if (!r) {
        return -1;
    }
    *val = !strncmp(r, "true", 4);
    return 0;
}

int qt_qom_get_str(struct qt *q, const char *path, const char *prop,
                   char *buf, size_t len)
{
    char resp[QT_RESP_MAX];
    const char *r = qom_get(q, path, prop, resp);
    size_t n = 0;

    if (!r) {
        return -1;
    }
    if (*r != '"') {
        qt_fail(q, "qom-get %s.%s: not a string: %s", path, prop, resp);
        return -1;
    }
    for (r++; *r && *r != '"' && n + 1 < len; r++) {
        buf[n++] = *r;
    }
    buf[n] = '\0';
    return 0;
}

int qt_qom_set(struct qt *q, const char *path, const char *prop,
               const char *json_value, char *resp, size_t len)
{
    return qt_qmp(q, resp, len, "{\"execute\": \"qom-set\", \"arguments\": "
                  "{\"path\": \"%s\", \"property\": \"%s\", \"value\": %s}}",
                  path, prop, json_value);
}

int qt_start(struct qt *q, const char *extra)
{
    char qtest_path[128], qmp_path[128], qtest_arg[160], qmp_arg[160];
    char line[QT_RESP_MAX];
    int lq, lm;

    memset(q, 0, sizeof(*q));
    q->qtest_fd = q->qmp_fd = -1;
    q->pid = -1;
    if (qt_mkdir(q->dir, sizeof(q->dir)) < 0) {
        return -1;
    }
    qt_track(q, true);
    snprintf(qtest_path, sizeof(qtest_path), "%s/qtest.sock", q->dir);
    snprintf(qmp_path, sizeof(qmp_path), "%s/qmp.sock", q->dir);
    snprintf(qtest_arg, sizeof(qtest_arg), "unix:%s", qtest_path);
    snprintf(qmp_arg, sizeof(qmp_arg), "unix:%s", qmp_path);
    lq = qt_listen(qtest_path);
    lm = qt_listen(qmp_path);
    if (lq < 0 || lm < 0) {
        return -1;
    }
    q->pid = qt_spawn(q->dir, extra, qtest_arg, qmp_arg);
    q->qtest_fd = qt_accept(q, lq);
    q->qmp_fd = q->qtest_fd >= 0 ? qt_accept(q, lm) : -1;
    close(lq);
    close(lm);
    if (q->qtest_fd < 0 || q->qmp_fd < 0) {
        return -1;
    }
    /* QMP greeting, then capabilities negotiation. */
    if (qt_qmp_read(q, line, sizeof(line)) < 0 ||
        qt_qmp(q, NULL, 0, "{\"execute\": \"qmp_capabilities\"}") != 0) {
        return -1;
    }
    /* -accel qtest: the virtual clock starts at 0 and moves only in
     * qt_step() */
    q->now_ns = 0;
    return q->failed ? -1 : 0;
}

const char *qt_stderr(struct qt *q, char *buf, size_t len)
{
    char p[128];
    FILE *f;
    size_t n = 0;

    snprintf(p, sizeof(p), "%s/stderr", q->dir);
    f = fopen(p, "r");
    if (f) {
        n = fread(buf, 1, len - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    return buf;
}

void qt_stop(struct qt *q)
{
    qt_track(q, false);
    if (!q->dir[0]) {
        return;
    }
    if (q->qmp_fd >= 0) {
        static const char quit[] = "{\"execute\": \"quit\"}\n";

        (void)qt_write_all(q->qmp_fd, quit, sizeof(quit) - 1);
        close(q->qmp_fd);
        q->qmp_fd = -1;
    }
    if (q->qtest_fd >= 0) {
        close(q->qtest_fd);
        q->qtest_fd = -1;
    }
    if (q->pid > 0) {
        for (int i = 0; i < 100; i++) {
            if (waitpid(q->pid, NULL, WNOHANG) == q->pid) {
                q->pid = -1;
                break;
            }
            usleep(20000);
        }
        if (q->pid > 0) {
            kill(q->pid, SIGKILL);
            waitpid(q->pid, NULL, 0);
            q->pid = -1;
        }
    }
    qt_rmdir(q->dir);
    q->dir[0] = '\0';
}

int qt_run_expect_exit(const char *extra, char *err, size_t errlen)
{
    struct qt q;
    int status = 0;

    memset(&q, 0, sizeof(q));
    if (qt_mkdir(q.dir, sizeof(q.dir)) < 0) {
        return -1;
    }
    q.pid = qt_spawn(q.dir, extra, NULL, NULL);
    for (int i = 0; i < QT_TIMEOUT_MS / 20; i++) {
        if (waitpid(q.pid, &status, WNOHANG) == q.pid) {
            q.pid = -1;
            break;
        }
        usleep(20000);
    }
    if (q.pid > 0) {
        kill(q.pid, SIGKILL);
        waitpid(q.pid, NULL, 0);
        qt_stderr(&q, err, errlen);
        qt_rmdir(q.dir);
        return -1;   /* it kept running */
    }
    qt_stderr(&q, err, errlen);
    qt_rmdir(q.dir);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

uint32_t qt_readl(struct qt *q, uint64_t addr)
{
    char out[64];

    if (qt_cmd(q, out, sizeof(out), "readl 0x%" PRIx64 "\n", addr) < 0) {
        return 0xDEADBEEF;
    }
    return (uint32_t)strtoul(out, NULL, 0);
}

void qt_writel(struct qt *q, uint64_t addr, uint32_t val)
{
    qt_cmd(q, NULL, 0, "writel 0x%" PRIx64 " 0x%" PRIx32 "\n", addr, val);
}

void qt_memwrite(struct qt *q, uint64_t addr, const void *buf, size_t len)
{
    static char hex[2 * 65536 + 1];
    const uint8_t *b = buf;

    if (len > 65536) {
        qt_fail(q, "qt_memwrite: %zu bytes is too long", len);
        return;
    }
    for (size_t i = 0; i < len; i++) {
        snprintf(hex + 2 * i, 3, "%02x", b[i]);
    }
    hex[2 * len] = '\0';
    qt_cmd(q, NULL, 0, "write 0x%" PRIx64 " 0x%zx 0x%s\n", addr, len, hex);
}

void qt_memread(struct qt *q, uint64_t addr, void *buf, size_t len)
{
    static char out[2 * 65536 + 8];
    uint8_t *b = buf;
    const char *h;

    memset(buf, 0, len);
    if (qt_cmd(q, out, sizeof(out), "read 0x%" PRIx64 " 0x%zx\n", addr,
               len) < 0) {
        return;
    }
    h = !strncmp(out, "0x", 2) ? out + 2 : out;
    for (size_t i = 0; i < len && h[2 * i] && h[2 * i + 1]; i++) {
        char two[3] = { h[2 * i], h[2 * i + 1], 0 };

        b[i] = (uint8_t)strtoul(two, NULL, 16);
    }
}

uint64_t qt_step(struct qt *q, uint64_t ns)
{
    char out[64];

    /*
     * Stepping 0 ns changes nothing; QEMU 10.0's qtest answers it with
     * "FAIL could not advance time" (system/qtest.c, clock_step), 7.2
     * with the time.
     */
    if (ns == 0) {
        return q->now_ns;
    }
    if (qt_cmd(q, out, sizeof(out), "clock_step %" PRIu64 "\n", ns) == 0) {
        q->now_ns = strtoull(out, NULL, 0);
    }
    return q->now_ns;
}
