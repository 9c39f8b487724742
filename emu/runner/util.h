/* util.h - small helpers shared by the runner's commands. */
#ifndef GEMLAB_RUNNER_UTIL_H
#define GEMLAB_RUNNER_UTIL_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* The repository top: $GEMLAB_TOP, else derived from the binary
 * (TOP/build/host/bin/gemlab), else the working directory, else ".". */
void runner_find_top(char *top, size_t len);

/* Write @s to @f escaped for HTML text and attribute values. */
void runner_html_esc(FILE *f, const char *s);

/* Write @s to @f escaped for a Markdown table cell (newlines become
 * spaces). */
void runner_md_esc(FILE *f, const char *s);

struct cJSON;

/* The item at dotted @path below @root ("conditions.rx_bds"), or NULL
 * when a step is missing or a key is 64 bytes or longer. */
const struct cJSON *runner_json_path(const struct cJSON *root, const char *path);

/* Start argv[0] (searched in PATH when it has no '/') as a child in a
 * process group of its own, so one kill(-pid) reaches it and whatever it
 * forks.  SIGINT, SIGTERM, SIGHUP and SIGPIPE are at their defaults in
 * it; stdin is /dev/null, stdout @out_path (created 0600, truncated) and
 * stderr @err_path, or stdout when @err_path is NULL.  The kernel
 * SIGKILLs the child if the runner dies first, even by SIGKILL
 * (PR_SET_PDEATHSIG), so no QEMU or host iperf outlives a killed runner.
 * Returns 0 and sets *pid, or a positive errno as posix_spawn does,
 * failures of open() and exec() in the child included. */
int runner_spawn(pid_t *pid, char *const argv[], const char *out_path, const char *err_path);

#endif /* GEMLAB_RUNNER_UTIL_H */
