/* cmd_check.c - `gemlab check`: options and exit codes; the work is in scenario.c. */
#include <stdio.h>

#include "cmd.h"
#include "run.h"
#include "scenario.h"

int cmd_check(int argc, char **argv)
{
    int bad = 0;

    if (argc < 1) {
        fprintf(stderr, "gemlab check: no scenario given\n");
        return RUN_EXIT_INPUT;
    }
    for (int i = 0; i < argc; i++) {
        static struct scenario s, c;
        /* a [control] is checked as the scenario it makes (`show
         * --control`, and what `make qemu-test` runs as NAME_control) */
        if (scn_load(argv[i], &s, stderr) || (s.control_line && scn_make_control(&s, &c, stderr)))
            bad++;
        else
            printf("%s: ok%s\n", argv[i], s.control_line ? " (and its [control])" : "");
    }
    return bad ? RUN_EXIT_INPUT : 0;
}
