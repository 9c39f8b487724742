/* cmd_show.c - `gemlab show`: options and exit codes; the work is in scenario.c and run.c. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "run.h"
#include "scenario.h"

int cmd_show(int argc, char **argv)
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
