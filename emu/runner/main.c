/*
 * main.c - the `gemlab` command line: subcommand dispatch and the small
 * commands (check, show, diagnose).  `run`, `boot`, `fault` and `tap`
 * live in run.c.
 *
 * Exit status (every subcommand): 0 success/PASS, 1 FAIL (expectations
 * not met, QEMU died, watchdog), 2 bad input (usage, scenario errors),
 * 3 something to build or install is missing, 130 interrupted.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "baseline.h"
#include "campaign.h"
#include "diagnose.h"
#include "merge.h"
#include "report.h"
#include "run.h"
#include "scenario.h"

static void usage(FILE *out)
{
    fputs("usage: gemlab COMMAND ...\n"
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
          "                             by the scenario's name)\n"
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
          "exit: 0 pass, 1 fail, 2 bad input, 3 missing build/tool, 130 interrupted\n",
          out);
}

static int cmd_check(int argc, char **argv)
{
    int bad = 0;

    if (argc < 1) {
        fprintf(stderr, "gemlab check: no scenario given\n");
        return RUN_EXIT_INPUT;
    }
    for (int i = 0; i < argc; i++) {
        static struct scenario s;
        if (scn_load(argv[i], &s, stderr))
            bad++;
        else
            printf("%s: ok\n", argv[i]);
    }
    return bad ? RUN_EXIT_INPUT : 0;
}

static int cmd_show(int argc, char **argv)
{
    static struct scenario s;
    cJSON *j;
    char *text;

    bool control = argc == 2 && !strcmp(argv[1], "--control");

    if (argc != 1 && !control) {
        fprintf(stderr, "gemlab show: expected one scenario [--control]\n");
        return RUN_EXIT_INPUT;
    }
    if (scn_load(argv[0], &s, stderr))
        return RUN_EXIT_INPUT;
    if (control) {
        static struct scenario c;
        if (scn_make_control(&s, &c, stderr))
            return RUN_EXIT_INPUT;
        s = c;
    }
    j = run_scenario_json(&s);
    text = cJSON_Print(j);
    puts(text);
    free(text);
    cJSON_Delete(j);
    return 0;
}

static int cmd_diagnose(int argc, char **argv)
{
    bool strict = false, auto_bl = true, blind = false;
    const char *dir = NULL, *bname = NULL, *bdir = NULL;
    cJSON *bl = NULL;
    int failed = 0, rc;

    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--strict") == 0)
            strict = true;
        else if (strcmp(argv[i], "--no-baseline") == 0)
            auto_bl = false;
        else if (strcmp(argv[i], "--blind") == 0)
            blind = true;
        else if ((!strcmp(argv[i], "--baseline") || !strcmp(argv[i], "--baseline-dir")) && i + 1 < argc) {
            if (!strcmp(argv[i], "--baseline"))
                bname = argv[++i];
            else
                bdir = argv[++i];
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
    if (bname && bl_for_diagnosis(dir, bdir, bname, &bl, stderr))
        return RUN_EXIT_INPUT;
    /* no --baseline: the scenario's own baseline when one is stored */
    if (!bname && auto_bl && !blind && bl_auto_dir(dir, bdir, &bl, stdout, stderr) < 0)
        return RUN_EXIT_INPUT;
    rc = dg_diagnose_dir_opts(dir, bl, blind, stdout, stderr, &failed);
    cJSON_Delete(bl);
    if (rc)
        return RUN_EXIT_INPUT;
    return strict && failed ? RUN_EXIT_FAIL : 0;
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
    { "report", rp_cmd, true },
    { "merge", mg_cmd, true },
    { "baseline", bl_cmd, true },
    { "campaign", cp_cmd, true },
    { "run", run_cmd_run, false },
    { "boot", run_cmd_boot, false },
    { "fault", run_cmd_fault, false },
    { "tap", run_cmd_tap, false },
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
            usage(stdout);
            return 0;
        }
        return c->fn(argc - 2, argv + 2);
    }
    fprintf(stderr, "gemlab: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return RUN_EXIT_INPUT;
}
