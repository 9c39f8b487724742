/*
 * campaign.h - fault campaigns: `gemlab campaign` samples scenarios from the
 * fault space, runs each one, diagnoses it blind and scores the codes it
 * names against the faults it injected (precision and recall per code).
 *
 * The fault space is one table in campaign.c: each row is a fault (what it
 * writes into the scenario, the codes it must produce, the codes it may
 * also produce as a consequence, and what it cannot be combined with).
 * The injected faults are the campaign's ground truth; the diagnosis sees
 * only the run's evidence (results.json without `scenario` and `truth`).
 *
 * Errors: 0 or a negative errno, messages on the FILE * given (the
 * campaign itself, cp_campaign, returns an exit code).
 */
#ifndef GEMLAB_RUNNER_CAMPAIGN_H
#define GEMLAB_RUNNER_CAMPAIGN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "codes.h"

#define CP_MAX_FAULTS 2        /* faults per sample (--pairs) */
#define CP_SCENARIO_MAX 4096   /* bytes of one generated scenario */

/* Which firmware a sample may use. */
enum cp_fw { CP_FW_BAREMETAL = 1, CP_FW_LINUX = 2 };

struct cp_opts {
    uint64_t seed;            /* campaign seed: sample i is a pure function of (seed, i) */
    unsigned runs;            /* samples */
    bool pairs;               /* two faults per sample instead of one */
    unsigned fw_mask;         /* CP_FW_* allowed */
    uint64_t fault_mask;      /* bit i: fault table row i may be drawn (0: all) */
    unsigned duration_s;      /* traffic seconds per sample */
    bool vt;                  /* --clock virtual: bare-metal samples against the
                               * in-emulator peer (docs/PEER.md), or with --net
                               * idle where a fault needs a timeline */
};

struct cp_sample {
    unsigned index;
    uint64_t seed;            /* the sample's own seed (models' PRNG seed too) */
    int nfaults;
    int fault[CP_MAX_FAULTS]; /* rows of the fault table */
    enum cp_fw fw;
    bool udp;
    char net[8];              /* --net for gemlab run: "" (user, or sim in virtual
                               * time), "tap" or "idle" */
    uint64_t expect;          /* bit DG_x: must be named */
    uint64_t allow;           /* bit DG_x: may be named (a consequence) */
    char scenario[CP_SCENARIO_MAX]; /* INI text for `gemlab run` */
};

/* Number of rows in the fault table, and row @i's name (NULL out of range). */
int cp_nfaults(void);
const char *cp_fault_name(int i);
/* Fault @i also runs in virtual time (--clock virtual). */
bool cp_fault_vt(int i);
/* Row index of @name, or -1. */
int cp_fault_lookup(const char *name);

/* Draw sample @index of the campaign @o.  Deterministic.  0, or -EINVAL
 * when the options leave nothing to draw (message on @err). */
int cp_sample_draw(const struct cp_opts *o, unsigned index, struct cp_sample *s, FILE *err);

/* Codes named by a blind diagnosis of @results (a parsed results.json):
 * the members "scenario" and "truth" are removed before the rules run.
 * Returns a bit set of enum dg_code. */
uint64_t cp_blind_codes(const cJSON *results);

/* Score accumulation over samples. */
struct cp_score {
    unsigned samples, errors, clean, clean_false_alarms;
    unsigned tp[DG_NCODES], fp[DG_NCODES], fn[DG_NCODES];
    unsigned all_named;       /* samples in which every expected code was named */
};

/* Add one sample's outcome (@found: codes named).  @clean: a sample with
 * no fault; any physical, MAC or protocol code there is a false alarm. */
void cp_score_add(struct cp_score *sc, const struct cp_sample *s, uint64_t found);
/* Precision and recall of code @c in percent; NAN when undefined (no
 * sample expected it / none named it). */
double cp_precision(const struct cp_score *sc, enum dg_code c);
double cp_recall(const struct cp_score *sc, enum dg_code c);

/* `gemlab campaign` (options: cmd_campaign.c) */
struct cp_campaign_opts {
    struct cp_opts o;         /* what to draw */
    const char *out;          /* DIR: campaign.json, .md, .html and sample-K/ (created) */
    const char *qemu;         /* gemlab run --qemu; NULL: its default */
    const char *cmdline;      /* the command, as the reports show it */
    long only;                /* >= 0: sample K alone; -1: all */
    unsigned timeout_s;       /* gemlab run --timeout; 0: its default */
    double min_recall, min_precision; /* bars in percent; NAN: none */
    bool dry;                 /* write the scenarios only */
};
/* Draw the samples, run each with `gemlab run` (this executable),
 * diagnose it blind, score it, and write DIR/campaign.json after every
 * sample, campaign.md and campaign.html at the end.  Progress and the
 * summary go to @out, messages to @err.  SIGINT and SIGTERM stop it after
 * the current sample.  Returns a RUN_EXIT_* code (run.h): PASS when every
 * sample ran and every bar was met, FAIL when not (or a file could not be
 * written), INPUT (DIR cannot be made, nothing to draw), MISSING (no
 * /proc/self/exe), INTERRUPTED. */
int cp_campaign(const struct cp_campaign_opts *co, FILE *out, FILE *err);

#endif
