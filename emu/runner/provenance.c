/*
 * provenance.c - QEMU patch set, model and firmware build identity of a
 * run (see provenance.h).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

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

    {
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
