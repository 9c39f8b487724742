/*
 * run.h - what drives QEMU: a scenario run, a bare boot, a fault on a
 * running instance, the tap for --net tap.  The commands' options are
 * parsed in cmd_run.c, cmd_fault.c and cmd_tap.c; a run's outcome is one
 * of the RUN_EXIT_* values, which the CLI returns as its exit code.
 */
#ifndef GEMLAB_RUNNER_RUN_H
#define GEMLAB_RUNNER_RUN_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "scenario.h"

enum {
    RUN_EXIT_PASS = 0,
    RUN_EXIT_FAIL = 1,
    RUN_EXIT_INPUT = 2,
    RUN_EXIT_MISSING = 3,
    RUN_EXIT_INTERRUPTED = 130,
};

/* `gemlab run` and `gemlab boot` options (cmd_run.c) */
struct run_opts {
    const char *scenario, *firmware, *net, *out, *qemu, *fw;
    const char *clock;  /* --clock real|virtual; NULL = the scenario's [board] clock */
    bool have_seed;
    bool control;       /* run: the scenario's [control] variant */
    uint64_t seed;
    int timeout_s;      /* watchdog for the whole run; 0 = derived */
    int hold_s;         /* boot */
};

/* Run @o's scenario to its verdict: RUN_EXIT_*. */
int run_scenario(const struct run_opts *o);
/* Boot the board, QMP up, and hold it for o->hold_s: RUN_EXIT_*. */
int run_boot(const struct run_opts *o);
/* What the in-emulator peer (--net sim, a scenario in virtual time) cannot
 * run: each refusal on stderr as "FILE:LINE: [section] key ..." (@file
 * names the scenario), -EINVAL; 0 when it can.  `gemlab run` checks it
 * before booting, `gemlab check` for a scenario with clock = virtual. */
int run_sim_check(const struct scenario *s, const char *file);

/* A change to a running instance (`gemlab fault`, fault.c). */
enum fault_kind {
    FAULT_LINK_UP, FAULT_LINK_DOWN,
    FAULT_FLAP,         /* down for dur_ns, then up */
    FAULT_RESTART_ANEG, /* the partner restarts autonegotiation */
    FAULT_SET,          /* a [link] key: key, val */
    FAULT_STARVE_RX,    /* no RX descriptors for dur_ns */
};

struct fault_action {
    enum fault_kind kind;
    uint64_t dur_ns;
    enum scn_key key;
    struct scn_val val;
    char text[160];         /* as typed, e.g. "set loss random 1%" (the record's "event") */
};

/* Apply @a to the instance in @run_dir: 0, or a negative errno with the
 * reason on @err.  What reached the instance, applied or refused, is
 * appended to RUN_DIR/INST_FAULT_LOG for the run's results.json. */
int fault_apply(const char *run_dir, const struct fault_action *a, FILE *err);

/* The scenario as JSON (`gemlab show`, results.json "scenario"). */
cJSON *run_scenario_json(const struct scenario *s);

#endif
