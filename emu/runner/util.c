/* util.c - small helpers shared by the runner's commands (util.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
