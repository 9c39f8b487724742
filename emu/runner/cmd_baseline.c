/* cmd_baseline.c - `gemlab baseline`: options and exit codes; the work is in baseline.c. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "cmd.h"
#include "units.h"

static void usage(FILE *out)
{
    fputs("usage: gemlab baseline save RUN_DIR [--name N] [--dir D] [--tolerance PCT] [--mad-k K] [--replace]\n"
          "       gemlab baseline compare RUN_DIR [--name N] [--dir D] [--json]\n"
          "  baselines live in D/<board>/<firmware>/<name>.json (D: $GEMLAB_BASELINE_DIR, else the\n"
          "  repository's baselines/; name: the run's scenario, which `gemlab run` and `gemlab diagnose`\n"
          "  then compare against automatically).  save appends the run (same conditions only;\n"
          "  --replace starts over).  --tolerance: the floor, percent (default 5; 0 for a\n"
          "  virtual-time run, whose figures are exact); --mad-k: K x MAD widens it.\n"
          "  compare exit: 0 within tolerance (or better), 1 regression, 2 bad input,\n"
          "  4 conditions differ (not compared); save exit: 0 saved, 2 bad input, 4 conditions\n"
          "  differ from the stored runs (use --replace)\n",
          out);
}

/* A plain decimal 0..1000 (units.h: no sign, exponent or hex, which
 * strtod took: "1e2", "0x10", " 5"). */
static int parse_pos_double(const char *flag, const char *s, double *out)
{
    double v;

    if (un_parse_num(s, &v) || v > 1000) {
        fprintf(stderr, "gemlab baseline: %s wants a number 0..1000, got '%s'\n", flag, s);
        return -EINVAL;
    }
    *out = v;
    return 0;
}

int cmd_baseline(int argc, char **argv)
{
    struct cmd_seen seen = { .n = 0 };
    struct bl_opts o = { .min_pct = NAN, .mad_k = NAN };
    const char *sub;
    int rc;

    if (argc < 1) {
        usage(stderr);
        return 2;
    }
    sub = argv[0];
    if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
        usage(stdout);
        return 0;
    }
    if (strcmp(sub, "save") && strcmp(sub, "compare")) {
        fprintf(stderr, "gemlab baseline: unknown subcommand '%s' (save, compare)\n", sub);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        /* what one subcommand takes the other would ignore */
        if ((!strcmp(sub, "compare") && (!strcmp(a, "--tolerance") || !strcmp(a, "--mad-k") ||
                                         !strcmp(a, "--replace"))) ||
            (!strcmp(sub, "save") && !strcmp(a, "--json"))) {
            fprintf(stderr, "gemlab baseline %s: %s is for `baseline %s`%s\n", sub, a,
                    !strcmp(sub, "save") ? "compare" : "save",
                    !strcmp(sub, "save") ? "" : " (compare uses the tolerance the baseline was saved with)");
            return 2;
        }
        if (!strcmp(a, "--name") || !strcmp(a, "--dir") || !strcmp(a, "--tolerance") || !strcmp(a, "--mad-k")) {
            if (!has_val) {
                fprintf(stderr, "gemlab baseline: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            if (cmd_given_twice(&seen, "gemlab baseline", a))
                return 2;
            if (!*v && !strcmp(a, "--dir")) {   /* "" would be "/" */
                fprintf(stderr, "gemlab baseline: %s needs a value, not an empty string\n", a);
                return 2;
            }
            if (!strcmp(a, "--name")) {
                if (!bl_name_ok(v)) {
                    fprintf(stderr, "gemlab baseline: --name '%s': use letters, digits, - _ . + (no leading dot)\n", v);
                    return 2;
                }
                o.name = v;
            } else if (!strcmp(a, "--dir"))
                o.dir = v;
            else if (!strcmp(a, "--tolerance")) {
                if (parse_pos_double(a, v, &o.min_pct))
                    return 2;
            } else if (parse_pos_double(a, v, &o.mad_k))
                return 2;
        } else if (!strcmp(a, "--replace"))
            o.replace = true;
        else if (!strcmp(a, "--json"))
            o.json = true;
        else if (a[0] != '-' && !o.run_dir)
            o.run_dir = a;
        else {
            fprintf(stderr, "gemlab baseline %s: unexpected argument '%s'\n", sub, a);
            return 2;
        }
    }
    if (!o.run_dir) {
        fprintf(stderr, "gemlab baseline %s: no RUN_DIR given\n", sub);
        return 2;
    }

    if (!strcmp(sub, "save")) {
        rc = bl_save(&o, stdout, stderr);
        return !rc ? 0 : rc == -EXDEV ? BL_EXIT_CONDITIONS : 2;
    }
    rc = bl_compare_run(&o, stdout, stderr);
    if (rc < 0)
        return 2;
    return rc == BL_REGRESSION ? 1 : rc == BL_CONDITIONS_DIFFER ? BL_EXIT_CONDITIONS
           : rc == BL_NO_DATA ? 2 : 0;
}
