/*
 * provenance.c - QEMU patch set, model and firmware build identity of a
 * run (see provenance.h).
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "provenance.h"
#include "qemu.h"

/* first line of DIR-of(@path)/@name into @out ("" when absent) */
static void sibling_line(const char *path, const char *name, char *out, size_t len)
{
    char p[PATH_MAX + 64];
    const char *slash = strrchr(path, '/');
    FILE *f;

    out[0] = '\0';
    if (!slash)
        snprintf(p, sizeof(p), "%s", name);
    else
        snprintf(p, sizeof(p), "%.*s/%s", (int)(slash - path), path, name);
    f = fopen(p, "r");
    if (!f)
        return;
    if (!fgets(out, (int)len, f))
        out[0] = '\0';
    fclose(f);
    out[strcspn(out, "\n")] = '\0';
    /* trailing blanks from make's echo */
    for (size_t n = strlen(out); n && out[n - 1] == ' '; n--)
        out[n - 1] = '\0';
}

/* Whether git may run in @top: always as a user; as root only when the tree
 * and its .git are root's (docs/SECURITY.md R8: git reads .git/config, whose
 * core.fsmonitor, core.pager, ... are commands; git's own safe.directory
 * check can be switched off by the environment, GIT_CONFIG_GLOBAL). */
static bool tree_trusted(const char *top)
{
    char git[PATH_MAX + 8];
    struct stat a, b;

    if (geteuid() != 0)
        return true;
    snprintf(git, sizeof(git), "%s/.git", top);
    return stat(top, &a) == 0 && a.st_uid == 0 && !(a.st_mode & (S_IWGRP | S_IWOTH)) &&
           (stat(git, &b) != 0 || (b.st_uid == 0 && !(b.st_mode & (S_IWGRP | S_IWOTH))));
}

void prov_add(cJSON *versions, const char *top, const char *qemu, const char *fw)
{
    char build[256] = "", patch[128] = "", buf[512], models[128] = "", line[1024], k1[128], k2[128];
    const char *b = strstr(qemu, "/build/qemu-system-arm");

    /* .../VER-KEY/build/qemu-system-arm */
    if (b) {
        const char *s = b;
        while (s > qemu && s[-1] != '/')
            s--;
        snprintf(build, sizeof(build), "%.*s", (int)(b - s), s);
        if (strrchr(build, '-'))
            snprintf(patch, sizeof(patch), "%s", strrchr(build, '-') + 1);
    }
    cJSON_AddStringToObject(versions, "qemu_build", build);
    cJSON_AddStringToObject(versions, "qemu_patch", patch);

    if (tree_trusted(top)) {
        char *argv_t[] = { "git", "-C", (char *)top, "rev-parse", "--short=12", "HEAD:models", NULL };
        char *argv_d[] = { "git", "-C", (char *)top, "status", "--porcelain", "--", "models", NULL };
        buf[0] = '\0';
        if (run_capture(argv_t, buf, sizeof(buf), 5000) == 0 && buf[0]) {
            buf[strcspn(buf, "\n")] = '\0';
            snprintf(models, sizeof(models), "%s", buf);
            buf[0] = '\0';
            if (run_capture(argv_d, buf, sizeof(buf), 5000) == 0 && buf[0])
                strncat(models, "-dirty", sizeof(models) - strlen(models) - 1);
        }
    }
    cJSON_AddStringToObject(versions, "models", models);

    sibling_line(fw, "version.txt", line, sizeof(line));
    cJSON_AddStringToObject(versions, "firmware", line);
    sibling_line(fw, "config.txt", line, sizeof(line));
    if (!line[0]) {
        sibling_line(fw, "kernel.key", k1, sizeof(k1));
        sibling_line(fw, "initramfs.cpio.gz.key", k2, sizeof(k2));
        if (k1[0] || k2[0])
            snprintf(line, sizeof(line), "kernel=%s initramfs=%s", k1, k2);
    }
    cJSON_AddStringToObject(versions, "firmware_options", line);
}
