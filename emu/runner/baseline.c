/*
 * baseline.c - `gemlab baseline save|compare`: noise-aware throughput
 * baselines stored as JSON under baselines/<board>/<firmware>/<name>.json.
 * See baseline.h and RESULTS.md (schema gemlab-baseline-1).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "diagnose.h"
#include "results_schema.h"
#include "util.h"

#define BL_SCHEMA "gemlab-baseline-1"
#define BL_MAX_RUNS 1024

/* Recorded in a baseline: output key, results.json path, and whether a
 * difference makes runs incomparable (the measurement: scenario, seed,
 * traffic shape) or is what is under test (the "subject": QEMU patch set,
 * models, firmware build and options, BD counts), which compare reports as
 * changed and still compares. */
static const struct {
    const char *key, *path;
    bool subject;
} cond_keys[] = {
    { "scenario", "scenario.name", false },
    { "seed", "seed", false },
    { "firmware", "conditions.firmware", false },
    { "cpus", "conditions.cpus", false },
    { "net", "conditions.net", false },
    { "tool", "conditions.tool", false },
    { "board_tool", "conditions.board_tool", false },
    { "protocol", "conditions.protocol", false },
    { "streams", "conditions.parallel", false },
    { "reverse", "conditions.reverse", false },
    { "bidir", "conditions.bidir", false },
    { "client", "conditions.client", false },
    { "bandwidth_bps", "conditions.bandwidth_bps", false },
    { "window_bytes", "conditions.window_bytes", false },
    { "length_bytes", "conditions.length_bytes", false },
    { "duration_s", "conditions.duration_s", false },
    { "omit_s", "conditions.omit_s", false },
    { "latency_ns", "conditions.latency_ns", false },
    /* the clock the figures come from: real time measures the host too,
     * virtual time the guest at its calibrated speed (docs/VIRTUAL_TIME.md,
     * docs/CALIBRATION.md); a run at another speed is another board */
    { "clock", "clock.mode", false },
    { "mips", "clock.mips", false },
    { "quantum_ns", "clock.quantum_ns", false },
    { "dma_line_ns", "clock.dma_line_ns", false },
    { "scenario_hash", "scenario.hash", true },
    { "qemu", "versions.qemu", true },
    { "qemu_patch", "versions.qemu_patch", true },
    { "models", "versions.models", true },
    { "firmware_version", "versions.firmware", true },
    { "firmware_options", "versions.firmware_options", true },
    { "rx_bds", "conditions.rx_bds", true },
    { "tx_bds", "conditions.tx_bds", true },
    { "pbufs", "conditions.pbufs", true },
    { "phy_mode", "conditions.phy_mode", true },
    { "irq_affinity", "conditions.irq_affinity", true },
};
#define NCOND (sizeof(cond_keys) / sizeof(cond_keys[0]))

static double jnum_at(const cJSON *root, const char *path)
{
    const cJSON *j = runner_json_path(root, path);
    return cJSON_IsNumber(j) ? j->valuedouble : NAN;
}

/* A count stored as a JSON number; 0 when it is none or out of int range
 * (a hand-edited baseline: casting NaN or 1e300 to int is undefined, C11
 * 6.3.1.4; docs/SECURITY.md R10). */
static int count_at(const cJSON *root, const char *path)
{
    double v = jnum_at(root, path);

    return isfinite(v) && v >= 0 && v <= INT_MAX ? (int)v : 0;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bl_median(const double *v, size_t n)
{
    double *s, m;

    if (n == 0)
        return NAN;
    s = malloc(n * sizeof(*s));
    if (!s)
        return NAN;
    memcpy(s, v, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_dbl);
    m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

double bl_mad(const double *v, size_t n)
{
    double med, *d, m;

    if (n == 0)
        return NAN;
    med = bl_median(v, n);
    d = malloc(n * sizeof(*d));
    if (!d)
        return NAN;
    for (size_t i = 0; i < n; i++)
        d[i] = fabs(v[i] - med);
    m = bl_median(d, n);
    free(d);
    return m;
}

double bl_tolerance_pct(double median, double mad, double min_pct, double mad_k)
{
    double t = min_pct;

    if (median > 0 && !isnan(mad) && mad_k * mad / median * 100 > t)
        t = mad_k * mad / median * 100;
    return t;
}

static cJSON *pick(const cJSON *results, bool subject)
{
    cJSON *c = cJSON_CreateObject();

    for (size_t i = 0; i < NCOND; i++) {
        const cJSON *v = runner_results_get(results, cond_keys[i].path);
        if (cond_keys[i].subject == subject && v && !cJSON_IsNull(v))
            cJSON_AddItemToObject(c, cond_keys[i].key, cJSON_Duplicate(v, 1));
    }
    return c;
}

cJSON *bl_conditions(const cJSON *results)
{
    return pick(results, false);
}

cJSON *bl_subject(const cJSON *results)
{
    return pick(results, true);
}

cJSON *bl_conditions_diff(const cJSON *base, const cJSON *run)
{
    cJSON *a = cJSON_CreateArray();
    const cJSON *it;

    /* Only an object's members have keys: anything else counts as empty
     * (load_baseline refuses a stored file whose "conditions" or
     * "subject" is not an object; this keeps a caller of the API safe). */
    if (!cJSON_IsObject(base))
        base = NULL;
    if (!cJSON_IsObject(run))
        run = NULL;
    /* every key of either side; a key only one side has differs */
    cJSON_ArrayForEach(it, base) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(run, it->string);
        if (!o || !cJSON_Compare(it, o, true)) {
            cJSON *d = cJSON_CreateObject();
            cJSON_AddStringToObject(d, "key", it->string);
            cJSON_AddItemToObject(d, "baseline", cJSON_Duplicate(it, 1));
            cJSON_AddItemToObject(d, "run", o ? cJSON_Duplicate(o, 1) : cJSON_CreateNull());
            cJSON_AddItemToArray(a, d);
        }
    }
    cJSON_ArrayForEach(it, run) {
        if (cJSON_GetObjectItemCaseSensitive(base, it->string))
            continue;
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "key", it->string);
        cJSON_AddItemToObject(d, "baseline", cJSON_CreateNull());
        cJSON_AddItemToObject(d, "run", cJSON_Duplicate(it, 1));
        cJSON_AddItemToArray(a, d);
    }
    return a;
}

static void safe_component(char *s)
{
    for (; *s; s++)
        if (*s == '/' || *s == '\\' || (unsigned char)*s < 0x20)
            *s = '_';
}

/* What names a baseline's file: the run's board, firmware and scenario
 * (bl_board_fw, bl_default_name; save and compare refuse a run without
 * them, check_ident). */
static const cJSON *run_board(const cJSON *results)
{
    return runner_json_path(results, "scenario.resolved.board.profile");
}

static const cJSON *run_firmware(const cJSON *results)
{
    return runner_results_get(results, "conditions.firmware");
}

static const cJSON *run_name(const cJSON *results)
{
    return runner_json_path(results, "scenario.name");
}

void bl_board_fw(const cJSON *results, char *board, size_t blen, char *fw, size_t flen)
{
    const cJSON *b = run_board(results), *f = run_firmware(results);

    snprintf(board, blen, "%s", cJSON_IsString(b) && *b->valuestring ? b->valuestring : "zc702");
    snprintf(fw, flen, "%s", cJSON_IsString(f) && *f->valuestring ? f->valuestring : "baremetal");
    safe_component(board);
    safe_component(fw);
    if (!strcmp(board, ".") || !strcmp(board, ".."))
        snprintf(board, blen, "_");
    if (!strcmp(fw, ".") || !strcmp(fw, ".."))
        snprintf(fw, flen, "_");
}

static void recompute(cJSON *bl)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(bl, "runs"), *r;
    double v[BL_MAX_RUNS], med, mad, lo = NAN, hi = NAN;
    size_t n = 0;
    cJSON *st;

    cJSON_ArrayForEach(r, runs) {
        double x = jnum_at(r, "throughput_bps");
        if (!isnan(x) && n < BL_MAX_RUNS) {
            v[n++] = x;
            if (isnan(lo) || x < lo)
                lo = x;
            if (isnan(hi) || x > hi)
                hi = x;
        }
    }
    med = bl_median(v, n);
    mad = bl_mad(v, n);
    cJSON_DeleteItemFromObjectCaseSensitive(bl, "stats");
    st = cJSON_AddObjectToObject(bl, "stats");
    cJSON_AddNumberToObject(st, "n", (double)n);
    if (n) {
        double minp = jnum_at(bl, "tolerance.min_pct"), k = jnum_at(bl, "tolerance.mad_k");
        cJSON_AddNumberToObject(st, "median_bps", med);
        cJSON_AddNumberToObject(st, "mad_bps", mad);
        cJSON_AddNumberToObject(st, "min_bps", lo);
        cJSON_AddNumberToObject(st, "max_bps", hi);
        cJSON_AddNumberToObject(st, "tolerance_pct",
                                bl_tolerance_pct(med, mad, isnan(minp) ? BL_DEFAULT_MIN_PCT : minp,
                                                 isnan(k) ? BL_DEFAULT_MAD_K : k));
    }
}

double bl_default_min_pct(const cJSON *results)
{
    const cJSON *mode = runner_json_path(results, "clock.mode");

    return cJSON_IsString(mode) && !strcmp(mode->valuestring, "virtual") ? 0.0 : BL_DEFAULT_MIN_PCT;
}

cJSON *bl_new(const cJSON *results, const char *name, double min_pct, double mad_k)
{
    cJSON *bl = cJSON_CreateObject(), *t;
    char board[64], fw[64];

    bl_board_fw(results, board, sizeof(board), fw, sizeof(fw));
    cJSON_AddStringToObject(bl, "schema", BL_SCHEMA);
    cJSON_AddStringToObject(bl, "name", name);
    cJSON_AddStringToObject(bl, "board", board);
    cJSON_AddStringToObject(bl, "firmware", fw);
    cJSON_AddStringToObject(bl, "metric", "iperf.throughput_bps");
    t = cJSON_AddObjectToObject(bl, "tolerance");
    cJSON_AddNumberToObject(t, "min_pct", min_pct);
    cJSON_AddNumberToObject(t, "mad_k", mad_k);
    cJSON_AddItemToObject(bl, "conditions", bl_conditions(results));
    cJSON_AddItemToObject(bl, "subject", bl_subject(results));
    cJSON_AddArrayToObject(bl, "runs");
    recompute(bl);
    return bl;
}

/* Was @run_dir's results.json written after the baseline's run entry @e
 * was saved ("saved": UTC to the second)?  Then the directory holds a
 * later run (a reused `gemlab run --out`), not the one saved. */
static bool rewritten_since(const char *run_dir, const cJSON *e)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(e, "saved");
    struct tm tm;
    struct stat st;
    char path[PATH_MAX + 16];

    memset(&tm, 0, sizeof(tm));
    if (!cJSON_IsString(s) || sscanf(s->valuestring, "%4d-%2d-%2dT%2d:%2d:%2dZ", &tm.tm_year, &tm.tm_mon,
                                     &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
        return false;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    snprintf(path, sizeof(path), "%s/results.json", run_dir);
    return !stat(path, &st) && st.st_mtime > timegm(&tm);
}

int bl_append(cJSON *bl, const cJSON *results, const char *run_dir, FILE *err)
{
    const cJSON *t = runner_json_path(results, RS(IPERF_THROUGHPUT_BPS));
    double bps;
    cJSON *cond, *diff, *runs, *r;
    const cJSON *v;
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;

    if (!t) {
        fprintf(err, "%s/results.json: no %s to save\n", run_dir, RS(IPERF_THROUGHPUT_BPS));
        return -EINVAL;
    }
    /* One negative or infinite run would shift the median and MAD, and
     * cJSON writes inf (1e400 in the file) as null: never stored. */
    if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || t->valuedouble < 0) {
        if (cJSON_IsNumber(t))
            fprintf(err, "%s/results.json: %s: %g is not a throughput (bit/s, finite, >= 0)\n", run_dir,
                    RS(IPERF_THROUGHPUT_BPS), t->valuedouble);
        else
            fprintf(err, "%s/results.json: %s is not a number\n", run_dir, RS(IPERF_THROUGHPUT_BPS));
        return -EINVAL;
    }
    bps = t->valuedouble;
    cond = bl_conditions(results);
    diff = bl_conditions_diff(cJSON_GetObjectItemCaseSensitive(bl, "conditions"), cond);
    cJSON_Delete(cond);
    /* one baseline = one build under one measurement: the subject too */
    cond = bl_subject(results);
    {
        cJSON *sd = bl_conditions_diff(cJSON_GetObjectItemCaseSensitive(bl, "subject"), cond), *it;
        while ((it = cJSON_DetachItemFromArray(sd, 0)))
            cJSON_AddItemToArray(diff, it);
        cJSON_Delete(sd);
    }
    cJSON_Delete(cond);
    if (cJSON_GetArraySize(diff) > 0) {
        const cJSON *d;
        fprintf(err, "%s: conditions or build differ from the baseline's:\n", run_dir);
        cJSON_ArrayForEach(d, diff) {
            char *b = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(d, "baseline"));
            char *o = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(d, "run"));
            const cJSON *k = cJSON_GetObjectItemCaseSensitive(d, "key");
            fprintf(err, "  %s: baseline %s, run %s\n", cJSON_IsString(k) ? k->valuestring : "?", b ? b : "?",
                    o ? o : "?");
            free(b);
            free(o);
        }
        cJSON_Delete(diff);
        return -EXDEV;
    }
    cJSON_Delete(diff);
    runs = cJSON_GetObjectItemCaseSensitive(bl, "runs");
    if (!cJSON_IsArray(runs)) {
        cJSON_DeleteItemFromObjectCaseSensitive(bl, "runs");
        runs = cJSON_AddArrayToObject(bl, "runs");
    }
    {
        /* one run counted twice pulls the median towards it and shrinks
         * the MAD: a run directory (one that exists: its real path is
         * its identity) is saved once */
        char abs[PATH_MAX];
        bool real = realpath(run_dir, abs);
        const char *id = real ? abs : run_dir;
        cJSON_ArrayForEach(r, runs) {
            const cJSON *d = cJSON_GetObjectItemCaseSensitive(r, "run_dir");
            if (real && cJSON_IsString(d) && !strcmp(d->valuestring, id) && !rewritten_since(id, r)) {
                const cJSON *when = cJSON_GetObjectItemCaseSensitive(r, "saved");
                fprintf(err, "%s: this run is in the baseline already (saved %s); a run is counted once\n",
                        run_dir, cJSON_IsString(when) ? when->valuestring : "before");
                return -EEXIST;
            }
        }
        r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "run_dir", id);
    }
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(r, "saved", stamp);
    cJSON_AddNumberToObject(r, "throughput_bps", bps);
    if (cJSON_IsString(v = runner_json_path(results, RS(VERDICT_RESULT))))
        cJSON_AddStringToObject(r, "verdict", v->valuestring);
    if (!isnan(jnum_at(results, RS(IPERF_RETRANSMITS))))
        cJSON_AddNumberToObject(r, "retransmits", jnum_at(results, RS(IPERF_RETRANSMITS)));
    if (!isnan(jnum_at(results, RS(IPERF_UDP_LOST_PCT))))
        cJSON_AddNumberToObject(r, "udp_lost_pct", jnum_at(results, RS(IPERF_UDP_LOST_PCT)));
    cJSON_AddItemToArray(runs, r);
    recompute(bl);
    return 0;
}

const char *bl_verdict_str(enum bl_verdict v)
{
    switch (v) {
    case BL_OK: return "ok";
    case BL_REGRESSION: return "regression";
    case BL_IMPROVEMENT: return "improvement";
    case BL_CONDITIONS_DIFFER: return "conditions_differ";
    case BL_NO_DATA: return "no_data";
    }
    return "?";
}

void bl_compare(const cJSON *bl, const cJSON *results, struct bl_cmp *c)
{
    cJSON *cond = bl_conditions(results);

    memset(c, 0, sizeof(*c));
    c->differ = bl_conditions_diff(cJSON_GetObjectItemCaseSensitive(bl, "conditions"), cond);
    cJSON_Delete(cond);
    cond = bl_subject(results);
    c->changed = bl_conditions_diff(cJSON_GetObjectItemCaseSensitive(bl, "subject"), cond);
    cJSON_Delete(cond);
    c->run_bps = jnum_at(results, RS(IPERF_THROUGHPUT_BPS));
    c->median_bps = jnum_at(bl, "stats.median_bps");
    c->mad_bps = jnum_at(bl, "stats.mad_bps");
    c->min_bps = jnum_at(bl, "stats.min_bps");
    c->max_bps = jnum_at(bl, "stats.max_bps");
    c->tolerance_pct = jnum_at(bl, "stats.tolerance_pct");
    c->nruns = count_at(bl, "stats.n");
    if (isnan(c->tolerance_pct))
        c->tolerance_pct = BL_DEFAULT_MIN_PCT;
    c->delta_pct = c->median_bps > 0 ? (c->run_bps - c->median_bps) / c->median_bps * 100 : NAN;
    if (cJSON_GetArraySize(c->differ) > 0)
        c->verdict = BL_CONDITIONS_DIFFER;
    else if (isnan(c->run_bps) || isnan(c->median_bps) || c->median_bps <= 0)
        c->verdict = BL_NO_DATA;
    else if (c->run_bps < c->median_bps * (1 - c->tolerance_pct / 100))
        c->verdict = BL_REGRESSION;
    else if (c->run_bps > c->median_bps * (1 + c->tolerance_pct / 100))
        c->verdict = BL_IMPROVEMENT;
    else
        c->verdict = BL_OK;
}

void bl_cmp_free(struct bl_cmp *c)
{
    cJSON_Delete(c->differ);
    cJSON_Delete(c->changed);
    c->differ = c->changed = NULL;
}

static void add_num(cJSON *o, const char *k, double v)
{
    if (isnan(v))
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, v);
}

cJSON *bl_cmp_json(const struct bl_cmp *c, const char *name, const char *path)
{
    cJSON *j = cJSON_CreateObject();

    cJSON_AddStringToObject(j, "schema", "gemlab-baseline-compare-1");
    cJSON_AddStringToObject(j, "name", name);
    cJSON_AddStringToObject(j, "path", path);
    cJSON_AddStringToObject(j, "verdict", bl_verdict_str(c->verdict));
    add_num(j, "throughput_bps", c->run_bps);
    add_num(j, "median_bps", c->median_bps);
    add_num(j, "mad_bps", c->mad_bps);
    add_num(j, "min_bps", c->min_bps);
    add_num(j, "max_bps", c->max_bps);
    add_num(j, "tolerance_pct", c->tolerance_pct);
    add_num(j, "delta_pct", c->delta_pct);
    cJSON_AddNumberToObject(j, "runs", c->nruns);
    cJSON_AddItemToObject(j, "conditions_differ", cJSON_Duplicate(c->differ, 1));
    cJSON_AddItemToObject(j, "changed", cJSON_Duplicate(c->changed, 1));
    return j;
}

bool bl_name_ok(const char *name)
{
    if (!*name || strlen(name) > 100 || name[0] == '.')
        return false;
    for (const char *p = name; *p; p++)
        if (!(((*p | 32) >= 'a' && (*p | 32) <= 'z') || (*p >= '0' && *p <= '9') || strchr("-_.+", *p)))
            return false;
    return true;
}

int bl_path(const cJSON *results, const char *dir, const char *name, char *out, size_t len)
{
    char top[PATH_MAX], board[64], fw[64];
    int n;

    bl_board_fw(results, board, sizeof(board), fw, sizeof(fw));
    if (!dir && getenv("GEMLAB_BASELINE_DIR") && *getenv("GEMLAB_BASELINE_DIR"))
        dir = getenv("GEMLAB_BASELINE_DIR");
    if (dir)
        n = snprintf(out, len, "%s/%s/%s/%s.json", dir, board, fw, name);
    else {
        runner_find_top(top, sizeof(top));
        n = snprintf(out, len, "%s/baselines/%s/%s/%s.json", top, board, fw, name);
    }
    return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Create the directories above @path (message on @err): 0 or -EIO. */
static int mkdir_parent(const char *path, FILE *err)
{
    int rc = runner_mkdir_parents(path);

    if (rc) {
        fprintf(err, "%s: cannot create its directory: %s\n", path, strerror(-rc));
        return -EIO;
    }
    return 0;
}

/* The parent directories of @path (created), then @j through the atomic
 * writer (util.h: unique mkstemp temporary, fsync, rename; docs/SECURITY.md D1/D2). */
static int write_json(const char *path, const cJSON *j, FILE *err)
{
    char *text;
    int rc;

    if (mkdir_parent(path, err))
        return -EIO;
    text = cJSON_Print(j);
    rc = text ? runner_write_text(path, text) : -ENOMEM;
    free(text);
    if (rc)
        fprintf(err, "gemlab: %s: cannot write: %s\n", path, strerror(-rc));
    return rc;
}

/* Exclusive lock on PATH.lock for a baseline's read-modify-write
 * (docs/SECURITY.md D2: two saves of one scenario each read N runs and wrote N+1, losing
 * one).  flock(2) locks are released when the descriptor is closed, also
 * when the process dies.  The descriptor, or a negative errno (message on
 * @err). */
static int lock_baseline(const char *path, FILE *err)
{
    char lock[PATH_MAX + 8];
    int fd;

    if (mkdir_parent(path, err))
        return -EIO;
    snprintf(lock, sizeof(lock), "%s.lock", path);
    fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        fprintf(err, "%s: cannot open: %s\n", lock, strerror(errno));
        return -errno;
    }
    while (flock(fd, LOCK_EX)) {
        if (errno != EINTR) {
            int rc = -errno;
            fprintf(err, "%s: cannot lock: %s\n", lock, strerror(errno));
            close(fd);
            return rc;
        }
    }
    return fd;
}

static int load_results(const char *run_dir, cJSON **root, FILE *err)
{
    char path[PATH_MAX];
    struct stat st;

    if (stat(run_dir, &st) || !S_ISDIR(st.st_mode)) {
        fprintf(err, "%s: not a run directory\n", run_dir);
        return -ENOENT;
    }
    snprintf(path, sizeof(path), "%s/results.json", run_dir);
    return dg_load_results(path, root, err);
}

/* A finite JSON number (>= 0 when @nonneg); NULL passes (a member that is
 * absent). */
static bool num_ok(const cJSON *j, bool nonneg)
{
    return !j || (cJSON_IsNumber(j) && isfinite(j->valuedouble) && (!nonneg || j->valuedouble >= 0));
}

/* Upper bounds of what a stored baseline may hold: a tolerance is a
 * percentage, the MAD factor a small multiple, a run's goodput at most
 * BL_MAX_BPS (the GEM's 1000 Mb/s both ways, with room). */
#define BL_MAX_PCT 100.0
#define BL_MAX_MAD_K 100.0
#define BL_MAX_BPS 1e11

/* Every member of a stored baseline that save and compare read, by type
 * and range: a hand-edited or damaged file (an array "conditions" crashed
 * save; a negative tolerance, a run of 1e300 b/s).  An absent member
 * keeps its meaning (no conditions: every key differs; no tolerance: the
 * defaults); one of the wrong type or out of range is refused.  "stats"
 * is derived from "runs" and "tolerance" (load_baseline recomputes it),
 * so only its types are checked.  0, or -EINVAL naming @path and the
 * member (message on @err). */
static int check_baseline(const cJSON *bl, const char *path, FILE *err)
{
    static const char *const objs[] = { "conditions", "subject", "tolerance", "stats" };
    static const struct { const char *path; bool nonneg; } nums[] = {
        { "tolerance.min_pct", true }, { "tolerance.mad_k", true }, { "stats.n", true },
        { "stats.median_bps", false }, { "stats.mad_bps", false }, { "stats.min_bps", false },
        { "stats.max_bps", false }, { "stats.tolerance_pct", false },
    };
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(bl, "runs"), *r;
    int i = 0;

    for (size_t k = 0; k < sizeof(objs) / sizeof(objs[0]); k++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(bl, objs[k]);
        if (o && !cJSON_IsObject(o)) {
            fprintf(err, "%s: \"%s\" is not an object\n", path, objs[k]);
            return -EINVAL;
        }
    }
    for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
        if (!num_ok(runner_json_path(bl, nums[k].path), nums[k].nonneg)) {
            fprintf(err, "%s: \"%s\" is not a %snumber\n", path, nums[k].path,
                    nums[k].nonneg ? "finite non-negative " : "finite ");
            return -EINVAL;
        }
    {
        static const struct { const char *path; double max; } caps[] = {
            { "tolerance.min_pct", BL_MAX_PCT }, { "tolerance.mad_k", BL_MAX_MAD_K },
        };
        for (size_t k = 0; k < sizeof(caps) / sizeof(caps[0]); k++) {
            double v = jnum_at(bl, caps[k].path);
            if (v > caps[k].max) {
                fprintf(err, "%s: \"%s\" is %g, above %g\n", path, caps[k].path, v, caps[k].max);
                return -EINVAL;
            }
        }
    }
    if (runs && !cJSON_IsArray(runs)) {
        fprintf(err, "%s: \"runs\" is not an array\n", path);
        return -EINVAL;
    }
    cJSON_ArrayForEach(r, runs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, "throughput_bps");
        if (!cJSON_IsObject(r)) {
            fprintf(err, "%s: \"runs[%d]\" is not an object\n", path, i);
            return -EINVAL;
        }
        if (!t || !num_ok(t, true) || t->valuedouble > BL_MAX_BPS) {
            fprintf(err, "%s: \"runs[%d].throughput_bps\" is not a throughput (bit/s, finite, 0 to %g)\n", path, i,
                    BL_MAX_BPS);
            return -EINVAL;
        }
        i++;
    }
    return 0;
}

static int load_baseline(const char *path, cJSON **bl, FILE *err)
{
    const cJSON *s;
    int rc = dg_load_json(path, bl, err);

    if (rc)
        return rc;
    s = cJSON_GetObjectItemCaseSensitive(*bl, "schema");
    if (!cJSON_IsString(s) || strcmp(s->valuestring, BL_SCHEMA)) {
        fprintf(err, "%s: not a baseline (schema is not %s)\n", path, BL_SCHEMA);
        rc = -EINVAL;
    } else
        rc = check_baseline(*bl, path, err);
    if (rc) {
        cJSON_Delete(*bl);
        *bl = NULL;
    } else {
        /* the stored stats are a summary for the reader: compare judges
         * by the runs themselves (an edited median of 1 b/s read as a
         * 10^11 % improvement, "runs": [] as "OK of 2 runs") */
        recompute(*bl);
    }
    return rc;
}

/* the "baseline" object BASELINE_REGRESSION reads, or NULL when the run
 * cannot be compared */
static cJSON *diag_input(const struct bl_cmp *c, const char *name)
{
    cJSON *d;

    if (c->verdict == BL_CONDITIONS_DIFFER || isnan(c->median_bps))
        return NULL;
    d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "name", name);
    cJSON_AddNumberToObject(d, "throughput_bps", c->median_bps);
    cJSON_AddNumberToObject(d, "tolerance_pct", c->tolerance_pct);
    cJSON_AddNumberToObject(d, "runs", c->nruns);
    return d;
}

static void print_kv_list(FILE *out, const cJSON *list, const char *prefix, const char *sep)
{
    const cJSON *d;

    cJSON_ArrayForEach(d, list) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(d, "key");
        char *b = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(d, "baseline"));
        char *o = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(d, "run"));
        fprintf(out, "  %s%s: %s%s%s\n", prefix, cJSON_IsString(k) ? k->valuestring : "?", b ? b : "?", sep,
                o ? o : "?");
        free(b);
        free(o);
    }
}

/* the human lines of a comparison (compare, run and diagnose print them) */
static void print_cmp(FILE *out, const struct bl_cmp *c, const char *path)
{
    if (c->verdict == BL_CONDITIONS_DIFFER) {
        fprintf(out, "baseline %s: CONDITIONS DIFFER, not compared:\n", path);
        print_kv_list(out, c->differ, "", ", run ");
    } else if (c->verdict == BL_NO_DATA && isnan(c->run_bps))
        fprintf(out, "baseline %s: the run has no throughput to compare\n", path);
    else if (c->verdict == BL_NO_DATA)
        /* zero is stored (nothing got through), but no ratio is taken to it */
        fprintf(out, "baseline %s: its median is %s bit/s, nothing to compare against (save new runs with "
                     "--replace)\n", path, isnan(c->median_bps) ? "missing" : "0");
    else {
        char v[32];
        size_t i;
        for (i = 0; i + 1 < sizeof(v) && bl_verdict_str(c->verdict)[i]; i++)
            v[i] = (char)toupper((unsigned char)bl_verdict_str(c->verdict)[i]);
        v[i] = '\0';
        print_kv_list(out, c->changed, "changed ", " -> ");
        fprintf(out, "baseline %s: %s: %.2f Mb/s vs median %.2f Mb/s of %d run(s) (%+.1f%%, tolerance %.1f%%, "
                     "spread %.2f..%.2f Mb/s)\n",
                path, v, c->run_bps / 1e6, c->median_bps / 1e6, c->nruns, c->delta_pct,
                c->tolerance_pct, c->min_bps / 1e6, c->max_bps / 1e6);
    }
}

void bl_default_name(const cJSON *results, char *out, size_t len)
{
    const cJSON *n = run_name(results);

    snprintf(out, len, "%s", cJSON_IsString(n) && bl_name_ok(n->valuestring) ? n->valuestring : "default");
}

int bl_auto(const cJSON *results, const char *dir, const char *run_dir, cJSON **diag_in, FILE *out, FILE *err)
{
    char name[128], path[PATH_MAX], cpath[PATH_MAX + 32];
    cJSON *bl, *cj;
    struct bl_cmp c;

    *diag_in = NULL;
    bl_default_name(results, name, sizeof(name));
    if (bl_path(results, dir, name, path, sizeof(path)) || access(path, F_OK))
        return 0;
    if (load_baseline(path, &bl, err))
        return -EINVAL;
    bl_compare(bl, results, &c);
    if (run_dir) {
        cj = bl_cmp_json(&c, name, path);
        snprintf(cpath, sizeof(cpath), "%s/baseline-compare.json", run_dir);
        write_json(cpath, cj, err);
        cJSON_Delete(cj);
    }
    print_cmp(out, &c, path);
    *diag_in = diag_input(&c, name);
    bl_cmp_free(&c);
    cJSON_Delete(bl);
    return 1;
}

int bl_auto_dir(const char *run_dir, const char *dir, cJSON **diag_in, FILE *out, FILE *err)
{
    cJSON *res;
    int rc;

    *diag_in = NULL;
    if ((rc = load_results(run_dir, &res, err)))
        return rc;
    rc = bl_auto(res, dir, run_dir, diag_in, out, err);
    cJSON_Delete(res);
    return rc;
}

int bl_for_diagnosis(const char *run_dir, const char *dir, const char *name, cJSON **diag_in, FILE *out, FILE *err)
{
    cJSON *res, *bl, *cj;
    char path[PATH_MAX], cpath[PATH_MAX + 32];
    struct bl_cmp c;
    int rc;

    *diag_in = NULL;
    if ((rc = load_results(run_dir, &res, err)))
        return rc;
    if ((rc = bl_path(res, dir, name, path, sizeof(path))) || (rc = load_baseline(path, &bl, err))) {
        cJSON_Delete(res);
        return rc ? rc : -EINVAL;
    }
    bl_compare(bl, res, &c);
    /* as for the scenario's own baseline (bl_auto): the verdict line and
     * baseline-compare.json, whichever baseline was named */
    cj = bl_cmp_json(&c, name, path);
    snprintf(cpath, sizeof(cpath), "%s/baseline-compare.json", run_dir);
    write_json(cpath, cj, err);
    cJSON_Delete(cj);
    print_cmp(out, &c, path);
    if (c.verdict == BL_CONDITIONS_DIFFER)
        fprintf(err, "%s: conditions differ from the run's; the baseline rule is not applied\n", path);
    *diag_in = diag_input(&c, name);
    bl_cmp_free(&c);
    cJSON_Delete(bl);
    cJSON_Delete(res);
    return 0;
}

/* The run's board and firmware, and without --name its scenario, name the
 * baseline's file: a results.json without one is refused rather than filed
 * under a made-up zc702/baremetal/default.json.  0 or -EINVAL (message on
 * @err). */
static int check_ident(const struct bl_opts *o, const cJSON *res, FILE *err)
{
    const cJSON *b = run_board(res), *f = run_firmware(res), *n = run_name(res);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(res, "schema");
    bool v2 = cJSON_IsString(s) && !strcmp(s->valuestring, RESULTS_SCHEMA);

    if (!cJSON_IsString(b) || !*b->valuestring) {
        fprintf(err, "%s/results.json: no scenario.resolved.board.profile: the baseline's board is unknown\n",
                o->run_dir);
        return -EINVAL;
    }
    if (!cJSON_IsString(f) || !*f->valuestring) {
        fprintf(err, "%s/results.json: no %s: the baseline's firmware is unknown\n", o->run_dir,
                v2 ? "truth.conditions.firmware" : "conditions.firmware");
        return -EINVAL;
    }
    if (!o->name && !cJSON_IsString(n)) {
        fprintf(err, "%s/results.json: no scenario.name: give the baseline a --name\n", o->run_dir);
        return -EINVAL;
    }
    if (!o->name && !bl_name_ok(n->valuestring)) {
        fprintf(err, "%s/results.json: scenario.name is not a baseline name (letters, digits, - _ . +, no "
                     "leading dot): give the baseline a --name\n", o->run_dir);
        return -EINVAL;
    }
    return 0;
}

/* The run's results, the baseline's name (o->name, else the scenario's,
 * in @auto_name) and its path: 0 or a negative errno (message on @err). */
static int open_run(const struct bl_opts *o, cJSON **res, const char **name, char *auto_name, size_t nlen,
                    char *path, size_t plen, FILE *err)
{
    int rc;

    if ((rc = load_results(o->run_dir, res, err)))
        return rc;
    if ((rc = check_ident(o, *res, err))) {
        cJSON_Delete(*res);
        *res = NULL;
        return rc;
    }
    *name = o->name;
    if (!*name) {
        bl_default_name(*res, auto_name, nlen);
        *name = auto_name;
    }
    if ((rc = bl_path(*res, o->dir, *name, path, plen))) {
        fprintf(err, "gemlab baseline: path too long\n");
        cJSON_Delete(*res);
        *res = NULL;
    }
    return rc;
}

int bl_save(const struct bl_opts *o, FILE *out, FILE *err)
{
    const char *name;
    char auto_name[128], path[PATH_MAX];
    cJSON *res = NULL, *bl = NULL;
    int rc, lock_fd = -1;
    bool exists;

    if ((rc = open_run(o, &res, &name, auto_name, sizeof(auto_name), path, sizeof(path), err)))
        return rc;
    rc = -EINVAL;
    if (runner_run_incomplete(o->run_dir, err))
        goto out;
    if ((lock_fd = lock_baseline(path, err)) < 0) {
        rc = lock_fd;
        goto out;
    }
    exists = access(path, F_OK) == 0;
    if (exists && !o->replace) {
        if ((rc = load_baseline(path, &bl, err)))
            goto out;
        if (!isnan(o->min_pct) || !isnan(o->mad_k)) {
            cJSON *t = cJSON_GetObjectItemCaseSensitive(bl, "tolerance");
            if (!cJSON_IsObject(t)) {
                cJSON_DeleteItemFromObjectCaseSensitive(bl, "tolerance");
                t = cJSON_AddObjectToObject(bl, "tolerance");
            }
            if (!isnan(o->min_pct)) {
                cJSON_DeleteItemFromObjectCaseSensitive(t, "min_pct");
                cJSON_AddNumberToObject(t, "min_pct", o->min_pct);
            }
            if (!isnan(o->mad_k)) {
                cJSON_DeleteItemFromObjectCaseSensitive(t, "mad_k");
                cJSON_AddNumberToObject(t, "mad_k", o->mad_k);
            }
        }
    } else
        bl = bl_new(res, name, isnan(o->min_pct) ? bl_default_min_pct(res) : o->min_pct,
                    isnan(o->mad_k) ? BL_DEFAULT_MAD_K : o->mad_k);
    if (strcmp(runner_json_path(res, RS(VERDICT_RESULT)) && cJSON_IsString(runner_json_path(res, RS(VERDICT_RESULT)))
                   ? runner_json_path(res, RS(VERDICT_RESULT))->valuestring : "", "PASS"))
        fprintf(err, "gemlab baseline: warning: %s did not PASS; saving it anyway\n", o->run_dir);
    rc = bl_append(bl, res, o->run_dir, err);
    if (rc == -EXDEV) {
        fprintf(err, "%s: not saved (use --replace to start a new baseline, or another --name)\n", path);
        goto out;
    }
    if (rc)
        goto out;
    if (write_json(path, bl, err)) {
        rc = -EIO;
        goto out;
    }
    fprintf(out, "%s: %d run(s), median %.2f Mb/s, MAD %.2f Mb/s, tolerance %.1f%%\n", path,
            count_at(bl, "stats.n"), jnum_at(bl, "stats.median_bps") / 1e6,
            jnum_at(bl, "stats.mad_bps") / 1e6, jnum_at(bl, "stats.tolerance_pct"));
out:
    if (lock_fd >= 0)
        close(lock_fd);     /* after the rename: the next saver reads N+1 */
    cJSON_Delete(bl);
    cJSON_Delete(res);
    return rc;
}

int bl_compare_run(const struct bl_opts *o, FILE *out, FILE *err)
{
    const char *name;
    char auto_name[128], path[PATH_MAX], cpath[PATH_MAX + 32];
    cJSON *res = NULL, *bl = NULL, *cj;
    struct bl_cmp c;
    int rc, wrc;

    if ((rc = open_run(o, &res, &name, auto_name, sizeof(auto_name), path, sizeof(path), err)))
        return rc;
    if (access(path, F_OK)) {
        fprintf(err, "%s: no such baseline (gemlab baseline save %s --name %s%s%s)\n", path, o->run_dir, name,
                o->dir ? " --dir " : "", o->dir ? o->dir : "");
        rc = -ENOENT;
        goto out;
    }
    if ((rc = load_baseline(path, &bl, err)))
        goto out;
    bl_compare(bl, res, &c);
    cj = bl_cmp_json(&c, name, path);
    snprintf(cpath, sizeof(cpath), "%s/baseline-compare.json", o->run_dir);
    wrc = write_json(cpath, cj, err);
    if (o->json) {
        char *t = cJSON_Print(cj);
        fputs(t ? t : "{}", out);
        fputc('\n', out);
        free(t);
    } else
        print_cmp(out, &c, path);
    rc = wrc ? -EIO : (int)c.verdict;     /* the verdict is printed; its file is not there */
    cJSON_Delete(cj);
    bl_cmp_free(&c);
out:
    cJSON_Delete(bl);
    cJSON_Delete(res);
    return rc;
}
