/*
 * cmd_run.c - `gemlab run SCENARIO` and `gemlab boot`: their options and
 * exit codes (RUN_EXIT_*, run.h); the work is run.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "run.h"
#include "units.h"

/* Is @a one of the space-separated words of @allowed?  (strstr alone
 * took "--f" for "--fw" and "--" for any flag.) */
static bool flag_in(const char *allowed, const char *a)
{
    size_t n = strlen(a);

    for (const char *p = allowed; (p = strstr(p, a)); p += n)
        if ((p == allowed || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

/* Parse "--flag VALUE" pairs.  @allowed lists the accepted flags; each
 * may be given once (cmd_given_twice). */
static int parse_opts(int argc, char **argv, const char *allowed, struct run_opts *o, bool want_positional)
{
    struct cmd_seen seen = { .n = 0 };

    memset(o, 0, sizeof(*o));
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *val;
        if (a[0] != '-') {
            if (!want_positional || o->scenario) {
                fprintf(stderr, "gemlab: unexpected argument '%s'\n", a);
                return -EINVAL;
            }
            o->scenario = a;
            continue;
        }
        if (!flag_in(allowed, a) || a[1] != '-') {
            fprintf(stderr, "gemlab: unknown option '%s'\n", a);
            return -EINVAL;
        }
        if (cmd_given_twice(&seen, "gemlab", a))
            return -EINVAL;
        if (!strcmp(a, "--control")) {
            o->control = true;     /* a flag: the scenario's negative control */
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "gemlab: %s needs a value\n", a);
            return -EINVAL;
        }
        val = argv[++i];
        if (!strcmp(a, "--firmware")) {
            if (strcmp(val, "baremetal") && strcmp(val, "linux")) {
                fprintf(stderr, "gemlab: --firmware: '%s' is not baremetal|linux\n", val);
                return -EINVAL;
            }
            o->firmware = val;
        } else if (!strcmp(a, "--net")) {
            if (strcmp(val, "user") && strcmp(val, "tap") && strcmp(val, "pair") && strcmp(val, "sim") &&
                strcmp(val, "idle")) {
                fprintf(stderr, "gemlab: --net: '%s' is not user|tap|pair|sim|idle\n", val);
                return -EINVAL;
            }
            o->net = val;
        } else if (!strcmp(a, "--clock")) {
            if (strcmp(val, "real") && strcmp(val, "virtual")) {
                fprintf(stderr, "gemlab: --clock: '%s' is not real|virtual\n", val);
                return -EINVAL;
            }
            o->clock = val;
        } else if (!strcmp(a, "--seed")) {
            if (un_parse_u64(val, &o->seed)) {
                fprintf(stderr, "gemlab: --seed: '%s' is not a whole number in [0, 2^64)\n", val);
                return -EINVAL;
            }
            o->have_seed = true;
        } else if (!strcmp(a, "--timeout") || !strcmp(a, "--hold")) {
            uint64_t v;
            if (un_parse_u64(val, &v) || v > 86400 || (v == 0 && !strcmp(a, "--timeout"))) {
                fprintf(stderr, "gemlab: %s: '%s' is not a number of seconds in [%d, 86400]\n", a, val,
                        !strcmp(a, "--timeout"));
                return -EINVAL;
            }
            if (!strcmp(a, "--timeout"))
                o->timeout_s = (int)v;
            else
                o->hold_s = (int)v;
        } else if (!strcmp(a, "--out")) {
            o->out = val;
        } else if (!strcmp(a, "--qemu")) {
            o->qemu = val;
        } else if (!strcmp(a, "--fw")) {
            o->fw = val;
        } else {
            fprintf(stderr, "gemlab: unknown option '%s'\n", a);
            return -EINVAL;
        }
    }
    return 0;
}

int cmd_run(int argc, char **argv)
{
    struct run_opts o;

    if (parse_opts(argc, argv, "--firmware --net --seed --out --qemu --fw --timeout --control --clock", &o, true))
        return RUN_EXIT_INPUT;
    if (!o.scenario) {
        fprintf(stderr, "gemlab run: no scenario given\n");
        return RUN_EXIT_INPUT;
    }
    return run_scenario(&o);
}

int cmd_boot(int argc, char **argv)
{
    struct run_opts o;

    if (parse_opts(argc, argv, "--qemu --fw --out --hold --timeout", &o, false))
        return RUN_EXIT_INPUT;
    return run_boot(&o);
}
