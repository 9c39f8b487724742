/* test_runner_baseline.c - baseline statistics, tolerance, conditions and
 * the regression verdict (emu/runner/baseline.c); concurrent saves lose
 * no run (docs/SECURITY.md D2). */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include "../../common/rm_tree.h"
#include "../../common/run_cmd.h"

#include "baseline.h"
#include "cmd.h"
#include "diagnose.h"

static cJSON *results(double bps, int streams, const char *hash)
{
    char buf[1024];
    snprintf(buf, sizeof(buf),
             "{\"schema\":\"gemlab-results-1\",\"scenario\":{\"name\":\"clean_1g\",\"hash\":\"%s\","
             "\"resolved\":{\"board\":{\"profile\":\"zc702\"}}},\"seed\":7,"
             "\"versions\":{\"qemu\":\"QEMU emulator version 9.2.0\"},"
             "\"conditions\":{\"firmware\":\"baremetal\",\"parallel\":%d,\"protocol\":\"tcp\",\"window_bytes\":262144},"
             "\"iperf\":{\"throughput_bps\":%.17g},\"link\":{\"up\":true,\"speed_mbps\":1000,\"full_duplex\":true}}",
             hash, streams, bps);
    cJSON *j = cJSON_Parse(buf);
    assert_non_null(j);
    return j;
}

/* gemlab-results-2 keeps the conditions under truth.conditions: a run in
 * the new schema has the same baseline conditions as the same run in the
 * old one, and one with other truth.conditions differs. */
static void test_schema2_conditions_read_from_truth(void **state)
{
    cJSON *old = results(900e6, 4, "h1"), *neu = results(900e6, 4, "h1"), *c1, *c2, *d;
    (void)state;
    cJSON *cond = cJSON_DetachItemFromObject(neu, "conditions");
    cJSON_AddItemToObject(cJSON_AddObjectToObject(neu, "truth"), "conditions", cond);
    cJSON_ReplaceItemInObject(neu, "schema", cJSON_CreateString("gemlab-results-2"));
    c1 = bl_conditions(old);
    c2 = bl_conditions(neu);
    assert_non_null(cJSON_GetObjectItem(c2, "streams"));
    d = bl_conditions_diff(c1, c2);
    assert_int_equal(cJSON_GetArraySize(d), 0);
    cJSON_Delete(d);
    cJSON_ReplaceItemInObject(cond, "parallel", cJSON_CreateNumber(1));
    cJSON_Delete(c2);
    c2 = bl_conditions(neu);
    d = bl_conditions_diff(c1, c2);
    assert_int_equal(cJSON_GetArraySize(d), 1);
    cJSON_Delete(d);
    cJSON_Delete(c1);
    cJSON_Delete(c2);
    cJSON_Delete(old);
    cJSON_Delete(neu);
}

static cJSON *baseline_of(const double *bps, int n, double min_pct, double mad_k)
{
    cJSON *r = results(bps[0], 4, "h1");
    cJSON *bl = bl_new(r, "default", min_pct, mad_k);
    cJSON_Delete(r);
    for (int i = 0; i < n; i++) {
        r = results(bps[i], 4, "h1");
        assert_int_equal(bl_append(bl, r, "run", stderr), 0);
        cJSON_Delete(r);
    }
    return bl;
}

static enum bl_verdict verdict(const cJSON *bl, double bps, int streams, const char *hash)
{
    struct bl_cmp c;
    cJSON *r = results(bps, streams, hash);
    bl_compare(bl, r, &c);
    enum bl_verdict v = c.verdict;
    bl_cmp_free(&c);
    cJSON_Delete(r);
    return v;
}

static void test_median_mad(void **state)
{
    (void)state;
    const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 42 };
    const double spread[] = { 100, 102, 98, 150, 99 };
    assert_true(isnan(bl_median(odd, 0)));
    assert_float_equal(bl_median(odd, 3), 3, 1e-12);
    assert_float_equal(bl_median(even, 4), 2.5, 1e-12);
    assert_float_equal(bl_median(one, 1), 42, 1e-12);
    assert_float_equal(bl_mad(one, 1), 0, 1e-12);
    /* |x - 100| = 0 2 2 50 1 -> median 2: the outlier does not move it */
    assert_float_equal(bl_median(spread, 5), 100, 1e-12);
    assert_float_equal(bl_mad(spread, 5), 2, 1e-12);
    /* input is not reordered */
    assert_float_equal(odd[0], 5, 0);
}

static void test_tolerance(void **state)
{
    (void)state;
    assert_float_equal(bl_tolerance_pct(100, 1, 5, 3), 5, 1e-12);   /* 3 % < 5 % floor */
    assert_float_equal(bl_tolerance_pct(100, 4, 5, 3), 12, 1e-12);  /* 3 x MAD wins */
    assert_float_equal(bl_tolerance_pct(100, NAN, 5, 3), 5, 1e-12);
    assert_float_equal(bl_tolerance_pct(0, 4, 5, 3), 5, 1e-12);
}

static void test_regression_outside_tolerance_only(void **state)
{
    (void)state;
    const double runs[] = { 100e6, 101e6, 99e6, 100e6, 102e6 };
    cJSON *bl = baseline_of(runs, 5, 5, 3);
    assert_float_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(bl, "stats"), "median_bps")->valuedouble, 100e6, 1);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(bl, "stats"), "n")->valueint, 5);
    assert_int_equal(verdict(bl, 100e6, 4, "h1"), BL_OK);
    assert_int_equal(verdict(bl, 95.5e6, 4, "h1"), BL_OK);        /* -4.5 % inside 5 % */
    assert_int_equal(verdict(bl, 94.5e6, 4, "h1"), BL_REGRESSION); /* -5.5 % */
    assert_int_equal(verdict(bl, 50e6, 4, "h1"), BL_REGRESSION);
    assert_int_equal(verdict(bl, 110e6, 4, "h1"), BL_IMPROVEMENT);
    cJSON_Delete(bl);
}

static void test_noisy_baseline_widens(void **state)
{
    (void)state;
    /* MAD 10 Mb/s on 100: tolerance 30 %, so -20 % is noise */
    const double runs[] = { 90e6, 100e6, 110e6, 100e6, 80e6, 120e6 };
    cJSON *bl = baseline_of(runs, 6, 5, 3);
    assert_float_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(bl, "stats"), "tolerance_pct")->valuedouble, 30, 1e-9);
    assert_int_equal(verdict(bl, 80e6, 4, "h1"), BL_OK);
    assert_int_equal(verdict(bl, 65e6, 4, "h1"), BL_REGRESSION);
    cJSON_Delete(bl);
}

static void test_conditions_differ(void **state)
{
    (void)state;
    const double runs[] = { 100e6 };
    cJSON *bl = baseline_of(runs, 1, 5, 3);
    struct bl_cmp c;
    cJSON *r = results(10e6, 1, "h2");

    assert_int_equal(verdict(bl, 10e6, 1, "h1"), BL_CONDITIONS_DIFFER);  /* streams */
    bl_compare(bl, r, &c);
    assert_int_equal(cJSON_GetArraySize(c.differ), 1);    /* streams */
    assert_int_equal(cJSON_GetArraySize(c.changed), 1);   /* scenario hash: the subject */
    bl_cmp_free(&c);
    /* save refuses to mix conditions */
    assert_int_equal(bl_append(bl, r, "run", stderr), -EXDEV);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(bl, "stats"), "n")->valueint, 1);
    cJSON_Delete(r);
    cJSON_Delete(bl);
}

/* In virtual time a rerun gives the same figure to the bit, so a new
 * baseline's tolerance floor is 0 there: 0.02 % loss cost 0.13 % of
 * 949.29 Mb/s and hid under the real-time floor of 5 %. */
static void test_virtual_time_baseline_compares_exactly(void **state)
{
    cJSON *r = results(949287349, 1, "h1"), *bl;
    struct bl_cmp c;
    (void)state;
    assert_float_equal(bl_default_min_pct(r), BL_DEFAULT_MIN_PCT, 0);
    cJSON_AddItemToObject(r, "clock", cJSON_Parse("{\"mode\":\"virtual\",\"mips\":500}"));
    assert_float_equal(bl_default_min_pct(r), 0, 0);
    bl = bl_new(r, "default", bl_default_min_pct(r), BL_DEFAULT_MAD_K);
    assert_int_equal(bl_append(bl, r, "run", stderr), 0);
    bl_compare(bl, r, &c);
    assert_int_equal(c.verdict, BL_OK);
    bl_cmp_free(&c);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(r, "iperf"), "throughput_bps", cJSON_CreateNumber(948070000));
    bl_compare(bl, r, &c);
    assert_int_equal(c.verdict, BL_REGRESSION);
    assert_float_equal(c.tolerance_pct, 0, 0);
    bl_cmp_free(&c);
    cJSON_Delete(bl);
    cJSON_Delete(r);
}

/* A run at another guest speed, or in the other clock, is another
 * measurement: a clean_1g copy at mips = 50 read as a regression of 86 %
 * with only the scenario hash listed as changed. */
static void test_clock_and_cpu_speed_are_conditions(void **state)
{
    cJSON *bl, *r = results(949e6, 1, "h1");
    struct bl_cmp c;
    (void)state;

    cJSON_AddItemToObject(r, "clock", cJSON_Parse("{\"mode\":\"virtual\",\"mips\":500,\"dma_line_ns\":0}"));
    bl = bl_new(r, "default", 5, 3);
    assert_int_equal(bl_append(bl, r, "run", stderr), 0);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(r, "clock"), "mips", cJSON_CreateNumber(50));
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(r, "iperf"), "throughput_bps", cJSON_CreateNumber(132e6));
    bl_compare(bl, r, &c);
    assert_int_equal(c.verdict, BL_CONDITIONS_DIFFER);
    assert_int_equal(cJSON_GetArraySize(c.differ), 1);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(c.differ, 0), "key")->valuestring, "mips");
    bl_cmp_free(&c);
    /* real time: the mode alone, and it differs */
    cJSON_ReplaceItemInObject(r, "clock", cJSON_Parse("{\"mode\":\"real\"}"));
    bl_compare(bl, r, &c);
    assert_int_equal(c.verdict, BL_CONDITIONS_DIFFER);
    assert_int_equal(cJSON_GetArraySize(c.differ), 3);   /* clock, mips, dma_line_ns */
    bl_cmp_free(&c);
    cJSON_Delete(r);
    cJSON_Delete(bl);
}

static void test_subject_change_is_compared(void **state)
{
    (void)state;
    /* a firmware build option or BD count change is what a baseline is for:
     * listed as changed, and the regression verdict still given */
    const double runs[] = { 100e6, 100e6, 100e6 };
    cJSON *bl = baseline_of(runs, 3, 5, 3);
    cJSON *r = results(80e6, 4, "h1");
    struct bl_cmp c;

    cJSON_AddStringToObject(cJSON_GetObjectItem(r, "versions"), "firmware_options", "-DGEM_RXBD=16");
    cJSON_AddNumberToObject(cJSON_GetObjectItem(r, "conditions"), "rx_bds", 16);
    bl_compare(bl, r, &c);
    assert_int_equal(c.verdict, BL_REGRESSION);
    assert_int_equal(cJSON_GetArraySize(c.differ), 0);
    assert_int_equal(cJSON_GetArraySize(c.changed), 2);
    assert_float_equal(c.delta_pct, -20, 1e-9);
    bl_cmp_free(&c);
    /* but save keeps one build per baseline */
    assert_int_equal(bl_append(bl, r, "run", stderr), -EXDEV);
    cJSON_Delete(r);
    cJSON_Delete(bl);
}

static void test_missing_throughput(void **state)
{
    (void)state;
    const double runs[] = { 100e6 };
    cJSON *bl = baseline_of(runs, 1, 5, 3);
    cJSON *r = results(1, 4, "h1");
    struct bl_cmp c;
    cJSON_DeleteItemFromObject(r, "iperf");
    assert_int_equal(bl_append(bl, r, "run", stderr), -EINVAL);
    bl_compare(bl, r, &c);
    assert_int_equal(c.verdict, BL_NO_DATA);
    bl_cmp_free(&c);
    cJSON_Delete(r);
    cJSON_Delete(bl);
}

/* docs/SECURITY.md R10: a hand-edited baseline whose stats.n is no number, or out of
 * int range, was cast to int from NaN/1e300 (undefined behaviour; on x86
 * "-2147483648 run(s)").  The run count is then unknown: 0. */
static void test_hand_edited_run_count_is_not_cast_from_nan(void **state)
{
    (void)state;
    const double runs[] = { 100e6, 101e6, 99e6 };
    cJSON *bl = baseline_of(runs, 3, 5, 3), *r = results(100e6, 4, "h1");
    cJSON *stats = cJSON_GetObjectItem(bl, "stats");
    struct bl_cmp c;
    assert_non_null(stats);
    bl_compare(bl, r, &c);
    assert_int_equal(c.nruns, 3);
    bl_cmp_free(&c);
    cJSON_ReplaceItemInObject(stats, "n", cJSON_CreateString("x"));
    bl_compare(bl, r, &c);
    assert_int_equal(c.nruns, 0);
    bl_cmp_free(&c);
    cJSON_ReplaceItemInObject(stats, "n", cJSON_CreateNumber(1e300));
    bl_compare(bl, r, &c);
    assert_int_equal(c.nruns, 0);
    bl_cmp_free(&c);
    cJSON_Delete(r);
    cJSON_Delete(bl);
}

static void test_path_and_diagnosis_rule(void **state)
{
    (void)state;
    char path[512];
    cJSON *r = results(80e6, 4, "h1"), *b;
    struct dg_in in;
    struct dg_report rep;

    assert_int_equal(bl_path(r, "/x", "nightly", path, sizeof(path)), 0);
    assert_string_equal(path, "/x/zc702/baremetal/nightly.json");
    /* the diagnosis rule fires on the baseline object compare feeds it */
    b = cJSON_AddObjectToObject(r, "baseline");
    cJSON_AddNumberToObject(b, "throughput_bps", 100e6);
    cJSON_AddNumberToObject(b, "tolerance_pct", 5);
    dg_in_from_json(r, &in);
    dg_run(&in, &rep);
    assert_true(dg_report_has(&rep, DG_BASELINE_REGRESSION));
    dg_report_free(&rep);
    cJSON_GetObjectItem(b, "tolerance_pct")->valuedouble = 25;
    dg_in_from_json(r, &in);
    dg_run(&in, &rep);
    assert_false(dg_report_has(&rep, DG_BASELINE_REGRESSION));
    dg_report_free(&rep);
    cJSON_Delete(r);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

static char *slurp_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = calloc(1, 1 << 16);
    assert_non_null(buf);
    if (!f) {
        free(buf);
        return NULL;
    }
    buf[fread(buf, 1, (1 << 16) - 1, f)] = '\0';
    fclose(f);
    return buf;
}

/* run bl_auto; its printed lines in *text (caller frees) */
static int auto_lookup(const cJSON *r, const char *dir, const char *run_dir, cJSON **d, char **text)
{
    /* a tmpfile, not open_memstream: cmocka's free() checks its own guard
     * blocks and would trip on libc's buffer */
    FILE *out = tmpfile();
    size_t n;
    assert_non_null(out);
    int rc = bl_auto(r, dir, run_dir, d, out, out);
    *text = calloc(1, 1 << 16);
    assert_non_null(*text);
    rewind(out);
    n = fread(*text, 1, (1 << 16) - 1, out);
    (*text)[n] = '\0';
    fclose(out);
    return rc;
}

/* `gemlab diagnose` on a damaged results.json: the error once, exit 2,
 * and no warning about a stored baseline "above" (the lookup printed the
 * error first, then the warning, then the diagnosis printed it again). */
static void test_diagnose_of_a_damaged_results_file_says_so_once(void **state)
{
    char dir[64], path[128], msg[2048];
    char *argv[] = { dir, NULL };
    const char *p;
    int lines = 0;

    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/gemlab-bl-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/results.json", dir);
    write_file(path, "{\"schema\":\"gemlab-results-2\",\"link\":{\"up\":\"yes\"}}");
    assert_int_equal(run_cmd(cmd_diagnose, 1, argv, msg, sizeof(msg)), 2);
    for (p = msg; (p = strstr(p, "\"link.up\" is not true or false")); p++)
        lines++;
    assert_int_equal(lines, 1);
    assert_null(strstr(msg, "baseline above"));
    rm_tree(dir);
}

static void test_auto_lookup(void **state)
{
    (void)state;
    char dir[] = "/tmp/gemlab-bl-auto.XXXXXX", path[512], rundir[600], cmp[700], *text, *j;
    const double runs[] = { 100e6, 101e6, 99e6 };
    cJSON *bl = baseline_of(runs, 3, 5, 3), *r, *d;
    struct dg_in in;
    struct dg_report rep;

    assert_non_null(mkdtemp(dir));
    snprintf(rundir, sizeof(rundir), "%s/run", dir);
    assert_int_equal(mkdir(rundir, 0700), 0);
    snprintf(cmp, sizeof(cmp), "%s/baseline-compare.json", rundir);

    /* nothing stored: no comparison, no output, no file */
    r = results(80e6, 4, "h1");
    assert_int_equal(auto_lookup(r, dir, rundir, &d, &text), 0);
    assert_null(d);
    assert_string_equal(text, "");
    free(text);
    assert_int_not_equal(access(cmp, F_OK), 0);

    /* stored under the scenario's name: found without being named */
    {
        char name[64];
        bl_default_name(r, name, sizeof(name));
        assert_string_equal(name, "clean_1g");
    }
    snprintf(path, sizeof(path), "%s/zc702", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/zc702/baremetal", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/zc702/baremetal/clean_1g.json", dir);
    j = cJSON_Print(bl);
    write_file(path, j);
    cJSON_free(j);      /* libcjson's allocation, not cmocka's */

    /* 20 % below: regression printed, compare file written, rule fed */
    assert_int_equal(auto_lookup(r, dir, rundir, &d, &text), 1);
    assert_non_null(strstr(text, "REGRESSION"));
    assert_non_null(strstr(text, "clean_1g.json"));
    free(text);
    assert_non_null(d);
    assert_float_equal(cJSON_GetObjectItem(d, "throughput_bps")->valuedouble, 100e6, 1);
    j = slurp_file(cmp);
    assert_non_null(j);
    assert_non_null(strstr(j, "\"regression\""));
    free(j);
    cJSON_AddItemToObject(r, "baseline", d);
    dg_in_from_json(r, &in);
    dg_run(&in, &rep);
    assert_true(dg_report_has(&rep, DG_BASELINE_REGRESSION));
    dg_report_free(&rep);
    cJSON_Delete(r);

    /* within tolerance: ok, and the rule stays quiet */
    r = results(98e6, 4, "h1");
    assert_int_equal(auto_lookup(r, dir, rundir, &d, &text), 1);
    assert_non_null(strstr(text, ": OK:"));
    free(text);
    assert_non_null(d);
    cJSON_AddItemToObject(r, "baseline", d);
    dg_in_from_json(r, &in);
    dg_run(&in, &rep);
    assert_false(dg_report_has(&rep, DG_BASELINE_REGRESSION));
    dg_report_free(&rep);
    cJSON_Delete(r);

    /* other conditions (1 stream): said so, not compared, rule not fed */
    r = results(10e6, 1, "h1");
    assert_int_equal(auto_lookup(r, dir, rundir, &d, &text), 1);
    assert_non_null(strstr(text, "CONDITIONS DIFFER"));
    assert_non_null(strstr(text, "streams"));
    free(text);
    assert_null(d);
    j = slurp_file(cmp);
    assert_non_null(strstr(j, "\"conditions_differ\""));
    free(j);
    cJSON_Delete(r);

    /* $GEMLAB_BASELINE_DIR stands in for the repository's baselines/ */
    r = results(80e6, 4, "h1");
    setenv("GEMLAB_BASELINE_DIR", dir, 1);
    assert_int_equal(auto_lookup(r, NULL, NULL, &d, &text), 1);
    unsetenv("GEMLAB_BASELINE_DIR");
    free(text);
    assert_non_null(d);
    cJSON_Delete(d);

    /* another scenario has no baseline of its own */
    cJSON_SetValuestring(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "scenario"), "name"), "udp_jitter");
    assert_int_equal(auto_lookup(r, dir, rundir, &d, &text), 0);
    free(text);
    assert_null(d);
    /* a name that is no file name falls back to "default" */
    cJSON_SetValuestring(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "scenario"), "name"), "../x");
    {
        char name[64];
        bl_default_name(r, name, sizeof(name));
        assert_string_equal(name, "default");
    }
    cJSON_SetValuestring(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "scenario"), "name"), "clean_1g");

    /* named (diagnose --baseline NAME): the same verdict line and
     * baseline-compare.json as when found by the scenario's name */
    {
        char rpath[700], out_text[4096];
        size_t out_len;
        FILE *out = tmpfile();
        cJSON *r80 = results(80e6, 4, "h1");
        snprintf(rpath, sizeof(rpath), "%s/results.json", rundir);
        j = cJSON_Print(r80);
        write_file(rpath, j);
        cJSON_free(j);
        unlink(cmp);
        assert_non_null(out);
        assert_int_equal(bl_for_diagnosis(rundir, dir, "clean_1g", &d, out, out), 0);
        rewind(out);
        out_len = fread(out_text, 1, sizeof(out_text) - 1, out);
        out_text[out_len] = '\0';
        fclose(out);
        assert_non_null(strstr(out_text, "REGRESSION"));
        assert_non_null(d);
        cJSON_Delete(d);
        j = slurp_file(cmp);
        assert_non_null(j);
        assert_non_null(strstr(j, "\"regression\""));
        free(j);
        unlink(rpath);
        cJSON_Delete(r80);
    }

    /* a corrupt baseline is an error, not silence */
    write_file(path, "{not json");
    assert_int_equal(auto_lookup(r, dir, rundir, &d, &text), -EINVAL);
    assert_non_null(strstr(text, "clean_1g.json"));
    free(text);
    assert_null(d);
    cJSON_Delete(r);
    cJSON_Delete(bl);

    unlink(path);
    unlink(cmp);
    rmdir(rundir);
    snprintf(path, sizeof(path), "%s/zc702/baremetal", dir);
    rmdir(path);
    snprintf(path, sizeof(path), "%s/zc702", dir);
    rmdir(path);
    rmdir(dir);
}


/* D2: `gemlab baseline save` of one scenario from 8 processes at once,
 * SAVES times each, each save another run directory (one is saved once):
 * every save is kept (stats.n counts them all, after the one that was
 * there) and the file parses; no temporary is left. */
#define SAVERS 8
#define SAVES 4
static void test_parallel_saves_lose_nothing(void **state)
{
    (void)state;
    char dir[] = "/tmp/gemlab-bl-par.XXXXXX", rundir[600], path[700], *j;
    cJSON *r = results(100e6, 4, "h1"), *bl;
    int go[2], st, nfiles = 0;
    pid_t kids[SAVERS];
    DIR *d;
    struct dirent *e;

    assert_non_null(mkdtemp(dir));
    j = cJSON_Print(r);
    for (int i = 0; i <= SAVERS * SAVES; i++) {
        snprintf(rundir, sizeof(rundir), "%s/run%d", dir, i);
        assert_int_equal(mkdir(rundir, 0700), 0);
        snprintf(path, sizeof(path), "%s/results.json", rundir);
        write_file(path, j);
    }
    cJSON_free(j);
    cJSON_Delete(r);
    snprintf(rundir, sizeof(rundir), "%s/run0", dir);
    {   /* the previous count */
        struct bl_opts o = { .run_dir = rundir, .dir = dir, .min_pct = NAN, .mad_k = NAN };
        assert_int_equal(bl_save(&o, stdout, stderr), 0);
    }
    assert_int_equal(pipe(go), 0);
    fflush(NULL);
    for (int k = 0; k < SAVERS; k++) {
        kids[k] = fork();
        assert_true(kids[k] >= 0);
        if (kids[k] == 0) {
            struct bl_opts o = { .run_dir = rundir, .dir = dir, .min_pct = NAN, .mad_k = NAN };
            char c;
            int bad = 0;
            close(go[1]);
            if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
                _exit(3);
            if (read(go[0], &c, 1) < 0)     /* all start together */
                _exit(3);
            for (int n = 0; n < SAVES; n++) {
                snprintf(rundir, sizeof(rundir), "%s/run%d", dir, 1 + k * SAVES + n);
                bad |= bl_save(&o, stdout, stderr) != 0;
            }
            _exit(bad);
        }
    }
    close(go[0]);
    close(go[1]);
    for (int k = 0; k < SAVERS; k++) {
        assert_int_equal(waitpid(kids[k], &st, 0), kids[k]);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    }
    snprintf(path, sizeof(path), "%s/zc702/baremetal/clean_1g.json", dir);
    assert_int_equal(dg_load_json(path, &bl, stderr), 0);
    assert_int_equal((int)cJSON_GetObjectItem(cJSON_GetObjectItem(bl, "stats"), "n")->valuedouble,
                     1 + SAVERS * SAVES);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(bl, "runs")), 1 + SAVERS * SAVES);
    cJSON_Delete(bl);
    snprintf(path, sizeof(path), "%s/zc702/baremetal", dir);
    d = opendir(path);
    assert_non_null(d);
    while ((e = readdir(d))) {
        char p2[1024];
        if (e->d_name[0] == '.' && (!e->d_name[1] || !strcmp(e->d_name, "..")))
            continue;
        if (strcmp(e->d_name, "clean_1g.json") && strcmp(e->d_name, "clean_1g.json.lock"))
            fail_msg("left behind: %s", e->d_name);
        snprintf(p2, sizeof(p2), "%s/%s", path, e->d_name);
        unlink(p2);
        nfiles++;
    }
    closedir(d);
    assert_true(nfiles >= 1);
    rmdir(path);
    snprintf(path, sizeof(path), "%s/zc702", dir);
    rmdir(path);
    for (int i = 0; i <= SAVERS * SAVES; i++) {
        snprintf(rundir, sizeof(rundir), "%s/run%d", dir, i);
        snprintf(path, sizeof(path), "%s/results.json", rundir);
        unlink(path);
        rmdir(rundir);
    }
    rmdir(dir);
}

/* ---- bad input to save and compare (explore27 #2, #10, #13) ---- */

/* the text written to @f (rewound, then closed) in @buf */
static const char *drain(FILE *f, char *buf, size_t len)
{
    size_t n;

    rewind(f);
    n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* A scratch directory @top holding the run directory @top/run with @r as
 * its results.json */
static void make_run(char *top, size_t tlen, char *rundir, size_t rlen, const cJSON *r)
{
    char path[700], *j;

    snprintf(top, tlen, "/tmp/gemlab-bl-bad.XXXXXX");
    assert_non_null(mkdtemp(top));
    snprintf(rundir, rlen, "%s/run", top);
    assert_int_equal(mkdir(rundir, 0700), 0);
    snprintf(path, sizeof(path), "%s/results.json", rundir);
    j = cJSON_Print(r);
    write_file(path, j);
    cJSON_free(j);
}

/* bl_save (@compare: bl_compare_run) of @rundir into baselines under
 * @top, named @name (NULL: the scenario's); its messages in @msg */
static int save_msg(const char *rundir, const char *top, const char *name, bool compare, char *msg, size_t len)
{
    struct bl_opts o = { .run_dir = rundir, .dir = top, .name = name, .min_pct = NAN, .mad_k = NAN };
    FILE *err = tmpfile(), *out = tmpfile();
    char junk[4096];
    int rc;

    assert_non_null(err);
    assert_non_null(out);
    rc = compare ? bl_compare_run(&o, out, err) : bl_save(&o, out, err);
    drain(out, junk, sizeof(junk));
    drain(err, msg, len);
    return rc;
}

/* explore27 #2: a stored baseline whose "conditions" or "subject" was an
 * array crashed `baseline save` (NULL key of an array element, segfault).
 * Every member save and compare read is checked for type: the error names
 * the baseline file and the member. */
static void test_stored_baseline_of_the_wrong_shape_is_refused(void **state)
{
    static const struct { const char *member, *json, *say; } bad[] = {
        { "conditions", "[1,2]", "\"conditions\" is not an object" },
        { "subject", "[{\"a\":1}]", "\"subject\" is not an object" },
        { "subject", "\"x\"", "\"subject\" is not an object" },
        { "tolerance", "5", "\"tolerance\" is not an object" },
        { "stats", "[]", "\"stats\" is not an object" },
        { "runs", "{}", "\"runs\" is not an array" },
        { "runs", "[1]", "\"runs[0]\" is not an object" },
        { "runs", "[{\"throughput_bps\":\"x\"}]", "\"runs[0].throughput_bps\" is not a throughput" },
        { "runs", "[{\"throughput_bps\":-1}]", "\"runs[0].throughput_bps\" is not a throughput" },
        { "runs", "[{}]", "\"runs[0].throughput_bps\" is not a throughput" },
        /* in range too: a 1e300 b/s run, a tolerance past 100 % */
        { "runs", "[{\"throughput_bps\":1e300}]", "\"runs[0].throughput_bps\" is not a throughput" },
        { "tolerance", "{\"min_pct\":1e308}", "\"tolerance.min_pct\" is 1e+308, above 100" },
        { "tolerance", "{\"min_pct\":5,\"mad_k\":1e9}", "\"tolerance.mad_k\" is 1e+09, above 100" },
    };
    char top[64], rundir[128], path[700], msg[2048];
    cJSON *r = results(100e6, 4, "h1"), *bl;
    (void)state;

    make_run(top, sizeof(top), rundir, sizeof(rundir), r);
    assert_int_equal(save_msg(rundir, top, NULL, false, msg, sizeof(msg)), 0);
    snprintf(path, sizeof(path), "%s/zc702/baremetal/clean_1g.json", top);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char *text, want[1024];
        assert_int_equal(dg_load_json(path, &bl, stderr), 0);
        cJSON_ReplaceItemInObject(bl, bad[i].member, cJSON_Parse(bad[i].json));
        snprintf(want, sizeof(want), "%s/zc702/baremetal/bad.json: %s", top, bad[i].say);
        text = cJSON_Print(bl);
        snprintf(path, sizeof(path), "%s/zc702/baremetal/bad.json", top);
        write_file(path, text);
        cJSON_free(text);
        cJSON_Delete(bl);
        assert_int_equal(save_msg(rundir, top, "bad", false, msg, sizeof(msg)), -EINVAL);
        if (!strstr(msg, want))
            fail_msg("save, %s = %s: '%s', wanted '%s'", bad[i].member, bad[i].json, msg, want);
        assert_int_equal(save_msg(rundir, top, "bad", true, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, want));
        snprintf(path, sizeof(path), "%s/zc702/baremetal/clean_1g.json", top);
    }
    /* the library call itself takes a non-object as no keys */
    {
        cJSON *arr = cJSON_Parse("[1,2]"), *c = bl_conditions(r), *d = bl_conditions_diff(arr, c);
        const cJSON *it;
        assert_int_equal(cJSON_GetArraySize(d), cJSON_GetArraySize(c));
        cJSON_ArrayForEach(it, d)
            assert_true(cJSON_IsString(cJSON_GetObjectItem(it, "key")));
        cJSON_Delete(d);
        cJSON_Delete(c);
        cJSON_Delete(arr);
    }
    cJSON_Delete(r);
    rm_tree(top);
}

/* A stored baseline's "stats" is a summary for the reader: compare
 * judges by its runs (a hand-set median of 1 b/s read as a 10^10 %
 * improvement, a tolerance of -10 % as a regression of an equal run,
 * "runs": [] as OK "of 2 runs"). */
static void test_compare_judges_by_the_runs_not_the_stored_stats(void **state)
{
    char top[64], rundir[128], path[700], out_text[2048], msg[2048];
    cJSON *r = results(100e6, 4, "h1"), *bl;
    struct bl_opts o = { .name = "clean_1g", .min_pct = NAN, .mad_k = NAN };
    FILE *out, *err;
    char *text;
    (void)state;

    make_run(top, sizeof(top), rundir, sizeof(rundir), r);
    assert_int_equal(save_msg(rundir, top, NULL, false, msg, sizeof(msg)), 0);
    snprintf(path, sizeof(path), "%s/zc702/baremetal/clean_1g.json", top);
    assert_int_equal(dg_load_json(path, &bl, stderr), 0);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(bl, "stats"), "median_bps", cJSON_CreateNumber(1));
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(bl, "stats"), "tolerance_pct", cJSON_CreateNumber(-10));
    text = cJSON_Print(bl);
    write_file(path, text);
    cJSON_free(text);
    o.run_dir = rundir;
    o.dir = top;
    out = tmpfile();
    err = tmpfile();
    assert_int_equal(bl_compare_run(&o, out, err), 0);
    drain(out, out_text, sizeof(out_text));
    drain(err, msg, sizeof(msg));
    if (!strstr(out_text, ": OK: 100.00 Mb/s vs median 100.00 Mb/s of 1 run(s) (+0.0%"))
        fail_msg("compare: '%s' '%s'", out_text, msg);
    /* no runs: nothing to compare against, whatever the stats say */
    cJSON_ReplaceItemInObject(bl, "runs", cJSON_CreateArray());
    text = cJSON_Print(bl);
    write_file(path, text);
    cJSON_free(text);
    out = tmpfile();
    err = tmpfile();
    assert_int_not_equal(bl_compare_run(&o, out, err), 0);
    drain(out, out_text, sizeof(out_text));
    drain(err, msg, sizeof(msg));
    assert_null(strstr(out_text, ": OK:"));
    cJSON_Delete(bl);
    cJSON_Delete(r);
    rm_tree(top);
}

/* explore27 #10: bl_append checked only isnan: a negative throughput
 * shifted the median, an infinite one (1e400 in the file) was stored as
 * null.  Refused, naming results.json and the field. */
static void test_throughput_must_be_finite_and_not_negative(void **state)
{
    const double runs[] = { 100e6 };
    const double bad[] = { -5e6, INFINITY, -INFINITY, NAN };
    cJSON *bl = baseline_of(runs, 1, 5, 3), *r;
    char msg[1024];
    (void)state;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        FILE *err = tmpfile();
        assert_non_null(err);
        r = results(1, 4, "h1");
        cJSON_ReplaceItemInObject(cJSON_GetObjectItem(r, "iperf"), "throughput_bps", cJSON_CreateNumber(bad[i]));
        assert_int_equal(bl_append(bl, r, "b_neg", err), -EINVAL);
        drain(err, msg, sizeof(msg));
        assert_non_null(strstr(msg, "b_neg/results.json: iperf.throughput_bps"));
        cJSON_Delete(r);
    }
    r = results(1, 4, "h1");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(r, "iperf"), "throughput_bps", cJSON_CreateString("5"));
    assert_int_equal(bl_append(bl, r, "run", stderr), -EINVAL);
    cJSON_Delete(r);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(bl, "runs")), 1);
    /* zero is a measurement (nothing got through) */
    r = results(0, 4, "h1");
    assert_int_equal(bl_append(bl, r, "run", stderr), 0);
    cJSON_Delete(r);
    cJSON_Delete(bl);
}

/* explore27 #10: {"schema":"gemlab-results-2","iperf":{"throughput_bps":5}}
 * was saved as zc702/baremetal/default.json, board, firmware and name made
 * up.  Refused, naming the field; only the name has a flag (--name). */
static void test_save_does_not_make_up_board_firmware_or_name(void **state)
{
    static const struct { const char *path, *say; } drop[] = {
        { "scenario.resolved", "no scenario.resolved.board.profile" },
        { "conditions.firmware", "no conditions.firmware" },
    };
    char top[64], rundir[128], msg[2048], path[700];
    struct stat st;
    cJSON *r;
    (void)state;

    for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++) {
        r = results(100e6, 4, "h1");
        cJSON_DeleteItemFromObject(cJSON_GetObjectItem(r, i ? "conditions" : "scenario"), i ? "firmware" : "resolved");
        make_run(top, sizeof(top), rundir, sizeof(rundir), r);
        assert_int_equal(save_msg(rundir, top, "x", false, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "/run/results.json: "));
        assert_non_null(strstr(msg, drop[i].say));
        assert_int_equal(save_msg(rundir, top, "x", true, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, drop[i].say));
        snprintf(path, sizeof(path), "%s/zc702", top);
        assert_int_not_equal(stat(path, &st), 0);    /* nothing saved */
        cJSON_Delete(r);
        rm_tree(top);
    }
    /* no usable scenario name: refused without --name, saved with it */
    for (int i = 0; i < 2; i++) {
        r = results(100e6, 4, "h1");
        if (i)
            cJSON_ReplaceItemInObject(cJSON_GetObjectItem(r, "scenario"), "name", cJSON_CreateString("a b"));
        else
            cJSON_DeleteItemFromObject(cJSON_GetObjectItem(r, "scenario"), "name");
        make_run(top, sizeof(top), rundir, sizeof(rundir), r);
        assert_int_equal(save_msg(rundir, top, NULL, false, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "scenario.name"));
        assert_non_null(strstr(msg, "--name"));
        snprintf(path, sizeof(path), "%s/zc702/baremetal/default.json", top);
        assert_int_not_equal(stat(path, &st), 0);
        assert_int_equal(save_msg(rundir, top, "nightly", false, msg, sizeof(msg)), 0);
        snprintf(path, sizeof(path), "%s/zc702/baremetal/nightly.json", top);
        assert_int_equal(stat(path, &st), 0);
        cJSON_Delete(r);
        rm_tree(top);
    }
}

/* `gemlab baseline` (cmd_baseline.c) with @argv; exit code, stderr in @msg */
static int cli(char **argv, int argc, char *msg, size_t len)
{
    return run_cmd(cmd_baseline, argc, argv, msg, len);
}

/* explore27 #13: --tolerance and --mad-k went through strtod: "1e2",
 * "0x10", " 5" and "+5" were taken.  A plain decimal 0..1000 only, one
 * message naming the flag, exit 2. */
static void test_tolerance_flags_are_plain_decimals(void **state)
{
    static const char *const bad[] = { "1e2", "0x10", " 5", "+5", "-1", "5 ", "inf", "nan", "", "1000.5", "5%" };
    char top[64], rundir[128], msg[2048];
    cJSON *r = results(100e6, 4, "h1");
    (void)state;

    make_run(top, sizeof(top), rundir, sizeof(rundir), r);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        for (int k = 0; k < 2; k++) {
            const char *flag = k ? "--mad-k" : "--tolerance";
            char *argv[] = { "save", rundir, "--dir", top, (char *)flag, (char *)bad[i], NULL };
            char want[128];
            assert_int_equal(cli(argv, 6, msg, sizeof(msg)), 2);
            snprintf(want, sizeof(want), "gemlab baseline: %s wants a number 0..1000, got '%s'\n", flag, bad[i]);
            if (strcmp(msg, want))
                fail_msg("%s '%s': '%s'", flag, bad[i], msg);
        }
    {
        char *argv[] = { "save", rundir, "--dir", top, "--tolerance", "7.5", "--mad-k", "1000", NULL };
        assert_int_equal(cli(argv, 8, msg, sizeof(msg)), 0);
    }
    /* a value flag twice would silently take the last; --dir "" is "/" */
    {
        char *argv[] = { "compare", rundir, "--dir", top, "--name", "a", "--name", "b", NULL };
        assert_int_equal(cli(argv, 8, msg, sizeof(msg)), 2);
        assert_string_equal(msg, "gemlab baseline: --name given twice\n");
    }
    {
        char *argv[] = { "save", rundir, "--dir", "", NULL };
        assert_int_equal(cli(argv, 4, msg, sizeof(msg)), 2);
        assert_string_equal(msg, "gemlab baseline: --dir needs a value, not an empty string\n");
    }
    cJSON_Delete(r);
    rm_tree(top);
}

/* A run saved twice pulled the median towards it and shrank the MAD (the
 * audit: "2 run(s), MAD 0.00" from one run).  Saved once; the same
 * directory holding a later run (results.json rewritten) is a new run.
 * compare refuses save's flags instead of ignoring them, and save
 * compare's --json. */
static void test_a_run_is_saved_once(void **state)
{
    char top[64], rundir[128], msg[2048], path[700];
    cJSON *r = results(100e6, 4, "h1"), *bl;
    struct timespec later[2];
    (void)state;

    make_run(top, sizeof(top), rundir, sizeof(rundir), r);
    assert_int_equal(save_msg(rundir, top, "x", false, msg, sizeof(msg)), 0);
    assert_int_equal(save_msg(rundir, top, "x", false, msg, sizeof(msg)), -EEXIST);
    assert_non_null(strstr(msg, "/run: this run is in the baseline already (saved 20"));
    snprintf(path, sizeof(path), "%s/results.json", rundir);
    clock_gettime(CLOCK_REALTIME, &later[0]);
    later[0].tv_sec += 3600;     /* past the saved stamp whatever the wall clock does meanwhile */
    later[1] = later[0];
    assert_int_equal(utimensat(AT_FDCWD, path, later, 0), 0);
    assert_int_equal(save_msg(rundir, top, "x", false, msg, sizeof(msg)), 0);
    snprintf(path, sizeof(path), "%s/zc702/baremetal/x.json", top);
    assert_int_equal(dg_load_json(path, &bl, stderr), 0);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(bl, "runs")), 2);
    cJSON_Delete(bl);
    {
        char *argv[] = { "compare", rundir, "--dir", top, "--name", "x", "--tolerance", "50", NULL };
        assert_int_equal(cli(argv, 8, msg, sizeof(msg)), 2);
        assert_string_equal(msg, "gemlab baseline compare: --tolerance is for `baseline save` (compare uses the "
                                 "tolerance the baseline was saved with)\n");
    }
    {
        char *argv[] = { "save", rundir, "--dir", top, "--json", NULL };
        assert_int_equal(cli(argv, 5, msg, sizeof(msg)), 2);
        assert_string_equal(msg, "gemlab baseline save: --json is for `baseline compare`\n");
    }
    cJSON_Delete(r);
    rm_tree(top);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_median_mad),
        cmocka_unit_test(test_tolerance),
        cmocka_unit_test(test_regression_outside_tolerance_only),
        cmocka_unit_test(test_noisy_baseline_widens),
        cmocka_unit_test(test_conditions_differ),
        cmocka_unit_test(test_subject_change_is_compared),
        cmocka_unit_test(test_missing_throughput),
        cmocka_unit_test(test_hand_edited_run_count_is_not_cast_from_nan),
        cmocka_unit_test(test_path_and_diagnosis_rule),
        cmocka_unit_test(test_auto_lookup),
        cmocka_unit_test(test_parallel_saves_lose_nothing),
        cmocka_unit_test(test_schema2_conditions_read_from_truth),
        cmocka_unit_test(test_clock_and_cpu_speed_are_conditions),
        cmocka_unit_test(test_virtual_time_baseline_compares_exactly),
        cmocka_unit_test(test_diagnose_of_a_damaged_results_file_says_so_once),
        cmocka_unit_test(test_stored_baseline_of_the_wrong_shape_is_refused),
        cmocka_unit_test(test_compare_judges_by_the_runs_not_the_stored_stats),
        cmocka_unit_test(test_throughput_must_be_finite_and_not_negative),
        cmocka_unit_test(test_save_does_not_make_up_board_firmware_or_name),
        cmocka_unit_test(test_tolerance_flags_are_plain_decimals),
        cmocka_unit_test(test_a_run_is_saved_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
