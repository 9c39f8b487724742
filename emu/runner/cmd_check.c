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
        /* in virtual time `gemlab run` takes the in-emulator peer
         * (--net sim): what it cannot run is refused here too */
        if (scn_load(argv[i], &s, stderr) || (s.control_line && scn_make_control(&s, &c, stderr)) ||
            (scn_clock_virtual(&s) && run_sim_check(&s, argv[i])) ||
            (s.control_line && scn_clock_virtual(&c) && run_sim_check(&c, argv[i])))
            bad++;
        else
            printf("%s: ok%s\n", argv[i], s.control_line ? " (and its [control])" : "");
    }
    return bad ? RUN_EXIT_INPUT : 0;
}
