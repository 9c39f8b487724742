/*
 * cmd_schema.c - `gemlab schema`: the results.json fields
 * (results_schema.h) as the Markdown table docs/schema.md carries.
 */
#include <stdio.h>

#include "cmd.h"
#include "results_schema.h"
#include "run.h"

int cmd_schema(int argc, char **argv)
{
    if (argc > 0) {
        fprintf(stderr, "gemlab schema: unexpected argument '%s' (it takes none)\n", argv[0]);
        return RUN_EXIT_INPUT;
    }
    rs_write_markdown(stdout);
    return fflush(stdout) == 0 && !ferror(stdout) ? RUN_EXIT_PASS : RUN_EXIT_FAIL;
}
