/*
 * qom.c - what the runner reads from and finds in a running QEMU over QMP:
 * the link model's QOM path, the MAC's programmed speed, the model's read-only
 * link state and counters (emu/qemu patch 0003).
 */
#include "qom.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemlab/link_props.h"
#include "qemu.h"

#define QMP_TIMEOUT_MS 3000

/* Does the object at @path have a property @name? */
static bool qom_has(struct qmp *q, const char *path, const char *name)
{
    cJSON *a = cJSON_CreateObject(), *ret = NULL, *e;
    bool found = false;

    cJSON_AddStringToObject(a, "path", path);
    if (qmp_exec(q, "qom-list", a, &ret, QMP_TIMEOUT_MS))
        return false;
    cJSON_ArrayForEach(e, ret) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (cJSON_IsString(nm) && strcmp(nm->valuestring, name) == 0)
            found = true;
    }
    cJSON_Delete(ret);
    return found;
}

/* Find the QOM path of the link model's properties.  The GEM is the first
 * child<cadence_gem> directly under /machine (our QEMU names them
 * gem0/gem1) or, on stock QEMU, under /machine/unattached.  On our QEMU
 * 10.0 the model is the GEM's child gemlab-link
 * (emu/qemu/include/hw/net/gemlab_link.h), at GEM/gemlab-link.  On our
 * QEMU 7.2 the properties sit on the GEM itself.
 * Fills @path; -ENOENT if no GEM. */
int qom_find_link(struct qmp *q, char *path, size_t len)
{
    static const char *const parents[] = { "/machine", "/machine/unattached" };

    for (size_t p = 0; p < sizeof(parents) / sizeof(parents[0]); p++) {
        cJSON *a = cJSON_CreateObject(), *ret = NULL, *e;
        int rc;

        cJSON_AddStringToObject(a, "path", parents[p]);
        rc = qmp_exec(q, "qom-list", a, &ret, QMP_TIMEOUT_MS);
        if (rc)
            return rc;
        cJSON_ArrayForEach(e, ret) {
            const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "type");
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
            if (cJSON_IsString(t) && cJSON_IsString(nm) &&
                strcmp(t->valuestring, "child<" QEMU_GEM_DRIVER ">") == 0) {
                snprintf(path, len, "%s/%s", parents[p], nm->valuestring);
                cJSON_Delete(ret);
                if (qom_has(q, path, QEMU_LINK_PROP) && strlen(path) + sizeof(QEMU_LINK_PROP) + 1 <= len)
                    strcat(strcat(path, "/"), QEMU_LINK_PROP);
                return 0;
            }
        }
        cJSON_Delete(ret);
    }
    return -ENOENT;
}

/* NWCFG (UG585 16.3, GEM offset 0x004): bit 0 SPEED (100), bit 10 GIGE.
 * Read through the monitor's physical-memory dump, side-effect free. */
#define GEM0_NWCFG_ADDR 0xE000B004u
#define NWCFG_SPEED BIT_(0)
#define NWCFG_GIGE BIT_(10)
#define BIT_(n) (1u << (n))

double qom_read_mac_speed(struct qmp *q)
{
    cJSON *a = cJSON_CreateObject(), *ret = NULL;
    char cmd[64];
    double speed = NAN;

    snprintf(cmd, sizeof(cmd), "xp /1wx 0x%08x", GEM0_NWCFG_ADDR);
    cJSON_AddStringToObject(a, "command-line", cmd);
    if (qmp_exec(q, "human-monitor-command", a, &ret, QMP_TIMEOUT_MS) == 0 && cJSON_IsString(ret)) {
        const char *colon = strchr(ret->valuestring, ':');
        if (colon) {
            unsigned long v = strtoul(colon + 1, NULL, 16);
            speed = (v & NWCFG_GIGE) ? 1000 : (v & NWCFG_SPEED) ? 100 : 10;
        }
    }
    cJSON_Delete(ret);
    return speed;
}

/* One read-only property of the link model into @m, named as in
 * results.json: '-' -> '_'.  Skipped when this QEMU lacks it. */
static void collect_one(struct qmp *q, const char *path, const char *props, cJSON *m, const char *prefix,
                        const char *prop)
{
    char name[96];
    cJSON *v = NULL;

    snprintf(name, sizeof(name), "%s%s", prefix, prop);
    if (!qemu_has_prop(props, name) || qmp_qom_get(q, path, name, &v, QMP_TIMEOUT_MS))
        return;
    for (char *p = name; *p; p++)
        if (*p == '-')
            *p = '_';
    cJSON_AddItemToObject(m, name, v);
}

/* The model's state and every counter, from the rows of
 * models/include/gemlab/link_props.h (QEMU makes its properties of the
 * same rows). */
cJSON *qom_collect_model(struct qmp *q, const char *path, const char *props)
{
#define STATE_NAME(name, what, t) name,
#define COUNTER_NAME(name, field) name,
    static const char *const state[] = { GL_LINK_STATE_PROPS(STATE_NAME) GL_LINK_COUNTERS(COUNTER_NAME) };
    static const char *const wire[] = { GL_LINK_WIRE_COUNTERS(COUNTER_NAME) };
#undef STATE_NAME
#undef COUNTER_NAME
    cJSON *m = cJSON_CreateObject();

    for (size_t k = 0; k < sizeof(state) / sizeof(state[0]); k++)
        collect_one(q, path, props, m, "", state[k]);
    for (int dir = 0; dir < 2; dir++)
        for (size_t k = 0; k < sizeof(wire) / sizeof(wire[0]); k++)
            collect_one(q, path, props, m, dir ? GL_LINK_WIRE_CNT_RX : GL_LINK_WIRE_CNT_TX, wire[k]);
    return m;
}

