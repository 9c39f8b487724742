/* cmd_report.c - `gemlab report`: options and exit codes; the work is in report.c. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "report.h"

#define RP_MAX_RUNS 32

int cmd_report(int argc, char **argv)
{
    const char *dirs[RP_MAX_RUNS];
    struct rp_opts o = { .dirs = dirs, .out = NULL, .html = true };
    struct cmd_seen seen = { .n = 0 };

    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            puts("usage: gemlab report RUN_DIR... [--out DIR] [--no-html]\n"
                 "  each RUN_DIR gets report.md and report.html (charts by gnuplot, inlined SVG);\n"
                 "  with several, DIR/report.md and DIR/report.html put them side by side\n"
                 "  (DIR default " RP_OUT_DEFAULT "); with one, --out DIR takes its report instead\n"
                 "  of RUN_DIR.  exit: 0, 2 bad input, 3 gnuplot missing (no charts)");
            return 0;
        }
        if (!strcmp(argv[i], "--out")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gemlab report: --out needs a directory\n");
                return 2;
            }
            if (cmd_given_twice(&seen, "gemlab report", argv[i]))
                return 2;
            o.out = argv[++i];
        } else if (!strcmp(argv[i], "--no-html"))
            o.html = false;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "gemlab report: unexpected argument '%s'\n", argv[i]);
            return 2;
        } else if (o.n >= RP_MAX_RUNS) {
            fprintf(stderr, "gemlab report: at most %d run directories\n", RP_MAX_RUNS);
            return 2;
        } else
            dirs[o.n++] = argv[i];
    }
    if (!o.n) {
        fprintf(stderr, "gemlab report: no RUN_DIR given\n");
        return 2;
    }
    /* the library's 0, 2 and 3 are the exit codes */
    return rp_report(&o);
}
