/*
 * qmp.h - a small synchronous QMP client over a unix socket.
 *
 * Every call takes a timeout and never blocks longer; events that arrive
 * while waiting for a reply are kept (newest QMP_MAX_EVENTS) for
 * qmp_take_event().  Errors: 0 or a negative errno (-ETIMEDOUT,
 * -ECONNRESET when QEMU went away, -EPROTO for a QMP "error" reply, whose
 * description is in q->last_error).
 */
#ifndef GEMLAB_RUNNER_QMP_H
#define GEMLAB_RUNNER_QMP_H

#include <signal.h>
#include <stdbool.h>

#include <cjson/cJSON.h>

#define QMP_MAX_EVENTS 32
#define QMP_MAX_LINE (1 << 20)

struct qmp {
    int fd;
    char *buf;          /* received, not yet consumed bytes (owned) */
    size_t len, cap;
    cJSON *events[QMP_MAX_EVENTS];
    int nevents;
    unsigned long next_id;  /* "id" of the last request sent */
    unsigned long stale_replies; /* replies to timed-out requests, dropped */
    char last_error[256];
};

/* When *@flag becomes non-zero, a wait interrupted by a signal gives up
 * with -EINTR instead of resuming (the runner's SIGINT/SIGTERM flag). */
void qmp_set_abort_flag(volatile sig_atomic_t *flag);

/* Connect to @path, retrying until it accepts or @timeout_ms passes, read
 * the greeting and negotiate capabilities. */
int qmp_open(struct qmp *q, const char *path, int timeout_ms);
void qmp_close(struct qmp *q);

/* Execute @cmd with @args (consumed; may be NULL).  On success *@ret (may
 * be NULL) receives the "return" member, owned by the caller.  Only the
 * reply carrying this request's "id" counts: after a -ETIMEDOUT the late
 * reply is dropped (q->stale_replies) when it arrives. */
int qmp_exec(struct qmp *q, const char *cmd, cJSON *args, cJSON **ret, int timeout_ms);

int qmp_qom_get(struct qmp *q, const char *path, const char *prop, cJSON **val, int timeout_ms);
/* @val is consumed. */
int qmp_qom_set(struct qmp *q, const char *path, const char *prop, cJSON *val, int timeout_ms);
int qmp_set_link(struct qmp *q, const char *name, bool up, int timeout_ms);
/* Ask QEMU to exit; a closed connection counts as success. */
int qmp_quit(struct qmp *q, int timeout_ms);

/* Wait up to @timeout_ms for input and queue any events.  0 or -errno. */
int qmp_poll_events(struct qmp *q, int timeout_ms);
/* Oldest queued event (caller frees), or NULL. */
cJSON *qmp_take_event(struct qmp *q);

#endif
