/*
 * run_priv.h - state shared by run.c (orchestration) and results.c
 * (results.json assembly, verdict).  Not a public interface.
 */
#ifndef GEMLAB_RUNNER_RUN_PRIV_H
#define GEMLAB_RUNNER_RUN_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "inst.h"
#include "run.h"
#include "scenario.h"

#define GEMLAB_VERSION "0.1"

struct run {
    struct run_opts o;
    char top[PATH_MAX];
    struct scenario s;
    struct inst in;
    char qemu[PATH_MAX], fw[PATH_MAX];
    char props[16384];
    char unapplied[512];
    char link_path[128];
    int port;
    cJSON *results;
    cJSON *iperf;
    cJSON *sweep;
    int exit_code;
    char reason[512];
    char step_refused[512];   /* the first [timeline] change QEMU refused: the run is an ERROR */
    bool progress_tty;
    const char *last_phase;
    const cJSON *last_udp_result;
    char netns[32], tap[16];  /* --net tap: ours to delete */
    char qemu_user[64];       /* who QEMU runs as (-runas in tap mode; docs/SECURITY.md Q5) */
    const char *sandbox;      /* its -sandbox value, NULL when the binary has none */
    bool hardening_set;       /* the two above are decided */
    struct inst peer;         /* --net pair: the second board (RUN_DIR/peer) */
    char pair_sock[600];      /* --net pair: RUN_DIR/pair.sock (the board listens) */
    /* `link` lines [relink_lo, relink_hi) (ordinals among r->in's link
     * lines) are the down/up of a renegotiating fw_cmd before traffic:
     * commanded, not flaps (run.c wait_relink) */
    int relink_lo, relink_hi;
    bool cpu_baseline;        /* Linux: a `stats` answered just before the traffic */
    double cpu_t0_ms;         /* its t_ms (the agent's clock), NAN unknown */
    long long start_ms;       /* CLOCK_MONOTONIC (inst_now_ms) at rs_begin */
    long long traffic_t0_ms;  /* and at the first test's start; 0 = none ran */
    cJSON *cpu_stats;         /* Linux under --net sim: the `stats` at the traffic's end (owned) */
    bool cpu_stats_done;      /* and this test's has been asked for */
    /* virtual time (docs/VIRTUAL_TIME.md): every console input through the
     * gate, at a defined virtual time */
    bool vt;
    bool vt_gated;               /* and through the gate (GEMLAB_CONSOLE_GATE=off: not) */
    long long vt_wall_cont_ms;   /* CLOCK_MONOTONIC at `cont` */
    long long vt_ready_ns, vt_link_ns, vt_end_ns;   /* virtual times; -1 = not seen */
    long long vt_wall_ready_ms, vt_wall_link_ms, vt_wall_end_ms;
    unsigned vt_steps;
    double vt_gate[4];           /* the gate's sent, holds, timeouts, unsynced-sends (-1 = unknown) */
    /* --net sim: the in-emulator peer (-netdev gemlab-peer, docs/PEER.md) */
    bool sim;
    char peer_results[PATH_MAX + 16];   /* RUN_DIR/peer.jsonl */
};


/* results.c */
int rs_count_msgs(const struct inst *i, const char *type);
void rs_build_header(struct run *r);
void rs_build_conditions(struct run *r);
void rs_build_expect(struct run *r);
int rs_flaps_between(double prev_cc, double cc, bool transition);
void rs_build_link_and_counters(struct run *r, double mac_speed);
/* iperf.method.tool/version from the host tool's banner (versions.iperf_host)
 * when its output did not say (iperf 2, or an iperf3 that printed nothing). */
void rs_iperf_method_banner(const struct run *r, cJSON *res);
/* The per-CPU busy percentages of a Linux agent's `stats` line since its
 * previous one: a new array, or NULL when the line has none. */
cJSON *rs_cpu_busy(const cJSON *stats);
/* Their softirq percentages the same way (NULL from an older agent). */
cJSON *rs_cpu_softirq(const cJSON *stats);
/* Diagnose, check [expect], write results.json + diagnosis.json, print. */
void rs_finish(struct run *r);
/* Start of a run in r->in.run_dir: remove an earlier run's results.json,
 * diagnosis.json, baseline-compare.json and reports, and write
 * RUNNER_IN_PROGRESS.  0 or a negative errno (message on stderr). */
int rs_begin(struct run *r);
/* RUNNER_IN_PROGRESS goes (rs_finish, once both JSON files are written). */
void rs_end(struct run *r);

#endif
