/* cmd_campaign.c - `gemlab campaign`: options and exit codes; the work is in campaign.c. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"
#include "cmd.h"
#include "run.h"
#include "qemu.h"
#include "units.h"
#include "util.h"

/* A plain decimal @min..@max (units.h: no sign or blank, which strtoull
 * took: "+2", " 2", and " -1" as 2^64-1); one message naming @flag. */
static int parse_u(const char *flag, const char *v, unsigned long long min, unsigned long long max,
                   unsigned long long *out)
{
    uint64_t u;

    if (un_parse_u64(v, &u) || u < min || u > max) {
        fprintf(stderr, "gemlab campaign: %s: '%s' is not a whole number in %llu..%llu\n", flag, v, min, max);
        return -EINVAL;
    }
    *out = u;
    return 0;
}

static void usage(FILE *f)
{
    fputs("usage: gemlab campaign [--runs N] [--seed S] [--faults LIST] [--pairs]\n"
          "                       [--firmware baremetal|linux|all] [--duration SEC] [--out DIR]\n"
          "                       [--only K] [--dry-run] [--min-recall PCT] [--min-precision PCT]\n"
          "                       [--qemu PATH] [--timeout SEC] [--clock real|virtual]\n"
          "  Draws N scenarios from the fault space (LIST: comma-separated names below; default all\n"
          "  that run on the firmware), runs each with `gemlab run`, diagnoses its results.json blind\n"
          "  (without `scenario` and `truth`) and scores the codes against the injected faults.\n"
          "  Sample K depends only on (S, K): --only K reruns one miss.  Writes DIR/campaign.json,\n"
          "  campaign.md, campaign.html and DIR/sample-NNN/{scenario.ini,run/,run.log} (NNN: 000, 001, ...)\n"
          "  (DIR default build/campaign).  --dry-run writes the scenarios only.\n"
          "  --clock virtual: bare-metal samples in virtual time against the in-emulator peer\n"
          "  (default --duration 2), only the faults it can run (docs/CAMPAIGN.md).\n"
          "  exit: 0 done and every bar met, 1 a run errored, a clean sample named a physical,\n"
          "  MAC or protocol code, or a --min-* bar was missed, 2 bad input\n"
          "  faults (* real time only):",
          f);
    for (int i = 0; i < cp_nfaults(); i++)
        fprintf(f, "%s %s%s", i % 4 ? "," : (i ? ",\n   " : ""), cp_fault_name(i), cp_fault_vt(i) ? "" : "*");
    fputc('\n', f);
}

int cmd_campaign(int argc, char **argv)
{
    struct cp_campaign_opts co = {
        .o = { .seed = 1, .runs = 20, .fw_mask = CP_FW_BAREMETAL, .duration_s = 6 },
        .out = "build/campaign",
        .only = -1,
        .min_recall = NAN,
        .min_precision = NAN,
    };
    struct cp_opts *o = &co.o;
    unsigned long long v;
    bool duration_set = false;
    struct cmd_seen seen = { .n = 0 };
    char cmdline[1024];
    size_t cl = 0;

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = strcmp(a, "--pairs") && strcmp(a, "--dry-run") && strcmp(a, "-h") && strcmp(a, "--help");
        if (takes && !val) {
            fprintf(stderr, "gemlab campaign: %s needs a value\n", a);
            return RUN_EXIT_INPUT;
        }
        if (takes && cmd_given_twice(&seen, "gemlab campaign", a))
            return RUN_EXIT_INPUT;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return RUN_EXIT_PASS;
        } else if (!strcmp(a, "--pairs")) {
            o->pairs = true;
        } else if (!strcmp(a, "--dry-run")) {
            co.dry = true;
        } else if (!strcmp(a, "--runs")) {
            if (parse_u(a, val, 1, 100000, &v))
                return RUN_EXIT_INPUT;
            o->runs = (unsigned)v;
        } else if (!strcmp(a, "--seed")) {
            if (parse_u(a, val, 0, UINT64_MAX, &v))
                return RUN_EXIT_INPUT;
            o->seed = v;
        } else if (!strcmp(a, "--only")) {
            if (parse_u(a, val, 0, 100000, &v))
                return RUN_EXIT_INPUT;
            co.only = (long)v;
        } else if (!strcmp(a, "--duration")) {
            if (parse_u(a, val, 2, 600, &v))   /* seconds */
                return RUN_EXIT_INPUT;
            o->duration_s = (unsigned)v;
            duration_set = true;
        } else if (!strcmp(a, "--clock")) {
            if (strcmp(val, "virtual") && strcmp(val, "real")) {
                fprintf(stderr, "gemlab campaign: --clock: '%s' is not real or virtual\n", val);
                return RUN_EXIT_INPUT;
            }
            o->vt = !strcmp(val, "virtual");
        } else if (!strcmp(a, "--timeout")) {
            if (parse_u(a, val, 1, 86400, &v))     /* seconds */
                return RUN_EXIT_INPUT;
            co.timeout_s = (unsigned)v;
        } else if (!strcmp(a, "--min-recall") || !strcmp(a, "--min-precision")) {
            if (parse_u(a, val, 0, 100, &v))
                return RUN_EXIT_INPUT;
            *(!strcmp(a, "--min-recall") ? &co.min_recall : &co.min_precision) = (double)v;
        } else if (!strcmp(a, "--firmware")) {
            if (!strcmp(val, "baremetal"))
                o->fw_mask = CP_FW_BAREMETAL;
            else if (!strcmp(val, "linux"))
                o->fw_mask = CP_FW_LINUX;
            else if (!strcmp(val, "all"))
                o->fw_mask = CP_FW_BAREMETAL | CP_FW_LINUX;
            else {
                fprintf(stderr, "gemlab campaign: --firmware: '%s' is not baremetal, linux or all\n", val);
                return RUN_EXIT_INPUT;
            }
        } else if (!strcmp(a, "--faults")) {
            char buf[512], *rest = buf, *t;
            int k = 0;
            if (snprintf(buf, sizeof(buf), "%s", val) >= (int)sizeof(buf)) {
                fprintf(stderr, "gemlab campaign: --faults: the list is longer than %zu bytes\n", sizeof(buf) - 1);
                return RUN_EXIT_INPUT;
            }
            /* NAME[,NAME]...: an empty name (",," or a comma at either
             * end) is a typo, not nothing */
            while ((t = strsep(&rest, ","))) {
                int fi;
                k++;
                t += strspn(t, " ");
                for (size_t e = strlen(t); e && t[e - 1] == ' '; e--)
                    t[e - 1] = '\0';
                if (!*t) {
                    fprintf(stderr, "gemlab campaign: --faults '%s': name %d is empty\n", val, k);
                    return RUN_EXIT_INPUT;
                }
                if ((fi = cp_fault_lookup(t)) < 0) {
                    fprintf(stderr, "gemlab campaign: --faults: unknown fault '%s' (see gemlab campaign --help)\n", t);
                    return RUN_EXIT_INPUT;
                }
                o->fault_mask |= UINT64_C(1) << fi;
            }
            if (!o->fault_mask) {
                fprintf(stderr, "gemlab campaign: --faults: empty list\n");
                return RUN_EXIT_INPUT;
            }
        } else if (!strcmp(a, "--out")) {
            co.out = val;
        } else if (!strcmp(a, "--qemu")) {
            co.qemu = val;
        } else {
            fprintf(stderr, "gemlab campaign: unexpected argument '%s'\n", a);
            usage(stderr);
            return RUN_EXIT_INPUT;
        }
        if (takes)
            i++;
    }
    if (o->vt && (o->fw_mask & CP_FW_LINUX)) {
        fprintf(stderr, "gemlab campaign: --clock virtual: bare metal only (the campaign does not run the Linux "
                        "image in virtual time yet; `gemlab run` does, the vt_linux_* scenarios: docs/CAMPAIGN.md)\n");
        return RUN_EXIT_INPUT;
    }
    if (o->vt && !duration_set)
        o->duration_s = 2;   /* exact figures: a few virtual seconds are enough */
    cl += (size_t)snprintf(cmdline, sizeof(cmdline), "gemlab campaign");
    for (int i = 0; i < argc && cl < sizeof(cmdline); i++)
        cl += (size_t)snprintf(cmdline + cl, sizeof(cmdline) - cl, " %s", argv[i]);
    co.cmdline = cmdline;
    if (!co.dry) {
        /* every sample would fail the same way (exit 3, as root with no
         * --qemu): say it once, as `gemlab run` would */
        char top[PATH_MAX], qemu[PATH_MAX];
        runner_find_top(top, sizeof(top));
        if (qemu_find(top, co.qemu, qemu, sizeof(qemu)))
            return RUN_EXIT_MISSING;
    }
    /* cp_campaign's RUN_EXIT_* code is the exit code */
    return cp_campaign(&co, stdout, stderr);
}
