/*
 * baseline.h - noise-aware throughput baselines (`gemlab baseline`).
 *
 * A baseline is a JSON file (schema `gemlab-baseline-1`, see RESULTS.md)
 * at BASEDIR/<board>/<firmware>/<name>.json, BASEDIR defaulting to the
 * repository's baselines/.  It records the conditions the runs were taken
 * under and every saved run's throughput; compare uses the median and the
 * median absolute deviation (MAD) with a tolerance stored in the file:
 *
 *     tolerance_pct = max(tolerance.min_pct, tolerance.mad_k * MAD / median * 100)
 *
 * and calls a run a regression only when it is below
 * median * (1 - tolerance_pct/100).  When the run's measurement
 * conditions differ from the baseline's, compare reports the differing
 * keys instead of a verdict; differences in the subject (the build under
 * test) are listed as changed and compared.
 */
#ifndef GEMLAB_RUNNER_BASELINE_H
#define GEMLAB_RUNNER_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/* exit status of `gemlab baseline compare` when conditions differ */
#define BL_EXIT_CONDITIONS 4

#define BL_DEFAULT_MIN_PCT 5.0
#define BL_DEFAULT_MAD_K 3.0

enum bl_verdict { BL_OK, BL_REGRESSION, BL_IMPROVEMENT, BL_CONDITIONS_DIFFER, BL_NO_DATA };

struct bl_cmp {
    enum bl_verdict verdict;
    double run_bps, median_bps, mad_bps, min_bps, max_bps;
    double tolerance_pct;   /* effective */
    double delta_pct;       /* (run - median) / median * 100 */
    int nruns;
    cJSON *differ;          /* measurement conditions that differ: [{key, baseline, run}] (owned) */
    cJSON *changed;         /* subject keys that differ (build, options, BDs): reported, still compared */
};

/* math on @n values (the arrays are not modified); NAN when n == 0 */
double bl_median(const double *v, size_t n);
double bl_mad(const double *v, size_t n);
double bl_tolerance_pct(double median, double mad, double min_pct, double mad_k);

/* The measurement conditions of a results.json tree (scenario, seed,
 * traffic shape; must match to compare) and its subject (QEMU patch set,
 * models, firmware version and build options, BD counts, PHY mode: what a
 * change under test alters).  New objects, caller frees. */
cJSON *bl_conditions(const cJSON *results);
cJSON *bl_subject(const cJSON *results);
/* Keys whose values differ between two conditions objects (new array). */
cJSON *bl_conditions_diff(const cJSON *base, const cJSON *run);

/* Board and firmware of a results.json ("zc702"/"baremetal" if unknown). */
void bl_board_fw(const cJSON *results, char *board, size_t blen, char *fw, size_t flen);

/* A new baseline from one results tree, with the given tolerance. */
cJSON *bl_new(const cJSON *results, const char *name, double min_pct, double mad_k);

/* The tolerance floor a new baseline of @results gets without --tolerance:
 * BL_DEFAULT_MIN_PCT in real time, 0 in virtual time, where a rerun gives
 * the same figure to the bit (docs/VIRTUAL_TIME.md): any change is real. */
double bl_default_min_pct(const cJSON *results);
/* Append a run to @bl (recomputes the statistics).  Returns 0, or
 * -EINVAL when the run's iperf.throughput_bps is missing or not a finite
 * number >= 0, -EEXIST when @bl holds this run of @run_dir already (its
 * results.json not written since it was saved), or -EXDEV when
 * conditions differ (@err gets the keys). */
int bl_append(cJSON *bl, const cJSON *results, const char *run_dir, FILE *err);
/* Compare a run against a baseline.  Free @c with bl_cmp_free. */
void bl_compare(const cJSON *bl, const cJSON *results, struct bl_cmp *c);
void bl_cmp_free(struct bl_cmp *c);
const char *bl_verdict_str(enum bl_verdict v);
/* The comparison as JSON (RUN_DIR/baseline-compare.json). */
cJSON *bl_cmp_json(const struct bl_cmp *c, const char *name, const char *path);

/* Path of the baseline for @results: DIR/<board>/<fw>/<name>.json, DIR
 * defaulting to <repo top>/baselines. */
int bl_path(const cJSON *results, const char *dir, const char *name, char *out, size_t len);

/* Read RUN_DIR/<name>.json's baseline for RUN_DIR's results and fill
 * @diag_in with the "baseline" object the diagnosis's BASELINE_REGRESSION
 * rule reads ({name, throughput_bps, tolerance_pct}); NULL in *@diag_in
 * when conditions differ.  Like bl_auto, prints the verdict on @out and
 * writes RUN_DIR/baseline-compare.json.  0 or a negative errno (message
 * on @err). */
int bl_for_diagnosis(const char *run_dir, const char *dir, const char *name, cJSON **diag_in, FILE *out, FILE *err);

/* The default baseline name of a run: its scenario's name ("default" when
 * it has none). */
void bl_default_name(const cJSON *results, char *out, size_t len);

/* Automatic lookup: when DIR/<board>/<fw>/<scenario>.json exists (DIR:
 * @dir, else $GEMLAB_BASELINE_DIR, else the repository's baselines/),
 * compare @results against it, write RUN_DIR/baseline-compare.json (when
 * @run_dir), print the verdict - or "CONDITIONS DIFFER" with the keys - on
 * @out, and set *@diag_in as bl_for_diagnosis does (NULL when conditions
 * differ).  Returns 1 when compared, 0 when there is no such baseline,
 * -EINVAL when the baseline file is unreadable (errors on @err). */
int bl_auto(const cJSON *results, const char *dir, const char *run_dir, cJSON **diag_in, FILE *out, FILE *err);
/* The same for RUN_DIR/results.json (errors reading it on @err). */
int bl_auto_dir(const char *run_dir, const char *dir, cJSON **diag_in, FILE *out, FILE *err);

/* A baseline name: letters, digits, - _ . + (no leading dot), 1..100. */
bool bl_name_ok(const char *name);

/* `gemlab baseline save|compare RUN_DIR` (options: cmd_baseline.c) */
struct bl_opts {
    const char *run_dir;
    const char *name;       /* NULL: the run's scenario (bl_default_name) */
    const char *dir;        /* NULL: as bl_path */
    double min_pct, mad_k;  /* save: tolerance; NAN: the stored one, else BL_DEFAULT_* */
    bool replace;           /* save: start the baseline over */
    bool json;              /* compare: print the comparison as JSON */
};
/* Append RUN_DIR's run to its baseline (created when there is none) and
 * print the new statistics on @out.  0; -EXDEV when the run's conditions
 * differ from the baseline's (not saved); another negative errno on bad
 * input (messages on @err): a results.json without the board, firmware or
 * (without --name) scenario name that name the file, a stored baseline
 * with a member of the wrong type.  compare refuses the same inputs. */
int bl_save(const struct bl_opts *o, FILE *out, FILE *err);
/* Compare RUN_DIR's run against its baseline, write
 * RUN_DIR/baseline-compare.json and print the comparison on @out.  The
 * verdict (enum bl_verdict), or a negative errno (message on @err). */
int bl_compare_run(const struct bl_opts *o, FILE *out, FILE *err);

#endif
