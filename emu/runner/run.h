/*
 * run.h - the commands that drive QEMU: run, boot, fault, tap.
 * Exit codes are the RUN_EXIT_* values (see main.c).
 */
#ifndef GEMLAB_RUNNER_RUN_H
#define GEMLAB_RUNNER_RUN_H

#include <cjson/cJSON.h>

#include "scenario.h"

enum {
    RUN_EXIT_PASS = 0,
    RUN_EXIT_FAIL = 1,
    RUN_EXIT_INPUT = 2,
    RUN_EXIT_MISSING = 3,
    RUN_EXIT_INTERRUPTED = 130,
};

int run_cmd_run(int argc, char **argv);
int run_cmd_boot(int argc, char **argv);
int run_cmd_fault(int argc, char **argv);
int run_cmd_tap(int argc, char **argv);

/* The scenario as JSON (`gemlab show`, results.json "scenario"). */
cJSON *run_scenario_json(const struct scenario *s);

#endif
