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

/* The segment of @path that ends at @end (a '/'), or NULL when @end is at
 * the start: "a/b/c" with @end at the second '/' gives "b" */
static const char *segment_before(const char *path, const char *end)
{
    const char *s = end;

    while (s > path && s[-1] != '/')
        s--;
    return s < end ? s : NULL;
}

void prov_qemu_build(const char *qemu, char *build, size_t blen, char *patch, size_t plen)
{
    static const char bin[] = "/qemu-system-arm";
    size_t n = strlen(qemu);
    const char *end, *full = NULL, *fe = NULL, *ve, *vb;

    build[0] = patch[0] = '\0';
    if (n <= sizeof(bin) - 1 || strcmp(qemu + n - (sizeof(bin) - 1), bin))
        return;
    end = qemu + n - (sizeof(bin) - 1);            /* the '/' before qemu-system-arm */
    /* 10.0: VER-KEY/bin/FULL/ (FULL: KEY and our device files, models/
     * and the peer's sources); 7.2: VER-KEY/build/ */
    if ((full = segment_before(qemu, end)) && full - qemu >= 5 && !strncmp(full - 5, "/bin/", 5)) {
        fe = end;
        ve = full - 5;
    } else if (full && full - qemu >= 1 && !strncmp(full, "build/", 6)) {
        ve = full - 1;
        full = NULL;
    } else
        return;
    if (!(vb = segment_before(qemu, ve)) || !memchr(vb, '-', (size_t)(ve - vb)))
        return;
    snprintf(build, blen, "%.*s", (int)(ve - vb), vb);
    {
        const char *key = strrchr(build, '-') + 1;
        if (full)
            snprintf(patch, plen, "%s/%.*s", key, (int)(fe - full), full);
        else
            snprintf(patch, plen, "%s", key);
    }
}

void prov_add(cJSON *versions, const char *top, const char *qemu, const char *fw)
{
    char build[256] = "", patch[128] = "", buf[512], models[128] = "", line[1024], k1[128], k2[128];

    prov_qemu_build(qemu, build, sizeof(build), patch, sizeof(patch));
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
