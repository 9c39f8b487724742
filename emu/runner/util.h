/* util.h - small helpers shared by the runner's commands. */
#ifndef GEMLAB_RUNNER_UTIL_H
#define GEMLAB_RUNNER_UTIL_H

#include <stddef.h>
#include <stdio.h>

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

#endif /* GEMLAB_RUNNER_UTIL_H */
