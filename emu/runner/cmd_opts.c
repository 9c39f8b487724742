/* cmd_opts.c - what every subcommand's option parser shares. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

bool cmd_given_twice(struct cmd_seen *s, const char *prog, const char *flag)
{
    for (int k = 0; k < s->n; k++)
        if (!strcmp(s->flag[k], flag)) {
            fprintf(stderr, "%s: %s given twice\n", prog, flag);
            return true;
        }
    /* a command has far fewer flags than slots; past them, count nothing */
    if (s->n < CMD_MAX_FLAGS)
        s->flag[s->n++] = flag;
    return false;
}
