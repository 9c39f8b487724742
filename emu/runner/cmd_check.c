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
        static struct scenario s;
        if (scn_load(argv[i], &s, stderr))
            bad++;
        else
            printf("%s: ok\n", argv[i]);
    }
    return bad ? RUN_EXIT_INPUT : 0;
}
