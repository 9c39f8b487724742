/*
 * cmd.h - the `gemlab` subcommands (main.c's table).  Each takes the
 * arguments after its name, parses them, calls the library (libgemlab:
 * the rest of emu/runner/) and returns the exit status: 0 success/PASS,
 * 1 FAIL, 2 bad input, 3 something missing, 130 interrupted (RUN_EXIT_*,
 * run.h; `gemlab baseline` adds 4, BL_EXIT_CONDITIONS).
 *
 * Only cmd_*.c parse argv, print usage and choose exit codes; the library
 * does neither and never exits.
 */
#ifndef GEMLAB_RUNNER_CMD_H
#define GEMLAB_RUNNER_CMD_H

#include <stdbool.h>

/* A flag given twice is refused, never a silent last-wins: each parser
 * keeps a struct cmd_seen and asks cmd_given_twice() (cmd_opts.c) about
 * every flag it meets.  @prog is the prefix of the message ("gemlab run");
 * true means it printed "PROG: FLAG given twice" and the caller exits 2. */
#define CMD_MAX_FLAGS 24
struct cmd_seen {
    const char *flag[CMD_MAX_FLAGS];
    int n;
};
bool cmd_given_twice(struct cmd_seen *s, const char *prog, const char *flag);

int cmd_check(int argc, char **argv);       /* cmd_check.c */
int cmd_show(int argc, char **argv);        /* cmd_show.c */
int cmd_diagnose(int argc, char **argv);    /* cmd_diagnose.c */
int cmd_report(int argc, char **argv);      /* cmd_report.c */
int cmd_merge(int argc, char **argv);       /* cmd_merge.c */
int cmd_baseline(int argc, char **argv);    /* cmd_baseline.c */
int cmd_campaign(int argc, char **argv);    /* cmd_campaign.c */
int cmd_run(int argc, char **argv);         /* cmd_run.c */
int cmd_boot(int argc, char **argv);        /* cmd_run.c */
int cmd_fault(int argc, char **argv);       /* cmd_fault.c */
int cmd_tap(int argc, char **argv);         /* cmd_tap.c */
int cmd_schema(int argc, char **argv);      /* cmd_schema.c */

#endif
