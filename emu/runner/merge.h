/*
 * merge.h - `gemlab merge`: merge the outputs of `qemu-test.sh SHARD=k/N`
 * (JUnit files and run directories) into one JUnit file, one report.md,
 * one index.html and index.json, with one verdict.
 *
 * A shard is identified by its JUnit testsuite name qemu-test-K-of-N (or
 * the file name qemu-test-K-of-N.xml; a plain qemu-test suite is 1/1).  A
 * name that ends in -K-of-N outside 1 <= K <= N <= MG_MAX_SHARDS, and a
 * time attribute that is not a number of seconds 0..MG_MAX_TIME_S, make
 * the file unreadable (naming it).  A suite without test cases is a shard
 * that drew no scenario (qemu-test.sh slices by a hash of the name) and
 * counts.
 * The merged verdict is FAIL when any testcase failed, when a shard of
 * 1..N is missing or given twice, when suites disagree on N, when a
 * scenario ran in two shards, or when a run directory is incomplete (it
 * holds run.in-progress: the run was killed or could not write its
 * results).
 *
 * A skip is not a pass (issue 20): a <skipped> case is counted apart, as
 * skipped, and listed with its reason.  One whose message starts with
 * "TODO" is a scenario marked `todo` (a known gap; qemu-test.sh writes
 * it so) and is counted as todo.  With skips_fail (gemlab merge sets it
 * when CI=true) every skip that is not a todo also fails the merge.
 */
#ifndef GEMLAB_RUNNER_MERGE_H
#define GEMLAB_RUNNER_MERGE_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#define MG_MAX_SHARDS 256
/* a JUnit time="..." at most (about 31 years): over any number of cases
 * the totals stay finite and print as digits */
#define MG_MAX_TIME_S 1e9

enum mg_status { MG_PASS, MG_FAIL, MG_SKIP, MG_TODO };

struct mg_case {
    char *classname, *name; /* whole (owned): cut, two long names were one case */
    char why[192];          /* <skipped message=...>, references decoded */
    enum mg_status status;
    double time;
    int shard;
};

struct mg_suite {
    char name[128], file[512];
    int k, n;               /* shard k of n */
    double time;
    char *xml;              /* "<testsuite ...>...</testsuite>" (owned), as libxml2 writes it */
    int declared_failed;    /* its failures= + errors=, -1 when it gives neither */
    int failed_cases;       /* its <testcase>s holding <failure> or <error> */
};

struct mg {
    struct mg_suite *suites;
    int nsuites;
    struct mg_case *cases;
    int ncases;
    int expect_n;           /* --expect-shards, 0 = from the suites */
    bool skips_fail;        /* a skip (not a todo) fails the merge: CI=true */
    cJSON *incomplete;      /* run directories holding run.in-progress (strings, owned) */
    cJSON *unreadable;      /* run directories whose results.json did not load (strings, owned) */
    /* results of mg_evaluate */
    int n, tests, passed, failed, skipped, todo;
    double time;
    cJSON *problems;        /* array of strings: missing shards, duplicates,
                               skips under skips_fail */
    bool pass;
};

/* Parse every <testsuite> in @text (a JUnit file read from @file). */
int mg_add_junit(struct mg *m, const char *text, const char *file, FILE *err);
/* Totals, missing/duplicate shards and cases, the verdict. */
void mg_evaluate(struct mg *m);
void mg_free(struct mg *m);

/* `gemlab merge` (options: cmd_merge.c) */
struct mg_opts {
    const char *const *inputs;  /* shard output directories and JUnit files */
    int ninputs;
    const char *out;            /* directory of the merged outputs (created) */
    int expect_n;               /* --expect-shards, 0 = from the suites */
    bool skips_fail;            /* a skip (not a todo) fails the merge */
};
/* Read every input, evaluate, write OUT/junit.xml, report.md, index.html
 * and index.json; the problems go to @err, the verdict line to @out.
 * Returns 0 with *@pass the verdict, or a negative errno when an input
 * cannot be read or the outputs cannot be written (message on @err). */
int mg_merge(const struct mg_opts *o, bool *pass, FILE *out, FILE *err);

#endif
