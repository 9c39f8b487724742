/*
 * fault.c - change a running instance through its second QMP socket
 * (RUN_DIR/fault.sock).  `gemlab fault` (cmd_fault.c) checks the action's
 * values with the scenario tables before QEMU is touched.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "inst.h"
#include "qemu.h"
#include "qmp.h"
#include "qom.h"
#include "run.h"
#include "scenario.h"

#define QMP_TIMEOUT_MS 3000

/* set_link by netdev id, falling back to the NIC name (a board booted
 * without a netdev still has its GEM NICs). */
static int set_link_any(struct qmp *q, bool up)
{
    int rc = qmp_set_link(q, QEMU_NETDEV_ID, up, QMP_TIMEOUT_MS);

    if (rc == -EPROTO)
        rc = qmp_set_link(q, QEMU_GEM_DRIVER ".0", up, QMP_TIMEOUT_MS);
    return rc;
}

/* The model has no "restart-aneg" property (docs/SECURITY.md R10: the old qom-set of
 * one always failed).  Setting any link-partner property renegotiates
 * (patch 0003: GP_PARTNER -> gl_phy_set_partner -> gl_phy__restart), as a
 * partner restarting its autonegotiation does (IEEE 802.3 clause 28): the
 * partner's own autoneg setting is written back unchanged. */
static int restart_aneg(struct qmp *q, const char *gem)
{
    cJSON *v = NULL;
    int rc = qmp_qom_get(q, gem, "partner-autoneg", &v, QMP_TIMEOUT_MS);

    if (rc == 0 && !cJSON_IsBool(v)) {
        snprintf(q->last_error, sizeof(q->last_error), "qom-get partner-autoneg: not a boolean");
        rc = -EPROTO;
    }
    if (rc) {
        cJSON_Delete(v);
        return rc;
    }
    return qmp_qom_set(q, gem, "partner-autoneg", v, QMP_TIMEOUT_MS);     /* consumes v */
}

/* Append what reached the instance to RUN_DIR/INST_FAULT_LOG: the run
 * puts it in truth.timeline_applied, at its time from the traffic's
 * start (both processes read CLOCK_MONOTONIC: inst_now_ms).  One write()
 * of a line with O_APPEND, so two `gemlab fault`s do not interleave. */
static void fault_record(const char *run_dir, long long t_ms, const struct fault_action *a, const char *applied,
                         const char *error, FILE *err)
{
    char path[PATH_MAX + 32], *line;
    cJSON *e = cJSON_CreateObject();
    int fd;

    cJSON_AddNumberToObject(e, "mono_ms", (double)t_ms);
    cJSON_AddStringToObject(e, "event", a->text);
    cJSON_AddStringToObject(e, "applied", applied);
    if (error)
        cJSON_AddStringToObject(e, "error", error);
    line = cJSON_PrintUnformatted(e);
    cJSON_Delete(e);
    snprintf(path, sizeof(path), "%s/" INST_FAULT_LOG, run_dir);
    fd = line ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
    if (fd < 0 || dprintf(fd, "%s\n", line) < 0)
        fprintf(err, "gemlab fault: warning: cannot record the fault in %s (%s): the run's results.json will "
                     "not list it\n", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    cJSON_free(line);
}

int fault_apply(const char *run_dir, const struct fault_action *a, FILE *err)
{
    const char *applied = "";
    long long t_ms;
    static struct scenario s;
    struct qmp q;
    char sock[PATH_MAX + 16], gem[128];
    int rc;

    snprintf(sock, sizeof(sock), "%s/fault.sock", run_dir);
    {
        /* no socket at all: not a run, or one that has ended; say so
         * now instead of retrying for 3 s and reporting a timeout */
        struct stat st;
        if (stat(sock, &st) || !S_ISSOCK(st.st_mode)) {
            fprintf(err, "gemlab fault: %s has no fault.sock: not a running gemlab run (start one with "
                         "`gemlab run` or `gemlab boot`)\n", run_dir);
            return -ESRCH;      /* no such run: cmd_fault's exit 2 */
        }
    }
    {
        /* a socket nobody listens on: the run that made it was killed
         * (SIGKILL leaves it behind); qmp_open would retry 3 s and call
         * it a timeout */
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        bool refused = false;
        if (fd >= 0 && strlen(sock) < sizeof(sa.sun_path)) {
            memcpy(sa.sun_path, sock, strlen(sock) + 1);
            refused = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 && errno == ECONNREFUSED;
        }
        if (fd >= 0)
            close(fd);
        if (refused) {
            fprintf(err, "gemlab fault: nothing listens on %s: the run that made it has ended without cleaning up "
                         "(killed?); start a new one with `gemlab run` or `gemlab boot`\n", sock);
            return -ESRCH;      /* no such run: cmd_fault's exit 2 */
        }
    }
    rc = qmp_open(&q, sock, 3000);
    if (rc) {
        fprintf(err, "gemlab fault: cannot reach %s: %s (%s)\n", sock, strerror(-rc),
                rc == -ETIMEDOUT ? "it takes one fault at a time: is another `gemlab fault` (a flap holds it for its "
                                   "length) still going?"
                                 : "is the run still going?");
        return rc;
    }
    {
        /* a run in virtual time has the console gate (qemu.c): a fault at
         * a wall-clock moment lands at no defined virtual time, and the
         * run's figures could not be reproduced; its [timeline] can */
        cJSON *v = NULL;
        if (qmp_qom_get(&q, QEMU_GATE_PATH, "delay-ns", &v, QMP_TIMEOUT_MS) == 0) {
            cJSON_Delete(v);
            qmp_close(&q);
            fprintf(err, "gemlab fault: %s runs in virtual time: a fault at a wall-clock moment has no defined "
                         "virtual time and would make the run irreproducible; put it in the scenario's [timeline] "
                         "(docs/VIRTUAL_TIME.md)\n", run_dir);
            return -EPERM;
        }
        cJSON_Delete(v);
    }
    t_ms = inst_now_ms();
    if (a->kind == FAULT_LINK_UP || a->kind == FAULT_LINK_DOWN) {
        applied = a->kind == FAULT_LINK_UP ? "set_link up" : "set_link down";
        rc = set_link_any(&q, a->kind == FAULT_LINK_UP);
    } else if (a->kind == FAULT_FLAP) {
        applied = "set_link down, then up";
        /* a signal during the down-time ends it early: the link comes
         * back up and the fault is recorded, not left down for the
         * rest of the run */
        inst_signals_install();
        rc = set_link_any(&q, false);
        if (!rc) {
            long long end = t_ms + (long long)(a->dur_ns / 1000000ull);
            bool ended = false;
            struct stat st;
            /* the down is recorded now: a run that ends during the flap
             * lists what its link went through */
            fault_record(run_dir, t_ms, a, "set_link down (the flap's up follows)", NULL, err);
            printf("gemlab fault: link down for %.3f s (a signal brings it up now)\n", a->dur_ns / 1e9);
            fflush(stdout);
            /* the run removes its sockets when it ends: stop waiting then */
            while (!inst_stop_signal && inst_now_ms() < end) {
                if (stat(sock, &st)) {
                    ended = true;
                    break;
                }
                long long left = end - inst_now_ms();
                struct timespec ts = { 0, (long)((left < 100 ? (left > 0 ? left : 0) : 100) * 1000000L) };
                nanosleep(&ts, NULL);
            }
            t_ms = inst_now_ms();
            if (ended) {
                fprintf(err, "gemlab fault: the run ended during the flap, before the link came back up\n");
                qmp_close(&q);
                return -ESRCH;
            }
            rc = set_link_any(&q, true);
            applied = "set_link up (the flap's end)";
            if (!rc && inst_stop_signal) {
                applied = "set_link up early (signal)";
                rc = -EINTR;
            }
        }
    } else if ((rc = qom_find_link(&q, gem, sizeof(gem))) == 0) {
        scn_init(&s, NULL);
        if (a->kind == FAULT_SET) {
            applied = qemu_prop_for(a->key);
            rc = qmp_qom_set(&q, gem, applied, qemu_prop_json(&s, a->key, &a->val), QMP_TIMEOUT_MS);
        } else if (a->kind == FAULT_RESTART_ANEG) {
            applied = "partner-autoneg";
            rc = restart_aneg(&q, gem);
        } else {
            applied = "rx-starve-ns";
            rc = qmp_qom_set(&q, gem, applied, cJSON_CreateNumber((double)a->dur_ns), QMP_TIMEOUT_MS);
        }
    } else {
        applied = "no: the link device was not found";
    }
    if (rc == -EINTR)
        fprintf(err, "gemlab fault: interrupted by signal %d: the link is up again\n", (int)inst_stop_signal);
    else if (rc)
        fprintf(err, "gemlab fault: %s\n", rc == -EPROTO ? q.last_error : strerror(-rc));
    fault_record(run_dir, t_ms, a, applied,
                 rc && rc != -EINTR ? (rc == -EPROTO ? q.last_error : strerror(-rc)) : NULL, err);
    qmp_close(&q);
    return rc;
}
