/* agent_run.h - run a benchmark tool and capture what it prints. */
#ifndef GEMLAB_AGENT_RUN_H
#define GEMLAB_AGENT_RUN_H

#include <stddef.h>

#define AGENT_RUN_OUT_MAX (512u * 1024u) /* captured bytes kept; rest counted */

struct agent_run_result {
    int exit_status;     /* exit code, or 128+signal, or -1 if exec failed */
    char *out;           /* stdout+stderr, NUL-terminated, malloc'd: caller frees */
    size_t len;
    size_t dropped;      /* bytes past AGENT_RUN_OUT_MAX that were discarded */
    double elapsed_s;
};

/* fork + execv(path, argv) with stdin from /dev/null and stdout/stderr into
 * one pipe; no shell.  Waits for the child.  Returns 0 (see r->exit_status)
 * or a negative errno when the child could not be started. */
int agent_run(const char *path, char *const argv[], struct agent_run_result *r);

#endif /* GEMLAB_AGENT_RUN_H */
