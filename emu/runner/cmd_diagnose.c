/* cmd_diagnose.c - `gemlab diagnose`: options and exit codes; the work is in diagnose.c and baseline.c. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "baseline.h"
#include "cmd.h"
#include "diagnose.h"
#include "run.h"
#include "util.h"

/* The run's results.json can be read and parsed: without it there is no
 * baseline to look for, and the diagnosis says why it cannot run (once:
 * a damaged file was reported by the baseline lookup, then again, with a
 * warning about a baseline nobody had shown). */
static bool results_readable(const char *dir)
{
    char p[PATH_MAX];
    cJSON *root = NULL;
    bool ok;

    if ((size_t)snprintf(p, sizeof(p), "%s/results.json", dir) >= sizeof(p) || access(p, R_OK))
        return false;
    {
        /* its errors are the diagnosis's to print */
        FILE *quiet = fopen("/dev/null", "w");
        if (!quiet)
            return true;
        ok = dg_load_results(p, &root, quiet) == 0;
        fclose(quiet);
    }
    cJSON_Delete(root);
    return ok;
}

int cmd_diagnose(int argc, char **argv)
{
    bool strict = false, auto_bl = true, blind = false;
    const char *dir = NULL, *bname = NULL, *bdir = NULL;
    cJSON *bl = NULL;
    struct cmd_seen seen = { .n = 0 };
    int failed = 0, rc;

    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--strict") == 0)
            strict = true;
        else if (strcmp(argv[i], "--no-baseline") == 0)
            auto_bl = false;
        else if (strcmp(argv[i], "--blind") == 0)
            blind = true;
        else if ((!strcmp(argv[i], "--baseline") || !strcmp(argv[i], "--baseline-dir")) && i + 1 < argc) {
            const char **slot = !strcmp(argv[i], "--baseline") ? &bname : &bdir;
            if (cmd_given_twice(&seen, "gemlab diagnose", argv[i]))
                return RUN_EXIT_INPUT;
            *slot = argv[++i];
            /* a name, as `baseline --name` takes it: never a path */
            if (slot == &bname && !bl_name_ok(bname)) {
                fprintf(stderr, "gemlab diagnose: --baseline '%.60s': use letters, digits, - _ . + "
                                "(no leading dot)\n", bname);
                return RUN_EXIT_INPUT;
            }
        }
        else if (!strcmp(argv[i], "--baseline") || !strcmp(argv[i], "--baseline-dir")) {
            fprintf(stderr, "gemlab diagnose: %s needs a value\n", argv[i]);
            return RUN_EXIT_INPUT;
        }
        else if (!dir && argv[i][0] != '-')
            dir = argv[i];
        else {
            fprintf(stderr, "gemlab diagnose: unexpected argument '%s'\n", argv[i]);
            return RUN_EXIT_INPUT;
        }
    }
    if (!dir) {
        fprintf(stderr, "gemlab diagnose: no RUN_DIR given\n");
        return RUN_EXIT_INPUT;
    }
    if (bdir) {
        /* a directory that is not there held no baseline: a typo, not
         * "no baseline stored" */
        struct stat st;
        int e = stat(bdir, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
        if (e) {
            fprintf(stderr, "gemlab diagnose: --baseline-dir %s: %s\n", bdir, strerror(e));
            return RUN_EXIT_INPUT;
        }
        if (!auto_bl || blind) {
            fprintf(stderr, "gemlab diagnose: --baseline-dir and %s exclude each other\n",
                    blind ? "--blind" : "--no-baseline");
            return RUN_EXIT_INPUT;
        }
    }
    /* a run that did not finish (killed, or its results could not be
     * written): its results.json is an earlier run's or none, as report
     * and baseline save refuse it */
    if (runner_run_incomplete(dir, stderr))
        return RUN_EXIT_INPUT;
    if (bname && (!auto_bl || blind)) {
        fprintf(stderr, "gemlab diagnose: --baseline and %s exclude each other\n",
                blind ? "--blind" : "--no-baseline");
        return RUN_EXIT_INPUT;
    }
    if (bname && bl_for_diagnosis(dir, bdir, bname, &bl, stdout, stderr))
        return RUN_EXIT_INPUT;
    /* no --baseline: the scenario's own baseline when one is stored; one
     * that cannot be read (its message says why) leaves the diagnosis
     * without a baseline, as `gemlab run` does, rather than without a
     * diagnosis.  A baseline asked for by name must be read. */
    if (!bname && auto_bl && !blind && results_readable(dir) && bl_auto_dir(dir, bdir, &bl, stdout, stderr) < 0) {
        fprintf(stderr, "gemlab diagnose: warning: the stored baseline above is not used (--no-baseline "
                        "silences this)\n");
        bl = NULL;
    }
    rc = dg_diagnose_dir_opts(dir, bl, blind, stdout, stderr, &failed);
    cJSON_Delete(bl);
    if (rc)
        return RUN_EXIT_INPUT;
    return strict && failed ? RUN_EXIT_FAIL : 0;
}
