/*
 * qmp.c - see qmp.h.  QMP is line-oriented JSON (docs/interop/qmp-spec):
 * a greeting, then one object per line: {"return"}, {"error"} or {"event"}.
 * Every request carries an "id", which QEMU copies into its reply
 * (qmp-spec.rst, "Issuing Commands"), so a reply that comes after its
 * command timed out is recognised and dropped instead of being taken as
 * the answer to the next command.
 */
#include "qmp.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t *abort_flag;

void qmp_set_abort_flag(volatile sig_atomic_t *flag)
{
    abort_flag = flag;
}

static long long now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void queue_event(struct qmp *q, cJSON *ev)
{
    if (q->nevents == QMP_MAX_EVENTS) {
        cJSON_Delete(q->events[0]);
        memmove(q->events, q->events + 1, sizeof(q->events[0]) * (QMP_MAX_EVENTS - 1));
        q->nevents--;
    }
    q->events[q->nevents++] = ev;
}

/* Read until one full line is buffered or the deadline passes.  Returns a
 * parsed object (caller frees) in *@out. */
static int read_msg(struct qmp *q, long long deadline, cJSON **out)
{
    *out = NULL;
    for (;;) {
        char *nl = q->len ? memchr(q->buf, '\n', q->len) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - q->buf);
            cJSON *o = cJSON_ParseWithLength(q->buf, n);
            memmove(q->buf, nl + 1, q->len - n - 1);
            q->len -= n + 1;
            if (!o || !cJSON_IsObject(o)) {
                cJSON_Delete(o);
                snprintf(q->last_error, sizeof(q->last_error), "malformed QMP message");
                return -EPROTO;
            }
            *out = o;
            return 0;
        }
        if (q->len >= QMP_MAX_LINE) {
            snprintf(q->last_error, sizeof(q->last_error), "QMP line longer than %d bytes", QMP_MAX_LINE);
            return -EPROTO;
        }
        long long left = deadline - now_ms();
        if (left <= 0)
            return -ETIMEDOUT;
        struct pollfd p = { .fd = q->fd, .events = POLLIN };
        int r = poll(&p, 1, (int)(left > 1000000 ? 1000000 : left));
        if (r < 0 && errno == EINTR) {
            if (abort_flag && *abort_flag)
                return -EINTR;
            continue;
        }
        if (r < 0)
            return -errno;
        if (r == 0)
            return -ETIMEDOUT;
        if (q->cap - q->len < 4096) {
            size_t ncap = q->cap ? q->cap * 2 : 8192;
            char *nb = realloc(q->buf, ncap);
            if (!nb)
                return -ENOMEM;
            q->buf = nb;
            q->cap = ncap;
        }
        ssize_t got = read(q->fd, q->buf + q->len, q->cap - q->len);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got < 0)
            return -errno;
        if (got == 0)
            return -ECONNRESET;
        q->len += (size_t)got;
    }
}

static int send_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno == EPIPE ? -ECONNRESET : -errno;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

int qmp_exec(struct qmp *q, const char *cmd, cJSON *args, cJSON **ret, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    cJSON *req = cJSON_CreateObject();
    double id = (double)++q->next_id;
    char *text;
    int rc;

    if (ret)
        *ret = NULL;
    cJSON_AddStringToObject(req, "execute", cmd);
    if (args)
        cJSON_AddItemToObject(req, "arguments", args);
    cJSON_AddNumberToObject(req, "id", id);
    text = cJSON_PrintUnformatted(req);
    cJSON_Delete(req);
    if (!text)
        return -ENOMEM;
    rc = send_all(q->fd, text, strlen(text));
    if (!rc)
        rc = send_all(q->fd, "\n", 1);
    free(text);
    if (rc)
        return rc;
    for (;;) {
        cJSON *m;
        rc = read_msg(q, deadline, &m);
        if (rc)
            return rc;      /* a reply still on its way is dropped when it comes */
        if (cJSON_GetObjectItemCaseSensitive(m, "event")) {
            queue_event(q, m);
            continue;
        }
        cJSON *r = cJSON_GetObjectItemCaseSensitive(m, "return");
        cJSON *e = cJSON_GetObjectItemCaseSensitive(m, "error");
        cJSON *mid = cJSON_GetObjectItemCaseSensitive(m, "id");
        if ((r || e) && !(cJSON_IsNumber(mid) && mid->valuedouble == id)) {
            q->stale_replies++;     /* an earlier, timed-out command's reply */
            cJSON_Delete(m);
            continue;
        }
        if (r) {
            if (ret)
                *ret = cJSON_DetachItemViaPointer(m, r);
            cJSON_Delete(m);
            return 0;
        }
        if (e) {
            cJSON *d = cJSON_GetObjectItemCaseSensitive(e, "desc");
            snprintf(q->last_error, sizeof(q->last_error), "%s: %s", cmd,
                     cJSON_IsString(d) ? d->valuestring : "error");
            cJSON_Delete(m);
            return -EPROTO;
        }
        cJSON_Delete(m);    /* the greeting or something unknown: skip */
    }
}

int qmp_open(struct qmp *q, const char *path, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    cJSON *greet;
    int rc;

    memset(q, 0, sizeof(*q));
    q->fd = -1;
    if (strlen(path) >= sizeof(sa.sun_path))
        return -ENAMETOOLONG;
    strcpy(sa.sun_path, path);
    for (;;) {
        q->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (q->fd < 0)
            return -errno;
        if (connect(q->fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
            break;
        rc = -errno;
        close(q->fd);
        q->fd = -1;
        if ((rc != -ENOENT && rc != -ECONNREFUSED) || now_ms() >= deadline)
            return rc == -ENOENT || rc == -ECONNREFUSED ? -ETIMEDOUT : rc;
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    rc = read_msg(q, deadline, &greet);
    if (rc) {
        qmp_close(q);
        return rc;
    }
    if (!cJSON_GetObjectItemCaseSensitive(greet, "QMP")) {
        cJSON_Delete(greet);
        qmp_close(q);
        return -EPROTO;
    }
    cJSON_Delete(greet);
    rc = qmp_exec(q, "qmp_capabilities", NULL, NULL, (int)(deadline - now_ms() > 0 ? deadline - now_ms() : 1));
    if (rc)
        qmp_close(q);
    return rc;
}

void qmp_close(struct qmp *q)
{
    if (q->fd >= 0)
        close(q->fd);
    q->fd = -1;
    free(q->buf);
    q->buf = NULL;
    q->len = q->cap = 0;
    for (int i = 0; i < q->nevents; i++)
        cJSON_Delete(q->events[i]);
    q->nevents = 0;
}

int qmp_qom_get(struct qmp *q, const char *path, const char *prop, cJSON **val, int timeout_ms)
{
    cJSON *a = cJSON_CreateObject();

    cJSON_AddStringToObject(a, "path", path);
    cJSON_AddStringToObject(a, "property", prop);
    return qmp_exec(q, "qom-get", a, val, timeout_ms);
}

int qmp_qom_set(struct qmp *q, const char *path, const char *prop, cJSON *val, int timeout_ms)
{
    cJSON *a = cJSON_CreateObject();

    cJSON_AddStringToObject(a, "path", path);
    cJSON_AddStringToObject(a, "property", prop);
    cJSON_AddItemToObject(a, "value", val);
    return qmp_exec(q, "qom-set", a, NULL, timeout_ms);
}

int qmp_set_link(struct qmp *q, const char *name, bool up, int timeout_ms)
{
    cJSON *a = cJSON_CreateObject();

    cJSON_AddStringToObject(a, "name", name);
    cJSON_AddBoolToObject(a, "up", up);
    return qmp_exec(q, "set_link", a, NULL, timeout_ms);
}

int qmp_quit(struct qmp *q, int timeout_ms)
{
    int rc = qmp_exec(q, "quit", NULL, NULL, timeout_ms);

    return rc == -ECONNRESET ? 0 : rc;
}

int qmp_poll_events(struct qmp *q, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    cJSON *m;
    int rc;

    for (;;) {
        rc = read_msg(q, deadline, &m);
        if (rc == -ETIMEDOUT)
            return 0;
        if (rc)
            return rc;
        if (cJSON_GetObjectItemCaseSensitive(m, "event"))
            queue_event(q, m);
        else
            cJSON_Delete(m);
        deadline = now_ms();    /* drain what is buffered, then return */
    }
}

cJSON *qmp_take_event(struct qmp *q)
{
    cJSON *e;

    if (!q->nevents)
        return NULL;
    e = q->events[0];
    memmove(q->events, q->events + 1, sizeof(q->events[0]) * (size_t)(q->nevents - 1));
    q->nevents--;
    return e;
}
