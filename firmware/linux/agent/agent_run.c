/* agent_run.c - fork/exec with output capture (see agent_run.h). */
#include "agent_run.h"

#include <errno.h>
#include <fcntl.h>
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

int agent_run(const char *path, char *const argv[], struct agent_run_result *r)
{
    int pfd[2], status;
    size_t cap = 8192;
    double t0 = now_s();
    pid_t pid;

    memset(r, 0, sizeof(*r));
    r->out = malloc(cap);
    if (r->out == NULL)
        return -ENOMEM;
    if (pipe(pfd) != 0) {
        free(r->out);
        r->out = NULL;
        return -errno;
    }
    pid = fork();
    if (pid < 0) {
        int e = errno;

        close(pfd[0]);
        close(pfd[1]);
        free(r->out);
        r->out = NULL;
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
    for (;;) {
        char chunk[4096];
        ssize_t n = read(pfd[0], chunk, sizeof(chunk));

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n; i++) {
            if (r->len >= AGENT_RUN_OUT_MAX) {
                r->dropped += (size_t)(n - i);
                break;
            }
            if (r->len + 1 >= cap) {
                char *bigger = realloc(r->out, cap * 2);

                if (bigger == NULL) {
                    r->dropped += (size_t)(n - i);
                    break;
                }
                r->out = bigger;
                cap *= 2;
            }
            r->out[r->len++] = chunk[i];
        }
    }
    close(pfd[0]);
    r->out[r->len] = '\0';
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status))
        r->exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r->exit_status = 128 + WTERMSIG(status);
    else
        r->exit_status = -1;
    r->elapsed_s = now_s() - t0;
    return 0;
}
