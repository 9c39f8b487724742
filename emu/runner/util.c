/* util.c - small helpers shared by the runner's commands (util.h). */
#define _GNU_SOURCE            /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include "util.h"

void runner_find_top(char *top, size_t len)
{
    char exe[PATH_MAX], probe[PATH_MAX + 32];
    const char *env = getenv("GEMLAB_TOP");
    ssize_t n;

    if (env && *env) {
        snprintf(top, len, "%s", env);
        return;
    }
    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        for (int up = 0; up < 4; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = '\0';
            snprintf(probe, sizeof(probe), "%s/emu/runner", exe);
            if (access(probe, F_OK) == 0) {
                snprintf(top, len, "%s", exe);
                return;
            }
        }
    }
    if (!getcwd(top, len))
        snprintf(top, len, ".");
}

void runner_html_esc(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

void runner_md_esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (strchr("|*_`[]<>\\#", *s))
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

const cJSON *runner_json_path(const cJSON *root, const char *path)
{
    char key[64];
    const cJSON *cur = root;

    while (cur && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof(key))
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        cur = cJSON_GetObjectItemCaseSensitive(cur, key);
        path += n + (path[n] == '.');
    }
    return cur;
}

/* Open @path as descriptor @target (mode 0600 when created), leaving no
 * other descriptor behind; 0 or -1 with errno.  Async-signal-safe. */
static int open_as(int target, const char *path, int flags)
{
    int fd = open(path, flags, 0600);

    if (fd < 0)
        return -1;
    if (fd != target) {
        if (dup2(fd, target) < 0)
            return -1;
        close(fd);
    }
    return 0;
}

/* In the child between fork and exec: only async-signal-safe calls. */
static void spawn_child(int report_fd, pid_t parent, char *const argv[], const char *out_path,
                        const char *err_path)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    struct sigaction dfl;
    sigset_t none;
    int err;

    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    for (size_t k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
        sigaction(sigs[k], &dfl, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (setpgid(0, 0) || prctl(PR_SET_PDEATHSIG, SIGKILL))
        goto fail;
    if (getppid() != parent) {          /* the runner died before prctl */
        errno = ESRCH;
        goto fail;
    }
    if (open_as(0, "/dev/null", O_RDONLY) || open_as(1, out_path, O_WRONLY | O_CREAT | O_TRUNC))
        goto fail;
    if (err_path ? open_as(2, err_path, O_WRONLY | O_CREAT | O_TRUNC) : dup2(1, 2) < 0)
        goto fail;
    execvp(argv[0], argv);
fail:
    err = errno;
    if (write(report_fd, &err, sizeof(err)) < 0)
        _exit(126);
    _exit(127);
}

int runner_spawn(pid_t *pid, char *const argv[], const char *out_path, const char *err_path)
{
    pid_t parent = getpid(), c;
    int pfd[2], err = 0;
    ssize_t n;

    /* close-on-exec: EOF on a successful exec, the errno otherwise */
    if (pipe2(pfd, O_CLOEXEC))
        return errno;
    c = fork();
    if (c < 0) {
        err = errno;
        close(pfd[0]);
        close(pfd[1]);
        return err;
    }
    if (c == 0)
        spawn_child(pfd[1], parent, argv, out_path, err_path);
    close(pfd[1]);
    do
        n = read(pfd[0], &err, sizeof(err));
    while (n < 0 && errno == EINTR);
    close(pfd[0]);
    if (n == (ssize_t)sizeof(err)) {
        while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
            ;
        return err ? err : EIO;
    }
    *pid = c;
    return 0;
}
