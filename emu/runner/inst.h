/*
 * inst.h - one emulated board: its run directory, QEMU process, QMP and
 * serial sockets, console capture, watchdog and cleanup.
 *
 * Exposure rules (issue 8): the run directory is mode 0700 and holds the
 * QMP and serial sockets; QEMU is spawned directly from an argv array (no
 * shell) in its own process group; every resource an instance creates is
 * released by inst_stop(), which is safe to call at any point and more
 * than once, and runs on success, failure, QEMU death and SIGINT/SIGTERM.
 *
 * Errors: 0 or a negative errno; messages go to stderr prefixed "gemlab:".
 * Special results of inst_wait(): -ECHILD QEMU exited, -EINTR a signal
 * asked us to stop, -ETIME the watchdog fired, -ETIMEDOUT the wait's own
 * timeout passed, -ENOTRECOVERABLE the guest kernel panicked (its line
 * is in .panic).
 */
#ifndef GEMLAB_RUNNER_INST_H
#define GEMLAB_RUNNER_INST_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "qmp.h"

#define INST_TAIL_LINES 40
/* One console line, at most: the Linux agent's answer to `run` carries
 * up to AGENT_RUN_OUT_MAX (512 KiB) of the tool's output on one line
 * (firmware/linux/agent: iperf3 -J at -P 4 for a minute is ~150 KiB), and
 * escapes it; a longer line is cut there.  The buffer grows to it. */
#define INST_LINE_MAX (4u << 20)
#define INST_TAIL_MAX 512       /* what the tail keeps of each line */
/* What the guest can make the runner hold (docs/SECURITY.md R1): the
 * history of @gemlab messages is kept while its estimated memory (cJSON
 * nodes and strings) stays under INST_MSGS_MAX_BYTES; the newest message of
 * each type and the per-type counts are always kept.  console.log stops
 * with a marker line at INST_CONSOLE_LOG_MAX bytes. */
#define INST_MSGS_MAX_BYTES (16u << 20)
#define INST_CONSOLE_LOG_MAX (32ull << 20)
/* The @gemlab "type"s the runner consumes (docs/schema.md); others are
 * only in console.log.  Indexes into msg_count/msg_last. */
#define INST_MSG_TYPES "ready", "link", "stats", "result", "status", "gem_config", "ip", "progress", "downshift", \
                       "phy_downshift", "phy_rgmii", "ring"
#define INST_NTYPES 12

/* Set by the SIGINT/SIGTERM handler (inst_signals_install). */
extern volatile sig_atomic_t inst_stop_signal;

struct inst {
    char run_dir[512];
    char qmp_path[600], serial_path[600], console_path[600];
    char fault_path[600];      /* a second QMP monitor for `gemlab fault` */
    pid_t pid;                 /* QEMU, also its process group; 0 if none */
    bool exited;               /* QEMU ended: status known, not reaped yet */
    bool reaped;               /* and reaped (by inst_stop): pid no longer ours */
    int status;                /* wait status once exited */
    int serial_fd;
    struct qmp qmp;
    bool qmp_up;
    FILE *console;
    char tail[INST_TAIL_LINES][INST_TAIL_MAX];
    int tail_n, tail_next;
    char *line;                /* the line being read (malloc'd, grows to INST_LINE_MAX) */
    size_t line_len, line_cap;
    char *clean;               /* the line after runner_clean_text() (3 x line + 1) */
    size_t clean_cap;
    char panic[160];           /* the guest kernel's panic line, once printed (inst_wait) */
    /* the firmware refused a command it does not know: the bare-metal
     * shell's "unknown command 'NAME'" (apps/shell/shell.c), the Linux
     * agent's error line (agent.c); the first INST_UNKNOWN_MAX kept */
#define INST_UNKNOWN_MAX 4
    char unknown_cmd[INST_UNKNOWN_MAX][160];
    unsigned n_unknown_cmd;
    cJSON *msgs;               /* @gemlab objects of INST_MSG_TYPES, in order, up to the byte cap */
    size_t msgs_bytes;         /* their estimated memory */
    unsigned long msgs_not_kept; /* messages past the cap (counted, last of each type kept) */
    int msg_count[INST_NTYPES];  /* every message seen, per type */
    cJSON *msg_last[INST_NTYPES];
    bool msg_last_owned[INST_NTYPES]; /* msg_last[k] is not in msgs: ours to free */
    unsigned long long console_bytes; /* written to console.log */
    unsigned long long serial_bytes;  /* read from the serial socket (virtual time: the gate's output-bytes) */
    unsigned long console_lines_dropped; /* lines past INST_CONSOLE_LOG_MAX */
    long long watchdog_ms;     /* absolute CLOCK_MONOTONIC ms; 0 = off */
    bool quiet;
};

long long inst_now_ms(void);

/* SIGINT/SIGTERM set inst_stop_signal instead of killing us, so the main
 * loop can clean up; SIGPIPE is ignored. */
void inst_signals_install(void);

/* The mark of a directory the runner created (docs/SECURITY.md R3). */
#define INST_RUN_MARK ".gemlab-run"

/* The faults `gemlab fault` applied to a running run (fault.c), a JSON
 * object per line; the run records them in truth.timeline_applied. */
#define INST_FAULT_LOG "faults.jsonl"

/* Create @dir (or, when NULL, build/runs/NAME-TIME-PID under @top) with
 * mode 0700, mark it with INST_RUN_MARK and fill i->run_dir and the socket
 * paths.  An existing directory is reused only if this runner created it
 * (it holds our INST_RUN_MARK; not a symlink, owned by us); anything else,
 * e.g. /tmp or $HOME, is refused with a message naming --out, and never
 * chmod()ed or cleaned.  So is a directory below a parent any user may
 * write that is not sticky.  The mark is flock()ed until the process
 * exits: a second run or boot into the same directory while this one
 * lives is refused (-EBUSY, with a message) before it touches anything. */
int inst_rundir(struct inst *i, const char *dir, const char *top, const char *name);

/* Spawn @argv (argv[0] is the binary path) in a new process group with
 * stdin /dev/null and stdout/stderr to RUN_DIR/qemu.log. */
int inst_spawn(struct inst *i, char *const argv[]);

/* Connect QMP and the serial socket (both created by QEMU). */
int inst_connect(struct inst *i, int timeout_ms);

/* Pump console input for up to @timeout_ms, or until @done returns true
 * (checked after every console line and every 100 ms).  See the special
 * results above. */
int inst_wait(struct inst *i, int timeout_ms, bool (*done)(struct inst *i, void *arg), void *arg);

/* The newest @gemlab message whose "type" is @type, or NULL (borrowed).
 * Only INST_MSG_TYPES are kept; O(1). */
const cJSON *inst_last_msg(const struct inst *i, const char *type);
/* How many @gemlab messages of @type have arrived (also past the cap). */
int inst_count_msgs(const struct inst *i, const char *type);
/* Free the messages (i->msgs and the newest of each type).  Idempotent. */
void inst_msgs_free(struct inst *i);


/* Send one command line to the firmware shell / agent.  A console that
 * takes nothing (the guest stopped reading) is given up on a stop signal
 * (-EINTR), QEMU's exit (-ECHILD) or after INST_SEND_TIMEOUT_MS
 * (-ETIMEDOUT). */
#define INST_SEND_TIMEOUT_MS 5000
int inst_send(struct inst *i, const char *line);

/* Print the last console lines to @out. */
void inst_print_tail(const struct inst *i, FILE *out);
/* The same as a JSON array (caller frees). */
cJSON *inst_tail_json(const struct inst *i);

/* Non-blocking: has QEMU exited?  It is not reaped here (docs/SECURITY.md R5): the
 * zombie keeps its PID and process group ID from being reused until
 * inst_stop(), so signalling that group stays safe. */
bool inst_exited(struct inst *i);

/* Stop QEMU (QMP quit, then SIGTERM, then SIGKILL to its group), reap it,
 * close everything, remove the sockets.  Signals go only to a QEMU that is
 * not reaped yet.  Idempotent. */
void inst_stop(struct inst *i);

/* "exited with status 1", "killed by signal 9" for the exited QEMU. */
void inst_describe_exit(const struct inst *i, char *buf, size_t len);

#endif
