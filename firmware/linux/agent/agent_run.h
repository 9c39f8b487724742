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

/* The same in steps, for a tool that runs while the agent serves other
 * commands (`run -b`): start it, read its pipe as it has data, reap it
 * after end of file.  pid 0: no job. */
struct agent_job {
    int pid;
    int fd;
    size_t cap;
    double t0;
    struct agent_run_result r;
};

/* Returns 0 with @j running, or a negative errno (@j then has no job). */
int agent_job_start(struct agent_job *j, const char *path, char *const argv[]);
/* Read what the pipe holds (waiting for data when @block): 1 at end of
 * file, 0 when more may come, or a negative errno. */
int agent_job_pump(struct agent_job *j, int block);
/* After end of file: close the pipe, wait for the child, fill
 * j->r.exit_status and elapsed_s; j->pid becomes 0 (j->r.out is the
 * caller's to free). */
void agent_job_finish(struct agent_job *j);

#endif /* GEMLAB_AGENT_RUN_H */
