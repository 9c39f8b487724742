/* agent_run.c - fork/exec with output capture (see agent_run.h). */
#include "agent_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int agent_job_start(struct agent_job *j, const char *path, char *const argv[])
{
    int pfd[2];
    pid_t pid;

    memset(j, 0, sizeof(*j));
    j->fd = -1;
    j->t0 = now_s();
    j->cap = 8192;
    j->r.out = malloc(j->cap);
    if (j->r.out == NULL)
        return -ENOMEM;
    if (pipe(pfd) != 0) {
        int e = errno;

        free(j->r.out);
        j->r.out = NULL;
        return -e;
    }
    pid = fork();
    if (pid < 0) {
        int e = errno;

        close(pfd[0]);
        close(pfd[1]);
        free(j->r.out);
        j->r.out = NULL;
        return -e;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);

        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(pfd[1], 1);
        dup2(pfd[1], 2);
        close(pfd[0]);
        close(pfd[1]);
        execv(path, argv);
        _exit(127);
    }
    close(pfd[1]);
    j->pid = (int)pid;
    j->fd = pfd[0];
    return 0;
}

int agent_job_pump(struct agent_job *j, int block)
{
    for (;;) {
        char chunk[4096];
        ssize_t n;

        if (!block) {
            struct pollfd p = { .fd = j->fd, .events = POLLIN };

            if (poll(&p, 1, 0) <= 0)
                return 0;
        }
        n = read(j->fd, chunk, sizeof(chunk));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        if (n == 0)
            return 1;
        for (ssize_t i = 0; i < n; i++) {
            if (j->r.len >= AGENT_RUN_OUT_MAX) {
                j->r.dropped += (size_t)(n - i);
                break;
            }
            if (j->r.len + 1 >= j->cap) {
                char *bigger = realloc(j->r.out, j->cap * 2);

                if (bigger == NULL) {
                    j->r.dropped += (size_t)(n - i);
                    break;
                }
                j->r.out = bigger;
                j->cap *= 2;
            }
            j->r.out[j->r.len++] = chunk[i];
        }
    }
}

void agent_job_finish(struct agent_job *j)
{
    int status = 0;

    if (j->fd >= 0)
        close(j->fd);
    j->fd = -1;
    j->r.out[j->r.len] = '\0';
    while (waitpid((pid_t)j->pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status))
        j->r.exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        j->r.exit_status = 128 + WTERMSIG(status);
    else
        j->r.exit_status = -1;
    j->r.elapsed_s = now_s() - j->t0;
    j->pid = 0;
}

int agent_run(const char *path, char *const argv[], struct agent_run_result *r)
{
    struct agent_job j;
    int rc = agent_job_start(&j, path, argv);

    if (rc != 0) {
        memset(r, 0, sizeof(*r));
        return rc;
    }
    while (agent_job_pump(&j, 1) == 0)
        ;
    agent_job_finish(&j);
    *r = j.r;
    return 0;
}
