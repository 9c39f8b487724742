/*
 * main.c - the `gemlab` command line: usage and the subcommand table.
 * Each subcommand's options and exit codes are in cmd_NAME.c (cmd.h); the
 * work is the library's (libgemlab, the rest of emu/runner/).
 *
 * Exit status (every subcommand): 0 success/PASS, 1 FAIL (expectations
 * not met, QEMU died, watchdog), 2 bad input (usage, scenario errors),
 * 3 something to build or install is missing, 130 interrupted.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "run.h"

static const char USAGE[] =
          "usage: gemlab COMMAND ...\n"
          "  check SCENARIO...          validate scenario files (errors as FILE:LINE)\n"
          "  show SCENARIO [--control]  print the scenario (or its negative control), defaults filled in, as JSON\n"
          "  run SCENARIO [--firmware baremetal|linux] [--net user|tap|pair|sim|idle] [--seed N]\n"
          "               [--out DIR] [--qemu PATH] [--fw PATH] [--timeout SEC] [--control]\n"
          "               [--clock real|virtual]  (virtual: docs/VIRTUAL_TIME.md)\n"
          "                             boot, apply the timeline, run iperf, diagnose\n"
          "                             (--control: the scenario's negative control, its [control])\n"
          "  diagnose RUN_DIR [--strict] [--blind] [--baseline NAME | --no-baseline] [--baseline-dir D]\n"
          "                             (default: baselines/<board>/<fw>/<scenario>.json if stored)\n"
          "                             layered diagnosis of RUN_DIR/results.json; --blind removes\n"
          "                             its \"scenario\" and \"truth\" first and writes\n"
          "                             diagnosis-blind.json (no automatic baseline: it is found\n"
          "                             by the scenario's name); exit 0 when it could diagnose,\n"
          "                             whatever it found; --strict: 1 when an expectation failed\n"
          "  baseline save|compare RUN_DIR [--name N] [--dir D]\n"
          "                             noise-aware throughput baselines (baselines/)\n"
          "  merge [--out DIR] [--expect-shards N] INPUT...\n"
          "                             merge qemu-test shard outputs: JUnit, report.md, index\n"
          "  report RUN_DIR... [--out DIR] report.md + report.html (gnuplot charts) per run;\n"
          "                             several runs side by side in DIR\n"
          "  fault RUN_DIR ACTION...    change a running instance: link up|down,\n"
          "                             flap DUR, set KEY VALUE, restart-aneg, starve-rx DUR\n"
          "  boot [--qemu PATH] [--fw PATH] [--out DIR] [--hold SEC] [--timeout SEC]\n"
          "                             boot QEMU (paused without --fw), check QMP, stop\n"
          "  tap up|down [NAME]         private netns + tap for --net tap (root)\n"
          "  campaign [--runs N] [--seed S] [--faults LIST] [--pairs] [--out DIR] ...\n"
          "                             random faults, each run diagnosed blind and scored\n"
          "                             (precision/recall per code; --help for the rest)\n"
          "  schema                     the results.json fields as a Markdown table (docs/schema.md)\n"
          "exit: 0 pass, 1 fail, 2 bad input, 3 missing build/tool, 4 baseline conditions differ (baseline compare),\n      130 interrupted\n";

static void usage(FILE *out)
{
    fputs(USAGE, out);
}

/* `gemlab NAME --help`: NAME's entry of USAGE (its line, "  NAME ...",
 * and the deeper-indented lines under it) and the exit codes. */
static void usage_of(const char *name, FILE *out)
{
    size_t n = strlen(name);
    bool in = false, in_exit = false;

    for (const char *l = USAGE; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
        bool head = l[0] == ' ' && l[1] == ' ' && l[2] != ' ';
        if (head)
            in = !strncmp(l + 2, name, n) && (l[2 + n] == ' ' || l[2 + n] == '\n');
        else if (l[0] != ' ')
            in = false;
        /* the exit codes, with their continuation lines */
        if (l[0] != ' ')
            in_exit = !strncmp(l, "exit:", 5);
        if (in && head)
            fprintf(out, "usage: gemlab %.*s", (int)len - 2, l + 2);
        else if (in || in_exit)
            fprintf(out, "%.*s", (int)len, l);
        l += len;
    }
}

/* The subcommands; own_help: it answers --help itself. */
static const struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    bool own_help;
} commands[] = {
    { "check", cmd_check, false },
    { "show", cmd_show, false },
    { "diagnose", cmd_diagnose, false },
    { "report", cmd_report, true },
    { "merge", cmd_merge, true },
    { "baseline", cmd_baseline, true },
    { "campaign", cmd_campaign, true },
    { "run", cmd_run, false },
    { "boot", cmd_boot, false },
    { "fault", cmd_fault, false },
    { "tap", cmd_tap, false },
    { "schema", cmd_schema, false },
};

int main(int argc, char **argv)
{
    /* run directories, logs and results are private to the user */
    umask(077);
    if (argc < 2) {
        usage(stderr);
        return RUN_EXIT_INPUT;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        const struct command *c = &commands[i];

        if (strcmp(argv[1], c->name))
            continue;
        if (!c->own_help && argc > 2 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
            usage_of(c->name, stdout);
            return 0;
        }
        return c->fn(argc - 2, argv + 2);
    }
    fprintf(stderr, "gemlab: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return RUN_EXIT_INPUT;
}
