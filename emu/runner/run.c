/*
 * run.c - `gemlab run`, `boot`, `fault` and `tap`.
 *
 * A run: load the scenario, find QEMU and firmware, make the run
 * directory (0700), spawn QEMU paused, connect QMP and the console, `cont`,
 * wait for the firmware's @gemlab ready line, start the board-side server,
 * run host iperf while applying the timeline over QMP, collect counters,
 * stop QEMU, write results.json, diagnose, check [expect], print the
 * verdict.  Every way out goes through one cleanup (inst_stop + iperf
 * kill), including QEMU dying, the watchdog and SIGINT/SIGTERM.
 *
 * Known limitations:
 *  - --net pair boots a second bare-metal board (RUN_DIR/peer) joined by a
 *    stream netdev on RUN_DIR/pair.sock; the firmwares' iperf runs the
 *    traffic (pair_traffic).
 *  - The host is always the iperf client; -R/--bidir are passed to the
 *    host tool and need a board server that supports them.
 *  - Board keys that are firmware build options (tx_bds, pbufs) are
 *    recorded as asked; the firmware's ready line reports what it was
 *    built with, and results.json's conditions use that.  On bare-metal,
 *    rx_bds and mac_speed are applied at runtime (apply_board_keys()).
 */
#define _GNU_SOURCE /* strsignal, vasprintf (through qemu.h users) */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "diagnose.h"
#include "inst.h"
#include "iperf.h"
#include "netns.h"
#include "qemu.h"
#include "qom.h"
#include "run_priv.h"
#include "units.h"
#include "util.h"


#define BOARD_PORT_IPERF2 5001   /* lwiperf and iperf 2's default */
#define BOARD_PORT_IPERF3 5201   /* iperf3's default; the Linux init starts `iperf3 -s -D` */
#define QMP_TIMEOUT_MS 3000

cJSON *run_scenario_json(const struct scenario *s)
{
    return scn_to_json(s);
}

/* ---- child processes (iperf) ---------------------------------------------- */

static pid_t tool_pid;

static int spawn_tool(char *const argv[], const char *out_path, const char *err_path)
{
    int rc = runner_spawn(&tool_pid, argv, out_path, err_path);

    if (rc) {
        tool_pid = 0;
        fprintf(stderr, "gemlab: cannot run %s: %s (install it: apt-get install iperf3 iperf)\n", argv[0],
                strerror(rc));
        return -rc;
    }
    return 0;
}

static void kill_tool(void)
{
    if (tool_pid > 0) {
        kill(-tool_pid, SIGKILL);
        waitpid(tool_pid, NULL, 0);
    }
    tool_pid = 0;
}


/* A tool's output file (util.h runner_read_file), or "" when it is
 * missing or longer than @max bytes. */
static char *tool_output(const char *path, size_t max)
{
    char *t = runner_read_file(path, max, NULL);

    return t ? t : strdup("");
}

/* @a, run inside the run's private network namespace instead (ip(8)
 * `ip netns exec NAME ...`): the host-side tools of --net tap. */
static void in_netns(const struct run *r, struct argv_buf *a)
{
    struct argv_buf b;

    av_init(&b);
    av_add(&b, "%s", netns_ip_path());
    av_add(&b, "netns");
    av_add(&b, "exec");
    av_add(&b, "%s", r->netns);
    for (int k = 0; k < a->n; k++)
        av_add(&b, "%s", a->v[k]);
    av_free(a);
    *a = b;
}

static int board_port(const struct scenario *s)
{
    return strcmp(scn_board_tool(s), "iperf3") == 0 ? BOARD_PORT_IPERF3 : BOARD_PORT_IPERF2;
}

/* ---- timeline ------------------------------------------------------------- */

enum step_kind { ST_LINK, ST_SET, ST_RESTART, ST_STARVE, ST_FW };

struct step {
    uint64_t t_ns;
    enum step_kind kind;
    bool up;
    enum scn_key key;
    const struct scn_val *val;
    uint64_t dur_ns;
    const char *text;
    int line;
};

#define MAX_STEPS (SCN_MAX_STEPS + 2)

static int cmp_step(const void *a, const void *b)
{
    const struct step *x = a, *y = b;

    if (x->t_ns != y->t_ns)
        return x->t_ns < y->t_ns ? -1 : 1;
    return x->line - y->line;
}

static int expand_timeline(const struct scenario *s, struct step *st)
{
    int n = 0;

    /* the check (scn_cross_check) refuses a timeline of more than
     * SCN_MAX_STEPS steps: none is cut here */
    for (unsigned i = 0; i < s->nevents && n < SCN_MAX_STEPS; i++) {
        const struct scn_event *e = &s->events[i];
        struct step b = { .t_ns = e->t_ns, .line = e->line, .text = e->text };
        switch (e->act) {
        case SCN_ACT_LINK_DOWN:
        case SCN_ACT_LINK_UP:
            b.kind = ST_LINK;
            b.up = e->act == SCN_ACT_LINK_UP;
            st[n++] = b;
            break;
        case SCN_ACT_FLAP:
            for (unsigned k = 0; k < (e->count ? e->count : 1) && n + 2 <= SCN_MAX_STEPS; k++) {
                b.kind = ST_LINK;
                b.t_ns = e->t_ns + k * e->period_ns;
                b.up = false;
                st[n++] = b;
                b.t_ns += e->dur_ns;
                b.up = true;
                st[n++] = b;
            }
            break;
        case SCN_ACT_SET:
            b.kind = ST_SET;
            b.key = e->key;
            b.val = &e->val;
            st[n++] = b;
            break;
        case SCN_ACT_RESTART_ANEG:
            b.kind = ST_RESTART;
            st[n++] = b;
            break;
        case SCN_ACT_STARVE_RX:
            b.kind = ST_STARVE;
            b.dur_ns = e->dur_ns;
            st[n++] = b;
            break;
        case SCN_ACT_FW:
            b.kind = ST_FW;
            st[n++] = b;
            break;
        default:
            break;
        }
    }
    qsort(st, (size_t)n, sizeof(*st), cmp_step);
    return n;
}

/* ---- the run ---------------------------------------------------------------- */

static bool ready_seen(struct inst *i, void *arg)
{
    (void)arg;
    return inst_last_msg(i, "ready") != NULL;
}

static bool tool_done(struct inst *i, void *arg)
{
    int *status = arg, st;

    (void)i;
    if (tool_pid <= 0)
        return true;
    if (waitpid(tool_pid, &st, WNOHANG) == tool_pid) {
        *status = st;
        tool_pid = 0;
        return true;
    }
    return false;
}

static bool msg_after(struct inst *i, void *arg)
{
    const char **want = arg;   /* [type, (const char *)count-as-pointer] */

    return inst_count_msgs(i, want[0]) > (int)(intptr_t)want[1];
}

/* A newer @type message than @count, the last of which answers @cmd (its
 * "cmd" field): a message from an earlier command that lands late does
 * not satisfy the wait. */
struct want_answer {
    const char *type, *cmd;
    int count;
};

static bool answer_after(struct inst *i, void *arg)
{
    const struct want_answer *w = arg;
    const cJSON *c;

    if (inst_count_msgs(i, w->type) <= w->count)
        return false;
    c = cJSON_GetObjectItemCaseSensitive(inst_last_msg(i, w->type), "cmd");
    return cJSON_IsString(c) && !strcmp(c->valuestring, w->cmd);
}

/* ---- the console: real time, or through the gate in virtual time -------
 *
 * Real time: a command is written into the console socket and lands
 * whenever the host delivers it.  Virtual time (docs/VIRTUAL_TIME.md): the
 * console goes through QEMU's gemlab-gate chardev.  Every runner action is
 * one gate step {input, what the guest prints next, a virtual timeout}:
 * the gate injects the input when the previous step's trigger fires (the
 * expected text printed + VT_DELAY_NS, or the timeout) and stops the VM
 * there if the runner has not queued the step yet.  Before each step the
 * runner waits for that stop (vt_sync) and reads the console up to the
 * gate's output count, so it decides on exactly what the guest printed up
 * to a defined virtual time.  A wait ends when the message comes, or, as
 * -ETIMEDOUT, when the gate has held the VM at the step's virtual timeout:
 * timeouts are virtual too, so a run is the same whatever the host does. */

#define VT_DELAY_NS 1000000ull      /* 1 ms of virtual time from an answer to the next input */
#define VT_POLL_MS 20               /* how often the runner asks the gate whether it holds */
#define CONNECT_MIN_MS 20000       /* wall-clock wait for QEMU's sockets when no watchdog is longer */
#define VT_WALL_STEP_MS 600000      /* wall-clock guard of one step (the run watchdog also applies) */

static int gate_get(struct run *r, const char *prop, cJSON **v)
{
    return qmp_qom_get(&r->in.qmp, QEMU_GATE_PATH, prop, v, QMP_TIMEOUT_MS);
}

static int gate_get_num(struct run *r, const char *prop, double *out)
{
    cJSON *v = NULL;
    int rc = gate_get(r, prop, &v);

    if (!rc && !cJSON_IsNumber(v))
        rc = -EPROTO;
    if (!rc)
        *out = v->valuedouble;
    cJSON_Delete(v);
    return rc;
}

/* 1 when the gate holds the VM (or is idle), 0 while the guest runs on
 * towards the trigger, or an error. */
static int gate_settled(struct run *r)
{
    cJSON *v = NULL;
    int rc = gate_get(r, "state", &v), held;

    if (rc) {
        cJSON_Delete(v);
        return rc;
    }
    held = cJSON_IsString(v) && (!strcmp(v->valuestring, "held") || !strcmp(v->valuestring, "idle"));
    cJSON_Delete(v);
    return held;
}

static bool serial_caught_up(struct inst *i, void *arg)
{
    return i->serial_bytes >= *(const unsigned long long *)arg;
}

/* Wait until the gate holds the VM, then read the console up to what the
 * guest has written: 0 or an inst_wait() error (-ETIMEDOUT after
 * VT_WALL_STEP_MS of wall time).  With @done, return as soon as it holds
 * (1) without waiting for the hold. */
static int vt_sync_until(struct run *r, bool (*done)(struct inst *i, void *arg), void *arg)
{
    long long deadline = inst_now_ms() + VT_WALL_STEP_MS;
    unsigned long long want;
    double ob;
    int rc;

    for (;;) {
        rc = inst_wait(&r->in, VT_POLL_MS, done, arg);
        if (rc == 0 && done)
            return 1;
        if (rc != -ETIMEDOUT)
            return rc;
        rc = gate_settled(r);
        if (rc < 0)
            return rc;
        if (rc == 1)
            break;
        if (inst_now_ms() > deadline)
            return -ETIMEDOUT;
    }
    rc = gate_get_num(r, "output-bytes", &ob);
    if (rc)
        return rc;
    want = (unsigned long long)ob;
    rc = inst_wait(&r->in, 10000, serial_caught_up, &want);
    if (rc)
        return rc;
    return done && done(&r->in, arg) ? 1 : 0;
}

static int vt_sync(struct run *r)
{
    return vt_sync_until(r, NULL, NULL);
}

/* Queue one step: @cmd (NULL: no input) is injected at the current
 * trigger; the next trigger is @expect printed (+ VT_DELAY_NS) or
 * @timeout_ms of virtual time, or with @expect "" VT_DELAY_NS after the
 * injection. */
static int vt_queue_at(struct run *r, const char *cmd, const char *expect, int timeout_ms, uint64_t delay_ns)
{
    char data[1024];
    int rc;

    rc = qmp_qom_set(&r->in.qmp, QEMU_GATE_PATH, "delay-ns", cJSON_CreateNumber((double)delay_ns),
                     QMP_TIMEOUT_MS);
    if (!rc && expect[0])
        rc = qmp_qom_set(&r->in.qmp, QEMU_GATE_PATH, "timeout-ns",
                         cJSON_CreateNumber((double)timeout_ms * 1e6), QMP_TIMEOUT_MS);
    if (!rc)
        rc = qmp_qom_set(&r->in.qmp, QEMU_GATE_PATH, "expect", cJSON_CreateString(expect), QMP_TIMEOUT_MS);
    snprintf(data, sizeof(data), "%s%s", cmd ? cmd : "", cmd ? "\r" : "");
    if (!rc)
        rc = qmp_qom_set(&r->in.qmp, QEMU_GATE_PATH, "send", cJSON_CreateString(data), QMP_TIMEOUT_MS);
    if (rc == -EPROTO)
        fprintf(stderr, "gemlab: console gate: %s\n", r->in.qmp.last_error);
    r->vt_steps++;
    return rc;
}

static int vt_queue(struct run *r, const char *cmd, const char *expect, int timeout_ms)
{
    return vt_queue_at(r, cmd, expect, timeout_ms, VT_DELAY_NS);
}

/* The gate's virtual time of @prop ("last-match-ns", "clock-ns"), -1 if unknown. */
static long long gate_ns(struct run *r, const char *prop)
{
    double v;

    return gate_get_num(r, prop, &v) ? -1 : (long long)v;
}

/* The gate's pattern for the next @type message (FW_JSON_HEAD,
 * firmware/baremetal/include/fw.h; the agent prints the same key order). */
static const char *type_pattern(const char *type, char *buf, size_t len)
{
    snprintf(buf, len, "\"type\":\"%s\"", type);
    return buf;
}

/* The gate's pattern for the next `link` line saying @up: the bare-metal
 * firmware prints "type","up" first (firmware/baremetal/src/main.c), the
 * Linux agent "type","t_ms","iface","reason","up","speed_mbps"
 * (firmware/linux/agent/agent.c), speed null when down. */
static const char *link_pattern(const struct run *r, bool up)
{
    if (r->s.v[SK_BOARD_FIRMWARE].e == 1)
        return up ? "\"up\":true,\"speed_mbps\":" : "\"up\":false,\"speed_mbps\":null";
    return up ? "\"type\":\"link\",\"up\":true" : "\"type\":\"link\",\"up\":false";
}

/* Wait for @done: in virtual time the VM runs until @expect is printed or
 * @ms of virtual time have passed (a step with no input); in real time up
 * to @ms of wall time. */
static int con_wait(struct run *r, const char *expect, int ms, bool (*done)(struct inst *i, void *arg), void *arg)
{
    int rc;

    if (!r->vt_gated)
        return inst_wait(&r->in, ms, done, arg);
    rc = vt_sync(r);
    if (rc)
        return rc;
    if (done(&r->in, arg))
        return 0;           /* already printed before the hold: no step */
    rc = vt_queue(r, NULL, expect, ms);
    if (rc)
        return rc;
    rc = vt_sync_until(r, done, arg);
    return rc == 1 ? 0 : rc < 0 ? rc : -ETIMEDOUT;
}

/* Send @cmd with nothing to wait for (the next one follows VT_DELAY_NS
 * later in virtual time). */
static int con_send(struct run *r, const char *cmd)
{
    int rc;

    if (!r->vt_gated)
        return inst_send(&r->in, cmd);
    rc = vt_sync(r);
    return rc ? rc : vt_queue(r, cmd, "", 0);
}

/* Send @cmd to the firmware or agent and wait up to @ms for one more
 * @type message than there was before: 0, -ETIMEDOUT or an error.  The
 * one path for a command and its answer, real or virtual time. */
static int send_wait(struct run *r, const char *cmd, const char *type, int ms)
{
    const char *want[2] = { type, NULL };
    char pat[64];
    int rc;

    if (r->vt_gated && (rc = vt_sync(r)) != 0)
        return rc;
    want[1] = (const char *)(intptr_t)rs_count_msgs(&r->in, type);
    if (!r->vt_gated) {
        inst_send(&r->in, cmd);
        return inst_wait(&r->in, ms, msg_after, want);
    }
    rc = vt_queue(r, cmd, type_pattern(type, pat, sizeof(pat)), ms);
    if (rc)
        return rc;
    rc = vt_sync_until(r, msg_after, want);
    return rc == 1 ? 0 : rc < 0 ? rc : -ETIMEDOUT;
}

static int ask_stats(struct run *r)
{
    return send_wait(r, "stats", "stats", 3000);
}

static void progress(struct run *r, const char *phase, double elapsed, double total)
{
    if (r->progress_tty) {
        const cJSON *pm = inst_last_msg(&r->in, "progress");
        fprintf(stderr, "\r\033[K[%s] %-9s %5.1fs", r->s.v[SK_SCENARIO_NAME].s, phase, elapsed);
        if (total > 0)
            fprintf(stderr, " / %.0fs", total);
        if (pm && !isnan(rs_jnumber(pm, "bps")))
            fprintf(stderr, "  board %.1f Mb/s", rs_jnumber(pm, "bps") / 1e6);
        fflush(stderr);
    } else if (r->last_phase != phase) {
        fprintf(stderr, "[%s] %s\n", r->s.v[SK_SCENARIO_NAME].s, phase);
    }
    r->last_phase = phase;
}

static void progress_end(struct run *r)
{
    if (r->progress_tty)
        fputs("\r\033[K", stderr);
}

/* The firmware's "unknown command" answer naming @cmd's first word
 * (bare-metal shell: 'NAME'; Linux agent: "cmd":"NAME"), or NULL. */
static const char *cmd_unknown(const struct run *r, const char *cmd)
{
    char word[64], q1[72], q2[80];
    size_t n = strcspn(cmd, " \t");

    snprintf(word, sizeof(word), "%.*s", (int)(n < sizeof(word) ? n : sizeof(word) - 1), cmd);
    snprintf(q1, sizeof(q1), "'%s'", word);
    snprintf(q2, sizeof(q2), "\"cmd\":\"%s\"", word);
    for (unsigned u = 0; u < r->in.n_unknown_cmd; u++)
        if (strstr(r->in.unknown_cmd[u], q1) || strstr(r->in.unknown_cmd[u], q2))
            return r->in.unknown_cmd[u];
    return NULL;
}

/* A [traffic] fw_cmd or a [timeline] `fw` command the firmware did not
 * know: it answered "unknown command" naming it and went on, so the run
 * measured without it.  That is bad input: the run is an ERROR (exit 2)
 * naming the line in the file and the answer. */
static void fw_cmd_refused(struct run *r)
{
    const char *line;

    for (unsigned k = 0; k < r->s.nfw_cmds; k++)
        if ((line = cmd_unknown(r, r->s.fw_cmds[k]))) {
            r->exit_code = RUN_EXIT_INPUT;
            snprintf(r->reason, sizeof(r->reason), "%s:%d: [traffic] fw_cmd = %.60s: the firmware does not know "
                     "it (its console: %.160s); the run went on without it", r->o.scenario,
                     r->s.fw_cmd_line[k], r->s.fw_cmds[k], line);
            return;
        }
    for (unsigned k = 0; k < r->s.nevents; k++)
        if (r->s.events[k].act == SCN_ACT_FW && (line = cmd_unknown(r, r->s.events[k].text))) {
            r->exit_code = RUN_EXIT_INPUT;
            snprintf(r->reason, sizeof(r->reason), "%s:%d: [timeline] at: fw %.60s: the firmware does not know "
                     "it (its console: %.160s); the run went on without it", r->o.scenario,
                     r->s.events[k].line, r->s.events[k].text, line);
            return;
        }
}

/* The last non-empty line QEMU wrote to RUN_DIR/qemu.log (its own error,
 * e.g. "could not open ... wire.pcapng"), at most @len bytes; "" if none. */
static void qemu_log_last(const struct run *r, char *buf, size_t len)
{
    char path[PATH_MAX + 16], tail[512];
    FILE *f;
    size_t n;

    buf[0] = '\0';
    snprintf(path, sizeof(path), "%s/qemu.log", r->in.run_dir);
    if (!(f = fopen(path, "re")))
        return;
    if (fseek(f, -(long)(sizeof(tail) - 1), SEEK_END))
        rewind(f);
    n = fread(tail, 1, sizeof(tail) - 1, f);
    fclose(f);
    tail[n] = '\0';
    while (n && (tail[n - 1] == '\n' || tail[n - 1] == '\r'))
        tail[--n] = '\0';
    {
        const char *line = strrchr(tail, '\n');
        size_t m = strlen(line = line ? line + 1 : tail);
        if (m >= len)
            m = len - 1;
        memcpy(buf, line, m);
        buf[m] = '\0';
    }
    for (char *p = buf; *p; p++)     /* QEMU's text, shown on a terminal */
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

static int wait_failed(struct run *r, int rc, const char *phase)
{
    char why[128], said[200];

    progress_end(r);
    if (rc == -ECONNRESET || rc == -EPIPE || rc == -ECONNREFUSED) {
        /* the socket went away: QEMU exiting is the usual reason, and its
         * own message says why (give it 0.5 s to be seen as exited) */
        for (int k = 0; k < 50 && !inst_exited(&r->in); k++)
            usleep(10000);
        if (inst_exited(&r->in))
            rc = -ECHILD;
    }
    switch (rc) {
    case -EINTR:
        snprintf(r->reason, sizeof(r->reason), "interrupted by signal %d during %s", (int)inst_stop_signal, phase);
        r->exit_code = RUN_EXIT_INTERRUPTED;
        break;
    case -ECHILD:
        inst_describe_exit(&r->in, why, sizeof(why));
        qemu_log_last(r, said, sizeof(said));
        /* QEMU's last words explain an exit or an abort of its own; a kill
         * from outside leaves none, and its last line then is whatever it
         * said before (a startup warning), not the cause */
        if ((r->in.exited && WIFSIGNALED(r->in.status) &&
             (WTERMSIG(r->in.status) == SIGKILL || WTERMSIG(r->in.status) == SIGTERM ||
              WTERMSIG(r->in.status) == SIGINT)) || strstr(said, ": warning: "))
            said[0] = '\0';
        snprintf(r->reason, sizeof(r->reason), "QEMU %s during %s%s%s", why, phase, said[0] ? "; qemu.log: " : "",
                 said);
        r->exit_code = RUN_EXIT_FAIL;
        break;
    case -ETIME:
        snprintf(r->reason, sizeof(r->reason), "watchdog: the run exceeded its time limit during %s; QEMU killed",
                 phase);
        r->exit_code = RUN_EXIT_FAIL;
        break;
    case -ETIMEDOUT:
        snprintf(r->reason, sizeof(r->reason), "timed out during %s", phase);
        r->exit_code = RUN_EXIT_FAIL;
        break;
    case -ENOTRECOVERABLE:      /* inst_wait: the guest kernel panicked */
        snprintf(r->reason, sizeof(r->reason), "the guest kernel panicked during %s: %.160s", phase, r->in.panic);
        r->exit_code = RUN_EXIT_FAIL;
        break;
    default:
        snprintf(r->reason, sizeof(r->reason), "%s failed: %s", phase, strerror(-rc));
        r->exit_code = RUN_EXIT_FAIL;
        break;
    }
    return rc;
}

/* True once the board's last `link` line says up (bare-metal: BMSR link
 * status and the 88E1116R status register, firmware/baremetal/src/main.c;
 * Linux agent: ethtool GLINK). */
static bool board_link_up(struct inst *i, void *arg)
{
    const cJSON *m, *last = NULL;

    (void)arg;
    cJSON_ArrayForEach(m, i->msgs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
        if (cJSON_IsString(t) && strcmp(t->valuestring, "link") == 0)
            last = m;
    }
    return last && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(last, "up"));
}

static int wait_relink(struct run *r, int n0);

/* [link] downshift: what the board's PHY driver is configured to do.  The
 * same key sets the model's power-on reg 16 (the strap, model_glue.c), but
 * the bare-metal driver, like Linux's m88e1116r_config_init(), enables
 * downshift at configure; `phy downshift off|on [N]` (sent before the link
 * is waited for) makes it keep what the scenario asks.  What the PHY ended
 * up with is read back from reg 16 in `stats` (results.json
 * link.downshift_enabled).  Returns non-zero when the run must stop. */
static int apply_downshift(struct run *r)
{
    char cmd[48];
    int rc, n0;
    bool was_up;

    if (!scn_downshift_cmd(&r->s, cmd, sizeof(cmd)))
        return 0;
    n0 = rs_count_msgs(&r->in, "link");
    was_up = board_link_up(&r->in, NULL);
    rc = send_wait(r, cmd, "phy_downshift", 3000);
    if (rc == -ETIMEDOUT) {
        fprintf(stderr, "gemlab: warning: the board did not confirm '%s' (an older image without it?); "
                        "downshift is whatever its PHY driver set\n", cmd);
    } else if (rc) {
        return wait_failed(r, rc, cmd);
    } else if (r->s.v[SK_BOARD_FIRMWARE].e == 1) {
        /* Linux's driver soft-resets the PHY (marvell.c
         * m88e1011_set_downshift): a commanded relink, not a flap.  Then a
         * fresh `link` line, so the PHY registers results.json reads back
         * (link.downshift_enabled) are the ones after the command even
         * when the link never comes up */
        if (was_up && (rc = wait_relink(r, n0)) != 0)
            return rc;
        rc = send_wait(r, "link", "link", 3000);
        if (rc && rc != -ETIMEDOUT)
            return wait_failed(r, rc, "link");
    }
    return 0;
}

/* [board] phy_mode on bare metal: `phy rgmii MODE` makes the firmware's
 * PHY driver program the 88E1116R's RGMII delays as Linux does from the
 * device tree (firmware/baremetal drivers/phy/phy.c phy_cmd_rgmii); the
 * PHY resets when the bits change.  Sent before the link is waited for;
 * a link that was already up is awaited again (a commanded relink, not a
 * flap).  Returns non-zero when the run must stop. */
static int apply_phy_mode(struct run *r)
{
    char cmd[48];
    int n0, rc;
    bool was_up;
    const cJSON *m;

    if (r->s.v[SK_BOARD_FIRMWARE].e != 0 || !r->s.v[SK_BOARD_PHY_MODE].set)
        return 0;
    snprintf(cmd, sizeof(cmd), "phy rgmii %s", scn_enum_str(&r->s, SK_BOARD_PHY_MODE));
    n0 = rs_count_msgs(&r->in, "link");
    was_up = board_link_up(&r->in, NULL);
    rc = send_wait(r, cmd, "phy_rgmii", 3000);
    if (rc == -ETIMEDOUT) {
        fprintf(stderr, "gemlab: warning: the firmware did not confirm '%s' (an older ELF without "
                        "`phy rgmii`?); the RGMII delays are whatever its PHY driver set\n", cmd);
        return 0;
    }
    if (rc)
        return wait_failed(r, rc, cmd);
    m = inst_last_msg(&r->in, "phy_rgmii");
    if (was_up && m && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "restart")))
        return wait_relink(r, n0);
    return 0;
}

/* Bare-metal runtime board knobs, applied over the console after link-up
 * (firmware/baremetal `gem` command; each answers with a gem_config line):
 * [board] rx_bds -> `gem rxbd N` (arms N of the GEM_RXBD descriptors the
 * ELF was built with), mac_speed -> `gem macspeed off|10|100|1000`.  Values
 * come from the validated scenario (a count, an enum), never a shell.
 * Returns non-zero when the run must stop (QEMU gone, signal). */
static int apply_board_keys(struct run *r)
{
    const struct scenario *s = &r->s;
    char cmd[64];
    int rc;

    if (s->v[SK_BOARD_FIRMWARE].e != 0)
        return 0;
    {
        /* build options: the ELF's ready line says what it was built with,
         * and the runner never rebuilds it; a scenario asking for another
         * value would measure a board it did not describe */
        static const struct { enum scn_key key; const char *field, *make; } opt[] = {
            { SK_BOARD_TX_BDS, "txbd", "GEM_TXBD=" },
            { SK_BOARD_PBUFS, "pbufs", "LWIP_OPTS=-DPBUF_POOL_SIZE=" },
        };
        const cJSON *ready = inst_last_msg(&r->in, "ready");
        for (size_t i = 0; i < sizeof(opt) / sizeof(opt[0]); i++) {
            const struct scn_val *v = &s->v[opt[i].key];
            double have = rs_jnumber(ready, opt[i].field);
            unsigned long long want = v->u;
            if (!v->set)
                continue;
            if (isnan(have)) {
                fprintf(stderr, "gemlab: warning: %s:%d: the firmware's ready line does not say its %s (an older "
                                "ELF?): board.%s = %llu is not checked\n", r->o.scenario, v->line, opt[i].field,
                        scn_key_name(opt[i].key), want);
                continue;
            }
            if (have == (double)want)
                continue;
            snprintf(r->reason, sizeof(r->reason), "%s:%d: board.%s = %llu, but this ELF was built with %.0f (a build "
                     "option: build one with `make -C firmware/baremetal %s%llu O=DIR` and pass --fw)", r->o.scenario,
                     v->line, scn_key_name(opt[i].key), want, have, opt[i].make, want);
            r->exit_code = RUN_EXIT_INPUT;
            return -EINVAL;
        }
    }
    for (int k = 0; k < 2; k++) {
        if (k == 0) {
            if (!s->v[SK_BOARD_RX_BDS].set)
                continue;
            snprintf(cmd, sizeof(cmd), "gem rxbd %llu", (unsigned long long)s->v[SK_BOARD_RX_BDS].u);
        } else {
            const char *m = scn_enum_str(s, SK_BOARD_MAC_SPEED);
            if (!s->v[SK_BOARD_MAC_SPEED].set || strcmp(m, "auto") == 0)
                continue;
            snprintf(cmd, sizeof(cmd), "gem macspeed %s", strcmp(m, "unprogrammed") == 0 ? "off" : m);
        }
        rc = send_wait(r, cmd, "gem_config", 3000);
        if (rc == -ETIMEDOUT) {
            fprintf(stderr, "gemlab: warning: the firmware did not confirm '%s' (built with fewer RX BDs, "
                            "or an older ELF without the gem command?)\n", cmd);
        } else if (rc) {
            wait_failed(r, rc, "board settings");
            return rc;
        }
    }
    return 0;
}

/* The @n-th `link` line (0-based) of @in, or NULL. */
static const cJSON *link_msg(const struct inst *in, int n)
{
    const cJSON *m;

    cJSON_ArrayForEach(m, in->msgs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
        if (cJSON_IsString(t) && strcmp(t->valuestring, "link") == 0 && n-- == 0)
            return m;
    }
    return NULL;
}

struct link_want {
    int from;       /* first link line to look at */
    bool up;        /* the state wanted */
    int found;      /* its ordinal, once seen */
};

static bool link_state_after(struct inst *i, void *arg)
{
    struct link_want *w = arg;
    const cJSON *m;

    for (int k = w->from; (m = link_msg(i, k)) != NULL; k++)
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "up")) == w->up) {
            w->found = k;
            return true;
        }
    return false;
}

/* After a command that restarts autonegotiation (IEEE 802.3 22.2.4.1.7:
 * the link drops while the PHYs exchange pages, then comes back) wait for
 * the link to go down and up again before traffic, so iperf does not start
 * on a dead link and the commanded down/up is not reported as a flap
 * (issue 20).  @n0: link lines before the command.  A link that does not
 * come back is left for the results to show (link.up false, NO_LINK).
 * Returns non-zero when the run must stop (QEMU gone, signal). */
static int wait_relink(struct run *r, int n0)
{
    /* down: the firmware reports it at its next PHY step (~100 ms), the
     * Linux agent polls the carrier every 500 ms; up: AN + 1000BASE-T
     * training, or a downshift after several attempts (phy.h) */
    struct link_want down = { n0, false, -1 }, up = { n0, true, -1 };
    int rc;

    progress(r, "relink", 0, 0);
    rc = con_wait(r, link_pattern(r, false), 3000, link_state_after, &down);
    if (rc && rc != -ETIMEDOUT)
        return wait_failed(r, rc, "link after fw_cmd");
    if (rc == 0) {
        up.from = down.found + 1;
        rc = con_wait(r, link_pattern(r, true), 20000, link_state_after, &up);
        if (rc && rc != -ETIMEDOUT)
            return wait_failed(r, rc, "link after fw_cmd");
    }
    r->relink_lo = n0;
    r->relink_hi = up.found >= 0 ? up.found + 1 : rs_count_msgs(&r->in, "link");
    if (rc == -ETIMEDOUT)
        fprintf(stderr, "gemlab: warning: the link did not %s after the renegotiating command(s); "
                        "starting traffic anyway\n", down.found < 0 ? "drop" : "come back");
    return 0;
}

static void apply_step(struct run *r, const struct step *st, cJSON *log)
{
    cJSON *e = cJSON_CreateObject();
    const char *prop = NULL;
    int rc = 0;

    cJSON_AddNumberToObject(e, "t_s", st->t_ns / 1e9);
    cJSON_AddStringToObject(e, "event", st->text);
    switch (st->kind) {
    case ST_LINK:
        rc = qmp_set_link(&r->in.qmp, QEMU_NETDEV_ID, st->up, QMP_TIMEOUT_MS);
        cJSON_AddStringToObject(e, "applied", st->up ? "set_link up" : "set_link down");
        break;
    case ST_SET:
        prop = qemu_prop_for(st->key);
        break;
    case ST_RESTART:
        /* the model has no restart property: ask the firmware's PHY driver */
        rc = inst_send(&r->in, "phy restart");
        cJSON_AddStringToObject(e, "applied", "console: phy restart");
        break;
    case ST_STARVE:
        prop = "rx-starve-ns";
        break;
    case ST_FW:
        rc = inst_send(&r->in, st->text);   /* the command alone (parse_event) */
        cJSON_AddStringToObject(e, "applied", "console");
        break;
    default:
        break;
    }
    if (prop) {
        if (!r->link_path[0] || !qemu_has_prop(r->props, prop)) {
            rc = -ENOTSUP;
            cJSON_AddStringToObject(e, "applied", "no: this QEMU lacks the property");
        } else {
            cJSON *v;
            if (st->kind == ST_SET) {
                v = qemu_prop_json(&r->s, st->key, st->val);
            } else if (st->kind == ST_STARVE) {
                v = cJSON_CreateNumber((double)st->dur_ns);
            } else {
                v = cJSON_CreateBool(1);
            }
            rc = qmp_qom_set(&r->in.qmp, r->link_path, prop, v, QMP_TIMEOUT_MS);
            cJSON_AddStringToObject(e, "applied", prop);
        }
    }
    if (rc && rc != -ENOTSUP)
        cJSON_AddStringToObject(e, "error", rc == -EPROTO ? r->in.qmp.last_error : strerror(-rc));
    if (rc == -EPROTO && prop && !r->step_refused[0])
        /* QEMU refused the value: the run measured without the change
         * its scenario promised (a check missed it: scn_cross_check) */
        snprintf(r->step_refused, sizeof(r->step_refused), "%s:%d: [timeline] at: %.60s: QEMU refused it (%.200s); "
                 "the run went on without it", r->o.scenario, st->line, st->text, r->in.qmp.last_error);
    cJSON_AddItemToArray(log, e);
}

static bool is_udp_server_result(const cJSON *m)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
    const cJSON *role = cJSON_GetObjectItemCaseSensitive(m, "role");
    const cJSON *proto = cJSON_GetObjectItemCaseSensitive(m, "proto");

    return cJSON_IsString(t) && !strcmp(t->valuestring, "result") && cJSON_IsString(role) &&
           !strcmp(role->valuestring, "server") && cJSON_IsString(proto) && !strcmp(proto->valuestring, "udp");
}

static cJSON *server_intervals(const cJSON *msgs, int p0, const char *proto_want);

/* A UDP run's receiver is the board: its iperf "result" line (docs/schema.md)
 * has the goodput, loss and jitter iperf 2's client cannot know, and its
 * "progress" lines (those after the first @p0) the goodput per interval;
 * the client's intervals are what it sent (at -b 1000M over a 1G link:
 * 1000.12 Mb/s, above the line), kept as sent_intervals_bps. */
static const cJSON *udp_server_result(struct inst *in)
{
    const cJSON *m, *found = NULL;

    cJSON_ArrayForEach(m, in->msgs) {
        if (is_udp_server_result(m))
            found = m;
    }
    /* the history stops at its cap (inst.h INST_MSGS_MAX_BYTES), the
     * newest "result" is always kept */
    if (is_udp_server_result(inst_last_msg(in, "result")))
        found = inst_last_msg(in, "result");
    return found;
}

static bool board_udp_result_seen(struct inst *in, void *arg)
{
    const cJSON *f = udp_server_result(in);

    return f && f != ((struct run *)arg)->last_udp_result;
}

/* The bare-metal board received UDP and printed no result: its iperf
 * server reports when the client's last datagram (a negative number)
 * arrives, and the client gives up after 10 unanswered tries (iperf 2
 * src/Client.cpp, "did not receive ack of last datagram").  The host's
 * figure is what it wrote, not what arrived: as for TCP, no goodput; the
 * intervals and the loss are the board's progress lines' (each says the
 * datagrams and the lost ones counted so far). */
static void board_udp_no_result(struct run *r, cJSON *res, int p0)
{
    double host = rs_jnumber(res, "throughput_bps");
    const cJSON *m, *last = NULL;
    char msg[200];
    int k = 0;

    cJSON_ArrayForEach(m, r->in.msgs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
        const cJSON *role = cJSON_GetObjectItemCaseSensitive(m, "role");
        const cJSON *proto = cJSON_GetObjectItemCaseSensitive(m, "proto");
        if (!cJSON_IsString(t) || strcmp(t->valuestring, "progress") || k++ < p0)
            continue;
        if (cJSON_IsString(role) && !strcmp(role->valuestring, "server") && cJSON_IsString(proto) &&
            !strcmp(proto->valuestring, "udp"))
            last = m;
    }
    snprintf(msg, sizeof(msg), "the board (the receiver) reported no iperf result: the host's %.2f Mb/s is "
             "what it wrote into its socket, not what arrived", isnan(host) ? 0 : host / 1e6);
    if (!isnan(host) && !cJSON_GetObjectItemCaseSensitive(res, "sent_bps"))
        cJSON_AddNumberToObject(res, "sent_bps", host);
    cJSON_ReplaceItemInObjectCaseSensitive(res, "ok", cJSON_CreateFalse());
    cJSON_DeleteItemFromObjectCaseSensitive(res, "error");
    cJSON_AddStringToObject(res, "error", msg);
    cJSON_DeleteItemFromObjectCaseSensitive(res, "throughput_bps");
    cJSON_AddNumberToObject(res, "throughput_bps", 0);
    cJSON_DeleteItemFromObjectCaseSensitive(res, "rx_bps");
    cJSON_AddNumberToObject(res, "rx_bps", 0);
    cJSON_AddStringToObject(res, "receiver", "board: no result line");
    if (last && !cJSON_GetObjectItemCaseSensitive(res, "udp_lost_pct")) {
        double lost = rs_jnumber(last, "lost"), n = rs_jnumber(last, "datagrams");
        if (!isnan(lost) && !isnan(n) && n > 0 && lost >= 0 && lost <= n) {
            cJSON_AddNumberToObject(res, "udp_lost_pct", 100.0 * lost / n);
            cJSON_AddStringToObject(res, "udp_loss_from", "the board's last iperf progress line (no result line)");
        }
    }
    {
        cJSON *sent = cJSON_DetachItemFromObjectCaseSensitive(res, "intervals_bps");
        if (sent)
            cJSON_AddItemToObject(res, "sent_intervals_bps", sent);
        cJSON_AddItemToObject(res, "intervals_bps", server_intervals(r->in.msgs, p0, "udp"));
    }
}

static int board_udp_result(struct run *r, cJSON *res, int p0)
{
    const cJSON *found;

    if (r->s.v[SK_TRAFFIC_PROTOCOL].e != 1)
        return 0;
    found = udp_server_result(&r->in);
    if ((!found || found == r->last_udp_result) && r->s.v[SK_BOARD_FIRMWARE].e == 0 &&
        !r->s.v[SK_TRAFFIC_REVERSE].b && !r->s.v[SK_TRAFFIC_BIDIR].b &&
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "ok"))) {
        /* its console line may trail the host client's exit */
        int rc = inst_wait(&r->in, 3000, board_udp_result_seen, r);
        if (rc && rc != -ETIMEDOUT)
            return wait_failed(r, rc, "board iperf result");
        found = udp_server_result(&r->in);
        if (!found || found == r->last_udp_result) {
            board_udp_no_result(r, res, p0);
            return 0;
        }
    }
    if (!found || found == r->last_udp_result)
        return 0;
    r->last_udp_result = found;
    double bps = rs_jnumber(found, "bps"), loss = rs_jnumber(found, "loss_pct"), jit = rs_jnumber(found, "jitter_us");
    if (!isnan(bps)) {
        double sent = rs_jnumber(res, "throughput_bps");
        if (!isnan(sent) && !cJSON_GetObjectItemCaseSensitive(res, "sent_bps"))
            cJSON_AddNumberToObject(res, "sent_bps", sent);
        cJSON_DeleteItemFromObjectCaseSensitive(res, "throughput_bps");
        cJSON_AddNumberToObject(res, "throughput_bps", bps);
        cJSON_DeleteItemFromObjectCaseSensitive(res, "rx_bps");
        cJSON_AddNumberToObject(res, "rx_bps", bps);
        cJSON_DeleteItemFromObjectCaseSensitive(res, "receiver");
        cJSON_AddStringToObject(res, "receiver", "board iperf result (bytes received)");
    }
    if (!isnan(loss) && !cJSON_GetObjectItemCaseSensitive(res, "udp_lost_pct")) {
        cJSON_AddNumberToObject(res, "udp_lost_pct", loss);
        cJSON_AddStringToObject(res, "udp_loss_from", "the board's iperf result line");
    }
    if (!isnan(jit) && !cJSON_GetObjectItemCaseSensitive(res, "udp_jitter_ms"))
        cJSON_AddNumberToObject(res, "udp_jitter_ms", jit / 1000.0);
    {
        cJSON *iv = server_intervals(r->in.msgs, p0, "udp"), *sent;
        if (cJSON_GetArraySize(iv) > 0 && !cJSON_GetObjectItemCaseSensitive(res, "sent_intervals_bps")) {
            if ((sent = cJSON_DetachItemFromObjectCaseSensitive(res, "intervals_bps")))
                cJSON_AddItemToObject(res, "sent_intervals_bps", sent);
            cJSON_AddItemToObject(res, "intervals_bps", iv);
        } else {
            cJSON_Delete(iv);
        }
    }
    return 0;
}

/* The in-emulator peer's addresses (docs/PEER.md: it plays slirp's host) */
#define SIM_PEER_IP "10.0.2.2"
#define SIM_BOARD_IP "10.0.2.15"
static int sim_peer_start(struct run *r, const char *cmd);

/* The path's round-trip time as a bench measures it (issue 20: the window
 * rules need a measured RTT, not the scenario's latency): the bare-metal
 * firmware's latency app pings a UDP echo (RFC 862) the runner serves on
 * the host, which slirp makes 10.0.2.2 for the guest.  Its `result`
 * (docs/schema.md, test "latency": min_us, p50_us...) becomes results.json
 * "rtt".  Bare-metal over --net user, or under --net sim against the
 * peer's echo; a missing answer leaves the RTT unknown.  Returns non-zero
 * when the run must stop. */
static int measure_rtt(struct run *r)
{
    struct sockaddr_in sa = { .sin_family = AF_INET };
    socklen_t sl = sizeof(sa);
    const char *want[2] = { "result", NULL };
    char cmd[96];
    pid_t pid;
    int fd, rc;

    if (r->sim) {
        /* virtual time: the peer's RFC 862 echo (the firmware's echo app,
         * docs/PEER.md) plays the host's, and the probe goes through the
         * gate like any command: the RTT is the virtual one, exact */
        progress(r, "rtt", 0, 0);
        rc = vt_sync(r);
        if (!rc)
            rc = sim_peer_start(r, "echo");
        if (!rc)
            rc = send_wait(r, "latency -c " SIM_PEER_IP " -p 7 -n 20 -i 0 -w 500", "result", 15000);
        if (rc && rc != -ETIMEDOUT)
            return wait_failed(r, rc, "rtt probe");
        if (rc == -ETIMEDOUT)
            fprintf(stderr, "gemlab: warning: the board's latency probe gave no result: RTT unknown\n");
        return 0;
    }
    fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || getsockname(fd, (struct sockaddr *)&sa, &sl)) {
        fprintf(stderr, "gemlab: warning: no UDP echo for the RTT probe: %s\n", strerror(errno));
        if (fd >= 0)
            close(fd);
        return 0;
    }
    pid = fork();
    if (pid == 0) {
        /* the echo: every datagram back to its sender, for at most 20 s */
        char buf[2048];
        alarm(20);
        for (;;) {
            struct sockaddr_in from;
            socklen_t fl = sizeof(from);
            ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
            if (n > 0)
                sendto(fd, buf, (size_t)n, 0, (struct sockaddr *)&from, fl);
        }
    }
    close(fd);
    if (pid < 0) {
        fprintf(stderr, "gemlab: warning: no UDP echo for the RTT probe: %s\n", strerror(errno));
        return 0;
    }
    progress(r, "rtt", 0, 0);
    want[1] = (const char *)(intptr_t)rs_count_msgs(&r->in, "result");
    snprintf(cmd, sizeof(cmd), "latency -c 10.0.2.2 -p %u -n 20 -i 0 -w 500", (unsigned)ntohs(sa.sin_port));
    inst_send(&r->in, cmd);
    rc = inst_wait(&r->in, 15000, msg_after, want);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    if (rc && rc != -ETIMEDOUT)
        return wait_failed(r, rc, "rtt probe");
    if (rc == -ETIMEDOUT)
        fprintf(stderr, "gemlab: warning: the board's latency probe gave no result: RTT unknown\n");
    return 0;
}

/* A bare-metal board's TCP server result (docs/schema.md `result`, role
 * server, not reverse) among the `result` lines from ordinal w->n0 on. */
struct board_tcp_want {
    int n0, want;       /* result ordinal to start at, streams expected */
    int found;
    double bps;         /* summed over the streams' results */
};

/* A receiver's per-interval rates from its `iperf -s -i 1` progress
 * lines of protocol @proto_want ("tcp", "udp"; docs/schema.md: bytes
 * received in the interval) among @msgs, from progress ordinal @p0 on,
 * summed over streams by interval index:
 * the board's console lines, or the in-emulator peer's (peer.jsonl). */
static cJSON *server_intervals(const cJSON *msgs, int p0, const char *proto_want)
{
    cJSON *a = cJSON_CreateArray();
    const cJSON *m;
    char peer[8][40];
    int k = 0, npeer = 0, idx[8] = { 0 };

    cJSON_ArrayForEach(m, msgs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
        const cJSON *test = cJSON_GetObjectItemCaseSensitive(m, "test");
        const cJSON *proto = cJSON_GetObjectItemCaseSensitive(m, "proto");
        const cJSON *role = cJSON_GetObjectItemCaseSensitive(m, "role");
        const cJSON *pe = cJSON_GetObjectItemCaseSensitive(m, "peer");
        double bps = rs_jnumber(m, "bps");
        int j;
        if (!cJSON_IsString(t) || strcmp(t->valuestring, "progress") != 0 || k++ < p0)
            continue;
        if (!cJSON_IsString(test) || strcmp(test->valuestring, "iperf") || !cJSON_IsString(proto) ||
            strcmp(proto->valuestring, proto_want) || !cJSON_IsString(role) || strcmp(role->valuestring, "server") ||
            isnan(bps))
            continue;
        for (j = 0; j < npeer && !(cJSON_IsString(pe) && !strcmp(peer[j], pe->valuestring)); j++)
            ;
        if (j == npeer) {
            if (npeer == 8)
                continue;
            snprintf(peer[npeer++], sizeof(peer[0]), "%s", cJSON_IsString(pe) ? pe->valuestring : "");
        }
        if (idx[j] < cJSON_GetArraySize(a)) {
            cJSON *e = cJSON_GetArrayItem(a, idx[j]);
            cJSON_SetNumberValue(e, e->valuedouble + bps);
        } else {
            cJSON_AddItemToArray(a, cJSON_CreateNumber(bps));
        }
        idx[j]++;
    }
    return a;
}

static bool board_tcp_result_seen(struct inst *i, void *arg)
{
    struct board_tcp_want *w = arg;
    const cJSON *m;
    int k = 0;

    w->found = 0;
    w->bps = 0;
    cJSON_ArrayForEach(m, i->msgs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
        const cJSON *test = cJSON_GetObjectItemCaseSensitive(m, "test");
        const cJSON *proto = cJSON_GetObjectItemCaseSensitive(m, "proto");
        const cJSON *role = cJSON_GetObjectItemCaseSensitive(m, "role");
        if (!cJSON_IsString(t) || strcmp(t->valuestring, "result") != 0)
            continue;
        if (k++ < w->n0)
            continue;
        if (cJSON_IsString(test) && !strcmp(test->valuestring, "iperf") && cJSON_IsString(proto) &&
            !strcmp(proto->valuestring, "tcp") && cJSON_IsString(role) && !strcmp(role->valuestring, "server") &&
            !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "reverse")) && !isnan(rs_jnumber(m, "bps"))) {
            w->found++;
            w->bps += rs_jnumber(m, "bps");
        }
    }
    return w->found >= w->want;
}

/* Goodput is what the receiver counted (issue 20).  Host -> bare-metal
 * board over TCP, the host's iperf 2 reports what it wrote into its socket
 * - to slirp, which accepts it whether or not anything reaches the board.
 * The board's lwiperf result (bytes received from accept to close) is the
 * goodput; the host's figure stays as sent_bps.  No board result: nothing
 * arrived, and the test did not succeed whatever the host printed.
 * Returns non-zero when the run must stop (QEMU gone, signal). */
static int board_tcp_result(struct run *r, cJSON *res, int n0, int p0)
{
    struct board_tcp_want w = { n0, r->s.v[SK_TRAFFIC_PARALLEL].u > 1 ? (int)r->s.v[SK_TRAFFIC_PARALLEL].u : 1, 0, 0 };
    double host = rs_jnumber(res, "throughput_bps");
    int rc;

    if (r->s.v[SK_BOARD_FIRMWARE].e != 0 || r->s.v[SK_TRAFFIC_PROTOCOL].e != 0 || r->s.v[SK_TRAFFIC_REVERSE].b ||
        r->s.v[SK_TRAFFIC_BIDIR].b || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "ok")))
        return 0;
    /* the board prints its result when the host's FIN has come through */
    rc = inst_wait(&r->in, 3000, board_tcp_result_seen, &w);
    if (rc && rc != -ETIMEDOUT)
        return wait_failed(r, rc, "board iperf result");
    if (!isnan(host) && !cJSON_GetObjectItemCaseSensitive(res, "sent_bps"))
        cJSON_AddNumberToObject(res, "sent_bps", host);
    cJSON_DeleteItemFromObjectCaseSensitive(res, "throughput_bps");
    cJSON_DeleteItemFromObjectCaseSensitive(res, "rx_bps");
    if (!w.found) {
        char msg[200];
        snprintf(msg, sizeof(msg), "the board (the receiver) reported no iperf result: the host's %.2f Mb/s is "
                 "what it wrote into its socket, not what arrived", isnan(host) ? 0 : host / 1e6);
        cJSON_ReplaceItemInObjectCaseSensitive(res, "ok", cJSON_CreateFalse());
        cJSON_DeleteItemFromObjectCaseSensitive(res, "error");
        cJSON_AddStringToObject(res, "error", msg);
        cJSON_AddNumberToObject(res, "throughput_bps", 0);
        cJSON_AddNumberToObject(res, "rx_bps", 0);
        cJSON_AddStringToObject(res, "receiver", "board: no result line");
        {
            cJSON *sent = cJSON_DetachItemFromObjectCaseSensitive(res, "intervals_bps");
            if (sent)
                cJSON_AddItemToObject(res, "sent_intervals_bps", sent);
            cJSON_AddItemToObject(res, "intervals_bps", server_intervals(r->in.msgs, p0, "tcp"));
        }
        return 0;
    }
    cJSON_AddNumberToObject(res, "throughput_bps", w.bps);
    cJSON_AddNumberToObject(res, "rx_bps", w.bps);
    cJSON_AddStringToObject(res, "receiver", "board iperf result (bytes received)");
    {
        /* the intervals too: the board's, the host's kept as sent_intervals_bps */
        cJSON *iv = server_intervals(r->in.msgs, p0, "tcp");
        if (cJSON_GetArraySize(iv) > 0) {
            cJSON *sent = cJSON_DetachItemFromObjectCaseSensitive(res, "intervals_bps");
            if (sent)
                cJSON_AddItemToObject(res, "sent_intervals_bps", sent);
            cJSON_AddItemToObject(res, "intervals_bps", iv);
        } else {
            cJSON_Delete(iv);
        }
    }
    return 0;
}

/* Virtual time with no traffic peer: [traffic] duration (+ omit) of
 * virtual time on the idle link.  Timeline actions are applied with the VM
 * held by the gate at their virtual time (QMP while stopped: set_link and
 * qom-set act at exactly that time); console actions are the input of the
 * step that starts there.  0 or non-zero when the run must stop. */
static bool never_done(struct inst *i, void *arg);

/* Run the gated timeline from virtual time *@t (relative to the hold the
 * caller has synced to) up to @end: each action is applied with the VM
 * held at its time (QMP while stopped acts at exactly that virtual time;
 * console actions are the input of the step that starts there).  Stops
 * early, at a hold, once @done (may be NULL) is true.  The VM is held
 * when it returns 0 (at *@t, or at @end). */
static int vt_timeline(struct run *r, const struct step *steps, int n, int *next, uint64_t *t, uint64_t end,
                       const char *what, bool (*done)(struct inst *i, void *arg), void *arg)
{
    cJSON *tl = cJSON_GetObjectItemCaseSensitive(r->results, "timeline_applied");
    int rc = 0;

    while (rc == 0) {
        char cmds[1024] = "";
        size_t o = 0;
        uint64_t tn;

        if (done && done(&r->in, arg))
            break;
        while (*next < n && steps[*next].t_ns <= *t) {
            const struct step *st = &steps[(*next)++];
            if (st->kind == ST_FW || st->kind == ST_RESTART) {
                const char *c = st->kind == ST_FW ? st->text : "phy restart";
                cJSON *e = cJSON_CreateObject();
                cJSON_AddNumberToObject(e, "t_s", st->t_ns / 1e9);
                cJSON_AddStringToObject(e, "event", st->text);
                cJSON_AddStringToObject(e, "applied", st->kind == ST_FW ? "console" : "console: phy restart");
                cJSON_AddItemToArray(tl, e);
                o += (size_t)snprintf(cmds + o, o < sizeof(cmds) ? sizeof(cmds) - o : 0, "%s%s", o ? "\r" : "", c);
                if (o >= sizeof(cmds))
                    o = sizeof(cmds) - 1;
            } else {
                apply_step(r, st, tl);
            }
        }
        if (*t >= end) {
            if (o)
                rc = con_send(r, cmds);
            break;
        }
        tn = *next < n && steps[*next].t_ns < end ? steps[*next].t_ns : end;
        rc = vt_queue_at(r, o ? cmds : NULL, "", 0, tn - *t);
        if (!rc)
            rc = vt_sync(r);
        *t = tn;
        progress(r, what, *t / 1e9, end / 1e9);
    }
    return rc;
}

static int vt_idle_phase(struct run *r, const char *what)
{
    struct step *steps = calloc(MAX_STEPS, sizeof(*steps));
    cJSON *tl = cJSON_GetObjectItemCaseSensitive(r->results, "timeline_applied");
    uint64_t dur = r->s.v[SK_TRAFFIC_DURATION].u + r->s.v[SK_TRAFFIC_OMIT].u, t = 0;
    int n, next = 0, rc;

    if (!steps)
        return -ENOMEM;
    n = expand_timeline(&r->s, steps);
    progress(r, what, 0, dur / 1e9);
    if (!r->vt_gated) {
        /* no gate: the timeline at wall-clock times, as in real time */
        long long t0 = inst_now_ms();
        rc = 0;
        while (rc == 0 && next < n) {
            long long due = t0 + (long long)(steps[next].t_ns / 1000000ull);
            if (inst_now_ms() >= due)
                apply_step(r, &steps[next++], tl);
            else
                rc = inst_wait(&r->in, (int)(due - inst_now_ms()), never_done, NULL);
            rc = rc == -ETIMEDOUT ? 0 : rc;
        }
        if (rc == 0)
            rc = inst_wait(&r->in, (int)(dur / 1000000ull), never_done, NULL);
        free(steps);
        return rc == -ETIMEDOUT || rc == 0 ? 0 : wait_failed(r, rc, "virtual-time idle phase");
    }
    rc = vt_sync(r);
    if (!rc)
        rc = vt_timeline(r, steps, n, &next, &t, dur, what, NULL, NULL);
    progress_end(r);
    free(steps);
    return rc ? wait_failed(r, rc, "virtual-time idle phase") : 0;
}

/* One iperf invocation with the timeline running alongside. */
static int run_traffic(struct run *r, unsigned long long length, int idx, cJSON **result)
{
    struct argv_buf a;
    struct step *steps = calloc(MAX_STEPS, sizeof(*steps));
    char out[PATH_MAX + 32], err[PATH_MAX + 32];
    bool v3 = strcmp(scn_host_tool(&r->s), "iperf3") == 0;
    double dur = r->s.v[SK_TRAFFIC_DURATION].u / 1e9 + r->s.v[SK_TRAFFIC_OMIT].u / 1e9;
    cJSON *tl = cJSON_GetObjectItemCaseSensitive(r->results, "timeline_applied");
    int nsteps, next = 0, status = 0, rc, lport = 0, nres0 = rs_count_msgs(&r->in, "result");
    int nprog0 = rs_count_msgs(&r->in, "progress");
    long long t0, deadline;
    bool timed_out = false;

    *result = NULL;
    if (!steps)
        return -ENOMEM;
    nsteps = idx == 0 ? expand_timeline(&r->s, steps) : 0;
    snprintf(out, sizeof(out), "%s/iperf%s%d.%s", r->in.run_dir, idx ? "-" : "", idx, v3 ? "json" : "csv");
    if (!idx)
        snprintf(out, sizeof(out), "%s/iperf.%s", r->in.run_dir, v3 ? "json" : "csv");
    snprintf(err, sizeof(err), "%s/iperf%s.err", r->in.run_dir, idx ? "-n" : "");
    if (r->netns[0]) {
        /* the host-side peer runs inside the private namespace */
        iperf_client_argv(&r->s, "10.0.2.15", board_port(&r->s), length, &a);
        in_netns(r, &a);
    } else {
        iperf_client_argv(&r->s, "127.0.0.1", r->port, length, &a);
    }
    if (!v3 && r->s.v[SK_TRAFFIC_BIDIR].b) {
        /* iperf 2 -d: the host listens for the board's stream; on slirp the
         * board reaches it at 10.0.2.2:PORT = host loopback, so take a free
         * port rather than 5001 (busy under parallel runs) */
        lport = free_port();
        if (lport > 0) {
            av_add(&a, "-L");
            av_add(&a, "%d", lport);
        }
    }
    rc = spawn_tool(a.v, out, err);
    av_free(&a);
    if (rc) {
        free(steps);
        r->exit_code = RUN_EXIT_MISSING;
        snprintf(r->reason, sizeof(r->reason), "cannot run the host iperf");
        return rc;
    }
    t0 = inst_now_ms();
    if (!r->traffic_t0_ms)
        r->traffic_t0_ms = t0;
    deadline = t0 + (long long)(dur * 1000) + 15000;
    progress(r, "traffic", 0, dur);
    for (;;) {
        long long now = inst_now_ms();
        uint64_t t_ns = (uint64_t)(now - t0) * 1000000ull;
        while (next < nsteps && steps[next].t_ns <= t_ns)
            apply_step(r, &steps[next++], tl);
        rc = inst_wait(&r->in, 200, tool_done, &status);
        progress(r, "traffic", (now - t0) / 1000.0, dur);
        if (rc == 0)
            break;
        if (rc != -ETIMEDOUT) {
            kill_tool();
            free(steps);
            return wait_failed(r, rc, "traffic");
        }
        if (now > deadline) {
            /* a silent server is a result (e.g. iperf 2 vs 3), not a harness
             * error: record it and let the diagnosis and verdict judge */
            kill_tool();
            timed_out = true;
            break;
        }
    }
    progress_end(r);
    free(steps);
    {
        char *o = tool_output(out, 32u << 20), *e = tool_output(err, 1u << 20);
        if (v3)
            *result = iperf3_parse(o);
        else if (lport > 0)
            *result = iperf2_parse_dual(o, e, r->s.v[SK_TRAFFIC_PROTOCOL].e == 1,
                                        r->s.v[SK_TRAFFIC_DURATION].u / 1e9, lport);
        else
            *result = iperf2_parse(o, e, r->s.v[SK_TRAFFIC_PROTOCOL].e == 1,
                                   r->s.v[SK_TRAFFIC_DURATION].u / 1e9);
        if (timed_out) {
            char msg[160];
            snprintf(msg, sizeof(msg), "host iperf did not finish within %.0f s: the server never answered "
                     "the protocol (version mismatch?) or the link stalled", dur + 15);
            cJSON_ReplaceItemInObjectCaseSensitive(*result, "ok", cJSON_CreateFalse());
            cJSON_DeleteItemFromObjectCaseSensitive(*result, "error");
            cJSON_AddStringToObject(*result, "error", msg);
        } else if (WIFSIGNALED(status)) {
            /* killed from outside (the OOM killer, a user): what it
             * printed is cut short, and no fault of the board's */
            char msg[160];
            snprintf(msg, sizeof(msg), "host iperf was killed by signal %d (%s) before it finished: its figures "
                     "are not the board's", WTERMSIG(status), strsignal(WTERMSIG(status)));
            cJSON_ReplaceItemInObjectCaseSensitive(*result, "ok", cJSON_CreateFalse());
            cJSON_DeleteItemFromObjectCaseSensitive(*result, "error");
            cJSON_AddStringToObject(*result, "error", msg);
        }
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(*result, "ok")) && e && *e &&
            !cJSON_GetObjectItemCaseSensitive(*result, "error")) {
            e[strcspn(e, "\n")] = '\0';
            cJSON_AddStringToObject(*result, "error", e);
        }
        free(o);
        free(e);
    }
    if (!v3 && r->s.v[SK_TRAFFIC_REVERSE].b) {
        /* iperf 2 -R: the host received what the board sent */
        double b = rs_jnumber(*result, "rx_bps");
        cJSON_DeleteItemFromObjectCaseSensitive(*result, "rx_bps");
        if (!isnan(b))
            cJSON_AddNumberToObject(*result, "tx_bps", b);
    }
    rs_iperf_method_banner(r, *result);
    {
        /* iperf 2 -y C does not say its direction, -w, -l or -b, iperf3
         * -J not its -l or -b: the ones it was run with */
        cJSON *m = cJSON_GetObjectItemCaseSensitive(*result, "method");
        if (!v3 && m && !cJSON_GetObjectItemCaseSensitive(m, "reverse"))
            cJSON_AddBoolToObject(m, "reverse", r->s.v[SK_TRAFFIC_REVERSE].b);
        iperf_client_method(&r->s, length, m);
    }
    if ((rc = board_udp_result(r, *result, nprog0)))
        return rc;
    return board_tcp_result(r, *result, nres0, nprog0);
}

/* Start QEMU for @in: the run's board (r->in), or with --net pair the peer
 * board (r->peer: no scenario, so a clean link; it connects to the board's
 * pair socket). */
/* A sweep's later tests: iperf3 3.12's server closes its listening socket
 * while it finishes a test, and over slirp the next connect is accepted by
 * slirp and then reset ("unable to receive control message") or refused.
 * Such a test did not run at all: wait a second and run it again (twice at
 * most).  Any other failure is a result and is kept. */
static bool never_done(struct inst *i, void *arg)
{
    (void)i;
    (void)arg;
    return false;
}

/* Linux board, iperf3: wait (up to 30 s) until the agent's `tcp-port 5201`
 * says the guest server listens and holds no connection of the previous
 * test.  The host client exits once it has sent IPERF_DONE; the starved
 * guest then still has to read it, close the control socket and re-create
 * its listener, and a client started in between is refused ("server is
 * busy") or, through slirp, accepted on the host and dropped on the guest's
 * RST ("control socket has closed unexpectedly").  Returns 0 (also when it
 * never became idle: the test then runs and its error is the result). */
static int wait_board_iperf3_idle(struct run *r, int idx)
{
    char cmd[32];
    struct want_answer w = { "result", "tcp-port", 0 };

    if (r->s.v[SK_BOARD_FIRMWARE].e != 1 || board_port(&r->s) != BOARD_PORT_IPERF3)
        return 0;
    snprintf(cmd, sizeof(cmd), "tcp-port %d", BOARD_PORT_IPERF3);
    for (int polls = 0; polls < 100; polls++) {
        int rc;

        w.count = rs_count_msgs(&r->in, "result");
        inst_send(&r->in, cmd);
        rc = inst_wait(&r->in, 5000, answer_after, &w);
        if (rc == -ETIMEDOUT)
            break;                 /* an old agent without tcp-port: run anyway */
        if (rc)
            return wait_failed(r, rc, "board iperf3 idle");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(inst_last_msg(&r->in, "result"), "idle"))) {
            if (polls)
                fprintf(stderr, "gemlab: test %d: waited for the board's iperf3 server (%d polls)\n", idx, polls);
            return 0;
        }
        rc = inst_wait(&r->in, 300, never_done, NULL);
        if (rc && rc != -ETIMEDOUT)
            return wait_failed(r, rc, "board iperf3 idle");
    }
    fprintf(stderr, "gemlab: test %d: the board's iperf3 server did not report idle; running the test anyway\n", idx);
    return 0;
}

static int run_traffic_settled(struct run *r, unsigned long long length, int idx, cJSON **result)
{
    for (int t = 0;; t++) {
        int rc = wait_board_iperf3_idle(r, idx);
        if (rc)
            return rc;
        rc = run_traffic(r, length, idx, result);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(*result, "error");
        if (rc || t == 2 || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(*result, "ok")) || !cJSON_IsString(e) ||
            !(strstr(e->valuestring, "unable to receive control message") ||
              strstr(e->valuestring, "unable to connect to server")))
            return rc;
        fprintf(stderr, "gemlab: test %d: %s (the board's server was re-opening); again in 1 s\n", idx,
                e->valuestring);
        cJSON_Delete(*result);
        *result = NULL;
        rc = inst_wait(&r->in, 1000, never_done, NULL);
        if (rc && rc != -ETIMEDOUT)
            return wait_failed(r, rc, "traffic retry");
    }
}

/* QEMU never runs the guest as root (docs/SECURITY.md Q5): in tap mode (root) it
 * drops to QEMU_RUNAS_USER after opening the tap and its sockets, and it
 * runs under -sandbox when the binary has seccomp.  Decided once per run,
 * recorded as results.json "qemu".  0, or -EPERM when tap mode finds no
 * unprivileged user or the binary does not say whether it has seccomp
 * (reason set, exit 3). */
static int harden_argv(struct run *r, struct argv_buf *a)
{
    if (!r->hardening_set) {
        const struct passwd *pw = getpwuid(geteuid());
        if (r->netns[0] && qemu_runas_user(r->qemu_user, sizeof(r->qemu_user))) {
            snprintf(r->reason, sizeof(r->reason), "--net tap: no unprivileged user for QEMU's -runas (neither "
                     "'%s' nor 'nobody'; scripts/deps.sh creates '%s')", QEMU_RUNAS_USER, QEMU_RUNAS_USER);
            r->exit_code = RUN_EXIT_MISSING;
            return -EPERM;
        }
        if (!r->netns[0])
            snprintf(r->qemu_user, sizeof(r->qemu_user), "%s", pw ? pw->pw_name : "?");
        if (r->netns[0] && strcmp(r->qemu_user, QEMU_RUNAS_USER))
            fprintf(stderr, "gemlab: warning: no user '%s' (scripts/deps.sh creates it): QEMU runs as '%s'\n",
                    QEMU_RUNAS_USER, r->qemu_user);
        int sb = qemu_has_sandbox(r->qemu);
        if (sb < 0) {
            snprintf(r->reason, sizeof(r->reason), "%.300s -sandbox on -version: %s; it is not run unconfined",
                     r->qemu, sb == -ETIMEDOUT ? "no answer within 10 s" : strerror(-sb));
            r->exit_code = RUN_EXIT_MISSING;
            return -EPERM;
        }
        r->sandbox = sb ? r->netns[0] ? QEMU_SANDBOX_RUNAS : QEMU_SANDBOX : NULL;
        if (!r->sandbox)
            fprintf(stderr, "gemlab: warning: %s has no -sandbox (built without seccomp): QEMU runs unconfined\n",
                    r->qemu);
        if (r->results) {
            cJSON *q = cJSON_AddObjectToObject(r->results, "qemu");
            cJSON_AddStringToObject(q, "user", r->qemu_user);
            if (r->sandbox)
                cJSON_AddStringToObject(q, "sandbox", r->sandbox);
            else
                cJSON_AddNullToObject(q, "sandbox");
        }
        r->hardening_set = true;
    }
    if (r->netns[0]) {
        if (qemu_has_run_with_user(r->qemu)) {
            av_add(a, "-run-with");
            av_add(a, "user=%s", r->qemu_user);
        } else {
            av_add(a, "-runas");
            av_add(a, "%s", r->qemu_user);
        }
    }
    if (r->sandbox) {
        av_add(a, "-sandbox");
        av_add(a, "%s", r->sandbox);
    }
    return 0;
}

/* [board] phy_mode on Linux: the guest boots a copy of the DTB whose GEM
 * node (alias ethernet0) says that phy-mode, so the real marvell driver
 * programs the 88E1116R's RGMII delays from it (drivers/net/phy/marvell.c
 * m88e1116r_config_init -> m88e1121_config_aneg_rgmii_delays).  The copy
 * is RUN_DIR/board.dtb; fdtput is Debian's device-tree-compiler
 * (scripts/deps.sh linux).  0, or a negative errno with r->reason set. */
static int board_dtb(struct run *r, struct inst *in, const struct scenario *s, const char *src,
                     char *out, size_t outlen)
{
    const char *mode = scn_enum_str(s, SK_BOARD_PHY_MODE);
    char msg[512];
    int rc, ifd, ofd;
    ssize_t n;
    char buf[8192];

    if ((size_t)snprintf(out, outlen, "%s/board.dtb", in->run_dir) >= outlen)
        return -ENAMETOOLONG;
    ifd = open(src, O_RDONLY | O_CLOEXEC);
    if (ifd < 0) {
        rc = -errno;
        snprintf(r->reason, sizeof(r->reason), "[board] phy_mode = %s: cannot read the DTB %.200s: %s", mode,
                 src, strerror(-rc));
        return rc;
    }
    (void)unlink(out);
    ofd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    rc = ofd < 0 ? -errno : 0;
    while (!rc && (n = read(ifd, buf, sizeof(buf))) != 0) {
        if (n < 0 || write(ofd, buf, (size_t)n) != n)
            rc = -EIO;
    }
    close(ifd);
    if (ofd >= 0 && close(ofd) && !rc)
        rc = -errno;
    if (rc) {
        snprintf(r->reason, sizeof(r->reason), "[board] phy_mode = %s: cannot write %.200s: %s", mode, out,
                 strerror(-rc));
        return rc;
    }
    {
        char *argv[] = { "fdtput", "-t", "s", out, "ethernet0", "phy-mode", (char *)mode, NULL };
        rc = run_capture_all(argv, msg, sizeof(msg), 10000);
    }
    if (rc) {
        msg[strcspn(msg, "\n")] = '\0';
        snprintf(r->reason, sizeof(r->reason),
                 "[board] phy_mode = %s: fdtput failed on %.200s (%.120s); install Debian's device-tree-compiler "
                 "(scripts/deps.sh linux)", mode, out,
                 rc < 0 ? strerror(-rc) : msg[0] ? msg : "non-zero exit");
        return rc < 0 ? rc : -EIO;
    }
    return 0;
}

static int start_qemu_inst(struct run *r, struct inst *in, const struct scenario *s, bool with_fw,
                           const char *firmware)
{
    struct qemu_opts qo = { 0 };
    struct argv_buf a;
    char path[PATH_MAX + 32];
    FILE *f;
    long long left_ms;
    int rc, fd;

    if (qemu_gem_props(r->qemu, r->props, sizeof(r->props)) < 0)
        r->props[0] = '\0';
    qo.qemu = r->qemu;
    qo.firmware = firmware;
    qo.fw_path = with_fw ? r->fw : NULL;
    if (with_fw && strcmp(firmware, "linux") == 0) {
        /* the DTB and initramfs sit next to the zImage (firmware/linux) */
        static char dtb[PATH_MAX + 32], initrd[PATH_MAX + 32];
        char dir[PATH_MAX];
        snprintf(dir, sizeof(dir), "%s", r->fw);
        if (strrchr(dir, '/'))
            *strrchr(dir, '/') = '\0';
        else
            snprintf(dir, sizeof(dir), ".");
        snprintf(dtb, sizeof(dtb), "%s/zynq-zc702-qemu.dtb", dir);
        snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio.gz", dir);
        qo.dtb = access(dtb, R_OK) == 0 ? dtb : NULL;
        qo.initrd = access(initrd, R_OK) == 0 ? initrd : NULL;
        if (s && s->v[SK_BOARD_PHY_MODE].set) {
            static char bdtb[PATH_MAX + 32];
            if (!qo.dtb) {
                snprintf(r->reason, sizeof(r->reason), "[board] phy_mode needs the DTB %.300s (make -C firmware/linux)",
                         dtb);
                r->exit_code = RUN_EXIT_MISSING;
                return -ENOENT;
            }
            rc = board_dtb(r, in, s, dtb, bdtb, sizeof(bdtb));
            if (rc) {
                fprintf(stderr, "gemlab: %s\n", r->reason);
                r->exit_code = RUN_EXIT_MISSING;
                return rc;
            }
            qo.dtb = bdtb;
        }
        qo.append = "console=ttyPS0,115200 earlycon";
    }
    qo.qmp_path = in->qmp_path;
    qo.serial_path = in->serial_path;
    qo.fault_path = in->fault_path;
    qo.net = r->netns[0] ? "tap" : r->pair_sock[0] ? "pair" : r->port > 0 ? "user" : r->sim ? "sim"
             : r->vt ? "idle" : "none";
    qo.peer_results = r->peer_results;
    qo.pair_sock = r->pair_sock;
    qo.pair_server = in != &r->peer;
    qo.tap_ifname = r->tap;
    qo.host_port = r->port;
    qo.board_ip = "10.0.2.15";
    qo.board_port = s ? board_port(s) : BOARD_PORT_IPERF2;
    qo.props = r->props;
    qo.mips = r->vt && s ? scn_board_mips(s) : 0;
    qo.quantum_ns = r->vt && s ? scn_board_quantum_ns(s) : 0;
    qo.dma_line_ns = r->vt && s ? scn_board_dma_line_ns(s) : 0;
    if (in == &r->in && s) {
        /* the board's cable as a mirror port would show it (capture.h);
         * a reused --out directory's old capture goes first (QEMU opens
         * it O_EXCL) */
        static char pcap[PATH_MAX + 32];
        snprintf(pcap, sizeof(pcap), "%s/%s", in->run_dir, CAP_FILE);
        if (unlink(pcap) && errno != ENOENT)
            return -errno;
        qo.pcap_path = pcap;
        qo.pcap_max_bytes = CAP_MAX_BYTES;
        qo.pcap_snaplen = CAP_SNAPLEN;
    }
    qemu_build_argv(s, &qo, &a, r->unapplied, sizeof(r->unapplied));
    if (harden_argv(r, &a)) {
        av_free(&a);
        return -EPERM;
    }
    snprintf(path, sizeof(path), "%s/qemu.argv", in->run_dir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    f = fd < 0 ? NULL : fdopen(fd, "w");
    if (!f && fd >= 0)
        close(fd);
    if (f) {
        for (int k = 0; k < a.n; k++)
            fprintf(f, "%s\n", a.v[k]);
        fclose(f);
    }
    if (r->netns[0])
        in_netns(r, &a);
    rc = inst_spawn(in, a.v);
    av_free(&a);
    if (rc) {
        r->exit_code = RUN_EXIT_MISSING;
        snprintf(r->reason, sizeof(r->reason), "cannot start QEMU");
        return rc;
    }
    /* QEMU makes its sockets within a second on an idle host, but a loaded
     * one can starve it far longer: a nice-19 QEMU beside two busy loops
     * took over 20 s, and a virtual-time run then failed on this wall-clock
     * wait although its figures do not depend on the host.  QEMU is alive
     * meanwhile (connect_unix stops at its exit), so wait as long as the
     * run's watchdog allows, and at least CONNECT_MIN_MS. */
    left_ms = in->watchdog_ms ? in->watchdog_ms - inst_now_ms() : 0;
    rc = inst_connect(in, left_ms > CONNECT_MIN_MS ? (int)(left_ms < INT_MAX ? left_ms : INT_MAX)
                                                   : CONNECT_MIN_MS);
    if (rc) {
        if (rc == -EPROTO || rc == -ETIMEDOUT || rc == -ECONNRESET)
            rc = inst_exited(in) ? -ECHILD : rc;
        return wait_failed(r, rc, "QMP/console connect");
    }
    qmp_set_abort_flag(&inst_stop_signal);
    if (in == &r->peer)
        return 0;
    if (qom_find_link(&in->qmp, r->link_path, sizeof(r->link_path)))
        r->link_path[0] = '\0';
    return 0;
}

static int start_qemu(struct run *r, const struct scenario *s, bool with_fw, const char *firmware)
{
    return start_qemu_inst(r, &r->in, s, with_fw, firmware);
}

/* ---- --net pair: a second board and firmware-to-firmware traffic --------- */

#define PAIR_BOARD_IP "10.0.2.15"   /* the scenario's board keeps the default */
#define PAIR_PEER_IP "10.0.2.16"

/* A failure while waiting on @in: the peer's death is named as such. */
static int pair_failed(struct run *r, struct inst *in, int rc, const char *phase)
{
    char why[128];

    if (rc != -ECHILD || in != &r->peer)
        return wait_failed(r, rc, phase);
    progress_end(r);
    inst_describe_exit(&r->peer, why, sizeof(why));
    snprintf(r->reason, sizeof(r->reason), "peer QEMU %s during %s (console: peer/console.log)", why, phase);
    r->exit_code = RUN_EXIT_FAIL;
    return rc;
}

/* Boot the peer board in RUN_DIR/peer: the same bare-metal image on a clean
 * link (no scenario), address PAIR_PEER_IP.  Returns non-zero when the run
 * must stop (reason set). */
static int pair_start_peer(struct run *r)
{
    char dir[sizeof(r->in.run_dir) + 8];
    const char *want[2];
    int rc;

    snprintf(dir, sizeof(dir), "%s/peer", r->in.run_dir);
    rc = inst_rundir(&r->peer, dir, r->top, "peer");
    if (rc)
        return pair_failed(r, &r->peer, rc, "peer run directory");
    r->peer.quiet = r->in.quiet;
    r->peer.watchdog_ms = r->in.watchdog_ms;
    rc = start_qemu_inst(r, &r->peer, NULL, true, "baremetal");
    if (rc && rc != -EINTR && inst_exited(&r->peer)) {
        r->exit_code = RUN_EXIT_PASS;       /* name the peer, not the board */
        return pair_failed(r, &r->peer, -ECHILD, "peer start");
    }
    if (rc)
        return r->exit_code != RUN_EXIT_PASS ? rc : pair_failed(r, &r->peer, rc, "peer start");
    rc = qmp_exec(&r->peer.qmp, "cont", NULL, NULL, QMP_TIMEOUT_MS);
    if (!rc)
        rc = inst_wait(&r->peer, 30000, ready_seen, NULL);
    if (rc)
        return pair_failed(r, &r->peer, rc, "peer boot");
    want[0] = "link";
    want[1] = (const char *)(intptr_t)0;
    rc = inst_wait(&r->peer, 10000, msg_after, want);
    if (rc && rc != -ETIMEDOUT)
        return pair_failed(r, &r->peer, rc, "peer link-up");
    want[0] = "ip";
    want[1] = (const char *)(intptr_t)rs_count_msgs(&r->peer, "ip");
    inst_send(&r->peer, "ip " PAIR_PEER_IP " 255.255.255.0 10.0.2.2");
    rc = inst_wait(&r->peer, 3000, msg_after, want);
    if (rc)
        return pair_failed(r, &r->peer, rc, "peer address");
    return 0;
}

/* The last "result" whose @key is @val after the first @skip results of
 * @in: the firmware's of a role ("role"), or the Linux agent's `run`
 * answer ("cmd":"run", firmware/linux/agent/agent.c cmd_run). */
static const cJSON *result_where(const struct inst *in, int skip, const char *key, const char *val)
{
    const cJSON *m, *v, *found = NULL;
    int n = 0;

    cJSON_ArrayForEach(m, in->msgs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
        if (!cJSON_IsString(t) || strcmp(t->valuestring, "result"))
            continue;
        v = cJSON_GetObjectItemCaseSensitive(m, key);
        if (n++ >= skip && cJSON_IsString(v) && !strcmp(v->valuestring, val))
            found = m;
    }
    /* past the history's cap (inst.h) only the newest result is kept */
    m = inst_last_msg(in, "result");
    v = cJSON_GetObjectItemCaseSensitive(m, key);
    if (inst_count_msgs(in, "result") > skip && cJSON_IsString(v) && !strcmp(v->valuestring, val))
        found = m;
    return found;
}

static const cJSON *pair_result(const struct inst *in, int skip, const char *role)
{
    return result_where(in, skip, "role", role);
}

/* The firmware's iperf client on one board against the firmware's server on
 * the other, with the timeline applied to the scenario's board.  Without
 * `reverse` the peer sends and the board receives (as the host does over
 * --net user); with it the board sends.  The server is already listening on
 * the board (run_scenario); for reverse it is started on the peer. */
static int pair_traffic(struct run *r, cJSON **result)
{
    bool udp = r->s.v[SK_TRAFFIC_PROTOCOL].e == 1, rev = r->s.v[SK_TRAFFIC_REVERSE].b;
    struct inst *tx = rev ? &r->in : &r->peer, *rx = rev ? &r->peer : &r->in;
    double dur = r->s.v[SK_TRAFFIC_DURATION].u / 1e9;
    cJSON *tl = cJSON_GetObjectItemCaseSensitive(r->results, "timeline_applied");
    struct step *steps = calloc(MAX_STEPS, sizeof(*steps));
    const cJSON *srv, *cli;
    const char *want[2];
    char cmd[160];
    int nsteps, next = 0, rc, n, rx_skip, tx_skip;
    long long t0, deadline;
    bool timed_out = false;
    cJSON *res;

    *result = NULL;
    if (!steps)
        return -ENOMEM;
    nsteps = expand_timeline(&r->s, steps);
    if (rev) {
        want[0] = "status";
        want[1] = (const char *)(intptr_t)rs_count_msgs(&r->peer, "status");
        inst_send(&r->peer, udp ? "iperf -s -u -i 1" : "iperf -s -i 1");
        rc = inst_wait(&r->peer, 3000, msg_after, want);
        if (rc) {
            free(steps);
            return pair_failed(r, &r->peer, rc, "peer server start");
        }
    }
    n = snprintf(cmd, sizeof(cmd), "iperf -c %s -t %.0f -i 1", rev ? PAIR_PEER_IP : PAIR_BOARD_IP,
                 dur < 1 ? 1 : dur);
    if (udp && r->s.v[SK_TRAFFIC_BANDWIDTH].set)
        n += snprintf(cmd + n, sizeof(cmd) - (size_t)n, " -u -b %.0f", r->s.v[SK_TRAFFIC_BANDWIDTH].d);
    else if (udp)
        n += snprintf(cmd + n, sizeof(cmd) - (size_t)n, " -u");
    if (r->s.v[SK_TRAFFIC_LENGTH].set)
        snprintf(cmd + n, sizeof(cmd) - (size_t)n, " -l %llu", (unsigned long long)r->s.v[SK_TRAFFIC_LENGTH].u);
    rx_skip = rs_count_msgs(rx, "result");
    tx_skip = rs_count_msgs(tx, "result");
    inst_send(tx, cmd);
    t0 = inst_now_ms();
    if (!r->traffic_t0_ms)
        r->traffic_t0_ms = t0;
    deadline = t0 + (long long)(dur * 1000) + 15000;
    want[0] = "result";
    want[1] = (const char *)(intptr_t)rx_skip;
    progress(r, "traffic", 0, dur);
    for (;;) {
        long long now = inst_now_ms();
        uint64_t t_ns = (uint64_t)(now - t0) * 1000000ull;
        while (next < nsteps && steps[next].t_ns <= t_ns)
            apply_step(r, &steps[next++], tl);
        rc = inst_wait(rx, 200, msg_after, want);
        if (rc == 0 && pair_result(rx, rx_skip, "server"))
            break;
        if (rc && rc != -ETIMEDOUT) {
            free(steps);
            return pair_failed(r, rx, rc, "traffic");
        }
        rc = inst_wait(tx, 1, NULL, NULL);      /* drain the other console */
        if (rc != -ETIMEDOUT) {
            free(steps);
            return pair_failed(r, tx, rc, "traffic");
        }
        progress(r, "traffic", (now - t0) / 1000.0, dur);
        if (now > deadline) {
            timed_out = true;
            break;
        }
        want[1] = (const char *)(intptr_t)rs_count_msgs(rx, "result");
        if (pair_result(rx, rx_skip, "server"))
            break;
    }
    free(steps);
    /* the client prints its own result right after the server's */
    want[1] = (const char *)(intptr_t)tx_skip;
    rc = inst_wait(tx, 2000, msg_after, want);
    if (rc && rc != -ETIMEDOUT)
        return pair_failed(r, tx, rc, "traffic");
    progress_end(r);
    srv = pair_result(rx, rx_skip, "server");
    cli = pair_result(tx, tx_skip, "client");
    res = cJSON_CreateObject();
    cJSON_AddBoolToObject(res, "ok", srv != NULL);
    if (!srv) {
        char msg[160];
        snprintf(msg, sizeof(msg), "no iperf result from the receiving %s within %.0f s",
                 rev ? "peer" : "board", dur + 15);
        cJSON_AddStringToObject(res, "error", msg);
    } else {
        double bps = rs_jnumber(srv, "bps");
        rs_add_num_or_null(res, "throughput_bps", bps);
        rs_add_num_or_null(res, rev ? "tx_bps" : "rx_bps", bps);
        if (udp) {
            double jit = rs_jnumber(srv, "jitter_us");
            rs_add_num_or_null(res, "udp_lost_pct", rs_jnumber(srv, "loss_pct"));
            rs_add_num_or_null(res, "udp_jitter_ms", isnan(jit) ? NAN : jit / 1000.0);
        }
    }
    if (cli)
        rs_add_num_or_null(res, "sent_bps", rs_jnumber(cli, "bps"));
    {
        /* the firmwares' own result lines say how they measured
         * (docs/schema.md `result`: lwiperf, the iperf 2 protocol) */
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(srv ? srv : cli, "proto");
        cJSON *m = cJSON_AddObjectToObject(res, "method");
        cJSON_AddStringToObject(m, "tool", "iperf2");
        cJSON_AddStringToObject(m, "version", "lwIP lwiperf (firmware)");
        if (cJSON_IsString(pr))
            cJSON_AddStringToObject(m, "protocol", pr->valuestring);
        if (srv || cli)
            cJSON_AddNumberToObject(m, "streams", 1);
        iperf_fw_sender_method(res, cli, rev, dur < 1 ? 1 : nearbyint(dur));   /* as -t printed it */
    }
    cJSON_AddStringToObject(res, "source", rev ? "pair: board client -> peer server (firmware iperf)"
                                               : "pair: peer client -> board server (firmware iperf)");
    (void)timed_out;
    *result = res;
    return 0;
}

/* ---- --net sim: the in-emulator peer (docs/PEER.md, docs/VIRTUAL_TIME.md)
 *
 * The peer is the host at 10.0.2.2.  Board -> host ([traffic] reverse):
 * the peer's iperf server is started over QMP while the gate holds the VM,
 * then the firmware's client is typed through the gate.  Host -> board:
 * the board's server is already up (main), the peer's client is started
 * over QMP while the gate holds the VM.  Either way the traffic starts at
 * a defined virtual time and the receiver's count is the goodput, as with
 * the host's iperf. */
/* iperf -P in the firmware's iperf code (IPERF_MAX_PARALLEL, appargs.h) */
#define SIM_MAX_PARALLEL 8
/* its UDP -l: the datagram header and flags word .. a 9000-byte MTU less
 * IP and UDP (IPERF_MIN_UDP_LEN, IPERF_MAX_UDP_LEN, appargs.h); larger
 * than 1472 is sent in IP fragments */
#define SIM_MIN_UDP_LEN 20
#define SIM_MAX_UDP_LEN 8972
/* Linux: the board's iperf 2 server runs per test, in the foreground
 * (its output is the agent's answer), for [traffic] duration plus this;
 * the peer's client starts SIM_LX_SRV_LEAD_NS after it (virtual time:
 * the server's socket is listening by then) */
#define SIM_LX_SRV_EXTRA_S 3
#define SIM_LX_SRV_LEAD_NS 500000000ull
#define SIM_LX_MIN_DURATION_NS 2000000000ull

/* iperf3 (docs/PEER.md "iperf3"): the peer's iperf3 client sends TCP to
 * the Linux image's iperf 3.12, run per test by the agent as a one-off
 * server with -J on this port (init's `iperf3 -s -D` holds 5201). */
#define SIM_IPERF3_PORT 5202

/* tool = iperf3 under --net sim: what its client does not do is refused
 * naming the line; 0 when the scenario fits. */
static int sim_check_iperf3(const struct scenario *s, const char *file)
{
    static const struct { enum scn_key k; const char *why; } no[] = {
        { SK_TRAFFIC_PROTOCOL, "protocol = udp" },
        { SK_TRAFFIC_REVERSE, "reverse" },
        { SK_TRAFFIC_CLIENT, "client = board" },
        { SK_TRAFFIC_BIDIR, "bidir" },
        { SK_TRAFFIC_WINDOW, "window" },
        { SK_TRAFFIC_SWEEP, "sweep" },
        { SK_TRAFFIC_PARALLEL_SWEEP, "parallel_sweep" },
    };
    const struct scn_val *v = &s->v[SK_TRAFFIC_TOOL];

    if (s->v[SK_BOARD_FIRMWARE].e != 1) {
        fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] tool = iperf3: the bare-metal firmware's "
                        "lwiperf speaks iperf 2 (an iperf3 client gets no answer from it, as on a bench)\n",
                file, v->line);
        return -EINVAL;
    }
    if (s->v[SK_TRAFFIC_BOARD_TOOL].e == 2) {
        /* the 2.x/3.x mismatch is a real-time scenario (the host's iperf3
         * against the board's iperf 2: iperf_version_mismatch.ini) */
        fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] board_tool = iperf2 with tool = iperf3 (line %d): "
                        "the peer's iperf3 client runs against the board's iperf3 server only; the version "
                        "mismatch needs clock = real\n", file, s->v[SK_TRAFFIC_BOARD_TOOL].line, v->line);
        return -EINVAL;
    }
    for (size_t k = 0; k < sizeof(no) / sizeof(no[0]); k++) {
        const struct scn_val *n = &s->v[no[k].k];
        bool on = no[k].k == SK_TRAFFIC_PROTOCOL ? n->e == 1
                  : no[k].k == SK_TRAFFIC_CLIENT ? scn_board_client(s)
                  : no[k].k == SK_TRAFFIC_REVERSE || no[k].k == SK_TRAFFIC_BIDIR ? n->b
                  : n->set;
        if (on) {
            fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] %s with tool = iperf3 (line %d): the "
                            "in-emulator peer's iperf3 client sends TCP to the board's server, nothing else "
                            "(use tool = iperf2 for it)\n", file, n->line ? n->line : v->line,
                    no[k].why, v->line);
            return -EINVAL;
        }
    }
    return 0;
}

/* What the peer cannot do yet is refused naming the line (docs/PEER.md). */
int run_sim_check(const struct scenario *s, const char *file)
{
    static const struct { enum scn_key k; const char *why; } no[] = {
        { SK_TRAFFIC_OMIT, "omit (iperf 2 has no -O)" },
    };
    const struct scn_val *v;
    bool v3 = strcmp(scn_host_tool(s), "iperf3") == 0;

    if (v3)
        return sim_check_iperf3(s, file);
    /* (a sweep with a [timeline]: refused with the scenario, scn_cross_check) */
    for (unsigned k = 0; k < (s->npsweep ? s->npsweep : 1); k++) {
        unsigned long long p = s->npsweep ? s->psweep[k] : s->v[SK_TRAFFIC_PARALLEL].u;
        v = &s->v[s->npsweep ? SK_TRAFFIC_PARALLEL_SWEEP : SK_TRAFFIC_PARALLEL];
        if (p > SIM_MAX_PARALLEL) {
            fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] %s = %llu: the in-emulator peer and the "
                            "firmware run 1..%d streams (iperf -P)\n", file, v->line,
                    s->npsweep ? "parallel_sweep" : "parallel", p, SIM_MAX_PARALLEL);
            return -EINVAL;
        }
        if (p > 1 && scn_iperf_reverse(s)) {
            /* iperf 2.1's -R: the firmware's and the peer's server send
             * on one of the client's connections (iperf_tcp.c) */
            fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] client = %s with reverse = %s is iperf 2's -R, "
                            "which the firmware and the peer run with one stream (no %s > 1 with it)\n",
                    file, s->v[SK_TRAFFIC_CLIENT].line, scn_enum_str(s, SK_TRAFFIC_CLIENT),
                    s->v[SK_TRAFFIC_REVERSE].b ? "yes" : "no", s->npsweep ? "parallel_sweep" : "parallel");
            return -EINVAL;
        }
        if (p > 1 && s->v[SK_TRAFFIC_BIDIR].b) {
            /* (bidir with reverse is the scenario's own error) */
            fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] bidir: the peer's client runs iperf 2's -d "
                            "with one stream (no %s > 1 with it)\n", file,
                    s->v[SK_TRAFFIC_BIDIR].line, s->npsweep ? "parallel_sweep" : "parallel");
            return -EINVAL;
        }
    }
    for (unsigned k = 0; s->v[SK_TRAFFIC_PROTOCOL].e == 1 && k < (s->nsweep ? s->nsweep : 1); k++) {
        unsigned long long l = s->nsweep ? s->sweep[k] : s->v[SK_TRAFFIC_LENGTH].u;
        v = &s->v[s->nsweep ? SK_TRAFFIC_SWEEP : SK_TRAFFIC_LENGTH];
        if ((s->nsweep || v->set) && (l < SIM_MIN_UDP_LEN || l > SIM_MAX_UDP_LEN)) {
            fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] %s %llu: the firmware's and the peer's UDP "
                            "-l takes %d..%d bytes\n", file, v->line, s->nsweep ? "sweep length" : "length =",
                    l, SIM_MIN_UDP_LEN, SIM_MAX_UDP_LEN);
            return -EINVAL;
        }
    }
    if (s->v[SK_TRAFFIC_WINDOW].set && scn_iperf_reverse(s) &&
        !(s->v[SK_BOARD_FIRMWARE].e == 1 && scn_board_client(s))) {
        /* the firmware's and the peer's client take no -w with -R
         * (appargs.c); the Linux image's iperf 2.1.8 client does */
        fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] window with client = %s (iperf 2's -R): the %s's "
                        "iperf client takes no -w with -R\n", file, s->v[SK_TRAFFIC_WINDOW].line,
                scn_enum_str(s, SK_TRAFFIC_CLIENT), scn_board_client(s) ? "firmware" : "peer");
        return -EINVAL;
    }
    if (s->v[SK_TRAFFIC_WINDOW].set && s->v[SK_TRAFFIC_PROTOCOL].e == 1) {
        fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] window with protocol = udp: -w is TCP only in "
                        "the firmware's and the peer's iperf (their UDP client paces by -b)\n", file,
                s->v[SK_TRAFFIC_WINDOW].line);
        return -EINVAL;
    }
    for (size_t k = 0; k < sizeof(no) / sizeof(no[0]); k++) {
        v = &s->v[no[k].k];
        if (v->set && (no[k].k != SK_TRAFFIC_BIDIR || v->b) && (no[k].k != SK_TRAFFIC_OMIT || v->u)) {
            fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] %s is not supported by the in-emulator "
                            "peer\n", file, v->line, no[k].why);
            return -EINVAL;
        }
    }
    if (s->v[SK_BOARD_FIRMWARE].e == 1) {
        /* the Linux image runs its iperf 2.1.8 through the agent's `run`
         * (firmware/linux/agent/agent.c), one command at a time */
        v = &s->v[SK_TRAFFIC_BOARD_TOOL];
        if (strcmp(scn_board_tool(s), "iperf2")) {
            fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] board_tool = %s: the in-emulator peer "
                            "speaks iperf 2 (the Linux image's iperf 2.1.8 runs against it)\n", file,
                    v->line, scn_board_tool(s));
            return -EINVAL;
        }
        v = &s->v[SK_TRAFFIC_CLIENT];
        if (s->v[SK_TRAFFIC_PROTOCOL].e == 1 && scn_board_client(s) && !s->v[SK_TRAFFIC_REVERSE].b) {
            /* a UDP receiver's -y C lost/total are misprinted on armhf
             * (sim_lx_server_report), and a -R client gets no Server
             * Report to take them from */
            fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] client = board with protocol = udp into "
                            "the Linux board (-R): its iperf 2.1.8 misprints a UDP receiver's loss on armhf; "
                            "let the peer be the client\n", file, v->line);
            return -EINVAL;
        }
        v = &s->v[SK_TRAFFIC_DURATION];
        if (v->u < SIM_LX_MIN_DURATION_NS) {
            /* iperf 2's summary line is 0.0-T; under 2 s it cannot be
             * told from an interval line (iperf.c iperf2_parse) */
            fprintf(stderr, "gemlab: in virtual time (--net sim): %s:%d: [traffic] duration: the Linux image's iperf 2 "
                            "against the peer needs at least 2s\n", file, v->line ? v->line : 0);
            return -EINVAL;
        }
    }
    return 0;
}

static int sim_supported(const struct run *r)
{
    if (!r->vt_gated) {
        fprintf(stderr, "gemlab run: --net sim: %s: needs the console gate (GEMLAB_CONSOLE_GATE=off given)\n",
                r->o.scenario);
        return -EINVAL;
    }
    return run_sim_check(&r->s, r->o.scenario);
}

/* Every JSON line of the peer's results file (peer.jsonl) so far, in
 * order; an empty array when it has none yet. */
static cJSON *sim_peer_lines(const struct run *r)
{
    char *text = runner_read_file(r->peer_results, 16 << 20, NULL), *line, *save = NULL;
    cJSON *a = cJSON_CreateArray();

    for (line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *j = cJSON_Parse(line);
        if (j && !cJSON_AddItemToArray(a, j))
            cJSON_Delete(j);
    }
    free(text);
    return a;
}

/* @j is a peer line of @type, and of @test and @role when they are not NULL */
static bool sim_peer_line_is(const cJSON *j, const char *type, const char *test, const char *role)
{
    const char *want[3] = { type, test, role }, *key[3] = { "type", "test", "role" };

    for (int k = 0; k < 3; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key[k]);
        if (want[k] && !(cJSON_IsString(v) && !strcmp(v->valuestring, want[k])))
            return false;
    }
    return true;
}

/* How many of @lines (sim_peer_lines) are of @type, @test and @role */
static int sim_peer_count(const cJSON *lines, const char *type, const char *test, const char *role)
{
    const cJSON *j;
    int n = 0;

    cJSON_ArrayForEach(j, lines)
        n += sim_peer_line_is(j, type, test, role);
    return n;
}

/* The peer's last `result` line of @test ("iperf", "iperf3") and @role in
 * its results file (a new object), NULL when there are no more than @skip
 * such lines (a sweep's earlier tests wrote those). */
static cJSON *sim_peer_result(const struct run *r, const char *test, const char *role, int skip)
{
    cJSON *all = sim_peer_lines(r), *copy = NULL;
    const cJSON *j, *found = NULL;
    int n = 0;

    cJSON_ArrayForEach(j, all) {
        if (sim_peer_line_is(j, "result", test, role)) {
            found = j;
            n++;
        }
    }
    if (n > skip)
        copy = cJSON_Duplicate(found, true);
    cJSON_Delete(all);
    return copy;
}

static int sim_peer_start(struct run *r, const char *cmd)
{
    cJSON *a = cJSON_CreateObject();
    int rc;

    cJSON_AddStringToObject(a, "id", QEMU_NETDEV_ID);
    cJSON_AddStringToObject(a, "command", cmd);
    rc = qmp_exec(&r->in.qmp, "gemlab-peer-start", a, NULL, QMP_TIMEOUT_MS);
    if (rc == -EPROTO)
        fprintf(stderr, "gemlab: gemlab-peer-start '%s': %s\n", cmd, r->in.qmp.last_error);
    return rc;
}

/* The scenario's timeline during the peer's test, from the start's hold
 * to its last action; *@t ends at the virtual time reached (from 1 ms
 * with @board_tx: the board's client starts that long after the hold).
 * An action due after the receiver's result line (@want) is not applied,
 * and timeline_applied says so (the scenario keeps every action within
 * the test's duration, so only a test that ended early leaves one).  0 or
 * an inst_wait() error. */
static int sim_timeline(struct run *r, bool board_tx, uint64_t *t, const char **want)
{
    struct step *steps = calloc(MAX_STEPS, sizeof(*steps));
    cJSON *tl = cJSON_GetObjectItemCaseSensitive(r->results, "timeline_applied");
    int n, next = 0, rc = 0;

    if (!steps)
        return -ENOMEM;
    n = expand_timeline(&r->s, steps);
    if (n > 0) {
        *t = board_tx ? VT_DELAY_NS : 0;
        rc = vt_sync(r);
        if (!rc)
            rc = vt_timeline(r, steps, n, &next, t, steps[n - 1].t_ns, "traffic", msg_after, want);
        for (; !rc && next < n; next++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "t_s", steps[next].t_ns / 1e9);
            cJSON_AddStringToObject(e, "event", steps[next].text);
            cJSON_AddStringToObject(e, "applied", "no: the test had ended");
            cJSON_AddItemToArray(tl, e);
        }
    }
    free(steps);
    return rc;
}

/* The Linux board's UDP server: iperf 2.1.8 prints its -y C lost and total
 * datagrams with %d from intmax_t (src/Locale.c
 * reportCSV_bw_jitter_loss_format), which on armhf (64-bit varargs in two
 * registers or slots, AAPCS) shifts every later field: total reads 0.  Its
 * bytes and rate (PRIdMAX) are right.  The loss and jitter are then the
 * server's own report to the client (iperf 2's "Server Report" in the
 * FIN-ack), which the peer's client line carries as "server"
 * (docs/PEER.md "Results"): the same counters, sent in binary. */
static void sim_lx_server_report(cJSON *res, const cJSON *peer)
{
    const cJSON *sr = cJSON_GetObjectItemCaseSensitive(peer, "server");
    double lost = rs_jnumber(sr, "lost"), total = rs_jnumber(sr, "datagrams"), jit = rs_jnumber(sr, "jitter_us");

    if (!isnan(rs_jnumber(res, "udp_lost_pct")) || isnan(lost) || isnan(total) || total <= 0)
        return;
    cJSON_DeleteItemFromObjectCaseSensitive(res, "udp_lost_pct");
    cJSON_DeleteItemFromObjectCaseSensitive(res, "udp_jitter_ms");
    rs_add_num_or_null(res, "udp_lost_pct", 100.0 * lost / total);
    rs_add_num_or_null(res, "udp_jitter_ms", isnan(jit) ? NAN : jit / 1000.0);
    cJSON_AddStringToObject(res, "udp_loss_from", "the board's iperf 2 Server Report to the peer's client "
                                                  "(its -y C misprints the counters on armhf)");
}

/* The peer's result line of the test (its server's when the board sends,
 * its client's when it receives), newer than the first @peer_skip; with
 * @bidir also its server's line (newer than @rx_skip) and the board's
 * server result after @skip.  Up to 10 s of virtual time in 50 ms steps:
 * with loss on the wire the client's FIN can wait for lwIP's
 * retransmission timer (RTO backoff).  The peer's file is read only
 * while the gate holds the VM: con_wait() returns when the firmware's
 * line is in, with the VM still running on to the hold, so a read then
 * found the peer's line or not as the host scheduled it, and the run took
 * one 50 ms step more or less.  0 with *@peer (and *@peer_rx) owned by
 * the caller, NULL when they did not come, or wait_failed()'s error. */
static int sim_peer_wait(struct run *r, const char *test, bool board_tx, bool bidir, int peer_skip, int rx_skip,
                         int skip, cJSON **peer, cJSON **peer_rx)
{
    cJSON *none = NULL;     /* without -d nothing is read into it */
    int rc = 0;

    if (!peer_rx)
        peer_rx = &none;
    for (int k = 0; k < 200; k++) {
        rc = vt_sync(r);
        if (!rc) {
            cJSON_Delete(*peer);
            cJSON_Delete(*peer_rx);
            *peer = sim_peer_result(r, test, board_tx ? "server" : "client", peer_skip);
            *peer_rx = bidir ? sim_peer_result(r, test, "server", rx_skip) : NULL;
            /* -d: the board's server result too (Linux: the agent's answer) */
            if (*peer && (!bidir || (*peer_rx && (r->s.v[SK_BOARD_FIRMWARE].e == 1
                                                      ? result_where(&r->in, skip, "cmd", "run")
                                                      : pair_result(&r->in, skip, "server")))))
                break;
        }
        if (!rc)
            rc = vt_queue_at(r, NULL, "", 0, 50000000ull);     /* 50 ms of virtual time */
        if (rc) {
            cJSON_Delete(*peer);
            cJSON_Delete(*peer_rx);
            *peer = *peer_rx = NULL;
            return wait_failed(r, rc, "peer result");
        }
    }
    cJSON_Delete(none);
    return 0;
}

/* The Linux agent's `stats` at a test's start (@begin: its CPU figure
 * counts from here) or at the traffic's end (kept for results.json
 * "cpu", once per test).  The agent answers while a `run -b` server still
 * listens, so the figure covers the traffic, not the server's tail.  A
 * stats that does not come leaves the figure to the run's last one. */
static int sim_lx_stats(struct run *r, bool begin)
{
    const cJSON *st;
    int rc;

    if (!begin && r->cpu_stats_done)
        return 0;
    rc = ask_stats(r);
    if (rc && rc != -ETIMEDOUT)
        return rc;
    st = rc ? NULL : inst_last_msg(&r->in, "stats");
    if (begin) {
        r->cpu_baseline = st != NULL;
        r->cpu_t0_ms = st ? rs_jnumber(st, "t_ms") : NAN;
        cJSON_Delete(r->cpu_stats);
        r->cpu_stats = NULL;
        r->cpu_stats_done = false;
    } else {
        cJSON_Delete(r->cpu_stats);
        r->cpu_stats = st ? cJSON_Duplicate(st, true) : NULL;
        r->cpu_stats_done = true;
    }
    if (!st)
        fprintf(stderr, "gemlab: warning: the agent did not answer `stats` at the test's %s\n",
                begin ? "start" : "end");
    return 0;
}

/* ARP first, as on a LAN that has carried traffic: one ping from the
 * peer, 20 ms of virtual time before the test.  Without it the board
 * counted the datagrams the peer's client sent while ARP was being
 * resolved as lost (0.032 % of a 3 s test at -b 950M, 0.051 % at 1000M;
 * with it, 0); see docs/VIRTUAL_TIME.md.  Returns with the VM held: the
 * test starts at a defined virtual time.  0 or the QMP/gate error. */
static int sim_arp_first(struct run *r)
{
    int rc = sim_peer_start(r, "ping -c 1 " SIM_BOARD_IP);

    if (!rc)
        rc = vt_queue_at(r, NULL, "", 0, 20000000ull);
    if (!rc)
        rc = vt_sync(r);
    return rc;
}

/* The Linux image receives: the agent starts the board's server @fw_cmd
 * (`run -b`: in the background, for this test only) SIM_LX_SRV_LEAD_NS
 * ahead of the peer's client @peer_cmd, which starts once it listens.
 * The CPU figure counts from the peer's start.  0 or the QMP/gate error. */
static int sim_lx_server_then_peer(struct run *r, const char *fw_cmd, const char *peer_cmd)
{
    int rc = vt_queue_at(r, fw_cmd, "", 0, SIM_LX_SRV_LEAD_NS);

    if (!rc)
        rc = sim_lx_stats(r, true);
    if (!rc)
        rc = vt_sync(r);
    if (!rc)
        rc = sim_peer_start(r, peer_cmd);
    return rc;
}

/* On to @end_ns of the test's virtual time, where the peer's client ends
 * the traffic, from *@t (where the timeline left the VM); the VM is held
 * there.  0 or the QMP/gate error. */
static int sim_run_to(struct run *r, uint64_t *t, uint64_t end_ns)
{
    int rc = vt_sync(r);

    if (!rc && *t < end_ns) {
        rc = vt_queue_at(r, NULL, "", 0, end_ns - *t);
        *t = end_ns;
    }
    return rc;
}

/* tool = iperf3 against the Linux image: the agent runs the board's iperf
 * 3.12 as a one-off server with -J (`run -b`: it exits after the test and
 * the agent answers with its JSON), the peer's iperf3 client sends -P
 * streams for -O + -t seconds.  The result is the board's own JSON, as
 * iperf3 -s -J prints it on a bench: its intervals, its omit, its
 * receiver's sum (iperf3_parse); the copy is RUN_DIR/iperf.json. */
static int sim_traffic_iperf3(struct run *r, cJSON **result)
{
    unsigned long long t_s = r->s.v[SK_TRAFFIC_DURATION].u / 1000000000ull;
    unsigned long long o_s = r->s.v[SK_TRAFFIC_OMIT].u / 1000000000ull, end_ns = (t_s + o_s) * 1000000000ull;
    unsigned streams = r->s.v[SK_TRAFFIC_PARALLEL].u > 1 ? (unsigned)r->s.v[SK_TRAFFIC_PARALLEL].u : 1;
    const char *want[2] = { "result", NULL };
    char opt[64] = "", peer_cmd[192], fw_cmd[96], pat[64], path[PATH_MAX];
    int n = 0, rc, skip = rs_count_msgs(&r->in, "result"), peer_skip;
    cJSON *peer = NULL, *res, *m;
    const cJSON *line, *js;
    char *text;
    uint64_t t = 0;

    *result = NULL;
    if (o_s)
        n += snprintf(opt + n, sizeof(opt) - (size_t)n, " -O %llu", o_s);
    if (streams > 1)
        n += snprintf(opt + n, sizeof(opt) - (size_t)n, " -P %u", streams);
    if (r->s.v[SK_TRAFFIC_LENGTH].set)
        snprintf(opt + n, sizeof(opt) - (size_t)n, " -l %llu", (unsigned long long)r->s.v[SK_TRAFFIC_LENGTH].u);
    snprintf(fw_cmd, sizeof(fw_cmd), "run -b iperf3 -s -1 -J -p %d", SIM_IPERF3_PORT);
    snprintf(peer_cmd, sizeof(peer_cmd), "iperf3 -c %s -p %d -t %llu%s", SIM_BOARD_IP, SIM_IPERF3_PORT, t_s, opt);
    /* ARP first (sim_arp_first); then the board's server, and the
     * peer's client once it listens */
    rc = vt_sync(r);
    {
        cJSON *lines = sim_peer_lines(r);
        peer_skip = sim_peer_count(lines, "result", "iperf3", "client");
        cJSON_Delete(lines);
    }
    if (!rc)
        rc = sim_arp_first(r);
    if (!rc)
        rc = sim_lx_server_then_peer(r, fw_cmd, peer_cmd);
    if (rc)
        return wait_failed(r, rc, "peer start");
    progress(r, "traffic", 0, (double)(t_s + o_s));
    want[1] = (const char *)(intptr_t)skip;
    rc = sim_timeline(r, false, &t, want);
    if (rc)
        return wait_failed(r, rc, "timeline during traffic");
    /* the agent's stats at the traffic's end, before the server's tail */
    rc = sim_run_to(r, &t, end_ns);
    if (!rc)
        rc = sim_lx_stats(r, false);
    if (rc)
        return wait_failed(r, rc, "traffic");
    /* the server's JSON comes when it exits, after the results exchange */
    rc = con_wait(r, type_pattern("result", pat, sizeof(pat)), 10000, msg_after, want);
    progress_end(r);
    if (rc && rc != -ETIMEDOUT)
        return wait_failed(r, rc, "traffic");
    rc = sim_peer_wait(r, "iperf3", false, false, peer_skip, 0, skip, &peer, NULL);
    if (rc)
        return rc;
    line = result_where(&r->in, skip, "cmd", "run");
    js = cJSON_GetObjectItemCaseSensitive(line, "json");
    text = cJSON_IsObject(js) ? cJSON_PrintUnformatted(js) : NULL;
    res = iperf3_parse(text);
    if (text) {
        snprintf(path, sizeof(path), "%s/iperf.json", r->in.run_dir);
        runner_write_text(path, text);    /* a copy: a failure is named on stderr */
    } else {
        const cJSON *out = cJSON_GetObjectItemCaseSensitive(line, "output");
        cJSON_DeleteItemFromObjectCaseSensitive(res, "error");
        cJSON_AddStringToObject(res, "error", !line ? "the board's iperf3 server did not answer"
                                : cJSON_IsString(out) && *out->valuestring ? out->valuestring
                                : "the board's iperf3 server printed no JSON");
    }
    free(text);
    /* the sender's own account, as an iperf3 client's sum_sent: the
     * server's JSON has none for a stream it received (bytes 0) */
    cJSON_DeleteItemFromObjectCaseSensitive(res, "sent_bps");
    rs_add_num_or_null(res, "sent_bps", rs_jnumber(peer, "bps"));
    m = cJSON_GetObjectItemCaseSensitive(res, "method");
    if (m) {
        /* which end ran iperf's client (the window rules take the board's
         * receive window when it receives) */
        cJSON_AddStringToObject(m, "client", "peer");
        if (!cJSON_GetObjectItemCaseSensitive(m, "reverse"))
            cJSON_AddBoolToObject(m, "reverse", false);
    }
    cJSON_AddStringToObject(res, "source", "sim: peer iperf3 client -> board iperf3 -s -J (virtual time)");
    cJSON_AddStringToObject(res, "peer_command", peer_cmd);
    cJSON_AddStringToObject(res, "board_command", fw_cmd);
    if (peer)
        cJSON_AddItemToObject(res, "peer_result", peer);
    *result = res;
    return 0;
}

/* One test against the peer: the scenario's, or test @idx (from 1) of a
 * sweep with -l @length (0: the scenario's).  The peer's server, when the
 * board is the client, is started by the first test only; it stays
 * listening, as the board's does.  The sending end is the client unless
 * [traffic] client says otherwise: then the client asks iperf 2.1's -R
 * and the server sends (scn_iperf_reverse). */
static int sim_traffic(struct run *r, unsigned long long length, int idx, cJSON **result)
{
    bool udp = r->s.v[SK_TRAFFIC_PROTOCOL].e == 1, board_tx = r->s.v[SK_TRAFFIC_REVERSE].b;
    bool board_cli = scn_board_client(&r->s), iperf_r = scn_iperf_reverse(&r->s);
    bool bidir = r->s.v[SK_TRAFFIC_BIDIR].b, lx = r->s.v[SK_BOARD_FIRMWARE].e == 1;
    cJSON *lx_fw = NULL;
    unsigned long long t_s = (r->s.v[SK_TRAFFIC_DURATION].u + 999999999ull) / 1000000000ull;
    const char *want[2] = { "result", NULL };
    char opt[96] = "", peer_cmd[192], fw_cmd[192] = "", pat[64];
    const cJSON *fw;
    cJSON *peer = NULL, *peer_rx = NULL, *res, *m;
    int n = 0, rc, skip = rs_count_msgs(&r->in, "result"), peer_skip, rx_skip;
    int p0 = rs_count_msgs(&r->in, "progress"), peer_p0;
    unsigned streams = (unsigned)r->s.v[SK_TRAFFIC_PARALLEL].u;
    uint64_t t = 0;
    long long wait_ms;

    *result = NULL;
    if (strcmp(scn_host_tool(&r->s), "iperf3") == 0)    /* sim_supported_iperf3() */
        return sim_traffic_iperf3(r, result);
    if (streams < 1)
        streams = 1;
    if (udp && r->s.v[SK_TRAFFIC_BANDWIDTH].set)
        n += snprintf(opt + n, sizeof(opt) - (size_t)n, " -u -b %.0f", r->s.v[SK_TRAFFIC_BANDWIDTH].d);
    else if (udp)
        n += snprintf(opt + n, sizeof(opt) - (size_t)n, " -u");
    if (length)
        n += snprintf(opt + n, sizeof(opt) - (size_t)n, " -l %llu", length);
    else if (r->s.v[SK_TRAFFIC_LENGTH].set)
        n += snprintf(opt + n, sizeof(opt) - (size_t)n, " -l %llu", (unsigned long long)r->s.v[SK_TRAFFIC_LENGTH].u);
    if (streams > 1)        /* the client opens the streams; the server sums them */
        n += snprintf(opt + n, sizeof(opt) - (size_t)n, " -P %u", streams);
    if (r->s.v[SK_TRAFFIC_WINDOW].set)  /* the client's send buffer, as iperf 2's -w on a client */
        n += snprintf(opt + n, sizeof(opt) - (size_t)n, " -w %llu", (unsigned long long)r->s.v[SK_TRAFFIC_WINDOW].u);
    if (bidir)              /* the board's server connects back to the peer's listener at once */
        snprintf(opt + n, sizeof(opt) - (size_t)n, " -d");
    else if (iperf_r)       /* iperf 2.1's -R: the server sends */
        snprintf(opt + n, sizeof(opt) - (size_t)n, " -R");
    rc = vt_sync(r);
    /* the peer's lines of earlier tests (a sweep) are not this one's */
    {
        cJSON *lines = sim_peer_lines(r);
        peer_skip = sim_peer_count(lines, "result", "iperf", board_cli ? "server" : "client");
        rx_skip = sim_peer_count(lines, "result", "iperf", "server");
        peer_p0 = sim_peer_count(lines, "progress", NULL, NULL);
        cJSON_Delete(lines);
    }
    if (!rc)
        rc = sim_arp_first(r);
    if (!rc && board_cli) {
        /* Linux: the agent runs iperf 2.1.8 and answers with its CSV
         * output when it exits (`run`, firmware/linux/agent/agent.c) */
        snprintf(peer_cmd, sizeof(peer_cmd), "iperf -s%s -i 1", udp ? " -u" : "");   /* as in real time */
        snprintf(fw_cmd, sizeof(fw_cmd), "%siperf -c %s -t %llu -i 1%s%s", lx ? "run " : "", SIM_PEER_IP, t_s,
                 lx ? " -y C" : "", opt);
        rc = idx > 1 ? 0 : sim_peer_start(r, peer_cmd);
        if (!rc && lx)      /* the CPU figure counts from here */
            rc = sim_lx_stats(r, true);
        if (!rc)
            rc = con_send(r, fw_cmd);
    } else if (!rc) {
        snprintf(peer_cmd, sizeof(peer_cmd), "iperf -c %s -t %llu%s", SIM_BOARD_IP, t_s, opt);
        if (lx) {
            /* the board's server exits after -t and the agent answers
             * with what it printed */
            snprintf(fw_cmd, sizeof(fw_cmd), "run -b iperf -s%s -i 1 -y C -t %llu", udp ? " -u" : "",
                     t_s + SIM_LX_SRV_EXTRA_S);
            rc = sim_lx_server_then_peer(r, fw_cmd, peer_cmd);
        } else {
            rc = sim_peer_start(r, peer_cmd);
        }
    }
    if (rc)
        return wait_failed(r, rc, "peer start");
    /* the timeline, with the VM held at each action's virtual time (from
     * the start's hold; the board's client starts 1 ms after it), then
     * the receiver's result and the peer's line (a few virtual ms later).
     * No hold after the last action: the next one is 1 ms after the
     * firmware's result line, a time the guest's output decides */
    progress(r, "traffic", 0, (double)t_s);
    want[1] = (const char *)(intptr_t)skip;
    rc = sim_timeline(r, board_cli, &t, want);
    if (rc)
        return wait_failed(r, rc, "timeline during traffic");
    if (lx && !board_cli) {
        /* the peer's client ends the traffic: the agent's stats then,
         * while the board's server still listens in the background */
        rc = sim_run_to(r, &t, t_s * 1000000000ull);
        if (rc)
            return wait_failed(r, rc, "traffic");
        rc = sim_peer_wait(r, "iperf", false, false, peer_skip, rx_skip, skip, &peer, &peer_rx);
        if (rc)
            return rc;
        rc = sim_lx_stats(r, false);
        if (rc) {
            cJSON_Delete(peer);
            return wait_failed(r, rc, "stats");
        }
    }
    wait_ms = (long long)t_s * 1000 + 10000 - (long long)(t / 1000000ull) +
              (lx && !board_cli ? SIM_LX_SRV_EXTRA_S * 1000 : 0);
    rc = con_wait(r, type_pattern("result", pat, sizeof(pat)), wait_ms > 1 ? (int)wait_ms : 1, msg_after, want);
    progress_end(r);
    if (rc && rc != -ETIMEDOUT)
        return wait_failed(r, rc, "traffic");
    /* the peer's lines: up to 10 s of virtual time (sim_peer_wait); a
     * Linux server's answer has come before them (above) */
    rc = sim_peer_wait(r, "iperf", board_cli, bidir, peer_skip, rx_skip, skip, &peer, &peer_rx);
    if (rc)
        return rc;
    if (lx && (rc = sim_lx_stats(r, false)) != 0) {    /* once: no-op after the receiver's */
        cJSON_Delete(peer);
        cJSON_Delete(peer_rx);
        return wait_failed(r, rc, "stats");
    }
    if (lx) {
        /* the agent's answer, as the firmware's result line; without a
         * summary the board reported nothing (its error is kept below) */
        lx_fw = iperf2_agent_result(result_where(&r->in, skip, "cmd", "run"), board_cli ? "client" : "server", udp,
                                    (double)t_s, SIM_BOARD_IP, bidir ? BOARD_PORT_IPERF2 : 0);
        fw = lx_fw && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(lx_fw, "bps")) ? lx_fw : NULL;
    } else {
        fw = pair_result(&r->in, skip, board_cli ? "client" : "server");
    }
    res = iperf_sim_result(board_tx, udp, peer, fw, t_s);
    if (board_tx == board_cli && (!udp || !lx)) {
        /* the receiver's per-second count, as in real time
         * (board_tcp_result): the board's server's (the firmware's
         * `iperf -s -i 1` progress lines, or the Linux one's `-i 1 -y C`
         * rows in the agent's answer), or when the board's client sends,
         * the peer's server's progress lines.  UDP too (bare metal): a
         * virtual-time UDP run had no intervals, so its report no chart */
        const char *pw = udp ? "udp" : "tcp";
        cJSON *lines = board_tx ? sim_peer_lines(r) : NULL, *iv;
        if (board_tx)
            iv = server_intervals(lines, peer_p0, pw);
        else if (lx)
            iv = lx_fw ? cJSON_DetachItemFromObjectCaseSensitive(lx_fw, "intervals_bps") : NULL;
        else
            iv = server_intervals(r->in.msgs, p0, pw);
        rs_add_nonempty(res, "intervals_bps", iv);
        cJSON_Delete(lines);
    }
    if (lx && udp && !board_tx && !board_cli && fw)
        sim_lx_server_report(res, peer);
    if (lx && !board_tx && !board_cli && fw && peer)
        iperf_sim_group_span(res, peer, fw);
    if (lx_fw && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(lx_fw, "error")))
        cJSON_AddStringToObject(res, "board_error", cJSON_GetObjectItemCaseSensitive(lx_fw, "error")->valuestring);
    if (bidir && lx) {
        /* the board's stream back to the peer: the peer's server counts it;
         * the board's own count is its server's -d line (iperf2_parse_dual) */
        cJSON *tx = cJSON_CreateObject();
        rs_add_num_or_null(tx, "bps", rs_jnumber(lx_fw, "tx_bps"));
        iperf_sim_dual(res, peer_rx, tx);
        cJSON_Delete(tx);
    } else if (bidir) {
        iperf_sim_dual(res, peer_rx, pair_result(&r->in, skip, "client"));
    }
    cJSON_Delete(peer_rx);
    {
        /* the receiver's bytes per stream (-P: its result line's sum is the goodput) */
        const cJSON *sb = cJSON_GetObjectItemCaseSensitive(board_tx ? peer : fw, "stream_bytes");
        if (cJSON_IsArray(sb))
            cJSON_AddItemToObject(res, "stream_bytes", cJSON_Duplicate(sb, true));
    }
    m = cJSON_AddObjectToObject(res, "method");
    cJSON_AddStringToObject(m, "tool", "iperf2");
    cJSON_AddStringToObject(m, "version", lx ? "gemlab-peer (lwIP 2.1.3) and the board's iperf 2.1.8 (Linux)"
                                             : "gemlab-peer (lwIP 2.1.3) and the firmware's lwiperf");
    cJSON_AddStringToObject(m, "protocol", udp ? "udp" : "tcp");
    /* which end the tools say sends: the board's client, or the peer's
     * (the window rules take the board's receive window when it receives) */
    cJSON_AddBoolToObject(m, "reverse", board_tx);
    cJSON_AddNumberToObject(m, "streams", streams);
    if (bidir)
        cJSON_AddBoolToObject(m, "bidir", true);
    /* which end ran iperf's client; with -R the server sent */
    cJSON_AddStringToObject(m, "client", board_cli ? "board" : "peer");
    if (iperf_r)
        cJSON_AddBoolToObject(m, "iperf_reverse", true);
    /* the client's own account: direction, -t, -l, -b, refusals */
    iperf_fw_sender_method(res, board_cli ? fw : peer, board_tx, (double)t_s);
    /* the Linux board's iperf 2 prints -y C rows, which say neither -l,
     * -b nor -w: those are the client's command line (opt above), as the
     * person who typed it knows them.  Every client here was given the
     * -w (run_sim_check refuses it where one takes none), and the firmware's
     * and the peer's already said so in their result lines. */
    iperf_client_method(&r->s, length, m);
    cJSON_AddStringToObject(res, "source", !iperf_r ? (board_tx ? "sim: board client -> peer server (virtual time)"
                                                                : "sim: peer client -> board server (virtual time)")
                                           : board_tx ? "sim: peer client -R <- board server (virtual time)"
                                                      : "sim: board client -R <- peer server (virtual time)");
    cJSON_AddStringToObject(res, "peer_command", peer_cmd);
    if (fw_cmd[0])
        cJSON_AddStringToObject(res, "board_command", fw_cmd);
    if (peer)
        cJSON_AddItemToObject(res, "peer_result", peer);
    if (lx_fw)
        cJSON_AddItemToObject(res, "board_result", lx_fw);
    *result = res;
    return 0;
}

static void cleanup(struct run *r)
{
    kill_tool();
    inst_stop(&r->in);
    if (r->peer.run_dir[0])   /* --net pair: inst_rundir() has set it up */
        inst_stop(&r->peer);
    if (r->pair_sock[0])      /* the board's QEMU listened there */
        unlink(r->pair_sock);
    netns_tap_destroy(r->netns);      /* after QEMU: it holds the tap */
    r->netns[0] = '\0';
}

static void add_vtime(cJSON *o, const char *name, long long ns)
{
    if (ns >= 0)
        cJSON_AddNumberToObject(o, name, ns / 1e9);
    else
        cJSON_AddNullToObject(o, name);
}

/* results.json "clock" (the board's time base: evidence of what ran, the
 * same in every rerun) and "wall_clock" (host-dependent figures; every
 * such field is listed in "wall_clock_fields", which a rerun comparison
 * leaves out: docs/VIRTUAL_TIME.md). */
static void build_clock(struct run *r)
{
    cJSON *c = cJSON_AddObjectToObject(r->results, "clock");
    cJSON *w = cJSON_AddObjectToObject(r->results, "wall_clock");
    cJSON *f = cJSON_AddArrayToObject(r->results, "wall_clock_fields");
    double load[3];
    time_t now = time(NULL);
    struct tm tm;
    char ts[32];

    cJSON_AddStringToObject(c, "mode", r->vt ? "virtual" : "real");
    if (r->vt) {
        static const char *const names[] = { "inputs", "holds", "timeouts", "unsynced_inputs" };
        unsigned long long quantum_ns = scn_board_quantum_ns(&r->s);
        char ic[96];
        cJSON *g;
        cJSON_AddNumberToObject(c, "mips", scn_board_mips(&r->s));
        cJSON_AddBoolToObject(c, "mips_default", !r->s.v[SK_BOARD_MIPS].set);
        unsigned long long dma_line_ns = scn_board_dma_line_ns(&r->s);
        qemu_icount_opts(scn_board_mips(&r->s), quantum_ns, dma_line_ns, ic, sizeof(ic));
        rs_add_num_or_null(c, "quantum_ns", quantum_ns ? (double)quantum_ns : NAN);
        cJSON_AddNumberToObject(c, "dma_line_ns", (double)dma_line_ns);
        cJSON_AddStringToObject(c, "icount", ic);
        add_vtime(c, "ready_s", r->vt_ready_ns);
        add_vtime(c, "link_up_s", r->vt_link_ns);
        add_vtime(c, "end_s", r->vt_end_ns);
        g = cJSON_AddObjectToObject(c, "console_gate");
        for (int k = 0; k < 4; k++)
            rs_add_num_or_null(g, names[k], r->vt_gate[k] >= 0 ? r->vt_gate[k] : NAN);
    }
    gmtime_r(&now, &tm);
    strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(w, "finished_at", ts);
    if (getloadavg(load, 3) == 3) {
        cJSON *l = cJSON_AddArrayToObject(w, "host_loadavg");
        for (int k = 0; k < 3; k++)
            cJSON_AddItemToArray(l, cJSON_CreateNumber(load[k]));
    }
    if (r->vt && r->vt_wall_cont_ms) {
        if (r->vt_wall_ready_ms)
            cJSON_AddNumberToObject(w, "boot_to_ready_s", (r->vt_wall_ready_ms - r->vt_wall_cont_ms) / 1e3);
        if (r->vt_wall_end_ms) {
            double ws = (r->vt_wall_end_ms - r->vt_wall_cont_ms) / 1e3;
            cJSON_AddNumberToObject(w, "run_s", ws);
            if (r->vt_end_ns > 0)
                cJSON_AddNumberToObject(w, "s_per_virtual_s", ws / (r->vt_end_ns / 1e9));
            if (r->vt_wall_link_ms && r->vt_link_ns > 0) {
                double wl = (r->vt_wall_link_ms - r->vt_wall_cont_ms) / 1e3;
                cJSON_AddNumberToObject(w, "boot_to_link_up_s", wl);
                cJSON_AddNumberToObject(w, "link_up_s_per_virtual_s", wl / (r->vt_link_ns / 1e9));
            }
            if (r->vt_wall_ready_ms && r->vt_ready_ns > 0)
                cJSON_AddNumberToObject(w, "boot_s_per_virtual_s",
                                        (r->vt_wall_ready_ms - r->vt_wall_cont_ms) / 1e3 / (r->vt_ready_ns / 1e9));
        }
    }
    cJSON_AddItemToArray(f, cJSON_CreateString("wall_clock"));
}

int run_scenario(const struct run_opts *o)
{
    static struct run r;
    const char *want[2];
    int rc, ready_timeout_ms;
    double mac_speed = NAN;
    enum runner_traffic path;

    memset(&r, 0, sizeof(r));
    r.exit_code = RUN_EXIT_PASS;
    r.o = *o;
    if (scn_load(r.o.scenario, &r.s, stderr))
        return RUN_EXIT_INPUT;
    if (r.o.control) {
        /* the negative control: the same file without its fault */
        static struct scenario ctl;
        if (scn_make_control(&r.s, &ctl, stderr))
            return RUN_EXIT_INPUT;
        r.s = ctl;
    }
    if (r.o.firmware) {
        r.s.v[SK_BOARD_FIRMWARE].e = strcmp(r.o.firmware, "linux") == 0;
        if (r.s.v[SK_BOARD_FIRMWARE].e == 0 && (r.s.v[SK_BOARD_CPUS].u > 1 || r.s.v[SK_BOARD_IRQ_AFFINITY].set)) {
            fprintf(stderr, "gemlab run: --firmware baremetal: %s needs linux (cpus/irq_affinity)\n", r.o.scenario);
            return RUN_EXIT_INPUT;
        }
    }
    if (r.o.have_seed) {
        r.s.v[SK_LINK_SEED].u = r.o.seed;
        r.s.v[SK_LINK_SEED].set = true;
    }
    if (r.o.clock) {
        r.s.v[SK_BOARD_CLOCK].e = strcmp(r.o.clock, "virtual") == 0;
        r.s.v[SK_BOARD_CLOCK].set = true;
    }
    if (r.o.clock || r.o.firmware) {
        /* a key the file may hold only with the clock or firmware it
         * named (mips, client, pbufs, cpus, ...) is not dropped in silence */
        char why[96];
        snprintf(why, sizeof(why), "with%s%s%s%s", r.o.clock ? " --clock " : "", r.o.clock ? r.o.clock : "",
                 r.o.firmware ? " --firmware " : "", r.o.firmware ? r.o.firmware : "");
        if (scn_recheck(&r.s, why, stderr))
            return RUN_EXIT_INPUT;
    }
    r.vt = scn_clock_virtual(&r.s);
    /* GEMLAB_CONSOLE_GATE=off: virtual time with the console typed into
     * the socket as in real time (docs/VIRTUAL_TIME.md: what the gate is
     * for); the gate stays in QEMU's argv and passes the input through */
    r.vt_gated = r.vt && !(getenv("GEMLAB_CONSOLE_GATE") && !strcmp(getenv("GEMLAB_CONSOLE_GATE"), "off"));
    r.vt_ready_ns = r.vt_link_ns = r.vt_end_ns = -1;
    if (r.o.net && (!strcmp(r.o.net, "sim") || !strcmp(r.o.net, "idle")) && !r.vt) {
        /* the peer runs on QEMU_CLOCK_VIRTUAL (docs/PEER.md "Time"):
         * without -icount its clock follows the host's */
        fprintf(stderr, "gemlab run: --net %s: %s: %s needs virtual time "
                        "(--clock virtual or [board] clock = virtual)\n", r.o.net, r.o.scenario,
                !strcmp(r.o.net, "sim") ? "the in-emulator peer" : "the idle link");
        return RUN_EXIT_INPUT;
    }
    if (r.vt && ((r.o.net && strcmp(r.o.net, "sim") && strcmp(r.o.net, "idle")) || r.s.v[SK_BOARD_PEER].e != 0)) {
        /* the host's iperf over slirp/tap (or a second QEMU) runs in wall
         * time: against a guest in virtual time its figures mean nothing */
        fprintf(stderr, "gemlab run: %s: virtual time (--clock virtual / [board] clock) runs with the "
                        "in-emulator peer (--net sim) only; %s needs --clock real\n", r.o.scenario,
                r.o.net ? "--net" : "[board] peer = baremetal");
        return RUN_EXIT_INPUT;
    }
    /* virtual time implies --net sim: the peer drives the bare-metal
     * firmware's iperf 2 or the Linux image's iperf 2.1.8 (--net idle:
     * no traffic, the link stays idle) */
    r.sim = r.vt && !(r.o.net && !strcmp(r.o.net, "idle"));
    if (r.vt)
        r.o.net = NULL;     /* the network is r.sim's peer, or the idle hub */
    if (r.s.v[SK_TRAFFIC_CLIENT].set && r.s.v[SK_TRAFFIC_CLIENT].e != 0 && !r.sim) {
        /* the host's tools and the pair's firmwares decide their own roles */
        fprintf(stderr, "gemlab run: %s:%d: [traffic] client = %s: only against the in-emulator peer "
                        "(virtual time, --net sim)\n", r.o.scenario, r.s.v[SK_TRAFFIC_CLIENT].line,
                scn_enum_str(&r.s, SK_TRAFFIC_CLIENT));
        return RUN_EXIT_INPUT;
    }
    if (r.sim && sim_supported(&r))
        return RUN_EXIT_INPUT;
    if (r.s.v[SK_BOARD_PEER].e == 1) {     /* [board] peer = baremetal */
        if (r.o.net && strcmp(r.o.net, "pair")) {
            fprintf(stderr, "gemlab run: --net %s: %s has [board] peer = baremetal, which needs --net pair\n",
                    r.o.net, r.o.scenario);
            return RUN_EXIT_INPUT;
        }
        r.o.net = "pair";
    }
    if (r.o.net && strcmp(r.o.net, "pair") == 0) {
        /* the firmware's iperf client and server: one stream, iperf 2 style */
        const char *why = r.s.v[SK_BOARD_FIRMWARE].e != 0 ? "[board] firmware = linux (the peer is bare-metal)"
                          : r.s.nsweep || r.s.npsweep ? "a [traffic] sweep"
                          : r.s.v[SK_TRAFFIC_PARALLEL].u > 1 ? "[traffic] parallel > 1"
                          : r.s.v[SK_TRAFFIC_BIDIR].b ? "[traffic] bidir"
                          : r.s.v[SK_TRAFFIC_WINDOW].set ? "[traffic] window"
                          : r.s.v[SK_TRAFFIC_OMIT].u ? "[traffic] omit" : NULL;
        if (why) {
            fprintf(stderr, "gemlab run: --net pair: %s: %s is not supported (two bare-metal boards, "
                            "one iperf stream)\n", r.o.scenario, why);
            return RUN_EXIT_INPUT;
        }
    }
    if (r.o.net && strcmp(r.o.net, "tap") == 0) {
        if (geteuid() != 0) {
            fprintf(stderr, "gemlab run: --net tap needs root (it creates a private netns and a tap); "
                            "use --net user for a rootless run\n");
            return RUN_EXIT_INPUT;
        }
    }
    runner_find_top(r.top, sizeof(r.top));
    if (qemu_find(r.top, r.o.qemu, r.qemu, sizeof(r.qemu)))
        return RUN_EXIT_MISSING;
    rc = fw_find(r.top, scn_enum_str(&r.s, SK_BOARD_FIRMWARE), r.o.fw, r.fw, sizeof(r.fw));
    if (rc)
        return rc == -EINVAL ? RUN_EXIT_INPUT : RUN_EXIT_MISSING;   /* a bad --fw, or no build */
    if (fw_kind_check(scn_enum_str(&r.s, SK_BOARD_FIRMWARE), r.fw))
        return RUN_EXIT_INPUT;
    inst_signals_install();
    rc = inst_rundir(&r.in, r.o.out, r.top, r.s.v[SK_SCENARIO_NAME].s);
    if (rc)
        return RUN_EXIT_INPUT;
    if (rs_begin(&r)) {
        inst_stop(&r.in);
        return RUN_EXIT_FAIL;
    }
    r.progress_tty = isatty(2);
    if (r.o.net && strcmp(r.o.net, "tap") == 0) {
        snprintf(r.netns, sizeof(r.netns), "gl-run%d", (int)getpid());
        snprintf(r.tap, sizeof(r.tap), "gltap%d", (int)(getpid() % 100000));
        rc = netns_tap_create(r.netns, r.tap);
        if (rc) {
            fprintf(stderr, "gemlab run: cannot create netns %s with tap %s\n", r.netns, r.tap);
            r.netns[0] = '\0';
            inst_stop(&r.in);
            return RUN_EXIT_FAIL;
        }
    }
    r.port = r.vt ? 0 : free_port();     /* virtual time: no host network */
    if (r.sim)
        snprintf(r.peer_results, sizeof(r.peer_results), "%s/peer.jsonl", r.in.run_dir);
    if (r.o.net && strcmp(r.o.net, "pair") == 0)
        snprintf(r.pair_sock, sizeof(r.pair_sock), "%s/pair.sock", r.in.run_dir);
    if (r.port < 0) {
        fprintf(stderr, "gemlab: no free port on 127.0.0.1: %s\n", strerror(-r.port));
        cleanup(&r);
        return RUN_EXIT_FAIL;
    }
    r.results = cJSON_CreateObject();
    rs_build_header(&r);
    ready_timeout_ms = r.s.v[SK_BOARD_FIRMWARE].e == 1 ? 90000 : 30000;
    r.in.watchdog_ms = inst_now_ms() +
        (r.o.timeout_s ? r.o.timeout_s * 1000LL
                       : (ready_timeout_ms + 60000LL +
                          (long long)((r.s.v[SK_TRAFFIC_DURATION].u + r.s.v[SK_TRAFFIC_OMIT].u) / 1000000ull) *
                              (r.s.nsweep ? r.s.nsweep : r.s.npsweep ? r.s.npsweep : 1)) *
                             /* virtual time: the timeouts are virtual; a busy virtual second
                              * takes several wall seconds (docs/VIRTUAL_TIME.md) */
                             (r.vt ? 20 : 1));

    progress(&r, "boot", 0, 0);
    if (start_qemu(&r, &r.s, true, scn_enum_str(&r.s, SK_BOARD_FIRMWARE)))
        goto out;
    if (r.unapplied[0])
        fprintf(stderr, "gemlab: warning: this QEMU (%s) lacks the link-model properties for: %s "
                        "(stock QEMU? build ours with `make -C emu/qemu`)\n", r.qemu, r.unapplied);
    if (r.vt_gated) {
        /* the first step, before the guest runs: wait for the ready line
         * (the gate is idle and the VM stopped: virtual time 0) */
        char pat[64];
        rc = vt_queue(&r, NULL, type_pattern("ready", pat, sizeof(pat)), ready_timeout_ms);
        if (rc) {
            wait_failed(&r, rc, "console gate");
            goto out;
        }
    }
    rc = qmp_exec(&r.in.qmp, "cont", NULL, NULL, QMP_TIMEOUT_MS);
    if (rc) {
        wait_failed(&r, rc, "cont");
        goto out;
    }
    r.vt_wall_cont_ms = inst_now_ms();
    if (r.vt_gated) {
        /* the ready timeout is virtual time: the gate holds the VM there */
        rc = vt_sync_until(&r, ready_seen, NULL);
        rc = rc == 1 ? 0 : rc < 0 ? rc : -ETIMEDOUT;
        r.vt_wall_ready_ms = inst_now_ms();
        if (rc == 0)
            r.vt_ready_ns = gate_ns(&r, "last-match-ns");
    } else {
        /* in slices, so the progress line's elapsed time moves during boot */
        long long b0 = inst_now_ms();
        do {
            rc = inst_wait(&r.in, 500, ready_seen, NULL);
            progress(&r, "boot", (inst_now_ms() - b0) / 1000.0, 0);
        } while (rc == -ETIMEDOUT && inst_now_ms() - b0 < ready_timeout_ms);
    }
    if (rc) {
        if (rc == -ETIMEDOUT) {
            snprintf(r.reason, sizeof(r.reason), "watchdog: no @gemlab ready line within %d s; QEMU killed",
                     ready_timeout_ms / 1000);
            r.exit_code = RUN_EXIT_FAIL;
        } else {
            wait_failed(&r, rc, "boot");
        }
        goto out;
    }
    if (apply_downshift(&r) || apply_phy_mode(&r))
        goto out;
    /* wait for the link (or 20 s: the firmware gives a 2-pair cable
     * PHY_AN_TIMEOUT_MS + 4 downshift attempts, 17 s, phy.h), then start
     * the board-side server */
    rc = con_wait(&r, link_pattern(&r, true), 20000, board_link_up, NULL);
    if (rc && rc != -ETIMEDOUT) {
        wait_failed(&r, rc, "link-up");
        goto out;
    }
    if (r.vt_gated && rc == 0) {
        r.vt_link_ns = gate_ns(&r, "last-match-ns");
        r.vt_wall_link_ms = inst_now_ms();
    }
    if (apply_board_keys(&r))
        goto out;
    {
        /* the user's commands, then [board] advertise; wait for the link
         * if any of them renegotiates */
        int n0 = rs_count_msgs(&r.in, "link");
        bool reneg = false;
        char adv[96];

        if (r.s.v[SK_BOARD_FIRMWARE].e == 1 && (r.s.v[SK_BOARD_RX_BDS].set || r.s.v[SK_BOARD_TX_BDS].set)) {
            /* Linux: `ethtool -G eth0 rx N tx M` through the agent (0 keeps
             * a ring); macb resizes by closing and reopening the interface,
             * so the link drops and comes back.  The readback (`ring` line)
             * is what results.json reports (results.c) */
            char cmd[48];
            const cJSON *before = inst_last_msg(&r.in, "ready"), *after;
            snprintf(cmd, sizeof(cmd), "ring %llu %llu",
                     r.s.v[SK_BOARD_RX_BDS].set ? (unsigned long long)r.s.v[SK_BOARD_RX_BDS].u : 0ull,
                     r.s.v[SK_BOARD_TX_BDS].set ? (unsigned long long)r.s.v[SK_BOARD_TX_BDS].u : 0ull);
            rc = send_wait(&r, cmd, "ring", 5000);
            if (rc && rc != -ETIMEDOUT) {
                wait_failed(&r, rc, cmd);
                goto out;
            }
            after = inst_last_msg(&r.in, "ring");
            if (rc == -ETIMEDOUT || !after)
                fprintf(stderr, "gemlab: warning: the agent did not answer '%s' (an older image without "
                                "`ring`?); the rings are the driver's defaults\n", cmd);
            else if (rs_jnumber(after, "rxbd") != rs_jnumber(before, "rxbd") ||
                     rs_jnumber(after, "txbd") != rs_jnumber(before, "txbd"))
                reneg = true;
        }

        for (unsigned k = 0; k < r.s.nfw_cmds; k++) {
            con_send(&r, r.s.fw_cmds[k]);
            reneg |= scn_cmd_renegotiates(r.s.fw_cmds[k]);
        }
        if (scn_advertise_cmd(&r.s, adv, sizeof(adv))) {
            con_send(&r, adv);
            reneg = true;
        }
        if (reneg && wait_relink(&r, n0))
            goto out;
    }
    if (r.s.v[SK_BOARD_FIRMWARE].e == 1) {
        /* Linux agent (firmware/linux/agent/agent_cmd.h): IRQ mask, server */
        static const char *const masks[] = { "irq-affinity 3", "irq-affinity 1", "irq-affinity 2" };
        if (r.s.v[SK_BOARD_IRQ_AFFINITY].set)
            con_send(&r, masks[r.s.v[SK_BOARD_IRQ_AFFINITY].e]);
        /* init already runs `iperf3 -s -D` (firmware/linux/initramfs/init);
         * an iperf 2 board side has to be started */
        if (strcmp(scn_board_tool(&r.s), "iperf2") == 0 && !r.sim)     /* sim: one per test */
            con_send(&r, r.s.v[SK_TRAFFIC_PROTOCOL].e == 1 ? "run iperf -s -u -D" : "run iperf -s -D");
    } else if (strcmp(scn_board_tool(&r.s), "iperf2") == 0) {
        rc = send_wait(&r, r.s.v[SK_TRAFFIC_PROTOCOL].e == 1 ? "iperf -s -u -i 1" : "iperf -s -i 1", "status",
                       3000);
        if (rc && rc != -ETIMEDOUT) {
            wait_failed(&r, rc, "server start");
            goto out;
        }
    }
    if (r.s.v[SK_BOARD_FIRMWARE].e == 1) {
        /* the agent's per-CPU idle share is "since the previous stats":
         * one now makes the final one cover the test (results "cpu") */
        rc = ask_stats(&r);
        if (rc && rc != -ETIMEDOUT) {
            wait_failed(&r, rc, "stats");
            goto out;
        }
        r.cpu_baseline = rc == 0;
        r.cpu_t0_ms = rc == 0 ? rs_jnumber(inst_last_msg(&r.in, "stats"), "t_ms") : NAN;
    }
    if (r.s.v[SK_BOARD_FIRMWARE].e == 0 && r.s.v[SK_TRAFFIC_PROTOCOL].e == 0 && !r.pair_sock[0] &&
        !r.netns[0] && (!r.vt || r.sim) && board_link_up(&r.in, NULL) && measure_rtt(&r))
        goto out;
    path = runner_traffic_path(r.sim, r.vt, board_link_up(&r.in, NULL));
    if (path == RUNNER_TRAFFIC_SIM && !r.s.nsweep && !r.s.npsweep) {
        cJSON *res = NULL;
        if (sim_traffic(&r, 0, 0, &res))
            goto out;
        cJSON_AddItemToObject(r.results, "iperf", res);
    } else if (path == RUNNER_TRAFFIC_VT_IDLE) {
        /* --net idle in virtual time: no traffic peer: [traffic]
         * duration of virtual time on the idle link, with the timeline
         * applied at its virtual times */
        cJSON *res = cJSON_CreateObject();
        cJSON_AddStringToObject(res, "skipped", "virtual time with --net idle: no traffic; the link stayed idle "
                                "for [traffic] duration of virtual time");
        cJSON_AddBoolToObject(res, "virtual_idle", true);
        cJSON_AddItemToObject(r.results, "iperf", res);
        if (vt_idle_phase(&r, "idle"))
            goto out;
    } else if (path == RUNNER_TRAFFIC_NO_LINK) {
        /* No link (no cable, a 2-pair cable without downshift...): iperf
         * would only measure what the host wrote into slirp, or the peer
         * would wait out its virtual timeout for nothing.  Traffic is
         * skipped and said so; the expectations decide whether that was
         * expected (`link = down`, diagnose.c dg_check_expect). */
        cJSON *res = cJSON_CreateObject();
        cJSON_AddStringToObject(res, "skipped", "no link: the board reported no link up before traffic");
        cJSON_AddItemToObject(r.results, "iperf", res);
        fprintf(stderr, "gemlab: no link on the board: traffic skipped\n");
    } else if (r.s.nsweep) {
        r.sweep = cJSON_AddArrayToObject(r.results, "sweep");
        for (unsigned k = 0; k < r.s.nsweep; k++) {
            cJSON *res = NULL, *e;
            if (path == RUNNER_TRAFFIC_SIM ? sim_traffic(&r, r.s.sweep[k], (int)k + 1, &res)
                                           : run_traffic_settled(&r, r.s.sweep[k], (int)k + 1, &res))
                goto out;
            e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "length_bytes", (double)r.s.sweep[k]);
            rs_add_num_or_null(e, "throughput_bps", rs_jnumber(res, "throughput_bps"));
            rs_add_num_or_null(e, "udp_lost_pct", rs_jnumber(res, "udp_lost_pct"));
            cJSON_AddItemToArray(r.sweep, e);
            if (k + 1 == r.s.nsweep)
                cJSON_AddItemToObject(r.results, "iperf", res);
            else
                cJSON_Delete(res);
        }
    } else if (r.s.npsweep) {
        /* -P sweep: one test per parallel count; conditions and "iperf"
         * describe the last one */
        cJSON *ps = cJSON_AddArrayToObject(r.results, "parallel_sweep");
        for (unsigned k = 0; k < r.s.npsweep; k++) {
            cJSON *res = NULL, *e;
            r.s.v[SK_TRAFFIC_PARALLEL].u = r.s.psweep[k];
            if (path == RUNNER_TRAFFIC_SIM ? sim_traffic(&r, 0, (int)k + 1, &res)
                                           : run_traffic_settled(&r, 0, (int)k + 1, &res))
                goto out;
            e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "parallel", r.s.psweep[k]);
            rs_add_num_or_null(e, "throughput_bps", rs_jnumber(res, "throughput_bps"));
            rs_add_num_or_null(e, "retransmits", rs_jnumber(res, "retransmits"));
            rs_add_num_or_null(e, "udp_lost_pct", rs_jnumber(res, "udp_lost_pct"));
            if (r.cpu_stats) {  /* --net sim, Linux: this test's own per-core load */
                cJSON *busy = rs_cpu_busy(r.cpu_stats), *sirq = rs_cpu_softirq(r.cpu_stats);
                if (busy)
                    cJSON_AddItemToObject(e, "cpu_busy_pct", busy);
                if (sirq)
                    cJSON_AddItemToObject(e, "cpu_softirq_pct", sirq);
            }
            cJSON_AddItemToArray(ps, e);
            if (k + 1 == r.s.npsweep)
                cJSON_AddItemToObject(r.results, "iperf", res);
            else
                cJSON_Delete(res);
        }
    } else {
        cJSON *res = NULL;
        if (!r.pair_sock[0] && !r.vt && r.s.v[SK_BOARD_FIRMWARE].e == 1) {
            /* real time: what listens on the port the host's client will
             * use, as `ss -ltn` on the board shows it: the agent's
             * `tcp-port` answer is the board server's evidence (results.c
             * board_iperf_server).  Virtual time has no host client (the
             * peer, or --net idle: none) */
            char cmd[32];
            struct want_answer w = { "result", "tcp-port", rs_count_msgs(&r.in, "result") };
            snprintf(cmd, sizeof(cmd), "tcp-port %d", board_port(&r.s));
            inst_send(&r.in, cmd);
            rc = inst_wait(&r.in, 5000, answer_after, &w);
            if (rc && rc != -ETIMEDOUT) {
                wait_failed(&r, rc, cmd);
                goto out;
            }
        }
        if (r.pair_sock[0] ? pair_start_peer(&r) || pair_traffic(&r, &res) : run_traffic(&r, 0, 0, &res))
            goto out;
        cJSON_AddItemToObject(r.results, "iperf", res);
    }
    if (r.peer.run_dir[0] && r.peer.serial_fd >= 0) {
        /* --net pair: the peer's counters too (results.json "peer") */
        want[0] = "stats";
        want[1] = (const char *)(intptr_t)rs_count_msgs(&r.peer, "stats");
        inst_send(&r.peer, "stats");
        rc = inst_wait(&r.peer, 3000, msg_after, want);
        if (rc && rc != -ETIMEDOUT) {
            pair_failed(&r, &r.peer, rc, "peer stats");
            goto out;
        }
    }
    /* counters: ask the firmware, read NWCFG */
    {
        rc = ask_stats(&r);
        if (rc && rc != -ETIMEDOUT) {
            wait_failed(&r, rc, "stats");
            goto out;
        }
    }
    if (r.vt_gated) {
        /* the end of the run in virtual time: the stats answer is the last input */
        rc = vt_sync(&r);
        if (rc) {
            wait_failed(&r, rc, "console gate");
            goto out;
        }
        r.vt_end_ns = gate_ns(&r, "clock-ns");
        r.vt_wall_end_ms = inst_now_ms();
        for (int k = 0; k < 4; k++) {
            static const char *const names[] = { "sent", "holds", "timeouts", "unsynced-sends" };
            if (gate_get_num(&r, names[k], &r.vt_gate[k]))
                r.vt_gate[k] = -1;
        }
    }
    mac_speed = qom_read_mac_speed(&r.in.qmp);
    if (r.link_path[0] && qemu_has_prop(r.props, "link-up"))
        cJSON_AddItemToObject(r.results, "model", qom_collect_model(&r.in.qmp, r.link_path, r.props));
out:
    build_clock(&r);
    rs_build_conditions(&r);
    rs_build_expect(&r);
    rs_build_link_and_counters(&r, mac_speed);
    if (!cJSON_GetObjectItemCaseSensitive(r.results, "iperf") && r.exit_code == RUN_EXIT_PASS)
        r.exit_code = RUN_EXIT_FAIL;
    if (r.exit_code == RUN_EXIT_PASS || r.exit_code == RUN_EXIT_FAIL)
        fw_cmd_refused(&r);
    if ((r.exit_code == RUN_EXIT_PASS || r.exit_code == RUN_EXIT_FAIL) && r.step_refused[0]) {
        r.exit_code = RUN_EXIT_INPUT;
        snprintf(r.reason, sizeof(r.reason), "%s", r.step_refused);
    }
    cleanup(&r);
    rs_finish(&r);
    cJSON_Delete(r.results);
    cJSON_Delete(r.cpu_stats);
    inst_msgs_free(&r.in);
    inst_msgs_free(&r.peer);
    return r.exit_code;
}

/* ---- boot: the process layer on its own (robustness tests) ---------------- */


int run_boot(const struct run_opts *o)
{
    static struct run r;
    cJSON *ret = NULL;
    long long until;
    int rc;

    memset(&r, 0, sizeof(r));
    r.exit_code = RUN_EXIT_PASS;
    r.o = *o;
    runner_find_top(r.top, sizeof(r.top));
    if (qemu_find(r.top, r.o.qemu, r.qemu, sizeof(r.qemu)))
        return RUN_EXIT_MISSING;
    if (r.o.fw && (fw_find(r.top, "baremetal", r.o.fw, r.fw, sizeof(r.fw)) || fw_kind_check("baremetal", r.fw)))
        return RUN_EXIT_INPUT;
    if (r.o.out) {
        /* a run directory's results, capture and diagnosis: boot writes
         * none, and taking the directory removes them (inst.c,
         * remove_stale_outputs), so it would throw a run's evidence away */
        char res[PATH_MAX];
        struct stat st;

        if (snprintf(res, sizeof(res), "%s/results.json", r.o.out) < (int)sizeof(res) &&
            lstat(res, &st) == 0) {
            fprintf(stderr, "gemlab boot: --out %s holds a run's results.json, which boot would remove: "
                            "give another directory\n", r.o.out);
            return RUN_EXIT_INPUT;
        }
    }
    inst_signals_install();
    if (inst_rundir(&r.in, r.o.out, r.top, "boot"))
        return RUN_EXIT_INPUT;
    if (r.o.timeout_s)
        r.in.watchdog_ms = inst_now_ms() + r.o.timeout_s * 1000LL;
    if (start_qemu(&r, NULL, r.o.fw != NULL, "baremetal"))
        goto out;
    rc = qmp_exec(&r.in.qmp, "query-status", NULL, &ret, QMP_TIMEOUT_MS);
    if (rc) {
        wait_failed(&r, rc == -ECONNRESET ? -ECHILD : rc, "query-status");
        goto out;
    }
    printf("boot: QMP up, status %s, GEM at %s, pid %d, run dir %s\n",
           cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ret, "status"))
               ? cJSON_GetObjectItemCaseSensitive(ret, "status")->valuestring : "?",
           r.link_path[0] ? r.link_path : "(not found)", (int)r.in.pid, r.in.run_dir);
    fflush(stdout);
    cJSON_Delete(ret);
    if (r.o.fw && qmp_exec(&r.in.qmp, "cont", NULL, NULL, QMP_TIMEOUT_MS) == 0)
        inst_wait(&r.in, 5000, ready_seen, NULL);
    /* hold: pump the console and ping QMP once a second; a QEMU that stops
     * answering is hung and gets killed */
    until = inst_now_ms() + r.o.hold_s * 1000LL;
    while (inst_now_ms() < until) {
        rc = inst_wait(&r.in, 1000, NULL, NULL);
        if (rc != -ETIMEDOUT) {
            wait_failed(&r, rc, "hold");
            goto out;
        }
        rc = qmp_exec(&r.in.qmp, "query-status", NULL, NULL, 2000);
        if (rc == -ETIMEDOUT) {
            snprintf(r.reason, sizeof(r.reason), "watchdog: QEMU stopped answering QMP (hung); killed");
            r.exit_code = RUN_EXIT_FAIL;
            goto out;
        }
        if (rc) {
            wait_failed(&r, inst_exited(&r.in) || rc == -ECONNRESET ? -ECHILD : rc, "hold");
            goto out;
        }
    }
out:
    if (r.exit_code != RUN_EXIT_PASS && !inst_exited(&r.in))
        kill(-r.in.pid, SIGKILL);   /* hung or interrupted: do not ask politely */
    cleanup(&r);
    if (r.reason[0]) {
        fprintf(stderr, "gemlab: %s\n", r.reason);
        inst_print_tail(&r.in, stderr);
    }
    printf("%s boot\n", r.exit_code == RUN_EXIT_PASS ? "PASS" : r.exit_code == RUN_EXIT_INTERRUPTED
                                                                  ? "INTERRUPTED" : "FAIL");
    inst_msgs_free(&r.in);
    return r.exit_code;
}

