/*
 * diagnose.h - the layered rule engine behind `gemlab diagnose RUN_DIR`.
 *
 * Input is RUN_DIR/results.json (schema: emu/runner/RESULTS.md), read once
 * into struct dg_in; every rule is one row of a table (code, layer, test,
 * cause, remedy) evaluated in seed 001 §5's order (docs/SOURCES.md): physical, MAC/driver,
 * protocol, method, baseline.  A value missing from results.json is NAN
 * (numbers) or -1 (booleans) and a rule that needs it does not fire.
 *
 * Errors: 0 or a negative errno; messages go to the FILE * given.
 */
#ifndef GEMLAB_RUNNER_DIAGNOSE_H
#define GEMLAB_RUNNER_DIAGNOSE_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "codes.h"

#define DG_MAX_INTERVALS 256
#define DG_MAX_SWEEP 16
#define DG_MAX_CPUS 4

/* Everything the rules look at.  Numbers are NAN when unknown, tri-state
 * booleans -1 when unknown. */
struct dg_in {
    /* conditions (what was asked) */
    char firmware[16];
    double cpus;
    double rx_bds, tx_bds;
    char phy_mode[16];
    double board_max_speed_mbps;  /* 1000 unless results say otherwise */
    char tool[8], board_tool[8];  /* "iperf3"/"iperf2"; "" unknown */
    bool udp;
    double parallel;
    double window_bytes;          /* NAN: tool default */
    double omit_s, duration_s;
    int tcp_timestamps;
    double latency_ns;            /* one-way, from the link config */
    /* expectations that feed rules */
    double reference_bps;
    double throughput_min_bps;
    double jitter_max_ms;
    /* link as firmware/agent/model saw it */
    int link_up, full_duplex, downshift, partner_autoneg, duplex_mismatch;
    int mac_matches_phy;          /* model's verdict on NWCFG vs PHY */
    double speed_mbps, mac_speed_mbps, flaps;
    /* GEM counters */
    double rx_frames, fcs_errors, symbol_errors, length_errors;
    double rx_resource_errors, rx_overruns, collisions, late_collisions;
    /* model counters */
    double wire_skew_errors, wire_duplex_errors;
    double wire_lost;             /* frames the wire model dropped or corrupted, both directions */
    /* interrupts */
    double irq[DG_MAX_CPUS];
    int nirq;
    /* traffic results */
    int iperf_ok;
    char iperf_error[256];
    double bps, retransmits, rtt_us, rtt_min_us, lost_pct, jitter_ms, tx_bps, rx_bps;
    double intervals[DG_MAX_INTERVALS];
    int nintervals;
    double sweep_len[DG_MAX_SWEEP], sweep_bps[DG_MAX_SWEEP];
    int nsweep;
    /* baseline */
    double baseline_bps, baseline_tol_pct;
    char baseline_name[64];
};

struct dg_finding {
    enum dg_code code;
    char summary[200];     /* one line with the key numbers */
    cJSON *evidence;       /* object of named numbers (owned) */
    const char *cause;     /* static text from the rule table */
    const char *remedy;
    const char *source;    /* seed reference, see docs/SOURCES.md */
};

struct dg_report {
    struct dg_finding f[DG_NCODES];
    int n;
};

/* Fill @in from a parsed results.json.  Never fails: absent or mistyped
 * members are left unknown. */
void dg_in_from_json(const cJSON *root, struct dg_in *in);

/* Run every rule over @in.  The report owns its evidence objects. */
void dg_run(const struct dg_in *in, struct dg_report *rep);
void dg_report_free(struct dg_report *rep);
bool dg_report_has(const struct dg_report *rep, enum dg_code c);

/* TCP/UDP goodput ceiling at @speed_mbps for MTU 1500 (docs/FACTS.md):
 * TCP 1448/1538 with timestamps, 1460/1538 without; UDP 1472/1538. */
double dg_ceiling_bps(double speed_mbps, bool udp, bool timestamps);

/* Human text, grouped by layer. */
void dg_print(FILE *out, const struct dg_report *rep);
/* {"schema": "gemlab-diagnosis-1", "findings": [...]} (caller frees). */
cJSON *dg_to_json(const struct dg_report *rep);

/* Check results.json's "expect" block (speed, duplex, link, throughput,
 * loss, jitter, retransmits, diag, diag_absent) against @root and @rep.
 * Writes one line per failed expectation to @out (may be NULL) and
 * returns the number of failures; fills @checks with how many were tried. */
int dg_check_expect(const cJSON *root, const struct dg_report *rep, FILE *out, int *checks);

/* Read RUN_DIR/results.json, diagnose, print, write RUN_DIR/diagnosis.json.
 * Returns 0, or a negative errno with a message on @err.  *@failed gets
 * the number of failed expectations. */
int dg_diagnose_dir(const char *run_dir, FILE *out, FILE *err, int *failed);
/* The same with @baseline ({name, throughput_bps, tolerance_pct}, may be
 * NULL) in place of results.json's "baseline" member. */
int dg_diagnose_dir_baseline(const char *run_dir, const cJSON *baseline, FILE *out, FILE *err, int *failed);

/* Read a whole JSON file (at most 64 MiB) into a cJSON tree. */
int dg_load_json(const char *path, cJSON **root, FILE *err);

#endif
